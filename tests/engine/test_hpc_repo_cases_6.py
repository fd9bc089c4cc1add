"""Cases seen in HPC, CFD and quantum-simulation repositories (the sixth audit round): a flux
reconstruction CFD code whose CUDA, HIP, OpenCL and Metal kernels are Mako templates rendered
at run time and whose BLAS back ends are ctypes wrappers, a spectral-element CFD code with an
AmgX coarse solver, and three quantum circuit simulators on cuQuantum's cuStateVec.

Each snippet is a small rewrite, in our own words, of a pattern found there; the repository is
named per test. They pin the verdict a porting engineer gives the file: its language, the
layer of its lines, the ecosystem they belong to and, for device code, how many lines count.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import Layer

# -- PyFR/PyFR: kernels as Mako templates, one folder per back end -----------------------------

_CUDA_AXNPBY = b"""\
<%inherit file='base'/>
<%namespace module='pyfr.backends.base.makoutil' name='pyfr'/>

__global__ void
axnpby(ixdtype_t ncolb, ixdtype_t ldim, fpdtype_t* __restrict__ x0,
       const fpdtype_t* __restrict__ x1, fpdtype_t a0, fpdtype_t a1)
{
    ixdtype_t j = ixdtype_t(blockIdx.x)*blockDim.x + threadIdx.x;
    if (j < ncolb)
    {
    % for k in range(ncola):
        x0[SOA_IX(j, ${k}, ${ncola})] = a0*x0[j] + a1*x1[j];
    % endfor
    }
}
"""


def test_pyfr_cuda_kernel_in_a_mako_template_is_cuda_device_code() -> None:
    # pyfr/backends/cuda/kernels/axnpby.mako: rendered by Mako, compiled by NVRTC. Before,
    # the file was Mako and none of its lines counted.
    report = classify("pyfr/backends/cuda/kernels/axnpby.mako", _CUDA_AXNPBY)
    assert report.language == "CUDA"
    assert report.ecosystems == {"cuda": report.code_lines}
    assert report.layers[Layer.KERNEL] == report.code_lines == 14


def test_pyfr_hip_kernel_template_is_hip_by_its_folder() -> None:
    # pyfr/backends/hip/kernels/axnpby.mako holds the same CUDA-dialect text, for hipRTC.
    report = classify("pyfr/backends/hip/kernels/axnpby.mako", _CUDA_AXNPBY)
    assert report.language == "HIP"
    assert report.ecosystems == {"hip": report.layers[Layer.KERNEL]}
    assert report.layers[Layer.KERNEL] >= 12


def test_pyfr_metal_kernel_naming_its_arguments_threadidx_is_metal() -> None:
    # pyfr/backends/metal/kernels/reduction.mako names its [[thread_position_in_threadgroup]]
    # argument threadIdx, as CUDA's built-in is called: the attribute says Metal.
    source = b"""\
<%inherit file='base'/>

kernel void
reduction(constant ixdtype_t& nrow, device fpdtype_t* reduced,
          uint2 threadIdx [[thread_position_in_threadgroup]],
          uint2 blockIdx [[threadgroup_position_in_grid]])
{
    int tid = threadIdx.x;
    reduced[blockIdx.x] += tid;
}
"""
    report = classify("pyfr/backends/metal/kernels/reduction.mako", source)
    assert report.language == "Metal"
    assert report.ecosystems == {"metal": report.code_lines}
    assert report.layers[Layer.KERNEL] == report.code_lines == 9


def test_pyfr_opencl_base_template_of_atomic_helpers_is_opencl_c() -> None:
    # pyfr/backends/opencl/kernels/base.mako: helpers every kernel includes, behind the
    # extension pragma; no __kernel in the file.
    source = b"""\
% if fpdtype == 'double':
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
% endif
void atomic_min_fpdtype(__global fpdtype_t *addr, fpdtype_t val)
{
    atomic_min((__global volatile int *) addr, as_int(val));
}
"""
    report = classify("pyfr/backends/opencl/kernels/base.mako", source)
    assert report.language == "OpenCL"
    assert report.ecosystems == {"opencl": report.code_lines}


def test_pyfr_portable_templates_stay_mako() -> None:
    # pyfr/solvers/*/kernels/*.mako are written in PyFR's own kernel language, and
    # backends/openmp/kernels/*.mako are C with OpenMP: every back end renders them.
    solver = b"""\
<%namespace module='pyfr.backends.base.makoutil' name='pyfr'/>
<%pyfr:kernel name='negdivconf' ndim='2' tdivtconf='inout fpdtype_t[${str(nvars)}]'>
% for i in range(nvars):
    tdivtconf[${i}] = -rcpdjac*tdivtconf[${i}];
% endfor
</%pyfr:kernel>
"""
    openmp = b"""\
void axnpby(ixdtype_t nrow, fpdtype_t *__restrict__ x0, fpdtype_t a0)
{
    #pragma omp parallel for
    for (ixdtype_t i = 0; i < nrow; i++)
        x0[i] *= a0;
}
"""
    for path, source in [
        ("pyfr/solvers/euler/kernels/negdivconf.mako", solver),
        ("pyfr/backends/openmp/kernels/axnpby.mako", openmp),
    ]:
        report = classify(path, source)
        assert report.language == "Mako", path
        assert report.ecosystems == {}, path


def test_pyfr_ctypes_wrappers_of_cublaslt_and_rocblas_are_vendor_library_calls() -> None:
    # pyfr/backends/cuda/cublaslt.py and hip/rocblas.py load the vendor BLAS with ctypes and
    # call it by its C names; the function tables (names in strings) are no calls.
    cublaslt = b"""\
