"""Per language family: which lines are code, and the code with comments and strings masked.

Each family is one compiled master regex run with ``finditer``, so the per-character work
happens in C. Every token pattern matches once started: an unterminated block comment or
triple-quoted string runs to the end of the file, an unterminated ordinary string to the end
of its line (Rust's, which may span lines, to the end of the file), and no pattern nests
quantifiers that could match the same text two ways, so no input makes them backtrack
catastrophically.

The masked text has the same length and the same newlines as the source, so an offset or a
line number means the same in both: comments become spaces, string literals become
``FILL`` (not blank, so a line inside a multi-line string still counts as code, and not a
word character, so no rule pattern matches inside it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import accumulate, compress, islice, repeat
from operator import add, attrgetter, eq, getitem, mul, ne, sub

from bot.engine.precompiled import fixed_regex

FILL = "\x01"

# The rest of a quoted string after its opening quote, unrolled (a backslash always starts a
# new iteration), to end of line.
_DQ_REST = r'[^"\\\n]*(?:\\[\s\S]?[^"\\\n]*)*"?'
_SQ_REST = r"[^'\\\n]*(?:\\[\s\S]?[^'\\\n]*)*'?"


def until(close: str, rest: str = "") -> str:
    """The body and end of a token that runs to the first ``close`` character followed by
    ``rest`` (a pattern), or else to the end of the text.

    Unrolled (the close character, when it does not end the token, opens a new iteration)
    rather than lazy (``[\\s\\S]*?(?:end|\\Z)``): re tries the end after every character
    of a lazy body, ten to twenty times slower on a block comment. Same match: the body
    stops at the first place the end matches.
    """
    c = re.escape(close)
    between = rf"(?:{c}(?!{rest})[^{c}]*)*" if rest else ""
    return rf"[^{c}]*{between}(?:{c}{rest}|\Z)"


# After the opening of: a C block comment ("/*"), a C++ raw string ('R"delim('), a Rust raw
# string ('r#"'), a Swift multi-line string and raw multi-line string ('"""', '#"""'), a Julia
# block comment ("#="), a CMake bracket comment ("#[==[").
_BLOCK_REST = until("*", "/")
_CXX_RAW_REST = until(")", '(?P=delim)"')
_RUST_RAW_REST = until('"', "(?P=hashes)")
_SWIFT_TRIPLE_REST = until('"', '""')
_SWIFT_RAW_TRIPLE_REST = until('"', r'""\#') + r"\#*"  # closed by one '#' or more
_JULIA_BLOCK_REST = until("=", r"\#")
_CMAKE_BRACKET_REST = until("]", r"(?P=eq)\]")

_C_COMMENT = rf"(?P<comment>//[^\n]*|/\*{_BLOCK_REST})"

# A branch that never matches (NUL, then an empty negative lookahead), there only to widen the
# set of characters tokens open with. re tests that set at every offset it skips: as ranges and
# literals while the characters form at most two runs (Python's #"', Fortran's !"', Swift's
# /"#), as a 256-bit map from three runs on, which skips plain code a fifth faster.
_NEVER = r"|\x00(?!)"

