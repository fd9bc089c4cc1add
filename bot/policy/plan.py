"""The migration plan: what moving the tree to one target vendor takes, in lines and weeks.

Kernel lines are split by effort grade (engine/effort.py): ``port`` (the target's translator,
hipify or SYCLomatic, converts them), ``review`` (they convert with a known trap) and
``rewrite`` (no counterpart, or no translator for the target). Vendor-library calls are mapped
onto the target's counterpart library (named from data/counterparts.yml), vendor-path lines
are edited, and the share of those edits a translator makes mechanically is given. Lines whose
rule already runs on the target need nothing. The plan is split by the decision each file
counts under in the register, or by directory where no decision covers it.

Engineer-weeks: what owners recorded (``migration_cost.engineer_weeks``) counts under the
target the record names (``target: HIP`` is amd; a record naming no target counts under
every target); the default effort model (lines per engineer-week per kind of work,
``plan.lines_per_engineer_week`` in lockin.yml) estimates the groups nobody recorded, and the
two are always shown apart.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import yaml

from bot.engine.census import FileSummary
from bot.engine.effort import WORK, Effort, Grade
from bot.engine.kernels import FileEffort
from bot.engine.model import TARGETS, Layer
from bot.engine.registry import RULES
from bot.engine.shims import SHIM_VENDORS, SHIMMED_ECOSYSTEMS
from bot.policy.config import DEFAULT_LINES_PER_WEEK
from bot.policy.register import DecisionEntry, Register

#: Kinds of work the effort model prices, in report order.
WORK_KINDS: tuple[str, ...] = (*(g.value for g in WORK), "map", "edit")


@cache
def _data() -> dict[str, Any]:
    text = resources.files("bot.engine").joinpath("data/counterparts.yml").read_text()
    # The C loader where PyYAML has one: every scan's summary reads this file.
    data: dict[str, Any] = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return data


def targets() -> tuple[str, ...]:
    return TARGETS


@cache
def _aliases() -> dict[str, str]:
    names = {}
    for target, row in _data()["targets"].items():
        for alias in (target, row["vendor"], *row.get("aliases", ())):
            names[str(alias).lower()] = target
    return names


def target_name(name: str | None) -> str | None:
    """The plan's name for a target as a record or the command line writes it (``HIP``,
    ``ROCm``, ``tpu``, ``SYCL``...), or None when it names none of them."""
    if name is None:
        return None
    aliases = _aliases()
    text = name.strip().lower()
    if text in aliases:
        return aliases[text]
    # "Intel XPU", "AMD MI300X", "Google Cloud TPU": the first word that names a target.
    return next((aliases[w] for w in re.findall(r"[\w+]+", text) if w in aliases), None)


def target_choices() -> tuple[str, ...]:
    """Every name ``--target`` accepts: the targets first, then their aliases."""
    return (*TARGETS, *sorted(set(_aliases()) - set(TARGETS)))


@dataclass
class LibraryMapping:
    rule: str
    library: str
    counterpart: str
    lines: int


@dataclass
class PlanGroup:
    name: str  # a decision's ref, or a directory no accepted decision covers
    kind: str  # "decision" | "uncovered"
    port: int = 0  # kernel lines the target's translator converts
    review: int = 0  # kernel lines that convert with a known trap
    rewrite: int = 0  # kernel lines with no counterpart
    map: int = 0  # vendor-library lines
    edit: int = 0  # vendor-path lines
    mechanical: int = 0  # of ``edit``: lines the target's translation tool rewrites
    kernels: int = 0
    estimate: int | None = None  # the decision's migration_cost.lines, for this target
    recorded_weeks: float | None = None  # the decision's engineer_weeks, for this target
    libraries: dict[str, LibraryMapping] = field(default_factory=dict)

    @property
    def kernel(self) -> int:
        return self.port + self.review + self.rewrite

    @property
    def total(self) -> int:
        return self.kernel + self.map + self.edit

    def model_weeks(self, rates: Mapping[str, float]) -> float:
        """Engineer-weeks the default effort model gives this group's lines."""
        return sum(getattr(self, kind) / rates[kind] for kind in WORK_KINDS)


@dataclass
class TargetPlan:
    target: str
    vendor: str
    tool: str | None
    groups: list[PlanGroup]
    rates: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_LINES_PER_WEEK))
    # Of the lines that could not move off NVIDIA tomorrow (the headline): those the target's
    # translator converts mechanically (kernels graded port, the vendor-path edits it makes).
    mechanical_lines: int = 0

    def total(self, what: str) -> int:
        return sum(int(getattr(group, what)) for group in self.groups)

    @property
    def estimated(self) -> int:
        """Sum of the recorded line estimates of the decisions in the plan."""
        return sum(g.estimate or 0 for g in self.groups)

    @property
    def recorded_weeks(self) -> float | None:
        """Sum of the engineer-weeks owners recorded for this target; None: none recorded."""
        weeks = [g.recorded_weeks for g in self.groups if g.recorded_weeks is not None]
        return sum(weeks) if weeks else None

    @property
    def model_weeks(self) -> float:
        """The effort model's estimate for the groups no owner gave a figure."""
        return sum(g.model_weeks(self.rates) for g in self.groups if g.recorded_weeks is None)

    @property
    def mechanical_share(self) -> float:
        edit = self.total("edit")
        return self.total("mechanical") / edit if edit else 0.0


_WORK_TO_DO = Effort(Grade.REWRITE)


