"""A plain install (no `app` extra) runs every CLI command: checked in a fresh interpreter
where the server's libraries cannot be imported at all. tests/packaging does the same with
a real fresh venv and the built wheel."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.gitrepo import commit, init
from tests.cli.test_cli import EXAMPLES, KERNEL

pytestmark = pytest.mark.slow

#: Top-level modules of the `app`, `redis` and `postgres` extras and their dependencies.
SERVER_STACK = (
    "aiohttp",
    "gidgethub",
    "sqlalchemy",
    "alembic",
    "aiosqlite",
    "jinja2",
    "prometheus_client",
    "jwt",
    "cryptography",
    "dotenv",
    "isal",
    "arq",
    "redis",
    "psycopg",
)

_RUN = """
import sys
from importlib.abc import MetaPathFinder

class Absent(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

BLOCKED = set(sys.argv[1].split(","))
sys.meta_path.insert(0, Absent())
from bot.cli import main
code = main(sys.argv[2:])
loaded = sorted({m.split(".")[0] for m in sys.modules} & BLOCKED)
assert not loaded, loaded
raise SystemExit(code)
"""


def _lockin(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _RUN, ",".join(SERVER_STACK), *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
    )


def test_every_cli_command_runs_without_the_server_stack(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, {"model.py": "import torch\n"}, "base")
    commit(repo, {"ops/k.cu": KERNEL}, "kernel")
    page = tmp_path / "report.html"
    for argv, expected in (
        (["scan", str(EXAMPLES / "repo")], 0),
        (["scan", str(repo), "--rev", "HEAD~1"], 0),
        (["diff", "HEAD~1", "HEAD", "--repo", str(repo)], 1),
        (["history", str(repo), "--every", "1-commits"], 0),
        (["plan", str(EXAMPLES / "repo")], 0),
        (["report", str(repo), "-o", str(page)], 0),
        (["rules", "cuda.kernel"], 0),
        (["init", str(repo)], 0),
        (["serve", "--help"], 0),
    ):
        result = _lockin(*argv, cwd=tmp_path)
        assert result.returncode == expected, (argv, result.stderr[-2000:])
        assert "Traceback" not in result.stderr
    assert "<svg" in page.read_text()


def test_serve_without_the_app_extra_says_what_to_install(tmp_path: Path) -> None:
    result = _lockin("serve", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("lockin: error: lockin serve needs the App's dependencies (")
    assert result.stderr.endswith("pip install 'lockin-gpu[app]'\n")
    assert result.stderr.count("\n") == 1
    result = _lockin("worker", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.endswith("pip install 'lockin-gpu[redis]'\n")