# The C and Python master regexes are one alternation whose branches each open with a literal
# character outside their group: the engine then finds where a token may start with its
# character-set scan, at C speed, instead of trying a match at every offset (half the lexing
# time). A kind may name several groups (re refuses a name twice): _KIND maps them back.
# An include's path in angle brackets is read for at most 512 characters: one left
# open was read to the end of its line from each `#include <`, and a 150 KB line of them
# took 1.7 s (a quoted path left open is read on as a string, once). Objective-C's `#import`
# names its header as an include does (engine/shims.py reads both).
_C_INCLUDE_AND_COMMENT = (
    r"\#(?P<keep>[ \t]*i(?:nclude|mport)[ \t]*(?:<[^>\n]{0,512}>|\"[^\"\n]*\"))"
    rf"|/(?P<comment>/[^\n]*|\*{_BLOCK_REST})"
)
_C_QUOTES = (
    rf'|"(?P<dq_string>{_DQ_REST})'
    # A character literal only when it closes soon, so C++14 digit separators stay code.
    r"|'(?P<sq_string>(?:\\[^\n]{1,8}?|[^'\\\n]{1,4})')"
)
_C = fixed_regex(
    _C_INCLUDE_AND_COMMENT
    + rf'|R(?P<string>"(?P<delim>[^()\\\s"]{{0,16}})\({_CXX_RAW_REST})'
    + _C_QUOTES
)
# OpenCL C has no C++ raw strings. CLBlast's .opencl kernels open with `R"(` and close with
# `)"` so that C++ can #include them as one string: read as OpenCL C (as scc reads them), the
# comments and blank lines between stay comments and blanks, not a string's lines.
_OPENCL_C = fixed_regex(_C_INCLUDE_AND_COMMENT + _C_QUOTES)

# Rust: ordinary and byte strings may span lines; raw strings (r"..", r#".."#, br#".."#) end
# only at a quote followed by as many '#' as opened them. A quote opens a character literal
# only when it closes after one character or escape, so a lifetime ('a, 'static) stays code.
# A lookahead on the characters a token starts with skips plain code quickly.
_RUST = fixed_regex(
    r"(?=[/\"'br])(?:"
    rf"{_C_COMMENT}"
    rf'|(?P<string>(?<!\w)b?r(?P<hashes>\#*)"{_RUST_RAW_REST}'
    r'|(?:(?<!\w)b)?"[^"\\]*(?:\\[\s\S][^"\\]*)*(?:"|\Z)'
    r"|'(?:\\[^\n]{1,10}?|[^'\\\n])'))"
)

# Swift: C-style comments (Swift nests block comments; a nested one, rare in real code, ends
# this match at its first "*/"), multi-line """...""" strings (where Metal shader source is
# kept), raw #"..."# strings and ordinary one-line strings.
_SWIFT = fixed_regex(
    rf"/(?P<comment>/[^\n]*|\*{_BLOCK_REST})"
    rf'|"(?P<string>""{_SWIFT_TRIPLE_REST}|{_DQ_REST})'
    rf'|\#(?P<raw_string>\#*"""{_SWIFT_RAW_TRIPLE_REST}|\#*"[^"\n]*"\#+)' + _NEVER
)


# Where a '/' in JavaScript opens a regular expression literal, not a division: after a
# punctuator or a keyword that leaves an expression to come, or first on its line (up to 32
# blanks in). Each is a lookbehind that takes in the '/' (re's lookbehinds are of one width,
# so each width of the blanks between is one of them). `}` is taken only right before the
# '/' and not before '/>', which closes a JSX element after an attribute's braces ({x}/>);
# `=>` is an arrow's body (s => /x/.test(s)), where a lone `>` would be JSX text. After a
# name, a number, `)` or `]` the '/' divides. A division is the common case, so each test
# that fails on it fails on the character before the '/': the keywords are tried after one
# of their last letters, each width of indentation only after the narrower one's blanks.
def _indented(width: int, deepest: int) -> str:
    """The lookbehinds of a '/' with only ``width`` to ``deepest`` blanks before it on its
    line, each wider one tried only when the blanks go on."""
    here = rf"(?<=^[ \t]{{{width}}}/)"
    if width == deepest:
        return here
    return rf"{here}|(?<=[ \t]{{{width + 1}}}/)(?:{_indented(width + 1, deepest)})"


