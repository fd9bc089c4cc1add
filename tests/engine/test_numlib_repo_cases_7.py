"""Cases seen in HPC numerical libraries, compression and portability layers (the seventh
audit round): an OpenCL BLAS that keeps its kernels as .opencl files, a C++ container library
for GPUs with CUDA, HIP and OpenMP back ends, an error-bounded lossy compressor built for CUDA,
HIP and SYCL from shared sources, a floating-point compressor with a CUDA back end, a vector
expression library generating OpenCL and CUDA, and a Kokkos geometric search library.

Each snippet is a small rewrite, in our own words, of a pattern found there; the repository is
named per test. They pin the verdict a porting engineer gives the file: its language, the
layer of its lines, the ecosystem they belong to and, for device code, how many lines count.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import Layer

# -- CNugteren/CLBlast: OpenCL kernels in .opencl files, #included as raw strings -------------

_CLBLAST_XAXPY = b"""\
// Enables loading of this file using the C++ pre-processor's #include (C++11 raw string).
R"(

#if RELAX_WORKGROUP_SIZE == 1
  __kernel
#else
  __kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
#endif
void Xaxpy(const int n, const real_arg arg_alpha,
           const __global real* restrict xgm, __global real* ygm) {
  const real alpha = GetRealArg(arg_alpha);
  for (int id = get_global_id(0); id < n; id += get_global_size(0)) {
    MultiplyAdd(ygm[id], alpha, xgm[id]);
  }
}

)"
"""


def test_clblast_opencl_extension_is_opencl_kernel_code() -> None:
    # src/kernels/level1/xaxpy.opencl: every CLBlast kernel lives in a .opencl file that
    # routines #include into a C++ string. Before, the extension named no language and the
    # library's 5,100 kernel lines were not counted at all.
    report = classify("src/kernels/level1/xaxpy.opencl", _CLBLAST_XAXPY)
    assert report.language == "OpenCL"
    assert report.ecosystems == {"opencl": report.code_lines}
    assert report.layers[Layer.KERNEL] == report.code_lines == 14


def test_clblast_kernel_helpers_without_a_kernel_are_opencl_too() -> None:
    # src/kernels/common.opencl: the typedefs and helper macros every kernel includes.
    source = b"""\
R"(
#ifndef PRECISION
  #define PRECISION 32
#endif
#if PRECISION == 64
  #pragma OPENCL EXTENSION cl_khr_fp64: enable
  typedef double real;
#endif
#define GetRealArg(x) x
inline real Square(const real x) { return x * x; }
)"
"""
    report = classify("src/kernels/common.opencl", source)
    assert report.language == "OpenCL"
    assert report.ecosystems == {"opencl": report.code_lines}


# -- stotko/stdgpu: one container library, CUDA, HIP and OpenMP back ends ----------------------


def test_stdgpu_shared_header_functions_are_portable_gpu_code() -> None:
    # src/stdgpu/impl/vector_detail.cuh: STDGPU_DEVICE_ONLY and STDGPU_HOST_DEVICE expand per
    # back end (to nothing for OpenMP). Before, they read as a CUDA project's device macro and
    # the shared headers' 3,000 lines counted as CUDA kernels.
    source = b"""\
#include <stdgpu/platform.h>

namespace stdgpu
{

template <typename T, typename Allocator>
inline STDGPU_DEVICE_ONLY bool
vector<T, Allocator>::push_back(const T& element)
{
    return emplace_back(element);
}

template <typename T, typename Allocator>
inline STDGPU_HOST_DEVICE index_t
vector<T, Allocator>::size() const
{
    return _size.load();
}

} // namespace stdgpu
"""
    report = classify("src/stdgpu/impl/vector_detail.cuh", source)
    assert report.language == "CUDA"
    assert report.ecosystems == {"portable-gpu": 12}
    assert "cuda" not in report.ecosystems


def test_stdgpu_cuda_back_end_keeps_its_functions_cuda() -> None:
    # src/stdgpu/cuda/atomic.cuh declares the CUDA back end's functions with the same generic
    # macros: in namespace stdgpu::cuda they are nvcc's __device__ functions.
    source = b"""\
namespace stdgpu::cuda
{

STDGPU_HOST_DEVICE bool
atomic_is_lock_free() noexcept;

template <typename T>
STDGPU_DEVICE_ONLY T
atomic_load(T* address) noexcept;

} // namespace stdgpu::cuda
"""
    report = classify("src/stdgpu/cuda/atomic.cuh", source)
    assert report.ecosystems == {"cuda": 5}
    assert report.layers[Layer.KERNEL] == 5


def test_stdgpu_hip_back_end_keeps_its_functions_hip() -> None:
    # src/stdgpu/hip/atomic.h: the HIP back end's copy, compiled by hipcc.
    source = b"""\
