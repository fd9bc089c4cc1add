"""``lockin rules``: the rule reference, every rule or one rule's page."""

from __future__ import annotations

import argparse
import difflib
from typing import TextIO

from bot.cli.common import UsageError
from bot.cli.help import add_command


def add_rules_parser(commands: argparse._SubParsersAction) -> None:
    rules = add_command(
        commands,
        "rules",
        help="the rule reference: every rule, or one rule's page",
        examples=["lockin rules", "lockin rules cuda.kernel", "lockin rules --format json"],
    )
    rules.add_argument("rule_id", nargs="?", metavar="ID", help="a rule id, e.g. cuda.kernel")
    rules.add_argument(
        "--format",
        choices=("text", "json", "markdown"),
        default="text",
        help="output format (default: text)",
    )


def rules(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run ``lockin rules`` as parsed in ``args``."""
    # late: the rule pages load every rule's examples
    from bot.render import rules_page

    if args.rule_id is None:
        out.write(rules_page.render_list(rules_page.SPECS, args.format))
        return 0
    spec = rules_page.find(args.rule_id)
    if spec is None:
        ids = [s.rule.id for s in rules_page.SPECS]
        close = difflib.get_close_matches(args.rule_id, ids, n=3, cutoff=0.6)
        hint = f"did you mean {' or '.join(close)}?" if close else "`lockin rules` lists them"
        raise UsageError(f"no rule {args.rule_id!r}: {hint}")
    out.write(rules_page.render_page(spec, args.format))
    return 0
