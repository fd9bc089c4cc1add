"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-m).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 426-433 and every one had a snapshot, so none was skipped:
TheVoidIntent/particle-dance-symbiosis, kakaduu/hashcat (a Laravel site, not the password
cracker), dbusrepo/web-cg-webgpu-0, ReetBarik/kokkos-extended-precision-demo, jcuda/jcudnn,
mdolab/pyoptsparse, BasisResearch/collab-splats and ISI-apex/halide-sar-app. Fifteen files of
each were sampled with ``random.Random("owner/name")`` over every file lockin counts with code
lines, and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10); three commits touching GPU code per repository,
drawn with ``random.Random("owner/name:commits")``, were judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- BasisResearch/collab-splats: Gaussian splats of animal collectives, on nerfstudio's gsplat --


def test_collab_splats_ops_imported_from_gsplat_cuda_are_vendor_library() -> None:
    # collab_splats/models/rade_gs_model.py (sampled) and rade_features_model.py (GPU-looking
    # extra): the model calls gsplat's CUDA op bindings (gsplat.cuda._wrapper) directly, beside
    # its front end. Before, both files were portable.
    source = b"""\
import torch
from gsplat.rendering import rasterization
from gsplat.strategy import DefaultStrategy
from gsplat.cuda._wrapper import fully_fused_projection


def project(means, quats, scales, viewmats, Ks, width, height):
    radii, means2d, depths, conics, comp = fully_fused_projection(
        means, None, quats, scales, viewmats, Ks, width, height
    )
    return radii, means2d, depths
"""
    assert _rules("collab_splats/models/rade_gs_model.py", source) == {"cuda-libs.python-extension"}
    assert _layers("collab_splats/models/rade_gs_model.py", source) == {
        "vendor-library": 1,
        "portable": 8,
    }


def test_collab_splats_gsplat_front_end_alone_stays_portable() -> None:
    # The same models' rasterization and densification strategy: gsplat's front end, judged by
    # the calls it makes, not by the import (checked right before and after the fix).
    source = b"""\
from gsplat.rendering import rasterization
from gsplat.strategy import DefaultStrategy

strategy = DefaultStrategy(refine_every=100)


def render(means, quats, scales, opacities, colors, viewmats, Ks, w, h):
    return rasterization(means, quats, scales, opacities, colors, viewmats, Ks, w, h)
"""
    assert _layers("collab_splats/models/base_model.py", source) == {"portable": 5}


def test_collab_splats_cpu_only_setup_stays_portable() -> None:
    # setup_nocuda.sh (sampled, checked right): installs the CPU wheels of PyTorch and builds
    # the package with its CUDA extension switched off.
    source = b"""\
#!/bin/bash
pip install torch==2.1.2+cpu torchvision==0.16.2+cpu --extra-index-url https://download.pytorch.org/whl/cpu
BUILD_NO_CUDA=1 FORCE_CUDA=0 pip install --no-build-isolation -e ".[dev]"
"""
    assert _layers("setup_nocuda.sh", source) == {"portable": 2}


# -- ISI-apex/halide-sar-app: synthetic-aperture radar back-projection in Halide ----------------


def test_halide_sar_cuda_feature_of_a_halide_library_is_vendor_path() -> None:
    # CMakeLists.txt (GPU-looking extra): the GPU schedule of the back-projection generator is
    # built as a second library with Halide's cuda feature; the CPU one beside it is portable.
    # Before, the file was portable.
    source = b"""\
add_executable(backprojection.generator backprojection.cpp)
target_link_libraries(backprojection.generator PRIVATE Halide::Generator)
add_halide_library(backprojection FROM backprojection.generator
                                  FEATURES c_plus_plus_name_mangling large_buffers
                                  PARAMS schedule=cpu)
add_halide_library(backprojection_cuda FROM backprojection.generator
                                       FEATURES c_plus_plus_name_mangling
                                                large_buffers
                                                cuda
                                       PARAMS schedule=gpu
                                              blocksize_gpu_tile=16)
"""
    assert _rules("CMakeLists.txt", source) == {"build.halide-cuda-feature"}
    assert _layers("CMakeLists.txt", source) == {"vendor-path": 1, "portable": 10}


def test_halide_sar_gpu_schedule_in_the_generator_stays_portable() -> None:
    # backprojection.cpp (GPU-looking extra, checked right): the generator's GPU schedule uses
    # Halide's own gpu_tile; which GPU it runs on is the build's target, not this code's.
    source = b"""\
if (!target.has_gpu_feature()) {
    throw std::runtime_error("GPU schedules require GPU feature");
}
output.gpu_tile(x, y, xo, yo, xi, yi, blocksize_gpu_tile, blocksize_gpu_tile);
"""
    assert _layers("backprojection.cpp", source) == {"portable": 4}


# -- jcuda/jcudnn: Java bindings of cuDNN -------------------------------------------------------


def test_jcudnn_enum_classes_of_the_binding_package_are_vendor_library() -> None:
    # JCudnnJava/src/main/java/jcuda/jcudnn/cudnnMathType.java (sampled, and 94 more like it):
    # the cuDNN binding's constants, in JCuda's j-prefixed package. Before, they were non-portable
    # already but vendor-path (cuda.managed-backend); the settled reading of a package binding
    # cuDNN is vendor-library.
    source = b"""\
package jcuda.jcudnn;

public class cudnnMathType
{
    public static final int CUDNN_DEFAULT_MATH = 0;
    public static final int CUDNN_TENSOR_OP_MATH = 1;

    public static String stringFor(int n)
    {
        switch (n)
        {
            case CUDNN_DEFAULT_MATH: return "CUDNN_DEFAULT_MATH";
            case CUDNN_TENSOR_OP_MATH: return "CUDNN_TENSOR_OP_MATH";
        }
        return "INVALID cudnnMathType: " + n;
    }
}
"""
    assert "cuda.managed-library-module" in _rules("cudnnMathType.java", source)
    assert _layers("cudnnMathType.java", source) == {"vendor-library": 15}


# -- ReetBarik/kokkos-extended-precision-demo: double-double and quad-float on Kokkos ----------


def test_kokkos_precision_demo_device_lambda_is_kernel_code() -> None:
    # tests/dd_invariant_test.cpp (sampled, checked right): the device half of the test runs
    # each operation in a Kokkos parallel_for; its lambda is the kernel, the launch around it
    # is host code.
    source = b"""\
template <class Op>
void device_unary(int n, Op op, View1D dx, View1D dhi, View1D dlo) {
  Kokkos::parallel_for("dd_inv_dev_unary", Kokkos::RangePolicy<exec_space>(0, n),
    KOKKOS_LAMBDA(int i) {
      dd::DoubleDouble d = op(dd::DoubleDouble(dx(i)));
      dhi(i) = d.hi; dlo(i) = d.lo;
    });
  Kokkos::fence();
}
"""
    assert _rules("tests/dd_invariant_test.cpp", source) == {"portable-gpu.device-lambda"}
    assert _layers("tests/dd_invariant_test.cpp", source) == {"kernel": 4, "portable": 5}


def test_kokkos_precision_demo_host_math_stays_portable() -> None:
    # src/bench_cost.cpp (sampled, checked right): Kokkos's math functions called on the host
    # in a timing loop, with no parallel dispatch.
    source = b"""\
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  for (int i = 0; i < n; ++i) {
    acc += Kokkos::sqrt(da[i]) + Kokkos::exp(da[i] * 0.01);
  }
  Kokkos::finalize();
}
"""
    assert _layers("src/bench_cost.cpp", source) == {"portable": 7}
