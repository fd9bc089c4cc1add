"""What moving a hand-written kernel to each target takes: an effort grade with its reasons.

``none`` (it already runs there), ``port`` (the target's translator converts it: hipify for
AMD, SYCLomatic for Intel), ``review`` (it converts, with a known semantic trap) or
``rewrite`` (no counterpart). The grade comes from data: the translators' own support tables
(data/porting/hipify.yml, syclomatic.yml, generated from their repositories), the traps and the
corrections in data/porting/effort.yml. A grade below ``port`` names its reasons: the API or
feature and the line it is on.

Pure: the text of a kernel (and of the device helpers it calls) in, grades out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

import yaml

from bot.engine.lexer import FAMILIES, lex
from bot.engine.model import TARGETS, Finding
from bot.engine.shims import Includes

#: Reasons kept per kernel and target: the first occurrence of each name, worst first.
MAX_REASONS = 12
_IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*")
_ASM = re.compile(r"\basm\s*(?:volatile\s*|__volatile__\s*)?(?:\(|$)")
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_PTX_OPCODE = re.compile(r"^(?:@!?%?\w+\s+)?([a-z][a-z0-9]*)(?:\.|\s|$)")
_NAMESPACE_ALIASES = (("cg::", "cooperative_groups::"),)
_VENDOR_PREFIXES = ("__", "cuda", "cu", "CU", "nv", "NV", "cooperative_groups::", "cg::")
# Lines an asm statement may span after its first: longer blocks are cut here.
_ASM_SPAN = 40


class Grade(StrEnum):
    NONE = "none"
    PORT = "port"
    REVIEW = "review"
    REWRITE = "rewrite"

    @property
    def rank(self) -> int:
        return GRADES.index(self)


#: Grades from least to most work: the order of every report.
GRADES: tuple[Grade, ...] = (Grade.NONE, Grade.PORT, Grade.REVIEW, Grade.REWRITE)
#: Grades that are work (``none`` is not).
WORK: tuple[Grade, ...] = GRADES[1:]


@dataclass(frozen=True, slots=True)
class Reason:
    what: str  # the API, instruction or feature
    line: int  # 1-based line in the kernel's file
    why: str
    grade: Grade


@dataclass(frozen=True, slots=True)
class Effort:
    grade: Grade
    reasons: tuple[Reason, ...] = ()


@dataclass(frozen=True)
class _Trap:
    id: str
    pattern: re.Pattern[str]
    what: str
    why: str
    grades: Mapping[str, Grade]
    file_scope: bool


@dataclass(frozen=True)
class _Translator:
    target: str
    tool: str
    ecosystems: frozenset[str]
    inline_asm: str  # "rewrite" | "table"
    unsupported: Mapping[str, str]  # CUDA name -> the table that lists it
    diagnostics: Mapping[str, tuple[str, ...]]  # CUDA name -> diagnostic ids (review)
    overrides: Mapping[str, tuple[Grade | None, str]]  # name -> (grade, why); None: by table
    asm_unsupported: frozenset[str]
    asm_known: bool


def _load(name: str) -> Any:
    text = resources.files("bot.engine").joinpath(f"data/porting/{name}").read_text()
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(text, Loader=loader)  # a safe loader; the C one when built


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = _load("effort.yml")
    return data


@cache
def _traps() -> tuple[_Trap, ...]:
    return tuple(
        _Trap(
            row["id"],
            re.compile(row["pattern"]),
            row["what"],
            row["why"],
            {target: Grade(grade) for target, grade in row["grades"].items()},
            row.get("scope") == "file",
        )
        for row in _data()["traps"]
    )


@cache
def translators() -> dict[str, _Translator]:
    """The translator per target that has one (amd: hipify, intel: SYCLomatic)."""
    out = {}
    for target, row in _data()["translators"].items():
        table = _load(row["table"])
        unsupported = {
            name: family for family, names in table["unsupported"].items() for name in names
        }
        diagnostics = {
            name: tuple(ids)
            for family in (table.get("diagnostics") or {}).values()
            for name, ids in family.items()
        }
        overrides: dict[str, tuple[Grade | None, str]] = {}
        for fix in _data()["overrides"].get(row["tool"], ()):
            grade = None if fix["grade"] == "table" else Grade(fix["grade"])
            for name in fix["names"]:
                overrides[name] = (grade, " ".join(fix["why"].split()))
        out[target] = _Translator(
            target=target,
            tool=row["tool"],
            ecosystems=frozenset(row["ecosystems"]),
            inline_asm=row["inline_asm"],
            unsupported=unsupported,
            diagnostics=diagnostics,
            overrides=overrides,
            asm_unsupported=frozenset(table["unsupported"].get("ASM_API", ())),
            asm_known="ASM_API" in table["unsupported"],
        )
    return out


def tool_of(target: str) -> str | None:
    translator = translators().get(target)
    return translator.tool if translator else None


@dataclass(frozen=True)
class Text:
    """Lines of one file, with the spans of code to grade (1-based, inclusive)."""

    lines: Sequence[str]
    spans: Sequence[tuple[int, int]]
    defined: frozenset[str] = frozenset()  # names the file defines (kernels, helpers)


def file_traps(lines: Sequence[str]) -> dict[str, list[Reason]]:
    """Reasons found anywhere in a file (its #includes), per target, for all its kernels."""
    found: dict[str, list[Reason]] = {}
    for trap in _traps():
        if not trap.file_scope:
            continue
        for number, line in enumerate(lines, 1):
            if line.lstrip().startswith("#") and trap.pattern.search(line):
                for target, grade in trap.grades.items():
                    found.setdefault(target, []).append(Reason(trap.what, number, trap.why, grade))
                break
    return found


def included_traps(
    files: Iterable[tuple[str, tuple[str, ...], Iterable[Finding]]],
) -> dict[str, dict[str, list[Reason]]]:
    """Per file given as (path, its ``#include "..."`` names, findings): the reasons it takes
    from the headers it reaches through includes that hold code no translator converts
    (effort.yml ``included``), naming the nearest such header."""
    rule = _data()["included"]
    ecosystems = frozenset(rule["ecosystems"])
    listed = list(files)
    resolve = Includes({path for path, _, _ in listed})
    holding = {
        path for path, _, findings in listed if any(f.ecosystem in ecosystems for f in findings)
    }
    if not holding:
        return {}
    included_by: dict[str, list[str]] = {}
    for path, includes, _ in listed:
        for include in includes:
            target = resolve.target(path, include)
            if target is not None and target != path:
                included_by.setdefault(target, []).append(path)
    reached: dict[str, str] = {}  # file -> the header it reaches
    todo = sorted(holding)
    for header in todo:
        reached.setdefault(header, header)
    while todo:
        current = todo.pop(0)
        for parent in included_by.get(current, ()):
            if parent not in reached:
                reached[parent] = reached[current]
                todo.append(parent)
    grades = {target: Grade(level) for target, level in rule["grades"].items()}
    return {
        path: {
            target: [Reason(rule["what"], 1, f"{rule['why']} ({header})", level)]
            for target, level in grades.items()
        }
        for path, header in reached.items()
        if header != path
    }


def grade(
    ecosystem: str,
    vendors: Iterable[str],
    text: Text,
    context: Mapping[str, Sequence[Reason]] | None = None,
) -> dict[str, Effort]:
    """The effort per target of code of ``ecosystem`` running on ``vendors`` today.
    ``context`` holds the reasons of its file (``file_traps``)."""
    runs_on = frozenset(vendors)
    todo = [t for t in TARGETS if t not in runs_on]
    result = {t: Effort(Grade.NONE) for t in TARGETS if t in runs_on}
    scanned: list[tuple[int, str]] | None = None
    first = text.spans[0][0] if text.spans else 1
    for target in todo:
        translator = translators().get(target)
        if translator is None or ecosystem not in translator.ecosystems:
            why = _data()["no_translator"][target].format(ecosystem=ecosystem)
            result[target] = Effort(Grade.REWRITE, (Reason(ecosystem, first, why, Grade.REWRITE),))
            continue
        if scanned is None:
            scanned = _code_lines(text)
        reasons = list((context or {}).get(target, ()))
        reasons += _reasons(translator, text, scanned)
        result[target] = _effort(reasons)
    return {t: result[t] for t in TARGETS}


def _effort(reasons: list[Reason]) -> Effort:
    if not reasons:
        return Effort(Grade.PORT)
    seen: dict[str, Reason] = {}
    for reason in sorted(reasons, key=lambda r: (-r.grade.rank, r.line)):
        seen.setdefault(reason.what, reason)
    kept = tuple(sorted(seen.values(), key=lambda r: (-r.grade.rank, r.line))[:MAX_REASONS])
    return Effort(kept[0].grade, kept)


def _code_lines(text: Text) -> list[tuple[int, str]]:
    """(line number, code with comments and strings masked) of every line in the spans."""
    out: list[tuple[int, str]] = []
    for start, end in sorted(set(text.spans)):
        block = "\n".join(text.lines[start - 1 : end])
        masked = lex(block, FAMILIES["c"]).lines
        out.extend((start + i, line) for i, line in enumerate(masked) if line.strip())
    return out


def _reasons(translator: _Translator, text: Text, scanned: list[tuple[int, str]]) -> list[Reason]:
    target = translator.target
    reasons: list[Reason] = []
    traps = [t for t in _traps() if not t.file_scope and target in t.grades]
    for number, line in scanned:
        for trap in traps:
            if trap.pattern.search(line):
                reasons.append(Reason(trap.what, number, trap.why, trap.grades[target]))
        for match in _IDENTIFIER.finditer(line):
            name = re.sub(r"\s+", "", match.group(0))
            if name in text.defined or not _api_like(name, line, match.end()):
                continue
            for short, full in _NAMESPACE_ALIASES:
                if name.startswith(short):
                    name = full + name[len(short) :]
            reason = _api_reason(translator, name, number)
            if reason is not None:
                reasons.append(reason)
        if _ASM.search(line):
            reasons.extend(_asm_reasons(translator, text, number))
    return reasons


def _api_like(name: str, line: str, end: int) -> bool:
    """Whether a name can be the CUDA API of that name: vendor-prefixed names always, plain
    ones (``norm``, ``max``, ``clock``) only where called, and never as a member."""
    if name.startswith(_VENDOR_PREFIXES):
        return True
    head = line[: end - len(name)].rstrip()
    if head.endswith((".", "->")):
        return False
    return line[end:].lstrip().startswith("(")


def _api_reason(translator: _Translator, name: str, line: int) -> Reason | None:
    tool = translator.tool
    if name in translator.overrides:
        grade, why = translator.overrides[name]
        # A correction to `port` leaves nothing to say; to `table`, another table decides.
        if grade is None or grade == Grade.PORT:
            return None
        return Reason(name, line, why, grade)
    family = translator.unsupported.get(name)
    if family is not None:
        why = f"{tool} has no counterpart ({family} table)"
        return Reason(name, line, why, Grade.REWRITE)
    ids = translator.diagnostics.get(name)
    if ids is not None:
        why = f"{tool} converts it with a diagnostic to check ({', '.join(ids)})"
        return Reason(name, line, why, Grade.REVIEW)
    return None


def _asm_reasons(translator: _Translator, text: Text, first: int) -> list[Reason]:
    """Inline assembly at line ``first``: the PTX instructions of its template (the string
    literals before the first operand colon)."""
    opcodes: dict[str, int] = {}
    for number in range(first, min(first + _ASM_SPAN, len(text.lines) + 1)):
        line = text.lines[number - 1]
        template = _STRING.sub(lambda m: " " * len(m.group(0)), line)
        cut = template.find(":")
        strings = _STRING.findall(line[: cut if cut >= 0 else len(line)])
        for literal in strings:
            for statement in re.split(r";|\\n", literal):
                statement = statement.strip().lstrip("{}").strip()
                match = _PTX_OPCODE.match(statement)
                if match and not statement.startswith("."):
                    opcodes.setdefault(match.group(1), number)
        if cut >= 0 or ");" in line:
            break
    if translator.inline_asm == "rewrite" or not translator.asm_known:
        why = (
            f"inline PTX: {translator.tool} passes it through and "
            f"{translator.target} GPUs do not run PTX"
        )
        names = [f"asm {op}" for op in opcodes] or ["asm"]
        return [Reason(name, opcodes.get(name[4:], first), why, Grade.REWRITE) for name in names]
    reasons = []
    for op, number in opcodes.items():
        if op in translator.asm_unsupported:
            why = f"inline PTX `{op}`: {translator.tool} does not migrate it (ASM_API table)"
            reasons.append(Reason(f"asm {op}", number, why, Grade.REWRITE))
        else:
            why = f"inline PTX `{op}`: {translator.tool} migrates it; check the result"
            reasons.append(Reason(f"asm {op}", number, why, Grade.REVIEW))
    if not reasons:
        why = f"inline assembly {translator.tool} cannot read"
        reasons.append(Reason("asm", first, why, Grade.REWRITE))
    return reasons


@cache
def sources() -> tuple[dict[str, Any], ...]:
    """Where each translator's table comes from: tool, repository, commit(s), licence."""
    out = []
    for row in _data()["translators"].values():
        source = _load(row["table"])["source"]
        commits = (
            [source["commit"]] if "commit" in source else [f["commit"] for f in source["files"]]
        )
        out.append(
            {
                "tool": row["tool"],
                "repo": source["repo"],
                "commits": sorted(set(commits)),
                "version": source.get("version"),
                "licence": source["licence"],
            }
        )
    return tuple(out)


def table_names(target: str, lines: Sequence[str]) -> tuple[set[str], set[str]]:
    """Names of ``target``'s translator table (unsupported or overridden) anywhere in the
    code of ``lines``: (used as the API, present only as something else). For comparing
    lockin's kernel reasons with what the translator says of a whole file."""
    translator = translators()[target]
    listed = translator.unsupported.keys() | translator.overrides.keys()
    used: set[str] = set()
    other: set[str] = set()
    for _, line in _code_lines(Text(lines, [(1, len(lines))])):
        for match in _IDENTIFIER.finditer(line):
            name = re.sub(r"\s+", "", match.group(0))
            if name in listed:
                (used if _api_like(name, line, match.end()) else other).add(name)
    return used, other - used