#include <hip/hip_runtime.h>

namespace stdgpu::hip
{

template <typename T>
STDGPU_DEVICE_ONLY T
atomic_fetch_add(T* address, const T arg) noexcept;

} // namespace stdgpu::hip
"""
    report = classify("src/stdgpu/hip/atomic.h", source)
    assert report.language == "HIP"
    assert report.ecosystems == {"hip": 4}
    assert report.layers[Layer.KERNEL] == 3


# -- szcompressor/cuSZ: one kernel source, one instantiation unit per back end ----------------


def test_cusz_macro_instantiation_units_are_each_back_ends_path() -> None:
    # psz/src/stat/extrema/f4.cu and its .hip twin include the shared .cuhip.inl kernels and
    # only expand the project's instantiation macro, spelled with leading underscores; before,
    # neither counted.
    cuda = b"""\
#include "../detail/extrema.cuhip.inl"

__INSTANTIATE_CUHIP_EXTREMA(float)
"""
    report = classify("psz/src/stat/extrema/f4.cu", cuda)
    assert report.ecosystems == {"cuda": 2}
    assert report.layers[Layer.VENDOR_PATH] == 2
    hip = b"""\
#include "lrz_c.cuhip.inl"

INSTANCIATE_GPU_L23R_1param(f4);
INSTANCIATE_GPU_L23R_1param(f8);
#undef INSTANCIATE_GPU_L23R_1param
"""
    report = classify("psz/src/kernel/lrz_c.hip", hip)
    assert report.ecosystems == {"hip": report.code_lines}
    assert report.layers[Layer.VENDOR_PATH] == report.code_lines == 4


def test_cusz_template_instantiation_units_for_hip_and_sycl() -> None:
    # psz/src/kernel/hist_generic.hip and spvn.dp.cpp: `template struct ...;` lines only.
    hip = b"""\
#include "detail/hist.cuhip.inl"

template struct psz::module::GPU_histogram_generic<u1>;
template struct psz::module::GPU_histogram_generic<u4>;
"""
    report = classify("psz/src/kernel/hist_generic.hip", hip)
    assert report.ecosystems == {"hip": 3}
    sycl = b"""\
#include "detail/spvn.dp.inl"
#include "kernel/spvn.hh"

template struct psz::module::GPU_scatter<f4, u4>;
template struct psz::module::GPU_scatter<f8, u4>;
"""
    report = classify("psz/src/kernel/spvn.dp.cpp", sycl)
    assert report.language == "SYCL"
    assert report.ecosystems == {"sycl": 4}


def test_cusz_hand_written_hip_unit_is_no_instantiation_unit() -> None:
    # A .hip file with a function of its own is counted by what it holds, not as a unit.
    source = b"""\
#include <hip/hip_runtime.h>

template <typename T>
void fill(T* x, int n) {
  for (int i = 0; i < n; ++i) x[i] = T(0);
}

template void fill<float>(float*, int);
"""
    report = classify("test/src/fill.hip", source)
    assert report.layers[Layer.VENDOR_PATH] < report.code_lines


# -- LLNL/zfp: a CPU compressor with a CUDA back end behind ZFP_WITH_CUDA ---------------------


def test_zfp_cuda_dispatch_behind_a_prefixed_build_switch_is_the_cuda_path() -> None:
    # src/template/cudacompress.c: the compress functions of the CUDA execution policy, built
    # only with -DZFP_WITH_CUDA. Before, only unprefixed WITH_CUDA (and *_USING_CUDA) counted.
    source = b"""\
#ifdef ZFP_WITH_CUDA

#include "../cuda_zfp/cuZFP.h"

static void
_t2(compress_cuda, Scalar, 1)(zfp_stream* stream, const zfp_field* field)
{
  if (zfp_stream_compression_mode(stream) == zfp_mode_fixed_rate)
    cuda_compress(stream, field);
}

