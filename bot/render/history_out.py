"""``lockin history`` output: the ``lockin.history/1`` document and its text, CSV and
Markdown renderings, all made from the document so every format shows the same figures.

The document is described by ``history.schema.json`` beside this module; within a
version fields are only ever added.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.model import LAYERS, NON_PORTABLE, TARGETS
from bot.engine.trend import History, growth_per_month
from bot.render import markdown, text
from bot.render.wording import percent, signed

HISTORY_SCHEMA = "lockin.history/1"
#: Top-level figures whose growth per month the document reports, and their names.
GROWTH = {
    "code_lines": "code lines",
    "non_portable_lines": "non-portable lines",
    "nvidia_locked_lines": "NVIDIA-only lines",
}
_SHORT = 10  # characters of a commit id in tables


def history_document(
    history: History, *, repository: str, revision: str, every: str
) -> dict[str, Any]:
    """The ``lockin.history/1`` document of a walked history."""
    return {
        "schema": HISTORY_SCHEMA,
        "repository": repository,
        "revision": revision,
        "every": every,
        "shallow_boundary": history.shallow_boundary,
        "commits_walked": history.commits,
        "points": history.points,
        "growth_per_month": {f: growth_per_month(history.points, f) for f in GROWTH},
        "movers": history.movers,
        "entered": history.entered,
    }


def _pr(entry: Mapping[str, Any]) -> str:
    return f"#{entry['pr']}" if entry.get("pr") else ""


def _day(entry: Mapping[str, Any]) -> str:
    return str(entry["date"])[:10]


def _point_row(point: Mapping[str, Any]) -> list[str]:
    head = [_day(point), point["commit"][:_SHORT]]
    if point["gap"]:
        return [*head, f"gap: {point['gap']}", "", "", "", "", "", ""]
    layers = point["layers"]
    code = point["code_lines"]
    return [
        *head,
        f"{code:,}",
        *(f"{layers[layer.value]:,}" for layer in NON_PORTABLE),
        f"{point['nvidia_locked_lines']:,}",
        percent(point["nvidia_locked_lines"], code),
        ", ".join(f"{_pr(m) or m['commit'][:_SHORT]} {_net(m)}" for m in point["moved_by"]),
    ]


def _net(move: Mapping[str, Any]) -> str:
    added, removed = move["added"], move["removed"]
    return f"+{added:,}/-{removed:,}" if added and removed else signed(added - removed)


_POINT_HEADERS = [
    "date",
    "commit",
    "code lines",
    *(layer.value for layer in NON_PORTABLE),
    "NVIDIA-only",
    "share",
    "moved by",
]


def _mover_rows(document: Mapping[str, Any]) -> list[list[str]]:
    return [
        [
            _day(m),
            m["commit"][:_SHORT],
            _pr(m),
            f"+{m['added']:,}",
            f"-{m['removed']:,}",
            m["subject"][:60],
        ]
        for m in document["movers"]
    ]


_MOVER_HEADERS = ["date", "commit", "PR", "added", "removed", "subject"]


def _entered_rows(document: Mapping[str, Any]) -> list[list[str]]:
    return [
        [
            e["ecosystem"],
            f"before {_day(e)}" if e["at_start"] else _day(e),
            e["commit"][:_SHORT],
            "" if e["at_start"] else _pr(e),
            "(present at the first point)" if e["at_start"] else e["subject"][:60],
        ]
        for e in document["entered"]
    ]


_ENTERED_HEADERS = ["ecosystem", "entered", "commit", "PR", "subject"]


def _growth(document: Mapping[str, Any]) -> str:
    rates = document["growth_per_month"]
    if rates["non_portable_lines"] is None:
        return "Growth per month: not enough time between the first and the last point."
    return "Growth per month: " + ", ".join(
        f"{label} {signed(round(rates[name]))}" for name, label in GROWTH.items()
    )


def _notes(document: Mapping[str, Any]) -> list[str]:
    boundary = document["shallow_boundary"]
    if not boundary:
        return []
    return [
        f"History ends at {boundary[:_SHORT]}: the clone is shallow, older commits are unknown."
    ]


def render_text(document: Mapping[str, Any]) -> str:
    points = document["points"]
    out = [
        f"lockin history {document['repository']} {document['revision']}: "
        f"{len(points):,} points, every {document['every']}, "
        f"{document['commits_walked']:,} commits walked",
        *_notes(document),
        "",
        text.table(_POINT_HEADERS, [_point_row(p) for p in points]),
        "",
        _growth(document),
    ]
    if document["movers"]:
        out += ["", "Commits that moved the non-portable lines most:"]
        out.append(text.table(_MOVER_HEADERS, _mover_rows(document)))
    if document["entered"]:
        out += ["", "Ecosystems entered (first commit with lines):"]
        out.append(text.table(_ENTERED_HEADERS, _entered_rows(document)))
    return "\n".join(out) + "\n"


def render_markdown(document: Mapping[str, Any]) -> str:
    points = document["points"]
    blocks = [
        f"## lockin history of {markdown.code(document['repository'])} "
        f"({markdown.code(document['revision'])})",
        "\n".join(
            [
                f"{len(points):,} points, every {document['every']}; "
                f"{document['commits_walked']:,} commits walked.",
                *_notes(document),
            ]
        ),
        markdown.table(_POINT_HEADERS, [_point_row(p) for p in points], "llrrrrrrl"),
        _growth(document),
    ]
    if document["movers"]:
        blocks += [
            "### What moved it",
            markdown.table(_MOVER_HEADERS, _mover_rows(document), "lllrrl"),
        ]
    if document["entered"]:
        blocks += [
            "### Ecosystems entered",
            markdown.table(_ENTERED_HEADERS, _entered_rows(document)),
        ]
    return "\n\n".join(blocks) + "\n"


def render_csv(document: Mapping[str, Any]) -> str:
    """One row per point; ecosystem and matrix columns for every key any point has."""
    points: Sequence[Mapping[str, Any]] = document["points"]
    ecosystems = sorted({e for p in points if not p["gap"] for e in p["ecosystems"]})
    matrix = [f"{t}:{layer.value}" for t in TARGETS for layer in NON_PORTABLE]
    headers = [
        "commit",
        "date",
        "pr",
        "gap",
        "files",
        "code_lines",
        *(layer.value for layer in LAYERS),
        "non_portable_lines",
        "nvidia_locked_lines",
        "nvidia_share",
        *(f"ecosystem:{e}" for e in ecosystems),
        *(f"matrix:{m}" for m in matrix),
    ]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(headers)
    for p in points:
        row: list[Any] = [p["commit"], p["date"], p["pr"] or "", p["gap"] or ""]
        if not p["gap"]:
            row += [
                p["files"],
                p["code_lines"],
                *(p["layers"][layer.value] for layer in LAYERS),
                p["non_portable_lines"],
                p["nvidia_locked_lines"],
                p["nvidia_share"],
                *(p["ecosystems"].get(e, 0) for e in ecosystems),
                *(p["matrix"][m.split(":")[0]][m.split(":")[1]] for m in matrix),
            ]
        writer.writerow(row)
    return buffer.getvalue()
