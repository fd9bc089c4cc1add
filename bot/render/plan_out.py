"""``lockin plan`` output: the ``lockin.plan/1`` document (the register, the kernel
inventory and the migration plan per target) and its text and Markdown renderings, all
made from the document so every format, and the dashboard issue, shows the same figures.

The document is described by ``plan.schema.json`` beside this module; within a version
fields are only ever added. Every value taken from the repository (paths, titles, owners,
kernel names) is shown in Markdown through ``markdown.code``, so it cannot inject Markdown,
HTML or @-mentions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.policy.plan import TargetPlan
from bot.policy.register import Register
from bot.render import markdown
from bot.render.markdown import code, table

PLAN_SCHEMA = "lockin.plan/1"
#: Rows per table in Markdown: the dashboard must stay under GitHub's issue body limit.
MARKDOWN_ROWS = 25


def plan_document(register: Register, plans: Sequence[TargetPlan], *, root: str) -> dict[str, Any]:
    """The ``lockin.plan/1`` document."""
    return {
        "schema": PLAN_SCHEMA,
        "root": root,
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
            }
            for k in register.kernels
        ],
        "plans": [_plan(p) for p in plans],
    }


def _plan(plan: TargetPlan) -> dict[str, Any]:
    return {
        "target": plan.target,
        "vendor": plan.vendor,
        "tool": plan.tool,
        "rewrite": plan.total("rewrite"),
        "map": plan.total("map"),
        "edit": plan.total("edit"),
        "mechanical": plan.total("mechanical"),
        "mechanical_share": round(plan.mechanical_share, 4),
        "total": plan.total("total"),
        "estimated": plan.estimated,
        "groups": [
            {
                "name": g.name,
                "kind": g.kind,
                "rewrite": g.rewrite,
                "map": g.map,
                "edit": g.edit,
                "mechanical": g.mechanical,
                "kernels": g.kernels,
                "estimate_lines": g.estimate,
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


def kernels_markdown(document: Mapping[str, Any], rows: int = MARKDOWN_ROWS) -> str:
    kernels = sorted(document["kernels"], key=lambda k: -k["code_lines"])
    body = table(
        ["Kernel", "Where", "Code lines", "Ecosystem", "Runs on", "Helpers", "Decision"],
        [
            [
                code(k["name"]) + (f" ×{k['appearances']}" if k["appearances"] > 1 else ""),
                code(f"{k['path']}:{k['start_line']}-{k['end_line']}"),
                f"{k['code_lines']:,}",
                code(k["ecosystem"]),
                ", ".join(k["vendors"]),
                ", ".join(code(h) for h in k["helpers"]) or "—",
                _opt(k["decision"]),
            ]
            for k in kernels[:rows]
        ],
        "llrllll",
    )
    if not body:
        return "No hand-written kernel found."
    return f"{len(kernels):,} hand-written kernels.\n\n{body}" + markdown.more(
        min(rows, len(kernels)), len(kernels)
    )


def plans_markdown(document: Mapping[str, Any], rows: int = MARKDOWN_ROWS) -> str:
    summary = table(
        [
            "Target",
            "Rewrite (kernels)",
            "Map (libraries)",
            "Edit (vendor paths)",
            "Total",
            "Recorded estimates",
        ],
        [
            [
                p["target"],
                f"{p['rewrite']:,}",
                f"{p['map']:,}",
                f"{p['edit']:,}"
                + (f" ({_pct(p['mechanical_share'])} by {p['tool']})" if p["tool"] else ""),
                f"{p['total']:,}",
                f"{p['estimated']:,}",
            ]
            for p in document["plans"]
        ],
        "lrrrrr",
    )
    blocks = [summary]
    for p in document["plans"]:
        groups = p["groups"]
        detail = table(
            ["Decision or uncovered area", "Rewrite", "Map", "Edit", "Kernels", "Libraries"],
            [
                [
                    code(g["name"]) + ("" if g["kind"] == "decision" else " (uncovered)"),
                    f"{g['rewrite']:,}",
                    f"{g['map']:,}",
                    f"{g['edit']:,}",
                    f"{g['kernels']:,}",
                    "; ".join(
                        f"{code(m['library'])} → {code(m['counterpart'])}" for m in g["libraries"]
                    )
                    or "—",
                ]
                for g in groups[:rows]
            ],
            "lrrrrl",
        )
        if detail:
            blocks.append(
                markdown.details(
                    f"{p['target']}: per decision and area",
                    detail + markdown.more(min(rows, len(groups)), len(groups)),
                )
            )
    return "\n\n".join(blocks)


def plan_markdown(document: Mapping[str, Any]) -> str:
    return (
        "\n\n".join(
            [
                f"# Lock-in register and migration plan: {code(document['root'])}",
                "## Register",
                register_markdown(document),
                "## Uncovered areas",
                uncovered_markdown(document),
                "## Kernel inventory",
                kernels_markdown(document),
                "## Migration plan",
                plans_markdown(document),
            ]
        )
        + "\n"
    )


# -- text ------------------------------------------------------------------------


def plan_text(document: Mapping[str, Any], rows: int = 15) -> str:
    reg = document["register"]
    out = [
        f"lockin plan: {document['root']}",
        "",
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
    out += ["", "Uncovered areas (gated lines, suggested owner):"]
    out += [
        f"  {a['lines']:>8,}  {_dir(a['directory'])}  {', '.join(a['owners']) or '-'}"
        for a in reg["uncovered"][:rows]
    ] or ["  (none)"]
    kernels = sorted(document["kernels"], key=lambda k: -k["code_lines"])
    out += ["", f"Kernels ({len(kernels):,}, largest first):"]
    out += [
        f"  {k['code_lines']:>6,}  {k['name']}  {k['path']}:{k['start_line']}-{k['end_line']}  "
        f"{k['ecosystem']}  [{','.join(k['vendors'])}]  {k['decision'] or 'uncovered'}"
        for k in kernels[:rows]
    ]
    out += [
        "",
        "Migration plan (lines):",
        "  target   rewrite      map     edit  mechanical    total  estimated",
    ]
    for p in document["plans"]:
        out.append(
            f"  {p['target']:<6} {p['rewrite']:>9,} {p['map']:>8,} {p['edit']:>8,} "
            f"{_pct(p['mechanical_share']):>11} {p['total']:>8,} {p['estimated']:>10,}"
        )
    if reg["problems"]:
        out += ["", "Problems:"] + [f"  {p}" for p in reg["problems"]]
    return "\n".join(out) + "\n"
