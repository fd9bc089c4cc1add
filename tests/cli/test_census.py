"""Census figures on hand-built FileReports: totals, matrix, share, rankings, replace()."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.census import Census
from bot.engine.model import Layer
from tests.cli.reports import RULES, report

K, P, T, B, H, TR, M = (
    "cuda.kernel",
    "cuda.runtime",
    "torch.cuda",
    "cuda.cublas",
    "hip.kernel",
    "triton.jit",
    "metal.kernel",
)


def sample() -> list:
    return [
        # 10 code lines: 4 CUDA kernel, 2 CUDA runtime, 1 cuBLAS, 3 portable; 2 comments.
        report("csrc/attn.cu", [None, K, K, K, K, P, P, B, "", "", "", None]),
        # 6 code lines: 2 torch.cuda (NVIDIA + AMD), 4 portable.
        report("model.py", [T, "", "", T, "", ""]),
        # 3 HIP kernel lines (AMD only).
        report("csrc/hip/norm.hip", [H, H, H]),
        # 2 Triton lines (three vendors), 1 portable.
        report("kernels/ln.py", ["", TR, TR]),
        # 1 Metal line.
        report("mps/k.metal", [M]),
    ]


def test_totals_per_layer_and_ecosystem() -> None:
    census = Census(sample(), rules=RULES)
    assert census.totals.files == 5
    assert census.totals.code_lines == 10 + 6 + 3 + 3 + 1
    assert census.totals.layer_counts() == {
        Layer.KERNEL: 4 + 3 + 2 + 1,
        Layer.VENDOR_LIBRARY: 1,
        Layer.VENDOR_PATH: 2 + 2,
        Layer.PORTABLE: 3 + 4 + 1,
    }
    assert dict(census.totals.ecosystems) == {"cuda": 9, "hip": 3, "triton": 2, "metal": 1}


def test_share_counts_kernel_and_vendor_path_lines_that_run_on_nvidia_alone() -> None:
    census = Census(sample(), rules=RULES)
    # cuda.kernel 4 + cuda.runtime 2. Not cuBLAS (a library), not torch.cuda (AMD too),
    # not HIP/Metal (not NVIDIA at all), not Triton (three vendors).
    assert census.locked_to_nvidia() == 6
    assert census.nvidia_share() == 6 / 23


def test_matrix_counts_lines_whose_rule_does_not_run_on_the_target() -> None:
    matrix = Census(sample(), rules=RULES).matrix()
    assert matrix["amd"] == {Layer.KERNEL: 4 + 1, Layer.VENDOR_LIBRARY: 1, Layer.VENDOR_PATH: 2}
    assert matrix["intel"] == {
        Layer.KERNEL: 4 + 3 + 1,
        Layer.VENDOR_LIBRARY: 1,
        Layer.VENDOR_PATH: 4,
    }
    assert matrix["apple"] == {
        Layer.KERNEL: 4 + 3 + 2,
        Layer.VENDOR_LIBRARY: 1,
        Layer.VENDOR_PATH: 4,
    }
    assert matrix["google"] == {
        Layer.KERNEL: 4 + 3 + 2 + 1,
        Layer.VENDOR_LIBRARY: 1,
        Layer.VENDOR_PATH: 4,
    }


def test_alternatives_are_ecosystems_that_run_beyond_nvidia() -> None:
    alternatives = Census(sample(), rules=RULES).alternatives()
    assert [(a.ecosystem, a.lines) for a in alternatives] == [
        ("hip", 3),
        ("triton", 2),
        ("metal", 1),
    ]
    assert alternatives[1].vendors == frozenset({"nvidia", "amd", "intel"})


def test_top_files_and_directories() -> None:
    census = Census(sample(), rules=RULES)
    assert [(s.path, s.non_portable_lines) for s in census.top_files(3)] == [
        ("csrc/attn.cu", 7),
        ("csrc/hip/norm.hip", 3),
        ("kernels/ln.py", 2),
    ]
    assert census.top_directories(2) == [("csrc", 7), ("csrc/hip", 3)]
    assert ("mps", 1) in census.top_directories(10)
    assert (".", 2) in census.top_directories(10)


def test_generated_files_are_reported_separately_and_can_be_left_out() -> None:
    files = [*sample(), report("gen/inst_0.cu", [K, K, ""], generated=True)]
    included = Census(files, rules=RULES)
    excluded = Census(files, rules=RULES, include_generated=False)
    assert included.totals.code_lines == 26
    assert excluded.totals.code_lines == 23
    assert excluded.generated.files == included.generated.files == 1
    assert excluded.generated.non_portable_lines == 2
    assert "gen/inst_0.cu" not in [s.path for s in excluded.files()]
    assert excluded.locked_to_nvidia() == 6
    assert included.locked_to_nvidia() == 8


def test_skipped_files_are_counted_by_reason_not_in_totals() -> None:
    census = Census(
        [*sample(), report("w.bin", [], skipped="binary"), report("x.bin", [], skipped="binary")],
        rules=RULES,
    )
    assert census.skipped == {"binary": 2}
    assert census.totals.files == 5
    census.replace("w.bin", None)
    assert census.skipped == {"binary": 1}


def test_empty_census_has_zero_share() -> None:
    census = Census([], rules=RULES)
    assert census.nvidia_share() == 0.0
    assert census.top_files() == []
    assert all(not any(row.values()) for row in census.matrix().values())


def _figures(census: Census) -> tuple:
    return (
        census.totals,
        census.generated,
        dict(census.skipped),
        census.matrix(),
        census.locked_to_nvidia(),
        census.alternatives(),
        [(s.path, s.non_portable_lines) for s in census.top_files(50)],
        census.top_directories(50),
        census.files(),
    )


rule_ids = st.sampled_from([None, "", *RULES])
reports = st.builds(
    report,
    st.sampled_from(["a.cu", "b/c.py", "b/d.hip", "e/f/g.metal", "h.h"]),
    st.lists(rule_ids, max_size=12),
    generated=st.booleans(),
    skipped=st.sampled_from([None, None, None, "binary"]),
)


@settings(max_examples=150, deadline=None)
@given(
    start=st.lists(reports, max_size=6),
    edits=st.lists(st.tuples(st.sampled_from(["a.cu", "b/c.py", "x.cu"]), st.none() | reports)),
    include_generated=st.booleans(),
)
def test_replace_equals_a_fresh_census(start, edits, include_generated) -> None:
    census = Census(start, rules=RULES, include_generated=include_generated)
    final = {r.path: r for r in start}
    for path, new in edits:
        # Read between edits: what a census keeps of its figures must follow each change.
        _figures(census)
        new = (
            None
            if new is None
            else report(path, new.line_rules, generated=new.generated, skipped=new.skipped)
        )
        census.replace(path, new)
        if new is None:
            final.pop(path, None)
        else:
            final[path] = new
    fresh = Census(final.values(), rules=RULES, include_generated=include_generated)
    assert _figures(census) == _figures(fresh)
    assert len(census) == len(final)


def test_copy_is_independent() -> None:
    census = Census(sample(), rules=RULES)
    twin = census.copy()
    twin.replace("csrc/attn.cu", None)
    twin.replace("new.cu", report("new.cu", [K]))
    assert _figures(census) == _figures(Census(sample(), rules=RULES))
    assert _figures(twin) == _figures(Census([*sample()[1:], report("new.cu", [K])], rules=RULES))
