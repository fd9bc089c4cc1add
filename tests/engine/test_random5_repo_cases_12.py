"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h39-random-e).

The pool is ``/work/pool-h39.txt``, ordered with ``random.seed("h39-pool")``; this lane took
positions 49-60. One could not be read: theninj4/strix-halo-vulkan (no snapshot). Fifteen
files of each remaining repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts, and labelled before any fix, with up to twenty files lockin calls
non-portable and ten GPU-looking files it calls portable; three commits touching GPU code
were drawn with ``random.Random("owner/name:commits")`` and judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- samuelzxu/kernelsanders: GPU MODE submissions for AMD MI355X, on ROCm's aiter ------------


def test_kernelsanders_aiter_imports_are_amd_library_code() -> None:
    # problems/amd_202602/moe-mxfp4/research/*.py: the MoE submissions import aiter's fused MoE
    # and CK stage kernels and call them. Before, every line was portable.
    source = b"""\
import torch
import aiter
from aiter import ActivationType, QuantType
from aiter.fused_moe import (
    moe_sorting,
    get_inter_dim,
)


def custom_kernel(data):
    hidden, weights = data
    out = torch.empty_like(hidden)
    aiter.ck_moe_stage1_fwd(hidden, weights, out)
    return out
"""
    assert _rules("research/117_kernel_override.py", source) == {"hip.aiter-python"}
    # The imports, and the call through the module (hip.aiter-python as lane h39-random-b
    # wrote it: `aiter.ck_moe_stage1_fwd(...)` is an aiter op too).
    assert _layers("research/117_kernel_override.py", source) == {
        "vendor-library": 7,
        "portable": 5,
    }


def test_kernelsanders_aiter_triton_gemm_is_still_aiter() -> None:
    # problems/amd_202602/mxfp4-mm/358_read_wrapper.py: aiter's Triton GEMM, imported from the
    # package that installs only on ROCm; the module's own code picks configs.
    source = b"""\
import torch
from aiter.ops.triton.gemm.basic.gemm_a16wfp4 import gemm_a16wfp4_preshuffle


def custom_kernel(data):
    a, b, scale = data
    return gemm_a16wfp4_preshuffle(a, b, scale, prequant=True, dtype=torch.bfloat16)
"""
    assert _layers("mxfp4-mm/358_read_wrapper.py", source) == {
        "vendor-library": 1,
        "portable": 4,
    }


def test_kernelsanders_hip_runtime_variables_set_before_import() -> None:
    # problems/amd_202602/moe-mxfp4/research/106_cktile_d2048.py: the HIP runtime is tuned
    # through its own variables before torch loads. Before, the two lines were portable.
    source = b"""\
import os

os.environ['HIP_FORCE_DEV_KERNARG'] = '1'
os.environ['GPU_MAX_HW_QUEUES'] = '2'
os.environ.pop('HIP_VISIBLE_DEVICES', None)

import torch
"""
    assert _rules("research/106_cktile_d2048.py", source) == {"env.hip-variables-python"}
    assert _layers("research/106_cktile_d2048.py", source) == {"vendor-path": 2, "portable": 3}


def test_kernelsanders_python_aiter_builtin_is_no_import() -> None:
    # The negative: Python's aiter() builtin, and a task file naming the library in prose.
    source = b"""\
async def drain(stream):
    it = aiter(stream)
    return [x async for x in it]

DESCRIPTION = "Reference: from aiter import fused_moe on MI355X"
"""
    assert _layers("problems/amd/utils.py", source) == {"portable": 4}


# -- qinx18/triton_performance_analysis: LLM-written Triton against OpenMP offload ------------


def test_triton_performance_analysis_nvc_offload_flags_in_python() -> None:
    # pipeline/c_reference/app_omp_gpu_bench.py: writes `#pragma omp target` benchmarks and
    # compiles them with the NVIDIA HPC SDK for one GPU generation. Before, portable.
    source = b"""\
import subprocess

NVC = "/opt/nvidia/hpc_sdk/Linux_x86_64/25.5/compilers/bin/nvc"


def compile_bench(src, exe):
    result = subprocess.run(
        [NVC, "-mp=gpu", "-gpu=cc86,mem:managed", "-O2",
         "-o", exe, src, "-lm"],
        capture_output=True, text=True,
    )
    return result.returncode == 0
"""
    assert _rules("pipeline/c_reference/app_omp_gpu_bench.py", source) == {
        "build.offload-nvidia-python"
    }
    assert _layers("pipeline/c_reference/app_omp_gpu_bench.py", source)["vendor-path"] == 1


def test_triton_performance_analysis_openmp_target_source_stays_portable() -> None:
    # pipeline/c_reference/omp_gpu_bench/bench_va.c: the benchmark itself is standard OpenMP
    # offload, which every vendor's compiler takes; the CPU build of the same script too.
    source = b"""\
void va_kernel(float* a, const float* b, int n) {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) {
        a[i] = b[i];
    }
}
"""
    assert _layers("omp_gpu_bench/bench_va.c", source) == {"portable": 6}
    cpu = b'import subprocess\nsubprocess.run(["gcc", "-fopenmp", "-O2", "x.c"])\n'
    assert _layers("pipeline/cpu_bench.py", cpu) == {"portable": 2}


