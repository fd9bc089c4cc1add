"""``lockin report PATH --output FILE.html``: the census, the plan, the kernel inventory, the
decision register and the trend of a checkout as one self-contained HTML page."""

from __future__ import annotations

import argparse
import os
from typing import Any, TextIO

from bot.cli.common import UsageError, add_jobs
from bot.cli.help import add_command
from bot.cli.history import checked, history_of
from bot.cli.plan import checkout_overview
from bot.render.report_html import report_html
from bot.render.sarif import tool_version
from bot.sources import SourceError
from bot.sources.git import GitRepo
from bot.sources.history import MAX_TREE_FILES, HistoryWindow, commits_per_point


def add_report_parser(commands: argparse._SubParsersAction) -> None:
    report = add_command(
        commands,
        "report",
        help="one self-contained HTML page: figures, plan, kernels, owners and the trend",
        examples=[
            "lockin report path/to/repo --output lockin.html",
            "lockin report . -o lockin.html --points 0   # no trend: skip the history walk",
        ],
    )
    report.add_argument("path", nargs="?", default=".", help="directory (default: .)")
    report.add_argument(
        "-o", "--output", required=True, metavar="FILE.html", help="where to write the page"
    )
    report.add_argument(
        "--config",
        help="policy file (default: PATH/.github/lockin.yml, else pyproject.toml [tool.lockin])",
    )
    report.add_argument(
        "--every",
        default="month",
        metavar="day|week|month|N-commits",
        type=checked(commits_per_point, SourceError),
        help="trend: one point per day, week, month (default) or every N commits",
    )
    report.add_argument(
        "--points",
        type=int,
        default=24,
        metavar="N",
        help="trend: the last N points of PATH's git history (default: 24; 0: no trend)",
    )
    add_jobs(report)


def report(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:

    if args.points < 0:
        raise UsageError("--points must be 0 or more")
    census, overview = checkout_overview(args.path, args.config, args.jobs)
    history = _history(args, err) if args.points else None
    page = report_html(
        census,
        overview,
        root=os.path.basename(os.path.abspath(args.path)),
        version=tool_version(),
        history=history,
    )
    try:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as exc:
        raise UsageError(f"cannot write {args.output}: {exc.strerror}") from None
    out.write(f"wrote {args.output}\n")
    return 0


def _history(args: argparse.Namespace, err: TextIO) -> dict[str, Any] | None:
    """The trend of PATH's history, or None when PATH is not in a git work tree."""
    try:
        GitRepo(args.path)
    except SourceError:
        return None
    if GitRepo.has_no_work_tree(args.path):
        return None
    window = HistoryWindow(every=args.every, points=args.points)
    try:
        return history_of(
            args.path,
            "HEAD",
            window,
            config=args.config,
            jobs=args.jobs,
            max_files=MAX_TREE_FILES,
            err=err,
        )
    except SourceError as exc:  # no commit yet, a broken history: the page without a trend
        err.write(f"lockin: warning: no trend: {exc}\n")
        return None
