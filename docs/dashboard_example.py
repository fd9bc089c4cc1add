"""Render the Lock-in dashboard issue body from `lockin plan` and `lockin history` JSON, as
the bot writes it (bot.render.dashboard), for the README's example.

    lockin plan --format json CHECKOUT > plan.json
    lockin history GIT_DIR --rev REV --since DATE --every month --format json > history.json
    python docs/dashboard_example.py plan.json history.json > docs/dashboard-example.md
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from bot.render.dashboard import dashboard_body


def main(plan_path: str, history_path: str) -> int:
    document = json.loads(Path(plan_path).read_text())
    history = json.loads(Path(history_path).read_text())
    last = history["points"][-1]
    figures = {
        "code_lines": last["code_lines"],
        "non_portable_lines": last["non_portable_lines"],
        "nvidia_share": last["nvidia_share"],
    }
    points = [(p["date"][:10], p["non_portable_lines"]) for p in history["points"]]
    sys.stdout.write(dashboard_body(document, figures, points=points, notes=None) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
