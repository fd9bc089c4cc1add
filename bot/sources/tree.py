"""Walk a directory the way git would see it.

In a git work tree git itself lists the files: tracked ones (even where a ``.gitignore``
pattern matches them: DeepSpeed ignores ``*.cuh`` yet tracks some) and untracked ones it does
not ignore. Elsewhere files ignored by a ``.gitignore`` (at any depth, each relative to its
own folder) are left out. Either way paths excluded by the ``PathFilter`` (vendored trees,
submodules, user patterns) and symlinks are left out too; paths come back relative to the
root with ``/`` separators, sorted.

A walk can say what ``.gitignore`` did (:class:`Hidden`): the files and folders its patterns
left out of a plain directory, or the tracked files of a checkout that its patterns match
(git lists them, so they count, but a copy of the tree without ``.git`` would lose them).
``gitignore=False`` reads no ``.gitignore`` at all, in a checkout too.
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

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


#: Patterns read from the .gitignore files of one walk. pathspec compiles each in Python's
#: ``re`` (about 0.1 ms apiece), so a hostile file of 60,000 patterns cost some 10 s of CPU
#: before a file was counted, and a tree of many such files would cost that many times over;
#: the longest real one seen (Projet_long_3DGS_Rust_WebGPU) lists 4,333. Patterns past the
#: budget are not read: the files they would hide are counted, and the walk's note says so.
MAX_GITIGNORE_PATTERNS = 10_000


def _load_gitignore(directory: str, budget: list[int]) -> tuple[IgnoreSpec | None, bool]:
    """The folder's .gitignore, read up to the walk's ``budget`` of patterns (which it
    lowers), and whether patterns past it were left unread."""
    lines: list[str] = []
    patterns = 0
    try:
        with open(os.path.join(directory, ".gitignore"), encoding="utf-8", errors="replace") as f:
            for line in f:  # line by line: a longer file is not even read past the budget
                if line.strip() and not line.startswith("#"):
                    patterns += 1
                    if patterns > budget[0]:
                        break
                lines.append(line.rstrip("\r\n"))
    except OSError:
        return None, False
    truncated = patterns > budget[0]
    budget[0] -= min(patterns, budget[0])
    return (IgnoreSpec(lines) if lines else None), truncated


@dataclass
class Hidden:
    """What ``.gitignore`` patterns did to a walk, by pattern (``*.cuh``, or
    ``sub/.gitignore: *.cuh`` for a nested file's): files and folders they left out of a
    plain directory, or, in a git checkout (``tracked``), tracked files they match."""

    files: Counter[str] = field(default_factory=Counter)
    folders: Counter[str] = field(default_factory=Counter)
    tracked: bool = False
    # .gitignore files (by path) the walk's MAX_GITIGNORE_PATTERNS ran out in: the rest of
    # their patterns were not read.
    truncated: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.files or self.folders or self.truncated)

    def line(self) -> str:
        """One line saying what happened and how to count the files anyway."""
        if not self.truncated:
            return self._hid()
        cut = ", ".join(self.truncated[:3]) + (
            f" and {len(self.truncated) - 3:,} more" if len(self.truncated) > 3 else ""
        )
        unread = (
            f"patterns past the first {MAX_GITIGNORE_PATTERNS:,} of .gitignore files were "
            f"not read ({cut}): files they name are counted"
        )
        return f"{self._hid()}; {unread}" if self.files or self.folders else unread

    def _hid(self) -> str:
        both = self.files + self.folders
        ranked = sorted(both.items(), key=lambda item: (-item[1], item[0]))
        shown = ", ".join(f"{pattern}: {n:,}" for pattern, n in ranked[:3])
        more = f", {len(both) - 3:,} more patterns" if len(both) > 3 else ""
        files = sum(self.files.values())
        if self.tracked:
            verb, them = ("matches", "it") if files == 1 else ("match", "them")
            return (
                f"{_count(files, 'tracked file')} {verb} .gitignore patterns ({shown}{more}): "
                f"counted, as git tracks {them}; a copy of the tree without .git leaves "
                f"{them} out unless scanned with --no-ignore"
            )
        what = _count(files, "file")
        if self.folders:
            what += f" and {_count(sum(self.folders.values()), 'folder')}"
        return f".gitignore left out {what} ({shown}{more}); --no-ignore counts them"


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def walk(
    root: str, path_filter: PathFilter, *, gitignore: bool = True, hidden: Hidden | None = None
) -> Iterator[str]:
    """Relative paths of the files under ``root`` that the analysis looks at; what
    ``.gitignore`` did goes to ``hidden`` when given (complete once the walk is)."""
    check_directory(root)
    listed = _git_files(root) if gitignore else None
    if listed is None:
        yield from _walk(root, "", path_filter, [], gitignore, hidden, [MAX_GITIGNORE_PATTERNS])
        return
    if hidden is not None:
        hidden.tracked = True
        hidden.files.update(_tracked_but_ignored(root, path_filter))
    for rel in listed:
        full = os.path.join(root, rel)
        # Gitlinks (submodules) and files deleted from the work tree are not files here.
        if path_filter.includes(rel) and not os.path.islink(full) and os.path.isfile(full):
            yield rel


def _tracked_but_ignored(root: str, path_filter: PathFilter) -> Counter[str]:
    """The .gitignore patterns that tracked files of the checkout match, and how many."""
    command = ["git", "-C", root, "ls-files", "-z", "--cached", "--ignored", "--exclude-standard"]
    try:
        listing = subprocess.run(command, capture_output=True, check=True, timeout=120).stdout
        paths = [p for p in listing.split(b"\0") if p and path_filter.includes(os.fsdecode(p))]
        if not paths:
            return Counter()
        # source NUL line NUL pattern NUL path NUL, per path.
        check = ["git", "-C", root, "check-ignore", "--no-index", "-v", "-z", "--stdin"]
        verbose = subprocess.run(
            check, input=b"\0".join(paths) + b"\0", capture_output=True, timeout=120
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return Counter()
    fields = [os.fsdecode(f) for f in verbose.split(b"\0")]
    return Counter(_pattern_name(fields[i], fields[i + 2]) for i in range(0, len(fields) - 3, 4))


def _pattern_name(source: str, pattern: str) -> str:
    """``*.cuh`` for the top .gitignore's pattern, ``sub/.gitignore: *.cuh`` otherwise."""
    return pattern if source in (".gitignore", "") else f"{source}: {pattern}"


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


def _ignoring(rel: str, ignores: list[tuple[str, IgnoreSpec]]) -> str | None:
    """The pattern that ignores ``rel`` (named as :func:`_pattern_name` does), or None."""
    # The deepest .gitignore that has an opinion wins, as in git (negations included).
    for base, spec in reversed(ignores):
        decided = spec.deciding(rel[len(base) :])
        if decided is not None:
            ignored, pattern = decided
            return _pattern_name(base + ".gitignore", pattern) if ignored else None
    return None


def _walk(
    root: str,
    prefix: str,
    path_filter: PathFilter,
    ignores: list[tuple[str, IgnoreSpec]],
    gitignore: bool,
    hidden: Hidden | None,
    budget: list[int],  # .gitignore patterns the rest of the walk may read
) -> Iterator[str]:
    directory = os.path.join(root, prefix) if prefix else root
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return  # unreadable folder: nothing to count, nothing to crash on
    # Opened only where the listing names one: most folders have none, and trying to open
    # one anyway was a failed system call per folder (about 600 in the bench corpus).
    if gitignore and any(entry.name == ".gitignore" for entry in entries):
        spec, truncated = _load_gitignore(directory, budget)
        if truncated and hidden is not None:
            hidden.truncated.append(prefix + ".gitignore")
        if spec is not None:
            ignores = [*ignores, (prefix, spec)]
    # Where the filter's exclusions all name folders, the folders walked into already
    # passed it, and so do the files in them.
    check_files = not path_filter.folders_decide
    for entry in entries:
        rel = prefix + entry.name
        if entry.is_symlink():
            continue
        if entry.is_dir():
            if entry.name == ".git" or path_filter.prunes(rel):
                continue
            if pattern := _ignoring(rel + "/", ignores):
                if hidden is not None:
                    hidden.folders[pattern] += 1
                continue
            yield from _walk(root, rel + "/", path_filter, ignores, gitignore, hidden, budget)
        elif entry.is_file() and (not check_files or path_filter.includes(rel)):
            if pattern := _ignoring(rel, ignores):
                if hidden is not None:
                    hidden.files[pattern] += 1
                continue
            yield rel
