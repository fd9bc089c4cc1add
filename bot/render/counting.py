"""One line saying which added lines the gate counted, and why (bot/policy/counting.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def counting_note(verdict: Mapping[str, Any]) -> str:
    """The note under the gate's figures; ``verdict`` is json_out.verdict_summary's. Empty
    when nothing was added in the gated layers."""
    files, changed = verdict.get("files", []), verdict.get("changed", [])
    if not files and not changed:
        return ""
    if verdict.get("counting") == "strict":
        text = "Counted: every added line in the gated layers (`gate: strict`)."
    else:
        text = (
            "Counted: the lines a file gains per ecosystem, net of those it loses, and every "
            "line of an ecosystem new to the file, less what other files of the change lose "
            "of that ecosystem; an edited line that keeps its rule counts for nothing."
        )
    kept = sum(f["lines"]["changed"] for f in (*files, *changed) if "lines" in f)
    if kept and verdict.get("counting") != "strict":
        text += f" {kept:,} changed line{'' if kept == 1 else 's'} kept the same rule."
    ecosystems = [e for f in (*files, *changed) if "lines" in f for e in f["lines"]["ecosystems"]]
    if any(e["baseline"] is not None for e in ecosystems):
        text += " Lines within `.github/lockin-baseline.yml` do not count."
    ratchet = verdict.get("ratchet")
    if ratchet:
        text += f" The ratchet decides: {ratchet['message']}."
    return text
