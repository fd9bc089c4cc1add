"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-v).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``,
ordered with ``random.seed("h54-pool")`` before anyone read it, from its position 253 on,
that hold a GPU term by the written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the
name's text only, so some are not GPU code at all). This lane took sub-pool positions 92-98.
Four were skipped: IvanDeBlas/finalproject-idb (92), mokume-metal/mokume (94) and
DevHead-LLC/RisingPunk (96) had no snapshot to fetch, and hdt98/rocm-libraries (93) was over
the size limit (1.45 GB). Read were damyanp/DirectXShaderCompiler (a fork of Microsoft's
DXC, the LLVM/Clang-based HLSL compiler to DXIL and SPIR-V: C++ compiler sources, LLVM IR
and Clang tests, and thousands of HLSL test shaders with FileCheck comments),
vintu2001/PyCuda-Accelerate (a small pybind11 package of CUDA algorithms: a tiled GEMM
kernel, Thrust and CUB sort, scan and reduce, with CUDA CI images, conda recipe and pytest
suite) and pytorch/TensorRT (Torch-TensorRT: the TorchScript, FX and dynamo front ends
compiling PyTorch to TensorRT engines, C++ runtime and plugins, and years of generated
documentation HTML with Sphinx-gallery downloads holding Triton and NVRTC kernels). Fifteen
files of each repository were sampled with ``random.Random("owner/name")`` over every file
lockin counts and labelled before any fix, with the files lockin calls non-portable (up to
20) and GPU-looking files it calls portable (up to 10) checked apart, files outside the
sample that hold kernel lines counted by hand (up to 5 a repository), and three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- pytorch/TensorRT: CI scripts, TensorRT front ends, kernels in gallery examples ----------


def test_pip_install_of_cuda_python_before_another_package_is_vendor_path() -> None:
    # tests/py/utils/ci_helpers.sh (a GPU-looking file lockin called portable before): one
    # pip command installs NVIDIA's cuda-python and cuda-core for the kernel tests; the bare
    # names were read only before a version or the line's end.
    source = b"""\
run_kernel_tier() {
    ( python -m pip install cuda-python cuda-core
      cd "${ROOT}/tests/kernels"
      python -m pytest -ra . )
}
"""
    path = "tests/utils/ci_tiers.sh"
    assert _rules(path, source) == {"deps.cuda-pip-install-list"}
    assert _layers(path, source)["vendor-path"] == 1


def test_pip_install_of_pycuda_among_others_is_vendor_path_and_uninstall_is_not() -> None:
    source = b"""\
pip install "pycuda" numpy pytest
pip uninstall -y pycuda numpy
pip install numpy; echo pycuda numpy are optional
"""
    path = "scripts/setup_env.sh"
    assert "deps.cuda-pip-install-list" in _rules(path, source)
    assert _layers(path, source) == {"vendor-path": 1, "portable": 2}


def test_torchscript_front_end_importing_torch_tensorrt_is_vendor_library_only() -> None:
    # py/torch_tensorrt/ts/_compiler.py (sampled, right before): the compile entry point
    # builds a spec and hands it to the TensorRT bindings; no CUDA call of its own.
    source = b"""\
from typing import Any, List

import torch
import torch_tensorrt._C.ts as _C
from torch_tensorrt._Device import Device


def compile(module: torch.jit.ScriptModule, inputs: List[Any], device: Device = None):
    spec = {"inputs": inputs, "device": device, "workspace_size": 0}
    return torch.jit._recursive.wrap_cpp_module(_C.compile_graph(module._c, spec))
"""
    path = "py/torch_tensorrt/ts/_compiler.py"
    assert _rules(path, source) == {"tensorrt.api"}
    assert set(_layers(path, source)) == {"vendor-library", "portable"}


