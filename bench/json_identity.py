"""Do two revisions of lockin count the same? `python bench/json_identity.py REV_A REV_B`

A restructuring, a speed-up or a move between packages must not change a single figure.
This checks each revision out (a detached worktree under the system's temporary folder, no
install: lockin runs from inside the revision's tree, so its own ``bot`` package is the one
imported) and runs, with this interpreter:

- ``lockin scan --format json`` on ``examples/repo`` and on each folder of the bench corpus
  (``bench/corpus``, see bench/extract_corpus.py; ``--corpus`` for another);
- ``lockin diff --format json`` of ``examples/change/before`` and ``after``;
- with ``--repo GIT_DIR BASE..HEAD`` (repeatable), ``lockin diff --repo`` of that range.

Each output is compared byte for byte; the table says which match. Exit status 1 when any
differs (the first differing line is printed), 2 when a revision cannot be checked out.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def checked_out(rev: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="lockin-identity-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), rev],
            check=True,
        )
        try:
            yield tree
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False
            )


def lockin(tree: Path, *args: str) -> bytes:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    # Run from the tree: ``python -m`` puts the working folder first on sys.path, ahead of
    # PYTHONPATH, so run from this checkout both revisions would be this checkout's code.
    done = subprocess.run(
        [sys.executable, "-m", "bot", *args], env=env, cwd=tree, capture_output=True, check=False
    )
    if done.returncode not in (0, 1):  # diff exits 1 when the change would fail the gate
        raise SystemExit(f"lockin {' '.join(args)} failed at {tree}: {done.stderr.decode()}")
    return done.stdout


def cases(corpus: Path, ranges: list[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    examples = ROOT / "examples"
    out = [("scan examples/repo", ["scan", str(examples / "repo"), "--format", "json"])]
    if corpus.is_dir():
        for folder in sorted(p for p in corpus.iterdir() if p.is_dir()):
            out.append((f"scan corpus/{folder.name}", ["scan", str(folder), "--format", "json"]))
    change = examples / "change"
    out.append(
        (
            "diff examples/change",
            ["diff", str(change / "before"), str(change / "after"), "--format", "json"],
        )
    )
    for git_dir, span in ranges:
        base, _, head = span.partition("..")
        name = f"diff {Path(git_dir).parent.name}:{span}"
        out.append((name, ["diff", "--repo", git_dir, base, head, "--format", "json"]))
    return out


def first_difference(a: bytes, b: bytes) -> str:
    """Where two outputs part: compact JSON is one long line, so by byte offset."""
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    if at is None:
        return f"lengths differ: {len(a)} and {len(b)} bytes"
    start = max(0, at - 100)
    return f"byte {at:,}:\n  A: …{a[start : at + 100]!r}\n  B: …{b[start : at + 100]!r}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev_a")
    parser.add_argument("rev_b")
    parser.add_argument("--corpus", type=Path, default=ROOT / "bench" / "corpus")
    parser.add_argument(
        "--repo", nargs=2, action="append", default=[], metavar=("GIT_DIR", "BASE..HEAD")
    )
    args = parser.parse_args()
    todo = cases(args.corpus, [tuple(r) for r in args.repo])
    outputs: dict[str, list[bytes]] = {name: [] for name, _ in todo}
    for rev in (args.rev_a, args.rev_b):
        try:
            with checked_out(rev) as tree:
                for name, argv in todo:
                    outputs[name].append(lockin(tree, *argv))
        except subprocess.CalledProcessError:
            print(f"cannot check out {rev}", file=sys.stderr)
            return 2
    differ = 0
    print(f"A = {args.rev_a}, B = {args.rev_b}")
    for name, (a, b) in outputs.items():
        same = a == b
        differ += not same
        print(f"{'identical' if same else 'DIFFERENT':10} {len(a):>10,} bytes  {name}")
        if not same:
            print("  " + first_difference(a, b))
    print(f"{len(outputs) - differ} of {len(outputs)} outputs byte-identical")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
