"""Cases from an audit of GPU databases, media and imaging tools the engine had not read
(issue 27).

anilshanbhag/crystal (a GPU SQL engine's block-wide CUDA primitives), heterodb/pg-strom (a
PostgreSQL extension running scans, joins and group-bys on CUDA), BlazingDB/blazingsql (SQL
on libcudf), NVIDIA/VideoProcessingFramework (NVDEC/NVENC from Python), rapidsai/cucim (CuPy
kernels built as strings) and CVCUDA/CV-CUDA (image operators in CUDA). Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import Layer
from bot.engine.preprocessor import switched_off
from tests.engine.test_ml_repo_cases import _layers

# -- anilshanbhag/crystal: an older kernel kept under #if 0 -----------------------------------


def test_crystal_kernel_under_if_zero_is_not_counted() -> None:
    # crystal/load.cuh: the live BlockLoad, then an older copy of it switched off by #if 0.
    source = b"""\
#pragma once
template <typename T, int BLOCK_THREADS, int ITEMS_PER_THREAD>
__device__ __forceinline__ void BlockLoad(T* inp, T (&items)[ITEMS_PER_THREAD]) {
  T* thread_itr = inp + threadIdx.x;
  for (int i = 0; i < ITEMS_PER_THREAD; i++) items[i] = thread_itr[i * BLOCK_THREADS];
}

#if 0
template <typename T, int BLOCK_THREADS, int ITEMS_PER_THREAD>
__device__ __forceinline__ void BlockLoadOld(int tid, T* inp, T (&items)[ITEMS_PER_THREAD]) {
  T* thread_itr = inp + tid;
  for (int i = 0; i < ITEMS_PER_THREAD; i++) items[i] = thread_itr[i * BLOCK_THREADS];
}
#endif
"""
    report = classify("crystal/load.cuh", source)
    assert report.code_lines == 13  # the switched-off lines stay code lines, as scc counts
    assert _layers("crystal/load.cuh", source) == {"kernel": 5, "portable": 8}
    assert all(f.end_line < 8 for f in report.findings)


def test_if_zero_else_branch_is_live_and_nested_groups_stay_off() -> None:
    # The #else of an #if 0 compiles; a group nested in the dead branch is dead with it.
    source = b"""\
#if 0
__global__ void old_scale(float* x) {
#ifdef FAST
  x[threadIdx.x] *= 2.0f;
#endif
}
#else
__global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; }
#endif
"""
    assert switched_off(source.decode()) == [(1, 6)]
    report = classify("scale.cu", source)
    assert [(f.rule, f.start_line, f.end_line) for f in report.findings] == [("cuda.kernel", 8, 8)]


def test_if_zero_unclosed_and_if_one_groups() -> None:
    # An unclosed #if 0 runs to the end of the file; #if 1 and #if 00x are other conditions.
    assert switched_off("a\n#if 1\nb\n#endif\n#if 0\nc\nd") == [(5, 7)]
    assert switched_off("#if 0\nc\n") == [(1, 3)]  # past the last line: cut by the caller
    assert _layers("k.cu", b"#if 0\n__global__ void k() {}\n") == {"portable": 2}
    assert switched_off("  #  if 0 \nx\n#endif\n") == [(1, 2)]
    assert switched_off("#if 0x10\nx\n#endif\n") == []


# -- NVIDIA/VideoProcessingFramework: split chevrons and NVDEC from Python --------------------


def test_vpf_launch_with_split_chevrons_is_a_launch() -> None:
    # src/TC/src/Resize.cu: `Resize<YuvUnitx2> << < Dg, Db, 0, S >> > (...)`.
    source = b"""\
#include <cuda_runtime.h>
template <typename T>
static void Resize(unsigned char* dst, int w, int h, float* tex, int s) {
  dim3 grid = dim3((w + 31) / 32, (h + 31) / 32);
  ResizeKernel<T> << < grid, 256, 0, 0 >> > (
      dst, w, h, tex);
}
int twice(int x) { return (x << 1) < (1 << 20) ? x >> 1 : x; }
"""
    report = classify("src/TC/src/Resize.cu", source)
    assert ("cuda.launch", 5, 6) in [(f.rule, f.start_line, f.end_line) for f in report.findings]
    assert report.layers[Layer.VENDOR_PATH] == 3  # the include and the launch's two lines


def test_vpf_python_sample_on_pynvcodec_is_nvidia_video_code() -> None:
    # samples/SampleDecode.py: the import and the NVDEC decoder it builds.
    source = b"""\
import PyNvCodec as nvc
import numpy as np


