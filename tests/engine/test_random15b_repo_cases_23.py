"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-b).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 595-601. Two had no snapshot and were skipped, not
replaced: D-Ogi/amdgpu-wddm and Attentio-AI/meltygui-pycuda. Five were read (three snapshots
lacked a few large blobs, images, models and a PDF the census does not read, and were checked
out around them): Neroued/PathTracingTutorial (an OpenGL then CUDA path tracer, with GLSL
shaders and CUDA device code behind the project's PT_D and PT_HD qualifier macros),
jalorub/cupyd (a Python ETL framework, no GPU code), juhyeonkim95/DXRPathTracer (a DirectX 12
ray-tracing path tracer: HLSL shaders, D3D12 host code, vendored GLM and Dear ImGui back
ends), UCBoulder/cupyopt (Prefect tasks in Python, no GPU code) and Zhehui-Huang/LLM_Routing
(LLM-driven routing-problem solvers in Python, no GPU code). Fifteen files of each repository
were sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, up to five more kernel files counted by hand, and
three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Neroued/PathTracingTutorial: PT_D and PT_HD, the project's spellings of __device__ -------


def test_a_cuh_function_behind_a_prefix_d_macro_is_device_code() -> None:
    # Part_2/src/samplers/pcg.cuh: pt.h defines PT_D as __device__ (and as nothing for a plain
    # C++ compiler); the PCG step marked PT_D holds no CUDA built-in, the seeding function
    # below it reads blockIdx. Before, only the seeding function counted: 10 kernel lines of
    # 16.
    source = b"""\
#pragma once
#include "core.h"

namespace rt {

RT_D inline float next_uniform(unsigned int* state) {
    unsigned int s = *state;
    *state = s * 1103515245u + 12345u;
    return (s >> 9) * (1.0f / 8388608.0f);
}

RT_D inline unsigned int seed_for_pixel(unsigned int frame) {
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    return (px * 7919u + py * 104729u + frame) | 1u;
}

}  // namespace rt
"""
    path = "src/random/lcg.cuh"
    assert _rules(path, source) == {"cuda.device-qualifier-macro", "cuda.device-body"}
    assert _layers(path, source) == {"kernel": 10, "portable": 4}


def test_a_cuh_function_behind_a_prefix_hd_macro_is_device_code() -> None:
    # Part_2/src/materials/microfacet.cuh: GGX terms marked PT_HD (__host__ __device__ under
    # nvcc), compiled into the path-tracing kernels. Before, the file counted all portable.
    source = b"""\
#pragma once
#include "core.h"

RT_HD inline float ggx_d(float n_dot_h, float alpha) {
    float a2 = alpha * alpha;
    float d = n_dot_h * n_dot_h * (a2 - 1.0f) + 1.0f;
    return a2 / (3.14159265f * d * d);
}

RT_HD
inline float schlick(float cos_theta, float f0) {
    float m = 1.0f - cos_theta;
    return f0 + (1.0f - f0) * m * m * m * m * m;
}
"""
    path = "src/shading/ggx.cuh"
    assert _rules(path, source) == {"cuda.device-qualifier-macro"}
    assert _layers(path, source) == {"kernel": 10, "portable": 2}


def test_a_prefix_hd_function_in_a_plain_header_stays_portable() -> None:
    # Part_2/src/geometry/triangle.h (already right): the same PT_HD in a .h that names no
    # CUDA header or type builds for the CPU too; the macro expands to nothing there.
    source = b"""\
#pragma once
#include "core.h"

RT_HD inline float triangle_area(float base, float height) {
    return 0.5f * base * height;
}
"""
    path = "src/geometry/triangle.h"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 5}


def test_an_enumerator_or_call_ending_in_d_is_no_qualifier() -> None:
    # The other side of the widened macro name: PREFIX_D as an enumerator or a call.
    source = b"""\
enum Channel { CHANNEL_D = 3, CHANNEL_HD = 4 };
void pick(int c) {
    SELECT_D(c);
}
"""
    path = "src/channel.cu"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 4}


def test_cuda_surface_objects_in_a_cu_file_are_vendor_path() -> None:
    # Part_2/src/film/film.cu (already right): the film's accumulation buffers are CUDA
    # arrays behind surface objects, created and cleared with the runtime API; no kernel.
    source = b"""\
#include "film.h"

static void make_surface(int w, int h, cudaArray_t& arr, cudaSurfaceObject_t& surf) {
    cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float4>();
    cudaMallocArray(&arr, &fmt, w, h, cudaArraySurfaceLoadStore);
    cudaResourceDesc rd{};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaCreateSurfaceObject(&surf, &rd);
}

int pixel_count(int w, int h) {
    return w * h;
}
"""
    path = "src/film/film.cu"
    assert _rules(path, source) == {"cuda.runtime"}
    assert "kernel" not in _layers(path, source)
    assert _layers(path, source)["vendor-path"] > 0


# -- juhyeonkim95/DXRPathTracer: HLSL resource bindings and shaders in C strings -------------


def test_an_hlsli_of_resource_bindings_is_kernel_code() -> None:
    # PathTracer/RenderPass/Core/Common/DescriptorTable.hlsli (already right): the ray
    # tracing passes' textures, buffers and constant buffers bound to registers.
    source = b"""\
#ifndef BINDINGS_HLSLI
#define BINDINGS_HLSLI

RWTexture2D<float4> gRadiance : register(u0);
RaytracingAccelerationStructure gScene : register(t0);
StructuredBuffer<uint> gIndexBuffer : register(t1);

cbuffer FrameConstants : register(b0)
{
    float4x4 gViewProj;
}

#endif
"""
    path = "shaders/common/bindings.hlsli"
    assert _rules(path, source) == {"hlsl.shader-file"}
    assert _layers(path, source) == {"kernel": 10}


def test_an_hlsl_shader_in_a_continued_c_string_counts_its_lines() -> None:
    # Framework/Externals/imgui/backends/imgui_impl_dx10.cpp (already right): the pixel
    # shader written as one C string continued with backslashes; its blank line is not code.
    source = b"""\
void create_shaders() {
    static const char* pixel =
        "struct PS_IN\\
        {\\
          float4 pos : SV_POSITION;\\
          float2 uv  : TEXCOORD0;\\
        };\\
        \\
        Texture2D tex0;\\
        sampler smp0;\\
        float4 main(PS_IN i) : SV_Target\\
        {\\
          return tex0.Sample(smp0, i.uv);\\
        }";
    compile(pixel);
}
"""
    path = "backends/ui_dx10.cpp"
    assert _rules(path, source) == {"hlsl.source-string"}
    assert _layers(path, source)["kernel"] == 11


# -- UCBoulder/cupyopt: a package name that only looks like CuPy ------------------------------


def test_prefect_tasks_of_a_cupy_looking_package_are_portable() -> None:
    # src/cupyopt/dataframe_tasks.py (already right): "CU's Python Opinionated Prefect
    # Tasks", pandas and Prefect, nothing of CuPy.
    source = b"""\
import pandas as pd
from prefect import task


@task
def drop_empty_columns(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.dropna(axis="columns", how="all")
"""
    path = "src/cupyopt/dataframe_tasks.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 5}
