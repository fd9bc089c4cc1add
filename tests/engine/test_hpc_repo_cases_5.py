"""Cases seen in simulation and scientific computing repositories (the fifth audit round): a
lattice Boltzmann code whose OpenCL C program is written inside a stringification macro, an
astrophysics code on CUDA and HIP through one header of renames and device lambdas, a
distributed FFT library with cuFFT, rocFFT and oneMKL back ends, a particle library on
Kokkos, and an algebraic multigrid library with CUDA, HIP and SYCL builds.

Each snippet is a small rewrite, in our own words, of a pattern found there; the repository is
named per test. They pin the verdict a porting engineer gives the file: its language, the
layer of its lines, the ecosystem they belong to and, for device code, how many lines count.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import Layer

# -- ProjectPhysX/FluidX3D: the OpenCL C program inside OpenCL-Wrapper's R() container ---------


def test_fluidx3d_opencl_program_in_a_stringification_macro_is_device_code() -> None:
    # src/kernel.cpp: every function the container returns, helpers as well as kernels, is
    # OpenCL C compiled by the driver; before, only the functions asking for work-item ids
    # counted (760 of 3051 lines).
    source = b"""\
#include "kernel.hpp" // unbalanced brackets are not allowed inside R()
string opencl_c_container() { return R( // begin of OpenCL C code

)+R(float sq(const float x) {
\treturn x*x;
}
)+R(float trilinear(const float3 p, const float* v) {
\tconst float x1=p.x, x0=1.0f-x1;
\treturn x0*v[0]+x1*v[1];
}
)+"#ifdef GRAPHICS"+R(
)+R(int color_mix(const int c1, const int c2, const float w) {
\treturn (int)(w*(float)c1+(1.0f-w)*(float)c2);
}
)+"#endif"+R( // GRAPHICS
)+R(kernel void update_fields(const global float* fi, global float* rho) {
\tconst uxx n = get_global_id(0);
\trho[n] = sq(fi[n]);
}
);} // end of OpenCL C code
"""
    report = classify("src/kernel.cpp", source)
    assert report.language == "C++"
    assert report.ecosystems == {"opencl": report.code_lines}
    assert report.layers[Layer.KERNEL] == report.code_lines == 19
    # A C++ file that only calls the container builds the program: host code.
    host = b"""\
#include "kernel.hpp"
string opencl_c_container();
string get_opencl_c_code() { return "\\n" + opencl_c_container(); }
"""
    assert classify("src/kernel.hpp", host).ecosystems == {}


def test_fluidx3d_editor_stubs_of_opencl_builtins_are_not_device_code() -> None:
    # src/kernel.hpp: empty macros named after OpenCL's built-ins, so that the editor
    # highlights the program in kernel.cpp; nothing calls them.
    source = b"""\
#define get_global_id(x) // global index, set x=0
#define get_local_size(x) // group size, set x=0
#define get_group_id(x) // group ID, set x=0
#define barrier(x)
"""
    assert classify("src/kernel.hpp", source).ecosystems == {}


def test_fluidx3d_amd_atomic_builtin_in_opencl_c_keeps_the_file_cpp() -> None:
    # src/kernel.cpp's atomic_add_f: NVIDIA's PTX, Intel's extension and AMD's builtin, each
    # behind its own test, in an OpenCL C program; the AMD builtin alone made the file HIP.
    source = b"""\
string opencl_c_container() { return R(
)+R(void atomic_add_f(volatile global float* addr, const float val) {
)+"#if defined(__opencl_c_ext_fp32_global_atomic_add)"+R(
\tatomic_fetch_add_explicit((volatile global atomic_float*)addr, val, memory_order_relaxed);
)+"#elif __has_builtin(__builtin_amdgcn_global_atomic_fadd_f32)"+R(
\t__builtin_amdgcn_global_atomic_fadd_f32(addr, val);
)+"#endif"+R(
}
)+R(kernel void add(global float* a) { atomic_add_f(&a[get_global_id(0)], 1.0f); }
);}
"""
    report = classify("src/kernel.cpp", source)
    assert report.language == "C++"
    assert report.layers[Layer.KERNEL] == report.code_lines
    # AMD's builtins in device code with no OpenCL and no CUDA side still make a HIP file.
    aiter = b"""\
