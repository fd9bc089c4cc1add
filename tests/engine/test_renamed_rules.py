"""Renamed rule ids (data/renamed-rules.yml): an old id keeps naming the rule it became, in
inline markers and in `lockin rules`, and the table cannot point at nothing or shadow a rule."""

from __future__ import annotations

import io

import pytest

from bot.cli import main
from bot.engine import classify, registry
from bot.engine.registry import RULES, RuleFileError, load_renamed

KERNEL = b"""\
// lockin: ignore[cuda.global-function] built for HIP too through our compat header
__global__ void scale(float* x, float a) {
  x[threadIdx.x] *= a;
}
"""


def test_the_shipped_table_is_valid_and_names_only_live_rules() -> None:
    assert set(registry.RENAMED.values()) <= set(RULES)
    assert not set(registry.RENAMED) & set(RULES)


@pytest.mark.parametrize(
    ("table", "problem"),
    [
        ({"renamed": {"cuda.kernel": "cuda.runtime"}}, "cuda.kernel is a rule today"),
        ({"renamed": {"cuda.old": "cuda.nothing"}}, "no such rule"),
        ({"renamed": {"Not An Id": "cuda.kernel"}}, "is not a rule id"),
        ({"renamed": ["cuda.old"]}, "must be a map"),
        ([], "must be a map"),
    ],
)
def test_a_table_that_breaks_an_id_is_refused(table: object, problem: str) -> None:
    with pytest.raises(RuleFileError, match=problem):
        load_renamed(table, RULES.keys())


@pytest.fixture
def renamed(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if cuda.kernel had been called cuda.global-function before: a row of the table."""
    table = {"renamed": {"cuda.global-function": "cuda.kernel"}}
    monkeypatch.setattr(registry, "RENAMED", load_renamed(table, RULES.keys()))


@pytest.mark.usefixtures("renamed")
def test_a_marker_written_with_the_old_id_still_ignores_the_rule() -> None:
    report = classify("k.cu", KERNEL)
    assert [(i.rule, i.start_line, i.end_line) for i in report.ignored] == [("cuda.kernel", 2, 4)]
    assert report.marker_problems == []


def test_without_the_row_the_old_id_is_an_unknown_rule() -> None:
    report = classify("k.cu", KERNEL)
    assert report.ignored == []
    assert ["unknown rule id" in p.problem for p in report.marker_problems] == [True]


@pytest.mark.usefixtures("renamed")
def test_lockin_rules_shows_the_renamed_rule_under_its_old_id() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["rules", "cuda.global-function"], out=out, err=err) == 0
    assert out.getvalue().startswith("cuda.kernel")
