"""The check run's output for a PR: title with the figures, summary, per-file text,
annotations. Also the blocks the sticky comment shares (bot/review/comment.py).

GitHub caps title, summary and text; every list here is bounded ("and N more") and each
field is cut to its limit as a last resort, so a huge PR never makes the PATCH fail.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.engine import RULES
from bot.engine.delta import ChangeDelta, ecosystem_totals
from bot.engine.model import NON_PORTABLE, Finding, Layer
from bot.render import markers_out
from bot.render.census_md import render_census
from bot.render.counting import counting_note
from bot.render.fix import fix_markdown
from bot.render.growth import growth_block
from bot.render.json_out import verdict_summary
from bot.render.markdown import (
    changed_files_table,
    code,
    delta_table,
    ecosystem_delta_table,
    markers_block,
    more,
    path_ref,
    plain,
    table,
)
from bot.render.markers_annotations import marker_annotations
from bot.render.rules_page import rule_url
from bot.render.trend_md import trend_line
from bot.render.wording import percent, signed
from bot.review.check_writer import CheckOutput

if TYPE_CHECKING:
    from bot.policy.gate import FileGate
    from bot.review.report import PRReport

#: GitHub's limits for check run output fields (UTF-8 bytes, see ``fit``).
MAX_SUMMARY = 65_535
MAX_TEXT = 65_535
MAX_TITLE = 255
#: Rows in per-file tables and lists before "and N more".
MAX_ROWS = 100
#: Annotations written, so that the diff stays readable: reviewers act on the first ones, the
#: tables list the rest.
ANNOTATIONS_PER_FILE = 10
ANNOTATIONS_PER_RUN = 50
#: Ranges at most this many lines apart are one annotation.
_GAP = 3


def fit(text: str, limit: int) -> str:
    """Cut to ``limit`` UTF-8 bytes with a note; lists are bounded before this is needed.
    Bytes, not characters: GitHub documents its check-run limits in characters but refuses
    a summary above 65,535 bytes ("exceeds a maximum bytesize"), and for a comment's limit
    in characters the byte count is the safe side."""
    data = text.encode()
    if len(data) <= limit:
        return text
    note = "\n\n…(cut to fit GitHub's size limit)"
    # errors="ignore" drops a character the cut split in two.
    return data[: limit - len(note.encode())].decode(errors="ignore") + note


def cell(text: str) -> str:
    """Text safe inside a table cell: pipes escaped, newlines flattened."""
    return text.replace("|", "\\|").replace("\n", " ")


def count(n: int, noun: str) -> str:
    """``1 file``, ``3 files``."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def non_portable(counts: Mapping[Layer, int]) -> int:
    return sum(counts.get(layer, 0) for layer in NON_PORTABLE)


def figures(delta: ChangeDelta) -> str:
    """``+120 −3 non-portable lines (kernel +100, vendor-path +20)``."""
    added, removed = delta.added(), delta.removed()
    parts = [
        f"{layer.value} {signed(added[layer] - removed[layer])}"
        for layer in NON_PORTABLE
        if added[layer] or removed[layer]
    ]
    head = f"+{non_portable(added):,} −{non_portable(removed):,} non-portable lines"
    return head + (f" ({', '.join(parts)})" if parts else "") + _marks(delta)


def _marks(delta: ChangeDelta) -> str:
    """``; 3 lines ignored by 1 inline marker``: empty without markers."""
    said = markers_out.headline(*markers_out.of_change(delta))
    return f"; {said}" if said else ""


