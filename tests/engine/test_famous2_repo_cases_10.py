"""Cases from well-known GPU repositories nobody on the team had read (issue 27, lane famous2).

ggerganov/whisper.cpp, obsproject/obs-studio, rapidsai/cugraph, rapidsai/cudf, NVIDIA/nvcomp and
ornladios/ADIOS2 (lammps/lammps and NVIDIA/DALI were over the 500 MB a snapshot may hold).
Fifteen files of each were drawn with ``random.seed("owner/name")`` over every file lockin
counts, the non-portable files and GPU-looking portable ones were added, and each was labelled
before any fix. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ggerganov/whisper.cpp: ggml's CUDA, Vulkan, SYCL, CANN and Core ML back ends -------------


def test_whisper_coreml_requirements_pin_apple_only_packages() -> None:
    # models/requirements-coreml.txt: the packages that convert the encoder for Core ML and the
    # Neural Engine. Before, every line was portable.
    source = b"torch\ncoremltools\nopenai-whisper\nane_transformers\n"
    assert _rules("models/requirements-coreml.txt", source) == {"deps.coreml-wheel"}
    assert _layers("models/requirements-coreml.txt", source) == {"vendor-path": 2, "portable": 2}


def test_whisper_cann_generated_launch_headers_are_ascend_code() -> None:
    # ggml/src/ggml-cann/kernels/ascendc_kernels.h: one generated aclrtlaunch_<kernel>.h per
    # AscendC kernel. Before, the header was portable.
    source = b"""\
#ifndef ASCENDC_KERNELS_H
#define ASCENDC_KERNELS_H

#include "aclrtlaunch_ascendc_get_row_f32.h"
#include "aclrtlaunch_ascendc_get_row_q8_0.h"
#include "aclrtlaunch_ascendc_quantize_f32_q8_0.h"

#endif  // ASCENDC_KERNELS_H
"""
    report = classify("ggml/src/ggml-cann/kernels/ascendc_kernels.h", source)
    assert {f.rule for f in report.findings} == {"ascend.runtime"}
    assert report.ecosystems == {"ascend": 3}


def test_whisper_kompute_shader_is_kernel_code() -> None:
    # ggml/src/ggml-kompute/kompute-shaders/op_silu.comp: a GLSL compute shader for Kompute.
    source = b"""\
#version 450

#include "common.comp"

layout(local_size_x = 1) in;

layout(binding = 0) buffer restrict readonly tensorIn { float in_[]; };
layout(binding = 1) buffer restrict writeonly tensorOut { float out_[]; };

void main() {
    const uint i = gl_WorkGroupID.x * 4;
    for (uint x = 0; x < 4; x++) {
        const float y = in_[i + x];
        out_[i + x] = y / (1.0 + exp(-y));
    }
}
"""
    assert _rules("kompute-shaders/op_silu.comp", source) == {"vulkan.shader-file"}
    assert _layers("kompute-shaders/op_silu.comp", source) == {"kernel": 12}


def test_whisper_sycl_device_query_is_sycl_host_code() -> None:
    # ggml/src/ggml-sycl/sycl_hw.cpp: Intel's device-id and architecture queries.
    source = b"""\
#include "sycl_hw.hpp"

sycl_hw_info get_device_hw_info(sycl::device *device_ptr) {
  sycl_hw_info res;
  int32_t id = device_ptr->get_info<sycl::ext::intel::info::device::device_id>();
  res.device_id = id;
  return res;
}
"""
    layers = _layers("ggml/src/ggml-sycl/sycl_hw.cpp", source)
    assert layers["vendor-path"] >= 2
    assert "kernel" not in layers


def test_whisper_cmake_package_template_is_cmake() -> None:
    # ggml/cmake/ggml-config.cmake.in: configure_file() fills it into ggml-config.cmake, which
    # finds the CUDA toolkit when ggml was built with CUDA. Before, .cmake.in was read as
    # Autoconf and no build rule applied.
    source = b"""\
@PACKAGE_INIT@

if(GGML_CUDA)
    find_package(CUDAToolkit REQUIRED)
endif()

include("${CMAKE_CURRENT_LIST_DIR}/ggml-targets.cmake")
"""
    report = classify("ggml/cmake/ggml-config.cmake.in", source)
    assert report.language == "CMake"
    assert {f.rule for f in report.findings} == {"build.cmake-cuda"}
    assert _layers("ggml/cmake/ggml-config.cmake.in", source)["vendor-path"] == 1


# -- obsproject/obs-studio: NVENC, Direct3D 11 and Metal back ends of a streaming app ---------


def test_obs_ccache_launcher_for_every_language_is_portable() -> None:
    # cmake/common/ccache.cmake: ccache set as the launcher of each language the build may
    # enable. Before, the CUDA launcher line made the file CUDA build code.
    source = b"""\
