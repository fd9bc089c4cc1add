"""Gate on growth and the adoption path, end to end: signed webhooks into the real server,
the check run and comment as the fake GitHub recorded them.

An edit that keeps a line's rule passes; growth in an uncovered area fails; the ratchet
fails only past its threshold; a baseline on the default branch lets files hold what they
held; report-only concludes neutral.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.census import FileSummary
from bot.policy.baseline import dump_baseline, record_baseline
from bot.policy.config import DEFAULT_POLICY
from tests.review.conftest import Bot
from tests.review.test_pr_check import KERNEL, SECOND_KERNEL, new_repo, open_pr

BASELINE = ".github/lockin-baseline.yml"
EDITED = KERNEL.replace("x[i] *= a;", "x[i] = a * x[i];")


async def test_an_edit_that_keeps_its_rule_passes(bot: Bot) -> None:
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL})
    pr = open_pr(repo, {"csrc/scale.cu": EDITED})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    assert "no gated growth" in run.output["title"]
    assert "1 changed line kept the same rule" in run.output["summary"]
    assert {a["annotation_level"] for a in run.annotations} == {"notice"}


async def test_the_same_edit_fails_under_the_strict_gate(bot: Bot) -> None:
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL, ".github/lockin.yml": "gate: strict\n"})
    pr = open_pr(repo, {"csrc/scale.cu": EDITED})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert "every added line in the gated layers (`gate: strict`)" in run.output["summary"]


async def test_growth_in_an_uncovered_area_fails_and_says_which_lines_count(bot: Bot) -> None:
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL})
    pr = open_pr(repo, {"csrc/scale.cu": EDITED + SECOND_KERNEL})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    summary = run.output["summary"]
    assert "without a compute-API decision" in run.output["title"]
    assert "Counted: the lines a file gains per ecosystem, net of those it loses" in summary
    assert "1 changed line kept the same rule" in summary
    # The edited line is not pointed at as needing a decision; the new kernel is.
    failing = [a for a in run.annotations if a["annotation_level"] != "notice"]
    assert failing
    assert all(a["start_line"] > KERNEL.count("\n") for a in failing)
    [comment] = bot.sticky(repo, pr.number)
    assert "Counted:" in comment.body


async def test_the_ratchet_fails_only_past_its_threshold(bot: Bot) -> None:
    config = "ratchet:\n  lines: 10\n"
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL, ".github/lockin.yml": config})
    small = open_pr(repo, {"csrc/shift.cu": SECOND_KERNEL})  # 6 NVIDIA-only lines

    await bot.pr_event(repo, small, "opened")

    run = bot.runs(repo, small.head_sha)[-1]
    assert run.conclusion == "success"
    assert "within the ratchet" in run.output["summary"]
    assert "+6" in run.output["summary"]

    repo.push_to_pr(
        small.number, {"csrc/shift.cu": SECOND_KERNEL + SECOND_KERNEL.replace("shift", "shift2")}
    )
    await bot.pr_event(repo, small, "synchronize")

    run = bot.runs(repo, small.head_sha)[-1]
    assert run.conclusion == "failure"
    assert "NVIDIA-only lines outside decisions" in run.output["summary"]
    assert "the ratchet allows 10 lines of growth" in run.output["summary"]


async def test_the_ratchet_percent_is_against_the_base(bot: Bot) -> None:
    config = "ratchet:\n  percent: 50\n"
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL, ".github/lockin.yml": config})
    pr = open_pr(repo, {"csrc/shift.cu": SECOND_KERNEL})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    base = FileSummary.of(classify("csrc/scale.cu", KERNEL.encode())).non_portable_lines
    assert f"{base:,} → {base + 6:,}" in run.output["summary"]
    assert run.conclusion == ("success" if 50 * base >= 6 * 100 else "failure")


def _baseline_of(files: dict[str, str]) -> str:
    summaries = [FileSummary.of(classify(path, text.encode())) for path, text in files.items()]
    return dump_baseline(record_baseline(summaries, DEFAULT_POLICY, [], commit=None))


async def test_a_baseline_lets_files_hold_what_they_held(bot: Bot) -> None:
    # Recorded when scale.cu held both kernels; one was removed since.
    baseline = _baseline_of({"csrc/scale.cu": KERNEL + SECOND_KERNEL})
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL, BASELINE: baseline})
    back = open_pr(repo, {"csrc/scale.cu": KERNEL + SECOND_KERNEL})

    await bot.pr_event(repo, back, "opened")

    run = bot.runs(repo, back.head_sha)[-1]
    assert run.conclusion == "success"
    assert "Lines within `.github/lockin-baseline.yml` do not count" in run.output["summary"]


async def test_a_baseline_still_gates_growth_past_it(bot: Bot) -> None:
    baseline = _baseline_of({"csrc/scale.cu": KERNEL})
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL, BASELINE: baseline})
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL + SECOND_KERNEL, "kernels/new.cu": SECOND_KERNEL})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert "csrc/scale.cu" in run.output["summary"]
    assert "kernels/new.cu" in run.output["summary"]


async def test_a_baseline_in_the_pr_itself_is_not_read(bot: Bot) -> None:
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL})
    baseline = _baseline_of({"csrc/scale.cu": KERNEL + SECOND_KERNEL})
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL + SECOND_KERNEL, BASELINE: baseline})

    await bot.pr_event(repo, pr, "opened")

    assert bot.runs(repo, pr.head_sha)[-1].conclusion == "failure"


async def test_an_invalid_baseline_fails_naming_the_file(bot: Bot) -> None:
    repo = new_repo(
        bot.fake,
        {"csrc/scale.cu": KERNEL, BASELINE: "version: 1\nlayers: [kernel]\nfiles: {}\n"},
    )
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL + SECOND_KERNEL})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert run.output["title"] == f"Invalid {BASELINE}"
    assert "recorded for the layers kernel" in run.output["summary"]
    assert "lockin baseline" in run.output["summary"]


async def test_report_only_concludes_neutral_and_reports_the_same(bot: Bot) -> None:
    config = "enforcement: report-only\n"
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL, ".github/lockin.yml": config})
    pr = open_pr(repo, {"kernels/new.cu": SECOND_KERNEL})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "neutral"
    assert "without a compute-API decision" in run.output["title"]
    assert "kernels/new.cu" in run.output["summary"]
    [comment] = bot.sticky(repo, pr.number)
    assert "kernels/new.cu" in comment.body
