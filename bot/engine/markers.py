"""Inline markers: ``lockin: ignore[rule-id] reason`` in a comment says "lockin is wrong here".

A marker's target line is its own line when that line holds code (a trailing comment), else
the next line holding code. A region the named rule claimed starting on the target line is
taken out whole (the function, block or branch); otherwise only the target line is, when
the rule owns it. Taken-out lines count as portable and are recorded in
``FileReport.ignored`` with the reason; a marker that takes nothing out (no reason, an
unknown rule id, nothing of its rule there) is recorded in ``marker_problems``. Nothing a
marker does is silent: every renderer lists both.

Markers only count inside comments: the lexer blanks comments with spaces in the masked
text, and strings with another character, so a marker in a string literal is not one.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Mapping

from bot.engine.lexer import Lexed
from bot.engine.model import FileReport, Finding, Ignored, Layer, MarkerProblem, Rule
from bot.engine.precompiled import fixed_regex

#: Cheap test before any regex: most files hold no marker.
WORD = "lockin:"
MARKER = fixed_regex(r"lockin:[ \t]*ignore\[([^\]\n]{0,500})\]([^\n]{0,500})")
# What closes a comment after the reason: */ (C), --> (HTML/XML), *) and -} (others).
_CLOSER = fixed_regex(r"\s*(?:\*/|-->|\*\)|-\})\s*$")
_NOT_ALLOWED = "ignore markers are not allowed here (ignore_markers: not-allowed)"


def apply(report: FileReport, lexed: Lexed, regions: list[tuple[str, int, int]]) -> None:
    """Take out of ``report`` what the markers of its text name (see the module doc).

    ``regions`` are the rules' claims before lines were resolved, (rule id, first, last):
    a marker covers the region of its rule that starts on its target line, not the whole
    finding, which may run on into the next function the same rule claimed.
    """
    # late: deltas and censuses import this module
    from bot.engine.registry import RULES, current_id

    text, masked = lexed.text, lexed.masked
    starts = lexed.line_starts
    code = lexed.code
    line_rules = report.line_rules
    changed = False
    for m in MARKER.finditer(text):
        at = m.start()
        if masked[at] != " ":  # not in a comment: code or a string literal
            continue
        line = bisect_right(starts, at)
        reason = _CLOSER.sub("", m.group(2)).strip()
        target = next((n for n in range(line, len(code) + 1) if code[n - 1]), None)
        # A renamed rule's old id still names it: markers written before a rename keep working.
        for rule_id in (current_id(part.strip()) for part in m.group(1).split(",")):
            problem, span = _check(report, regions, rule_id in RULES, rule_id, reason, target)
            if problem:
                report.marker_problems.append(MarkerProblem(line, problem, *span))
                continue
            rule = RULES[rule_id]
            first, last = span
            taken = [n for n in range(first, last + 1) if line_rules[n - 1] == rule_id]
            for n in taken:
                line_rules[n - 1] = ""
                report.ignored_lines[n] = rule_id
            report.layers[rule.layer] -= len(taken)
            report.layers[Layer.PORTABLE] += len(taken)
            left = report.ecosystems[rule.ecosystem] - len(taken)
            if left:
                report.ecosystems[rule.ecosystem] = left
            else:
                del report.ecosystems[rule.ecosystem]
            report.ignored.append(
                Ignored(rule_id, rule.layer, rule.ecosystem, first, last, len(taken), reason, line)
            )
            changed = True
    if changed:
        report.findings = findings(line_rules, RULES)


def _check(
    report: FileReport,
    regions: list[tuple[str, int, int]],
    known: bool,
    rule_id: str,
    reason: str,
    target: int | None,
) -> tuple[str, tuple[int, int]]:
    """Why a marker for ``rule_id`` takes nothing out ("" when it does), and its lines."""
    if not known:
        named = f"unknown rule id {rule_id!r}" if rule_id else "no rule id in ignore[...]"
        return f"{named}: `lockin rules` lists them", (0, 0)
    if target is None:
        return f"ignore[{rule_id}] is followed by no code line", (0, 0)
    last = max((b for r, a, b in regions if r == rule_id and a == target), default=0)
    span: tuple[int, int] | None = (target, min(last, len(report.line_rules))) if last else None
    if span is None and report.line_rules[target - 1] == rule_id:
        span = (target, target)
    if not any(c.isalnum() for c in reason):
        return f"ignore[{rule_id}] needs a reason: why lockin is wrong here", span or (0, 0)
    if span is None:
        return f"no {rule_id} finding on line {target}: the marker ignores nothing", (0, 0)
    return "", span


def findings(line_rules: list[str | None], rules: Mapping[str, Rule]) -> list[Finding]:
    """Runs of code lines owned by one rule (non-code lines do not break a run)."""
    out: list[Finding] = []
    numbered = [(n, r) for n, r in enumerate(line_rules, 1) if r is not None]
    current, first, last = "", 0, 0
    for n, rule_id in [*numbered, (0, "")]:
        if rule_id != current:
            if current:
                rule = rules[current]
                out.append(Finding(current, rule.layer, rule.ecosystem, first, last))
            current, first = rule_id, n
        last = n
    return out


def restored(report: FileReport) -> list[str | None]:
    """``line_rules`` as if the markers were absent (markers not allowed)."""
    if not report.ignored_lines:
        return report.line_rules
    out = list(report.line_rules)
    for n, rule_id in report.ignored_lines.items():
        out[n - 1] = rule_id
    return out


def not_allowed(ignored: list[Ignored]) -> list[MarkerProblem]:
    """What markers that would have taken lines out say when the policy forbids markers."""
    return [
        MarkerProblem(
            i.marker_line, f"{_NOT_ALLOWED}: {i.rule} still counts", i.start_line, i.end_line
        )
        for i in ignored
    ]


def ignored_counts(ignored: list[Ignored] | tuple[Ignored, ...]) -> Counter[str]:
    """Lines taken out per rule."""
    counts: Counter[str] = Counter()
    for i in ignored:
        counts[i.rule] += i.lines
    return counts
