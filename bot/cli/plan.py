"""``lockin plan``: the decision register, the kernel inventory and the migration plan of
a checkout, as text, Markdown or the ``lockin.plan/2`` JSON document."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any, TextIO

from bot.cli.common import add_jobs, read_policy
from bot.cli.help import add_command
from bot.engine.census import Census
from bot.policy.overview import overview
from bot.policy.plan import target_choices
from bot.render import json_out
from bot.render.plan_out import overview_document, plan_markdown, plan_text
from bot.sources.engine_runner import scan_paths
from bot.sources.snapshot import DirSnapshot, submodules_of
from bot.sources.tree import check_directory, walk

PLAN_FORMATS = ("text", "json", "markdown")


def add_plan_parser(commands: argparse._SubParsersAction) -> None:
    plan = add_command(
        commands,
        "plan",
        help="decision register, kernel inventory and migration plan of a checkout",
        examples=["lockin plan path/to/repo", "lockin plan . --target amd --format markdown"],
    )
    plan.add_argument("path", nargs="?", default=".", help="directory (default: .)")
    plan.add_argument(
        "--target",
        type=str.lower,
        choices=target_choices(),
        action="append",
        default=[],
        metavar="TARGET",
        help="only this target's plan: amd, intel, apple or google (also: hip, rocm, sycl, "
        "tpu...); repeatable; default: every target",
    )
    plan.add_argument(
        "--format", choices=PLAN_FORMATS, default="text", help="output format (default: text)"
    )
    plan.add_argument(
        "--config",
        help="policy file (default: PATH/.github/lockin.yml, else pyproject.toml [tool.lockin])",
    )
    add_jobs(plan)


def checkout_overview(
    root: str, config: str | None, jobs: int, only: Sequence[str] = ()
) -> tuple[Census, dict[str, Any]]:
    """The census of a checkout and its overview document (register, inventory, plan)."""
    check_directory(root)
    snapshot = DirSnapshot(root)
    policy = read_policy(config, snapshot)
    paths = list(walk(root, policy.path_filter(submodules=submodules_of(snapshot))))
    census = scan_paths(root, paths, jobs=jobs, include_generated=policy.paths.include_generated)
    # The census leaves generated files out of its figures; so does the register.
    counted = [s for s in census.files() if s.path in census]
    document = overview_document(
        overview(counted, paths, snapshot.read, policy, only=list(only)),
        root=os.path.basename(os.path.abspath(root)),
    )
    return census, document


def plan(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    _, document = checkout_overview(args.path, args.config, args.jobs, args.target)
    if args.format == "json":
        out.write(json_out.dumps(document, pretty=out.isatty()))
    elif args.format == "markdown":
        out.write(plan_markdown(document))
    else:
        out.write(plan_text(document))
    for problem in document["register"]["problems"]:
        err.write(f"lockin: warning: {problem}\n")
    return 0
