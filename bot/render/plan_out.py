"""``lockin plan`` output: the ``lockin.plan/2`` document (the register, the kernel
inventory with each kernel's effort per target, and the migration plan per target) and its
text and Markdown renderings, all made from the document so every format, and the dashboard
issue, shows the same figures, in the same target and grade order, and says how many rows a
truncated table leaves out.

The document is described by ``plan.schema.json`` beside this module; within a version
fields are only ever added. Version 2: kernel lines split into ``port``, ``review`` and
``rewrite`` (version 1's ``rewrite`` was all kernel lines), engineer-weeks, the headline, and
the target ``google`` (version 1's ``tpu``). Every value taken from the repository (paths,
titles, owners, kernel names) is shown in Markdown through ``markdown.code``, so it cannot
inject Markdown, HTML or @-mentions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.effort import GRADES, sources
from bot.policy.config import DEFAULT_LINES_PER_WEEK
from bot.policy.overview import Overview
from bot.policy.plan import WORK_KINDS, TargetPlan
from bot.policy.register import Register
from bot.render import markdown
from bot.render.markdown import code, table

PLAN_SCHEMA = "lockin.plan/2"
#: Rows per table in Markdown: the dashboard must stay under GitHub's issue body limit.
MARKDOWN_ROWS = 25


def overview_document(overview: Overview, *, root: str) -> dict[str, Any]:
    """The ``lockin.plan`` document of a tree's overview (bot/policy/overview.py)."""
    return plan_document(
        overview.register, overview.plans, root=root, locked=overview.locked, rates=overview.rates
    )


