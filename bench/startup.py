"""Start-up cost of the command line: wall time of `lockin --version` and of `lockin scan`
on the bundled example, best and median of several runs, for one or more installations.

    python bench/startup.py .venv/bin/lockin [/other/venv/bin/lockin ...] [--runs N]

Every command loads the rule registry (and, since the rule files are checked against their
schema, that check too), so this is what each invocation pays before any work.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = {
    "--version": ["--version"],
    "scan examples/repo": ["scan", str(ROOT / "examples" / "repo"), "--jobs", "1"],
    "rules cuda.kernel": ["rules", "cuda.kernel"],
}


def _time(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("lockin", nargs="+", help="lockin executables to compare")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    for exe in args.lockin:
        print(exe)
        for name, argv in COMMANDS.items():
            times = [_time([exe, *argv]) for _ in range(args.runs)]
            print(
                f"  {name:<22} best {min(times) * 1000:6.0f} ms   "
                f"median {statistics.median(times) * 1000:6.0f} ms"
            )


if __name__ == "__main__":
    main()
