"""Gate on growth, not on touch: which added lines count, on files the real engine reads.

Each case is two versions of a file, diffed as the CLI does (changed_lines) and classified
by the engine; the gate then says which lines count and why.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import classify
from bot.engine.census import FileSummary
from bot.engine.delta import ChangeDelta, FileDelta, changed_lines, file_delta, hunks
from bot.policy.baseline import Baseline, dump_baseline, load_baseline, record_baseline
from bot.policy.config import DEFAULT_POLICY, PolicyError, load_policy
from bot.policy.counting import count_lines, moved_lines
from bot.policy.gate import evaluate

KERNEL = """#include <cuda_runtime.h>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] *= a;
    }
}

void launch(float* x, float a, int n) {
    scale<<<(n + 255) / 256, 256>>>(x, a, n);
}
"""

HIP_KERNEL = """
__global__ void scale_hip(float* x, float a, int n) {
    int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    if (i < n) {
        x[i] *= a;
    }
}

void launch_hip(float* x, float a, int n) {
    hipLaunchKernelGGL(scale_hip, dim3((n + 255) / 256), dim3(256), 0, 0, x, a, n);
}
"""

SECOND_KERNEL = """
__global__ void shift(float* x, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] += b;
    }
}
"""


def delta(path: str, old: str | None, new: str | None) -> FileDelta:
    added, removed = changed_lines(old or "", new or "")
    status = "added" if old is None else "removed" if new is None else "modified"
    return file_delta(
        path,
        classify(path, old.encode()) if old is not None else None,
        classify(path, new.encode()) if new is not None else None,
        added,
        removed,
        status=status,
        texts=(old or "", new or ""),
    )


def judge(*files: FileDelta, policy=DEFAULT_POLICY, baseline=None, base_files=None):
    return evaluate(
        ChangeDelta(list(files)),
        policy,
        linked=[],
        recorded=[],
        baseline=baseline,
        base_files=base_files,
    )


def test_an_edit_that_keeps_its_rule_is_changed_not_added() -> None:
    edited = KERNEL.replace("x[i] *= a;", "x[i] = x[i] * a + 0.0f;").replace(
        "int i = blockIdx.x", "const int i = blockIdx.x"
    )
    f = delta("csrc/scale.cu", KERNEL, edited)
    assert f.added_non_portable == 2
    assert f.removed_non_portable == 2

    lines = count_lines(f, DEFAULT_POLICY.layers, strict=False)
    assert (lines.added, lines.removed, lines.changed, lines.counted) == (2, 2, 2, 0)
    assert lines.why == "+2 −2 cuda, 2 changed keeping their rule: no growth"

    verdict = judge(f)
    assert verdict.conclusion == "success"
    assert verdict.files == ()
    [changed] = verdict.changed
    assert (changed.path, changed.gated_lines) == ("csrc/scale.cu", 0)
    assert "no growth" in (changed.reason or "")
    assert verdict.summary == (
        "changes 2 gated lines in 1 file without growing them: nothing needs a decision"
    )


def test_strict_counts_the_same_edit_as_today() -> None:
    edited = KERNEL.replace("x[i] *= a;", "x[i] = x[i] * a + 0.0f;")
    verdict = judge(delta("csrc/scale.cu", KERNEL, edited), policy=load_policy("gate: strict\n"))
    assert verdict.conclusion == "failure"
    assert verdict.gated_lines == 1
    assert verdict.counting == "strict"
    assert verdict.summary == "adds 1 kernel line in 1 file without a compute-API decision"


def test_growth_counts_net_of_removed_lines_of_the_same_ecosystem() -> None:
    # A kernel replaced by a longer one: only the lines past what was removed count.
    grown = KERNEL.replace("scale(", "scale2(") + SECOND_KERNEL
    f = delta("csrc/scale.cu", KERNEL, grown)
    lines = count_lines(f, DEFAULT_POLICY.layers, strict=False)
    assert lines.counted == lines.added - lines.removed > 0
    verdict = judge(f)
    assert verdict.conclusion == "failure"
    [gate] = verdict.files
    assert gate.gated_lines == lines.counted
    assert gate.lines is not None
    assert gate.lines.ranges
    assert "of growth" in gate.counts
    assert "net of those it removes" in verdict.summary


def test_a_new_ecosystem_in_a_file_counts_in_full_even_when_cuda_shrinks() -> None:
    shrunk = KERNEL.replace("    if (i < n) {\n        x[i] *= a;\n    }\n", "    x[i] *= a;\n")
    hip_path = (
        "\nvoid copy(float* p, int n) {\n    hipMalloc(&p, n);\n    hipDeviceSynchronize();\n}\n"
    )
    f = delta("csrc/scale.cu", KERNEL, shrunk + hip_path)
    lines = count_lines(f, DEFAULT_POLICY.layers, strict=False)
    by_name = {e.ecosystem: e for e in lines.ecosystems}
    assert by_name["hip"].new
    assert by_name["hip"].counted == by_name["hip"].added > 0
    assert by_name["cuda"].counted == 0
    assert lines.counted == by_name["hip"].added
    assert "brings hip into the file" in lines.why
    assert judge(f).conclusion == "failure"


def test_a_new_file_counts_every_line_and_a_removed_one_none() -> None:
    added = count_lines(delta("csrc/new.cu", None, KERNEL), DEFAULT_POLICY.layers, strict=False)
    assert added.counted == added.added > 0
    assert all(e.new for e in added.ecosystems)
    gone = count_lines(delta("csrc/old.cu", KERNEL, None), DEFAULT_POLICY.layers, strict=False)
    assert (gone.added, gone.counted) == (0, 0)
    assert gone.removed > 0


def test_only_gated_layers_count() -> None:
    policy = load_policy("layers: [kernel]\n")
    f = delta("csrc/scale.cu", KERNEL, KERNEL + "void sync() { cudaDeviceSynchronize(); }\n")
    assert f.added_non_portable == 1
    assert count_lines(f, policy.layers, strict=False).counted == 0
    assert judge(f, policy=policy).conclusion == "success"


def baseline_of(*files: tuple[str, str]) -> Baseline:
    summaries = [FileSummary.of(classify(path, text.encode())) for path, text in files]
    return record_baseline(summaries, DEFAULT_POLICY, [], commit="abc123")


def test_baseline_lets_a_file_hold_what_it_held_and_gates_growth_past_it() -> None:
    baseline = baseline_of(("csrc/scale.cu", KERNEL), ("model.py", "import torch\n"))
    assert list(baseline.files) == ["csrc/scale.cu"]  # portable files are not recorded
    reread = load_baseline(dump_baseline(baseline), DEFAULT_POLICY)
    assert reread == baseline

    # Grown past the baseline: the lines past it count.
    grown = delta("csrc/scale.cu", KERNEL, KERNEL + SECOND_KERNEL)
    verdict = judge(grown, baseline=reread)
    assert verdict.conclusion == "failure"
    assert verdict.files[0].gated_lines == grown.added_non_portable

    # A file shrunk earlier may grow back up to its baseline: nothing counts.
    small = KERNEL.replace("    if (i < n) {\n        x[i] *= a;\n    }\n", "")
    regrown = delta("csrc/scale.cu", small, KERNEL)
    assert regrown.added_non_portable > 0
    assert judge(regrown).conclusion == "failure"  # without the baseline it is growth
    verdict = judge(regrown, baseline=reread)
    assert verdict.conclusion == "success"
    assert "baseline" in (verdict.changed[0].reason or "")

    # A file the baseline does not list gates as usual.
    assert judge(delta("csrc/new.cu", None, KERNEL), baseline=reread).conclusion == "failure"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("version: 2\nlayers: [kernel, vendor-path]\nfiles: {}\n", "version: expected 1"),
        ("version: 1\nlayers: [kernel]\nfiles: {}\n", "recorded for the layers kernel"),
        ("version: 1\nlayers: [kernel, vendor-path]\nfiles: {a.cu: {cuda: yes}}\n", "a count"),
        ("version: 1\nlayers: [kernel, vendor-path]\nfiles: [a.cu]\n", "expected a mapping"),
        ("- just a list\n", "top level must be a mapping"),
        ("version: 1\nfiles: {a: {\n", "invalid YAML"),
    ],
)
def test_an_invalid_baseline_is_one_clear_error(text: str, words: str) -> None:
    with pytest.raises(PolicyError, match=r"lockin-baseline\.yml") as caught:
        load_baseline(text, DEFAULT_POLICY)
    assert words in str(caught.value)


def test_ratchet_fails_only_past_its_threshold() -> None:
    new_kernel = delta("csrc/new.cu", None, KERNEL)
    grown = new_kernel.added_non_portable
    base = [FileSummary.of(classify("csrc/old.cu", (KERNEL + SECOND_KERNEL).encode()))]
    base_lines = base[0].non_portable_lines

    within = judge(new_kernel, policy=load_policy(f"ratchet: {{lines: {grown}}}\n"))
    assert within.conclusion == "success"
    assert within.ratchet is not None
    assert within.ratchet.growth == grown
    assert "within the ratchet" in within.summary

    past = judge(new_kernel, policy=load_policy(f"ratchet: {{lines: {grown - 1}}}\n"))
    assert past.conclusion == "failure"
    assert [f.path for f in past.uncovered] == ["csrc/new.cu"]
    assert f"+{grown}" in past.summary
    assert "the ratchet allows" in past.summary

    # Percent of the base's figure: needs the base; unknown, any growth fails.
    percent = load_policy("ratchet: {percent: 100}\n")
    verdict = judge(new_kernel, policy=percent, base_files=base)
    assert verdict.ratchet is not None
    assert verdict.ratchet.base == base_lines
    assert verdict.conclusion == ("success" if grown <= base_lines else "failure")
    assert judge(new_kernel, policy=percent).conclusion == "failure"

    # A HIP port is not NVIDIA-only: it never moves the ratchet.
    port = delta("csrc/scale.hip", None, HIP_KERNEL)
    assert port.added_non_portable > 0
    hip = judge(port, policy=load_policy("ratchet: {lines: 0}\n"))
    assert hip.conclusion == "success"
    assert hip.ratchet is not None
    assert hip.ratchet.growth == 0

    # A kernel moved between files nets to nothing.
    moved = [delta("csrc/a.cu", KERNEL, None), delta("csrc/b.cu", None, KERNEL)]
    assert judge(*moved, policy=load_policy("ratchet: {lines: 0}\n")).conclusion == "success"


def test_report_only_concludes_neutral() -> None:
    f = delta("csrc/new.cu", None, KERNEL)
    for name in ("report-only", "neutral"):
        verdict = judge(f, policy=load_policy(f"enforcement: {name}\n"))
        assert verdict.conclusion == "neutral"
        assert verdict.uncovered  # everything else the same


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from("abc"), max_size=14), st.lists(st.sampled_from("abc"), max_size=14))
def test_hunks_pair_removed_and_added_runs_where_they_stand(old: list[str], new: list[str]) -> None:
    added, removed = changed_lines("".join(f"{x}\n" for x in old), "".join(f"{x}\n" for x in new))
    rebuilt = hunks(added, removed)
    assert sorted(n for gone, _ in rebuilt for n in gone) == sorted(removed)
    assert sorted(n for _, came in rebuilt for n in came) == sorted(added)
    for gone, came in rebuilt:
        if gone and came:  # a replacement: as many unchanged lines precede it on each side
            kept_before_old = sum(1 for n in range(1, gone[0]) if n not in removed)
            kept_before_new = sum(1 for n in range(1, came[0]) if n not in added)
            assert kept_before_old == kept_before_new


def test_an_edit_is_kept_and_not_pointed_at_but_new_lines_are() -> None:
    edited = KERNEL.replace("x[i] *= a;", "x[i] = a * x[i];") + SECOND_KERNEL
    f = delta("csrc/scale.cu", KERNEL, edited)
    edited_line = edited.splitlines().index("        x[i] = a * x[i];") + 1
    assert f.kept_lines == [edited_line]
    lines = count_lines(f, DEFAULT_POLICY.layers, strict=False)
    assert lines.ranges
    assert all(not r.start_line <= edited_line <= r.end_line for r in lines.ranges)


def test_a_reformat_that_spreads_the_same_code_over_more_lines_adds_none() -> None:
    launch = (
        "void launch(float* x, float a, int n) {\n"
        "    scale<<<(n + 255) / 256, 256>>>(x, a, n);\n"
        "}\n"
    )
    wrapped = (
        "void launch(float* x, float a, int n) {\n"
        "    scale<<<(n + 255) / 256,\n"
        "            256>>>(x,\n"
        "                   a, n);\n"
        "}\n"
    )
    old, new = KERNEL, KERNEL.replace(launch, wrapped)
    added, removed = changed_lines(old, new)
    f = file_delta(
        "csrc/scale.cu",
        classify("csrc/scale.cu", old.encode()),
        classify("csrc/scale.cu", new.encode()),
        added,
        removed,
        status="modified",
        texts=(old, new),
    )
    assert f.added_non_portable > f.removed_non_portable
    assert f.reflowed == ["cuda"]
    lines = count_lines(f, DEFAULT_POLICY.layers, strict=False)
    assert lines.counted == 0
    assert "the same code reformatted" in lines.why
    assert count_lines(f, DEFAULT_POLICY.layers, strict=True).counted == f.added_non_portable

    # New code in the same change is growth again.
    grown = new.replace("a, n);", "a, n);\n    scale<<<1, 1>>>(x, a, 1);")
    added, removed = changed_lines(old, grown)
    g = file_delta(
        "csrc/scale.cu",
        classify("csrc/scale.cu", old.encode()),
        classify("csrc/scale.cu", grown.encode()),
        added,
        removed,
        status="modified",
        texts=(old, grown),
    )
    assert g.reflowed == []
    assert count_lines(g, DEFAULT_POLICY.layers, strict=False).counted > 0


def test_a_rewrap_that_moves_where_vendor_lines_start_adds_none() -> None:
    # mritools/cupyimg 494ea73, a black reformat: `ok = (` was portable and `ok =
    # cupy.can_cast(` is not, so the added cupy lines hold a name the removed ones did not;
    # each hunk holds the same words as before, so it is the same code reformatted.
    head = "import cupy\n\n"
    old = head + "ok = (\n    cupy.can_cast(w, cupy.float64) or\n    cupy.can_cast(w, complex)\n)\n"
    new = head + "ok = cupy.can_cast(\n    w, cupy.float64\n) or cupy.can_cast(w, complex)\n"
    f = delta("cast.py", old, new)
    assert f.reflowed == ["cupy"]
    assert count_lines(f, DEFAULT_POLICY.layers, strict=False).counted == 0

    # One more call in the same change is growth again.
    grown = new + "ok = ok and cupy.cuda.is_available()\n"
    g = delta("cast.py", old, grown)
    assert g.reflowed == []
    assert count_lines(g, DEFAULT_POLICY.layers, strict=False).counted > 0

    # So is a call that was a comment: a hunk is compared by its code, comments left out.
    commented = old + "# z = cupy.ones(3)\n"
    called = new + "z = cupy.ones(3)\n"
    h = delta("cast.py", commented, called)
    assert h.reflowed == []
    assert count_lines(h, DEFAULT_POLICY.layers, strict=False).counted > 0


THIRD_KERNEL = """
__global__ void clamp(float* x, float lo, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && x[i] < lo) {
        x[i] = lo;
    }
}
"""


def test_a_kernel_split_into_files_adds_nothing() -> None:
    # SageAttention, DeepGEMM: a refactor moves kernels between files; the lines another file
    # removed word for word count in neither file.
    split = [
        delta("csrc/kernels.cu", KERNEL + SECOND_KERNEL, KERNEL),
        delta("csrc/shift.cu", None, SECOND_KERNEL),
    ]
    verdict = judge(*split)
    assert verdict.conclusion == "success"
    assert verdict.gated_lines == 0
    moved = moved_lines(split, DEFAULT_POLICY.layers)
    shifted = count_lines(split[1], DEFAULT_POLICY.layers, strict=False, moved=moved[1])
    assert shifted.counted == 0
    assert shifted.added == moved[1].into["cuda"] == moved[0].out["cuda"] > 0
    assert "moved from other files: no growth" in shifted.why


def test_moved_lines_do_not_pay_for_new_code_in_the_file_they_left() -> None:
    # The source file gives SECOND_KERNEL away and grows a new kernel of its own, though
    # its added and removed lines balance. The lines both kernels share stay in place in the
    # diff, so part of the growth shows in the file that received the move: in all, the
    # new kernel's lines count, no more and no fewer.
    changed = [
        delta("csrc/kernels.cu", KERNEL + SECOND_KERNEL, KERNEL + THIRD_KERNEL),
        delta("csrc/shift.cu", None, SECOND_KERNEL),
    ]
    verdict = judge(*changed)
    assert verdict.conclusion == "failure"
    third = count_lines(delta("t.cu", None, THIRD_KERNEL), DEFAULT_POLICY.layers, strict=False)
    assert verdict.gated_lines == third.counted > 0
    assert "csrc/kernels.cu" in {gate.path for gate in verdict.files}


def test_a_moved_kernel_with_new_code_beside_it_counts_the_new_code() -> None:
    changed = [
        delta("csrc/old.cu", KERNEL, None),
        delta("csrc/new.cu", None, KERNEL + THIRD_KERNEL),
    ]
    verdict = judge(*changed)
    [gate] = verdict.files
    third = count_lines(delta("t.cu", None, THIRD_KERNEL), DEFAULT_POLICY.layers, strict=False)
    assert (gate.path, gate.gated_lines) == ("csrc/new.cu", third.counted)
    # Strict counting counts every added line, moved or not.
    strict = judge(*changed, policy=load_policy("gate: strict\n"))
    assert strict.gated_lines > third.counted


def test_a_line_fixed_in_place_takes_no_other_files_removal() -> None:
    # dflay/gpu f542df3, found by a measuring run: add.cu fixes its cudaMemcpy line into the
    # very text add_vectors.cu removes while editing its own. add.cu's edit nets in place, so
    # it must not also take add_vectors.cu's removed line as moved: that left one line of
    # growth in add_vectors.cu though the change adds no lock-in.
    host = "int main() {{\n    int c; int *c_dev;\n    {line}\n    return c;\n}}\n"
    fixed = "cudaMemcpy(&c, c_dev, sizeof(int), cudaMemcpyDeviceToHost);"
    typo = fixed.replace("c_dev", "c_Dev")
    wider = fixed.replace("sizeof(int)", "N * sizeof(int)")
    changed = [
        delta("src/add.cu", host.format(line=typo), host.format(line=fixed)),
        delta("src/add_vectors.cu", host.format(line=fixed), host.format(line=wider)),
    ]
    verdict = judge(*changed)
    assert verdict.conclusion == "success"
    assert verdict.gated_lines == 0
    moved = moved_lines(changed, DEFAULT_POLICY.layers)
    assert moved[0].into == {}
    assert moved[1].out == {}


SETUP = """from torch.utils.cpp_extension import CUDAExtension, BuildExtension

