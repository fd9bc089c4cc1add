"""The kernel inventory: every hand-written kernel of a tree, by name.

Which rules find kernels and which find device helpers, and how each is named, is data
(data/kernels.yml). A kernel's name comes from the first lines of its finding; a kernel that
appears several times in one file under one name (a template and its explicit
instantiations) is one kernel. Helpers are attached to the kernels of the same file whose
text calls them, which is what can be seen without a compiler.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import yaml

from bot.engine.model import Finding
from bot.engine.registry import RULES

# Names are read from the first lines of a finding: a signature rarely spans more.
_HEAD_LINES = 6
_COMMENT = re.compile(r"^\s*(?://|#|/\*|\*)")
# Lines just above a kernel's start that belong to it: decorators, template heads.
_LEAD = re.compile(r"^\s*(?:@|template\s*<)")
# Words a name regex can catch in a C signature that are qualifiers, not names.
_NOT_NAMES = frozenset(
    {"__launch_bounds__", "__global__", "__device__", "if", "for", "while", "sizeof", "asm"}
)


@dataclass(frozen=True)
class KernelRule:
    role: str  # "kernel" | "helper"
    name: re.Pattern[str]
    start: re.Pattern[str] | None = None
    label: str | None = None


@cache
def kernel_rules() -> dict[str, KernelRule]:
    text = resources.files("bot.engine").joinpath("data/kernels.yml").read_text()
    rows = yaml.safe_load(text)
    return {
        rule_id: KernelRule(
            row["role"],
            re.compile(row["name"]),
            re.compile(row["start"]) if row.get("start") else None,
            row.get("label"),
        )
        for rule_id, row in rows.items()
    }


@dataclass
class Kernel:
    name: str
    path: str
    start_line: int
    end_line: int
    code_lines: int
    rule: str
    ecosystem: str
    vendors: tuple[str, ...]
    appearances: int = 1  # definitions of this name in this file (a template + its instantiations)
    helpers: list[str] = field(default_factory=list)  # device helpers it calls
    decision: str | None = None  # the decision covering its file, set by the register


def inventory(files: Iterable[tuple[str, str, Iterable[Finding]]]) -> list[Kernel]:
    """Kernels of ``files`` given as (path, text, findings), in path and line order."""
    kernels: list[Kernel] = []
    for path, text, findings in files:
        kernels.extend(_file_kernels(path, text.splitlines(), list(findings)))
    return kernels


def _file_kernels(path: str, lines: list[str], findings: list[Finding]) -> list[Kernel]:
    rules = kernel_rules()
    found: dict[str, Kernel] = {}
    helpers: dict[str, str] = {}  # helper name -> its text
    pieces = (
        (finding, spec, start, end)
        for finding in findings
        if (spec := rules.get(finding.rule))
        for start, end in _segments(spec, lines, finding.start_line, finding.end_line)
    )
    for finding, spec, start, end in pieces:
        body = lines[start - 1 : end]
        name = _name(spec, body) or spec.label or posixpath.basename(path)
        if spec.role == "helper":
            helpers.setdefault(name, "\n".join(body))
            continue
        kernel = found.get(name)
        if kernel is not None:
            kernel.appearances += 1
            if end - start > kernel.end_line - kernel.start_line:
                kernel.start_line, kernel.end_line = start, end
                kernel.code_lines = _code_lines(body)
            continue
        rule = RULES.get(finding.rule)
        found[name] = Kernel(
            name=name,
            path=path,
            start_line=start,
            end_line=end,
            code_lines=_code_lines(body),
            rule=finding.rule,
            ecosystem=finding.ecosystem,
            vendors=tuple(sorted(rule.vendors)) if rule else (),
        )
    for kernel in found.values():
        text = "\n".join(lines[kernel.start_line - 1 : kernel.end_line])
        kernel.helpers = sorted(
            h for h in helpers if h != kernel.name and re.search(rf"\b{re.escape(h)}\s*[(<]", text)
        )
    return sorted(found.values(), key=lambda k: k.start_line)


def _segments(spec: KernelRule, lines: list[str], first: int, last: int) -> list[tuple[int, int]]:
    """(start, end) lines of each kernel in a finding: a new one at each start line no more
    indented than the first (a nested def is part of its kernel), with the decorator or
    template lines just above it; blank lines between two kernels belong to neither."""
    if spec.start is None:
        return [(first, last)]
    starts: list[int] = []
    indent: int | None = None
    for number in range(first, last + 1):
        line = lines[number - 1] if number <= len(lines) else ""
        if not spec.start.search(line):
            continue
        depth = len(line) - len(line.lstrip())
        if indent is None or depth <= indent:
            indent = depth if indent is None else indent
            starts.append(number)
    if not starts:
        return [(first, last)]
    for i in range(1, len(starts)):
        while starts[i] - 1 > starts[i - 1] and _LEAD.match(lines[starts[i] - 2]):
            starts[i] -= 1
    starts[0] = first
    segments = []
    for i, start in enumerate(starts):
        end = starts[i + 1] - 1 if i + 1 < len(starts) else last
        while end > start and not lines[end - 1].strip():
            end -= 1
        segments.append((start, end))
    return segments


def _name(spec: KernelRule, body: list[str]) -> str | None:
    head = "\n".join(body[:_HEAD_LINES])
    for match in spec.name.finditer(head):
        if match.group(1) not in _NOT_NAMES:
            return match.group(1)
    return None


def _code_lines(body: list[str]) -> int:
    return sum(1 for line in body if line.strip() and not _COMMENT.match(line))