__device__ void add(float* a, float v) {
  __builtin_amdgcn_global_atomic_fadd_f32(a, v);
}
"""
    assert classify("csrc/kernels/add.cuh", aiter).language == "HIP"


# -- cholla-hydro/cholla: device lambdas spelled GPU_LAMBDA ------------------------------------


def test_cholla_gpu_lambda_bodies_in_cu_files_are_kernels() -> None:
    # src/gravity/paris/PoissonZero3DBlockedGPU.cu: gpu.hpp defines GPU_LAMBDA as
    # [=] __device__, and the solver's transposes are lambdas handed to gpuFor.
    source = b"""\
void PoissonZero3DBlockedGPU::solve(const long bytes, double *const density) const
{
  double *const ua = density;
  const int dk = dk_, nk = nk_;
  gpuFor(
      nk, dk, GPU_LAMBDA(const int i, const int k) {
        const int ik = i * dk + k;
        ua[ik] = -ua[ik];
      });
  GPU_Error_Check(cudaMemcpy(ha_, ua, bytes_, cudaMemcpyDeviceToHost));
}
"""
    report = classify("src/gravity/paris/PoissonZero3DBlockedGPU.cu", source)
    assert report.line_rules[4:9] == ["cuda.lambda-macro"] * 5
    assert report.layers[Layer.KERNEL] == 5
    assert report.line_rules[9] == "cuda.runtime"
    assert report.line_rules[:4] == ["", "", "", ""]


def test_cholla_gpu_lambda_in_a_header_counts_only_under_a_gpu_compiler() -> None:
    # src/gravity/paris/HenryPeriodic.hpp: the FFT filter template, under a guard naming
    # hipcc and nvcc.
    source = b"""\
#pragma once
#include "../../utils/gpu.hpp"
#if defined(__HIP__) || defined(__CUDACC__)
template <typename F>
void HenryPeriodic::filter(const size_t bytes, double *const before, const F f) const
{
  gpuFor(
      ni_, nj_, GPU_LAMBDA(const int i, const int j) {
        before[i * nj + j] = f(i, j, before[i * nj + j]);
      });
}
#endif
"""
    report = classify("src/gravity/paris/HenryPeriodic.hpp", source)
    assert report.line_rules[6:10] == ["cuda.lambda-macro-header"] * 4
    assert report.layers[Layer.KERNEL] == 4
    # The same macro in a header no GPU compiler is said to build may be a portability
    # layer's: its lambdas are not counted as CUDA's.
    plain = source.replace(b"#if defined(__HIP__) || defined(__CUDACC__)\n", b"").replace(
        b"#endif\n", b""
    )
    assert classify("include/filter.hpp", plain).ecosystems == {}


# -- hypre-space/hypre: Thrust and oneMKL behind the project's macros and switches ------------


def test_hypre_thrust_call_macro_is_thrust_and_its_sycl_twin_is_not() -> None:
    # src/parcsr_ls/par_ilu_solve_device.c: the permutation is a Thrust gather on CUDA and HIP
    # builds, hypre's own SYCL wrapper otherwise; the file held nothing else we read.
    source = b"""\
#if defined(HYPRE_USING_GPU)
HYPRE_Int
hypre_ILUSolveLUDevice(HYPRE_Int *perm, HYPRE_Int n, HYPRE_Real *x, HYPRE_Real *y)
{
   if (perm)
   {
#if defined(HYPRE_USING_SYCL)
      hypre_GatherSycl(perm, perm + n, x, y);
#else
      HYPRE_THRUST_CALL(gather, perm, perm + n, x, y);
#endif
   }
   return hypre_error_flag;
}
#endif
"""
    report = classify("src/parcsr_ls/par_ilu_solve_device.c", source)
    assert report.line_rules[9] == "cub.thrust-call-macro"
    assert report.layers[Layer.VENDOR_LIBRARY] == 1
    assert report.line_rules[7] == ""  # hypre's SYCL wrapper is its own code


def test_hypre_onemkl_sparse_calls_are_intel_library_calls() -> None:
    # src/seq_mv/csr_spgemm_device_onemklsparse.c: SpGEMM through oneMKL's SYCL interfaces.
    source = b"""\
