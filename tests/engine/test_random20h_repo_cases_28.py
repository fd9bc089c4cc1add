"""Cases from repositories drawn at random from a fixed GPU sub-pool (issue 27, lane h56-random-h).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")`` before anyone read it, from its position 253 on, that hold a
GPU term by the written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text
only, so some are no GPU code at all). This lane took sub-pool positions 169-175. One was
skipped: ROCm/rocm-libraries (174), whose snapshot (821 MB) is over the size limit of a fetch.
Read were chrismauzey/pycudaDWT (1D and 2D discrete wavelet transforms on PyCUDA: two .cu
kernel files filled in with ``string.Template`` before ``SourceModule`` builds them, a host
class and two benchmark scripts), metal-messiah/mtn-rest-service (a Spring Boot REST service in
Java with SQL migrations, no GPU code), camdennis/pyCudaPolygon (a polygon packing simulation:
CUDA kernels in a .cuh header, host launchers with CUB reductions and cuSOLVER in .cu and .cpp
files, a pybind11 module, Python mixins, Jupyter and Mathematica notebooks), pymergetic/metal
(a bare-metal WebAssembly runtime in C and shell with UEFI, BIOS, Linux and Zephyr ports,
"metal" as in bare metal, no GPU code), Cudael/quiz (a Next.js quiz platform in TypeScript
whose seed data asks trivia about GPUs, no GPU code) and MrMetube/raytracer (CPU ray tracers in
Java and Odin, the Java "shaders" being CPU shading classes, no GPU code). Fifteen files of
each repository were sampled with ``random.Random("owner/name")`` over every file lockin counts
(pycudaDWT has five) and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, files outside the
sample that hold kernel lines counted by hand (up to 5 a repository), and up to three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Every verdict read was right before any fix, so the tests below pin verdicts worth keeping.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- chrismauzey/pycudaDWT: PyCUDA host code and templated .cu kernels ----------------------


def test_templated_cuda_kernel_file_counts_its_device_code_as_kernel() -> None:
    # dwt_kernels.cu and idwt_kernels.cu (sampled, already right: hand 89 and 114 kernel
    # lines, lockin 89 and 114): CUDA kernels with ``$name`` placeholders that Python fills in
    # before compiling; the include guard and the templated typedef stay portable.
    source = b"""\
#ifndef HAAR_STEP_CU
#define HAAR_STEP_CU

#define TAPS $taps

typedef $scalar REAL;

__device__ inline int wrap_index(int i, int n)
{
    int j = i % n;
    return j < 0 ? j + n : j;
}

__global__ void
split_rows(const REAL* src, REAL* low, REAL* high, int rows, int cols)
{
    extern __shared__ REAL tile[];
    REAL lo_taps[TAPS] = $lo_taps;
    REAL hi_taps[TAPS] = $hi_taps;

    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y >= rows) return;

    tile[threadIdx.x] = src[y * cols + wrap_index(2 * x, cols)];
    __syncthreads();

    REAL a = 0, d = 0;
    for (int k = 0; k < TAPS; ++k) {
        REAL v = src[y * cols + wrap_index(2 * x + k, cols)];
        a += v * lo_taps[k];
        d += v * hi_taps[k];
    }
    low[y * (cols / 2) + x] = a;
    high[y * (cols / 2) + x] = d;
}

#endif
"""
    path = "haar_step.cu"
    assert _rules(path, source) == {"cuda.device-function", "cuda.kernel"}
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "portable"}
    assert 23 <= layers["kernel"] <= 27


def test_pycuda_host_class_building_a_source_module_is_vendor_path() -> None:
    # pycudaDWT.py (sampled, already right): reads the kernel file, fills the template,
    # builds it with SourceModule, sets the cache preference and moves arrays through
    # gpuarray; every PyCUDA call is an edit for another vendor, the numpy code is portable.
    source = b"""\
import os
import string

