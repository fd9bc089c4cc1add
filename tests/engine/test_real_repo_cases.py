"""Language and ecosystem cases seen in real repositories the engine was not tuned on.

Each snippet is a small rewrite of a pattern found there; the repository is named per test.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.languages import by_path
from bot.engine.lexer import lex
from bot.engine.model import Layer

CK_HEADER = b"""\
#pragma once
#include "ck/utility/common_header.hpp"
namespace ck {
template <typename T>
__device__ T add_relu(T a, T b) { return a + b > T(0) ? a + b : T(0); }
}
"""


def test_composable_kernel_headers_are_hip() -> None:
    # ROCm/composable_kernel: include/ck/**/*.hpp hold __device__ code without naming the HIP
    # runtime; they run on AMD only, so they must not count as CUDA.
    report = classify("include/ck/utility/add_relu.hpp", CK_HEADER)
    assert report.language == "HIP"
    assert set(report.ecosystems) == {"hip"}
    tile = b"#ifdef __HIPCC__\n#define CK_TILE_DEVICE __device__\n#endif\nint x = 0;\n"
    assert classify("include/ck_tile/core/config.hpp", tile).language == "HIP"


def test_namespaces_named_like_ck_stay_cuda() -> None:
    source = b"namespace cktools {\n__device__ float f(float x) { return x; }\n}\n"
    report = classify("include/cktools/f.hpp", source)
    assert report.language == "C++"
    assert set(report.ecosystems) == {"cuda"}


def test_cuda_extension_including_only_the_hip_runtime_is_hip() -> None:
    # tinygrad extra/thunder/amd (HipKittens): .cuh headers include <hip/hip_runtime.h>.
    source = b"#include <hip/hip_runtime.h>\n__device__ inline float two() { return 2.f; }\n"
    assert classify("include/common/base_types.cuh", source).language == "HIP"
    # ROCm/aiter csrc: HIP's own compiler and arch macros are no CUDA side.
    arch = b"#if defined(__HIPCC__) && defined(__gfx942__)\n#define MI300\n#endif\n"
    assert classify("csrc/kernels/custom_kernels.cu", source + arch).language == "HIP"
    guard = b"#ifndef GUARD_RTC_HIP\n#define GUARD_RTC_HIP\n" + source + b"#endif\n"
    assert classify("rtc/include/rtc/hip.hpp", guard).language == "HIP"


def test_amd_builtins_without_a_cuda_side_are_hip() -> None:
    # ROCm/aiter csrc/cpp_itfs/pa/pa_kernels.cuh: no HIP include, AMD builtins in the body.
    source = b"__device__ int lane0(int v) { return __builtin_amdgcn_readfirstlane(v); }\n"
    assert classify("csrc/cpp_itfs/pa/pa_kernels.cuh", source).line_rules == ["hip.kernel"]


def test_files_switching_on_a_project_hip_macro_stay_cuda() -> None:
    # ggml-org/ggml ggml-cuda, bitsandbytes csrc, cupy headers: one source for both vendors.
    for switch in (b"#ifdef GGML_USE_HIP", b"#if BNB_HIP", b"#if CUPY_USE_HIP", b"#ifdef USE_ROCM"):
        source = (
            switch
            + b"""
#include <hip/hip_cooperative_groups.h>
#endif
__device__ int lane0(int v) { return __builtin_amdgcn_readfirstlane(v); }
"""
        )
        assert classify("src/ggml-cuda/softmax.cu", source).language == "CUDA", switch
    nvcc = b"#include <hip/hip_runtime.h>\n#include <cuda_fp16.h>\n"
    assert classify("csrc/compat.h", nvcc).language == "C Header"


def test_device_code_under_rocm_and_amd_folders_is_hip() -> None:
    # vLLM csrc/rocm/*.cu, tinygrad extra/thunder/amd/*.cpp: HIP kernels under CUDA names.
    kernel = b"__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n"
    for path in ("csrc/rocm/attention.cu", "extra/thunder/amd/fa_fwd.cpp"):
        report = classify(path, kernel)
        assert report.language == "HIP", path
        assert report.line_rules == ["hip.kernel"]
    gfx = classify("csrc/opus_gemm/include/gfx1250/splitk_reduce.cuh", kernel)
    assert gfx.line_rules == ["hip.kernel"]
    assert classify("csrc/amdahl/k.cu", kernel).line_rules == ["cuda.kernel"]


def test_guarded_opencl_vendor_extension_is_cross_vendor() -> None:
    # ggml-org/ggml src/ggml-opencl/kernels: Intel and Qualcomm subgroup extensions behind
    # #ifdef with a Khronos fallback run on every OpenCL vendor.
    guarded = b"""\
