"""Every rule's regexes on hostile lines made of their own words:
`python bench/rule_lines_bench.py [--kb 40] [--top 15] [--limit SECONDS]`.

A pattern that backtracks over a line (each match attempt reading to the line's end) is
quadratic in the line's length, and a file of one long line is the cheapest attack on the
per-file CPU budget. For every rule's pattern, file condition, exception and statement
pattern this builds lines of --kb kilobytes from the literal words in the regex and the
rule's keywords: the words joined by each of several separators, and each word repeated
alone behind a comma or a space (`, device, device, ...`: how CUDA Fortran's attribute lists
and C#'s base lists were found quadratic). It times a full `finditer` over each line and
prints the slowest searches; with --limit it exits 1 when any search takes longer. Doubling
--kb shows a quadratic search: its time grows four times.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.registry import SPECS

#: The regexes of a rule (bot/engine/registry.py's RuleSpec) a line of text reaches.
ATTRIBUTES = (
    "pattern", "requires", "unless", "unless_line", "unless_head", "within_statement",
    "lone_prefix", "lone_continues",
)  # fmt: skip
SEPARATORS = (" ", "(", ", ", "::", '"', ".")
#: Words repeated alone: the first few of each regex (sorted), which keeps the run to minutes.
ALONE = 12


def _words(rx: re.Pattern[str], keywords: tuple[str, ...]) -> list[str]:
    found = re.findall(r"[A-Za-z_][A-Za-z0-9_.]{2,}", rx.pattern)
    return sorted(set(found) | set(keywords))[:60] or ["x"]


def _fill(unit: str, size: int) -> str:
    return (unit * (size // max(1, len(unit)) + 1))[:size]


def hostile_lines(words: list[str], size: int) -> list[str]:
    lines = [_fill(sep.join(words) + sep, size) for sep in SEPARATORS]
    lines.append("\n".join(words) + "\n")
    for word in words[:ALONE]:
        lines += [_fill(", " + word, size), _fill(word + " ", size), _fill(word + " : ", size)]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", type=int, default=40, help="length of each line (default 40)")
    parser.add_argument("--top", type=int, default=15, help="slowest searches shown")
    parser.add_argument("--limit", type=float, default=None, help="exit 1 above these seconds")
    args = parser.parse_args()
    size = args.kb * 1000
    timings: list[tuple[float, str, str, str]] = []
    for spec in SPECS:
        for attribute in ATTRIBUTES:
            rx = getattr(spec, attribute, None)
            if not isinstance(rx, re.Pattern):
                continue
            for line in hostile_lines(_words(rx, spec.keywords), size):
                start = time.perf_counter()
                for _ in rx.finditer(line):
                    pass
                took = time.perf_counter() - start
                timings.append((took, spec.rule.id, attribute, line[:40]))
    timings.sort(reverse=True)
    for took, rule, attribute, head in timings[: args.top]:
        print(f"{took:8.4f} s  {rule} ({attribute})  {head!r}")
    slowest = timings[0][0]
    print(f"{len(timings):,} searches of {args.kb} KB lines; slowest {slowest:.4f} s")
    return 1 if args.limit is not None and slowest > args.limit else 0


if __name__ == "__main__":
    raise SystemExit(main())
