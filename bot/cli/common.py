"""What every ``lockin`` command shares: the one-line usage error, ``--jobs``, the policy
lookup, reading decision records, the census of a whole tree, and printing a scan.

Each command is a module of bot/cli (``scan``, ``diff``, ``history``, ...); bot/cli/entry.py
builds the parser from them and runs one. They all import this module and bot/cli/help.py,
which import no command, so the command line has no import cycle (pyproject.toml's
contract on the floors of bot.cli keeps it so).
"""

from __future__ import annotations

import argparse
import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

from bot.engine.census import Census
from bot.policy.config import DEFAULT_POLICY, Policy, load_policy, load_pyproject_policy
from bot.render import json_out, scan_tables, text
from bot.sources.cpu_budget import DEFAULT_FILE_SECONDS
from bot.sources.engine_runner import scan_paths
from bot.sources.git import worktree_prefix
from bot.sources.snapshot import DirSnapshot, GitSnapshot, Snapshot, submodules_of
from bot.sources.tree import walk

if TYPE_CHECKING:  # a scan reads no decision records: their module loads with diff's
    from bot.policy.decisions import DecisionRecord

CONFIG_PATH = ".github/lockin.yml"
#: Output formats of ``scan`` and ``diff`` (``scan`` adds csv).
FORMATS = ("text", "json", "markdown", "sarif")
PYPROJECT = "pyproject.toml"


class UsageError(Exception):
    """Bad input the user can fix; the message is one line."""


def add_jobs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--jobs",
        type=positive,
        default=os.cpu_count() or 1,
        metavar="N",
        help="processes that count files (default: one per core)",
    )


def add_file_budget(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--file-budget",
        type=seconds,
        default=DEFAULT_FILE_SECONDS,
        metavar="SECONDS",
        help=f"CPU time each file may take before it is left out as not counted: over "
        f"budget, as the App does (default: {DEFAULT_FILE_SECONDS:g}; 0: no budget)",
    )


def seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {value!r}") from None
    if not number >= 0 or number == float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 (no budget) or more: {value}")
    return number


def positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return number