import numpy as np
import pycuda.driver as drv
import pycuda.gpuarray as garray
from pycuda.compiler import SourceModule


class GpuHaar:
    def __init__(self, taps):
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "haar_step.cu")) as fh:
            text = string.Template(fh.read()).substitute(taps=str(len(taps)), scalar="float")
        module = SourceModule(text, options=["-O3", "-lineinfo"])
        self._rows = module.get_function("split_rows")
        self._rows.set_cache_config(drv.func_cache.PREFER_SHARED)

    def forward(self, values, keep_on_device=False, alloc=drv.mem_alloc):
        if isinstance(values, np.ndarray):
            values = garray.to_gpu(np.ascontiguousarray(values, dtype=np.float32))
        low = garray.GPUArray(values.shape, dtype=np.float32, allocator=alloc)
        high = garray.GPUArray(values.shape, dtype=np.float32, allocator=alloc)
        self._rows(values, low, high, np.int32(values.shape[0]), np.int32(values.shape[1]),
                   block=(32, 8, 1), grid=(4, 4), shared=4096)
        if keep_on_device:
            return low, high
        return low.get(), high.get()
"""
    path = "haar.py"
    assert _rules(path, source) == {"pycuda.driver", "pycuda.host-api"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_pycuda_benchmark_script_with_a_device_memory_pool_is_vendor_path() -> None:
    # tests/test1d.py and tests/test2d.py (sampled, already right): make a context on the
    # chosen device, allocate through PyCUDA's DeviceMemoryPool, time the transform.
    source = b"""\
import argparse
import time

import numpy as np
import pycuda.driver as drv
import pycuda.gpuarray as garray
from pycuda.tools import DeviceMemoryPool

from haar import GpuHaar


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", type=int, default=0)
    args = parser.parse_args()
    drv.init()
    ctx = drv.Device(args.device).make_context()
    pool = DeviceMemoryPool()
    try:
        data = np.random.rand(512, 512).astype(np.float32)
        step = GpuHaar([0.5, 0.5])
        t0 = time.time()
        step.forward(garray.to_gpu(data), alloc=pool.allocate)
        print("took", time.time() - t0)
    finally:
        pool.free_held()
        ctx.pop()


if __name__ == "__main__":
    main()
"""
    path = "tests/bench_haar.py"
    assert _rules(path, source) == {"pycuda.driver", "pycuda.host-api"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


# -- camdennis/pyCudaPolygon: CUDA kernels, CUB and cuSOLVER host code, pybind11 -----------


def test_cuda_host_file_with_cub_reduction_and_a_host_device_functor() -> None:
    # src/model.cu (sampled, already right: hand 2 kernel lines, lockin 2): host launchers
    # with <<<>>> and cudaMalloc/cudaMemcpy (vendor-path), CUB device reductions over a
    # transform iterator (vendor-library) and a __host__ __device__ functor (kernel).
    source = b"""\
#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include "kernels.cuh"
#include "check.h"

struct Magnitude {
    __host__ __device__ double operator()(double v) const { return v < 0 ? -v : v; }
};

extern "C" void launchScale(double* data, double factor, int n) {
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    scaleKernel<<<blocks, threads>>>(data, factor, n);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());
}

