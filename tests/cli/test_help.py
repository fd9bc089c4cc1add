"""Every command's `--help`: a line for every option, an example and the exit codes; a bare
`lockin` lists the commands; `lockin serve --help` lists every setting the server reads."""

from __future__ import annotations

import argparse
import io

import pytest

from bot.cli import main
from bot.cli.entry import parser
from bot.runtime.settings import documented


def _commands() -> dict[str, argparse.ArgumentParser]:
    (subparsers,) = [a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(subparsers.choices)


COMMANDS = sorted(_commands())


def _help(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_:
        main([*argv, "--help"])
    assert exit_.value.code == 0
    return capsys.readouterr().out


def test_the_commands_users_meet_first_are_all_there() -> None:
    expected = {"scan", "diff", "history", "plan", "report", "rules", "init", "serve", "worker"}
    assert expected <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_has_help_and_the_help_ends_with_examples_and_exit_codes(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = _commands()[command]
    for action in parser._actions:
        assert (action.help or "").strip(), (command, action.dest)
    text = _help(capsys, command)
    assert text.startswith(f"usage: lockin {command}")
    examples = text.split("examples:\n", 1)[1].split("\n\n", 1)[0]
    assert f"lockin {command}" in examples
    codes = text.split("exit codes:\n", 1)[1]
    assert "  0    success" in codes
    assert "\n  2    " in codes  # bad input: every command says what makes it exit 2
    for action in parser._actions:
        for flag in action.option_strings:
            assert flag in text


def test_a_bare_lockin_lists_the_commands_and_succeeds() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main([], out=out, err=err) == 0
    assert err.getvalue() == ""
    listed = out.getvalue().split("commands:\n", 1)[1]
    for command in COMMANDS:
        assert f"\n    {command} " in listed


def test_serve_help_lists_every_setting_with_its_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = _help(capsys, "serve")
    settings = text.split("settings (environment variables):\n", 1)[1]
    rows = documented()
    assert len(rows) > 30
    for name, default in rows:
        assert f"  {name} " in settings
        assert default in settings
    assert "PORT" in settings
    assert "default 3000" in settings
    assert "WEBHOOK_SECRET" in settings


def test_the_version_is_the_installed_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib import metadata

    from bot import DISTRIBUTION

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"lockin {metadata.version(DISTRIBUTION)}\n"
