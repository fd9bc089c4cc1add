"""Cases seen in high-performance and scientific computing repositories (the fourth audit
round): a lattice QCD library with CUDA and HIP targets, a plane-wave DFT code in CUDA
Fortran, a finite-element library with CUDA, HIP, SYCL and MAGMA back ends, an algebraic
multigrid solver, a particle-in-cell code on alpaka, RAPIDS' CUDA primitives, and two codes on
portability layers (MFEM's forall, AMReX in WarpX).

Each snippet is a small rewrite, in our own words, of a pattern found there; the repository is
named per test. They pin the verdict a porting engineer gives the file: its language, the
layer of its lines, the ecosystem they belong to and, for device code, how many lines count.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import Layer

# -- QEF/q-e: CUDA Fortran written in upper case, behind the project's __CUDA switch -----------


def test_qe_upper_case_cuda_fortran_host_code_is_cuda() -> None:
    # LAXlib/la_module.f90, KS_Solvers/Davidson/cegterg_gpu.f90: nvfortran's module and device
    # arrays, spelled the way the rest of the Fortran is.
    source = b"""\
MODULE la_gpu
  USE cudafor
  IMPLICIT NONE
CONTAINS
  SUBROUTINE diag_gpu(n, h_d, e_d)
    INTEGER :: n
    COMPLEX(DP), DEVICE, INTENT(INOUT) :: h_d(n, n)
    REAL(DP) :: e_d(n)
    attributes(DEVICE) :: e_d
    CALL solve(n, h_d, e_d)
  END SUBROUTINE diag_gpu
END MODULE la_gpu
"""
    report = classify("LAXlib/la_module.f90", source)
    assert report.language == "Fortran"
    assert report.ecosystems == {"cuda": 3}
    assert report.layers[Layer.VENDOR_PATH] == 3
    assert [report.line_rules[i] for i in (1, 6, 8)] == ["cuda.fortran-host"] * 3
    # The OpenACC twin (PW/src/h_psi_gpu.f90 today) builds for every offloading compiler.
    acc = b"""\
SUBROUTINE h_psi_acc(n, psi, hpsi)
  INTEGER :: n
  COMPLEX(DP) :: psi(n), hpsi(n)
  !$acc parallel loop present(psi, hpsi)
  DO i = 1, n
    hpsi(i) = 2.0d0 * psi(i)
  END DO
END SUBROUTINE h_psi_acc
"""
    assert classify("PW/src/h_psi_gpu.f90", acc).ecosystems == {}


def test_qe_cuda_branches_are_the_nvidia_code_path() -> None:
    # Modules/random_numbers_gpu.f90: the device RNG exists only in the __CUDA build.
    source = b"""\
SUBROUTINE randy_vect_gpu(r_d, n)
  INTEGER :: n, ist
  REAL(DP) :: r_d(n)
#if defined(__CUDA)
  attributes(DEVICE) :: r_d
  type(curandGenerator), SAVE :: gen
  ist = curandGenerateUniformDouble(gen, r_d, n)
#else
  CALL random_number(r_d)
#endif
END SUBROUTINE randy_vect_gpu
"""
    report = classify("Modules/random_numbers_gpu.f90", source)
    assert report.ecosystems == {"cuda": 4}
    assert report.line_rules[3:6] == ["cuda.fortran-guard"] * 3
    assert report.line_rules[6] == "cuda.fortran-library"
    assert report.line_rules[7:10] == ["", "", ""]  # the CPU branch
    # A condition other builds take too, or the branch without CUDA, is not NVIDIA's.
    shared = b"""\
SUBROUTINE sync(buf)
#if defined(__MPI) || defined(__CUDA)
  CALL mp_barrier(buf)
#endif
#if ! defined(__CUDA)
  buf = 0
#endif
END SUBROUTINE sync
"""
    assert classify("UtilXlib/mp_base.f90", shared).ecosystems == {}


def test_qe_cuf_loops_behind_an_openmp_else_are_cuda_kernels() -> None:
    # CPV/src/exx_cg.f90: one loop nest, a cuf kernel in the CUDA build and an OpenMP loop in
    # the CPU build; the directives stand in the two branches above it.
    source = b"""\
SUBROUTINE clear_grid(r, n)
  INTEGER :: n, i, j
  REAL(DP) :: r(n, n)