#if defined(HYPRE_USING_SYCL) && defined(HYPRE_USING_ONEMKLSPARSE)
HYPRE_Int
hypreDevice_CSRSpGemmOnemklsparse(hypre_CSRMatrix *A, hypre_CSRMatrix *B)
{
   oneapi::mkl::sparse::matrix_handle_t handle_A = hypre_CSRMatrixGPUMatHandle(A);
   oneapi::mkl::sparse::matmat_descr_t descr = NULL;
   HYPRE_ONEMKL_CALL( oneapi::mkl::sparse::init_matmat_descr(&descr) );
   return hypre_error_flag;
}
#endif
"""
    report = classify("src/seq_mv/csr_spgemm_device_onemklsparse.c", source)
    assert report.ecosystems == {"sycl": 3}
    assert report.line_rules[4:7] == ["sycl.library"] * 3
    assert report.layers[Layer.VENDOR_LIBRARY] == 3


def test_hypre_cuda_and_hip_switches_are_vendor_branches_gpu_is_not() -> None:
    # src/utilities/device_utils.h and src/seq_mv/csr_matrix.c: HYPRE_USING_CUDA and
    # HYPRE_USING_HIP select one vendor's build; HYPRE_USING_GPU is every back end, SYCL too.
    source = b"""\
#if defined(HYPRE_USING_CUDA) && (defined(THRUST_VERSION) && THRUST_VERSION >= 300000)
#define HYPRE_THRUST_NOT(pred) cuda::std::not_fn(pred)
#endif
#if defined(HYPRE_USING_HIP)
#define hypre_device_assert(EX) do { if (0) { static_cast<void> (EX); } } while (0)
#endif
#if defined(HYPRE_USING_GPU)
HYPRE_Int hypre_CSRMatrixMoveDiagFirstDevice(hypre_CSRMatrix *A);
#endif
#if !defined(HYPRE_USING_CUDA)
#define HYPRE_HOST_ONLY 1
#endif
"""
    report = classify("src/utilities/device_utils.h", source)
    assert report.line_rules[0:3] == ["cuda.build-guard"] * 3
    assert report.line_rules[3:6] == ["hip.platform-guard"] * 3
    assert report.line_rules[6:12] == [""] * 6
    assert report.ecosystems == {"cuda": 3, "hip": 3}


# -- icl-utk-edu/heffte, ECP-copa/Cabana: what the round found right -------------------------


def test_heffte_cuda_backend_kernels_and_their_launches() -> None:
    # src/heffte_backend_cuda.cu: templated __global__ packers beside the host functions that
    # launch them with <<<>>>.
    source = b"""\
template<typename scalar_type, int num_threads, typename index>
__global__ void simple_scal(index num_entries, scalar_type data[], scalar_type scaling_factor){
    index i = blockIdx.x * num_threads + threadIdx.x;
    while(i < num_entries){
        data[i] *= scaling_factor;
        i += num_threads * gridDim.x;
    }
}

template<typename scalar_type, typename index>
void scale_data(cudaStream_t stream, index num_entries, scalar_type *data, double factor){
    if (num_entries == 0) return;
    simple_scal<scalar_type, 256><<<(num_entries + 255) / 256, 256, 0, stream>>>(
        num_entries, data, factor);
}
"""
    report = classify("src/heffte_backend_cuda.cu", source)
    assert report.layers[Layer.KERNEL] == 8
    assert report.layers[Layer.VENDOR_PATH] >= 1
    assert set(report.ecosystems) == {"cuda"}


def test_cabana_kokkos_lambdas_portable_and_backend_traits_per_vendor() -> None:
    # grid/src/Cabana_Grid_Hypre.hpp: which hypre memory space each Kokkos back end may use,
    # one branch per vendor; the Kokkos lambdas elsewhere build for every back end.
    traits = b"""\
#ifdef HYPRE_USING_CUDA
#ifdef KOKKOS_ENABLE_CUDA
template <>
struct HypreIsCompatibleWithMemorySpace<Kokkos::CudaSpace> : std::true_type {};
#endif
#endif
#ifdef HYPRE_USING_HIP
#ifdef KOKKOS_ENABLE_HIP
template <>
struct HypreIsCompatibleWithMemorySpace<Kokkos::HIPSpace> : std::true_type {};
#endif
#endif
"""
    report = classify("grid/src/Cabana_Grid_Hypre.hpp", traits)
    assert report.ecosystems == {"cuda": 6, "hip": 6}
    lambdas = b"""\
