"""Cases from well-known GPU repositories nobody on the team had read (issue 27, lane h36-famous-a).

Five repositories: qwopqwop200/GPTQ-for-LLaMa, mit-han-lab/torchsparse, traveller59/spconv,
hpcaitech/ColossalAI and NVlabs/stylegan3 (sgl-project/sglang and NVIDIA/TensorRT-LLM are over
the snapshot limit and every alternate of the list had been audited already, so the fifth is a
well-known repository of our own choosing). Fifteen files of each were sampled
with ``random.seed("owner/name")`` over every file lockin counts, plus the files lockin calls
non-portable and GPU-looking files it calls portable, and labelled before any fix. Each snippet
is a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers

# -- traveller59/spconv: CUDA written from Python through pccm -------------------------------


def test_spconv_pccm_global_functions_are_kernels() -> None:
    # spconv/csrc/sparse/indices.py: each @pccm.cuda.cuda_global_function method is a
    # __global__ kernel, its parameters code.arg() calls and its body a code.raw() string that
    # pccm writes into a .cu file. Before, the whole file was portable Python.
    source = b'''\
import pccm


class PointKernels(pccm.ParameterizedClass):
    def __init__(self, ndim):
        super().__init__()
        self.ndim = ndim

    @pccm.cuda.cuda_global_function
    def count_points(self):
        code = pccm.FunctionCode()
        code.targ("TTable")
        code.arg("table", "TTable")
        code.arg("coords", "const int*")
        code.arg("counts", "int*")
        code.arg("num_points", "int")
        code.raw(f"""
        for (int i : tv::KernelLoopX<int>(num_points)) {{
            auto key = coords[i * {self.ndim}];
            auto slot = table.lookup(key);
            if (!slot.empty()) {{
                atomicAdd(counts + slot.second, 1);
            }}
        }}
        """)
        return code

    @pccm.static_function
    def count_points_cpu(self):
        code = pccm.FunctionCode()
        code.arg("coords", "tv::Tensor")
        code.raw(f"""
        std::unordered_map<int, int> counts;
        for (int i = 0; i < coords.dim(0); ++i) counts[coords[i]] += 1;
        """)
        return code
'''
    path = "spconv/csrc/sparse/pointops.py"
    assert classify(path, source).language == "Python"
    layers = _layers(path, source)
    assert layers["kernel"] == 18
    assert "vendor-path" not in layers


def test_spconv_pccm_host_code_calling_the_cuda_runtime_is_vendor_path() -> None:
    # spconv/csrc/sparse/convops.py (drawn at random): host methods whose generated C++ calls
    # cudaGetDeviceProperties and cuBLASLt on a cudaStream_t. Before, all 2,322 lines portable.
    source = b'''\
import pccm


class GemmTunerSimple(pccm.ParameterizedClass):
    @pccm.static_function
    def get_compute_capability(self):
        code = pccm.FunctionCode()
        code.arg("index", "int")
        code.raw(f"""
        cudaDeviceProp prop;
        checkCudaErrors(cudaGetDeviceProperties(&prop, index));
        return std::make_tuple(prop.major, prop.minor);
        """)
        return code.ret("std::tuple<int, int>")

    @pccm.member_function
    def tune(self):
        code = pccm.FunctionCode()
        code.arg("arch", "std::tuple<int, int>")
        code.raw(f"""
        auto algos = get_all_algo_desp();
        return select_best(algos, arch);
        """)
        return code.ret("int")
'''
    layers = _layers("spconv/csrc/sparse/convops.py", source)
    assert layers["vendor-path"] == 5
    assert "kernel" not in layers


def test_spconv_pccm_stubs_and_plain_python_stay_portable() -> None:
    # spconv/core_cc/csrc/sparse/convops/__init__.pyi: the stubs pccm writes for the compiled
    # module name CUDA-ish functions but hold no CUDA; a string naming cudaStream_t in a
    # project without pccm is no generated code either.
    stub = b"""\
from typing import overload
from cumm.tensorview import Tensor

class ConvGemmOps:
    @staticmethod
    def get_compute_capability(index: int = -1) -> tuple: ...
    @staticmethod
    def indice_conv(features: Tensor, filters: Tensor, stream_int: int = 0) -> None: ...
