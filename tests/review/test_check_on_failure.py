"""Beyond tests/review/test_never_missing.py: the reads of a PR's two versions (compare,
tree, tarball) failing for good, and each way GitHub fails that lockin's own retry fixes
(timeouts, rate limits past the wait cap), through the real server and the fake GitHub."""

from __future__ import annotations

from typing import Any

import pytest

from bot.review.check_writer import ERROR_TITLE
from tests.fakegithub import PullRequest, Repo
from tests.review.conftest import RETRY_ATTEMPTS
from tests.review.test_never_missing import DELAYS, FOR_GOOD, RetryingBot, bot
from tests.review.test_pr_check import KERNEL, SECOND_KERNEL, new_repo

__all__ = ["bot"]  # the retrying bot fixture of test_never_missing


def modified_kernel_pr(bot: RetryingBot, files: int = 1) -> tuple[Repo, PullRequest]:
    """A PR modifying a kernel without GitHub's patch, so both versions are read (merge base
    from compare, its tree, blobs); ``files`` - 1 added kernels make the tarballs pay."""
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL})
    changes: dict[str, str | None] = {"csrc/scale.cu": KERNEL + SECOND_KERNEL}
    changes |= {f"ops/k{i:03d}.cu": KERNEL.replace("scale", f"s{i}") for i in range(files - 1)}
    repo.commit(changes, branch="feature", message="the change")
    return repo, repo.open_pr(head_branch="feature", patch_omitted={"csrc/scale.cu"})


@pytest.mark.parametrize(
    ("read", "files"),
    [(r"/compare/", 1), (r"/git/trees/", 1), (r"/tarball/", 120)],
    ids=["compare", "trees", "tarball"],
)
async def test_a_version_read_failing_for_good_still_leaves_a_failed_run(
    bot: RetryingBot, read: str, files: int
) -> None:
    repo, pr = modified_kernel_pr(bot, files)
    bot.fake.fail("GET", read, status=503, times=FOR_GOOD)

    await bot.pr_event(repo, pr, "opened")

    assert bot.fake.requests_to("GET", read), "the read under test was never made"
    runs = bot.runs(repo, pr.head_sha)
    assert len(runs) == 1 + len(DELAYS)  # the delivery and each retry
    assert all(r.status == "completed" and r.conclusion == "failure" for r in runs)
    assert runs[-1].output["title"] == ERROR_TITLE
    assert "503" in runs[-1].output["summary"]
    assert bot.metric("exhausted") == 1


#: Each way GitHub fails that a later attempt fixes, as `fake.fail` arguments, and how many
#: failures the client's own retries take before the job fails.
OUTAGES: dict[str, tuple[dict[str, Any], int]] = {
    "timeouts": ({"kind": "timeout"}, RETRY_ATTEMPTS),
    "rate limit past the wait cap": ({"kind": "primary", "retry_after": 7200}, 1),
}


@pytest.mark.parametrize("outage", list(OUTAGES))
async def test_an_outage_of_each_kind_is_retried_to_the_right_conclusion(
    bot: RetryingBot, outage: str
) -> None:
    bot.fake.timeout_delay = 0.5
    repo, pr = modified_kernel_pr(bot)
    fault, times = OUTAGES[outage]
    bot.fake.fail("GET", r"/contents/\.github/lockin\.yml$", times=times, **fault)

    await bot.pr_event(repo, pr, "opened")

    errored, result = bot.runs(repo, pr.head_sha)
    assert (errored.conclusion, errored.output["title"]) == ("failure", ERROR_TITLE)
    assert (result.status, result.conclusion) == ("completed", "failure")
    assert "without a compute-API decision" in result.output["title"]
    assert bot.metric("scheduled") == 1
