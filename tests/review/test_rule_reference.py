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
    # One annotation for the file's nearby ranges, naming each rule and linking its page.
    [note] = run.annotations
    for rule_id in ("cuda.include", "cuda.kernel", "cuda.launch"):
        assert rule_id in note["title"]
        assert f"\n- {rule_id}: " in note["message"]
        assert f"({PAGE}{rule_id})" in note["message"]
    [comment] = bot.sticky(repo, pr.number)
    assert f"[`cuda.kernel`]({rule_url('cuda.kernel')})" in comment.body
    assert rule_url("cuda.kernel") == PAGE + "cuda.kernel"


MARKED = """\
// lockin: ignore[cuda.kernel] also built for HIP through our compat header
__global__ void scale(float* x, float a) {
    x[threadIdx.x] *= a;
}
// lockin: ignore[cuda.kernal] a typo in the id
__global__ void shift(float* x) { x[0] += 1; }
"""


async def test_ignored_lines_are_shown_in_the_check_run_and_the_comment(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": MARKED})

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    # The unmarked kernel still needs a decision; the marked one is not counted against it.
    assert run.conclusion == "failure"
    assert "1 gated line added" in run.output["title"]
    assert "3 lines ignored by 1 inline marker; 1 marker problem" in run.output["title"]
    assert "**Inline ignore markers:**" in run.output["summary"]
    notice = next(a for a in run.annotations if "ignored by an inline marker" in a["title"])
    assert (notice["start_line"], notice["end_line"]) == (2, 4)
    assert notice["annotation_level"] == "notice"
    assert "also built for HIP" in notice["message"]
    warning = next(a for a in run.annotations if "ignores nothing" in a["title"])
    assert warning["annotation_level"] == "warning"
    assert warning["start_line"] == 5
    assert "unknown rule id 'cuda.kernal'" in warning["message"]
    [comment] = bot.sticky(repo, pr.number)
    assert "3 lines ignored by 1 inline marker" in comment.body
    assert "also built for HIP through our compat header" in comment.body
    assert "unknown rule id 'cuda.kernal'" in comment.body


async def test_markers_not_allowed_count_and_the_check_fails(bot: Bot) -> None:
    repo = new_repo(bot.fake, {".github/lockin.yml": "ignore_markers: not-allowed\n"})
    pr = open_pr(repo, {"csrc/scale.cu": MARKED.split("// lockin: ignore[cuda.kernal]")[0]})

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert run.conclusion == "failure"
    assert "3 gated lines added" in run.output["title"]
    problem = next(a for a in run.annotations if "ignores nothing" in a["title"])
    assert "not allowed" in problem["message"]
    [comment] = bot.sticky(repo, pr.number)
    assert "ignore markers are not allowed here" in comment.body


async def test_a_pr_whose_only_kernel_is_ignored_passes_and_still_gets_a_comment(
    bot: Bot,
) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": MARKED.split("// lockin: ignore[cuda.kernal]")[0]})

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert run.conclusion == "success"
    assert "3 lines ignored by 1 inline marker" in run.output["title"]
    [comment] = bot.sticky(repo, pr.number)
    assert "also built for HIP" in comment.body
