"""``lockin plan``: the decision register, the kernel inventory and the migration plan of
a checkout, as text, Markdown or the ``lockin.plan/2`` JSON document."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import TextIO

from bot.policy.overview import overview_document
from bot.policy.plan import target_choices
from bot.render import json_out
from bot.render.plan_out import plan_markdown, plan_text
from bot.sources.engine_runner import scan_paths
from bot.sources.snapshot import DirSnapshot, submodules_of
from bot.sources.tree import check_directory, walk

PLAN_FORMATS = ("text", "json", "markdown")


def add_plan_parser(commands: argparse._SubParsersAction, positive: Callable[[str], int]) -> None:
    plan = commands.add_parser(
        "plan", help="decision register, kernel inventory and migration plan of a checkout"
    )
    plan.add_argument("path", nargs="?", default=".", help="directory (default: .)")
    plan.add_argument(
        "--target",
        type=str.lower,
        choices=target_choices(),
        action="append",
        default=[],
        metavar="TARGET",
        help="amd, intel, apple or google (also: hip, rocm, sycl, tpu...); repeatable",
    )
    plan.add_argument("--format", choices=PLAN_FORMATS, default="text")
    plan.add_argument("--config", help="policy file (default: PATH/.github/lockin.yml)")
    plan.add_argument("--jobs", type=positive, default=os.cpu_count() or 1, metavar="N")


def plan(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from bot.cli import _policy  # the same policy lookup as scan and diff

    root = args.path
    check_directory(root)
    snapshot = DirSnapshot(root)
    policy = _policy(args.config, snapshot)
    paths = list(walk(root, policy.path_filter(submodules=submodules_of(snapshot))))
    census = scan_paths(
        root, paths, jobs=args.jobs, include_generated=policy.paths.include_generated
    )
    # The census leaves generated files out of its figures; so does the register.
    counted = [s for s in census.files() if s.path in census]
    document = overview_document(
        counted,
        paths,
        snapshot.read,
        policy,
        root=os.path.basename(os.path.abspath(root)),
        only=args.target,
    )
    if args.format == "json":
        out.write(json_out.dumps(document, pretty=out.isatty()))
    elif args.format == "markdown":
        out.write(plan_markdown(document))
    else:
        out.write(plan_text(document))
    for problem in document["register"]["problems"]:
        err.write(f"lockin: warning: {problem}\n")
    return 0
