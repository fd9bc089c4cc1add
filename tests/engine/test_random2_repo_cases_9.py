"""Cases from repositories drawn at random from a pool of GPU repositories (issue 27, lane b).

The pool (79 public repositories found by GPU words and topics, /work/pool-h33x.txt) was put
in a random order with ``random.seed("h33-audit-x")``; this lane took positions 25-36:
NVIDIA/grcuda, brucefan1983/GPUMD, intel/intel-xpu-backend-for-triton, xavigibert/ShearCuda,
gtcasl/gpuocelot, s1ddok/Alloy, hhergeth/CudaTracerLib, iamwilhelm/use.gpu,
matrixji/hip-performance-optimization-on-gfx1032, BenQuickDeNN/CUDA_tutorial and
TimofonicJunkRoom/withLinux (triton-lang/triton, position 35, is over the fetch limit).
Fifteen files of each were sampled with ``random.seed("owner/name")`` over every file lockin
counts and labelled before any fix. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers


def _rules(path: str, source: bytes) -> set[str]:
    return {f.rule for f in classify(path, source).findings}


# -- NVIDIA/grcuda: the CUDA runtime bound to GraalVM by the C entry points' names -------------


def test_grcuda_device_properties_call_the_runtime_by_cuda_names() -> None:
    # gpu/GPUDeviceProperties.java: device attributes and free memory read through the
    # project's CUDARuntime object, whose methods carry the CUDA functions' own names. Before,
    # every line was portable Java.
    source = b"""\
package com.nvidia.grcuda.gpu;

final class DeviceMemoryProperty {
    private final int deviceId;

    DeviceMemoryProperty(int deviceId) { this.deviceId = deviceId; }

    long freeBytes(CUDARuntime runtime) {
        int current = runtime.cudaGetDevice();
        if (current != deviceId) {
            runtime.cudaSetDevice(deviceId);
        }
        long free = runtime.cudaMemGetInfo().getFreeBytes();
        runtime.cudaSetDevice(current);
        return free;
    }

    int attribute(CUDARuntime runtime, CUDADeviceAttribute attr) {
        return runtime.cudaDeviceGetAttribute(attr, deviceId);
    }
}
"""
    report = classify("gpu/GPUDeviceProperties.java", source)
    assert _rules("gpu/GPUDeviceProperties.java", source) == {"cuda.managed-runtime-call"}
    # The five calls into the runtime; the class around them travels.
    assert _layers("gpu/GPUDeviceProperties.java", source)["vendor-path"] == 5
    assert report.ecosystems == {"cuda": 5}


def test_grcuda_runtime_binding_declares_each_cuda_function() -> None:
    # gpu/CUDARuntime.java: one Java method per CUDA runtime function, each executing the
    # native symbol through Truffle's interop; the method headers name the CUDA functions.
    source = b"""\
package com.nvidia.grcuda.gpu;

public final class CUDARuntime {
    public GPUPointer cudaMalloc(long numBytes) {
        Object callable = getSymbol(CUDARuntimeFunction.CUDA_MALLOC);
        return new GPUPointer(INTEROP.execute(callable, numBytes));
    }

    public void cudaDeviceSynchronize() {
        Object callable = getSymbol(CUDARuntimeFunction.CUDA_DEVICESYNCHRONIZE);
        checkCUDAReturnCode(INTEROP.execute(callable), "cudaDeviceSynchronize");
    }
}
"""
    report = classify("gpu/CUDARuntime.java", source)
    lines = [f.start_line for f in report.findings if f.rule == "cuda.managed-runtime-call"]
    assert lines == [4, 9]


def test_grcuda_tensorrt_registry_is_a_library_binding() -> None:
    # tensorrt/TensorRTRegistry.java: registers TensorRT's C entry points (trt_enqueue, ...)
    # as GrCUDA functions, as its cublas package does cuBLAS's.
    source = b"""\
package com.nvidia.grcuda.tensorrt;

import com.nvidia.grcuda.Namespace;