def test_triton_kernel_in_a_plugin_example_counts_its_body() -> None:
    # docs/.../_downloads/.../auto_generate_plugin.py (an extra kernel file, hand 9,
    # lockin 9): a Triton elementwise kernel wrapped as a custom op for a TensorRT plugin.
    source = b"""\
import torch
import triton
import triton.language as tl


@triton.jit
def scaled_mul_kernel(X, Y, Z, a, b, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    tl.store(Z + offs, x * y * a + b)


def scaled_mul(x, y, a=2, b=0.5):
    z = torch.empty_like(x)
    scaled_mul_kernel[(x.numel() // 256,)](x, y, z, a, b, BLOCK=256)
    return z
"""
    path = "examples/dynamo/plugin_from_triton.py"
    assert "triton.jit" in _rules(path, source)
    assert _layers(path, source)["kernel"] == 7


def test_nvrtc_kernel_source_string_is_kernel() -> None:
    # docs/.../_downloads/.../nvrtc_aot_plugin.py (an extra kernel file, hand 11 with the
    # string's delimiters, lockin 11): CUDA C++ in a Python string compiled by NVRTC.
    source = b'''\
import torch

kernel_src = """
extern "C" __global__ void relu_kernel(const float* in, int n, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] > 0.0f ? in[i] : 0.0f;
    }
}
"""
'''
    path = "examples/nvrtc_relu.py"
    assert "cuda.source-string" in _rules(path, source)
    assert 6 <= _layers(path, source)["kernel"] <= 8


# -- vintu2001/PyCuda-Accelerate: a CUDA extension package ---------------------------------


def test_thrust_sort_in_a_cu_file_is_vendor_library_and_path() -> None:
    # src/algorithms/sort.cu (sampled, right before): Thrust's device vector and sort, then a
    # checked cudaDeviceSynchronize; no kernel of its own.
    source = b"""\
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/copy.h>

void sort_on_device(const float* in, float* out, size_t n) {
    thrust::device_vector<float> v(in, in + n);
    thrust::sort(v.begin(), v.end());
    thrust::copy(v.begin(), v.end(), out);
    cudaDeviceSynchronize();
}
"""
    path = "src/ops/sort.cu"
    layers = _layers(path, source)
    assert "kernel" not in layers
    assert layers["vendor-library"] >= 5
    assert layers["vendor-path"] >= 1


def test_tiled_gemm_kernel_counts_only_the_global_function() -> None:
    # src/algorithms/matmul.cu (an extra kernel file, hand 25, lockin 25): shared-memory tiles
    # in the __global__ template; the device-buffer class and launcher are vendor-path.
    source = b"""\
template <int T>
__global__ void mm(const float* a, const float* b, float* c, int n) {
    __shared__ float sa[T][T];
    __shared__ float sb[T][T];
    int r = blockIdx.y * T + threadIdx.y;
    int q = blockIdx.x * T + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n / T; ++t) {
        sa[threadIdx.y][threadIdx.x] = a[r * n + t * T + threadIdx.x];
        sb[threadIdx.y][threadIdx.x] = b[(t * T + threadIdx.y) * n + q];
        __syncthreads();
        for (int i = 0; i < T; ++i) acc += sa[threadIdx.y][i] * sb[i][threadIdx.x];
        __syncthreads();
    }
    c[r * n + q] = acc;
}

void run(const float* a, const float* b, float* c, int n) {
    float* d = nullptr;
    cudaMalloc(&d, n * n * sizeof(float));
    mm<16><<<dim3(n / 16, n / 16), dim3(16, 16)>>>(a, b, d, n);
    cudaFree(d);
}
"""
    path = "src/ops/matmul.cu"
    layers = _layers(path, source)
    assert layers["kernel"] == 16
    assert layers["vendor-path"] >= 3


def test_scikit_build_cuda_architectures_define_is_vendor_path() -> None:
    # pyproject.toml (sampled, right before): scikit-build-core passes the CUDA arch list.
    source = b"""\
[project]
name = "gpu-algos"
dependencies = ["numpy>=1.24"]

[tool.scikit-build.cmake.define]
CMAKE_CUDA_ARCHITECTURES = "75;80;86;90"
"""
    path = "pyproject.toml"
    assert _layers(path, source) == {"vendor-path": 1, "portable": 4}


def test_conda_recipe_with_cuda_toolkit_and_runtime_is_vendor_path() -> None:
    # conda/meta.yaml (sampled, right before): host needs cuda-toolkit, run needs cuda-runtime.
    source = b"""\
package:
  name: gpu-algos
requirements:
  host:
    - python
    - cuda-toolkit 12.4.*
  run:
    - numpy
    - cuda-runtime 12.4.*
"""
    path = "conda/meta.yaml"
    assert _layers(path, source)["vendor-path"] == 2


