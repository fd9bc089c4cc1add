"""Read revisions of a git repository without checking anything out.

Works on bare repositories and work trees alike: files are listed with ``git ls-tree``,
read through one ``git cat-file --batch`` process, and changes come from git's own
rename detection and line diff, so line counts agree with what GitHub shows.
"""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bot.engine.delta import changed_lines_by_file
from bot.sources import SourceError
from bot.sources.changes import FILE_MODES, Change, parse_raw

# git's id of the empty tree: what HEAD is before the first commit.
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

# Plain, reproducible output whatever the user's git configuration says.
_GIT = ("git", "-c", "core.quotePath=false", "-c", "color.ui=never")


@dataclass(frozen=True, slots=True)
class TreeEntry:
    path: str
    blob: str
    size: int  # -1 when the object is absent (partial clone)


def run_git(args: list[str], cwd: str, *, ok: tuple[int, ...] = (0,)) -> str:
    """Run git and return its stdout; a failure becomes a one-line ``SourceError``."""
    try:
        # Bytes, decoded here: text mode would turn a lone \r inside a diffed line into a
        # line break and corrupt the patch.
        proc = subprocess.run([*_GIT, *args], cwd=cwd, capture_output=True)
    except FileNotFoundError:
        raise SourceError("git is not installed (lockin diff needs it)") from None
    if proc.returncode not in ok:
        lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = lines[-1] if lines else f"exit status {proc.returncode}"
        raise SourceError(f"git {args[0]} failed: {detail.removeprefix('fatal: ')}")
    return proc.stdout.decode("utf-8", "surrogateescape")


def worktree_prefix(directory: str) -> str:
    """Where ``directory`` sits inside its git work tree (``"sub/dir/"``), ``""`` at the
    root or outside any repository."""
    try:
        return run_git(["rev-parse", "--show-prefix"], directory, ok=(0, 128)).strip()
    except SourceError:
        return ""


class GitRepo:
    """A repository at ``path`` (a work tree, a ``.git`` directory or a bare repository)."""

    def __init__(self, path: str) -> None:
        if not os.path.exists(path):
            raise SourceError(f"no such repository: {path}")
        if not os.path.isdir(path):
            raise SourceError(f"not a directory: {path}")
        self.path = path
        if not run_git(["rev-parse", "--git-dir"], path, ok=(0, 128)).strip():
            raise SourceError(f"not a git repository: {path}")

    def _git(self, *args: str, ok: tuple[int, ...] = (0,)) -> str:
        return run_git(list(args), self.path, ok=ok)

    def resolve(self, revision: str) -> str:
        """The commit id of ``revision``; ``SourceError`` when there is none."""
        if revision.startswith("-"):
            raise SourceError(f"revision not found: {revision}")
        out = self._git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}", ok=(0, 1))
        if not out.strip():
            raise SourceError(f"revision not found: {revision}")
        return out.strip()

    def head_or_empty_tree(self) -> str:
        """The commit at HEAD, or the empty tree in a repository without commits."""
        out = self._git("rev-parse", "--verify", "--quiet", "HEAD^{commit}", ok=(0, 1))
        return out.strip() or EMPTY_TREE

    def merge_base(self, base: str, head: str) -> str | None:
        out = self._git("merge-base", base, head, ok=(0, 1))
        return out.strip() or None

    def list_files(self, commit: str, under: str | None = None) -> list[TreeEntry]:
        """Regular files of a commit (no symlinks, no submodules), with blob id and size,
        optionally only those under one folder."""
        limit = ("--", under) if under else ()
        out = self._git("ls-tree", "-r", "-z", "--long", "--full-tree", commit, *limit)
        entries = []
        for record in out.split("\0"):
            if not record:
                continue
            meta, path = record.split("\t", 1)
            mode, kind, blob, size = meta.split()
            if kind == "blob" and mode in FILE_MODES:
                # git prints "BAD" for an object absent from a partial clone.
                entries.append(TreeEntry(path, blob, int(size) if size.isdigit() else -1))
        return entries

    def list_index(self, under: str | None = None) -> list[TreeEntry]:
        """Regular files staged in the index (stage 0), optionally only under one folder;
        sizes are not read (-1)."""
        limit = ("--", f":(top,literal){under}") if under else ()
        out = self._git("ls-files", "--stage", "-z", *limit)
        entries = []
        for record in out.split("\0"):
            if not record:
                continue
            meta, path = record.split("\t", 1)
            mode, blob, stage = meta.split()
            if stage == "0" and mode in FILE_MODES:
                entries.append(TreeEntry(path, blob, -1))
        return entries

    def read_blobs(self, names: Iterable[str]) -> Iterator[tuple[str, bytes | None]]:
        """Yield ``(name, content)`` for blob ids or ``rev:path`` names, in order.

        ``content`` is ``None`` for a name that does not exist (or whose object is
        absent from a partial clone). One ``cat-file`` process serves all names; a
        feeder thread writes the requests so that neither pipe can fill up and block.
        """
        names = list(names)
        if not names:
            return
        proc = subprocess.Popen(
            [*_GIT, "cat-file", "--batch"],
            cwd=self.path,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert proc.stdin is not None
        assert proc.stdout is not None

        def feed() -> None:
            try:
                for name in names:
                    proc.stdin.write(name.encode("utf-8", "surrogateescape") + b"\n")
                proc.stdin.close()
            except (BrokenPipeError, ValueError):
                pass  # the reader stopped early and closed the process

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        try:
            for name in names:
                header = proc.stdout.readline()
                if not header:
                    raise SourceError("git cat-file stopped unexpectedly")
                if header.endswith((b" missing\n", b" ambiguous\n")):
                    yield name, None
                    continue
                size = int(header.split()[2])
                data = proc.stdout.read(size)
                proc.stdout.read(1)  # the newline after each object
                yield name, data
        finally:
            proc.kill()
            proc.wait()
            proc.stdout.close()
            feeder.join()

    def read_file(self, commit: str, path: str) -> bytes | None:
        """One file of a commit (``""``: of the index), ``None`` when it does not exist there."""
        return next(self.read_blobs([f"{commit}:{path}"]))[1]

    def changes(self, base: str, head: str | None) -> list[Change]:
        """Files that differ from ``base`` to ``head`` (``None``: the index), renames
        detected, with the lines git's own diff marks as added and removed."""
        sides = (base, head) if head else ("--cached", base)
        raw = self._git("diff", "--raw", "-z", "--no-abbrev", "-M", *sides, "--")
        patch = self._git(
            "diff",
            "-U0",
            "-M",
            "--no-ext-diff",
            "--no-textconv",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            *sides,
            "--",
        )
        lines = changed_lines_by_file(patch)
        return [c.with_lines(lines.get(c.path, ([], []))) for c in parse_raw(raw)]

    def remote_url(self, name: str) -> str | None:
        """The URL of a remote, ``None`` when there is no such remote."""
        return self._git("remote", "get-url", name, ok=(0, 2)).strip() or None

    def messages(self, base: str, head: str) -> list[str]:
        """Commit messages reachable from ``head`` and not from ``base``."""
        out = self._git("log", "-z", "--format=%B", f"{base}..{head}")
        return [m for m in out.split("\0") if m.strip()]
