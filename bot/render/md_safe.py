"""Markdown that is safe for anything a pull request's author controls.

File names, record fields, kernel names and problems quoting them reach the bot's comment,
the check run and the dashboard only through ``code`` or ``plain``: no link, image, mention,
heading or table break can be smuggled in. A leaf of the renderers: every Markdown writer
imports it, it imports none of them.
"""

from __future__ import annotations

import html

_CODE_ENTITIES = str.maketrans({ch: f"&#{ord(ch)};" for ch in "|[]()*_~\\"})


def code(text: str) -> str:
    """Inline code that is safe in a table cell and in a list.

    A backtick span is the plain case; text with a backtick, a pipe (which would split a
    table cell) or HTML-like characters becomes ``<code>`` with entities instead.
    """
    if not any(ch in text for ch in "`|<>&\n"):
        return f"`{text}`"
    escaped = html.escape(text, quote=False).replace("\n", " ")
    # Inline Markdown still applies inside <code>: links, emphasis and table pipes are
    # written as entities so that they show as text.
    escaped = escaped.translate(_CODE_ENTITIES)
    return f"<code>{escaped}</code>"


# What starts Markdown inline syntax mid-line. Block syntax (headings, lists, quotes) needs
# a line start, and `plain` output is always one line placed after the bot's own text.
_MARKDOWN_SPECIALS = str.maketrans({ch: "\\" + ch for ch in "\\`*_[]()!|~"})


def plain(text: str) -> str:
    """Text from a repository shown as text, whatever it holds: one line (no heading, list
    or quote can start), HTML escaped, inline Markdown punctuation backslash-escaped (no
    image, link, emphasis, code span or table cell break), and `@` followed by a word
    joiner so `@org/team` mentions nobody. Everything a PR author controls (file names,
    record fields, problems quoting them) reaches the bot's comment through this or `code`.
    """
    flat = " ".join(text.split())
    escaped = html.escape(flat, quote=False).translate(_MARKDOWN_SPECIALS)
    return escaped.replace("@", "@\u2060")