def test_pytest_gpu_probe_through_nvidia_smi_is_vendor_path() -> None:
    # tests/conftest.py (non-portable, right; its commit's gate failure is right too): the
    # suite skips GPU tests unless nvidia-smi lists a device.
    source = b"""\
import shutil
import subprocess


def have_gpu() -> bool:
    if shutil.which("nvidia-smi") is None:
        return False
    out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    return out.returncode == 0
"""
    path = "tests/conftest.py"
    assert "vendor-path" in _layers(path, source)


def test_pybind_module_over_gpu_entry_points_is_portable() -> None:
    # python/bindings.cpp (a GPU-looking file, right as portable): pybind11 glue that checks
    # NumPy shapes and calls the library's C++ functions; no CUDA name in it.
    source = b"""\
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include "algorithms.h"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
    m.def("gpu_sort", [](py::array_t<float> a) {
        auto out = py::array_t<float>(a.size());
        algos::sort_on_device(a.data(), out.mutable_data(), a.size());
        return out;
    });
}
"""
    path = "python/bindings.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- damyanp/DirectXShaderCompiler: HLSL test shaders, compiler sources -------------------


def test_hlsl_pixel_shader_test_counts_code_not_filecheck_comments() -> None:
    # tools/clang/test/DXILValidation/optForNoOpt4.hlsl (sampled, hand 11, lockin 11).
    source = b"""\
// RUN: %dxc -E main -T ps_6_0 %s | FileCheck %s
// CHECK: sample

SamplerState s0 : register(s2);
Texture2D<float4> tex : register(t1);

int count;

float4 main(float2 uv : TEXCOORD) : SV_Target {
  float4 acc = 0;
  for (uint i = 0; i < count; i++) {
    acc += tex.Sample(s0, uv, int2(i, -i));
  }
  return acc;
}
"""
    path = "tools/clang/test/DXILValidation/loop_sample.hlsl"
    assert _layers(path, source) == {"kernel": 10}


def test_root_signature_define_in_hlsli_is_kernel() -> None:
    # tools/clang/test/HLSLFileCheck/samples/MiniEngine/FXAARootSignature.hlsli (sampled,
    # hand 10, lockin 10): a root signature string macro shared by the shaders.
    source = b"""\
// Copyright notice.

#define Blur_RootSig \\
    "RootFlags(0), " \\
    "RootConstants(b0, num32BitConstants=2), " \\
    "DescriptorTable(SRV(t0, numDescriptors = 1))," \\
    "StaticSampler(s0, filter = FILTER_MIN_MAG_MIP_LINEAR)"
"""
    path = "samples/Blur/BlurRootSignature.hlsli"
    assert _layers(path, source) == {"kernel": 5}


def test_llvm_ir_transform_test_is_portable() -> None:
    # test/Transforms/IRCE/only-lower-check.ll (sampled, right before): a CPU IR test.
    source = b"""\
; RUN: opt -irce -S < %s | FileCheck %s

define void @f(i32* %p, i32 %n) {
entry:
  %c = icmp slt i32 0, %n
  br i1 %c, label %loop, label %exit
loop:
  br label %exit
exit:
  ret void
}
"""
    path = "test/Transforms/IRCE/small.ll"
    assert set(_layers(path, source)) == {"portable"}


def test_d3d12_device_in_an_execution_test_is_vendor_path() -> None:
    # tools/clang/unittests/HLSLExec/ExecutionTest.cpp (commit 52c7c332af9f, gate failure
    # right): a test creates a Direct3D 12 device to check required shader-model features.
    source = b"""\
TEST_F(ExecTest, RequiredFeatures) {
  CComPtr<ID3D12Device> Dev;
  if (!makeDevice(&Dev, SM_6_9)) {
    return;
  }
  VERIFY_IS_TRUE(supportsWaveOps(Dev));
}
"""
    path = "tools/clang/unittests/HLSLExec/ExecTest.cpp"
    assert _layers(path, source)["vendor-path"] == 1
