"""Decision records and configuration written to stall or crash the bot, sent through the
real server against the fake GitHub: each check completes with a clear reason.

Timing is not asserted: before the fixes these cases ran for minutes (exponential pattern
matching, alias expansion) or crashed before a check run existed, so the test's own
timeout and the assertions on the run are what fail."""

from __future__ import annotations

from tests.review.conftest import Bot
from tests.review.test_pr_check import KERNEL, RECORD, new_repo, open_pr, record

BOMB = (
    "a: &a [x, x, x, x, x, x, x, x, x]\n"
    "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
    "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
    "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
)


async def _linked(bot: Bot, text: str, path: str = "csrc/scale.cu") -> dict[str, str]:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {path: KERNEL, RECORD: text}, body=f"Compute-API-Decision: {RECORD}")
    await bot.pr_event(repo, pr, "opened")
    [run] = bot.runs(repo, pr.head_sha)
    assert run.status == "completed"
    assert run.conclusion == "failure"
    return run.output


async def test_a_backtracking_scope_against_a_long_name_is_matched_in_linear_time(
    bot: Bot,
) -> None:
    scope = "*a" * 40 + "*b"
    output = await _linked(bot, record(scope=[scope]), path="csrc/" + "a" * 200 + ".cu")
    assert "does not cover" in output["summary"]


async def test_an_alias_bomb_in_a_record_added_by_the_pr_is_refused(bot: Bot) -> None:
    text = "---\n" + BOMB + "type: compute-api\nowner: '@octo'\n---\n# Bomb\n"
    output = await _linked(bot, text)
    assert "aliases are expanded" in output["summary"]


async def test_a_deeply_nested_record_is_refused_not_a_crash(bot: Bot) -> None:
    text = "---\nscope: " + "[" * 3000 + "]" * 3000 + "\n---\n"
    output = await _linked(bot, text)
    assert "nested deeper than" in output["summary"]


async def test_a_deeply_nested_configuration_fails_the_check_naming_it(bot: Bot) -> None:
    repo = new_repo(bot.fake, {".github/lockin.yml": "paths: " + "[" * 3000 + "]" * 3000})
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")
    [run] = bot.runs(repo, pr.head_sha)
    assert (run.status, run.conclusion) == ("completed", "failure")
    assert "lockin.yml" in run.output["title"]
    assert "nested deeper than" in run.output["summary"]
