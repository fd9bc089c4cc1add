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
from types import TracebackType

from bot.sources import SourceError
from bot.sources.changes import FILE_MODES, Change, parse_raw

# git's id of the empty tree: what HEAD is before the first commit.
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

#: Bytes read from ``git log`` output at a time.
_LOG_CHUNK = 256 * 1024

# Plain, reproducible output whatever the user's git configuration says.
_GIT = ("git", "-c", "core.quotePath=false", "-c", "color.ui=never")


def _may_be_in_git_dir(path: str) -> bool:
    """Whether git could find ``path`` inside a git directory: it or a folder above it holds
    a ``HEAD`` file, as every git directory does, or the environment names one. Asking git
    costs a process (10 ms before a scan can start); a few stats rule out the usual case.
    The folders above are the real ones (symbolic links resolved), as git walks them."""
    if any(name in os.environ for name in ("GIT_DIR", "GIT_COMMON_DIR")):
        return True
    folder = os.path.realpath(path)
    while True:
        if os.path.isfile(os.path.join(folder, "HEAD")):
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent


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


@dataclass(frozen=True, slots=True)
class Commit:
    id: str
    time: int  # committer date, seconds since the epoch
    parents: tuple[str, ...]
    subject: str


class BlobStream:
    """One long-lived ``git cat-file --batch`` answering one request at a time.

    A request is written only after the previous answer was read whole, so neither pipe
    can fill up; a blob above ``limit`` bytes is drained and cut to ``limit + 1`` bytes,
    enough for the caller to call it too large without holding it.
    """

    def __init__(self, path: str, limit: int) -> None:
        self._limit = limit
        self._proc = subprocess.Popen(
            [*_GIT, "cat-file", "--batch"],
            cwd=path,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def read(self, blob: str) -> bytes | None:
        """The content of ``blob``, ``None`` when the object is absent."""
        stdin, stdout = self._proc.stdin, self._proc.stdout
        assert stdin is not None
        assert stdout is not None
        stdin.write(blob.encode("ascii") + b"\n")
        stdin.flush()
        header = stdout.readline()
        if not header:
            raise SourceError("git cat-file stopped unexpectedly")
        if header.endswith((b" missing\n", b" ambiguous\n")):
            return None
        size = int(header.split()[2])
        data = stdout.read(min(size, self._limit + 1))
        left = size - len(data)
        while left > 0:
            left -= len(stdout.read(min(left, 1 << 20)))
        stdout.read(1)  # the newline after each object
        return data

    def close(self) -> None:
        self._proc.kill()
        self._proc.wait()
        for pipe in (self._proc.stdin, self._proc.stdout):
            if pipe is not None:
                pipe.close()

    def __enter__(self) -> BlobStream:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _fields(stream: Iterator[bytes]) -> Iterator[str]:
    """NUL-separated fields of a byte stream, decoded, read a chunk at a time."""
    rest = b""
    for chunk in stream:
        parts = (rest + chunk).split(b"\0")
        rest = parts.pop()
        for part in parts:
            yield part.decode("utf-8", "surrogateescape")
    if rest:
        yield rest.decode("utf-8", "surrogateescape")


def _commit_changes(fields: Iterator[str]) -> Iterator[tuple[str, list[Change]]]:
    """Parse ``git log --format=%x1e%H --raw -z --no-renames``: each commit and its changes.

    Walked field by field, the status telling how many path fields follow, so that a
    path holding the record separator cannot be taken for a commit.
    """
    commit: str | None = None
    raw: list[str] = []
    for field in fields:
        field = field.lstrip("\n")
        if field.startswith("\x1e"):
            if commit is not None:
                yield commit, parse_raw("\0".join(raw))
            commit, raw = field[1:], []
        elif field.startswith(":"):
            raw.append(field)
            paths = 2 if field.split(" ")[-1][:1] in "RC" else 1
            raw += [next(fields) for _ in range(paths)]
    if commit is not None:
        yield commit, parse_raw("\0".join(raw))


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
        # Objects found absent (a partial clone, a snapshot without its large blobs): read
        # as absent without asking git, which would try to fetch them from a promisor.
        self._absent: set[str] = set()

    def _git(self, *args: str, ok: tuple[int, ...] = (0,)) -> str:
        return run_git(list(args), self.path, ok=ok)

    def resolve(self, revision: str, *, empty_tree: bool = False) -> str:
        """The commit id of ``revision``; ``SourceError`` when there is none. With
        ``empty_tree``, git's empty tree (``EMPTY_TREE``, which git knows without storing
        it) is a revision too: the base against which a root commit adds its whole tree."""
        if empty_tree and revision.lower() == EMPTY_TREE:
            return EMPTY_TREE
        if revision.startswith("-"):
            raise SourceError(f"revision not found: {revision}")
        out = self._git("rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}", ok=(0, 1))
        if not out.strip():
            raise SourceError(f"revision not found: {revision}{self._root_hint(revision)}")
        return out.strip()

    def _root_hint(self, revision: str) -> str:
        """How to diff a root commit, when ``revision`` names the parent of one; a shallow
        clone's oldest commits look like roots, but their parents were left out."""
        child = revision.removesuffix("^").removesuffix("~1").removesuffix("~")
        if child == revision:
            return ""
        out = self._git("rev-list", "--max-count=1", "--parents", child, "--", ok=(0, 128))
        ids = out.split()
        if len(ids) != 1:  # no such commit, or one with parents
            return ""
        if ids[0] in self.shallow_commits():
            return f" (a shallow clone: fetch the parent of {child}, e.g. git fetch --deepen=1)"
        return f" ({child} is a root commit: diff it from git's empty tree, {EMPTY_TREE})"

    @staticmethod
    def has_no_work_tree(path: str) -> bool:
        """Whether ``path`` is a bare repository or inside a ``.git`` directory (``False``
        where git is not installed: then no path is a repository to it)."""
        if not _may_be_in_git_dir(path):
            return False
        try:
            inside = run_git(["rev-parse", "--is-inside-git-dir"], path, ok=(0, 128))
        except SourceError:
            return False
        return inside.strip() == "true"

    def shallow_commits(self) -> frozenset[str]:
        """Commits whose parents a shallow clone left out (grafted), empty when complete."""
        if self._git("rev-parse", "--is-shallow-repository").strip() != "true":
            return frozenset()
        path = self._git("rev-parse", "--git-path", "shallow").strip()
        try:
            with open(os.path.join(self.path, path), encoding="ascii") as f:
                return frozenset(f.read().split())
        except OSError:
            return frozenset()

    def first_parent_chain(self, head: str) -> list[Commit]:
        """The commits from the first one to ``head`` following first parents, oldest first."""
        out = self._git(
            "log", "--first-parent", "--reverse", "-z", "--format=%H%x1f%ct%x1f%P%x1f%s", head
        )
        chain = []
        for record in out.split("\0"):
            if record:
                commit, time, parents, subject = record.split("\x1f", 3)
                chain.append(Commit(commit, int(time), tuple(parents.split()), subject))
        return chain

    def first_parent_changes(self, start: str, end: str) -> Iterator[tuple[str, list[Change]]]:
        """Each commit after ``start`` up to ``end`` on the first-parent chain, oldest first,
        with the files it changes against its first parent (no rename detection: a rename
        is a removal and an addition). One ``git log`` process, read as it writes."""
        proc = subprocess.Popen(
            [
                *_GIT,
                "log",
                "--first-parent",
                "--diff-merges=first-parent",
                "--reverse",
                "--raw",
                "-z",
                "--no-abbrev",
                "--no-renames",
                "--format=%x1e%H",
                f"{start}..{end}",
            ],
            cwd=self.path,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert proc.stdout is not None
        try:
            chunks = iter(lambda: proc.stdout.read(_LOG_CHUNK), b"")  # type: ignore[union-attr]
            yield from _commit_changes(_fields(chunks))
        finally:
            proc.kill()
            proc.wait()
            proc.stdout.close()
        if proc.returncode not in (0, -9):
            raise SourceError(f"git log failed on {start}..{end}")

    def blob_stream(self, limit: int) -> BlobStream:
        return BlobStream(self.path, limit)

    def head_or_empty_tree(self) -> str:
        """The commit at HEAD, or the empty tree in a repository without commits."""
        out = self._git("rev-parse", "--verify", "--quiet", "HEAD^{commit}", ok=(0, 1))
        return out.strip() or EMPTY_TREE

    def merge_base(self, base: str, head: str) -> str | None:
        if base == EMPTY_TREE:
            return None  # a tree, not a commit: nothing to meet
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
        if self._absent.intersection(names):
            # The others read as they come, in order: a change of many large blobs is not
            # held whole because one of them is absent.
            known = self.read_blobs([name for name in names if name not in self._absent])
            for name in names:
                yield (name, None) if name in self._absent else next(known)
            return
        if not names:
            return
        proc = subprocess.Popen(
            [*_GIT, "cat-file", "--batch"],
            cwd=self.path,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        stdin, stdout = proc.stdin, proc.stdout
        assert stdin is not None
        assert stdout is not None

        def feed() -> None:
            try:
                for name in names:
                    stdin.write(name.encode("utf-8", "surrogateescape") + b"\n")
                stdin.close()
            except (BrokenPipeError, ValueError):
                pass  # the reader stopped early and closed the process

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        try:
            for name in names:
                header = stdout.readline()
                if not header:
                    raise SourceError("git cat-file stopped unexpectedly")
                if header.endswith((b" missing\n", b" ambiguous\n")):
                    yield name, None
                    continue
                size = int(header.split()[2])
                data = stdout.read(size)
                stdout.read(1)  # the newline after each object
                yield name, data
        finally:
            proc.kill()
            proc.wait()
            stdout.close()
            feeder.join()

    def read_file(self, commit: str, path: str) -> bytes | None:
        """One file of a commit (``""``: of the index), ``None`` when it does not exist there."""
        return next(self.read_blobs([f"{commit}:{path}"]))[1]

    def changes(self, base: str, head: str | None) -> list[Change]:
        """Files that differ from ``base`` to ``head`` (``None``: the index), renames
        detected; a modified or renamed file with the lines git's own diff marks as added
        and removed (an added or removed file changes all of its lines: it has none here).

        git's diff stops at the first object it cannot read (a partial clone, a snapshot
        without its large blobs). Then the files with an absent object are left
        out of git's diff and listed as they are, without lines: their absent side cannot
        be read back (``read_blobs`` gives ``None``), so the caller can tell them apart.
        """
        sides = (base, head) if head else ("--cached", base)
        try:
            return self._changes(sides, ())
        except SourceError:
            absent = self._with_absent_objects(sides)
            if not absent:
                raise
        # Literal paths from the top: any file name excludes itself and nothing else.
        others = tuple(f":(exclude,literal,top){c.path}" for c in absent)
        return [*self._changes(sides, others), *absent]

    def _with_absent_objects(self, sides: tuple[str, str]) -> list[Change]:
        """The changed files one of whose objects is absent from the repository, which
        ``read_blobs`` then answers ``None`` without asking git. Listed without rename
        detection, which reads objects (a rename is a removal and an addition: only the
        side whose object is absent is listed)."""
        raw = self._git("diff", "--raw", "-z", "--no-abbrev", "--no-renames", *sides, "--")
        changes = parse_raw(raw)
        # rev-list tells absent objects without fetching them from a partial clone's
        # promisor remote, where cat-file would try and stop at the first it cannot fetch.
        trees = [side for side in sides if side != "--cached"]  # the index has its blobs
        listed = self._git("rev-list", "--objects", "--missing=print", "--no-walk", *trees, "--")
        absent = {line[1:] for line in listed.splitlines() if line.startswith("?")}
        self._absent |= absent
        return [c for c in changes if {c.old_blob, c.new_blob} & absent]

    def _changes(self, sides: tuple[str, str], paths: tuple[str, ...]) -> list[Change]:
        raw = self._git("diff", "--raw", "-z", "--no-abbrev", "-M", *sides, "--", *paths)
        # Lines are read from the patch of modified and renamed files only: an added or a
        # removed file changes every line, which its content tells (engine_runner.delta_of),
        # and a commit adding half a million generated files made a patch of gigabytes.
        patch = self._git(
            "diff",
            "-U0",
            "-M",
            "--diff-filter=MRT",
            "--no-ext-diff",
            "--no-textconv",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            *sides,
            "--",
            *paths,
        )
        # Late: the delta's module loads unidiff, which a scan (git's other use) skips.
        from bot.engine.delta import changed_lines_by_file

        lines = changed_lines_by_file(patch)
        return [c.with_lines(lines.get(c.path, ([], []))) for c in parse_raw(raw)]

    def remote_url(self, name: str) -> str | None:
        """The URL of a remote, ``None`` when there is no such remote."""
        return self._git("remote", "get-url", name, ok=(0, 2)).strip() or None

    def messages(self, base: str, head: str) -> list[str]:
        """Commit messages reachable from ``head`` and not from ``base`` (all of them from
        the empty tree)."""
        commits = head if base == EMPTY_TREE else f"{base}..{head}"
        out = self._git("log", "-z", "--format=%B", commits)
        return [m for m in out.split("\0") if m.strip()]