#ifdef __CUDA
  !$cuf kernel do (2)
#else
  !$omp parallel do
#endif
  DO j = 1, n
    DO i = 1, n
      r(i, j) = 0.d0
    END DO
  END DO
  CALL report(r)
END SUBROUTINE clear_grid
"""
    report = classify("CPV/src/exx_cg.f90", source)
    assert report.line_rules[8:13] == ["cuda.fortran-cuf-kernel"] * 5
    assert report.layers[Layer.KERNEL] == 5
    assert report.line_rules[13] == ""  # the host call after the nest


def test_qe_cufft_and_cublas_modules_are_nvidia_libraries() -> None:
    # FFTXlib/src/fft_scalar.cuFFT.f90 and the cuBLAS interfaces of LAXlib.
    source = b"""\
SUBROUTINE cft_1z_gpu(c, nsl, plan)
  USE cufft
  USE cublas
  INTEGER :: nsl, istat, plan
  COMPLEX(DP) :: c(:)
  istat = cufftExecZ2Z(plan, c, c, CUFFT_FORWARD)
END SUBROUTINE cft_1z_gpu
"""
    report = classify("FFTXlib/src/fft_scalar.cuFFT.f90", source)
    assert report.layers[Layer.VENDOR_LIBRARY] == 3
    assert [report.line_rules[i] for i in (1, 2, 5)] == ["cuda.fortran-library"] * 3
    # A plan variable named for cuFFT in the FFTW build is not a call.
    fftw = b"""\
SUBROUTINE cft_1z(c, plan)
  INTEGER :: cufft_plan_x, plan
  CALL dfftw_execute_dft(plan, c, c)
END SUBROUTINE cft_1z
"""
    assert classify("FFTXlib/src/fft_scalar.FFTW3.f90", fftw).ecosystems == {}


# -- lattice/quda: host objects named cudaGauge, kernels as functors ----------------------------


def test_quda_host_objects_named_for_the_device_are_portable() -> None:
    # lib/interface_quda.cpp, lib/solve.cpp and the tests: QUDA names its device-resident
    # fields cudaGauge, cudaParam, cudaSpinor; the calls go through QUDA's own target layer.
    source = b"""\
void loadGaugeQuda(void *h_gauge, QudaGaugeParam *param) {
  GaugeFieldParam gauge_param(*param, h_gauge);
  GaugeField *cudaGauge = new GaugeField(gauge_param);
  cudaGauge->copy(*cpuGauge);
  ColorSpinorParam cudaParam(cpuParam, *inv_param, QUDA_CUDA_FIELD_LOCATION);
  std::vector<ColorSpinorField> cudaSpinorOut(n, cudaParam);
  qudaDeviceSynchronize();
}
"""
    assert classify("lib/interface_quda.cpp", source).ecosystems == {}
    # Its CUDA target calls the runtime itself (lib/targets/cuda/quda_api.cpp).
    target = b"""\
#include <cuda_runtime.h>
void qudaMemcpyAsync_(void *dst, const void *src, size_t count, cudaStream_t stream) {
  cudaError_t error = cudaMemcpyAsync(dst, src, count, cudaMemcpyDefault, stream);
  if (error != cudaSuccess) errorQuda("%s", cudaGetErrorString(error));
}
"""
    report = classify("lib/targets/cuda/quda_api.cpp", target)
    assert report.line_rules[1:4] == ["cuda.runtime"] * 3


def test_quda_functor_device_members_are_kernel_lines() -> None:
    # include/kernels/gauge_plaq.cuh: the Arg struct is built on the host; the device function
    # and the functor's __device__ __host__ operator() are the kernel.
    source = b"""\
template <typename Float> struct PlaqArg : public ReduceArg<double> {
  Gauge U;
  PlaqArg(const GaugeField &u) : ReduceArg<double>(dim3(u.VolumeCB(), 2, 1)), U(u) { }
};

template <typename Arg>
__device__ inline double plaquette(const Arg &arg, int x[], int parity, int mu, int nu)
{
  Link U1 = arg.U(mu, x, parity);
  Link U2 = arg.U(nu, x, 1 - parity);
  return getTrace(U1 * conj(U2)).real();
}

