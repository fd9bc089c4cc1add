"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-u).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 728-734. One was skipped: trisanths/neural-reasoning-models
(728) had no snapshot to fetch. Read were Shimmen/ArkoseRenderer (a C++ renderer with Vulkan
and D3D12 backends and GLSL shaders, ray-tracing stages included), Lemoine-OR/
MetaheuristicsPlatform (C# optimisation algorithms; "Kernel" classes that are no GPU code),
saimaafrin/quantized-model-code-quality (LLM-generated Python and Java solutions, one pinned
requirements file with CUDA wheels), MolecularTheoryGroup/BondalyzerTecplotAddon (a C++
Tecplot add-on with a vendored Armadillo), Kawatwist/RaytracerV2 (a C CPU ray tracer that
vendors SDL 2.0.8 with its Metal, OpenGL and GLES2 renderers and Vulkan glue) and
waybarrios/vllm-mlx (a Python inference server on Apple's MLX). Snapshots missing large blobs
were checked out file by file without them; no counted source file was missing. Fifteen files
of each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Kawatwist/RaytracerV2 (vendored SDL 2.0.8): GLSL split over macros, a literal a line ------


def test_glsl_declarations_in_their_own_macro_are_kernel() -> None:
    # libraries/SDL2-2.0.8/src/render/opengl/SDL_shaders_gl.c: the varyings, uniforms and
    # colour-space constants of the YUV shaders sit in macros of their own, pasted before the
    # macro holding main; only main's lines were counted (72 of about 100).
    source = b"""\
#define PLANES_DECLS                                 \\
"varying vec4 v_tint;\\n"                            \\
"varying vec2 v_uv;\\n"                              \\
"uniform sampler2D luma; // Y \\n"                   \\
"uniform sampler2D chroma; // UV \\n"                \\
"\\n"                                                \\

#define STUDIO_RANGE                                 \\
"const vec3 bias = vec3(-0.06, -0.5, -0.5);\\n"      \\
"const vec3 rrow = vec3(1.16, 0.0, 1.59);\\n"        \\

#define PLANES_MAIN                                  \\
"void main()\\n"                                     \\
"{\\n"                                               \\
"    vec3 c = texture2D(luma, v_uv).rgb + bias;\\n"  \\
"    gl_FragColor = vec4(dot(c, rrow)) * v_tint;\\n" \\
"}"                                                  \\

static const char *planes_src = PLANES_DECLS STUDIO_RANGE PLANES_MAIN;
"""
    assert _rules("render/gl/planes.c", source) == {"vulkan.glsl-string"}
    assert _layers("render/gl/planes.c", source) == {"kernel": 12, "portable": 4}


def test_declaration_quoted_in_a_message_stays_portable() -> None:
    source = b"""\
#include <stdio.h>

void warn_missing(void) {
    puts("shader lacks: varying vec2 v_uv;\\n");
    puts("const vec3 is spelled float3 in HLSL\\n");
}
"""
    assert _rules("render/gl/warn.c", source) == set()
    assert _layers("render/gl/warn.c", source) == {"portable": 5}


def test_sdl_config_weak_metal_framework_is_vendor_path() -> None:
    # libraries/SDL2-2.0.8/sdl2-config: the --libs line links Metal weakly on macOS.
    source = b"""\
#!/bin/sh
case $1 in
  --libs)
    echo -lSDL2 -lm -Wl,-framework,Cocoa -Wl,-weak_framework,Metal
    ;;
esac
"""
    assert _rules("sdl2-config.sh", source) == {"build.metal"}
    assert _layers("sdl2-config.sh", source) == {"vendor-path": 1, "portable": 4}


# -- Shimmen/ArkoseRenderer: Vulkan backend code and GLSL compute stages ---------------------


def test_vulkan_memory_heap_probe_is_vendor_path() -> None:
    # arkose/rendering/backend/vulkan/VulkanBackend.cpp (commit 4f9ed320): looking for a
    # device-local, host-visible memory type in the largest heap (resizable BAR).
    source = b"""\
bool Backend::hostVisibleVram() const
{
    for (uint32_t i = 0; i < m_memProps.memoryTypeCount; ++i) {
        VkMemoryPropertyFlags f = m_memProps.memoryTypes[i].propertyFlags;
        if ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && (f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
            return true;
    }
    return false;
}
"""
    assert _rules("backend/vulkan/Backend.cpp", source) == {"vulkan.host-api"}
    assert _layers("backend/vulkan/Backend.cpp", source)["vendor-path"] >= 2


def test_glsl_compute_stage_counts_every_code_line() -> None:
    # arkose/shaders/taa/taa.comp: a compute stage, counted whole as kernel.
    source = b"""\
#version 460

layout(set = 0, binding = 0, rgba16f) uniform writeonly image2D outImg;
layout(set = 0, binding = 1) uniform sampler2D inTex;

layout(local_size_x = 8, local_size_y = 8) in;
void main()
{
    // copy one texel
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(outImg, p, texelFetch(inTex, p, 0));
}
"""
    assert _layers("shaders/copy/copy.comp", source) == {"kernel": 9}


# -- Lemoine-OR/MetaheuristicsPlatform: a "kernel" that is an optimiser's step ----------------


def test_optimiser_kernel_class_in_csharp_is_portable() -> None:
    # src/MetaheuristicsPlatform/Algorithms/PSO/Dynamics/PsoMovementKernel.cs
    source = b"""\
namespace Optimisers.Swarm;

public sealed class VelocityKernel
{
    public double Step(double v, double best, double x) => 0.7 * v + 1.4 * (best - x);
}
"""
    assert _rules("Swarm/VelocityKernel.cs", source) == set()
    assert _layers("Swarm/VelocityKernel.cs", source) == {"portable": 5}


# -- waybarrios/vllm-mlx: MLX array code stays portable --------------------------------------


def test_mlx_dequantize_on_caller_thread_is_portable() -> None:
    # vllm_mlx/ssd_cache.py (commit b67edee9): dequantising a cache layer with MLX.
    source = b"""\
import mlx.core as mx


def materialise(layer):
    keys = mx.dequantize(*layer.keys, group_size=layer.group_size, bits=layer.bits)
    mx.eval(keys)
    return keys
"""
    assert _rules("vllm_mlx/cache_io.py", source) == set()
    assert _layers("vllm_mlx/cache_io.py", source) == {"portable": 5}
