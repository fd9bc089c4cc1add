"""Benchmark: `lockin diff` of one very large commit, its memory against the change's size.

    python bench/large_change_bench.py [--files 20000] [--lines 250] [--modified 200]

Builds a repository in a temporary folder whose second commit adds ``--files`` generated
files of ``--lines`` lines each (a vendored tree, a dump of generated outputs) and modifies
``--modified`` files of the first, then times `lockin diff HEAD~1 HEAD` over it and prints
the content's size beside the run's peak memory (the summed resident set of the process
tree, and the largest process). Contents are read as the engine takes them, so the peak
should stay flat as ``--files`` grows; a diff that held every blob, or git's whole patch,
at once grew with it (2.1 GB for the defaults until stop 50).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from run import LOCKIN, measure  # noqa: E402

_LINE = "module m{0}(input a, output b); assign b = a & {1}; endmodule // generated\n"
_KERNEL = "__global__ void k{0}(float* x) {{ x[threadIdx.x] += {0}; }}\n"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def build(repo: Path, files: int, lines: int, modified: int) -> int:
    """The repository, and the bytes its second commit adds or rewrites."""
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "bench@example.invalid")
    _git(repo, "config", "user.name", "bench")
    for i in range(modified):
        (repo / f"k{i}.cu").write_text(_KERNEL.format(i))
    (repo / "README").write_text("bench\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    size = 0
    for i in range(modified):  # a kernel added to each: lines the gate must place
        text = _KERNEL.format(i) + _KERNEL.format(i + modified)
        (repo / f"k{i}.cu").write_text(text)
        size += len(text)
    for i in range(files):
        folder = repo / f"gen{i // 500}"
        folder.mkdir(exist_ok=True)
        text = "".join(_LINE.format(i, j) for j in range(lines))
        (folder / f"out{i}.sv").write_text(text)
        size += len(text)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "generated outputs")
    return size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=20000)
    parser.add_argument("--lines", type=int, default=250)
    parser.add_argument("--modified", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=0, help="0: lockin's default")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lockin-large-change-") as tmp:
        repo = Path(tmp)
        size = build(repo, args.files, args.lines, args.modified)
        cmd = [*LOCKIN, "diff", "HEAD~1", "HEAD", "--repo", str(repo), "--format", "json"]
        if args.jobs:
            cmd += ["--jobs", str(args.jobs)]
        run = measure(cmd)
    if run.returncode not in (0, 1):
        raise SystemExit(f"lockin diff failed with exit status {run.returncode}")
    print(
        f"lockin diff of {args.files + args.modified:,} files ({size / 1e6:,.0f} MB changed): "
        f"{run.seconds:.1f} s wall, {run.cpu_seconds:.1f} s CPU, peak {run.tree_peak_mb:,.0f} MB "
        f"(process tree), largest process {run.maxrss_mb:,.0f} MB, exit {run.returncode}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
