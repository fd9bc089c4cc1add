"""Preprocessor directives of a C-family file: the lines a directive runs over, and the
``#if``/``#elif``/``#else`` branches, each parsed once per file."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import repeat

from bot.engine.precompiled import fixed_regex
from bot.engine.source_text import SourceText, Span

# A directive from its '#' to the end of the lines its trailing backslashes continue it over.
# It opens with a literal, so re finds candidates at memchr speed; ``directives`` keeps those
# with only blanks before them on a line that does not continue the one above. Each
# repetition ends at a newline, so it never backtracks over more than a line.
_DIRECTIVE = fixed_regex(r"\#(?:[^\n]*\\\n)*[^\n]*")
# A conditional directive's '#' and word. It opens with a literal, so re finds candidates
# at memchr speed; ``conditionals`` keeps those with only blanks before them on their line
# (a multi-line regex anchored at line starts would try every offset of the file).
_PP = fixed_regex(r"\#[ \t]*(ifdef|ifndef|if|elif|else|endif)\b")
#: A line opening with a conditional directive, read from the line's start.
CONDITIONAL_LINE = fixed_regex(r"[ \t]*" + _PP.pattern)
_MACRO_LINES = 500  # lines one #define may continue over
_BRANCH_DIRECTIVES = 200  # directives read around a match to find its branch in a function
# Per #if/#elif/#else/#endif of a file: start, end, word, innermost open group's #if offset
# after it, its current branch's directive number, and where that branch ends (numbers).
_DirectiveStates = tuple[list[int], list[int], list[str], list[int], list[int], list[int]]


class Preprocessor:
    """The directives and branches of a file, each found once, on first use."""

    __slots__ = (
        "_branch_ends",
        "_branches",
        "_conditional_lines",
        "_conditionals",
        "_directive_lines",
        "_directives",
        "_states",
        "text",
    )

    def __init__(self, text: SourceText) -> None:
        self.text = text
        self._branch_ends: dict[int, int | None] = {}  # branch directive -> its last line
        self._states: _DirectiveStates | None = None
        self._branches: dict[int, tuple[list[tuple[int, str]], int, int]] | None = None
        self._conditionals: tuple[list[int], list[int], list[str]] | None = None
        self._conditional_lines: list[int] | None = None
        self._directives: tuple[list[int], list[int]] | None = None
        # Directive index -> its lines (at most ``_MACRO_LINES`` after the first), and the
        # offset where they end.
        self._directive_lines: dict[int, tuple[Span, int]] = {}

    def directive_span(self, pos: int) -> Span | None:
        """The lines of the preprocessor directive holding ``pos``, ``\\`` continuations
        included (a match inside a multi-line #define belongs to the macro), at most
        ``_MACRO_LINES`` lines after the directive's first."""
        at = self._directive_at(pos)
        if at is None:
            return None
        starts, ends = self._spans()
        known = self._directive_lines.get(at)
        if known is None:  # once per directive, not per match inside it
            first, last = self.text.span(starts[at], ends[at])
            cut = min(last, first + _MACRO_LINES)
            # Past the end of its last line kept, a match is outside the directive.
            line_starts = self.text.starts
            limit = line_starts[cut] if cut < last else ends[at] + 1
            known = self._directive_lines[at] = ((first, cut), limit)
        return known[0] if pos < known[1] else None

    def directive_end(self, pos: int) -> int | None:
        """Where the directive holding ``pos`` ends (its ``\\`` continuations included),
        else None."""
        at = self._directive_at(pos)
        if at is None:
            return None
        end = self._spans()[1][at]
        return end if pos < end else None

    def _directive_at(self, pos: int) -> int | None:
        """The index of the directive that may hold ``pos`` (``pos`` at most its end)."""
        if not self.text.preprocessor:
            return None
        starts, ends = self._spans()
        # Directives do not overlap and come in order: the last one starting at or before
        # ``pos`` is the only one that may hold it (one bisection, whatever the macro's size).
        at = bisect_right(starts, pos) - 1
        return None if at < 0 or pos > ends[at] else at

    def _spans(self) -> tuple[list[int], list[int]]:
        if self._directives is None:
            self._directives = self._find_directives()
        return self._directives

    def _find_directives(self) -> tuple[list[int], list[int]]:
        """[start, end) offsets of every directive, from its line's start."""
        masked = self.text.masked
        starts: list[int] = []
        ends: list[int] = []
        rfind = masked.rfind
        # Each match runs to the end of its line and of the lines its backslashes continue
        # it over, so the next starts on a later line: a line of many '#' stays linear.
        for m in _DIRECTIVE.finditer(masked):
            at = m.start()
            start = at if not at or masked[at - 1] == "\n" else rfind("\n", 0, at) + 1
            # A '#' inside a line, or on a line continuing another (``start - 1`` holds the
            # newline ending the line before), starts no directive.
            if (start != at and masked[start:at].strip(" \t")) or (
                start > 1 and masked[start - 2] == "\\"
            ):
                continue
            starts.append(start)
            ends.append(m.end())
        return starts, ends

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
        starts, ends, words, groups, branches, nexts = self._states
        after = bisect_left(starts, pos)  # the directives starting before ``pos``
        at = after - 1
        if at >= 0 and ends[at] > pos:  # a directive running over ``pos`` is not before it
            at -= 1
        if at < 0 or groups[at] <= lo:
            return None
        opened = branches[at]
        lines = self._conditional_lines or self.conditional_lines()
        ends_of = self._branch_ends
        if opened in ends_of:
            end = ends_of[opened]
        else:
            # The line before the group's next directive (``#endif`` itself included), if it
            # comes before ``hi`` and at most ``_BRANCH_DIRECTIVES`` directives on.
            following = nexts[at]
            if following < 0 or ends[following] > hi or following - after >= _BRANCH_DIRECTIVES:
                end = None
            else:
                end = lines[following] - (words[following] != "endif")
            ends_of[opened] = end
        return None if end is None else (lines[opened], end)

    def _directive_states(self) -> _DirectiveStates:
        """Every ``#if``/``#elif``/``#else``/``#endif`` of the file, parsed once: their start
        and end offsets, their words and, after each, the innermost open group's ``#if``
        offset (-1: none), the number of its current branch's directive, and the number of
        the directive that branch ends at (-1: none). An ``#else`` or ``#endif`` with no
        group open is ignored."""
        starts, ends, words = self.conditionals()
        groups: list[int] = []
        branches: list[int] = []
        stack: list[list[int]] = []  # open groups: [its #if offset, current branch number]
        waiting: list[list[int]] = []  # per open group: directives whose branch it holds
        nexts = [-1] * len(starts)
        for number, (start, directive) in enumerate(zip(starts, words, strict=True)):
            if directive[0] == "i":
                stack.append([start, number])
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
            _, _, words = self.conditionals()
            for line, directive in zip(self.conditional_lines(), words, strict=True):
                if directive[0] == "i":  # if, ifdef, ifndef
                    stack.append([(line, directive)])
                elif directive in ("elif", "else"):
                    if stack:
                        stack[-1].append((line, directive))
                elif stack:  # a group closes: its branches are known
                    branches = stack.pop()
                    for index, (first, _) in enumerate(branches):
                        at[first] = (branches, index, line)
            for branches in stack:  # unclosed: to the end
                for index, (first, _) in enumerate(branches):
                    at[first] = (branches, index, self.text.nlines)
            self._branches = at
        return self._branches

    def conditional_lines(self) -> list[int]:
        """The line of each of ``conditionals`` (the branches and ``branch_in`` read it)."""
        if self._conditional_lines is None:
            offsets = self.conditionals()[0]
            starts = self.text.starts
            self._conditional_lines = list(map(bisect_right, repeat(starts, len(offsets)), offsets))
        return self._conditional_lines

    def conditionals(self) -> tuple[list[int], list[int], list[str]]:
        """Every ``#if``/``#ifdef``/``#ifndef``/``#elif``/``#else``/``#endif`` line, in order:
        the offsets of its line's start and of the end of its word, and the word (found once
        for both the branches and the directive states)."""
        if self._conditionals is None:
            self._conditionals = conditionals(self.text.masked)
        return self._conditionals


def conditionals(masked: str) -> tuple[list[int], list[int], list[str]]:
    """``Preprocessor.conditionals`` of ``masked``."""
    starts: list[int] = []
    ends: list[int] = []
    words: list[str] = []
    read = -1  # the last '#' matched: only a line's first '#' may start one
    for m in _PP.finditer(masked):
        at = line = m.start()  # most directives open their line: no search for its start
        if at and masked[at - 1] != "\n":
            # The newline before it, searched for back to the last '#' only (a line of
            # many '#' stays linear): none there, and it is on that '#''s line.
            newline = masked.rfind("\n", read if read > 0 else 0, at)
            line = newline + 1
            skip = (newline < 0 and read >= 0) or masked[line:at].strip(" \t")
            read = at
            if skip:
                continue
        read = at
        starts.append(line)
        ends.append(m.end())
        words.append(m.group(1))
    return starts, ends, words


# `#if 0`: the group a C programmer switched off. It opens with a literal, so re finds
# candidates at memchr speed; ``switched_off`` keeps those with only blanks before them.
_IF_ZERO = fixed_regex(r"\#[ \t]*if[ \t]+0+[ \t]*(?=\n|$)")


# `#ifndef __CUDACC__`, `#if !defined(__CUDA_ARCH__)`: a group only a host compiler reads
# (or nvcc's host pass), alone in its condition.
_NOT_CUDA = fixed_regex(
    r"\#[ \t]*(?:ifndef[ \t]+|if[ \t]+![ \t]*defined[ \t]*(?:\([ \t]*)?)"
    r"(?:__CUDACC__|__CUDA_ARCH__)\b(?:[ \t]*\))?[ \t]*(?=\n|$)"
)


def switched_off(masked: str) -> list[tuple[int, int]]:
    """The lines no compiler ever reads: each ``#if 0`` group's first branch, from the line
    after the ``#if 0`` up to its ``#elif``/``#else``/``#endif`` (0-based, end excluded),
    nested groups included. A kernel kept there for reference (anilshanbhag/crystal's
    load.cuh) is no code to port. Other groups are not read: their conditions depend on the
    build."""
    return _first_branches(masked, _IF_ZERO)


def host_compiled(masked: str) -> list[tuple[int, int]]:
    """The lines nvcc never compiles as device code, as ``switched_off`` gives them: each
    ``#ifndef __CUDACC__`` (or ``__CUDA_ARCH__``) group's first branch. What a reverse shim
    defines there (pixeltrack's cudaCompat.h: threadIdx, atomicAdd, __syncthreads as plain
    C++ functions, ``#define __device__``) runs CUDA code on the CPU; it is no device code."""
    return _first_branches(masked, _NOT_CUDA)


# `#ifdef __cplusplus`, `#if defined(__cplusplus)`: a group only a C++ compiler reads, alone in
# its condition. HLSL's compilers (DXC, FXC) define no __cplusplus: in an .hlsli that its C++
# host includes too, that branch holds the host's constructors and static_asserts.
_CPLUSPLUS = fixed_regex(
    r"\#[ \t]*(?:ifdef[ \t]+|if[ \t]+defined[ \t]*(?:\([ \t]*)?)"
    r"__cplusplus\b(?:[ \t]*\))?[ \t]*(?=\n|$)"
)


def cplusplus_only(masked: str) -> list[tuple[int, int]]:
    """The lines only a C++ compiler reads, as ``switched_off`` gives them: each
    ``#ifdef __cplusplus`` group's first branch. In a shading language's file they are the
    host's share of a header both sides include (jiayev/CreationEngineRaytracing's
    interop/Instance.hlsli: a struct's C++ constructors and setters)."""
    return _first_branches(masked, _CPLUSPLUS)


def _first_branches(masked: str, condition: re.Pattern[str]) -> list[tuple[int, int]]:
    """The first branch of each group whose opening directive ``condition`` matches, as
    ``switched_off`` describes them."""
    m = condition.search(masked)
    if m is None:
        return []
    starts, _, words = conditionals(masked)
    spans: list[tuple[int, int]] = []
    covered = 0  # the offset the last switched-off branch ends at (a nested `#if 0` is in it)
    counted, line = 0, 0  # newlines are counted once, forward: linear in the file
    while m is not None:
        begin = masked.rfind("\n", 0, m.start()) + 1
        at = bisect_left(starts, begin)
        if (
            begin >= covered
            and at < len(starts)
            and starts[at] == begin
            and words[at].startswith("if")
        ):
            depth, end = 0, len(starts)
            for k in range(at + 1, len(starts)):  # each directive read by one group at most
                word = words[k]
                if word.startswith("if"):
                    depth += 1
                elif depth == 0:
                    end = k
                    break
                elif word == "endif":
                    depth -= 1
            stop = starts[end] if end < len(starts) else len(masked)
            line += masked.count("\n", counted, begin)
            # Unclosed, the group runs to the file's end: its last line is switched off too.
            last = line + masked.count("\n", begin, stop) + (end == len(starts))
            counted = covered = stop
            spans.append((line + 1, last))
            line = last
        m = condition.search(masked, max(m.end(), covered))
    return spans
