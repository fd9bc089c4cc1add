"""The lexer's token patterns: the unrolled form of a token that runs to its first closing
delimiter (``until``) ends every token where the plain lazy form ends it."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.engine.lexer import FAMILIES, code_line_count, lex, triple_quoted_rest, until

# (an opening as written, its pattern, the unrolled rest, the lazy rest it replaces): literal
# closes of one and of several characters, self-overlapping ones, and closes naming a group.
_CASES = [
    ("/*", r"/\*", until("*", "/"), r"[\s\S]*?(?:\*/|\Z)"),
    ("<!--", r"<!--", until("-", re.escape("->")), r"[\s\S]*?(?:\-\->|\Z)"),
    ("]]", r"\]\]", until("]", r"\]"), r"[\s\S]*?(?:\]\]|\Z)"),
    ("#=", r"\#=", until("=", r"\#"), r"[\s\S]*?(?:=\#|\Z)"),
    ("'", r"'", until("'"), r"[\s\S]*?(?:'|\Z)"),
    ('R"a(', r'R"(?P<d>[a-z]{0,2})\(', until(")", '(?P=d)"'), r'[\s\S]*?(?:\)(?P=d)"|\Z)'),
    ('r#"', r'r(?P<h>\#*)"', until('"', "(?P=h)"), r'[\s\S]*?(?:"(?P=h)|\Z)'),
    ('#"""', r'\#"""', until('"', r'""\#') + r"\#*", r'[\s\S]*?(?:"""\#+|\Z)'),
]
_BODY = st.lists(
    st.sampled_from([*"*/->]=#'\")(a\n ", "*/", "-->", "]]", "=#", ')a"', ')"', '"#', '"""#']),
    max_size=30,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(case=st.sampled_from(_CASES), body=_BODY)
def test_until_ends_a_token_where_the_lazy_pattern_does(
    case: tuple[str, str, str, str], body: str
) -> None:
    written, opening, unrolled, lazy = case
    text = written + body + written + body
    fast, slow = re.compile(opening + unrolled), re.compile(opening + lazy)
    assert [m.span() for m in fast.finditer(text)] == [m.span() for m in slow.finditer(text)]


def test_until_closes_at_the_first_delimiter_or_runs_to_the_end() -> None:
    comment = re.compile(r"/\*" + until("*", "/"))
    assert comment.match("/**/ x */").group() == "/**/"
    assert comment.match("/* a ** b ***/ c").group() == "/* a ** b ***/"
    assert comment.match("/* open ***").group() == "/* open ***"


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from([*"#\\ \t\na\x00\"'"]), max_size=40).map("".join))
def test_literal_first_families_find_the_same_tokens(text: str) -> None:
    # The configuration families' comments as first written (the opening '#' behind a
    # lookbehind or an anchor), and Python's tokens without the branch that never matches.
    hash_comment = re.compile(r"(?P<comment>(?:^|(?<=[ \t]))\#[^\n]*)", re.M)
    make_comment = re.compile(r"(?P<comment>(?<!\\)\#[^\n]*)")
    python = re.compile(FAMILIES["python"].tokens.pattern.removesuffix(r"|\x00(?!)"))
    for family, before in (("hash", hash_comment), ("make", make_comment), ("python", python)):
        now = FAMILIES[family].tokens
        assert [(m.span(), m.lastindex) for m in now.finditer(text)] == [
            (m.span(), m.lastindex) for m in before.finditer(text)
        ]


@settings(max_examples=500, deadline=None)
@given(
    text=st.lists(st.sampled_from([*"\"'\\a\n", '"""', "'''", '\\"', "\\\\"]), max_size=30).map(
        "".join
    )
)
def test_triple_quoted_strings_end_where_their_escaped_reading_ends_them(text: str) -> None:
    # The reading with no escaped quote, tried first, against the escape-aware one alone.
    for quote in "\"'":
        q = re.escape(quote)
        escaped = re.compile(
            rf"{q}{q}{q}[^{q}\\]*(?:(?:\\[\s\S]?|{q}(?!{q}{q}))[^{q}\\]*)*(?:{q}{q}{q}|\Z)"
        )
        now = re.compile(q + triple_quoted_rest(quote))
        assert [m.span() for m in now.finditer(text)] == [m.span() for m in escaped.finditer(text)]


@settings(max_examples=300, deadline=None)
@given(
    family=st.sampled_from(sorted(FAMILIES)),
    text=st.lists(
        st.sampled_from(
            [*"a \t\r\n\x0b\x0c\x1c\x85\xa0\u2028#'\"`", "//", "/*", "*/", '"""', 'R"(', ')"']
        ),
        max_size=40,
    ).map("".join),
)
@example(family="python", text='x = """\n\n"""\n')  # an empty line inside a string is code
def test_code_line_count_counts_the_lines_lex_finds_code_in(family: str, text: str) -> None:
    # Every kind of blank Python's str.rstrip strips, and strings that span lines.
    assert code_line_count(text, FAMILIES[family]) == lex(text, FAMILIES[family]).code.count(True)


def test_go_keeps_the_cgo_preamble_and_directives_as_code() -> None:
    # The comment right above `import "C"` is C that cgo compiles; other comments are not.
    text = '/* a note */\n/*\n#cgo LDFLAGS: -lm\n*/\nimport "C"\n// #cgo CFLAGS: -O2\n// note\n'
    lexed = lex(text, FAMILIES["go"])
    assert lexed.code == [False, True, True, True, True, True, False]
