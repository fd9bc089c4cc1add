"""The rewritten rule patterns match exactly where the patterns as written do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.engine
from bot.engine.literal_first import alternatives, literal_first, opens_with_literal
from bot.engine.registry import SPECS

RULE_FILES = Path(bot.engine.__file__).parent / "data" / "rules"
SOURCES = {
    row["id"]: row["pattern"]
    for path in sorted(RULE_FILES.glob("*.yml"))
    for row in yaml.safe_load(path.read_text())["rules"]
    if row.get("pattern")
}
WRITTEN = {rule: re.compile(source, re.M) for rule, source in SOURCES.items()}
REWRITTEN = {spec.rule.id: spec.pattern for spec in SPECS if spec.pattern is not None}
EXAMPLES = "\n".join(example.code for spec in SPECS for example in (*spec.positive, *spec.negative))


def test_the_registry_runs_the_rewritten_patterns() -> None:
    assert set(REWRITTEN) == set(WRITTEN)
    for rule, pattern in REWRITTEN.items():
        assert pattern.pattern == literal_first(SOURCES[rule])


def spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


def test_most_patterns_are_rewritten() -> None:
    changed = [rule for rule in WRITTEN if WRITTEN[rule].pattern != REWRITTEN[rule].pattern]
    assert len(changed) >= 20  # the shape is common: the rewrite is worth having


# One test a rule: each reads every example of every rule, and together they took a minute,
# past the suite's per-test timeout when a loaded machine ran them as one test.
@pytest.mark.parametrize("rule", sorted(SOURCES))
def test_every_example_matches_the_same(rule: str) -> None:
    assert spans(WRITTEN[rule], EXAMPLES) == spans(REWRITTEN[rule], EXAMPLES)


@pytest.mark.parametrize(
    ("written", "rewritten"),
    [
        (r"\bnvcc\b", r"n(?<!\wn)vcc\b"),
        (r"\b(?:cuda|hip)::\w+", r"c(?<!\wc)uda::\w+|h(?<!\wh)ip::\w+"),
        (r"\b\w+_kernel", r"\b\w+_kernel"),  # no literal to start with: left as written
        (r"\bx*y", r"\bx*y"),  # a quantified first character: left as written
        # Lookbehinds move behind the first character of each alternative.
        (
            r"(?<!\.)(?<!->)\b(?:threadIdx|gridDim)\b",
            r"t(?<!(?:\.)t)(?<!(?:->)t)(?<!\wt)hreadIdx\b|g(?<!(?:\.)g)(?<!(?:->)g)(?<!\wg)ridDim\b",
        ),
        (r"(?<![\w-])-lcu\b", r"-(?<!(?:[\w-])\-)lcu\b"),
        (r"(?<![\w.])_*torch", r"(?<![\w.])_*torch"),  # quantified: left as written
        (r"(?<!a)\w+", r"(?<!a)\w+"),  # no literal behind the lookbehind
        # An optional group first: with it, then without it.
        (
            r"(?<!\w::)\b(?:cl::)?sycl::",
            r"c(?<!(?:\w::)c)(?<!\wc)l::sycl::|s(?<!(?:\w::)s)(?<!\ws)ycl::",
        ),
        (r"\b(?:a|b)?cd", r"a(?<!\wa)cd|b(?<!\wb)cd|c(?<!\wc)d"),
        (r"\b(?:a)??cd", r"\b(?:a)??cd"),  # lazy: left as written
        (r"\b(?:a)?(c)d", r"\b(?:a)?(c)d"),  # a group written twice: left as written
    ],
)
def test_the_rewrite(written: str, rewritten: str) -> None:
    assert literal_first(written) == rewritten


ALPHABET = "cudanvhipCUDA_:-./ \n\t#<>()0189xX"
# Pieces of the keywords rewritten patterns start with, and what may stand before them.
TOKENS = [
    *["threadIdx", "blockDim", "gridDim", ".", "->", "-", "lcu", "get_global_id", "(", "x"],
    # An optional group first (``\b(?:cl::)?sycl::``, ``\b(?:work_group_)?barrier\(``).
    *["sycl::", "cl::", "::", "work_group_", "barrier(", "numba.", "un", "register_", "drm_"],
]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=200))
def test_arbitrary_text_matches_the_same(text: str) -> None:
    for rule in WRITTEN:
        assert spans(WRITTEN[rule], text) == spans(REWRITTEN[rule], text), rule


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*TOKENS, *ALPHABET]), max_size=60).map("".join))
def test_keyword_soup_matches_the_same(text: str) -> None:
    for rule in WRITTEN:
        assert spans(WRITTEN[rule], text) == spans(REWRITTEN[rule], text), rule


@pytest.mark.parametrize(
    ("source", "split"),
    [
        (r"a|b(c|d)|e", ["a", "b(c|d)", "e"]),
        (r"a|[|(]|\||x", ["a", "[|(]", "\\|", "x"]),  # a class or an escape: no alternative
        (r"[]|]|x", ["[]|]", "x"]),  # "]" first in a class is a member
        (r"[^]|]|x", ["[^]|]", "x"]),
        (r"[\]|]|x", ["[\\]|]", "x"]),
        (r"[a|b", None),  # a class left open
        (r"(a|b", None),  # a group left open
        ("", [""]),
    ],
)
def test_top_level_alternatives(source: str, split: list[str] | None) -> None:
    assert alternatives(source) == split


@pytest.mark.parametrize(
    ("source", "opens"),
    [
        ("cuda", True),
        (r"\.cu", True),
        (r"\#x", True),
        ("a*b", False),  # repeated
        (r"\bx", False),
        (r"\w+", False),
        ("^x", False),
        ("[ab]c", False),
        ("(?:a)", False),
        ("", False),
    ],
)
def test_what_opens_with_a_literal(source: str, opens: bool) -> None:
    assert opens_with_literal(source) is opens
