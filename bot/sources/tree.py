"""Walk a directory the way git would see it.

In a git work tree git itself lists the files: tracked ones (even where a ``.gitignore``
pattern matches them: DeepSpeed ignores ``*.cuh`` yet tracks some) and untracked ones it does
not ignore. Elsewhere files ignored by a ``.gitignore`` (at any depth, each relative to its
own folder) are left out. Either way paths excluded by the ``PathFilter`` (vendored trees,
submodules, user patterns) and symlinks are left out too; paths come back relative to the
root with ``/`` separators, sorted.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Iterator

from bot.engine.paths import IgnoreSpec, PathFilter, submodule_paths
from bot.sources import SourceError


def check_directory(root: str) -> None:
    if not os.path.exists(root):
        raise SourceError(f"no such directory: {root}")
    if not os.path.isdir(root):
        raise SourceError(f"not a directory: {root}")


def tree_filter(root: str, include: Iterable[str] = (), exclude: Iterable[str] = ()) -> PathFilter:
    """The filter for a checkout at ``root``: defaults, its submodules and user patterns."""
    try:
        with open(os.path.join(root, ".gitmodules"), encoding="utf-8", errors="replace") as f:
            submodules = submodule_paths(f.read())
    except OSError:
        submodules = []
    return PathFilter.build(include, exclude, submodules=submodules)


def _load_gitignore(directory: str) -> IgnoreSpec | None:
    try:
        with open(os.path.join(directory, ".gitignore"), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    return IgnoreSpec(lines) if lines else None


def walk(root: str, path_filter: PathFilter) -> Iterator[str]:
    """Relative paths of the files under ``root`` that the analysis looks at."""
    check_directory(root)
    listed = _git_files(root)
    if listed is None:
        yield from _walk(root, "", path_filter, [])
        return
    for rel in listed:
        full = os.path.join(root, rel)
        # Gitlinks (submodules) and files deleted from the work tree are not files here.
        if path_filter.includes(rel) and not os.path.islink(full) and os.path.isfile(full):
            yield rel


def _git_files(root: str) -> list[str] | None:
    """git's own list of a work tree's files, or None where ``root`` is not the top of one
    (a folder inside a repository may be ignored by it as a whole, like a benchmark corpus)."""
    if not os.path.exists(os.path.join(root, ".git")):
        return None
    command = ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    try:
        listing = subprocess.run(command, capture_output=True, check=True, timeout=120).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return sorted({os.fsdecode(p) for p in listing.split(b"\0") if p})


def _ignored(rel: str, ignores: list[tuple[str, IgnoreSpec]]) -> bool:
    # The deepest .gitignore that has an opinion wins, as in git (negations included).
    for base, spec in reversed(ignores):
        result = spec.check(rel[len(base) :])
        if result is not None:
            return result
    return False


def _walk(
    root: str, prefix: str, path_filter: PathFilter, ignores: list[tuple[str, IgnoreSpec]]
) -> Iterator[str]:
    directory = os.path.join(root, prefix) if prefix else root
    spec = _load_gitignore(directory)
    if spec is not None:
        ignores = [*ignores, (prefix, spec)]
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return  # unreadable folder: nothing to count, nothing to crash on
    for entry in entries:
        rel = prefix + entry.name
        if entry.is_symlink():
            continue
        if entry.is_dir():
            if entry.name == ".git" or path_filter.prunes(rel) or _ignored(rel + "/", ignores):
                continue
            yield from _walk(root, rel + "/", path_filter, ignores)
        elif entry.is_file() and not _ignored(rel, ignores) and path_filter.includes(rel):
            yield rel


def read(root: str, rel: str, limit: int = -1) -> bytes:
    """A file's bytes, at most ``limit`` of them (all when negative)."""
    with open(os.path.join(root, rel), "rb") as f:
        return f.read(limit)
