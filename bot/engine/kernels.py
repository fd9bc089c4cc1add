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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

import yaml

from bot.engine.effort import Effort, Grade, Reason, Text, file_traps, grade
from bot.engine.model import VENDORS, Finding, Layer
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
    name_above: int = 0  # lines above a kernel where its name may stand, nearest first
    helper: re.Pattern[str] | None = None  # a finding whose head matches is a helper, so named


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
            row.get("name_above", 0),
            re.compile(row["helper"]) if row.get("helper") else None,
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
    # What moving it to each target takes, with the helpers it calls (engine/effort.py).
    targets: dict[str, Effort] = field(default_factory=dict)


@dataclass
class FileEffort:
    """The kernel-layer code lines of one file per target and grade: each line graded as
    the kernel it is in, lines outside every kernel (helpers, shared declarations) as the
    finding that holds them."""

    path: str
    lines: dict[str, dict[Grade, int]]


def inventory(files: Iterable[tuple[str, str, Iterable[Finding]]]) -> list[Kernel]:
    """Kernels of ``files`` given as (path, text, findings), in path and line order."""
    return graded_inventory(files)[0]


def graded_inventory(
    files: Iterable[tuple[str, str, Iterable[Finding]]],
    reached: Mapping[str, Mapping[str, Sequence[Reason]]] | None = None,
) -> tuple[list[Kernel], list[FileEffort]]:
    """Kernels of ``files`` given as (path, text, findings), in path and line order, each
    graded per target, and the kernel-layer lines of each file per target and grade.
    ``reached``: per path, reasons its kernels take from the headers it includes
    (effort.included_traps)."""
    kernels: list[Kernel] = []
    efforts: list[FileEffort] = []
    for path, text, findings in files:
        lines, listed = text.splitlines(), list(findings)
        extra = (reached or {}).get(path, {})
        found = _file_kernels(path, lines, listed, extra)
        kernels.extend(found)
        efforts.append(_file_effort(path, lines, listed, found, extra))
    return kernels, efforts


def _context(lines: list[str], extra: Mapping[str, Sequence[Reason]]) -> dict[str, list[Reason]]:
    context = file_traps(lines)
    for target, reasons in extra.items():
        context.setdefault(target, []).extend(reasons)
    return context


def _file_kernels(
    path: str,
    lines: list[str],
    findings: list[Finding],
    extra: Mapping[str, Sequence[Reason]] | None = None,
) -> list[Kernel]:
    rules = kernel_rules()
    found: dict[str, Kernel] = {}
    helpers: dict[str, tuple[int, int]] = {}  # helper name -> its lines
    pieces = (
        (finding, spec, start, end)
        for finding in findings
        if (spec := rules.get(finding.rule))
        for start, end in _segments(spec, lines, finding.start_line, finding.end_line)
    )
    for finding, spec, start, end in pieces:
        body = lines[start - 1 : end]
        callee = spec.helper.search("\n".join(body[:_HEAD_LINES])) if spec.helper else None
        if callee is not None:
            helpers.setdefault(callee.group(1), (start, end))
            continue
        name = (
            _name(spec, body)
            or _name_above(spec, lines, start)
            or spec.label
            or posixpath.basename(path)
        )
        if spec.role == "helper":
            helpers.setdefault(name, (start, end))
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
            vendors=tuple(v for v in VENDORS if v in rule.vendors) if rule else (),
        )
    context = _context(lines, extra or {}) if found else {}
    defined = frozenset(found) | frozenset(helpers)
    for kernel in found.values():
        kernel.helpers = _calls(lines, (kernel.start_line, kernel.end_line), helpers, kernel.name)
        # The helpers it calls, and theirs: their traps are the kernel's.
        spans, queue, seen = [(kernel.start_line, kernel.end_line)], list(kernel.helpers), set()
        while queue:
            helper = queue.pop()
            if helper in seen:
                continue
            seen.add(helper)
            spans.append(helpers[helper])
            queue.extend(_calls(lines, helpers[helper], helpers, helper))
        text = Text(lines, spans, defined)
        kernel.targets = grade(kernel.ecosystem, kernel.vendors, text, context)
    return sorted(found.values(), key=lambda k: k.start_line)


def _calls(
    lines: list[str], span: tuple[int, int], helpers: dict[str, tuple[int, int]], own: str
) -> list[str]:
    text = "\n".join(lines[span[0] - 1 : span[1]])
    return sorted(h for h in helpers if h != own and re.search(rf"\b{re.escape(h)}\s*[(<]", text))


def _file_effort(
    path: str,
    lines: list[str],
    findings: list[Finding],
    kernels: list[Kernel],
    extra: Mapping[str, Sequence[Reason]] | None = None,
) -> FileEffort:
    per_line: dict[int, dict[str, Grade]] = {}
    for kernel in kernels:
        for number in range(kernel.start_line, kernel.end_line + 1):
            per_line[number] = {t: e.grade for t, e in kernel.targets.items()}
    context = _context(lines, extra or {})
    defined = frozenset(k.name for k in kernels)
    out: dict[str, dict[Grade, int]] = {}
    for finding in findings:
        if finding.layer != Layer.KERNEL:
            continue
        rule = RULES.get(finding.rule)
        vendors = rule.vendors if rule else frozenset()
        span = (finding.start_line, min(finding.end_line, len(lines)))
        own: dict[str, Grade] | None = None
        for number in range(span[0], span[1] + 1):
            if _is_blank(lines[number - 1]):
                continue
            grades = per_line.get(number)
            if grades is None:
                if own is None:
                    text = Text(lines, [span], defined)
                    own = {
                        t: e.grade
                        for t, e in grade(finding.ecosystem, vendors, text, context).items()
                    }
                grades = per_line[number] = own
            for target, level in grades.items():
                counts = out.setdefault(target, {})
                counts[level] = counts.get(level, 0) + 1
            per_line[number] = {}  # counted once, whichever finding covers it again
    return FileEffort(path, out)


def _is_blank(line: str) -> bool:
    return not line.strip() or bool(_COMMENT.match(line))


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


def _name_above(spec: KernelRule, lines: list[str], start: int) -> str | None:
    """The name on the nearest of the ``name_above`` lines above line ``start`` that has
    one: a SYCL kernel lambda is named by the launch written before it
    (``cgh.parallel_for<class scale>(``)."""
    for number in range(start - 1, max(start - 1 - spec.name_above, 0), -1):
        found = _name(spec, [lines[number - 1]])
        if found:
            return found
    return None


def _code_lines(body: list[str]) -> int:
    return sum(1 for line in body if line.strip() and not _COMMENT.match(line))
