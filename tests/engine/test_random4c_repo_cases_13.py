"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h40-random-c).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 17-24. One could not be read: alisw/AliPhysics (snapshot over 500 MB). Fifteen files
of each remaining repository were sampled with ``random.Random("owner/name")`` over every file
lockin counts, and labelled before any fix, with the files lockin calls non-portable (up to 20)
and GPU-looking files it calls portable (up to 10); three commits touching GPU code were drawn
with ``random.Random("owner/name:commits")`` and judged against ``lockin diff``. Each snippet is
a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- joshuarossi/mlx-bun: MLX from Bun, custom Metal kernels as TypeScript strings -------------


def test_mlx_bun_metal_kernel_body_in_a_typescript_string_is_kernel() -> None:
    # src/model/steel-linear-kernel.ts: the body of an mx.fast.metal_kernel kept in a
    # String.raw template and handed to the repository's MetalKernel wrapper. The body has no
    # signature, hence no [[...]] attribute: it reads the built-ins as variables. Before, the
    # 22 files holding such bodies were portable.
    source = b"""\
import { MetalKernel } from "../mlx/metal-kernel";

const SOURCE = String.raw`
  const uint M = x_shape[0];
  threadgroup T Xs[BM_T * BK_T];
  const uint lid = thread_position_in_threadgroup.x;
  const int m0 = (int)threadgroup_position_in_grid.z * BM_T;
  for (uint i = lid; i < BM_T * BK_T; i += TGN_T) Xs[i] = x[m0 * BK_T + i];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  out[m0 + lid] = Xs[lid];
`;

export function makeKernel(): MetalKernel {
  return new MetalKernel({
    name: "steel_linear",
    inputNames: ["x"],
    outputNames: ["out"],
    source: SOURCE,
  });
}
"""
    assert _rules("src/model/steel-linear-kernel.ts", source) == {"metal.source-string"}
    assert _layers("src/model/steel-linear-kernel.ts", source) == {"kernel": 9, "portable": 9}


def test_mlx_bun_barrier_header_string_is_kernel() -> None:
    # scripts/experiments/megakernel-barrier-probe.ts: a Metal helper prepended as the
    # kernel's header; its only Metal tell is the device-scope barrier.
    source = b"""\
const HEADER = String.raw`
inline void grid_sync(device atomic_uint* counter, uint groups) {
  threadgroup_barrier(mem_flags::mem_device);
  atomic_fetch_add_explicit(counter, 1, memory_order_relaxed);
}
`;
"""
    assert _layers("scripts/experiments/megakernel-barrier-probe.ts", source) == {"kernel": 6}


def test_mlx_bun_strings_naming_the_built_ins_are_portable() -> None:
    # src/mlx/metal-kernel.ts: the wrapper's own messages name the built-ins without using
    # them as code.
    source = b"""\
const HELPERS = ["thread_position_in_grid", "threadgroup_barrier"];
export function check(grid: { x: number }): void {
  if (grid.x > 1024) throw new Error(`grid ${grid.x} exceeds threadgroup_position_in_grid`);
}
"""
    assert _layers("src/mlx/metal-kernel.ts", source) == {"portable": 4}


def test_mlx_bun_script_calling_the_fused_kernel_is_portable() -> None:
    # scripts/experiments/swiglu-probe.ts: compares the fused kernel's output with MLX's own
    # operations through the repository's functions; the kernel lives elsewhere (checked
    # right before the fix).
    source = b"""\
import * as ops from "../../src/mlx/ops";
import { fusedSwiglu } from "../../src/model/fused-swiglu-kernel";

const ref = ops.mul(ops.mul(gate, ops.sigmoid(gate)), up);
const fused = fusedSwiglu(x, wg, sg, bg, wu, su, bu, spec);
console.log("maxDiff", ops.maxAbsDiff(ref, fused));
"""
    assert _layers("scripts/experiments/swiglu-probe.ts", source) == {"portable": 5}


def test_mlx_bun_release_script_shipping_the_metallib_is_metal_build() -> None:
    # scripts/release-binary.sh: the bundle carries MLX's compiled Metal kernel library
    # (checked right before the fix).
    source = b"""\
#!/usr/bin/env bash
set -euo pipefail
for f in mlx-bun libmlx.dylib mlx.metallib; do
  cp -f "$BUILD/$f" "$OUT/$f"
done
"""
    assert _rules("scripts/release-binary.sh", source) == {"build.metal"}


# -- limepixl/pathtracer: a Vulkan path tracer vendoring SDL2 and glm --------------------------


def test_sdl_cmake_linking_metal_through_the_driver_is_metal_build() -> None:
    # thirdparty/SDL2-2.24.1/CMakeLists.txt: the Metal framework linked with -Wl, flags,
    # comma-separated. Before, only "-framework Metal" with a space was seen.
    source = b"""\
if(SDL_FRAMEWORK_METAL)
  if(IOS OR TVOS)
    list(APPEND EXTRA_LDFLAGS "-Wl,-framework,Metal")
  else()
    list(APPEND EXTRA_LDFLAGS "-Wl,-weak_framework,Metal")
  endif()
endif()
"""
    assert _rules("CMakeLists.txt", source) == {"build.metal"}
    assert _layers("CMakeLists.txt", source) == {"vendor-path": 2, "portable": 5}


