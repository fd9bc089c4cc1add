"""classify() on whole files: layers, precedence, regions, findings and the report's shape."""

from __future__ import annotations

import pickle

from bot.engine import classify
from bot.engine.model import LAYERS, FileReport, Layer

MIXED_CU = b"""\
// Scale kernel and its launcher.
#include <cuda_runtime.h>
#include <vector>

template <int N>
__global__ void scale(float* x, float a) {
  // cuda comment inside the kernel
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  x[i] *= a;
}

int count(const std::vector<int>& v) { return static_cast<int>(v.size()); }

void launch(float* x, int n, cudaStream_t s) {
  scale<4><<<n / 256, 256, 0, s>>>(x, 2.0f);
}
"""


def _by_line(report: FileReport) -> dict[int, str | None]:
    return {i + 1: rule for i, rule in enumerate(report.line_rules)}


def test_mixed_cu_file_places_each_code_line_once() -> None:
    report = classify("csrc/scale.cu", MIXED_CU)
    lines = _by_line(report)
    assert report.language == "CUDA"
    assert [lines[1], lines[4], lines[7]] == [None, None, None]  # comments, blank
    assert lines[2] == "cuda.include"
    assert lines[3] == ""  # portable include
    assert {lines[n] for n in (5, 6, 8, 10, 11)} == {"cuda.kernel"}  # template line included
    assert lines[13] == ""  # plain C++
    assert lines[15] == "cuda.runtime"
    assert lines[16] == "cuda.launch"
    assert lines[17] == ""  # the statement with cudaStream_t ends at the body's brace
    assert report.code_lines == sum(1 for r in report.line_rules if r is not None)
    assert sum(report.layers.values()) == report.code_lines
    assert report.layers[Layer.KERNEL] == 5
    assert report.ecosystems == {"cuda": report.non_portable_lines}


def test_findings_are_exactly_the_counted_lines() -> None:
    report = classify("csrc/scale.cu", MIXED_CU)
    owned: dict[int, str] = {}
    for finding in report.findings:
        assert finding.start_line <= finding.end_line
        for line in range(finding.start_line, finding.end_line + 1):
            rule = report.line_rules[line - 1]
            assert rule in (None, finding.rule)  # non-code lines may sit inside a finding
            if rule:
                assert line not in owned
                owned[line] = finding.rule
    counted = {i + 1: r for i, r in enumerate(report.line_rules) if r}
    assert owned == counted


def test_report_has_all_layers_and_pickles() -> None:
    report = classify("empty.py", b"")
    assert set(report.layers) == set(LAYERS)
    assert report.code_lines == 0
    again = pickle.loads(pickle.dumps(classify("csrc/scale.cu", MIXED_CU)))
    assert again.layers == classify("csrc/scale.cu", MIXED_CU).layers


def test_cuda_in_comments_docstrings_and_messages_counts_for_nothing() -> None:
    source = b'''\
"""Runs on cuda devices; call torch.cuda.synchronize() first."""
import logging

log = logging.getLogger(__name__)


def step(model, x):
    # torch.cuda.synchronize() would go here on cuda
    log.info("moving batch to cuda: %s", x.shape)
    raise_if(x is None, "cuda tensor expected, use .cuda()")
    return model(x)
'''
    report = classify("train/step.py", source)
    assert report.layers[Layer.PORTABLE] == report.code_lines == 6
    assert report.findings == []


def test_a_prefixed_docstring_is_no_code_line_but_a_prefixed_value_is() -> None:
    # ml-explore/mlx: r"""...""" docstrings (LaTeX in them). scc counts a docstring as
    # comment whatever its prefix; the prefix alone must not make its first line code.
    source = b'''\
def sigmoid(x):
    r"""Applies the sigmoid function.

    .. math:: \\sigma(x) = 1 / (1 + e^{-x})
    """
    return x
KERNEL = r"""
__global__ void k() {}
"""
'''
    report = classify("mlx/nn/activations.py", source)
    assert report.code_lines == 5  # def, return, and the three lines of KERNEL's value


def test_higher_layer_wins_and_enclosing_region_breaks_ties() -> None:
    source = b"""\
__global__ void k(float* x, cublasHandle_t h) {
  int i = threadIdx.x;
  x[i] = 0;
}
"""
    report = classify("k.cu", source)
    assert report.line_rules == ["cuda.kernel"] * 4  # not cublas (lower), not the builtin line


