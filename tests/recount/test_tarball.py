"""The streamed tarball reader on its own: what it counts, skips, reports and refuses."""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import os
import tarfile
import threading
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest

from bot.engine import classify
from bot.engine.census import Census
from bot.engine.paths import PathFilter
from bot.sources import archive as archive_module
from bot.sources.archive import CHUNK, ArchiveError, ArchiveLimits, ArchiveRefused
from bot.sources.files import MAX_FILE_BYTES
from bot.sources.tarball import census_from_file, census_from_stream
from tests.recount.archives import (
    ROOT,
    gzip_bomb,
    gzip_bytes,
    hostile_entries,
    incompressible,
    tarball,
)
from tests.recount.conftest import FILES, KERNEL, assert_nothing_written

LIMITS = ArchiveLimits.for_archive(64 * 2**20)


async def chunks(data: bytes, size: int = 7000) -> AsyncIterator[bytes]:
    """Bytes as a network would deliver them: small, unaligned pieces."""
    for start in range(0, len(data), size):
        yield data[start : start + size]


def oracle(files: dict[str, str | bytes], path_filter: PathFilter | None = None) -> Census:
    """The census a directory scan gives: every included file classified whole."""
    path_filter = path_filter or PathFilter.build()
    return Census(
        classify(path, content.encode() if isinstance(content, str) else content)
        for path, content in files.items()
        if path_filter.includes(path)
    )


def same(a: Census, b: Census) -> None:
    """Equal figures, file by file (a repository census keeps no finding locations)."""
    assert a.totals == b.totals
    assert a.generated == b.generated
    assert a.skipped == b.skipped
    assert [replace(s, findings=()) for s in a.files()] == [
        replace(s, findings=()) for s in b.files()
    ]


async def test_counts_every_file_as_a_directory_scan_would() -> None:
    result = await census_from_stream(chunks(tarball(FILES)), limits=LIMITS)
    same(result.census, oracle(FILES))
    assert "third_party/lib/vendored.cu" not in result.census  # default exclusion
    assert result.excluded == 1
    assert result.census.locked_to_nvidia() > 0
    assert result.compressed_bytes == len(tarball(FILES))


async def test_applies_the_policy_path_filter() -> None:
    path_filter = PathFilter.build(exclude=["csrc/"])
    result = await census_from_stream(
        chunks(tarball(FILES)), limits=LIMITS, path_filter=path_filter
    )
    same(result.census, oracle(FILES, path_filter))
    assert result.census.locked_to_nvidia() == 0


async def test_hostile_entries_are_skipped_reported_and_never_touch_the_disk(
    quiet_disk: Path,
) -> None:
    marker = f"lockin-{uuid.uuid4().hex}"
    data = tarball(FILES, specials=hostile_entries(marker))
    result = await census_from_stream(chunks(data), limits=LIMITS)

    assert [s.path for s in result.census.files()] == [s.path for s in oracle(FILES).files()]
    assert result.census.totals == oracle(FILES).totals
    assert result.unsafe.counts == {
        "path-traversal": 1,
        "absolute-path": 1,
        "symlink": 1,
        "hardlink": 1,
        "device": 2,
        "fifo": 1,
    }
    assert {name for name, _ in result.unsafe.examples} >= {
        f"{ROOT}/../../{marker}-traversal.py",
        f"/tmp/{marker}-absolute.py",
    }
    # The census itself names them as skipped, so every report built from it can show them.
    assert result.census.skipped["symlink"] == 1
    assert result.census.skipped["path-traversal"] == 1
    assert_nothing_written(quiet_disk, marker)


async def test_a_gzip_bomb_is_refused_before_it_inflates() -> None:
    bomb = gzip_bomb()  # 1 GiB of zeros in about 1 MB
    assert len(bomb) < 2 * 2**20
    roomy = ArchiveLimits.for_archive(1024 * 2**20)  # the policy's default limit
    with pytest.raises(ArchiveRefused, match="gzip bomb"):
        await census_from_stream(chunks(bomb, CHUNK), limits=roomy)


async def test_an_archive_above_the_size_limit_is_refused() -> None:
    data = incompressible(3 * 2**20)
    with pytest.raises(ArchiveRefused, match="larger than the 2 MB limit"):
        await census_from_stream(chunks(data), limits=ArchiveLimits.for_archive(2 * 2**20))


async def test_inflated_bytes_have_their_own_limit() -> None:
    data = tarball({"a.py": "x = 1\n" * 200_000})  # 1.2 MB of tar in a few kB of gzip
    limits = ArchiveLimits(max_compressed=2**20, max_inflated=2**20)
    with pytest.raises(ArchiveRefused, match="gzip bomb"):
        await census_from_stream(chunks(data), limits=limits)


async def test_an_oversized_metadata_header_is_refused() -> None:

    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
        info = tarfile.TarInfo(f"{ROOT}/a.py")
        info.pax_headers = {"comment": "x" * 200_000}
        tar.addfile(info, io.BytesIO(b""))
    with pytest.raises(ArchiveRefused, match="metadata header"):
        await census_from_stream(chunks(gzip_bytes(out.getvalue())), limits=LIMITS)


