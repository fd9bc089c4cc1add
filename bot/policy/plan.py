"""The migration plan: what moving the tree to one target vendor takes, in lines.

Kernel lines are rewritten, vendor-library calls are mapped onto the target's counterpart
library (named from data/counterparts.yml), vendor-path lines are edited, and the share of
those edits a translation tool (hipify, SYCLomatic) makes mechanically is given. Lines whose
rule already runs on the target need nothing. The plan is split by the decision each file
counts under in the register, or by directory where no decision covers it, and set against
the sum of the recorded estimates.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

import yaml

from bot.engine.census import FileSummary
from bot.engine.model import Layer
from bot.engine.registry import RULES
from bot.policy.register import Register


@cache
def _data() -> dict[str, Any]:
    text = resources.files("bot.engine").joinpath("data/counterparts.yml").read_text()
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def targets() -> tuple[str, ...]:
    return tuple(_data()["targets"])


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
    rewrite: int = 0  # kernel lines
    map: int = 0  # vendor-library lines
    edit: int = 0  # vendor-path lines
    mechanical: int = 0  # of ``edit``: lines the target's translation tool rewrites
    kernels: int = 0
    estimate: int | None = None  # the decision's migration_cost.lines
    libraries: dict[str, LibraryMapping] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.rewrite + self.map + self.edit


@dataclass
class TargetPlan:
    target: str
    vendor: str
    tool: str | None
    groups: list[PlanGroup]

    def total(self, what: str) -> int:
        return sum(int(getattr(group, what)) for group in self.groups)

    @property
    def estimated(self) -> int:
        """Sum of the recorded estimates of the decisions in the plan."""
        return sum(g.estimate or 0 for g in self.groups)

    @property
    def mechanical_share(self) -> float:
        edit = self.total("edit")
        return self.total("mechanical") / edit if edit else 0.0


def build_plan(files: Sequence[FileSummary], register: Register, target: str) -> TargetPlan:
    data = _data()
    if target not in data["targets"]:
        raise ValueError(f"unknown target {target!r}: expected one of {', '.join(targets())}")
    vendor = data["targets"][target]["vendor"]
    tool = data["targets"][target]["tool"]
    mechanical = frozenset(data["mechanical"].get(tool, ())) if tool else frozenset()
    libraries: Mapping[str, Mapping[str, str]] = data["libraries"]
    estimates = {d.ref: d.estimate for d in register.decisions}
    groups: dict[str, PlanGroup] = {}
    for summary in files:
        ref = register.attribution.get(summary.path)
        name = ref or posixpath.dirname(summary.path) or "."
        for rule_id, lines in summary.rule_lines.items():
            rule = RULES.get(rule_id)
            if rule is None or vendor in rule.vendors or rule.layer == Layer.PORTABLE:
                continue
            group = groups.get(name)
            if group is None:
                kind = "decision" if ref else "uncovered"
                group = groups[name] = PlanGroup(name, kind, estimate=estimates.get(name))
            if rule.layer == Layer.KERNEL:
                group.rewrite += lines
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
    for kernel in register.kernels:
        if vendor in kernel.vendors:
            continue
        name = kernel.decision or posixpath.dirname(kernel.path) or "."
        if name in groups:
            groups[name].kernels += 1
    ordered = sorted(groups.values(), key=lambda g: (g.kind != "decision", -g.total, g.name))
    return TargetPlan(target, vendor, tool, ordered)
