"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-y).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some are not GPU
code at all). This lane took sub-pool positions 113-119 and skipped none: all seven had a
snapshot. Read were Skyshader77/gameOfStones (a turn-based board game in TypeScript, an
Angular client and a NestJS server, no GPU code), jMetal/jMetal (a Java framework of
multi-objective metaheuristics, no GPU code; "hip" appears only in Spanish comments),
AStaroverov/exp_webgpu_tf (a browser tank game rendered with WebGPU: WGSL shaders in tagged
TypeScript template literals, TypeScript host code, and reinforcement-learning agents on
TensorFlow.js), TryDotAtwo/MultiGPUBeamSearch (a multi-GPU beam search solver: CUDA kernels
with CUB radix sorts and CUTLASS GEMMs, a torch extension driving them, NCCL settings in
shell, Compose and notebooks), PASSIONLab/CombBLAS (a distributed sparse-matrix library in
C++ with MPI; its HipMCL application is "high-performance MCL", not AMD's HIP), TritonSE/
4FLOT-Website-Revamp (a charity's website in Next.js and Express, no GPU code) and
zhaojshust/triton-ascend (Huawei's Ascend fork of the Triton compiler: the upstream compiler's
C++ and Python, tutorials, triton_kernels, and Chinese API examples that run Triton kernels on
NPU tensors). Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (up to 5 a repository), and
up to three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- zhaojshust/triton-ascend: Triton's tutorials branch on the active target ------------------


def test_triton_tutorial_branches_on_hip_backend_and_gfx_arch_are_vendor_path() -> None:
    # python/tutorials/02-fused-softmax.py (a miss before: kernel only): the tutorial's
    # is_hip()/is_cdna() helpers compare the active target with "hip" and a list of CDNA gfx
    # names to size the launch for AMD's register file; the "cuda" comparison of the same kind
    # was vendor-path already.
    source = b"""\
import triton
import triton.language as tl
from triton.runtime import driver


def on_amd():
    return driver.active.get_current_target().backend == "hip"


def on_cdna():
    return on_amd() and driver.active.get_current_target().arch in ("gfx90a", "gfx942")


@triton.jit
def row_scale(src, dst, stride, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(src + row * stride + cols, mask=cols < n, other=0.0)
    tl.store(dst + row * stride + cols, x * 2.0, mask=cols < n)
"""
    path = "python/tutorials/02-fused-softmax.py"
    assert _rules(path, source) == {"triton.jit", "triton.hip-target-check"}
    layers = _layers(path, source)
    assert layers["vendor-path"] == 2
    assert layers["kernel"] == 6


def test_triton_target_table_with_both_vendors_counts_each_branch() -> None:
    # python/tutorials/07-extern-functions.py (right before, pinned): is_cuda() and is_hip()
    # pick the device library of each back end; the CUDA test was vendor-path, and the HIP
    # test now is too.
    source = b"""\
def on_nvidia():
    return triton.runtime.driver.active.get_current_target().backend == "cuda"


def on_amd():
    return triton.runtime.driver.active.get_current_target().backend == "hip"
"""
    path = "python/tutorials/07-extern-functions.py"
    assert _rules(path, source) == {"torch.device-string", "triton.hip-target-check"}
    assert _layers(path, source)["vendor-path"] == 2


def test_hip_backend_named_in_a_comment_or_message_is_no_branch() -> None:
    # The negative of the new rule: words about the comparison, and a back end whose name
    # only starts with "hip", branch on nothing.
    source = b"""\
# on AMD the tutorial tests .backend == "hip"
print('compare .backend == "hip" to find the AMD target')
use_lt = cfg.backend == "hipblaslt"
"""
    assert "triton.hip-target-check" not in _rules("tools/notes.py", source)


def test_ascend_api_example_kernel_on_npu_tensors() -> None:
    # docs/zh/python-api/_examples/triton.language.floordiv.py (right before, pinned): a
    # Triton kernel, and the test moving its tensors to the Ascend NPU with .npu().
    source = b"""\
import torch
import triton
import triton.language as tl


@triton.jit
def div_kernel(out_ptr, a_ptr, b_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, tl.load(a_ptr + offs) // tl.load(b_ptr + offs))


def check():
    a = torch.randint(1, 9, (64,), dtype=torch.int32).npu()
    b = torch.randint(1, 9, (64,), dtype=torch.int32).npu()
    out = torch.empty_like(a)
    div_kernel[1, 1, 1](out, a, b, N=64)
"""
    path = "docs/zh/python-api/_examples/triton.language.floordiv.py"
    assert _rules(path, source) == {"triton.jit", "ascend.torch-plugin"}
    assert _layers(path, source) == {"kernel": 4, "vendor-path": 2, "portable": 6}


# -- TryDotAtwo/MultiGPUBeamSearch: CUDA kernels, CUB and NCCL settings ------------------------


def test_host_device_helpers_behind_a_cudacc_macro_are_kernel_code() -> None:
    # beam_types.hpp (right before, pinned): helpers marked with a macro that expands to
    # __host__ __device__ under nvcc, beside plain structs and a host-only function.
    source = b"""\
#pragma once
#include <cstdint>

#ifdef __CUDACC__
#define SOLVER_HD __host__ __device__
#else
#define SOLVER_HD
#endif

struct Key { uint64_t lo; uint64_t hi; };

SOLVER_HD inline uint32_t pack_move(uint16_t rank, uint8_t move) {
    return (uint32_t(rank) << 8) | uint32_t(move);
}

SOLVER_HD inline uint8_t move_of(uint32_t packed) {
    return uint8_t(packed & 0xffu);
}

inline uint32_t clamp_host(uint32_t v) { return v > 9u ? 9u : v; }
"""
    path = "solver_types.hpp"
    # The #define under nvcc counts with the two helpers; the guard is the vendor-path line.
    assert _rules(path, source) == {"cuda.build-guard", "cuda.device-function", "cuda.device-macro"}
    assert _layers(path, source) == {"kernel": 7, "vendor-path": 1, "portable": 7}


def test_cub_radix_sort_launcher_is_vendor_library() -> None:
    # beam_kernels_stream3.cu (right before, pinned): the host launcher sorts key/value pairs
    # with CUB's device-wide radix sort on the caller's stream (hipCUB on AMD).
    source = b"""\
#include <cuda_runtime.h>
#include <cub/cub.cuh>

extern "C" void sort_pairs(void* tmp, size_t& tmp_bytes, const unsigned* k_in, unsigned* k_out,
                           const unsigned* v_in, unsigned* v_out, int n, cudaStream_t stream) {
    cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, k_in, k_out, v_in, v_out, n, 0, 32, stream);
}
"""
    layers = _layers("sort_stage.cu", source)
    assert layers.get("vendor-library", 0) >= 1
    assert layers.get("vendor-path", 0) >= 1


def test_nccl_and_cuda_settings_in_a_container_entrypoint_are_vendor_path() -> None:
    # scripts/entrypoint.sh (right before, pinned): defaults for CUDA_HOME, NCCL's transport
    # knobs and the CUDA architecture list before exec'ing the job.
    source = b"""\
#!/usr/bin/env bash
set -euo pipefail
export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
export NCCL_DEBUG="${NCCL_DEBUG:-WARN}"
export NCCL_P2P_LEVEL="${NCCL_P2P_LEVEL:-NVL}"
export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}"
exec "$@"
"""
    layers = _layers("scripts/entrypoint.sh", source)
    assert layers["vendor-path"] == 4
    assert "kernel" not in layers


# -- AStaroverov/exp_webgpu_tf: WGSL in tagged TypeScript templates ----------------------------


def test_wgsl_tagged_template_is_kernel_and_webgpu_host_code_portable() -> None:
    # packages/renderer/src/WGSL/createPresent.ts (right before, pinned): a full-screen blit
    # shader in a wgsl-tagged template, and the WebGPU calls that build its pipeline.
    source = b"""\
import { wgsl } from "./wgsl.ts";

const blit = wgsl /* wgsl */ `
struct Out {
  @builtin(position) pos: vec4f,
  @location(0) uv: vec2f,
};

@fragment
fn fs_main(v: Out) -> @location(0) vec4f {
  return textureSample(srcTexture, srcSampler, v.uv);
}
`;

export function makeSampler(device: GPUDevice) {
  return device.createSampler({ magFilter: "nearest", minFilter: "nearest" });
}
"""
    layers = _layers("packages/renderer/src/WGSL/createPresent.ts", source)
    assert set(layers) == {"kernel", "portable"}
    assert 7 <= layers["kernel"] <= 10


# -- PASSIONLab/CombBLAS and jMetal/jMetal: "hip" that is not AMD's HIP -------------------------


def test_hipmcl_names_and_spanish_hipotesis_are_portable() -> None:
    # Applications/MCL.cpp (CombBLAS) names its parameters after HipMCL, high-performance MCL;
    # jMetal's Ebes.java says "hipotesis de cargas" in comments. Neither is AMD's HIP.
    cxx = b"""\
struct HipMCLParam { double inflation; int prunelimit; };

void InitParam(HipMCLParam& param) {
    param.inflation = 2.0;
    std::cout << "Running HipMCL with inflation " << param.inflation << std::endl;
}
"""
    java = b"""\
public class Frame {
  int QH_ = 0; // hipotesis de cargas
  double load(int hip) { return hip * 1.5; }
}
"""
    assert not _rules("Applications/MCL.cpp", cxx)
    assert not _rules("src/main/java/org/example/Frame.java", java)
