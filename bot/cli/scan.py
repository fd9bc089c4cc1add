"""``lockin scan``: the census of a directory or checkout (``--rev``: of a git revision,
counted by bot/cli/history.py), and ``--fail-above``, its threshold for CI."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TextIO

from bot.cli.common import (
    CONFIG_PATH,
    FORMATS,
    add_file_budget,
    add_jobs,
    finish_scan,
    positive,
    read_policy,
)
from bot.cli.help import add_command
from bot.engine.census import Census
from bot.engine.paths import PathFilter
from bot.render import scan_tables, text
from bot.render.wording import percent
from bot.sources.engine_runner import scan_paths
from bot.sources.git import GitRepo
from bot.sources.snapshot import DirSnapshot, submodules_of
from bot.sources.tree import Hidden, check_directory, walk

SCAN_FORMATS = (*FORMATS, "csv")
#: Ranked entries ``scan`` lists: few enough in text that the summary fits a screen.
TEXT_TOP, TOP = 5, 10


def add_scan_parser(commands: argparse._SubParsersAction) -> None:
    scan = add_command(
        commands,
        "scan",
        help="census of a directory or checkout: lines per layer and language",
        examples=[
            "lockin scan path/to/repo",
            "lockin scan . --by-file --sort code",
            "lockin scan . --findings                # every finding, file:line and rule",
            "lockin scan . --format csv > lockin.csv",
            "lockin scan . --fail-above 2%           # CI: fail past 2% NVIDIA-only lines",
            "lockin scan repo.git --rev v1.0         # a revision, no checkout",
        ],
        exits={
            1: "--fail-above: the NVIDIA-only lines are above the threshold, or a file "
            "took longer than --file-budget and was not counted"
        },
    )
    scan.add_argument("path", nargs="?", default=".", help="directory to scan (default: .)")
    scan.add_argument(
        "--format", choices=SCAN_FORMATS, default="text", help="output format (default: text)"
    )
    scan.add_argument(
        "--config",
        help=f"policy file (default: PATH/{CONFIG_PATH}, else pyproject.toml [tool.lockin])",
    )
    scan.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="PAT",
        help="count only paths matching this gitignore-style pattern (repeatable)",
    )
    scan.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PAT",
        help="leave out paths matching this gitignore-style pattern (repeatable)",
    )
    scan.add_argument(
        "--top",
        type=positive,
        metavar="N",
        help=f"entries in the ranked lists: files, directories, ecosystems (default: "
        f"{TEXT_TOP} in text, to fit a screen; {TOP} otherwise)",
    )
    scan.add_argument(
        "--findings", action="store_true", help="text: list every finding (file:line, rule)"
    )
    scan.add_argument(
        "--by-file",
        action="store_true",
        help="text and csv: one row per file with non-portable lines instead of per language",
    )
    scan.add_argument(
        "--sort",
        choices=scan_tables.SORTS,
        default="lines",
        help="order of the table's rows: non-portable lines (default), code lines, files, "
        "non-portable share, name",
    )
    scan.add_argument(
        "--fail-above",
        type=Threshold.parse,
        metavar="LINES|PCT%",
        help="exit 1 when the NVIDIA-only lines exceed this many lines, or this share of the "
        "code lines (e.g. 5000 or 2%%)",
    )
    add_jobs(scan)
    add_file_budget(scan)
    scan.add_argument(
        "--no-ignore",
        action="store_true",
        help="count the files .gitignore patterns leave out too (in a checkout: untracked "
        "ignored files too); without it lockin says when patterns hid files",
    )
    scan.add_argument(
        "--rev", help="count this git revision of PATH without a checkout (PATH a repository)"
    )


@dataclass(frozen=True)
class Threshold:
    """``--fail-above``: a number of NVIDIA-only lines, or a share of the code lines."""

    value: float
    share: bool

    @classmethod
    def parse(cls, raw: str) -> Threshold:
        text = raw.strip().replace(",", "").replace("_", "")
        share = text.endswith("%")
        try:
            value = float(text.removesuffix("%")) if share else int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected a number of lines or a percentage such as 2%, got {raw!r}"
            ) from None
        if value < 0 or (share and value > 100):
            raise argparse.ArgumentTypeError(f"out of range: {raw!r}")
        return cls(value / 100 if share else value, share)

    def exceeded(self, census: Census) -> str | None:
        """Why the census fails the threshold (one line), or None."""
        locked, code = census.locked_to_nvidia(), census.totals.code_lines
        if self.share:
            if census.nvidia_share() <= self.value:
                return None
            return (
                f"NVIDIA-only lines are {percent(locked, code)} of the code "
                f"({locked:,} of {code:,}), above --fail-above {100 * self.value:g}%"
            )
        if locked <= self.value:
            return None
        return f"{locked:,} NVIDIA-only lines, above --fail-above {int(self.value):,}"


def scan_census(args: argparse.Namespace, err: TextIO) -> Census:
    """Run ``lockin scan`` as parsed in ``args``; progress goes to ``err``."""
    root = args.path
    check_directory(root)
    snapshot = DirSnapshot(root)
    policy = read_policy(args.config, snapshot)
    path_filter = PathFilter.build(
        [*policy.paths.include, *args.include],
        [*policy.paths.exclude, *args.exclude],
        submodules=submodules_of(snapshot),
    )
    progress = text.ProgressLine(err)
    hidden = Hidden()
    census = scan_paths(
        root,
        walk(root, path_filter, gitignore=not args.no_ignore, hidden=hidden),
        jobs=args.jobs,
        progress=progress,
        include_generated=policy.paths.include_generated,
        markers_allowed=policy.markers_allowed,
        file_seconds=args.file_budget,
    )
    progress.finish()
    if hidden:
        err.write(f"lockin: note: {hidden.line()}\n")
    return census


def _scan_directory(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    return finish_scan(scan_census(args, err), args, args.path, out, err)


def _revision_scan(args: argparse.Namespace) -> bool:
    """``scan`` of a git revision: ``--rev`` given, or PATH is a repository without a work
    tree (a bare one, a ``.git`` folder), whose files are its ``HEAD``'s."""
    if args.rev:
        return True
    check_directory(args.path)
    return GitRepo.has_no_work_tree(args.path)


def check_args(args: argparse.Namespace) -> None:
    """``--top``'s default, which depends on the format."""
    if args.top is None:
        args.top = TEXT_TOP if args.format == "text" else TOP


def scan(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``lockin scan`` as parsed in ``args``."""
    if _revision_scan(args):
        # Late: the history walker's modules are for --rev only.
        from bot.cli.history import scan_revision

        return scan_revision(args, out, err)
    return _scan_directory(args, out, err)
