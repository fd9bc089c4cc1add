"""The README shows only what works: each `$ lockin ...` command of its console blocks runs with
the exit code it states, and its configuration block is exactly the defaults."""

from __future__ import annotations

import io
import re
import shlex

import pytest

from bot.cli import main
from bot.policy.config import DEFAULT_POLICY, load_policy
from tests.support.readme import ROOT, blocks

COMMANDS = [
    line.removeprefix("$ ")
    for block in blocks("console")
    for line in block.splitlines()
    if line.startswith("$ lockin ")
]


def test_the_readme_shows_cli_commands() -> None:
    assert len(COMMANDS) >= 4


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_command_runs_with_the_stated_exit_code(
    command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv, _, comment = command.partition("#")
    expected = int(m.group(1)) if (m := re.search(r"exits (\d)", comment)) else 0
    words = shlex.split(argv)
    assert words[0] == "lockin"
    monkeypatch.chdir(ROOT)
    out, err = io.StringIO(), io.StringIO()
    assert main(words[1:], out=out, err=err) == expected, err.getvalue()
    assert out.getvalue().strip()


def test_readme_configuration_block_is_the_defaults() -> None:
    [config] = [block for block in blocks("yaml") if "layers:" in block]
    assert load_policy(config, source="README.md") == DEFAULT_POLICY
