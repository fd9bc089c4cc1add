"""Jupyter notebooks read by their code cells (engine/notebooks.py), each finding and each
line's layer on the notebook line that holds it.

The notebooks are written as nbformat 4 writes them (``json.dumps(indent=1)``, one source
line per JSON line); the kernels are small rewrites, in our own words, of what notebooks in
ML repositories hold (VachanVY/gpu-programming's Triton puzzles, sdodlapati3/cuda-lab's CUDA
and Numba cells).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.engine import classify
from bot.engine.model import FileReport, Layer

TRITON = """\
import torch
import triton
import triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    total = tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, total, mask=mask)
"""
PORTABLE = """\
import numpy as np

def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()

print(softmax(np.arange(4.0)))
"""


def notebook(*cells: tuple[str, str], language: str | None = "python", **extra: Any) -> bytes:
    """A notebook as nbformat 4 writes it: each cell's source a list of lines."""
    metadata = {} if language is None else {"kernelspec": {"language": language, "name": "k"}}
    return json.dumps(
        {
            "cells": [
                {
                    "cell_type": kind,
                    "metadata": {},
                    "source": source.splitlines(keepends=True),
                    **({"execution_count": None, "outputs": []} if kind == "code" else {}),
                    **extra.get(kind, {}),
                }
                for kind, source in cells
            ],
            "metadata": metadata,
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    ).encode()


def line_of(data: bytes, code: str, start: int = 0) -> int:
    """The notebook line holding the source line ``code`` (JSON-encoded, as written)."""
    lines = data.decode().split("\n")
    encoded = json.dumps(code)[:-1]  # the opening quote and the text, without the close
    return next(n for n, line in enumerate(lines, 1) if n > start and encoded in line)


def spans(report: FileReport) -> list[tuple[str, int, int]]:
    return [(f.rule, f.start_line, f.end_line) for f in report.findings]


def test_triton_cells_count_on_the_notebook_lines_that_hold_them() -> None:
    data = notebook(
        ("markdown", "# Vector add\nA `@triton.jit` kernel on `torch.cuda`.\n"),
        ("code", TRITON),
        ("code", "x = torch.rand(1024)\nprint(x.sum())\n"),
    )
    report = classify("puzzles/Triton-Puzzles.ipynb", data)
    assert report.language == "Jupyter"
    assert report.skipped is None
    first = line_of(data, "@triton.jit")
    last = line_of(data, "    tl.store(")
    assert [(r, s, e) for r, s, e in spans(report) if r.startswith("triton")] == [
        ("triton.jit", first, last)
    ]
    assert report.layers[Layer.KERNEL] == last - first + 1 == 7
    # Code lines: the code cells' lines that hold code, not the JSON's nor the markdown's.
    assert report.code_lines == 3 + 7 + 2
    assert report.line_rules[line_of(data, "# Vector add") - 1] is None
    assert report.line_rules[line_of(data, "import torch") - 1] == ""
    assert len(report.line_rules) == data.count(b"\n") + 1


def test_numba_cuda_jit_cell_is_kernel_code() -> None:
    kernel = """\
from numba import cuda

@cuda.jit
def axpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]
"""
    data = notebook(("code", kernel))
    report = classify("lab/numba.ipynb", data)
    first = line_of(data, "@cuda.jit")
    assert report.layers[Layer.KERNEL] == 5
    assert all(report.line_rules[n - 1] for n in range(first, first + 5))
    assert {f.ecosystem for f in report.findings if f.layer is Layer.KERNEL} == {"numba"}


def test_cupy_raw_kernel_string_cell_is_kernel_code() -> None:
    cell = '''\
import cupy as cp

square = cp.RawKernel(r"""
extern "C" __global__ void square(const float* x, float* y, int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) y[i] = x[i] * x[i];
}
""", "square")
'''
    data = notebook(("markdown", "CuPy"), ("code", cell))
    report = classify("cupy.ipynb", data)
    kernel = [f for f in report.findings if f.layer is Layer.KERNEL]
    assert kernel, spans(report)
    assert kernel[0].start_line <= line_of(data, 'extern "C" __global__')
    assert report.layers[Layer.KERNEL] >= 4


@pytest.mark.parametrize(
    "magic", ["%%writefile kernel.cu", "%%writefile -a src/kernel.cu", "%%cuda"]
)
def test_cell_magic_names_the_cell_language(magic: str) -> None:
    cuda = f"""\
{magic}
#include <cstdio>
__global__ void hello() {{
    printf("block %d\\n", blockIdx.x);
}}
int main() {{ hello<<<2, 1>>>(); cudaDeviceSynchronize(); }}
"""
    data = notebook(("code", "import os\n"), ("code", cuda), ("code", "!nvcc kernel.cu -o k\n"))
    report = classify("nb/cuda-lab.ipynb", data)
    kernel = [(r, s, e) for r, s, e in spans(report) if r == "cuda.kernel"]
    assert kernel == [("cuda.kernel", line_of(data, "__global__"), line_of(data, "}\n"))]
    # The magic is Jupyter's: no code line of the cell's language.
    assert report.line_rules[line_of(data, magic.split()[0]) - 1] is None
    assert report.non_portable_lines >= 4


def test_portable_notebook_has_its_code_lines_and_no_lock_in() -> None:
    data = notebook(("markdown", "# Softmax\n"), ("code", PORTABLE), ("code", "# only a comment\n"))
    report = classify("softmax.ipynb", data)
    assert report.code_lines == 5
    assert report.non_portable_lines == 0
    assert report.findings == []


def test_markdown_outputs_and_metadata_mentioning_cuda_are_not_code() -> None:
    data = notebook(
        ("markdown", "Run `@triton.jit` kernels with `torch.cuda` and `__global__`.\n"),
        ("code", "print('done')\n"),
        code={
            "outputs": [
                {"name": "stdout", "output_type": "stream", "text": ["__global__ void k()\n"]}
            ],
            "metadata": {"note": "torch.cuda.is_available()"},
        },
    )
    report = classify("readme.ipynb", data)
    assert (report.code_lines, report.non_portable_lines) == (1, 0)
    only_markdown = notebook(("markdown", "We use CUDA: `cudaMalloc`, `@cuda.jit`.\n"))
    assert classify("notes.ipynb", only_markdown).code_lines == 0


@pytest.mark.parametrize(
    "data",
    [
        b'{"cells": [{"cell_type": "code", "source": ["@triton.jit\\n"',  # truncated
        b"[1, 2, 3]",
        b'{"cells": [1, 2]}',
        b'{"cells": [{"source": [1]}]}',
        b'{"cells": []} trailing',
        b'{"metadata": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b"",
    ],
    ids=[
        "truncated",
        "array",
        "cells-not-objects",
        "source-not-strings",
        "trailing",
        "deep",
        "empty",
    ],
)
def test_malformed_notebook_is_a_clear_skip(data: bytes) -> None:
    report = classify("bad.ipynb", data)
    assert report.skipped == "malformed-notebook"
    assert (report.code_lines, report.findings) == (0, [])


def test_source_as_one_string_counts_each_json_line_once_in_its_highest_layer() -> None:
    doc = json.loads(notebook(("code", "x = 1\n"), ("code", "y = 2\n")))
    doc["cells"][0]["source"] = TRITON  # one string: all its lines on one JSON line
    data = json.dumps(doc, indent=1).encode()
    report = classify("one.ipynb", data)
    line = line_of(data, "import torch")
    assert report.line_rules[line - 1] == "triton.jit"
    assert spans(report) == [("triton.jit", line, line)]
    assert (report.code_lines, report.layers[Layer.KERNEL]) == (2, 1)
    # The same with no newlines at all: a notebook minified onto one line.
    minified = json.dumps(json.loads(notebook(("code", TRITON)))).encode()
    assert classify("min.ipynb", minified).layers[Layer.KERNEL] == 1


def test_non_utf8_bytes_in_a_cell_do_not_hide_its_kernel() -> None:
    data = notebook(("code", "# caf\u00e9\n" + TRITON)).replace(b"caf\\u00e9", b"caf\xe9")
    assert b"\xe9" in data
    report = classify("latin1.ipynb", data)
    assert report.skipped is None
    assert report.layers[Layer.KERNEL] == 7


def test_kernel_language_comes_from_the_metadata() -> None:
    cpp = "#include <cuda_runtime.h>\n__global__ void k(float* x) {\n  x[0] = 1;\n}\n"
    assert classify("x.ipynb", notebook(("code", cpp), language="C++17")).layers[Layer.KERNEL] == 3
    # No kernelspec: Python. A language lockin does not read: no code lines.
    assert classify("p.ipynb", notebook(("code", TRITON), language=None)).layers[Layer.KERNEL] == 7
    assert classify("w.ipynb", notebook(("code", TRITON), language="wolfram")).code_lines == 0


def test_comment_and_blank_lines_inserted_into_code_cells_change_no_count() -> None:
    cells = [("code", TRITON), ("code", PORTABLE)]
    padded = [
        (kind, "".join(line + "\n# note\n\n" for line in source.splitlines()))
        for kind, source in cells
    ]
    plain, more = classify("a.ipynb", notebook(*cells)), classify("a.ipynb", notebook(*padded))
    assert (more.code_lines, more.layers, more.ecosystems) == (
        plain.code_lines,
        plain.layers,
        plain.ecosystems,
    )


def test_diff_of_a_notebook_gaining_a_triton_kernel_fails_the_gate(tmp_path: Path) -> None:
    before, after = tmp_path / "before", tmp_path / "after"
    for root in (before, after):
        (root / ".github").mkdir(parents=True)
        (root / ".github" / "lockin.yml").write_text("layers: [kernel]\nenforcement: fail\n")
    intro = ("markdown", "# Puzzles\n")
    (before / "Triton-Puzzles.ipynb").write_bytes(notebook(intro, ("code", PORTABLE)))
    data = notebook(intro, ("code", PORTABLE), ("code", TRITON))
    (after / "Triton-Puzzles.ipynb").write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    code = main(["diff", str(before), str(after), "--format", "sarif"], out=out, err=err)
    assert code == 1, err.getvalue()
    results = json.loads(out.getvalue())["runs"][0]["results"]
    located = [
        (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in results
    ]
    assert ("Triton-Puzzles.ipynb", line_of(data, "@triton.jit")) in located


def test_nbformat_3_code_cells_hold_their_code_in_input() -> None:
    cells = [
        {"cell_type": "markdown", "source": ["`__global__` kernels\n"]},
        {
            "cell_type": "code",
            "language": "python",
            "input": TRITON.splitlines(True),
            "outputs": [],
        },
    ]
    doc = {"metadata": {"name": ""}, "nbformat": 3, "worksheets": [{"cells": cells}]}
    data = json.dumps(doc, indent=1).encode()
    report = classify("old.ipynb", data)
    assert spans(report) == [
        ("triton.jit", line_of(data, "@triton.jit"), line_of(data, "    tl.store("))
    ]
    assert report.code_lines == 10


def test_a_kernel_moved_from_a_python_file_into_a_cell_is_no_growth(tmp_path: Path) -> None:
    # The notebook's lines are compared with the removed file's by the code they hold, not
    # by their JSON text.
    before, after = tmp_path / "before", tmp_path / "after"
    for root in (before, after):
        (root / ".github").mkdir(parents=True)
        (root / ".github" / "lockin.yml").write_text("layers: [kernel]\nenforcement: fail\n")
    (before / "kernels.py").write_text(TRITON)
    (before / "demo.ipynb").write_bytes(notebook(("code", PORTABLE)))
    (after / "demo.ipynb").write_bytes(notebook(("code", PORTABLE), ("code", TRITON)))
    out, err = io.StringIO(), io.StringIO()
    code = main(["diff", str(before), str(after)], out=out, err=err)
    assert code == 0, out.getvalue() + err.getvalue()
    assert "7 moved from other files" in out.getvalue()


def test_ignore_markers_in_a_cell_are_placed_on_notebook_lines() -> None:
    marked = TRITON.replace("@triton.jit", "@triton.jit  # lockin: ignore[triton.jit] a CPU demo")
    data = notebook(("markdown", "# Demo\n"), ("code", marked), ("code", "# lockin: ignore[x]\n"))
    report = classify("marked.ipynb", data)
    first = line_of(data, "@triton.jit")
    assert report.layers[Layer.KERNEL] == 0
    [ignored] = report.ignored
    assert (ignored.rule, ignored.marker_line, ignored.start_line, ignored.lines) == (
        "triton.jit",
        first,
        first,
        7,
    )
    assert ignored.end_line == line_of(data, "    tl.store(")
    assert [p.line for p in report.marker_problems] == [line_of(data, "# lockin: ignore[x]")]


def test_a_notebook_saved_with_crlf_and_a_bom_keeps_its_lines() -> None:
    data = notebook(("markdown", "# Demo\n"), ("code", TRITON))
    windows = b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n")
    assert spans(classify("w.ipynb", windows)) == spans(classify("w.ipynb", data)) != []
    assert classify("w.ipynb", windows).layers == classify("w.ipynb", data).layers
