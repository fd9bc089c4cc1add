"""``lockin baseline``: record today's uncovered lock-in so that only growth past it gates.

Counts a git revision of a repository (HEAD by default: commit the file on the default
branch, where the App and ``lockin diff`` read it), or a plain directory, and writes
``.github/lockin-baseline.yml`` (bot/policy/baseline.py describes the format).
"""

from __future__ import annotations

import argparse
import os
from typing import TextIO

from bot.cli.common import add_jobs, read_policy, recorded_decisions, snapshot_census
from bot.cli.help import add_command
from bot.policy.baseline import BASELINE_PATH, dump_baseline, record_baseline
from bot.sources.git import GitRepo
from bot.sources.snapshot import DirSnapshot, GitSnapshot, Snapshot
from bot.sources.tree import check_directory


def add_baseline_parser(commands: argparse._SubParsersAction) -> None:
    baseline = add_command(
        commands,
        "baseline",
        help=f"record today's uncovered lock-in in {BASELINE_PATH}",
        description="Record every file's non-portable lines outside an accepted decision, per "
        f"ecosystem, in {BASELINE_PATH}: committed on the default branch, it makes only growth "
        "past those figures count, so the check can be required on a codebase that already "
        "holds lock-in nobody decided on.",
        examples=[
            "lockin baseline                      # HEAD of the repository here",
            "lockin baseline path/to/repo --rev main",
            "lockin baseline . --output -         # print it instead",
        ],
    )
    baseline.add_argument("path", nargs="?", default=".", help="repository or directory (.)")
    baseline.add_argument("--rev", help="git revision to count (default: HEAD of a repository)")
    baseline.add_argument("--config", help="policy file (default: .github/lockin.yml there)")
    baseline.add_argument(
        "--output",
        metavar="FILE",
        help=f"where to write it (default: PATH/{BASELINE_PATH}; - for stdout)",
    )
    add_jobs(baseline)


def baseline(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    root = args.path
    check_directory(root)
    snapshot: Snapshot
    commit = None
    # A checkout's committed files (what the default branch holds), not its work tree.
    if args.rev or os.path.exists(os.path.join(root, ".git")):
        repo = GitRepo(root)
        commit = repo.resolve(args.rev or "HEAD")
        snapshot = GitSnapshot(repo, commit, args.rev or "HEAD")
    else:
        snapshot = DirSnapshot(root)
    policy = read_policy(args.config, snapshot)
    census = snapshot_census(snapshot, policy, args.jobs)
    recorded = recorded_decisions(snapshot, policy.decisions.folder, err)
    recorded_baseline = record_baseline(census.files(), policy, recorded, commit=commit)
    text = dump_baseline(recorded_baseline)
    target = args.output or os.path.join(root, BASELINE_PATH)
    files = len(recorded_baseline.files)
    lines = sum(sum(e.values()) for e in recorded_baseline.files.values())
    if target == "-":
        out.write(text)
    else:
        os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
    where = "stdout" if target == "-" else target
    err.write(
        f"lockin: baseline of {files:,} file(s), {lines:,} gated lines outside decisions, "
        f"written to {where}\n"
    )
    if target != "-":
        err.write(f"lockin: commit it on the default branch: git add {target}\n")
    return 0
