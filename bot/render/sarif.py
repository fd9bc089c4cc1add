"""SARIF 2.1.0 for GitHub code scanning: one result per finding (``lockin scan``) or per
added non-portable range (``lockin diff``).

Follows what GitHub documents for uploads: ``tool.driver.rules`` with id, short
description, help and properties; results with ``ruleId``/``ruleIndex``, ``level``,
``message.text``, a relative ``artifactLocation.uri`` under ``%SRCROOT%`` and a line
region; ``partialFingerprints`` so an alert keeps its identity when lines move.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote

from bot import DISTRIBUTION
from bot.engine.census import Census
from bot.engine.delta import ChangeDelta
from bot.engine.model import Finding, Ignored, Layer, MarkerProblem, Rule
from bot.render import markers_out
from bot.render.rules_page import rule_url
from bot.render.wording import COST

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
#: GitHub accepts at most 25,000 results per run; more are cut with a notification.
MAX_RESULTS = 25_000
FINGERPRINT = "lockinFinding/v1"


def level(layer: Layer) -> str:
    """Kernels and vendor paths are lock-in to act on; library calls map to peers."""
    return "note" if layer == Layer.VENDOR_LIBRARY else "warning"


def tool_version() -> str:
    """The installed lockin version (the CLI's --version and SARIF's driver version)."""
    # late: importlib.metadata takes longer to load than a small scan to count, and only
    # --version and SARIF output ask
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0.0.0"


def _descriptor(rule: Rule) -> dict[str, Any]:
    vendors = ", ".join(sorted(rule.vendors)) or "none"
    facts = (
        f"Layer: {rule.layer.value} (moving it off its vendor costs a {COST[rule.layer]}). "
        f"Ecosystem: {rule.ecosystem}. Runs today on: {vendors}."
    )
    url = rule_url(rule.id)
    why = f"Why it would not move: {rule.why}" if rule.why else ""
    instead = f"Instead: {rule.instead}" if rule.instead else ""
    help_text = "\n\n".join(p for p in (f"{rule.summary}. {facts}", why, instead) if p)
    help_markdown = "\n\n".join(
        p
        for p in (
            f"{rule.summary}. {facts}",
            f"**Why it would not move.** {rule.why}" if rule.why else "",
            f"**Instead.** {rule.instead}" if rule.instead else "",
            f"[About this rule]({url})",
        )
        if p
    )
    return {
        "id": rule.id,
        "name": "".join(part.capitalize() for part in rule.id.replace("-", ".").split(".")),
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": f"{rule.summary}. {why}".strip()},
        "helpUri": url,
        "help": {"text": f"{help_text}\n\nAbout this rule: {url}", "markdown": help_markdown},
        "defaultConfiguration": {"level": level(rule.layer)},
        "properties": {
            "layer": rule.layer.value,
            "ecosystem": rule.ecosystem,
            "vendors": sorted(rule.vendors),
            "tags": ["portability", rule.layer.value, rule.ecosystem],
        },
    }


def _fingerprint(path: str, rule: str, ordinal: int) -> str:
    # The n-th region of a rule in a file: stable when unrelated lines move.
    # surrogateescape: a file name that is not UTF-8 hashes as its own bytes.
    key = f"{path}\0{rule}\0{ordinal}".encode("utf-8", "surrogateescape")
    return hashlib.sha256(key).hexdigest()


def sarif_log(
    findings: Iterable[tuple[str, Finding]],
    rules: Mapping[str, Rule],
    *,
    prefix: str = "",
    ignored: Iterable[tuple[str, Ignored]] = (),
    problems: Iterable[tuple[str, MarkerProblem]] = (),
    not_counted: Iterable[tuple[str, str]] = (),
) -> dict[str, Any]:
    """A SARIF log with one run: every rule of the registry, one result per finding.

    ``prefix`` is the scanned folder's path inside its repository (``git rev-parse
    --show-prefix``): code scanning resolves URIs from the repository root. What inline
    markers took out is a result too, suppressed in source with the marker's reason as
    justification (code scanning lists it as dismissed); markers that took nothing out are
    tool notifications, and so are files the engine gave up on (``not_counted``: over their
    CPU-time budget), which the run could not judge.
    """
    suppressed = [
        (path, Finding(i.rule, i.layer, i.ecosystem, i.start_line, i.end_line), i.reason)
        for path, i in ignored
    ]
    ordered = sorted(rules.values(), key=lambda r: r.id)
    index = {rule.id: i for i, rule in enumerate(ordered)}
    ordinals: Counter[tuple[str, str]] = Counter()
    results: list[dict[str, Any]] = []
    dropped = 0
    entries = [(path, f, None) for path, f in findings] + suppressed
    for path, f, reason in entries:
        if len(results) >= MAX_RESULTS:
            dropped += 1
            continue
        ordinals[path, f.rule] += 1
        rule = rules.get(f.rule)
        summary = rule.summary if rule else f.rule
        result: dict[str, Any] = {
            "ruleId": f.rule,
            "level": level(f.layer),
            "message": {
                "text": f"{summary} ({f.layer.value}, {f.ecosystem}; "
                f"lines {f.start_line}-{f.end_line})"
            },
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {
                            # A name that is not UTF-8 is percent-encoded byte by byte.
                            "uri": quote(os.fsencode(prefix + path), safe="/"),
                            "uriBaseId": "%SRCROOT%",
                        },
                        "region": {"startLine": f.start_line, "endLine": f.end_line},
                    }
                }
            ],
            "partialFingerprints": {
                FINGERPRINT: _fingerprint(path, f.rule, ordinals[path, f.rule])
            },
            "properties": {"layer": f.layer.value, "ecosystem": f.ecosystem},
        }
        if f.rule in index:
            result["ruleIndex"] = index[f.rule]
        if reason is not None:
            result["suppressions"] = [{"kind": "inSource", "justification": reason}]
        results.append(result)
    invocation: dict[str, Any] = {"executionSuccessful": True}
    notes = [
        {
            "level": "warning",
            "message": {"text": f"{path}:{p.line}: inline marker ignores nothing: {p.problem}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {
                            "uri": quote(prefix + path, safe="/"),
                            "uriBaseId": "%SRCROOT%",
                        },
                        "region": {"startLine": p.line},
                    }
                }
            ],
        }
        for path, p in problems
    ]
    notes += [
        {
            "level": "warning",
            "message": {"text": f"{path}: not counted: {why}"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {
                            "uri": quote(os.fsencode(prefix + path), safe="/"),
                            "uriBaseId": "%SRCROOT%",
                        }
                    }
                }
            ],
        }
        for path, why in not_counted
    ]
    if dropped:
        notes.append(
            {
                "level": "warning",
                "message": {
                    "text": f"{dropped:,} findings left out: "
                    f"GitHub accepts {MAX_RESULTS:,} results per run"
                },
            }
        )
    if notes:
        invocation["toolExecutionNotifications"] = notes
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "lockin",
                        "semanticVersion": tool_version(),
                        "rules": [_descriptor(rule) for rule in ordered],
                    }
                },
                "automationDetails": {"id": "lockin/"},
                "invocations": [invocation],
                "results": results,
            }
        ],
    }


def scan_sarif(census: Census, *, prefix: str = "") -> dict[str, Any]:
    findings = ((s.path, f) for s in census.files() for f in s.findings)
    ignored, problems = markers_out.of_census(census)
    return sarif_log(
        findings,
        census.rules,
        prefix=prefix,
        ignored=ignored,
        problems=problems,
        not_counted=census.not_counted(),
    )


def diff_sarif(change: ChangeDelta, rules: Mapping[str, Rule]) -> dict[str, Any]:
    ignored, problems = markers_out.of_change(change)
    ranges = ((d.path, r) for d in change.files for r in d.added_ranges)
    return sarif_log(
        ranges, rules, ignored=ignored, problems=problems, not_counted=change.not_counted()
    )
