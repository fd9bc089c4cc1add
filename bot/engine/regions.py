"""Region machinery: from a rule's pattern match to the whole span of lines it owns.

A rule names one region kind (``KINDS``); the kind turns each match of the rule's pattern in
the masked code into a ``(first_line, last_line)`` span, 1-based and inclusive:

``line``                  the lines of the match itself
``statement``             the statement holding the match (C: from its start up to ``;``,
                          ``{`` or ``}``; Python and build files: from the match's line until
                          the brackets opened there close)
``c-function``            a declaration from its start (``template<...>`` included) to its
                          ``;`` or to the closing brace of its body
``c-macro-function``      every function declared with the macro a matched ``#define``
                          names in group 1 (``#define HD __host__ __device__``), and the define
``c-block-statement``     a statement from its start to the closing brace of the first block
                          after the match (a lambda body handed to ``parallel_for``)
``c-enclosing-function``  the innermost function or lambda whose body holds the match, from
                          its declaration's start to its closing brace, whatever decorates it
                          (else the match's statement): device code found by what it does
``preprocessor-block``    the ``#if``/``#elif`` branch whose condition matched, nesting aware
``preprocessor-else``     the ``#else`` branch of the ``#if`` whose condition matched
``python-def``            a decorated ``def`` (decorators from the match, signature, body)
``python-enclosing-def``  the innermost ``def``/``fn`` holding the match (else its statement)
``string-literal``        a string literal whose body matches the pattern
``device-string``         a string-literal naming a device, unless it sits in a collection
                          naming the device kinds of several vendors (dispatch code)
``call-argument-string``  the string literals inside the call (or ``name=`` value) the
                          pattern opens, and string constants assigned to names used there
``file``                  every line of the file (when the pattern, if any, matches)

Structures a kind needs (brace pairs, preprocessor branches, Python blocks) are computed once
per file, on first use, so each kind costs linear time whatever the number of matches.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate, compress, repeat
from operator import add, or_, sub

from bot.engine.lexer import Lexed

Span = tuple[int, int]
Keywords = tuple[str, ...]
# Per #if/#elif/#else/#endif of a file: start, end, word, innermost open group's #if offset
# after it, its current branch's directive number, and where that branch ends (numbers).
_DirectiveStates = tuple[list[int], list[int], list[str], list[int], list[int], list[int]]

_C_STMT_END = re.compile(r"[;{}]")
_C_DECL_END = re.compile(r"[;{]")
_OPEN_BRACE = re.compile(r"\{")
_BRACES = re.compile(r"[{}]")
# Lines that end a C statement without a semicolon: directives and access labels.
_C_BARRIER = re.compile(r"^[ \t]*(?:\#.*|(?:public|private|protected)[ \t]*:)$", re.M)
_NON_SPACE = re.compile(r"\S")
_BRACKET = re.compile(r"[][(){}]")
_OPENERS = "([{"
# A directive from its '#' to the end of the lines its trailing backslashes continue it over.
# It opens with a literal, so re finds candidates at memchr speed; ``directives`` keeps those
# with only blanks before them on a line that does not continue the one above. Each
# repetition ends at a newline, so it never backtracks over more than a line.
_DIRECTIVE = re.compile(r"\#(?:[^\n]*\\\n)*[^\n]*")
_PP = re.compile(r"^[ \t]*\#[ \t]*(ifdef|ifndef|if|elif|else|endif)\b", re.M)
_PY_DEF = re.compile(r"[ \t]*(?:async[ \t]+)?(?:def|fn)\b")
_PY_DECORATOR = re.compile(r"[ \t]*@")
_NAME = re.compile(r"\b[A-Za-z_]\w*\b")
_WORD = re.compile(r"\w+")
# An assignment up to its value: blanks, newlines and parentheses before it are skipped.
_ASSIGN = re.compile(r"^[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t\n(]*", re.M)
_STATEMENT_WINDOW = 4000  # how far back a C statement start is searched
_CALL_TOKENS = re.compile(r"[()\[\]{}]")
_VALUE_TOKENS = re.compile(r"[()\[\]{},]")
_MACRO_LINES = 500  # lines one #define may continue over
_DECORATOR_LINES = 200  # how far a decorator may sit above its def
_ARGUMENT_SCAN = 2000  # bracket tokens scanned for one call's arguments before giving up
_STATEMENT_LINES = 1000  # lines one statement may span
_ADJACENT_GAP = 200  # blanks between two literals that still join them
_HEADER_WINDOW = 2000  # how far back a function header's parameter list is searched
_BRANCH_DIRECTIVES = 200  # directives read around a match to find its branch in a function
_WORD_START = re.compile(r"\w+")
# What may stand between a parameter list's ")" and the body's "{": qualifiers, a trailing
# return type, attributes and macros (noexcept, const, -> std::size_t, AMREX_GPU_DEVICE).
_QUALIFIERS = re.compile(r"[\s\w:<>,&*\[\]\->.]*")
_CONTROL_WORDS = frozenset(
    {"if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "defined", "elif"}
)


class Source:
    """A lexed file plus the structures region kinds share, built lazily once."""

    __slots__ = (
        "_blocks",
        "_bodies",
        "_braces",
        "_branch_ends",
        "_branches",
        "_collections",
        "_device_kinds",
        "_directive_lines",
        "_directives",
        "_functions",
        "_in_string",
        "_innermost_branch",
        "_keyword_lines",
        "_logical",
        "_next",
        "_pairs",
        "_states",
        "_string_starts",
        "_sweep_at",
        "_sweep_stack",
        "_windows",
        "family",
        "lexed",
        "line_statements",
        "masked",
        "occurrences",
        "preprocessor",
        "starts",
    )

    def __init__(
        self,
        lexed: Lexed,
        nesting: str,
        occurrences: dict[str, list[int]],
        preprocessor: bool = True,
        line_statements: bool = False,
    ) -> None:
        self.lexed = lexed
        self.preprocessor = preprocessor  # '#' lines are directives (C), not attributes (Rust)
        # Swift, Go, JavaScript: a statement ends with its line unless brackets stay open.
        self.line_statements = line_statements
        self.occurrences = occurrences  # keyword -> its offsets in the masked code
        self.masked = lexed.masked
        self.family = nesting
        # The first offset of each line but a line after the text's last newline: an
        # offset past the last line still falls in it, with no clamping per lookup.
        self.starts = lexed.line_starts[: len(lexed.lines)] or [0]
        self._pairs: dict[int, int] | None = None
        self._braces: list[int] = []  # offsets of every brace, in order (with the pairs)
        self._branch_ends: dict[int, int | None] = {}  # branch directive -> its last line
        self._states: _DirectiveStates | None = None
        self._sweep_at = 0  # ``nearest_function``'s place in the braces, and its open ones
        self._sweep_stack: list[int] = []
        self._branches: dict[int, tuple[list[tuple[int, str]], int, int]] | None = None
        self._blocks: tuple[dict[int, int], list[int]] | None = None
        self._logical: list[bool] | None = None
        self._next: dict[re.Pattern[str], tuple[int, re.Match[str] | None]] = {}
        self._in_string: list[bool] | None = None
        self._directives: tuple[list[int], list[int]] | None = None
        self._directive_lines: dict[int, Span] = {}  # directive index -> its lines
        self._string_starts: list[int] | None = None
        self._collections: tuple[list[int], dict[int, int]] | None = None
        self._bodies: dict[int, str] = {}  # string literal index -> its body
        self._device_kinds: tuple[list[int], list[str], list[int]] | None = None
        self._keyword_lines: dict[str, set[int]] = {}
        self._windows: dict[Keywords, list[tuple[int, int]]] = {}
        self._functions: dict[int, int] = {}  # open brace -> its nearest function body's, or -1

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
        rather than a ``finditer`` iterator of its own.
        """
        masked = self.masked
        if not keywords:
            yield from pattern.finditer(masked)
            return
        search = pattern.search
        for start, end in self.windows(keywords):
            m = search(masked, start, end)
            while m is not None:
                if m.start() == m.end():  # finditer knows how to step past an empty match
                    yield from pattern.finditer(masked, m.start(), end)
                    break
                yield m
                m = search(masked, m.end(), end)

    def windows(self, keywords: Keywords) -> list[tuple[int, int]]:
        """[start, end) offsets of the runs of adjacent lines holding one of ``keywords``
        (rules sharing their keywords, like the ROCm guards, ask once)."""
        found = self._windows.get(keywords)
        if found is not None:
            return found
        found = self._windows[keywords] = []
        lines = sorted(set().union(*map(self.keyword_lines, keywords)))
        if not lines:
            return found
        # starts[i] is where line i + 1 starts; a window ends at its last line's newline.
        starts, size = self.lexed.line_starts, len(self.masked)
        first = previous = lines[0]
        for line in lines[1:]:
            if line != previous + 1:
                found.append((starts[first - 1], min(starts[previous] - 1, size)))
                first = line
            previous = line
        found.append((starts[first - 1], min(starts[previous] - 1, size)))
        return found

    def keyword_lines(self, keyword: str) -> set[int]:
        """The lines holding ``keyword`` (rules sharing a keyword ask once)."""
        found = self._keyword_lines.get(keyword)
        if found is None:
            offsets = self.occurrences.get(keyword, ())
            found = self._keyword_lines[keyword] = set(
                map(bisect_right, repeat(self.starts, len(offsets)), offsets)
            )
        return found

    # -- C-like structure -------------------------------------------------------------

    def brace_pairs(self) -> dict[int, int]:
        if self._pairs is None:
            pairs: dict[int, int] = {}
            stack: list[int] = []
            masked = self.masked
            self._braces = braces = [m.start() for m in _BRACES.finditer(masked)]
            for at in braces:
                if masked[at] == "{":
                    stack.append(at)
                elif stack:
                    pairs[stack.pop()] = at
            self._pairs = pairs
        return self._pairs

    def c_statement_start(self, pos: int) -> int:
        """Offset where the C statement holding ``pos`` starts: after the previous ``;``,
        ``{`` or ``}`` and after any preprocessor line or access label in between."""
        masked = self.masked
        lo = pos - _STATEMENT_WINDOW - 1 if pos > _STATEMENT_WINDOW else -1
        # The nearest end found bounds the search for the others (unrolled: this runs once
        # per match of every C statement rule).
        cut = masked.rfind(";", lo + 1, pos)
        if cut < lo:
            cut = lo
        found = masked.rfind("{", cut + 1, pos)
        if found > cut:
            cut = found
        found = masked.rfind("}", cut + 1, pos)
        if found > cut:
            cut = found
        if cut == lo and lo >= 0:  # no statement end in the window: start at the line
            return masked.rfind("\n", 0, pos) + 1
        begin = cut + 1
        if self.preprocessor and (
            masked.find("#", begin, pos) >= 0 or masked.find(":", begin, pos) >= 0
        ):
            for barrier in _C_BARRIER.finditer(masked, begin, pos):
                begin = max(begin, barrier.end())
        first = _NON_SPACE.search(masked, begin, pos + 1)
        return first.start() if first else pos

    def directive_span(self, pos: int) -> Span | None:
        """The lines of the preprocessor directive holding ``pos``, ``\\`` continuations
        included (a match inside a multi-line #define belongs to the macro), at most
        ``_MACRO_LINES`` lines after the directive's first."""
        if not self.preprocessor:
            return None
        if self._directives is None:
            self._directives = self._find_directives()
        starts, ends = self._directives
        # Directives do not overlap and come in order: the last one starting at or before
        # ``pos`` is the only one that may hold it (one bisection, whatever the macro's size).
        at = bisect_right(starts, pos) - 1
        if at < 0 or pos > ends[at]:
            return None
        lines = self._directive_lines.get(at)
        if lines is None:  # once per directive, not per match inside it
            first, last = self.span(starts[at], ends[at])
            lines = self._directive_lines[at] = (first, min(last, first + _MACRO_LINES))
        if lines[1] - lines[0] < _MACRO_LINES:  # not cut short: it holds all of ``pos``'s lines
            return lines
        return lines if self.line_of(pos) <= lines[1] else None

    def _find_directives(self) -> tuple[list[int], list[int]]:
        """[start, end) offsets of every directive, from its line's start."""
        masked = self.masked
        starts: list[int] = []
        ends: list[int] = []
        pos = 0
        while m := _DIRECTIVE.search(masked, pos):
            start = masked.rfind("\n", 0, m.start()) + 1
            if (
                masked[start : m.start()].strip(" \t")
                or masked[max(0, start - 2) : start] == "\\\n"
            ):
                # A '#' inside a line, or on a line continuing another: no directive starts
                # on this line (skipping it keeps a line of many '#' linear).
                end = masked.find("\n", m.start())
                if end < 0:
                    break
                pos = end + 1
                continue
            starts.append(start)
            ends.append(m.end())
            pos = m.end()
        return starts, ends

    def block_end(self, open_brace: int) -> int:
        """Offset of the brace closing ``open_brace`` (end of file when unbalanced)."""
        return self.brace_pairs().get(open_brace, len(self.masked) - 1)

    def is_function_body(self, open_brace: int) -> bool:
        """Whether the block opening at ``open_brace`` is a function's or a lambda's body.

        Its header ends in a parameter list: a ``)`` after the previous ``;``, ``{`` or ``}``,
        followed only by qualifiers (``const``, ``noexcept``, ``-> T``, macros), whose ``(``
        follows a name or a lambda's ``]`` that is no control keyword (``if``, ``for``,
        ``while``, ``switch``, ``catch``). Class, namespace, ``else``/``do``/``try`` and
        initializer blocks have no such list. Bounded by ``_HEADER_WINDOW`` characters.
        """
        masked = self.masked
        lo = open_brace - _HEADER_WINDOW if open_brace > _HEADER_WINDOW else 0
        cut = max(
            lo - 1,
            masked.rfind(";", lo, open_brace),
            masked.rfind("{", lo, open_brace),
            masked.rfind("}", lo, open_brace),
        )
        close = masked.rfind(")", cut + 1, open_brace)
        if close < 0 or not _QUALIFIERS.fullmatch(masked, close + 1, open_brace):
            return False
        # The ``(`` matching ``close``, searched backward (a ``for`` header holds ``;``): one
        # ``rfind`` pair per bracket passed, most headers need one or two.
        depth, at = 1, close
        while depth:
            opening = masked.rfind("(", lo, at)
            closing = masked.rfind(")", lo, at)
            if opening < 0:
                return False
            if closing > opening:
                depth += 1
                at = closing
            else:
                depth -= 1
                at = opening
        before = _name_before(masked[max(lo, at - 64) : at])
        return before is not None and before not in _CONTROL_WORDS

    def nearest_function(self, pos: int) -> tuple[int, int]:
        """The open brace of the innermost function or lambda body holding ``pos``, or -1,
        and the brace closing it. Offsets must come in increasing order: one sweep over the
        file's braces serves every call."""
        masked, functions = self.masked, self._functions
        pairs = self.brace_pairs()
        braces, stack = self._braces, self._sweep_stack
        k, count = self._sweep_at, len(braces)
        while k < count and braces[k] < pos:
            if masked[braces[k]] == "{":
                stack.append(braces[k])
            elif stack:
                stack.pop()
            k += 1
        self._sweep_at = k
        # Down the stack to the first brace whose answer is known or that is a body; every
        # brace walked past shares that answer (each is decided once per file).
        walked: list[int] = []
        found = -1
        for brace in reversed(stack):
            known = functions.get(brace)
            if known is not None:
                found = known
                break
            walked.append(brace)
            if self.is_function_body(brace):
                found = brace
                break
        for brace in walked:
            functions[brace] = found
        return found, pairs.get(found, len(masked) - 1) if found >= 0 else -1

    def branch_in(self, lo: int, pos: int, hi: int) -> Span | None:
        """The lines of the innermost ``#if``/``#elif``/``#else`` branch holding ``pos`` that
        opens and closes between offsets ``lo`` and ``hi`` (a function's body), if any.

        Read from the file's directives, parsed once (``_directive_states``): the branches
        opened after ``lo`` and still open at ``pos`` are the top of the file's stack of open
        groups there, so the innermost is the top when its group opened after ``lo``. It ends
        at its group's next directive, if that comes before ``hi`` and at most
        ``_BRANCH_DIRECTIVES`` directives after ``pos``. One bisection a match, whatever the
        number of branches a body holds.
        """
        if self._states is None:
            self._states = self._directive_states()
        starts, ends, _, groups, branches, nexts = self._states
        at = bisect_left(starts, pos) - 1
        if at >= 0 and ends[at] > pos:  # a directive running over ``pos`` is not before it
            at -= 1
        if at < 0 or groups[at] <= lo:
            return None
        opened = branches[at]
        if opened not in self._branch_ends:
            self._branch_ends[opened] = self._branch_end(pos, hi, nexts[at])
        end = self._branch_ends[opened]
        return None if end is None else (self.line_of(starts[opened]), end)

    def _branch_end(self, pos: int, hi: int, following: int) -> int | None:
        """Last line of the branch open at ``pos`` whose group's next directive is number
        ``following`` (-1: none): the line before it (``#endif`` itself included), if it
        comes before ``hi`` and is at most ``_BRANCH_DIRECTIVES`` directives on."""
        starts, ends, words, _, _, _ = self._states or self._directive_states()
        if following < 0 or ends[following] > hi:
            return None
        if following - bisect_left(starts, pos) >= _BRANCH_DIRECTIVES:
            return None
        line = self.line_of(starts[following])
        return line if words[following] == "endif" else line - 1

    def _directive_states(self) -> _DirectiveStates:
        """Every ``#if``/``#elif``/``#else``/``#endif`` of the file, parsed once: their start
        and end offsets, their words and, after each, the innermost open group's ``#if``
        offset (-1: none), the number of its current branch's directive, and the number of
        the directive that branch ends at (-1: none). An ``#else`` or ``#endif`` with no
        group open is ignored."""
        starts: list[int] = []
        ends: list[int] = []
        words: list[str] = []
        groups: list[int] = []
        branches: list[int] = []
        stack: list[list[int]] = []  # open groups: [its #if offset, current branch number]
        waiting: list[list[int]] = []  # per open group: directives whose branch it holds
        nexts: list[int] = []
        for number, m in enumerate(_PP.finditer(self.masked)):
            directive = m.group(1)
            starts.append(m.start())
            ends.append(m.end())
            words.append(directive)
            nexts.append(-1)
            if directive[0] == "i":
                stack.append([m.start(), number])
                waiting.append([])
            elif stack:
                for earlier in waiting[-1]:  # the open branch ends here
                    nexts[earlier] = number
                waiting[-1] = []
                if directive == "endif":
                    stack.pop()
                    waiting.pop()
                else:
                    stack[-1][1] = number
            if stack:
                groups.append(stack[-1][0])
                branches.append(stack[-1][1])
                waiting[-1].append(number)
            else:
                groups.append(-1)
                branches.append(-1)
        return starts, ends, words, groups, branches, nexts

    def pp_branches(self) -> dict[int, tuple[list[tuple[int, str]], int, int]]:
        """Directive line -> (its group's branches [(line, directive)], branch index, end)."""
        if self._branches is None:
            at: dict[int, tuple[list[tuple[int, str]], int, int]] = {}
            stack: list[list[tuple[int, str]]] = []
            groups: list[tuple[list[tuple[int, str]], int]] = []
            starts = self.starts
            for m in _PP.finditer(self.masked):
                directive, line = m.group(1), bisect_right(starts, m.start())
                if directive[0] == "i":  # if, ifdef, ifndef
                    stack.append([(line, directive)])
                elif directive in ("elif", "else"):
                    if stack:
                        stack[-1].append((line, directive))
                elif stack:
                    groups.append((stack.pop(), line))
            groups += [(branches, self.nlines) for branches in stack]  # unclosed: to the end
            for branches, end in groups:
                for index, (line, _) in enumerate(branches):
                    at[line] = (branches, index, end)
            self._branches = at
        return self._branches

    # -- Python-like structure --------------------------------------------------------

    def logical_starts(self) -> list[bool]:
        """starts[i]: line i + 1 begins a statement (it does not continue the line before).

        A line continues its predecessor when it opens inside a multi-line string literal,
        inside brackets left open (counted per line on the masked code, so brackets in
        strings and comments do not count) or after a trailing backslash.
        """
        if self._logical is None:
            lines = self.lexed.lines
            starts = [not flag for flag in self.string_continued()]
            # Each line's opened minus closed brackets, counted at C speed (map, no frames).
            opened = map(
                add, map(add, _counts(lines, "("), _counts(lines, "[")), _counts(lines, "{")
            )
            closed = map(
                add, map(add, _counts(lines, ")"), _counts(lines, "]")), _counts(lines, "}")
            )
            nets = list(map(sub, opened, closed))
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
        lines, code, n = self.lexed.lines, self.lexed.code, self.nlines
        starts = self.logical_starts()
        ends: dict[int, int] = {}
        enclosing = [0] * n
        stack: list[tuple[int, int]] = []  # (indent, def line)
        last_code = 0
        for i in range(n):
            if not code[i]:
                continue
            if starts[i]:
                text = lines[i]
                indent = len(text) - len(text.lstrip())
                while stack and indent <= stack[-1][0]:
                    ends[stack.pop()[1]] = last_code
                if _PY_DEF.match(text):
                    stack.append((indent, i + 1))
            enclosing[i] = stack[-1][1] if stack else 0
            last_code = i + 1
        for _, def_line in stack:
            ends[def_line] = last_code
        return ends, enclosing

    def argument_end(self, pos: int, value: bool) -> int:
        """Offset closing the call whose arguments start at ``pos`` or, for ``value``, ending
        the one argument value starting there (``name=<value>``, up to its comma).

        Commas only end a value, so a call's arguments are read bracket by bracket: the
        regex skips its commas at C speed, and ``_ARGUMENT_SCAN`` bounds the brackets read.
        """
        masked = self.masked
        search = (_VALUE_TOKENS if value else _CALL_TOKENS).search  # one-character tokens
        depth = count = 0
        m = search(masked, pos)
        while m is not None:
            ch = m.group()
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            if depth < 0 or (depth == 0 and ch == ",") or count > _ARGUMENT_SCAN:
                return m.start()
            count += 1
            m = search(masked, m.end())
        return len(masked)

    def statement_last(self, line: int) -> int:
        """Last line of the statement beginning at ``line``: where the brackets opened from
        there close, past lines inside a string literal or after a trailing backslash."""
        lines, n = self.lexed.lines, self.nlines
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
            flags = [False] * self.nlines
            text = self.lexed.text
            for s, e in self.lexed.strings:
                if text.find("\n", s, e) >= 0:  # most literals sit on one line
                    first, last = self.span(s, e)
                    flags[first:last] = [True] * (last - first)
            self._in_string = flags
        return self._in_string

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

    def string_starts(self) -> list[int]:
        if self._string_starts is None:
            self._string_starts = [s for s, _ in self.lexed.strings]
        return self._string_starts

    def collections(self) -> tuple[list[int], dict[int, int]]:
        """Brackets around string literals, in one pass: for each string (by index) the
        offset of the innermost bracket open at its start (-1: none), and each opener's
        closing offset (unclosed openers have none). Mismatched closers are ignored."""
        if self._collections is None:
            starts = self.string_starts()
            enclosing = [-1] * len(starts)
            closing: dict[int, int] = {}
            stack: list[int] = []
            k = 0
            for m in _BRACKET.finditer(self.masked):
                pos = m.start()
                while k < len(starts) and starts[k] < pos:
                    enclosing[k] = stack[-1] if stack else -1
                    k += 1
                if m.group() in _OPENERS:
                    stack.append(pos)
                elif stack:
                    closing[stack.pop()] = pos
            for rest in range(k, len(starts)):
                enclosing[rest] = stack[-1] if stack else -1
            self._collections = enclosing, closing
        return self._collections

    def string_body(self, index: int) -> str:
        """``string_body`` of literal ``index``, cut once per file (rules share literals)."""
        body = self._bodies.get(index)
        if body is None:
            s, e = self.lexed.strings[index]
            body = self._bodies[index] = string_body(self.lexed.text[s:e])
        return body

    def device_kinds(self) -> tuple[list[int], list[str], list[int]]:
        """The string literals naming a device kind (``_DEVICE_KIND``), read once: their
        start offsets, their kinds and, for each, the number of the next one naming another
        kind (else their count), so whether a range names several kinds is two bisections."""
        if self._device_kinds is None:
            positions: list[int] = []
            kinds: list[str] = []
            for index, (s, _) in enumerate(self.lexed.strings):
                kind = _DEVICE_KIND.match(self.string_body(index).strip().lower())
                if kind:
                    positions.append(s)
                    kinds.append(kind.group(1))
            other = [len(kinds)] * len(kinds)
            for k in range(len(kinds) - 2, -1, -1):
                other[k] = k + 1 if kinds[k + 1] != kinds[k] else other[k + 1]
            self._device_kinds = positions, kinds, other
        return self._device_kinds

    def strings_holding(self, keywords: Keywords) -> list[int]:
        """Indexes of the string literals in which one of ``keywords`` occurs, in order."""
        text, strings, starts = self.lexed.text, self.lexed.strings, self.string_starts()
        found: set[int] = set()
        for keyword in keywords:
            i = text.find(keyword)
            while i >= 0:
                index = bisect_right(starts, i) - 1
                if index >= 0 and i + len(keyword) <= strings[index][1]:
                    found.add(index)
                    i = text.find(keyword, strings[index][1])
                else:
                    i = text.find(keyword, i + 1)
        return sorted(found)

    def assigned_strings(self, names: set[str]) -> dict[str, Span]:
        """Those of ``names`` assigned a string literal (``SRC = r'''...'''``) -> the last
        such assignment's lines. Other assignments cost one set lookup each."""
        starts = set(self.string_starts())
        assigned: dict[str, Span] = {}
        for m in _ASSIGN.finditer(self.masked):
            if m.group(1) not in names:
                continue
            value = m.end()
            # A string prefix (r, b, f, rb...) is code before the literal's first quote.
            if value in starts or value + 1 in starts or value + 2 in starts:
                line = self.line_of(m.start())
                assigned[m.group(1)] = (line, self.statement_last(line))
        return assigned


