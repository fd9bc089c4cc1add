"""Replay the gate over a repository's history: how often would the required check fail?

    python bench/replay_gate.py GIT_DIR [GIT_DIR ...] [--commits 500] [--json FILE]

For each of the last ``--commits`` first-parent commits of each repository (a bare mirror or
a checkout's ``.git``), the change the commit made to its first parent is counted once and
judged twice, with no decision recorded anywhere (as on a repository that just installed
lockin): by the touch-based gate (``gate: strict``: every added non-portable line in the
gated layers) and by the default gate (``gate: growth``). It prints per repository the fail
rate under each, then one line per commit the default gate still fails: its id, subject
and the new lock-in it adds (rule ids, files, line ranges, lines that count and why).

Nothing is downloaded; the repositories' code is read from the git objects only.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.cli.diff import diff_change  # noqa: E402
from bot.cli.entry import parse_args  # noqa: E402
from bot.policy.config import load_policy  # noqa: E402
from bot.policy.gate import Verdict, evaluate  # noqa: E402

STRICT = load_policy("gate: strict\n")
GROWTH = load_policy("")  # the defaults


@dataclass
class Failing:
    sha: str
    subject: str
    lines: int
    files: list[dict] = field(default_factory=list)


@dataclass
class RepoResult:
    name: str
    commits: int = 0
    errors: int = 0
    strict_fail: int = 0
    growth_fail: int = 0
    touched: int = 0  # commits adding any gated line (what the strict gate sees)
    cpu_seconds: float = 0.0
    failing: list[Failing] = field(default_factory=list)


def first_parent_commits(git_dir: str, n: int) -> list[tuple[str, str, str | None]]:
    """(sha, subject, first parent) of the last ``n`` first-parent commits of HEAD."""
    out = subprocess.run(
        ["git", "--git-dir", git_dir, "log", "--first-parent", f"-{n}", "--format=%H%x00%P%x00%s"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    commits = []
    for line in out.splitlines():
        sha, parents, subject = line.split("\x00", 2)
        commits.append((sha, subject, parents.split()[0] if parents else None))
    return commits


def judge(git_dir: str, parent: str, sha: str) -> tuple[Verdict, Verdict]:
    args = parse_args(["diff", parent, sha, "--repo", git_dir, "--jobs", "1"])
    inputs, delta = diff_change(args)
    # The repository's own policy and records are left out: both gates see the defaults
    # and no decision, as on the day lockin is installed.
    del inputs
    strict = evaluate(delta, STRICT, linked=[], recorded=[])
    growth = evaluate(delta, GROWTH, linked=[], recorded=[])
    return strict, growth


def _what(verdict: Verdict) -> list[dict]:
    files = []
    for gate in verdict.uncovered:
        ranges = gate.lines.ranges if gate.lines else ()
        files.append(
            {
                "path": gate.path,
                "lines": gate.gated_lines,
                "why": gate.counts,
                "rules": sorted({r.rule for r in ranges}),
                "ranges": [f"{r.start_line}-{r.end_line}" for r in ranges][:8],
            }
        )
    return files


def replay(git_dir: str, n: int, progress: io.TextIOBase) -> RepoResult:
    name = _name(git_dir)
    result = RepoResult(name)
    start = _cpu()
    for index, (sha, subject, parent) in enumerate(first_parent_commits(git_dir, n)):
        if parent is None:
            continue
        result.commits += 1
        try:
            strict, growth = judge(git_dir, parent, sha)
        except Exception as exc:  # a bench keeps going; the count of errors is reported
            result.errors += 1
            progress.write(f"  {sha[:10]} error: {type(exc).__name__}: {exc}\n")
            continue
        result.touched += strict.gated_lines > 0
        result.strict_fail += strict.conclusion == "failure"
        if growth.conclusion == "failure":
            result.growth_fail += 1
            result.failing.append(Failing(sha, subject, growth.gated_lines, _what(growth)))
        if (index + 1) % 50 == 0:
            progress.write(f"  {name}: {index + 1} commits\n")
            progress.flush()
    result.cpu_seconds = _cpu() - start
    return result


def _cpu() -> float:
    """CPU seconds of this process and its finished children (git), not wall time: the
    machine is shared."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _name(git_dir: str) -> str:
    path = os.path.abspath(git_dir).rstrip("/")
    for suffix in ("/.git", "/repo"):
        path = path.removesuffix(suffix)
    return os.path.basename(path).replace("+", "/")


def _rate(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part * 100 / whole:.1f}%)" if whole else "0/0"


def report(results: list[RepoResult]) -> str:
    out = [
        "| repository | commits | add gated lines | fail, strict (touch) | fail, growth |",
        "| --- | --: | --: | --: | --: |",
    ]
    for r in results:
        out.append(
            f"| {r.name} | {r.commits} | {r.touched} | {_rate(r.strict_fail, r.commits)} | "
            f"{_rate(r.growth_fail, r.commits)} |"
        )
    for r in results:
        out += ["", f"## {r.name}: commits the default gate fails ({len(r.failing)})", ""]
        if r.errors:
            out.append(f"{r.errors} commits could not be replayed (see stderr).")
        rules = Counter(rule for f in r.failing for file in f.files for rule in file["rules"])
        if rules:
            out.append("rules: " + ", ".join(f"{rule} ×{n}" for rule, n in rules.most_common()))
        for f in r.failing:
            out.append(f"- {f.sha[:10]} {f.subject[:90]}: {f.lines} lines")
            for file in f.files[:6]:
                where = ", ".join(file["ranges"])
                out.append(
                    f"  - {file['path']}: {file['lines']} [{', '.join(file['rules'])}] "
                    f"L{where}: {file['why']}"
                )
            if len(f.files) > 6:
                out.append(f"  - and {len(f.files) - 6} more files")
        out.append(f"\nCPU: {r.cpu_seconds:.0f} s for {r.commits} commits.")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("git_dirs", nargs="+", metavar="GIT_DIR")
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--json", help="also write the results as JSON to this file")
    args = parser.parse_args(argv)
    results = []
    for git_dir in args.git_dirs:
        sys.stderr.write(f"replaying {git_dir}\n")
        results.append(replay(git_dir, args.commits, sys.stderr))
    sys.stdout.write(report(results))
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                [r.__dict__ | {"failing": [f.__dict__ for f in r.failing]} for r in results],
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
