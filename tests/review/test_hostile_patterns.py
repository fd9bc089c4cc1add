"""Patterns and trailers written to stall the bot, sent through the real server against the
fake GitHub: each check completes.

Timing is not asserted: before the fixes these cases ran for hours (exponential pattern
matching in the configuration's include/exclude lists, a quadratic trailer regex), so the
test's own timeout and the assertions on the run are what fail."""

from __future__ import annotations

from tests.review.conftest import Bot
from tests.review.test_pr_check import KERNEL, RECORD, new_repo, open_pr, record


async def test_a_backtracking_exclude_pattern_in_the_configuration_is_matched_in_linear_time(
    bot: Bot,
) -> None:
    config = "paths:\n  exclude: ['" + "*a" * 40 + "*b']\n"
    repo = new_repo(bot.fake, {".github/lockin.yml": config})
    pr = open_pr(repo, {"csrc/" + "a" * 200 + ".cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")
    [run] = bot.runs(repo, pr.head_sha)
    assert (run.status, run.conclusion) == ("completed", "failure")
    assert "without a compute-API decision" in run.output["title"]


async def test_a_trailer_value_holding_a_long_run_of_blanks_is_read_in_linear_time(
    bot: Bot,
) -> None:
    repo = new_repo(bot.fake)
    repo.commit({"csrc/scale.cu": KERNEL, RECORD: record()}, branch="feature", message="kernel")
    hostile = "Subject\n\nCompute-API-Decision: see" + " \t" * 60_000 + "below\n"
    repo.commit({"README.md": "# ml, with a kernel\n"}, branch="feature", message=hostile)
    pr = repo.open_pr(head_branch="feature", body=f"Compute-API-Decision: {RECORD}")
    await bot.pr_event(repo, pr, "opened")
    [run] = bot.runs(repo, pr.head_sha)
    assert run.status == "completed"
    assert "❌ `see" in run.output["summary"]  # the link, quoted and refused
    assert "…(cut to fit" not in run.output["summary"]