#ifdef cl_intel_subgroups
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#else
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
kernel void k(global float* x) { x[get_global_id(0)] = 0.f; }
"""
    report = classify("kernels/norm.cl", guarded)
    assert {f.rule for f in report.findings} == {"opencl.kernel-file"}
    unguarded = b"#pragma OPENCL EXTENSION cl_qcom_extra_vector_types : enable\n" + guarded
    report = classify("kernels/gemm_moe.cl", unguarded)
    assert {f.rule for f in report.findings} == {"opencl.qcom-extension"}


def test_metal_kernel_headers_are_metal() -> None:
    # ml-explore/mlx backend/metal/kernels/*.h: templates of [[kernel]] entry points and
    # helpers included by the .metal files.
    entry = b"""\
template <typename T, typename Op>
[[kernel]] void unary_v(device const T* in, device T* out, uint i [[thread_position_in_grid]]) {
  out[i] = Op()(in[i]);
}
"""
    report = classify("mlx/backend/metal/kernels/unary.h", entry)
    assert report.language == "Metal"
    assert report.line_rules == ["metal.shader-file"] * 4
    helper = (
        b"#pragma once\n#include <metal_stdlib>\nusing namespace metal;\nstruct P { int n; };\n"
    )
    assert classify("kernels/params.h", helper).language == "Metal"
    # ggml-metal-impl.h: argument structs shared by host and shaders stay plain C.
    host = b"#pragma once\ntypedef struct { int32_t ne00; uint64_t nb01; } ggml_metal_kargs;\n"
    assert classify("ggml-metal-impl.h", host).language == "C Header"


def test_multi_platform_and_host_headers_naming_metal_stay_c() -> None:
    # ggml-org/ggml src/ggml-common.h: one branch per backend, Metal among them.
    common = b"""\
#if defined(GGML_COMMON_DECL_METAL)
#include <metal_stdlib>
typedef half ggml_half;
#elif defined(GGML_COMMON_DECL_CUDA)
#include <cuda_fp16.h>
typedef half ggml_half;
#endif
"""
    assert classify("src/ggml-common.h", common).language == "C Header"
    # mlx backend/metal/kernels.h: host code building Metal source in ordinary strings.
    host = b'std::string inst = fmt::format("template [[host_name(\\"{0}\\")]] [[kernel]] f;");\n'
    assert classify("mlx/backend/metal/kernels.h", host).language == "C Header"


def test_language_heuristics_ignore_comments() -> None:
    # A host C++ header documenting the Metal entry point it dispatches: `[[kernel]]`,
    # <metal_stdlib> and `using namespace metal;` only in comments say nothing of its language.
    host = b"""\
#pragma once
// Dispatches the [[kernel]] void softmax(...) entry point of softmax.metal.
/* The shader starts with
   #include <metal_stdlib>
   using namespace metal; */
void dispatch_softmax(Encoder& enc, int n);
"""
    assert classify("mlx/backend/metal/softmax.h", host).language == "C Header"
    # The attribute in code still makes a Metal header, and a CUDA macro named only in a
    # comment does not make it multi-platform.
    entry = b"// built with __CUDACC__ elsewhere\n[[kernel]] void k(device float* x) { *x = 1; }\n"
    assert classify("kernels/k.h", entry).language == "Metal"


def test_sycl_in_cpp_files_is_sycl_not_cuda() -> None:
    # ggml-org/ggml src/ggml-sycl: sycl::half2, a gridDim variable and dpct's fp8 emulation.
    source = b"""\
#include <sycl/sycl.hpp>
static void concat(sycl::queue* q, const sycl::half2& dm, int n) {
  sycl::range<3> gridDim(1, 1, n);
  q->parallel_for(sycl::nd_range<3>(gridDim, sycl::range<3>(1, 1, 64)),
                  [=](sycl::nd_item<3> it) { (void)dm; });
}
"""
    report = classify("src/ggml-sycl/concat.cpp", source)
    assert report.language == "SYCL"
    assert set(report.ecosystems) == {"sycl"}
    cuda = b"#include <cuda_runtime.h>\n// sycl::queue port pending\n__global__ void k() {}\n"
    assert classify("src/k.cpp", cuda).language == "C++"


def test_rust_gpu_host_code_is_vendor_path() -> None:
    # candle / mistral.rs style: cudarc for CUDA, metal-rs for Apple, comments not counted.
    source = b"""\