"""
    assert _layers("spconv/core_cc/csrc/sparse/convops/__init__.pyi", stub) == {"portable": 7}
    doc = b'''\
HELP = """
Pass the cudaStream_t of the current torch stream as an integer.
"""
'''
    assert set(_layers("tools/help.py", doc)) == {"portable"}


# -- qwopqwop200/GPTQ-for-LLaMa: Triton kernels under a project autotuner ---------------------


def test_gptq_triton_kernel_under_project_autotune_counts_from_the_jit() -> None:
    # quant/quant_linear.py: the project's own custom_autotune decorator and its configs sit
    # above @triton.jit; the kernel is the jitted def, the autotune table is tuning data.
    source = b"""\
import torch
import triton
import triton.language as tl
from . import custom_autotune


@custom_autotune.autotune(
    configs=[
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 32}, num_stages=2, num_warps=8),
    ],
    key=["M", "N"],
)
@triton.jit
def dequant_kernel(q_ptr, s_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    q = tl.load(q_ptr + offs, mask=offs < M)
    s = tl.load(s_ptr + offs, mask=offs < M)
    tl.store(out_ptr + offs, (q & 0xF).to(tl.float16) * s, mask=offs < M)


def dequant(q, s):
    out = torch.empty_like(s)
    dequant_kernel[(triton.cdiv(q.numel(), 64),)](q, s, out, q.numel(), 1)
    return out
"""
    layers = _layers("quant/quant_linear.py", source)
    assert layers["kernel"] == 7
    assert "vendor-path" not in layers


def test_gptq_cuda_amp_import_is_vendor_path() -> None:
    # quant/quant_linear.py and fused_mlp.py import custom_fwd from torch.cuda.amp.
    source = b"""\
import torch
from torch.cuda.amp import custom_bwd, custom_fwd


class QuantMatmul(torch.autograd.Function):
    @staticmethod
    @custom_fwd(cast_inputs=torch.float16)
    def forward(ctx, x):
        return x
"""
    assert _layers("quant/quant_linear.py", source)["vendor-path"] == 1


# -- mit-han-lab/torchsparse: host declarations named *_cuda ----------------------------------


def test_torchsparse_cuda_named_declaration_header_is_portable() -> None:
    # torchsparse/backend/others/downsample_cuda.h (drawn at random): the host function the
    # .cu file defines, declared over at::Tensor. Its name says CUDA, its lines hold none.
    source = b"""\
#pragma once

#include <torch/torch.h>

at::Tensor downsample_cuda(at::Tensor _in_coords, at::Tensor _coords_max,
                           at::Tensor _coords_min, at::Tensor _kernel_sizes,
                           at::Tensor _stride, at::Tensor _padding);
"""
    assert _layers("torchsparse/backend/others/downsample_cuda.h", source) == {"portable": 5}


def test_torchsparse_half2_scatter_kernel_is_kernel_code() -> None:
    # torchsparse/backend/convolution/convolution_gather_scatter_cuda.cu: fused scatter kernels
    # on half2 with atomicAdd; the host dispatcher below them stays host code.
    source = b"""\
#include <cuda_fp16.h>
#include <torch/extension.h>

__global__ void scatter_half(const int n, const int c, half *in_feat, half *out_feat,
                             const int *kmap) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  int i = index / (c >> 1);
  int j = index % (c >> 1);
  if (i >= n) return;
  atomicAdd(reinterpret_cast<half2 *>(&out_feat[kmap[i] * c + (j << 1)]),
            *reinterpret_cast<half2 *>(&in_feat[i * c + (j << 1)]));
}

int buffer_size(at::Tensor neighbor_offset) {
  return (int)torch::sum(neighbor_offset).item<int>();
}
"""
    layers = _layers("torchsparse/backend/convolution/convolution_gather_scatter_cuda.cu", source)
    assert layers["kernel"] == 9
    assert layers["portable"] == 4


# -- hpcaitech/ColossalAI: extension builders and probes --------------------------------------


def test_colossalai_extension_nvcc_flags_are_vendor_path() -> None:
    # extensions/pybind/layernorm/layernorm_cuda.py: the extension's nvcc flags
    # (--use_fast_math, -maxrregcount) are NVIDIA build configuration.
    source = b"""\
