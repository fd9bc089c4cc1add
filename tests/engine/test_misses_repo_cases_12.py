"""Cases for the engine-level misses earlier rounds left (issue 27, lane h39-misses).

Not a random sample: each case is a kind of code a platform team meets again, left unfixed
by an earlier audit and found again in a public repository: hpcaitech/ColossalAI (a functor's
body wrapped on the line below its DEVICE argument), geodynamics/pylith (a kernel qualifier
defined from the host-device one), NVIDIA/CUDALibrarySamples and its SYCLomatic migrations
(a project header named curand_utils.h), llama.cpp-style Nix flakes (CUDA switched on in
cmakeFlags strings), Go packages linking CUDA through cgo (gorgonia/cu), benchmark plots
(gnss_gpu's pattern, seen in a GPU regex engine's plot script: a results table filtered on a
"cuda" column), CUDA course notebooks (`!nvcc`
shell escapes, a cuda-cpp cell in a Python notebook), cms-patatrack/pixeltrack-standalone (a
reverse shim defining CUDA's names for the host) and Metal renderers (a header only .metal
sources include). As a check that the fixes make no verdict worse, positions 77-86 of
/work/pool-h39.txt were scanned with the branch point's engine and with this one
(SamG-Coder/cuda-webshader had no snapshot and was skipped): one file changed, for the better
(oneapi-src/oneCCL's src/kernels/common.h, OpenCL C included only by kernels.cl). Each snippet
is a small rewrite, in our own words, of a pattern found in the repository its test names;
the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import Layer
from bot.engine.preprocessor import host_compiled
from tests.engine.test_misses_repo_cases_10 import _spans
from tests.engine.test_ml_repo_cases import _layers, _rules
from tests.engine.test_notebook_cases import line_of, notebook, spans
from tests.engine.test_spliced_headers import census_of

# -- hpcaitech/ColossalAI: the body a macro wraps opens the line below DEVICE ---------------------


_CAST = b"""\
#pragma once
#include <cuda_fp16.h>
#include "common/micros.h"

#define COLOSSAL_CAST_FUNCTOR_SPECIALIZATION(FROM, TO, FUNCTION_MODIFIER, STMTS) \\
  template <>                                                                  \\
  struct CastFunctor<FROM, TO> {                                               \\
    FUNCTION_MODIFIER TO operator()(FROM val) STMTS                            \\
  };

COLOSSAL_CAST_FUNCTOR_SPECIALIZATION(float4, dtype::half4, DEVICE,
                                     STMTS_WRAPPER({
                                       dtype::half4 dst;
                                       dst.x = __floats2half2_rn(val.x, val.y);
                                       dst.y = __floats2half2_rn(val.z, val.w);
                                       return dst;
                                     }))
COLOSSAL_CAST_FUNCTOR_SPECIALIZATION(
    float, __nv_bfloat16, DEVICE,
    STMTS_WRAPPER({ return __float2bfloat16_rn(val); }))
"""


def test_colossalai_cast_functor_wrapped_below_device_is_device_code() -> None:
    # extensions/csrc/funcs/cast_functor.h: clang-format breaks the argument list after
    # DEVICE, so STMTS_WRAPPER({ opens the next line. Before, those functors were portable
    # here (the build guard's vendor path in the real file: 47 kernel lines of ~310).
    assert _spans("extensions/csrc/funcs/cast_functor.h", _CAST) == [
        ("cuda.include", 2, 2),
        ("cuda.device-macro-argument", 11, 20),
    ]


def test_a_blank_or_comment_line_before_the_wrapped_body_changes_nothing() -> None:
    # The lead's exhaustive check (a blank line, spaces or a comment at every insertion point
    # of every rule fixture) found the look-ahead counting a blank line as the body's line:
    # the functor fell out of the kernel layer. It reads past blank and comment lines now.
    lines = b"""\
