"""The keyword index finds every start offset of every keyword, overlaps included, as a
brute-force search over each offset does."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.engine import literals
from bot.engine.keywords import KeywordIndex
from bot.engine.languages import LANGUAGES, heuristic_keywords, refine
from bot.engine.registry import _EVERYWHERE, RULES_BY_LANGUAGE, SPECS

# A small alphabet makes keywords that share prefixes, hold each other and overlap themselves;
# an accented and an astral character check that offsets count code points.
ALPHABET = "ab_<\u00e9\U0001d518"
WORDS = st.text(alphabet=ALPHABET, min_size=1, max_size=6)


def _brute_force(keywords: set[str], text: str) -> dict[str, list[int]]:
    found = {k: [i for i in range(len(text)) if text.startswith(k, i)] for k in keywords}
    return {k: offsets for k, offsets in found.items() if offsets}


@given(st.sets(WORDS, min_size=1, max_size=8), st.text(alphabet=ALPHABET + "\n ", max_size=80))
def test_every_offset_of_every_keyword(keywords: set[str], text: str) -> None:
    assert KeywordIndex(keywords).occurrences(text) == _brute_force(keywords, text)


@given(st.sets(WORDS, min_size=1, max_size=8), st.text(alphabet=ALPHABET + "\n ", max_size=80))
def test_found_names_the_keywords_that_occur(keywords: set[str], text: str) -> None:
    # Searched as UTF-8 bytes: a keyword's bytes never match inside another character's.
    assert KeywordIndex(keywords).found(text) == set(_brute_force(keywords, text))


def test_nested_and_self_overlapping_keywords() -> None:
    index = KeywordIndex({"<<<", "__device__", "__dev", "device", "e__d"})
    text = "<<<<< __device__device__"
    assert index.occurrences(text) == _brute_force(
        {"<<<", "__device__", "__dev", "device", "e__d"}, text
    )
    assert index.occurrences(text)["<<<"] == [0, 1, 2]
    assert index.occurrences(text)["__device__"] == [6, 14]


@given(st.text(alphabet="_cudaCUDAtorch.<>gl:b \n", max_size=120))
def test_registry_indexes_match_brute_force(text: str) -> None:
    for language in ("CUDA", "Python", "CMake"):
        index = RULES_BY_LANGUAGE[language].keywords
        keywords = set(index.keywords)
        assert index.occurrences(text) == _brute_force(keywords, text)


def test_the_languages_of_a_lexer_family_share_their_keyword_automata() -> None:
    # One DFA per family, not per language: built in each worker of a census, six C-family
    # automata cost it about 20 ms over the bench corpus, one costs 4.
    cuda, header, cpp, hip = (RULES_BY_LANGUAGE[n] for n in ("CUDA", "C Header", "C++", "HIP"))
    assert cuda.keywords is header.keywords is cpp.keywords is hip.keywords
    assert cuda.string_keywords is header.string_keywords is hip.string_keywords


def test_a_keyword_only_another_languages_rules_hold_selects_no_rule() -> None:
    c, cuda = RULES_BY_LANGUAGE["C"], RULES_BY_LANGUAGE["CUDA"]
    own = {k for i in c.candidates(c.keywords.keywords, []) for k in SPECS[i].keywords}
    foreign = sorted(k for k in c.keywords.keywords if k not in own)
    assert foreign  # the family's automaton finds them in C code too
    assert c.candidates(foreign, []) == sorted(c.always)
    assert set(cuda.candidates(foreign, [])) > cuda.always


def _conditions(language: str) -> list[re.Pattern[str]]:
    return [
        condition
        for spec in SPECS
        if language in spec.languages
        for condition in (spec.requires, spec.unless)
        if condition is not None
    ]


def test_the_keyword_automaton_looks_for_the_literals_of_the_conditions() -> None:
    # A file's conditions then read which literals it holds from the one keyword pass,
    # not from a scan of the whole file per literal (most of which are not there). Reserved
    # words (`int`, `import`) are in nearly every file: `in` finds them at once, and the
    # automaton would report their every occurrence.
    for language in ("CUDA", "C Header", "Python"):
        rules = RULES_BY_LANGUAGE[language]
        literals_of = {
            literal
            for condition in _conditions(language)
            for literal in literals.looked_up(condition)
            if len(literal) >= 3
        }
        looked_up = literals_of - _EVERYWHERE
        assert {"gl_", "texture"} <= looked_up or language == "Python"
        assert {"import", "int", "def"} & literals_of, "no reserved word left to look up"
        # Those of the lexer family's other languages too: they share one automaton.
        assert looked_up <= rules.unseen.keys() <= rules.keywords.keywords
        assert not rules.unseen.keys() & _EVERYWHERE
        assert not any(rules.unseen.values())


# The literals of CUDA's conditions, cut and joined, so that texts hold some, parts of others.
_CUDA_LITERALS = sorted(
    {literal for c in _conditions("CUDA") for literal in literals.looked_up(c) if len(literal) >= 3}
)


@given(st.lists(st.sampled_from(_CUDA_LITERALS) | st.text("_(){}<>: \n", max_size=3), max_size=12))
def test_conditions_answer_as_their_patterns_from_what_the_automaton_found(
    parts: list[str],
) -> None:
    text = "".join(parts)
    rules = RULES_BY_LANGUAGE["CUDA"]
    for condition in _conditions("CUDA"):
        present = rules.unseen | dict.fromkeys(rules.keywords.occurrences(text), True)
        assert literals.search(condition, text, present) == (condition.search(text) is not None)


def test_the_keyword_automaton_looks_for_the_keywords_of_the_language_heuristics() -> None:
    # classify hands refine what the one keyword pass found: a header or a .cu file is not
    # searched again for its heuristics' keywords.
    for language in ("CUDA", "C Header", "C++"):
        assert heuristic_keywords("c") <= RULES_BY_LANGUAGE[language].keywords.keywords
    assert {"hip/", "__builtin_amdgcn_", "sycl"} <= heuristic_keywords("c")


def test_refine_reads_the_keywords_it_is_given() -> None:
    cuda = LANGUAGES["CUDA"]
    code = "#include <hip/hip_runtime.h>\n"
    assert refine(cuda, ".cu", "k.cu", code).name == "HIP"
    found = RULES_BY_LANGUAGE["CUDA"].keywords.occurrences(code).keys()
    assert refine(cuda, ".cu", "k.cu", code, found).name == "HIP"
    # Told the text holds none of the heuristics' keywords, no heuristic's pattern is tried.
    assert refine(cuda, ".cu", "k.cu", code, set()) is cuda