class Decoder:
    def __init__(self, path: str, gpu_id: int):
        self.dmx = nvc.PyFFmpegDemuxer(path)
        self.dec = nvc.PyNvDecoder(self.dmx.Width(), self.dmx.Height(), gpu_id)
        self.frame = np.ndarray(shape=(0,), dtype=np.uint8)
"""
    report = classify("samples/SampleDecode.py", source)
    assert report.ecosystems == {"cuda": 2}
    assert _layers("samples/SampleDecode.py", source) == {"vendor-library": 2, "portable": 5}


def test_vpf_cmake_finding_the_video_codec_sdk_is_cuda_build() -> None:
    # PyNvCodec/TC/CMakeLists.txt (before its move to src/TC): NVDEC/NVENC found by hand.
    source = b"""\
add_library(TC SHARED src/Tasks.cpp)
find_path(VIDEO_CODEC_SDK_INCLUDE_DIR nvEncodeAPI.h ${VIDEO_CODEC_SDK_DIR}/include)
find_library(NVCUVID_LIBRARY nvcuvid ${VIDEO_CODEC_SDK_DIR}/Lib/x64)
set_property(TARGET TC PROPERTY CUDA_STANDARD 11)
target_link_libraries(TC PUBLIC ${NVCUVID_LIBRARY})
"""
    assert _layers("PyNvCodec/TC/CMakeLists.txt", source) == {"vendor-path": 3, "portable": 2}


# -- rapidsai/cucim: CuPy kernel source grown by += -------------------------------------------


def test_cucim_kernel_source_built_by_augmented_assignments_counts_whole() -> None:
    # skimage/measure/_regionprops_gpu_moments_kernels.py: one builder per kernel, each
    # reusing the name `source` and growing it in loops.
    source = b'''\
import cupy as cp


def get_centroid_kernel(ndim):
    source = """
      auto L = label[i];
      if (L != 0) {"""
    for d in range(ndim):
        source += f"""
        atomicAdd(&sums[(L - 1) * {ndim} + {d}], in_coord[{d}]);"""
    source += """
        atomicAdd(&counts[L - 1], 1);
      }"""
    return cp.ElementwiseKernel("raw X label", "raw Y sums, raw Z counts", source)


def get_count_kernel():
    source = """
      atomicAdd(&counts[label[i]], 1);"""
    return cp.ElementwiseKernel("raw X label", "raw Y counts", source)
'''
    layers = _layers("skimage/measure/_moments_kernels.py", source)
    # The three string pieces of the first kernel (8 lines), the second's (2) and the
    # parameter strings of both calls (2); the import is CuPy's API.
    assert layers["kernel"] == 12
    assert layers["vendor-path"] == 1


# -- CVCUDA/CV-CUDA: a shell script writing C, and linker directives --------------------------


def test_cvcuda_shell_script_with_a_c_heredoc_is_shell() -> None:
    # tools/mkstub/mkstub.sh: C for a stub library written through a heredoc.
    source = b"""\
#!/bin/bash -e
tmp_c=$(mktemp).c
cat > $tmp_c <<-EOF
void do_abort()
{
    abort();
}
EOF
if [ ! -r "$1" ]; then
    exit 1
fi
"""
    report = classify("tools/mkstub/mkstub.sh", source)
    assert report.language == "Shell"
    assert report.findings == []


def test_bgfx_shader_header_named_sh_is_still_a_shader() -> None:
    # bkaradzic/bgfx examples/common/shaderlib.sh: the heuristic still names it.
    source = b"""\
vec3 encodeNormalUint(vec3 _normal)
{
    return _normal * 0.5 + 0.5;
}
"""
    assert classify("examples/common/shaderlib.sh", source).language == "bgfx Shader"


def test_cvcuda_symver_asm_is_not_ptx() -> None:
    # tools/mkstub/test_versioned.c and NVCV's symbol versioning: GNU as directives.
    source = b"""\
__asm__(".symver weak_ver1_data,weak_data@ver_1.0");
__attribute__((weak)) void *weak_ver1_data = (void *)0;
__asm__(".symver strong_ver2_func,strong_func@@ver_2.0");
void strong_ver2_func() {}
"""
    assert _layers("tools/mkstub/test_versioned.c", source) == {"portable": 4}


def test_cvcuda_trap_asm_in_a_device_assert_is_still_ptx() -> None:
    # src/cvcuda/priv/Assert.h keeps `asm("trap;")` under __NVCC__.
    source = b"""\
