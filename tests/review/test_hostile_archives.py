"""The PR check reads large pull requests from a tarball the repository's author controls:
every limit of the archive walker holds on this path, each named in the check run, and a
refused tarball leaves the versions to blob reads."""

from __future__ import annotations

import io
import re
import tarfile

import pytest

from bot.sources.files import MAX_FILE_BYTES
from tests.fakegithub import PullRequest, Repo
from tests.recount.archives import (
    ROOT,
    gzip_bomb,
    gzip_bytes,
    hostile_entries,
    incompressible,
    tarball,
)
from tests.review.conftest import Bot
from tests.review.test_pr_check import KERNEL, new_repo, open_pr

#: Added files: above the threshold where a small repository's head is read from its tarball.
FILES = {f"ops/op{i:03d}.py": f"def f{i}(x):\n    return x + {i}\n" for i in range(100)} | {
    "csrc/scale.cu": KERNEL
}
SMALL_ARCHIVES = "census:\n  max_archive_mb: 1\n"


def large_pr(repo: Repo) -> PullRequest:
    return open_pr(repo, dict(FILES))


async def check(bot: Bot, repo: Repo, pr: PullRequest) -> str:
    await bot.pr_event(repo, pr, "opened")
    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"  # the kernel needs a decision, however it was read
    assert "101 analysed" in run.output["text"]
    assert len(bot.fake.requests_to("GET", r"/tarball/")) == 1
    # As a reader sees it: the reasons are Markdown-escaped in the run's text.
    return str(run.output["text"]).replace("\\", "")


def refusal(text: str) -> str:
    [note] = [line for line in text.splitlines() if line.startswith("The tarball was not used:")]
    return note


def inflated_mb(note: str) -> int:
    match = re.search(r"inflates to more than ([\d,]+) MB", note)
    assert match, note
    return int(match.group(1).replace(",", ""))


async def test_a_usable_tarball_is_read_and_no_blob_is(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = large_pr(repo)

    text = await check(bot, repo, pr)

    assert "versions read from tarballs" in text
    assert "Tarball" not in text
    assert not bot.fake.requests_to("GET", r"/git/blobs/")


async def test_a_gzip_bomb_stops_at_the_inflated_cap_and_blobs_are_read(bot: Bot) -> None:
    repo = new_repo(bot.fake, {".github/lockin.yml": SMALL_ARCHIVES})
    pr = large_pr(repo)
    repo.set_tarball(pr.head_sha, gzip_bomb(256 * 2**20))  # ~250 kB for 256 MB of zeros

    note = refusal(await check(bot, repo, pr))

    assert "refused as a possible gzip bomb" in note
    # 1 MB allowed compressed, so 10 MB inflated: one inflation step past it at most.
    assert inflated_mb(note) <= 11
    assert len(bot.fake.requests_to("GET", r"/git/blobs/")) == len(FILES)


async def test_a_gzip_bomb_within_the_inflated_cap_is_refused_by_its_ratio(bot: Bot) -> None:
    repo = new_repo(bot.fake)  # 1 GB archives allowed: 10 GB inflated
    pr = large_pr(repo)
    repo.set_tarball(pr.head_sha, gzip_bomb(2**30))

    note = refusal(await check(bot, repo, pr))

    assert "refused as a possible gzip bomb" in note
    # Refused just past the 32 MB grace, not after the 1 GB it would inflate to.
    assert inflated_mb(note) <= 40


async def test_a_tarball_above_the_compressed_limit_is_not_read(bot: Bot) -> None:
    repo = new_repo(bot.fake, {".github/lockin.yml": SMALL_ARCHIVES})
    pr = large_pr(repo)
    repo.set_tarball(pr.head_sha, incompressible(2 * 2**20))

    note = refusal(await check(bot, repo, pr))

    assert "larger than the 1 MB limit (census.max_archive_mb)" in note


def _with_meta_header(fmt: int, info: tarfile.TarInfo) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=fmt) as tar:
        tar.addfile(tarfile.TarInfo(ROOT))
        tar.addfile(info, io.BytesIO(b""))
        for path, content in FILES.items():
            data = content.encode()
            member = tarfile.TarInfo(f"{ROOT}/{path}")
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    return gzip_bytes(out.getvalue())


def _pax_header() -> bytes:
    info = tarfile.TarInfo(f"{ROOT}/notes.txt")
    info.pax_headers = {"comment": "x" * 200_000}
    return _with_meta_header(tarfile.PAX_FORMAT, info)


def _gnu_long_name() -> bytes:
    return _with_meta_header(tarfile.GNU_FORMAT, tarfile.TarInfo(f"{ROOT}/{'d/' * 100_000}f"))


@pytest.mark.parametrize("payload", [_pax_header, _gnu_long_name], ids=["pax", "gnu-longname"])
async def test_an_oversized_metadata_header_is_refused(bot: Bot, payload: object) -> None:
    repo = new_repo(bot.fake)
    pr = large_pr(repo)
    assert callable(payload)
    repo.set_tarball(pr.head_sha, payload())

    note = refusal(await check(bot, repo, pr))

    assert re.search(r"the archive has a [\d,]+-byte metadata header", note), note


async def test_unsafe_entries_are_skipped_and_named_in_the_check_run(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = large_pr(repo)
    # The kernel's path is a link in the archive: never followed, read as a blob instead.
    link = tarfile.TarInfo(f"{ROOT}/csrc/scale.cu")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    files = {p: c for p, c in FILES.items() if p != "csrc/scale.cu"}
    repo.set_tarball(pr.head_sha, tarball(files, specials=[*hostile_entries("pr"), link]))

    text = await check(bot, repo, pr)

    assert (
        "Tarball entries skipped as unsafe: 1 absolute-path, 2 device, 1 fifo, 1 hardlink, "
        "1 path-traversal, 2 symlink." in text
    )
    assert "versions read from tarballs and blobs" in text
    assert len(bot.fake.requests_to("GET", r"/git/blobs/")) == 1


async def test_a_file_above_the_size_limit_in_the_tarball_is_skipped_not_counted(
    bot: Bot,
) -> None:
    repo = new_repo(bot.fake)
    big = "__global__ void k() {}\n" * (MAX_FILE_BYTES // 20)
    pr = open_pr(repo, dict(FILES) | {"csrc/huge.cu": big})

    await bot.pr_event(repo, pr, "opened")

    text = bot.runs(repo, pr.head_sha)[-1].output["text"]
    assert "skipped (too-large)" in text
    assert not bot.fake.requests_to("GET", r"/git/blobs/")
