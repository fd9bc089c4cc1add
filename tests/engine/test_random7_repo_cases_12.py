"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h39-random-g).

The pool is ``/work/pool-h39.txt``, ordered with ``random.seed("h39-pool")``; this lane took
positions 109-120. Six could not be read: NVIDIA/cuda-python (snapshot over 500 MB), and
Gangasagarhl/bare-metal-to-gpu-university, mocusez/triton-metal, AkeBoss-tech/curobo-metal,
YuuKozlx/fdk_cuda_impl and sfc-gh-goliaro/fastkernels-results (no snapshot). Fifteen files of
each remaining repository (GPUOpen-Drivers/xgl, HaoyangChen23/CUDABeaver,
NVIDIA/CUDALibrarySamples, kokkos/kokkos-kernels, gpgpu-sim/gpgpu-sim_distribution,
ROCm/rocm-tests) were sampled with ``random.Random("owner/name")`` over every file lockin counts
with code lines, and labelled before any fix, with the files lockin calls non-portable (up to 20)
and GPU-looking files it calls portable (up to 10), and three commits touching GPU code per
repository were judged against ``lockin diff``. Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- NVIDIA/CUDALibrarySamples: cuEST, NVIDIA's electronic-structure library -------------------


def test_cuest_c_api_is_an_nvidia_library_call() -> None:
    # cuEST/c_examples/examples/0_context/basic_multistream_usage/main.c: a handle made and
    # destroyed through cuEST's C API. Before, the file was portable: cuEST was in no row.
    source = b"""\
#include <stdio.h>
#include <cuest.h>

int main(void) {
    cuestHandle_t handle;
    cuestHandleParameters_t params;
    check(cuestParametersCreate(CUEST_HANDLE_PARAMETERS, &params));
    check(cuestCreate(params, &handle));
    check(cuestDestroy(handle));
    return 0;
}
"""
    assert _rules("cuEST/c_examples/examples/0_context/basic/main.c", source) == {"cuda-libs.call"}
    assert _layers("cuEST/c_examples/examples/0_context/basic/main.c", source) == {
        "vendor-library": 6,
        "portable": 4,
    }


def test_cuest_python_bindings_call_the_c_api_by_name() -> None:
    # cuEST/python_examples/1_basic_data_structures/ao_shells/run.py: `import cuest.bindings as
    # ce`, then ce.cuestParametersCreate(...) and ce.cuestCreate(...), the C names.
    source = b"""\
import cuest.bindings as ce


def check(title, code):
    if code != ce.CuestStatus.CUEST_STATUS_SUCCESS:
        raise RuntimeError(title)


params = ce.cuestHandleParameters()
check("params", ce.cuestParametersCreate(parametersType=1, outParameters=params))
"""
    assert _rules("cuEST/python_examples/ao_shells/run.py", source) == {
        "cuda.python-library-bindings"
    }
    assert _layers("cuEST/python_examples/ao_shells/run.py", source) == {
        "vendor-library": 2,
        "portable": 4,
    }


def test_cuest_scf_driver_script_stays_portable() -> None:
    # cuEST/cuest_scf_examples/test/uhf_1/test_dft_gradients.py (sampled, right before the fix):
    # it drives the repository's own cuest_scf package, whose modules make the cuEST calls.
    source = b"""\
import cuest_scf

handle = cuest_scf.CuestHandle()
molecule = cuest_scf.Molecule.parse_from_xyz_file("h2o.xyz")
uhf = cuest_scf.UHF(cuest_handle=handle, molecule=molecule)
energy = uhf.compute_energy()
"""
    assert _layers("cuEST/cuest_scf_examples/test/uhf_1/test_dft.py", source) == {"portable": 5}


# -- HaoyangChen23/CUDABeaver: CUDA toolkit tools run from Python --------------------------------


def test_compute_sanitizer_run_from_python_is_a_vendor_path() -> None:
    # data/*/testbench/test/run_sanitizer.py (23 copies): every task's binary is run under
    # compute-sanitizer's memcheck. Before, only nvidia-smi counted as a tool call.
    source = b"""\
import subprocess
import sys

cmd = sys.argv[1:] or ["./test.out"]
proc = subprocess.run(["compute-sanitizer", "--tool", "memcheck", *cmd], capture_output=True)
sys.exit(proc.returncode)
"""
    assert _rules("testbench/test/run_sanitizer.py", source) == {"cuda.tool-call"}
    assert _layers("testbench/test/run_sanitizer.py", source) == {
        "vendor-path": 1,
        "portable": 4,
    }


def test_nsys_profile_command_string_is_a_vendor_path() -> None:
    # harness/timing_modes/region.py: the timing harness builds an `nsys profile` command line
    # and runs it through the shell.
    source = b"""\
def command(workdir, binary):
    return (
        f"TMPDIR={workdir} nsys profile --stats=true --force-overwrite=true "
        f"-o {workdir}/report {binary}"
    )
"""
    assert _rules("harness/timing_modes/region.py", source) == {"cuda.tool-call"}


def test_memory_crash_classifier_strings_stay_portable() -> None:
    # harness/classifier.py (GPU-looking, right before the fix): CUDA error texts it looks for
    # in a run's log are strings, not calls.
    source = b"""\
PATTERNS = [
    r"no kernel image is available for execution on the device",
    r"cudaErrorIllegalAddress",
    r"CUDA driver version is insufficient",
]
TOOLS = {"ncu_report": "Nsight Compute"}
"""
    assert _layers("harness/classifier.py", source) == {"portable": 6}


# -- gpgpu-sim/gpgpu-sim_distribution: the CUDA SDK's CUDA_INSTALL_PATH ---------------------------


