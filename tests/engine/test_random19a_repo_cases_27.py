"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-a).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 197-203. Two were skipped: VNG-Realisatie/GEMMA-kenniswerkplek
(197) and petsplatform/phase-1 (203) had no snapshot to fetch. Read were hippieZhou/Attention.UWP
(a Windows UWP photo browser in C# and XAML, its tilt and header effects on the Windows
Composition API, no GPU code), nikitinvv/holotomocupy (holotomography reconstruction on CuPy:
Python modules and notebooks on cupy arrays, CUDA C kernels in cp.RawKernel strings, a cuFFTDx
convolution in a .cu file and a device-side IO header that a Python module compiles with nvcc at
run time, MPI launch scripts that bind ranks to GPUs with CUDA_VISIBLE_DEVICES),
megatron10/codeforces (a few hundred C++ solutions of Codeforces problems with their statements,
no GPU code), neuralfog/elemix (a TypeScript web component framework with its compiler, SSR
plugin and server, no GPU code) and alexblanche/raytracer_project (a CPU path tracer in C++26
drawing through SDL2, no GPU code). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Every verdict read was right before any fix, so the tests below
pin verdicts worth keeping. Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- hippieZhou/Attention.UWP: Windows Composition effects in a UWP app ---------------------


def test_uwp_composition_visual_animation_is_portable() -> None:
    # src/Attention.UWP/Behaviors/ElementTiltBehavior.cs (sampled, already right): a XAML
    # behaviour takes the element's composition Visual and animates it; the compositor is the
    # operating system's, with no vendor's device code behind it.
    source = b"""\
using System.Numerics;
using Windows.UI.Composition;
using Windows.UI.Xaml;
using Windows.UI.Xaml.Hosting;

namespace App.Behaviors
{
    public class TiltBehavior
    {
        private Visual visual;
        private Compositor compositor;

        public void Attach(UIElement element)
        {
            visual = ElementCompositionPreview.GetElementVisual(element);
            compositor = visual.Compositor;
            visual.CenterPoint = new Vector3(50f, 50f, 0f);
            var spring = compositor.CreateSpringVector3Animation();
            spring.FinalValue = new Vector3(1f, 1f, 1f);
            visual.StartAnimation("Scale", spring);
        }
    }
}
"""
    path = "src/App/Behaviors/TiltBehavior.cs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- nikitinvv/holotomocupy: CuPy, RawKernel strings, cuFFTDx, MPI launch scripts -----------


def test_pbs_job_naming_an_a100_log_and_an_affinity_wrapper_is_portable() -> None:
    # experimental/performance_tests/prun.sh (sampled, already right): a PBS job whose log
    # file name mentions the A100 nodes and whose mpiexec line runs a GPU-affinity wrapper
    # script; the wrapper is counted where it is, the job script sets nothing of CUDA's.
    source = b"""\
#!/bin/bash
#PBS -l select=16:system=polaris
#PBS -l walltime=01:00:00
#PBS -o run_16nodes_A100.o
#PBS -j oe
cd $PBS_O_WORKDIR
NNODES=`wc -l < $PBS_NODEFILE`
NRANKS=4
NTOTRANKS=$(( NNODES * NRANKS ))
mpiexec -n ${NTOTRANKS} --ppn ${NRANKS} --cpu-bind depth ./gpu_affinity.sh python solve.py run.conf
"""
    path = "jobs/submit.sh"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_rank_binding_wrapper_setting_cuda_visible_devices_is_vendor_path() -> None:
    # tests/bind.sh and its copies (sampled, already right, 3 lines each): the GPU count from
    # nvidia-smi and CUDA_VISIBLE_DEVICES set from the local MPI rank.
    source = b"""\
#!/bin/bash
count=$(nvidia-smi -L | wc -l)
local_rank="${OMPI_COMM_WORLD_LOCAL_RANK:-$SLURM_LOCALID}"
export OMP_NUM_THREADS=4
export CUDA_VISIBLE_DEVICES=$(( local_rank % count ))
echo "rank $local_rank sees device $CUDA_VISIBLE_DEVICES"
exec "$@"
"""
    path = "jobs/gpu_affinity.sh"
    assert _rules(path, source) == {"build.nvcc", "env.cuda-variables"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 3}


def test_cupy_raw_kernel_string_counts_its_cuda_lines_as_kernel() -> None:
    # src/holotomocupy/cuda_kernels.py (an extra kernel file, hand about 600 CUDA code lines,
    # lockin 660): CUDA C in cp.RawKernel strings is kernel code; the Python around it, and
    # the blank and comment lines of the string, stay with the CuPy call (vendor-path).
    source = b'''\
import cupy as cp

scale_kernel = cp.RawKernel(
    r"""
extern "C" __global__ void scale(float2* out, const float2* in, float s, int n)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;

    // one element per thread
    if (i >= n) return;
    out[i] = make_float2(s * in[i].x, s * in[i].y);
}
""",
    "scale",
)
'''
    path = "pkg/kernels.py"
    assert _rules(path, source) == {"cupy.api", "cupy.raw-kernel"}
    assert _layers(path, source) == {"kernel": 9, "vendor-path": 5}


