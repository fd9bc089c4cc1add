"""Cases seen in real repositories outside machine learning (the third audit round): one
benchmark suite in four programming models, an FFT library with six back ends, a molecular
dynamics code with CUDA, HIP, SYCL and OpenCL kernels, a password cracker, a renderer, a
Python GPU compiler, and the misses the second round left.

Each snippet is a small rewrite, in our own words, of a pattern found there; the repository is
named per test. They pin the verdict a porting engineer gives the file: its language, the
layer of its lines and the ecosystem (so the vendors) they belong to.
"""

from __future__ import annotations

from bot.engine import RULES, classify
from bot.engine.census import Census
from bot.engine.model import Layer

# -- zjin-lcf/HeCBench: the same benchmark in CUDA, HIP, SYCL and OpenMP -----------------------


def test_hecbench_hip_benchmarks_under_cu_names_are_hip() -> None:
    # src/dslash-hip/kernels.cu: hipified kernels and hipMalloc, kept under CUDA's extension;
    # the HIP runtime comes through the benchmark's own header.
    source = b"""\
#include "dslash.h"
__global__ void make_back(const float* a, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i];
}
void run(const float* h, int n) {
  float* d;
  hipMalloc((void**)&d, n * sizeof(float));
  hipLaunchKernelGGL(make_back, dim3(n / 64), dim3(64), 0, 0, d, d, n);
  hipFree(d);
}
"""
    report = classify("src/dslash-hip/kernels.cu", source)
    assert report.language == "HIP"
    assert set(report.ecosystems) == {"hip"}
    assert report.layers[Layer.KERNEL] == 4
    # Its CUDA twin stays CUDA.
    cuda = source.replace(b"hipMalloc", b"cudaMalloc").replace(b"hipFree", b"cudaFree")
    cuda = cuda.replace(
        b"hipLaunchKernelGGL(make_back, dim3(n / 64), dim3(64), 0, 0, d, d, n);",
        b"make_back<<<n / 64, 64>>>(d, d, n);",
    )
    assert set(classify("src/dslash-cuda/kernels.cu", cuda).ecosystems) == {"cuda"}


def test_hecbench_openmp_counter_named_like_a_builtin_is_portable() -> None:
    # src/triad-omp/triad.cpp: a host loop counter called blockIdx, beside OpenMP offload.
    source = b"""\
void run(float* a, const float* b, int n, int passes) {
  int blockIdx = 1;
  for (int p = 0; p < passes; p++) {
    int stream = blockIdx & 1;
    #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++) a[i] += b[i] * stream;
    blockIdx += 1;
  }
}
"""
    assert classify("src/triad-omp/triad.cpp", source).ecosystems == {}


# -- DTolm/VkFFT: one code generator, six back ends -----------------------------------------------


def test_vkfft_own_types_are_not_vulkan() -> None:
    # vkFFT/vkFFT_CodeGen/vkFFT_KernelsLevel1/*.h: back-end neutral generator code.
    source = b"""\
static inline VkFFTResult appendRadixStage(VkFFTSpecializationConstantsLayout* sc, int r) {
  VkFFTResult res = VKFFT_SUCCESS;
  sc->tempLen = r;
  return res;
}
"""
    assert classify("vkFFT/vkFFT_CodeGen/vkFFT_RadixStage.h", source).ecosystems == {}
    # Its Vulkan back end does name Vulkan objects.
    vulkan = b"static VkResult createBuffer(VkDevice device, VkBuffer* buffer);\n"
    assert classify("vkFFT/vkFFT_AppManagement/vkFFT_DeleteApp.h", vulkan).ecosystems == {
        "vulkan": 1
    }


# -- gromacs/gromacs: a HIP back end in files named for it ---------------------------------------


def test_gromacs_files_named_for_hip_are_hip() -> None:
    # src/gromacs/ewald/pme_gpu_program_impl_hip.cpp, gpu_utils/vectype_ops_hip.h: the runtime
    # reached through gromacs/gpu_utils/hiputils.h.
    source = b"""\
#include "gromacs/gpu_utils/hiputils.h"
__global__ void pme_solve_kernel(float* grid, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grid[i] *= 0.5f;
}
"""
    report = classify("src/gromacs/ewald/pme_gpu_program_impl_hip.cpp", source)
    assert report.language == "HIP"
    assert report.ecosystems == {"hip": 4}
    # A header shared by the CUDA and HIP back ends keeps its name's promise.
    shared = b"static __device__ inline float twice(float x) { return 2.0f * x; }\n"
    assert classify("src/gromacs/gpu_utils/typecasts_cuda_hip.h", shared).language == "C Header"
    # So does a HIP-named file that names the CUDA toolchain.
    dual = b"#ifdef __CUDACC__\n#include <cuda_runtime.h>\n#endif\n" + source
    assert classify("src/gromacs/gpu_utils/devicebuffer_hip.h", dual).language == "C Header"


