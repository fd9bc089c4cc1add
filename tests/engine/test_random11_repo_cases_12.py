"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h39-random-k).

The pool is ``/work/pool-h39.txt``, ordered with ``random.seed("h39-pool")``; this lane took
positions 166-180. One was skipped: GPGPUCourse/GPGPUTasks2024 (its snapshot holds only a
README and a licence, no file lockin counts). Fifteen files of each remaining repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts, sorted by path, and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10); three commits touching GPU code per repository were drawn
with ``random.Random("owner/name:commits")`` and judged against ``lockin diff``. Each snippet
is a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- QianMo/GPU-Gems-Book-Source-Code: GPGPU and shading demos on NVIDIA's Cg runtime ----------


def test_gpu_gems_cg_runtime_host_code_is_vendor_library() -> None:
    # GPU Gems 2 ch. 31 pug.cpp: the GPGPU passes are Cg fragment programs created, loaded and
    # bound through cgGL. Before, the file was portable: no rule knew NVIDIA's Cg toolkit.
    source = b"""\
#include <GL/gl.h>
#include <Cg/cg.h>
#include <Cg/cgGL.h>

static CGcontext g_context;
static CGprofile g_profile;

void check_error(void) {
    CGerror err = cgGetError();
    if (err != CG_NO_ERROR) report(cgGetErrorString(err));
}

CGprogram load_pass(const char *file) {
    CGprogram prog = cgCreateProgramFromFile(g_context, CG_SOURCE, file, g_profile, "main", 0);
    cgGLLoadProgram(prog);
    return prog;
}

void run_pass(CGprogram prog, int w, int h) {
    cgGLBindProgram(prog);
    cgGLEnableProfile(g_profile);
    draw_quad(w, h);
    cgGLDisableProfile(g_profile);
}
"""
    assert _rules("src/shared/pug/pug.cpp", source) == {"cuda.cg-runtime"}
    layers = _layers("src/shared/pug/pug.cpp", source)
    assert layers["vendor-library"] == 13
    assert "kernel" not in layers


def test_gpu_gems_cg_d3d9_header_is_vendor_library() -> None:
    # Ch_19 Common/Common.h: the shared header pulls in Cg's Direct3D 9 runtime with its lib.
    source = b"""\
#pragma once
#include <windows.h>
#include <d3dx9.h>
#include <Cg/cgD3D9.h>
#pragma comment(lib, "cgD3D9.lib")
#include <vector>
struct Vertex { float x, y, z; };
"""
    assert _layers("Common/Common.h", source) == {"vendor-library": 1, "portable": 6}


def test_conjugate_gradient_cg_functions_stay_portable() -> None:
    # The negative: a solver's own cg* names, with no Cg header or Cg type in the file.
    source = b"""\
#include "solver.h"

int cgSetTolerance(Solver *s, double tol) { s->tol = tol; return 0; }
int cgGetIterations(const Solver *s) { return s->iterations; }
int solve(Solver *s) {
    cgSetTolerance(s, 1e-10);
    return cgGetIterations(s);
}
"""
    assert _layers("src/linalg/cg.c", source) == {"portable": 7}


# -- NVIDIA/open-gpu-kernel-modules: the kernel driver's own nv-prefixed helpers ---------------


def test_open_gpu_kernel_modules_nv_helpers_are_not_libdevice() -> None:
    # kernel-open/nvidia-drm/nvidia-drm-fence.c: plain kernel C whose static helpers are named
    # __nv_drm_*, and nv_list.h's __nv_container_of. Before, each enclosing function counted as
    # NVIDIA device code (708 kernel lines in this file alone).
    source = b"""\
static inline void __nv_drm_fence_signal(struct nv_drm_fence *f)
{
    list_del(&f->entry);
    dma_fence_signal(&f->base);
    dma_fence_put(&f->base);
}

static void force_signal(struct nv_drm_fence_ctx *ctx)
{
    while (!list_empty(&ctx->pending)) {
        struct nv_drm_fence *f = list_first_entry(&ctx->pending, typeof(*f), entry);
        __nv_drm_fence_signal(f);
    }
}

#define to_ctx(p) __nv_container_of(p, struct nv_drm_fence_ctx, base)
"""
    assert _layers("kernel-open/nvidia-drm/nvidia-drm-fence.c", source) == {"portable": 14}


