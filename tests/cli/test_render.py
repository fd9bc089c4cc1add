"""Renderers on hand-built data: Markdown blocks stay well-formed, text tables align."""

from __future__ import annotations

import re

from bot.engine.census import Census
from bot.engine.model import Finding, Layer
from bot.render import markdown, text
from tests.cli.reports import RULES, report

K = "cuda.kernel"


def _cells(row: str) -> int:
    # Unescaped pipes delimit cells; entities and escaped pipes do not.
    return len(re.findall(r"(?<!\\)\|", row))


def test_markdown_tables_survive_pipes_and_backticks_in_paths() -> None:
    census = Census(
        [report("we|ird.cu", [K, K]), report("tick`s.cu", [K]), report("ok.cu", [K, ""])],
        rules=RULES,
    )
    block = markdown.top_files_table(census.top_files())
    rows = block.splitlines()
    assert len({_cells(row) for row in rows}) == 1
    assert "<code>we&#124;ird.cu</code>" in block
    assert "<code>tick`s.cu</code>" in block


def test_pie_chart_leaves_out_empty_slices_and_quotes() -> None:
    assert markdown.pie_chart("t", {"kernel": 0}) == ""
    chart = markdown.pie_chart('a "title"', {"kernel": 3, "vendor-path": 0, 'x"y': 1})
    assert chart.splitlines() == [
        "```mermaid",
        "pie showData title a 'title'",
        '    "kernel" : 3',
        '    "x\'y" : 1',
        "```",
    ]


def test_long_lists_end_with_and_n_more() -> None:
    items = [("f.cu", Finding(K, Layer.KERNEL, "cuda", i, i)) for i in range(1, 8)]
    listed = markdown.findings_list(items, limit=5)
    assert listed.count("\n- ") == 4
    assert listed.endswith("…and 2 more.")


def test_text_table_right_aligns_numbers() -> None:
    table = text.table(["name", "lines", "share"], [["a", "1,234", "5.0%"], ["bb", "7", ""]])
    assert table.splitlines() == [
        "name  lines  share",
        "a     1,234   5.0%",
        "bb        7",
    ]
