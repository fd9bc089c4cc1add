"""Lexer families built from data: a language's comment and string syntax as
data/languages.yml states it under ``syntax``, the way tokei's languages.json and scc's
describe most languages.

Code bases that hold GPU code hold many other languages beside it (Perl build scripts, Lua
configs, SQL, Haskell compilers, Futhark programs). No rule reads them, so they need no
hand-written family of their own in lexer.py: only their lines must be counted as scc counts
them, which their comment and string delimiters decide. The pattern built here keeps the
guarantees of lexer.py's: every alternative matches once started (an unterminated block
comment runs to the end of the file, an unterminated string to the end of its line) and none
nests quantifiers that could match the same text two ways.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from bot.engine.lexer import Family, until


class LanguageDataError(ValueError):
    """A ``syntax`` entry of data/languages.yml that cannot describe a language."""


def syntax_pattern(syntax: Mapping[str, Sequence[object]]) -> str:
    """The master regex of a language with the given ``line`` comment openers, ``block``
    comment delimiter pairs, one-character string ``quotes``, ``verbatim`` strings
    ([opener, closing quote] pairs: C#'s ``@"..."`` runs over lines, a doubled quote inside
    it being one quote) and ``long`` strings ([open, close] pairs with no escapes: Nim's
    triple-quoted strings, which hold the C and CUDA its ``{.emit.}`` pragmas paste in). Longer
    openers are tried first, so Lua's ``--[[`` opens a block where ``--`` would open a line
    comment, and Nim's triple quote a long string where one quote would open a short one.
    ``heredoc`` names the one opener of a here-document (Ruby's ``<<``): see heredoc_pattern.
    ``interpolated`` names verbatim strings whose ``{...}`` holes may hold quoted strings
    (C#'s ``$@"..."``): a quote inside a hole opens a nested string, not the end."""
    keys = {"line", "block", "quotes", "verbatim", "long", "heredoc", "interpolated"}
    unknown = set(syntax) - keys
    if unknown:
        raise LanguageDataError(f"unknown syntax keys: {sorted(unknown)}")
    comments: list[tuple[str, str]] = []
    for pair in syntax.get("block", ()):
        if not (isinstance(pair, list | tuple) and len(pair) == 2 and all(pair)):
            raise LanguageDataError(f"a block comment is an [open, close] pair, not {pair!r}")
        opens, closes = str(pair[0]), str(pair[1])
        comments.append((opens, re.escape(opens) + until(closes[0], re.escape(closes[1:]))))
    for line in syntax.get("line", ()):
        if not line:
            raise LanguageDataError("a line comment opener is not empty")
        comments.append((str(line), rf"{re.escape(str(line))}[^\n]*"))
    comments.sort(key=lambda item: -len(item[0]))
    strings, quotes = [], []
    # Both kinds are an opener and the one quote that closes them (doubled, it is a quote).
    for kind, pattern in (("interpolated", interpolated_pattern), ("verbatim", verbatim_pattern)):
        for pair in syntax.get(kind, ()):
            if not (
                isinstance(pair, list | tuple)
                and len(pair) == 2
                and pair[0]
                and len(str(pair[1])) == 1
            ):
                raise LanguageDataError(f"{kind} string: an [open, quote] pair, not {pair!r}")
            opens = str(pair[0])
            quotes.append(opens[0])
            strings.append(pattern(re.escape(opens), re.escape(str(pair[1]))))
    for pair in syntax.get("long", ()):
        if not (isinstance(pair, list | tuple) and len(pair) == 2 and all(pair)):
            raise LanguageDataError(f"a long string is an [open, close] pair, not {pair!r}")
        opens, closes = str(pair[0]), str(pair[1])
        quotes.append(opens[0])
        # Unterminated, it runs to the end of the file, as a block comment does.
        strings.append(re.escape(opens) + until(closes[0], re.escape(closes[1:])))
    heredocs = syntax.get("heredoc", ())
    if len(heredocs) > 1 or not all(isinstance(h, str) and h for h in heredocs):
        raise LanguageDataError(f"a heredoc is one opener, not {heredocs!r}")
    for opener in heredocs:
        quotes.append(str(opener)[0])
        strings.append(heredoc_pattern(str(opener)))
    for quote in syntax.get("quotes", ()):
        if not (isinstance(quote, str) and len(quote) == 1):
            raise LanguageDataError(f"a quote is one character, not {quote!r}")
        quotes.append(quote)
        q = re.escape(quote)
        body = f"[^{q}\\\\\\n]"
        strings.append(rf"{q}{body}*(?:\\[\s\S]?{body}*)*{q}?")
    groups = []
    if comments:
        groups.append("(?P<comment>" + "|".join(body for _, body in comments) + ")")
    if strings:
        groups.append("(?P<string>" + "|".join(strings) + ")")
    if not groups:
        # Prose and data (Markdown, JSON, plain text): every non-blank line counts. A pattern
        # opening with a character text never holds is rejected by re's literal scan at once.
        return r"\x00(?P<keep>\x00\Z)"
    starts = {opener[0] for opener, _ in comments} | set(quotes)
    # A lookahead on the characters a token may start with lets re skip plain code quickly.
    first = "".join(sorted(re.escape(c) for c in starts))
    return f"(?=[{first}])(?:" + "|".join(groups) + ")"


def verbatim_pattern(opens: str, q: str) -> str:
    """A verbatim string (C#'s ``@"..."``): no escapes, a doubled quote is one quote.
    Unterminated, it runs to the end of the file, as a block comment does."""
    return rf"{opens}[^{q}]*(?:{q}{q}[^{q}]*)*{q}?"


def interpolated_pattern(opens: str, q: str) -> str:
    """A verbatim string with holes (C#'s ``$@"...{x}..."``): a doubled quote is one quote,
    and a run of braces may open a hole ``{...}`` holding no brace but one-line strings, whose
    quotes do not end the literal (TensorShader builds CUDA sources with ``{(c ? $"if(i){{"
    : "")}`` in them). A hole that does not close leaves its braces plain characters. Every
    loop is possessive and its pieces start with different characters, so no text is
    scanned twice."""
    nested = rf"{q}[^{q}\\\n]*+(?:\\[^\n][^{q}\\\n]*+)*+{q}"
    hole = rf"(?:[^{{}}{q}]*+(?:{nested}[^{{}}{q}]*+)*+\}})?"
    return rf"{opens}[^{q}{{]*+(?:(?:{q}{q}|\{{+{hole})[^{q}{{]*+)*+{q}?"


def heredoc_pattern(opener: str) -> str:
    """A here-document: the opener, an optional ``~`` or ``-`` (indented closing line), an
    upper-case tag bare or in quotes, then the lines below up to one holding only the tag, or
    else to the end of the text. Its lines are the literal's, as a C# verbatim string's are
    (Ruby keeps GLSL and SQL in them), so the ``#`` of a ``#version`` line inside is no
    comment. The tag's upper case and no word or closing bracket before the opener keep a
    shift (``x << y``, ``a<<b``) and ``class << self`` out. Each line is taken once, tested
    first for being the closing one, so nothing backtracks."""
    tag = r"[ \t]*(?P=heredoc_tag)[ \t]*"
    return (
        rf"(?<![\w)\]]){re.escape(opener)}[~-]?(?P<heredoc_quote>[\"'`]?)"
        r"(?P<heredoc_tag>[A-Z_][A-Z0-9_]*)(?P=heredoc_quote)[^\n]*"
        rf"(?:\n(?!{tag}(?:\n|\Z))[^\n]*)*(?:\n{tag}(?=\n|\Z)|\Z)"
    )


def syntax_family(name: str, tokens: re.Pattern[str]) -> Family:
    """The family of a language described by its syntax: its lines are counted, no rule
    reads its structure, so statements are lines; none of them (Nix, HCL, Jsonnet) joins
    literals written side by side."""
    return Family(name, tokens, "lines", adjacent_literals_join=False)