double largestMagnitude(double* d_values, int n) {
    cub::TransformInputIterator<double, Magnitude, double*> it(d_values, Magnitude{});
    double* d_out = nullptr;
    void* scratch = nullptr;
    size_t scratch_bytes = 0;
    CHECK(cudaMalloc(&d_out, sizeof(double)));
    CHECK(cub::DeviceReduce::Max(scratch, scratch_bytes, it, d_out, n));
    CHECK(cudaMalloc(&scratch, scratch_bytes));
    CHECK(cub::DeviceReduce::Max(scratch, scratch_bytes, it, d_out, n));
    double host = 0;
    CHECK(cudaMemcpy(&host, d_out, sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(scratch));
    CHECK(cudaFree(d_out));
    return host;
}
"""
    path = "src/sim.cu"
    assert _rules(path, source) == {
        "cub.call",
        "cuda.device-function",
        "cuda.include",
        "cuda.launch",
        "cuda.runtime",
    }
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "vendor-library", "vendor-path", "portable"}
    assert layers["kernel"] == 1


def test_error_check_macros_for_cuda_and_cusolver_split_by_library() -> None:
    # src/cuda_check.h (non-portable list, already right): a CUDA runtime check macro is
    # vendor-path, the cuSOLVER status macro is vendor-library.
    source = b"""\
#pragma once
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(expr)                                                     \\
    do {                                                                \\
        cudaError_t rc_ = (expr);                                       \\
        if (rc_ != cudaSuccess) {                                       \\
            fprintf(stderr, "%s:%d %s\\n", __FILE__, __LINE__,          \\
                    cudaGetErrorString(rc_));                           \\
            abort();                                                    \\
        }                                                               \\
    } while (0)

#define CHECK_SOLVER(expr)                                              \\
    do {                                                                \\
        cusolverStatus_t st_ = (expr);                                  \\
        if (st_ != CUSOLVER_STATUS_SUCCESS) {                           \\
            fprintf(stderr, "solver failed %d\\n", (int)st_);            \\
            abort();                                                    \\
        }                                                               \\
    } while (0)
"""
    path = "src/check.h"
    assert _rules(path, source) == {"cuda-libs.call", "cuda.include", "cuda.runtime"}
    assert set(_layers(path, source)) == {"vendor-library", "vendor-path", "portable"}


def test_pybind_module_including_cufft_is_vendor_library_on_that_line_only() -> None:
    # src/pybindWrapper.cpp (non-portable list, already right): the bindings are portable
    # C++; the one cuFFT include is a line a port must change.
    source = b"""\
#include <pybind11/pybind11.h>
#include <pybind11/numpy.h>
#include "sim.hpp"
#include <cufft.h>
#include <vector>

namespace py = pybind11;

PYBIND11_MODULE(libsim, m) {
    py::class_<Sim>(m, "Sim")
        .def(py::init<int>())
        .def("step", &Sim::step)
        .def("positions", &Sim::positions);
}
"""
    path = "src/bind.cpp"
    assert _rules(path, source) == {"cuda-libs.call"}
    assert _layers(path, source) == {"vendor-library": 1, "portable": 11}


def test_cmake_project_with_cuda_language_and_gencode_flags_is_vendor_path() -> None:
    # CMakeLists.txt (non-portable list, already right): CUDA as a project language, fixed
    # architectures and -gencode flags, CUDA::cusolver linked.
    source = b"""\
cmake_minimum_required(VERSION 3.18)
project(libsim LANGUAGES CXX CUDA)

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CUDA_ARCHITECTURES 75)
set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -gencode arch=compute_75,code=sm_75")

find_package(pybind11 REQUIRED)
find_package(CUDAToolkit REQUIRED)

pybind11_add_module(libsim src/bind.cpp src/sim.cpp src/sim.cu)
target_link_libraries(libsim PUBLIC CUDA::cudart CUDA::cusolver)
set_target_properties(libsim PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
"""
    path = "CMakeLists.txt"
    assert _rules(path, source) == {"build.cmake-cuda"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_notebook_importing_a_project_module_named_after_cuda_is_portable() -> None:
    # tests/*.ipynb (sampled and GPU-looking, already right): the notebooks drive the
    # project's own module, whose name holds "Cuda"; no CUDA call is made in them.
    source = b"""\
{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": 1,
   "metadata": {},
   "outputs": [],
   "source": [
    "import sys\\n",
    "sys.path.append('../pyCudaShapes')\\n",
    "from pyCudaShapes import pyCudaShapes as pcs\\n",
    "import numpy as np\\n",
    "sim = pcs.Shapes(numShapes=64)\\n",
    "sim.relax(steps=1000)\\n",
    "np.save('relaxed.npy', sim.getPositions())"
   ]
  }
 ],
 "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
