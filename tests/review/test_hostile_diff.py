"""A file GitHub lists without its `patch` is diffed by lockin itself; a large repetitive
file, written to make that diff slow, is counted in bounded time through the real server.

Timing is not asserted: before the bound this case took many minutes of CPU (the matching
is cubic on repetitive lines), so the test's own timeout and the assertions on the run are
what fail."""

from __future__ import annotations

from tests.review.conftest import Bot
from tests.review.test_pr_check import KERNEL, SECOND_KERNEL, new_repo


async def test_a_large_repetitive_file_without_patch_is_diffed_in_bounded_time(bot: Bot) -> None:
    old = KERNEL + "".join(f"// step {i % 7}\n" for i in range(6000))
    new = KERNEL + "".join(f"// step {i * 3 % 5}\n" for i in range(6000)) + SECOND_KERNEL
    repo = new_repo(bot.fake, {"csrc/scale.cu": old})
    repo.commit({"csrc/scale.cu": new}, branch="feature")
    pr = repo.open_pr(head_branch="feature", patch_omitted={"csrc/scale.cu"})

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert (run.status, run.conclusion) == ("completed", "failure")
    assert len(bot.fake.requests_to("GET", r"/git/blobs/")) == 2  # both versions, diffed here
    lines = {a["start_line"] for a in run.annotations}
    assert lines
    assert min(lines) > len(old.splitlines())  # only the added kernel is annotated
