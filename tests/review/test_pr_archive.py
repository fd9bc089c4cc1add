"""The PR check reads large pull requests from tarballs with the census's hardened walker:
every limit the census has applies (gzip bomb, oversized metadata header, links, devices,
absolute and `..` paths), end to end through the real server against the fake GitHub."""

from __future__ import annotations

import io
import tarfile
import uuid

from bot.review.change import MAX_BLOB_READS
from tests.recount.archives import ROOT, gzip_bomb, gzip_bytes, hostile_entries, tarball
from tests.review.conftest import Bot
from tests.review.test_pr_check import new_repo, pr_of_3000_files


async def test_a_gzip_bomb_is_refused_and_the_check_reads_blobs(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = pr_of_3000_files(repo)
    repo.set_tarball(pr.head_sha, gzip_bomb())

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert "The tarball was not used" in run.output["text"]
    assert "gzip bomb" in run.output["text"]
    assert len(bot.fake.requests_to("GET", r"/git/blobs/")) == MAX_BLOB_READS


async def test_an_oversized_metadata_header_is_refused(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = pr_of_3000_files(repo)
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
        member = tarfile.TarInfo(f"{ROOT}/pkg/mod0000.py")
        member.pax_headers = {"comment": "x" * (4 * 2**20)}
        tar.addfile(member, io.BytesIO(b""))
    repo.set_tarball(pr.head_sha, gzip_bytes(out.getvalue()))

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert "metadata header" in run.output["text"]


async def test_links_devices_and_escaping_paths_are_never_followed(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = pr_of_3000_files(repo)
    files = dict(repo.tree(pr.head_sha).items())
    # The one kernel the archive offers only as a symlink to a file outside the tree.
    files.pop("ops/op000/k.cu")
    marker = f"lockin-{uuid.uuid4().hex}"
    link = tarfile.TarInfo(f"{ROOT}/ops/op000/k.cu")
    link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
    repo.set_tarball(pr.head_sha, tarball(files, specials=[link, *hostile_entries(marker)]))

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert "The tarball was not used" not in run.output["text"]
    # The linked file was read from its blob instead, never from the link's target.
    assert len(bot.fake.requests_to("GET", r"/git/blobs/")) == 1
    assert "3,000 files changed, 3,000 analysed" in run.output["text"]
    assert "root:" not in run.output["text"] + run.output["summary"]
