"""The sticky PR comment: the change by layer, where it goes, per-file detail with the
records that cover each file, and, when the gate fails, a ready-to-commit decision record.

Always under GitHub's 65,536-character comment limit: lists shrink ("and N more") until
the body fits, and only then is it cut.
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING

from bot.policy.decisions import link_line
from bot.render.markdown import (
    changed_files_table,
    code,
    details,
    pie_chart,
)
from bot.render.rule_links import rules_block
from bot.review.check_output import MAX_ROWS, fit, headline, repository_block, summary_blocks

if TYPE_CHECKING:
    from bot.review.report import PRReport

#: GitHub refuses comment bodies above 65,536 characters; leave room for the marker.
MAX_COMMENT = 65_000
#: A drafted record longer than this is described, not shown (it would crowd out the rest).
MAX_DRAFT = 30_000
#: Slices of the "where the lines go" chart before the rest is grouped as "other".
MAX_SLICES = 8


def render_comment(report: PRReport) -> str:
    """The comment for a PR the check analysed (config valid)."""
    for limit in (MAX_ROWS, 30, 10):
        body = _body(report, limit)
        if len(body) <= MAX_COMMENT:
            return body
    return fit(body, MAX_COMMENT)


def render_clean(report: PRReport) -> str:
    """The comment once a PR that touched non-portable code no longer does."""
    return (
        "### lockin: no non-portable lines any more\n\n"
        f"As of {code(report.head_sha[:7])} this pull request no longer adds or removes "
        "kernel, vendor-library or vendor-path lines, so no compute-API decision is needed."
    )


def _body(report: PRReport, limit: int) -> str:
    analysis = report.analysis
    assert analysis is not None
    blocks = [
        f"### lockin: {headline(report)}",
        *summary_blocks(report),
        rules_block(analysis.delta),
        _where_chart(report),
        details(
            "Per-file detail",
            changed_files_table(analysis.delta.files, report.blob_url, limit=limit),
        ),
    ]
    blocks.append(repository_block(report))
    if report.draft and report.verdict is not None and report.verdict.uncovered:
        blocks.append(_draft_block(*report.draft))
    blocks.append(
        f"<sub>Checked at {code(report.head_sha[:7])} · policy: {report.config.source} · "
        "comment `/lockin recount` to re-run and count the whole repository</sub>"
    )
    return "\n\n".join(b for b in blocks if b)


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
    line = f"```\n{link_line(path)}\n```"
    if len(markdown) > MAX_DRAFT:
        return (
            f"**Decision record**: the drafted record is {len(markdown):,} characters, too long "
            f"for this comment. Commit one as {code(path)} with a `scope` covering the files "
            f"above, then add this line to the PR description:\n\n{line}"
        )
    # Longer than any run of backticks inside (the PR's title is in it), so nothing in the
    # record can close the fence and write outside it.
    longest = max((len(run) for run in re.findall(r"`+", markdown)), default=0)
    fence = "`" * max(3, longest + 1)
    return details(
        "A ready-to-commit decision record",
        f"Commit this as {code(path)}, fill in the TODOs, then add this line to the PR "
        f"description:\n\n{line}\n\n{fence}markdown\n{markdown}\n{fence}",
    )
