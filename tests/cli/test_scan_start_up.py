"""What `lockin scan` leaves unloaded: its start-up is serial time before the workers fork,
so modules that only other commands, other formats or a configuration file need are imported
where they are used. Checked in a fresh interpreter, as a user's scan runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.cli.test_cli import KERNEL

#: Modules a scan in text, JSON or CSV of a tree without a configuration file does not need
#: once the registry's cache is warm: the YAML parser and schema checker (the cache holds
#: what they made), git's patches, the Markdown and SARIF renderers.
LATE = (
    "yaml",
    "fastjsonschema",
    "unidiff",
    "bot.engine.delta",
    "bot.policy.config_yaml",
    "bot.render.markdown",
    "bot.render.sarif",
)

# The CLI in a fresh interpreter; the LATE modules it loaded go to stderr's last line.
_RUN = """
import sys
from bot.cli import main
code = main(sys.argv[2:])
sys.stderr.write(",".join(m for m in sys.argv[1].split(",") if m in sys.modules) + "\\n")
raise SystemExit(code)
"""


def _loaded(tree: Path, cache: Path, *options: str) -> list[str]:
    """The LATE modules a ``lockin scan`` of ``tree`` loaded (it must succeed)."""
    result = subprocess.run(
        [sys.executable, "-c", _RUN, ",".join(LATE), "scan", str(tree), *options],
        capture_output=True,
        text=True,
        env={**os.environ, "LOCKIN_CACHE_DIR": str(cache)},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    last = result.stderr.splitlines()[-1]
    return last.split(",") if last else []


def test_a_scan_with_a_warm_cache_and_no_configuration_loads_none_of_them(
    tmp_path: Path,
) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "k.cu").write_text(KERNEL)
    cache = tmp_path / "cache"
    # A cold cache parses and checks the rule files: the parser is loaded then.
    assert {"yaml", "fastjsonschema"} <= set(_loaded(tree, cache))
    for fmt in ("text", "json", "csv"):
        assert _loaded(tree, cache, "--format", fmt) == [], fmt


def test_a_configuration_file_and_a_markdown_scan_load_what_they_need(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    (tree / ".github").mkdir(parents=True)
    (tree / "k.cu").write_text(KERNEL)
    (tree / ".github" / "lockin.yml").write_text("paths:\n  exclude: [vendor/]\n")
    cache = tmp_path / "cache"
    _loaded(tree, cache)  # warms the cache
    assert {"yaml", "bot.policy.config_yaml"} <= set(_loaded(tree, cache))
    assert "bot.render.markdown" in _loaded(tree, cache, "--format", "markdown")
    assert "bot.render.sarif" in _loaded(tree, cache, "--format", "sarif")


# Importing the command line in a fresh interpreter: the collections meanwhile, whether the
# collector runs afterwards, and how many objects it leaves out of its passes.
_IMPORT = """
import gc
runs = []
gc.callbacks.append(lambda phase, info: runs.append(phase))
import bot.cli
print(runs.count("start"), gc.isenabled(), gc.get_freeze_count())
"""


def test_loading_the_command_line_leaves_what_it_loaded_to_no_collection(tmp_path: Path) -> None:
    # Each pass of the cycle collector while the registry loads would traverse everything
    # loaded so far (a tenth of the start-up, sixty passes); frozen, nothing loaded is
    # traversed again by a later pass either.
    result = subprocess.run(
        [sys.executable, "-c", _IMPORT],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "LOCKIN_CACHE_DIR": str(tmp_path / "cache")},
    )
    collections, enabled, frozen = result.stdout.split()
    assert int(collections) <= 2  # the import system's own, before and after the package
    assert enabled == "True"
    assert int(frozen) > 20_000  # the registry, its regexes and the modules
