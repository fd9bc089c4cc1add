"""The change between two plain directories, with git's own rename detection and line diff.

``git diff --no-index`` compares the trees; the result is then limited to the files
each side's walk includes (gitignore, default exclusions, user patterns), so a diff of
two directories counts exactly what a scan of each would.
"""

from __future__ import annotations

import os

from bot.engine.delta import changed_lines_by_file
from bot.engine.paths import PathFilter
from bot.sources import SourceError
from bot.sources.changes import Change, parse_raw, within
from bot.sources.git import run_git
from bot.sources.tree import Hidden, check_directory, walk


def directory_changes(
    before: str,
    after: str,
    path_filter: PathFilter,
    *,
    gitignore: bool = True,
    hidden: Hidden | None = None,
) -> list[Change]:
    """Files that differ from ``before`` to ``after`` (paths relative to each root);
    ``gitignore`` and ``hidden`` as for ``walk`` (``hidden``: of ``after``)."""
    check_directory(before)
    check_directory(after)
    before, after = os.path.realpath(before), os.path.realpath(after)
    if before == after:
        return []
    cwd = os.path.commonpath([before, after])
    old_root, new_root = os.path.relpath(before, cwd), os.path.relpath(after, cwd)
    if "." in (old_root, new_root):
        raise SourceError("cannot compare a directory with one inside it")
    old_files = set(walk(before, path_filter, gitignore=gitignore))
    new_files = set(walk(after, path_filter, gitignore=gitignore, hidden=hidden))
    # Exit status 1 means "differences found".
    common = ["diff", "--no-index", "-M", "--no-ext-diff", "--no-textconv"]
    raw = run_git([*common, "--raw", "-z", "--no-abbrev", old_root, new_root], cwd, ok=(0, 1))
    # git's a/ and b/ prefixes, whatever the user's diff.noprefix or diff.mnemonicPrefix say:
    # unidiff splits a `diff --git` header at the target's "b/", and without a prefix a path
    # holding a space ("Preview Content/Contents.json") splits in the wrong place.
    prefixes = ["--src-prefix=a/", "--dst-prefix=b/"]
    patch = run_git([*common, "-U0", *prefixes, old_root, new_root], cwd, ok=(0, 1))

    old_prefix, new_prefix = old_root + "/", new_root + "/"

    def strip(path: str) -> str:
        for prefix in (new_prefix, old_prefix):
            if path.startswith(prefix):
                return path[len(prefix) :]
        return path

    lines = changed_lines_by_file(patch, "a/" + old_prefix, "b/" + new_prefix)
    changes = []
    for change in parse_raw(raw):
        path = strip(change.path)
        old_path = strip(change.old_path) if change.old_path else None
        lines_of = lines.get(path, ([], []))
        changes.append(Change(change.status, path, old_path=old_path).with_lines(lines_of))
    return within(changes, old_files.__contains__, new_files.__contains__)