def headline(report: PRReport) -> str:
    """One line saying what the check concluded and why."""
    if report.config.error is not None:
        return f"Invalid configuration: {plain(str(report.config.error))}"
    analysis, verdict = report.analysis, report.verdict
    assert analysis is not None
    assert verdict is not None
    delta = analysis.delta
    added, removed = non_portable(delta.added()), non_portable(delta.removed())
    if verdict.uncovered:
        files = len(verdict.uncovered)
        lines = sum(f.gated_lines for f in verdict.uncovered)
        return (
            f"{count(lines, 'gated line')} added without a compute-API decision "
            f"({count(files, 'file')}): {figures(delta)}"
        )
    if report.incomplete:
        uncounted = len(report.analysis.uncounted) if report.analysis else 0
        if uncounted == report.incomplete:
            return f"{count(uncounted, 'file')} not counted (over time budget): {figures(delta)}"
        return f"{count(report.incomplete, 'file')} could not be read: {figures(delta)}"
    if added and not verdict.files and verdict.changed:
        return f"{figures(delta)}: no gated growth, edited lines keep their rules"
    if added:
        return f"{figures(delta)}: every gated line is covered"
    if removed:
        return f"No non-portable lines added; {removed:,} removed{_marks(delta)}"
    return f"No non-portable lines added or removed{_marks(delta)}"


def decisions_block(report: PRReport) -> str:
    """The linked decisions and what the gate said of each, then the covering records."""
    verdict = report.verdict
    if verdict is None:
        return ""
    lines = []
    for check in verdict.decisions[:MAX_ROWS]:
        mark = "✅" if check.valid else "❌"
        why = "valid" if check.valid else plain("; ".join(check.problems))
        if check.approved_by:
            why += plain(f", approved by {check.approved_by}")
        lines.append(f"- {mark} {code(check.ref)}: {why}")
    lines_more = more(len(lines), len(verdict.decisions))
    covering = sorted({f.covered_by for f in verdict.files if f.covered_by})
    out = []
    if lines:
        out.append("**Linked decisions**\n\n" + "\n".join(lines) + lines_more)
    if covering:
        out.append("**Covered by**: " + ", ".join(code(ref) for ref in covering))
    if report.record_problems:
        broken = "\n".join(f"- {plain(p)}" for p in report.record_problems[:MAX_ROWS])
        out.append("**Unreadable decision records** (they cover nothing)\n\n" + broken)
    return "\n\n".join(out)


def gate_table(report: PRReport, limit: int = MAX_ROWS) -> str:
    """Files adding gated lines, with the record that covers each or why none does."""
    verdict = report.verdict
    if verdict is None or not (verdict.files or verdict.changed):
        return ""
    note = counting_note(verdict_summary(verdict))
    if not verdict.files:
        return f"_{note}_"
    rows = [
        [path_ref(g.path, report.blob_url), f"{g.gated_lines:,}", _coverage(g)]
        for g in verdict.files[:limit]
    ]
    return (
        table(["File", "Gated lines", "Decision"], rows, "lrl")
        + more(len(rows), len(verdict.files))
        + (f"\n\n_{note}_" if note else "")
    )


def _coverage(gate: FileGate) -> str:
    if gate.covered_by:
        return f"✅ {code(gate.covered_by)}"
    return "❌ " + cell(gate.reason or "no decision covers this path")


def next_steps(report: PRReport) -> str:
    """What else to do: fix the policy, or check what the check could not read (the fix for
    lines that need a decision sits under the headline)."""
    if report.config.error is not None:
        error = report.config.error
        return (
            f"Fix {code(error.source)} on the default branch (line {error.line}, "
            f"key {code(error.key or '-')}): {plain(error.message)}. The check stays failing until "
            "the file is valid: an invalid policy is never read as a looser one."
        )
    verdict = report.verdict
    assert verdict is not None
    steps = []
    uncounted = len(report.analysis.uncounted) if report.analysis else 0
    if report.incomplete > uncounted:
        steps.append(
            f"{report.incomplete - uncounted:,} files were not read (GitHub lists at most "
            "3,000 files, and without a usable repository archive the check reads a bounded "
            "number of blobs), so it cannot pass: split the PR, or check it with `lockin diff` "
            "on a checkout."
        )
    if uncounted:
        steps.append(
            f"{uncounted:,} files were not counted: the engine gave up on them when they took "
            "longer than their CPU-time budget, so the check cannot pass. Check them with "
            "`lockin diff` on a checkout, or raise `ANALYSIS_FILE_SECONDS` on the server."
        )
    if steps or report.fix is not None:
        return "\n\n".join(steps)
    return "Nothing to do."


