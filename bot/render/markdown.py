"""GitHub-flavoured Markdown for ``lockin scan`` / ``lockin diff``, and the blocks the bot's
comment and check run are built from.

Each block is a function returning a string (empty when there is nothing to show), so a
caller can pick and order them. Lists take a ``limit`` and end with "and N more" so a
comment stays under GitHub's 65,536 characters. ``link`` turns a path and line range into
a URL (the bot links to the blob at the head SHA); without it paths are plain code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine.census import Census, FileSummary
from bot.engine.delta import ChangeDelta, FileDelta, ecosystem_totals
from bot.engine.model import LAYERS, NON_PORTABLE, Finding, Layer
from bot.render import markers_out
from bot.render.counting import counting_note
from bot.render.md_safe import code, plain
from bot.render.rule_links import rule_link
from bot.render.wording import COST, percent, reasons, signed, skipped_reasons

Link = Callable[[str, int | None, int | None], str]


def mermaid_label(text: str) -> str:
    """A label inside a mermaid block: one line, no quote, no backtick fence."""
    flat = " ".join(text.split())
    return flat.replace('"', "'").replace("`", "'")


def path_ref(path: str, link: Link | None, start: int | None = None, end: int | None = None) -> str:
    # A name that is not UTF-8 (its bytes kept as surrogates) is shown with U+FFFD for
    # them: GitHub refuses text that is not Unicode.
    shown_path = path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    where = (
        shown_path + (f":{start}" if start else "") + (f"-{end}" if end and end != start else "")
    )
    shown = code(where)
    return f"[{shown}]({link(path, start, end)})" if link else shown


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], align: str = "") -> str:
    """A GFM table; ``align`` has one letter per column, ``l`` or ``r`` (default ``l``)."""
    if not rows:
        return ""
    marks = [":---" if (align[i : i + 1] or "l") == "l" else "---:" for i in range(len(headers))]
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(marks) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def more(shown: int, total: int) -> str:
    return f"\n\n…and {total - shown:,} more." if total > shown else ""


def layer_table(counts: Mapping[Layer, int], code_lines: int) -> str:
    """Code lines per layer with their share and what moving them costs."""
    rows = [
        [
            f"`{layer.value}`",
            f"{counts.get(layer, 0):,}",
            percent(counts.get(layer, 0), code_lines),
            COST[layer],
        ]
        for layer in LAYERS
    ]
    rows.append(["**total**", f"**{code_lines:,}**", "", ""])
    return table(["Layer", "Lines", "Share", "Moving it costs"], rows, "lrrl")


def delta_table(added: Mapping[Layer, int], removed: Mapping[Layer, int]) -> str:
    """Added, removed and net code lines per layer."""
    rows = [
        [
            f"`{layer.value}`",
            f"{added.get(layer, 0):,}",
            f"{removed.get(layer, 0):,}",
            signed(added.get(layer, 0) - removed.get(layer, 0)),
        ]
        for layer in LAYERS
    ]
    return table(["Layer", "Added", "Removed", "Net"], rows, "lrrr")


def ecosystem_table(counts: Mapping[str, int], limit: int = 20) -> str:
    """Non-portable lines per ecosystem, largest first."""
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    rows = [[code(eco), f"{n:,}"] for eco, n in ranked[:limit] if n]
    return table(["Ecosystem", "Non-portable lines"], rows, "lr") + more(len(rows), len(ranked))


def ecosystem_delta_table(
    added: Mapping[str, int], removed: Mapping[str, int], limit: int = 20
) -> str:
    names = sorted(
        {*added, *removed}, key=lambda eco: (-(added.get(eco, 0) + removed.get(eco, 0)), eco)
    )
    rows = [
        [code(eco), f"{added.get(eco, 0):,}", f"{removed.get(eco, 0):,}"] for eco in names[:limit]
    ]
    return table(["Ecosystem", "Added", "Removed"], rows, "lrr") + more(len(rows), len(names))


def matrix_table(matrix: Mapping[str, Mapping[Layer, int]]) -> str:
    """Per target vendor: lines to rewrite, map to another library, or edit."""
    headers = ["Move to", *(f"{COST[layer]} (`{layer.value}`)" for layer in NON_PORTABLE)]
    rows = [
        [target, *(f"{row.get(layer, 0):,}" for layer in NON_PORTABLE)]
        for target, row in matrix.items()
    ]
    return table(headers, rows, "lrrr")


def top_files_table(files: Sequence[FileSummary], link: Link | None = None) -> str:
    rows = [
        [
            path_ref(s.path, link),
            f"{s.non_portable_lines:,}",
            *(f"{s.layers.get(layer, 0):,}" for layer in NON_PORTABLE),
        ]
        for s in files
    ]
    return table(
        ["File", "Non-portable", *(f"`{layer.value}`" for layer in NON_PORTABLE)], rows, "lrrrr"
    )


def top_directories_table(directories: Sequence[tuple[str, int]]) -> str:
    rows = [[code(path + "/" if path != "." else path), f"{n:,}"] for path, n in directories]
    return table(["Directory", "Non-portable lines"], rows, "lr")


def pie_chart(title: str, slices: Mapping[str, int]) -> str:
    """A mermaid pie chart of the non-zero slices (GitHub renders ```mermaid blocks); none
    for fewer than two: a one-slice pie says nothing a sentence does not."""
    shown = [(label, n) for label, n in slices.items() if n > 0]
    if len(shown) < 2:
        return ""
    safe_title = mermaid_label(title)
    body = "\n".join(f'    "{mermaid_label(label)}" : {n}' for label, n in shown)
    return f"```mermaid\npie showData title {safe_title}\n{body}\n```"


def findings_list(
    items: Sequence[tuple[str, Finding]], link: Link | None = None, limit: int = 50
) -> str:
    """One bullet per finding: where, rule, layer, ecosystem."""
    lines = [
        f"- {path_ref(path, link, f.start_line, f.end_line)} {code(f.rule)} "
        f"({f.layer.value}, {f.ecosystem})"
        for path, f in items[:limit]
    ]
    return "\n".join(lines) + more(len(lines), len(items))


def changed_files_table(
    files: Sequence[FileDelta], link: Link | None = None, limit: int = 50
) -> str:
    """Files whose non-portable lines changed, with added/removed per layer."""
    changed = [f for f in files if f.added_non_portable or f.removed_non_portable]
    rows = []
    for f in changed[:limit]:
        name = path_ref(f.path, link) + (f" (from {code(f.old_path)})" if f.old_path else "")
        per_layer = [f"+{f.added[layer]:,} / -{f.removed[layer]:,}" for layer in NON_PORTABLE]
        rows.append([name, f.status, *per_layer])
    headers = ["File", "Status", *(f"`{layer.value}`" for layer in NON_PORTABLE)]
    return table(headers, rows, "llrrr") + more(len(rows), len(changed))


def details(summary: str, body: str) -> str:
    """A collapsible section (empty when the body is)."""
    return f"<details>\n<summary>{summary}</summary>\n\n{body}\n\n</details>" if body else ""


def _join(blocks: Sequence[str]) -> str:
    return "\n\n".join(b for b in blocks if b) + "\n"


def scan_markdown(census: Census, *, root: str, top: int = 10, link: Link | None = None) -> str:
    totals = census.totals
    locked = census.locked_to_nvidia()
    alternatives = census.alternatives()
    findings = [(s.path, f) for s in census.files() for f in s.findings]
    return _join(
        [
            f"## lockin census of {code(root)}",
            f"**{locked:,}** of {totals.code_lines:,} code lines "
            f"({percent(locked, totals.code_lines)}) could not move off NVIDIA tomorrow "
            f"({totals.files:,} files).",
            layer_table(totals.layers, totals.code_lines),
            pie_chart(
                "Code lines by layer",
                {layer.value: totals.layers.get(layer, 0) for layer in LAYERS},
            ),
            "### Ecosystems\n\n" + ecosystem_table(totals.ecosystems) if totals.ecosystems else "",
            "### Moving to another vendor\n\n" + matrix_table(census.matrix())
            if totals.non_portable_lines
            else "",
            "**Alternatives already present:** "
            + ", ".join(
                f"{code(a.ecosystem)} {a.lines:,} lines ({', '.join(sorted(a.vendors))})"
                for a in alternatives
            )
            if alternatives
            else "",
            "### Top files\n\n" + top_files_table(census.top_files(top), link)
            if census.top_files(1)
            else "",
            details("Top directories", top_directories_table(census.top_directories(top))),
            details(f"All findings ({len(findings):,})", findings_list(findings, link, limit=500)),
            markers_block(*markers_out.of_census(census)),
            not_counted(census),
        ]
    )


def _over_budget(uncounted: list[tuple[str, str]]) -> str:
    shown = ", ".join(f"`{path}`" for path, _ in uncounted[:20])
    more = f" and {len(uncounted) - 20:,} more" if len(uncounted) > 20 else ""
    return f"not counted, over budget ({uncounted[0][1]}): {shown}{more}"


def not_counted(census: Census) -> str:
    """One line on generated and skipped files, empty when there are none."""
    parts = []
    generated = census.generated
    if generated.files:
        state = "included in" if census.include_generated else "left out of"
        parts.append(
            f"{generated.files:,} generated files ({generated.non_portable_lines:,} "
            f"non-portable lines) {state} the figures"
        )
    if census.skipped:
        parts.append(f"not counted: {reasons(census.skipped)}")
    if uncounted := census.not_counted():
        parts.append(_over_budget(uncounted))
    return ("_" + "; ".join(parts) + "._") if parts else ""


def diff_markdown(
    change: ChangeDelta,
    verdict: Mapping[str, Any],
    *,
    base: str,
    head: str,
    link: Link | None = None,
    fix: str = "",
) -> str:
    """The verdict, right under it ``fix`` (bot.render.fix) when the gate fails, then the
    figures."""
    added, removed = change.added(), change.removed()
    ranges = [(f.path, r) for f in change.files for r in f.added_ranges]
    added_ecos, removed_ecos = ecosystem_totals(change)
    return _join(
        [
            f"## lockin diff {code(base)} → {code(head)}",
            f"**{verdict['conclusion']}**: {verdict['summary']}",
            fix,
            f"_{counting_note(verdict)}_" if counting_note(verdict) else "",
            delta_table(added, removed),
            pie_chart(
                "Added non-portable lines", {layer.value: added[layer] for layer in NON_PORTABLE}
            ),
            "### Ecosystems\n\n" + ecosystem_delta_table(added_ecos, removed_ecos)
            if added_ecos or removed_ecos
            else "",
            details("Files", changed_files_table(change.files, link)),
            details(f"Added non-portable ranges ({len(ranges):,})", findings_list(ranges, link)),
            markers_block(*markers_out.of_change(change)),
            f"Not counted: {reasons(skipped_reasons(change))}." if change.skipped_files else "",
            f"_{_over_budget(change.not_counted())}._" if change.not_counted() else "",
        ]
    )


def markers_block(
    taken: Sequence[markers_out.Taken],
    problems: Sequence[markers_out.Problem],
    limit: int = markers_out.MAX_LISTED,
) -> str:
    """Inline ignore markers: a section for Markdown reports, the check run and the comment
    ("" when empty)."""
    if not taken and not problems:
        return ""
    # The reason and the problem quote what the code's author wrote: shown as plain text.
    out = [f"**Inline ignore markers:** {markers_out.headline(taken, problems)}."]
    if taken:
        out.append("")
        out += [
            f"- {code(markers_out.where(path, i.start_line, i.end_line))} {rule_link(i.rule)} "
            f"({i.layer.value}, {i.lines:,} lines): {plain(i.reason)}"
            for path, i in taken[:limit]
        ]
        if len(taken) > limit:
            out.append(f"- … and {len(taken) - limit:,} more")
    if problems:
        out += ["", "Markers that ignore nothing:", ""]
        out += [f"- {code(f'{path}:{p.line}')}: {plain(p.problem)}" for path, p in problems[:limit]]
        if len(problems) > limit:
            out.append(f"- … and {len(problems) - limit:,} more")
    return "\n".join(out)
