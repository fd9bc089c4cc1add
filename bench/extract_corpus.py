"""Lay out the benchmark corpus: the HEAD tree of each given git directory, extracted
under bench/corpus/NAME (git-ignored; never commit it).

The corpus is flash-attention, apex, bitsandbytes, xformers, DeepSpeed and llm.c. Get
their git directories any way you like (``git clone --bare``, or a mirror), then:

    python bench/extract_corpus.py path/to/flash-attention.git path/to/apex.git ...

Objects missing from a partial mirror (large binaries stored elsewhere) are skipped and
counted, which ``git archive`` cannot do.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.sources.git import GitRepo

CORPUS = Path(__file__).resolve().parent / "corpus"


def _name(git_dir: Path) -> str:
    # "owner+name/repo" mirrors, "name.git" bare clones, "name/.git" work trees.
    for part in (git_dir.name, git_dir.parent.name):
        stem = part.removesuffix(".git")
        if stem and stem not in ("repo", ""):
            return stem.split("+")[-1]
    return git_dir.resolve().name


def extract(git_dir: Path, dest_root: Path) -> tuple[int, int]:
    repo = GitRepo(str(git_dir))
    head = repo.resolve("HEAD")
    entries = repo.list_files(head)
    dest = dest_root / _name(git_dir)
    written = missing = 0
    for entry, (_, data) in zip(entries, repo.read_blobs(e.blob for e in entries), strict=True):
        if data is None:
            missing += 1
            continue
        target = dest / entry.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written += 1
    return written, missing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dirs", nargs="+", type=Path)
    parser.add_argument("--dest", type=Path, default=CORPUS)
    args = parser.parse_args()
    for git_dir in args.git_dirs:
        written, missing = extract(git_dir, args.dest)
        print(f"{_name(git_dir)}: {written} files, {missing} objects absent", file=sys.stderr)
    return 0 if os.path.isdir(args.dest) else 1


if __name__ == "__main__":
    raise SystemExit(main())