async def test_a_truncated_archive_is_an_error_not_a_partial_count() -> None:
    data = tarball(FILES)
    with pytest.raises(ArchiveError, match=r"could not be read|truncated"):
        await census_from_stream(chunks(data[: len(data) // 2]), limits=LIMITS)


async def test_garbage_is_an_error() -> None:
    with pytest.raises(ArchiveError, match="could not be read"):
        await census_from_stream(chunks(os.urandom(5000)), limits=LIMITS)


async def test_files_above_the_size_limit_are_listed_not_read() -> None:
    big = "int x;\n" * (MAX_FILE_BYTES // 7 + 1)
    result = await census_from_stream(
        chunks(tarball({"big.cu": big, "k.cu": KERNEL})), limits=LIMITS
    )
    assert result.census.skipped == {"too-large": 1}
    assert [s.path for s in result.census.files()] == ["k.cu"]


async def test_entries_outside_the_top_folder_are_reported() -> None:
    data = tarball({"k.cu": KERNEL}, specials=[tarfile.TarInfo("elsewhere/x.cu")])
    result = await census_from_stream(chunks(data), limits=LIMITS)
    assert result.unsafe.counts == {"outside-root": 1}
    assert [s.path for s in result.census.files()] == ["k.cu"]


def test_a_local_git_archive_without_top_folder(tmp_path: Path) -> None:
    archive = tmp_path / "repo.tar.gz"
    archive.write_bytes(tarball(FILES, root=None))
    result = census_from_file(archive, limits=LIMITS)
    same(result.census, oracle(FILES))


def test_a_plain_tar_is_read_too(tmp_path: Path) -> None:
    archive = tmp_path / "repo.tar"
    archive.write_bytes(tarball(FILES, compress=False))
    result = census_from_file(archive, limits=LIMITS, strip_root=True)
    same(result.census, oracle(FILES))


def test_a_missing_file_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ArchiveError, match="cannot read"):
        census_from_file(tmp_path / "nope.tar.gz", limits=LIMITS)


async def test_a_cancelled_census_frees_its_thread() -> None:
    """Cancelling the task that awaits a census stops its thread at the next pull, so two
    abandoned downloads do not keep both census threads busy forever."""
    started, never = asyncio.Event(), asyncio.Event()
    data = tarball(FILES)
    assert len(data) > 100  # the first piece leaves the archive unfinished

    async def stalls() -> AsyncIterator[bytes]:
        yield data[:100]  # a tenth of the archive
        started.set()
        await never.wait()  # the network stops answering
        yield b""

    for _ in range(2):  # as many as the census executor has threads
        started.clear()
        task = asyncio.create_task(census_from_stream(stalls(), limits=LIMITS))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    result = await census_from_stream(chunks(data), limits=LIMITS)
    same(result.census, oracle(FILES))


async def test_a_walk_cancelled_while_it_asks_for_a_chunk_stops() -> None:
    """Cancellation can land between the walking thread scheduling its next read and
    remembering it; the walk must still stop rather than wait for that read forever. The
    window is narrow, so the race is run many times (before the fix, one run in ten to a
    hundred hung)."""
    for _ in range(300):
        assert await _cancel_during_a_read() == ["the archive walk was cancelled"]


async def _cancel_during_a_read() -> list[str]:
    """How a walk ends whose bridge is closed while its second read is on the loop."""
    ended: list[str] = []

    async def stalls() -> AsyncIterator[bytes]:
        yield b"x"
        bridge.close()  # what cancelling the awaiting task does, during the next read
        await asyncio.Event().wait()
        yield b""

    bridge = archive_module._StreamBridge(stalls(), asyncio.get_running_loop())

    def walk() -> None:
        try:
            while bridge.pull():
                pass
        except ArchiveError as error:
            ended.append(str(error))

    walker = threading.Thread(target=walk)
    walker.start()
    await asyncio.to_thread(walker.join, 60)  # a backstop only: it ends within a second
    return ended


async def test_a_broken_download_is_an_error_that_names_no_url() -> None:
    data = tarball(FILES)

    async def breaks() -> AsyncIterator[bytes]:
        yield data[:100]
        raise aiohttp.ClientPayloadError("payload incomplete: https://codeload/x?token=s3cret")

    with pytest.raises(ArchiveError, match="broke off") as raised:
        await census_from_stream(breaks(), limits=LIMITS)
    assert "s3cret" not in str(raised.value)


def test_a_census_whose_event_loop_stops_frees_its_thread(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A server stopping without cancelling a census must not leave its thread waiting
    forever for a chunk the dead loop will never deliver."""
    data = tarball(FILES)
    for _ in range(2):  # as many as the census executor has threads
        loop = asyncio.new_event_loop()
        started, never = asyncio.Event(), asyncio.Event()

        async def stalls(started: asyncio.Event = started, never: asyncio.Event = never):
            yield data[:100]
            started.set()
            await never.wait()
            yield b""

        abandoned = loop.create_task(census_from_stream(stalls(), limits=LIMITS))
        loop.run_until_complete(started.wait())
        loop.close()  # the census task is abandoned, never cancelled
        assert not abandoned.done()
    result = asyncio.run(census_from_stream(chunks(data), limits=LIMITS))
    same(result.census, oracle(FILES))
    # The abandoned tasks are destroyed now, while this test expects asyncio's complaint,
    # not whenever the collector next runs: that would be inside another test's log. Their
    # walking threads must have let go of them first: both threads free at once says so.
    both_free = threading.Barrier(2)
    for waiting in [archive_module._EXECUTOR.submit(both_free.wait) for _ in range(2)]:
        waiting.result()
    with caplog.at_level(logging.ERROR, logger="asyncio"):
        del abandoned, loop, stalls, started, never  # the last census is waiting on these
        gc.collect()
    destroyed = [r for r in caplog.records if "Task was destroyed" in r.getMessage()]
    assert len(destroyed) >= 2  # one census per dead loop, at least
