"""Cases from repositories drawn at random from a GPU-named sub-pool (issue 27, lane h55-random-s).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only). This lane took
sub-pool positions 71-77. Three were skipped: QianMo/GPU-Pro-Books-Source-Code (74) is over
the size limit of a snapshot (968 MB), mehoggan/vulkan_graphix (76) and cudamin/EmbyNian (77)
had no snapshot to fetch. Read were SuperbTUM/kmeans-pycuda (k-means clustering in
Jupyter notebooks: PyCUDA SourceModule kernels, scikit-cuda's cuBLAS and ThrustRTC, beside
CPU versions in plain Python), terrafx/terrafx.interop.vulkan (C# bindings of the Vulkan
headers, one generated file per struct, enum and function table), ROCm/Tensile (AMD's GEMM
kernel generator: Python writing AMD assembly and HIP source, a C++ host library, and
thousands of YAML tuning configs and library-logic tables) and adityakotha03/tritonLLM
(KernelBench-style reference models and LLM-written Triton kernels, some of them the
model's reasoning text or TorchInductor output saved as .py). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts
and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

import json

from tests.engine.test_ml_repo_cases import _layers, _rules


def _notebook(*cells: str) -> bytes:
    return json.dumps(
        {
            "cells": [
                {
                    "cell_type": "code",
                    "metadata": {},
                    "outputs": [],
                    "source": cell.splitlines(keepends=True),
                }
                for cell in cells
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    ).encode()


# -- SuperbTUM/kmeans-pycuda: k-means in notebooks on PyCUDA and scikit-cuda ----------------


def test_pycuda_notebook_with_kernels_and_cublas_gemm() -> None:
    # kmeans_GPU/final_v1.0.ipynb (already right): element-wise and reduction kernels in
    # SourceModule strings, a distance matrix through scikit-cuda's cublasSgemm, and the
    # buffers moved with pycuda.driver's memcpy.
    source = _notebook(
        "import numpy as np\n"
        "import pycuda.autoinit\n"
        "import pycuda.driver as drv\n"
        "from pycuda.compiler import SourceModule\n"
        "from skcuda import cublas\n",
        "squares = SourceModule('''\n"
        "__global__ void square_all(float *v, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n)\n"
        "        v[i] = v[i] * v[i];\n"
        "}\n"
        "''')\n",
        "def distances(a_gpu, b_gpu, out_gpu, m, n, k):\n"
        "    handle = cublas.cublasCreate()\n"
        "    cublas.cublasSgemm(handle, 'n', 't', m, n, k, 1.0, a_gpu.gpudata, m,\n"
        "                       b_gpu.gpudata, n, 0.0, out_gpu.gpudata, m)\n"
        "    cublas.cublasDestroy(handle)\n"
        "    size = np.int32(m * n)\n"
        "    size_gpu = drv.mem_alloc(size.nbytes)\n"
        "    drv.memcpy_htod(size_gpu, size)\n",
    )
    layers = _layers("kmeans_GPU/kmeans_fast.ipynb", source)
    assert set(layers) == {"kernel", "vendor-library", "vendor-path", "portable"}
    assert 5 <= layers["kernel"] <= 8


def test_cpu_kmeans_with_numpy_stays_portable() -> None:
    # kmeans_CPU/kmeans.py (already right): the reference k-means on numpy; "GPU" appears
    # only in the comparison the authors print.
    source = b"""\
import numpy as np

def assign(points, centres):
    d = ((points[:, None, :] - centres[None, :, :]) ** 2).sum(-1)
    return d.argmin(1)

def run(points, k, steps=20):
    centres = points[np.random.choice(len(points), k, replace=False)]
    for _ in range(steps):
        labels = assign(points, centres)
        centres = np.stack([points[labels == j].mean(0) for j in range(k)])
    print("compare with the GPU version")
    return labels