#include <cuda_fp16.h>
COLOSSAL_CAST_FUNCTOR(float4, half4, DEVICE,

                      // half4 from two half2
                      STMTS_WRAPPER({
                        half4 dst;
                        return dst;
                      }))
"""
    assert _layers("extensions/csrc/funcs/cast_functor.h", lines) == {
        "vendor-path": 1,
        "kernel": 5,
    }


def test_colossalai_host_device_functor_wrapped_below_stays_portable() -> None:
    # extensions/csrc/funcs/binary_functor.h: a HOSTDEVICE functor builds for the CPU too,
    # wherever its body opens.
    source = b"""\
#include <cuda_fp16.h>
COLOSSAL_BINARY_FUNCTOR_SPECIALIZATION(T, T, T, BinaryOpType::kMinus,
                                       HOSTDEVICE,
                                       STMTS_WRAPPER({ return lhs - rhs; }),
                                       typename T)
"""
    assert "cuda.device-macro-argument" not in _rules(
        "extensions/csrc/funcs/binary_functor.h", source
    )


def test_device_argument_ending_a_call_line_is_no_body() -> None:
    # A tensor placed on DEVICE, its initializer list on the next line: no function.
    source = b"""\
#include <cuda_runtime.h>
auto t = make_tensor(shape, DEVICE,
                     std::vector<int>{1, 2});
"""
    assert _layers("src/alloc.cpp", source).get("kernel", 0) == 0


# -- geodynamics/pylith: a kernel qualifier defined from the host-device one ----------------------


def test_pylith_chained_kernel_qualifier_is_device_code() -> None:
    # libsrc/pylith/utils/types.hh: PYLITH_KERNEL is PYLITH_HOST_DEVICE inline, and that is
    # __host__ __device__ under nvcc. Before, only the define of the first link was seen and
    # the functions behind the second were portable.
    source = b"""\
#pragma once
#if defined(__CUDACC__) || defined(__HIPCC__)
#  define PYLITH_HOST_DEVICE __host__ __device__
#else
#  define PYLITH_HOST_DEVICE
#endif
#define PYLITH_KERNEL PYLITH_HOST_DEVICE inline

namespace fekernels {
PYLITH_KERNEL
void f0_mass(const double* s, double* f0)
{
    f0[0] += s[0] * s[1];
}
} // namespace fekernels
"""
    assert ("cuda.device-macro", 10, 14) in _spans("fekernels/Elasticity.hh", source)


def test_chain_of_a_plain_inline_macro_stays_portable() -> None:
    # The same shape built from a macro that is no device qualifier.
    source = b"""\
#define APP_INLINE inline
#define APP_HOT APP_INLINE __attribute__((hot))
APP_HOT int twice(int x)
{
    return 2 * x;
}
"""
    assert _layers("src/util.h", source) == {"portable": 6}


# -- NVIDIA/CUDALibrarySamples, migrated by SYCLomatic: a header named after the library ---------


def test_project_header_named_after_curand_is_no_curand_include() -> None:
    # cuRAND/Host/*/*.dp.cpp: the migrated sample keeps the samples' own "curand_utils.h"
    # (printing helpers) while the generator is oneMKL's. Before, the include line was a
    # cuRAND call (vendor-library) in a file with no cuRAND left.
    source = b"""\
#include <sycl/sycl.hpp>
#include <oneapi/mkl/rng.hpp>
#include "curand_utils.h"

void generate(sycl::queue &q, float *d, int n) {
  oneapi::mkl::rng::mt19937 gen(q, 1234);
  oneapi::mkl::rng::uniform<float> distr;
  oneapi::mkl::rng::generate(distr, gen, n, d);
}
"""
    assert "cuda-libs.call" not in _rules("cuRAND/Host/mt19937/mt19937_normal.dp.cpp", source)


def test_toolkit_header_quoted_is_still_curand() -> None:
    # The CUDA sample it came from: curand_kernel.h is cuRAND's own, quoted or not.
    source = b"""\
