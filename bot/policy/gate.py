"""The compute-API decision gate: does this change add non-portable lines nobody decided on?

Pure: the caller resolves every linked reference (at the PR head, or on the default branch
when the policy requires it) and lists the records on the default branch; the gate only
judges. The same verdict drives the check run, the comment and `lockin diff`'s exit code.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from bot.engine.census import FileSummary
from bot.engine.delta import ChangeDelta, FileDelta
from bot.engine.model import NON_PORTABLE, Layer
from bot.policy.approvals import RecordReview, approval
from bot.policy.baseline import Baseline
from bot.policy.config import Policy
from bot.policy.counting import FileLines, count_lines, moved_lines, net_across
from bot.policy.decisions import COMPUTE_API, STATUSES, DecisionRecord
from bot.policy.ratchet import Ratchet, judge_ratchet

#: Files named in a one-line summary or problem before "and N more".
_NAMED = 3
#: Files listed in a drafted record's table.
_DRAFT_ROWS = 50


@dataclass(frozen=True)
class LinkedDecision:
    """A `Compute-API-Decision:` link as the caller resolved it: the record, or why not
    ("not found at abc1234", "issue #12 is not labelled compute-api-decision")."""

    ref: str
    record: DecisionRecord | None
    error: str | None = None
    #: Set when the record is not on the base as it reads (the PR adds or changes it): it
    #: counts only with an approval there. None: on the base unchanged, or an issue.
    review: RecordReview | None = None


@dataclass(frozen=True)
class FileGate:
    path: str
    gated_lines: int  # added lines in the gated layers that count (bot/policy/counting.py)
    covered_by: str | None  # ref of the record that covers it
    reason: str | None  # why it is not covered (or needs no cover)
    #: Which of its lines count and why: added net, changed keeping their rule, new ecosystem.
    lines: FileLines | None = None

    @property
    def counts(self) -> str:
        """Which lines count and why, in one clause (empty when not known)."""
        return self.lines.why if self.lines else ""


@dataclass(frozen=True)
class DecisionCheck:
    ref: str
    valid: bool
    problems: tuple[str, ...]  # each names the requirement that failed
    approved_by: str | None = None  # of a record the PR adds or changes


@dataclass(frozen=True)
class Verdict:
    conclusion: Literal["success", "failure", "neutral"]
    gated_lines: int  # added lines in gated layers, in files the path filter includes
    #: More gated lines than the allowance: every gated file must be covered (and may be).
    needs_decision: bool
    files: tuple[FileGate, ...]  # files that add gated lines, in delta order
    decisions: tuple[DecisionCheck, ...]  # every linked decision, valid or not, in link order
    summary: str  # one line
    counting: Literal["growth", "strict"] = "growth"
    #: Files that add gated lines none of which count (edits keeping their rule, lines within
    #: the baseline), in delta order: reported as changed, never gated.
    changed: tuple[FileGate, ...] = ()
    ratchet: Ratchet | None = None  # set when the policy has a ratchet

    @property
    def uncovered(self) -> tuple[FileGate, ...]:
        """Files that still need a decision."""
        if not self.needs_decision:
            return ()
        return tuple(f for f in self.files if f.covered_by is None)


def evaluate(
    delta: ChangeDelta,
    policy: Policy,
    *,
    linked: Sequence[LinkedDecision],
    recorded: Sequence[DecisionRecord],
    baseline: Baseline | None = None,
    base_files: Iterable[FileSummary] | None = None,
) -> Verdict:
    """Judge a change against the policy, the PR's linked decisions and the recorded ones.

    Which added lines count is bot/policy/counting.py's (growth by default, every one under
    ``gate: strict``; past the ``baseline``'s figures only, when there is one). A file is
    covered by the first valid linked decision whose scope (if any) covers it, else by the
    first accepted record on the default branch whose scope covers it; a recorded decision
    without a scope covers only pull requests that link it. With a ratchet in the policy,
    the repository's figure decides instead of the allowance; ``base_files`` (the base's
    census) gives its percent threshold a base.
    """
    paths = policy.path_filter()
    counted = [f for f in delta.files if paths.includes(f.path)]
    strict = policy.gate == "strict"
    moved = moved_lines(counted, policy.layers)
    lines = [
        count_lines(
            f,
            policy.layers,
            strict=strict,
            baseline=baseline.of(f.path) if baseline else None,
            moved=moves,
        )
        for f, moves in zip(counted, moved, strict=True)
    ]
    if not strict:
        lines = net_across(lines)
    gated = [file for file in lines if file.counted]
    total = sum(file.counted for file in gated)

    judged = [(link, *_link_problems(link, policy)) for link in linked]
    usable = [link.record for link, problems, _ in judged if link.record and not problems]
    scoped = [r for r in recorded if r.scope is not None]
    standing = [r for r in scoped if not _requirements(r, False)]
    lapsed = [r for r in scoped if _requirements(r, False)]  # named when they would cover

    def cover(path: str) -> str | None:
        return _first_covering(usable, path) or _first_covering(standing, path)

    ratchet = None
    if policy.ratchet is not None:
        base = None if base_files is None else (s for s in base_files if paths.includes(s.path))
        ratchet = judge_ratchet(
            counted, lambda path: cover(path) is not None, policy.ratchet, policy.layers, base
        )
        needs, within = ratchet.failed, f"within the ratchet ({ratchet.message})"
    else:
        needs, within = total > policy.allowance, f"within the allowance of {policy.allowance}"

    files: list[FileGate] = []
    for file in gated:
        if not needs:
            files.append(FileGate(file.path, file.counted, None, within, file))
            continue
        covered_by = cover(file.path)
        reason = (
            None if covered_by else _awaited(file.path, judged) or _why_uncovered(file.path, lapsed)
        )
        files.append(FileGate(file.path, file.counted, covered_by, reason, file))
    changed = tuple(
        FileGate(file.path, 0, None, "no growth: " + file.why, file)
        for file in lines
        if file.added and not file.counted
    )

    uncovered = [f.path for f in files if needs and f.covered_by is None]
    checks = tuple(_check(link, problems, by, uncovered) for link, problems, by in judged)
    conclusion: Literal["success", "failure", "neutral"] = "success"
    if uncovered:
        conclusion = "neutral" if policy.report_only else "failure"
    verdict_files = tuple(files)
    summary = _summary(counted, policy, verdict_files, needs, checks, changed, ratchet)
    return Verdict(
        conclusion,
        total,
        needs,
        verdict_files,
        checks,
        summary,
        counting=policy.gate,
        changed=changed,
        ratchet=ratchet,
    )


def _requirements(record: DecisionRecord, allow_proposed: bool) -> list[str]:
    """What a record lacks to satisfy the gate, scope aside."""
    problems: list[str] = []
    if record.type != COMPUTE_API:
        found = f"type is {record.type!r}" if record.type else "no type"
        problems.append(f"{found}, not {COMPUTE_API!r}")
    if record.status != "accepted" and not (allow_proposed and record.status == "proposed"):
        found = f"status is {record.status!r}" if record.status else "no status"
        if allow_proposed:
            problems.append(f"{found} (accepted or proposed required)")
        elif record.status == "proposed":
            problems.append(
                f"{found}: awaiting acceptance (accepted required; set "
                "decisions.allow_proposed to accept proposed)"
            )
        else:
            known = "" if record.status in STATUSES or not record.status else "; unknown status"
            problems.append(f"{found} (accepted required{known})")
    if not record.owner:
        problems.append("no owner")
    return problems


def _link_problems(link: LinkedDecision, policy: Policy) -> tuple[list[str], str | None]:
    """What keeps a linked record from counting, and who approved it (when the PR adds or
    changes it, someone other than its author must)."""
    if link.error or link.record is None:
        return [link.error or "not found"], None
    problems = _requirements(link.record, policy.decisions.allow_proposed)
    if link.review is None:
        return problems, None
    approved_by, unapproved = approval(link.record, link.review)
    return problems + unapproved, approved_by


def _first_covering(records: Iterable[DecisionRecord], path: str) -> str | None:
    return next((r.ref for r in records if r.covers(path)), None)


def _awaited(path: str, judged: Sequence[tuple[LinkedDecision, list[str], str | None]]) -> str:
    """Name a linked record that would cover the file once someone approves it."""
    for link, problems, _ in judged:
        record = link.record
        if record and problems and problems[-1].startswith("awaiting") and record.covers(path):
            return f"{link.ref} covers it once approved: {problems[-1]}"
    return ""


def _why_uncovered(path: str, lapsed: Sequence[DecisionRecord]) -> str:
    """Point at a recorded decision whose scope covers the file but that fails a requirement."""
    for record in lapsed:
        if record.covers(path):
            problems = _requirements(record, False)
            return f"recorded decision {record.ref} covers it but: {'; '.join(problems)}"
    return "no valid linked or recorded compute-API decision covers it"


def _check(
    link: LinkedDecision, problems: list[str], approved_by: str | None, uncovered: list[str]
) -> DecisionCheck:
    record = link.record
    if record is not None and record.scope is not None:
        missed = [path for path in uncovered if not record.covers(path)]
        if missed:
            problems = [*problems, f"scope {list(record.scope)!r} does not cover {_few(missed)}"]
    return DecisionCheck(link.ref, not problems, tuple(problems), approved_by)


def _summary(
    counted: list[FileDelta],
    policy: Policy,
    files: tuple[FileGate, ...],
    needs: bool,
    checks: tuple[DecisionCheck, ...],
    changed: tuple[FileGate, ...],
    ratchet: Ratchet | None,
) -> str:
    if not policy.layers:
        return "no layer needs a decision (layers: [] in the policy)"
    if not files:
        if changed:
            lines = sum(f.lines.added for f in changed if f.lines)
            return (
                f"changes {_count(lines, 'gated line')} in {_count(len(changed), 'file')} "
                "without growing them: nothing needs a decision"
            )
        removed = {layer: sum(f.removed.get(layer, 0) for f in counted) for layer in policy.layers}
        if any(removed.values()):
            return f"removes {_lines(removed)} and adds none"
        return f"adds no {' or '.join(policy.layers)} lines"
    gated = [f for f in counted if any(g.path == f.path for g in files)]
    added = {layer: sum(f.added.get(layer, 0) for f in gated) for layer in policy.layers}
    total = sum(f.gated_lines for f in files)
    if total == sum(added.values()):
        text = f"adds {_lines(added)} in {_count(len(files), 'file')}"
    else:  # some added lines replace removed ones: say only what counts
        text = (
            f"adds {_count(total, 'gated line')} net of those it removes, "
            f"in {_count(len(files), 'file')}"
        )
    missing = [f for f in files if f.covered_by is None]
    if not needs:
        text += (
            f", within the ratchet: {ratchet.message}"
            if ratchet
            else (f", within the allowance of {policy.allowance}")
        )
    elif not missing:
        text += (
            f", covered by {_few(list(dict.fromkeys(f.covered_by for f in files if f.covered_by)))}"
        )
    elif len(missing) == len(files):
        text += " without a compute-API decision"
    else:
        lines = sum(f.gated_lines for f in missing)
        text += f"; {_count(len(missing), 'file')} ({lines} lines) without a compute-API decision"
    if ratchet is not None and needs:
        text += f"; {ratchet.message}"
    invalid = [c for c in checks if not c.valid]
    if len(invalid) == 1:
        first = invalid[0].problems[0]
        state = first if first.startswith("awaiting") else f"invalid: {first}"
        text += f"; linked decision {invalid[0].ref} is {state}"
    elif invalid:
        text += f"; {len(invalid)} linked decisions are invalid"
    return text


def _lines(counts: dict[Layer, int]) -> str:
    """{kernel: 42, vendor-path: 3} -> "42 kernel and 3 vendor-path lines"."""
    parts = [f"{n} {layer}" for layer, n in counts.items() if n]
    words = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return words + (" line" if sum(counts.values()) == 1 else " lines")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _few(items: list[str]) -> str:
    named = ", ".join(items[:_NAMED])
    return named + (f" and {len(items) - _NAMED} more" if len(items) > _NAMED else "")


def draft_decision(
    delta: ChangeDelta,
    verdict: Verdict,
    *,
    title: str,
    compute_api_hint: str | None,
    folder: str,
) -> tuple[str, str]:
    """A ready-to-commit record for the files that still need a decision (all gated files
    when none does), pre-filled with the PR's figures and ``status: proposed``. Owner and
    migration cost are left empty with a TODO comment: the record fails the gate ("no
    owner", "awaiting acceptance") until the owner fills them in, accepts it and approves
    the pull request."""
    title = " ".join(title.split()) or "compute-API decision"
    targets = verdict.uncovered or verdict.files
    wanted = {f.path for f in targets}
    changed = [f for f in delta.files if f.path in wanted]
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60].rstrip("-") or "decision"
    path = f"{folder.strip('/')}/compute-api-{slug}.md" if folder.strip("/") else f"{slug}.md"

    ecosystems: dict[str, int] = {}
    for f in changed:
        for name, n in f.added_ecosystems.items():
            ecosystems[name] = ecosystems.get(name, 0) + n
    if compute_api_hint:
        compute_api = f"compute_api: {json.dumps(compute_api_hint)}"
    else:
        seen = ", ".join(sorted(ecosystems)) or "GPU"
        compute_api = f'compute_api:  # TODO: API and version of the {seen} code, e.g. "CUDA 12.4"'
    added = {layer: sum(f.added[layer] for f in changed) for layer in NON_PORTABLE}
    removed = {layer: sum(f.removed[layer] for f in changed) for layer in NON_PORTABLE}
    gated = sum(f.gated_lines for f in targets)

    out = [
        "---",
        f"type: {COMPUTE_API}",
        # Proposed until its owner accepts it: the author drafting it cannot decide it.
        "status: proposed  # proposed | accepted | superseded | rejected",
        'owner:  # TODO: who owns this choice, quoted: "@octocat" or "@org/kernel-team"',
        compute_api,
        "migration_cost:",
        f"  lines: {gated}  # the lines this change adds; the register tracks drift from it",
        "  engineer_weeks:  # TODO: what moving off it costs, e.g. 3",
        "  target:  # TODO: where it would move, e.g. HIP",
        *_scope_lines(_scope([f.path for f in targets])),
        "---",
        "",
        f"# Compute-API decision: {title}",
        "",
        "## Context",
        "",
        f"This change adds {gated} lines that need a compute-API decision, "
        f"in {_count(len(targets), 'file')}.",
        "",
        "| layer | added | removed | net |",
        "| --- | --: | --: | --: |",
        *(
            f"| {layer} | {added[layer]} | {removed[layer]} | {added[layer] - removed[layer]:+d} |"
            for layer in NON_PORTABLE
        ),
        "",
        "| ecosystem | added lines |",
        "| --- | --: |",
        *(f"| {name} | {n} |" for name, n in sorted(ecosystems.items(), key=lambda e: -e[1])),
        "",
        "| file | lines needing a decision |",
        "| --- | --: |",
        *(f"| `{_cell(f.path)}` | {f.gated_lines} |" for f in targets[:_DRAFT_ROWS]),
    ]
    if len(targets) > _DRAFT_ROWS:
        out.append(f"| and {len(targets) - _DRAFT_ROWS} more | |")
    out += [
        "",
        "## Decision",
        "",
        "TODO: which compute API this code depends on, and why this one.",
        "",
        "## Consequences",
        "",
        "TODO: what moving to another vendor would take, and who it affects.",
        "",
    ]
    return path, "\n".join(out)


def _scope_lines(patterns: list[str]) -> list[str]:
    # An empty `scope:` would read as "no scope", which covers everything once linked.
    comment = "  # paths this decision covers; later pull requests inside them need no link"
    if not patterns:
        return [f"scope: []{comment}"]
    return [f"scope:{comment}", *(f"  - {json.dumps(pattern)}" for pattern in patterns)]


def _scope(paths: Sequence[str]) -> list[str]:
    """Anchored patterns for the folders of these files (a file at the root names itself),
    leaving out folders inside another listed one."""
    folders: list[str] = []
    for folder in sorted({posixpath.dirname(path) for path in paths if "/" in path}):
        if not any(folder.startswith(f"{parent}/") for parent in folders):
            folders.append(folder)
    root_files = sorted(f"/{_literal(path)}" for path in paths if "/" not in path)
    return [f"{_literal(folder)}/**" for folder in folders] + root_files


def _literal(path: str) -> str:
    """A path as a gitignore pattern that matches only itself."""
    escaped = re.sub(r"([][*?\\])", r"\\\1", path)
    return "\\" + escaped if escaped.startswith(("!", "#")) else escaped


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
