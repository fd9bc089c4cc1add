"""The map is the house: docs/architecture.md's tables say what each package imports (and
each module of the command line, bot/cli), and no module of the app imports another inside
a function unless a comment says why.

The import graph comes from grimp (import-linter's own graph), type-checking imports
included, as the contracts in pyproject.toml count them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp
import pytest

import bot

ROOT = Path(bot.__file__).parent
ARCHITECTURE = ROOT.parent / "docs" / "architecture.md"
ROW = re.compile(r"^\| \d+ \| `bot/(\w+?)(?:\.py)?` \| .* \| (?P<imports>[^|]*) \|$")
CLI_ROW = re.compile(r"^\| \d+ \| `bot/cli/(\w+)\.py` \| .* \| (?P<imports>[^|]*) \|$")


def _room(module: str) -> str:
    """The room of a module: its package under bot (bot.review.run -> review)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "bot"


def _documented(row: re.Pattern[str] = ROW) -> dict[str, set[str]]:
    rooms: dict[str, set[str]] = {}
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        m = row.match(line)
        if m:
            named = {name.strip() for name in m.group("imports").split(",")}
            rooms[m.group(1)] = named - {"nothing"}
    return rooms


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("bot", exclude_type_checking_imports=False)


def _actual() -> dict[str, set[str]]:
    graph = _graph()
    rooms: dict[str, set[str]] = {}
    for module in graph.modules:
        room = _room(module)
        imported = {_room(m) for m in graph.find_modules_directly_imported_by(module)}
        rooms.setdefault(room, set()).update(imported - {room, "bot"})
    return rooms


def test_every_room_of_the_house_has_a_row_in_the_architecture_table() -> None:
    rooms = set(_actual()) - {"bot"}
    assert rooms == set(_documented())


@pytest.mark.parametrize("room", sorted(_documented()))
def test_the_table_names_exactly_what_each_room_imports(room: str) -> None:
    assert _actual().get(room, set()) == _documented()[room]


def _cli_name(module: str) -> str:
    """A module of the command line by its name (bot.cli.scan -> scan, bot.cli ->
    __init__), any other module by its room."""
    if module == "bot.cli":
        return "__init__"
    return module.split(".")[2] if module.startswith("bot.cli.") else _room(module)


def _actual_cli() -> dict[str, set[str]]:
    graph = _graph()
    modules = [m for m in graph.modules if m == "bot.cli" or m.startswith("bot.cli.")]
    return {
        _cli_name(m): {_cli_name(i) for i in graph.find_modules_directly_imported_by(m)}
        - {_cli_name(m), "bot", "cli"}
        for m in modules
    }


def test_every_module_of_the_command_line_has_a_row_in_its_table() -> None:
    assert set(_actual_cli()) == set(_documented(CLI_ROW))


@pytest.mark.parametrize("module", sorted(_documented(CLI_ROW)))
def test_the_table_names_exactly_what_each_module_of_the_command_line_imports(
    module: str,
) -> None:
    assert _actual_cli().get(module, set()) == _documented(CLI_ROW)[module]


def _late_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every `import bot...` inside a function of this file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot"):
                found.append((node.lineno, node.module or ""))
            elif isinstance(node, ast.Import):
                found += [(node.lineno, a.name) for a in node.names if a.name.startswith("bot")]
    return found


def test_function_level_imports_of_the_app_each_say_why() -> None:
    """A late import hides a cycle or a heavy optional part; a comment on its line or the
    line above must say which, so a reader can tell a choice from an accident."""
    unexplained = []
    for path in sorted(ROOT.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for lineno, module in _late_imports(path):
            here, above = lines[lineno - 1], lines[lineno - 2] if lineno > 1 else ""
            if "#" not in here and not above.strip().startswith("#"):
                unexplained.append(f"{path.relative_to(ROOT.parent)}:{lineno} {module}")
    assert unexplained == []
