"""The rule registry: data/ecosystems.yml and one data/rules/<ecosystem>.yml per ecosystem.

Adding an ecosystem means adding rows (and their example snippets) here, never control flow:
a row names its region kind (bot/engine/regions.py KINDS), the languages it applies to
(names or groups from data/languages.yml), a regex and the literal keywords that gate it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any, NamedTuple

import yaml

from bot.engine.languages import LANGUAGES, expand
from bot.engine.model import VENDORS, Layer, Rule
from bot.engine.regions import KINDS

RULE_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class Ecosystem(NamedTuple):
    name: str
    title: str
    vendors: frozenset[str]


@dataclass(frozen=True, slots=True)
class Example:
    path: str
    code: str
    lines: tuple[int, int] | None = None  # the exact finding a positive example must yield


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """A registry row: the public Rule plus what the engine needs to find its regions."""

    rule: Rule
    kind: str
    languages: frozenset[str]
    pattern: re.Pattern[str] | None
    keywords: tuple[str, ...]  # the text must hold one of these before the pattern runs
    requires: re.Pattern[str] | None  # file-level: the masked code must match
    unless: re.Pattern[str] | None  # file-level: the masked code must not match
    positive: tuple[Example, ...]
    negative: tuple[Example, ...]


def _read(name: str) -> Any:
    return yaml.load(resources.files("bot.engine").joinpath(name).read_text("utf-8"), _LOADER)


def _regex(source: str | None) -> re.Pattern[str] | None:
    return re.compile(source, re.M) if source else None


def _examples(rows: list[dict[str, Any]]) -> tuple[Example, ...]:
    return tuple(
        Example(row["path"], row["code"], tuple(row["lines"]) if "lines" in row else None)
        for row in rows
    )


def _vendors(names: list[str], where: str) -> frozenset[str]:
    unknown = set(names) - set(VENDORS)
    if unknown:
        raise ValueError(f"{where}: unknown vendors {sorted(unknown)}")
    return frozenset(names)


def _load_ecosystems() -> dict[str, Ecosystem]:
    return {
        name: Ecosystem(name, row["title"], _vendors(row["vendors"], f"ecosystem {name}"))
        for name, row in _read("data/ecosystems.yml").items()
    }


def _spec(
    row: dict[str, Any], default_ecosystem: str, ecosystems: dict[str, Ecosystem]
) -> RuleSpec:
    rule_id = row["id"]
    ecosystem = row.get("ecosystem", default_ecosystem)
    if ecosystem not in ecosystems:
        raise ValueError(f"{rule_id}: undeclared ecosystem {ecosystem!r}")
    if row["kind"] not in KINDS:
        raise ValueError(f"{rule_id}: unknown kind {row['kind']!r}")
    vendors = (
        _vendors(row["vendors"], rule_id) if "vendors" in row else ecosystems[ecosystem].vendors
    )
    examples = row.get("examples", {})
    return RuleSpec(
        rule=Rule(rule_id, Layer(row["layer"]), ecosystem, vendors, row["summary"]),
        kind=row["kind"],
        languages=expand(row["languages"]),
        pattern=_regex(row.get("pattern")),
        keywords=tuple(row.get("keywords", ())),
        requires=_regex(row.get("requires")),
        unless=_regex(row.get("unless")),
        positive=_examples(examples.get("positive", [])),
        negative=_examples(examples.get("negative", [])),
    )


def _load_specs(ecosystems: dict[str, Ecosystem]) -> tuple[RuleSpec, ...]:
    specs: list[RuleSpec] = []
    folder = resources.files("bot.engine").joinpath("data/rules")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".yml"):
            continue
        doc = yaml.load(entry.read_text("utf-8"), _LOADER)
        specs += [_spec(row, doc.get("ecosystem", ""), ecosystems) for row in doc["rules"]]
    seen: set[str] = set()
    for spec in specs:
        if spec.rule.id in seen:
            raise ValueError(f"duplicate rule id {spec.rule.id}")
        seen.add(spec.rule.id)
    return tuple(specs)


_ECOSYSTEMS = _load_ecosystems()
SPECS: tuple[RuleSpec, ...] = _load_specs(_ECOSYSTEMS)
ECOSYSTEMS: MappingProxyType[str, Ecosystem] = MappingProxyType(_ECOSYSTEMS)
RULES: MappingProxyType[str, Rule] = MappingProxyType({s.rule.id: s.rule for s in SPECS})
#: Language name -> indexes into SPECS of the rules that apply to it, in registry order.
SPECS_BY_LANGUAGE: dict[str, tuple[int, ...]] = {
    lang: tuple(i for i, s in enumerate(SPECS) if lang in s.languages) for lang in LANGUAGES
}


def rule(rule_id: str) -> Rule:
    """The registry row ``rule_id`` (KeyError if unknown)."""
    return RULES[rule_id]
