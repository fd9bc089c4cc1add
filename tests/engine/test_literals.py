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


RULE_PATTERNS = sorted(
    {spec.pattern for spec in SPECS if spec.pattern is not None}, key=lambda p: p.pattern
)
EXAMPLES = "\n".join(example.code for spec in SPECS for example in (*spec.positive, *spec.negative))
# What the slow alternatives of rule patterns need, and the keywords beside them.
SLOW_TOKENS = [
    "is_cuda",
    "TORCH_LIBRARY_IMPL",
    "->",
    ".",
    "(",
    ",",
    "CUDA",
    "cuda",
    "at::cuda::",
    "import",
    "from",
    "cuda.bindings",
    "sycl::",
    " ",
    "\n",
    "x",
]


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


@pytest.mark.parametrize(
    ("source", "text", "searched"),
    [
        # The slow alternative's literal is missing: the rest is searched.
        (r"\b\w+\.is_cuda\(|cuda::\w+", "at::cuda::x", "cuda::\\w+"),
        (r"\b\w+\.is_cuda\(|cuda::\w+", "t.is_cuda()", None),  # it is there: as written
        (r"^[ \t]*import[ \t]+jax\b|jax\.\w+", "y = jax.numpy", "jax\\.\\w+"),
        (r"(\w+)\.is_cuda|cuda::", "cuda::", None),  # a group: numbered by position
        (r"\bx+\.is_cuda|\by_cuda", "", None),  # only slow alternatives
        (r"(?i)\bx+\.is_cuda|cuda", "", None),  # a flag set for all inside the first
        (r"\w+\.is_cuda|[ab]cuda|cuda", "acuda", None),  # one slow alternative may match
        (r"\w+\.is_cuda|[ab]cuda|cuda", "cud", "cuda"),  # a class opens one: slow too
        (r"\w+|cuda", "", None),  # the slow one needs nothing
    ],
)
def test_slow_alternatives_left_out_where_they_cannot_match(
    source: str, text: str, searched: str | None
) -> None:
    pattern = re.compile(source, re.M)
    skipped = literals.skippable(pattern, text, {})
    assert skipped.pattern == (source if searched is None else searched)
    assert _spans(skipped, text) == _spans(pattern, text)


def test_some_rule_patterns_have_slow_alternatives_and_match_the_same_without() -> None:
    skipped = [p for p in RULE_PATTERNS if literals.skippable(p, "", {}) is not p]
    assert len(skipped) >= 10
    # A pattern searched as written matches the same by definition: only the ones the
    # examples leave alternatives out of are searched twice (each search of the examples'
    # whole text costs time the suite pays on a loaded machine).
    for pattern in RULE_PATTERNS:
        searched = literals.skippable(pattern, EXAMPLES, {})
        if searched is not pattern:
            assert _spans(searched, EXAMPLES) == _spans(pattern, EXAMPLES), pattern.pattern


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(SLOW_TOKENS), max_size=60).map("".join))
def test_rule_patterns_find_the_same_matches_in_any_text(text: str) -> None:
    present: dict[str, bool] = {}
    for pattern in RULE_PATTERNS:
        skipped = literals.skippable(pattern, text, present)
        assert _spans(skipped, text) == _spans(pattern, text), pattern.pattern


_CPU_CONDITION = r"\b\w*(?:cpuid|rdtsc)\w*|f(?<!\wf)loat(?:16|32)x\d+_t"
_WITHOUT_CPUID = r"f(?<!\wf)loat(?:16|32)x\d+_t"


@pytest.mark.parametrize(
    ("text", "found", "searched"),
    [
        ("float4 x_t = 32;\n" * 50, False, _WITHOUT_CPUID),  # no cpuid: the slow one left out
        ("typedef float32x4_t v;", True, _WITHOUT_CPUID),
        ("int a = get_cpuid();", True, _CPU_CONDITION),  # cpuid is there: as written
    ],
)
def test_a_condition_is_searched_without_slow_alternatives_that_cannot_match(
    text: str, found: bool, searched: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Like cuda.ptx-asm's CPU condition: a \w* alternative makes re try every offset.
    pattern = re.compile(_CPU_CONDITION)
    tried: list[str] = []
    skippable = literals.skippable

    def spy(pattern: re.Pattern[str], text: str, present: dict[str, bool]) -> re.Pattern[str]:
        tried.append(skippable(pattern, text, present).pattern)
        return skippable(pattern, text, present)

    monkeypatch.setattr(literals, "skippable", spy)
    assert literals.search(pattern, text) is found is (pattern.search(text) is not None)
    assert tried == [searched]


TAGS = [spec.pattern for spec in SPECS if spec.kind == "tagged-string" and spec.pattern is not None]


@pytest.mark.parametrize("pattern", TAGS, ids=[p.pattern[:40] for p in TAGS])
def test_a_tag_pattern_needs_what_its_lookahead_looks_for(pattern: re.Pattern[str]) -> None:
    # hlsl.tagged-raw-string's match is empty, before R"hlsl(: without its lookahead's
    # literals the kind searched every C++ file of a census whole (a third of its time).
    assert literals.may_match_ahead(pattern, "x = 1;\n", {}) is False


@pytest.mark.parametrize(
    "text", ['s = R"hlsl(float f;)hlsl";', 'int a = 0; auto s = u8R"HLSL(x)HLSL";', 'R"(hlsl)"']
)
def test_a_lookahead_need_never_refuses_a_text_the_pattern_matches(text: str) -> None:
    pattern = re.compile(r'(?<![\w"])(?=(?:u8|[uUL])?R"(?:hlsl|HLSL)\()')
    # A necessary condition only: R"(hlsl)" holds every literal and no match.
    assert literals.may_match_ahead(pattern, text, {}) or pattern.search(text) is None
