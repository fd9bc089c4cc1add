"""The files that differ between two trees, as git reports them (``git diff --raw -z``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a type only: the delta's module loads unidiff, which a scan skips
    from bot.engine.delta import LineChanges

_STATUS = {"A": "added", "D": "removed", "M": "modified", "T": "modified", "R": "renamed"}
_NULL_SHA = "0" * 40
# Regular files only: symlinks (120000) and submodules (160000) hold no code of the tree.
FILE_MODES = frozenset({"100644", "100755"})


@dataclass(frozen=True, slots=True)
class Change:
    """One changed file. Blob ids are ``None`` where that side does not exist or is
    not in an object store (``git diff --no-index``)."""

    status: str  # "added" | "removed" | "modified" | "renamed"
    path: str  # the new path (the old one for a removal)
    old_path: str | None = None  # the previous path of a rename
    old_blob: str | None = None
    new_blob: str | None = None
    added: tuple[int, ...] = ()  # line numbers in the new version
    removed: tuple[int, ...] = ()  # line numbers in the old version

    def with_lines(self, lines: LineChanges) -> Change:
        return replace(self, added=tuple(lines[0]), removed=tuple(lines[1]))


def parse_raw(output: str) -> list[Change]:
    """Parse ``git diff --raw -z --no-abbrev [-M]`` output (without line numbers).

    Copies (``C``) count as additions of the new path: the copy's lines are new code. A type
    change (``T``) between a regular file and a symlink or submodule counts as the file's
    removal or addition: git's patch lists both sides under one path, so its lines cannot
    be used, and a link or submodule holds no code of the tree.
    """
    fields = output.split("\0")
    changes: list[Change] = []
    i = 0
    while i < len(fields) and fields[i].startswith(":"):
        old_mode, new_mode, old_sha, new_sha, status = fields[i][1:].split(" ")
        two_paths = status[0] in "RC"
        src = fields[i + 1]
        dst = fields[i + 2] if two_paths else src
        i += 3 if two_paths else 2
        old_file, new_file = old_mode in FILE_MODES, new_mode in FILE_MODES
        if not (old_file or new_file):
            continue  # a symlink or submodule on each side it exists (000000: no such side)
        old_blob = None if old_sha == _NULL_SHA else old_sha
        new_blob = None if new_sha == _NULL_SHA else new_sha
        if status[0] == "T" and not new_file:  # a file became a symlink or submodule
            changes.append(Change("removed", src, old_blob=old_blob))
        elif status[0] == "C" or (status[0] == "T" and not old_file):
            # A symlink or submodule became a file, or a copy: every line is new code.
            changes.append(Change("added", dst, new_blob=new_blob))
        elif status[0] in _STATUS:
            kind = _STATUS[status[0]]
            changes.append(
                Change(
                    kind,
                    dst,
                    old_path=src if kind == "renamed" else None,
                    old_blob=old_blob,
                    new_blob=new_blob,
                )
            )
    return changes


def narrow(change: Change, old_included: bool, new_included: bool) -> Change | None:
    """Limit a change to the paths the analysis includes on each side.

    A side outside the analysis (ignored, excluded) counts as absent: a rename out of an
    excluded folder becomes an addition, into one a removal (callers count every line of
    an added or removed file). ``None`` when neither side is included.
    """
    in_old = change.status != "added" and old_included
    in_new = change.status != "removed" and new_included
    if in_old and in_new:
        return change
    if in_new:
        return Change("added", change.path, new_blob=change.new_blob)
    if in_old:
        return Change("removed", change.old_path or change.path, old_blob=change.old_blob)
    return None


def within(
    changes: Iterable[Change],
    in_old: Callable[[str], bool],
    in_new: Callable[[str], bool] | None = None,
) -> list[Change]:
    """The changes narrowed to the paths each side's analysis includes (see ``narrow``)."""
    in_new = in_new or in_old
    kept = (narrow(c, in_old(c.old_path or c.path), in_new(c.path)) for c in changes)
    return [c for c in kept if c is not None]