"""
    assert _rules("kmeans_CPU/kmeans.py", source) == set()
    assert set(_layers("kmeans_CPU/kmeans.py", source)) == {"portable"}


# -- terrafx/terrafx.interop.vulkan: C# bindings of the Vulkan headers ----------------------


def test_csharp_binding_of_a_vulkan_struct_is_vendor_path() -> None:
    # sources/Interop/Vulkan/Vulkan/vulkan/vulkan_core/VkPipelineInfoKHR.cs (already right):
    # one generated struct of the Vulkan API in C#.
    source = b"""\
namespace Example.Interop.Vulkan;

public unsafe partial struct VkBufferViewInfoKHR
{
    public VkStructureType sType;

    [NativeTypeName("const void *")]
    public void* pNext;

    public VkBufferView view;
}
"""
    path = "sources/Interop/Vulkan/vulkan_core/VkBufferViewInfoKHR.cs"
    assert "vendor-path" in _layers(path, source)
    assert "kernel" not in _layers(path, source)


def test_csharp_video_codec_std_struct_stays_portable() -> None:
    # sources/Interop/Vulkan/Vulkan/vk_video/.../StdVideoEncodeH264RefListModEntry.cs (already
    # right): H.264 syntax fields from the video std headers; no Vulkan call or type.
    source = b"""\
namespace Example.Interop.Vulkan;

public partial struct StdVideoH264SliceReorderEntry
{
    public StdVideoH264ReorderingIdc reordering_idc;

    [NativeTypeName("uint16_t")]
    public ushort abs_diff_pic_num_minus1;
}
"""
    path = "sources/Interop/Vulkan/vk_video/h264std/StdVideoH264SliceReorderEntry.cs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- ROCm/Tensile: tuning configs, host headers with device operators ----------------------


def test_tensile_tuning_config_without_version_header_is_vendor_path() -> None:
    # Tensile/Tests/extended/use_initial_strides_cd/test_use_initial_strides_cd_0.yaml
    # (portable before): a Tensile tuning config with no MinimumRequiredVersion key; its
    # top-level BenchmarkProblems section names the Tensile job (AMD GEMM kernels).
    source = b"""\
GlobalParameters:
  NumElementsToValidate: -1
  KernelTime: True
  DataInitTypeBeta: 1

BenchmarkProblems:
  -
    - # ProblemType
      OperationType: TensorContraction
      DataType: s
      UseInitialStridesCD: True
    -
      InitialSolutionParameters:
      ForkParameters:
        - ThreadTile: [[4, 4]]
        - WorkGroup: [[16, 16, 1]]
"""
    path = "Tensile/Tests/extended/strides/initial_strides_cd_1.yaml"
    assert _rules(path, source) == {"build.tensile-logic"}
    assert _layers(path, source)["vendor-path"] == 1


def test_tensile_config_with_both_keys() -> None:
    # Tensile/Configs/rocblas_sgemm_asm_single_kernel.yaml (right before; one more line now):
    # the version floor under GlobalParameters and the BenchmarkProblems section.
    source = b"""\
GlobalParameters:
  MinimumRequiredVersion: 4.2.0
  PrintLevel: 1

BenchmarkProblems:
  - # sgemm NN
    - OperationType: GEMM
      DataType: s
"""
    path = "Tensile/Configs/sgemm_asm_one.yaml"
    assert _rules(path, source) == {"build.tensile-logic"}
    assert _layers(path, source)["vendor-path"] == 2


def test_gfx_name_parser_unit_test_stays_portable() -> None:
    # Tensile/Tests/unit/test_Common.py (already right): gfx names are only test inputs of a
    # string parser; nothing runs on a device.
    source = b"""\
from Tensile import Common

def test_arch_from_name():
    assert Common.gfxArch('gfx9') is None
    assert Common.gfxArch('gfx906') == (9, 0, 6)
    assert Common.gfxArch('text gfx1030 text') == (10, 3, 0)