public class TensorRTRegistry {
    public void registerTensorRTFunctions(Namespace namespace) {
        namespace.addFunction(new EnqueueFunction(TensorRTFunctionNFI.TRT_ENQUEUE.factory));
    }
}
"""
    assert _layers("tensorrt/TensorRTRegistry.java", source) == {"vendor-library": 7}


def test_grcuda_function_holding_the_runtime_stays_portable() -> None:
    # functions/GetDeviceFunction.java: keeps a CUDARuntime reference and builds Device
    # objects; no CUDA function is named in code (only in a string and a comment).
    source = b"""\
package com.nvidia.grcuda.functions;

public final class GetDeviceFunction extends Function {
    private final CUDARuntime runtime;

    // answers what cudaGetDevice() would
    public GetDeviceFunction(CUDARuntime runtime) {
        super("getdevice");
        this.runtime = runtime;
    }

    String describe() { return "cudaGetDevice"; }
}
"""
    assert _layers("functions/GetDeviceFunction.java", source) == {"portable": 9}


# -- xavigibert/ShearCuda: GPUmat, a CUDA-only MATLAB toolbox ----------------------------------


def test_shearcuda_gpumat_arrays_are_nvidia_only() -> None:
    # gpumat-code/GPUmatModules/Tests/mhelp/test111.m: GPUsingle and GPUdouble are GPUmat's
    # device arrays, built on CUDA alone, as gpuArray is MATLAB's own.
    source = b"""\
function test111
X = rand(10, GPUsingle);
numel(X)
Y = rand(10, GPUdouble);
numel(Y)
end
"""
    assert _layers("gpumat-code/GPUmatModules/Tests/mhelp/test111.m", source) == {
        "vendor-path": 2,
        "portable": 4,
    }


def test_shearcuda_gpumat_cublas_calls_are_library_calls() -> None:
    # gpumat-code/GPUmat/src/release/examples/CUBLAS/test_cublasSetVector.m: GPUmat exposes
    # cuBLAS one function for one; the call takes the GPU array's device pointer.
    source = b"""\
function test_cublasSetVector
B = [1 2 3 4];
A = GPUsingle();
setSize(A, size(B));
GPUallocVector(A);
status = cublasSetVector(numel(A), getSizeOf(A), B, 1, getPtr(A), 1);
cublasCheckStatus(status, 'Unable to set the values on the GPU.');
disp(single(A));
end
"""
    report = classify("examples/CUBLAS/test_cublasSetVector.m", source)
    assert {f.rule for f in report.findings} == {
        "matlab-gpu.gpu-array",
        "matlab-gpu.cuda-library-call",
    }
    assert _layers("examples/CUBLAS/test_cublasSetVector.m", source) == {
        "vendor-library": 2,
        "vendor-path": 1,
        "portable": 6,
    }


def test_shearcuda_gpumat_makefile_links_the_cuda_libraries() -> None:
    # gpumat-code/GPUmatModules/src/Examples/texture/makefile.m: the MEX build links cuBLAS,
    # the driver, the runtime and cuFFT.
    source = b"""\
function objs = makefile(varargin)
include = ['-I' fullfile('..', 'include')];
lib = ['-L' cuda.libpath];
lib = [lib ' -lcublas -lcuda -lcudart -lcufft'];
objs = maketask('cpp', {'texture.cpp'}, '.', include, lib);
end
"""
    report = classify("Examples/texture/makefile.m", source)
    assert [(f.rule, f.start_line) for f in report.findings] == [("matlab-gpu.nvcc-build", 4)]


def test_shearcuda_timer_enum_naming_npp_steps_is_portable() -> None:
    # shearcuda/src_cuda/GpuTimes.h: an enum of timer ids, one per step it times, two named
    # after the NPP functions they time. Before, the enum counted 33 vendor-library lines.
    source = b"""\
