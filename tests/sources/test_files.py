"""Reading a file for the engine: the same report as from its whole bytes, with no more of
it read than that report needs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.engine.classify import HEAD_BYTES
from bot.engine.model import FileReport
from bot.sources.files import MAX_FILE_BYTES, classify_entry, classify_file

BINARY = bytes(range(256)) * 80  # 20 KiB with NUL bytes: a checkpoint, an image
TEXT = b"plain notes, no language names this file\n" * 500


def _report_and_bytes_read(path: Path, name: str) -> tuple[FileReport, int]:
    fd = os.open(path, os.O_RDONLY)
    try:
        report = classify_file(name, fd)
        return report, os.lseek(fd, 0, os.SEEK_CUR)
    finally:
        os.close(fd)


@pytest.mark.parametrize(
    ("name", "data", "reads"),
    [
        # No name or #! line places it, and its start is binary: the rest is never read.
        ("weights.bin", BINARY, HEAD_BYTES),
        ("model", BINARY, HEAD_BYTES),
        # A name the engine knows, or a #! line, needs the whole file whatever it holds.
        ("kernel.cu", BINARY, len(BINARY)),
        ("run", b"#!/usr/bin/env python\n" + BINARY, len(BINARY) + 22),
        # Text that no name places is counted in lines: all of it is read.
        ("NOTES", TEXT, len(TEXT)),
        # Shorter than the head: read whole.
        ("small.bin", BINARY[:1000], 1000),
    ],
)
def test_a_file_reads_as_its_whole_bytes_classify(
    tmp_path: Path, name: str, data: bytes, reads: int
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    report, read = _report_and_bytes_read(path, name)
    assert report == classify_entry(name, data)
    assert read == reads


def test_a_file_over_the_limit_is_too_large_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.cu"
    with path.open("wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    report, read = _report_and_bytes_read(path, "huge.cu")
    assert report.skipped == "too-large"
    assert read == 0
    path.write_bytes(b"x" * MAX_FILE_BYTES)  # at the limit exactly: counted
    report, _ = _report_and_bytes_read(path, "huge.cu")
    assert report.skipped is None