ext = CUDAExtension(
    name="sage._qattn",
    sources=[
        "csrc/pybind.cpp",
        {sources}
    ],
    extra_compile_args={{"nvcc": [
        "-O3",
        {flags}
    ]}},
)
"""


def _setup(sources: list[str], flags: list[str]) -> str:
    return SETUP.format(
        sources="\n        ".join(f'"{s}",' for s in sources),
        flags="\n        ".join(f'"{f}",' for f in flags),
    )


def test_naming_more_sources_in_an_existing_cuda_extension_adds_nothing() -> None:
    # thu-ml/SageAttention 7688d78 splits one .cu file into seven and lists the seven in the
    # CUDAExtension that built the one: the kernels' lines are counted (moved) in their own
    # files; the names in the build's source list bring no lock-in of their own.
    old = _setup(["csrc/attn.cu"], ["-gencode=arch=compute_89,code=sm_89"])
    new = _setup([f"csrc/attn_{n}.cu" for n in range(7)], ["-gencode=arch=compute_89,code=sm_89"])
    change = delta("setup.py", old, new)
    assert change.added_non_portable == 7  # the census still counts the statement's lines
    verdict = judge(change)
    assert (verdict.conclusion, verdict.gated_lines) == ("success", 0)
    [lines] = count_lines(change, DEFAULT_POLICY.layers, strict=False).ecosystems
    assert (lines.listed, lines.counted) == (7, 0)
    assert "7 naming source files: no growth" in lines.why
    # Strict counting counts every added line, as a touch-based gate does.
    strict = judge(change, policy=load_policy("gate: strict\n"))
    assert strict.gated_lines == 7


def test_a_new_arch_flag_in_the_same_extension_still_counts() -> None:
    # The same list shape holding an nvcc flag, not a file: a new target is new lock-in.
    old = _setup(["csrc/a.cu"], ["-gencode=arch=compute_89,code=sm_89"])
    new = _setup(
        ["csrc/a.cu", "csrc/b.cu"],
        ["-gencode=arch=compute_89,code=sm_89", "-gencode=arch=compute_90a,code=sm_90a"],
    )
    verdict = judge(delta("setup.py", old, new))
    assert verdict.conclusion == "failure"
    assert verdict.gated_lines == 1


def test_a_source_list_folded_into_a_variable_adds_nothing() -> None:
    # OpenNMT/CTranslate2 5674509e: the .cu files listed in cuda_add_library move into a
    # CUDA_SOURCES variable set elsewhere; the call now names the variable.
    old = "cuda_add_library(ct2\n  ${SOURCES}\n  src/cuda/primitives.cu\n  src/ops/topk_gpu.cu\n)\n"
    new = "cuda_add_library(ct2\n  ${SOURCES}\n  ${CUDA_SOURCES}\n)\n"
    change = delta("CMakeLists.txt", old, new)
    assert change.added_non_portable == 1
    assert judge(change).conclusion == "success"


def test_a_new_cuda_extension_counts_its_call_but_not_its_file_names() -> None:
    new = _setup(["csrc/a.cu", "csrc/b.cu"], [])
    change = delta("setup.py", None, new)
    verdict = judge(change)
    assert verdict.conclusion == "failure"
    assert verdict.gated_lines == change.added_non_portable - 3  # pybind.cpp, a.cu, b.cu


EDITED_KERNEL = KERNEL.replace("x[i] *= a;", "x[i] = x[i] * a + 0.0f;").replace(
    "int i = blockIdx.x", "const int i = blockIdx.x"
)


def test_a_file_moved_with_edits_rename_detection_missed_is_an_edit_in_place() -> None:
    # A folder reorganised in a change too large for rename detection (git's rename limit),
    # or with edits past its similarity threshold: the old path is deleted, the new one
    # added. Most of its lines are the old file's word for word, so the rest are its edits,
    # judged as the same edits in place are.
    moved = [
        delta("csrc/old/scale.cu", KERNEL, None),
        delta("kernels/scale.cu", None, EDITED_KERNEL),
    ]
    in_place = judge(delta("csrc/old/scale.cu", KERNEL, EDITED_KERNEL))
    verdict = judge(*moved)
    assert verdict.conclusion == in_place.conclusion == "success"
    assert verdict.gated_lines == in_place.gated_lines == 0
    [changed] = verdict.changed
    assert changed.path == "kernels/scale.cu"
    assert "2 edited in the move from csrc/old/scale.cu: no growth" in changed.counts
    # Strict counting counts every added line of the new path.
    assert judge(*moved, policy=load_policy("gate: strict\n")).gated_lines == changed.lines.added


def test_a_moved_file_pays_for_new_code_beyond_what_its_old_path_lost() -> None:
    # The moved file also gains a kernel: the new kernel's lines count, no more.
    grown = EDITED_KERNEL + THIRD_KERNEL
    verdict = judge(delta("csrc/a.cu", KERNEL, None), delta("ops/a.cu", None, grown))
    third = count_lines(delta("t.cu", None, THIRD_KERNEL), DEFAULT_POLICY.layers, strict=False)
    assert verdict.conclusion == "failure"
    assert verdict.gated_lines == third.counted > 0


def test_a_new_file_mostly_new_is_no_move_and_a_deleted_file_pairs_once() -> None:
    # Lines of the deleted kernel reused in a file of mostly new code: no move. The deleted
    # kernel's other lines still leave the repository, so the new file's growth is what it
    # adds past them: the change's net, not every line the move did not find.
    reused = "\n".join(KERNEL.splitlines()[2:4]) + "\n" + THIRD_KERNEL + SECOND_KERNEL
    fresh = [delta("csrc/a.cu", KERNEL, None), delta("ops/b.cu", None, reused)]
    old, into = moved_lines(fresh, DEFAULT_POLICY.layers)
    assert (into.source, into.rewritten) == (None, {})
    [gate] = judge(*fresh).files
    [deleted] = count_lines(fresh[0], DEFAULT_POLICY.layers, strict=False).ecosystems
    left = deleted.removed - old.out["cuda"]
    assert left > 0
    assert gate.gated_lines == gate.lines.added - into.into["cuda"] - left > 0
    assert "offset by cuda lines other files of the change lose" in gate.lines.why
    # Two edited copies of one deleted kernel: the first is its move, the second new code.
    copies = [
        delta("csrc/a.cu", KERNEL, None),
        delta("ops/a.cu", None, EDITED_KERNEL),
        delta("ops/b.cu", None, EDITED_KERNEL),
    ]
    verdict = judge(*copies)
    assert [f.path for f in verdict.files] == ["ops/b.cu"]
    moved = moved_lines(copies, DEFAULT_POLICY.layers)
    assert (moved[1].source, moved[2].source) == ("csrc/a.cu", None)


def _renamed(text: str, *pairs: tuple[str, str]) -> str:
    for old, new in pairs:
        text = text.replace(old, new)
    return text


def test_files_folded_into_one_and_rewritten_grow_nothing() -> None:
    # qubeenyoung/gpu-powerflow d14b91f, odin-vk-guide bbc466b5, sycl-gtx 60ff47c: code of
    # several files rewritten into new ones (names changed, calls reordered), the old files
    # deleted or shrunk. Few lines survive word for word, no file pairs with one source, and
    # the change removes more CUDA lines than it adds: no growth, in any file.
    first = _renamed(
        KERNEL, ("scale", "scale_rows"), ("x[i]", "rows[i]"), ("float* x", "float* rows")
    )
    second = _renamed(SECOND_KERNEL, ("shift", "shift_rows"), ("x[i]", "rows[i]"))
    folded = [
        delta("bench/scale.cu", KERNEL, None),
        delta("bench/shift.cu", SECOND_KERNEL + THIRD_KERNEL, None),
        delta("bench/rows.cu", None, first + second),
    ]
    verdict = judge(*folded)
    assert verdict.conclusion == "success"
    assert verdict.gated_lines == 0
    [rows] = [gate.lines for gate in verdict.changed if gate.path == "bench/rows.cu"]
    assert "offset by cuda lines other files of the change lose" in rows.why
    # Removed lines of another ecosystem pay for nothing: HIP brought in still counts.
    port = delta("bench/rows.hip", None, HIP_KERNEL)
    grown = judge(*folded, port)
    hip = count_lines(port, DEFAULT_POLICY.layers, strict=False)
    assert {e.ecosystem for e in hip.ecosystems} == {"hip"}
    assert grown.conclusion == "failure"
    assert grown.gated_lines == hip.counted > 0
    # Past what the change removes, the new lines count: only the net.
    past = judge(folded[0], delta("bench/rows.cu", None, first + second))
    removed = count_lines(folded[0], DEFAULT_POLICY.layers, strict=False).removed
    added = count_lines(folded[2], DEFAULT_POLICY.layers, strict=False).added
    assert past.conclusion == "failure"
    assert past.gated_lines == added - removed > 0
    # Strict counting counts every added line.
    assert judge(*folded, policy=load_policy("gate: strict\n")).gated_lines == added


CUDA_DOCKERFILE = """\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
WORKDIR /work
RUN cmake -DENABLE_CUDA=1 -DCMAKE_CUDA_ARCHITECTURES="75-real;80-real;90-real;100-real" ..
"""
CPU_BASE_DOCKERFILE = """\
FROM ubuntu:22.04
WORKDIR /work
RUN cmake -DENABLE_CUDA=1 -DCMAKE_CUDA_ARCHITECTURES="75-real;80-real;90" ..
"""


def test_a_file_copied_before_its_edit_is_new_lock_in_not_a_move() -> None:
    # soedinglab/MMseqs2 4aaecb8f: the CUDA build's Dockerfile copied to a new name for a
    # second CUDA build, and the original edited (its CUDA base image dropped, its
    # architecture list shortened). The copy holds the original's removed lines word for
    # word; those lines cannot also be the original's edit reflowed: one of them is growth.
    copied = [
        delta("ci/Dockerfile.GPU-2014", CUDA_DOCKERFILE, CPU_BASE_DOCKERFILE),
        delta("ci/Dockerfile.GPU-2_28", None, CUDA_DOCKERFILE),
    ]
    layers = DEFAULT_POLICY.layers
    old = count_lines(delta("Dockerfile", None, CUDA_DOCKERFILE), layers, strict=False)
    new = count_lines(delta("Dockerfile", None, CPU_BASE_DOCKERFILE), layers, strict=False)
    verdict = judge(*copied)
    assert verdict.conclusion == "failure"
    # The repository holds the original's lines twice, less what the edit dropped.
    assert verdict.gated_lines == new.counted == old.counted - 1 > 0
    # Moved, the original deleted, the same file is no growth.
    assert judge(delta("ci/Dockerfile.GPU", CUDA_DOCKERFILE, None), copied[1]).gated_lines == 0
    # Edited in place alone, the original shrinks: no growth.
    assert judge(copied[0]).conclusion == "success"


NAMES = ("Malloc", "Free", "Memcpy", "DeviceSynchronize", "Stream_t")


def vendor_header(*vendors: str, body: str = "") -> str:
    """superlu_dist's gpu_wrapper.h, jaxlib's vendor.h: neutral gpu* names defined under one
    #if branch per vendor."""
    out = ["#pragma once"]
    for n, (vendor, header) in enumerate(vendors):
        switch = vendor.upper()
        out.append(f"#if defined(USE_{switch})" if n == 0 else f"#elif defined(USE_{switch})")
        out.append(f"#include <{header}>")
        out += [f"#define gpu{name} {vendor}{name}" for name in NAMES]
    out.append("#endif")
    return "\n".join(out) + "\n" + body


