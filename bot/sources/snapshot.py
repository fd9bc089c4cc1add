"""A read-only view of one version of a tree: a git commit or a directory.

``lockin diff`` reads the same things from either kind of BASE and HEAD (the policy
file, decision records, linked records), so both expose the same two calls.
"""

from __future__ import annotations

import os
import posixpath
from typing import Protocol

from bot.engine.paths import submodule_paths
from bot.sources.git import GitRepo


class Snapshot(Protocol):
    label: str  # how the user named this version

    def read(self, path: str) -> bytes | None:
        """A file's bytes, ``None`` when it does not exist (or is not a regular file)."""

    def files_under(self, folder: str) -> list[tuple[str, bytes]]:
        """The regular files under ``folder``: (repository path, content), by path."""


def _safe(path: str) -> str | None:
    # Paths come from links in commit messages: never let one leave the tree.
    normal = posixpath.normpath(path.replace("\\", "/")).lstrip("/")
    return None if normal in (".", "") or normal.startswith("../") or normal == ".." else normal


class GitSnapshot:
    """A commit of a repository, or with ``commit`` ``None`` its index (the staged files)."""

    def __init__(self, repo: GitRepo, commit: str | None, label: str) -> None:
        self.repo, self.commit, self.label = repo, commit, label

    def read(self, path: str) -> bytes | None:
        safe = _safe(path)
        return self.repo.read_file(self.commit or "", safe) if safe else None

    def files_under(self, folder: str) -> list[tuple[str, bytes]]:
        prefix = _safe(folder)
        if prefix is None:
            return []
        entries = (
            self.repo.list_files(self.commit, prefix)
            if self.commit
            else self.repo.list_index(prefix)
        )
        contents = self.repo.read_blobs(e.blob for e in entries)
        return [(e.path, data) for e, (_, data) in zip(entries, contents, strict=True) if data]


class DirSnapshot:
    def __init__(self, root: str, label: str | None = None) -> None:
        self.root, self.label = root, label or root

    def read(self, path: str) -> bytes | None:
        safe = _safe(path)
        full = os.path.join(self.root, safe) if safe else None
        if full is None or os.path.islink(full) or not os.path.isfile(full):
            return None
        with open(full, "rb") as f:
            return f.read()

    def files_under(self, folder: str) -> list[tuple[str, bytes]]:
        prefix = _safe(folder)
        base = os.path.join(self.root, prefix) if prefix else None
        if base is None or not os.path.isdir(base):
            return []
        found = []
        for directory, dirs, files in os.walk(base):
            dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(directory, d))]
            rel = os.path.relpath(directory, self.root).replace(os.sep, "/")
            found += [f"{rel}/{name}" for name in files]
        # read() leaves out symlinks and anything else that is not a regular file.
        return [(path, data) for path in sorted(found) if (data := self.read(path)) is not None]


def submodules_of(snapshot: Snapshot) -> list[str]:
    data = snapshot.read(".gitmodules")
    return submodule_paths(data.decode("utf-8", "replace")) if data else []
