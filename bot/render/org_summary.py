"""What the organisation pages keep of a repository's register and plan (``lockin.plan/2``):
coverage, decisions with their owners, the largest areas nobody decided on, and the cost of
moving per target. Small enough to store one per repository and read a thousand at once."""

from __future__ import annotations

from typing import Any

#: Undecided areas kept per repository (the largest first).
MAX_AREAS = 10


def org_summary(document: dict[str, Any], dashboard_url: str | None) -> dict[str, Any]:
    register = document["register"]
    gated, covered = register["gated_lines"], register["covered_lines"]
    return {
        "gated_lines": gated,
        "covered_lines": covered,
        "uncovered_lines": max(0, gated - covered),
        "coverage": register["coverage"],
        "kernels": len(document["kernels"]),
        "decisions": [
            {
                "ref": d["ref"],
                "title": d["title"],
                "status": d["status"],
                "owner": d["owner"],
                "compute_api": d["compute_api"],
                "lines": d["lines"],
                "drifted": d["drifted"],
            }
            for d in register["decisions"]
        ],
        "uncovered": [
            {"directory": a["directory"], "lines": a["lines"], "owners": a["owners"]}
            for a in sorted(register["uncovered"], key=lambda a: -a["lines"])[:MAX_AREAS]
        ],
        "plans": [
            {
                "target": p["target"],
                "vendor": p["vendor"],
                "tool": p["tool"],
                "port": p["port"],
                "review": p["review"],
                "rewrite": p["rewrite"],
                "map": p["map"],
                "edit": p["edit"],
                "engineer_weeks": p["engineer_weeks"],
            }
            for p in document["plans"]
        ],
        "dashboard": dashboard_url,
    }