class GpuTimes
{
public:
    enum TimerID
    {
        fftFwd = 0,
        fftInv,
        nppsMax,
        nppsMin,
        addVector,
        numTimers
    };
    void startTimer(TimerID id);
};
"""
    assert _layers("shearcuda/src_cuda/GpuTimes.h", source) == {"portable": 14}


def test_shearcuda_npp_calls_without_a_type_suffix_still_count() -> None:
    # crack_detection/src_cuda/cracks_gc.cpp: NPP's graph-cut functions carry no data-type
    # suffix; called, they are NPP all the same.
    source = b"""\
#include <npp.h>

void cut(int w, int h, Npp8u* buffer, NppiGraphcutState* state)
{
    int size = 0;
    nppiGraphcut8GetSize(nppiSize(w, h), &size);
    nppiGraphcutFree(state);
}
"""
    report = classify("crack_detection/src_cuda/cracks_gc.cpp", source)
    assert report.line_rules[5:7] == ["cuda-libs.call", "cuda-libs.call"]


# -- gtcasl/gpuocelot: nvcc's preprocessed output checked in beside each .cu -------------------


def test_gpuocelot_cudafe_output_is_generated() -> None:
    # tests/cuda2.2/tests/Particles/particleSystem.cu.cpp: nvcc's .cudafe1.cpp, line markers
    # first and every CUDA header expanded; 199 of them held 3.6 million of the repository's
    # 4.5 million code lines and half its kernel lines.
    source = b"""\
# 1 "/tmp/tmpxft_00005c97_00000000-1_particleSystem.cudafe1.cpp"
# 1 "<built-in>"
# 1 "<command-line>"
# 1 "/tmp/tmpxft_00005c97_00000000-1_particleSystem.cudafe1.cpp"
# 1 "tests/Particles/particleSystem.cu"
static __attribute__((device)) __inline__ float fminf(float a, float b) { return a < b ? a : b; }
extern "C" cudaError_t cudaMalloc(void **devPtr, size_t size);
void integrateSystem(float *pos, float *vel, float dt) { cudaMalloc((void**)&pos, 4); }
"""
    assert classify("tests/Particles/particleSystem.cu.cpp", source).generated


def test_a_line_marker_alone_is_no_generated_mark() -> None:
    # A shell script whose first comment reads like a line marker is still hand-written.
    source = b"""\
# 1 "step": build the kernels
nvcc -O3 -o saxpy saxpy.cu
./saxpy
"""
    assert not classify("build.sh", source).generated
    assert _layers("build.sh", source)["vendor-path"] == 1


# -- brucefan1983/GPUMD: kernels behind the project's CUDA/HIP macro header --------------------


def test_gpumd_kernel_through_gpu_macro_counts_as_kernel() -> None:
    # src/measure/active.cu: a __global__ kernel launched with the project's gpu macros;
    # hipcc builds it as well, but Intel and Apple GPUs run none of it.
    source = b"""\
#include "utilities/gpu_macro.cuh"

static __global__ void gpu_sum_uncertainty(const int N, const double* f, double* out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    out[i] = f[i] * f[i];
  }
}

void Active::process(const int N, const double* f, double* out)
{
  gpu_sum_uncertainty<<<(N - 1) / 128 + 1, 128>>>(N, f, out);
  GPU_CHECK_KERNEL
}
"""
    layers = _layers("src/measure/active.cu", source)
    assert layers["kernel"] == 7
    assert layers["portable"] >= 4


# -- hhergeth/CudaTracerLib: host-device helpers travel, its CUDA_GLOBAL kernels do not --------


def test_cudatracerlib_host_device_helpers_stay_portable() -> None:
    # Base/STL.h: CUDA_FUNC_IN is __host__ __device__ inline under nvcc and inline elsewhere;
    # the sort helpers compile for the CPU as they are.
    source = b"""\