__device__ void check(int ok) {
  if (!ok) { asm("trap;"); }
}
"""
    assert _layers("src/cvcuda/priv/Assert.cuh", source) == {"kernel": 3}


# -- BlazingDB/blazingsql: SQL on libcudf ------------------------------------------------------


def test_blazingsql_engine_on_libcudf_is_nvidia_library_code() -> None:
    # engine/src/operators/OrderBy.cpp: sort and gather through libcudf on RMM streams.
    source = b"""\
#include <cudf/sorting.hpp>
#include <cudf/copying.hpp>
#include "blazing_table/BlazingTable.h"

std::unique_ptr<ral::frame::BlazingTable> sort(const ral::frame::BlazingTableView& table,
                                               const std::vector<int>& keys) {
  auto order = cudf::sorted_order(table.view().select(keys));
  auto out = cudf::gather(table.view(), order->view());
  return std::make_unique<ral::frame::BlazingTable>(std::move(out), table.names());
}
"""
    report = classify("engine/src/operators/OrderBy.cpp", source)
    assert report.ecosystems == {"cuda": 2}
    assert _layers("engine/src/operators/OrderBy.cpp", source) == {
        "vendor-library": 2,
        "portable": 7,
    }


def test_blazingsql_header_naming_cudf_types_counts_without_the_include() -> None:
    # engine/src/execution_kernels/BatchUnionProcessing.h reaches libcudf through the
    # project's headers; a project namespace called cudf alone does not count.
    header = b"""\
#include "BatchProcessing.h"
bool same_types(const std::vector<cudf::data_type>& a, const std::vector<cudf::data_type>& b);
"""
    assert _layers("engine/src/execution_kernels/BatchUnionProcessing.h", header) == {
        "vendor-library": 1,
        "portable": 1,
    }
    shim = b"""\
#include "shim.h"
int rows(cudf::Frame const& f) { return f.rows(); }
"""
    assert _layers("src/shim.cpp", shim) == {"portable": 2}


def test_blazingsql_python_importing_cudf_is_nvidia_library_code() -> None:
    # pyblazing/pyblazing/apiv2/context.py; a pandas-only module stays portable.
    source = b"""\
import cudf
import dask_cudf
import pandas


def to_gpu(df: pandas.DataFrame):
    return cudf.from_pandas(df)
"""
    assert _layers("pyblazing/apiv2/context.py", source) == {"vendor-library": 2, "portable": 3}
    cpu = b"""\
import pandas

df = pandas.DataFrame({"a": [1]})
"""
    assert _layers("pyblazing/cpu.py", cpu) == {"portable": 2}


# -- heterodb/pg-strom: GPU functions behind return-type macros --------------------------------


def test_pg_strom_function_macros_in_a_cu_file_are_device_code() -> None:
    # src/cuda_gpusort.cu: helpers with no CUDA builtin, declared STATIC_FUNCTION(type).
    source = b"""\
#include "cuda_common.h"

STATIC_FUNCTION(int)
__gpusort_compare(kern_context *kcxt, const char *x, const char *y)
{
\tif (x[0] < y[0])
\t\treturn -1;
\treturn x[0] > y[0] ? 1 : 0;
}

INLINE_FUNCTION(bool)
__gpusort_valid(const char *x)
{
\treturn x != NULL;
}
"""
    assert _layers("src/cuda_gpusort.cu", source) == {"kernel": 12, "portable": 1}


def test_pg_strom_function_macros_in_a_c_file_are_host_code() -> None:
    # The same macros in the extension's host C (src/gpu_service.c) expand to plain C.
    source = b"""\
#include "pg_strom.h"
STATIC_FUNCTION(int)
__gpuservCount(int n)
{
\treturn n + 1;
}
"""
    assert _layers("src/gpu_service.c", source) == {"portable": 6}


def test_cucim_kernel_pieces_returned_by_helpers_count() -> None:
    # skimage/measure/_regionprops_gpu_basic_kernels.py: helpers build `source_pre`,
    # `source_operation` and `source_post`, which the kernel's builder joins into `source`.
    source = b'''\
import cupy as cp


def _get_count_code(array_size):
    source_pre = f"""
    uint32_t counts[{array_size}];"""
    source_post = """
    atomicAdd(&num_pixels[L - 1], counts[0]);"""
    return source_pre, source_post


def get_count_kernel(array_size):
    count_pre, count_post = _get_count_code(array_size)
    source = count_pre
    source += count_post
    return cp.ElementwiseKernel("raw X label", "raw Y num_pixels", source)
'''
    layers = _layers("skimage/measure/_regionprops_gpu_basic_kernels.py", source)
    # The two pieces (4 lines) and the call's parameter strings (1).
    assert layers["kernel"] == 5