# -- openwall/john: x86 assembly is not PTX; inline PTX in OpenCL is ------------------------------


def test_john_x86_assembly_under_a_project_switch_is_not_ptx() -> None:
    # src/ed25519-donna/ed25519-donna-64bit-x86.h, src/secp256k1/scalar_4x64_impl.h.
    source = b"""\
#if defined(USE_ASM_X86_64)
static void scalar_mul(unsigned long long* l, const unsigned long long* a) {
  __asm__ __volatile__(
    "movq 0(%%rdi), %%r15\\n"
    "mulq %%r11\\n"
    : : "S"(l), "D"(a) : "rax", "rdx", "r11", "r15", "cc", "memory");
}
#endif
"""
    assert classify("src/secp256k1/scalar_4x64_impl.h", source).ecosystems == {}


# -- blender/cycles: kernels behind ccl_gpu_kernel ------------------------------------------------


def test_cycles_gpu_kernels_are_portable_kernel_code() -> None:
    # src/kernel/device/gpu/kernel.h: built for CUDA, HIP, Metal and oneAPI by each back
    # end's config.h; its ccl_device helpers elsewhere build for CPUs too.
    source = b"""\
#include "kernel/device/gpu/parallel_active_index.h"
ccl_gpu_kernel(GPU_KERNEL_BLOCK_NUM_THREADS, GPU_KERNEL_MAX_REGISTERS)
    ccl_gpu_kernel_signature(integrator_reset, const int num_states)
{
  const int state = ccl_gpu_global_id_x();
  if (state < num_states) {
    INTEGRATOR_STATE_WRITE(state, path, queued_kernel) = 0;
  }
}
ccl_gpu_kernel_postfix

ccl_device_inline float film_scale(float x) { return x * 0.5f; }
"""
    report = classify("src/kernel/device/gpu/kernel.h", source)
    assert report.ecosystems == {"portable-gpu": 8}
    assert report.line_rules[1:9] == ["portable-gpu.cycles-kernel"] * 8
    assert report.line_rules[11] == ""


# -- ethereum-mining/ethminer: GCN assembly ------------------------------------------------------


def test_ethminer_gcn_assembly_is_amd_kernel_code() -> None:
    # libethash-cl/kernels/isa/GCN5_ethash_search.isa: CLRX assembly for gfx900 cards.
    source = b"""\
/* ethash search for GCN5 */
.kernel search
    .config
        .dims x
        .sgprsnum 52
    .text
        s_load_dwordx2 s[0:1], s[4:5], 0x0
        v_add_u32 v0, vcc, s8, v0
        s_endpgm
"""
    report = classify("libethash-cl/kernels/isa/GCN5_ethash_search.isa", source)
    assert report.language == "GCN Assembly"
    assert report.ecosystems == {"hip": 8}
    assert report.layers[Layer.KERNEL] == 8


# -- CUDA Fortran: the kernel loop directive -----------------------------------------------------


def test_cuf_kernel_loops_are_cuda_kernels() -> None:
    # nvfortran's !$cuf kernel do: the loop nest under it is compiled into a CUDA kernel.
    source = b"""\
module stream_kernels
contains
  subroutine triad(a, b, c, scalar, n)
    real(8), device :: a(n), b(n), c(n)
    real(8), value :: scalar
    integer :: i, n
    !$cuf kernel do <<<*, *>>>
    do i = 1, n
      a(i) = b(i) + scalar * c(i)
    end do
    do i = 1, n
      b(i) = 0
    end do
  end subroutine triad
end module stream_kernels
"""
    report = classify("src/fortran/CUDAKernelStream.F90", source)
    assert report.line_rules[7:10] == ["cuda.fortran-cuf-kernel"] * 3
    assert report.line_rules[10:13] == ["", "", ""]  # the host loop after it
    assert report.line_rules[3] == "cuda.fortran-host"  # the device arrays
    # OpenACC's directive over the same loop is portable.
    acc = source.replace(b"!$cuf kernel do <<<*, *>>>", b"!$acc parallel loop")
    acc = acc.replace(b"real(8), device :: a(n), b(n), c(n)", b"real(8) :: a(n), b(n), c(n)")
    assert classify("src/fortran/OpenACCStream.F90", acc).ecosystems == {}
    # CUDA Fortran's own extension is counted.
    assert classify("src/triad.cuf", source).language == "Fortran"