namespace CudaTracerLib {

template<typename T>
CUDA_FUNC_IN const T* STL_upper_bound(const T* first, const T* last, const T& v)
{
    const T* it = first;
    while (it != last && !(v < *it))
        ++it;
    return it;
}

}
"""
    assert _layers("Base/STL.h", source) == {"portable": 10}


def test_cudatracerlib_macro_kernel_in_header_counts() -> None:
    # Kernel/ParametricModels/GridModelBuffer.h: a CUDA_GLOBAL (__global__) kernel on
    # blockIdx/threadIdx beside host templates.
    source = b"""\
template<int D, typename Model> CUDA_GLOBAL void updateMixtureModels(Buffer buf, Set<Model> set)
{
    Vec3u idx = Vec3u(blockIdx.x * blockDim.x + threadIdx.x,
                      blockIdx.y * blockDim.y + threadIdx.y,
                      blockIdx.z * blockDim.z + threadIdx.z);
    if (idx.x < buf.dim.x)
        updateCell(idx, buf, set);
}
"""
    assert _layers("Kernel/ParametricModels/GridModelBuffer.h", source).get("portable", 0) == 0


# -- s1ddok/Alloy and iamwilhelm/use.gpu: Metal host code and WGSL modules ---------------------


def test_alloy_encoder_is_metal_host_code() -> None:
    # Sources/Alloy/Encoders/TextureMean.swift: a compute pipeline and its encoding.
    source = b"""\
import Metal

final public class TextureMean {
    public let pipelineState: MTLComputePipelineState

    public init(library: MTLLibrary) throws {
        self.pipelineState = try library.computePipelineState(function: "textureMean")
    }

    public func encode(source: MTLTexture, in commandBuffer: MTLCommandBuffer) {
        let encoder = commandBuffer.makeComputeCommandEncoder()
        encoder?.setTexture(source, index: 0)
        encoder?.endEncoding()
    }
}
"""
    report = classify("Sources/Alloy/Encoders/TextureMean.swift", source)
    metal = {n for n, rule in enumerate(report.line_rules, 1) if rule == "metal.host-api"}
    # The import, the Metal-typed declarations and the encoder it makes.
    assert {1, 4, 6, 10, 11} <= metal
    assert report.ecosystems["metal"] >= 5


def test_use_gpu_wgsl_module_is_shader_code() -> None:
    # packages/wgsl/wgsl/fragment/gain.wgsl: a linkable WGSL module, @link/@export included.
    source = b"""\
@link fn getGain() -> f32;

@export fn gainColor(color: vec4<f32>) -> vec4<f32> {
  var rgb = color.rgb * getGain();
  return vec4<f32>(rgb, color.a);
};
"""
    assert _layers("packages/wgsl/wgsl/fragment/gain.wgsl", source) == {"kernel": 5}


# -- matrixji/hip-performance-optimization-on-gfx1032 and BenQuickDeNN/CUDA_tutorial -----------


def test_hip_perf_null_kernel_and_host_calls() -> None:
    # src/test-02-01.hip: an empty kernel timed with hipEvents; the kernel is two lines.
    source = b"""\
#include <hip/hip_runtime.h>

__global__ void null_kernel(float * __restrict__ a) {
}

int main() {
    float *a = nullptr;
    hipEvent_t start, stop;
    hipEventCreate(&start);
    hipMalloc(&a, sizeof(float));
    null_kernel<<<1, 1024>>>(a);
    hipFree(a);
    return 0;
}
"""
    layers = _layers("src/test-02-01.hip", source)
    assert layers["kernel"] == 2
    assert layers["vendor-path"] >= 5


def test_cuda_tutorial_kernel_header_counts() -> None:
    # my_gemm/include/cuda_kernels.h: the tutorial's GEMM kernel, in a header the .cu includes.
    source = b"""\
#ifndef CUDA_KERNELS_H
#define CUDA_KERNELS_H
#include <cuda_runtime.h>

template <typename T>
__global__ void gemm_kernel(T* C, const T* A, const T* B, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    T sum = 0;
    for (int k = 0; k < n; ++k)
        sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
}
#endif
"""
    assert _layers("my_gemm/include/cuda_kernels.h", source)["kernel"] == 10
