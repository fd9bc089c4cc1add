"""A census's FileSummary comes back from a worker process whole: pickled by its fields."""

from __future__ import annotations

import pickle

from bot.engine import classify
from bot.engine.census import FileSummary
from bot.engine.model import Finding, Layer

KERNELS = b"""\
#include <cuda_runtime.h>
__global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; }
// lockin: ignore[cuda.kernel] kept for the benchmark only
__global__ void shift(float* x) { x[threadIdx.x] += 1.0f; }
// lockin: ignore[no.such-rule] names nothing
void launch(float* x, cudaStream_t s) { scale<<<1, 32, 0, s>>>(x); }
"""


def test_a_summary_with_findings_markers_and_problems_pickles_whole() -> None:
    summary = FileSummary.of(classify("csrc/k.cu", KERNELS))
    assert summary.findings
    assert summary.ignored
    assert summary.marker_problems
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(summary, protocol))
        assert again == summary
        assert type(again.findings[0]) is Finding
        assert [f.layer for f in again.findings] == [
            Layer.VENDOR_PATH,
            Layer.KERNEL,
            Layer.VENDOR_PATH,
        ]
        assert all(type(f.layer) is Layer for f in again.findings)
        assert all(type(layer) is Layer for layer in again.layers)


def test_a_skipped_file_pickles_whole() -> None:
    summary = FileSummary.of(classify("logo.png", b"\x89PNG\r\n\x1a\n\0\0"))
    assert summary.skipped == "binary"
    assert pickle.loads(pickle.dumps(summary)) == summary
