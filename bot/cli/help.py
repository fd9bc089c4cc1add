"""What every ``lockin`` command's ``--help`` ends with: examples and exit codes.

Each command is added through :func:`add_command`, so a new one cannot forget them
(tests/cli/test_help.py reads every command's help and checks every option has a line).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from textwrap import fill

HELP_WIDTH = 88
#: The exit codes every command shares; commands add their own (``diff``'s 1, ``scan``'s 1).
COMMON_EXITS: Mapping[int, str] = {
    0: "success",
    2: "bad input: a wrong option or path, invalid configuration (one line each)",
    130: "interrupted",
}


def epilog(examples: Sequence[str], exits: Mapping[int, str] | None = None) -> str:
    codes = {**COMMON_EXITS, **(exits or {})}
    lines = ["examples:", *(f"  {example}" for example in examples), "", "exit codes:"]
    lines += [f"  {code:<3}  {meaning}" for code, meaning in sorted(codes.items())]
    return "\n".join(lines)


def add_command(
    commands: argparse._SubParsersAction,
    name: str,
    *,
    help: str,
    examples: Sequence[str],
    exits: Mapping[int, str] | None = None,
    description: str | None = None,
    extra_epilog: str = "",
) -> argparse.ArgumentParser:
    """A subcommand whose help ends with its examples and exit codes."""
    text = epilog(examples, exits) + (f"\n\n{extra_epilog}" if extra_epilog else "")
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=help,
        # Raw text keeps the epilog's layout, so the description is wrapped here.
        description=fill(description or help[0].upper() + help[1:] + ".", HELP_WIDTH),
        epilog=text,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser
