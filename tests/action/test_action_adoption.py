"""The Action on the adoption path: the policy's report-only mode and the baseline, both
read at the pull request's base commit like the rest of the policy."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import classify
from bot.engine.census import FileSummary
from bot.policy.baseline import dump_baseline, record_baseline
from bot.policy.config import load_policy
from tests.action.test_action import Upstream, run_pr
from tests.cli.gitrepo import commit, git
from tests.cli.test_cli import KERNEL, POLICY

OTHER = KERNEL.replace("scale", "shift").replace("*= a", "+= a")


@pytest.fixture
def upstream(tmp_path: Path) -> Upstream:
    return Upstream(tmp_path)


def on_main(upstream: Upstream, files: dict[str, str | bytes | None]) -> None:
    git(upstream.origin, "checkout", "-q", "main")
    upstream.base = commit(upstream.origin, files, "policy on main")


def test_report_only_reports_neutral_and_passes_the_step(upstream: Upstream) -> None:
    on_main(upstream, {".github/lockin.yml": POLICY.replace("fail", "report-only")})
    head = upstream.branch("ops", {"ops/new.cu": KERNEL})
    run = run_pr(upstream, head)
    assert run.code == 0, run.stderr
    assert run.outputs["verdict"] == "neutral"
    assert "`ops/new.cu`" in run.summary


def test_a_baseline_at_the_base_lets_a_file_grow_back_to_it(upstream: Upstream) -> None:
    policy = load_policy(POLICY)
    recorded = FileSummary.of(classify("ops/k.cu", (KERNEL + OTHER).encode()))
    baseline = dump_baseline(record_baseline([recorded], policy, [], commit=None))
    on_main(upstream, {"ops/k.cu": KERNEL, ".github/lockin-baseline.yml": baseline})

    back = run_pr(upstream, upstream.branch("back", {"ops/k.cu": KERNEL + OTHER}))
    assert (back.code, back.outputs["verdict"]) == (0, "success"), back.stderr

    past = run_pr(upstream, upstream.branch("past", {"ops/k.cu": KERNEL + OTHER + OTHER}))
    assert (past.code, past.outputs["verdict"]) == (1, "failure")
    assert "lockin-baseline.yml" in past.summary
