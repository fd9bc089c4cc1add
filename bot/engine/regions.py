"""Region machinery: from a rule's pattern match to the whole span of lines it owns.

A rule names one region kind (``KINDS``); the kind turns each match of the rule's pattern in
the masked code into a ``(first_line, last_line)`` span, 1-based and inclusive:

``line``                  the lines of the match itself
``statement``             the statement holding the match (C: from its start up to ``;``,
                          ``{`` or ``}``; Python and build files: from the match's line until
                          the brackets opened there close)
``unprobed-statement``    a statement, unless it is an import opening a Python ``try:`` block
``c-function``            a declaration from its start (``template<...>`` included) to its
                          ``;`` or to the closing brace of its body; in a multi-line
                          ``#define``, the declaration when it ends there, else the macro
``c-macro-function``      every function declared with the macro a matched ``#define``
                          names in group 1 (``#define HD __host__ __device__``), and the define
``c-block-statement``     a statement from its start to the closing brace of the first block
                          after the match (a lambda body handed to ``parallel_for``), or to
                          its ``;`` when it ends first (a functor handed to ``single_task``)
``c-lambda``              the lambda a match starts (at its capture list, or a macro spelling
                          one: ``KOKKOS_LAMBDA``) or hands to a call,
                          from its capture list's line to its body's closing brace: the
                          launch around it left out; nothing when the call is handed no
                          lambda (a kernel object)
``c-enclosing-function``  the innermost function or lambda whose body holds the match, from
                          its declaration's start to its closing brace, whatever decorates it
                          (else the match's statement): device code found by what it does
``preprocessor-block``    the ``#if``/``#elif`` branch whose condition matched, nesting aware
``preprocessor-else``     the ``#else`` branch of the ``#if`` whose condition matched
``python-def``            a decorated ``def`` (decorators from the match, signature, body)
``python-enclosing-def``  the innermost ``def``/``fn`` holding the match (else its statement)
``python-called-def``     each ``def`` of the file named by the first argument of the call the
                          match opens (``pl.pallas_call(kernel, ...)``, or through
                          ``functools.partial(kernel, ...)``), decorators included; nothing
                          for a name the file does not define
``string-literal``        a string literal whose body matches the pattern
``single-source-string``  a string-literal less the host functions of the program it holds
``tagged-string``         a string literal opening where a match ends, in the text with its
                          comments: a comment tagging its language (``/* glsl */``)
``python-string-def``     the innermost ``def`` holding a one-line string literal whose body
                          matches (else the literal; one of several lines from the match's
                          line on): a generator writing kernel source line by line
``c-streamed-string``     the statements writing literals into a stream (``code << "..."``)
                          or a growing string (``s += "..."``, ``writeln!(s, "...")``) in
                          the function where one written literal's body matches
``directive-function``    the function whose body opens with a matching string directive
``device-string``         a string-literal naming a device, unless it sits in a collection
                          naming the device kinds of several vendors (dispatch code)
``call-argument-string``  the string literals inside the call (or ``name=`` value) the
                          pattern opens, and string constants assigned to names used there,
                          less those naming a file or back end (``backend='nvrtc'``) and,
                          where no source shows, the kernel's name;
                          a call through a name the file imports a keyword as (``import
                          SourceModule as SM``) opens one where the keyword's call would
``call-argument-string-or-call`` the same, or, when no call in the file shows a source
                          (one read from a file), each call's line: the API the call compiles
                          for is named nowhere else (MLX's mx.fast.metal_kernel)
``cfg-feature-item``      the Rust item a ``#[cfg(feature = "...")]`` attribute gates (to its
                          ``;``, ``,`` or closing brace), when the feature's string matches
``fortran-procedure``     a Fortran subroutine or function, from the match to its ``end``
``fortran-directive-loop`` the loop nest after a directive matched in the text with its
                          comments (``!$cuf kernel do``), to the ``end do`` closing it
``file``                  every line of the file (when the pattern, if any, matches)

A kind reads the file through ``Source``: its text and line index (``source_text``) and the
structures kinds share, each computed once per file, on first use, so each kind costs linear
time whatever the number of matches: C-family braces and function bodies (``c_structure``),
preprocessor directives and branches (``preprocessor``), logical lines and indented blocks
(``logical_lines``), string literals and what surrounds them (``string_literals``).
"""

from __future__ import annotations

import re
import string
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import islice

from bot.engine import literals
from bot.engine.c_structure import CStructure, opening_before
from bot.engine.lexer import Family, Lexed
from bot.engine.logical_lines import PY_DEF, LogicalLines
from bot.engine.precompiled import fixed_regex
from bot.engine.preprocessor import Preprocessor
from bot.engine.source_text import Keywords, SourceText, Span
from bot.engine.string_literals import (
    REFERENCE,
    CutLiterals,
    StringLiterals,
    dict_key,
    past_blanks,
)

_C_STMT_END = fixed_regex(r"[;{}]")
# Where a walk over a lambda's launch and header stops: a statement's end, a brace block to
# step over, the brackets it counts.
_LAMBDA_STOPS = fixed_regex(r"[;{}\[\]()]")
# How far after a match its lambda's capture list, and that lambda's body, are searched.
_LAMBDA_WINDOW = 4000
# What may stand between a lambda's capture list and a qualifier after it: ASCII words and
# blanks (``[=] __host__ __device__``).
_WORD_OR_BLANK = string.ascii_letters + string.digits + "_ \t\r\n"
# And how many brackets, braces and semicolons are read there: a launch's arguments and a
# lambda's header hold a few dozen, where a hostile file of unclosed brackets on every line
# would have each match read thousands, one Python step each.
_LAMBDA_STEPS = 24
# A name a call may start with (group 1), perhaps qualified (``ns::f(``), a member's
# (``flag.set(``) or with template arguments (``f<void (C::*)()>(``). A name compared
# (``i < n``) is looked up too, and found defined as no function.
_CALLED = fixed_regex(r"(?<!\w)([A-Za-z_]\w*)[ \t]*[(<]")
# Words a call's shape catches that name no function of the file.
_NOT_CALLEES = frozenset(
    {
        "if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "alignas",
        "decltype", "noexcept", "typeid", "static_assert", "static_cast", "const_cast",
        "reinterpret_cast", "dynamic_cast", "defined", "requires", "constexpr", "consteval",
        "main",
    }
)  # fmt: skip
_CALLEE_LINKS = 4  # calls followed from a kernel: its helpers, theirs, ...
_CALLEES_MAX = 1000  # definitions claimed at most for one rule in one file
_C_DECL_END = fixed_regex(r"[;{]")
_PY_DECORATOR = fixed_regex(r"[ \t]*@")
_PY_DEF_NAME = fixed_regex(r"[ \t]*(?:async[ \t]+)?def[ \t]+(\w+)")
# The first argument of a call, from its opening bracket on: a name, or the name a
# ``functools.partial`` binds. Each blank run ends where a name starts, so every match
# reads its own run once.
_PY_CALLEE = fixed_regex(r"\s*+(?:(?:functools\.)?partial\s*+\(\s*+)?([A-Za-z_]\w*)")
# A name bound to a function before a launch takes it: ``kernel = functools.partial(_k, ...)``
# or ``kernel = _k`` (a call, ``kernel = make(...)``, binds what the call returns: not read).
_PY_BOUND = fixed_regex(
    r"^[ \t]*([A-Za-z_]\w*)[ \t]*=(?!=)[ \t]*+(?:(?:functools\.)?partial[ \t]*+\(\s*+"
    r"([A-Za-z_]\w*)\s*+[,)]|([A-Za-z_]\w*)[ \t]*+$)",
    re.M,
)
_BOUND_LINKS = 3  # names followed from a launch's argument to a def: kernel = k2 = partial(k)
_NAME = fixed_regex(r"\b[A-Za-z_]\w*\b")
# A name in a call's arguments that is no keyword argument's (``backend`` of
# ``backend='nvrtc'``): a name whose value the call may be handed.
_VALUE_NAME = fixed_regex(r"\b[A-Za-z_]\w*\b(?![ \t]*=(?!=))")
_WORD = fixed_regex(r"\w+")
# The name a ``#define`` directive's first line defines.
_DEFINE_NAME = fixed_regex(r"[ \t]*\#[ \t]*define[ \t]+(\w+)")
# A macro's header: its name and its parameter list, if any.
_DEFINE_HEADER = fixed_regex(r"[ \t]*\#[ \t]*define[ \t]+\w+(?:\([^()\n]*\))?")
# Links of a chain of macros followed from a matched ``#define`` (``#define XX_DEVICE
# __device__``, then ``#define XX_DEVICE_FUNC XX_DEVICE inline``): one pass over the file's
# words a link, bounded since a pull request may define a chain as long as it likes.
_MACRO_CHAIN = 4
_DECORATOR_LINES = 200  # how far a decorator may sit above its def
_ADJACENT_GAP = 200  # blanks between two literals that still join them