def test_cuda_install_path_include_flag_is_a_vendor_build_flag() -> None:
    # src/gpgpu-sim/Makefile (sampled): the simulator compiles against the toolkit's headers
    # through the CUDA SDK's old variable name. Before, only CUDA_HOME/CUDA_PATH counted.
    source = b"""\
CXXFLAGS = -Wall -O3 -fPIC
CXXFLAGS += -I$(CUDA_INSTALL_PATH)/include
OPTFLAGS += -DCUDART_VERSION=$(CUDART_VERSION)

all: libgpusim.a
"""
    assert _rules("src/gpgpu-sim/Makefile", source) == {"build.nvcc"}
    assert _layers("src/gpgpu-sim/Makefile", source) == {"vendor-path": 1, "portable": 3}


# -- kokkos/kokkos-kernels: back ends switched on per vendor library ------------------------------


def test_cublas_and_rocblas_tpl_branches_are_vendor_paths() -> None:
    # blas/tpls/KokkosBlas2_syr_tpl_spec_avail.hpp (sampled): availability specialisations for
    # the cuBLAS and rocBLAS back ends, each under its library's switch; the host BLAS branch
    # stays portable. Before, the whole file was portable.
    source = b"""\
template <class ExecSpace, class T>
struct syr_tpl_spec_avail {
  enum : bool { value = false };
};

#ifdef KOKKOSKERNELS_ENABLE_TPL_BLAS
template <>
struct syr_tpl_spec_avail<Kokkos::Serial, double> { enum : bool { value = true }; };
#endif

#ifdef KOKKOSKERNELS_ENABLE_TPL_CUBLAS
template <>
struct syr_tpl_spec_avail<Kokkos::Cuda, double> { enum : bool { value = true }; };
#endif

#ifdef KOKKOSKERNELS_ENABLE_TPL_ROCBLAS
template <>
struct syr_tpl_spec_avail<Kokkos::HIP, double> { enum : bool { value = true }; };
#endif
"""
    path = "blas/tpls/KokkosBlas2_syr_tpl_spec_avail.hpp"
    assert _rules(path, source) == {"cuda-libs.build-guard", "hip.library-build-guard"}
    assert _layers(path, source) == {"vendor-path": 8, "portable": 8}


def test_tpl_branch_shared_by_both_vendors_is_no_single_vendor_path() -> None:
    # A condition naming cuBLAS and rocBLAS together serves every GPU back end the library has.
    source = b"""\
#if defined(KOKKOSKERNELS_ENABLE_TPL_CUBLAS) || defined(KOKKOSKERNELS_ENABLE_TPL_ROCBLAS)
#define KK_GPU_BLAS 1
#endif
"""
    assert _rules("blas/src/KokkosBlas_gpu_tpl.hpp", source) == set()


def test_kokkos_batched_functor_is_portable_kernel_code() -> None:
    # batched/dense/unit_test/Test_Batched_SerialGesv.hpp (sampled, right before the fix): the
    # KOKKOS_INLINE_FUNCTION operator() is device code of the portability layer.
    source = b"""\
template <typename MatrixType, typename VectorType>
struct Functor_SerialGesv {
  MatrixType _A;
  VectorType _x;

  KOKKOS_INLINE_FUNCTION
  void operator()(const int k) const {
    auto A = Kokkos::subview(_A, k, Kokkos::ALL, Kokkos::ALL);
    auto x = Kokkos::subview(_x, k, Kokkos::ALL);
    SerialGesv::invoke(A, x);
  }
};
"""
    assert _rules("batched/dense/unit_test/Test_Batched_SerialGesv.hpp", source) == {
        "portable-gpu.device-code"
    }


# -- ROCm/rocm-tests: ROCm's runtime variables in front of a command -----------------------------


def test_rocm_runtime_variables_in_a_command_line_are_a_vendor_path() -> None:
    # tests/e2e/rccl/test_distributed_collective_serialization.py (sampled): each rccl-tests
    # client is started with AMD_SERIALIZE_KERNEL and ROCM_PATH set in front of the binary.
    # Before, no row knew ROCm's environment variables.
    source = b"""\
import shlex


def command(rock_dir, binary, args):
    return (
        "env "
        f"AMD_SERIALIZE_KERNEL=1 "
        f"ROCM_PATH={shlex.quote(rock_dir)} "
        f"{shlex.quote(binary)} {args}"
    )
"""
    path = "tests/e2e/rccl/test_collective_serialization.py"
    assert _rules(path, source) == {"env.hip-variables-python"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 6}


def test_rocr_visible_devices_set_by_an_executor_is_a_vendor_path() -> None:
    # framework/executors/local_executor.py: the executor pins a test to its GPUs through
    # ROCR_VISIBLE_DEVICES, as a CUDA launcher does with CUDA_VISIBLE_DEVICES.
    source = b"""\
def pin(env, gpu_index):
    if "ROCR_VISIBLE_DEVICES" not in env:
        env["ROCR_VISIBLE_DEVICES"] = str(gpu_index)
    return env
"""
    assert _rules("framework/executors/local_executor.py", source) == {"env.hip-variables-python"}


def test_rocm_install_lookup_and_cleared_variable_stay_off_this_row() -> None:
    # A lookup of the install (build.hip-python's statement) and a variable removed from the
    # child's environment configure nothing on their own.
    source = b"""\
import os

env = dict(os.environ)
env.pop("HIP_VISIBLE_DEVICES", None)
print("set HIP_VISIBLE_DEVICES to choose the GPUs")
"""
    assert _rules("framework/executors/ssh_executor.py", source) == set()
