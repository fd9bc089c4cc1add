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
import atexit
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from textwrap import fill
from types import ModuleType
from typing import Any, NoReturn, TextIO

from bot.cli.common import UsageError
from bot.cli.help import HELP_WIDTH, epilog
from bot.policy.config import PolicyError
from bot.sources import SourceError

#: Each command's function that adds its parser and the one that runs it as parsed, in the
#: order `lockin --help` lists them (``_load`` names their modules). A command loads its own
#: module only: `lockin scan` never imports the gate, the history walker or the report's
#: page, a quarter of its start-up.
COMMANDS: dict[str, tuple[str, str]] = {
    "scan": ("add_scan_parser", "scan"),
    "diff": ("add_diff_parser", "diff"),
    "history": ("add_history_parser", "history"),
    "plan": ("add_plan_parser", "plan"),
    "baseline": ("add_baseline_parser", "baseline"),
    "report": ("add_report_parser", "report"),
    "rules": ("add_rules_parser", "rules"),
    "init": ("add_init_parser", "init"),
    "serve": ("add_server_parsers", "serve"),
    "worker": ("add_server_parsers", "serve"),
}


def _load(command: str) -> ModuleType:
    """The module of ``command``, imported when it runs. Each import is written out (not
    built from the name), so the layers contract and the house map still see every command
    the entry reaches."""
    # Late, each of them: a command loads only its own module.
    match command:
        case "scan":
            from bot.cli import scan  # late: see above

            return scan
        case "diff":
            from bot.cli import diff  # late: see above

            return diff
        case "history":
            from bot.cli import history  # late: see above

            return history
        case "plan":
            from bot.cli import plan  # late: see above

            return plan
        case "baseline":
            from bot.cli import baseline  # late: see above

            return baseline
        case "report":
            from bot.cli import report  # late: see above

            return report
        case "rules":
            from bot.cli import rules  # late: see above

            return rules
        case "init":
            from bot.cli import init  # late: see above

            return init
        case _:  # serve and worker
            from bot.cli import serve  # late: see above

            return serve


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
        from bot.render.sarif import tool_version  # late: importlib.metadata is slow to load

        sys.stdout.write(f"lockin {tool_version()}\n")
        parser.exit()


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, every command with its options; only ``command``'s when it
    names one (what its usage, help and errors print is the same)."""
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
    named = [command] if command in COMMANDS else list(COMMANDS)
    # serve's module adds both serve and worker: each adder once.
    for module, adder in dict.fromkeys((_load(name), COMMANDS[name][0]) for name in named):
        getattr(module, adder)(commands)
    return top


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line parsed; ``UsageError`` (one line) when it is wrong."""
    argv = sys.argv[1:] if argv is None else argv
    # The command is the first word that is no option (the top level's take no value).
    command = next((word for word in argv if not word.startswith("-")), None)
    args = parser(command).parse_args(argv)
    if args.command is not None and (check := getattr(_load(args.command), "check_args", None)):
        check(args)
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
        run: Callable[..., int] = getattr(_load(args.command), COMMANDS[args.command][1])
        if args.command in ("serve", "worker"):
            return run(args.command)
        return run(args, out, err)
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


def run() -> NoReturn:
    """The console script (``lockin = bot.cli:run``) and ``python -m bot``: ``main``, then
    an exit that skips the interpreter's teardown.

    Freeing the rule registry and a census object by object, and the cycle collector's
    last passes over them, cost a scan of the bench corpus about 0.05 s after its output is
    written, for memory the process hands back whole. What must happen still does: the
    handlers registered to run at exit (logging, process pools, temporary folders), then
    the flush of stdout and stderr. ``main`` itself returns as usual, for callers that go
    on running (the tests)."""
    code = main()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        # A reader that left (`lockin scan | head`) or a closed stream: no error, as in main.
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)
