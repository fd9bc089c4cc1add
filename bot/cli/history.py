"""``lockin scan --rev`` and ``lockin history``: census of git revisions without a checkout.

Both read the policy (``.github/lockin.yml``) of the revision counted, or ``--config``,
so that ``lockin history``'s last point and ``lockin scan --rev`` of that commit apply the
same paths and agree figure for figure.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
from collections.abc import Callable
from glob import escape as glob_escape
from typing import Any, TextIO

from bot.cli.common import UsageError, add_jobs, finish_scan, positive, read_policy
from bot.cli.help import add_command
from bot.engine.paths import PathFilter
from bot.policy.config import Policy
from bot.render import history_out, json_out, text
from bot.render.plot import PlotError, draw, plot_format
from bot.sources import SourceError
from bot.sources.git import GitRepo, worktree_prefix
from bot.sources.history import (
    MAX_TREE_FILES,
    Counting,
    HistoryWindow,
    commits_per_point,
    revision_census,
    walk_history,
)
from bot.sources.snapshot import GitSnapshot, submodules_of

HISTORY_FORMATS = ("text", "json", "csv", "markdown")


def add_history_parser(commands: argparse._SubParsersAction) -> None:
    history = add_command(
        commands,
        "history",
        help="lock-in over the first-parent history of a git revision",
        examples=[
            "lockin history path/to/repo --every week --points 24",
            "lockin history . --since 2024-01-01 --plot lockin.png --title org/repo",
            "lockin history . --format csv > history.csv",
        ],
    )
    history.add_argument("path", nargs="?", default=".", help="git repository (default: .)")
    history.add_argument(
        "--rev", default="HEAD", help="revision whose history to walk (default: HEAD)"
    )
    history.add_argument("--since", type=_date, metavar="DATE", help="first day (YYYY-MM-DD)")
    history.add_argument("--until", type=_until, metavar="DATE", help="last day (YYYY-MM-DD)")
    history.add_argument(
        "--every",
        default="month",
        metavar="day|week|month|N-commits",
        type=checked(commits_per_point, SourceError),
        help="one point per day, week, month (default) or every N commits",
    )
    history.add_argument("--points", type=positive, metavar="N", help="keep the last N points")
    history.add_argument(
        "--format", choices=HISTORY_FORMATS, default="text", help="output format (default: text)"
    )
    history.add_argument(
        "--plot",
        metavar="FILE.svg|FILE.png",
        type=checked(plot_format, PlotError),
        help="also draw the chart to this file (the `plot` extra: matplotlib)",
    )
    history.add_argument(
        "--by", choices=("layer", "ecosystem"), default="layer", help="what the plot stacks"
    )
    history.add_argument("--title", help="name of the repository on the plot")
    history.add_argument("--config", help="policy file (default: .github/lockin.yml at REV)")
    add_jobs(history)
    history.add_argument(
        "--max-files",
        type=positive,
        default=MAX_TREE_FILES,
        metavar="N",
        help=f"trees with more files are gaps (default: {MAX_TREE_FILES:,})",
    )


def _date(value: str) -> dt.datetime:
    try:
        when = dt.datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date: {value!r} (use YYYY-MM-DD)") from None
    return when if when.tzinfo else when.replace(tzinfo=dt.UTC)


def _until(value: str) -> dt.datetime:
    when = _date(value)
    # A day alone means up to the end of that day.
    return when + dt.timedelta(days=1, seconds=-1) if len(value) == len("YYYY-MM-DD") else when


def checked(check: Callable[[str], object], errors: type[Exception]) -> Callable[[str], str]:
    """An argument type that keeps the value once ``check`` accepts it; its error is the
    one line argparse shows."""

    def parse(value: str) -> str:
        try:
            check(value)
        except errors as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        return value

    return parse


def _revision(
    repo: GitRepo, revision: str, config: str | None, include: list[str], exclude: list[str]
) -> tuple[str, Policy, PathFilter]:
    """The commit of ``revision``, its policy and the path filter that policy gives."""
    commit = repo.resolve(revision)
    snapshot = GitSnapshot(repo, commit, revision)
    policy = read_policy(config, snapshot)
    path_filter = PathFilter.build(
        [*policy.paths.include, *include],
        [*policy.paths.exclude, *exclude],
        submodules=submodules_of(snapshot),
    )
    return commit, policy, path_filter


def scan_revision(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``lockin scan --rev REV PATH`` (and ``lockin scan`` of a bare repository: HEAD)."""
    repo = GitRepo(args.path)
    revision = args.rev or "HEAD"
    scope = only_under(worktree_prefix(args.path))
    commit, policy, path_filter = _revision(
        repo, revision, args.config, args.include, [*args.exclude, *scope]
    )
    progress = text.ProgressLine(err)
    counting = Counting(
        path_filter, policy.paths.include_generated, args.jobs, file_seconds=args.file_budget
    )
    census = revision_census(repo, commit, counting, progress=progress)
    progress.finish()
    return finish_scan(census, args, f"{args.path}@{revision}", out, err)


def only_under(prefix: str) -> list[str]:
    """Exclusions (gitignore patterns) that keep only the files under ``prefix``
    (``"a/b/"``): everything at each level but the next folder down."""
    patterns: list[str] = []
    base = "/"
    for part in prefix.strip("/").split("/") if prefix.strip("/") else []:
        escaped = glob_escape(part)
        patterns += [f"{base}*", f"!{base}{escaped}/"]
        base += f"{escaped}/"
    return patterns


def history_of(
    path: str,
    revision: str,
    window: HistoryWindow,
    *,
    config: str | None,
    jobs: int,
    max_files: int,
    err: TextIO,
) -> dict[str, Any]:
    """The ``lockin.history/1`` document of ``revision``'s first-parent history."""
    repo = GitRepo(path)
    # PATH inside a repository: only its files count, as `lockin scan PATH` counts them.
    scope = only_under(worktree_prefix(path))
    commit, policy, path_filter = _revision(repo, revision, config, [], scope)
    progress = text.ProgressLine(err, "walking", unit="commits")
    counting = Counting(path_filter, policy.paths.include_generated, jobs, max_files)
    walked = walk_history(repo, commit, window, counting, progress=progress)
    progress.finish()
    if not walked.points:
        raise UsageError(f"no commits of {revision} between --since and --until")
    if walked.shallow_boundary:
        err.write(
            f"lockin: warning: shallow clone: history stops at {walked.shallow_boundary[:12]}\n"
        )
    return history_out.history_document(
        walked, repository=path, revision=revision, every=window.every
    )


def history(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.since and args.until and args.since > args.until:
        raise UsageError("--since is after --until")
    window = HistoryWindow(
        since=int(args.since.timestamp()) if args.since else None,
        until=int(args.until.timestamp()) if args.until else None,
        every=args.every,
        points=args.points,
    )
    document = history_of(
        args.path,
        args.rev,
        window,
        config=args.config,
        jobs=args.jobs,
        max_files=args.max_files,
        err=err,
    )
    if args.plot:
        title = args.title or os.path.basename(os.path.abspath(args.path))
        try:
            draw(document, args.plot, by=args.by, title=title)
        except PlotError as exc:
            raise UsageError(str(exc)) from None
    if args.format == "json":
        out.write(json_out.dumps(document, pretty=out.isatty()))
    elif args.format == "csv":
        out.write(history_out.render_csv(document))
    elif args.format == "markdown":
        out.write(history_out.render_markdown(document))
    else:
        out.write(history_out.render_text(document))
    return 0