#include "curand_kernel.h"
#include "curand_utils.h"
"""
    assert _spans("src/rng.cu", source) == [("cuda-libs.call", 1, 1)]


# -- Nix flakes building llama.cpp: CUDA switched on in CMake flags --------------------------------


def test_nix_cmake_flags_switching_cuda_on_are_vendor_path() -> None:
    # A flake.nix building llama.cpp for one card: the CUDA switch and architectures are
    # strings of cmakeFlags. Before, portable (Nix strings are masked).
    source = b"""\
{ pkgs, cudaArch ? "86" }:
pkgs.stdenv.mkDerivation {
  pname = "llama-cpp-cuda";
  hardeningDisable = [ "all" ];
  cmakeFlags = [
    "-DGGML_CUDA=ON"
    "-DCMAKE_CUDA_ARCHITECTURES=${cudaArch}"
  ];
  nativeBuildInputs = [ pkgs.cmake ];
}
"""
    assert _spans("flake.nix", source) == [("build.nix-cuda-flags", 6, 7)]


def test_nix_cmake_flags_switching_cuda_off_stay_portable() -> None:
    source = b"""\
{ pkgs }:
pkgs.stdenv.mkDerivation {
  pname = "llama-cpp-vulkan";
  cmakeFlags = [ "-DGGML_CUDA=OFF" "-DGGML_VULKAN=ON" ];
}
"""
    assert _layers("flake.nix", source) == {"portable": 5}


# -- Go packages linking CUDA through cgo ----------------------------------------------------------


def test_cgo_preamble_linking_the_cuda_runtime_is_vendor_path() -> None:
    # A Go wrapper over a CUDA library (gorgonia/cu-style bindings, ollama's older llm
    # package): the flags live in the comment above `import "C"`. Before, portable: the
    # preamble was a comment.
    source = b"""\
package cudart

/*
#cgo CFLAGS: -I/usr/local/cuda/include
#cgo LDFLAGS: -L/usr/local/cuda/lib64 -lcudart
#include <stdlib.h>
*/
import "C"

func Sync() { C.free(nil) }
"""
    assert _spans("cudart/sync.go", source) == [("build.cgo-cuda", 4, 5)]


def test_cgo_preamble_linking_libm_stays_portable() -> None:
    source = b"""\
package mathx

/*
#cgo LDFLAGS: -lm
#include <math.h>
*/
import "C"

func Sqrt(x float64) float64 { return float64(C.sqrt(C.double(x))) }
"""
    assert _layers("mathx/sqrt.go", source) == {"portable": 7}


# -- gnss_gpu-style benchmark plots: "cuda" as a value in a results table -----------------------


def test_results_filtered_by_a_cuda_backend_column_are_portable() -> None:
    # scripts/plot_benchmarks.py: the CSV's backend column says which run was CUDA's; the
    # script selects those rows and plots them. Before, each filter was torch.device-string.
    source = b"""\
import pandas as pd

df = pd.read_csv("results/bench.csv")
gpu = df[df.backend == "cuda"]
cpu = df[df["backend"] != "cuda"]
speedup = cpu.time_ms.values / gpu.time_ms.values
print(df.loc[(df.backend == "cuda") & (df.n > 1000), "time_ms"].mean())
"""
    assert _layers("scripts/plot_benchmarks.py", source) == {"portable": 6}


def test_a_device_chosen_by_comparison_still_pins_cuda() -> None:
    # Branching on the configured device is the vendor's path; only a table's rows are data.
    source = b"""\
import torch

if args.device == "cuda":
    torch.backends.cudnn.benchmark = True
