"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h40-random-b).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 9-16. One could not be read: tavakkoliamirmohammad/cutile-stencil-dsl (no
snapshot). Fifteen files of each remaining repository (alu3n/HoudiniPathTracer,
xtensor-stack/xsimd, MrNeRF/LichtFeld-Studio, MasterMould/gguf-gasket, irmb/virtualfluids,
AJTech2002/WebGPU-Particles, BubbleParticles/Planar.jl; gguf-gasket counts one file) were
drawn with ``random.Random("owner/name")`` over every file lockin counts, sorted by path, and
labelled before any fix, with up to twenty files lockin calls non-portable and up to ten
GPU-looking files it calls portable, and three commits touching GPU code each. Each snippet
is a small rewrite, in our own words, of a pattern found in the repository its test names;
the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- irmb/virtualfluids: lattice Boltzmann on CUDA, with a CPU core and many apps --------------


def test_virtualfluids_memory_manager_named_after_cuda_is_portable() -> None:
    # src/gpu/core/Samplers/PrecursorWriter.h, Communication/ExchangeData27.h and 42 more: the
    # GPU core hands its own wrapper class, `SPtr<CudaMemoryManager> cudaMemoryManager`, to
    # every constructor and calls its methods (cudaAllocCoord, cudaCopyCoord) by name. Before,
    # cuda.runtime read the variable's name as the runtime's cudaMemory* and made 44 files
    # non-portable on that name alone; the wrapper's own file, which calls cudaMalloc, stays so.
    source = b"""\
#include <basics/DataTypes.h>

class CudaMemoryManager;

class GridReader
{
public:
    GridReader(SPtr<Parameter> para, SPtr<CudaMemoryManager> cudaMemoryManager);
    void allocArrays(uint level);

private:
    SPtr<Parameter> para;
    SPtr<CudaMemoryManager> cudaMemoryManager;
};

void GridReader::allocArrays(uint level)
{
    cudaMemoryManager->cudaAllocCoord(level);
    cudaMemoryManager->cudaCopyCoord(level);
    cudaStreamManager->getStream(0);
}
"""
    assert _layers("src/gpu/core/DataStructureInitializer/GridReader.cpp", source) == {
        "portable": 17
    }


def test_virtualfluids_memory_manager_calling_the_runtime_stays_vendor_path() -> None:
    # src/gpu/core/Cuda/CudaMemoryManager.cpp: the wrapper's methods are where the runtime is.
    source = b"""\
void CudaMemoryManager::cudaAllocCoord(int lev)
{
    checkCudaErrors(cudaMallocHost((void**)&(host(lev)->coordX), host(lev)->memSize));
    checkCudaErrors(cudaMalloc((void**)&(device(lev)->coordX), device(lev)->memSize));
}
"""
    assert _rules("src/gpu/core/Cuda/CudaMemoryManager.cpp", source) == {"cuda.runtime"}
    assert _layers("src/gpu/core/Cuda/CudaMemoryManager.cpp", source) == {
        "vendor-path": 2,
        "portable": 3,
    }


def test_virtualfluids_lift_coefficient_table_kept_as_cl_is_data() -> None:
    # Python/actuator_line_with_wifi/NREL5MW.cl: an airfoil's lift coefficients per angle of
    # attack (NREL5MW.cd beside it holds the drag). Before, the .cl extension made its 75 rows
    # of numbers OpenCL kernel lines.
    source = b"""\
0\t1\t0.4\t0.35\t0.3
-180\t0\t0\t0\t0
-170\t0\t0.397\t0.405\t0.547
-160\t0\t0.642\t0.658\t0.685
-5\t0\t-1.5e-2\t-0.361\t-0.4
"""
    assert _layers("Python/actuator_line_with_wifi/NREL5MW.cl", source) == {}


def test_opencl_kernel_of_constants_stays_kernel() -> None:
    # The negative: a kernel full of numbers still has its keywords and names.
    source = b"""\
__constant float lift[4] = {0.4f, 0.35f, 0.3f, 0.25f};
__kernel void scale(__global float* out) { out[get_global_id(0)] *= lift[0]; }
"""
    assert _layers("kernels/scale.cl", source) == {"kernel": 2}


