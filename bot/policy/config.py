"""`.github/lockin.yml`: parsed, validated against lockin.schema.json, turned into a Policy.

An invalid file is an error with its line and key, never ignored: ignoring it would loosen
the gate the team configured. The schema's ``default`` values are the only copy of the
defaults; DEFAULT_POLICY is the empty file.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from bot.engine.model import Layer
from bot.engine.paths import PathFilter
from bot.policy.patterns import repo_path

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

# Read beside this module, as the engine reads its data (bot/engine/precompiled.py DATA).
SCHEMA: dict[str, Any] = json.loads(
    Path(__file__).with_name("lockin.schema.json").read_text("utf-8")
)


@functools.cache
def _validator() -> Draft202012Validator:
    # Imported on first use: jsonschema is a tenth of `lockin`'s start-up, and a scan without
    # a configuration file (or the empty default) never needs it.
    from jsonschema import Draft202012Validator

    return Draft202012Validator(SCHEMA)


#: A configuration file is a few hundred bytes; anything far larger is a mistake or an attack.
MAX_CONFIG_BYTES = 128 * 1024
#: Values after alias expansion, and nesting: stop "billion laughs" and self-referencing
#: aliases before validation walks them.
MAX_CONFIG_NODES = 10_000
MAX_CONFIG_DEPTH = 16


@dataclass(frozen=True)
class Problem:
    line: int | None  # 1-based
    key: str | None  # dotted path: "decisions.allow_proposed", "recount.allow[1]"
    message: str


class PolicyError(Exception):
    """An invalid configuration file. ``str(e)`` is one line: ``source:line: key: message``.

    ``line``, ``key`` and ``message`` describe the first problem in file order;
    ``problems`` holds all of them.
    """

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.problems = tuple(sorted(problems, key=lambda p: (p.line or 0, p.key or "")))
        first = self.problems[0]
        self.source = source
        self.line = first.line
        self.key = first.key
        self.message = first.message
        more = len(self.problems) - 1
        super().__init__(_format(source, first) + (f" (and {more} more)" if more else ""))

    def lines(self) -> list[str]:
        """Every problem, one line each: the CLI reports them all in one run."""
        return [_format(self.source, problem) for problem in self.problems]

    @classmethod
    def at(cls, source: str, line: int | None, message: str) -> PolicyError:
        return cls(source, [Problem(line, None, message)])


def _format(source: str, problem: Problem) -> str:
    where = source if problem.line is None else f"{source}:{problem.line}"
    return ": ".join(part for part in (where, problem.key, problem.message) if part)


@dataclass(frozen=True)
class PathSettings:
    include: tuple[str, ...]
    exclude: tuple[str, ...]
    generated: Literal["exclude", "include"]

    @property
    def include_generated(self) -> bool:
        return self.generated == "include"


@dataclass(frozen=True)
class DecisionSettings:
    folder: str
    require_default_branch: bool
    allow_proposed: bool
    drift_tolerance: float = 0.25  # share over a recorded estimate before drift is flagged
    drift_enforcement: Literal["warn", "fail"] = "warn"


@dataclass(frozen=True)
class DashboardSettings:
    enabled: bool = True
    title: str = "Lock-in dashboard"
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class RecountSettings:
    allow: frozenset[str]  # "write", "maintain", "admin", "triage", "author"


@dataclass(frozen=True)
class CensusSettings:
    max_archive_mb: int

    @property
    def max_archive_bytes(self) -> int:
        return self.max_archive_mb * 1024 * 1024


#: The default effort model: code lines one engineer moves in a week, per kind of work.
DEFAULT_LINES_PER_WEEK: dict[str, float] = {
    "port": 2000,
    "review": 500,
    "rewrite": 100,
    "map": 500,
    "edit": 1000,
}


@dataclass(frozen=True)
class PlanSettings:
    # Left out of the hash (a dict is not hashable; a Policy is, and keys the recounts): the
    # effort model changes estimates, never what is counted.
    lines_per_engineer_week: Mapping[str, float] = field(
        default_factory=lambda: dict(DEFAULT_LINES_PER_WEEK), hash=False
    )


@dataclass(frozen=True)
class RatchetSettings:
    """The repository-level ratchet (bot/policy/ratchet.py); at least one is set."""

    lines: int | None  # growth allowed, in lines
    percent: float | None  # growth allowed, in percent of the base's figure


@dataclass(frozen=True)
class Policy:
    layers: tuple[Layer, ...]  # layers whose added lines need a decision
    allowance: int  # gated lines a PR may add without one
    # fail; report-only (or its older name, neutral): neutral instead of failure.
    enforcement: Literal["fail", "report-only", "neutral"]
    paths: PathSettings
    comment: Literal["on-gated", "on-change", "always", "never"]
    check_name: str
    decisions: DecisionSettings
    recount: RecountSettings
    census: CensusSettings
    dashboard: DashboardSettings = DashboardSettings()
    ignore_markers: Literal["allowed", "not-allowed"] = "allowed"
    annotations: Literal["warning", "failure", "notice", "off"] = "warning"
    plan: PlanSettings = PlanSettings()
    #: growth: lines count net of those removed, per file and ecosystem; strict: every one.
    gate: Literal["growth", "strict"] = "growth"
    ratchet: RatchetSettings | None = None  # set: the repository's figure gates, not files

    @property
    def report_only(self) -> bool:
        """A failing gate concludes neutral: reported, never blocking."""
        return self.enforcement != "fail"

    @property
    def markers_allowed(self) -> bool:
        """Whether inline ``lockin: ignore[...]`` markers take lines out of their layer."""
        return self.ignore_markers == "allowed"

    def path_filter(self, *, submodules: Iterable[str] = ()) -> PathFilter:
        """The engine's filter: vendored trees and submodules out, then these patterns."""
        return PathFilter.build(self.paths.include, self.paths.exclude, submodules=submodules)


