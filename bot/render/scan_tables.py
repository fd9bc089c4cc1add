"""The rows of ``lockin scan``'s tables, per language (as scc and tokei print) or per file
(``--by-file``), shared by the terminal table, the CSV and the HTML report."""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.engine.census import Census, FileSummary
from bot.engine.model import LAYERS, NON_PORTABLE, Layer

#: ``--sort`` keys; ``lines`` (non-portable lines) first, the figure this tool is about.
SORTS = ("lines", "code", "files", "share", "name")
UNKNOWN_LANGUAGE = "(other)"


@dataclass
class Row:
    name: str  # a language, or a path
    files: int = 0
    code: int = 0
    layers: dict[Layer, int] = field(default_factory=lambda: dict.fromkeys(LAYERS, 0))

    @property
    def non_portable(self) -> int:
        return sum(self.layers[layer] for layer in NON_PORTABLE)

    @property
    def share(self) -> float:
        return self.non_portable / self.code if self.code else 0.0

    def add(self, summary: FileSummary) -> None:
        self.files += 1
        self.code += summary.code_lines
        for layer, n in summary.layers.items():
            self.layers[layer] += n


def _sorted(rows: Iterable[Row], sort: str) -> list[Row]:
    keys = {
        "lines": lambda r: (-r.non_portable, -r.code, r.name),
        "code": lambda r: (-r.code, r.name),
        "files": lambda r: (-r.files, -r.code, r.name),
        "share": lambda r: (-r.share, -r.non_portable, r.name),
        "name": lambda r: (r.name,),
    }
    return sorted(rows, key=keys[sort])


def language_rows(census: Census, sort: str = "lines") -> list[Row]:
    """One row per language with code lines."""
    rows: dict[str, Row] = {}
    for summary in census.files():
        if summary.code_lines:
            name = summary.language or UNKNOWN_LANGUAGE
            rows.setdefault(name, Row(name)).add(summary)
    return _sorted(rows.values(), sort)


def text_rows(census: Census) -> list[tuple[str, int, int]]:
    """(language, files, lines) of the documentation and data files (languages.yml
    ``text``), most lines first: counted as scc counts them, apart from the code."""
    files: Counter[str] = Counter()
    lines: Counter[str] = Counter()
    for summary in census.files():
        if summary.text_lines and summary.language:
            files[summary.language] += 1
            lines[summary.language] += summary.text_lines
    return sorted(
        ((name, files[name], n) for name, n in lines.items()), key=lambda r: (-r[2], r[0])
    )


def file_rows(census: Census, sort: str = "lines") -> list[Row]:
    """One row per file with non-portable lines (the others are portable code)."""
    rows = []
    for summary in census.files():
        if summary.non_portable_lines:
            row = Row(summary.path)
            row.add(summary)
            rows.append(row)
    return _sorted(rows, sort)


def total_row(rows: Iterable[Row]) -> Row:
    total = Row("total")
    for row in rows:
        total.files += row.files
        total.code += row.code
        for layer, n in row.layers.items():
            total.layers[layer] += n
    return total


def render_csv(census: Census, *, by_file: bool, sort: str) -> str:
    """Per language (or per file), one line each, with a header: for spreadsheets and CI."""
    rows = file_rows(census, sort) if by_file else language_rows(census, sort)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    layers = [layer.value for layer in LAYERS]
    writer.writerow(["path" if by_file else "language", "files", "code", *layers, "non-portable"])
    for row in rows:
        counts = [row.layers[layer] for layer in LAYERS]
        writer.writerow([row.name, row.files, row.code, *counts, row.non_portable])
    return buffer.getvalue()
