"""Start-up cost of the command line: wall and CPU time of `lockin --version` and of
`lockin scan` on the bundled example, best and median of several runs, for one or more
installations.

    python bench/startup.py .venv/bin/lockin [/other/venv/bin/lockin ...] [--runs N] [--cold]

Every command loads the rule registry (and, since the rule files are checked against their
schema, that check too), so this is what each invocation pays before any work. The parsed
rule files and compiled regexes are cached (bot/engine/precompiled.py): ``--cold`` also
times each command without the cache (``LOCKIN_CACHE_DIR=""``), as a first run pays it. On
a shared machine read the CPU columns.
"""

from __future__ import annotations

import argparse
import os
import resource
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


def _time(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("lockin", nargs="+", help="lockin executables to compare")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--cold", action="store_true", help="also time without the cache")
    args = parser.parse_args()
    caches = {"": dict(os.environ)}
    if args.cold:
        caches[" (no cache)"] = {**os.environ, "LOCKIN_CACHE_DIR": ""}
    for exe in args.lockin:
        print(exe)
        for name, argv in COMMANDS.items():
            for label, env in caches.items():
                _time([exe, *argv], env)  # the cache written, the files in the page cache
                wall, cpu = zip(*(_time([exe, *argv], env) for _ in range(args.runs)), strict=True)
                print(
                    f"  {name + label:<33} wall best {min(wall) * 1000:5.0f} ms, "
                    f"median {statistics.median(wall) * 1000:5.0f} ms; "
                    f"CPU best {min(cpu) * 1000:5.0f} ms, "
                    f"median {statistics.median(cpu) * 1000:5.0f} ms"
                )


if __name__ == "__main__":
    main()