"""
    assert "torch.device-string" in _rules("train.py", source)


# -- CUDA course notebooks: nvcc through a shell escape, a CUDA cell in a Python notebook ----------


def test_nvcc_shell_escape_in_a_python_cell_is_a_vendor_build_step() -> None:
    # A Colab CUDA lesson: the kernel is written with %%writefile and built with `!nvcc`.
    # Before, the escape was read as Python and found nothing.
    data = notebook(
        (
            "code",
            "%%writefile vec_add.cu\n__global__ void add(float* a) {\n  a[threadIdx.x] += 1;\n}\n",
        ),
        ("code", "!nvcc -arch=sm_75 -o vec_add vec_add.cu\n!./vec_add\nprint('done')\n"),
    )
    report = classify("lessons/01_vector_add.ipynb", data)
    build = line_of(data, "!nvcc")
    assert [s for s in spans(report) if s[1] == build] == [("build.gencode", build, build)]
    assert report.line_rules[line_of(data, "!./vec_add") - 1] == ""
    assert report.line_rules[line_of(data, "print('done')") - 1] == ""


def test_cell_whose_metadata_says_cuda_is_read_as_cuda() -> None:
    # VS Code writes a cell's own language in metadata.vscode.languageId: a cuda-cpp cell of
    # a Python notebook. Before, its kernel was read as Python (portable).
    data = notebook(
        ("code", "__global__ void square(float* a) {\n  a[threadIdx.x] *= a[threadIdx.x];\n}\n"),
        code={"metadata": {"vscode": {"languageId": "cuda-cpp"}}},
    )
    report = classify("notebooks/square.ipynb", data)
    first = line_of(data, "__global__")
    assert ("cuda.kernel", first, first + 2) in spans(report)


def test_python_assigning_shell_output_stays_python() -> None:
    data = notebook(("code", "files = !ls data\nprint(len(files))\n"))
    report = classify("nb/list.ipynb", data)
    assert report.layers.get(Layer.PORTABLE) == 2


# -- cms-patatrack/pixeltrack-standalone: a reverse shim runs CUDA code on the CPU -----------------


_COMPAT = b"""\
#ifndef CUDACompat_h
#define CUDACompat_h
#ifndef __CUDACC__
#include <algorithm>
#include <cstdint>
namespace compat {
  struct dim3 { uint32_t x, y, z; };
  const dim3 threadIdx = {0, 0, 0};
  const dim3 blockDim = {1, 1, 1};
  template <typename T1, typename T2>
  T1 atomicAdd(T1* a, T2 b) {
    auto old = *a;
    *a += b;
    return old;
  }
  inline void __syncthreads() {}
  inline void __threadfence() {}
}  // namespace compat
#define __host__
#define __device__
#define __global__ inline
#define __shared__
using namespace compat;
#endif
#endif
"""


def test_reverse_shim_defining_cuda_names_on_the_host_is_portable() -> None:
    # src/cuda/CUDACore/cudaCompat.h: under `#ifndef __CUDACC__` the shim defines the thread
    # indices, atomics and barriers as plain C++ and the qualifiers as nothing, so a CUDA
    # kernel builds for one CPU thread. Before, 7 of its 25 lines were kernel code.
    assert _layers("src/cuda/CUDACore/cudaCompat.h", _COMPAT) == {"portable": 25}


def test_device_code_beside_a_host_branch_still_counts() -> None:
    # The same guard's other branch is nvcc's: its device function is CUDA.
    source = b"""\