def test_libdevice_math_with_rounding_suffix_stays_kernel() -> None:
    # The negative of the narrowing: libdevice's own names (one math word, an optional
    # rounding mode, the _as_ reinterpretations) still mark the caller as NVIDIA device code.
    source = b"""\
float lower_sin(float x) { return __nv_sinf(x); }
int lower_cvt(float x) { return __nv_float2int_rn(x); }
int lower_bits(float x) { return __nv_float_as_int(x); }
float lower_fast(float x) { return __nv_fast_expf(x); }
"""
    assert _rules("src/sscp/ptx/math.cpp", source) == {"cuda.libdevice-call"}
    assert _layers("src/sscp/ptx/math.cpp", source) == {"kernel": 4}


def test_open_gpu_kernel_modules_engine_count_is_not_nvenc() -> None:
    # src/nvidia/src/kernel/gpu/mig_mgr/kernel_mig_manager.c: nvEncCount is the number of video
    # encode engines a GPU instance gets, a field of the driver, not the Video Codec SDK.
    source = b"""\
static void assign_engines(KERNEL_MIG_GPU_INSTANCE *gi, NvU32 nvEncCount, NvU32 nvDecCount)
{
    gi->resourceAllocation.nvEncCount = nvEncCount;
    gi->resourceAllocation.nvDecCount = nvDecCount;
}
"""
    assert _layers("src/kernel/gpu/mig_mgr/kernel_mig_manager.c", source) == {"portable": 5}


def test_nvenc_entry_point_calls_stay_vendor_library() -> None:
    # The negative: an encoder calling NVENC through its function list is the SDK.
    source = b"""\
void Encoder::Open(void *device) {
    session_params.device = device;
    check(m_nvenc.nvEncOpenEncodeSessionEx(&session_params, &m_encoder));
    check(m_nvenc.nvEncGetEncodeGUIDCount(m_encoder, &m_guid_count));
}
"""
    assert _layers("src/encoder.cpp", source) == {"vendor-library": 2, "portable": 3}


# -- Checked right, and hard ----------------------------------------------------------------


def test_texas_cuda_host_only_cu_file_is_portable() -> None:
    # LegendaryBo/texas-cuda-ai1 funkcje/test_obj_function.cu: a .cu driver program whose code
    # is plain C (random numbers, file reading, printf); the kernels live in the file it
    # includes. Its extension alone does not make it vendor code.
    source = b"""\
#include "rozgrywka.cu"
#include <stdio.h>

int seed = 465;

int next_int(int modulo) {
    seed = 65537 * seed + 257;
    if (seed < 0) seed = -seed;
    return seed % modulo;
}

float objective(int **genomes, int games) {
    float result = 0;
    play_games(genomes, &result, games);
    return result;
}
"""
    assert _layers("src/main/cuda/funkcje/test_obj_function.cu", source) == {"portable": 13}


def test_edge_detector_kernel_declarations_in_cuh_are_kernel() -> None:
    # Palnit/GPGPU-Edge-Detector include/Canny/cuda/cuda_canny_edge_detection.cuh: the
    # __global__ prototypes are kernel lines, the CUDA events in the timer struct vendor-path.
    source = b"""\
#include <cuda_runtime.h>

__global__ void NonMaximumSuppression(float* gradient_in,
                                      float* gradient_out,
                                      int w,
                                      int h);

struct Timers {
    Timers() { cudaEventCreate(&start); cudaEventCreate(&stop); }
    cudaEvent_t start, stop;
};
"""
    layers = _layers("include/Canny/cuda/cuda_canny_edge_detection.cuh", source)
    assert layers["kernel"] == 4
    assert layers["vendor-path"] >= 2
