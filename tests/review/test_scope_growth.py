"""A PR that grows a decision's scope past its recorded estimate gets a warning in the
comment and the check run; the check fails for it only when the configuration says so."""

from __future__ import annotations

from bot.engine.census import FileSummary
from bot.engine.classify import classify
from bot.engine.delta import change_delta
from bot.policy.config import DEFAULT_POLICY
from bot.policy.decisions import parse_decision
from bot.policy.growth import scope_growth
from bot.sources.changes import Change
from bot.sources.engine_runner import ChangedFile, delta_of
from tests.fakegithub import CheckRun, PullRequest, Repo
from tests.review.conftest import Bot
from tests.review.test_pr_check import KERNEL, RECORD, SECOND_KERNEL, new_repo, open_pr, record
from tests.support.webhooks import push_event

ESTIMATED = {"lines": 10, "engineer_weeks": 1, "target": "HIP"}


async def grow_second_kernel(
    bot: Bot, cost: dict[str, object], config: str | None = None
) -> tuple[CheckRun, PullRequest, Repo]:
    """A repository whose record estimates ``cost`` for csrc/**, its default branch counted,
    and the check run of a PR adding a second kernel there."""
    files = {"csrc/scale.cu": KERNEL, RECORD: record(migration_cost=cost)}
    if config is not None:
        files[".github/lockin.yml"] = config
    repo = new_repo(bot.fake, files)
    before = repo.head()
    after = repo.commit({"README.md": "# ml, counted\n"})
    assert await bot.deliver("push", push_event(bot.fake, repo, before, after)) == 202
    await bot.settle()
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL + SECOND_KERNEL})
    await bot.pr_event(repo, pr, "opened")
    return bot.runs(repo, pr.head_sha)[-1], pr, repo


async def test_growth_past_the_estimate_is_a_warning_that_passes(bot: Bot) -> None:
    run, pr, repo = await grow_second_kernel(bot, ESTIMATED)
    assert run.conclusion == "success"
    summary = run.output["summary"]
    assert "Past a decision's estimate" in summary
    assert f"decision `{RECORD}` estimated 10" in summary
    assert "does not fail the check" in summary
    [comment] = bot.sticky(repo, pr.number)
    assert f"decision `{RECORD}` estimated 10" in comment.body


async def test_the_configuration_can_make_growth_fail_the_check(bot: Bot) -> None:
    run, _, _ = await grow_second_kernel(bot, ESTIMATED, "decisions: {drift_enforcement: fail}\n")
    assert run.conclusion == "failure"
    assert "fails the check for this" in run.output["summary"]


async def test_growth_within_the_estimate_says_nothing(bot: Bot) -> None:
    run, _, _ = await grow_second_kernel(bot, {"lines": 100})
    assert run.conclusion == "success"
    assert "Past a decision's estimate" not in run.output["summary"]


def test_scope_growth_counts_base_plus_added_minus_removed() -> None:
    base = [FileSummary.of(classify("csrc/scale.cu", KERNEL.encode()))]
    old_n, new_n = KERNEL.count("\n"), (KERNEL + SECOND_KERNEL).count("\n")
    extra = tuple(range(old_n + 1, new_n + 1))
    grow = Change(status="modified", path="csrc/scale.cu", added=extra)
    delta = change_delta(
        [delta_of(ChangedFile(grow, KERNEL.encode(), (KERNEL + SECOND_KERNEL).encode()))]
    )
    decision = parse_decision(RECORD, record(migration_cost=ESTIMATED), path=RECORD)
    (grown,) = scope_growth(base, delta, [decision], DEFAULT_POLICY)
    gated_before = sum(base[0].layers[layer] for layer in DEFAULT_POLICY.layers)
    assert grown.added == 6  # the second kernel's code lines
    assert grown.lines == gated_before + 6
    assert grown.message() == (
        f"csrc/** now holds {grown.lines:,} gated lines; decision {RECORD} estimated 10"
    )
    shrink = Change(status="modified", path="csrc/scale.cu", removed=extra)
    smaller = change_delta(
        [delta_of(ChangedFile(shrink, (KERNEL + SECOND_KERNEL).encode(), KERNEL.encode()))]
    )
    assert scope_growth(base, smaller, [decision], DEFAULT_POLICY) == []
