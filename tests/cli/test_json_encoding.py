"""The JSON text lockin writes: orjson's, which must be the text the standard library's
encoder writes (programs diff it, and `--expect-json` in bench/run.py compares it byte for
byte), and the standard library's own where orjson refuses a value."""

from __future__ import annotations

import json

import pytest

from bot.render import json_out
from tests.cli.test_cli import EXAMPLES, run


def _standard(document: object, pretty: bool) -> str:
    if pretty:
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


@pytest.mark.parametrize("pretty", [False, True])
def test_a_scan_document_is_the_standard_librarys_text(pretty: bool) -> None:
    code, out, _ = run("scan", str(EXAMPLES / "repo"), "--format", "json", "--jobs", "1")
    assert code == 0
    document = json.loads(out)
    # Non-ASCII kept as is, empty lists and objects, nested mappings, floats, booleans.
    document["extra"] = {"name": "Müller/ядро.cu", "empty": [], "none": {}, "share": 0.25}
    assert json_out.dumps(document, pretty=pretty) == _standard(document, pretty)


@pytest.mark.parametrize(
    "value",
    [
        "bad\udcff.cu",  # a lone surrogate: a file name that is not UTF-8
        2**70,  # past 64 bits
        {1: "a key that is no string"},
    ],
)
@pytest.mark.parametrize("pretty", [False, True])
def test_what_orjson_refuses_is_written_as_before(value: object, pretty: bool) -> None:
    document = {"files": [{"path": "k.cu", "value": value}]}
    assert json_out.dumps(document, pretty=pretty) == _standard(document, pretty)
