"""A lexed file's text as region kinds read it: the masked code, its line index, and the
windows of lines holding a rule's keywords that its pattern runs in."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from functools import cache
from itertools import accumulate, repeat

from bot.engine import literals
from bot.engine.lexer import Lexed

Span = tuple[int, int]
Keywords = tuple[str, ...]
_NEXT = (1).__add__
_PREVIOUS = (-1).__add__
# Windows longer than this are searched only when they hold one of the literals every match
# of the pattern needs (``literals.anchors``): a file dense with keywords is one window, in
# which a pattern that ``re`` tries at every offset (``\b\w+(?:\.|->)is_cuda``) crawls.
_ANCHORED_WINDOW = 200
# Many small windows: where the anchors stand is found once, by one ``str.find`` pass over the
# windows' stretch per anchor (about 4,000 characters in the time of one regex search of a
# window), and only the windows holding one are searched.
_WINDOW_COST = 4000
_SAMPLE = 8  # windows read first for an anchor


def offsets(text: str, chars: str) -> list[int]:
    """The offsets of every one of ``chars`` in ``text``, in order: from the lengths of the
    pieces each splits ``text`` into, at C speed, where a regex of the characters would try
    every offset in Python's regex engine (three times as slow on a C file's braces)."""
    if len(chars) > 2 and text.isascii():
        # Each of ``chars`` made the first in the text's bytes (where offsets are character
        # offsets): one split gives them all in order, with no merge of one list a char.
        # A third cheaper for a Python file's six brackets; for two characters, a pass over
        # every byte costs more than the two splits it saves.
        pieces = text.encode("ascii").translate(_folding(chars)).split(chars[:1].encode())
        return _piece_ends(pieces)
    found: list[int] = []
    for char in chars:
        found += _piece_ends(text.split(char))
    if len(chars) > 1:
        found.sort()  # sorted runs, merged
    return found


def _piece_ends(pieces: list[str] | list[bytes]) -> list[int]:
    """The offsets of the separators ``pieces`` were split at: the running total of each
    piece's length and its separator's, less one (none after the last piece)."""
    pieces.pop()
    return list(map(_PREVIOUS, accumulate(map(_NEXT, map(len, pieces)))))


@cache
def _folding(chars: str) -> bytes:
    """A bytes.translate table mapping each of ``chars`` (ASCII) to the first."""
    return bytes.maketrans(chars.encode(), chars[:1].encode() * len(chars))


class SourceText:
    """A lexed file, its lines and how its language reads (built lazily once)."""

    __slots__ = (
        "_keyword_lines",
        "_next",
        "_windows",
        "family",
        "lexed",
        "line_statements",
        "lookahead_lines",
        "masked",
        "occurrences",
        "preprocessor",
        "present",
        "program_requires",
        "starts",
    )

    def __init__(
        self,
        lexed: Lexed,
        nesting: str,
        occurrences: dict[str, list[int]],
        preprocessor: bool = True,
        line_statements: bool = False,
        present: dict[str, bool] | None = None,
    ) -> None:
        self.lexed = lexed
        # Literal -> whether the masked code holds it (``literals.search``'s memo).
        self.present = {} if present is None else present
        self.preprocessor = preprocessor  # '#' lines are directives (C), not attributes (Rust)
        # Swift, Go, JavaScript: a statement ends with its line unless brackets stay open.
        self.line_statements = line_statements
        self.occurrences = occurrences  # keyword -> its offsets in the masked code
        self.masked = lexed.masked
        self.family = nesting
        # The first offset of each line but a line after the text's last newline: an
        # offset past the last line still falls in it, with no clamping per lookup.
        self.starts = lexed.line_starts[: len(lexed.lines)] or [0]
        self._next: dict[re.Pattern[str], tuple[int, re.Match[str] | None]] = {}
        self._keyword_lines: dict[str, list[int]] = {}
        self._windows: dict[Keywords, list[tuple[int, int]]] = {}
        # Lines after a window the running rule's pattern may read, in a lookahead only
        # (``RuleSpec.lookahead_lines``, set by classify before each rule's kind runs).
        self.lookahead_lines = 0
        # What a string kind's program must hold (``RuleSpec.program_requires``, likewise).
        self.program_requires: re.Pattern[str] | None = None

    @property
    def nlines(self) -> int:
        return len(self.lexed.lines)

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset)

    def span(self, start: int, end: int) -> Span:
        """Lines of the characters [start, end)."""
        starts = self.starts
        return bisect_right(starts, start), bisect_right(starts, end - 1 if end > start else start)

    def finditer(self, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[re.Match[str]]:
        """Matches of ``pattern`` in the masked code, tried only on lines holding a keyword.

        A rule's pattern must match within the line(s) holding one of its keywords; running
        it there instead of over the whole file keeps a file with many rules linear and fast.
        Adjacent keyword lines form one window. A file may hold thousands of windows, most
        without a match: each is searched with ``search`` (one call when nothing is there)
        rather than a ``finditer`` iterator of its own. Alternatives the engine cannot skip
        to are left out when the file lacks what they need (``literals.skippable``).
        """
        masked = self.masked
        pattern = literals.skippable(pattern, masked, self.present)
        if not keywords:
            yield from pattern.finditer(masked)
            return
        search, needed, find = pattern.search, literals.anchors(pattern), masked.find
        windows = self.windows(keywords)
        if self.lookahead_lines:
            windows = self._read_on(windows, self.lookahead_lines)
        # A few windows are each searched, or skipped by the ``find`` below when long, at
        # less cost than ``_holding`` (a small file's keyword lines are one or two windows).
        if (
            needed is not None
            and len(windows) > _SAMPLE
            and len(windows) * _WINDOW_COST > len(masked) * len(needed)
        ):
            windows = self._holding(windows, needed)
        for start, end in windows:
            if (
                needed is not None
                and end - start > _ANCHORED_WINDOW
                and all(find(literal, start, end) < 0 for literal in needed)
            ):
                continue
            m = search(masked, start, end)
            while m is not None:
                if m.start() == m.end():  # finditer knows how to step past an empty match
                    yield from pattern.finditer(masked, m.start(), end)
                    break
                yield m
                m = search(masked, m.end(), end)

    def _read_on(self, windows: list[tuple[int, int]], lines: int) -> list[tuple[int, int]]:
        """``windows`` each reaching ``lines`` lines of code further, for a pattern whose
        lookahead reads what follows its keyword line (a body opening on the next line).
        Blank lines, and comment lines (blank in the masked text), are read past without
        counting: a comment between the two lines must not change what matches. Adjacent
        keyword lines share a window, so the lines added hold no keyword and no match can
        start there: a match still lies on a keyword line. Each blank run is read past once,
        by the window above it."""
        masked, size = self.masked, len(self.masked)
        read: list[tuple[int, int]] = []
        for start, end in windows:
            left = lines
            while left and end < size:
                newline = masked.find("\n", end + 1)
                line_end = size if newline < 0 else newline
                if masked[end + 1 : line_end].strip():
                    left -= 1
                end = line_end
            read.append((start, end))
        return read

    def _holding(
        self, windows: list[tuple[int, int]], needed: tuple[str, ...]
    ) -> list[tuple[int, int]]:
        """Those of ``windows`` in which one of the literals ``needed`` starts (all of them
        when the first windows hold one, or the literals occur in more than half as many
        places as there are windows)."""
        masked, first, last = self.masked, windows[0][0], windows[-1][1]
        find = masked.find
        # An anchor in the first windows (``USE_CUDA`` of a build guard) is likely in most:
        # nothing to skip, and a pass over the file per anchor is not paid. Else counted at
        # C speed before its places are collected one by one.
        if any(
            find(literal, start, end) >= 0 for start, end in windows[:_SAMPLE] for literal in needed
        ):
            return windows
        if sum(masked.count(literal, first, last) for literal in needed) > len(windows) // 2:
            return windows
        found: list[int] = []
        for literal in needed:
            at = find(literal, first, last)
            while at >= 0:
                found.append(at)
                at = find(literal, at + 1, last)
        if not found:  # the usual case here: no window to keep, none to look through
            return []
        found.sort()
        return [
            (start, end)
            for start, end in windows
            if (at := bisect_left(found, start)) < len(found) and found[at] < end
        ]

    def windows(self, keywords: Keywords) -> list[tuple[int, int]]:
        """[start, end) offsets of the runs of adjacent lines holding one of ``keywords``
        (rules sharing their keywords, like the ROCm guards, ask once)."""
        found = self._windows.get(keywords)
        if found is not None:
            return found
        # Most of a rule's keywords do not occur in a file that holds one of them: only
        # those that do cost a line lookup (a file asks for thousands of keywords), and
        # rules whose keywords found are the same share their windows.
        occurring = tuple(filter(self.occurrences.__contains__, keywords))
        found = self._windows.get(occurring)
        if found is not None:
            self._windows[keywords] = found
            return found
        found = self._windows[keywords] = self._windows[occurring] = []
        if not occurring:
            return found
        if len(occurring) == 1:
            lines = self.keyword_lines(occurring[0])
        else:
            lines = sorted(set().union(*map(self.keyword_lines, occurring)))
        # starts[i] is where line i + 1 starts; a window ends at its last line's newline
        # (only the last line may have none).
        starts = self.lexed.line_starts
        first = previous = lines[0]
        for line in lines[1:]:
            if line != previous + 1:
                found.append((starts[first - 1], starts[previous] - 1))
                first = line
            previous = line
        found.append((starts[first - 1], min(starts[previous] - 1, len(self.masked))))
        return found

    def keyword_lines(self, keyword: str) -> list[int]:
        """The lines holding ``keyword``, in order, each once (rules sharing a keyword ask
        once)."""
        found = self._keyword_lines.get(keyword)
        if found is None:
            offsets = self.occurrences.get(keyword, ())
            if len(offsets) == 1:  # most keywords a file holds, at a tenth of the cost
                found = [bisect_right(self.starts, offsets[0])]
            else:
                # Offsets come in order, so their lines do too: dict.fromkeys drops repeats.
                found = list(
                    dict.fromkeys(map(bisect_right, repeat(self.starts, len(offsets)), offsets))
                )
            self._keyword_lines[keyword] = found
        return found

    def next_match(self, pattern: re.Pattern[str], pos: int) -> re.Match[str] | None:
        """``pattern.search(masked, pos)``, remembered: region kinds search in increasing
        offsets, so one search that found nothing, or a match further on, answers the next."""
        cached = self._next.get(pattern)
        if (
            cached is not None
            and cached[0] <= pos
            and (cached[1] is None or pos <= cached[1].start())
        ):
            return cached[1]
        found = pattern.search(self.masked, pos)
        self._next[pattern] = (pos, found)
        return found
