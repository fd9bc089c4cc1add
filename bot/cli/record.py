"""The decision record ``lockin diff`` drafts when its gate fails, and ``--write-record``,
which puts it on disk in the work tree (or HEAD directory), pre-filled.

The draft itself is bot.policy.gate.draft_decision, the same the App shows in its comment.
Its title, and so its path, comes from the folders of the files it covers, so the command
printed by a failing run writes exactly the record that run described.
"""

from __future__ import annotations

import argparse
import os
import posixpath

from bot.engine.delta import ChangeDelta
from bot.policy.config import Policy
from bot.policy.gate import Verdict, draft_decision
from bot.render.fix import Fix, Via, fix_of, write_command
from bot.sources import SourceError
from bot.sources.git import run_git

#: Folders named in a drafted record's title before "and N more".
_TITLE_FOLDERS = 2


def record_title(paths: list[str]) -> str:
    """``csrc/attention``, ``csrc/attention and ops``, ``k.cu`` (a file at the root)."""
    places = list(dict.fromkeys(posixpath.dirname(p) or p for p in paths))
    title = " and ".join(places[:_TITLE_FOLDERS])
    extra = len(places) - _TITLE_FOLDERS
    return title + (f" and {extra} more" if extra > 0 else "")


def draft_record(delta: ChangeDelta, verdict: Verdict, policy: Policy) -> tuple[str, str] | None:
    """(path, Markdown) of the record for the files the gate wants a decision on (all gated
    files when it wants none); ``None`` when the change adds no gated line."""
    targets = verdict.uncovered or verdict.files
    if not targets:
        return None
    return draft_decision(
        delta,
        verdict,
        title=record_title([f.path for f in targets]),
        compute_api_hint=None,
        folder=policy.decisions.folder,
    )


def reproduce(args: argparse.Namespace) -> list[str]:
    """The ``lockin`` arguments that give this verdict again (not the output format)."""
    argv = ["diff", "--staged"] if args.staged else ["diff", args.base, args.head]
    if args.repo:
        argv += ["--repo", args.repo]
    if args.config:
        argv += ["--config", args.config]
    for ref in args.decision:
        argv += ["--decision", ref]
    return argv


def fix_for(
    verdict: Verdict, draft: tuple[str, str] | None, policy: Policy, *, argv: list[str], via: Via
) -> Fix | None:
    if draft is None:
        return None
    path = draft[0]
    return fix_of(
        verdict,
        path,
        command=write_command(argv, path),
        via=via,
        accepted_only=not policy.decisions.allow_proposed,
    )


def work_tree(repo: str) -> str:
    """The top of the work tree of ``repo``, where a record is written."""
    top = run_git(["rev-parse", "--show-toplevel"], repo, ok=(0, 128)).strip()
    if not top:
        raise SourceError(f"{repo} has no work tree to write a record into")
    return top


def write_record(root: str, path: str, text: str) -> str:
    """Write the record at repository path ``path`` under ``root``; never over a file that
    exists, never outside ``root``. Returns the file written."""
    normal = posixpath.normpath(path.replace("\\", "/"))
    if normal.startswith(("../", "/")) or normal in ("..", "."):
        raise SourceError(f"--write-record {path}: not a path inside the repository")
    target = os.path.join(root, *normal.split("/"))
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        raise SourceError(
            f"{normal} exists: edit it, or give --write-record another path"
        ) from None
    except OSError as exc:
        raise SourceError(f"cannot write {normal}: {exc.strerror}") from None
    return normal