def load_policy(text: str | bytes, source: str = ".github/lockin.yml") -> Policy:
    """Parse and validate a configuration file; raises PolicyError naming line and key."""
    if len(text) > MAX_CONFIG_BYTES:
        raise PolicyError.at(source, None, f"larger than {MAX_CONFIG_BYTES} bytes")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise PolicyError.at(source, None, f"not UTF-8 text ({e.reason})") from None
    # Late: PyYAML is about 15 ms of a scan's start-up, and a tree without a configuration
    # file needs none of it; config_yaml imports this module back.
    from bot.policy import config_yaml

    root, data = config_yaml.parse(text, source)
    if data is None:  # empty file, comments only, or an explicit null
        data = {}
    # Every key is optional, so an empty mapping is valid without asking the validator.
    errors = _validator().iter_errors(data) if data != {} else ()
    problems = [p for error in errors for p in config_yaml.schema_problems(root, error)]
    problems += config_yaml.pattern_problems(root, data)
    if problems:
        raise PolicyError(source, problems)
    return _policy(_with_defaults(SCHEMA, data))


def _with_defaults(schema: dict[str, Any], data: Any) -> Any:
    if schema.get("type") != "object" or not isinstance(data, dict):
        return data
    filled = dict(data)
    for name, sub in schema.get("properties", {}).items():
        if name not in filled and "default" in sub:
            filled[name] = copy.deepcopy(sub["default"])
        if name in filled:
            filled[name] = _with_defaults(sub, filled[name])
    return filled


def _policy(values: dict[str, Any]) -> Policy:
    decisions = values["decisions"]
    return Policy(
        layers=tuple(Layer(layer) for layer in values["layers"]),
        allowance=int(values["allowance"]),
        enforcement=values["enforcement"],
        paths=PathSettings(
            include=tuple(values["paths"]["include"]),
            exclude=tuple(values["paths"]["exclude"]),
            generated=values["paths"]["generated"],
        ),
        comment=values["comment"],
        check_name=values["check_name"].strip(),
        decisions=DecisionSettings(
            folder=repo_path(decisions["folder"]).rstrip("/"),
            require_default_branch=decisions["require_default_branch"],
            allow_proposed=decisions["allow_proposed"],
            drift_tolerance=float(decisions["drift_tolerance"]),
            drift_enforcement=decisions["drift_enforcement"],
        ),
        recount=RecountSettings(frozenset(values["recount"]["allow"])),
        census=CensusSettings(int(values["census"]["max_archive_mb"])),
        dashboard=DashboardSettings(
            enabled=values["dashboard"]["enabled"],
            title=values["dashboard"]["title"].strip() or "Lock-in dashboard",
            labels=tuple(values["dashboard"]["labels"]),
        ),
        ignore_markers=values["ignore_markers"],
        annotations=values["annotations"],
        plan=PlanSettings(
            {k: float(v) for k, v in values["plan"]["lines_per_engineer_week"].items()}
        ),
        gate=values["gate"],
        ratchet=_ratchet(values.get("ratchet")),
    )


def _ratchet(values: dict[str, Any] | None) -> RatchetSettings | None:
    lines, percent = (values or {}).get("lines"), (values or {}).get("percent")
    if lines is None and percent is None:
        return None
    return RatchetSettings(
        int(lines) if lines is not None else None,
        float(percent) if percent is not None else None,
    )


#: The empty file: every key at its schema default (what ``load_policy("")`` returns).
DEFAULT_POLICY: Policy = _policy(_with_defaults(SCHEMA, {}))


#: pyproject.toml holds a whole project's metadata; the `[tool.lockin]` table is a small part.
MAX_PYPROJECT_BYTES = 1024 * 1024


def load_pyproject_policy(text: bytes, source: str = "pyproject.toml") -> Policy | None:
    """The ``[tool.lockin]`` table of a pyproject.toml, validated as `.github/lockin.yml`
    is (same keys, same schema); None when the file has no such table."""
    import tomllib

    if len(text) > MAX_PYPROJECT_BYTES:
        raise PolicyError.at(source, None, f"larger than {MAX_PYPROJECT_BYTES} bytes")
    try:
        document = tomllib.loads(text.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        # A project's own file left broken (a merge's conflict markers in its dependency
        # list, alexisiddiqui/JAX-ENT, issue 27 lane h55-random-q) holds no [tool.lockin]
        # table when it never names us: the census goes on at the defaults, as it does for
        # a pyproject.toml without the table. One that names lockin is an error to show.
        if b"lockin" not in text:
            return None
        why = (
            f"not UTF-8 text ({e.reason})"
            if isinstance(e, UnicodeDecodeError)
            else f"invalid TOML: {e}"
        )
        raise PolicyError.at(source, None, why) from None
    tool = document.get("tool")
    table = tool.get("lockin") if isinstance(tool, dict) else None
    if table is None:
        return None
    label = f"{source} [tool.lockin]"
    if not isinstance(table, dict):
        raise PolicyError.at(label, None, "expected a table")
    try:
        # JSON is YAML: one validation path for both files. Its line numbers are the JSON
        # text's, not the TOML's, so they are dropped; the key names the place.
        return load_policy(json.dumps(table, default=str), label)
    except PolicyError as exc:
        raise PolicyError(label, [Problem(None, p.key, p.message) for p in exc.problems]) from None
