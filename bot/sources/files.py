"""How one file's bytes reach the engine, wherever they come from (a directory, a git
blob, a tarball member): one size limit and one shape for files that are not counted, so
the CLI, the PR check and the census agree on every file."""

from __future__ import annotations

import os
from typing import BinaryIO

from bot.engine import classify
from bot.engine.classify import HEAD_BYTES, binary_from_head
from bot.engine.model import FileReport, zero_layers

#: Files above this size are listed as "too-large", not classified: hand-written source
#: is far smaller, and it bounds what one file can cost (the engine itself has no limit).
MAX_FILE_BYTES = 4 * 1024 * 1024
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


def classify_file(path: str, file: BinaryIO) -> FileReport:
    """``classify_entry`` of an open file, reading no more of it than the report needs:
    nothing of a file over the size limit, only the start of a binary one no name places."""
    if os.fstat(file.fileno()).st_size > MAX_FILE_BYTES:
        return skipped(path, "too-large")
    head = file.read(HEAD_BYTES)
    if len(head) == HEAD_BYTES and (report := binary_from_head(path, head)) is not None:
        return report
    # One byte past the limit is enough for classify_entry to say "too-large" of a file
    # that grew since: a huge file never sits in memory whole.
    return classify_entry(path, head + file.read(MAX_FILE_BYTES + 1 - len(head)))
