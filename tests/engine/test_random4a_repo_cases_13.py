"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h40-random-a).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 1-8. One could not be read: Metrale/metrale-inference-alpha (no snapshot). Fifteen
files of each remaining repository (all six of Jathu03/Halide_New) were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix,
with up to twenty files lockin calls non-portable, up to ten GPU-looking files it calls
portable, the kernel lines of the sampled files holding kernels, and three commits touching
GPU code judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- cqhcolorado/GEM-cublas: a gyrokinetic code offloaded with OpenACC and OpenMP target -----


def test_gem_per_machine_makefiles_are_counted() -> None:
    # GEM_OpenMP_GPU_cublas/Makefile-summit-omp-gpu-nvhpc-cublas and its forty-odd siblings
    # (Makefile-cori-acc, Makefile-ascent-omp-gpu): one Makefile per machine and build, the
    # NVIDIA HPC SDK's offload flags in them. Before, a dash after the name left them
    # unread: no language, no lines.
    source = b"""\
F90 = mpif90
OPT = -fast -r8 -cpp -Minfo=mp -mp=gpu -gpu=cc70 -DUSE_CUBLAS
LIBS = -llapack -lblas

gem_main: $(OBJS)
\t$(F90) -o gem_main $(OPT) $(OBJS) $(LIBS)
"""
    report = classify("GEM/Makefile-summit-omp-gpu-nvhpc", source)
    assert report.language == "Makefile"
    assert _rules("GEM/Makefile-summit-omp-gpu-nvhpc", source) == {"build.offload-nvidia"}
    assert _layers("GEM/Makefile_perlmutter", source) == {"vendor-path": 1, "portable": 4}


def test_gem_cpu_build_makefile_is_portable() -> None:
    # Makefile-cori-acc-cpu: the same code built for the host (-acc=multicore).
    source = b"""\
F90 = nvfortran
OPT = -O2 -r8 -cpp -acc=multicore
gem_main: $(OBJS)
\t$(F90) -o gem_main $(OPT) $(OBJS)
"""
    assert _layers("GEM/Makefile-cori-acc-cpu", source) == {"portable": 4}


def test_gem_make_inc_per_library_is_counted() -> None:
    # batched_blas_Ed/make.inc.cublas, which Makefile.cublas includes: nvcc for the cuBLAS
    # wrapper, the PGI compiler's tesla target for the Fortran. Before, not read.
    source = b"""\
CXX = nvcc --gpu-architecture=sm_70
F90 = pgfortran
FFLAGS = -fast -acc -Mcuda -ta=tesla,cc70
LIBS = -lcublas -lcudart
"""
    report = classify("batched_blas/make.inc.cublas", source)
    assert report.language == "Makefile"
    assert set(report.ecosystems) == {"cuda"}
    assert classify("make.inc", source).language == "Makefile"


def test_gem_openacc_target_defaulting_to_nvidia_in_cmake() -> None:
    # GEM_OpenMP_GPU_CUBLAS_0119/CMakeLists.txt: FindOpenACC turns the target into -ta=, and
    # the project defaults it to Summit's V100s. Before, the whole file was portable.
    source = b"""\
find_package(MPI REQUIRED)
if (NOT OpenACC_ACCEL_TARGET)
  set(OpenACC_ACCEL_TARGET nvidia::cc70)
endif()
find_package(OpenACC REQUIRED)
"""
    assert _rules("CMakeLists.txt", source) == {"build.offload-nvidia"}
    assert _layers("CMakeLists.txt", source) == {"vendor-path": 1, "portable": 4}


def test_gem_openacc_fortran_stays_portable() -> None:
    # gem_equil.F90 (sampled, checked right): OpenACC data directives build for NVIDIA, AMD
    # and the host alike.
    source = b"""\
module equil
  real, allocatable :: radius(:), qhat(:)
!$acc declare create(radius, qhat)
contains
  subroutine fill(n)
    integer :: n, i
!$acc parallel loop present(radius)
    do i = 1, n
      radius(i) = real(i)
    end do
  end subroutine
end module
"""
    assert _layers("gem_equil.F90", source) == {"portable": 10}


# -- CodeAlexx/mojodiffusion: diffusion models in Mojo on MAX --------------------------------


def test_mojodiffusion_cuda_driver_called_by_name_is_vendor_path() -> None:
    # serenitymojo/offload/vmm_cuda.mojo: CUDA's virtual memory API (cuMemAddressReserve,
    # cuMemCreate, cuMemMap) and events reached through std.ffi.external_call. Before, its
    # 212 lines were portable: no DeviceContext in it.
    source = b"""\
from std.ffi import external_call


def reserve(size: Int) -> UInt64:
    var out: UInt64 = 0
    var rc = Int(external_call["cuMemAddressReserve", Int32](
        _ptr(out), size, 0, 0, 0))
    check_cuda(rc, String("cuMemAddressReserve"))
    return out


def record(event: UInt64, stream: UInt64):
    var rc = Int(external_call["cuEventRecord", Int32](event, stream))
    check_cuda(rc, String("cuEventRecord"))
"""
    assert _rules("offload/vmm_cuda.mojo", source) == {"cuda.mojo-external-call"}
    assert _layers("offload/vmm_cuda.mojo", source) == {"vendor-path": 2, "portable": 8}


def test_mojodiffusion_libc_call_by_name_is_portable() -> None:
    # The negative: io/ffi.mojo-style bindings of libc (open, stat) name no CUDA symbol.
    source = b"""\
from std.ffi import external_call


def file_size(path: String) -> Int:
    return Int(external_call["stat", Int32](path.unsafe_ptr(), _buf()))
"""
    assert _layers("io/ffi.mojo", source) == {"portable": 3}


def test_mojodiffusion_kernel_and_device_context_checked_right() -> None:
    # models/dit/magihuman_dit.mojo (sampled, checked right): a Mojo elementwise kernel
    # reading global_idx is kernel code, the DeviceContext launch vendor-path.
    source = b"""\
from std.gpu.host import DeviceContext
from std.gpu import global_idx


def _gelu_kernel(x: LayoutTensor[DType.float32, _DYN1, MutAnyOrigin], n: Int):
    var i = Int(global_idx.x)
    if i < n:
        x[i] = x[i] * 0.5


def gelu(x: Tensor, ctx: DeviceContext) raises:
    ctx.enqueue_function[_gelu_kernel, _gelu_kernel](x, x.n, grid_dim=1, block_dim=256)
"""
    assert _rules("models/dit/gelu.mojo", source) == {"mojo.gpu-kernel", "mojo.device-context"}
    assert _layers("models/dit/gelu.mojo", source) == {"kernel": 4, "vendor-path": 4}