"""
    path = "tests/relax.ipynb"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- pymergetic/metal: a bare-metal runtime, "metal" with no GPU ---------------------------


def test_bare_metal_boot_code_under_a_metal_namespace_is_portable() -> None:
    # src/efi/.../boot_init.c and the sampled headers (already right): "metal" in the
    # include paths and function names means bare metal, not Apple's Metal API.
    source = b"""\
#include <stdint.h>
#include "pymergetic/metal/boot/boot.h"
#include "pymergetic/metal/util/arena.h"

static uint8_t boot_arena_mem[64 * 1024];

int metal_boot_init(struct metal_boot_info *info)
{
    struct metal_arena arena;
    metal_arena_init(&arena, boot_arena_mem, sizeof boot_arena_mem);
    if (!info || !info->framebuffer)
        return -1;
    info->heap = metal_arena_alloc(&arena, 4096);
    return info->heap ? 0 : -2;
}
"""
    path = "src/pymergetic/metal/boot/boot_init.c"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- Cudael/quiz: trivia about GPUs in TypeScript seed data --------------------------------


def test_quiz_seed_data_asking_about_gpus_and_cuda_cores_is_portable() -> None:
    # scripts/seed-technology-quizzes.ts (sampled, already right): questions and answers
    # that name GPUs, NVIDIA and CUDA cores are prose in strings, not code on a vendor.
    source = b"""\
export const hardwareQuiz = {
  title: 'Inside your gaming PC',
  tags: ['gpu', 'hardware', 'cuda cores'],
  questions: [
    {
      prompt: 'What does "GPU" stand for?',
      choices: [choice('Graphics Processing Unit', true), choice('General Power Unit', false)],
      explanation: 'A GPU runs thousands of small cores; NVIDIA calls them CUDA cores.',
    },
    {
      prompt: 'Which company sells the Radeon line of graphics cards?',
      choices: [choice('AMD', true), choice('NVIDIA', false)],
    },
  ],
};
"""
    path = "scripts/seed-hardware-quizzes.ts"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- MrMetube/raytracer: CPU "shaders" in Java, raylib in Odin -----------------------------


def test_java_cpu_shading_class_named_shader_is_portable() -> None:
    # java/src/shader/*.java (sampled and GPU-looking, already right): Phong and diffuse
    # terms computed on the CPU per ray hit; the word "shader" names a Java interface.
    source = b"""\
package shader;

import math.Vector;
import raytracer.Hit;
import raytracer.Light;

public class Phong implements Shader {
    private final double shininess;

    public Phong(double shininess) {
        this.shininess = shininess;
    }

    @Override
    public Vector shade(Hit hit, Light light, Vector toEye) {
        Vector toLight = light.position.sub(hit.point).normalize();
        Vector mirrored = hit.normal.scale(2 * hit.normal.dot(toLight)).sub(toLight);
        double spec = Math.pow(Math.max(0, mirrored.dot(toEye)), shininess);
        return light.color.scale(spec);
    }
}
"""
    path = "java/src/shader/Phong.java"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_odin_program_drawing_through_raylib_is_portable() -> None:
    # RaytracerInAWeekend/code/main.odin (GPU-looking, already right): a window and a
    # texture through Odin's vendor:raylib binding; raylib draws through OpenGL, portable.
    source = b"""\
package main

import rl "vendor:raylib"

main :: proc() {
	rl.InitWindow(640, 360, "tracer")
	defer rl.CloseWindow()
	image := rl.GenImageColor(640, 360, rl.BLACK)
	texture := rl.LoadTextureFromImage(image)
	for !rl.WindowShouldClose() {
		rl.BeginDrawing()
		rl.DrawTexture(texture, 0, 0, rl.WHITE)
		rl.EndDrawing()
	}
}
"""
    path = "RaytracerInAWeekend/code/main.odin"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
