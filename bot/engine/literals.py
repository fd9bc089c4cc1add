"""Literal prefilters: the substrings any match of a regular expression must contain.

A file-level condition (``ck_tile|\\bck::``, ``^[ \\t]*(?:import[ \\t]+jax|from...)``) has no
literal prefix, so ``re`` tries it at every offset of a file; ``str.__contains__`` looks for
a literal at memchr speed. ``search`` first checks that the text holds what a match needs and
runs the pattern only then: same answer, a fraction of the time on the files that lack it.

What a match needs is read from the parsed pattern: a run of literal characters, every part
of a sequence, one alternative of a branch, the body of a repeat of at least one. Anything
else (classes, anchors, lookarounds, case-insensitive parts) needs nothing, so the answer is
never wrong, only sometimes useless.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from re import (  # type: ignore[attr-defined]  # internal modules typeshed leaves out
    _constants as sre,  # the parser's opcodes (internal, stable within 3.11+)
)
from re import _parser  # type: ignore[attr-defined]  # the same
from typing import Any, TypeVar

from bot.engine.literal_first import alternatives, opens_with_literal
from bot.engine.precompiled import fixed_regex

#: A requirement: None (nothing), a literal, or ("all" | "any", requirements).
Need = str | tuple[str, tuple["Need", ...]] | None

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
# Items that match no character: the literals on either side of one are adjacent in a match
# (``t(?<!\wt)hreadIdx``, as ``literal_first`` writes ``\bthreadIdx``, needs "threadIdx").
_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
_ANCHOR_MIN = 3  # shorter literals are in most windows: searching for them skips little
_T = TypeVar("_T")
#: What is learnt of a pattern, once: id(pattern) -> (pattern, the answer). Keyed by
#: identity, not by the pattern: hashing a compiled pattern hashes its whole compiled code
#: every time (a microsecond for a rule of a few hundred characters, and every rule's
#: search asks two of these). Holding the pattern keeps its id from being reused.
Memo = dict[int, tuple[re.Pattern[str], _T]]
_NEEDS: Memo[Need] = {}
_NEEDS_AHEAD: Memo[Need] = {}  # ``may_match_ahead``'s
_ANCHORS: Memo[tuple[str, ...] | None] = {}
_AFTER_NEWLINE: Memo[re.Pattern[str] | None] = {}
#: Pattern -> what its slow alternatives need, and the source without them (None: no such).
_SLOW: Memo[tuple[tuple[Need, ...], str] | None] = {}
#: Pattern -> itself without its slow alternatives, compiled when first searched so.
_WITHOUT_SLOW: Memo[re.Pattern[str]] = {}
_GLOBAL_FLAGS = fixed_regex(r"\(\?[aiLmsux]")
# A place where an alternative at some depth starts (the source's start, after any "|")
# with no literal first, as ``opens_with_literal`` reads one: without any, every top-level
# alternative opens with one, which this finds at C speed, before any split in Python.
_NO_LITERAL_AFTER = fixed_regex(
    r"(?:^|\|)(?![^\\.^$*+?{}\[\]()|](?![*+?{])|\\[^A-Za-z0-9_](?![*+?{]))"
)


def _sequence(items: Any, ahead: bool = False) -> Need:
    """What a parsed sequence needs; with ``ahead``, what its lookaheads look for too."""
    needs: list[Need] = []
    run: list[str] = []
    for op, av in items:
        if op is sre.LITERAL:
            run.append(chr(av))
            continue
        if ahead and op is sre.ASSERT and av[0] == 1:
            # It matches nothing, so the literals on either side stay one run.
            needs.append(_sequence(av[1], ahead))
            continue
        if op in _ZERO_WIDTH:
            continue
        if run:
            needs.append("".join(run))
            run.clear()
        needs.append(_item(op, av, ahead))
    if run:
        needs.append("".join(run))
    kept = tuple(need for need in needs if need is not None)
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else ("all", kept)


def _item(op: Any, av: Any, ahead: bool) -> Need:
    if op is sre.SUBPATTERN:
        _, add_flags, _, body = av
        return None if add_flags & sre.SRE_FLAG_IGNORECASE else _sequence(body, ahead)
    if op is sre.ATOMIC_GROUP:
        return _sequence(av, ahead)
    if op is sre.BRANCH:
        alternatives = tuple(_sequence(alternative, ahead) for alternative in av[1])
        return None if None in alternatives else ("any", alternatives)
    if op in _REPEATS:
        low, _, body = av
        return _sequence(body, ahead) if low >= 1 else None
    return None


def _memo(memo: Memo[_T], pattern: re.Pattern[str], compute: Callable[[re.Pattern[str]], _T]) -> _T:
    """``compute(pattern)``, remembered in ``memo``."""
    known = memo.get(id(pattern))
    if known is None:
        known = memo[id(pattern)] = (pattern, compute(pattern))
    return known[1]


#: What ``learnt`` returns of a pattern's variant without its slow alternatives: what its
#: matches need, its anchors and the source of its variant opening with a newline.
Variant = tuple[Need, tuple[str, ...] | None, str | None]
#: What ``learnt`` returns: a pattern's need, anchors and slow alternatives, the source of
#: its variant opening with a newline (``_after_newline``), and what is learnt of its
#: variant without the slow alternatives (``skippable``), when it has one.
Learnt = tuple[
    Need, tuple[str, ...] | None, tuple[tuple[Need, ...], str] | None, str | None, Variant | None
]
Compile = Callable[[str, int], re.Pattern[str]]


def learnt(pattern: re.Pattern[str]) -> Learnt:
    """What this module learns of ``pattern`` on its first search (parsing it: a quarter of a
    millisecond), as plain data: the rule registry keeps it in its cache for its patterns,
    so that no process (each worker of a census) parses them again. So for the variant
    without its slow alternatives, which ``SourceText.finditer`` asks for its anchors (each
    worker of a census parsed those it met, 5 ms over the bench corpus)."""
    slow = _memo(_SLOW, pattern, _without_slow)
    variant: Variant | None = None
    if slow is not None:
        fast = _fast_variant(pattern, slow[1])
        variant = need(fast), anchors(fast), _newline_source(fast)
    return need(pattern), anchors(pattern), slow, _newline_source(pattern), variant


def learn(pattern: re.Pattern[str], known: Learnt, compile_: Compile = re.compile) -> None:
    """Take ``known``, what ``learnt(pattern)`` gave for the same source and flags in an
    earlier process, as learnt in this one; its variants compiled by ``compile_`` (the
    registry's, from the programs its cache keeps: each worker of a census compiled those
    it met, a millisecond each)."""
    needed, anchored, slow, after_newline, variant = known
    _NEEDS[id(pattern)] = (pattern, needed)
    _ANCHORS[id(pattern)] = (pattern, anchored)
    _SLOW[id(pattern)] = (pattern, slow)
    if slow is not None:
        fast = compile_(slow[1], pattern.flags)
        _WITHOUT_SLOW[id(pattern)] = (pattern, fast)
        if variant is not None:  # its alternatives all open with a literal: none is slow
            learn(fast, (variant[0], variant[1], None, variant[2], None), compile_)
    newline = None if after_newline is None else compile_(after_newline, pattern.flags)
    _AFTER_NEWLINE[id(pattern)] = (pattern, newline)


def need(pattern: re.Pattern[str]) -> Need:
    """What every match of ``pattern`` contains (computed once per pattern)."""
    return _memo(_NEEDS, pattern, _pattern_need)


def looked_up(pattern: re.Pattern[str]) -> frozenset[str]:
    """Every literal ``search`` may look up in ``present`` for ``pattern``: those of what
    its matches need and of what its slow alternatives need."""
    found: set[str] = set()
    slow = _memo(_SLOW, pattern, _without_slow)
    for requirement in (need(pattern), *(slow[0] if slow else ())):
        _collect(requirement, found)
    return frozenset(found)


def _collect(requirement: Need, into: set[str]) -> None:
    if isinstance(requirement, str):
        into.add(requirement)
    elif requirement is not None:
        for part in requirement[1]:
            _collect(part, into)


def _pattern_need(pattern: re.Pattern[str]) -> Need:
    return _need(pattern.pattern, pattern.flags)


def anchors(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """Literals at least one of which every match of ``pattern`` contains, none shorter than
    ``_ANCHOR_MIN`` (None: no such set), computed once per pattern: a stretch of text holding
    none of them holds no match."""
    return _memo(_ANCHORS, pattern, _pattern_anchors)


def _pattern_anchors(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    found = _anchors(need(pattern))
    return found if found and min(map(len, found)) >= _ANCHOR_MIN else None


def _anchors(requirement: Need) -> tuple[str, ...] | None:
    if requirement is None:
        return None
    if isinstance(requirement, str):
        return (requirement,)
    kind, parts = requirement
    if kind == "any":  # every alternative must bring its own
        found: list[str] = []
        for part in parts:
            own = _anchors(part)
            if own is None:
                return None
            found += own
        return tuple(dict.fromkeys(found))
    # Every part is needed: the one whose shortest literal is longest is the rarest.
    options = [own for own in map(_anchors, parts) if own is not None]
    return max(options, key=lambda own: min(map(len, own)), default=None)


def _need(source: str, flags: int, ahead: bool = False) -> Need:
    parsed = _parser.parse(source, flags)
    return None if parsed.state.flags & re.IGNORECASE else _sequence(parsed, ahead)


def _holds(requirement: Need, text: str, present: dict[str, bool]) -> bool:
    """Whether ``text`` holds what ``requirement`` needs; ``present`` remembers each literal
    looked for (a file's conditions share them: ``import``, ``jax``, ``numba`` in three)."""
    if requirement is None:
        return True
    if isinstance(requirement, str):
        found = present.get(requirement)
        if found is None:
            found = present[requirement] = requirement in text
        return found
    # Plain loops: a generator for all() or any() cost more than the lookups it ran (this
    # runs for every condition of every rule a file's keywords select).
    kind, parts = requirement
    if kind == "all":
        for part in parts:  # noqa: SIM110 - no generator (above)
            if not _holds(part, text, present):
                return False
        return True
    for part in parts:  # noqa: SIM110 - no generator (above)
        if _holds(part, text, present):
            return True
    return False


def _after_newline(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """For a pattern that opens with ``^`` under re.M (every alternative of it, if any), the
    same pattern with ``\\n`` in place of that ``^``; None for any other pattern."""
    return _memo(_AFTER_NEWLINE, pattern, _newline_variant)


def _newline_variant(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    source = _newline_source(pattern)
    return None if source is None else re.compile(source, pattern.flags)


def _newline_source(pattern: re.Pattern[str]) -> str | None:
    source, flags = pattern.pattern, pattern.flags
    at_line = (
        flags & (re.MULTILINE | re.VERBOSE) == re.MULTILINE
        and source.startswith("^")
        # ^a|b parses as a branch; ^a|^b as the ^ shared by both alternatives.
        and list(_parser.parse(source, flags))[:1] == [(sre.AT, sre.AT_BEGINNING)]
    )
    # The group keeps the newline in front of every alternative; a ^ left in one holds
    # after the newline.
    return f"\\n(?:{source[1:]})" if at_line else None


def may_match(pattern: re.Pattern[str], text: str, present: dict[str, bool] | None = None) -> bool:
    """False when ``text`` lacks a literal every match of ``pattern`` contains: no part of it
    can match. True says nothing. ``present`` (literal -> whether ``text`` holds it) carries
    what earlier searches of the same text learnt."""
    return _holds(need(pattern), text, {} if present is None else present)


def may_match_ahead(pattern: re.Pattern[str], text: str, present: dict[str, bool]) -> bool:
    """``may_match``, counting what the pattern's lookaheads look for as needed too: a
    lookahead's text stands in the text at the match. For a pattern searched over a whole
    text (not in keyword windows, whose anchors must stand inside each match): a tag that
    matches nothing itself, ending where the literal it tags opens (``R"hlsl(``).
    ``present`` as for ``may_match``, of this same text."""
    return _holds(_memo(_NEEDS_AHEAD, pattern, _pattern_need_ahead), text, present)


def _pattern_need_ahead(pattern: re.Pattern[str]) -> Need:
    return _need(pattern.pattern, pattern.flags, ahead=True)


def search(pattern: re.Pattern[str], text: str, present: dict[str, bool] | None = None) -> bool:
    """Whether ``pattern`` matches somewhere in ``text``, skipping the regex when the text
    lacks a literal every match contains (``present`` as for ``may_match``), and the
    alternatives that make ``re`` try every offset when the text lacks what they need
    (``skippable``: cuda.ptx-asm's condition, naming CPU types and ``\\w*cpuid\\w*``)."""
    if present is None:
        present = {}
    if not may_match(pattern, text, present):
        return False
    pattern = skippable(pattern, text, present)
    # re tries a pattern opening with ^ at every offset; a newline opening it is a literal,
    # which re finds at memchr speed before trying the rest (half the time on C sources).
    # Same answer: a match at a line start is one at the text's start or after a newline.
    after_newline = _after_newline(pattern)
    if after_newline is None:
        return pattern.search(text) is not None
    return pattern.match(text) is not None or after_newline.search(text) is not None


def skippable(pattern: re.Pattern[str], text: str, present: dict[str, bool]) -> re.Pattern[str]:
    """``pattern``, or when ``text`` lacks what each of its slow alternatives needs, the
    pattern without them: the same matches in ``text``, found sooner.

    An alternative is slow when it does not open with a literal (``\\b\\w+\\.is_cuda``, ``^``):
    ``re`` then tries the whole pattern at every offset, where with literals opening every
    alternative it skips to the characters that may start a match. An alternative whose
    literal is missing matches nowhere, and alternatives are tried in order, so the others
    find the same matches without it. ``present`` is ``search``'s memo of the literals.
    """
    slow = _memo(_SLOW, pattern, _without_slow)
    if slow is None:
        return pattern
    needs, source = slow
    for requirement in needs:
        if _holds(requirement, text, present):
            return pattern
    return _fast_variant(pattern, source)


def _fast_variant(pattern: re.Pattern[str], source: str) -> re.Pattern[str]:
    """``pattern`` without its slow alternatives (``source``), compiled on first use (a
    millisecond each): a process may never need it."""
    return _memo(_WITHOUT_SLOW, pattern, lambda pattern: re.compile(source, pattern.flags))


def _without_slow(pattern: re.Pattern[str]) -> tuple[tuple[Need, ...], str] | None:
    """What ``pattern``'s slow alternatives need, and its source without them; None when it
    has none, only such, groups (numbered by position), comments (re.X) or flags set inside
    it for all."""
    if pattern.groups or pattern.flags & re.VERBOSE or _GLOBAL_FLAGS.match(pattern.pattern):
        return None
    if not _NO_LITERAL_AFTER.search(pattern.pattern):
        return None
    branches = alternatives(pattern.pattern) or []
    fast = [branch for branch in branches if opens_with_literal(branch)]
    if not fast or len(fast) == len(branches):
        return None
    needs = tuple(_need(branch, pattern.flags) for branch in branches if branch not in fast)
    if None in needs:
        return None
    return needs, "|".join(fast)