def per_file_text(report: PRReport, limit: int = MAX_ROWS) -> str:
    """What the check read, file by file."""
    analysis = report.analysis
    if analysis is None:
        return ""
    files = changed_files_table(analysis.delta.files, report.blob_url, limit=limit)
    parts = ["### Files with non-portable changes\n\n" + (files or "None.")]
    notes = [
        f"{count(analysis.listed, 'file')} changed, {analysis.analysed:,} analysed "
        f"(versions read from {analysis.source})",
        f"{analysis.binary:,} binary skipped" if analysis.binary else "",
        f"{count(analysis.excluded, 'code file')} excluded by the path filters"
        if analysis.excluded
        else "",
    ]
    skipped = sorted({f.skipped for f in analysis.delta.files if f.skipped not in (None, "binary")})
    if skipped:
        n = sum(1 for f in analysis.delta.files if f.skipped in skipped)
        notes.append(f"{n:,} skipped ({', '.join(str(s) for s in skipped)})")
    parts.append("; ".join(n for n in notes if n) + ".")
    parts.extend(plain(note) for note in analysis.archive_notes)
    if analysis.unread:
        shown = ", ".join(code(p) for p in analysis.unread[:20])
        parts.append(
            f"Not read: {shown}" + more(min(20, len(analysis.unread)), len(analysis.unread))
        )
    if analysis.unlisted:
        parts.append(
            f"{analysis.unlisted:,} files beyond GitHub's 3,000-file listing were not seen."
        )
    if analysis.uncounted:
        shown = ", ".join(f"{code(p)} ({plain(why)})" for p, why in analysis.uncounted[:20])
        parts.append(
            f"Not counted: {shown}"
            + more(min(20, len(analysis.uncounted)), len(analysis.uncounted))
        )
    return "\n\n".join(parts)


def summary_blocks(report: PRReport) -> list[str]:
    """Blocks shared by the check run summary and the comment."""
    analysis = report.analysis
    if analysis is None:
        return []
    delta = analysis.delta
    added_ecos, removed_ecos = ecosystem_totals(delta)
    return [
        delta_table(delta.added(), delta.removed()),
        "**Ecosystems**\n\n" + ecosystem_delta_table(added_ecos, removed_ecos)
        if added_ecos or removed_ecos
        else "",
        gate_table(report),
        decisions_block(report),
        markers_block(*markers_out.of_change(delta)),
        growth_block(report.growth, fails=report.conclusion == "failure"),
    ]


def annotations_of(report: PRReport) -> list[dict[str, Any]]:
    """Annotations on the added non-portable code, file by file: one per group of nearby
    ranges (a new kernel file is a few groups, not one note per include and call), saying
    which rules, why the code will not move, and what the gate says of it. Lines that need
    a decision and have none get the policy's ``annotations`` level, the rest are notices."""
    level = report.config.policy.annotations
    if report.analysis is None or report.verdict is None or level == "off":
        return []
    gates = {g.path: g for g in report.verdict.files}
    gated = report.config.policy.layers
    out: list[dict[str, Any]] = []
    for f in report.analysis.delta.files:
        gate = gates.get(f.path)
        for group in _groups(f.added_ranges):
            needs = (
                gate is not None
                and not gate.covered_by
                and report.verdict.needs_decision
                and any(_counted(gate, r, gated) for r in group)
            )
            if needs:
                status = "Needs a compute-API decision."
            elif gate is not None and gate.covered_by:
                status = f"Covered by the decision {gate.covered_by}."
            else:
                status = "Needs no decision under this repository's policy."
            out.append(_group_annotation(f.path, group, level if needs else "notice", status))
        out += marker_annotations(f)
    return out


def _counted(gate: FileGate, finding: Finding, gated: Sequence[Layer]) -> bool:
    """Whether the gate counted the lines of this range (growth, not an edit kept)."""
    if gate.lines is None:
        return finding.layer in gated
    return any(
        part.rule == finding.rule
        and part.start_line <= finding.end_line
        and finding.start_line <= part.end_line
        for part in gate.lines.ranges
    )


