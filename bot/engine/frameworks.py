"""Which ML frameworks a repository builds on, from its Python imports and dependency files.

The frameworks are data (data/frameworks.yml); this module only reads text. A framework is
reported with the first few files that show it, so the register can say where it was seen.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)|import[ \t]+([A-Za-z_]\w*))", re.M)
# A requirement's name at the start of a line or of a quoted string ("torch>=2", 'jax[cuda]').
_REQUIREMENT = re.compile(r"""(?:^|["'])[ \t]*(?:-[ \t]+)?([A-Za-z0-9][A-Za-z0-9._-]*)""", re.M)
_DEPENDENCY_FILE = re.compile(
    r"(?:^|/)(?:requirements[^/]*\.(?:txt|in)|pyproject\.toml|setup\.py|setup\.cfg|"
    r"environment[^/]*\.ya?ml|Pipfile)$"
)
#: Files that show a framework, kept per framework (evidence, not a count).
EVIDENCE = 3
# Bounded reading: a hostile file cannot make the scan slow.
_MAX_BYTES = 512 * 1024


@dataclass(frozen=True)
class Framework:
    name: str
    title: str
    imports: frozenset[str]
    packages: frozenset[str]


@cache
def frameworks() -> tuple[Framework, ...]:
    text = resources.files("bot.engine").joinpath("data/frameworks.yml").read_text()
    return tuple(
        Framework(
            name,
            row["title"],
            frozenset(row["imports"]),
            frozenset(_package(p) for p in row["packages"]),
        )
        for name, row in yaml.safe_load(text).items()
    )


def _package(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def detect(files: Iterable[tuple[str, bytes]]) -> dict[str, list[str]]:
    """framework name -> up to EVIDENCE paths that import it or list it as a dependency,
    for Python sources and dependency files among ``files`` (path, content)."""
    by_import = {module: f for f in frameworks() for module in f.imports}
    by_package = {package: f for f in frameworks() for package in f.packages}
    found: dict[str, list[str]] = {}
    for path, data in files:
        if path.endswith((".py", ".pyi")):
            names = _imports(data)
            table = by_import
        elif _DEPENDENCY_FILE.search(path):
            names = _requirements(data)
            table = by_package
        else:
            continue
        for name in names:
            framework = table.get(name)
            if framework is None:
                continue
            seen = found.setdefault(framework.name, [])
            if len(seen) < EVIDENCE and path not in seen:
                seen.append(path)
    return found


def wanted(path: str) -> bool:
    """Whether ``detect`` reads this path (the caller need not load other files)."""
    return path.endswith((".py", ".pyi")) or bool(_DEPENDENCY_FILE.search(path))


def _imports(data: bytes) -> set[str]:
    text = data[:_MAX_BYTES].decode("utf-8", "replace")
    return {m.group(1) or m.group(2) for m in _IMPORT.finditer(text)}


def _requirements(data: bytes) -> set[str]:
    text = data[:_MAX_BYTES].decode("utf-8", "replace")
    return {_package(m.group(1)) for m in _REQUIREMENT.finditer(text)}


def title(name: str) -> str:
    return next((f.title for f in frameworks() if f.name == name), name)