class CUBLASLtWrappers(LibWrapper):
    _libname = 'cublasLt'
    _functions = [(c_int, 'cublasLtCreate', POINTER(c_void_p))]


class CUBLASLt:
    def __init__(self, backend):
        self.lib = CUBLASLtWrappers()
        self.handle = c_void_p()
        self.lib.cublasLtCreate(self.handle)

    def mul(self, w, a, b):
        w.cublasLtMatmul(self.handle, a, b)
"""
    report = classify("pyfr/backends/cuda/cublaslt.py", cublaslt)
    assert report.ecosystems == {"cuda": 2}
    assert report.layers[Layer.VENDOR_LIBRARY] == 2
    rocblas = b"""\
class RocBLAS:
    def __init__(self, backend):
        self._handle = c_void_p()
        self._wrappers.rocblas_create_handle(self._handle)
        self.rocblas_handle = self._handle

    def mul(self, w, h, stream):
        w.rocblas_set_stream(h, stream)
"""
    report = classify("pyfr/backends/hip/rocblas.py", rocblas)
    assert report.ecosystems == {"hip": 2}
    assert report.layers[Layer.VENDOR_LIBRARY] == 2


# -- Nek5000/nekRS: AmgX as the coarse-grid solver ------------------------------------------


def test_nekrs_amgx_coarse_solver_is_an_nvidia_library_path() -> None:
    # src/solvers/elliptic/amgSolver/amgx/AMGX.cpp wraps NVIDIA's AmgX in nekRS's own AMGX_t
    # class; before, the file counted as portable.
    source = b"""\
#include "AMGX.hpp"
AMGX_t::AMGX_t(const int n, const MPI_Comm comm_, int useFP32, const char* cfgFile)
{
  AMGX_Mode mode = useFP32 ? AMGX_mode_dFFI : AMGX_mode_dDDI;
  AMGX_SAFE_CALL(AMGX_initialize());
  AMGX_SAFE_CALL(AMGX_config_create_from_file(&cfg, cfgFile));
  AMGX_resources_create(&rsrc, cfg, &comm, 1, &devID);
}
"""
    report = classify("src/solvers/elliptic/amgSolver/amgx/AMGX.cpp", source)
    assert report.ecosystems == {"cuda": 4}
    assert report.layers[Layer.VENDOR_LIBRARY] == 4
    # The solver that only picks it by name, through the project's own class, is portable.
    caller = b"""\
#include "AMGX.hpp"
void setup(Options& options) {
  if (options.compareArgs("COARSE SOLVER", "AMGX"))
    AMGX = new AMGX_t(n, comm, 0, cfgFile);
}
"""
    assert classify("src/solvers/elliptic/SEMFEMSolver.cpp", caller).ecosystems == {}


# -- quantumlib/qsim, PennyLaneAI/pennylane-lightning, Qiskit/qiskit-aer: cuStateVec ------------


def test_qsim_custatevec_state_space_calls_are_nvidia_library_calls() -> None:
    # lib/run_custatevecex.h and vectorspace_custatevecex.h drive cuStateVec only; before, the
    # cuda-libs row knew cuTENSOR but not cuStateVec and the first file counted as portable.
    source = b"""\
#include <custatevecEx.h>
template <typename FP>
void Collapse(custatevecExStateVectorDescriptor_t sv, unsigned q, unsigned v) {
  ErrorCheck(custatevecExStateVectorSynchronize(sv));
  int bits[] = {(int) q};
  ErrorCheck(custatevecExMeasure(sv, bits, 1, v, CUSTATEVEC_COLLAPSE_NORMALIZE_AND_ZERO));
}
"""
    report = classify("lib/run_custatevecex.h", source)
    # All but the line that fills a plain int array.
    assert report.ecosystems == {"cuda": 5}
    assert report.layers[Layer.VENDOR_LIBRARY] == 5
    # qsim's shared test fixture only passes a flag named after the library.
    fixture = b"""\
template <typename Factory>
void TestExpectationValue(const Factory& factory, bool custatevec = false) {
  if (custatevec && factory.num_qubits == 0) return;
}
"""
    assert classify("tests/simulator_testfixture.h", fixture).ecosystems == {}


def test_lightning_gpu_custatevec_helpers_are_nvidia_library_code() -> None:
    # pennylane_lightning/core/simulators/lightning_gpu/utils/cuStateVec_helpers.hpp maps
    # Pauli words to cuStateVec's enums; StateVectorCudaManaged.hpp applies gates through it.
    source = b"""\
#include <custatevec.h>
inline auto pauliStringToEnum(const std::string &word) -> std::vector<custatevecPauli_t> {
    const std::unordered_map<std::string, custatevecPauli_t> pauli_map{
        {"X", CUSTATEVEC_PAULI_X}, {"Z", CUSTATEVEC_PAULI_Z}};
    std::vector<custatevecPauli_t> out;
    for (const auto &ch : word) out.push_back(pauli_map.at(std::string(1, ch)));
    return out;
}
"""
    report = classify("lightning_gpu/utils/cuStateVec_helpers.hpp", source)
    # The header, the types and the enum constants; the loop over the map and the return not.
    assert report.ecosystems == {"cuda": 5}