_JS_KEYWORDS = ("return|typeof|delete", "throw|yield|await", "case")  # by length
_JS_REGEX_AFTER = "|".join(
    [
        r"(?<=[(,=:\[!&|?{;]/)",
        r"(?<=[(,=:\[!&|?{;][ \t]/)",
        r"(?<=\}/)(?!>)",
        r"(?<==>/)",
        r"(?<==>[ \t]/)",
        *(
            rf"(?<=[defntw]{blank}/)(?:"
            + "|".join(rf"(?<=(?<![\w$.])(?:{words}){blank}/)" for words in _JS_KEYWORDS)
            + ")"
            for blank in ("", r"[ \t]")
        ),
        _indented(0, 32),
    ]
)
# The literal's body: escapes, and character classes, which may hold a '/' (/[/]/). It ends
# with its line: unclosed, it is no literal, and the line from the '/' is read as code with no
# token in it (a misread division then hides nothing beyond its line, and no later '/' of the
# line is tried again: every character is read at most twice).
_JS_REGEX_BODY = r"[^/\\\[\n]*+(?:(?:\\[^\n]|\[(?:[^\]\\\n]|\\[^\n])*+\]?)[^/\\\[\n]*+)*+"

# JavaScript and TypeScript: C comments, quotes of either kind, backtick template literals
# that may span lines (WGSL or GLSL source is kept in them) and regular expression literals,
# read as string literals: a quote or a backtick in one (/"/g, /`/) opens nothing.
_JS = fixed_regex(
    rf"/(?P<comment>/[^\n]*|\*{_BLOCK_REST})"
    rf"|/(?:{_JS_REGEX_AFTER})(?:(?P<regex>{_JS_REGEX_BODY}/)|(?P<keep>{_JS_REGEX_BODY}))"
    rf'|"(?P<dq_string>{_DQ_REST})'
    rf"|'(?P<sq_string>{_SQ_REST})"
    r"|`(?P<string>[^`\\]*(?:\\[\s\S][^`\\]*)*`?)",
    re.M,
)

# Go: JavaScript's comments, quotes and backtick raw strings (no regular expression
# literals), but cgo's preamble is code. The comment right above `import "C"` is C
# that cgo compiles (includes, helpers) with its #cgo directives (compiler and linker flags),
# and a `// #cgo` line is a directive wherever it stands: both are kept, as C includes are.
_GO = fixed_regex(
    rf'/(?P<keep>\*{_BLOCK_REST}(?=[ \t\r]*\n[ \t]*import[ \t]+"C")|/[ \t]*\#cgo\b[^\n]*)'
    rf"|/(?P<comment>/[^\n]*|\*{_BLOCK_REST})"
    rf'|"(?P<dq_string>{_DQ_REST})'
    rf"|'(?P<sq_string>{_SQ_REST})"
    r"|`(?P<string>[^`\\]*(?:\\[\s\S][^`\\]*)*`?)"
)

# Fortran (free form): '!' comments, quoted strings.
_FORTRAN = fixed_regex(
    r"!(?P<comment>[^\n]*)" rf'|"(?P<dq_string>{_DQ_REST})' rf"|'(?P<sq_string>{_SQ_REST})" + _NEVER
)

# Fixed-form Fortran (FORTRAN 77 and the HPC codes still kept in it): a C, c, * or ! in column
# 1 makes the whole line a comment; elsewhere '!' opens one, except in column 6, where any
# character marks a continuation line. (scc counts every line whose first non-blank character
# is a c as a comment, `call` and `common` included; this counts them as code.)
_FORTRAN_FIXED = fixed_regex(
    r"(?P<comment>^[cC*!][^\n]*|(?<!^.....)![^\n]*)"
    rf'|"(?P<dq_string>{_DQ_REST})'
    rf"|'(?P<sq_string>{_SQ_REST})",
    re.M,
)


def triple_quoted_rest(quote: str) -> str:
    """The rest of a Python triple-quoted string after its first ``quote``: the two other
    quotes, the body (where a backslash escapes the character after it) and the close, or
    else the end of the text.

    Read first with its body running from quote to quote, ``[^"]*+``, which re reads in a
    loop of its own, where a class of two characters (``[^"\\]``) costs a call per character
    (the bench corpus's Python tokens in 60 ms, not 66). An escaped quote inside is read as
    any other, so this ends where the escape-aware reading ends, at the first three quotes,
    unless a backslash stands right before them: then that reading fails, and the body is
    read again from its start, escapes and all. The same token either way.
    """
    q = quote
    unescaped = rf"[^{q}]*+(?:{q}(?!{q}{q})[^{q}]*+)*+(?:(?<!\\){q}{q}{q}|\Z)"
    escaped = rf"[^{q}\\]*(?:(?:\\[\s\S]?|{q}(?!{q}{q}))[^{q}\\]*)*(?:{q}{q}{q}|\Z)"
    return rf"{q}{q}(?:{unescaped}|{escaped})"


