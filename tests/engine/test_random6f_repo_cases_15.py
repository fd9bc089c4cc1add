"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h42-random-f).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 259-266. One could not be read: pierre427/mlx2 (no snapshot). Fifteen files of each
remaining repository (all six of jhson989/matmul_cublas) were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix,
with the files lockin calls non-portable (up to twenty) and GPU-looking files it calls
portable (up to ten); up to three commits touching GPU code per repository were drawn with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- jhson989/matmul_cublas: a cuBLAS tutorial ---------------------------------------------------


def test_matmul_cublas_main_including_cublas_header_is_vendor_library() -> None:
    # main.cu: fills host vectors and calls the project's run_cuBLAS; its one tie to NVIDIA is
    # the include of cuBLAS's header, which builds only where cuBLAS is installed. Before,
    # the file was portable while curand.h or cublasLt.h in its place counted.
    source = b"""\
#include <random>
#include <vector>
#include <cublas_v2.h>
#include "include/gemm.cuh"

const int N = 512;

int main() {
    std::vector<float> a(N * N, 1.0f), b(N * N, 2.0f), c(N * N);
    run_gemm(a, b, c, N);
    return 0;
}
"""
    assert _rules("main.cu", source) == {"cublas.call"}
    assert _layers("main.cu", source) == {"vendor-library": 1, "portable": 9}


def test_matmul_cublas_quoted_legacy_header_is_vendor_library() -> None:
    # The legacy API's header, quoted, beside the error-check macros of include/debug.cuh.
    source = b"""\
#pragma once
#include "cublas.h"
#define CHECK(x) check((x), __FILE__, __LINE__)
"""
    assert _layers("include/debug.cuh", source) == {"vendor-library": 1, "portable": 2}


def test_project_header_named_after_cublas_stays_portable() -> None:
    # The toolkit ships a closed set of cuBLAS headers: a project's own helpers named after it
    # are counted where they are defined, not where they are included.
    source = b"""\
#include "cublas_helpers.h"
#include "backends/cublas_gemm.hpp"
int run(int n) { return gemm_dispatch(n); }
"""
    assert _layers("src/main.cpp", source) == {"portable": 3}


# -- tensorflow/addons: TensorFlow custom ops built for CUDA with Bazel -------------------------


def test_addons_custom_op_cuda_sources_are_vendor_path() -> None:
    # tensorflow_addons/custom_ops/seq2seq/BUILD: the macro compiles cuda_srcs with nvcc in the
    # CUDA build only. Before, portable; its sibling naming cuda_deps was counted.
    source = b"""\
load("//tensorflow_addons:tensorflow_addons.bzl", "custom_op_library")

custom_op_library(
    name = "_gather_ops.so",
    srcs = [
        "cc/kernels/gather_ops.cc",
        "cc/ops/gather_ops.cc",
    ],
    cuda_srcs = [
        "cc/kernels/gather_ops.h",
        "cc/kernels/gather_ops_gpu.cu.cc",
    ],
)
"""
    assert _rules("tensorflow_addons/custom_ops/seq2seq/BUILD", source) == {"build.bazel-cuda"}
    assert _layers("tensorflow_addons/custom_ops/seq2seq/BUILD", source) == {
        "vendor-path": 4,
        "portable": 8,
    }


def test_tensorflow_gpu_sources_stay_portable() -> None:
    # TensorFlow's own gpu_srcs build with CUDA or ROCm alike.
    source = b"""\
tf_kernel_library(
    name = "gather_op",
    srcs = ["gather_op.cc"],
    gpu_srcs = ["gather_op_gpu.cu.cc", "gather_op.h"],
)
"""
    assert _layers("tensorflow/core/kernels/BUILD", source) == {"portable": 5}


def test_addons_external_build_file_is_starlark() -> None:
    # build_deps/toolchains/gpu/cub.BUILD: the build file laid over the CUB archive, its
    # headers only in the CUDA build. Before, the name gave no language and it was not counted.
    source = b"""\
load("@local_config_cuda//cuda:build_defs.bzl", "if_cuda")

cc_library(
    name = "cub",
    hdrs = if_cuda(glob(["cub/**"])),
    deps = ["@local_config_cuda//cuda:cuda_headers"],
)
"""
    report = classify("build_deps/toolchains/gpu/cub.BUILD", source)
    assert report.language == "Starlark"
    # The load and the dependency name the toolkit by its label (build.bazel-cuda-label).
    assert _rules("build_deps/toolchains/gpu/cub.BUILD", source) == {
        "build.bazel-cuda",
        "build.bazel-cuda-label",
    }
    assert _layers("build_deps/toolchains/gpu/cub.BUILD", source) == {
        "vendor-path": 3,
        "portable": 3,
    }


