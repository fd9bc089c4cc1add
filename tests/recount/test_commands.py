"""Which comment lines are commands: the parser alone (the handler tests drive it end to end)."""

from __future__ import annotations

import pytest

from bot.slash_commands import HELP, RECOUNT, Command, parse_commands


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("/lockin recount", [Command(RECOUNT)]),
        ("/LOCKIN Recount please", [Command(RECOUNT)]),
        ("Thanks!\r\n\r\n  /lockin recount\r\n", [Command(RECOUNT)]),
        ("/lockin help", [Command(HELP)]),
        ("/lockin", [Command(HELP)]),
        ("/lockin frobnicate", [Command(HELP, unknown="frobnicate")]),
        ("/lockin recount\n/lockin recount\n/lockin help", [Command(RECOUNT), Command(HELP)]),
    ],
)
def test_commands_found(body: str, expected: list[Command]) -> None:
    assert parse_commands(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        None,
        "",
        "please run /lockin recount",  # not at the start of the line
        "/lockinrecount",
        "/lockin-recount",
        "> /lockin recount",
        "  > > /lockin recount",
        "```\n/lockin recount\n```",
        "~~~~ text\n/lockin recount\n~~~\nstill inside\n~~~~",
        "    /lockin recount",  # indented code block
        "<!--\n/lockin recount\n-->",
        "<!-- /lockin recount -->",
    ],
)
def test_not_a_command(body: str | None) -> None:
    assert parse_commands(body) == []


def test_text_after_a_closed_fence_counts() -> None:
    body = "```sh\n/lockin help\n```\n/lockin recount"
    assert parse_commands(body) == [Command(RECOUNT)]


def test_an_unclosed_fence_hides_the_rest() -> None:
    assert parse_commands("```\n/lockin recount") == []


def test_a_backtick_fence_cannot_carry_backticks_in_its_info_string() -> None:
    # "```a`b" is inline code on a paragraph line, not a fence: the next line is text.
    assert parse_commands("```a`b\n/lockin recount") == [Command(RECOUNT)]