# Triple-quoted strings match groups of their own: a docstring is one of them that stands as a
# statement (``_docstring_prefix``), and only they need that look.
_PY = fixed_regex(
    r"\#(?P<comment>[^\n]*)"
    rf'|"(?:(?P<triple_dq>{triple_quoted_rest(chr(34))})|(?P<dq_string>{_DQ_REST}))'
    rf"|'(?:(?P<triple_sq>{triple_quoted_rest(chr(39))})|(?P<sq_string>{_SQ_REST}))" + _NEVER
)
# Julia: '#' comments and '#= ... =#' blocks, "..." and """...""" strings (docstrings are code,
# as scc counts them). A single quote is a character literal or the adjoint operator (A'), so
# it opens no string.
_JULIA = fixed_regex(
    rf"\#(?P<comment>={_JULIA_BLOCK_REST}|[^\n]*)"
    r'|"(?P<string>""[^"\\]*(?:(?:\\[\s\S]?|"(?!""))[^"\\]*)*(?:"""|\Z)'
    rf"|{_DQ_REST})"
)
# The tags of a template language, read before the tokens of the language a template of it
# generates (a Jinja template of CUDA: flashinfer's csrc/*.jinja, GridTools/stencil_benchmarks'
# .j2 kernels), as the template engine reads them first: their braces are no C braces. Jinja's
# `{# #}` is a comment. `{{ x }}` stands for a name or a value: masked as one name, so that
# `__global__ void k({{ t }} *u, ...) {` keeps its parameter list and its body. A `{% %}`
# statement is code, as scc counts a Jinja template's lines, but code of no language a rule
# or the structure around it reads: blanked, its lines still counted as code (so a kernel's
# head read back from its name stops at the kernel's first line, not at a `{% block %}`).
# Its `if`, `elif`, `else` and `endif` are the template's conditional branches: in a family
# with a preprocessor they are masked as #if, #elif, #else and #endif, so that a branch that
# opens a brace its sibling opens again (`{% if u %} for (...) { {% else %} { {% endif %}`)
# is read as such a #if branch is, and the function around it still closes.
# Each runs to its close, unclosed to the end of the text; `-` and `+` (whitespace control)
# fall inside.
_JINJA_COMMENT_REST = until("#", r"\}")
_JINJA_VALUE_REST = until("}", r"\}")
_JINJA_STATEMENT_REST = until("%", r"\}")
TEMPLATE_TAGS = {
    "jinja": (
        rf"\{{(?P<template_comment>\#{_JINJA_COMMENT_REST})"
        rf"|\{{(?P<template_value>\{{{_JINJA_VALUE_REST})"
        r"|\{(?:(?P<template_branch>%[-+]?[ \t]*(?:(?:el|end)?if|else)\b"
        rf"{_JINJA_STATEMENT_REST})|(?P<template_statement>%{_JINJA_STATEMENT_REST}))"
    ),
}
# A template branch's word, after its tag's opening.
_BRANCH_WORD = fixed_regex(r"\{%[-+]?[ \t]*(\w+)")

