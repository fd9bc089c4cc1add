"""The ``lockin`` command line: its parser and ``main``, which runs one command of
``scan``, ``diff``, ``history``, ``plan``, ``baseline``, ``report``, ``rules``, ``init``,
``serve`` and ``worker``; each command is a module of this package.

Exit codes: 0 success (for ``diff``: the change passes the policy, or ``--write-record``
wrote the drafted record), 1 ``diff`` adds non-portable code without a decision or holds a
file it could not count within ``--file-budget`` (``scan``: above ``--fail-above``, or a file
not counted under it), 2 bad input. Errors are one line on stderr (one per problem of an
invalid configuration).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from textwrap import fill
from typing import Any, NoReturn, TextIO

from bot.cli import baseline, diff, history, init, plan, report, rules, scan, serve
from bot.cli.common import UsageError
from bot.cli.help import HELP_WIDTH, epilog
from bot.policy.config import PolicyError
from bot.render import sarif
from bot.sources import SourceError

#: What runs each command but ``serve`` and ``worker``, as parsed.
RUNS: dict[str, Callable[[argparse.Namespace, TextIO, TextIO], int]] = {
    "scan": scan.scan,
    "diff": diff.diff,
    "history": history.history,
    "plan": plan.plan,
    "baseline": baseline.baseline,
    "report": report.report,
    "rules": rules.rules,
    "init": init.init,
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, like every other error of the command (argparse prints the usage too).
        raise UsageError(message)


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for (argparse's own
    action takes the text when the parser is built, which would load importlib.metadata on
    every command)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> NoReturn:
        sys.stdout.write(f"lockin {sarif.tool_version()}\n")
        parser.exit()


def parser() -> argparse.ArgumentParser:
    """The whole command line, every command with its options."""
    top = _Parser(
        prog="lockin",
        description=fill(
            "Count the GPU code that could not move off its vendor tomorrow, and gate the "
            "pull requests that add more.",
            HELP_WIDTH,
        ),
        epilog=epilog(["lockin scan .", "lockin diff main HEAD", "lockin report . -o lockin.html"])
        + "\n\n`lockin COMMAND --help` describes a command.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument("--version", action=_Version, help="the version")
    commands = top.add_subparsers(
        dest="command", metavar="COMMAND", title="commands", parser_class=_Parser
    )
    # In the order `lockin --help` lists them.
    scan.add_scan_parser(commands)
    diff.add_diff_parser(commands)
    history.add_history_parser(commands)
    plan.add_plan_parser(commands)
    baseline.add_baseline_parser(commands)
    report.add_report_parser(commands)
    rules.add_rules_parser(commands)
    init.add_init_parser(commands)
    serve.add_server_parsers(commands)
    return top


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line parsed; ``UsageError`` (one line) when it is wrong."""
    args = parser().parse_args(argv)
    if args.command == "scan":
        scan.check_args(args)
    elif args.command == "diff":
        diff.check_args(args)
    return args


def main(
    argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = parse_args(argv)
        if args.command is None:  # a bare `lockin`: what it can do
            out.write(parser().format_help())
            return 0
        if args.command in ("serve", "worker"):
            return serve.serve(args.command)
        return RUNS[args.command](args, out, err)
    except PolicyError as exc:
        # Every problem of the file, one line each: fixing them one run at a time is slow.
        err.writelines(f"lockin: error: {line}\n" for line in exc.lines())
        return 2
    except (UsageError, SourceError) as exc:
        err.write(f"lockin: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        err.write("lockin: interrupted\n")
        return 130
    except BrokenPipeError:
        # `lockin scan | head`: the reader left. Point stdout at /dev/null so the
        # interpreter's final flush does not fail a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
