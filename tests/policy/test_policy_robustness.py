"""Arbitrary input gets a clear one-line error (or a result), never a crash."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.policy.config import PolicyError, load_policy
from bot.policy.decisions import DecisionError, find_links, parse_decision, parse_ref
from bot.policy.patterns import MAX_PATTERN_LENGTH, MAX_PATTERNS, PatternError, compile_patterns
from bot.policy.yaml_guard import YAMLTooLarge, check_yaml_limits

# Pieces of YAML and of the policy's vocabulary, so that examples reach the validator.
_PIECES = [
    *"abc:-[]{}&*!|>'\"#%@` \n\t0.~?,\x00\x07",
    *("layers", "paths", "include", "exclude", "allowance", "decisions", "folder", "scope"),
    *("\n  ", "\n- ", "---\n", "kernel", "!!binary ", "!!python/object ", "<<", "on", "yes"),
    *("2024-01-01", "1e3", ".inf", "&a ", "*a", "Compute-API-Decision: ", "```", "> ", "<!--"),
]
yamlish = st.lists(st.sampled_from(_PIECES), max_size=60).map("".join)


def _error_of(parse, *args) -> str:
    """The message of our own error, "" when parsing succeeds; anything else propagates."""
    try:
        parse(*args)
    except (PolicyError, DecisionError) as e:
        return str(e) or "(empty message)"
    return ""


@settings(max_examples=400, deadline=None)
@given(st.one_of(yamlish, st.binary(max_size=200), st.text(max_size=200)))
def test_load_policy_returns_a_policy_or_a_one_line_policy_error(text: str | bytes) -> None:
    message = _error_of(load_policy, text)
    assert "\n" not in message
    assert message == "" or message.startswith(".github/lockin.yml")


@settings(max_examples=400, deadline=None)
@given(st.one_of(yamlish.map(lambda t: f"---\n{t}\n---\n"), yamlish, st.binary(max_size=200)))
def test_parse_decision_returns_a_record_or_a_one_line_decision_error(text: str | bytes) -> None:
    message = _error_of(parse_decision, "r.md", text)
    assert "\n" not in message
    if not message:
        assert isinstance(parse_decision("r.md", text).covers("csrc/a.cu"), bool)


@settings(max_examples=400, deadline=None)
@given(st.one_of(yamlish, st.text(max_size=200)))
def test_links_and_refs_never_raise(text: str) -> None:
    for raw in find_links(text):
        assert raw.strip() == raw
        assert raw
        ref = parse_ref(raw, owner="o", repo="r", folder="docs/decisions")
        assert (ref.kind == "invalid") == (ref.reason is not None)
    ref = parse_ref(text, owner="o", repo="r")
    assert ref.kind in ("path", "issue", "invalid")


def test_patterns_past_the_limits_are_errors_naming_the_limit() -> None:
    with pytest.raises(PatternError, match="too many patterns"):
        compile_patterns([f"dir{n}/**" for n in range(MAX_PATTERNS + 1)])
    with pytest.raises(PatternError, match="pattern too long") as caught:
        compile_patterns(["ok/**", "a" * (MAX_PATTERN_LENGTH + 1)])
    assert caught.value.index == 1


def test_backtracking_patterns_match_like_git() -> None:
    spec = compile_patterns(["*a" * 40 + "*b", "csrc/**", "!csrc/vendor/*.cu"])
    assert not spec.match_file("x/" + "a" * 5000)
    assert spec.match_file("a" * 40 + "b")
    assert spec.match_file("csrc/k.cu")
    assert not spec.match_file("csrc/vendor/k.cu")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("a: " + "[" * 17 + "]" * 17, "nested deeper than 16 levels"),
        ("a: &a [1, 2]\nb: [*a, *a]\n", None),
        ("a: &a [" + "1, " * 99 + "1]\n" + "b: [" + "*a, " * 100 + "*a]\n", "aliases are expanded"),
    ],
)
def test_yaml_limits_count_nesting_and_expanded_aliases(text: str, reason: str | None) -> None:
    if reason is None:
        check_yaml_limits(text, max_depth=16, max_nodes=10_000)
        return
    with pytest.raises(YAMLTooLarge, match=reason):
        check_yaml_limits(text, max_depth=16, max_nodes=10_000)
