"""The keyword contract the registry documents: a rule's pattern only ever matches on lines
holding one of its keywords (string kinds: inside a string holding one), because the engine
runs the pattern only there. A pattern that could match elsewhere would find different
regions depending on which keywords a file happens to hold; this runs every pattern over whole
texts, unwindowed, and requires the same matches the engine's windowed search finds.
The texts: every example of the registry and every file of examples/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.engine.keywords import KeywordIndex
from bot.engine.languages import by_path, refine
from bot.engine.lexer import Lexed, lex
from bot.engine.regions import STRING_KINDS
from bot.engine.registry import SPECS, RuleSpec
from bot.engine.source_text import SourceText
from bot.engine.string_literals import string_body

ROOT = Path(__file__).resolve().parents[2]


def _corpus() -> list[tuple[str, str]]:
    texts = [(e.path, e.code) for s in SPECS for e in (*s.positive, *s.negative)]
    for path in sorted((ROOT / "examples").rglob("*")):
        if path.is_file():
            texts.append((str(path.relative_to(ROOT)), path.read_text("utf-8", "replace")))
    return texts


CORPUS = _corpus()
CHECKED = [s for s in SPECS if s.keywords and s.pattern is not None]


def _texts_for(spec: RuleSpec) -> list[tuple[str, Lexed]]:
    out = []
    for path, text in CORPUS:
        named, ext = by_path(path)
        if named is None:
            continue
        lexed = lex(text, named.family)
        lang = refine(named, ext, path, lexed.masked)
        if lang.name in spec.languages:
            out.append((path, lex(text, lang.family)))
    return out


@pytest.mark.parametrize("spec", CHECKED, ids=[s.rule.id for s in CHECKED])
def test_every_match_lies_where_a_keyword_is(spec: RuleSpec) -> None:
    assert spec.pattern is not None
    texts = _texts_for(spec)
    assert texts, f"{spec.rule.id}: no text of its languages to check the contract on"
    index = KeywordIndex(frozenset(spec.keywords))
    for path, lexed in texts:
        if spec.kind in STRING_KINDS:
            # Every string literal the pattern matches holds one of the keywords.
            for start, end in lexed.strings:
                literal = lexed.text[start:end]
                if spec.pattern.search(string_body(literal)):
                    assert any(k in literal for k in spec.keywords), (spec.rule.id, path)
            continue
        src = SourceText(lexed, "braces", index.occurrences(lexed.masked))
        src.lookahead_lines = spec.lookahead_lines  # as classify sets it for each rule
        everywhere = [m.span() for m in spec.pattern.finditer(src.masked)]
        windowed = [m.span() for m in src.finditer(spec.pattern, spec.keywords)]
        assert everywhere == windowed, f"{spec.rule.id} in {path}: a match without a keyword"


def test_the_contract_check_catches_a_pattern_wider_than_its_keywords() -> None:
    lexed = lex("cudaMalloc(&p, n);\nfoo();\n", by_path("a.cu")[0].family)  # type: ignore[union-attr]
    index = KeywordIndex(frozenset({"cudaMalloc"}))
    src = SourceText(lexed, "braces", index.occurrences(lexed.masked))
    wide = re.compile(r"\w+\(", re.M)
    everywhere = [m.span() for m in wide.finditer(src.masked)]
    windowed = [m.span() for m in src.finditer(wide, ("cudaMalloc",))]
    assert everywhere != windowed


def test_every_positive_example_states_its_lines() -> None:
    missing = [f"{s.rule.id}:{e.path}" for s in SPECS for e in s.positive if e.lines is None]
    assert not missing, f"positive examples without `lines:`: {missing}"
