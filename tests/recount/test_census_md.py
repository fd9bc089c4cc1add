"""The census section of the PR comment and check run (rendered from a real census)."""

from __future__ import annotations

from bot.engine import classify
from bot.engine.census import Census
from bot.render.census_md import render_census
from tests.recount.conftest import KERNEL, PYTHON, TRITON


def census_of(files: dict[str, str]) -> Census:
    return Census(classify(path, text.encode()) for path, text in files.items())


def test_the_section_has_the_figures_a_pie_and_the_top_files() -> None:
    census = census_of({"csrc/scale.cu": KERNEL, "train.py": PYTHON})
    text = render_census(census)
    locked, code = census.locked_to_nvidia(), census.totals.code_lines
    assert locked > 0
    assert f"**{locked:,}** of {code:,} code lines" in text
    assert "```mermaid\npie showData title Code lines by layer" in text
    assert "`csrc/scale.cu`" in text
    assert "`csrc/`" in text  # top directories
    assert "**Alternatives already present:** none" in text


def test_the_base_figure_and_the_change_from_it() -> None:
    base = census_of({"csrc/scale.cu": KERNEL})
    head = census_of({"csrc/scale.cu": KERNEL, "csrc/more.cu": KERNEL})
    text = render_census(head, base=base)
    added = head.locked_to_nvidia() - base.locked_to_nvidia()
    assert added > 0
    assert f"Default branch: {base.locked_to_nvidia():,} of {base.totals.code_lines:,}" in text
    assert f"this head: +{added:,} lines" in text


def test_skipped_files_are_named_by_reason() -> None:
    census = census_of({"csrc/scale.cu": KERNEL, "logo.png": "\x00\x01binary"})
    assert "Not counted: 1 binary." in render_census(census)


def test_alternatives_already_present_are_listed() -> None:
    text = render_census(census_of({"csrc/scale.cu": KERNEL, "kernels/add.py": TRITON}))
    assert "**Alternatives already present:** `triton`" in text