def test_nested_region_of_fewer_vendors_wins_its_lines() -> None:
    # TensorFlow kernels: a CUDA-only branch inside the CUDA-or-ROCm build guard runs on
    # NVIDIA only; inside that branch the usual order holds (the guard outranks the call).
    source = b"""\
#if GOOGLE_CUDA || TENSORFLOW_USE_ROCM
void Sync(const GpuDevice& d) {
  int n = 4;
#if GOOGLE_CUDA
  cudaStreamSynchronize(d.stream());
#endif
}
#endif
"""
    lines = _by_line(classify("sync_op.cc", source))
    assert [lines[n] for n in range(1, 9)] == [
        *["tensorflow.gpu-guard"] * 3,
        *["cuda.build-guard"] * 3,
        *["tensorflow.gpu-guard"] * 2,
    ]
    # The converse does not hold: a region of more vendors inside an NVIDIA-only one
    # still loses to the enclosing region.
    inverted = b"""\
#if GOOGLE_CUDA
void Sync(const GpuDevice& d) {
#if GOOGLE_CUDA || TENSORFLOW_USE_ROCM
  int n = 4;
#endif
}
#endif
"""
    assert classify("sync_op.cc", inverted).line_rules == ["cuda.build-guard"] * 7


def test_kernel_lines_inside_a_runtime_statement_split_the_finding() -> None:
    source = b"""\
void f(float* p) {
  cudaMemcpy(p, p, 4,
             cudaMemcpyDeviceToDevice);
  g(p);
  cudaFree(p);
}
"""
    report = classify("f.cpp", source)
    spans = [(f.rule, f.start_line, f.end_line) for f in report.findings]
    assert spans == [("cuda.runtime", 2, 3), ("cuda.runtime", 5, 5)]


def test_rocm_guard_branches_are_classified_by_condition() -> None:
    source = b"""\
#ifdef USE_ROCM
  #include <hip/hip_runtime.h>
  #define WARP 64
#else
  #define WARP 32
#endif
int lanes = WARP;
"""
    lines = _by_line(classify("compat.h", source))
    assert lines[1] == lines[2] == lines[3] == "hip.platform-guard"  # the enclosing region
    assert lines[4] == lines[5] == lines[6] == "cuda.rocm-else"
    assert lines[7] == ""


def test_nested_preprocessor_blocks_are_matched_by_depth() -> None:
    source = b"""\
#if __CUDA_ARCH__ >= 800
#if USE_FAST
fast();
#else
slow();
#endif
done();
#endif
after();
"""
    lines = _by_line(classify("copy.cuh", source))
    assert all(lines[n] == "cuda.arch-guard" for n in range(1, 9))
    assert lines[9] == ""


def test_triton_kernel_is_a_whole_decorated_def() -> None:
    source = b"""\
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n

    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1, mask=mask)


def add(x):
    y = torch.empty_like(x)
    add_kernel[(1,)](x, y, x.numel(), BLOCK=1024)
    return y
"""
    report = classify("ops/add.py", source)
    assert [(f.rule, f.start_line, f.end_line) for f in report.findings] == [("triton.jit", 6, 12)]
    assert report.layers[Layer.KERNEL] == 6
    assert report.ecosystems == {"triton": 6}


def test_metal_file_is_kernel_as_a_whole_but_comments_do_not_count() -> None:
    source = b"// header\n#include <metal_stdlib>\n\nkernel void k(device float* x) { }\n"
    report = classify("shaders/k.metal", source)
    assert report.layers[Layer.KERNEL] == 2
    assert report.findings[0].rule == "metal.shader-file"


def test_unknown_language_is_not_counted() -> None:
    report = classify("docs/notes.unknownext", b"# Title\n\nUse torch.cuda here.\n")
    assert report.language is None
    assert report.code_lines == 0
    assert report.line_rules == [None, None, None]


def test_binary_and_undecodable_input() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4
    report = classify("img/logo.cu", png)
    assert report.skipped == "binary"
    assert report.code_lines == 0
    noise = bytes(range(128, 256)) * 100
    assert classify("noise.py", noise).skipped == "binary"


def test_latin1_text_is_still_classified() -> None:
    source = "# caf\xe9\nx = torch.zeros(1, device='cuda')\n".encode("latin-1")
    report = classify("a.py", source)
    assert report.skipped is None
    assert report.line_rules == [None, "torch.device-string"]


def test_text_in_a_legacy_code_page_is_still_classified() -> None:
    # Mostly not UTF-8 where the comments are: before, both were skipped as binary and their
    # lines never counted.
    header = "// TODO: описание класса\nclass Application\n{\n};\n".encode("cp1251")
    report = classify("src/Application.h", header)
    assert report.skipped is None
    assert report.code_lines == 3
    banner = "// 行列の加算カーネル。各スレッドが一つの要素を計算する。\n" * 4
    kernel = banner + "__global__ void add(float *a, float *b) {\n  a[threadIdx.x] += b[0];\n}\n"
    report = classify("src/add.cu", kernel.encode("shift_jis"))
    assert report.skipped is None
    assert report.layers[Layer.KERNEL] == 3