def _name_before(text: str) -> str | None:
    """The word ``text`` ends with, blanks and newlines aside ("" after a lambda's ``]``),
    or None. Read backward from the end: a regex search would try each start in the text,
    backtracking over every word (a tenth of a slow file's time)."""
    text = text.rstrip(" \t\n")
    if text.endswith("]"):
        return ""
    word = _WORD_START.match(text[::-1])
    return word.group()[::-1] if word else None


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


def _counts(lines: list[str], char: str) -> Iterator[int]:
    """``_net``'s counts for every line at once, by ``map`` (no Python frame per line)."""
    return map(str.count, lines, repeat(char))


# -- kinds ------------------------------------------------------------------------------


def _line(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    for m in src.finditer(pattern, keywords):
        yield src.span(m.start(), m.end())


def _statement_span(src: Source, m: re.Match[str]) -> Span:
    if src.family != "braces" or src.line_statements:
        line = src.line_of(m.start())
        return line, src.statement_last(line)
    start = m.start()
    directive = src.directive_span(start)
    if directive:
        return directive
    end = src.next_match(_C_STMT_END, m.end())
    first = src.c_statement_start(start)
    last = end.end() - 1 if end else len(src.masked) - 1  # ``Source.span``, inlined
    starts = src.starts
    return bisect_right(starts, first), bisect_right(starts, last if last > first else first)


def _statement(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    covered = 0  # last line of the previous statement: a match inside it adds nothing
    starts = src.starts
    if src.family != "braces" or src.line_statements:  # ``_statement_span``, inlined
        statement_last = src.statement_last
        for m in src.finditer(pattern, keywords):
            line = bisect_right(starts, m.start())
            if line > covered:
                covered = statement_last(line)
                yield line, covered
        return
    for m in src.finditer(pattern, keywords):
        if bisect_right(starts, m.start()) <= covered:
            continue
        span = _statement_span(src, m)
        covered = span[1]
        yield span


def _block(
    src: Source,
    matches: Iterable[tuple[int, int]],
    ends: re.Pattern[str],
    skip_directives: bool = False,
) -> Iterator[Span]:
    """From each match (start, end offsets) to the end of the block or statement after it."""
    last_offset, starts = len(src.masked) - 1, src.starts
    directive_span, statement_start, next_match = (
        src.directive_span,
        src.c_statement_start,
        src.next_match,
    )
    for match_start, match_end in matches:
        directive = directive_span(match_start)
        if directive:
            if not skip_directives:
                yield directive
            continue
        start = statement_start(match_start)
        end = next_match(ends, match_end)
        if end is None:
            last = last_offset
        elif end.group() == ";":
            last = end.start()
        else:
            last = src.block_end(end.start())
        # ``Source.span(start, last + 1)``, inlined: this runs once per match.
        yield bisect_right(starts, start), bisect_right(starts, last if last > start else start)


def _spans(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[tuple[int, int]]:
    return (m.span() for m in src.finditer(pattern, keywords))


def _c_function(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    return _block(src, _spans(src, pattern, keywords), _C_DECL_END)


def _uses(masked: str, names: set[str], skip: set[int]) -> Iterator[tuple[int, int]]:
    """Offsets of every use of one of ``names`` as a whole word (not after ``#``), in order,
    but those starting at an offset in ``skip``.

    A whole-word use is a maximal run of word characters equal to a name: one regex pass
    over the file's words and a set lookup each, linear whatever the names. (An
    Aho-Corasick automaton of the names is not: ahocorasick-rs builds one for 16,000 names
    like M0..M15999 in half a second, four times as long for twice as many, and a pull
    request may define that many.)
    """
    for m in _WORD.finditer(masked):
        if m.group() in names:
            start = m.start()
            if start not in skip and (not start or masked[start - 1] != "#"):
                yield start, m.end()


def _c_macro_function(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    """The macro a ``#define`` names (group 1) qualifies functions: each use starts one."""
    names: set[str] = set()
    defined: set[int] = set()  # where each name is defined: in its #define, so not a use
    for m in src.finditer(pattern, keywords):
        directive = src.directive_span(m.start())
        if directive:
            yield directive
            names.add(m.group(1))
            defined.add(m.start(1))
    if names:
        uses = _uses(src.masked, names, defined)
        yield from _block(src, uses, _C_DECL_END, skip_directives=True)


def _c_enclosing_function(
    src: Source, pattern: re.Pattern[str], keywords: Keywords
) -> Iterator[Span]:
    """The function or lambda whose body holds each match, from its declaration's start to
    its closing brace; a match in a ``#define`` claims the macro, one outside any function
    body its statement."""
    matches: list[re.Match[str]] = []
    last: Span | None = None
    for m in src.finditer(pattern, keywords):
        directive = src.directive_span(m.start())
        if directive is None:
            matches.append(m)
        elif directive != last:  # many matches share one macro
            last = directive
            yield directive
    starts = src.starts
    done: dict[int, Span] = {}
    covered = 0  # last line of the previous statement outside any function
    claimed = -1  # offset closing the last whole function claimed: matches before it add nothing
    one_line = 0  # the line of the last function claimed when it sat on one line
    for m in matches:
        start = m.start()
        if start < claimed:
            continue
        if one_line and bisect_right(starts, start) == one_line:
            continue  # many one-line functions on a line (minified code) claim it once
        brace, close = src.nearest_function(start)
        if brace < 0:
            if bisect_right(starts, start) > covered:
                span = _statement_span(src, m)
                covered = span[1]
                yield span
            continue
        # Inside a preprocessor branch of the body (the CUDA branch beside a SYCL one), the
        # branch is the device code, not the whole function.
        branch = src.branch_in(brace, start, close) if src.preprocessor else None
        if branch is not None:
            yield branch
        else:
            function = done.get(brace)
            if function is None:
                first = src.c_statement_start(brace)
                function = done[brace] = bisect_right(starts, first), bisect_right(starts, close)
            claimed = close
            one_line = function[0] if function[0] == function[1] else 0
            yield function


def _c_block_statement(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    return _block(src, _spans(src, pattern, keywords), _OPEN_BRACE)


def _pp_branches(
    src: Source, pattern: re.Pattern[str], keywords: Keywords, else_branch: bool
) -> Iterator[Span]:
    branches, starts = src.pp_branches(), src.starts
    for m in src.finditer(pattern, keywords):
        found = branches.get(bisect_right(starts, m.start()))
        if found is None:
            continue
        group, index, end = found
        if else_branch:
            if index + 1 < len(group) and group[index + 1][1] == "else":
                yield group[index + 1][0], end
        elif index + 1 < len(group):
            yield group[index][0], group[index + 1][0] - 1
        else:
            yield group[index][0], end


def _preprocessor_block(
    src: Source, pattern: re.Pattern[str], keywords: Keywords
) -> Iterator[Span]:
    return _pp_branches(src, pattern, keywords, else_branch=False)


def _preprocessor_else(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    return _pp_branches(src, pattern, keywords, else_branch=True)


def _python_def(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    ends, _ = src.blocks()
    starts = src.logical_starts()
    lines = src.lexed.lines
    def_of: dict[int, int | None] = {}  # decorator line -> the def it decorates (walked once)
    last_def = 0
    for m in src.finditer(pattern, keywords):
        first = src.line_of(m.start())
        if first not in def_of:
            walked: list[int] = []
            found: int | None = None
            for line in range(first, min(first + _DECORATOR_LINES, src.nlines) + 1):
                if line in def_of:
                    found = def_of[line]
                    break
                walked.append(line)
                text = lines[line - 1]
                if starts[line - 1] and _PY_DEF.match(text):
                    found = line
                    break
                if starts[line - 1] and text.strip() and not _PY_DECORATOR.match(text):
                    break
            def_of.update(dict.fromkeys(walked, found))
        def_line = def_of[first]
        # Stacked decorators of one def: the topmost (the first match) already spans the
        # others, so each def yields once.
        if def_line is not None and def_line != last_def:
            last_def = def_line
            yield first, ends.get(def_line, def_line)


def _python_enclosing_def(
    src: Source, pattern: re.Pattern[str], keywords: Keywords
) -> Iterator[Span]:
    ends, enclosing = src.blocks()
    lines = src.lexed.lines
    for m in src.finditer(pattern, keywords):
        line = src.line_of(m.start())
        def_line = enclosing[line - 1]
        if not def_line:
            yield _statement_span(src, m)
            continue
        first = def_line
        while first > 1 and _PY_DECORATOR.match(lines[first - 2]):
            first -= 1
        yield first, ends.get(def_line, def_line)


def string_body(token: str) -> str:
    """The characters between a string literal's quotes, without raw fences or prefixes."""
    if token.startswith('R"'):
        return token[token.find("(") + 1 : token.rfind(")")]
    if token[0] in "br":  # Rust byte and raw strings: b"..", r#".."#, br".."
        token = token.lstrip("br")
        fence = len(token) - len(token.lstrip("#"))
        closed = token.endswith('"' + "#" * fence)
        token = token[fence : len(token) - fence] if closed else token[fence:]
    quote = 3 if token[:3] in ('"""', "'''") else 1
    body = token[quote:]
    return body[:-quote] if body.endswith(token[:quote]) else body


def _string_literal(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    """Each string literal whose body matches, with the literals adjacent to it: C and Python
    join ``"__kernel void f(...)\n" "{\n" ...`` into one program, line by line."""
    strings, masked = src.lexed.strings, src.masked
    reached = -1  # last literal already claimed with its neighbours
    for index in src.strings_holding(keywords):
        if index <= reached:
            continue
        if not pattern.search(src.string_body(index)):
            continue
        first = index
        while first > 0 and first - 1 > reached and _adjacent(masked, strings, first - 1):
            first -= 1
        last = index
        while last + 1 < len(strings) and _adjacent(masked, strings, last):
            last += 1
        reached = last
        yield src.span(strings[first][0], strings[last][1])


def _adjacent(masked: str, strings: list[tuple[int, int]], index: int) -> bool:
    """Only blanks (or a line continuation) separate literal ``index`` from the next one."""
    gap = masked[strings[index][1] : strings[index + 1][0]]
    return not gap.strip(" \t\r\n\\") and len(gap) < _ADJACENT_GAP


#: Accelerator device kinds PyTorch and its out-of-tree backends name (``cpu`` and ``meta``
#: are not accelerators): a collection naming two of them is dispatch code.
_DEVICE_KIND = re.compile(
    r"^(cuda|hip|rocm|xpu|mps|hpu|npu|tpu|xla|mlu|musa|gaudi|sdaa|privateuseone)(?::\d+)?$"
)


_ATTRIBUTE_PROBE = re.compile(r"\b(?:getattr|hasattr)[ \t]*\([^,()\n]*,[ \t]*$")


def _device_string(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    """A string literal naming a device, unless it is one element of a list, tuple, set,
    dict or call that names the device kinds of two vendors or more (``["cuda", "xpu",
    "mps"]``, ``device.type in ("cuda", "hip")``): that is the code choosing among vendors,
    the opposite of lock-in; nor when its branch of an ``if``/``elif`` or ``match`` chain is
    one of several naming such kinds. Nor is an attribute name probed with
    ``getattr``/``hasattr``."""
    strings, masked = src.lexed.strings, src.masked
    verdicts: dict[int, bool] = {}  # opener offset -> its collection names several kinds
    chains: dict[int, bool] = {}  # branch line -> its chain names several kinds
    body = src.string_body
    collections: tuple[list[int], dict[int, int]] | None = None
    for index in src.strings_holding(keywords):
        if not pattern.search(body(index)):
            continue
        s, e = strings[index]
        # An attribute probed by name (hasattr(torch, "xpu")) is no device string. The
        # probe's "attr" and a comma before the literal come first: str.find is cheaper
        # than a regex search over the 200 characters before every literal.
        if (
            _after_comma(masked, s)
            and masked.find("attr", max(0, s - 200), s) >= 0
            and _ATTRIBUTE_PROBE.search(masked, max(0, s - 200), s)
        ):
            continue
        if collections is None:
            collections = src.collections()
        enclosing, closing = collections
        opener = enclosing[index]
        if opener >= 0 and opener in closing:
            several = verdicts.get(opener)
            if several is None:
                several = verdicts[opener] = _names_several_kinds(src, opener, closing[opener])
            if several:
                continue
        elif _in_dispatch_chain(src, src.line_of(s), chains):
            continue
        yield src.span(s, e)


def _after_comma(masked: str, pos: int) -> bool:
    """Whether a comma, then only blanks (and a newline last: ``$``), come before ``pos``."""
    pos -= 1
    if pos >= 0 and masked[pos] == "\n":
        pos -= 1
    while pos >= 0 and masked[pos] in " \t":
        pos -= 1
    return pos >= 0 and masked[pos] == ","


_BRANCH = re.compile(r"[ \t]*(?:(if|elif|case)\b|else\b)")
#: Lines of a branch body looked through for the chain's next branch: bounded, linear.
_CHAIN_REACH = 60


def _in_dispatch_chain(src: Source, line: int, known: dict[int, bool]) -> bool:
    """Whether ``line`` is a branch (``if``/``elif``/``case``) of a chain at one indentation
    whose conditions name the device kinds of two vendors or more (``if t == "cuda": ...
    elif t == "xpu": ...``, or ``match`` cases): a switch choosing among vendors. ``known``
    holds the verdicts of branches already seen, so each chain is read once."""
    if src.family != "indent":
        return False
    if line in known:
        return known[line]
    lines = src.lexed.lines
    head = lines[line - 1]
    if not (m := _BRANCH.match(head)) or not m.group(1):
        return False
    indent = len(head) - len(head.lstrip())
    kinds: set[str] = set()
    branches = [line]
    for step in (-1, 1):
        number = line + step
        while 0 < number <= len(lines) and abs(number - line) <= _CHAIN_REACH:
            code = lines[number - 1]
            depth = len(code) - len(code.lstrip())
            if code.strip() and depth <= indent:
                branch = _BRANCH.match(code) if depth == indent else None
                if branch is None or (step > 0 and branch.group(1) == "if"):
                    break  # the chain ended, or another one starts
                branches.append(number)
                if step < 0 and branch.group(1) == "if":
                    break  # the chain's own head
            number += step
    for number in branches:
        kinds |= _kinds_on_line(src, number)
    verdict = len(kinds) >= 2
    for number in branches:
        known[number] = verdict
    return verdict


def _kinds_on_line(src: Source, line: int) -> set[str]:
    positions, kinds, _ = src.device_kinds()
    first = src.starts[line - 1]
    last = src.starts[line] if line < len(src.starts) else len(src.lexed.text)
    return set(kinds[bisect_left(positions, first) : bisect_left(positions, last)])


def _names_several_kinds(src: Source, opener: int, closer: int) -> bool:
    positions, _, other = src.device_kinds()
    at = bisect_left(positions, opener)
    return at < len(positions) and other[at] < bisect_left(positions, closer)


def _call_argument_string(
    src: Source, pattern: re.Pattern[str], keywords: Keywords
) -> Iterator[Span]:
    masked, strings, starts = src.masked, src.lexed.strings, src.starts
    string_starts = src.string_starts()
    names: set[str] = set()
    scanned = 0  # arguments already read: several matches may share one statement
    for m in src.finditer(pattern, keywords):
        start = m.end()
        if start < scanned:  # inside arguments already read (nested or repeated calls)
            continue
        end = src.argument_end(start, value=not m.group().rstrip().endswith("("))
        if start < end:
            # The string literals starting inside the arguments, as line spans (inlined
            # ``Source.span``: a file may hold a call per line).
            for k in range(bisect_left(string_starts, start), bisect_left(string_starts, end)):
                s, e = strings[k]
                yield bisect_right(starts, s), bisect_right(starts, e - 1 if e > s else s)
            names.update(_NAME.findall(masked, start, end))
            scanned = end
    if names:
        yield from src.assigned_strings(names).values()


def file_region(src: Source, pattern: re.Pattern[str] | None, keywords: Keywords) -> Iterator[Span]:
    """The whole file, when the pattern (if any) is found in it: the one kind that may
    have no pattern."""
    if src.nlines and (pattern is None or next(src.finditer(pattern, keywords), None)):
        yield 1, src.nlines


#: Tie-break between two claims of one layer over the same lines: the kind that found its
#: region through context (the call a string is passed to) beats one that matched content.
SPECIFICITY = {"call-argument-string": 1}

#: Kinds that look inside string literals: their keywords are searched in the raw text.
STRING_KINDS = frozenset({"string-literal", "device-string"})

KINDS: dict[str, Callable[[Source, re.Pattern[str], Keywords], Iterator[Span]]] = {
    "line": _line,
    "statement": _statement,
    "c-function": _c_function,
    "c-block-statement": _c_block_statement,
    "c-enclosing-function": _c_enclosing_function,
    "c-macro-function": _c_macro_function,
    "preprocessor-block": _preprocessor_block,
    "preprocessor-else": _preprocessor_else,
    "python-def": _python_def,
    "python-enclosing-def": _python_enclosing_def,
    "string-literal": _string_literal,
    "device-string": _device_string,
    "call-argument-string": _call_argument_string,
    "file": file_region,
}