CUDA, HIP = ("cuda", "cuda_runtime.h"), ("hip", "hip/hip_runtime.h")


def test_a_header_aliasing_neutral_names_for_two_vendors_is_no_growth() -> None:
    shim = delta("src/gpu_wrapper.h", None, vendor_header(CUDA, HIP))
    assert set(shim.added_ecosystems) == {"cuda", "hip"}
    verdict = judge(shim)
    assert verdict.conclusion == "success"
    [changed] = verdict.changed
    lines = changed.lines
    assert lines.counted == 0
    for e in lines.ecosystems:
        assert e.aliased == e.added > 0
    assert "in a header aliasing several vendors: no growth" in changed.counts
    # Strict counting counts every line.
    assert judge(shim, policy=load_policy("gate: strict\n")).gated_lines == lines.added


def test_one_vendor_aliases_and_code_beside_a_shim_still_count() -> None:
    # Neutral names for CUDA alone bind the code to NVIDIA: growth.
    alone = judge(delta("src/gpu_wrapper.h", None, vendor_header(CUDA)))
    assert alone.conclusion == "failure"
    assert alone.gated_lines > 0
    # One name defined twice is no portability header.
    single = vendor_header(CUDA, HIP).replace("gpuFree", "cudaOnlyFree")
    for name in ("Memcpy", "DeviceSynchronize", "Stream_t"):
        single = single.replace(f"gpu{name} hip", f"hipOnly{name} hip")
    assert judge(delta("src/one.h", None, single)).gated_lines > 0
    # A kernel in the shim's file is a kernel, whatever the aliases around it.
    kernel = judge(delta("src/gpu.cuh", None, vendor_header(CUDA, HIP, body=SECOND_KERNEL)))
    shift = count_lines(delta("s.cu", None, SECOND_KERNEL), DEFAULT_POLICY.layers, strict=False)
    assert kernel.gated_lines == shift.counted > 0