def test_undecodable_bytes_that_are_no_lines_of_text_stay_binary() -> None:
    # Every byte reads as cp1251, but text holds no such control bytes.
    data = ("описание\x01\x02\n" * 200).encode("cp1251")
    assert classify("src/blob.h", data).skipped == "binary"
    # A bright image: no control byte, no line break past its header.
    pixels = b"P6\n64 64\n255\n" + bytes(range(0xC0, 0x100)) * 384
    assert classify("data/sample/scene.ppm", pixels).skipped == "binary"
    assert classify("data/weights.bin", bytes(range(0xC0, 0x100))).skipped == "binary"


def test_generated_files_are_flagged() -> None:
    generated = b'// This file is auto-generated. See generate_kernels.py\n#include "k.h"\n'
    instantiation = b"""\
#include "flash_fwd_launch_template.h"

#ifndef FLASHATTENTION_DISABLE_HDIM128
namespace flash {
template void run_mha_fwd_<80, cutlass::half_t, 128>(
    Flash_fwd_params &params, cudaStream_t stream);
extern template struct Fwd<cutlass::half_t, 128>;
}  // namespace flash
#endif
"""
    # Without a marker, a specialization with a body is written code, however short.
    specialization = b"""\
#include "flash_fwd_launch_template.h"

template<>
void run_mha_fwd_<cutlass::half_t, 128, false>(Flash_fwd_params &params, cudaStream_t stream) {
    run_mha_fwd_hdim128<cutlass::half_t, false>(params, stream);
}
"""
    assert classify("gen.cu", generated).generated
    assert classify("flash_fwd_hdim128_fp16_sm80.cu", instantiation).generated
    assert not classify("flash_fwd_hdim128_fp16_sm80.cu", specialization).generated
    assert classify("flash_fwd_hdim128_fp16_sm80.cu", generated + specialization).generated
    assert not classify("csrc/scale.cu", MIXED_CU).generated


def test_header_with_device_code_is_classified_by_content() -> None:
    source = b"""\
#pragma once
#define HD_INLINE __host__ __device__ __forceinline__
HD_INLINE float sq(float x) { return x * x; }
inline float cube(float x) { return x * x * x; }
"""
    lines = _by_line(classify("include/math.h", source))
    assert lines[1] == ""
    report = classify("include/math.h", source)
    assert lines[2] in {"cuda.device-macro", "cuda.device-function"}
    assert lines[3] == "cuda.device-macro"
    assert lines[4] == ""
    assert report.layers[Layer.KERNEL] == 2


def test_a_device_macro_use_is_the_longest_name_at_its_place() -> None:
    # Of D and DX at one offset the use is of DX (leftmost-longest); a use that a longer
    # name's failed attempt runs past (D_X, then D) is still found.
    source = b"""\
#define D __device__
#define DX __device__ __forceinline__
#define D_XY __host__ __device__
DX float one(float x) { return x; }
int host_only(int y) { return y; }
D_X float two(float x) { return x; }
D float three(float x) { return x; }
"""
    lines = _by_line(classify("include/m.cuh", source))
    assert [lines[i] for i in range(4, 8)] == [
        "cuda.device-macro",
        "",
        "",  # D_X is no macro of this file
        "cuda.device-macro",
    ]


def test_hip_cpp_file_kernels_are_hip() -> None:
    source = b"""\
#include <hip/hip_runtime.h>
__global__ void add(float* x) { x[threadIdx.x] += 1.0f; }
void run(float* x) { hipLaunchKernelGGL(add, dim3(1), dim3(64), 0, 0, x); }
"""
    report = classify("ck/add.cpp", source)
    assert report.language == "HIP"
    assert _by_line(report)[2] == "hip.kernel"
    assert set(report.ecosystems) == {"hip"}


def test_cupy_source_assigned_to_a_name_is_kernel() -> None:
    source = b'''\
import cupy as cp

_SRC = r"""
extern "C" __global__ void relu(float* x) {
    x[threadIdx.x] = fmaxf(x[threadIdx.x], 0.f);
}
"""
relu = cp.RawModule(code=_SRC).get_function("relu")
'''
    lines = _by_line(classify("ops/relu.py", source))
    assert all(lines[n] == "cupy.raw-kernel" for n in range(3, 8))
    assert lines[8] == lines[1] == "cupy.api"


def test_requirements_pins_are_vendor_path_per_line() -> None:
    source = b"numpy>=1.26\n# GPU\ntorch==2.3.0+cu121\nnvidia-nccl-cu12==2.20.5\n"
    lines = _by_line(classify("requirements-gpu.txt", source))
    assert lines == {1: "", 2: None, 3: "deps.cuda-wheel", 4: "deps.cuda-wheel"}


