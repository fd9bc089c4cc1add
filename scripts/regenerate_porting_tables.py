"""Regenerate the translators' support tables in bot/engine/data/porting/ from checkouts.

    python scripts/regenerate_porting_tables.py --hipify PATH/TO/HIPIFY \
        [--syclomatic PATH/TO/SYCLomatic] [--commit-of FILE=SHA ...]

``--hipify`` is a checkout of ROCm/HIPIFY (MIT): every ``docs/tables/*_supported_by_HIP.md``
table is read, and each CUDA name whose HIP column is empty is recorded as unsupported.
``--syclomatic`` is a checkout of oneapi-src/SYCLomatic (Apache-2.0 WITH LLVM-exception), or
any folder holding its ``docs/dev_guide/api-mapping-status/*.csv`` files: each name migrated
``NO`` is recorded as unsupported, each ``YES`` that carries a diagnostic (a line a person must
check) with its diagnostic ids. ``YES`` rows without a diagnostic are what the translator
converts mechanically and need no row.

The commit of each source is read with git when the folder is a checkout; ``--commit-of``
names it otherwise (SYCLomatic is too large to clone whole: its CSV files can be fetched one by
one, each at its own commit). Only facts (names, supported or not) are taken; no prose.
"""

from __future__ import annotations

import argparse
import csv
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).resolve().parent.parent / "bot" / "engine" / "data" / "porting"
HIPIFY_TABLES = "docs/tables"
SYCLOMATIC_CSV = "docs/dev_guide/api-mapping-status"
# The SYCLomatic lists a CUDA kernel can meet; host-only libraries are graded by their
# counterpart library in the plan, not per name.
SYCLOMATIC_FILES = (
    "Runtime_and_Driver_API_migration_status.csv",
    "ASM_API_migration_status.csv",
    "wmma_API_migration_status.csv",
    "CUB_API_migration_status.csv",
)
_ROW = re.compile(r"^\|`([^`]+)`\|")
_DIAGNOSTIC = re.compile(r"DPCT\d{4}")


def _git(folder: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(folder), *args], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip() or None


def _commit(folder: Path, path: str, given: dict[str, str]) -> str:
    name = Path(path).name
    if name in given:
        return given[name]
    found = _git(folder, "log", "-1", "--format=%H", "--", path)
    if found is None:
        sys.exit(f"no commit known for {path}: pass --commit-of {name}=SHA")
    return found


def hipify_tables(root: Path, given: dict[str, str]) -> dict[str, Any]:
    tables = sorted((root / HIPIFY_TABLES).glob("*_supported_by_HIP.md"))
    if not tables:
        sys.exit(f"{root}: no {HIPIFY_TABLES}/*_supported_by_HIP.md (not a HIPIFY checkout?)")
    counts: dict[str, dict[str, int]] = {}
    unsupported: dict[str, list[str]] = {}
    for table in tables:
        family = table.name.removesuffix("_supported_by_HIP.md")
        supported, missing = 0, []
        for line in table.read_text(encoding="utf-8").splitlines():
            match = _ROW.match(line)
            if not match:
                continue
            cells = line.split("|")
            # |CUDA|A|D|C|R|HIP|A|D|C|R|E|: the HIP name is the sixth cell.
            if cells[6].strip():
                supported += 1
            else:
                missing.append(match.group(1))
        counts[family] = {"supported": supported, "unsupported": len(missing)}
        unsupported[family] = sorted(set(missing))
    changelog = root / "CHANGELOG.md"
    version = None
    if changelog.exists():
        heading = re.search(r"^## HIPIFY for ROCm (\S+)", changelog.read_text(), re.M)
        version = heading.group(1) if heading else None
    paths = [f"{HIPIFY_TABLES}/{t.name}" for t in tables]
    return {
        "tool": "hipify",
        "source": {
            "repo": "ROCm/HIPIFY",
            "commit": _commit(root, HIPIFY_TABLES, given),
            "licence": "MIT",
            "version": f"HIPIFY for ROCm {version}" if version else None,
            "paths": paths,
        },
        "counts": counts,
        "unsupported": unsupported,
    }


def syclomatic_tables(root: Path, given: dict[str, str]) -> dict[str, Any]:
    folder = root / SYCLOMATIC_CSV if (root / SYCLOMATIC_CSV).is_dir() else root
    files: list[dict[str, str]] = []
    unsupported: dict[str, list[str]] = {}
    diagnostics: dict[str, dict[str, list[str]]] = {}
    for name in SYCLOMATIC_FILES:
        path = folder / name
        if not path.exists():
            sys.exit(f"{path}: missing")
        family = name.removesuffix("_migration_status.csv")
        relative = f"{SYCLOMATIC_CSV}/{name}"
        files.append({"path": relative, "commit": _commit(folder, name, given)})
        missing: set[str] = set()
        flagged: dict[str, list[str]] = {}
        with path.open(newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                function = (row.get("Function") or "").strip()
                support = (row.get("Migration Support") or "").strip().upper()
                note = (row.get("Diagnostic Message") or "").strip()
                if not function:
                    continue
                if support == "NO":
                    missing.add(function)
                elif note:
                    # "Partial" (CUB) is a diagnostic in words: a person checks the result.
                    flagged[function] = _DIAGNOSTIC.findall(note) or [note.lower()]
        unsupported[family] = sorted(missing)
        diagnostics[family] = dict(sorted(flagged.items()))
    return {
        "tool": "SYCLomatic",
        "source": {
            "repo": "oneapi-src/SYCLomatic",
            "licence": "Apache-2.0 WITH LLVM-exception",
            "files": files,
        },
        "unsupported": unsupported,
        "diagnostics": diagnostics,
    }


class _Dumper(yaml.SafeDumper):
    """Block style for mappings, one line per list: small diffs when a table changes."""


def _list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


_Dumper.add_representer(list, _list)


def write(name: str, document: dict[str, Any], folder: Path = DATA) -> Path:
    header = (
        "# Generated by scripts/regenerate_porting_tables.py from the source named below;\n"
        "# do not edit by hand (corrections go in overrides.yml, with their source).\n"
    )
    target = folder / name
    body = yaml.dump(document, Dumper=_Dumper, sort_keys=False, width=100, allow_unicode=True)
    target.write_text(header + body, encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hipify", type=Path, help="checkout of ROCm/HIPIFY")
    parser.add_argument("--syclomatic", type=Path, help="checkout (or CSV folder) of SYCLomatic")
    parser.add_argument(
        "--commit-of",
        action="append",
        default=[],
        metavar="FILE=SHA",
        help="the commit a file (or HIPIFY's docs/tables) was taken from, when not a git checkout",
    )
    parser.add_argument("--out", type=Path, default=DATA, help=f"folder to write (default {DATA})")
    args = parser.parse_args(argv)
    if not args.hipify and not args.syclomatic:
        parser.error("nothing to do: give --hipify and/or --syclomatic")
    given = dict(item.split("=", 1) for item in args.commit_of)
    if args.hipify:
        print(write("hipify.yml", hipify_tables(args.hipify, given), args.out))
    if args.syclomatic:
        print(write("syclomatic.yml", syclomatic_tables(args.syclomatic, given), args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