template <class ExecSpace, class View>
void copyTo(ExecSpace exec_space, View l_view, View lg_view, int n)
{
    Kokkos::parallel_for(
        "Cabana::Grid::FastFourierTransform::copyTo",
        Kokkos::RangePolicy<ExecSpace>(exec_space, 0, n),
        KOKKOS_LAMBDA( const int i ) {
            l_view( i ) = lg_view( i );
        } );
}
"""
    assert set(classify("grid/src/Cabana_Grid_FastFourierTransform.hpp", lambdas).ecosystems) == {
        "portable-gpu"
    }


# -- paboyle/Grid: CPU SIMD assembly beside its CUDA, HIP and SYCL back ends ------------------


def test_grid_avx512_assembly_from_register_macros_is_not_ptx() -> None:
    # Grid/simd/Intel512wilson.h: the Wilson kernel's AVX-512 assembly, its operands named by
    # macros (`#define psi_00 %zmm0`) and its templates built by other macros.
    source = b"""\
#include "Intel512common.h"
#define psi_00 %zmm0
#define psi_01 %zmm1
#define LOAD_CHI(PTR) LOAD64(%r8, PTR) __asm__ ( LOAD_CHIi );
#define MULT_2SPIN(ptr) \\
  LOAD64(%r8, ptr) \\
  __asm__ ( \\
    VLOAD(0, %r8, psi_00) \\
    VMUL(psi_00, psi_01, psi_00) );
"""
    assert classify("Grid/simd/Intel512wilson.h", source).ecosystems == {}


def test_grid_a64fx_and_bgq_assembly_is_not_ptx() -> None:
    # Grid/simd/Fujitsu_A64FX_intrin_double.h: SVE intrinsics beside a cache-zeroing asm;
    # Grid/simd/BGQQPX.h: a BG/Q template opening with a blank.
    sve = b"""\
#define ZERO_PSI \\
  asm( "dc zva, %[fetchptr] \\n\\t" : : [fetchptr] "r" (base) : "memory" );
svfloat64_t result_00 = svdup_f64(0.);
"""
    assert classify("Grid/simd/Fujitsu_A64FX_intrin_double.h", sve).ecosystems == {}
    qpx = b"""\
inline void cache_lock(void* ptr) {
  asm (" dcbtls  %%r0, %0 \\n" : : "r" (ptr));
}
"""
    assert classify("Grid/simd/BGQQPX.h", qpx).ecosystems == {}
    # PTX opening with a blank is still PTX.
    ptx = b"""\
static inline unsigned lane() {
  unsigned r;
  asm volatile (" mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
"""
    assert classify("Grid/threads/Accelerator.h", ptx).line_rules[2] == "cuda.ptx-asm"


# -- LLNL/sundials: SYCL kernels handed to a launch macro ---------------------------------------


def test_sundials_sycl_for_bodies_are_kernels() -> None:
    # src/nvector/sycl/nvector_sycl.cpp: every vector operation is a SYCL_FOR whose last
    # argument is the parallel_for's body.
    source = b"""\
void N_VLinearSum_Sycl(sunrealtype a, N_Vector x, sunrealtype b, N_Vector y, N_Vector z)
{
  const sunindextype N = NVEC_SYCL_LENGTH(z);
  sunrealtype* zdata = NVEC_SYCL_DDATAp(z);
  ::sycl::queue* Q = NVEC_SYCL_QUEUE(z);
  SYCL_FOR(
    Q, nthreads_total, nthreads_per_block, item, GRID_STRIDE_XLOOP(item, i, N) {
      zdata[i] = (a * xdata[i]) + (b * ydata[i]);
    });
}
"""
    report = classify("src/nvector/sycl/nvector_sycl.cpp", source)
    assert report.line_rules[5:9] == ["sycl.for-macro"] * 4
    assert report.layers[Layer.KERNEL] == 4
    assert report.line_rules[4] == "sycl.runtime"