"""
    assert _rules("Tensile/Tests/unit/test_Common.py", source) == set()


def test_host_device_operators_of_a_hip_header_are_kernel() -> None:
    # Tensile/Source/TensileTypes.h (an extra kernel file, in range): HIP runtime status
    # macros, then a complex type whose operators are __host__ __device__.
    source = b"""\
#include <hip/hip_runtime.h>
#define LibStatus hipError_t

template <typename T>
struct pair_complex
{
    T re;
    T im;
};

template <typename T>
constexpr __host__ __device__ pair_complex<T> operator+(pair_complex<T> a, pair_complex<T> b)
{
    return pair_complex<T>{a.re + b.re, a.im + b.im};
}

template <typename T>
constexpr __host__ __device__ bool operator==(pair_complex<T> a, pair_complex<T> b)
{
    return a.re == b.re && a.im == b.im;
}
"""
    layers = _layers("Source/LibTypes.h", source)
    assert layers["kernel"] >= 8
    assert "vendor-path" in layers


# -- adityakotha03/tritonLLM: LLM-written Triton kernels -------------------------------------


def test_truncated_inductor_output_is_kernel_and_vendor_path() -> None:
    # output/zeroshot/qwen3_4b_finetuned/level3/16_DenseNet201.py (kernel only before): the
    # model answered with TorchInductor wrapper code, cut off inside its kernels, so only the
    # header binds the CUDA stream and the CUDA buffer allocator.
    source = b"""\
import torch
import triton
import triton.language as tl
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda

@triton.jit
def fused_relu_0(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)
    xmask = xindex < xnumel
    tmp0 = tl.load(in_out_ptr0 + xindex, xmask)
    tmp1 = tl.maximum(tmp0, 0.0)
    tl.store(in_out_ptr0 + xindex, tmp1, xmask)
"""
    path = "output/zeroshot/level3/DenseNet_compiled.py"
    assert "torch.inductor-cuda-buffer" in _rules(path, source)
    layers = _layers(path, source)
    assert layers["vendor-path"] == 2
    assert layers["kernel"] == 8


def test_inductor_call_allocating_cuda_buffers_is_vendor_path() -> None:
    # output/zeroshot/qwen3_4b_finetuned/level3/13_DenseNet121TransitionLayer.py (right as a
    # file before; its buffer lines counted now): the wrapper's call() allocates each buffer
    # with empty_strided_cuda, a statement that may span lines.
    source = b"""\
def call(args):
    arg0, arg1 = args
    with torch.cuda._DeviceGuard(0):
        torch.cuda.set_device(0)
        buf0 = empty_strided_cuda((32, 32, 1, 1), (32, 1, 32, 32),
                                  torch.float32)
        stream0 = get_raw_stream(0)
        return (buf0,)
"""
    path = "output/zeroshot/level3/transition_compiled.py"
    assert _rules(path, source) == {"torch.cuda-call", "torch.inductor-cuda-buffer"}
    assert _layers(path, source)["vendor-path"] == 4


def test_triton_wrapper_asserting_cuda_tensors() -> None:
    # output/zeroshot/qwen3_30b/level1/28_HardSigmoid.py (already right): a Triton kernel and
    # a host wrapper that refuses tensors off a CUDA device.
    source = b"""\
import torch
import triton
import triton.language as tl

@triton.jit
def hard_sigmoid_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.minimum(tl.maximum(x / 6 + 0.5, 0.0), 1.0), mask=mask)

def hard_sigmoid(x):
    assert x.is_cuda, "expects a CUDA tensor"
    y = torch.empty_like(x)
    hard_sigmoid_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    return y
"""
    path = "output/zeroshot/level1/28_HardSigmoid.py"
    layers = _layers(path, source)
    assert layers["kernel"] == 6
    assert layers["vendor-path"] == 1
    assert "torch.is-cuda" in _rules(path, source)
