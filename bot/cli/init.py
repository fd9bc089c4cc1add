"""``lockin init``: a commented ``.github/lockin.yml`` and a first ``status: proposed``
decision record for the GPU code already there, so a team starts from its own figures.

The configuration is generated from lockin.schema.json (every key, its default and its
description), so it never falls behind the keys the policy knows.
"""

from __future__ import annotations

import argparse
import os
import posixpath
import textwrap
from collections import Counter
from typing import Any, TextIO

import yaml

from bot.cli.common import UsageError
from bot.cli.help import add_command
from bot.engine.census import Census
from bot.policy.config import DEFAULT_POLICY, SCHEMA
from bot.sources.engine_runner import scan_paths
from bot.sources.snapshot import DirSnapshot, submodules_of
from bot.sources.tree import check_directory, walk

CONFIG_PATH = ".github/lockin.yml"
_WIDTH = 88
#: Directories named in the record's scope, the ones holding the most locked lines.
_SCOPE_DIRS = 10


def add_init_parser(commands: argparse._SubParsersAction) -> None:
    init = add_command(
        commands,
        "init",
        help="write a commented .github/lockin.yml and a first proposed decision record",
        examples=["lockin init", "lockin init path/to/repo --owner @org/gpu-team"],
        exits={2: "bad input, or a file it would write exists already (nothing is written)"},
    )
    init.add_argument("path", nargs="?", default=".", help="repository root (default: .)")
    init.add_argument(
        "--owner",
        default="",
        metavar="@TEAM",
        help="owner of the proposed decision, e.g. @org/gpu-team (default: left to fill in)",
    )


def init(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:

    root = args.path
    check_directory(root)
    folder = DEFAULT_POLICY.decisions.folder
    record_path = posixpath.join(folder, "0001-compute-api-baseline.md")
    targets = [os.path.join(root, CONFIG_PATH), os.path.join(root, record_path)]
    existing = [path for path in targets if os.path.lexists(path)]
    if existing:
        raise UsageError(f"{existing[0]} exists already: nothing written")
    snapshot = DirSnapshot(root)
    paths = walk(root, DEFAULT_POLICY.path_filter(submodules=submodules_of(snapshot)))
    census = scan_paths(root, paths, jobs=os.cpu_count() or 1)
    contents = [config_text(), record_text(census, owner=args.owner)]
    for path, content in zip(targets, contents, strict=True):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "x", encoding="utf-8") as f:
            f.write(content)
        out.write(f"wrote {path}\n")
    out.write(
        "Next: fill in the record's owner and cost, commit both files, and run "
        "`lockin diff main HEAD` (or add the Action) to gate new lock-in.\n"
    )
    return 0


def config_text() -> str:
    """Every key of the schema at its default, each under its description."""
    lines = [
        "# lockin's configuration, read from the default branch (never from a pull request).",
        "# Every key is shown at its default: delete the ones you do not change.",
        "# Reference: lockin.schema.json; `lockin scan` and `lockin diff` read this file too.",
    ]
    _properties(SCHEMA, 0, lines)
    return "\n".join(lines) + "\n"


def _properties(schema: dict[str, Any], depth: int, lines: list[str]) -> None:
    indent = "  " * depth
    for key, spec in schema.get("properties", {}).items():
        lines.append("")
        description = " ".join(spec.get("description", "").split())
        for line in textwrap.wrap(description, _WIDTH - len(indent) - 2):
            lines.append(f"{indent}# {line}")
        if spec.get("type") == "object" and spec.get("properties"):
            lines.append(f"{indent}{key}:")
            _properties(spec, depth + 1, lines)
        else:
            value = yaml.safe_dump(spec.get("default"), default_flow_style=True, width=1000)
            value = value.removesuffix("...\n").strip()  # a scalar document's end marker
            lines.append(f"{indent}{key}: {value}")


def record_text(census: Census, *, owner: str) -> str:
    """A proposed record for the non-portable code the repository already holds."""
    locked = census.locked_to_nvidia()
    code = census.totals.code_lines
    per_dir: Counter[str] = Counter()
    for summary in census.files():
        if summary.non_portable_lines:
            top = summary.path.split("/", 1)[0] if "/" in summary.path else "."
            per_dir[top] += summary.non_portable_lines
    scope = [
        "**" if top == "." else f"{top}/**" for top, _ in per_dir.most_common(_SCOPE_DIRS)
    ] or ["**"]
    if "**" in scope:
        scope = ["**"]
    ecosystems = ", ".join(
        eco for eco, _ in sorted(census.totals.ecosystems.items(), key=lambda i: (-i[1], i[0]))
    )
    owner_line = (
        f"owner: {_quoted(owner)}"
        if owner
        else 'owner:  # TODO: who owns this choice, quoted: "@octocat" or "@org/kernel-team"'
    )
    lines = [
        "---",
        "type: compute-api",
        "status: proposed  # proposed | accepted | superseded | rejected",
        owner_line,
        f"compute_api:  # TODO: API and version, e.g. CUDA 12.4 ({ecosystems or 'none seen'})",
        "migration_cost:",
        f"  lines: {census.totals.non_portable_lines}  # non-portable lines in scope today",
        "  engineer_weeks:  # TODO: what moving off it costs, e.g. 3",
        "  target:  # TODO: where it would move, e.g. HIP",
        "scope:",
        *(f"  - {_quoted(pattern)}" for pattern in scope),
        "---",
        "",
        "# Compute-API decision: the GPU code we have today",
        "",
        "## Context",
        "",
        f"`lockin init` counted {code:,} code lines: {locked:,} could not move off NVIDIA "
        f"tomorrow, {census.totals.non_portable_lines:,} are non-portable in all.",
        "",
        "## Decision",
        "",
        "TODO: which compute API this code depends on, and why. Set `status: accepted` once",
        "agreed: only accepted records cover new lock-in unless the configuration allows",
        "proposed ones.",
        "",
        "## Consequences",
        "",
        "TODO: what moving to another vendor would take, and who it affects.",
        "",
    ]
    return "\n".join(lines)


def _quoted(text: str) -> str:
    return yaml.safe_dump(text, default_style='"', width=1000).strip()
