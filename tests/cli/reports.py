"""Hand-built rules and FileReports, so census and delta tests do not depend on what the
engine's rules detect today."""

from __future__ import annotations

from collections import Counter

from bot.engine.model import FileReport, Finding, Layer, Rule, zero_layers


def _rule(rule_id: str, layer: Layer, ecosystem: str, *vendors: str) -> Rule:
    return Rule(rule_id, layer, ecosystem, frozenset(vendors), f"{rule_id} does not travel")


RULES: dict[str, Rule] = {
    r.id: r
    for r in (
        _rule("cuda.kernel", Layer.KERNEL, "cuda", "nvidia"),
        _rule("cuda.runtime", Layer.VENDOR_PATH, "cuda", "nvidia"),
        _rule("torch.cuda", Layer.VENDOR_PATH, "cuda", "nvidia", "amd"),
        _rule("cuda.cublas", Layer.VENDOR_LIBRARY, "cuda", "nvidia"),
        _rule("hip.kernel", Layer.KERNEL, "hip", "amd"),
        _rule("triton.jit", Layer.KERNEL, "triton", "nvidia", "amd", "intel"),
        _rule("metal.kernel", Layer.KERNEL, "metal", "apple"),
    )
}


def report(
    path: str,
    line_rules: list[str | None],
    *,
    generated: bool = False,
    skipped: str | None = None,
) -> FileReport:
    """A FileReport consistent with ``line_rules`` (None: not code, "": portable)."""
    layers = zero_layers()
    ecosystems: Counter[str] = Counter()
    findings: list[Finding] = []
    for number, rule_id in enumerate(line_rules, start=1):
        if rule_id is None:
            continue
        if not rule_id:
            layers[Layer.PORTABLE] += 1
            continue
        rule = RULES[rule_id]
        layers[rule.layer] += 1
        ecosystems[rule.ecosystem] += 1
        last = findings[-1] if findings else None
        if last and last.rule == rule_id and last.end_line == number - 1:
            findings[-1] = Finding(rule_id, rule.layer, rule.ecosystem, last.start_line, number)
        else:
            findings.append(Finding(rule_id, rule.layer, rule.ecosystem, number, number))
    return FileReport(
        path=path,
        language="test",
        code_lines=sum(1 for r in line_rules if r is not None),
        layers=layers,
        ecosystems=dict(ecosystems),
        findings=findings,
        line_rules=line_rules,
        skipped=skipped,
        generated=generated,
    )