//! CUDA backend; see cudarc::driver docs.
use cudarc::driver::CudaContext;
fn pick(cpu: bool) -> Result<Device> {
    if cpu { return Ok(Device::Cpu); }
    let device = Device::new_cuda(0)?;
    Ok(device)
}
"""
    report = classify("candle-core/src/device.rs", source)
    assert report.language == "Rust"
    expected = [None, "cuda.rust-bindings", "", "", "cuda.rust-bindings", "", ""]
    assert report.line_rules == expected


TIME_TWO_KERNELS = b"""\
#if GOOGLE_CUDA
#define EIGEN_USE_GPU
#include "triple.h"

namespace ops {
using Gpu = Eigen::GpuDevice;

template <typename T>
__global__ void TripleKernel(int n, const T* src, T* dst) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = 3 * src[i];
}

template <typename T>
void TripleFunctor<Gpu, T>::operator()(const Gpu& d, int n, const T* src, T* dst) {
  TripleKernel<T><<<(n + 255) / 256, 256, 0, d.stream()>>>(n, src, dst);
}

template struct TripleFunctor<Gpu, int32>;
}  // namespace ops
#endif
"""


def test_small_kernel_file_with_an_instantiation_is_not_generated() -> None:
    # tensorflow/custom-op time_two_kernels.cu.cc: a kernel, its launcher and one explicit
    # instantiation. The instantiation does not make the hand-written kernel boilerplate.
    report = classify("tensorflow_time_two/cc/kernels/triple_kernels.cu.cc", TIME_TWO_KERNELS)
    assert not report.generated
    assert "cuda.kernel" in report.line_rules


RUST_LAUNCH = """\
fn launch<'a>(dev: &'a Device, sep: char) -> Result<&'a Func> {
    let name = b"scale\\0";
    let note = br#"a "quoted" // not a comment"#;
    let quote = '"';
    let tick = '\\'';
    let src = r##"extern "C" __global__ void scale(float* x) { x[0] *= 2.0f; }"##;
    let help = "two
lines";
    dev.compile(src, name, note)
}
"""


def test_rust_raw_byte_strings_and_lifetimes_lex_as_rust() -> None:
    # coreylowman/cudarc and huggingface/candle: kernel sources in raw strings next to
    # lifetimes, byte strings and char literals in the same function.
    lexed = lex(RUST_LAUNCH, by_path("src/launch.rs")[0].family)
    tokens = [RUST_LAUNCH[s:e] for s, e in lexed.strings]
    assert tokens == [
        'b"scale\\0"',
        'br#"a "quoted" // not a comment"#',
        "'\"'",
        "'\\''",
        'r##"extern "C" __global__ void scale(float* x) { x[0] *= 2.0f; }"##',
        '"two\nlines"',
    ]
    assert lexed.lines[0] == "fn launch<'a>(dev: &'a Device, sep: char) -> Result<&'a Func> {"
    assert lexed.lines[8] == "    dev.compile(src, name, note)"
    # C's lexer read `'a, '` as a character literal.
    pick = "fn pick<'a, 'b>(x: &'a str, y: &'b str) -> &'a str { x }\n"
    assert lex(pick, by_path("src/pick.rs")[0].family).masked == pick
    report = classify("src/launch.rs", RUST_LAUNCH.encode())
    assert report.line_rules[5] == "cuda.source-string"
    assert report.line_rules.count("cuda.source-string") == 1


def test_nvidia_only_branch_of_a_vulkan_shader_is_nvidia_only() -> None:
    # ggml-org/ggml ggml-vulkan shaders: one .comp file serves every vendor, and its
    # `#ifdef COOPMAT2` branches (GL_NV_cooperative_matrix2) are built for NVIDIA only.
    source = b"""\
#version 450
#ifdef COOPMAT2
#extension GL_NV_cooperative_matrix2 : enable
#endif
layout(local_size_x = 64) in;
void main() {
#ifdef COOPMAT2
  coopMatLoadTensorNV(m, data, 0, tensorLayout);
#else
  m = data[gl_LocalInvocationID.x];
#endif
}
"""
    report = classify("vulkan-shaders/mul_mm.comp", source)
    branch = "vulkan.nv-extension-branch"
    assert report.line_rules == [
        "vulkan.shader-file", *[branch] * 3, *["vulkan.shader-file"] * 2, *[branch] * 2,
        *["vulkan.shader-file"] * 4,
    ]  # fmt: skip
    assert report.layers[Layer.KERNEL] == 12


def _layers(path: str, source: bytes) -> dict[str, int]:
    return {layer.value: n for layer, n in classify(path, source).layers.items() if n}


def test_transformer_engine_kernel_and_launcher() -> None:
    # NVIDIA/TransformerEngine common/*.cu: a kernel, its launcher on a cudaStream_t, and the
    # cuBLASLt call that follows; host helpers stay portable.
    source = b"""\
