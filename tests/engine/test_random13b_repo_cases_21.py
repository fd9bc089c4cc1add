"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-b).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 280-286 and every one had a snapshot, so none was skipped:
Nik-Menendez/PyCudaAnalyzer (CMS analysis in Python with PyCUDA SourceModule kernels),
ROCm/rocSOLVER (AMD's LAPACK on rocBLAS, with its own HIP kernels), lstorchi/pycudaf (CUDA
Fortran and OpenACC called from Python), run-llama/LlamaIndexTS (a TypeScript LLM framework,
no GPU code), MOEAFramework/MOEAFramework (Java optimisation, no GPU code),
fzi-forschungszentrum-informatik/gpu-voxels (CUDA voxel maps and octrees) and
wadkisson/TorchLean (Lean 4 neural networks with a CUDA back end in csrc/). Fifteen files of
each repository (all nine of pycudaf) were sampled with ``random.Random("owner/name")`` over
every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart, up
to five more kernel files counted by hand, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/rocSOLVER: HIP kernels in .hpp files that reach the runtime through rocblas.h ------


def test_hip_index_spelling_makes_a_header_hip_and_its_macro_kernels_device_code() -> None:
    # library/src/auxiliary/rocauxiliary_larfb.hpp: kernels declared with the library's own
    # ROCSOLVER_KERNEL (`static __global__`, defined in another header) index threads with
    # hipBlockIdx_x/hipThreadIdx_x; no hip/ include, no rocsolver/ folder. Before, the file was
    # C++ and only the index line counted as kernel (1 of the kernel's 11 lines).
    source = b"""\
#pragma once
#include "solver_blas.hpp"

SOLVER_BEGIN_NAMESPACE

template <typename T>
SOLVER_KERNEL void swap_columns(const int n, T* A, const int lda, const int j)
{
    const int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    if(i < n)
    {
        T tmp = A[i + j * lda];
        A[i + j * lda] = A[i];
        A[i] = tmp;
    }
}

template <typename T>
void swap_columns_launch(const int n, T* A, const int lda, const int j, hipStream_t stream)
{
    dim3 grid((n - 1) / 64 + 1);
    SOLVER_LAUNCH(swap_columns<T>, grid, dim3(64), 0, stream, n, A, lda, j);
}

SOLVER_END_NAMESPACE
"""
    path = "library/src/auxiliary/solver_swap.hpp"
    assert _rules(path, source) == {"hip.device-body", "hip.runtime"}
    # The namespace macro above the template is read as the declaration's first line (+1).
    assert _layers(path, source) == {"kernel": 12, "vendor-path": 3, "portable": 6}


def test_hip_index_spelling_puts_global_kernels_in_the_hip_ecosystem() -> None:
    # library/src/lapack/roclapack_getf2.hpp: a __global__ kernel in a .hpp with HIP's index
    # spellings was counted as CUDA (5,555 of rocSOLVER's kernel lines were "cuda" before).
    source = b"""\
#pragma once
#include "solver_blas.hpp"

template <typename T>
__global__ void scale_rows(const int m, T* A, const T alpha)
{
    const int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    if(i < m)
        A[i] *= alpha;
}

template <typename T>
void scale_rows_launch(const int m, T* A, const T alpha, hipStream_t stream)
{
    hipLaunchKernelGGL(scale_rows<T>, dim3((m - 1) / 64 + 1), dim3(64), 0, stream, m, A, alpha);
}
"""
    path = "library/src/lapack/solver_scale.hpp"
    assert _rules(path, source) == {"hip.kernel", "hip.runtime"}
    assert _layers(path, source) == {"kernel": 7, "vendor-path": 4, "portable": 3}


def test_hip_project_launch_macro_is_a_launch() -> None:
    # library/src/auxiliary/rocauxiliary_larft.hpp: kernels start through the library's
    # ROCSOLVER_LAUNCH_KERNEL (hipLaunchKernelGGL with logging, defined in another header); the
    # launch lines were portable. A check macro named after launches is no launch.
    source = b"""\
#include "solver_blas.hpp"

template <typename T>
__global__ void negate(const int n, T* x)
{
    const int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    if(i < n)
        x[i] = -x[i];
}

template <typename T>
void negate_all(const int n, T* x, hipStream_t stream)
{
    const int blocks = (n - 1) / 128 + 1;
    SOLVER_LAUNCH_KERNEL(negate<T>, dim3(blocks), dim3(128), 0, stream,
                         n, x);
    SOLVER_LAUNCH_KERNEL_CHECK();
}
"""
    path = "library/src/auxiliary/solver_negate.hpp"
    assert _rules(path, source) == {"hip.kernel", "hip.launch-macro", "hip.runtime"}
    assert _layers(path, source) == {"kernel": 7, "vendor-path": 5, "portable": 4}


