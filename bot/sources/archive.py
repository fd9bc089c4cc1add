"""One walker for untrusted repository tarballs, used by the census and by the PR check.

Nothing is written to disk and the archive is never held: compressed chunks are pulled
from their source (an HTTP response, a local file) by a worker thread, inflated with a cap
on every read, and fed to the standard library's ``tarfile`` in stream mode; each member is
handed to the caller and dropped before the next is read. Memory is one chunk, one file
(at most ``MAX_FILE_BYTES`` + 1) and what the caller keeps.

Two modes share every limit: the census visits every regular file; the PR check names the
paths it wants and the walk stops once all were seen. Anyone can push a crafted tree, so
entries with absolute paths, ``..``, links, devices and fifos are skipped and reported,
never followed; pax and GNU long-name headers are bounded; and an archive above its
compressed size, or one that inflates past its cap or like a gzip bomb, is refused with a
clear message.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import queue
import tarfile
import threading
import zlib
from collections import Counter
from collections.abc import AsyncIterator, Callable, Collection
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import aiohttp

from bot.sources import SourceError
from bot.sources.files import MAX_FILE_BYTES

_inflate_lib: ModuleType
try:  # ISA-L inflates 1.7x (binary-heavy) to 2.6x (source) faster than zlib, same format
    from isal import isal_zlib as _inflate_lib
except ImportError:  # pragma: no cover - the standard library does the same, slower
    _inflate_lib = zlib

CHUNK = 64 * 1024  # compressed bytes read at a time
# Inflated bytes produced per step: zlib lets go of the GIL while it works, and a large
# step means the inflating thread needs the GIL back rarely.
STEP = 1024 * 1024
_GZIP_MAGIC = b"\x1f\x8b"
# Inflated bytes per compressed byte beyond which a stream is treated as a bomb. Source
# trees inflate 3-10x; zeros inflate ~1000x. Checked only past RATIO_GRACE of output,
# so a small archive of one repetitive file is not refused.
MAX_RATIO = 100
RATIO_GRACE = 32 * 1024 * 1024
# pax and GNU long-name headers are read whole by tarfile: keep them to what a path needs.
MAX_META_HEADER = 64 * 1024
#: Unsafe entries kept by name in a report (all are counted).
MAX_EXAMPLES = 20


class ArchiveError(SourceError):
    """The archive cannot be counted; ``str(error)`` is one line for the user."""


class ArchiveRefused(ArchiveError):
    """The archive is larger than allowed, or inflates like a gzip bomb."""


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    max_compressed: int  # bytes as downloaded
    max_inflated: int  # bytes of tar after gunzip

    @classmethod
    def for_archive(cls, max_bytes: int) -> ArchiveLimits:
        """Limits for a configured archive size (policy ``census.max_archive_mb``)."""
        return cls(max_compressed=max_bytes, max_inflated=10 * max_bytes)


@dataclass(slots=True)
class UnsafeEntries:
    """Entries skipped because following them could touch something outside the tree."""

    counts: Counter[str] = field(default_factory=Counter)  # reason -> entries
    examples: list[tuple[str, str]] = field(default_factory=list)  # (name, reason)

    def add(self, name: str, reason: str) -> None:
        self.counts[reason] += 1
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append((name, reason))


# -- byte sources ---------------------------------------------------------------


class _Inflater:
    """A read-only file object over compressed chunks: gunzips with every read capped.

    Counts compressed bytes as they arrive and inflated bytes as they are produced, and
    refuses the stream the moment either passes its limit, so a bomb costs at most one
    ``STEP`` of memory. An uncompressed tar passes through (counted the same way).
    """

    def __init__(self, pull: Callable[[], bytes], limits: ArchiveLimits) -> None:
        self._pull = pull
        self._limits = limits
        self._inflate: Any = None  # zlib decompressobj, or None for a plain tar
        self._pending = b""  # compressed input not yet given to zlib
        self._started = False
        self._eof = False
        self.compressed = 0
        self.inflated = 0

    def _next_input(self) -> bytes:
        chunk = self._pull()
        self.compressed += len(chunk)
        if self.compressed > self._limits.max_compressed:
            raise ArchiveRefused(
                f"the repository archive is larger than the "
                f"{_mb(self._limits.max_compressed)} limit (census.max_archive_mb)"
            )
        return chunk

    def _start(self) -> None:
        self._started = True
        head = b""
        while len(head) < 2:
            chunk = self._next_input()
            if not chunk:
                break
            head += chunk
        if head.startswith(_GZIP_MAGIC):
            self._inflate = _gunzip()
        self._pending = head

    def read(self, size: int = CHUNK) -> bytes:
        if not self._started:
            self._start()
        size = STEP if size is None or size < 0 else min(size, STEP)
        while not self._eof:
            out = self._read_some(size)
            if out:
                self._count(len(out))
                return out
        return b""

    def _read_some(self, size: int) -> bytes:
        inflate = self._inflate
        if inflate is not None and inflate.unconsumed_tail:
            return inflate.decompress(inflate.unconsumed_tail, size)
        data, self._pending = self._pending or self._next_input(), b""
        if not data:
            if inflate is not None and not inflate.eof:
                raise ArchiveError("the repository archive ends in the middle (truncated)")
            self._eof = True
            return b""
        if inflate is None:
            return data
        if inflate.eof:
            # Concatenated gzip members are one stream; anything else after the end
            # (padding) is ignored, as gzip(1) does.
            if not data.startswith(_GZIP_MAGIC):
                return b""
            inflate = self._inflate = _gunzip()
        out = inflate.decompress(data, size)
        if inflate.eof and inflate.unused_data:
            self._pending = inflate.unused_data
        return out

    def _count(self, n: int) -> None:
        self.inflated += n
        limits = self._limits
        if self.inflated > limits.max_inflated or (
            self.inflated > RATIO_GRACE and self.inflated > MAX_RATIO * self.compressed
        ):
            raise ArchiveRefused(
                f"the repository archive inflates to more than {_mb(self.inflated)} from "
                f"{_mb(self.compressed)} compressed: refused as a possible gzip bomb"
            )


#: What a broken archive raises while it is read.
_READ_ERRORS: tuple[type[Exception], ...] = (
    tarfile.TarError,
    zlib.error,
    _inflate_lib.error,
    EOFError,
)


def _gunzip() -> Any:
    return _inflate_lib.decompressobj(wbits=31)


def _mb(n: int) -> str:
    if n < 2**20:
        return f"{n / 1024:,.0f} kB"
    mb = n / 2**20
    return f"{mb:,.0f} MB" if mb >= 10 or mb.is_integer() else f"{mb:.1f} MB"


# How often a walking thread waiting for the network checks that its event loop still runs.
_LIVENESS = 1.0


class _StreamBridge:
    """Lets the walking thread pull chunks from an async iterator on the event loop.

    The thread asks for one chunk at a time and waits for it, so nothing piles up between
    the network and the parser: the bound is the HTTP client's own read buffer.
    """

    def __init__(self, chunks: AsyncIterator[bytes], loop: asyncio.AbstractEventLoop) -> None:
        self._chunks = chunks
        self._loop = loop
        self._closed = threading.Event()
        self._current: concurrent.futures.Future[bytes] | None = None

    async def _next(self) -> bytes:
        try:
            return await anext(self._chunks)
        except StopAsyncIteration:
            return b""
        except (aiohttp.ClientError, TimeoutError) as error:
            # Named by its kind only: the archive URL carries a download token.
            raise ArchiveError(f"the archive download broke off ({type(error).__name__})") from None

    def pull(self) -> bytes:
        if self._closed.is_set() or self._loop.is_closed():
            raise ArchiveError("the archive walk was cancelled")
        current = self._current = asyncio.run_coroutine_threadsafe(self._next(), self._loop)
        if self._closed.is_set():
            # close() ran between scheduling this read and storing it, so it cancelled the
            # previous one: cancel this one here, or the thread would wait for it forever.
            current.cancel()
        while True:
            try:
                return current.result(timeout=_LIVENESS)
            except concurrent.futures.CancelledError:
                raise ArchiveError("the archive walk was cancelled") from None
            except concurrent.futures.TimeoutError:
                # A loop that stopped without cancelling us will never answer.
                if self._loop.is_closed() or not self._loop.is_running():
                    raise ArchiveError("the archive walk was cancelled") from None

    def close(self) -> None:
        """Stop the thread at its next pull (called when the awaiting task is cancelled)."""
        self._closed.set()
        if self._current is not None:
            self._current.cancel()


# -- the tar walk ---------------------------------------------------------------


class _BoundedTarInfo(tarfile.TarInfo):
    """Refuses pax and GNU long-name headers larger than a path could need.

    ``tarfile`` reads such headers into memory whole; a crafted multi-gigabyte one would
    otherwise be the one thing the stream holds at once.
    """

    _META = frozenset(
        {
            tarfile.XHDTYPE,
            tarfile.XGLTYPE,
            tarfile.SOLARIS_XHDTYPE,
            tarfile.GNUTYPE_LONGNAME,
            tarfile.GNUTYPE_LONGLINK,
        }
    )

    def _proc_member(self, tarfile_: tarfile.TarFile) -> tarfile.TarInfo:
        if self.type in self._META and self.size > MAX_META_HEADER:
            raise ArchiveRefused(f"the archive has a {self.size:,}-byte metadata header")
        # A private hook of tarfile (stable since 3.0) that typeshed does not declare.
        return super()._proc_member(tarfile_)  # type: ignore[misc]


def _unsafe_reason(member: tarfile.TarInfo) -> str | None:
    if member.issym():
        return "symlink"
    if member.islnk():
        return "hardlink"
    if member.ischr() or member.isblk():
        return "device"
    if member.isfifo():
        return "fifo"
    if not (member.isfile() or member.isdir()):
        return "special"
    name = member.name
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return "absolute-path"
    if ".." in name.replace("\\", "/").split("/"):
        return "path-traversal"
    if "\x00" in name:
        return "bad-name"
    return None


class _Root:
    """Strips the single top-level folder GitHub wraps a tarball in (``owner-repo-sha/``)."""

    def __init__(self, strip: bool) -> None:
        self._strip = strip
        self._prefix: str | None = None

    def relative(self, name: str) -> str | None:
        """The repository path of an entry, or None for the root itself / a stray entry."""
        name = name.strip("/")
        if not self._strip:
            return name or None
        top, _, rest = name.partition("/")
        if self._prefix is None:
            self._prefix = top
        if top != self._prefix:
            return None
        return rest or None


def _read_member(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    # Past the limit one byte more than the limit is enough to say "too-large"; the rest
    # of the member is skipped by tarfile as it moves to the next header.
    handle = tar.extractfile(member)
    return handle.read(MAX_FILE_BYTES + 1) if handle is not None else b""


class _Prefetch:
    """Inflates ahead in a thread of its own while the walking thread parses and classifies.

    zlib releases the GIL, so inflating overlaps classification instead of adding to it.
    At most ``DEPTH`` chunks wait in between; an error is handed over in order, and
    ``close`` stops the thread when the reader is done or gives up early.
    """

    DEPTH = 4

    def __init__(self, source: _Inflater) -> None:
        self._source = source
        self._queue: queue.Queue[bytes | BaseException] = queue.Queue(self.DEPTH)
        self._stop = threading.Event()
        self._pending = b""
        self._offset = 0
        self._done = False
        self._thread = threading.Thread(target=self._fill, name="archive-inflate", daemon=True)
        self._thread.start()

    def _fill(self) -> None:
        while not self._stop.is_set():
            try:
                chunk: bytes | BaseException = self._source.read(STEP)
            except BaseException as error:  # handed to the reader, raised there
                chunk = error
            while not self._stop.is_set():
                try:
                    self._queue.put(chunk, timeout=0.1)
                    break
                except queue.Full:
                    continue
            if not isinstance(chunk, bytes) or not chunk:
                return

    def read(self, size: int = CHUNK) -> bytes:
        if self._offset >= len(self._pending) and not self._done:
            item = self._queue.get()
            if isinstance(item, BaseException):
                self._done = True
                raise item
            self._pending, self._offset, self._done = item, 0, not item
        # An offset, not re-slicing the rest: tarfile reads a step in many small pieces.
        out = self._pending[self._offset : self._offset + size]
        self._offset += len(out)
        return out

    def close(self) -> None:
        # No join: the thread may be waiting on the network; it ends after that read.
        self._stop.set()


#: Called with (repository path, bytes) for each regular file visited, in the walk's thread.
Visit = Callable[[str, bytes], None]
#: Called with (entry name, reason) for each entry skipped as unsafe.
Unsafe = Callable[[str, str], None]


@dataclass(slots=True)
class WalkResult:
    files: int = 0  # regular files handed to the caller
    compressed_bytes: int = 0
    inflated_bytes: int = 0
    unsafe: UnsafeEntries = field(default_factory=UnsafeEntries)
    missing: set[str] = field(default_factory=set)  # wanted paths the archive did not hold


def _walk(
    source: _Prefetch,
    *,
    visit: Visit,
    on_unsafe: Unsafe | None,
    wanted: Collection[str] | None,
    strip_root: bool,
    result: WalkResult,
) -> None:
    root = _Root(strip_root)
    missing = set(wanted) if wanted is not None else None
    try:
        # Stream mode only calls read(); typeshed asks for a full file object.
        with tarfile.open(fileobj=source, mode="r|", tarinfo=_BoundedTarInfo) as tar:  # type: ignore[call-overload]
            for member in tar:
                reason = _unsafe_reason(member)
                path = root.relative(member.name) if reason is None else None
                if reason is None and member.isdir():
                    continue
                if reason is None and path is None:
                    reason = "outside-root"
                if reason is not None:
                    result.unsafe.add(member.name, reason)
                    if on_unsafe is not None:
                        on_unsafe(member.name, reason)
                    continue
                assert path is not None
                if missing is not None and path not in missing:
                    continue
                visit(path, _read_member(tar, member))
                result.files += 1
                if missing is not None:
                    missing.discard(path)
                    if not missing:
                        break
    except _READ_ERRORS as error:
        raise ArchiveError(f"the repository archive could not be read: {error}") from None
    result.missing = missing or set()


def walk_pull(
    pull: Callable[[], bytes],
    visit: Visit,
    *,
    limits: ArchiveLimits,
    strip_root: bool,
    wanted: Collection[str] | None = None,
    on_unsafe: Unsafe | None = None,
) -> WalkResult:
    """Walk an archive whose compressed bytes come from ``pull`` (b"" at the end).

    With ``wanted`` None every regular file is visited (the census); otherwise only those
    paths, and the walk stops once all were seen (``result.missing`` holds the others).
    """
    inflater = _Inflater(pull, limits)
    prefetch = _Prefetch(inflater)
    result = WalkResult()
    try:
        _walk(
            prefetch,
            visit=visit,
            on_unsafe=on_unsafe,
            wanted=wanted,
            strip_root=strip_root,
            result=result,
        )
    finally:
        prefetch.close()
        result.compressed_bytes, result.inflated_bytes = inflater.compressed, inflater.inflated
    return result


# Walks are CPU-bound: two threads at most, so they neither starve the event loop's
# other work of the default executor nor multiply the memory bound.
_EXECUTOR = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="archive")


async def walk_stream(
    chunks: AsyncIterator[bytes],
    visit: Visit,
    *,
    limits: ArchiveLimits,
    declared_size: int | None = None,
    strip_root: bool = True,
    wanted: Collection[str] | None = None,
    on_unsafe: Unsafe | None = None,
) -> WalkResult:
    """Walk an archive arriving as compressed chunks (e.g. an HTTP response body) in a
    worker thread; ``declared_size`` (a Content-Length) is checked before the first read."""
    if declared_size is not None and declared_size > limits.max_compressed:
        raise ArchiveRefused(
            f"the repository archive ({_mb(declared_size)}) is larger than the "
            f"{_mb(limits.max_compressed)} limit (census.max_archive_mb)"
        )
    loop = asyncio.get_running_loop()
    bridge = _StreamBridge(chunks, loop)
    work = loop.run_in_executor(
        _EXECUTOR,
        lambda: walk_pull(
            bridge.pull,
            visit,
            limits=limits,
            strip_root=strip_root,
            wanted=wanted,
            on_unsafe=on_unsafe,
        ),
    )
    try:
        return await work
    except asyncio.CancelledError:
        # The thread cannot be interrupted; it stops at its next pull.
        bridge.close()
        raise


def walk_file(
    path: str | os.PathLike[str],
    visit: Visit,
    *,
    limits: ArchiveLimits,
    strip_root: bool = False,
    on_unsafe: Unsafe | None = None,
) -> WalkResult:
    """Walk a local ``.tar.gz`` (or ``.tar``) file the same way, read in chunks."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below, read chunk by chunk
    except OSError as error:
        raise ArchiveError(f"cannot read {path}: {error.strerror}") from None
    with handle:
        return walk_pull(
            lambda: handle.read(CHUNK),
            visit,
            limits=limits,
            strip_root=strip_root,
            on_unsafe=on_unsafe,
        )