#endif
"""
    report = classify("src/template/cudacompress.c", source)
    assert report.ecosystems == {"cuda": report.code_lines}
    assert report.layers[Layer.VENDOR_PATH] == report.code_lines == 9


def test_kokkos_switch_naming_every_gpu_back_end_is_no_cuda_path() -> None:
    # arborx/ArborX test/tstDetailsTreeNodeLabeling.cpp: a branch every GPU build takes.
    # Its KOKKOS_ENABLE_CUDA-only branch (ArborX_KokkosExtSort.hpp, Thrust's sort) is CUDA's.
    source = b"""\
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP) || defined(KOKKOS_ENABLE_SYCL)
constexpr bool on_gpu = true;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
#include <thrust/sort.h>
constexpr bool sort_with_thrust = true;
#endif
"""
    report = classify("src/kokkos_ext/sort.hpp", source)
    assert not any(report.line_rules[:3])
    assert report.ecosystems == {"cuda": 4}


# -- ddemidov/vexcl: expression templates generating OpenCL, CUDA or JIT source ----------------


def test_vexcl_cl_scalar_typedefs_in_generic_code_are_no_opencl_host_code() -> None:
    # vexcl/random.hpp: every back end names its scalar types cl_uint, cl_ulong, cl_float
    # (CL/cl_platform.h's plain C typedefs); before, these lines and the statements around
    # them (1,000 lines over 20 files) counted as OpenCL host code.
    source = b"""\
template <class T, class Generator = random::philox>
struct Random : UserFunction<Random<T, Generator>, T(cl_ulong, cl_ulong)> {
    static void define(backend::source_generator &src, const std::string &name) {
        typedef typename std::conditional<sizeof(T) < 32, cl_uint, cl_ulong>::type ctr_t;
        src.template parameter<cl_ulong>("prm1");
    }
};
"""
    report = classify("vexcl/random.hpp", source)
    assert report.ecosystems == {}


def test_vexcl_opencl_back_end_keeps_its_host_calls() -> None:
    # vexcl/backend/opencl/kernel.hpp: the OpenCL back end's launch, through the C++ bindings.
    source = b"""\
void operator()(const cl::CommandQueue &q) {
    q.enqueueNDRangeKernel(K, cl::NullRange, g_size, w_size);
    argpos = 0;
}
cl_int set_arg(cl_mem buf) {
    return clSetKernelArg(K(), argpos++, sizeof(cl_mem), &buf);
}
"""
    report = classify("vexcl/backend/opencl/kernel.hpp", source)
    assert set(report.ecosystems) == {"opencl"}
    assert report.layers[Layer.VENDOR_PATH] >= 3


def test_cusz_source_property_handing_a_cc_file_to_nvcc_is_cuda_build() -> None:
    # szcompressor/cuSZ cmake/cusz.cmake: the CLI's .cc file compiled as CUDA. Before, only
    # project(... LANGUAGES CUDA) and enable_language(CUDA) counted; a commit adding this
    # line passed the gate.
    source = b"""\
add_executable(cusz psz/src/cli/cli.cc)
set_source_files_properties(psz/src/cli/cli.cc PROPERTIES LANGUAGE CUDA)
set_source_files_properties(psz/src/cli/main.cc PROPERTIES LANGUAGE CXX)
"""
    report = classify("cmake/cusz.cmake", source)
    assert report.ecosystems == {"cuda": 1}
    assert report.line_rules[1] == "build.cmake-cuda"


def test_cusz_file_named_for_cuda_and_hip_keeps_its_cuda_calls() -> None:
    # szcompressor/cuSZ test/src/detail/t_spv.cu_hip.inl: built by nvcc, and by hipcc through
    # a header #defining cudaMalloc as hipMalloc. Named `cu_hip`, it was read as HIP and its
    # CUDA runtime calls went uncounted; like typecasts_cuda_hip.h it is both vendors' C++.
    source = b"""\
#include "kernel/spvn.hh"

template <typename T = float>
int f()
{
  T* a;
  size_t len = 10000;
  cudaMallocManaged(&a, sizeof(T) * len);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaFree(a);
  return 0;
}
"""
    report = classify("test/src/detail/t_spv.cu_hip.inl", source)
    assert report.language == "C++"
    assert report.ecosystems == {"cuda": 4}


def test_stdgpu_back_end_test_units_including_a_shared_source_are_that_back_ends() -> None:
    # stotko/stdgpu tests/stdgpu/cuda/bitset.cu and hip/bitset.hip: one line each, including
    # the shared test source (bitset.inc) for nvcc or hipcc. An umbrella header including
    # headers is no such unit.
    unit = b"#include <stdgpu/bitset.inc>\n"
    assert classify("tests/stdgpu/cuda/bitset.cu", unit).ecosystems == {"cuda": 1}
    assert classify("tests/stdgpu/hip/bitset.hip", unit).ecosystems == {"hip": 1}
    umbrella = b'#pragma once\n#include "stdgpu/bitset.cuh"\n#include "stdgpu/vector.cuh"\n'
    assert classify("src/stdgpu/all.cuh", umbrella).ecosystems == {}
