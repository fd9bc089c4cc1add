"""The sticky PR comment, shaped like the bots reviewers already read (Codecov, SonarCloud):
a one-line verdict with one number, the fix right under it (the drafted record, the command
that writes it, the line that links it), then everything else collapsed.

Always under GitHub's 65,536-character comment limit: lists shrink ("and N more") until
the body fits, and only then is it cut.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from bot.render.fix import fix_markdown
from bot.render.markdown import (
    changed_files_table,
    code,
    details,
    pie_chart,
    plain,
)
from bot.render.rule_links import rules_block
from bot.review.check_output import (
    MAX_ROWS,
    count,
    figures,
    fit,
    non_portable,
    repository_block,
    summary_blocks,
)

if TYPE_CHECKING:
    from bot.review.report import PRReport

#: GitHub refuses comment bodies above 65,536 characters; leave room for the marker.
MAX_COMMENT = 65_000
#: A drafted record longer than this is described, not shown (it would crowd out the rest).
MAX_DRAFT = 30_000
#: Slices of the "where the lines go" chart before the rest is grouped as "other".
MAX_SLICES = 8
_MARKS = {"success": "✅", "neutral": "⚠️", "failure": "❌"}


def render_comment(report: PRReport) -> str:
    """The comment for a PR the check analysed (config valid)."""
    for limit in (MAX_ROWS, 30, 10):
        body = _body(report, limit)
        if len(body) <= MAX_COMMENT:
            return body
    return fit(body, MAX_COMMENT)


def render_clean(report: PRReport) -> str:
    """What an earlier head's comment becomes once the PR no longer warrants one: the
    verdict, so that no failing comment outlives the failure."""
    assert report.verdict is not None
    covering = sorted({f.covered_by for f in report.verdict.files if f.covered_by})
    covered = f" Covered by {', '.join(code(ref) for ref in covering)}." if covering else ""
    return (
        f"### {verdict_line(report)}\n\n"
        f"As of {code(report.head_sha[:7])} nothing here needs a compute-API decision.{covered} "
        "The check run has the details."
    )


def verdict_line(report: PRReport) -> str:
    """The comment's first line: the conclusion and the one number that explains it."""
    return f"{_MARKS.get(report.conclusion, '')} lockin: {_verdict(report)}".strip()


def _verdict(report: PRReport) -> str:
    if report.config.error is not None:
        return f"invalid configuration: {plain(str(report.config.error))}"
    verdict, analysis = report.verdict, report.analysis
    assert verdict is not None
    assert analysis is not None
    layers = " and ".join(layer.value for layer in report.config.policy.layers) or "gated"
    if verdict.uncovered:
        lines = sum(f.gated_lines for f in verdict.uncovered)
        needs = "line needs" if lines == 1 else "lines need"
        return f"**{lines:,}** new {layers} {needs} a compute-API decision"
    if report.incomplete:
        return (
            f"**{count(report.incomplete, 'file')}** could not be checked, so the check cannot pass"
        )
    if report.conclusion == "failure" and report.growth:
        return f"**{count(len(report.growth), 'decision scope')}** grew past its estimate"
    if verdict.gated_lines and verdict.needs_decision:
        return (
            f"**{verdict.gated_lines:,}** new {layers} lines, all covered by compute-API decisions"
        )
    if verdict.gated_lines:
        return f"**{verdict.gated_lines:,}** new {layers} lines, within the policy's allowance"
    removed = non_portable(analysis.delta.removed())
    if removed:
        return f"no new {layers} lines; **{removed:,}** non-portable lines removed"
    return f"no new {layers} lines"


def _body(report: PRReport, limit: int) -> str:
    analysis = report.analysis
    assert analysis is not None
    detail = [
        *summary_blocks(report),
        rules_block(analysis.delta),
        _where_chart(report),
        "**Per-file detail**\n\n"
        + changed_files_table(analysis.delta.files, report.blob_url, limit=limit)
        if any(f.added_non_portable or f.removed_non_portable for f in analysis.delta.files)
        else "",
        repository_block(report),
    ]
    blocks = [
        f"### {verdict_line(report)}",
        _fix_block(report),
        details(f"Details: {figures(analysis.delta)}", "\n\n".join(b for b in detail if b)),
        _footer(report),
    ]
    return "\n\n".join(b for b in blocks if b)


def _fix_block(report: PRReport) -> str:
    if report.fix is None:
        return ""
    draft = _draft_block(*report.draft) if report.draft else ""
    return fix_markdown(report.fix, draft)


def _footer(report: PRReport) -> str:
    links = [f"[{plain(label)}]({url})" for label, url in report.links]
    said = [
        *links,
        f"checked at {code(report.head_sha[:7])}",
        f"policy: {plain(report.config.source)}",
        "comment `/lockin recount` to re-run and count the whole repository",
    ]
    return f"<sub>{' · '.join(said)}</sub>"


def _where_chart(report: PRReport) -> str:
    """Where the PR's non-portable lines go (or, for a PR that only removes, come from)."""
    assert report.analysis is not None
    files = report.analysis.delta.files
    added = {f.path: f.added_non_portable for f in files if f.added_non_portable}
    counts, verb = (
        (added, "added")
        if added
        else (
            {f.path: f.removed_non_portable for f in files if f.removed_non_portable},
            "removed",
        )
    )
    by_dir: dict[str, int] = {}
    for path, n in counts.items():
        folder = posixpath.dirname(path) or "(root)"
        by_dir[folder] = by_dir.get(folder, 0) + n
    ranked = sorted(by_dir.items(), key=lambda item: (-item[1], item[0]))
    slices = dict(ranked[: MAX_SLICES - 1])
    rest = sum(n for _, n in ranked[MAX_SLICES - 1 :])
    if rest:
        slices["other"] = rest
    return pie_chart(f"Non-portable lines {verb}, by folder", slices)


def _draft_block(path: str, markdown: str) -> str:
    if len(markdown) > MAX_DRAFT:
        return (
            f"The drafted record is {len(markdown):,} characters, too long for this comment: "
            f"write it with the command above, or commit one as {code(path)} with a `scope` "
            "covering the files that need it."
        )
    # Longer than any run of backticks inside (the PR's title is in it), so nothing in the
    # record can close the fence and write outside it.
    longest = max((len(run) for run in re.findall(r"`+", markdown)), default=0)
    fence = "`" * max(3, longest + 1)
    return details(
        f"The drafted record, to commit as {code(path)}",
        f"{fence}markdown\n{markdown}\n{fence}",
    )
