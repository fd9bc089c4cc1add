"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h53-random-k).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 1043-1049 and skipped none. Read were
MarcusTL12/SpinAdaptedSecondQuantization.jl (a Julia library for second quantization
algebra, no GPU code), ROCm/clr (AMD's HIP and OpenCL runtimes with the ocltst OpenCL test
suite, whose kernels sit in C strings), Jack-GVDL/RayTracer (a ray tracer in C++ and CUDA
with a Python front end), gtauzin/metaLBM (a lattice-Boltzmann solver whose kernels are
marked with the project's own LBM_GLOBAL/LBM_DEVICE macros), kewlbear/TensorFlowLiteC (a
Swift package of TensorFlow Lite's C library with its Core ML and Metal delegates),
zmrlft/read-frog-ollama (a TypeScript browser extension, no GPU code) and onnx/models (the
ONNX model zoo, one turnkey_stats.yaml benchmark record per model). The onnx/models snapshot
was checked out without its model files (Git LFS), which lockin does not count. Fifteen files
of each repository (all fourteen of TensorFlowLiteC) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/clr: a formatter's wrapping leaves each kernel line's newline on a line of its own --


def test_opencl_kernel_wrapped_in_two_literals_a_line_counts_every_line() -> None:
    # opencl/tests/ocltst/module/runtime/OCLBufferFromImage.cpp: clang-format padded each
    # program line's text out to the column and moved its `\n` to a literal on the next line.
    source = b"""\
static const char kSource[] =
    "__kernel void scale(__global float* v)                     "
    "        \\n"
    "{                                                          "
    "        \\n"
    "    v[get_global_id(0)] *= 2.0f;                           "
    "        \\n"
    "}                                                          "
    "        \\n";

int main() { return 0; }
"""
    path = "tests/scale_test.cpp"
    assert _rules(path, source) == {"opencl.source-string"}
    assert _layers(path, source) == {"kernel": 8, "portable": 2}


def test_opencl_kernel_blank_program_line_in_its_own_literal_stays_uncounted() -> None:
    # A literal of blanks after one that ended its program line is a blank program line.
    source = b"""\
static const char kSource[] =
    "__kernel void scale(__global float* v)\\n"
    "        \\n"
    "{\\n"
    "    v[get_global_id(0)] *= 2.0f;\\n"
    "}\\n";
"""
    path = "tests/scale_test.cpp"
    assert _rules(path, source) == {"opencl.source-string"}
    assert _layers(path, source) == {"kernel": 4, "portable": 2}


# -- onnx/models: a benchmark's record of the machine it ran on ----------------------------------


def test_benchmark_record_of_installed_packages_is_portable() -> None:
    # Computer_Vision/*/turnkey_stats.yaml: TurnkeyML writes the run machine's installed
    # packages, torch's nvidia-*-cu12 wheels among them, under `Python Packages:`.
    source = b"""\
model_name: convnet_small
runtime: ort
system_info:
  OS Version: Linux-6.1-x86_64
  Python Packages:
  - numpy==1.26.0
  - nvidia-cublas-cu12==12.1.3.1
  - nvidia-cudnn-cu12==8.9.2.26
  - torch==2.1.0
"""
    path = "vision/convnet_small/turnkey_stats.yaml"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 9}


def test_requirement_list_of_cuda_wheels_still_counts() -> None:
    source = b"""\
dependencies:
  - pip:
    - nvidia-cudnn-cu12==8.9.2.26
    - numpy
"""
    path = "environment.yml"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


# -- verdicts already right, pinned ------------------------------------------------------------


def test_kernels_under_project_macro_count_by_thread_indices() -> None:
    # gtauzin/metaLBM include/metaLBM/Computation.cuh: templated kernels marked with the
    # project's own macro for __global__, found by their thread indices, launched with <<<>>>.
    source = b"""\
namespace sim {
template <typename F>
SIM_KERNEL
void sweep(const int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    f(i);
  }
}

template <typename F>
void run(int n, F f) {
  sweep<<<(n + 127) / 128, 128>>>(n, f);
  CHECK(cudaGetLastError());
}
}
"""
    path = "include/sim/Sweep.cuh"
    assert _rules(path, source) == {"cuda.device-body", "cuda.launch", "cuda.runtime"}
    layers = _layers(path, source)
    assert layers["kernel"] == 8


def test_host_only_declarations_in_a_cuda_header_are_portable() -> None:
    # Jack-GVDL/RayTracer CUDA/RIAS/inc/RayTracer_RIAS_Octree.cuh: __host__ prototypes only.
    source = b"""\
#pragma once
class Grid {
 public:
  __host__ Grid();
  __host__ ~Grid();
  __host__ int load(const float* pts, int n);
};
"""
    path = "src/grid/Grid.cuh"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


def test_device_methods_declared_in_a_class_are_kernel() -> None:
    # Jack-GVDL/RayTracer CUDA/Material/inc/RayTracer_Texture.cuh: __device__ members.
    source = b"""\
class Shade {
 public:
  __device__ Shade();
  __device__ void sample(float* out, const float* uv) const;
  __device__ virtual void store(const float* uv) = 0;
};
"""
    path = "src/shade/Shade.cuh"
    assert _rules(path, source) == {"cuda.device-function"}
    assert _layers(path, source) == {"kernel": 3, "portable": 3}


# -- Jack-GVDL/RayTracer: an exported C API whose return types are macro calls ---------------


def test_header_of_export_macro_declarations_is_no_instantiation_unit() -> None:
    # CUDA/Dynamic/inc/RayTracer_Dynamic.cuh: every line `EXPORT_DLL(int) Name(args);`, the
    # C API a Python front end loads; nothing in it is CUDA.
    source = b"""\
#ifndef SCENE_API_CUH
#define SCENE_API_CUH
#include "scene.cuh"
LIB_EXPORT(void) Scene_open(void);
LIB_EXPORT(int)  Scene_add_sphere(double *center, double radius);
LIB_EXPORT(int)  Scene_render (int camera, void *pixels, int w, int h);
#endif
"""
    path = "src/api/scene_api.cuh"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


def test_unit_of_instantiation_macro_calls_still_counts() -> None:
    source = b"""\
#include "ops/reduce.cuh"
REDUCE_INSTANCE(float, 256);
REDUCE_INSTANCE(double, 128);
"""
    path = "src/ops/reduce_f32.cu"
    assert _rules(path, source) == {"cuda.macro-instantiation-unit"}
    assert _layers(path, source) == {"vendor-path": 3}