def test_bazel_dependency_on_the_cuda_runtime_is_vendor_path() -> None:
    # A target whose only tie to NVIDIA is its dependency on the toolkit's runtime.
    source = b"""\
cc_library(
    name = "gather_gpu",
    srcs = ["gather_gpu.cc"],
    deps = [
        ":gather",
        "@local_config_cuda//cuda:cudart",
    ],
)
"""
    assert _rules("ops/BUILD", source) == {"build.bazel-cuda-label"}
    assert _layers("ops/BUILD", source) == {"vendor-path": 1, "portable": 7}


def test_external_build_file_without_gpu_stays_portable() -> None:
    # third-party build files of the same form name no toolkit; a lower-case .build is no
    # Bazel file at all.
    source = b"""\
cc_library(
    name = "zlib",
    srcs = glob(["*.c"]),
    hdrs = ["zlib.h"],
)
"""
    assert classify("build_deps/zlib.BUILD", source).language == "Starlark"
    assert _layers("build_deps/zlib.BUILD", source) == {"portable": 5}
    assert classify("scripts/release.build", source).language is None


# -- hard cases that were already right -------------------------------------------------------


def test_probability_notebook_shader_strings_are_kernel_code() -> None:
    # tensorflow/probability discussion/.../ProbBundle.ipynb: a pythreejs ShaderMaterial takes
    # its vertex and fragment shaders as GLSL strings; the convention counts them as kernels.
    source = b'''\
POINT_FRAGMENT = """
varying vec3 v_color;

void main() {
    gl_FragColor = vec4(v_color, 1.0);
}
"""
material = p3.ShaderMaterial(fragmentShader=POINT_FRAGMENT)
'''
    assert _rules("notebook/points.py", source) == {"vulkan.glsl-string"}
    assert _layers("notebook/points.py", source)["kernel"] >= 4


def test_physx_callable_math_is_kernel_and_export_guard_is_portable() -> None:
    # StavFaran92/OpenGL-demo-app vendors PhysX: PX_CUDA_CALLABLE expands to __host__ __device__
    # under nvcc (kernel code by cuda.callable-macro), while the config header's guard that
    # keeps nvcc out of the DLL export is the non-CUDA path.
    callable_math = b"""\
PX_CUDA_CALLABLE PX_FORCE_INLINE float recip(float a)
{
    return 1.0f / a;
}
"""
    assert _layers("foundation/PxMathIntrinsics.h", callable_math) == {"kernel": 4}
    export_guard = b"""\
#if (PX_WINDOWS_FAMILY || PX_XBOXONE) && !defined(__CUDACC__)
    #define PX_FOUNDATION_API __declspec(dllexport)
#else
    #define PX_FOUNDATION_API
#endif
"""
    assert _layers("foundation/PxFoundationConfig.h", export_guard) == {"portable": 5}


def test_kokkos_reduce_lambda_with_several_results_is_kernel_code() -> None:
    # jeongbhin/HOW-MHD-Kokkos src/tstep.cpp: a parallel_reduce whose KOKKOS_LAMBDA spans its
    # parameter lines and reduces three maxima; the host code around it stays portable.
    source = b"""\
void tstep(Kokkos::View<double***> q, double& ax, double& ay) {
    Kokkos::parallel_reduce(
        "cfl",
        Kokkos::RangePolicy<>(0, 64),
        KOKKOS_LAMBDA(const int i,
                      double& mx,
                      double& my) {
            const double rho = q(0, i, 0);
            mx = fmax(mx, fabs(q(1, i, 0) / rho));
            my = fmax(my, fabs(q(2, i, 0) / rho));
        },
        Kokkos::Max<double>(ax),
        Kokkos::Max<double>(ay));
    Kokkos::fence();
}
"""
    assert _rules("src/tstep.cpp", source) == {"portable-gpu.device-lambda"}
    assert _layers("src/tstep.cpp", source) == {"kernel": 7, "portable": 8}
