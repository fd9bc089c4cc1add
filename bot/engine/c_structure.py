"""C-family structure of a file: brace pairs, where a statement starts, which blocks are
function or lambda bodies, and the innermost body around an offset."""

from __future__ import annotations

import re
import string
from bisect import bisect_left
from itertools import pairwise

from bot.engine.precompiled import fixed_regex
from bot.engine.preprocessor import Preprocessor
from bot.engine.source_text import SourceText, offsets

# Lines that end a C statement without a semicolon: directives and access labels, and the
# blanks after them (the statement starts where they end).
_C_BARRIER = fixed_regex(r"^[ \t]*(?:\#.*|(?:public|private|protected)[ \t]*:)$\s*", re.M)
_NON_SPACE = fixed_regex(r"\S")
_STATEMENT_WINDOW = 4000  # how far back a C statement start is searched
_HEADER_WINDOW = 2000  # how far back a function header's parameter list is searched
_ENCLOSING_BRACES = 256  # braces read back for the block around a left-out brace
_WORD_START = fixed_regex(r"\w+")
_ASCII_WORD = string.ascii_letters + string.digits + "_"
# What may stand between a parameter list's ")" and the body's "{": qualifiers, a trailing
# return type, attributes and macros (noexcept, const, -> std::size_t, AMREX_GPU_DEVICE).
_QUALIFIERS = fixed_regex(r"[\s\w:<>,&*\[\]\->.]*")
# A lambda's capture list (``=``, ``&``, ``this``, ``&x, y``) and the characters of the
# qualifier words between it and a body with no parameter list.
_CAPTURES = fixed_regex(r"[\w\s=&*,.]*")
_WORD_OR_BLANK = frozenset(_ASCII_WORD + " \t\r\n")
_CONTROL_WORDS = frozenset(
    {"if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "defined", "elif"}
)


class CStructure:
    """Braces and function bodies of a C-family file, each found once, on first use."""

    __slots__ = ("_braces", "_functions", "_pairs", "_pp", "_sweep_at", "_sweep_stack", "text")

    def __init__(self, text: SourceText, pp: Preprocessor) -> None:
        self.text = text
        self._pp = pp  # its conditional directives, found once for both
        self._pairs: dict[int, int] | None = None
        self._braces: list[int] = []  # offsets of every brace, in order (with the pairs)
        self._sweep_at = 0  # ``nearest_function``'s place in the braces, and its open ones
        self._sweep_stack: list[int] = []
        self._functions: dict[int, int] = {}  # open brace -> its nearest function body's, or -1

    def brace_pairs(self) -> dict[int, int]:
        if self._pairs is None:
            pairs: dict[int, int] = {}
            stack: list[int] = []
            masked = self.text.masked
            braces = offsets(masked, "{}")
            if self.text.preprocessor:
                braces = _first_branch_braces(masked, braces, self._pp.conditionals())
            self._braces = braces
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
        masked = self.text.masked
        lo = pos - _STATEMENT_WINDOW - 1 if pos > _STATEMENT_WINDOW else -1
        cut = _last_end(masked, lo + 1, pos)
        if cut == lo and lo >= 0:  # no statement end in the window: start at the line
            return masked.rfind("\n", 0, pos) + 1
        begin = cut + 1
        if self.text.preprocessor:
            # A ``;`` or brace inside a multi-line #define (``} while (0)`` ending a CHECK
            # macro) ends no statement of the code below the macro: that starts after it.
            macro_end = self._pp.directive_end(cut)
            if macro_end is not None and macro_end < pos:
                begin = macro_end
            # The lines between holding a ``#`` or a ``:`` may be barriers; most statements
            # hold neither (two ``rfind`` here, no call).
            hash_at, colon_at = masked.rfind("#", begin, pos), masked.rfind(":", begin, pos)
            if hash_at >= 0 or colon_at >= 0:
                after = _after_barriers(masked, begin, pos, hash_at, colon_at)
                if after >= 0:
                    return after
        first = _NON_SPACE.search(masked, begin, pos + 1)
        return first.start() if first else pos

    def block_end(self, open_brace: int) -> int:
        """Offset of the brace closing ``open_brace`` (end of file when unbalanced). A brace
        of a later ``#else`` branch left out of the pairs (``_first_branch_braces``) ends
        where the innermost block around it does: its first branch's brace stands for it
        (AMReX's `#ifdef AMREX_USE_SYCL ... [=] (Handler const& gh) {` / `#else ... [=] () {`
        lambdas share one body)."""
        pairs = self.brace_pairs()
        end = pairs.get(open_brace)
        if end is not None:
            return end
        masked, braces = self.text.masked, self._braces
        k = bisect_left(braces, open_brace)
        if k < len(braces) and braces[k] == open_brace:
            return len(masked) - 1  # kept but never closed
        depth, stop = 0, max(k - _ENCLOSING_BRACES, 0)
        while k > stop:  # bounded: a hostile file of such braces stays linear
            k -= 1
            if masked[braces[k]] == "}":
                depth += 1
            elif depth:
                depth -= 1
            else:
                return pairs.get(braces[k], len(masked) - 1)
        return len(masked) - 1

    def is_function_body(self, open_brace: int) -> bool:
        """Whether the block opening at ``open_brace`` is a function's or a lambda's body.

        Its header ends in a parameter list: a ``)`` after the previous ``;``, ``{`` or ``}``,
        followed only by qualifiers (``const``, ``noexcept``, ``-> T``, macros), whose ``(``
        follows a name or a lambda's ``]`` that is no control keyword (``if``, ``for``,
        ``while``, ``switch``, ``catch``). Class, namespace, ``else``/``do``/``try`` and
        initializer blocks have no such list. Bounded by ``_HEADER_WINDOW`` characters.
        """
        return self.function_name(open_brace) is not None

    def function_name(self, open_brace: int) -> tuple[str, int] | None:
        """The name of the function whose body opens at ``open_brace`` and the offset where
        it starts (``""`` for a lambda), or None for a block that is no body, as
        ``is_function_body`` reads one."""
        masked = self.text.masked
        lo = open_brace - _HEADER_WINDOW if open_brace > _HEADER_WINDOW else 0
        cut = _last_end(masked, lo, open_brace)
        close = masked.rfind(")", cut + 1, open_brace)
        if close < 0 or not _QUALIFIERS.fullmatch(masked, close + 1, open_brace):
            lambda_body = _lambda_without_parameters(masked, cut + 1, open_brace)
            return ("", open_brace) if lambda_body else None
        # The ``(`` matching ``close``, searched backward (a ``for`` header holds ``;``): one
        # ``rfind`` pair per bracket passed, most headers need one or two.
        depth, at = 1, close
        while depth:
            opening = masked.rfind("(", lo, at)
            if opening < 0:
                return None
            closing = masked.rfind(")", opening + 1, at)
            if closing > opening:
                depth += 1
                at = closing
            else:
                depth -= 1
                at = opening
        start = max(lo, at - 64)
        head = masked[start:at].rstrip(" \t\n")
        if head.endswith(">"):
            # A generic function's type parameters stand between its name and its parameter
            # list (Rust's `fn emit<L: Lattice>(s: &mut String) {`, a C++ specialization's
            # `void f<float>(...)`): the name is the word before the balanced `<...>`.
            bare = _before_generics(head)
            if bare is None:
                return None
            head = bare
        if head.endswith("()") and head[:-2].rstrip(" \t").endswith("operator"):
            # A call operator's name ends in its own `()` (a kernel functor's
            # `T operator()(const T& a) {`, XeTLA's reducers): the name is `operator`.
            head = head[:-2].rstrip(" \t")
        before = _name_before(head)
        if before is None or before in _CONTROL_WORDS:
            return None
        return before, start + len(head.rstrip(" \t\n")) - len(before)

    def nearest_function(self, pos: int) -> tuple[int, int]:
        """The open brace of the innermost function or lambda body holding ``pos``, or -1,
        and the brace closing it. Offsets must come in increasing order: one sweep over the
        file's braces serves every call."""
        masked, functions = self.text.masked, self._functions
        pairs = self._pairs if self._pairs is not None else self.brace_pairs()
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


def _lambda_without_parameters(masked: str, start: int, open_brace: int) -> bool:
    """Whether the header in [start, open_brace) ends in a lambda with no parameter list:
    a capture list and qualifier words (``[=] __device__ {``, warpcore's ``[=]
    DEVICEQUALIFIER {``, ``[&] mutable {``) handed to a call, assigned or returned. An array
    declarator (``int a[3] {``) follows a name, an attribute (``[[likely]] {``) a ``[``."""
    at = open_brace - 1
    while at >= start and masked[at] in _WORD_OR_BLANK:
        at -= 1
    if at < start or masked[at] != "]":
        return False
    introducer = masked.rfind("[", start, at)
    if introducer < 0 or not _CAPTURES.fullmatch(masked, introducer + 1, at):
        return False
    before = masked[start:introducer].rstrip()
    return not before or before[-1] in "(,=" or before.endswith("return")


def _last_end(masked: str, start: int, pos: int) -> int:
    """Offset of the last ``;``, ``{`` or ``}`` in [start, pos), else ``start - 1``. The
    nearest found bounds the search for the others: a text lacking one of them is not read
    back to ``start`` for it (this runs once per match of every C statement rule)."""
    cut = masked.rfind(";", start, pos)
    if cut < start:
        cut = start - 1
    found = masked.rfind("{", cut + 1, pos)
    if found > cut:
        cut = found
    found = masked.rfind("}", cut + 1, pos)
    return found if found > cut else cut


def _after_barriers(masked: str, begin: int, pos: int, hash_at: int, colon_at: int) -> int:
    """Where the blanks after the last preprocessor line or access label starting in
    [begin, pos) end (at ``pos`` at the latest), else -1, given the last ``#`` and ``:``
    there (-1: none).
    Such a line holds a ``#`` or a ``:``: the lines holding one are read backward from
    ``pos`` (each character passed once), where a multi-line regex would try every offset."""
    while hash_at >= 0 or colon_at >= 0:
        line = masked.rfind("\n", 0, hash_at if hash_at > colon_at else colon_at) + 1
        if line < begin:  # the line starts before the statement: it bounds nothing
            break
        barrier = _C_BARRIER.match(masked, line, pos)
        if barrier:
            return barrier.end()
        if hash_at >= line:
            hash_at = masked.rfind("#", begin, line)
        if colon_at >= line:
            colon_at = masked.rfind(":", begin, line)
    return -1


def _before_generics(text: str) -> str | None:
    """``text`` less the balanced ``<...>`` it ends with, or None when the brackets do not
    balance before a bracket, brace or statement end (``operator>``, a comparison)."""
    at = opening_before(text, len(text) - 1, "<>", "(){};")
    return text[:at] if at >= 0 else None


def opening_before(text: str, close: int, brackets: str, stops: str) -> int:
    """Where the bracket closed at ``close`` opens (``brackets``: its opening and closing
    characters), read backward in one pass; -1 when one of ``stops`` comes first or nothing
    opens it."""
    opening, closing = brackets[0], brackets[1]
    depth = 0
    for at in range(close, -1, -1):
        char = text[at]
        if char == closing:
            depth += 1
        elif char == opening:
            depth -= 1
            if not depth:
                return at
        elif char in stops:
            return -1
    return -1


def _name_before(text: str) -> str | None:
    """The word ``text`` ends with, blanks and newlines aside ("" after a lambda's ``]``),
    or None. Read backward from the end: a regex search would try each start in the text,
    backtracking over every word (a tenth of a slow file's time)."""
    text = text.rstrip(" \t\n")
    if text.endswith("]"):
        return ""
    if text.isascii():  # \w is these characters in ASCII text: stripped at C speed
        head = text.rstrip(_ASCII_WORD)
        return text[len(head) :] or None
    word = _WORD_START.match(text[::-1])
    return word.group()[::-1] if word else None


def _first_branch_braces(
    masked: str, braces: list[int], found: tuple[list[int], list[int], list[str]]
) -> list[int]:
    """``braces`` but those of the #elif/#else branches of a conditional whose branches do
    not each balance their braces: there the first branch stands for the code. A header
    written twice (fastllm's fastllm-cuda.cu: `#if CUDART_VERSION < 10000 ... if (a) {
    #else ... if (b) { #endif`) otherwise leaves one brace open, and the function around it
    (and every kernel after it) runs to the end of the file. Branches that each balance
    (a function per branch) keep their braces. A branch's balance is read with the braces
    its own nested conditionals dropped left out: a GPU branch holding such a header split
    balances (AMReX's AMReX_Reduce.H), and its CPU `#else` keeps its braces. ``found``: the
    file's conditional directives (``Preprocessor.conditionals``)."""
    starts, _, words = found
    if "else" not in words and "elif" not in words:
        return braces
    # depth[k]: the net of braces[:k]; a branch's net is a difference of two of them, so each
    # conditional costs the same however deep it sits (unclosed ones nest without end).
    depth = [0]
    for at in braces:
        depth.append(depth[-1] + (1 if masked[at] == "{" else -1))
    dropped: list[tuple[int, int]] = []  # [first, end) ranges of braces to leave out
    # Open conditionals, innermost last: the brace index each branch starts at, and per
    # branch what its nested conditionals' dropped braces take from its net.
    groups: list[tuple[list[int], list[int]]] = []
    for start, word in zip(starts, words, strict=True):
        k = bisect_left(braces, start)
        if word.startswith("if"):
            groups.append(([k], [0]))
        elif not groups:
            continue
        elif word == "endif":
            _close(groups, k, depth, dropped)
        else:  # elif, else: a further branch
            groups[-1][0].append(k)
            groups[-1][1].append(0)
    while groups:  # unclosed at the end of the file, innermost first
        _close(groups, len(braces), depth, dropped)
    if not dropped:
        return braces
    kept: list[int] = []
    done = 0
    for first, end in sorted(dropped):
        if first > done:
            kept += braces[done:first]
        done = max(done, end)
    kept += braces[done:]
    return kept


def _close(
    groups: list[tuple[list[int], list[int]]],
    end: int,
    depth: list[int],
    dropped: list[tuple[int, int]],
) -> None:
    """Close the innermost open conditional at brace index ``end``: when a branch leaves its
    braces unbalanced, note the braces after its first branch as dropped; tell the branch
    around it what that takes from its net."""
    branches, taken = groups.pop()
    bounds = [*branches, end]
    nets = [depth[b] - depth[a] + t for (a, b), t in zip(pairwise(bounds), taken, strict=True)]
    if len(branches) > 1 and any(nets):
        dropped.append((branches[1], end))
        kept = nets[0]
    else:
        kept = sum(nets)
    if groups:
        groups[-1][1][-1] += kept - (depth[end] - depth[branches[0]])
