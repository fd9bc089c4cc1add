"""File-level diffs between two snapshots, shaped like the entries of GitHub's PR files list.

Patches are git-style unified hunks (3 lines of context, no file header, "\\ No newline at end
of file" markers); binary files (a NUL byte in the first 8,000 bytes, git's test) get no patch.
Renames are detected like git's default: identical content, or at least 50 % similar lines.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .gitdata import blob_sha

NO_NEWLINE = "\\ No newline at end of file"
RENAME_SIMILARITY = 0.5
# Similarity checks are quadratic; above this many candidate pairs only exact renames are found.
MAX_RENAME_PAIRS = 10_000


@dataclass(frozen=True)
class FileChange:
    filename: str
    status: str  # added | removed | modified | renamed
    sha: str
    additions: int
    deletions: int
    patch: str | None
    previous_filename: str | None = None

    @property
    def changes(self) -> int:
        return self.additions + self.deletions


def is_binary(data: bytes) -> bool:
    return b"\0" in data[:8000]


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8", errors="replace").splitlines(keepends=True)


def unified_patch(old: bytes, new: bytes) -> tuple[str, int, int]:
    """Return (patch, additions, deletions) for two text blobs."""
    out: list[str] = []
    additions = deletions = 0
    diff = difflib.unified_diff(_lines(old), _lines(new), n=3)
    for line in diff:
        if line.startswith(("---", "+++")) and not out:
            continue  # file header: GitHub's `patch` starts at the first hunk
        if line.startswith("+"):
            additions += 1
        elif line.startswith("-"):
            deletions += 1
        if line.endswith("\n"):
            out.append(line[:-1])
        else:
            out.extend([line, NO_NEWLINE])
    return "\n".join(out), additions, deletions


def _similar(old: bytes, new: bytes) -> bool:
    if is_binary(old) or is_binary(new):
        return False
    matcher = difflib.SequenceMatcher(None, _lines(old), _lines(new), autojunk=False)
    return matcher.quick_ratio() >= RENAME_SIMILARITY and matcher.ratio() >= RENAME_SIMILARITY


def _change(
    status: str, path: str, old: bytes, new: bytes, previous: str | None = None
) -> FileChange:
    sha = blob_sha(old if status == "removed" else new)
    if is_binary(old) or is_binary(new) or old == new:
        return FileChange(path, status, sha, 0, 0, None, previous)
    patch, additions, deletions = unified_patch(old, new)
    return FileChange(path, status, sha, additions, deletions, patch, previous)


def diff_snapshots(old: dict[str, bytes], new: dict[str, bytes]) -> list[FileChange]:
    """The changed files from `old` to `new`, sorted by path as GitHub lists them."""
    removed = {p: d for p, d in old.items() if p not in new}
    added = {p: d for p, d in new.items() if p not in old}
    changes = [_change("modified", p, old[p], new[p]) for p in new if p in old and old[p] != new[p]]
    renames = _find_renames(removed, added)
    for source, target in renames.items():
        changes.append(_change("renamed", target, removed.pop(source), added.pop(target), source))
    changes += [_change("added", p, b"", d) for p, d in added.items()]
    changes += [_change("removed", p, d, b"") for p, d in removed.items()]
    return sorted(changes, key=lambda c: c.filename)


def _find_renames(removed: dict[str, bytes], added: dict[str, bytes]) -> dict[str, str]:
    by_content = {blob_sha(d): p for p, d in added.items()}
    renames: dict[str, str] = {}
    for source, data in removed.items():
        target = by_content.pop(blob_sha(data), None)
        if target is not None:
            renames[source] = target
    if len(removed) * len(added) > MAX_RENAME_PAIRS:
        return renames
    taken = set(renames.values())
    for source, data in removed.items():
        if source in renames:
            continue
        target = next(
            (p for p, d in added.items() if p not in taken and _similar(data, d)),
            None,
        )
        if target is not None:
            renames[source] = target
            taken.add(target)
    return renames
