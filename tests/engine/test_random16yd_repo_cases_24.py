"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-yd).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 966-972. NumericalArt/Pritha-NeuralDeep (971) had no
snapshot and was skipped. The others were read: Elynea-1528/neural-ai-next (a Python trading
framework), matrixshader/matrix-shader (an HLSL terminal shader with PowerShell installers),
rusty1s/pytorch_sparse (PyTorch sparse ops with CUDA kernels), intel/neural-compressor
(quantization tooling, with Triton attention kernels in a vLLM plugin),
mikustojk/LLaMA2-And-DeepSpeed-Training (LLaMA2 training scripts) and Maiwosz/Vulkan3DEngine
(a Vulkan renderer with vendored SDKs). Fifteen files of each repository (all seven of
matrix-shader) were sampled with ``random.Random("owner/name")`` over every file lockin counts
and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, and three commits touching GPU
code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is
a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- intel/neural-compressor: Triton helpers jitted by a project decorator --------------------


def test_triton_helper_with_constexpr_parameter_is_kernel_code() -> None:
    # benchmark/vllm-qdq-plugin/.../sage3/p_quant_kernels.py: each quantizer is registered by a
    # decorator that wraps it in triton.jit at import; no tl.load or tl.program_id appears, but
    # its BLOCK parameter and local constants are annotated tl.constexpr.
    source = b"""\
import triton.language as tl

from .registry import register_scheme


@register_scheme("fp4_blocks")
def quantize_fp4_blocks(tile, BLOCK: tl.constexpr):
    LIMIT: tl.constexpr = 6.0
    cols = tl.arange(0, BLOCK)
    peak = tl.max(tl.abs(tile), axis=1)
    scale = tl.maximum(peak / LIMIT, 1e-8)
    return tile / scale[:, None] + cols * 0
"""
    assert _rules("sage/quant_schemes.py", source) == {"triton.device-body"}
    assert _layers("sage/quant_schemes.py", source) == {"kernel": 7, "portable": 2}


def test_triton_block_size_constant_at_module_level_stays_portable() -> None:
    # The same plugin keeps shared block sizes as module constants used by its launchers.
    source = b"""\
import triton
import triton.language as tl

BLOCK_N = tl.constexpr(128)


def grid_for(rows):
    return (triton.cdiv(rows, 128),)
"""
    assert _rules("sage/sizes.py", source) == set()
    assert _layers("sage/sizes.py", source) == {"portable": 5}


# -- verdicts that were already right --------------------------------------------------------


def test_cuda_spmm_kernel_counts_the_global_body_only() -> None:
    # rusty1s/pytorch_sparse csrc/cuda/spmm_cuda.cu: a __global__ kernel and a torch launcher
    # with the triple-chevron launch on the current CUDA stream.
    source = b"""\
#include <ATen/cuda/CUDAContext.h>
#include <torch/extension.h>

__global__ void row_sum_kernel(const float *vals, const long *rowptr, float *out, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float acc = 0;
  for (long e = rowptr[row]; e < rowptr[row + 1]; e++)
    acc += vals[e];
  out[row] = acc;
}

torch::Tensor row_sum(torch::Tensor vals, torch::Tensor rowptr) {
  auto out = torch::empty({rowptr.numel() - 1}, vals.options());
  auto stream = at::cuda::getCurrentCUDAStream();
  int rows = out.numel();
  row_sum_kernel<<<(rows + 255) / 256, 256, 0, stream>>>(
      vals.data_ptr<float>(), rowptr.data_ptr<long>(), out.data_ptr<float>(), rows);
  return out;
}
"""
    layers = _layers("csrc/cuda/row_sum_cuda.cu", source)
    assert layers["kernel"] == 8
    assert "cuda.kernel" in _rules("csrc/cuda/row_sum_cuda.cu", source)


def test_hlsl_pixel_shader_file_is_kernel_code() -> None:
    # matrixshader/matrix-shader glyphs.hlsl: a terminal pixel shader file.
    source = b"""\
Texture2D shaderTexture;
SamplerState samplerState;

float4 main(float4 pos : SV_POSITION, float2 uv : TEXCOORD) : SV_TARGET
{
    float4 c = shaderTexture.Sample(samplerState, uv);
    return float4(0, c.g, 0, c.a);
}
"""
    assert _rules("glyphs.hlsl", source) == {"hlsl.shader-file"}
    assert _layers("glyphs.hlsl", source) == {"kernel": 7}


def test_plain_deepspeed_training_script_stays_portable() -> None:
    # mikustojk/LLaMA2-And-DeepSpeed-Training pretrain_ds.py: batches go to the engine's device.
    source = b"""\
import deepspeed


def train(model, loader, args):
    engine, _, _, _ = deepspeed.initialize(args=args, model=model)
    for x, y in loader:
        x = x.to(engine.device, non_blocking=True)
        loss = engine(x, y)
        engine.backward(loss)
        engine.step()
"""
    assert _rules("pretrain_ds.py", source) == set()
    assert _layers("pretrain_ds.py", source) == {"portable": 8}


# -- Maiwosz/Vulkan3DEngine: a vendored math library's compiler-detection chain ---------------


def test_sycl_device_only_branch_setting_one_macro_is_not_kernel_code() -> None:
    # Libs/VulkanSDK/Include/glm/simd/platform.h: an #elif chain names the compiler; the SYCL
    # device branch only defines the compiler id, so nothing in it is device code.
    source = b"""\
#if defined(__INTEL_COMPILER)
#  define MATHLIB_COMPILER 10
// SYCL
#elif defined(__SYCL_DEVICE_ONLY__)
#  define MATHLIB_COMPILER 20

// Clang
#elif defined(__clang__)
#  define MATHLIB_COMPILER 30
#endif
"""
    assert _rules("mathlib/platform.h", source) == set()
    assert _layers("mathlib/platform.h", source) == {"portable": 7}


def test_sycl_device_only_branch_with_device_code_stays_kernel() -> None:
    # The same guard around a device overload is still SYCL device code.
    source = b"""\
inline float fast_exp(float x) {
#if defined(__SYCL_DEVICE_ONLY__)
#  define USED_NATIVE 1
  return sycl::native::exp(x);
#else
  return std::exp(x);
#endif
}
"""
    assert "sycl.device-only-guard" in _rules("mathlib/fast.h", source)
    assert _layers("mathlib/fast.h", source)["kernel"] >= 2
