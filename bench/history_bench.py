"""Benchmark: `lockin history` of a repository against the naive way, a full count per point.

    python bench/history_bench.py --git-dir DIR [--every week] [--points N] [--sample 12]
        [--jobs 2]

Runs `lockin history DIR --every week --format json` once (one full census at the first
point, then only the blobs each first-parent commit changes), then `lockin scan --rev C DIR`
(a full census of one tree, what a naive history does at every point) for ``--sample``
points spread evenly over the history, and extrapolates the naive time to all points from
their mean (said so in the output). Each sampled scan must give the same figures as the
history's point of that commit, or the benchmark fails. Prints wall and CPU seconds, peak
memory (summed resident set of the process tree, and ru_maxrss of the largest process),
the speed-up and the load average before and after: on a shared machine read CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent

sys.path[:0] = [str(ROOT), str(BENCH)]

# The process measurement of the scan benchmark, shared rather than copied.
import run as bench_run  # noqa: E402

from bot.render.json_out import TOTALS  # noqa: E402


def lockin(*args: str) -> list[str]:
    return [sys.executable, "-m", "bot", *args]


def sample(points: list[dict], n: int) -> list[dict]:
    """``n`` points spread evenly from the first to the last (both included)."""
    if n >= len(points):
        return points
    step = (len(points) - 1) / (n - 1)
    return [points[round(i * step)] for i in range(n)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git-dir", required=True, type=Path)
    parser.add_argument("--every", default="week")
    parser.add_argument("--points", type=int, help="only the last N points (e.g. 24)")
    parser.add_argument("--sample", type=int, default=12, help="naive scans to time")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    bench_run.compile_bytecode()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    history = bench_run.measure(
        lockin(
            "history",
            str(args.git_dir),
            "--every",
            args.every,
            "--format",
            "json",
            "--jobs",
            str(args.jobs),
            *(["--points", str(args.points)] if args.points else []),
        )
    )
    if history.returncode:
        print("lockin history failed", file=sys.stderr)
        return 1
    document = json.loads(history.stdout)
    points = document["points"]
    print(
        f"lockin history: {len(points)} points ({args.every}), "
        f"{document['commits_walked']} commits walked, {history.seconds:.1f} s wall, "
        f"{history.cpu_seconds:.1f} s CPU, peak {history.tree_peak_mb:.0f} MB (tree) / "
        f"{history.maxrss_mb:.0f} MB (largest process)"
    )

    chosen = sample(points, args.sample)
    wall = cpu = peak = 0.0
    for point in chosen:
        scan = bench_run.measure(
            lockin(
                "scan",
                "--rev",
                point["commit"],
                str(args.git_dir),
                "--format",
                "json",
                "--jobs",
                str(args.jobs),
            )
        )
        totals = json.loads(scan.stdout)["totals"]
        if totals != {key: point[key] for key in TOTALS}:
            print(f"figures differ at {point['commit']}", file=sys.stderr)
            return 1
        wall, cpu, peak = wall + scan.seconds, cpu + scan.cpu_seconds, max(peak, scan.tree_peak_mb)
    per_point = wall / len(chosen)
    naive = per_point * len(points)
    print(
        f"naive (lockin scan --rev per point): {len(chosen)} of {len(points)} points timed, "
        f"{per_point:.2f} s wall and {cpu / len(chosen):.2f} s CPU each, peak {peak:.0f} MB; "
        f"extrapolated to all points: {naive:.0f} s wall, "
        f"{cpu / len(chosen) * len(points):.0f} s CPU"
    )
    print(
        f"speed-up: {naive / history.seconds:.1f}x wall, "
        f"{cpu / len(chosen) * len(points) / history.cpu_seconds:.1f}x CPU; "
        f"sampled points equal the history's figures"
    )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
