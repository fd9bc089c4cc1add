"""``lockin report``: one self-contained HTML page (no script, no external style, font or
image) with the census, the per-target plan, the kernel inventory, the decision register
(owners, uncovered areas) and, when the history was walked, the trend drawn as inline SVG.

For teams that cannot install an App, and for CI artifacts: it opens from a file, offline,
and every value in it is escaped.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any

from bot.engine.census import Census
from bot.engine.model import LAYERS, NON_PORTABLE
from bot.render import scan_tables
from bot.render.svg_chart import line_chart
from bot.render.wording import percent

#: Rows of the long tables (kernels, files); the rest is counted in a last row.
MAX_ROWS = 500

_STYLE = """
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0;
  --bg: #ffffff; --card: #f6f8fa; --accent: #76b900; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1;
  --line: #3d444d; --bg: #0d1117; --card: #151b23; } }
body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: var(--bg); margin: 0 auto; max-width: 1100px; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 32px 0 8px;
  border-bottom: 1px solid var(--line); padding-bottom: 4px; }
.muted { color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr));
  gap: 12px; margin: 16px 0; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 6px;
  padding: 12px; } .card b { display: block; font-size: 24px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: left;
  vertical-align: top; } td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
code { font-size: 12px; } svg { max-width: 100%; height: auto; }
svg text { fill: var(--muted); font-size: 11px; } svg .axis { stroke: var(--line); }
svg .headline { stroke: var(--accent); fill: none; stroke-width: 2; }
svg .dot { fill: var(--accent); }
"""


def report_html(
    census: Census,
    overview: Mapping[str, Any],
    *,
    root: str,
    version: str,
    history: Mapping[str, Any] | None = None,
    generated: dt.datetime | None = None,
) -> str:
    when = (generated or dt.datetime.now(dt.UTC)).strftime("%Y-%m-%d %H:%M UTC")
    totals = census.totals
    locked, code = census.locked_to_nvidia(), totals.code_lines
    register = overview["register"]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        # Nothing may leave the page: no fetch, no image, no font, no frame.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">",
        f"<title>lockin report: {escape(root)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>lockin report: {escape(root)}</h1>",
        f'<p class="muted">Generated {when} by lockin {escape(version)}.</p>',
        '<div class="cards">',
        _card("NVIDIA-only lines", f"{locked:,}", f"{percent(locked, code)} of the code"),
        _card("Non-portable lines", f"{totals.non_portable_lines:,}", "kernel, library, path"),
        _card("Code lines", f"{code:,}", f"{totals.files:,} files"),
        _card("Kernels", f"{len(overview['kernels']):,}", "hand-written device functions"),
        _card(
            "Covered by decisions",
            percent(register["covered_lines"], register["gated_lines"]),
            f"{register['covered_lines']:,} of {register['gated_lines']:,} gated lines",
        ),
        "</div>",
    ]
    if history and len([p for p in history["points"] if not p["gap"]]) >= 2:
        parts += ["<h2>Trend</h2>", _trend(history)]
    parts += ["<h2>Lines per language</h2>", _languages(census)]
    parts += ["<h2>Plan per target</h2>", _plans(overview["plans"])]
    parts += ["<h2>Decisions and owners</h2>", _decisions(register["decisions"])]
    parts += ["<h2>Uncovered areas</h2>", _uncovered(register["uncovered"])]
    parts += ["<h2>Kernel inventory</h2>", _kernels(overview["kernels"])]
    parts += ["<h2>Files</h2>", _files(census)]
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _card(title: str, value: str, note: str) -> str:
    return (
        f'<div class="card"><span class="muted">{escape(title)}</span>'
        f'<b>{escape(value)}</b><span class="muted">{escape(note)}</span></div>'
    )


def _table(
    headers: Sequence[str], rows: Iterable[Sequence[Any]], *, total: int | None = None
) -> str:
    """Numbers (int) right-aligned and grouped; everything else escaped text."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="n">{cell:,}</td>'
            if isinstance(cell, int) and not isinstance(cell, bool)
            else f"<td>{escape(str(cell))}</td>"
            for cell in row
        )
        body.append(f"<tr>{cells}</tr>")
    if not body:
        return '<p class="muted">None.</p>'
    if total is not None and total > len(body):
        body.append(f'<tr><td colspan="{len(headers)}">and {total - len(body):,} more</td></tr>')
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _trend(history: Mapping[str, Any]) -> str:
    points = [p for p in history["points"] if not p["gap"]]
    series = [
        (dt.datetime.fromisoformat(str(p["date"])), int(p["nvidia_locked_lines"])) for p in points
    ]
    last = points[-1]
    title = (
        f"NVIDIA-only lines: {last['nvidia_locked_lines']:,} on {str(last['date'])[:10]} "
        f"({percent(last['nvidia_locked_lines'], last['code_lines'])} of the code)"
    )
    return f"<p>{escape(title)}</p>" + line_chart(series, label="NVIDIA-only lines")


def _languages(census: Census) -> str:
    rows = scan_tables.language_rows(census)
    return _table(
        ["language", "files", "code", *(layer.value for layer in LAYERS), "non-portable"],
        (
            [r.name, r.files, r.code, *(r.layers[layer] for layer in LAYERS), r.non_portable]
            for r in rows
        ),
    )


def _plans(plans: Sequence[Mapping[str, Any]]) -> str:
    return _table(
        ["target", "tool", "rewrite", "library mapping", "edit", "mechanical", "total"],
        (
            [
                p["target"],
                p.get("tool") or "",
                p["rewrite"],
                p["map"],
                p["edit"],
                f"{p['mechanical']:,} ({100 * p['mechanical_share']:.0f}%)",
                p["total"],
            ]
            for p in plans
        ),
    )


def _decisions(decisions: Sequence[Mapping[str, Any]]) -> str:
    return _table(
        ["record", "status", "owner", "compute API", "scope", "lines", "problems"],
        (
            [
                d["ref"],
                d["status"] or "",
                d["owner"] or "(none)",
                d["compute_api"] or "",
                ", ".join(d["scope"]),
                d["lines"],
                "; ".join(d["problems"]),
            ]
            for d in decisions
        ),
    )


def _uncovered(areas: Sequence[Mapping[str, Any]]) -> str:
    return _table(
        ["directory", "gated lines", "files", "owners (CODEOWNERS)"],
        ([a["directory"], a["lines"], a["files"], ", ".join(a["owners"])] for a in areas),
    )


def _kernels(kernels: Sequence[Mapping[str, Any]]) -> str:
    return _table(
        ["kernel", "where", "ecosystem", "lines", "decision"],
        (
            [
                k["name"],
                f"{k['path']}:{k['start_line']}-{k['end_line']}",
                k["ecosystem"],
                k["code_lines"],
                k["decision"] or "(none)",
            ]
            for k in kernels[:MAX_ROWS]
        ),
        total=len(kernels),
    )


def _files(census: Census) -> str:
    rows = scan_tables.file_rows(census)
    return _table(
        ["path", "code", "kernel", "vendor-library", "vendor-path", "non-portable"],
        (
            [r.name, r.code, *(r.layers[layer] for layer in NON_PORTABLE), r.non_portable]
            for r in rows[:MAX_ROWS]
        ),
        total=len(rows),
    )