# What a token is, by the name of the outermost group it matched (which closes last).
_KEEP, _COMMENT, _STRING, _TRIPLE = "keep", "comment", "string", "triple"
_VALUE, _STATEMENT, _BRANCH = "template_value", "template_statement", "template_branch"
_KIND = {
    "keep": _KEEP,
    "template_value": _VALUE,
    "template_statement": _STATEMENT,
    "template_branch": _BRANCH,
    **dict.fromkeys(("string", "dq_string", "sq_string", "raw_string", "regex"), _STRING),
    **dict.fromkeys(("triple_dq", "triple_sq"), _TRIPLE),  # a string, or a docstring
}
_FILLS = {_COMMENT: " ", _STRING: FILL, _VALUE: "x", _STATEMENT: " ", _BRANCH: " "}
_CODE_KINDS = frozenset((_STATEMENT, _BRANCH))  # blanked, yet their lines are code
_LASTINDEX = attrgetter("lastindex")
_CHUNK = 4096  # matches read at a time

# Configuration and build files: their quoted values are the configuration itself, so strings
# stay visible to rules; they are tokenized only where a '#' inside them is not a comment.
# The '#' comes first and what may stand before it is a lookbehind after it, so re skips to
# each '#' at once rather than trying the pattern at every offset.
_HASH = fixed_regex(r"(?P<comment>\#(?<![^ \t\n]\#)[^\n]*)")  # at a line start or after a blank
_MAKE = fixed_regex(r"(?P<comment>\#(?<!\\\#)[^\n]*)")  # not escaped
_DOCKER = fixed_regex(r"(?P<comment>^[ \t]*\#[^\n]*)", re.M)
_CMAKE = fixed_regex(
    r'(?=["#])(?:(?P<keep>"[^"\\]*(?:\\[\s\S]?[^"\\]*)*"?)'
    rf"|(?P<comment>\#\[(?P<eq>=*)\[{_CMAKE_BRACKET_REST}|\#[^\n]*))"
)

# MATLAB: % line comments and %{ ... %} blocks (each brace alone on its line); a quote opens a
# string only where it cannot be the transpose operator (after a name, a number, a closing
# bracket, a dot or another quote).
_MATLAB = fixed_regex(
    r"(?P<comment>^[ \t]*%\{[ \t]*\n[\s\S]*?(?:^[ \t]*%\}[ \t]*$|\Z)|%[^\n]*)"
    r'|"(?P<dq_string>[^"\n]*(?:""[^"\n]*)*"?)'
    r"|(?<![\w)\]}'.])'(?P<sq_string>[^'\n]*(?:''[^'\n]*)*'?)",
    re.M,
)


@dataclass(frozen=True, slots=True)
class Family:
    """How a group of languages writes comments and strings, and how its code nests."""

    name: str
    tokens: re.Pattern[str]
    nesting: str  # "braces" (C-like), "indent" (Python-like) or "lines" (config, build)
    preprocessor: bool = False  # '#' lines are C preprocessor directives (not Rust attributes)
    line_statements: bool = False  # a statement ends with its line (and brackets), not at ';'
    # Literals side by side are one string ("a" "b" in C and Python); where they are not
    # (a Nix list, [ "-DA=ON" "-DB=ON" ]), only a `+` between them joins them.
    adjacent_literals_join: bool = True
    # A list of literals joined into one string (``[...].join("\\n")``) is one program: the
    # way JavaScript wrote multi-line shaders before template literals.
    lists_join: bool = False
    #: A match's ``lastindex`` -> what its token is (None: no group, a comment like the rest).
    kinds: dict[int | None, str] = field(init=False, repr=False, compare=False)
    #: It reads a template's tags (``templated``): only then may its tokens be statements.
    template: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kinds: dict[int | None, str] = {None: _COMMENT}
        for name, index in self.tokens.groupindex.items():
            kinds[index] = _KIND.get(name, _COMMENT)
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "template", not _CODE_KINDS.isdisjoint(kinds.values()))