#ifndef __CUDACC__
inline int lane() { return 0; }
#else
__device__ inline int lane() { return threadIdx.x & 31; }
#endif
"""
    assert _spans("src/lane.h", source) == [("cuda.device-function", 4, 4)]


def test_host_compiled_branches_are_the_first_of_not_cuda_groups() -> None:
    text = "#ifndef __CUDACC__\na\n#else\nb\n#endif\n#if !defined(__CUDA_ARCH__)\nc\n#endif\n"
    assert host_compiled(text) == [(1, 2), (6, 7)]
    assert host_compiled("#if !defined(__CUDACC__) && X\na\n#endif\n") == []


# -- Metal renderers: headers only .metal sources include ----------------------------------------


_BLUR = """\
#include <metal_stdlib>
#include "ColorMath.h"
#include "ShaderTypes.h"
#include "Params.h"
using namespace metal;
kernel void tonemap_kernel(device float3* px [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    px[i] = tonemap(px[i]);
}
"""


def test_header_included_only_by_metal_sources_is_metal_code() -> None:
    # An Alloy-style renderer: Shaders/ColorMath.h holds Metal helpers (float3, half) with no
    # include or attribute of Metal's own; only .metal files include it. Before, portable.
    # ShaderTypes.h (Apple's simd types, read by Swift through the bridging-header setting)
    # and Params.h (included by the Objective-C renderer too) stay the host's.
    census = census_of(
        {
            "Shaders/Blur.metal": _BLUR,
            "Shaders/ColorMath.h": "#pragma once\ninline float3 tonemap(float3 c) {\n"
            "    return c / (1.0 + c);\n}\n",
            "Shaders/ShaderTypes.h": "#pragma once\n#include <simd/simd.h>\n"
            "typedef struct { simd_float4x4 mvp; } Uniforms;\n",
            "Shaders/Params.h": "#pragma once\nstruct Params { float exposure; };\n",
            "Renderer.m": '#include "Shaders/Params.h"\nvoid setup(void) {}\n',
        }
    )
    kernel = {s.path: s.layers[Layer.KERNEL] for s in census.files()}
    assert kernel["Shaders/ColorMath.h"] == 4
    assert kernel["Shaders/ShaderTypes.h"] == 0
    assert kernel["Shaders/Params.h"] == 0
    # One file alone (the gate) cannot know: the header is what it says.
    assert (
        classify("Shaders/ColorMath.h", b"inline float3 f(float3 c) { return c; }\n").layers[
            Layer.KERNEL
        ]
        == 0
    )


def test_nix_list_items_are_no_one_string() -> None:
    # A flake's flags list: the CUDA switch and the flags beside it are items, not one string
    # joined as C joins "a" "b". Before, the whole list was the CUDA flag's.
    source = b"""\
{ pkgs, cudaArch }:
pkgs.stdenv.mkDerivation {
  cmakeFlags = [
    "-DGGML_CUDA=ON"
    "-DCMAKE_CUDA_ARCHITECTURES=${cudaArch}"
    "-DLLAMA_BUILD_TESTS=OFF"
    "-DGGML_NATIVE=ON"
  ];
}
"""
    assert _spans("flake.nix", source) == [("build.nix-cuda-flags", 4, 5)]


def test_opencl_header_included_only_by_the_kernel_source_is_opencl() -> None:
    # oneapi-src/oneCCL src/kernels/common.h: subgroup pragmas and reduction helpers that only
    # kernels.cl includes. Before, portable (found by the pool check, positions 77-86).
    census = census_of(
        {
            "src/kernels/kernels.cl": '#include "common.h"\n'
            "__kernel void add(__global float* a) { a[get_global_id(0)] = sum(a[0], 1.0f); }\n",
            "src/kernels/common.h": "#pragma once\n"
            "#define DEFINE_SUM(T) T sum(T a, T b) { return a + b; }\n"
            "DEFINE_SUM(float)\n",
        }
    )
    header = census.get("src/kernels/common.h")
    assert header is not None
    assert header.layers[Layer.KERNEL] == 3


def test_device_qualified_function_in_a_cuda_header_is_device_code() -> None:
    # ColossalAI-style: DEVICE comes from common/micros.h (#define DEVICE __device__), the
    # header includes CUDA's half types, and the body opens on the line below. Before, only
    # the half types' lines counted (vendor-path).
    source = b"""\
#pragma once
#include <cuda_fp16.h>
#include "common/micros.h"

template <typename T>
DEVICE T warp_max(T v)
{
  return __hmax(v, v);
}

HOSTDEVICE inline int ceil_div(int a, int b) { return (a + b - 1) / b; }
"""
    assert _spans("extensions/csrc/common/vec_ops.h", source) == [
        ("cuda.include", 2, 2),
        ("cuda.device-qualifier-macro-header", 5, 9),
    ]