def _for_target(entry: DecisionEntry, target: str) -> bool:
    """Whether a decision's recorded cost counts under ``target``: the target it names, or
    every target when it names none (or one lockin does not know: shown everywhere rather
    than lost)."""
    named = entry.cost.target if entry.cost else None
    return named is None or target_name(named) in (None, target)


def build_plan(
    files: Sequence[FileSummary],
    register: Register,
    target: str,
    efforts: Mapping[str, FileEffort] | None = None,
    rates: Mapping[str, float] | None = None,
    shimmed: frozenset[str] = frozenset(),
) -> TargetPlan:
    """The plan for ``target``. ``efforts`` (path -> kernel lines per target and grade, from
    the kernel inventory) splits kernel lines by grade; a file without one counts as rewrite.
    ``shimmed``: files that reach a CUDA-to-HIP compatibility header, whose CUDA code builds
    for AMD as it is (the census counts it so too)."""
    data = _data()
    name = target_name(target)
    if name is None:
        raise ValueError(f"unknown target {target!r}: expected one of {', '.join(TARGETS)}")
    target = name
    vendor = data["targets"][target]["vendor"]
    tool = data["targets"][target]["tool"]
    mechanical = frozenset(data["mechanical"].get(tool, ())) if tool else frozenset()
    libraries: Mapping[str, Mapping[str, str]] = data["libraries"]
    entries = {d.ref: d for d in register.decisions if _for_target(d, target)}
    groups: dict[str, PlanGroup] = {}
    locked_mechanical = 0

    def group_of(name: str, kind: str) -> PlanGroup:
        group = groups.get(name)
        if group is None:
            entry = entries.get(name)
            group = groups[name] = PlanGroup(
                name,
                kind,
                estimate=entry.estimate if entry else None,
                recorded_weeks=entry.cost.engineer_weeks if entry and entry.cost else None,
            )
        return group

    for summary in files:
        ref = register.attribution.get(summary.path)
        name = ref or posixpath.dirname(summary.path) or "."
        kind = "decision" if ref else "uncovered"
        kernel_lines = locked_kernel = 0
        reaches_shim = summary.path in shimmed
        carried = reaches_shim and vendor in SHIM_VENDORS
        for rule_id, lines in summary.rule_lines.items():
            rule = RULES.get(rule_id)
            if rule is None or vendor in rule.vendors or rule.layer == Layer.PORTABLE:
                continue
            if carried and rule.ecosystem in SHIMMED_ECOSYSTEMS:
                continue
            # The headline's lines: NVIDIA-only kernel and vendor-path code no shim carries.
            locked = rule.nvidia_only and not (
                reaches_shim and rule.ecosystem in SHIMMED_ECOSYSTEMS
            )
            group = group_of(name, kind)
            if rule.layer == Layer.KERNEL:
                kernel_lines += lines
                locked_kernel += lines if locked else 0
            elif rule.layer == Layer.VENDOR_LIBRARY:
                group.map += lines
                row = libraries.get(rule_id, {})
                mapping = group.libraries.setdefault(
                    rule_id,
                    LibraryMapping(
                        rule_id,
                        row.get("library", rule_id),
                        row.get(target, "no counterpart recorded"),
                        0,
                    ),
                )
                mapping.lines += lines
            else:
                group.edit += lines
                if rule_id in mechanical:
                    group.mechanical += lines
                    locked_mechanical += lines if locked else 0
        if kernel_lines:
            effort = efforts.get(summary.path) if efforts is not None else None
            weights = effort.lines.get(target, {}) if effort else {}
            for grade, lines in split(kernel_lines, weights).items():
                setattr(groups[name], grade.value, getattr(groups[name], grade.value) + lines)
            locked_mechanical += split(locked_kernel, weights).get(Grade.PORT, 0)
    for entry in entries.values():
        # A recorded figure shows under its target even where no line of its scope needs
        # work there (a Triton scope recorded for AMD).
        cost = entry.cost
        recorded = cost and (cost.engineer_weeks is not None or cost.lines is not None)
        if recorded and cost and cost.target is not None and entry.ref not in groups:
            group_of(entry.ref, "decision")
    for kernel in register.kernels:
        if kernel.targets.get(target, _WORK_TO_DO).grade == Grade.NONE:
            continue
        name = kernel.decision or posixpath.dirname(kernel.path) or "."
        if name in groups:
            groups[name].kernels += 1
    ordered = sorted(groups.values(), key=lambda g: (g.kind != "decision", -g.total, g.name))
    return TargetPlan(
        target,
        vendor,
        tool,
        ordered,
        dict(rates or DEFAULT_LINES_PER_WEEK),
        locked_mechanical if tool else 0,
    )


def split(lines: int, weights: Mapping[Grade, int]) -> dict[Grade, int]:
    """``lines`` shared among the work grades in proportion to ``weights`` (largest
    remainder; ties to the harder grade), so the parts always add up to ``lines``. Without
    weights every line is a rewrite: nothing shows it would convert."""
    work = {g: weights.get(g, 0) for g in WORK}
    total = sum(work.values())
    if not total:
        return {Grade.REWRITE: lines}
    shares = {g: lines * n / total for g, n in work.items()}
    out = {g: int(share) for g, share in shares.items()}
    left = lines - sum(out.values())
    for g in sorted(WORK, key=lambda g: (-(shares[g] - out[g]), -g.rank))[:left]:
        out[g] += 1
    return out