from ...cuda_extension import _CudaExtension


class LayerNormCudaExtension(_CudaExtension):
    def cxx_flags(self):
        return ["-O3"]

    def nvcc_flags(self):
        extra_cuda_flags = ["-maxrregcount=50"]
        ret = ["-O3", "--use_fast_math"] + extra_cuda_flags
        return ret
"""
    assert "vendor-path" in _layers("extensions/pybind/layernorm/layernorm_cuda.py", source)


def test_colossalai_availability_probe_stays_portable() -> None:
    # extensions/pybind/flash_attention/flash_attention_dao_cuda.py: is_available() asks
    # torch.cuda.is_available() inside a try; a probe that picks a backend, no CUDA code path.
    source = b"""\
from ...base_extension import _Extension


class FlashAttentionDaoCudaExtension(_Extension):
    def is_available(self) -> bool:
        try:
            import torch

            cuda_available = torch.cuda.is_available()
        except ImportError:
            cuda_available = False
        return cuda_available
"""
    path = "extensions/pybind/flash_attention/flash_attention_dao_cuda.py"
    assert set(_layers(path, source)) == {"portable"}


def test_colossalai_cpu_adam_half_casts_are_vendor_path() -> None:
    # extensions/csrc/kernel/x86/cpu_adam.cpp: the CPU optimizer reads CUDA's __half through
    # cuda_fp16.h; those casts tie the x86 build to the CUDA toolkit's headers.
    source = b"""\
#include <cuda_fp16.h>
#include <math.h>

void Adam::step(float *params, float *grads, bool half_precision) {
  __half *params_h = reinterpret_cast<__half *>(params);
  for (int k = 0; k < size; k++) {
    float p = half_precision ? (float)params_h[k] : params[k];
    params[k] = p - lr * grads[k];
  }
}
"""
    layers = _layers("extensions/csrc/kernel/x86/cpu_adam.cpp", source)
    assert layers["vendor-path"] >= 2
    assert "kernel" not in layers


# -- NVlabs/stylegan3: custom ops built at run time --------------------------------------------


def test_stylegan3_plugin_build_flags_are_vendor_path() -> None:
    # torch_utils/ops/bias_act.py: the op is compiled by torch_utils.custom_ops with nvcc
    # flags; the pure-PyTorch reference path beside it stays portable.
    source = b"""\
import torch
from .. import custom_ops


def _init():
    global _plugin
    _plugin = custom_ops.get_plugin(
        module_name="bias_act_plugin",
        sources=["bias_act.cpp", "bias_act.cu"],
        extra_cuda_cflags=["--use_fast_math", "--allow-unsupported-compiler"],
    )


def _bias_act_ref(x, b, alpha=0.2):
    return torch.nn.functional.leaky_relu(x + b, alpha)
"""
    layers = _layers("torch_utils/ops/bias_act.py", source)
    assert layers["vendor-path"] == 1
    assert "kernel" not in layers


def test_stylegan3_kernel_selection_table_is_host_code() -> None:
    # torch_utils/ops/upfirdn2d.cu: small-filter kernels, then a host function choosing a
    # template instance by filter size; the choice is host code, the kernel is kernel code.
    source = b"""\
#include "upfirdn2d.h"

template <class T, int filterW>
static __global__ void upfirdn2d_small(upfirdn2d_params p)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= p.outSize)
        return;
    p.y[x] = (T)(p.x[x] * p.f[x % filterW]);
}

template <class T> void* choose_upfirdn2d_kernel(const upfirdn2d_params& p)
{
    void* k = (void*)upfirdn2d_small<T, 24>;
    if (p.filterW <= 8) k = (void*)upfirdn2d_small<T, 8>;
    if (p.filterW <= 4) k = (void*)upfirdn2d_small<T, 4>;
    return k;
}
"""
    layers = _layers("torch_utils/ops/upfirdn2d.cu", source)
    assert layers["kernel"] == 8
    assert layers["portable"] == 8
