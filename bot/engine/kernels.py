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
# Words a name regex can catch in a C signature that are qualifiers, not names.
_NOT_NAMES = frozenset(
    {"__launch_bounds__", "__global__", "__device__", "if", "for", "while", "sizeof", "asm"}
)


@dataclass(frozen=True)
class KernelRule:
    role: str  # "kernel" | "helper"
    name: re.Pattern[str]
    label: str | None = None


@cache
def kernel_rules() -> dict[str, KernelRule]:
    text = resources.files("bot.engine").joinpath("data/kernels.yml").read_text()
    rows = yaml.safe_load(text)
    return {
        rule_id: KernelRule(row["role"], re.compile(row["name"]), row.get("label"))
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
    instantiations: int = 1  # findings of this name in this file (template + instantiations)
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
    for finding in findings:
        spec = rules.get(finding.rule)
        if spec is None:
            continue
        body = lines[finding.start_line - 1 : finding.end_line]
        name = _name(spec, body) or spec.label or posixpath.basename(path)
        if spec.role == "helper":
            helpers.setdefault(name, "\n".join(body))
            continue
        kernel = found.get(name)
        if kernel is not None:
            kernel.instantiations += 1
            if finding.end_line - finding.start_line > kernel.end_line - kernel.start_line:
                kernel.start_line, kernel.end_line = finding.start_line, finding.end_line
                kernel.code_lines = _code_lines(body)
            continue
        rule = RULES.get(finding.rule)
        found[name] = Kernel(
            name=name,
            path=path,
            start_line=finding.start_line,
            end_line=finding.end_line,
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


def _name(spec: KernelRule, body: list[str]) -> str | None:
    head = "\n".join(body[:_HEAD_LINES])
    for match in spec.name.finditer(head):
        if match.group(1) not in _NOT_NAMES:
            return match.group(1)
    return None


def _code_lines(body: list[str]) -> int:
    return sum(1 for line in body if line.strip() and not _COMMENT.match(line))