FAMILIES: dict[str, Family] = {
    "c": Family("c", _C, "braces", preprocessor=True),
    "opencl-c": Family("c", _OPENCL_C, "braces", preprocessor=True),
    "rust": Family("rust", _RUST, "braces"),
    "swift": Family("swift", _SWIFT, "braces", line_statements=True),
    "js": Family("js", _JS, "braces", line_statements=True, lists_join=True),
    "go": Family("go", _GO, "braces", line_statements=True),
    "fortran": Family("fortran", _FORTRAN, "lines"),
    "fortran-fixed": Family("fortran-fixed", _FORTRAN_FIXED, "lines"),
    "python": Family("python", _PY, "indent"),
    "julia": Family("julia", _JULIA, "indent"),
    "hash": Family("hash", _HASH, "lines"),
    "make": Family("make", _MAKE, "lines"),
    "docker": Family("docker", _DOCKER, "lines"),
    "cmake": Family("cmake", _CMAKE, "lines"),
    "matlab": Family("matlab", _MATLAB, "lines"),
}


def templated(family: Family, tags: str | None) -> Family:
    """``family`` reading the tags of the template language ``tags`` (``TEMPLATE_TAGS``)
    first; ``family`` itself for None (every file but a template's: no cache lookup, which
    hashes the family). Its name and the rest are ``family``'s: the text a template
    generates is read as that family's."""
    return family if tags is None else _with_tags(family, tags)


@cache
def _with_tags(family: Family, tags: str) -> Family:
    pattern = f"{TEMPLATE_TAGS[tags]}|{family.tokens.pattern}"
    return replace(family, tokens=re.compile(pattern, family.tokens.flags))


_PREFIX_OK = frozenset({"", "r", "u", "b", "f", "rb", "br", "fr", "rf"})


@dataclass(slots=True)
class Lexed:
    """A source text with its masked twin, string literal spans and per-line code flags."""

    text: str
    masked: str
    strings: list[tuple[int, int]]  # [start, end) of each string literal, docstrings excluded
    lines: list[str]  # masked text split in lines (no trailing empty line)
    code: list[bool]  # code[i]: line i + 1 holds code
    _starts: list[int] | None = None

    @property
    def line_starts(self) -> list[int]:
        """Offset of the first character of each line (and one past the end)."""
        if self._starts is None:
            self._starts = list(accumulate(map(add, map(len, self.lines), repeat(1)), initial=0))
        return self._starts


def _blank(token: str, fill: str) -> str:
    """``token`` with every character but its newlines replaced by ``fill``."""
    return "\n".join(fill * len(part) for part in token.split("\n"))


def _docstring_prefix(text: str, start: int, end: int) -> int:
    """The length of the prefix (``r``, ``u``, ...) of a triple-quoted string that is a
    statement of its own (docstring or bare comment); -1 when it is a value."""
    line_start = text.rfind("\n", 0, start) + 1
    prefix = text[line_start:start].strip(" \t")
    if prefix.lower() not in _PREFIX_OK:
        return -1
    line_end = text.find("\n", end)
    tail = text[end : line_end if line_end >= 0 else len(text)].strip()
    if tail and not tail.startswith("#"):
        return -1
    i = line_start - 1
    while i >= 0 and text[i] in " \t\r\n":
        i -= 1
    # After an opening bracket, a comma or an operator the string is a value, not a statement.
    return len(prefix) if i < 0 or text[i] not in "([{,=+%\\" else -1


def lex(text: str, family: Family) -> Lexed:
    """``text`` lexed as ``family`` writes it."""
    # _mask's token lists are gone before the lines are made: one or the other at a time.
    masked, strings, spans = _mask(text, family)
    lines = _lines(masked)
    return Lexed(text, masked, strings, lines, _code(text, lines, spans))


# A line holding more than blanks, to its end: findall gives each its empty group, one
# shared string, where splitting the text made a string of every line.
_CODE_LINE = fixed_regex(r"\S()[^\n]*")


def code_line_count(text: str, family: Family) -> int:
    """How many lines of ``text`` ``lex`` finds code in, for a text only counted (a
    document's): where no string literal spans lines, without the list of lines (the bench
    corpus's 380 documents in 15 ms, not 18)."""
    masked, _, spans = _mask(text, family)
    if not spans:
        return len(_CODE_LINE.findall(masked))
    return _code(text, _lines(masked), spans).count(True)


