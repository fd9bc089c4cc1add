"""Every module of the app imports on its own, in a fresh interpreter.

A module that works only because another one was imported first (a circular import
resolved by luck, a name set by a side effect) fails here, whatever order the suite runs in.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import bot

ROOT = Path(bot.__file__).parent

#: One interpreter; each module imported with no module of the app loaded (third-party
#: modules stay: some C extensions cannot be imported twice in one process).
_PROBE = """
import importlib, json, sys, traceback
failures = {}
for name in json.loads(sys.argv[1]):
    for loaded in [m for m in sys.modules if m == "bot" or m.startswith("bot.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except BaseException:
        failures[name] = traceback.format_exc(limit=3)
print(json.dumps(failures))
"""


def modules() -> list[str]:
    names = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        if parts[-1] == "__main__":
            continue  # runs the command line when imported
        if parts[:3] == ("bot", "store", "migrations"):
            continue  # Alembic's scripts: run by Alembic with its context, never imported
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_the_app_has_modules_to_check() -> None:
    assert {"bot.engine", "bot.runtime.dispatch", "bot.worker", "bot.server.app"} <= set(modules())


# A fresh import of the whole app per module: seconds on a quiet machine, minutes on a
# loaded 2-core one. The suite-wide 120 s guard is for hangs, not for this much honest work.
@pytest.mark.timeout(900)
def test_every_module_imports_on_its_own() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(modules())],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT.parent,
    )
    failures = json.loads(result.stdout)
    assert failures == {}, "\n".join(f"{name}:\n{tb}" for name, tb in failures.items())
