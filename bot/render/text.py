"""Terminal output: aligned tables for ``lockin scan`` and ``lockin diff``, and a progress
line on stderr for long scans."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from bot.engine.census import Census
from bot.engine.model import LAYERS, NON_PORTABLE, Finding
from bot.render import markers_out, scan_tables
from bot.render.counting import counting_note
from bot.render.wording import (
    COST,
    over_budget_text,
    percent,
    reasons,
    signed,
    skipped_reasons,
)

if TYPE_CHECKING:  # a change's types: a scan never loads the delta's module (unidiff)
    from bot.engine.delta import ChangeDelta


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Columns padded to their widest cell; numbers right-aligned, text left-aligned."""
    cells = [[str(h) for h in headers], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    numeric = [bool(rows) and all(_is_number(row[i]) for row in rows) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = [
            cell.rjust(width) if numeric[i] else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


def _is_number(value: Any) -> bool:
    if isinstance(value, int | float) or value == "":
        return True  # an empty cell (a total row's share) does not make a column text
    digits = str(value).lstrip("+-").rstrip("%").replace(",", "").replace(".", "")
    return digits.isdigit()


def _finding_line(path: str, f: Finding) -> str:
    where = f"{path}:{f.start_line}" + (f"-{f.end_line}" if f.end_line != f.start_line else "")
    return f"  {where}  {f.rule}  ({f.layer.value}, {f.ecosystem})"


def render_scan(
    census: Census,
    *,
    root: str,
    top: int = 10,
    findings: bool = False,
    by_file: bool = False,
    sort: str = "lines",
) -> str:
    """The census as scc and tokei print theirs: the headline and one table first, then the
    few ranked lists that fit a screen; every finding only with ``findings``."""
    totals = census.totals
    code = totals.code_lines
    locked = census.locked_to_nvidia()
    out = [
        f"lockin scan {root}: {totals.files:,} files, {code:,} code lines",
        f"Could not move off NVIDIA tomorrow: {locked:,} of {code:,} code lines "
        f"({percent(locked, code)})",
    ]
    carried = census.carried_by_shims()
    if carried:
        through = []
        if shims := census.shim_headers():
            through.append(f"a HIP shim header ({', '.join(shims)})")
        if switched := census.hip_switched():
            through.append(f"their own HIP switches ({len(switched):,} files)")
        out.append(
            f"CUDA lines also built for AMD through {' and '.join(through)}: {carried:,}, "
            "not counted as NVIDIA-only"
        )
    rows = (
        scan_tables.file_rows(census, sort) if by_file else scan_tables.language_rows(census, sort)
    )
    out += ["", _layer_table("path" if by_file else "language", rows, census, by_file=by_file)]
    text_rows = scan_tables.text_rows(census)
    if text_rows:
        listed = ", ".join(
            f"{name} {n:,} ({files:,} file{'s' if files != 1 else ''})"
            for name, files, n in text_rows[:top]
        )
        more = f" and {len(text_rows) - top} more" if len(text_rows) > top else ""
        out += ["", f"Documentation and data, not code (lines): {listed}{more}"]
    if totals.ecosystems:
        ranked = sorted(totals.ecosystems.items(), key=lambda i: (-i[1], i[0]))
        listed = ", ".join(f"{eco} {n:,}" for eco, n in ranked[:top])
        more = f" and {len(ranked) - top} more" if len(ranked) > top else ""
        out += ["", f"Non-portable lines per ecosystem: {listed}{more}"]
    if totals.non_portable_lines:
        matrix = [
            [target, *(f"{row[layer]:,}" for layer in NON_PORTABLE)]
            for target, row in census.matrix().items()
        ]
        out += ["", "Lines to touch to move to another vendor:"]
        out.append(
            table(["target", *(f"{layer.value} ({COST[layer]})" for layer in NON_PORTABLE)], matrix)
        )
    alternatives = census.alternatives()
    if alternatives:
        listed = ", ".join(
            f"{a.ecosystem} {a.lines:,} ({', '.join(sorted(a.vendors))})" for a in alternatives
        )
        out += ["", f"Alternatives already present: {listed}"]
    top_files = [] if by_file else census.top_files(top)
    if top_files:
        dirs = census.top_directories(top)
        out += [
            "",
            f"Top {len(top_files)} files by non-portable lines:",
            table(["lines", "path"], [[f"{s.non_portable_lines:,}", s.path] for s in top_files]),
            "",
            f"Top {len(dirs)} directories:",
            table(["lines", "directory"], [[f"{n:,}", path] for path, n in dirs]),
        ]
    generated = census.generated
    if generated.files:
        state = "included in" if census.include_generated else "left out of"
        out += [
            "",
            f"Generated files: {generated.files:,} ({generated.code_lines:,} code lines, "
            f"{generated.non_portable_lines:,} non-portable), {state} the totals",
        ]
    if census.skipped:
        out += ["", f"Skipped: {reasons(census.skipped)}"]
    out += over_budget_text(census.not_counted())
    out += markers_out.text_block(*markers_out.of_census(census))
    counted = census.files()
    found = sum(len(s.findings) for s in counted)
    if findings and found:
        lines = (_finding_line(s.path, f) for s in counted for f in s.findings)
        out += ["", f"Findings ({found:,}):", *lines]
    elif found:
        out += ["", f"{found:,} findings: --findings lists them, --by-file per file"]
    return "\n".join(out) + "\n"


def _layer_table(
    first: str, rows: Sequence[scan_tables.Row], census: Census, *, by_file: bool
) -> str:
    """Files, code and the lines of each layer per row, and their non-portable share, with
    a total row: the census's own totals, which also count what the rows leave out
    (--by-file lists only files with non-portable lines)."""
    totals = census.totals
    files = [] if by_file else ["files"]
    headers = [first, *files, "code", *(layer.value for layer in LAYERS), "share"]
    body: list[list[Any]] = [
        [
            row.name,
            *([] if by_file else [f"{row.files:,}"]),
            f"{row.code:,}",
            *(f"{row.layers[layer]:,}" for layer in LAYERS),
            percent(row.non_portable, row.code),
        ]
        for row in rows
    ]
    body.append(
        [
            "total",
            *([] if by_file else [f"{totals.files:,}"]),
            f"{totals.code_lines:,}",
            *(f"{totals.layers.get(layer, 0):,}" for layer in LAYERS),
            percent(totals.non_portable_lines, totals.code_lines),
        ]
    )
    return table(headers, body)


def render_diff(
    change: ChangeDelta,
    verdict: Mapping[str, Any],
    *,
    base: str,
    head: str,
    fix: Sequence[str] = (),
) -> str:
    """The diff's tables, then the verdict and, when it fails, ``fix`` (bot.render.fix)."""
    added, removed = change.added(), change.removed()
    out = [f"lockin diff {base} {head}: {len(change.files):,} files changed", ""]
    out.append(
        table(
            ["layer", "added", "removed", "net"],
            [
                [
                    layer.value,
                    f"{added[layer]:,}",
                    f"{removed[layer]:,}",
                    signed(added[layer] - removed[layer]),
                ]
                for layer in LAYERS
            ],
        )
    )
    rows = []
    for f in change.files:
        name = f"{f.old_path} -> {f.path}" if f.old_path else f.path
        if f.added_non_portable or f.removed_non_portable:
            ecos = ", ".join(sorted({*f.added_ecosystems, *f.removed_ecosystems}))
            rows.append(
                [f.status, name, f"+{f.added_non_portable:,}", f"-{f.removed_non_portable:,}", ecos]
            )
    if rows:
        out += [
            "",
            "Files with non-portable changes:",
            table(["status", "path", "added", "removed", "ecosystems"], rows),
        ]
    ranges = [_finding_line(f.path, r) for f in change.files for r in f.added_ranges]
    if ranges:
        out += ["", f"Added non-portable ranges ({len(ranges):,}):", *ranges]
    if change.skipped_files:
        out += ["", f"Not counted: {reasons(skipped_reasons(change))}"]
    out += over_budget_text(change.not_counted())
    out += markers_out.text_block(*markers_out.of_change(change))
    out += ["", f"Verdict: {verdict['conclusion']}: {verdict['summary']}"]
    for decision in verdict.get("decisions", []):
        state = "valid" if not decision["problems"] else "; ".join(decision["problems"])
        out.append(f"  decision {decision['ref']}: {state}")
    for f in verdict.get("files", []):
        state = f"covered by {f['covered_by']}" if f["covered_by"] else f["reason"]
        counts = f" ({f['counts']})" if f.get("counts") else ""
        out.append(f"  {f['path']}: {f['gated_lines']:,} gated lines{counts}, {state}")
    for f in verdict.get("changed", []):
        out.append(f"  {f['path']}: no gated line counts ({f['counts']})")
    note = counting_note(verdict)
    if note:
        out.append(f"  {note}")
    out += fix
    return "\n".join(out) + "\n"


class ProgressLine:
    """``done/total`` on one rewritten stderr line, only when stderr is a terminal and
    only for long scans: nothing is drawn in the first ``after`` seconds."""

    def __init__(
        self, stream: TextIO, label: str = "scanning", after: float = 0.5, unit: str = "files"
    ) -> None:
        self.stream = stream
        self.label = label
        self.unit = unit
        self.enabled = stream.isatty()
        self._start = time.monotonic() + after
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.enabled or now < self._start or (now - self._last < 0.1 and done < total):
            return
        self._last = now
        self.stream.write(f"\r{self.label} {done:,}/{total:,} {self.unit} ({percent(done, total)})")
        self.stream.flush()

    def finish(self) -> None:
        if self.enabled and self._last:
            self.stream.write("\r\033[K")
            self.stream.flush()