# -- numba/numba: the CUDA target named in a string -----------------------------------------------


def test_numba_cuda_target_strings_are_numba() -> None:
    # numba/cuda/tests/cudapy/test_vectorize.py, test_gufunc.py.
    source = b"""\
import numpy as np
from numba import vectorize, guvectorize

@vectorize(["float32(float32, float32)"], target="cuda")
def add(a, b):
    return a + b

@guvectorize(["void(float32[:], float32[:])"], "(n)->(n)", target="cuda")
def copy(x, out):
    for i in range(x.shape[0]):
        out[i] = x[i]
"""
    report = classify("numba/cuda/tests/cudapy/test_vectorize.py", source)
    assert set(report.ecosystems) == {"numba"}
    assert report.ecosystems["numba"] == 2


# -- alpaka-group/alpaka3 and diku-dk/futhark: one source for nvcc and hipcc ---------------------

ALPAKA_ATOMIC = b"""\
#pragma once
#include "alpaka/core/config.hpp"
#if ALPAKA_LANG_CUDA || ALPAKA_LANG_HIP
namespace alpaka::onAcc {
template<typename T>
static __device__ auto atomicAddOp(T* addr, T value) -> T {
  return ::atomicAdd(addr, value);
}
}
#endif
"""


def test_cuda_code_switching_on_hip_itself_builds_for_amd() -> None:
    # alpaka3 include/alpaka/api/unifiedCudaHip/atomic.hpp: no shim header, the file's own
    # ALPAKA_LANG_HIP switch says hipcc compiles it too.
    report = classify("include/alpaka/api/unifiedCudaHip/atomic.hpp", ALPAKA_ATOMIC)
    assert report.ecosystems == {"cuda": 4}
    assert report.hip_switch
    census = Census([report])
    assert census.carried_by_shims() == 4
    assert census.locked_to_nvidia() == 0
    assert census.reaching_shim() == {"include/alpaka/api/unifiedCudaHip/atomic.hpp"}


def test_futhark_atomics_for_cuda_and_hip_build_for_amd() -> None:
    # rts/c/atomics32.h: one branch for FUTHARK_CUDA || FUTHARK_HIP, one for OpenCL.
    source = b"""\
SCALAR_FUN_ATTR int32_t atomic_add_i32_global(volatile __global int32_t *p, int32_t x) {
#if defined(FUTHARK_CUDA) || defined(FUTHARK_HIP)
  return atomicAdd((int32_t*)p, x);
#else
  return atomic_add(p, x);
#endif
}
"""
    assert classify("rts/c/atomics32.h", source).hip_switch


def test_cuda_code_without_a_hip_switch_stays_nvidia_only() -> None:
    # The same header built by nvcc alone; an include guard named *_HIP is no switch; and a
    # file whose only CUDA line is the #else of its HIP switch holds no code hipcc builds.
    nvcc_only = ALPAKA_ATOMIC.replace(b" || ALPAKA_LANG_HIP", b"")
    guarded = b"#ifndef ATOMIC_HIP\n#define ATOMIC_HIP\n" + nvcc_only + b"#endif\n"
    branch_only = b"""\
#if defined(USE_HIP)
#include "vendors/hip.h"
#else
#include <cuda_runtime.h>
#endif
"""
    for path, source in (
        ("include/atomic.hpp", nvcc_only),
        ("include/atomic_guarded.hpp", guarded),
        ("src/gpu/common.cuh", branch_only),
    ):
        report = classify(path, source)
        assert "cuda" in report.ecosystems
        assert not report.hip_switch
        census = Census([report])
        assert census.carried_by_shims() == 0


def test_john_opencl_device_headers_are_opencl() -> None:
    # run/opencl/opencl_hmac_sha256.h: device functions in OpenCL C, included by the .cl
    # kernels beside it; only OpenCL's own types tell.
    source = b"""\
#include "opencl_sha2_ctx.h"
inline void hmac_sha256(const void *_key, uint key_len, void *_digest)
{
    const uchar *key = _key;
    uchar local_digest[32];
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
}
"""
    report = classify("run/opencl/opencl_hmac_sha256.h", source)
    assert report.language == "OpenCL"
    assert report.ecosystems == {"opencl": 8}
    # Host headers in an opencl/ folder: C++ (xmrig's src/backend/opencl/wrappers/AdlHealth.h),
    # system headers, or the OpenCL host API.
    for path, host in (
        ("src/backend/opencl/wrappers/AdlHealth.h", b"#include <cstdint>\nstruct A { int x; };\n"),
        ("src/opencl/runtime.h", b'#include "CL/cl.h"\ncl_int build(cl_program p);\n'),
    ):
        assert classify(path, host).language == "C Header"