#include <cuda_runtime.h>
template <typename T>
__global__ void scale_kernel(T* out, const T* in, float s, size_t n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * s;
}
size_t num_blocks(size_t n) { return (n + 255) / 256; }
void scale(float* out, const float* in, float s, size_t n, cudaStream_t stream) {
  scale_kernel<<<num_blocks(n), 256, 0, stream>>>(out, in, s, n);
}
"""
    # The template header belongs to the kernel; the closing brace of the launcher and the
    # grid helper are plain C++.
    assert _layers("transformer_engine/common/util/scale.cu", source) == {
        "kernel": 5,
        "vendor-path": 3,
        "portable": 2,
    }


def test_deepgemm_cute_helpers_without_device_code_stay_portable() -> None:
    # deepseek-ai/DeepGEMM include/deep_gemm/common/cute_tie.cuh: plain C++ and macros in
    # the cute namespace; only the include names CuTe.
    source = b"""\
#pragma once
#include <cute/int_tuple.hpp>
struct ignore_t {
    template <typename T>
    constexpr const ignore_t& operator=(T&&) const noexcept { return *this; }
};
#define CUTE_TIE_CONCAT_IMPL(A, B) A##B
"""
    assert _layers("deep_gemm/include/deep_gemm/common/cute_tie.cuh", source) == {
        "kernel": 1,
        "portable": 6,
    }


def test_raja_cuda_exercise_counts_the_kernel_and_its_launch() -> None:
    # LLNL/RAJA exercises/*.cpp: a CUDA kernel next to RAJA's portable loops, guarded.
    source = b"""\
#include "RAJA/RAJA.hpp"
#if defined(RAJA_ENABLE_CUDA)
__global__ void init(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i;
}
#endif
void run(int* a, int n) {
  RAJA::forall<RAJA::seq_exec>(RAJA::RangeSegment(0, n), [=](int i) { a[i] = i; });
}
"""
    # The guard's two lines are the CUDA build's own path, as RAJA_ENABLE_HIP's are HIP's.
    assert _layers("exercises/kernelintro.cpp", source) == {
        "kernel": 4,
        "vendor-path": 2,
        "portable": 4,
    }


def test_kokkos_hip_backend_constant_memory_is_a_kernel_line() -> None:
    # kokkos/kokkos core/src/HIP/Kokkos_HIP_Instance.cpp: a __constant__ device buffer in
    # a backend otherwise made of runtime calls.
    source = b"""\
#include <hip/hip_runtime.h>
__device__ __constant__ unsigned long kokkos_impl_hip_constant_memory_buffer[512];
void fence(hipStream_t s) {
  KOKKOS_IMPL_HIP_SAFE_CALL(hipStreamSynchronize(s));
}
"""
    report = classify("core/src/HIP/Kokkos_HIP_Instance.cpp", source)
    assert report.line_rules[1] in {"hip.kernel", "cuda.shared-memory", "cuda.device-function"}
    assert report.layers[Layer.KERNEL] == 1
    assert report.layers[Layer.VENDOR_PATH] >= 1


def test_opencv_cudev_tests_are_vendor_path() -> None:
    # opencv/opencv_contrib modules/cudev/test/test_warp.cu: host tests of the CUDA module
    # through GpuMat_ (no kernel written there): vendor path, not portable.
    source = b"""\
#include "test_precomp.hpp"
static void test_remap(const Mat& src, const Mat& mapx, const Mat& mapy) {
    GpuMat_<float> d_src(src);
    GpuMat_<float> dst = remap_(interNearest(brdReplicate(d_src)), mapx, mapy);
    EXPECT_MAT_NEAR(src, dst, 0.0);
}
"""
    assert _layers("modules/cudev/test/test_warp.cu", source) == {
        "vendor-path": 2,
        "portable": 4,
    }


def test_fbgemm_instantiation_units_are_vendor_path_and_generated() -> None:
    # pytorch/FBGEMM fbgemm_gpu/.../cutlass_extensions: one explicit instantiation per file.
    source = b"""\