def test_cpp_under_a_hip_folder_is_hip() -> None:
    source = b"__global__ void add(float* x) { x[threadIdx.x] += 1.0f; }\n"
    assert classify("csrc/hip_fmha/add.cpp", source).line_rules == ["hip.kernel"]
    assert classify("csrc/cuda/add.cpp", source).line_rules == ["cuda.kernel"]


def test_crlf_and_bom_do_not_change_the_result() -> None:
    crlf = b"\xef\xbb\xbf" + MIXED_CU.replace(b"\n", b"\r\n")
    assert (
        classify("csrc/scale.cu", crlf).line_rules == classify("csrc/scale.cu", MIXED_CU).line_rules
    )
    # Also when a stray byte that is not UTF-8 makes the file decode with replacements.
    stray = MIXED_CU + b"// \xff\n"
    assert (
        classify("csrc/scale.cu", b"\xef\xbb\xbf" + stray).line_rules
        == classify("csrc/scale.cu", stray).line_rules
    )
    continued = b"#define LAUNCH(k) \\\r\n  k<<<1, 32>>>()\r\nint x;\r\n"
    assert classify("a.cu", continued).line_rules == ["cuda.launch", "cuda.launch", ""]


def test_a_dot_m_file_is_matlab_or_objective_c_by_its_content() -> None:
    # AMReX's Tools/Postprocessing keeps MATLAB scripts; hashcat's src/ext_metal.m is
    # Objective-C. scc tells them apart the same way (its per-language counts agree).
    matlab = b"""\
% read a plotfile written by binwrite
function [x, y] = binread(name)
  fid = fopen(name, 'r');   % 'r': read
  x = fread(fid, 1, 'int')';
  %{
  y = fread(fid, 2, 'double');
  %}
  y = x';
end
"""
    report = classify("Tools/Postprocessing/binread.m", matlab)
    assert (report.language, report.code_lines) == ("MATLAB", 5)
    objc = b"""\
#import <Metal/Metal.h>
% not MATLAB: a stray percent in a preprocessor-bearing file
int count(id<MTLDevice> d) { return 1; }
"""
    assert classify("src/ext_metal.m", objc).language == "Objective-C"


def test_a_device_tables_initializer_is_data_its_declaration_the_device_code() -> None:
    # bitsandbytes csrc/gemm_4bit_common.cuh's NF4 lookup table, matter-labs/era-bellman-cuda's
    # 512-line MSM bases: the `__device__ __constant__` declaration is what a port rewrites
    # (a SYCL device_global, a HIP __constant__ as is); the numbers stay as they are.
    source = b"""\
static __device__ __constant__ float NF4[4] = {
    -1.0f,
    -0.5f,
    0.5f,
    1.0f,
};

__device__ float dequant(int i) {
  return NF4[i & 3];
}
"""
    report = classify("csrc/gemm_4bit_common.cuh", source)
    assert report.line_rules[0] == "cuda.device-function"
    assert report.line_rules[1:6] == [""] * 5  # the table's values and its closing brace
    assert report.line_rules[7:10] == ["cuda.device-function"] * 3
    # A function's body is claimed whole, a brace after `=` only when it opens data.
    lambda_in_call = (
        b"void f(float* p, int n) {\n  run(p, n, [=] __device__ (float& v) {\n"
        b"    v *= 2;\n  });\n}\n"
    )
    assert classify("a.cu", lambda_in_call).line_rules[1:4] == ["cuda.device-function"] * 3


def test_a_lambda_opened_in_both_branches_ends_with_its_shared_body() -> None:
    # AMReX Src/Base/AMReX_Reduce.H: the SYCL and CUDA branches each open the same lambda, and
    # one body closes it. The #else branch's brace is left out of the pairs; a claim from it
    # ends where the first branch's lambda does, not at the end of the file.
    source = b"""\
template <typename T>
void run(T* p, int n) {
#ifdef AMREX_USE_SYCL
    amrex::launch(n, [=] AMREX_GPU_DEVICE (Gpu::Handler const& gh) noexcept
    {
        int i = gh.threadIdx();
#else
    amrex::launch_global<<<n, 256>>>([=] AMREX_GPU_DEVICE () noexcept
    {
        int i = threadIdx.x;
#endif
        p[i] = 0;
    });
}

void host_only(int* q) {
    q[0] = 1;
}
"""
    report = classify("Src/Base/AMReX_Reduce.H", source)
    assert report.line_rules[15:18] == ["", "", ""]  # host_only stays portable
    assert report.line_rules[11] != ""  # the shared body is device code
