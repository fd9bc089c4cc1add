"""The decision register: the records read back as a whole against the census.

For each compute-API decision: its status, owner, compute API and scope, the non-portable
lines now inside the scope per layer and ecosystem, and the drift against the lines its
``migration_cost`` estimated. Beside them: the framework choices (detected and recorded),
decisions no longer in force that still hold code, the largest areas of gated lines no
accepted decision covers (with an owner suggested by CODEOWNERS), the share of gated lines
covered, and, where scopes overlap, which decision a file is counted under and why.

Pure: it takes the census's file summaries, the parsed records and CODEOWNERS, and returns
plain data; nothing here reads files or the network.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.engine.census import FileSummary
from bot.engine.frameworks import frameworks
from bot.engine.kernels import Kernel
from bot.engine.model import NON_PORTABLE, Layer
from bot.policy.codeowners import CodeOwners
from bot.policy.config import Policy
from bot.policy.decisions import COMPUTE_API, STATUSES, DecisionRecord, MigrationCost
from bot.policy.patterns import compile_patterns, repo_path

FRAMEWORK = "framework"
#: Statuses whose records no longer decide anything; code left in their scope is flagged.
RETIRED = ("superseded", "rejected")
_WILDCARDS = re.compile(r"[*?\[\]!]")


@dataclass
class DecisionEntry:
    ref: str
    title: str | None
    status: str | None
    owner: str | None
    compute_api: str | None
    scope: tuple[str, ...] | None
    estimate: int | None  # migration_cost.lines
    estimate_text: str | None  # migration_cost as written
    cost: MigrationCost | None = None  # the mapping form: engineer_weeks and target too
    lines: int = 0  # gated lines in scope: what the estimate is compared with
    layers: dict[str, int] = field(default_factory=dict)  # non-portable lines per layer
    ecosystems: dict[str, int] = field(default_factory=dict)
    files: int = 0
    kernels: int = 0
    drift: float | None = None  # lines / estimate - 1
    drifted: bool = False  # past the tolerance
    problems: list[str] = field(default_factory=list)

    @property
    def in_force(self) -> bool:
        return self.status == "accepted" and bool(self.owner)


@dataclass(frozen=True)
class FrameworkEntry:
    name: str
    title: str
    seen_in: tuple[str, ...]  # files that show it; empty when only recorded
    record: str | None  # the framework record naming it
    owner: str | None


@dataclass(frozen=True)
class UncoveredArea:
    directory: str
    lines: int  # gated lines no accepted decision covers
    files: int
    layers: Mapping[str, int]
    owners: tuple[str, ...]  # suggested by CODEOWNERS


@dataclass(frozen=True)
class Overlap:
    decisions: tuple[str, ...]  # every decision whose scope covers these files
    winner: str
    reason: str
    files: int
    example: str


@dataclass
class Register:
    decisions: list[DecisionEntry]
    frameworks: list[FrameworkEntry]
    uncovered: list[UncoveredArea]
    overlaps: list[Overlap]
    problems: list[str]
    gated_lines: int
    covered_lines: int  # by an accepted decision with an owner
    attribution: dict[str, str]  # path -> the decision its lines count under
    kernels: list[Kernel]
    tolerance: float

    @property
    def coverage(self) -> float:
        return self.covered_lines / self.gated_lines if self.gated_lines else 1.0

    @property
    def retired_with_code(self) -> list[DecisionEntry]:
        return [d for d in self.decisions if d.status in RETIRED and d.lines]


def build_register(
    files: Sequence[FileSummary],
    records: Sequence[DecisionRecord],
    policy: Policy,
    *,
    problems: Sequence[str] = (),
    codeowners: CodeOwners | None = None,
    detected: Mapping[str, Sequence[str]] | None = None,
    kernels: Sequence[Kernel] = (),
    areas: int = 10,
) -> Register:
    """The register of a tree. ``problems`` are the records that could not be read;
    ``detected`` maps framework names to files that show them (engine/frameworks.py)."""
    notes = list(problems)
    if codeowners is not None:
        notes.extend(codeowners.errors)
    compute = [r for r in records if r.type == COMPUTE_API]
    entries = {r.ref: _entry(r) for r in compute}
    for record in records:
        if record.type not in (COMPUTE_API, FRAMEWORK):
            notes.append(f"{record.ref}: unknown type {record.type!r}; not in the register")
    gated_layers = frozenset(policy.layers)
    attribution: dict[str, str] = {}
    overlaps: dict[tuple[str, ...], list[str]] = {}
    uncovered: dict[str, list[FileSummary]] = {}
    gated_total = covered = 0
    for summary in files:
        if not summary.non_portable_lines:
            continue
        gated = sum(summary.layers.get(layer, 0) for layer in gated_layers)
        gated_total += gated
        covering = [r for r in compute if r.scope and r.covers(summary.path)]
        for record in covering:
            _count(entries[record.ref], summary, gated)
        if covering:
            winner = min(covering, key=_precedence(summary.path))
            attribution[summary.path] = winner.ref
            if len(covering) > 1:
                key = tuple(sorted(r.ref for r in covering))
                overlaps.setdefault(key, []).append(summary.path)
        if any(entries[r.ref].in_force for r in covering):
            covered += gated
        elif gated:
            uncovered.setdefault(posixpath.dirname(summary.path) or ".", []).append(summary)
    for kernel in kernels:
        kernel.decision = attribution.get(kernel.path)
        if kernel.decision:
            entries[kernel.decision].kernels += 1
    for entry in entries.values():
        _judge(entry, policy.decisions.drift_tolerance)
    return Register(
        decisions=list(entries.values()),
        frameworks=_frameworks(records, detected or {}, notes),
        uncovered=_areas(uncovered, gated_layers, codeowners)[:areas],
        overlaps=[_overlap(refs, paths, compute) for refs, paths in sorted(overlaps.items())],
        problems=notes,
        gated_lines=gated_total,
        covered_lines=covered,
        attribution=attribution,
        kernels=list(kernels),
        tolerance=policy.decisions.drift_tolerance,
    )


def _entry(record: DecisionRecord) -> DecisionEntry:
    return DecisionEntry(
        ref=record.ref,
        title=record.title,
        status=record.status,
        owner=record.owner,
        compute_api=record.compute_api,
        scope=record.scope,
        estimate=record.cost.lines if record.cost else None,
        estimate_text=record.migration_cost,
        cost=record.cost,
    )


def _count(entry: DecisionEntry, summary: FileSummary, gated: int) -> None:
    entry.files += 1
    entry.lines += gated
    for layer in NON_PORTABLE:
        if n := summary.layers.get(layer, 0):
            entry.layers[layer.value] = entry.layers.get(layer.value, 0) + n
    for name, n in summary.ecosystems.items():
        entry.ecosystems[name] = entry.ecosystems.get(name, 0) + n


def _judge(entry: DecisionEntry, tolerance: float) -> None:
    """Drift and the problems a reader must see beside the figures."""
    if entry.status not in STATUSES:
        shown = entry.status or "missing"
        entry.problems.append(f"status {shown}: expected one of {', '.join(STATUSES)}")
    if entry.status == "accepted" and not entry.owner:
        entry.problems.append("accepted without an owner: does not count as coverage")
    if entry.scope is None:
        entry.problems.append("no scope: it covers only the pull requests that link it")
    elif not entry.files:
        entry.problems.append(f"scope {list(entry.scope)} matches no non-portable file")
    if entry.estimate is not None:
        if entry.estimate:
            entry.drift = entry.lines / entry.estimate - 1
        entry.drifted = entry.lines > entry.estimate * (1 + tolerance)


def _precedence(path: str) -> Callable[[DecisionRecord], tuple[int, int, tuple[int, ...]]]:
    """Sort key: the decision a file counts under when several scopes cover it. Accepted
    records first, then the most specific scope (the longest pattern that matches, wildcards
    not counted), then the newest (the later path, as numbered records sort)."""

    def key(record: DecisionRecord) -> tuple[int, int, tuple[int, ...]]:
        return (
            0 if record.status == "accepted" else 1,
            -specificity(record, path),
            tuple(-ord(ch) for ch in record.ref),
        )

    return key


def specificity(record: DecisionRecord, path: str) -> int:
    target = repo_path(path)
    return max(
        (
            len(_WILDCARDS.sub("", pattern.strip("/")))
            for pattern in record.scope or ()
            if compile_patterns((pattern,)).match_file(target)
        ),
        default=0,
    )


def _overlap(refs: tuple[str, ...], paths: list[str], records: Sequence[DecisionRecord]) -> Overlap:
    by_ref = {r.ref: r for r in records if r.ref in refs}
    example = paths[0]
    ranked = sorted(by_ref.values(), key=_precedence(example))
    winner, runner = ranked[0], ranked[1]
    if (winner.status == "accepted") != (runner.status == "accepted"):
        reason = "it is accepted and the other is not"
    elif specificity(winner, example) != specificity(runner, example):
        reason = "its scope is the more specific (longer pattern)"
    else:
        reason = "equally specific scopes: the newer record (later path) wins"
    return Overlap(tuple(refs), winner.ref, reason, len(paths), example)


def _areas(
    uncovered: Mapping[str, list[FileSummary]],
    layers: frozenset[Layer],
    codeowners: CodeOwners | None,
) -> list[UncoveredArea]:
    result = []
    for directory, summaries in uncovered.items():
        per_layer: Counter[str] = Counter()
        for summary in summaries:
            for layer in layers:
                if n := summary.layers.get(layer, 0):
                    per_layer[layer.value] += n
        biggest = max(summaries, key=lambda s: (s.non_portable_lines, s.path))
        owners = codeowners.owners(biggest.path) if codeowners else ()
        result.append(
            UncoveredArea(
                directory, sum(per_layer.values()), len(summaries), dict(per_layer), owners
            )
        )
    return sorted(result, key=lambda a: (-a.lines, a.directory))


def _frameworks(
    records: Sequence[DecisionRecord], detected: Mapping[str, Sequence[str]], notes: list[str]
) -> list[FrameworkEntry]:
    known = {f.name: f for f in frameworks()}
    aliases = {alias.lower(): f.name for f in known.values() for alias in (f.name, f.title)}
    recorded: dict[str, DecisionRecord] = {}
    for record in records:
        if record.type != FRAMEWORK:
            continue
        if not record.framework:
            notes.append(f"{record.ref}: a framework record without `framework:`")
            continue
        name = aliases.get(record.framework.lower(), record.framework)
        recorded.setdefault(name, record)
    entries = []
    for name in sorted(set(detected) | set(recorded)):
        found = recorded.get(name)
        entries.append(
            FrameworkEntry(
                name=name,
                title=known[name].title if name in known else name,
                seen_in=tuple(detected.get(name, ())),
                record=found.ref if found else None,
                owner=found.owner if found else None,
            )
        )
    return entries