def test_cuda_shim_of_hip_index_names_stays_c_header() -> None:
    # The negative: a header that maps HIP's spellings onto CUDA's under __CUDACC__ is written
    # for both vendors and keeps its C/C++ language (the CUDA rules read it as before).
    source = b"""\
#pragma once
#if defined(__CUDACC__)
#define hipThreadIdx_x threadIdx.x
#define hipBlockIdx_x blockIdx.x
#endif
inline int lane_of(int t) { return t % 32; }
"""
    path = "src/compat/index_shim.h"
    assert _rules(path, source) == {"cuda.build-guard", "cuda.device-builtin"}
    assert _layers(path, source) == {"kernel": 2, "vendor-path": 2, "portable": 2}


# -- verdicts that were already right ----------------------------------------------------------


def test_pycuda_source_module_kernel_and_driver_launch() -> None:
    # Nik-Menendez/PyCudaAnalyzer HToZa/Skimmer/AnalysisSkimmer.py: a one-line CUDA kernel in
    # SourceModule, launched with drv.In/drv.Out buffers.
    source = b'''\
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule

module = SourceModule("""
__global__ void product(float *out, float *a, float *b)
{
  const int i = threadIdx.x + blockDim.x * blockIdx.x;
  out[i] = a[i] * b[i];
}
""")
product = module.get_function("product")


def weigh(a, b, blocks, threads):
    out = np.zeros_like(a)
    product(drv.Out(out), drv.In(a), drv.In(b), block=(threads, 1, 1), grid=(blocks, 1))
    return out
'''
    path = "hep/Weighter/EventWeighter.py"
    assert _rules(path, source) == {"pycuda.driver", "pycuda.host-api", "pycuda.source-module"}
    assert _layers(path, source) == {"kernel": 7, "vendor-path": 5, "portable": 4}


def test_cuda_fortran_library_modules_and_openacc_stays_portable() -> None:
    # lstorchi/pycudaf main.F uses the cublas, cusolverDn and cudafor modules; gfinit.F only
    # moves data with OpenACC, which every vendor's compiler offers.
    main = b"""\
      program solver
      use solver_core, only : run_solver
      use cublas
      use cusolverDn
      use cudafor
      implicit none
      call run_solver ()
      end program solver
"""
    assert _rules("solver_main.F", main) == {"cuda.fortran-host", "cuda.fortran-library"}
    assert _layers("solver_main.F", main) == {"vendor-library": 2, "vendor-path": 1, "portable": 5}
    acc = b"""\
      subroutine init_arrays()
      use grid_data, only: nx, u
      implicit none
      integer :: i
      do i = 1, nx
        u(i) = 0.0d0
      end do
!$acc update device(u)
      end subroutine init_arrays
"""
    assert _rules("init_arrays.F", acc) == set()
    assert _layers("init_arrays.F", acc) == {"portable": 8}


def test_host_device_member_definitions_are_kernel_code() -> None:
    # fzi-forschungszentrum-informatik/gpu-voxels voxel/DistanceVoxel.hpp: out-of-class member
    # definitions, each under a `__host__ __device__` line.
    source = b"""\
#include "Cell.h"

namespace grid {

__host__ __device__
uint32_t Cell::packed(const uint x, const uint y, const uint z) const {
  return x | (y << 10) | (z << 20);
}

__host__ __device__
void Cell::clear() {
  m_bits = 0;
}

} // namespace grid
"""
    assert _rules("src/voxel/Cell.hpp", source) == {"cuda.device-function"}
    assert _layers("src/voxel/Cell.hpp", source) == {"kernel": 8, "portable": 3}


def test_device_macro_defined_under_cudacc_marks_its_functions() -> None:
    # wadkisson/TorchLean csrc/cuda/common/torchlean_cuda_rng_common.h: a qualifier macro that
    # is __device__ under __CUDACC__ and `static inline` otherwise.
    source = b"""\
#pragma once
#include <stdint.h>

#if defined(__CUDACC__)
#define HASH_INLINE __device__ __forceinline__ static
#else
#define HASH_INLINE static inline
#endif

HASH_INLINE uint64_t mix64(uint64_t x) {
  uint64_t z = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  return z ^ (z >> 31);
}
"""
    path = "csrc/common/hash_common.h"
    assert _rules(path, source) == {"cuda.build-guard", "cuda.device-function", "cuda.device-macro"}
    assert _layers(path, source) == {"kernel": 5, "vendor-path": 1, "portable": 5}