def test_virtualfluids_kernel_prototypes_count_and_the_launch_is_vendor_path() -> None:
    # src/gpu/core/GridScaling/Scaling.cu (checked right): __global__ prototypes above the
    # host wrappers that launch them, as the project's convention counts prototypes.
    source = b"""\
#include "Calculation/Calculation.h"

namespace vf::gpu {

template <bool hasTurbulentViscosity>
__global__ void scaleCoarseToFine_Device(
    real* distributionsCoarse,
    real* distributionsFine,
    uint numberOfInterfaceNodes,
    real omegaCoarse);

template <bool hasTurbulentViscosity>
void scaleCoarseToFine(LBMSimulationParameter* parC, LBMSimulationParameter* parF, CUstream_st* s)
{
    dim3 grid = vf::cuda::getCudaGrid(parC->numberofthreads, parF->numberOfNodes);
    dim3 threads(parC->numberofthreads, 1, 1);
    scaleCoarseToFine_Device<hasTurbulentViscosity><<<grid, threads, 0, s>>>(
        parC->distributions.f[0],
        parF->distributions.f[0],
        parF->numberOfNodes,
        parC->omega);
    getLastCudaError("scaleCoarseToFine_Device execution failed");
}

}
"""
    assert _rules("src/gpu/core/GridScaling/Scaling.cu", source) == {"cuda.kernel", "cuda.launch"}
    assert _layers("src/gpu/core/GridScaling/Scaling.cu", source) == {
        "kernel": 6,
        "vendor-path": 5,
        "portable": 10,
    }


# -- MrNeRF/LichtFeld-Studio: 3D Gaussian splatting on CUDA with libtorch and OpenGL ----------


def test_lichtfeld_input_check_requiring_cuda_tensors_is_vendor_path() -> None:
    # src/rendering/cuda/utils/torch_utils.h (and fastgs/utils/torch_utils.h): a debug macro
    # that throws unless the tensor lives on CUDA. Before, torch.cpp-cuda left every negated
    # is_cuda() alone, and the file was portable.
    source = b"""\
#pragma once
#include <torch/torch.h>

#define REQUIRE_CUDA_FLOAT(debug, tensor, name)                                          \\
    if (debug) {                                                                          \\
        if (!tensor.is_cuda() || !tensor.is_floating_point()) {                           \\
            throw std::runtime_error(std::string(name) + " must be a CUDA float tensor"); \\
        }                                                                                 \\
    }
"""
    assert _rules("src/rendering/cuda/utils/torch_utils.h", source) == {"torch.cpp-cuda"}
    assert _layers("src/rendering/cuda/utils/torch_utils.h", source) == {
        "vendor-path": 6,
        "portable": 2,
    }


def test_cpu_fallback_branch_on_a_negated_is_cuda_is_vendor_path() -> None:
    # The same branch written as a CPU fallback before the GPU path: the line that splits them.
    source = b"""\
at::Tensor compress(at::Tensor input) {
    if (!input.is_cuda()) {
        return compress_cpu(input);
    }
    return compress_gpu(input);
}
"""
    assert _layers("csrc/compress.cpp", source) == {"vendor-path": 1, "portable": 5}


def test_assertion_that_a_tensor_is_not_on_cuda_stays_portable() -> None:
    # The negative: an assertion that the input is a CPU tensor guards CPU code.
    source = b"""\
void nms(const at::Tensor& dets) {
    TORCH_CHECK(!dets.is_cuda(), "dets must be a CPU tensor");
    AT_ASSERTM(!dets.is_cuda(), "dets must be a CPU tensor");
}
"""
    assert _layers("csrc/cpu/nms.cpp", source) == {"portable": 4}


def test_lichtfeld_launcher_declarations_are_portable() -> None:
    # gsplat/SphericalHarmonics.h (checked right): the launchers' declarations take at::Tensor
    # and name the kernels, but declare host functions only.
    source = b"""\
#pragma once
#include <cstdint>

namespace at {
    class Tensor;
}

namespace gsplat {
    void launch_spherical_harmonics_fwd_kernel(
        const uint32_t degrees_to_use,
        const at::Tensor dirs,
        const at::Tensor coeffs,
        at::Tensor colors);
}
"""
    assert _layers("gsplat/SphericalHarmonics.h", source) == {"portable": 12}