class Source(SourceText):
    """A lexed file plus the structures region kinds share, each built lazily once: C-family
    braces and bodies (``c``), preprocessor directives and branches (``pp``), logical lines
    and indented blocks (``lines``), string literals (``strings``), and the C statement
    starts measured so far (``statement_starts``)."""

    __slots__ = (
        "adjacent_literals_join",
        "c",
        "continuing",
        "lambdas",
        "lines",
        "lists_join",
        "lone_continues",
        "lone_prefix",
        "macro_function",
        "pp",
        "statement_starts",
        "strings",
        "text_present",
        "within_statement",
    )

    def __init__(
        self,
        lexed: Lexed,
        family: Family,
        occurrences: dict[str, list[int]],
        present: dict[str, bool] | None = None,
        literals: CutLiterals | None = None,
    ) -> None:
        super().__init__(
            lexed, family.nesting, occurrences, family.preprocessor, family.line_statements, present
        )
        self.adjacent_literals_join = family.adjacent_literals_join
        self.lists_join = family.lists_join
        self.pp = Preprocessor(self)
        self.c = CStructure(self, self.pp)
        self.lines = LogicalLines(self)
        self.strings = StringLiterals(self, self.lines, literals)
        # Literals looked for in the text as written (``present`` is the masked code's): the
        # tag rules of several languages share them (``R"`` before R"hlsl( and R"slang().
        self.text_present: dict[str, bool] = {}
        # Match offset -> where its C statement starts: the statement and enclosing-function
        # rules of one ecosystem match the same words (``threadIdx.x``), measured once.
        self.statement_starts: dict[int, int] = {}
        # Match offset -> the body of the lambda it starts or hands to a call, or -1: the
        # SYCL and portability-layer lambda rules match the same launches, read once.
        self.lambdas: dict[int, int] = {}
        # The last function body ``_macro_function`` found in a macro (its braces' offsets)
        # and the span it returned: the matches inside that body share it, found once.
        self.macro_function: tuple[int, int, Span] | None = None
        # What the statement holding a match must open with, read up to the match, for the
        # match to count (``RuleSpec.within_statement``, set by classify before each rule's
        # kind runs).
        self.within_statement: re.Pattern[str] | None = None
        # What a literal's whole body may be and still only start a program, claimed when
        # more literals continue it (``RuleSpec.lone_prefix``, set by classify likewise).
        self.lone_prefix: re.Pattern[str] | None = None
        # What the literals joined after a lone prefix must hold to go on with its program
        # (``RuleSpec.lone_continues``, set by classify likewise).
        self.lone_continues: re.Pattern[str] | None = None
        # Per ``lone_continues`` pattern: literal -> the first literal from it on, joined, that
        # the pattern matches (-1: none), as ``_next_holding`` found it.
        self.continuing: dict[re.Pattern[str], dict[int, int]] = {}

    def finditer(self, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[re.Match[str]]:
        """``SourceText.finditer``, less the matches outside a statement ``within_statement``
        opens: a bare ``cudart`` names a CUDA library on whichever line of a
        ``target_link_libraries(`` command it stands, and nothing in a ``message()``."""
        matches = super().finditer(pattern, keywords)
        within = self.within_statement
        if within is None:
            return matches
        return (
            m
            for m in matches
            if within.match(self.masked, self.statement_start(m.start()), m.start())
        )

    def statement_start(self, offset: int) -> int:
        """Where the statement holding ``offset`` begins: a C statement's start; elsewhere the
        first line of its logical line (a command whose brackets stay open over lines)."""
        if self.family == "braces" and not self.line_statements:
            return self.c.c_statement_start(offset)
        return self.starts[self.lines.statement_first(self.line_of(offset)) - 1]

    def release(self) -> None:
        """Let go of the structures, once no kind reads them any more. Each refers back to
        this Source, a cycle that only the cycle collector frees: a file's lines, masked
        text and structures would otherwise outlive its classification until the collector
        next ran, and then cost it a traversal of them all."""
        del self.pp, self.c, self.lines, self.strings


# -- kinds ------------------------------------------------------------------------------


def _line(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    for m in src.finditer(pattern, keywords):
        yield src.span(m.start(), m.end())


def _line_statement_last(src: Source, line: int) -> int:
    """Last line of the statement at ``line`` in a language whose statements end with their
    line. In Swift or JavaScript a line ending in ``{`` opens a body (a function's, a type's,
    a closure's): the statement is that line, not the body after it, whose own statements
    are matched one by one (apple/ml-stable-diffusion: a function taking an MLShapedArray is
    one line of Core ML, not the forty of its body)."""
    last = src.lines.statement_last(line)
    if last > line and src.family == "braces" and src.lexed.lines[line - 1].rstrip().endswith("{"):
        return line
    return last


def _statement_span(src: Source, m: re.Match[str]) -> Span:
    if src.family != "braces" or src.line_statements:
        line = src.line_of(m.start())
        return line, _line_statement_last(src, line)
    start = m.start()
    directive = src.pp.directive_span(start)
    # In a function whose body a multi-line macro holds (``_macro_function``) a statement is
    # what it is outside a macro; elsewhere in the macro the match claims the macro.
    if directive and (directive[0] == directive[1] or not _macro_function(src, start, directive)):
        return directive
    end = src.next_match(_C_STMT_END, m.end())
    first = src.statement_starts.get(start)
    if first is None:
        first = src.statement_starts[start] = src.c.c_statement_start(start)
    if directive:  # past the line continuation ending the statement before
        first = _past_continuations(src.masked, first, start)
    last = end.end() - 1 if end else len(src.masked) - 1  # ``Source.span``, inlined
    starts = src.starts
    return bisect_right(starts, first), bisect_right(starts, last if last > first else first)


def _past_continuations(masked: str, pos: int, limit: int) -> int:
    """The first offset from ``pos`` on, below ``limit``, that is no blank and no line
    continuation (``\\``): where a statement inside a multi-line ``#define`` starts."""
    while pos < limit and masked[pos] in " \t\r\n\\":
        pos += 1
    return pos


#: How many braces back ``_macro_function`` looks for the function body holding a match.
_MACRO_BRACES = 64


def _macro_function(src: Source, match_start: int, directive: Span) -> Span | None:
    """The function a statement match inside a multi-line ``#define`` sits in, when its body
    opens and closes inside the macro (``_macro_declaration`` from its header to its closing
    brace); None for a match outside any such body, which claims the whole macro. A macro
    that stamps out a kernel and its host launcher for each name it is given
    (0x00b1/torchscience's TORCHSCIENCE_CUDA_COLOR_CONVERSION: two ``__global__``
    functions, then two launchers and the TORCH_LIBRARY_IMPL registration) holds thread
    indexing only in the kernels; the launchers are not device code. Statement rules cannot
    say this as data: the span is the enclosing function, found through the brace pairs."""
    known = src.macro_function
    if known is not None and known[0] < match_start < known[1]:
        return known[2]
    masked = src.masked
    header = _DEFINE_HEADER.match(masked, src.starts[directive[0] - 1])
    if header is None or header.end() > match_start:
        return None
    pairs, low, at = src.c.brace_pairs(), header.end(), match_start
    for _ in range(_MACRO_BRACES):
        brace = masked.rfind("{", low, at)
        if brace < 0:
            return None
        close = pairs.get(brace, -1)
        if close > match_start and src.c.is_function_body(brace):
            span = _macro_declaration(src, brace, brace, directive)
            if span == directive:
                return None
            src.macro_function = brace, close, span
            return span
        at = brace
    return None


def _statement(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    covered = 0  # last line of the previous statement: a match inside it adds nothing
    starts, nlines = src.starts, src.nlines
    # A statement left open to the end of the file (no ``;`` after it) holds every later
    # match: they are not searched for.
    if src.family != "braces" or src.line_statements:  # ``_statement_span``, inlined
        for m in src.finditer(pattern, keywords):
            line = bisect_right(starts, m.start())
            if line > covered:
                covered = _line_statement_last(src, line)
                yield line, covered
                if covered >= nlines:
                    return
        return
    for m in src.finditer(pattern, keywords):
        if bisect_right(starts, m.start()) <= covered:
            continue
        span = _statement_span(src, m)
        covered = span[1]
        yield span
        if covered >= nlines:
            return


def _unprobed_statement(
    src: Source, pattern: re.Pattern[str], keywords: Keywords
) -> Iterator[Span]:
    """The statement holding each match (as ``statement``), unless it is an import opening
    a Python ``try:`` block: an optional import, or a probe for a GPU (rapidsai/cuml's
    ``gpu_available_no_context_creation`` returns True when ``import cupy`` succeeds, False
    on ImportError). The code runs without the module; the lines using it count where they
    are. Read on the lines: the code line before the import (blank and comment lines
    skipped) is ``try:``, indented less."""
    masked, starts = src.masked, src.starts
    for span in _statement(src, pattern, keywords):
        if src.family == "indent" and _opens_try(masked, starts, span[0]):
            continue
        yield span


_IMPORT_LINE = fixed_regex(r"([ \t]*)(?:import|from)[ \t]")
_TRY_LINE = fixed_regex(r"([ \t]*)try[ \t]*:[ \t]*$")


def _opens_try(masked: str, starts: list[int], line: int) -> bool:
    """Whether ``line`` is an import and the code line before it is a ``try:`` above it."""
    begin = starts[line - 1]
    end = masked.find("\n", begin)
    imported = _IMPORT_LINE.match(masked, begin, end if end >= 0 else len(masked))
    if imported is None:
        return False
    above = line - 1
    while above >= 1:
        text = masked[starts[above - 1] : starts[above] - 1]
        if text.strip():
            opened = _TRY_LINE.fullmatch(text)
            return opened is not None and len(opened[1]) < len(imported[1])
        above -= 1
    return False


def _block(
    src: Source,
    matches: Iterable[tuple[int, int]],
    ends: re.Pattern[str],
    skip_directives: bool = False,
    declarations: bool = False,
) -> Iterator[Span]:
    """From each match (start, end offsets) to the end of the block or statement after it;
    a match inside a ``#define`` claims the macro. With ``declarations`` (matches qualify
    what they declare), one in a macro claims the declaration it starts there
    (``_macro_declaration``), and one qualifying a lambda starts at its capture list."""
    last_offset, starts = len(src.masked) - 1, src.starts
    directive_span, statement_start, next_match = (
        src.pp.directive_span,
        src.c.c_statement_start,
        src.next_match,
    )
    for match_start, match_end in matches:
        directive = directive_span(match_start)
        if directive:
            if declarations:
                yield _macro_declaration(src, match_start, match_end, directive)
            elif not skip_directives:
                yield directive
            continue
        start = statement_start(match_start)
        if declarations:
            # A lambda handed to a call (`launch(n, [=] __device__ (int i) {`): the call and
            # the arguments before the lambda are host launch code.
            start = max(start, _capture_list_before(src.masked, match_start))
        end = next_match(ends, match_end)
        if end is None:
            last = last_offset
        elif end.group() == ";" or _initializer(src.masked, end.start()):
            # A variable's brace initializer is data (a constant table of hundreds of lines
            # in a kernel library): the declaration is the device code, up to its brace.
            last = end.start()
        else:
            last = src.c.block_end(end.start())
        # ``Source.span(start, last + 1)``, inlined: this runs once per match.
        yield bisect_right(starts, start), bisect_right(starts, last if last > start else start)


def _initializer(masked: str, brace: int) -> bool:
    """Whether the ``{`` at ``brace`` opens a variable's initializer (``= {``; blanks
    between them read no further back than 200 characters)."""
    at, stop = brace - 1, max(brace - 200, 0)
    while at >= stop and masked[at] in " \t\r\n":
        at -= 1
    return at >= stop and masked[at] == "="


def _spans(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[tuple[int, int]]:
    return (m.span() for m in src.finditer(pattern, keywords))


def _c_function(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    return _block(src, _spans(src, pattern, keywords), _C_DECL_END, declarations=True)


def _capture_list_before(masked: str, match_start: int) -> int:
    """Offset of the lambda capture list the match qualifies (``[=] __host__ __device__``:
    a ``]`` before it, past qualifier names and blanks, that closes no attribute
    ``[[...]]``), else -1."""
    stop = max(match_start - 200, 0)
    # Read back at C speed: one Python step a character cost a file of such matches on every
    # line two hundred steps each.
    head = masked[stop + 1 : match_start]
    at = stop + len(head.rstrip(_WORD_OR_BLANK)) if head.isascii() else _word_run_start(head, stop)
    if masked[at] != "]" or masked[at - 1] == "]":
        return -1
    return masked.rfind("[", stop, at)


def _word_run_start(head: str, stop: int) -> int:
    """Offset of the last character before the run of letters, digits, ``_`` and blanks
    that ends ``head`` (which starts at ``stop + 1``), ``stop`` when the run fills it."""
    at = stop + len(head)
    while at > stop and (head[at - stop - 1].isalnum() or head[at - stop - 1] in " \t\r\n_"):
        at -= 1
    return at


def _macro_declaration(src: Source, match_start: int, match_end: int, directive: Span) -> Span:
    """The declaration a match inside a multi-line ``#define`` starts, from its statement's
    start in the macro to its ``;`` or its body's closing brace, when that ends inside the
    macro; else the whole macro. A macro may wrap host code around its device code: a launch
    around one ``__device__`` lambda (jinluchang/Qlattice's qacc_forNB: 20 lines, one of
    them the lambda), or functor structs around their device operator() (kabasset/
    KokkosTest's LINX_DEFINE_BINARY_OPERATOR)."""
    masked, starts = src.masked, src.starts
    header = _DEFINE_HEADER.match(masked, starts[directive[0] - 1])
    macro_end = src.pp.directive_end(match_start)
    if header is None or macro_end is None or header.end() > match_start:
        return directive
    begin = max(header.end(), *(masked.rfind(c, header.end(), match_start) + 1 for c in ";{}"))
    begin = _past_continuations(masked, begin, match_start)
    end = _C_DECL_END.search(masked, match_end, macro_end)
    if end is None:
        return directive
    last = end.start() if end.group() == ";" else src.c.block_end(end.start())
    if last >= macro_end:
        return directive
    return bisect_right(starts, begin), bisect_right(starts, last)


#: Up to this many names, ``_uses`` finds each with ``str.find`` (a scan at C speed per name,
#: Python only at its occurrences); past it, one pass over the file's words.
_FIND_EACH = 8


def _uses(masked: str, names: set[str], skip: set[int]) -> Iterator[tuple[int, int]]:
    """Offsets of every use of one of ``names`` as a whole word (not after ``#``), in order,
    but those starting at an offset in ``skip``.

    A whole-word use is a maximal run of word characters equal to a name. A few names are
    each found where they occur: a pass over every word of the file (a match object and a
    set lookup each) cost more than the rest of the rule on large files. Many names take
    that pass, linear whatever the names. (An Aho-Corasick automaton of the names is not:
    ahocorasick-rs builds one for 16,000 names like M0..M15999 in half a second, four times
    as long for twice as many, and a pull request may define that many.)
    """
    if len(names) > _FIND_EACH:
        for m in _WORD.finditer(masked):
            if m.group() in names:
                start = m.start()
                if start not in skip and (not start or masked[start - 1] != "#"):
                    yield start, m.end()
        return
    found: list[tuple[int, int]] = []
    size = len(masked)
    for name in names:
        # A name holding a character no word has can be no run of word characters.
        start = masked.find(name) if _WORD.fullmatch(name) else -1
        while start >= 0:
            end = start + len(name)
            # A word character is what re's \w matches: alphanumeric (str.isalnum) or "_".
            before = masked[start - 1] if start else " "
            after = masked[end] if end < size else " "
            if (
                not (before.isalnum() or before in "_#")
                and not (after.isalnum() or after == "_")
                and start not in skip
            ):
                found.append((start, end))
            start = masked.find(name, end)
    found.sort()
    yield from found


def _c_macro_function(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    """The macro a ``#define`` names (group 1) qualifies functions: each use starts one, and
    so does each use of a macro defined from it (a chain, ``_MACRO_CHAIN`` links deep)."""
    names: set[str] = set()
    defined: set[int] = set()  # where each name is defined: in its #define, so not a use
    for m in src.finditer(pattern, keywords):
        directive = src.pp.directive_span(m.start())
        if directive:
            # A macro that holds the whole function it qualifies, body and all, beside host
            # code (a launcher stamped out with its kernel) claims that function only; one
            # that writes just the header claims the macro. The match ends at the qualifier.
            qualifier = m.end() - len("__global__")  # as long as "__device__"
            yield _macro_declaration(src, qualifier, m.end(), directive)
            names.add(m.group(1))
            defined.add(m.start(1))
    if not names:
        return
    masked, starts = src.masked, src.starts
    newest = names  # each link reads the uses of the names the last one found, only
    for _ in range(_MACRO_CHAIN):
        linked: set[str] = set()
        for start, _end in _uses(masked, newest, defined):
            directive = src.pp.directive_span(start)
            if directive is None:
                continue
            define = _DEFINE_NAME.match(masked, starts[directive[0] - 1])
            if define and define.start(1) < start and define.group(1) not in names:
                yield directive
                linked.add(define.group(1))
                defined.add(define.start(1))
        if not linked:
            break
        names, newest = names | linked, linked
    yield from _block(src, _uses(masked, names, defined), _C_DECL_END, skip_directives=True)


def _c_enclosing_function(
    src: Source, pattern: re.Pattern[str], keywords: Keywords
) -> Iterator[Span]:
    """The function or lambda whose body holds each match, from its declaration's start to
    its closing brace; a match in a ``#define`` claims the macro, one outside any function
    body its statement."""
    matches: list[re.Match[str]] = []
    last: Span | None = None
    starts = src.starts
    for m in src.finditer(pattern, keywords):
        directive = src.pp.directive_span(m.start())
        if directive is None:
            matches.append(m)
            continue
        line = bisect_right(starts, m.start())
        if last is not None and last[0] <= line <= last[1]:
            continue  # many matches share one macro, or one function in it
        # A multi-line macro may stamp out device and host functions: the match claims the
        # function holding it there (``_macro_function``), else the macro.
        inner = _macro_function(src, m.start(), directive) if directive[1] > directive[0] else None
        last = inner or directive
        yield last
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
        brace, close = src.c.nearest_function(start)
        if brace < 0:
            if bisect_right(starts, start) > covered:
                span = _statement_span(src, m)
                covered = span[1]
                yield span
            continue
        # Inside a preprocessor branch of the body (the CUDA branch beside a SYCL one), the
        # branch is the device code, not the whole function.
        branch = src.pp.branch_in(brace, start, close) if src.preprocessor else None
        if branch is not None:
            yield branch
        else:
            function = done.get(brace)
            if function is None:
                first = src.c.c_statement_start(brace)
                function = done[brace] = bisect_right(starts, first), bisect_right(starts, close)
            claimed = close
            one_line = function[0] if function[0] == function[1] else 0
            yield function


def _c_block_statement(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    return _block(src, _spans(src, pattern, keywords), _C_DECL_END)


def _c_lambda(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    """The lambda each match starts or hands to a call, from its capture list's line to its
    body's closing brace (a match in a ``#define`` claims the macro). The lines launching it
    (``q.submit``, ``cgh.parallel_for<K>(``, a range on a line of its own) are host code,
    and a call handed a kernel object (``cgh.single_task(k);``) holds no lambda."""
    starts = src.starts
    for m in src.finditer(pattern, keywords):
        directive = src.pp.directive_span(m.start())
        if directive:
            yield directive
            continue
        introducer = m.start() if _introduces(m) else _capture_list(src, m.start())
        if introducer < 0:
            continue
        body = src.lambdas.get(introducer)
        if body is None:
            body = src.lambdas[introducer] = _lambda_body(src, introducer)
        if body >= 0:
            yield bisect_right(starts, introducer), bisect_right(starts, src.c.block_end(body))


def _introduces(m: re.Match[str]) -> bool:
    """Whether a match opens its lambda itself: at a capture list (``[=] AMREX_GPU_DEVICE``),
    or as one name alone, a macro spelling the capture list (``KOKKOS_LAMBDA`` expands to
    ``[=] __host__ __device__``)."""
    return m.group()[:1] == "[" or _NAME.fullmatch(m.group()) is not None


def _capture_list(src: Source, start: int) -> int:
    """Offset of the first lambda capture list in the call from ``start`` (a ``[`` after
    ``(``, ``,`` or ``=``, where a subscript follows a name), brace-initialised arguments
    stepped over; -1 when the statement ends first or ``_LAMBDA_STEPS`` stops come first."""
    return _read_brackets(src, start, min(len(src.masked), start + _LAMBDA_WINDOW), None)


def _lambda_body(src: Source, introducer: int) -> int:
    """Offset of the ``{`` opening the body of the lambda whose capture list (or a macro
    spelling it) opens at ``introducer``, or -1: past the capture list (whose init-captures may be
    brace-initialised, ``[=, d = accessor<T> { a }]``), the parameter list if any, and the
    qualifiers and attributes before the body."""
    masked = src.masked
    stop = min(len(masked), introducer + _LAMBDA_WINDOW)
    if masked[introducer] == "[":
        after = _bracket_end(src, introducer, stop)
        if after < 0:
            return -1
    else:  # a macro spelling the capture list (KOKKOS_LAMBDA): step over its name
        after = introducer
        while after < stop and (masked[after].isalnum() or masked[after] == "_"):
            after += 1
    while after < stop and masked[after] in " \t\r\n":
        after += 1
    if after < stop and masked[after] == "(":
        after = _bracket_end(src, after, stop)
        if after < 0:
            return -1
    end = _C_STMT_END.search(masked, after, stop)
    return end.start() if end is not None and end.group() == "{" else -1


def _bracket_end(src: Source, opening: int, stop: int) -> int:
    """Offset just past the ``]`` or ``)`` closing the bracket at ``opening``, brace blocks
    inside stepped over; -1 when a statement ends first, or ``stop`` or ``_LAMBDA_STEPS``
    stops come."""
    return _read_brackets(src, opening, stop, src.masked[opening])


def _read_brackets(src: Source, start: int, stop: int, opener: str | None) -> int:
    """The brackets from ``start`` read up to ``stop``, brace blocks stepped over, for
    ``_bracket_end`` (``opener``: the bracket at ``start``, whose closing one is sought) or
    ``_capture_list`` (None: the first ``[`` opening a capture list is sought); -1 at the
    statement's end (a ``;`` or ``}``) or after ``_LAMBDA_STEPS`` stops. One loop for both,
    not a generator of brackets: hostile inputs at the speed floor run through it."""
    # The walk ends well only at the bracket it seeks: where none stands before ``stop`` (a
    # header that never closes, on every line of a hostile file), no stop is read one by one.
    sought = "[" if opener is None else "]" if opener == "[" else ")"
    if src.masked.find(sought, start, stop) < 0:
        return -1
    return _walk_brackets(src, start, stop, opener)


def _walk_brackets(src: Source, start: int, stop: int, opener: str | None) -> int:
    """``_read_brackets``'s walk, stop by stop (its look for the bracket sought aside)."""
    masked, pairs = src.masked, src.c.brace_pairs()
    closer = "]" if opener == "[" else ")"
    depth, at = 0, start
    steps = _LAMBDA_STEPS
    while steps and (found := _LAMBDA_STOPS.search(masked, at, stop)) is not None:
        steps -= 1
        pos, char = found.start(), found.group()
        if char in ";}":
            return -1
        if char == "{":
            at = pairs.get(pos, stop) + 1
            continue
        if opener is None:
            if char == "[" and masked[max(pos - 200, 0) : pos].rstrip()[-1:] in ("(", ",", "="):
                return pos
        elif char == opener:
            depth += 1
        elif char == closer:
            depth -= 1
            if not depth:
                return pos + 1
        at = pos + 1
    return -1


def called_functions(src: Source, spans: Iterable[Span]) -> list[Span]:
    """The functions of the same file that ``spans`` (C-family device code: kernels) call
    by name, and those these call, ``_CALLEE_LINKS`` links deep, each from its
    declaration's start (``template<...>`` included) to its closing brace. A SYCL kernel's
    callees compile for the device with it (oneDPL's tests: the lambda calls `kernel_test()`,
    which calls the helpers holding the checks). A member function is found by its name, as
    called through ``.`` or ``->`` (oneDPL's radix sort calls its peer-prefix helper's
    ``__peer_contribution``): without types, any of the file's definitions of that name. A
    definition holding one of ``spans`` is the host code launching it, never its callee."""
    masked, starts = src.masked, src.starts
    found = dict.fromkeys(spans)
    seeds = list(found)
    callees: list[Span] = []
    # Each region is read from its first brace: a launch sharing the lambda's first line
    # (`h.single_task([=] {`) calls the runtime, not a device function.
    bounds = []
    for first, last in seeds:
        end = starts[last] if last < len(starts) else len(masked)
        brace = masked.find("{", starts[first - 1], end)
        bounds.append((brace if brace >= 0 else starts[first - 1], end))
    definitions: dict[str, list[tuple[int, int]]] | None = None
    seen: set[str] = set()
    for _ in range(_CALLEE_LINKS):
        # findall hands back the names at C speed: no match object a call.
        names = set().union(
            *(_CALLED.findall(masked, start, end) for start, end in _merged(bounds))
        )
        names -= seen | _NOT_CALLEES
        if not names:
            break
        seen |= names
        if definitions is None:
            definitions = _definitions(src)
        bounds = []
        for name_at, brace in sorted(d for name in names for d in definitions.get(name, ())):
            close = src.c.block_end(brace)
            first = bisect_right(starts, src.c.c_statement_start(name_at))
            span = first, bisect_right(starts, close)
            if span in found or any(first <= seed[0] <= span[1] for seed in seeds):
                continue
            found[span] = None
            callees.append(span)
            bounds.append((brace, close))
            if len(callees) >= _CALLEES_MAX:
                return callees
    return callees


def _merged(bounds: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``bounds`` with overlapping stretches joined: regions that nest or run on to the
    file's end (an unclosed kernel body on every line) are read once, not once each."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(bounds):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _definitions(src: Source) -> dict[str, list[tuple[int, int]]]:
    """Each named function body of the file, by name: where its name starts and its ``{``.
    Read once from the file's braces (each header is read back to the statement before it,
    so the whole costs about one pass over the file), where looking ahead of every use of a
    called name for a body would read the same stretch again for each use (``f(`` on every
    line of a hostile file)."""
    found: dict[str, list[tuple[int, int]]] = {}
    for brace in src.c.brace_pairs():
        named = src.c.function_name(brace)
        if named is not None and named[0]:
            found.setdefault(named[0], []).append((named[1], brace))
    return found


def _pp_branches(
    src: Source, pattern: re.Pattern[str], keywords: Keywords, else_branch: bool
) -> Iterator[Span]:
    branches, starts = src.pp.pp_branches(), src.starts
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
    block_end = src.lines.block_end  # the matched defs' blocks alone, not every one
    starts = src.lines.logical_starts()
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
                # A decorator line goes on to the next without a regex (but Julia's
                # ``@kernel function f(``, which PY_DEF takes as a def).
                if text.lstrip(" \t").startswith("@") and "function" not in text:
                    continue
                if starts[line - 1] and PY_DEF.match(text):
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
            yield first, block_end(def_line)


def _python_enclosing_def(
    src: Source, pattern: re.Pattern[str], keywords: Keywords
) -> Iterator[Span]:
    ends, enclosing = src.lines.blocks()
    lines = src.lexed.lines
    # A match inside the statement or def already yielded adds nothing: without this, every
    # match in one long unclosed statement would measure that statement again.
    covered = last_def = 0
    for m in src.finditer(pattern, keywords):
        line = src.line_of(m.start())
        def_line = enclosing[line - 1]
        if not def_line:
            if line > covered:
                span = _statement_span(src, m)
                covered = span[1]
                yield span
            continue
        if def_line == last_def:
            continue
        last_def = def_line
        yield _decorated_def(lines, ends, def_line)


def _python_called_def(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    """A launch names its kernel (``pl.pallas_call(_add_kernel, ...)``; the match ends at
    the call's opening bracket): the kernel is the def of that name, whatever its body holds
    (a Pallas kernel may only index its Refs), and the launch around it is not."""
    defined: dict[str, list[int]] | None = None
    names: frozenset[str] = frozenset()  # every def's name, those yielded included
    bound: dict[str, list[str]] | None = None
    expanded: set[str] = set()  # bound names read (``_bound_defs``)
    ends: dict[int, int] = {}
    lines = src.lexed.lines
    for m in src.finditer(pattern, keywords):
        if defined is None:
            ends, _ = src.lines.blocks()
            defined = {}
            for def_line in ends:
                name = _PY_DEF_NAME.match(lines[def_line - 1])
                if name is not None:
                    defined.setdefault(name[1], []).append(def_line)
            names = frozenset(defined)
        # The name is read from the call's opening on, over blank and comment lines (blank
        # in the masked text): where the arguments start is the author's layout.
        callee = _PY_CALLEE.match(src.masked, m.end())
        if callee is None:
            continue
        called = [callee[1]]
        if callee[1] not in names:
            # No def of that name: a variable the kernel was bound to first (JAX's own
            # Pallas ops write ``kernel = functools.partial(_flash_kernel, ...)``).
            if bound is None:
                bound = {}
                for b in _PY_BOUND.finditer(src.masked):
                    bound.setdefault(b[1], []).append(b[2] or b[3])
            called = _bound_defs(callee[1], names, bound, expanded)
        # A name's defs are yielded once: later launches of it add nothing (a file of many
        # defs and launches of one name would otherwise cost their product).
        for called_name in called:
            for def_line in defined.pop(called_name, ()):
                yield _decorated_def(lines, ends, def_line)


def _bound_defs(
    name: str, names: frozenset[str], bound: dict[str, list[str]], expanded: set[str]
) -> list[str]:
    """The defs (of ``names``) that ``name`` is bound to, over at most ``_BOUND_LINKS``
    assignments. A name is expanded once a file (``expanded``): its defs were found then, so
    a file of many launches and bindings costs what its bindings do, not their product."""
    found: list[str] = []
    frontier = [name]
    for _ in range(_BOUND_LINKS):
        following: list[str] = []
        for current in frontier:
            if current in expanded:
                continue
            expanded.add(current)
            for target in bound.get(current, ()):
                (found if target in names else following).append(target)
        frontier = following
    return found


def _decorated_def(lines: list[str], ends: dict[int, int], def_line: int) -> Span:
    """The ``def`` at ``def_line`` with the decorators stacked above it, to the block's end.

    Blank and comment lines (blank in ``lines``) may sit between a decorator and what it
    decorates: Python allows it, and a count must not change when one is added."""
    first = line = def_line
    while line > 1:
        text = lines[line - 2]
        if _PY_DECORATOR.match(text):
            first = line - 1
        elif text.strip():
            break
        line -= 1
    return first, ends.get(def_line, def_line)


def _string_literal(
    src: Source,
    pattern: re.Pattern[str],
    keywords: Keywords,
    mentioned: Callable[[Source, int, int], bool] | None = None,
) -> Iterator[Span]:
    """Each string literal whose body matches, with the literals adjacent to it: C and Python
    join ``"__kernel void f(...)\\n" "{\\n" ...`` into one program, line by line. With
    ``mentioned``, a literal for which it holds is passed over."""
    for start, end in _string_programs(src, pattern, keywords, mentioned):
        yield from _program_lines(src, *src.span(start, end))


def _tagged_string(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    """Each string literal that opens where a match of the pattern ends, in the text with its
    comments: a comment tagging the literal's language (``/* glsl */ `...```, the convention
    editors highlight and three.js's shader chunks follow) says what the body holds, however
    small a piece of a program it is, where its content alone (a uniform, an ``#ifdef``)
    could be anything. The text is searched whole (a tag stands in a comment or a literal,
    which the keyword windows mask): only when it holds what a match needs, at memchr speed."""
    text = src.lexed.text
    if not literals.may_match_ahead(pattern, text, src.text_present):
        return
    strings = src.lexed.strings
    for m in pattern.finditer(text):
        index = bisect_left(strings, (m.end(),))
        if index < len(strings) and strings[index][0] == m.end():
            yield from _program_lines(src, *src.span(*strings[index]))


def _string_programs(
    src: Source,
    pattern: re.Pattern[str],
    keywords: Keywords,
    mentioned: Callable[[Source, int, int], bool] | None = None,
) -> Iterator[tuple[int, int]]:
    """The offsets of each program ``_string_literal`` finds: a matching literal and the
    literals adjacent to it."""
    strings, masked = src.lexed.strings, src.masked
    joined = _adjacent if src.adjacent_literals_join else _added
    reached = -1  # last literal already claimed with its neighbours
    holding = src.strings.strings_holding(keywords)
    body = src.strings.body_reader(len(holding))
    # A list joined into one string (a shader a line per item) is one program: each list's
    # items searched once, whatever number of its literals hold a keyword.
    lists: dict[tuple[int, int], bool] = {}
    lone = src.lone_prefix
    for index in holding:
        if index <= reached:
            continue
        listed = src.strings.joined_list(index) if src.lists_join else None
        if listed is not None:
            extent = listed.first, listed.last
            found = lists.get(extent)
            if found is None:
                found = pattern.search(listed.body) is not None and not (
                    lone is not None and lone.fullmatch(listed.body)
                )
                lists[extent] = found
            if not found:
                continue
        elif not pattern.search(body(index)) or (
            lone is not None and lone.fullmatch(body(index)) and not _continued(src, pattern, index)
        ):
            continue
        if mentioned is not None and mentioned(src, *strings[index]):
            continue
        if listed is not None:
            first, last = listed.first, listed.last
        else:
            first = index
            while first > 0 and first - 1 > reached and joined(masked, strings, first - 1):
                first -= 1
            last = index
            while last + 1 < len(strings) and joined(masked, strings, last):
                last += 1
        reached = last
        yield strings[first][0], strings[last][1]


def _continued(src: Source, pattern: re.Pattern[str], index: int) -> bool:
    """Whether literal ``index`` goes on in the literals after it: one joined to it, or the
    next item of a list (after a comma) whose program the pattern matches itself, more than
    a prefix alone (a table of ``#version`` lines is none: aras-p/hlsl2glslfork's
    hlslLinker.cpp). An array of
    pieces handed to glShaderSource holds the ``#version`` line in an item of its own
    (vladiant/OpenGLsamples' opengl_util.cpp); a test comparing a lone ``#version`` line
    (``assert_equal "#version 300 es\\n", out``) holds no shader. An item's literal that is
    a lone prefix itself (``"void main() {\\n"``) goes on with the shader when the item's
    next literal is joined to it."""
    strings, masked = src.lexed.strings, src.masked
    if index + 1 >= len(strings):
        return False
    joined = _adjacent if src.adjacent_literals_join else _added
    if joined(masked, strings, index):
        return _goes_on(src, index)
    if masked[strings[index][1] : strings[index + 1][0]].strip() != ",":
        return False
    body, lone = src.strings.body_reader(1), src.lone_prefix
    last = min(len(strings) - 1, index + _CONTINUATION)
    item = index + 1  # the next item's literals, joined to one another
    while not pattern.search(body(item)) or (
        lone is not None
        and lone.fullmatch(body(item))
        and not (item < last and joined(masked, strings, item))
    ):
        if item == last or not joined(masked, strings, item):
            return False
        item += 1
    return True


#: Literals of a list's next item read for the program a lone prefix literal starts.
_CONTINUATION = 200


def _goes_on(src: Source, index: int) -> bool:
    """Whether the literals joined after lone prefix ``index`` hold what the rule's
    ``lone_continues`` asks (any do without one): a test handing a toy language's
    ``void main() {`` program to its compiler, a literal a line, holds no GLSL."""
    wanted = src.lone_continues
    if wanted is None:
        return True
    hit = _next_holding(src, wanted, index + 1)
    return 0 <= hit <= index + _CONTINUATION


def _next_holding(src: Source, wanted: re.Pattern[str], start: int) -> int:
    """The first literal from ``start`` on, each joined to the one before it, whose body
    ``wanted`` matches; -1 when the joined run ends first. Remembered for every literal read
    (the answer is the same from each of them): a run of lone prefixes joined to one another
    would otherwise each read the literals after it (1 MB of them took 10 s)."""
    memo = src.continuing.setdefault(wanted, {})
    strings, masked = src.lexed.strings, src.masked
    joined = _adjacent if src.adjacent_literals_join else _added
    body = src.strings.body_reader(1)
    read: list[int] = []
    item, found = start, -1
    while (known := memo.get(item)) is None:
        read.append(item)
        if wanted.search(body(item)):
            found = item
            break
        if item + 1 >= len(strings) or not joined(masked, strings, item):
            break
        item += 1
    else:
        found = known
    memo.update(dict.fromkeys(read, found))
    return found


def _single_source_string(
    src: Source, pattern: re.Pattern[str], keywords: Keywords
) -> Iterator[Span]:
    """``string-literal``, less the host functions of a single-source program: a CUDA or HIP
    program held whole in a string (a script writing a .cu file for nvcc, a test handing one
    to the compiler) holds ``int main()`` and host helpers beside its kernels, and only its
    ``__global__`` and ``__device__`` functions and declarations are device code. A program
    with neither ``main()`` nor a ``<<<`` launch is all device code."""
    text = src.lexed.text
    for start, end in _string_programs(src, pattern, keywords):
        # Only a whole program (a main(), a launch) has host functions: a source handed to
        # NVRTC is device code throughout (helpers need no __device__ with -default-device).
        whole = text.find("<<<", start, end) >= 0 or _MAIN.search(text, start, end)
        host = _host_functions(src, start, end) if whole else set()
        if whole:
            # Its #include lines serve the host code as much as the kernels: a porting
            # engineer counts neither (tinafengfun/sycl_gen's harnesses, issue 27).
            host.update(src.line_of(m.start()) for m in _INCLUDE_LINE.finditer(text, start, end))
        for first, last in _program_lines(src, *src.span(start, end)):
            run = 0
            for number in range(first, last + 1):
                if number in host:
                    if run:
                        yield run, number - 1
                        run = 0
                elif not run:
                    run = number
            if run:
                yield run, last


# A replacement field of a str.format or f-string template (``lbm({params})``) is text
# the template fills in, not a brace of the program (lettucecfd/lettuce's cuda_native
# templates); its doubled braces still pair up as the program's own.
_FORMAT_FIELD = fixed_regex(r"\{\w+\}")
_TOP_LEVEL = fixed_regex(_FORMAT_FIELD.pattern + "|[{};]")
_MAIN = fixed_regex(r"\bint[ \t]+main[ \t]*\(")
_HEADER_CHARS = 2000
# What may follow a function's parameter list before its body: qualifiers, a trailing return.
_AFTER_PARAMETERS = fixed_regex(r"(?:[ \t\r\n]|const\b|noexcept\b|override\b|->[ \t]*[\w:<>*&]+)*")
_NOT_FUNCTIONS = frozenset({"if", "for", "while", "switch", "return", "sizeof"})
_TRANSPARENT = fixed_regex(r"(?:\bnamespace\b[\w: \t]*|\bextern[ \t]+\\?\"C\\?\"[ \t]*)$")
_DEVICE_QUALIFIED = fixed_regex(r"\b__(?:global|device)__\b")
_DEVICE_MACRO = fixed_regex(
    r"^[ \t\"]*\#[ \t]*define[ \t]+(\w+)[ \t][^\n]*\b__(?:global|device)__\b", re.M
)
_DIRECTIVE_LINE = fixed_regex(r"^[ \t]*\#[^\n]*$", re.M)
_INCLUDE_LINE = fixed_regex(r'^[ \t"]*\#[ \t]*include\b', re.M)


def _host_functions(src: Source, start: int, end: int) -> set[int]:
    """Lines of the top-level functions in the program text ``start``..``end`` that are
    neither ``__global__`` nor ``__device__``: host code. Braces are counted in the text as
    written (the quotes of C's adjacent literals hold none); ``namespace`` and ``extern "C"``
    blocks are looked through."""
    text = src.lexed.text
    host: set[int] = set()
    # A program's own qualifier macros (``#define HD __host__ __device__``) mark device code.
    device = _DEVICE_QUALIFIED
    macros = [m[1] for m in islice(_DEVICE_MACRO.finditer(text, start, end), 50)]
    if macros:
        device = re.compile(rf"{_DEVICE_QUALIFIED.pattern}|\b(?:{'|'.join(macros)})\b")
    depth = 0
    segment = start  # where the current top-level declaration began
    opened = -1  # offset of the host function being read, -1 outside one
    for m in _TOP_LEVEL.finditer(text, start, end):
        char = m[0]
        if len(char) > 1:
            continue  # a format field
        if char == ";":
            if not depth:
                segment = m.end()
        elif char == "{":
            if not depth:
                # A header is never longer than this: a hostile segment is cut, not rescanned.
                cut = max(segment, m.start() - _HEADER_CHARS)
                header = _WRAPPING_QUOTES.sub(" ", text[cut : m.start()]).rstrip()
                header = _FORMAT_FIELD.sub("x", header)
                # Preprocessor lines above the declaration are none of its header.
                header = _DIRECTIVE_LINE.sub("", header)
                if _TRANSPARENT.search(header):
                    segment = m.end()
                    continue
                if _is_function_header(header) and not device.search(header):
                    opened = _header_start(text, segment, m.start())
            depth += 1
        elif depth:
            depth -= 1
            if not depth:
                if opened >= 0:
                    first, last = src.span(opened, m.end())
                    host.update(range(first, last + 1))
                    opened = -1
                segment = m.end()
        else:
            segment = m.end()  # a looked-through block closing
    return host


def _is_function_header(header: str) -> bool:
    """Whether ``header`` ends in a name, its parameter list and only qualifiers: a function's
    header. Read backward from the end in one pass; ``=`` (a lambda, an initializer) and a
    class, struct or enum head are no function's."""
    close = header.rfind(")")
    if close < 0 or not _AFTER_PARAMETERS.fullmatch(header, close + 1):
        return False
    at = opening_before(header, close, "()", "=;{}")
    if at < 0:
        return False
    name = header[:at].rstrip().rsplit(None, 1)[-1:] if at > 0 else []
    word = name[0].rsplit("::", 1)[-1].lstrip("*&") if name else ""
    return word.isidentifier() and word not in _NOT_FUNCTIONS


# Quotes and escaped newlines that wrap a C program's lines in adjacent literals.
_WRAPPING_QUOTES = fixed_regex(r'\\[nrt]|"')


def _header_start(text: str, segment: int, brace: int) -> int:
    """The offset of the first line of the declaration before ``brace`` that is neither blank
    nor a preprocessor line (the ``#include`` lines above ``int main()`` stay device code)."""
    at = segment
    while at < brace:
        eol = text.find("\n", at, brace)
        line = _WRAPPING.sub("", text[at : eol if eol >= 0 else brace]).lstrip("rRbBuUfF")
        if line and not line.startswith(("#", "//")):
            return at
        if eol < 0:
            break
        at = eol + 1
    return at


# What wraps an embedded program's line in its host language: quotes, a raw string's
# delimiters, escaped newlines and tabs, joining ``+`` and ``,``, the closing ``;``.
_WRAPPING = fixed_regex(r"""R"\w*\(|\)\w*"|\\[nrt]|\\$|["'`+,;()\s]""")
# What a line inside a literal holds that is no program text: blanks, escaped line ends and
# a backslash continuing the literal (imgui's HLSL `\` lines).
_ESCAPES_BLANK = fixed_regex(r"\\[nrt]|\\$|\s")
# A line holding only a literal of blanks and escaped newlines (``" \\n"``).
_BLANK_LITERAL = fixed_regex(r'[ \t]*"(?:[ \t]|\\[nrt])*"[ \t]*\r?\n?')
# A line whose last literal ends before its program line does (no escaped newline before
# the closing quote): the next line's literal goes on with the same program line.
_OPEN_LITERAL_END = fixed_regex(r'(?<!\\n)"[ \t,+]*\r?\n?$')
# The first quote of a line: what follows it on the line that opens a program is the
# program's first text, which may open a comment (`out.write("/* license ...`).
_FIRST_QUOTE = fixed_regex(r"""["'`]""")


def _program_lines(src: Source, first: int, last: int) -> Iterator[Span]:
    """The runs of lines ``first``..``last`` of a program held in string literals that hold
    its code: the blank lines and comments inside the literals (a license at the top of a
    WGSL or CUDA string) are no more kernel code than they are in a kernel file. The lines
    that open and close the literals stay (unless a comment opens them, there or after the
    literal's quote on the opening line), as the statement holding the program, unless a
    line holds only a literal of blanks (``" \\n"``) with the statement on other lines."""
    text, starts = src.lexed.text, src.starts
    run = 0  # first line of the run being built, 0 between runs
    in_comment = False
    for number in range(first, last):
        line = _line_text(text, starts, number)
        content = _WRAPPING.sub("", line)
        opens = content.startswith("/*")
        if number == first and not opens and (quote := _FIRST_QUOTE.search(line)):
            opens = _WRAPPING.sub("", line[quote.end() :]).startswith("/*")
        if in_comment or opens:
            code, in_comment = False, "*/" not in content
        else:
            code = (
                bool(content)
                or (number == first and not _blank_literal(line))
                or _closing_inside(src, line, starts[number - 1])
                or (
                    run > 0
                    and _blank_literal(line)
                    and _ends_open(_line_text(text, starts, number - 1))
                )
            ) and not content.startswith("//")
        if code:
            run = run or number
        elif run:
            yield run, number - 1
            run = 0
    if (
        first < last
        and _blank_literal(_line_text(text, starts, last))
        and not (run and _ends_open(_line_text(text, starts, last - 1)))
    ):
        # A closing literal that holds only a newline (ViennaCL's generated sources end each
        # kernel on `" \n"`, its `;` on the next line) is no more code than the blank one
        # that opens them.
        if run:
            yield run, last - 1
        return
    yield run or last, last


def _line_text(text: str, starts: list[int], number: int) -> str:
    end = starts[number] if number < len(starts) else len(text)
    return text[starts[number - 1] : end]


def _ends_open(line: str) -> bool:
    """Whether ``line`` ends on a literal whose program line goes on into the next line's
    literal: a formatter that wraps each program line in two literals (the text, then
    ``" \\n"`` padded out to the column) leaves the newline on the second, and that line
    is as much the kernel's as the first (ROCm/clr's ocltst kernels)."""
    return _OPEN_LITERAL_END.search(line) is not None


def _blank_literal(line: str) -> bool:
    """Whether ``line`` holds nothing but one C-style literal of blanks and escaped
    newlines (``" \\n"``), the statement that holds it on other lines."""
    return _BLANK_LITERAL.fullmatch(line) is not None


def _closing_inside(src: Source, line: str, start: int) -> bool:
    """Whether ``line`` (from offset ``start``), blank once the quotes, brackets and
    separators wrapping literals are stripped, is a line of the program itself: one inside a
    literal from its first character to its newline (a kernel's ``);`` closing a call it
    spreads over lines) that holds more than blanks and a backslash continuing the literal."""
    if not _ESCAPES_BLANK.sub("", line):
        return False
    strings = src.lexed.strings
    index = bisect_left(strings, (start,)) - 1
    return index >= 0 and strings[index][1] >= start + len(line)


def _python_string_def(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    """The innermost ``def`` (with its decorators) holding a one-line string literal whose
    body matches, else the literal: a code generator writing a kernel one line per call
    (``code.writeline("x = tl.load(p + offs)")``) holds the kernel's text in its body, the
    calls that write its plain lines (``code.writeline("):")``) included. A literal of
    several lines holds its kernel itself, from the line of the match on: a slide or an
    LLM prompt quoting a kernel after a paragraph of prose does not make the function laying
    it out, nor the prose, kernel. A literal the code only mentions is no piece of a kernel
    (``_mentioned``): a test of the generated text, or a search for the text in another
    (``content.find("@triton.jit")``)."""
    ends, enclosing = src.lines.blocks()
    lines = src.lexed.lines
    last_def = 0
    for start, end in _string_programs(src, pattern, keywords, _mentioned):
        first, last = src.span(start, end)
        def_line = enclosing[first - 1]
        if last > first:
            # The match's own line: the pattern is run again on this literal's body alone,
            # once (sliced past its quote, as a pattern anchors at the body's start).
            text = src.lexed.text
            quote = _OPENING_QUOTE.match(text, start, end)
            body = quote.end() if quote else start
            found = pattern.search(text[body:end])
            if found:
                first = max(first, bisect_right(src.starts, body + found.end() - 1))
            for lo, hi in _jit_defs(src, first, last):
                yield from _program_lines(src, lo, hi)
            continue
        if not def_line:
            yield from _program_lines(src, first, last)
            continue
        if def_line == last_def:
            continue
        last_def = def_line
        yield _decorated_def(lines, ends, def_line)


def _jit_defs(src: Source, first: int, last: int) -> Iterator[Span]:
    """Lines ``first``..``last`` of a literal holding a Python program, less its host code
    when ``first`` opens with a ``@triton.`` decorator on a line of its own: the decorated
    ``def`` and its indented body are the kernel, and a launcher or test ``def`` after it
    (an LLM's answer quoted whole: kernel, then ``def add(x, y)`` calling it) is host code, as
    it is in a ``.py`` file. Another ``@triton.`` decorator at the same indentation opens
    the next kernel. A literal whose match is no such line is kept whole from ``first``."""
    text, starts = src.lexed.text, src.starts
    line = _line_text(text, starts, first)
    base = len(line) - len(line.lstrip(" \t"))
    if not line.startswith("@triton.", base):
        yield first, last
        return
    start, end, header = first, first, True
    for number in range(first + 1, last + 1):
        line = _line_text(text, starts, number)
        code = line.lstrip(" \t")
        if not code.strip() or code.startswith("#"):
            continue  # a comment may sit at any column, in a body or between kernels
        indent = len(line) - len(code)
        if number == last and _CLOSING_ONLY.match(code):
            break  # the literal's closing quote: the statement holding the program
        if indent > base or (indent == base and code[0] in ")]"):
            end = number  # the body, or a signature spread over lines
        elif indent == base and code.startswith("@triton."):
            if not start:
                start = number
            end, header = number, True
        elif start and header and indent == base and code.startswith(("def ", "async def ")):
            end, header = number, False
        elif start:
            yield start, end
            start = 0
    else:
        if start:
            yield start, end
        return
    if start:
        yield start, last


#: A line holding only the quote closing a literal and what closes the statement.
_CLOSING_ONLY = fixed_regex(r"(?:\"\"\"|\'\'\'|```)[\s,;)\]}]*(?:\"\"\"|\'\'\')?[\s,;)\]}]*$")


#: A Python literal's prefix and opening quote.
_OPENING_QUOTE = fixed_regex(r"""[rRbBuUfF]{0,2}(?:\"\"\"|'''|"|')""")


def _mentioned(src: Source, start: int, end: int) -> bool:
    """Whether the Python literal at ``start``..``end`` is only mentioned, not written: held by
    an ``assert`` (``self.assertIn``) statement, compared (``"tl.load(" in src``, ``==``,
    ``!=``), the message of a log, warning, exception or test skip, or a statement of its own
    (a docstring). triton-viz's tests assert that a report names ``tl.load``, or records it
    as a keyword argument on a line of its own inside a call; a generator writes the text
    instead (a call's argument, a value)."""
    masked, starts = src.masked, src.starts
    line = bisect_right(starts, start)
    logical = src.lines.logical_starts()
    first = line  # where the statement begins, looked for a bounded way up (hostile input)
    while first > 1 and not logical[first - 1] and line - first < _MENTION_LINES:
        first -= 1
    if _ASSERTING.match(masked, starts[first - 1]):
        return True
    eol = masked.find("\n", end)
    after = masked[end : eol if eol >= 0 else len(masked)]
    before = masked[starts[line - 1] : start]
    if _COMPARED_AFTER.match(after) or _COMPARED_BEFORE.search(before):
        return True
    if _MESSAGE_CALL.search(before):
        return True  # a message naming an op (``pytest.skip("tl.dot() needs sm >= 70")``)
    if first != line and _KEYWORD_VALUE.search(before):
        return True  # a field of a record (``TracebackInfo(line_of_code="x = tl.load(p)")``)
    return first == line and not before.strip() and not after.strip() and logical[line - 1]


_ASSERTING = fixed_regex(r"[ \t]*(?:assert\b|self\.assert\w*[ \t]*\(|\w+\.assert_\w+[ \t]*\()")
_COMPARED_AFTER = fixed_regex(r"[ \t]*(?:==|!=|(?:not[ \t]+)?in\b)")
#: Compared, or handed to a search of another text: a crawler keeping files that hold a
#: kernel tests ``content.find("@triton.jit") != -1`` (haoyang9804/triton_lexer's crawl.py).
_COMPARED_BEFORE = fixed_regex(
    r"(?:==|!=)[ \t]*$|\.(?:r?find|r?index|count|startswith|endswith)[ \t]*+\([ \t]*+[rRbBuU]{0,2}$"
)
_MENTION_LINES = 200
#: A call whose argument is text for a person: logged, warned, raised or a test's skip
#: reason. Triton's own test_core.py skips with "Only test tl.dot() on devices with sm >= 70",
#: and each fork of Triton carries it. Not print: generators write source with print(file=).
_MESSAGE_CALL = fixed_regex(
    r"(?:\b(?:warnings\.warn|pytest\.(?:skip|xfail|fail)|"
    r"(?:self\.)?(?:log|logger|logging|LOG|LOGGER|_log|_logger)\.\w+)|\braise[ \t]+[\w.]+)"
    r"[ \t]*\([ \t]*[rRfFbBuU]{0,2}$"
)
_KEYWORD_VALUE = fixed_regex(r"^[ \t]*\w+[ \t]*=[ \t]*$")


def _c_streamed_string(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    """In the innermost function holding a literal written into a stream (after ``<<``)
    whose body matches, every statement writing a literal into that same stream: C++
    writing a kernel a piece per statement (bifrost's map.cpp: ``code << "__global__\\n";``
    then ``code << "void " << name << "(";``) holds the kernel's text in those statements,
    the ones writing its plain pieces included; the host code around them (the compiler's
    options written into another stream, a log to ``std::cout``) is not the kernel's.
    Outside any function, the matching literal's statement."""
    strings, masked, starts = src.lexed.strings, src.masked, src.starts
    holding = src.strings.strings_holding(keywords)
    body = src.strings.body_reader(len(holding))
    claimed = -1  # offset closing the last function claimed: literals before it add nothing
    covered = 0  # last line of the last statement read: a literal on it adds nothing
    for index in holding:
        s = strings[index][0]
        if s < claimed or bisect_right(starts, s) <= covered:
            continue
        if not pattern.search(body(index)) or not _streamed(masked, s):
            continue
        brace, close = src.c.nearest_function(s)
        stream, statement = _stream_of(src, s)
        covered = statement[1]
        if brace < 0:
            yield statement
            continue
        claimed = close
        covered = 0
        # Every statement of the function once, each read from its first streamed literal.
        for piece in range(bisect_left(strings, (brace,)), len(strings)):
            at = strings[piece][0]
            if at > close:
                break
            if bisect_right(starts, at) > covered and _streamed(masked, at):
                written, lines = _stream_of(src, at)
                covered = lines[1]
                if written == stream:
                    yield lines


def _streamed(masked: str, start: int) -> bool:
    """Whether the literal at ``start`` is written into a stream or a growing string: after
    ``<<`` (C++ streams), ``+=`` or ``.push_str(`` (a string built piece by piece, Rust's
    ``s += "...";``), as a write macro's format after its target (``writeln!(s, "...")``),
    or as a ``format!(`` whose result is appended so (``s += &format!("...")``)."""
    tail = masked[max(0, start - _GAP) : start].rstrip(" \t\r\n")
    if tail.endswith("format!("):
        tail = tail[:-8].rstrip(" \t\r\n&")
    if tail.endswith(("<<", "+=", "push_str(")):
        return True
    if not tail.endswith(","):
        return False
    opening = tail.rfind("(")
    return (
        opening >= 0
        and "," not in tail[opening + 1 : -1]
        and ")" not in tail[opening:]
        and tail[:opening].rstrip(" \t").endswith(("write!", "writeln!"))
    )


def _stream_of(src: Source, start: int) -> tuple[str, Span]:
    """The stream the literal at ``start`` is written into (what its statement opens with,
    up to the first ``<<``, ``+=`` or ``.push_str``: ``code``, ``this->os``, ``*s``; a write
    macro's first argument) and the statement's lines, to its ``;``."""
    masked = src.masked
    first = src.c.c_statement_start(start)
    head = masked[first:start]
    macro = _WRITE_MACRO.match(head)
    if macro:
        name = macro.group(1)
    else:
        cuts = [at for at in (head.find("<<"), head.find("+="), head.find(".push_str")) if at >= 0]
        name = head[: min(cuts)] if cuts else head
    end = src.next_match(_C_STMT_END, start)
    last = end.start() if end else len(masked) - 1
    return " ".join(name.replace("&mut ", "").replace("*", "").split()), src.span(first, last + 1)


def _directive_function(
    src: Source, pattern: re.Pattern[str], keywords: Keywords
) -> Iterator[Span]:
    """The function whose body opens with a string literal, standing as a statement of its
    own, whose body matches: a directive (``'use gpu'``, TypeGPU's mark of a function it
    compiles to WGSL), from the function's declaration to its closing brace."""
    strings, masked = src.lexed.strings, src.masked
    holding = src.strings.strings_holding(keywords)
    body = src.strings.body_reader(len(holding))
    for index in holding:
        s, e = strings[index]
        if not pattern.search(body(index)):
            continue
        before = masked[max(0, s - _GAP) : s].rstrip(" \t\r\n")
        after = masked[e : e + _GAP].lstrip(" \t\r")
        if not before.endswith("{") or (after and after[0] not in ";\n}"):
            continue
        brace = len(before) - 1 + max(0, s - _GAP)
        close = src.c.brace_pairs().get(brace, len(masked) - 1)
        yield src.span(src.c.c_statement_start(brace), close + 1)


#: How far from a literal the ``<<`` before it (or a directive's brace) may sit: blank lines
#: and a comment's width, not a scan through the file.
_GAP = 200
#: A Rust write macro's head, its result maybe discarded: ``let _ = writeln!(s,``.
_WRITE_MACRO = fixed_regex(
    r"(?:(?:let[ \t]+)?_[ \t]*=[ \t]*)?write(?:ln)?![ \t]*\([ \t\r\n]*([^,;()]{0,80}),"
)


def _adjacent(masked: str, strings: list[tuple[int, int]], index: int) -> bool:
    """Only blanks, a line continuation or a ``+`` separate literal ``index`` from the next
    one: the program is one string in C and Python (``"..." "..."``) and in Java, C#, Go or
    JavaScript (``"..." +``, a line each)."""
    gap = masked[strings[index][1] : strings[index + 1][0]]
    return not gap.strip(" \t\r\n\\+") and len(gap) < _ADJACENT_GAP


def _added(masked: str, strings: list[tuple[int, int]], index: int) -> bool:
    """``_adjacent``, with a ``+`` between the literals: in a language where literals side
    by side are items of a list (Nix), only a ``+`` makes them one string."""
    return (
        _adjacent(masked, strings, index)
        and "+" in masked[strings[index][1] : strings[index + 1][0]]
    )


_ATTRIBUTE_PROBE = fixed_regex(r"\b(?:getattr|hasattr)[ \t]*\([^,()\n]*,[ \t]*$")


def _device_string(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    """A string literal naming a device, unless it is one element of a list, tuple, set,
    dict or call that names the device kinds of two vendors or more (``["cuda", "xpu",
    "mps"]``, ``device.type in ("cuda", "hip")``): that is the code choosing among vendors,
    the opposite of lock-in; nor when its branch of an ``if``/``elif`` or ``match`` chain is
    one of several naming such kinds, nor the value a function returns when its returns
    name several (``def device_type(): ... return "cuda" ... return "xpu"``). Nor is an
    attribute name probed with ``getattr``/``hasattr``, a key of a subscript or of a dict
    display, or a folder joined with the path operator."""
    strings, masked = src.lexed.strings, src.masked
    verdicts: dict[int, bool] = {}  # opener offset -> its collection names several kinds
    chains: dict[int, bool] = {}  # branch line -> its chain names several kinds
    returners: dict[int, bool] = {}  # def line -> its returns name several kinds
    returning: dict[int, bool] = {}  # line -> it returns from such a def
    # The bodies of the literals holding a keyword, cut one by one when they are few: of
    # 409 files whose device strings were read over the bench corpus, 165 never needed
    # ``device_kinds``, which cuts every body.
    holding = src.strings.strings_holding(keywords)
    body = src.strings.body_reader(len(holding))
    collections: tuple[list[int], dict[int, int]] | None = None
    mixed: bool | None = None  # the file's literals name several device kinds
    last: Span | None = None  # the span yielded last: a literal on the same lines adds nothing
    for index in holding:
        if not pattern.search(body(index)):
            continue
        s, e = strings[index]
        span = src.span(s, e)
        if span == last:  # a line of literals (``["cuda", ["cuda", ...]]``) is read once
            continue
        if (
            _subscript_key(masked, s, e)
            or _lookup_key(masked, s, e)
            or dict_key(masked, s, e)
            or _path_operand(masked, s, e)
        ):
            continue
        # An attribute probed by name (hasattr(torch, "xpu")) is no device string. The
        # probe's "attr" and a comma before the literal come first: str.find is cheaper
        # than a regex search over the 200 characters before every literal.
        if (
            _after_comma(masked, s)
            and masked.find("attr", max(0, s - 200), s) >= 0
            and _ATTRIBUTE_PROBE.search(masked, max(0, s - 200), s)
        ):
            continue
        if mixed is None:
            # One device kind in the file (or none, most files): no collection, chain or
            # function names several, so no literal is dispatch code: brackets go unread.
            _, kinds, other = src.strings.device_kinds()
            mixed = bool(kinds) and other[0] < len(kinds)
        if mixed:
            if collections is None:
                collections = src.strings.collections()
            enclosing, closing = collections
            opener = enclosing[index]
            if opener >= 0 and opener in closing:
                several = verdicts.get(opener)
                if several is None:
                    several = _names_several_kinds(src, opener, closing[opener])
                    verdicts[opener] = several
                if several:
                    continue
            else:
                line = span[0]  # the line the literal starts on
                if line not in returning:
                    returning[line] = _returned_among_kinds(src, line, returners)
                if _in_dispatch_chain(src, line, chains) or returning[line]:
                    continue
        last = span
        yield span


def _subscript_key(masked: str, start: int, end: int) -> bool:
    """Whether the literal at ``start``..``end`` is a subscript's whole key (``harness["cuda"]``,
    ``result["cuda"]["ok"]``): a dict keyed by platform names, no device (tinafengfun/
    sycl_gen's verify_mae_zero_v2.py, issue 27). A one-element list (``= ["cuda"]``) is none."""
    return (
        start >= 2
        and masked[start - 1] == "["
        and (masked[start - 2].isalnum() or masked[start - 2] in "_)]")
        and masked[end : end + 1] == "]"
    )


def _lookup_key(masked: str, start: int, end: int) -> bool:
    """Whether the literal at ``start``..``end`` is the key a ``.get(`` looks up, its first
    argument (``gates.get("npu", {})``): the subscript's key read with a default, a table
    keyed by platform names (char5742/dynamic-sparse-recurrent-lookup-tetris's
    finalize_result.py reads an OpenVINO run's "npu" results, issue 27). The default
    (``config.get("device", "cuda")``) still counts."""
    before = masked[max(0, start - _GAP) : start].rstrip(" \t")
    if not before.endswith(".get("):
        return False
    after = past_blanks(masked, end)
    return masked[after : after + 1] in (",", ")")


def _path_operand(masked: str, start: int, end: int) -> bool:
    """Whether the literal at ``start``..``end`` is an operand of the path operator
    (``build_dir / "cuda" / "tests"``, ``ROOT / "schemas" / "cuda"``): a folder named cuda,
    as ``os.path.join`` takes one (NoxxGames/LiberPrimus-GPU's run records, issue 27)."""
    before = start - 1
    while before >= 0 and masked[before] in " \t":
        before -= 1
    if before >= 0 and masked[before] == "/" and masked[before - 1 : before] != "/":
        return True
    after = past_blanks(masked, end)
    return masked[after : after + 1] == "/" and masked[after + 1 : after + 2] not in ("/", "=")


def _after_comma(masked: str, pos: int) -> bool:
    """Whether a comma, then only blanks (and a newline last: ``$``), come before ``pos``."""
    pos -= 1
    if pos >= 0 and masked[pos] == "\n":
        pos -= 1
    while pos >= 0 and masked[pos] in " \t":
        pos -= 1
    return pos >= 0 and masked[pos] == ","


_BRANCH = fixed_regex(r"[ \t]*(?:(if|elif|case)\b|else\b)")
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
    # An `if` heads its own chain: the branches above it belong to another one.
    for step in (1,) if m.group(1) == "if" else (-1, 1):
        number = line + step
        # One past the last line read that way: the file's edge or _CHAIN_REACH lines off.
        stop = (
            max(line - _CHAIN_REACH, 1) - 1
            if step < 0
            else min(line + _CHAIN_REACH, len(lines)) + 1
        )
        while number != stop:
            code = lines[number - 1]
            stripped = code.lstrip()
            depth = len(code) - len(stripped)
            if stripped and depth <= indent:
                branch = _BRANCH.match(code) if depth == indent else None
                if branch is None or (step > 0 and branch.group(1) == "if"):
                    break  # the chain ended, or another one starts
                branches.append(number)
                if step < 0 and branch.group(1) == "if":
                    break  # the chain's own head
            number += step
    for number in branches:  # the kinds the branch lines' literals name
        kinds.update(_kinds_on_line(src, number))
    verdict = len(kinds) >= 2
    for number in branches:
        known[number] = verdict
    return verdict


_RETURN = fixed_regex(r"(?:^|[:;])[ \t]*return\b")


def _returned_among_kinds(src: Source, line: int, known: dict[int, bool]) -> bool:
    """Whether ``line`` returns a value from a function whose return statements name the
    device kinds of two vendors or more: a function telling which vendor's device is there.
    ``known`` holds the verdicts of functions already read."""
    if src.family != "indent" or not _RETURN.search(src.lexed.lines[line - 1]):
        return False
    ends, enclosing = src.lines.blocks()
    def_line = enclosing[line - 1]
    if not def_line:
        return False
    if def_line not in known:
        lines = src.lexed.lines
        kinds: set[str] = set()
        for number in range(def_line, ends.get(def_line, def_line) + 1):
            if _RETURN.search(lines[number - 1]):
                kinds.update(_kinds_on_line(src, number))
        known[def_line] = len(kinds) >= 2
    return known[def_line]


def _kinds_on_line(src: Source, number: int) -> list[str]:
    """The device kinds the string literals starting on line ``number`` name."""
    positions, names, _ = src.strings.device_kinds()
    starts = src.starts
    first = bisect_left(positions, starts[number - 1])
    last = bisect_left(positions, starts[number] if number < len(starts) else len(src.lexed.text))
    return names[first:last]


def _names_several_kinds(src: Source, opener: int, closer: int) -> bool:
    positions, _, other = src.strings.device_kinds()
    at = bisect_left(positions, opener)
    return at < len(positions) and other[at] < bisect_left(positions, closer)


# A builder imported under another name: `from pycuda.compiler import SourceModule as SM`,
# `from pycuda.elementwise import ElementwiseKernel as EWK` (Python), `use m::K as L;` (Rust),
# `import { K as L }` (JavaScript). The call then spells the alias, which the rule's pattern
# never names.
_AS_ALIAS = fixed_regex(r"[ \t]+as[ \t]+([A-Za-z_]\w*)\b")
#: Characters after an alias's call a rule's pattern may read (its lookaheads on the argument).
_ALIAS_PROBE = 400
_CALLED_NAME = fixed_regex(r"(?<![\w.])[A-Za-z_]\w*(?=[ \t]*\()")


def _calls_opened(
    src: Source, pattern: re.Pattern[str], keywords: Keywords
) -> list[tuple[int, int, str]]:
    """Each call the pattern opens, as (where it starts, where its arguments start, the text
    matched), in order: the pattern's own matches, and calls through an alias the file gives a
    keyword (``_AS_ALIAS``) where the pattern matches the keyword put in the alias's place."""
    opened = [(m.start(), m.end(), m.group()) for m in src.finditer(pattern, keywords)]
    masked = src.masked
    aliases: dict[str, str] = {}
    for keyword in keywords:
        if not keyword.isidentifier():
            continue
        for at in src.occurrences.get(keyword, ()):  # the keyword's offsets, found already
            if at and (masked[at - 1].isalnum() or masked[at - 1] in "_."):
                continue
            alias = _AS_ALIAS.match(masked, at + len(keyword))
            if alias and alias.group(1) not in keywords:
                aliases.setdefault(alias.group(1), keyword)
    if not aliases:
        return opened
    # One pass over the names called, whatever the number of aliases (a file may hold many).
    for m in _CALLED_NAME.finditer(masked):
        aliased = aliases.get(m.group())
        if aliased is None:
            continue
        hit = pattern.match(aliased + masked[m.end() : m.end() + _ALIAS_PROBE])
        if hit and hit.end() > len(aliased):
            opened.append((m.start(), m.end() + hit.end() - len(aliased), hit.group()))
    opened.sort()
    return opened


def _call_argument_string(
    src: Source, pattern: re.Pattern[str], keywords: Keywords, bare_calls: bool = False
) -> Iterator[Span]:
    masked, strings, starts = src.masked, src.lexed.strings, src.starts
    string_starts = src.strings.string_starts()
    names: set[str] = set()
    calls: list[int] = []  # each call's offset, for a file where no call shows its source
    names_only: list[Span] = []  # the kernel's name, counted beside a source shown
    found = False
    scanned = 0  # arguments already read: several matches may share one statement
    for opened, start, text in _calls_opened(src, pattern, keywords):
        if start < scanned:  # inside arguments already read (nested or repeated calls)
            continue
        calls.append(opened)
        end = src.strings.argument_end(start, value=not text.rstrip().endswith("("))
        if start < end:
            # The string literals starting inside the arguments, as line spans (inlined
            # ``Source.span``: a file may hold a call per line), less the blank and comment
            # lines of the program they hold.
            for k in range(bisect_left(string_starts, start), bisect_left(string_starts, end)):
                if src.strings.option(k):
                    continue  # a compiler flag beside a source from elsewhere (options=['-I'])
                named = src.strings.reference(k)
                if named == REFERENCE:
                    continue  # a file or back end: the source is elsewhere (path='k.cubin')
                s, e = strings[k]
                first, last = bisect_right(starts, s), bisect_right(starts, e - 1 if e > s else s)
                if named:
                    # The kernel's name: a line of it beside its source, not a source alone
                    # (``RawKernel(open('k.cu').read(), 'scale')``, the .cu file counted).
                    names_only.append((first, last))
                    continue
                found = True
                if src.strings.mapping_key(k) or src.strings.empty(k):
                    continue  # a name the source is formatted with, or nothing
                if first == last:
                    yield first, last
                else:
                    yield from _program_lines(src, first, last)
            names.update(_VALUE_NAME.findall(masked, start, end))
            scanned = end
    if names:
        for first, last in src.strings.assigned_strings(names):
            found = True
            yield from _program_lines(src, first, last)
    if found:
        yield from names_only
    if bare_calls and not found:
        # No call shows its source: it is read from a file kept beside the module (a .metal
        # file, counted there) or built elsewhere, and each call compiling it is all this file
        # holds of the kernel (raullenchai/Rapid-MLX's turboquant_fused.py).
        for offset in calls:
            line = src.line_of(offset)
            yield line, line


# `#[cfg(` opening a line, up to a `feature =` just before the literal; `not(` anywhere
# between them makes the item the build without the feature.
_CFG_FEATURE = fixed_regex(
    r"[ \t]*\#\[[ \t]*cfg[ \t]*\((?![^\n]*\bnot\b)[^\n]*\bfeature[ \t]*=[ \t]*$"
)
_CFG_LINE = fixed_regex(r"^[ \t]*\#\[[ \t]*cfg[ \t]*\(", re.M)
_ITEM_TOKENS = fixed_regex(r"[()\[\];,{}]")
#: Characters an item without a body may span after its attribute (a field, a match arm).
_ITEM_REACH = 4_000


def _cfg_feature_item(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    """A Rust item built only with a Cargo feature whose name matches (``#[cfg(feature =
    "cuda")]``, ``#[cfg(all(unix, feature = "metal"))]``): the attribute and the item after
    it, a function, module, ``use``, ``impl`` or statement to its ``;`` or the closing brace
    of its body; a match arm, variant or field to its ``,``. Arms, variants and fields among
    others gated on another back end's feature are dispatch among back ends (burn-dispatch's
    ``match`` over CUDA, ROCm, Vulkan and Metal), the opposite of lock-in, as a device string
    in a list naming several vendors is. Feature names are string literals, masked from code
    patterns: the pattern reads the literal's body, whole."""
    strings, masked = src.lexed.strings, src.masked
    holding = src.strings.strings_holding(keywords)
    body = src.strings.body_reader(len(holding))
    dispatch: _Dispatch | None = None
    claimed = -1  # end of the last item claimed: attributes stacked on one item repeat it
    for index in holding:
        s, e = strings[index]
        if s < claimed or not pattern.fullmatch(body(index)):
            continue
        line_start = masked.rfind("\n", 0, s) + 1
        if not _CFG_FEATURE.match(masked, line_start, s):
            continue
        attribute = masked.index("[", line_start)
        end, listed = _item_end(src, attribute)
        if end < e:
            claimed = attribute + _ITEM_REACH  # scanned in vain: not again for the next one
            continue
        if listed:
            dispatch = dispatch or _Dispatch(src)
            if dispatch.among_others(s, pattern):
                continue
        claimed = end
        yield src.span(line_start, end + 1)


def _item_end(src: Source, attribute: int) -> tuple[int, bool]:
    """The offset of the character ending the item after the attribute whose ``[`` is at
    ``attribute``, and whether it is one of a list (a match arm, a variant, a field): past
    the attribute's ``]``, the first ``;`` or ``,`` outside brackets, or the end of the
    first body opened there; a bracket closing one opened before the attribute (a last
    field, a last match arm) ends the item before it. -1 past ``_ITEM_REACH``."""
    masked = src.masked
    depth, inside = 0, True
    limit = min(len(masked), attribute + _ITEM_REACH)
    for m in _ITEM_TOKENS.finditer(masked, attribute, limit):
        token = m.group()
        if token in "([":
            depth += 1
        elif token in ")]":
            depth -= 1
            if depth < 0:
                return m.start() - 1, True
            inside = inside and depth > 0
        elif not depth and not inside:
            if token == "{":
                # A match arm's block (`Kind::Cuda(t) => {`) is one of a list too.
                arm = masked[max(attribute, m.start() - 8) : m.start()].rstrip().endswith("=>")
                return src.c.block_end(m.start()), arm
            return (m.start(), token == ",") if token in ";," else (m.start() - 1, True)
    return -1, False


class _Dispatch:
    """The ``#[cfg(feature = ...)]`` gates of a file and its braces' nesting, built once,
    to tell an arm, variant or field among those of other features."""

    def __init__(self, src: Source) -> None:
        masked, strings = src.masked, src.lexed.strings
        starts = src.strings.string_starts()
        bodies = src.strings.bodies()
        #: (offset of the literal, feature name) of every gate, in order.
        self.gates: list[tuple[int, str]] = []
        for m in _CFG_LINE.finditer(masked):
            line_end = masked.find("\n", m.end())
            line_end = len(masked) if line_end < 0 else line_end
            for k in range(bisect_left(starts, m.end()), bisect_left(starts, line_end)):
                at = strings[k][0]
                if _CFG_FEATURE.match(masked, m.start(), at):
                    self.gates.append((at, bodies[k]))
        #: (open brace, a rule's pattern) -> whether its gates name another feature.
        self.others: dict[tuple[int, re.Pattern[str]], bool] = {}
        self.pairs = src.c.brace_pairs()
        self.opens = sorted(self.pairs)
        self.parent: dict[int, int] = {}
        stack: list[int] = []
        for at in self.opens:
            while stack and self.pairs[stack[-1]] < at:
                stack.pop()
            self.parent[at] = stack[-1] if stack else -1
            stack.append(at)

    def among_others(self, pos: int, pattern: re.Pattern[str]) -> bool:
        """Whether the braces around ``pos`` hold a gate on a feature ``pattern`` does not
        name (another back end). The innermost brace is found up its parents: as many steps
        as braces nest there."""
        i = bisect_right(self.opens, pos) - 1
        at = self.opens[i] if i >= 0 else -1
        while at >= 0 and self.pairs[at] < pos:
            at = self.parent[at]
        if at < 0:
            return False
        known = self.others.get((at, pattern))
        if known is None:
            first = bisect_left(self.gates, (at, ""))
            last = bisect_left(self.gates, (self.pairs[at], ""))
            names = {name for _, name in self.gates[first:last]}
            known = self.others[at, pattern] = any(not pattern.fullmatch(n) for n in names)
        return known


# The statement that closes a Fortran procedure: `end subroutine`, `end function`, or the
# bare `end` of old code (case-insensitive, as Fortran is).
_FORTRAN_END = fixed_regex(r"^[ \t]*end[ \t]*(?:(?:subroutine|function)\b[^\n]*)?$", re.M | re.I)


def _fortran_procedure(src: Source, pattern: re.Pattern[str], keywords: Keywords) -> Iterator[Span]:
    """From each match (a procedure's header, ``attributes(global) subroutine f``) to the
    ``end`` that closes it; a match inside a procedure already yielded adds nothing."""
    covered = 0
    for m in src.finditer(pattern, keywords):
        first = src.line_of(m.start())
        if first <= covered:
            continue
        end = _FORTRAN_END.search(src.masked, m.end())
        covered = src.line_of(end.start()) if end else src.nlines
        yield first, covered


_FORTRAN_DO = fixed_regex(r"^[ \t]*(?:\w+[ \t]*:[ \t]*)?do\b", re.I)
_FORTRAN_END_DO = fixed_regex(r"^[ \t]*end[ \t]*do\b", re.I)


def _fortran_directive_loop(
    src: Source, pattern: re.Pattern[str], keywords: Keywords
) -> Iterator[Span]:
    """From the ``do`` loop that follows each directive the pattern finds in the text,
    comments kept (a directive is a comment to Fortran: ``!$cuf kernel do``), to the
    ``end do`` closing that loop, nested loops included. ``keywords`` are not used: they are
    found in the code, where a directive never is."""
    lines = src.lexed.lines
    covered = 0
    for m in pattern.finditer(src.lexed.text):
        first = src.line_of(m.start())
        if first <= covered:
            continue
        depth, start, last = 0, 0, 0
        for number in range(first + 1, len(lines) + 1):
            line = lines[number - 1]
            if _FORTRAN_DO.match(line) and not _FORTRAN_END_DO.match(line):
                depth += 1
                start = start or number
            elif not depth:
                if line.strip() and not line.lstrip().startswith("#"):
                    break  # the directive is not followed by a loop
                # Blank lines, comments and preprocessor lines before the loop: q-e puts
                # `#else` / `!$omp parallel do` / `#endif` between `!$cuf kernel do` and its nest.
                continue
            elif _FORTRAN_END_DO.match(line):
                depth -= 1
            last = number
            if not depth:
                break
        if last:
            covered = last
            yield start, last


def file_region(src: Source, pattern: re.Pattern[str] | None, keywords: Keywords) -> Iterator[Span]:
    """The whole file, when the pattern (if any) is found in it: the one kind that may
    have no pattern. A file that is mostly string literals holds its program in them
    (GEGL's opencl/*.cl.h: each line of a .cl kernel quoted by a script, its license
    included): its blank and comment lines are left out as in a program string."""
    if not src.nlines:
        return
    if pattern is None:
        found = True
    elif not keywords:
        # Anywhere in the code: ``search`` answers whether it matches sooner than a match is
        # found (the instantiation units' pattern of ``^`` alternatives is otherwise tried at
        # every offset of every CUDA and HIP file).
        found = literals.search(pattern, src.masked, src.present)
    else:
        found = next(src.finditer(pattern, keywords), None) is not None
    if not found:
        return
    strings = src.lexed.strings
    if strings and sum(end - start for start, end in strings) * 2 > len(src.lexed.text):
        yield from _program_lines(src, 1, src.nlines)
    else:
        yield 1, src.nlines


#: Tie-break between two claims of one layer over the same lines: the kind that found its
#: region through context (the call a string is passed to) beats one that matched content.
SPECIFICITY = {"call-argument-string": 1, "call-argument-string-or-call": 1}

#: Kinds that look inside string literals: their keywords are searched in the raw text.
STRING_KINDS = frozenset(
    {
        "string-literal",
        "single-source-string",
        "python-string-def",
        "c-streamed-string",
        "directive-function",
        "device-string",
        "cfg-feature-item",
    }
)

KINDS: dict[str, Callable[[Source, re.Pattern[str], Keywords], Iterator[Span]]] = {
    "line": _line,
    "statement": _statement,
    "unprobed-statement": _unprobed_statement,
    "c-function": _c_function,
    "c-block-statement": _c_block_statement,
    "c-lambda": _c_lambda,
    "c-enclosing-function": _c_enclosing_function,
    "c-macro-function": _c_macro_function,
    "preprocessor-block": _preprocessor_block,
    "preprocessor-else": _preprocessor_else,
    "python-def": _python_def,
    "python-enclosing-def": _python_enclosing_def,
    "python-called-def": _python_called_def,
    "string-literal": _string_literal,
    "single-source-string": _single_source_string,
    "tagged-string": _tagged_string,
    "python-string-def": _python_string_def,
    "c-streamed-string": _c_streamed_string,
    "directive-function": _directive_function,
    "device-string": _device_string,
    "call-argument-string": _call_argument_string,
    "call-argument-string-or-call": partial(_call_argument_string, bare_calls=True),
    "cfg-feature-item": _cfg_feature_item,
    "fortran-procedure": _fortran_procedure,
    "fortran-directive-loop": _fortran_directive_loop,
    "file": file_region,
}