def _groups(ranges: Sequence[Finding]) -> list[list[Finding]]:
    """Ranges in line order, those at most ``_GAP`` lines apart in one group."""
    groups: list[list[Finding]] = []
    for r in sorted(ranges, key=lambda r: (r.start_line, r.end_line)):
        if groups and r.start_line <= max(g.end_line for g in groups[-1]) + _GAP + 1:
            groups[-1].append(r)
        else:
            groups.append([r])
    return groups


def _group_annotation(path: str, group: list[Finding], level: str, status: str) -> dict[str, Any]:
    rules = list(dict.fromkeys(r.rule for r in group))
    start, end = group[0].start_line, max(r.end_line for r in group)
    labels = list(dict.fromkeys(f"{r.rule} ({r.layer.value}, {r.ecosystem})" for r in group))
    whys = []
    for rule in rules:
        known = RULES.get(rule)
        whys.append(f"- {rule}: {known.summary if known else rule} ({rule_url(rule)})")
    return {
        "path": path,
        "start_line": start,
        "end_line": end,
        "annotation_level": level,
        "title": ", ".join(labels)[:255],
        "message": f"Will not move off its vendor as is. {status}\n" + "\n".join(whys),
    }


def capped(notes: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """At most ``ANNOTATIONS_PER_FILE`` per file and ``ANNOTATIONS_PER_RUN`` in all, the ones
    that need action first; and how many were left out."""
    rank = {"failure": 0, "warning": 1, "notice": 2}
    per_file: dict[str, int] = {}
    kept: list[dict[str, Any]] = []
    for note in sorted(notes, key=lambda n: rank.get(n["annotation_level"], 3)):
        if per_file.get(note["path"], 0) < ANNOTATIONS_PER_FILE and len(kept) < ANNOTATIONS_PER_RUN:
            per_file[note["path"]] = per_file.get(note["path"], 0) + 1
            kept.append(note)
    order = {id(n): i for i, n in enumerate(notes)}
    kept.sort(key=lambda n: order[id(n)])
    return kept, len(notes) - len(kept)


def check_output(report: PRReport) -> CheckOutput:
    notes, left_out = capped(annotations_of(report))
    # The fix right under the headline, as in the comment; the drafted record is the comment's.
    fix = fix_markdown(report.fix) if report.fix is not None else ""
    blocks = [f"## {headline(report)}", fix, *summary_blocks(report)]
    blocks.append(repository_block(report))
    if left_out:
        blocks.append(
            f"{left_out:,} annotations left out (at most {ANNOTATIONS_PER_FILE} per file and "
            f"{ANNOTATIONS_PER_RUN} per run); the tables above list every file."
        )
    steps = next_steps(report)
    if steps:
        blocks.append("**What to do next**: " + steps)
    # What the check read and under which policy; how many requests it made is for the logs.
    text = [per_file_text(report), f"Configuration: {report.config.source}."]
    return CheckOutput(
        conclusion=report.conclusion,
        title=fit(_title(report), MAX_TITLE),
        summary=fit("\n\n".join(b for b in blocks if b), MAX_SUMMARY),
        text=fit("\n\n".join(t for t in text if t), MAX_TEXT),
        annotations=notes,
    )


def _title(report: PRReport) -> str:
    if report.config.error is not None:
        return f"Invalid {report.config.error.source.split(':')[-1].split('@')[0]}"
    return headline(report)


def repository_block(report: PRReport) -> str:
    """The census block, then the default branch's trend when points are kept."""
    trend = trend_line(report.trend) if report.trend is not None else ""
    return "\n\n".join(block for block in (_census_block(report), trend) if block)


def _census_block(report: PRReport) -> str:
    """The recount's census when there is one, else the default branch's figure (already
    cached by the census store: it costs no request)."""
    if report.census is not None:
        base = report.base_census.census if report.base_census else None
        link = report.blob_url if report.repo_url else None
        return render_census(report.census, base=base, link=link)
    default = report.base_census
    if default is None:
        return ""
    totals = default.census.totals
    locked = default.census.locked_to_nvidia()
    return (
        f"**Default branch** at {code(default.sha[:7])}: {locked:,} of {totals.code_lines:,} code "
        f"lines ({percent(locked, totals.code_lines)}) could not move off NVIDIA tomorrow."
    )