def test_cufftdx_device_io_header_is_kernel_with_its_library_include() -> None:
    # src/holotomocupy/cuda/io_2d_conv_smem.hpp (an extra kernel file, hand 89, lockin 89):
    # __device__ members moving FFT data between global and shared memory are kernel code;
    # the cuFFTDx include is NVIDIA's library; the template scaffolding is portable.
    source = b"""\
#pragma once
#include <cufftdx.hpp>

namespace io {

template<class FFT>
struct smem_loader {
    using vt = typename FFT::value_type;

    __device__ __forceinline__ void load(const vt* g, vt* s) const {
        const int tid = threadIdx.x + threadIdx.y * blockDim.x;
#pragma unroll
        for (int i = 0; i < FFT::input_ept; ++i) {
            s[tid + i * FFT::stride] = g[blockIdx.x * FFT::input_length + tid + i * FFT::stride];
        }
        __syncthreads();
    }
};

}  // namespace io
"""
    path = "src/pkg/cuda/smem_io.hpp"
    assert _rules(path, source) == {"cuda-libs.call", "cuda.device-function"}
    assert _layers(path, source) == {"kernel": 8, "vendor-library": 1, "portable": 7}


def test_python_module_running_nvcc_for_a_shared_library_is_vendor_path() -> None:
    # src/holotomocupy/conv2d_cufftdx.py (a non-portable file, already right): the .cu source
    # is compiled at run time by nvcc for one SM architecture and loaded with ctypes.
    source = b"""\
import os
import subprocess

NVCC = os.environ.get("NVCC", "nvcc")
SM = os.environ.get("FFT_SM", "80")


def build(src, out, nx):
    r = subprocess.run([
        NVCC, "-O3", f"-arch=sm_{SM}", "-Xcompiler", "-fPIC", "-shared",
        f"-DNX={nx}", str(src), "-o", str(out),
    ], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)
"""
    path = "src/pkg/build_fft.py"
    assert _rules(path, source) == {"torch.nvcc-flags"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 9}


# -- megatron10/codeforces: competitive programming solutions -------------------------------


def test_contest_solution_with_gcc_optimize_pragma_is_portable() -> None:
    # 478-D/478-D-42860886.cpp (found by our grep for device signs, already right): GCC's
    # optimize pragma is a host compiler hint, nothing of a device.
    source = b"""\
#pragma GCC optimize ("Ofast")
#include <bits/stdc++.h>
using namespace std;

int main()
{
    ios::sync_with_stdio(false);
    int n; cin >> n;
    vector<long long> a(n);
    for (auto& x : a) cin >> x;
    sort(a.begin(), a.end());
    cout << a[n / 2] << "\\n";
    return 0;
}
"""
    path = "1234-C/1234-C-555.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- alexblanche/raytracer_project: a CPU path tracer drawing through SDL2 ------------------


def test_sdl_accelerated_renderer_presenting_a_cpu_image_is_portable() -> None:
    # src/screen/screen.cpp (already right): SDL's accelerated 2D renderer shows the image the
    # CPU traced; SDL picks the platform's back end, nothing is vendor device code.
    source = b"""\
#include "screen/screen.hpp"
#include <SDL.h>

screen::screen(int w, int h)
{
    SDL_Init(SDL_INIT_VIDEO);
    window = SDL_CreateWindow("render", 10, 10, w, h, SDL_WINDOW_ALLOW_HIGHDPI);
    renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED);
    texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGB24, SDL_TEXTUREACCESS_STREAMING, w, h);
}

void screen::present(const void* pixels, int pitch)
{
    SDL_UpdateTexture(texture, nullptr, pixels, pitch);
    SDL_RenderCopy(renderer, texture, nullptr, nullptr);
    SDL_RenderPresent(renderer);
}
"""
    path = "src/screen/screen.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_cmake_with_native_cpu_flags_and_sdl2_is_portable() -> None:
    # CMakeLists.txt (already right): -march=native tunes for the host CPU, SDL2 draws.
    source = b"""\
cmake_minimum_required(VERSION 3.20)
project(tracer)
add_compile_options(-O3 -ffast-math -march=native)
find_package(SDL2 REQUIRED)
include_directories(${SDL2_INCLUDE_DIRS})
file(GLOB_RECURSE SOURCES src/*.cpp)
add_executable(tracer ${SOURCES})
target_link_libraries(tracer ${SDL2_LIBRARIES} pthread)
"""
    path = "CMakeLists.txt"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