find_program(CCACHE_PROGRAM "ccache")
if(CCACHE_PROGRAM)
  set(CMAKE_C_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
  set(CMAKE_CXX_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
  set(CMAKE_OBJC_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
  set(CMAKE_CUDA_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
endif()
"""
    assert _layers("cmake/common/ccache.cmake", source) == {"portable": 7}


def test_obs_cmake_enabling_cuda_is_still_a_cuda_build_line() -> None:
    # The unless of the launcher leaves the CUDA language itself counted.
    source = b"""\
enable_language(CUDA)
set(CMAKE_CUDA_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
"""
    assert _layers("cmake/cuda.cmake", source) == {"vendor-path": 1, "portable": 1}


def test_obs_metal_renderer_swift_is_metal_host_code() -> None:
    # libobs-metal/MetalStageBuffer.swift: a staging buffer made on the MTLDevice.
    source = b"""\
import Foundation
import Metal

class MetalStageBuffer {
    let device: MTLDevice
    let buffer: MTLBuffer

    init?(device: MTLDevice, size: Int) {
        guard let buffer = device.makeBuffer(length: size, options: .storageModeShared) else {
            return nil
        }
        self.device = device
        self.buffer = buffer
    }
}
"""
    assert _rules("libobs-metal/MetalStageBuffer.swift", source) == {"metal.host-api"}
    assert _layers("libobs-metal/MetalStageBuffer.swift", source)["vendor-path"] >= 3


def test_obs_plain_c_utility_is_portable() -> None:
    # libobs/util/crc32.c: a table-driven checksum, nothing of a GPU.
    source = b"""\
#include "crc32.h"

static const uint32_t crc_table[4] = {0x00000000, 0x77073096, 0xEE0E612C, 0x990951BA};

uint32_t calc_crc32(uint32_t crc, const void *buf, size_t size)
{
    const uint8_t *p = buf;
    crc = ~crc;
    while (size--)
        crc = crc_table[(crc ^ *p++) & 3] ^ (crc >> 8);
    return ~crc;
}
"""
    assert _layers("libobs/util/crc32.c", source) == {"portable": 10}


# -- rapidsai/cugraph: graph analytics on RAFT, RMM and libcudf ---------------------------------


def test_cugraph_louvain_impl_is_raft_and_rmm_library_code() -> None:
    # cpp/src/community/louvain_impl.cuh: device vectors, copies and execution policies from
    # RAFT and RMM; no kernel or device lambda of its own.
    source = b"""\
#include <raft/core/handle.hpp>
#include <rmm/device_uvector.hpp>

namespace cugraph {
template <typename vertex_t, typename weight_t>
weight_t louvain(raft::handle_t const& handle, vertex_t n)
{
  rmm::device_uvector<vertex_t> clusters(n, handle.get_stream());
  raft::copy(clusters.begin(), clusters.begin(), n, handle.get_stream());
  return weight_t{0};
}
}  // namespace cugraph
"""
    layers = _layers("cpp/src/community/louvain_impl.cuh", source)
    assert "kernel" not in layers
    assert layers["vendor-library"] >= 4


def test_cugraph_python_test_importing_cudf_is_library_code() -> None:
    # python/cugraph/cugraph/tests/centrality/test_katz_centrality.py: graphs built from cudf
    # frames.
    source = b"""\
import pytest
import cudf
import cugraph


def test_katz(graph_file):
    df = cudf.read_csv(graph_file, names=["src", "dst"])
    G = cugraph.Graph()
    G.from_cudf_edgelist(df, source="src", destination="dst")
    assert len(cugraph.katz_centrality(G)) > 0
"""
    assert _rules("tests/test_katz_centrality.py", source) == {"cudf.python"}
    assert _layers("tests/test_katz_centrality.py", source)["vendor-library"] == 2


def test_cugraph_cpu_reference_header_is_portable() -> None:
    # cpp/tests/centrality/betweenness_centrality_reference.hpp: the host algorithm the GPU
    # results are checked against.
    source = b"""\
#pragma once
#include <queue>
#include <vector>

template <typename vertex_t>
void ref_bfs(std::vector<vertex_t> const& offsets, std::vector<vertex_t> const& indices,
             vertex_t source, std::vector<int>& distances)
{
  std::queue<vertex_t> q;
  q.push(source);
  distances[source] = 0;
}
"""
    assert set(_layers("betweenness_centrality_reference.hpp", source)) == {"portable"}


def test_cugraph_thirdparty_finders_of_nvidia_libraries_are_cuda_build_lines() -> None:
    # cpp/cmake/thirdparty/get_nccl.cmake and get_raft.cmake: the build finds NCCL and fetches
    # RAFT, both CUDA-only. Before, both files were portable.
    source = b"""\
function(find_and_configure_nccl)
    if(TARGET NCCL::NCCL)
        return()
    endif()
    rapids_find_package(NCCL REQUIRED)
endfunction()

function(find_and_configure_raft)
    rapids_cpm_find(raft ${PKG_VERSION}
      GLOBAL_TARGETS raft::raft)
endfunction()
"""
    assert _rules("cpp/cmake/thirdparty/get_deps.cmake", source) == {"build.cmake-nvidia-library"}
    assert _layers("cpp/cmake/thirdparty/get_deps.cmake", source) == {
        "vendor-path": 4,
        "portable": 6,
    }


def test_cugraph_cython_modules_linking_own_target_stay_portable() -> None:
    # python/pylibcugraph/pylibcugraph/CMakeLists.txt (and pylibcudf's twin): the Cython
    # modules link the project's own library.
    source = b"""\
set(cython_sources bfs.pyx pagerank.pyx)
rapids_cython_create_modules(
  SOURCE_FILES "${cython_sources}"
  LINKED_LIBRARIES cugraph::cugraph cudf::cudf)
"""
    assert _layers("python/pylibcugraph/pylibcugraph/CMakeLists.txt", source) == {"portable": 4}


# -- rapidsai/cudf: the GPU dataframe library itself ---------------------------------------


def test_cudf_own_host_dispatch_is_counted_by_what_it_does() -> None:
    # cpp/src/reductions/bitwise.cu: libcudf's own host code (namespace cudf) dispatching on
    # the column type; the device work sits in the headers it includes.
    source = b"""\
#include "simple.cuh"

namespace cudf::reduction::detail {
std::unique_ptr<scalar> bitwise_reduction(bitwise_op op,
                                          column_view const& col,
                                          rmm::cuda_stream_view stream,
                                          rmm::device_async_resource_ref mr)
{
  auto const dtype = col.type();
  return cudf::type_dispatcher(dtype, simple::dispatcher{op}, col, stream, mr);
}
}  // namespace cudf::reduction::detail
"""
    assert _layers("cpp/src/reductions/bitwise.cu", source) == {"portable": 11}


def test_cudf_device_functor_and_lambda_are_kernel_lines() -> None:
    # cpp/src/strings/convert/convert_integers.cu: a __device__ functor and a __device__
    # lambda passed to thrust::transform.
    source = b"""\
#include <thrust/transform.h>

namespace cudf::strings::detail {
struct is_digit_fn {
  __device__ bool operator()(char c) const
  {
    return c >= '0' && c <= '9';
  }
};

void check(char const* in, bool* out, int n, rmm::cuda_stream_view stream)
{
  thrust::transform(rmm::exec_policy_nosync(stream), in, in + n, out,
                    [] __device__(char c) { return c == '-'; });
}
}  // namespace cudf::strings::detail
"""
    layers = _layers("cpp/src/strings/convert/convert_integers.cu", source)
    assert 5 <= layers["kernel"] <= 7


def test_cudf_nvcomp_adapter_calls_are_nvcomp_library_code() -> None:
    # cpp/src/io/comp/nvcomp_adapter.cpp: libcudf's compressed readers call nvCOMP's batched
    # API. Before, only the cudaStream_t lines counted.
    source = b"""\
#include <nvcomp/snappy.h>

namespace cudf::io::detail::nvcomp {
void decompress(void const* const* in, size_t const* sizes, size_t n, void* temp,
                size_t temp_bytes, void* const* out, cudaStream_t stream)
{
  auto const status = nvcompBatchedSnappyDecompressAsync(
    in, sizes, nullptr, nullptr, n, temp, temp_bytes, out, nullptr, stream);
  CUDF_EXPECTS(status == nvcompSuccess, "nvCOMP decompression failed");
}
}  // namespace cudf::io::detail::nvcomp
"""
    assert "nvcomp.call" in _rules("cpp/src/io/comp/nvcomp_adapter.cpp", source)
    assert _layers("cpp/src/io/comp/nvcomp_adapter.cpp", source)["vendor-library"] >= 4


# -- NVIDIA/nvcomp: examples and benchmarks of NVIDIA's GPU compression library --------------


def test_nvcomp_chunked_benchmark_is_nvcomp_library_code() -> None:
    # benchmarks/benchmark_zstd_chunked.cu: the shared benchmark template run with the zstd
    # entry points. Before, every line was portable.
    source = b"""\
#include "benchmark_template_chunked.cuh"
#include "nvcomp/zstd.h"

static nvcompBatchedZstdOpts_t opts = nvcompBatchedZstdDefaultOpts;

void run_benchmark(const std::vector<std::vector<char>>& data, bool warmup, size_t count)
{
  run_benchmark_template(
      nvcompBatchedZstdCompressGetTempSize,
      nvcompBatchedZstdCompressGetMaxOutputChunkSize,
      nvcompBatchedZstdCompressAsync,
      nvcompBatchedZstdDecompressGetTempSize,
      nvcompBatchedZstdDecompressAsync,
      opts,
      data,
      warmup,
      count);
}
"""
    report = classify("benchmarks/benchmark_zstd_chunked.cu", source)
    assert {f.rule for f in report.findings} == {"nvcomp.call"}
    layers = _layers("benchmarks/benchmark_zstd_chunked.cu", source)
    assert "kernel" not in layers
    assert layers["vendor-library"] >= 7


def test_nvcomp_manager_quickstart_is_library_and_runtime_code() -> None:
    # examples/high_level_quickstart_example.cpp: the C++ manager on a CUDA stream.
    source = b"""\
#include "nvcomp/lz4.hpp"

using namespace nvcomp;

void compress(uint8_t* device_input, size_t n)
{
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  LZ4Manager manager{1 << 16, nvcompBatchedLZ4DefaultOpts, stream};
  CompressionConfig config = manager.configure_compression(n);
  cudaStreamSynchronize(stream);
}
"""
    layers = _layers("examples/high_level_quickstart_example.cpp", source)
    assert layers["vendor-library"] >= 2
    assert layers["vendor-path"] >= 3


def test_nvcomp_package_config_template_finds_the_cuda_toolkit() -> None:
    # cmake/nvcomp-config.cmake.in: the installed package needs the CUDA toolkit.
    source = b"""\
@PACKAGE_INIT@

find_package(CUDAToolkit REQUIRED)
include("${CMAKE_CURRENT_LIST_DIR}/nvcomp-targets.cmake")
check_required_components(nvcomp)
"""
    report = classify("cmake/nvcomp-config.cmake.in", source)
    assert report.language == "CMake"
    assert _layers("cmake/nvcomp-config.cmake.in", source) == {"vendor-path": 1, "portable": 3}


def test_nvcomp_own_sources_are_counted_by_what_they_do() -> None:
    # src/highlevel/CascadedManager.hpp of nvCOMP's open 2.x releases: the library's own
    # manager; its CUDA runtime calls count, its own names do not.
    source = b"""\
namespace nvcomp {
struct CascadedBatchManager {
  nvcompBatchedCascadedOpts_t options;
  void* alloc(size_t n)
  {
    void* p;
    cudaHostAlloc(&p, n, cudaHostAllocDefault);
    return p;
  }
};
}  // namespace nvcomp
"""
    report = classify("src/highlevel/CascadedManager.hpp", source)
    assert "nvcomp.call" not in {f.rule for f in report.findings}
    assert _layers("src/highlevel/CascadedManager.hpp", source)["vendor-path"] >= 1


# -- ornladios/ADIOS2: an I/O framework with CUDA and Kokkos buffers, and much vendored C -----


def test_adios2_win32_vkkeyscan_is_no_vulkan() -> None:
    # thirdparty/KWSys/adios2sys/testConsoleBuf.cxx: Win32 maps a character to its virtual key.
    # Before, VkKeyScanW read as a Vulkan type.
    source = b"""\
bool send_char(HANDLE in, wchar_t chr)
{
  SHORT keyCode = VkKeyScanW(chr);
  if (keyCode == -1) {
    return false;
  }
  return write_key(in, keyCode);
}
"""
    assert _layers("testConsoleBuf.cxx", source) == {"portable": 8}


def test_adios2_itanium_inline_assembly_is_no_ptx() -> None:
    # thirdparty/dill/dill/ia64.c: the IA-64 code generator flushes the instruction cache with
    # `;;`-separated instruction groups. Before, the line was a PTX kernel line.
    source = b"""\
extern void ia64_flush(void *base, int size)
{
    __asm__ __volatile__ ("sync.i;;; mf;;; srlz.i;;;");
}
"""
    assert _layers("thirdparty/dill/dill/ia64.c", source) == {"portable": 4}


def test_adios2_ptx_inline_assembly_still_counts() -> None:
    # The stop-bit exception leaves PTX in CUDA code counted.
    source = b"""\
static inline unsigned lane_id()
{
    unsigned id;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}
"""
    assert "cuda.ptx-asm" in _rules("src/lane.cuh", source)


def test_adios2_vendored_libtool_compiler_table_is_portable() -> None:
    # thirdparty/enet/enet/m4/libtool.m4: libtool's per-compiler flags, nvcc among dozens.
    # Before, its three `nvcc*)` arms were CUDA build lines.
    source = b"""\
case $cc_basename in
  nvcc*) # Cuda Compiler Driver 2.2
    _LT_TAGVAR(lt_prog_compiler_wl, $1)='-Xlinker '
    ;;
  pgcc* | pgf77*)
    _LT_TAGVAR(lt_prog_compiler_pic, $1)='-fpic'
    ;;
esac
"""
    assert _layers("m4/libtool.m4", source) == {"portable": 8}


def test_adios2_nanobind_option_naming_nvcc_is_portable() -> None:
    # thirdparty/nanobind/nanobind/CMakeLists.txt: an option, off by default, whose description
    # names nvcc; what it turns on is counted where it is used.
    source = b"""\
option(NB_TEST_CUDA "Force the use of the CUDA/NVCC compiler for testing purposes" OFF)
if (NB_TEST)
  add_subdirectory(tests)
endif()
"""
    assert _layers("thirdparty/nanobind/nanobind/CMakeLists.txt", source) == {"portable": 4}


def test_ffmpeg_mips_and_mmx_inline_assembly_is_not_ptx() -> None:
    # Found by a measuring run (Yang-Yanjing/Robustness_for_SVD keeps FFmpeg functions as
    # single files, without the includes and #if ARCH_ guards that tell CPU assembly apart):
    # a MIPS template opening with `.set push`, and MMX in a macro whose template starts
    # below a continued `__asm__ volatile(\`, counted 141 PTX kernel lines.
    mips = b"""\
static void ac3_downmix_mips(float **samples, int len)
{
    int i;
    __asm__ volatile(
        ".set   push                                    \\n\\t"
        ".set   noreorder                               \\n\\t"
        "li     %[i1],          2                       \\n\\t"
        "sll    %[len],         2                       \\n\\t"
        ".set   pop                                     \\n\\t"
        : [i1]"=&r"(i1) : [len]"r"(len) : "memory");
}
"""
    mmx = b"""\
#define YSCALEYUV2YV12X(offset, dest, end, pos) \\
    __asm__ volatile(\\
        "movq    %%mm3, %%mm6\\n\\t"\\
        "movq    %%mm4, %%mm7\\n\\t"\\
        "movl %3, %%ecx\\n\\t"\\
        :: "r" (&c->redDither), "m" (dummy), "m" (dummy), "m" (dummy), "r" (dest), "g" (end)\\
        : "%eax", "%edx", "%esi"\\
    );
"""
    assert "kernel" not in _layers("0384_ac3dsp_mips.c_ac3_downmix_mips.c", mips)
    assert "kernel" not in _layers("4162_swscale_template.c_yuv2yuvX.c", mmx)


def test_thrust_own_portable_sources_are_not_cub_calls() -> None:
    # Found by a measuring run on NVIDIA/thrust: its OpenMP back end and generic headers only
    # name thrust:: and include thrust/ headers, the library itself (179 files had been
    # non-portable through cub.call alone). Its CUDA back end stays NVIDIA's.
    omp = b"""\
#include <thrust/detail/config.h>
#include <thrust/system/detail/generic/for_each.h>
THRUST_NAMESPACE_BEGIN
namespace system { namespace omp { namespace detail {
template <typename P, typename I, typename F>
I for_each(P& p, I first, I last, F f) {
    return thrust::system::detail::generic::for_each(p, first, last, f);
}
}}}
THRUST_NAMESPACE_END
"""
    cuda = b"""\
#include <thrust/detail/config.h>
#if THRUST_DEVICE_COMPILER == THRUST_DEVICE_COMPILER_NVCC
#include <thrust/system/cuda/detail/parallel_for.h>
THRUST_NAMESPACE_BEGIN
namespace cuda_cub {
template <class P, class F> void run(P& p, F f) { cuda_cub::parallel_for(p, f, 1); }
}
THRUST_NAMESPACE_END
#endif
"""
    assert set(_layers("thrust/system/omp/detail/for_each.h", omp)) == {"portable"}
    assert "vendor-library" in _layers("thrust/system/cuda/detail/for_each.h", cuda)