#include "f8f8bf16_rowwise_common.cuh"
namespace fbgemm_gpu {
template at::Tensor f8f8bf16_rowwise_wrapper<128, 128, 128, 2, 1, 1, true>(
    at::Tensor XQ, at::Tensor WQ, at::Tensor x_scale, at::Tensor w_scale);
}
"""
    report = classify("fbgemm_gpu/src/quantize/f8f8bf16_rowwise_128_128_128_2_1_1_t.cu", source)
    assert report.generated
    assert report.line_rules == ["cuda.instantiation-unit"] * 5


def test_jax_triton_kernel_and_host_wrapper() -> None:
    # jax-ml/jax-triton examples/add.py: a @triton.jit kernel and the jax_triton call.
    source = b"""\
import jax
import jax_triton as jt
import triton
import triton.language as tl
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + tl.load(y_ptr + offs))
def add(x, y):
    return jt.triton_call(x, y, kernel=add_kernel, out_shape=x, grid=(8,), BLOCK=8)
"""
    layers = _layers("examples/add.py", source)
    assert layers["kernel"] == 5
    assert layers["portable"] >= 4


def test_maxtext_pallas_tpu_kernel() -> None:
    # AI-Hypercomputer/maxtext src/maxtext/kernels: Pallas kernels with TPU memory spaces.
    source = b"""\
import jax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu
def kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] * 2
def double(x):
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        in_specs=[pl.BlockSpec(memory_space=pltpu.VMEM)],
    )(x)
"""
    report = classify("src/maxtext/kernels/double.py", source)
    # The kernel is the function pallas_call is handed (lines 4-5), with the pltpu import
    # (line 3); the wrapper is host code, its TPU memory space the launch's setting.
    kernel = {(f.start_line, f.end_line) for f in report.findings if f.layer is Layer.KERNEL}
    assert kernel == {(3, 3), (4, 5)}
    assert report.layers[Layer.VENDOR_PATH] == 1
    assert set(report.ecosystems) == {"pallas-tpu"}


def test_pallas_kernel_bound_to_a_name_before_its_launch() -> None:
    # The shape of JAX's own Pallas ops (jax/experimental/pallas/ops/tpu/flash_attention.py,
    # maxtext's splash attention): the kernel is bound with functools.partial, and the
    # launch is handed the name. Before, the kernel went uncounted and the file was portable.
    source = b"""\
import functools
import jax
from jax.experimental import pallas as pl
def _scale_kernel(x_ref, o_ref, *, by):
    o_ref[...] = x_ref[...] * by
def scale(x, by):
    kernel = functools.partial(
        _scale_kernel,
        by=by,
    )
    return pl.pallas_call(
        kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype)
    )(x)
"""
    report = classify("ops/scale.py", source)
    kernel = {(f.start_line, f.end_line) for f in report.findings if f.layer is Layer.KERNEL}
    assert kernel == {(4, 5)}
    assert report.layers[Layer.KERNEL] == 2


def test_deepep_driver_backend_is_vendor_path() -> None:
    # deepseek-ai/DeepEP csrc/kernels/backend/cuda_driver.cu: driver-API entry points
    # resolved at run time, host code of the CUDA path.
    source = b"""\
#include <cuda.h>
static CUresult get_symbol(const char* name, void** fn) {
    CUdriverProcAddressQueryResult status;
    return cuGetProcAddress(name, fn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &status);
}
int answer() { return 42; }
"""
    assert _layers("csrc/kernels/backend/cuda_driver.cu", source) == {
        "vendor-path": 4,
        "portable": 2,
    }


def test_nccl_tests_collective_calls_are_vendor_library() -> None:
    # NVIDIA/nccl-tests src/broadcast.cu: host code around one NCCL collective.
    source = b"""\
#include "common.h"
testResult_t BroadcastRunColl(void* buf, size_t count, int root, ncclComm_t comm, cudaStream_t s) {
  NCCLCHECK(ncclBroadcast(buf, buf, count, ncclFloat, root, comm, s));
  return testSuccess;
}
"""
    layers = _layers("src/broadcast.cu", source)
    assert layers["vendor-library"] >= 1
    assert layers["portable"] >= 2


def test_tilelang_kernels_are_kernel_code_and_their_wrappers_are_not() -> None:
    # state-spaces/mamba mamba_ssm/ops/tilelang/mamba3/mamba3_mimo_fwd.py: an autotuned
    # @tilelang.jit factory around a @T.prim_func kernel; mamba3_mimo.py, which only calls
    # it from an autograd Function, stays portable.
    kernel = b"""\