def _lines(masked: str) -> list[str]:
    """The lines of ``masked``, with no empty one after its last newline."""
    lines = masked.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _code(text: str, lines: list[str], spans: list[tuple[int, int]]) -> list[bool]:
    """Whether each of the masked ``lines`` holds code, given ``_mask``'s ``spans``."""
    # A line holds code unless it is all blanks: rstrip answers as strip does, and returns
    # the line itself when it does not end in a blank (most), where strip copies every
    # indented line.
    code = list(map(bool, map(str.rstrip, lines)))
    # A blank line inside a multi-line string literal is part of the value, so code, as scc
    # counts it (a raw-string kernel's blank lines); a template's statements are code, blanked.
    line = previous = 0
    for start, newlines in spans:
        line += text.count("\n", previous, start)
        previous = start
        span = code[line : line + newlines + 1]
        code[line : line + len(span)] = [True] * len(span)
    return code


def _mask(text: str, family: Family) -> tuple[str, list[tuple[int, int]], list[tuple[int, int]]]:
    """The masked text, the string literals' spans, and (start, newlines) of each string
    literal that spans lines and of each template statement, in order: their lines are code."""
    # Each step is a map over all tokens at once, so no bytecode runs per token: a file has
    # a comment or string every few lines, and a loop over them cost a third of lexing.
    # Operator functions over repeat(x): a bound x.__eq__ or x.__getitem__ costs twice as much.
    # Every token pattern consumes its opening character, so no token is empty.
    kinds: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    tokens = family.tokens.finditer(text)
    # Read in chunks: a match object holds a dozen words, so a text made only of tokens
    # would otherwise hold them all at once (twice the memory of the rest together).
    while chunk := list(islice(tokens, _CHUNK)):
        kinds += map(family.kinds.__getitem__, map(_LASTINDEX, chunk))
        starts += map(re.Match.start, chunk)
        ends += map(re.Match.end, chunk)
    if _KEEP in kinds:  # kept tokens (C includes, CMake strings) stay as they are
        kept = list(map(ne, kinds, repeat(_KEEP)))
        kinds = list(compress(kinds, kept))
        starts, ends = list(compress(starts, kept)), list(compress(ends, kept))
    if not kinds:
        return text, [], []
    if _TRIPLE in kinds:
        for i in compress(range(len(kinds)), map(eq, kinds, repeat(_TRIPLE))):
            prefix = _docstring_prefix(text, starts[i], ends[i])
            # A docstring is blanked with its prefix (r'''...), so its line is not code.
            kinds[i] = _COMMENT if prefix >= 0 else _STRING
            starts[i] -= max(prefix, 0)
    fills = list(map(_FILLS.__getitem__, kinds))
    masks = list(map(mul, fills, map(sub, ends, starts)))
    breaks = list(map(text.count, repeat("\n"), starts, ends))
    spanning = list(compress(range(len(starts)), breaks))  # the few tokens over several lines
    for i in spanning:
        masks[i] = _blank(text[starts[i] : ends[i]], fills[i])
    if family.template and family.preprocessor and _BRANCH in kinds:
        for i in compress(range(len(kinds)), map(eq, kinds, repeat(_BRANCH))):
            found = _BRANCH_WORD.match(text, starts[i])
            assert found is not None  # the tag's own pattern read the same
            directive = "#" + found[1]
            masks[i] = directive + masks[i][len(directive) :]
    pieces: list[str] = [""] * (2 * len(starts) + 1)
    pieces[0::2] = map(getitem, repeat(text), map(slice, [0, *ends], [*starts, len(text)]))
    pieces[1::2] = masks
    is_string = list(map(eq, kinds, repeat(_STRING)))
    strings = list(compress(zip(starts, ends, strict=True), is_string))
    spans = [(starts[i], breaks[i]) for i in spanning if is_string[i]]
    if family.template and not _CODE_KINDS.isdisjoint(kinds):
        spans = sorted(
            spans + [(starts[i], breaks[i]) for i, kind in enumerate(kinds) if kind in _CODE_KINDS]
        )
    return "".join(pieces), strings, spans