# -- metal-by-example/sample-code and libocca/occa: host API names -------------------------------


def test_core_animation_metal_layers_and_module_imports_are_metal() -> None:
    # objc/*/MBEMetalView.m, MBERenderer.h: CAMetalLayer and `@import Metal;`.
    view = b"""\
@implementation MBEMetalView
+ (Class)layerClass { return [CAMetalLayer class]; }
@end
"""
    assert classify("objc/MBEMetalView.m", view).ecosystems == {"metal": 1}
    assert classify(
        "objc/MBERenderer.h", b"@import Metal;\n@interface R : NSObject\n@end\n"
    ).ecosystems == {"metal": 1}
    assert (
        classify(
            "objc/AppDelegate.h", b"@import UIKit;\n@interface A : NSObject\n@end\n"
        ).ecosystems
        == {}
    )


def test_occa_error_macros_per_back_end_stay_cpp() -> None:
    # include/occa/defines/errors.hpp: one error-check macro per back end, SYCL's among them.
    source = b"""\
#define OCCA_CUDA_CHECK(expr) do { CUresult e = expr; if (e) fail(e); } while (false)
#define OCCA_HIP_CHECK(expr) do { hipError_t e = expr; if (e) fail(e); } while (false)
#define OCCA_SYCL_CHECK(expr) try { expr; } catch (const ::sycl::exception &e) { fail(e); }
"""
    report = classify("include/occa/defines/errors.hpp", source)
    assert report.language == "C++"
    assert set(report.ecosystems) == {"cuda", "hip", "sycl"}


def test_project_backend_switches_claim_their_branches() -> None:
    # krrishnarraj/clpeak src/common/options.cpp: one option per back end, each behind the
    # project's ENABLE_* switch.
    source = b"""\
static const char* help =
#ifdef ENABLE_CUDA
    "  --cuda   run only the CUDA backend\\n"
#endif
#ifdef ENABLE_HIP
    "  --hip    run only the HIP backend\\n"
#endif
#ifdef ENABLE_METAL
    "  --metal  run only the Metal backend\\n"
#endif
    "  --all\\n";
"""
    report = classify("src/common/options.cpp", source)
    assert report.line_rules[2] == "cuda.build-guard"
    assert report.line_rules[5] == "hip.platform-guard"
    assert report.line_rules[8] == "metal.build-guard"
    assert report.line_rules[10] == ""


def test_vkfft_level_zero_backend_is_intel_only() -> None:
    # vkFFT/vkFFT.h, VKFFT_BACKEND==4: Intel's Level Zero driver API beside the other back ends.
    source = b"""\
#if(VKFFT_BACKEND==4)
#include <ze_api.h>
static int submit(ze_command_list_handle_t list, ze_command_queue_handle_t queue) {
  ze_result_t res = zeCommandListClose(list);
  return res == ZE_RESULT_SUCCESS ? 0 : 1;
}
#endif
"""
    report = classify("vkFFT/vkFFT.h", source)
    assert report.ecosystems == {"sycl": 4}
    assert {f.rule for f in report.findings} == {"sycl.level-zero"}
    assert RULES["sycl.level-zero"].vendors == frozenset({"intel"})


def test_hecbench_per_compiler_makefiles_are_counted() -> None:
    # src/*-omp/Makefile.nvc (nvc++ -mp=gpu) and Makefile.aomp (AMD's OpenMP offload): the
    # same benchmark built for one vendor each.
    nvc = b"CC = nvc++\nCFLAGS += -Minfo -mp=gpu -gpu=cc80\n"
    aomp = (
        b"CC = clang++\n"
        b"CFLAGS += -fopenmp -fopenmp-targets=amdgcn-amd-amdhsa\n"
        b"CFLAGS += -Xopenmp-target=amdgcn-amd-amdhsa -march=gfx906\n"
    )
    assert classify("src/triad-omp/Makefile.nvc", nvc).ecosystems == {"cuda": 1}
    report = classify("src/triad-omp/Makefile.aomp", aomp)
    assert report.language == "Makefile"
    assert set(report.ecosystems) == {"hip"}
    # autotools' inputs are not Makefiles of their own: Autoconf, as scc counts them.
    assert classify("src/Makefile.in", nvc).language == "Autoconf"
