"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-c).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 602-608. One was skipped: Treatid2/skyrim-community-shaders
(605) had no snapshot to fetch. Read were shailja-thakur/AutoChip (LLM-driven Verilog
generation: Python scripts and large benchmark trees of Verilog), pytorch/tensorpipe (a C++
tensor-aware point-to-point library with CUDA IPC, GPUDirect and NVML-backed channels beside
InfiniBand, shared-memory and TCP transports), Thomas10111/PyCuda_examples (PyCUDA scripts
whose kernels are CUDA C held in strings, and a CuPy benchmark), meloht/YoloSharpOnnx (a C#
YOLO inference library over ONNX Runtime, with CUDA, TensorRT, OpenVINO, DirectML and CoreML
execution providers and one console project per provider), pavadik/tacuda (a CUDA port of
TA-Lib: one .cu file of kernel and launcher per indicator, C++ tests and ctypes bindings) and
triton-inference-server/model_analyzer (Python tooling that profiles Triton servers, with a
vendored DCGM binding). The YoloSharpOnnx snapshot lacked three .onnx models; everything else
was checked out. Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- meloht/YoloSharpOnnx: a console project restoring ONNX Runtime's CUDA build ---------------


def test_csproj_referencing_onnxruntime_gpu_package_is_vendor_path() -> None:
    # YoloSharpOnnx.ConsoleGPU/YoloSharpOnnx.ConsoleGPU.csproj: the GPU console restores
    # Microsoft.ML.OnnxRuntime.Gpu.Windows (CUDA and TensorRT providers) beside the library.
    source = b"""\
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net8.0</TargetFramework>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Microsoft.ML.OnnxRuntime.Gpu.Windows" Version="1.20.1" />
    <ProjectReference Include="..\\Detector\\Detector.csproj" />
  </ItemGroup>
</Project>
"""
    assert _rules("Demo.Cuda/Demo.Cuda.csproj", source) == {"build.msbuild-cuda"}
    assert _layers("Demo.Cuda/Demo.Cuda.csproj", source) == {"vendor-path": 1, "portable": 9}


def test_csproj_referencing_onnxruntime_directml_stays_portable() -> None:
    # YoloSharpOnnx.ConsoleDirectML/YoloSharpOnnx.ConsoleDirectML.csproj: DirectML runs on any
    # Direct3D 12 GPU, whoever made it.
    source = b"""\
<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="Microsoft.ML.OnnxRuntime.DirectML" Version="1.20.1" />
    <PackageReference Include="OpenCvSharp4.runtime.win" Version="4.10.0" />
  </ItemGroup>
</Project>
"""
    assert _rules("Demo.Dml/Demo.Dml.csproj", source) == set()
    assert _layers("Demo.Dml/Demo.Dml.csproj", source) == {"portable": 6}


# -- Thomas10111/PyCuda_examples: CUDA C in a SourceModule string ------------------------------


def test_pycuda_source_module_kernel_counted_from_its_string() -> None:
    # memcpy_InOut.py: a one-line kernel compiled with SourceModule, launched with
    # cuda.In/cuda.Out wrappers.
    source = b'''\
import numpy
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule

module = SourceModule("""
    __global__ void bump(int *src, int *dst)
    {
      int i = threadIdx.x + blockIdx.x * blockDim.x;
      dst[i] = src[i] * 2;
    }
    """)

values = numpy.arange(8, dtype=numpy.int32)
out = numpy.empty_like(values)
bump = module.get_function("bump")
bump(drv.In(values), drv.Out(out), block=(8, 1, 1), grid=(1, 1))
print(out)
'''
    assert _layers("bump.py", source)["kernel"] == 7


def test_cupy_benchmark_is_vendor_path() -> None:
    # matrix_multiplication.py: CuPy arrays on a managed-memory pool, synchronised per run.
    source = b"""\
import cupy as cp

pool = cp.cuda.MemoryPool(cp.cuda.malloc_managed)
cp.cuda.set_allocator(pool.malloc)
a = cp.ones((64, 64), dtype=cp.float32)
b = cp.dot(a, a)
cp.cuda.Device(0).synchronize()
"""
    assert "vendor-library" not in _layers("mm.py", source)
    assert _layers("mm.py", source).get("vendor-path", 0) >= 3


# -- pavadik/tacuda: a .cu file holding one indicator's kernel and its launcher -----------------


def test_indicator_kernel_and_launcher_split() -> None:
    # src/indicators/OBV.cu: a single-thread scan kernel, then a member function launching it.
    source = b"""\
#include <stdexcept>
#include "check.h"

__global__ void runningSumKernel(const float* __restrict__ in,
                                 float* __restrict__ out, int n) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        float acc = 0.0f;
        for (int i = 0; i < n; ++i) {
            acc += in[i];
            out[i] = acc;
        }
    }
}

void ta::RunningSum::calculate(const float* in, float* out, int n, cudaStream_t s) {
    if (n <= 0) {
        throw std::invalid_argument("RunningSum: invalid size");
    }
    runningSumKernel<<<1, 1, 0, s>>>(in, out, n);
    CHECK(cudaGetLastError());
}
"""
    layers = _layers("src/indicators/RunningSum.cu", source)
    assert layers["kernel"] == 10
    assert layers["vendor-path"] >= 3