def read_policy(config: str | None, snapshot: Snapshot) -> Policy:
    """The policy: ``--config`` when given, else ``.github/lockin.yml`` of ``snapshot``, else
    its ``pyproject.toml``'s ``[tool.lockin]`` table, else the defaults."""
    if config:
        try:
            with open(config, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise UsageError(f"cannot read config {config}: {exc.strerror}") from None
        if os.path.basename(config) == PYPROJECT:
            return load_pyproject_policy(data, config) or DEFAULT_POLICY
        return load_policy(data, config)
    config_file = snapshot.read(CONFIG_PATH)
    if config_file is not None:
        return load_policy(config_file, named_in(snapshot, CONFIG_PATH))
    pyproject = snapshot.read(PYPROJECT)
    if pyproject is not None:
        return load_pyproject_policy(pyproject, named_in(snapshot, PYPROJECT)) or DEFAULT_POLICY
    return DEFAULT_POLICY


def named_in(snapshot: Snapshot, path: str) -> str:
    """A file of ``snapshot`` as the user would name it: the path under the working
    directory (``.github/lockin.yml``, ``repo/.github/lockin.yml``) or ``REV:path``."""
    if isinstance(snapshot, DirSnapshot):
        return os.path.normpath(os.path.join(snapshot.label, path))
    return f"{snapshot.label}:{path}"


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cycle collector paused while a report is built: a tree of new dicts and lists
    (the bench corpus's scan document: 4,017 files', with their findings) that holds no
    reference cycle, yet the collector would traverse it again and again as it grows (2 of
    the 20 ms of CPU the JSON document took, serial after the last file is counted)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def finish_scan(
    census: Census, args: argparse.Namespace, root: str, out: TextIO, err: TextIO
) -> int:
    """Print a scan as ``args`` ask; 1 when it is above ``--fail-above``."""
    with _collector_paused():
        _print_scan(census, args, root, out)
    uncounted = census.not_counted()
    if uncounted:
        err.write(f"lockin: warning: {not_counted_line(uncounted)}\n")
    reason = args.fail_above.exceeded(census) if args.fail_above else None
    if args.fail_above and uncounted and not reason:
        # A threshold cannot pass over files it did not count: they could hold the lines.
        reason = f"--fail-above cannot pass: {len(uncounted):,} not counted"
    if reason:
        err.write(f"lockin: failure: {reason}\n")
        return 1
    return 0


def _print_scan(census: Census, args: argparse.Namespace, root: str, out: TextIO) -> None:
    if args.format == "csv":
        out.write(scan_tables.render_csv(census, by_file=args.by_file, sort=args.sort))
    elif args.format == "text":
        out.write(
            text.render_scan(
                census,
                root=root,
                top=args.top,
                findings=args.findings,
                by_file=args.by_file,
                sort=args.sort,
            )
        )
    else:
        out.write(render_scan(census, args.format, root, args.top, pretty=out.isatty()))


def _files(paths: list[str]) -> tuple[str, str]:
    """ "N file(s)" and the first three of ``paths``, with how many more there are."""
    more = f" and {len(paths) - 3:,} more" if len(paths) > 3 else ""
    noun = "file" if len(paths) == 1 else "files"
    return f"{len(paths):,} {noun}", ", ".join(paths[:3]) + more


def not_counted_line(uncounted: list[tuple[str, str]]) -> str:
    """One line naming the files the engine gave up on, and how to count them."""
    count, shown = _files([path for path, _ in uncounted])
    return (
        f"{count} not counted: {uncounted[0][1]}: {shown}; "
        "count them with a larger --file-budget (0: no budget)"
    )


def unreadable_line(paths: list[str]) -> str:
    """One line naming the changed files whose versions git could not read."""
    count, shown = _files(paths)
    return (
        f"{count} unreadable, left out of the count: {shown} (objects "
        "absent from the repository: a partial clone, or a snapshot without its large blobs)"
    )


def render_scan(census: Census, fmt: str, root: str, top: int, *, pretty: bool) -> str:
    """A scan as JSON, Markdown, SARIF or the default terminal text (the Action's report)."""
    if fmt == "json":
        return json_out.dumps(json_out.scan_document(census, root=root, top=top), pretty=pretty)
    # Markdown and SARIF are loaded for their own format only: with what they import
    # (HTML entities, the rule links) they were 4% of every scan's start-up.
    if fmt == "markdown":
        from bot.render.markdown import scan_markdown  # late: see above

        return scan_markdown(census, root=root, top=top)
    if fmt == "sarif":
        from bot.render.sarif import scan_sarif  # late: see above

        return json_out.dumps(scan_sarif(census, prefix=worktree_prefix(root)), pretty=pretty)
    return text.render_scan(census, root=root, top=top)


def recorded_decisions(snapshot: Snapshot, folder: str, err: TextIO) -> list[DecisionRecord]:
    """Decision records in the decisions folder; broken ones are reported, not used."""
    from bot.policy.decisions import read_records  # late: `lockin scan` has no use for it

    records, problems = read_records(snapshot.files_under(folder))
    for problem in problems:
        err.write(f"lockin: warning: {problem}\n")
    return records


def snapshot_census(
    snapshot: Snapshot, policy: Policy, jobs: int, file_seconds: float = 0
) -> Census:
    """The census of a whole tree: a git commit's, or a directory's; each file within
    ``file_seconds`` of CPU time (0: no budget)."""
    path_filter = policy.path_filter(submodules=submodules_of(snapshot))
    if isinstance(snapshot, GitSnapshot):
        # late: the history walk is loaded only for a revision
        from bot.sources.history import Counting, revision_census

        commit = snapshot.commit or snapshot.repo.resolve("HEAD")
        counting = Counting(
            path_filter, policy.paths.include_generated, jobs, file_seconds=file_seconds
        )
        return revision_census(snapshot.repo, commit, counting)
    assert isinstance(snapshot, DirSnapshot)
    return scan_paths(
        snapshot.root,
        walk(snapshot.root, path_filter),
        jobs=jobs,
        include_generated=policy.paths.include_generated,
        markers_allowed=policy.markers_allowed,
        file_seconds=file_seconds,
    )