template <typename Arg> struct Plaquette {
  const Arg &arg;
  constexpr Plaquette(const Arg &arg) : arg(arg) { }
  __device__ __host__ inline double operator()(double &value, int x_cb, int parity)
  {
    int x[4];
    getCoords(x, x_cb, arg.X, parity);
    return value + plaquette(arg, x, parity, 0, 1);
  }
};
"""
    report = classify("include/kernels/gauge_plaq.cuh", source)
    assert report.language == "CUDA"
    assert report.ecosystems == {"cuda": 13}
    assert report.line_rules[0:4] == ["", "", "", ""]  # the host-built argument struct


# -- CEED/libCEED: OpenCL C sources the SYCL back end JIT-compiles ------------------------------


def test_libceed_opencl_helpers_with_bare_address_spaces_are_kernel_code() -> None:
    # include/ceed/jit-source/sycl/sycl-shared-basis-tensor-templates.h: device helpers that
    # use no work-item id but take `local`/`private` pointers with C99 restrict.
    source = b"""\
#include <ceed/types.h>
inline void Interp1d(const CeedInt NUM_COMP, const CeedInt P_1D,
                     private const CeedScalar *restrict r_U,
                     local const CeedScalar *restrict s_B, private CeedScalar *restrict r_V) {
  for (CeedInt comp = 0; comp < NUM_COMP; comp++) {
    r_V[comp] = s_B[comp * P_1D] * r_U[comp];
  }
}
"""
    report = classify("include/ceed/jit-source/sycl/sycl-shared-basis-tensor-templates.h", source)
    assert report.ecosystems == {"opencl": 7}
    assert report.layers[Layer.KERNEL] == 7
    # C99 restrict in host C, without an address space, stays portable (backends/ref).
    host = b"""\
static int CeedBasisApply_Ref(const CeedScalar *restrict u, CeedScalar *restrict v, CeedInt n) {
  for (CeedInt i = 0; i < n; i++) v[i] = u[i];
  return 0;
}
"""
    assert classify("backends/ref/ceed-ref-basis.c", host).ecosystems == {}


# -- ComputationalRadiationPhysics/picongpu: alpaka names that look like CUDA's -----------------


def test_picongpu_alpaka_index_objects_and_particle_counts_are_portable() -> None:
    # include/pmacc/mappings/kernel/RangeMapping.hpp: alpaka's block index as a DataSpace;
    # include/picongpu/particles/collision/detail/ListEntry.hpp: nppc counts particles per cell.
    source = b"""\
HDINLINE int superCellIdx(DataSpace<DIM1> const& blockIdx) const
{
    return blockIdx.x();
}
template<typename T_Worker>
DINLINE void histogram(T_Worker const& worker, uint32_t* nppc, uint32_t cell)
{
    alpaka::atomicAdd(worker.getAcc(), &nppc[cell], 1u, ::alpaka::hierarchy::Threads{});
}
"""
    assert classify("include/pmacc/mappings/kernel/RangeMapping.hpp", source).ecosystems == {}
    # pmacc's cuRAND path does call NVIDIA's library (random/methods/MRG32k3aMin.hpp).
    curand = b"""\
#include <curand_kernel.h>
DINLINE void init(curandStateMRG32k3a* state, uint32_t seed) { curand_init(seed, 0, 0, state); }
"""
    report = classify("include/pmacc/random/methods/MRG32k3aMin.hpp", curand)
    assert report.layers[Layer.VENDOR_LIBRARY] == 2


# -- rapidsai/raft: device functions behind RAPIDS' DI and HDI ----------------------------------


def test_raft_di_and_hdi_functions_are_cuda_device_code() -> None:
    # cpp/include/raft/util/device_loads_stores.cuh and warp_primitives.cuh: DI is
    # `inline __device__`, HDI `inline __host__ __device__` (raft/util/cuda_dev_essentials.cuh).
    source = b"""\
#include <raft/util/cuda_dev_essentials.cuh>
namespace raft {
DI void sts(float* addr, const float& x)
{
  *addr = x;
}
template <typename T>
HDI T shfl_value(T val, int lane)
{
  return val + lane;
}
}  // namespace raft
"""
    report = classify("cpp/include/raft/util/device_loads_stores.cuh", source)
    assert report.ecosystems == {"cuda": 9}
    assert report.layers[Layer.KERNEL] == 9
    # A pin enumerator called DI in a CUDA file declares nothing.
    enum = b"enum Pin {\n  DI = 1,\n  DO = 2\n};\n"
    assert classify("src/pins.cu", enum).ecosystems == {}


# -- NVIDIA/AMGX, mfem/mfem, ECP-WarpX/WarpX: what the round found right --------------------------


def test_amgx_kernel_declarations_in_headers_are_kernel_lines() -> None:
    # include/classical/interpolators/distance2.h: __global__ prototypes shared by the .cu files.
    source = b"""\
