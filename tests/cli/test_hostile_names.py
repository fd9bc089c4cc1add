"""File names that are not valid UTF-8 (Linux allows any bytes but `/` and NUL) reach every
output format of `lockin scan` without crashing it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from jsonschema import Draft4Validator

from tests.cli.test_cli import SARIF_SCHEMA, run

KERNEL = b"__global__ void k(float* x) { x[0] = 1.0f; }\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "csrc").mkdir()
    (tmp_path / "csrc" / os.fsdecode(b"k\xff\xfe.cu")).write_bytes(KERNEL)
    return tmp_path


def test_a_name_that_is_not_utf8_is_counted_in_sarif_with_its_bytes(tree: Path) -> None:
    code, out, err = run("scan", str(tree), "--format", "sarif")
    assert (code, err) == (0, "")
    log = json.loads(out)
    Draft4Validator(SARIF_SCHEMA).validate(log)
    [result] = log["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == (
        "csrc/k%FF%FE.cu"
    )


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_a_name_that_is_not_utf8_does_not_break_other_formats(tree: Path, fmt: str) -> None:
    code, out, err = run("scan", str(tree), "--format", fmt)
    assert (code, err) == (0, "")
    assert "csrc/k" in out
