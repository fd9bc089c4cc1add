r"""Rule patterns rewritten so that Python's regex engine can skip ahead: same matches, sooner.

A pattern whose alternatives start with ``\b`` gives ``re`` nothing to search for: it tries
every alternative at every position of the file, which on a file dense with keywords (every
line holds one, so the keyword windows cover it all) made the engine run at a tenth of its
usual speed. ``\bx`` (``x`` a word character) matches exactly where ``x(?<!\wx)`` does: the
character before ``x`` is not a word character. Written that way every alternative starts
with a literal, and ``re`` skips to the characters that can begin a match. Only that shape is
rewritten (also inside a leading ``\b(?:...)`` group, whose alternatives each get the
``\b``, and an optional one, ``\b(?:cl::)?sycl::``: with it, then without it, the order
``re`` tries them); any other pattern is returned as it is.

Negative lookbehinds in front of such a branch (``(?<!\.)(?<!->)\b(?:threadIdx|...)``: not a
struct field) move behind its first character: ``(?<!L)`` before ``x`` holds exactly where
``(?<!(?:L)x)`` holds after it, and the branch again starts with a literal.
"""

from __future__ import annotations

import re

from bot.engine.precompiled import fixed_regex

_WORD = fixed_regex(r"[A-Za-z0-9_]")
# A character that matches itself: not a regex metacharacter, escape or quantifier.
_LITERAL = fixed_regex(r"[^\\.^$*+?{}\[\]()|]")
_QUANTIFIERS = ("*", "+", "?", "{")


# What ``_grouping`` reads in a regex source: an escape, a character class (a "]" right after
# "[" or "[^" is a member; group 1 is its closing "]", empty when it is left open), or one of
# "(", ")", "|". Everything else is skipped at C speed.
_GROUPING_TOKEN = fixed_regex(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*(\]?)|[()|]", re.S)


def _grouping(source: str) -> list[tuple[int, str]] | None:
    """Offsets of ``(``, ``)`` and ``|`` in a regex source, outside escapes and character
    classes (None when a class is left open)."""
    found: list[tuple[int, str]] = []
    for token in _GROUPING_TOKEN.finditer(source):
        mark = token.group()
        if mark in ("(", ")", "|"):
            found.append((token.start(), mark))
        elif mark[0] == "[" and not token.group(1):
            return None
    return found


def alternatives(source: str) -> list[str] | None:
    """Top-level alternatives of a regex source (None when it cannot tell)."""
    marks = _grouping(source)
    if marks is None:
        return None
    parts, depth, start = [], 0, 0
    for i, ch in marks:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0:
            parts.append(source[start:i])
            start = i + 1
    if depth != 0:
        return None
    parts.append(source[start:])
    return parts


def opens_with_literal(source: str) -> bool:
    """Whether ``source`` starts with one character matching itself, not repeated: what
    ``re`` skips to when every alternative of a pattern starts so."""
    first = source[:1]
    if first == "\\":
        first = source[:2]
        if _WORD.fullmatch(first[1:]) or len(first) < 2:
            return False  # \b, \w, \d...: a class or an anchor, not a literal
    elif not _LITERAL.fullmatch(first):
        return False
    return source[len(first) : len(first) + 1] not in _QUANTIFIERS


def _group_end(source: str) -> int | None:
    """Offset of the ``)`` closing the group ``source`` starts with."""
    depth = 0
    for i, ch in _grouping(source) or ():
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
    return None


def _behind(branch: str) -> list[str] | None:
    """``branch`` opening with a negative lookbehind, rewritten with it behind the first
    character of each of the alternatives the rest rewrites to (None when one of them does
    not start with a literal)."""
    end = _group_end(branch)
    if end is None:
        return None
    behind, rest = branch[4:end], branch[end + 1 :]
    out = []
    for alt in _branch(rest):
        first = alt[:1]
        if not (_LITERAL.fullmatch(first) and alt[1:2] not in (*_QUANTIFIERS, "|")):
            return None
        out.append(f"{first}(?<!(?:{behind}){re.escape(first)}){alt[1:]}")
    return out


def _branch(branch: str) -> list[str]:
    if branch.startswith("(?<!"):
        return _behind(branch) or [branch]
    if not branch.startswith("\\b"):
        return [branch]
    rest = branch[2:]
    if rest.startswith("(?:"):
        end = _group_end(rest)
        if end is None:
            return [branch]
        inner, after = rest[3:end], rest[end + 1 :]
        # An optional group is tried first, then left out: the two alternatives, in that
        # order (``\b(?:cl::)?sycl::``: ``cl::sycl::``, then ``sycl::``).
        optional = after[:1] == "?" and after[1:2] not in ("?", "+")
        if after[:1] in _QUANTIFIERS and not optional:
            return [branch]
        inner_branches = alternatives(inner)
        if inner_branches is None:
            return [branch]
        out = []
        for alt in inner_branches:
            out.extend(_branch("\\b" + alt + after[optional:]))
        if optional:
            out.extend(_branch("\\b" + after[1:]))
        return out
    first = rest[:1]
    if first and _WORD.fullmatch(first) and rest[1:2] not in (*_QUANTIFIERS, "|"):
        return [f"{first}(?<!\\w{first}){rest[1:]}"]
    return [branch]


def literal_first(source: str) -> str:
    """The same matches, sooner: a branch starting ``\\bx`` (x a word character) becomes
    ``x(?<!\\wx)``, which lets the engine skip to candidate characters."""
    parts = alternatives(source)
    if parts is None:
        return source
    out = []
    for part in parts:
        out.extend(_branch(part))
    rewritten = "|".join(out)
    if rewritten == source:
        return source
    # A group written twice (an optional group's alternatives, a lookbehind moved behind
    # several alternatives) would renumber the groups a kind reads: left as written then.
    try:
        same_groups = re.compile(rewritten).groups == re.compile(source).groups
    except re.error:
        same_groups = False
    return rewritten if same_groups else source