import torch
import tilelang
import tilelang.language as T
from tilelang.autotuner import autotune


@autotune(configs=[{"threads": 128}], warmup=3, rep=20)
@tilelang.jit(out_idx=[-1], pass_configs={tilelang.PassConfigKey.TL_ENABLE_FAST_MATH: True})
def mimo_fwd(B, S, H, D, chunk_size=64, threads=128):
    @T.prim_func
    def mimo_fwd_kernel(Q: T.Tensor((B, S, H, D), "bf16"), O: T.Tensor((B, S, H, D), "bf16")):
        with T.Kernel(H, B, threads=threads) as (i_h, i_b):
            q_shared = T.alloc_shared((chunk_size, D), "bfloat16")
            for c in T.Pipelined(T.ceildiv(S, chunk_size), num_stages=2):
                T.copy(Q[i_b, c * chunk_size, i_h, 0], q_shared)
                T.copy(q_shared, O[i_b, c * chunk_size, i_h, 0])
    return mimo_fwd_kernel


def mimo_forward(q):
    b, s, h, d = q.shape
    return mimo_fwd(b, s, h, d)(q)
"""
    report = classify("mamba_ssm/ops/tilelang/mamba3/mamba3_mimo_fwd.py", kernel)
    assert [(f.rule, f.start_line, f.end_line) for f in report.findings] == [
        ("tilelang.kernel", 7, 17)
    ]
    assert report.layers[Layer.PORTABLE] == 7  # the imports and the Python wrapper
    wrapper = b"""\
import torch
from mamba_ssm.ops.tilelang.mamba3.mamba3_mimo_fwd import mimo_forward


class Mamba3Mimo(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q):
        return mimo_forward(q)
"""
    assert classify("mamba_ssm/ops/tilelang/mamba3/mamba3_mimo.py", wrapper).findings == []


def test_flydsl_kernel_is_amd_kernel_code_and_its_launcher_amd_host_code() -> None:
    # ROCm/FlyDSL kernels/ and docs/kernel_authoring_guide.md: a @flyc.kernel and the
    # @flyc.jit function that compiles and launches it; the torch caller stays portable.
    source = b"""\
import torch
import flydsl.compiler as flyc
import flydsl.expr as fx
from flydsl.expr import gpu


@flyc.kernel
def scale_kernel(A: fx.Tensor, C: fx.Tensor, N: fx.Constexpr[int]):
    idx = gpu.block_idx.x * 256 + gpu.thread_idx.x
    C[idx] = A[idx] * 2


@flyc.jit
def scale(A: fx.Tensor, C: fx.Tensor, N: fx.Constexpr[int], stream: fx.Stream = fx.Stream(None)):
    scale_kernel(A, C, N).launch(grid=(N // 256,), block=(256,), stream=stream)


def run(a):
    c = torch.empty_like(a)
    scale(a, c, a.numel())
    return c
"""
    report = classify("kernels/scale.py", source)
    assert [(f.rule, f.start_line, f.end_line) for f in report.findings] == [
        ("flydsl.kernel", 7, 10),
        ("flydsl.launcher", 13, 15),
    ]
    assert report.ecosystems == {"flydsl": 7}
    assert report.layers[Layer.PORTABLE] == 8


def test_cute_dsl_user_ops_are_kernel_code() -> None:
    # Dao-AILab/quack quack/rounding.py and pipeline.py: @dsl_user_op device operations
    # (inline PTX through the llvm dialect, mbarrier waits) called from @cute.kernel code;
    # plain host helpers beside them stay portable.
    source = b"""\
import cutlass
import cutlass.cute as cute
from cutlass.cutlass_dsl import dsl_user_op, Int32
from cutlass._mlir.dialects import llvm


@dsl_user_op
def f32_to_f16_rn(x, *, loc=None, ip=None):
    return Int32(
        llvm.inline_asm(Int32.mlir_type, [x], "cvt.rn.f16.f32 $0, $1;", "=r,f", loc=loc, ip=ip)
    )


def tile_count(n, tile):
    return (n + tile - 1) // tile
"""
    report = classify("quack/rounding.py", source)
    assert [(f.rule, f.start_line, f.end_line) for f in report.findings if f.layer == "kernel"] == [
        ("cutlass.cute-dsl-op", 7, 11)
    ]
    assert report.line_rules[13:15] == ["", ""]  # the host helper
