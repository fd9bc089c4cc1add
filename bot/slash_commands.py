"""Slash commands in comment bodies: `/lockin recount`, `/lockin help`.

A command is a line that starts with `/lockin` (any case). Lines someone quoted (`>`),
lines inside fenced or indented code blocks and lines inside HTML comments are text
*about* a command, not a request to run one, so they are ignored: a reply that quotes
"/lockin recount" must not trigger a second recount.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

RECOUNT = "recount"
HELP = "help"
#: The verbs the bot knows; anything else after `/lockin` is answered with the help.
KNOWN: frozenset[str] = frozenset({RECOUNT, HELP})

# Up to three spaces of indentation: four make an indented code block in Markdown.
_COMMAND = re.compile(r"^ {0,3}/lockin(?![\w-])(?P<rest>.*)$", re.IGNORECASE)
_FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_QUOTE = re.compile(r"^ {0,3}>")

HELP_TEXT = """\
**lockin commands** (write, maintain or admin permission on the repository required)

| command | what it does |
| --- | --- |
| `/lockin recount` | re-runs the check at the PR's current head and counts the whole repository |
| `/lockin help` | shows this message |

Write the command on a line of its own in a new comment; quoted lines and code blocks are ignored.
"""


@dataclass(frozen=True, slots=True)
class Command:
    """One command found in a comment.

    ``name`` is a known verb, or ``help`` for anything unknown (``unknown`` then holds what
    the user wrote, so the reply can say which word it did not understand).
    """

    name: str
    unknown: str | None = None


def parse_commands(body: str | None) -> list[Command]:
    """The distinct commands of a comment, in the order they first appear.

    A comment that repeats `/lockin recount` on several lines asks for one recount.
    """
    found: list[Command] = []
    seen: set[str] = set()
    for line in _command_lines(body or ""):
        command = _parse_line(line)
        if command is not None and command.name not in seen:
            seen.add(command.name)
            found.append(command)
    return found


def _command_lines(body: str) -> list[str]:
    """Lines of ``body`` outside fenced blocks, quotes and HTML comments.

    Indented code needs no tracking: four spaces already keep a line from matching.
    """
    lines: list[str] = []
    fence: str | None = None  # the opening fence while inside a fenced block
    in_html_comment = False
    for line in body.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if fence is not None:
            closing = _FENCE.match(line)
            if closing and _closes(fence, closing["fence"], closing["info"]):
                fence = None
            continue
        if in_html_comment:
            in_html_comment = "-->" not in line
            continue
        opening = _FENCE.match(line)
        # A backtick fence's info string cannot contain a backtick (CommonMark).
        if opening and not (opening["fence"][0] == "`" and "`" in opening["info"]):
            fence = opening["fence"]
            continue
        if _QUOTE.match(line):
            continue
        comment_start = line.find("<!--")
        if comment_start != -1 and "-->" not in line[comment_start:]:
            in_html_comment = True
            line = line[:comment_start]
        lines.append(line)
    return lines


def _closes(opening: str, candidate: str, info: str) -> bool:
    return candidate[0] == opening[0] and len(candidate) >= len(opening) and not info.strip()


def _parse_line(line: str) -> Command | None:
    match = _COMMAND.match(line)
    if match is None:
        return None
    words = match["rest"].split()
    if not words:
        return Command(HELP)
    verb = words[0].lower()
    if verb in KNOWN:
        return Command(verb)
    return Command(HELP, unknown=words[0])
