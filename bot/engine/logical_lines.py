"""Logical lines of a file: which physical lines continue a statement (open brackets, a
multi-line string, a trailing backslash), where a statement ends, and the ``def`` blocks of
indented languages."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from itertools import accumulate, compress, repeat
from operator import and_, mul, not_, or_, sub

from bot.engine.source_text import SourceText

# Julia's `function name(` (after macros such as @kernel) opens a block too; its closing
# `end` sits at the opener's indentation and belongs to it (``LogicalLines._scan_blocks``).
PY_DEF = re.compile(
    r"[ \t]*(?:async[ \t]+)?(?:def|fn)\b"
    r"|[ \t]*(?:@\w+[^\n]*?[ \t])?function[ \t]+(?:[\w.!]+[ \t]*)?[({]"
)
# ``logical_starts`` reads a file's brackets as bytes: each folded to "(" or ")", and every
# other byte but the newline deleted.
_FOLD = bytes.maketrans(b"[{]}", b"(())")
_OTHERS = bytes(set(range(256)) - set(b"()[]{}\n"))
_BLOCK_END = re.compile(r"[ \t]*end[ \t]*$")
_STATEMENT_LINES = 1000  # lines one statement may span


class LogicalLines:
    """Statement starts and ends and indented blocks of a file, each found once."""

    __slots__ = ("_blocks", "_in_string", "_logical", "text")

    def __init__(self, text: SourceText) -> None:
        self.text = text
        self._blocks: tuple[dict[int, int], list[int]] | None = None
        self._logical: list[bool] | None = None
        self._in_string: list[bool] | None = None

    def logical_starts(self) -> list[bool]:
        """starts[i]: line i + 1 begins a statement (it does not continue the line before).

        A line continues its predecessor when it opens inside a multi-line string literal,
        inside brackets left open (counted per line on the masked code, so brackets in
        strings and comments do not count) or after a trailing backslash.
        """
        if self._logical is None:
            lines = self.text.lexed.lines
            starts = list(map(not_, self.string_continued()))
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
            # A line continues the one before when brackets are open or it ends with "\\".
            ends_open = map(or_, depths, map(str.endswith, lines, repeat("\\")))
            for i in compress(range(1, len(lines)), ends_open):
                starts[i] = False
            self._logical = starts
        return self._logical

    def blocks(self) -> tuple[dict[int, int], list[int]]:
        """(def line -> last line of its body, innermost def holding each line)."""
        if self._blocks is None:
            self._blocks = self._scan_blocks()
        return self._blocks

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
                last_code = i  # the code line before this one (the def line at the latest)
                while not code[last_code - 1]:
                    last_code -= 1
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
            last_code = n
            while not code[last_code - 1]:
                last_code -= 1
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
            text = self.text.lexed.text
            for s, e in self.text.lexed.strings:
                if text.find("\n", s, e) >= 0:  # most literals sit on one line
                    first, last = self.text.span(s, e)
                    flags[first:last] = [True] * (last - first)
            self._in_string = flags
        return self._in_string


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