def test_sdl_precompiled_metallib_bytes_are_data() -> None:
    # thirdparty/SDL2-2.24.1/src/render/metal/SDL_shaders_metal_iphonesimulator.h: the
    # compiled shader library as a byte array; its source is the .metal file beside it
    # (checked right before the fix).
    source = b"""\
const unsigned char sdl_metallib[] = {
  0x4d, 0x54, 0x4c, 0x42, 0x01, 0x00, 0x02, 0x00, 0x05, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x54, 0x60, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
const unsigned int sdl_metallib_len = 24;
"""
    assert _layers("src/render/metal/SDL_shaders_metal_iphonesimulator.h", source) == {
        "portable": 5
    }


# -- Agrael1/VeritasD3D: a Direct3D 11 engine with HLSL shaders --------------------------------


def test_veritas_hlsl_file_that_only_includes_another_is_shader_code() -> None:
    # OldCode/Engine/Shaders/PhongDifSpc_VS.hlsl: one line reusing another vertex shader
    # (checked right before the fix).
    source = b'#include "PhongDif_VS.hlsl"\n'
    assert _layers("Shaders/PhongDifSpc_VS.hlsl", source) == {"kernel": 1}


# -- MSivonen/Nuclear-reactor-glsl: a p5.js game drawing with WebGL2 ---------------------------


def test_nuclear_reactor_glsl_in_a_javascript_template_is_kernel() -> None:
    # uiOverlay.js: a WebGL2 program's two shaders as template literals; the WebGL calls
    # around them are portable (checked right before the fix).
    source = b"""\
const vert = `#version 300 es
in vec2 a_position;
void main() {
    gl_Position = vec4(a_position, 0.0, 1.0);
}`;
const program = gl.createProgram();
gl.linkProgram(program);
"""
    report = classify("uiOverlay.js", source)
    assert report.ecosystems == {"vulkan": 5}
    assert _layers("uiOverlay.js", source) == {"kernel": 5, "portable": 2}


# -- BurgerMan90001/untitled3dunitygame1: a Unity game with TextMesh Pro's shaders -------------


def test_unity_shaderlab_file_counts_its_program_as_shader_code() -> None:
    # Assets/PackageStuff/TextMesh Pro/Shaders/TMP_Sprite.shader: ShaderLab's blocks around a
    # Cg program. Before, .shader files had no language and were not counted at all. The
    # program (CGPROGRAM ... ENDCG, 8 lines) is the shader; the blocks around it describe the
    # material (lane h42-random-b: whole files put 13 of 20 Unity shaders out of range).
    source = b"""\
Shader "Game/Outline"
{
    Properties { _Color ("Outline", Color) = (0, 0, 0, 1) }
    SubShader
    {
        Tags { "Queue"="Transparent" }
        Pass
        {
            CGPROGRAM
            #pragma vertex vert
            #pragma fragment frag
            #include "UnityCG.cginc"
            fixed4 _Color;
            float4 vert(float4 v : POSITION) : SV_POSITION { return UnityObjectToClipPos(v); }
            fixed4 frag() : SV_Target { return _Color; }
            ENDCG
        }
    }
}
"""
    report = classify("Assets/Shaders/Outline.shader", source)
    assert report.language == "ShaderLab"
    assert _layers("Assets/Shaders/Outline.shader", source) == {"kernel": 8, "portable": 11}


def test_unity_cginc_include_is_hlsl() -> None:
    # Assets/PackageStuff/TextMesh Pro/Shaders/TMPro.cginc: Cg/HLSL helpers the .shader
    # programs include.
    source = b"""\
// Helpers shared by the outline passes.
float2 UnpackUV(float uv)
{
    float2 output;
    output.x = floor(uv / 4096.0);
    output.y = uv - 4096.0 * output.x;
    return output * 0.001953125;
}
"""
    assert classify("Shaders/Outline.cginc", source).language == "HLSL"
    assert _layers("Shaders/Outline.cginc", source) == {"kernel": 7}


def test_unity_compute_shader_is_hlsl_kernel() -> None:
    # Unity's compute shaders: HLSL kernels named by #pragma kernel and run by
    # ComputeShader.Dispatch.
    source = b"""\
#pragma kernel Clear
RWStructuredBuffer<float> Cells;
[numthreads(64, 1, 1)]
void Clear(uint3 id : SV_DispatchThreadID)
{
    Cells[id.x] = 0;
}
"""
    assert classify("Assets/Compute/Clear.compute", source).language == "HLSL"
    assert _layers("Assets/Compute/Clear.compute", source) == {"kernel": 7}
