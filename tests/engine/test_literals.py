"""literals.search answers as the pattern's own search does, whatever shortcut it takes."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import literals
from bot.engine.languages import _HEURISTICS
from bot.engine.registry import SPECS

CONDITIONS = sorted(
    {
        pattern
        for pattern in (
            *(spec.requires for spec in SPECS),
            *(spec.unless for spec in SPECS),
            *(h.pattern for h in _HEURISTICS),
            *(h.unless for h in _HEURISTICS),
        )
        if pattern is not None
    },
    key=lambda p: p.pattern,
)
# What the file-level conditions look for, and what stands around it at a line's start.
TOKENS = [
    "#",
    "include",
    "<",
    '"',
    "ck/",
    "namespace",
    " ck",
    "hip/hip_runtime.h",
    ">",
    "import",
    "from",
    " warp",
    "metal_stdlib",
    "using namespace metal;",
    "[[kernel]]",
    "%",
    "function",
    "end",
    " ",
    "\t",
    "\n",
    "x",
]


@pytest.mark.parametrize(
    ("pattern", "rewritten"),
    [
        (re.compile(r"^[ \t]*import\b", re.M), True),
        (re.compile(r"^[ \t]*import\b"), False),  # ^ is the text's start only
        (re.compile(r"^a|b", re.M), False),  # b anywhere
        (re.compile(r"^a|^b", re.M), True),  # both at a line start
        (re.compile(r"(?:^a|b)", re.M), False),
        (re.compile(r"a^", re.M), False),
        (re.compile(r"^a  # comment", re.M | re.X), False),
    ],
)
def test_only_patterns_opening_at_a_line_start_are_searched_from_newlines(
    pattern: re.Pattern[str], rewritten: bool
) -> None:
    assert (literals._after_newline(pattern) is not None) is rewritten


@pytest.mark.parametrize(
    "pattern",
    [r"^a|^b", r"^a|^(?:b|c)", r"^[ \t]*(?:a|b)$", r"^(a)\1"],
)
@pytest.mark.parametrize("text", ["a", "b", "xb", "x\nb", "x\n  a\n", "c", "aa", "x\naa"])
def test_alternatives_all_opening_at_a_line_start(pattern: str, text: str) -> None:
    compiled = re.compile(pattern, re.M)
    assert literals._after_newline(compiled) is not None
    assert literals.search(compiled, text) is (compiled.search(text) is not None)


def test_the_registry_and_the_language_heuristics_have_such_patterns() -> None:
    assert sum(literals._after_newline(p) is not None for p in CONDITIONS) >= 5


@pytest.mark.parametrize(
    "text",
    [
        "#include <ck/ck.hpp>\n",
        "  namespace ck {\n",
        "x\n\t#  include <ck_tile/core.hpp>",
        "x #include <ck/ck.hpp>\n",  # not at a line start
        "import warp\n",
        "\nimport warp",
        "",
    ],
)
def test_a_match_at_the_start_after_a_newline_or_nowhere(text: str) -> None:
    for pattern in CONDITIONS:
        assert literals.search(pattern, text) is (pattern.search(text) is not None), pattern


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40).map("".join))
def test_arbitrary_text_gets_the_patterns_answer(text: str) -> None:
    for pattern in CONDITIONS:
        assert literals.search(pattern, text) is (pattern.search(text) is not None), pattern


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40).map("".join))
def test_conditions_sharing_what_the_text_holds_get_the_patterns_answer(text: str) -> None:
    # As a file's conditions are searched: one ``present`` for them all, filled in turn.
    present: dict[str, bool] = {}
    for pattern in CONDITIONS:
        found = literals.search(pattern, text, present)
        assert found is (pattern.search(text) is not None), pattern
    assert present, "the conditions' literals were remembered"
    assert all(held is (literal in text) for literal, held in present.items())