def test_triton_performance_analysis_op_labels_are_no_generated_kernel() -> None:
    # pipeline/nondeterminism_test.py: describes a generated kernel by the ops it uses. Before,
    # the label "tl.dot" was one kernel line (and in a def, the whole def).
    source = b"""\
def extract_code_info(code):
    has_arange = "tl.arange" in code
    has_tl_dot = "tl.dot" in code
    parts = []
    if has_arange:
        parts.append("vectorized")
    if has_tl_dot:
        parts.append("tl.dot")
    return ", ".join(parts)
"""
    assert _layers("pipeline/nondeterminism_test.py", source) == {"portable": 9}


def test_triton_performance_analysis_generator_writing_source_stays_kernel() -> None:
    # The same repository's prompt builders append Triton lines one by one; a line holding a
    # real op call (not the bare name) keeps the def a generator of kernel text.
    source = b"""\
def strategy(lines, dim):
    lines.append("@triton.jit")
    lines.append("def kernel(a_ptr, N: tl.constexpr, BLOCK: tl.constexpr):")
    lines.append(f"    {dim}_offsets = tl.arange(0, BLOCK)")
    return lines
"""
    assert _layers("analysis/compute_parallel_dims.py", source) == {"kernel": 5}


# -- IaroslavElistratov/triton-autodiff: a fork of Triton -------------------------------------


def test_triton_fork_skip_message_naming_tl_dot_is_no_kernel() -> None:
    # python/test/unit/language/test_core.py: test_dot skips on old GPUs with a message naming
    # tl.dot(). Before, the message made the whole 220-line test a generated kernel.
    source = b"""\
import pytest


def test_dot(M, N, K, device):
    capability = get_capability(device)
    if capability[0] < 7:
        pytest.skip("Only test tl.dot() on devices with sm >= 70")
    if M * N > 4096:
        raise ValueError(f"tl.dot() tile {M}x{N} is too large")
    a = make_input(M, K)
    b = make_input(K, N)
    check(a @ b)
"""
    assert _layers("python/test/unit/language/test_core.py", source) == {"portable": 10}


# -- goldbar123467/openttd-cuda-rl and NoxxGames/LiberPrimus-GPU: "cuda" as a name ------------


def test_openttd_dependency_lock_keyed_by_tool_is_no_device() -> None:
    # tests/project/traceability/test_v1_dependency_cache.py: a lock file's host versions, one
    # of them CUDA's. Before, "cuda" was a device string.
    source = b"""\
def make_lock(profile):
    return {
        "profile_id": profile,
        "host": {
            "python": "3.12",
            "cuda": "13.0.88",
            "gpu_cc": "12.0",
        },
    }
"""
    assert _layers("tests/test_v1_dependency_cache.py", source) == {"portable": 9}


def test_liberprimus_build_folder_joined_with_the_path_operator() -> None:
    # python/libreprimus/cuda_kernel/run_records.py: the test binary CMake builds under a
    # folder named cuda. Before, each join was a device string.
    source = b"""\
from pathlib import Path

ROOT = Path(__file__).parents[2]
SCHEMA_DIR = ROOT / "schemas" / "cuda"


def binary_path(build_dir: Path) -> Path:
    return build_dir / "cuda" / "tests" / "Debug" / "shift_score_test.exe"
"""
    assert _layers("python/libreprimus/cuda_kernel/run_records.py", source) == {"portable": 5}


def test_dict_value_and_default_device_still_count() -> None:
    # The negatives' other side (goldbar123467/openttd-cuda-rl's run_m22_training.py): a
    # dict's value, and a default argument, name the device the code runs on.
    source = b"""\
def config(seed, device: str = "cuda"):
    return {"seed": seed, "device": "cuda:0"}
"""
    assert _rules("scripts/v2/run_m22_training.py", source) == {"torch.device-string"}
    assert _layers("scripts/v2/run_m22_training.py", source) == {"vendor-path": 2}


# -- Charbel199/gpgpu-arena: one reduction in CUDA, Triton, cuTile and Warp (checked right) ---


def test_gpgpu_arena_cutile_kernel_and_cupy_dummies() -> None:
    # kernels/reduce/reduce.cutile.py: a cuTile kernel (NVIDIA only) compiled with CuPy arrays
    # as its example arguments.
    source = b"""\
import cupy as cp
import cuda.tile as ct

TILE = 256


@ct.kernel(occupancy=2)
def reduce_sum(x, out, TILE: ct.Constant[int]):
    pid = ct.bid(0)
    tile = ct.load(x, index=(pid,), shape=(TILE,))
    ct.atomic_add(out, (0,), ct.sum(tile))


dummy = cp.ones(1024, dtype=cp.float32)
"""
    layers = _layers("kernels/reduce/reduce.cutile.py", source)
    assert layers["kernel"] == 5
    assert layers["vendor-path"] >= 2
