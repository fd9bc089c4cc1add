"""Benchmark: the repository census from a streamed tarball against `lockin scan` of the tree.

    python bench/census_bench.py --git-dir DIR [--git-dir DIR ...] [--synthetic-mb 500]
    python bench/census_bench.py --tarball FILE.tar.gz

For each repository it writes HEAD as a temporary .tar.gz, as ``git archive`` would (blobs
absent from a partial mirror are left out), extracts a copy, and measures in child processes:
the tarball census (bot.sources.tarball.census_from_file: one stream, nothing extracted)
and `lockin scan` of the extracted tree (one process, and the default process pool). It
prints files, MB (of files counted), wall seconds, MB/s and peak memory (summed RSS of the
process tree, and ru_maxrss), and checks that both give the same figures.

``--synthetic-mb N`` also builds an archive of about N MB compressed from the repositories'
own text files (copies under distinct paths, each slightly edited so gzip cannot fold them
together) and measures the census's peak memory on it. Temporary files go under
``--workdir`` (default: the system temp dir) and are removed afterwards.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))

from bot.policy.config import DEFAULT_POLICY  # noqa: E402
from bot.sources.tarball import ArchiveLimits, census_from_file  # noqa: E402

# The process measurement of the scan benchmark (bench/run.py), shared rather than copied.
_spec = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
assert _spec is not None
assert _spec.loader is not None
bench_run = importlib.util.module_from_spec(_spec)
sys.modules["bench_run"] = bench_run  # dataclasses look their module up there
_spec.loader.exec_module(bench_run)

# What the bot applies with the default policy (census.max_archive_mb: 1024).
LIMITS = ArchiveLimits.for_archive(DEFAULT_POLICY.census.max_archive_bytes)


def _git(git_dir: Path, *args: str, text: bool = True) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(git_dir), *args], check=True, capture_output=True, text=text
    ).stdout


def archive_of(git_dir: Path, out: Path) -> Path:
    """What `git archive --format=tar.gz HEAD` gives, written from `git cat-file --batch` so
    that blobs a partial mirror lacks are left out instead of aborting the archive."""
    listing = _git(git_dir, "ls-tree", "-r", "-z", "HEAD").split("\0")
    entries = [(meta.split(), path) for meta, _, path in (e.partition("\t") for e in listing if e)]
    blobs = [(mode, sha, path) for (mode, kind, sha), path in entries if kind == "blob"]
    batch = subprocess.Popen(
        ["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert batch.stdin is not None
    assert batch.stdout is not None
    with (
        out.open("wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb") as gz,
        tarfile.open(fileobj=gz, mode="w|", format=tarfile.PAX_FORMAT) as tar,
    ):
        for mode, sha, path in blobs:
            batch.stdin.write(f"{sha}\n".encode())
            batch.stdin.flush()
            header = batch.stdout.readline().split()
            if header[-1] == b"missing":
                continue
            data = batch.stdout.read(int(header[2]) + 1)[:-1]
            info = tarfile.TarInfo(path)
            if mode == "120000":
                info.type, info.linkname = tarfile.SYMTYPE, data.decode()
                tar.addfile(info)
            else:
                info.size, info.mode = len(data), 0o755 if mode == "100755" else 0o644
                tar.addfile(info, io.BytesIO(data))
    batch.stdin.close()
    batch.wait()
    return out


def count(tarball: Path) -> None:
    """Child-process entry: census one archive, print its figures as JSON."""
    result = census_from_file(tarball, limits=LIMITS)
    census = result.census
    print(
        json.dumps(
            {
                "files": result.files,
                "counted_files": census.totals.files,
                "code_lines": census.totals.code_lines,
                "locked": census.locked_to_nvidia(),
                "compressed_mb": result.compressed_bytes / 1e6,
                "inflated_mb": result.inflated_bytes / 1e6,
            }
        )
    )


def bench_repo(tarball: Path, workdir: Path, repeat: int) -> None:
    tree = workdir / "tree"
    shutil.rmtree(tree, ignore_errors=True)
    with tarfile.open(tarball) as tar:
        # The benchmark's own copy for `lockin scan` (which skips symlinks too).
        tar.extractall(
            tree, filter=lambda m, dest: None if m.issym() else tarfile.data_filter(m, dest)
        )
    files, mb, text_mb = bench_run.corpus_stats(tree)
    print(
        f"\n{tarball.name}: {tarball.stat().st_size / 1e6:.1f} MB compressed; "
        f"{files:,} files after default exclusions, {mb:.1f} MB ({text_mb:.1f} MB of text)"
    )
    headers = ("files", "MB", "wall s", "cpu s", "MB/s", "peak MB", "maxrss")
    print(f"{'how':<14} " + " ".join(f"{h:>8}" for h in headers))
    runs = {
        "tarball": [sys.executable, __file__, "--count", str(tarball)],
        "scan -j1": [
            *bench_run.LOCKIN,
            "scan",
            str(tree),
            "--format",
            "json",
            "--jobs",
            "1",
        ],
        "scan -j2": [
            *bench_run.LOCKIN,
            "scan",
            str(tree),
            "--format",
            "json",
            "--jobs",
            "2",
        ],
    }
    figures = {}
    for name, cmd in runs.items():
        run = bench_run.best(cmd, repeat)
        if run.returncode != 0:
            raise SystemExit(f"{name} failed with exit status {run.returncode}")
        figures[name] = json.loads(run.stdout)
        print(bench_run.line(name, files, mb, run))
    stream, scan = figures["tarball"], figures["scan -j1"]["totals"]
    same = (stream["code_lines"], stream["locked"]) == (
        scan["code_lines"],
        scan["nvidia_locked_lines"],
    )
    print(
        f"figures: tarball {stream['code_lines']:,} code lines, {stream['locked']:,} locked; "
        f"scan {scan['code_lines']:,} code lines, {scan['nvidia_locked_lines']:,} locked; "
        f"same: {same}"
    )
    shutil.rmtree(tree, ignore_errors=True)


def synthesize(sources: list[Path], target_mb: int, out: Path) -> Path:
    """About ``target_mb`` MB of gzip made of the sources' text files, copied under new
    paths with a distinct first line each, written as a stream."""
    texts: list[tuple[str, bytes]] = []
    for tarball in sources:
        with tarfile.open(tarball) as tar:
            for member in tar:
                handle = tar.extractfile(member) if member.isfile() else None
                data = handle.read() if handle is not None else b""
                if data and b"\0" not in data[:4096] and len(data) < 1 << 20:
                    texts.append((member.name, data))
    target, copy = target_mb * 1_000_000, 0
    with (
        out.open("wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as gz,
        tarfile.open(fileobj=gz, mode="w|") as tar,
    ):
        while raw.tell() < target:
            for name, data in texts:
                body = f"// copy {copy} of {name}\n".encode() + data
                info = tarfile.TarInfo(f"synthetic/copy{copy:04d}/{name}")
                info.size = len(body)
                tar.addfile(info, io.BytesIO(body))
            copy += 1
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description="lockin tarball census benchmark")
    parser.add_argument("--git-dir", type=Path, action="append", default=[])
    parser.add_argument("--tarball", type=Path, action="append", default=[])
    parser.add_argument("--synthetic-mb", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()))
    parser.add_argument("--count", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.count:
        count(args.count)
        return 0
    with tempfile.TemporaryDirectory(prefix="lockin-bench-", dir=args.workdir) as tmp:
        work = Path(tmp)
        tarballs = list(args.tarball)
        for git_dir in args.git_dir:
            name = git_dir.parent.name if git_dir.name in ("repo", ".git") else git_dir.name
            tarballs.append(archive_of(git_dir, work / f"{name}.tar.gz"))
        for tarball in tarballs:
            bench_repo(tarball, work, args.repeat)
        if args.synthetic_mb:
            started = time.perf_counter()
            big = synthesize(tarballs, args.synthetic_mb, work / "synthetic.tar.gz")
            print(
                f"\nsynthetic archive: {big.stat().st_size / 1e6:.0f} MB compressed "
                f"(built in {time.perf_counter() - started:.0f} s)"
            )
            run = bench_run.measure([sys.executable, __file__, "--count", str(big)])
            doc = json.loads(run.stdout)
            print(
                f"tarball stream: {doc['files']:,} files, {doc['inflated_mb']:,.0f} MB of tar, "
                f"{run.seconds:.1f} s wall, {run.cpu_seconds:.1f} s cpu "
                f"({doc['inflated_mb'] / run.seconds:.1f} MB/s of tar), "
                f"peak {run.tree_peak_mb:.0f} MB (maxrss {run.maxrss_mb:.0f} MB)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
