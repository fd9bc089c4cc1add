"""Benchmark: lockin's AMD reasons against what hipify-perl itself reports, file by file.

    python bench/hipify_agreement.py --hipify-git-dir DIR \
        --repo NAME=GIT_DIR_OR_FOLDER[:GLOB,GLOB...] [--repo ...] [--max-files N] [--jobs N]

hipify-perl is taken from the HIPIFY repository (``bin/hipify-perl``, the script the
hipify-clang build generates; it is committed there) and run with Debian's perl as
``hipify-perl -examine FILE`` on the CUDA files of each repository (``.cu``/``.cuh`` by
default, or the globs given). Its warnings ``unsupported device function "X"``,
``unsupported HIP identifier: X`` and ``unsupported ROCm HIP identifier: X`` are the names
hipify cannot convert. lockin's side is the AMD reasons of the file's device code (its
kernels and other kernel-layer code, as the plan grades them, bot/engine/effort.py) that
come from an API table: names graded rewrite because HIPIFY's
table lists them without a HIP name, or corrected by an override. For every file the two
sets are compared; the note counts the names both report, and sorts each disagreement into
its kind:

- ``outside-kernels``: hipify warns about a name lockin's table knows, in code that is not
  device code lockin grades (host code): the plan prices those lines as vendor-path edits or
  library mappings, not as kernel effort.
- ``overridden``: a name HIPIFY's table lists as unsupported that current HIP supports
  (effort.yml overrides, each with its source); lockin grades it ``review`` (the *_sync
  shuffles: 64-bit masks) or ``port`` (bfloat16 conversions), hipify warns.
- ``not-an-api-use``: the name appears but not as the API (a member, a local variable named
  like a math function); lockin leaves it out on purpose.
- ``hipify-only``: hipify warns about a name lockin's tables do not list as unsupported.
- ``lockin-only``: lockin reports a table name hipify-perl does not warn about.

Besides the names, it counts the traps lockin reports that hipify-perl passes through without
a word (inline PTX, CUTLASS/CuTe, warp-size-32 assumptions). hipify-perl is slow (tens of CPU
seconds per file): ``--max-files`` bounds the files per repository (largest CUDA files
first), and the output of each run is cached under ``--cache`` by the file's content hash.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import json
import re
import resource
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))

from bot.engine.classify import classify  # noqa: E402
from bot.engine.effort import Text, file_traps, grade, table_names, translators  # noqa: E402
from bot.engine.kernels import graded_inventory  # noqa: E402
from bot.engine.model import Layer  # noqa: E402
from bot.engine.registry import RULES  # noqa: E402

_WARNING = re.compile(
    r"warning: (?:unsupported device function \"(?P<device>[^\"]+)\""
    r"|unsupported (?:ROCm )?HIP identifier: (?P<name>\S+))"
)


def hipify_perl(git_dir: Path, folder: Path) -> Path:
    """bin/hipify-perl of the HIPIFY repository at HEAD, written to ``folder``."""
    script = folder / "hipify-perl"
    text = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", "HEAD:bin/hipify-perl"],
        capture_output=True,
        check=True,
    ).stdout
    script.write_bytes(text)
    return script


def tree(source: Path, folder: Path, globs: list[str]) -> Path:
    """A folder with the repository's files matching ``globs``: ``source`` itself, or, for
    a git directory, those files of its HEAD (a blob a partial mirror lacks is left out)."""
    if not ((source / "HEAD").exists() and (source / "objects").exists()):
        return source
    target = folder / source.parent.name
    listed = subprocess.run(
        ["git", "--git-dir", str(source), "ls-tree", "-r", "--name-only", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    for name in listed:
        if not any(fnmatch.fnmatch(name, g) for g in globs):
            continue
        blob = subprocess.run(
            ["git", "--git-dir", str(source), "show", f"HEAD:{name}"], capture_output=True
        )
        if blob.returncode == 0:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_bytes(blob.stdout)
    return target


def cuda_files(root: Path, globs: list[str], limit: int, smallest: bool) -> list[Path]:
    """Up to ``limit`` files matching ``globs``: the largest, or (``smallest``: hipify-perl's
    time grows with a file's length) the smallest holding a kernel."""
    found = [
        p
        for p in root.rglob("*")
        if p.is_file() and any(fnmatch.fnmatch(str(p.relative_to(root)), g) for g in globs)
    ]
    if smallest:
        found = [p for p in found if b"__global__" in p.read_bytes()]
    found.sort(key=lambda p: ((1 if smallest else -1) * p.stat().st_size, str(p)))
    return found[:limit]


def run_hipify(script: Path, path: Path, cache: Path) -> tuple[set[str], float]:
    data = path.read_bytes()
    key = hashlib.sha256(data + script.read_bytes()[:4096]).hexdigest()
    cached = cache / f"{key}.json"
    if cached.exists():
        stored = json.loads(cached.read_text())
        return set(stored["names"]), stored["cpu"]
    started = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / path.name
        copy.write_bytes(data)
        done = subprocess.run(
            ["perl", str(script), "-examine", str(copy)], capture_output=True, text=True
        )
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - started
    names = {m.group("device") or m.group("name") for m in _WARNING.finditer(done.stderr)}
    cached.write_text(json.dumps({"names": sorted(names), "cpu": cpu}))
    return names, cpu


def lockin_side(path: Path, rel: str) -> tuple[dict[str, str], Counter[str], set[str]]:
    """(name -> grade of lockin's table reasons in the file's device code, trap counts, names
    lockin's table knows anywhere in the file's code). Device code is what the plan grades:
    the kernels (with the helpers they call) and every other kernel-layer finding (device
    helpers of a header whose kernels live in other files)."""
    text = path.read_bytes().decode("utf-8", "replace")
    report = classify(rel, text.encode())
    kernels, _ = graded_inventory([(rel, text, report.findings)])
    lines = text.splitlines()
    context = file_traps(lines)
    defined = frozenset(k.name for k in kernels)
    efforts = [k.targets["amd"] for k in kernels]
    for finding in report.findings:
        if finding.layer == Layer.KERNEL:
            rule = RULES.get(finding.rule)
            span = Text(lines, [(finding.start_line, finding.end_line)], defined)
            vendors = rule.vendors if rule else ()
            efforts.append(grade(finding.ecosystem, vendors, span, context)["amd"])
    amd = translators()["amd"]
    names: dict[str, str] = {}
    traps: Counter[str] = Counter()
    for effort in efforts:
        for reason in effort.reasons:
            if reason.what in amd.unsupported or reason.what in amd.overrides:
                names[reason.what] = reason.grade.value
            else:
                traps[reason.what.split()[0] if reason.what.startswith("asm") else reason.what] += 1
    used, other = table_names("amd", text.splitlines())
    known = used | {f"!{n}" for n in other}
    return names, traps, known


def compare(hipify: set[str], lockin: dict[str, str], known: set[str]) -> Counter[str]:
    kinds: Counter[str] = Counter()
    amd = translators()["amd"]
    for name in hipify:
        if name in amd.overrides:
            # lockin grades it from the vendor's current documentation (review, or port
            # with nothing to say) where HIPIFY's table says unsupported.
            kinds["overridden"] += 1
        elif name in lockin:
            kinds["both"] += 1
        elif name in known:
            kinds["outside-kernels"] += 1
        elif f"!{name}" in known:
            kinds["not-an-api-use"] += 1
        else:
            kinds["hipify-only"] += 1
    for name in lockin:
        if name not in hipify:
            kinds["lockin-only"] += 1
    return kinds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hipify-git-dir", type=Path, required=True)
    parser.add_argument("--repo", action="append", required=True, metavar="NAME=PATH[:GLOBS]")
    parser.add_argument("--max-files", type=int, default=8)
    parser.add_argument("--smallest", action="store_true", help="the smallest files with kernels")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "hipify-cache")
    parser.add_argument("--json", type=Path, help="write the per-file results here")
    args = parser.parse_args(argv)
    args.cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="hipify-agreement-"))
    script = hipify_perl(args.hipify_git_dir, work)
    rows = []
    total: Counter[str] = Counter()
    trap_total: Counter[str] = Counter()
    for spec in args.repo:
        name, _, rest = spec.partition("=")
        location, _, globs = rest.partition(":")
        patterns = globs.split(",") if globs else ["*.cu", "*.cuh"]
        root = tree(Path(location), work, patterns)
        files = cuda_files(root, patterns, args.max_files, args.smallest)
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(lambda p: run_hipify(script, p, args.cache), files))
        for path, (hip_names, cpu) in zip(files, results, strict=True):
            rel = str(path.relative_to(root))
            names, traps, known = lockin_side(path, rel)
            kinds = compare(hip_names, names, known)
            total.update(kinds)
            trap_total.update(traps)
            rows.append(
                {
                    "repo": name,
                    "file": rel,
                    "hipify_cpu_s": round(cpu, 1),
                    "hipify_unsupported": sorted(hip_names),
                    "lockin_table_reasons": names,
                    "lockin_traps": dict(traps),
                    "kinds": dict(kinds),
                }
            )
            print(
                f"{name:>14} {rel:<60} hipify {len(hip_names):>3}  lockin {len(names):>3}  "
                f"traps {sum(traps.values()):>3}  {dict(kinds)}"
            )
    agree = total["both"]
    union = sum(total.values())
    print()
    print(f"files: {len(rows)}; names reported by either side: {union}")
    compared = union - total["overridden"]
    print(
        f"agreement (same name reported by both): {agree}/{compared} = {agree / compared:.0%}"
        if compared
        else "no names reported by either side"
    )
    print(f"names HIPIFY's table lags on, graded from HIP's documentation: {total['overridden']}")
    for kind, n in total.most_common():
        print(f"  {kind:<16} {n}")
    print("traps lockin reports that hipify-perl passes through silently:")
    for trap, n in trap_total.most_common():
        print(f"  {trap:<26} {n}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
