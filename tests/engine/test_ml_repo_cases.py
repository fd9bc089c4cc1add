"""Cases from an audit of ML repositories the engine had not read (issue 27).

Each snippet is a small rewrite of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import Layer


def _layers(path: str, source: bytes) -> dict[str, int]:
    return {layer.value: n for layer, n in classify(path, source).layers.items() if n}


def _rules(path: str, source: bytes) -> set[str]:
    return {f.rule for f in classify(path, source).findings}


def test_unsloth_kernels_jitted_by_call_are_kernel_code() -> None:
    # unslothai/unsloth kernels/rope_embedding.py: no decorator, `k = triton.jit(k)` after the
    # def, then triton.heuristics applied the same way; the host wrapper stays portable.
    source = b"""\
import triton
import triton.language as tl

def _rope(Q, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    q = tl.load(Q + row * n + cols, mask=cols < n)
    tl.store(Q + row * n + cols, q * 2, mask=cols < n)

_rope = triton.jit(_rope)

def fast_rope(Q):
    _rope[(Q.shape[0],)](Q, Q.shape[1], BLOCK=128)
    return Q
"""
    report = classify("unsloth/kernels/rope_embedding.py", source)
    assert report.line_rules[3:8] == ["triton.device-body"] * 5
    assert _layers("unsloth/kernels/rope_embedding.py", source) == {"kernel": 5, "portable": 6}


def test_triton_host_helpers_and_benchmarks_stay_portable() -> None:
    # fla-org/flash-linear-attention benchmarks/modules/*.py and unsloth kernels/utils.py:
    # triton.testing and triton.cdiv on the host are not kernels.
    source = b"""\
import triton
import triton.language as tl

def grid(n):
    return (triton.cdiv(n, 128),)

def bench(fn):
    return triton.testing.do_bench(fn, quantiles=[0.5, 0.2, 0.8])

DTYPES = {"fp32": tl.float32}
"""
    assert _layers("benchmarks/modules/benchmark_l2norm.py", source) == {"portable": 7}


def test_liger_kernel_triton_module_is_almost_all_kernel() -> None:
    # linkedin/Liger-Kernel ops/backends/_ascend/ops/fused_moe_kernels.py: tile constants,
    # then @triton.jit kernels only.
    source = b"""\
import triton
import triton.language as tl

BLOCK_N = 192

@triton.jit
def _histogram(idx_ptr, out_ptr, T, E: tl.constexpr):
    pid = tl.program_id(0)
    e = tl.load(idx_ptr + pid)
    tl.atomic_add(out_ptr + e, 1)
"""
    assert _layers("src/liger_kernel/ops/fused_moe_kernels.py", source) == {
        "kernel": 5,
        "portable": 3,
    }


def test_tinygrad_hip_runtime_through_ctypes_is_amd_vendor_path() -> None:
    # tinygrad/tinygrad runtime/ops_hip.py: the HIP runtime driven from Python bindings.
    source = b"""\
import ctypes
from tinygrad.runtime.autogen import hip

def check(status):
    if status != 0:
        raise RuntimeError(f"HIP Error {status}")

class HIPProgram:
    def __call__(self, *args, global_size=(1, 1, 1), local_size=(1, 1, 1)):
        check(hip.hipSetDevice(self.device_id))
        check(hip.hipModuleLaunchKernel(self.prg, *global_size, *local_size, 0, None, None, args))
"""
    report = classify("tinygrad/runtime/ops_hip.py", source)
    assert report.line_rules[9:11] == ["hip.python-bindings"] * 2
    assert report.ecosystems == {"hip": 2}


def test_tinygrad_metal_runtime_is_apple_vendor_path_but_its_bindings_are_not() -> None:
    # tinygrad/tinygrad runtime/ops_metal.py calls Metal through objc bindings; the generated
    # binding module runtime/autogen/metal.py only declares the names.
    host = b"""\
from tinygrad.runtime.autogen import metal

class MetalDevice:
    def __init__(self, device):
        self.sysdevice = metal.MTLCreateSystemDefaultDevice()
        self.queue = self.sysdevice.newCommandQueueWithMaxCommandBufferCount(1024)
"""
    assert classify("tinygrad/runtime/ops_metal.py", host).ecosystems == {"metal": 1}
    bindings = b"""\
import ctypes
class MTLDevice(objc.Spec): pass
def MTLCreateSystemDefaultDevice() -> MTLDevice: ...
MTLResourceStorageModeShared = 0
"""
    assert _layers("tinygrad/runtime/autogen/metal.py", bindings) == {"portable": 4}


def test_pytorch_ao_cuda_dispatch_key_registration_is_vendor_path() -> None:
    # pytorch/ao torchao/csrc/cuda/*/..._f8f8.cu: a dtype dispatcher, registered for the CUDA
    # dispatch key only; the dispatching itself is plain C++.
    source = b"""\
#include <torch/csrc/stable/library.h>
namespace torchao {
Tensor sparse_f8f8(const Tensor& x, const Tensor& w) {
  if (x.scalar_type() == ScalarType::Float8_e4m3fn) return sparse_e4m3(x, w);
  return Tensor{};
}
STABLE_TORCH_LIBRARY_IMPL(torchao, CUDA, m) {
  m.impl("torchao::sparse_f8f8", TORCH_BOX(&sparse_f8f8));
}
}  // namespace torchao
"""
    report = classify("torchao/csrc/cuda/sparse/sparse_f8f8.cu", source)
    assert report.line_rules[6] == "torch.cpp-cuda"
    assert _layers("torchao/csrc/cuda/sparse/sparse_f8f8.cu", source) == {
        "vendor-path": 1,
        "portable": 9,
    }
    cpu = source.replace(b"CUDA, m", b"CPU, m")
    assert _layers("torchao/csrc/cpu/sparse_f8f8.cpp", cpu) == {"portable": 10}


def test_flashmla_instantiation_with_template_on_its_own_line() -> None:
    # deepseek-ai/FlashMLA csrc/sm100/decode/head64/instantiations/model1.cu: the explicit
    # instantiation keeps `template` on a line of its own, like its sibling units don't.
    source = b"""\
#include "../kernel.cuh"
namespace sm100::decode::head64 {
template
void run_flash_splitkv_mla_fp8_sparse_kernel<ModelType::MODEL1>(const Params &params);
}
"""
    report = classify("csrc/sm100/decode/head64/instantiations/model1.cu", source)
    assert report.line_rules == ["cuda.instantiation-unit"] * 5
    # A template declared over two lines with a body is hand-written code, not a unit.
    body = b"template\n<typename T>\nvoid scale(T* x) { x[0] *= 2; }\n"
    assert _layers("csrc/scale.cu", body) == {"portable": 3}


def test_flashmla_dispatch_unit_without_cuda_calls_is_portable() -> None:
    # deepseek-ai/FlashMLA csrc/sm90/prefill/sparse/fwd.cu: host dispatch over template
    # arguments; the kernels and their launches live in phase1.cuh.
    source = b"""\
#include "phase1.h"
namespace sm90 {
void run_fwd_kernel(const SparseAttnFwdParams& params) {
    if (params.d_qk == 512) fwd::run_fwd_phase1_kernel<512>(params);
    else fwd::run_fwd_phase1_kernel<576>(params);
}
}
"""
    assert _layers("csrc/sm90/prefill/sparse/fwd.cu", source) == {"portable": 7}


def test_exllamav2_compat_header_device_helpers_are_kernel_code() -> None:
    # turboderp/exllamav2 exllamav2_ext/cuda/compat.cuh: atomicAdd fallbacks and PTX tanh,
    # all device code; the include guard is not.
    source = b"""\
#ifndef _compat_cuh
#define _compat_cuh
__device__ __forceinline__ float copysignf_pos(float a, float b)
{
    return __int_as_float(__float_as_int(a) | (__float_as_int(b) & 0x80000000));
}
__inline__ __device__ float tanh_opt(float x)
{
    float r;
    asm("tanh.approx.f32 %0,%1; \\n\\t" : "=f"(r) : "f"(x));
    return r;
}
#endif
"""
    assert _layers("exllamav2/exllamav2_ext/cuda/compat.cuh", source) == {
        "kernel": 10,
        "portable": 3,
    }


def test_mlx_macro_instantiation_units_are_cuda_vendor_path() -> None:
    # ml-explore/mlx backend/cuda/unary/abs.cu and ggml-org/ggml ggml-cuda/template-instances:
    # one macro expansion per line instantiates the backend's kernels for nvcc.
    unit = b"""\
#include "mlx/backend/cuda/unary/unary.cuh"
namespace mlx::core {
UNARY_GPU(Abs)
} // namespace mlx::core
"""
    report = classify("mlx/backend/cuda/unary/abs.cu", unit)
    assert report.line_rules == ["cuda.macro-instantiation-unit"] * 4
    # A unit with a host function body is hand-written host code: its NVTX range is the only
    # NVIDIA-specific line.
    host = b"""\
#include "mlx/backend/cuda/unary/unary.cuh"
void Log::eval_gpu(const std::vector<array>& inputs, array& out) {
  nvtx3::scoped_range r("Log::eval_gpu");
  unary_op_gpu<cu::Log>(inputs, out, name(), stream());
}
"""
    assert classify("mlx/backend/cuda/unary/log.cu", host).line_rules == [
        "",
        "",
        "cuda.nvtx",
        "",
        "",
    ]
    # A .cuh of macro definitions is not a unit.
    switch = b"#pragma once\n#define SWITCH(C, ...) \\\n  SWITCH_IMPL(C, __VA_ARGS__)\n"
    assert _layers("csrc/static_switch.cuh", switch) == {"portable": 3}


def test_transformer_engine_nvtx_ranges_from_python_are_vendor_path() -> None:
    # NVIDIA/TransformerEngine benchmarks/attention/benchmark_attention.py: the nvtx package.
    source = b"""\
import nvtx
from torch.profiler import record_function

def run(fn):
    with nvtx.annotate("attention"):
        fn()
    with record_function("portable"):
        fn()
"""
    report = classify("benchmarks/attention/benchmark_attention.py", source)
    assert [i + 1 for i, r in enumerate(report.line_rules) if r == "cuda.nvtx"] == [1, 5]


def test_mlx_metal_headers_with_any_metal_standard_header_are_metal() -> None:
    # ml-explore/mlx backend/metal/kernels/unary_ops.h includes <metal_math> and
    # <metal_integer>, not <metal_stdlib>: it is still Metal device code.
    source = b"""\
#pragma once
#include <metal_integer>
#include <metal_math>
struct Abs {
  template <typename T>
  T operator()(T x) thread { return metal::abs(x); };
};
"""
    report = classify("mlx/backend/metal/kernels/unary_ops.h", source)
    assert report.language == "Metal"
    assert _layers("mlx/backend/metal/kernels/unary_ops.h", source) == {"kernel": 7}
    # A C++ header naming a math header of its own stays C++.
    host = b"#pragma once\n#include <metal_math_utils.h>\nint f();\n"
    assert classify("include/metal_bridge.h", host).language != "Metal"


def test_mlx_metal_shader_build_steps_are_apple_vendor_path() -> None:
    # ml-explore/mlx backend/metal/kernels/CMakeLists.txt compiles the shaders with xcrun.
    source = b"""\
add_custom_command(
  OUTPUT ${KERNEL}.air
  COMMAND xcrun -sdk macosx metal ${METAL_FLAGS} -c ${SRCFILE}
  DEPENDS ${SRCFILE})
find_library(FOUNDATION_LIB Foundation)
"""
    report = classify("mlx/backend/metal/kernels/CMakeLists.txt", source)
    assert report.ecosystems == {"metal": 1}


def test_exllamav2_launcher_with_dim3_variables_named_like_builtins_is_host_code() -> None:
    # turboderp/exllamav2 exllamav2_ext/cuda/q_gemm.cu (and the GPTQ kernels copied from it):
    # the launcher names its dim3 variables blockDim and gridDim. Only the kernel is kernel
    # code; the launch is CUDA host code, the grid arithmetic plain C++.
    source = b"""\
__global__ void clear_kernel(half* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = __float2half(0.0f);
}
void clear(half* c, int n, cudaStream_t stream)
{
    dim3 blockDim, gridDim;
    blockDim.x = 128;
    gridDim.x = (n + 127) / 128;
    clear_kernel<<<gridDim, blockDim, 0, stream>>>(c, n);
}
"""
    report = classify("exllamav2/exllamav2_ext/cuda/q_gemm.cu", source)
    assert report.line_rules[7:10] == ["", "", ""]
    assert report.line_rules[10] == "cuda.launch"
    assert report.layers[Layer.KERNEL] == 5


def test_deepgemm_struct_header_with_assert_macros_is_no_instantiation_unit() -> None:
    # deepseek-ai/DeepGEMM include/deep_gemm/layout/mqa_logits.cuh: a templated struct of
    # shared-memory buffers with DG_STATIC_ASSERT(...) lines; seen adding 41 vendor-path
    # lines to a refactoring commit before the unit rules learnt about definitions.
    source = b"""\
#pragma once
#include <cutlass/arch/barrier.h>
template <uint32_t kNumStages>
struct SharedStorage {
    static constexpr uint32_t kAlign = 512;
    DG_STATIC_ASSERT(kAlign % 128 == 0, "Unaligned TMA swizzling");
    uint32_t tmem_ptr_in_smem;
};
"""
    rules = set(classify("deep_gemm/include/deep_gemm/layout/mqa_logits.cuh", source).line_rules)
    assert not rules & {"cuda.macro-instantiation-unit", "cuda.instantiation-unit"}