namespace amgx {
template< int CTA_SIZE, int WARP_SIZE >
__global__ __launch_bounds__( CTA_SIZE )
void estimate_c_hat_size_kernel( const int A_num_rows,
                                 const int *A_rows,
                                 int *C_hat_offsets );
}
"""
    report = classify("include/classical/interpolators/distance2.h", source)
    assert report.ecosystems == {"cuda": 5}


def test_mfem_forall_kernels_are_portable_and_its_gpu_branches_are_not() -> None:
    # fem/integ/bilininteg_mass_kernels.hpp: mfem::forall bodies build for CUDA, HIP, RAJA,
    # OpenMP and the CPU; the branch compiled in a CUDA or HIP device pass is GPU-vendor code.
    source = b"""\
template<int T_D1D = 0>
inline void PAMassApply(const int NE, const Array<double> &b, Vector &y)
{
   const auto B = Reshape(b.Read(), D1D, D1D);
   mfem::forall_2D(NE, D1D, D1D, [=] MFEM_HOST_DEVICE (int e)
   {
      MFEM_SHARED double sB[MAX_D1D][MAX_D1D];
      MFEM_FOREACH_THREAD(dy, y, D1D) { sB[dy][0] = B(dy, 0); }
      MFEM_SYNC_THREAD;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
      const int tidz = MFEM_THREAD_ID(z);
#endif
   });
}
"""
    report = classify("fem/integ/bilininteg_mass_kernels.hpp", source)
    assert report.line_rules[4:9] == ["", "", "", "", ""]
    assert set(report.line_rules[9:12]) == {"cuda.arch-guard"}


def test_warpx_amrex_parallel_for_is_portable_gpu_kernel_code() -> None:
    # Source/FieldSolver/FiniteDifferenceSolver/EvolveB.cpp: AMReX's ParallelFor lambdas build
    # for CUDA, HIP and SYCL.
    source = b"""\
void FiniteDifferenceSolver::EvolveBCartesian(amrex::Box const& tbx,
                                              amrex::Array4<amrex::Real> const& Bx,
                                              amrex::Array4<amrex::Real const> const& Ey,
                                              amrex::Real dt)
{
    amrex::ParallelFor(tbx,
        [=] AMREX_GPU_DEVICE (int i, int j, int k){
            Bx(i, j, k) += dt * Ey(i, j, k);
        }
    );
}
"""
    report = classify("Source/FieldSolver/FiniteDifferenceSolver/EvolveB.cpp", source)
    assert set(report.ecosystems) == {"portable-gpu"}


# -- glotzerlab/hoomd-blue: HIP first, __HIPCC__ meaning "a GPU compiler" -----------------------


def test_hoomd_not_hipcc_branches_are_the_host_compile() -> None:
    # hoomd/md/EvaluatorPairLJ.h, hoomd/ArrayView.h: HIP's headers define __HIPCC__ under nvcc
    # as under hipcc, so the `#ifndef __HIPCC__` branch is what the host compiler builds (the
    # pybind11 bindings), on every vendor.
    source = b"""\
#ifndef __HIPCC__
#include <pybind11/pybind11.h>
#include <string>
#endif

struct param_type {
    float sigma_6;
#ifndef __HIPCC__
    param_type(pybind11::dict v) { sigma_6 = v["sigma"].cast<float>(); }
    pybind11::dict asDict() { pybind11::dict v; v["sigma"] = sigma_6; return v; }
#endif
};
"""
    assert classify("hoomd/md/EvaluatorPairLJ.h", source).ecosystems == {}
    # A CUDA-first project's `#ifndef USE_ROCM` branch is still its CUDA path.
    rocm = b"#ifndef USE_ROCM\n#define WARP_SIZE 32\n#endif\n"
    assert classify("csrc/compat.h", rocm).ecosystems == {"cuda": 3}
