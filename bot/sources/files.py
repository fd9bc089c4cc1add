"""How one file's bytes reach the engine, wherever they come from (a directory, a git
blob, a tarball member): one size limit and one shape for files that are not counted, so
the CLI, the PR check and the census agree on every file."""

from __future__ import annotations

import os

from bot.engine import classify
from bot.engine.classify import HEAD_BYTES, binary_from_head
from bot.engine.model import FileReport, zero_layers

#: Files above this size are listed as "too-large", not classified: hand-written source
#: is far smaller, and it bounds what one file can cost (the engine itself has no limit).
MAX_FILE_BYTES = 4 * 1024 * 1024
#: The least a read past a file's head asks for.
_READ = 64 * 1024
#: The skip reason of a file that is listed but could not be read (an object absent from
#: a partial clone, a file without read permission).
UNREADABLE = "unreadable"


def skipped(path: str, reason: str) -> FileReport:
    """The report of a file that is listed but not counted ("too-large", "unreadable"...)."""
    return FileReport(path, None, 0, zero_layers(), {}, [], [], skipped=reason)


def classify_entry(path: str, data: bytes) -> FileReport:
    """The engine's report on one file; reading ``MAX_FILE_BYTES + 1`` bytes is enough
    to learn that a file is too large."""
    if len(data) > MAX_FILE_BYTES:
        return skipped(path, "too-large")
    return classify(path, data)


def classify_file(path: str, fd: int) -> FileReport:
    """``classify_entry`` of a file open for reading (its descriptor), reading no more of it
    than the report needs: nothing of a file over the size limit, only the start of a binary
    one no name places. Read with ``os.read``: a census reads thousands of small files, and
    a buffered file object cost a third of the reading (11 ms over the bench corpus)."""
    size = os.fstat(fd).st_size
    if size > MAX_FILE_BYTES:
        return skipped(path, "too-large")
    head = os.read(fd, HEAD_BYTES)
    if len(head) == HEAD_BYTES and (report := binary_from_head(path, head)) is not None:
        return report
    # One byte past the limit is enough for classify_entry to say "too-large" of a file
    # that grew since: a huge file never sits in memory whole. A read asks for what the size
    # said is left and a byte more (64 KiB at least), so the end shows at the next read.
    parts, read = [head], len(head)
    while read <= MAX_FILE_BYTES:
        part = os.read(fd, min(MAX_FILE_BYTES + 1 - read, max(size - read + 1, _READ)))
        if not part:
            break
        parts.append(part)
        read += len(part)
    return classify_entry(path, b"".join(parts))