def plan_document(
    register: Register,
    plans: Sequence[TargetPlan],
    *,
    root: str,
    locked: int | None = None,
    rates: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """The ``lockin.plan/2`` document. ``locked``: the census's lines that could not move off
    NVIDIA tomorrow (the headline); ``rates``: the effort model in use."""
    model = dict(DEFAULT_LINES_PER_WEEK) | dict(rates or {})
    return {
        "schema": PLAN_SCHEMA,
        "root": root,
        "headline": {
            "locked_to_nvidia": locked,
            "mechanical": [
                {"target": p.target, "tool": p.tool, "lines": p.mechanical_lines}
                for p in plans
                if p.tool
            ],
        },
        "effort_model": {
            "lines_per_engineer_week": {k: model[k] for k in WORK_KINDS},
            "grades": [g.value for g in GRADES],
            "tables": list(sources()),
        },
        "register": {
            "gated_lines": register.gated_lines,
            "covered_lines": register.covered_lines,
            "coverage": round(register.coverage, 4),
            "drift_tolerance": register.tolerance,
            "decisions": [
                {
                    "ref": d.ref,
                    "title": d.title,
                    "status": d.status,
                    "owner": d.owner,
                    "compute_api": d.compute_api,
                    "scope": list(d.scope) if d.scope is not None else None,
                    "estimate_lines": d.estimate,
                    "migration_cost": d.estimate_text,
                    "lines": d.lines,
                    "files": d.files,
                    "kernels": d.kernels,
                    "layers": d.layers,
                    "ecosystems": d.ecosystems,
                    "drift": round(d.drift, 4) if d.drift is not None else None,
                    "drifted": d.drifted,
                    "problems": d.problems,
                }
                for d in register.decisions
            ],
            "retired_with_code": [d.ref for d in register.retired_with_code],
            "frameworks": [
                {
                    "name": f.name,
                    "title": f.title,
                    "seen_in": list(f.seen_in),
                    "record": f.record,
                    "owner": f.owner,
                }
                for f in register.frameworks
            ],
            "uncovered": [
                {
                    "directory": a.directory,
                    "lines": a.lines,
                    "files": a.files,
                    "layers": dict(a.layers),
                    "owners": list(a.owners),
                }
                for a in register.uncovered
            ],
            "overlaps": [
                {
                    "decisions": list(o.decisions),
                    "winner": o.winner,
                    "reason": o.reason,
                    "files": o.files,
                    "example": o.example,
                }
                for o in register.overlaps
            ],
            "problems": register.problems,
        },
        "kernels": [
            {
                "name": k.name,
                "path": k.path,
                "start_line": k.start_line,
                "end_line": k.end_line,
                "code_lines": k.code_lines,
                "ecosystem": k.ecosystem,
                "vendors": list(k.vendors),
                "appearances": k.appearances,
                "helpers": k.helpers,
                "decision": k.decision,
                "targets": {
                    target: {
                        "effort": effort.grade.value,
                        "reasons": [
                            {"what": r.what, "line": r.line, "why": r.why} for r in effort.reasons
                        ],
                    }
                    for target, effort in k.targets.items()
                },
            }
            for k in register.kernels
        ],
        "plans": [_plan(p) for p in plans],
    }


def _weeks(value: float | None) -> float | None:
    return round(value, 3) if value is not None else None


def _plan(plan: TargetPlan) -> dict[str, Any]:
    return {
        "target": plan.target,
        "vendor": plan.vendor,
        "tool": plan.tool,
        "kernel": plan.total("kernel"),
        "port": plan.total("port"),
        "review": plan.total("review"),
        "rewrite": plan.total("rewrite"),
        "map": plan.total("map"),
        "edit": plan.total("edit"),
        "mechanical": plan.total("mechanical"),
        "mechanical_share": round(plan.mechanical_share, 4),
        "total": plan.total("total"),
        "estimated": plan.estimated,
        "engineer_weeks": {
            "recorded": _weeks(plan.recorded_weeks),
            "estimated": _weeks(plan.model_weeks),
        },
        "groups": [
            {
                "name": g.name,
                "kind": g.kind,
                "total": g.total,
                "port": g.port,
                "review": g.review,
                "rewrite": g.rewrite,
                "map": g.map,
                "edit": g.edit,
                "mechanical": g.mechanical,
                "kernels": g.kernels,
                "estimate_lines": g.estimate,
                "engineer_weeks": {
                    "recorded": _weeks(g.recorded_weeks),
                    "estimated": None
                    if g.recorded_weeks is not None
                    else _weeks(g.model_weeks(plan.rates)),
                },
                "libraries": [
                    {
                        "rule": m.rule,
                        "library": m.library,
                        "counterpart": m.counterpart,
                        "lines": m.lines,
                    }
                    for m in g.libraries.values()
                ],
            }
            for g in plan.groups
        ],
    }


# -- Markdown -------------------------------------------------------------------


def _dir(directory: str) -> str:
    return "(root)" if directory == "." else directory + "/"


def _pct(share: float) -> str:
    return f"{share * 100:.0f}%"


def _opt(value: Any) -> str:
    return code(str(value)) if value not in (None, "") else "—"


def _drift(d: Mapping[str, Any]) -> str:
    if d["estimate_lines"] is None:
        return "no estimate in lines"
    if d["drift"] is None:
        return f"{d['lines']:,} vs 0 estimated" + (" ⚠️" if d["drifted"] else "")
    mark = " ⚠️ past tolerance" if d["drifted"] else ""
    return f"{d['drift'] * 100:+.0f}% ({d['lines']:,} vs {d['estimate_lines']:,}){mark}"


def _counts(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{code(k)} {n:,}" for k, n in sorted(counts.items(), key=lambda i: -i[1]))


def register_markdown(document: Mapping[str, Any], rows: int = MARKDOWN_ROWS) -> str:
    reg = document["register"]
    decisions = reg["decisions"]
    blocks = [
        f"**Decision coverage:** {_pct(reg['coverage'])} of {reg['gated_lines']:,} gated "
        f"non-portable lines are covered by an accepted decision with an owner "
        f"(drift flagged past {_pct(reg['drift_tolerance'])} over the estimate).",
        table(
            ["Decision", "Status", "Owner", "Compute API", "Scope", "Lines in scope", "Drift"],
            [
                [
                    code(d["ref"]),
                    _opt(d["status"]),
                    _opt(d["owner"]),
                    _opt(d["compute_api"]),
                    ", ".join(code(p) for p in d["scope"] or []) or "—",
                    f"{d['lines']:,} ({_counts(d['layers']) or 'none'})",
                    _drift(d),
                ]
                for d in decisions[:rows]
            ],
            "lllllrl",
        )
        or "No compute-API decision is recorded.",
        markdown.more(min(rows, len(decisions)), len(decisions)) if decisions else "",
    ]
    frameworks = reg["frameworks"]
    if frameworks:
        blocks.append(
            "**Framework choices:** "
            + "; ".join(
                f"{code(f['title'])}: recorded in {code(f['record'])} (owner {_opt(f['owner'])})"
                if f["record"]
                else f"{code(f['title'])}: **not recorded** (seen in {code(f['seen_in'][0])})"
                for f in frameworks
            )
        )
    if reg["retired_with_code"]:
        blocks.append(
            "**No longer in force but still holding code:** "
            + ", ".join(code(ref) for ref in reg["retired_with_code"])
        )
    for overlap in reg["overlaps"]:
        blocks.append(
            f"**Overlapping scopes** ({overlap['files']:,} files, "
            f"e.g. {code(overlap['example'])}): "
            f"{', '.join(code(r) for r in overlap['decisions'])}; {code(overlap['winner'])} "
            f"wins because {overlap['reason']}."
        )
    problems = [f"{code(d['ref'])}: {code(p)}" for d in decisions for p in d["problems"]]
    problems += [code(p) for p in reg["problems"]]
    if problems:
        blocks.append(
            "**Problems:**\n\n"
            + "\n".join(f"- {p}" for p in problems[:rows])
            + markdown.more(min(rows, len(problems)), len(problems))
        )
    return "\n\n".join(b for b in blocks if b)


def uncovered_markdown(document: Mapping[str, Any], rows: int = MARKDOWN_ROWS) -> str:
    areas = document["register"]["uncovered"]
    return (
        table(
            ["Directory", "Gated lines", "Files", "Suggested owner (CODEOWNERS)"],
            [
                [
                    code(_dir(a["directory"])),
                    f"{a['lines']:,}",
                    f"{a['files']:,}",
                    ", ".join(code(o) for o in a["owners"]) or "—",
                ]
                for a in areas[:rows]
            ],
            "lrrl",
        )
        or "Every gated non-portable line is covered by an accepted decision."
    )


def _weeks_text(value: float | None, *, model: bool = False) -> str:
    if value is None:
        return "none"
    if model:
        if not value:
            return "0"
        return "<0.1" if value < 0.05 else f"~{value:,.1f}"
    return f"{value:,g}"


def _reasons_text(kernel: Mapping[str, Any], limit: int = 3) -> list[str]:
    """The first reasons of each target whose grade is review or rewrite, with a translator
    (a target without one is a rewrite for one reason: no translator)."""
    out = []
    for target, effort in kernel.get("targets", {}).items():
        if effort["effort"] not in ("review", "rewrite"):
            continue
        shown = [f"{r['what']} (line {r['line']})" for r in effort["reasons"][:limit]]
        extra = len(effort["reasons"]) - len(shown)
        out.append(
            f"{target} {effort['effort']}: {', '.join(shown)}" + (f" +{extra}" if extra > 0 else "")
        )
    return out


def headline_text(document: Mapping[str, Any]) -> str | None:
    """The seed's figure with the split beside it: what a translator converts mechanically."""
    head = document.get("headline") or {}
    locked = head.get("locked_to_nvidia")
    if locked is None:
        return None
    split = ", ".join(
        f"{m['lines']:,} lines to {_TARGET_TITLES.get(m['target'], m['target'])} ({m['tool']})"
        for m in head.get("mechanical", [])
    )
    text = (
        f"{locked:,} lines could not move off NVIDIA tomorrow (kernel and vendor-path code "
        f"that runs on NVIDIA alone)"
    )
    return f"{text}; of which translate mechanically: {split}." if split else f"{text}."


_TARGET_TITLES = {"amd": "AMD", "intel": "Intel", "apple": "Apple", "google": "Google TPU"}


def kernels_markdown(document: Mapping[str, Any], rows: int = MARKDOWN_ROWS) -> str:
    kernels = sorted(document["kernels"], key=lambda k: -k["code_lines"])
    targets = [p["target"] for p in document["plans"]]
    body = table(
        ["Kernel", "Where", "Code lines", "Ecosystem", "Runs on", *targets, "Why", "Decision"],
        [
            [
                code(k["name"]) + (f" ×{k['appearances']}" if k["appearances"] > 1 else ""),
                code(f"{k['path']}:{k['start_line']}-{k['end_line']}"),
                f"{k['code_lines']:,}",
                code(k["ecosystem"]),
                ", ".join(k["vendors"]),
                *(k["targets"][t]["effort"] if t in k.get("targets", {}) else "—" for t in targets),
                "<br>".join(code(r) for r in _reasons_text(k)) or "—",
                _opt(k["decision"]),
            ]
            for k in kernels[:rows]
        ],
        "llrll" + "l" * len(targets) + "ll",
    )
    if not body:
        return "No hand-written kernel found."
    return (
        f"{len(kernels):,} hand-written kernels; effort per target: `none` (runs there), "
        "`port` (the translator converts it), `review` (converts, with a trap to check), "
        f"`rewrite` (no counterpart).\n\n{body}"
        + markdown.more(min(rows, len(kernels)), len(kernels))
    )


def plans_markdown(document: Mapping[str, Any], rows: int = MARKDOWN_ROWS) -> str:
    model = document.get("effort_model", {}).get("lines_per_engineer_week", {})
    summary = table(
        [
            "Target",
            "Port (translator)",
            "Review",
            "Rewrite",
            "Map (libraries)",
            "Edit (vendor paths)",
            "Total",
            "Engineer-weeks recorded",
            "Engineer-weeks estimated (model)",
        ],
        [
            [
                p["target"] + (f" ({p['tool']})" if p["tool"] else ""),
                f"{p['port']:,}",
                f"{p['review']:,}",
                f"{p['rewrite']:,}",
                f"{p['map']:,}",
                f"{p['edit']:,}"
                + (f" ({_pct(p['mechanical_share'])} by {p['tool']})" if p["tool"] else ""),
                f"{p['total']:,}",
                _weeks_text(p["engineer_weeks"]["recorded"]),
                _weeks_text(p["engineer_weeks"]["estimated"], model=True),
            ]
            for p in document["plans"]
        ],
        "lrrrrrrrr",
    )
    blocks = [summary]
    if model:
        blocks.append(
            "Engineer-weeks: *recorded* sums the decisions' `migration_cost.engineer_weeks` "
            "under the target each names; *estimated* prices the areas nobody recorded with "
            "the effort model (lines per engineer-week: "
            + ", ".join(f"{k} {v:,g}" for k, v in model.items())
            + "; `plan.lines_per_engineer_week` in `lockin.yml`)."
        )
    for p in document["plans"]:
        groups = p["groups"]
        detail = table(
            [
                "Decision or uncovered area",
                "Port",
                "Review",
                "Rewrite",
                "Map",
                "Edit",
                "Kernels",
                "Engineer-weeks",
                "Libraries",
            ],
            [
                [
                    code(g["name"]) + ("" if g["kind"] == "decision" else " (uncovered)"),
                    f"{g['port']:,}",
                    f"{g['review']:,}",
                    f"{g['rewrite']:,}",
                    f"{g['map']:,}",
                    f"{g['edit']:,}",
                    f"{g['kernels']:,}",
                    _group_weeks(g),
                    "; ".join(
                        f"{code(m['library'])} → {code(m['counterpart'])}" for m in g["libraries"]
                    )
                    or "—",
                ]
                for g in groups[:rows]
            ],
            "lrrrrrrrl",
        )
        if detail:
            blocks.append(
                markdown.details(
                    f"{p['target']}: per decision and area",
                    detail + markdown.more(min(rows, len(groups)), len(groups)),
                )
            )
    return "\n\n".join(blocks)


def _group_weeks(group: Mapping[str, Any]) -> str:
    weeks = group["engineer_weeks"]
    if weeks["recorded"] is not None:
        return f"{_weeks_text(weeks['recorded'])} (recorded)"
    return f"{_weeks_text(weeks['estimated'], model=True)} (model)"


def plan_markdown(document: Mapping[str, Any]) -> str:
    return (
        "\n\n".join(
            block
            for block in [
                f"# Lock-in register and migration plan: {code(document['root'])}",
                f"**{headline_text(document)}**" if headline_text(document) else "",
                "## Register",
                register_markdown(document),
                "## Uncovered areas",
                uncovered_markdown(document),
                "## Kernel inventory",
                kernels_markdown(document),
                "## Migration plan",
                plans_markdown(document),
            ]
            if block
        )
        + "\n"
    )


# -- text ------------------------------------------------------------------------


def _left(shown: int, total: int, what: str) -> list[str]:
    """The line that says how many rows a truncated list leaves out."""
    if total <= shown:
        return []
    return [f"  … and {total - shown:,} more {what} (--format json lists them all)"]


def plan_text(document: Mapping[str, Any], rows: int = 15) -> str:
    reg = document["register"]
    out = [f"lockin plan: {document['root']}", ""]
    if head := headline_text(document):
        out += [head, ""]
    out += [
        f"Decision coverage: {_pct(reg['coverage'])} of {reg['gated_lines']:,} gated "
        f"non-portable lines ({reg['covered_lines']:,} covered)",
        "",
        "Decisions:",
    ]
    for d in reg["decisions"]:
        out.append(
            f"  {d['ref']}  [{d['status'] or '?'}]  owner {d['owner'] or '-'}  "
            f"api {d['compute_api'] or '-'}"
        )
        out.append(
            f"    scope {', '.join(d['scope'] or []) or '-'}; {d['lines']:,} gated lines "
            f"in {d['files']:,} files, {d['kernels']:,} kernels; drift: {_drift(d)}"
        )
        if d["migration_cost"]:
            out.append(f"    migration cost: {d['migration_cost']}")
        out += [f"    ! {p}" for p in d["problems"]]
    if not reg["decisions"]:
        out.append("  (none recorded)")
    out += ["", "Framework choices:"]
    out += [
        f"  {f['title']}: " + (f"recorded in {f['record']}" if f["record"] else "NOT recorded")
        for f in reg["frameworks"]
    ] or ["  (no framework detected)"]
    if reg["retired_with_code"]:
        out += ["", "Retired decisions still holding code: " + ", ".join(reg["retired_with_code"])]
    for o in reg["overlaps"]:
        out += [
            "",
            f"Overlap: {', '.join(o['decisions'])} ({o['files']} files): "
            f"{o['winner']} wins because {o['reason']}",
        ]
    areas = reg["uncovered"]
    out += ["", "Uncovered areas (gated lines, suggested owner):"]
    out += [
        f"  {a['lines']:>8,}  {_dir(a['directory'])}  {', '.join(a['owners']) or '-'}"
        for a in areas[:rows]
    ] or ["  (none)"]
    out += _left(min(rows, len(areas)), len(areas), "areas")
    kernels = sorted(document["kernels"], key=lambda k: -k["code_lines"])
    targets = [p["target"] for p in document["plans"]]
    out += [
        "",
        f"Kernels ({len(kernels):,}, largest first; effort for {', '.join(targets)}):",
    ]
    for k in kernels[:rows]:
        efforts = "/".join(k["targets"][t]["effort"] for t in targets if t in k["targets"])
        out.append(
            f"  {k['code_lines']:>6,}  {k['name']}  {k['path']}:{k['start_line']}-"
            f"{k['end_line']}  {k['ecosystem']}  [{','.join(k['vendors'])}]  "
            f"{k['decision'] or 'uncovered'}  {efforts}"
        )
        out += [f"          {reason}" for reason in _reasons_text(k)]
    out += _left(min(rows, len(kernels)), len(kernels), "kernels")
    out += [
        "",
        "Migration plan (lines; engineer-weeks: recorded by owners | estimated by the model):",
        "  target       port   review  rewrite      map     edit  mechanical    total"
        "  recorded  estimated",
    ]
    for p in document["plans"]:
        weeks = p["engineer_weeks"]
        out.append(
            f"  {p['target']:<7} {p['port']:>9,} {p['review']:>8,} {p['rewrite']:>8,} "
            f"{p['map']:>8,} {p['edit']:>8,} {_pct(p['mechanical_share']):>11} "
            f"{p['total']:>8,} {_weeks_text(weeks['recorded']):>9} "
            f"{_weeks_text(weeks['estimated'], model=True):>10}"
        )
    model = document.get("effort_model", {}).get("lines_per_engineer_week", {})
    if model:
        out.append(
            "  model: lines per engineer-week "
            + ", ".join(f"{k} {v:,g}" for k, v in model.items())
            + " (plan.lines_per_engineer_week in lockin.yml)"
        )
    for p in document["plans"]:
        groups = [g for g in p["groups"] if g["total"] or g["engineer_weeks"]["recorded"]]
        out += ["", f"{p['target']}" + (f" ({p['tool']})" if p["tool"] else "") + ":"]
        for g in groups[:rows]:
            name = g["name"] + ("" if g["kind"] == "decision" else " (uncovered)")
            out.append(
                f"  {name}: port {g['port']:,}, review {g['review']:,}, rewrite "
                f"{g['rewrite']:,}, map {g['map']:,}, edit {g['edit']:,}; {_group_weeks(g)}"
            )
            out += [
                f"    {m['library']} -> {m['counterpart']} ({m['lines']:,} lines)"
                for m in g["libraries"]
            ]
        out += _left(min(rows, len(groups)), len(groups), "areas")
        if not groups:
            out.append("  nothing to move")
    if reg["problems"]:
        out += ["", "Problems:"] + [f"  {p}" for p in reg["problems"]]
    return "\n".join(out) + "\n"
