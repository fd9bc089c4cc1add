"""The rule reference reaches the pull request: annotations and the comment link each rule id
to its page. Driven by signed webhook deliveries to the real server against the fake GitHub."""

from __future__ import annotations

from bot.render.rules_page import rule_url
from tests.review.conftest import Bot
from tests.review.test_pr_check import KERNEL, new_repo, open_pr

PAGE = "https://github.com/lockin-dev/lockin/blob/main/docs/rules.md#"


async def test_annotations_and_the_comment_link_rule_ids_to_their_page(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    notes = {a["title"].split()[0]: a["message"] for a in run.annotations}
    assert set(notes) == {"cuda.include", "cuda.kernel", "cuda.launch"}
    for rule_id, message in notes.items():
        assert message.endswith(f"\nAbout this rule: {PAGE}{rule_id}")
    [comment] = bot.sticky(repo, pr.number)
    assert f"[`cuda.kernel`]({rule_url('cuda.kernel')})" in comment.body
    assert rule_url("cuda.kernel") == PAGE + "cuda.kernel"
