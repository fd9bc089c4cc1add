"""Logical lines of a file: which physical lines continue a statement (open brackets, a
multi-line string, a trailing backslash), where a statement ends, and the ``def`` blocks of
indented languages."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from functools import cache
from itertools import accumulate, chain, compress, repeat
from operator import and_, itemgetter, mul, not_, or_, sub

from bot.engine.precompiled import fixed_regex
from bot.engine.source_text import SourceText

# Julia's `function name(` (after macros such as @kernel) opens a block too; its closing
# `end` sits at the opener's indentation and belongs to it (``LogicalLines._scan_blocks``).
PY_DEF = fixed_regex(
    r"[ \t]*(?:async[ \t]+)?(?:def|fn)\b"
    r"|[ \t]*(?:@\w+[^\n]*?[ \t])?function[ \t]+(?:[\w.!]+[ \t]*)?[({]"
)
# ``logical_starts`` reads a file's brackets as bytes: each folded to "(" or ")", and every
# other byte but the newline deleted.
_FOLD = bytes.maketrans(b"[{]}", b"(())")
_OTHERS = bytes(set(range(256)) - set(b"()[]{}\n"))
_BLOCK_END = fixed_regex(r"[ \t]*end[ \t]*$")
#: Lines ``block_end`` may walk in all, as a multiple of the file's, before it measures every
#: block at once (``blocks``): nested defs would otherwise walk their outer bodies again.
_WALK_SHARE = 1
#: What measuring one def costs ``block_end`` beyond its lines, in lines ``blocks`` reads
#: for the same time: a file of many small matched defs is soon measured all at once.
_DEF_COST = 8
#: Indentations given a regex of their own by ``block_end``; deeper defs (seldom) share one
#: that finds every line, so a file of many indentations compiles few regexes.
_DEEP = 32
_STATEMENT_LINES = 1000  # lines one statement may span
_START, _END = itemgetter(0), itemgetter(1)  # a string literal's offsets, for map()


class LogicalLines:
    """Statement starts and ends and indented blocks of a file, each found once."""

    __slots__ = ("_blocks", "_firsts", "_in_string", "_logical", "_walked", "text")

    def __init__(self, text: SourceText) -> None:
        self.text = text
        self._blocks: tuple[dict[int, int], list[int]] | None = None
        self._walked = 0  # lines walked by ``block_end``
        self._logical: list[bool] | None = None
        self._firsts: list[int] | None = None
        self._in_string: list[bool] | None = None

    def logical_starts(self) -> list[bool]:
        """starts[i]: line i + 1 begins a statement (it does not continue the line before).

        A line continues its predecessor when it opens inside a multi-line string literal,
        inside brackets left open (counted per line on the masked code, so brackets in
        strings and comments do not count) or after a trailing backslash.
        """
        if self._logical is None:
            lines = self.text.lexed.lines
            # Each line's opened minus closed brackets, counted at C speed (map, no frames)
            # on the file's brackets alone: its UTF-8 bytes with every other byte but the
            # newlines deleted and each bracket folded to "(" or ")", so two counts a line.
            brackets = self.text.masked.encode("utf-8", "replace").translate(_FOLD, _OTHERS)
            pieces = brackets.split(b"\n")[: len(lines)]
            nets = list(map(sub, _counts(pieces, b"("), _counts(pieces, b")")))
            depths = list(accumulate(nets))
            if depths and min(depths) < 0:  # more closed than opened somewhere: clamp at 0
                depth = 0
                for i, net in enumerate(nets):
                    depths[i] = depth = max(0, depth + net)
            # A line continues the one before when brackets are open or it ends with "\\",
            # and one opening inside a string continues too: flags combined a line at a
            # time by ``map`` (no Python frame per line).
            ends_open = map(or_, depths, map(str.endswith, lines, repeat("\\")))
            continued = map(or_, self.string_continued(), chain((False,), ends_open))
            self._logical = list(map(not_, continued))
        return self._logical

    def statement_first(self, line: int) -> int:
        """First line (1-based) of the statement holding ``line``: the line of a CMake command
        whose arguments run on over the lines below it."""
        if self._firsts is None:
            # Each line's own index where it starts a statement (0 where it continues one),
            # carried down by a running maximum: at C speed, no Python frame per line.
            self._firsts = list(
                accumulate(map(mul, range(1, self.text.nlines + 1), self.logical_starts()), max)
            )
        return self._firsts[line - 1] or 1  # 0: a first line inside a string literal

    def blocks(self) -> tuple[dict[int, int], list[int]]:
        """(def line -> last line of its body, innermost def holding each line)."""
        if self._blocks is None:
            self._blocks = self._scan_blocks()
        return self._blocks

    def block_end(self, def_line: int) -> int:
        """``blocks()[0].get(def_line, def_line)``: the last line of the body of the def on
        ``def_line``, that line itself when it opens no block.

        Measured for this def alone, from its line to the next statement indented no
        deeper (found by a regex at C speed): a file's decorated defs are a few of its
        blocks, and ``blocks`` reads every def and statement line. Past a file's worth of
        lines walked (nested defs walk their outer bodies again) ``blocks`` takes over.
        """
        if self._blocks is not None or self._walked > _WALK_SHARE * self.text.nlines:
            return self.blocks()[0].get(def_line, def_line)
        lines, code = self.text.lexed.lines, self.text.lexed.code
        logical, at = self.logical_starts(), def_line - 1
        text = lines[at]
        # What makes ``_scan_blocks`` open a block: a statement's first line, code, a def.
        if not (code[at] and logical[at] and PY_DEF.match(text)):
            return def_line
        indent = len(text) - len(text.lstrip())
        starts = self.text.lexed.line_starts  # one past the last line's too
        # From the newline ending the def line (none past the last line).
        dedented = _dedented(min(indent, _DEEP))
        for m in dedented.finditer(self.text.masked, starts[def_line] - 1):
            line = bisect_right(starts, m.start())  # 0-based, the line after the newline
            if len(m.group(1)) <= indent and code[line] and logical[line]:
                closes = len(m.group(1)) == indent and _BLOCK_END.match(lines[line])
                end = line + 1 if closes else self.last_code(line)
                break
        else:  # no statement closes it
            end = self.last_code(len(lines))
        self._walked += end - def_line + _DEF_COST
        return end

    def last_code(self, line: int) -> int:
        """The last line holding code up to ``line`` (1-based) included."""
        code = self.text.lexed.code
        while not code[line - 1]:
            line -= 1
        return line

    def _scan_blocks(self) -> tuple[dict[int, int], list[int]]:
        """Reads only the lines that start a statement and hold code (the only ones that
        open or close a block), and outside every def only the def lines. A line holding
        code is in the innermost def open at the last such line: filled in by slices where
        the stack changes, not line by line."""
        lines, code, n = self.text.lexed.lines, self.text.lexed.code, self.text.nlines
        # A def line holds one of PY_DEF's words: lines found by str.find, then matched (a
        # multi-line regex over the file would try every offset: slower than both).
        candidates = _lines_holding(self.text.masked, self.text.starts, ("def", "fn", "function"))
        defs = [i for i in sorted(candidates) if PY_DEF.match(lines[i])]
        def_lines = set(defs)
        heads = list(compress(range(n), map(and_, code, self.logical_starts())))
        ends: dict[int, int] = {}
        innermost = [0] * n  # the innermost def open at each line (code or not)
        stack: list[tuple[int, int]] = []  # (indent, def line)
        filled = 0  # innermost[:filled] is final; the lines from there on have the stack's top
        at = 0
        while at < len(heads):
            i = heads[at]
            at += 1
            if not stack and i not in def_lines:  # outside every def: on to the next def
                after = bisect_right(defs, i)
                if after == len(defs):
                    break
                at = bisect_left(heads, defs[after], at)
                continue
            text = lines[i]
            indent = len(text) - len(text.lstrip())
            if stack and indent <= stack[-1][0]:
                innermost[filled:i] = [stack[-1][1]] * (i - filled)
                filled = i
                last_code = self.last_code(i)  # before this line (the def line at the latest)
                while stack and indent <= stack[-1][0]:
                    closes = indent == stack[-1][0] and _BLOCK_END.match(text) is not None
                    ends[stack.pop()[1]] = i + 1 if closes else last_code
            if i in def_lines:
                if stack:
                    innermost[filled:i] = [stack[-1][1]] * (i - filled)
                filled = i
                stack.append((indent, i + 1))
        if stack:
            innermost[filled:] = [stack[-1][1]] * (n - filled)
            last_code = self.last_code(n)
            for _, def_line in stack:
                ends[def_line] = last_code
        # Lines without code are in no def.
        return ends, list(map(mul, innermost, code))

    def statement_last(self, line: int) -> int:
        """Last line of the statement beginning at ``line``: where the brackets opened from
        there close, past lines inside a string literal or after a trailing backslash."""
        lines, n = self.text.lexed.lines, self.text.nlines
        in_string = self._in_string or self.string_continued()
        # Most statements are one line whose brackets close on it: settled before any loop
        # (lines without an opening bracket, the most common, by three ``in`` tests).
        text = lines[line - 1]
        closes = ("(" not in text and "[" not in text and "{" not in text) or _net(text) <= 0
        if closes and not text.endswith("\\") and (line == n or not in_string[line]):
            return line
        depth = 0
        for j in range(line, min(line + _STATEMENT_LINES, n + 1)):
            text = lines[j - 1]
            depth += _net(text)
            if depth <= 0 and not text.endswith("\\") and (j == n or not in_string[j]):
                return j
        return min(line + _STATEMENT_LINES - 1, n)

    def string_continued(self) -> list[bool]:
        """flags[i]: line i + 1 opens inside a multi-line string literal."""
        if self._in_string is None:
            flags = [False] * self.text.nlines
            text, strings = self.text.lexed.text, self.text.lexed.strings
            # Most literals sit on one line: those holding a newline are picked out first,
            # at C speed (``map``, no Python frame per literal).
            newlines = map(text.find, repeat("\n"), map(_START, strings), map(_END, strings))
            for s, e in compress(strings, map((-1).__lt__, newlines)):
                first, last = self.text.span(s, e)
                flags[first:last] = [True] * (last - first)
            self._in_string = flags
        return self._in_string


@cache
def _dedented(indent: int) -> re.Pattern[str]:
    """A newline, then a line indented (group 1) by ``indent`` characters or fewer (any
    number from ``_DEEP`` on), up to its first non-blank one: one that may close a block
    opened at ``indent`` (``str.lstrip``'s blanks are ``\\s``'s). Led by the newline, not
    ``^``: the regex engine then skips to each newline at C speed instead of trying ``^``
    at every offset."""
    most = "" if indent >= _DEEP else indent
    return re.compile(rf"\n([^\S\n]{{0,{most}}})\S")


def _lines_holding(text: str, starts: list[int], words: tuple[str, ...]) -> set[int]:
    """The lines (0-based) of ``text`` holding one of ``words``: one ``str.find`` a line at
    most per word, where a regex would try every offset."""
    found: set[int] = set()
    for word in words:
        at = text.find(word)
        while at >= 0:
            line = bisect_right(starts, at)
            found.add(line - 1)
            if line == len(starts):
                break
            at = text.find(word, starts[line])
    return found


def _net(text: str) -> int:
    """Brackets ``text`` opens minus those it closes."""
    return (
        text.count("(")
        + text.count("[")
        + text.count("{")
        - text.count(")")
        - text.count("]")
        - text.count("}")
    )


def _counts(pieces: list[bytes], char: bytes) -> Iterator[int]:
    """The count of ``char`` in every piece at once, by ``map`` (no Python frame per line)."""
    return map(bytes.count, pieces, repeat(char))
