"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h45-random-b).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 474-481 and every one had a snapshot, so none was skipped:
Grieverheart/partViewer3D-GLSL, CFD-GO/TCLB, hmzel/ParticleSFX, Mimikkk/impl-engine-webgpu-1,
22SeungminHa/DX12RenderingDemo, WorldsParticle/Engine, KhronosGroup/SPIRV-Cross and
meta-llama/llama-stack. Fifteen files of each were sampled with ``random.Random("owner/name")``
over every file lockin counts with code lines, and labelled before any fix, with the files
lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to 10); three
commits touching GPU code per repository, drawn with ``random.Random("owner/name:commits")``,
were judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- CFD-GO/TCLB: a lattice Boltzmann solver built for CUDA, HIP or the CPU from one source --


def test_tclb_model_written_with_cuda_device_function_is_kernel_code() -> None:
    # models/flow/d2q9_SRT/Dynamics.c (and every model's Dynamics.c): the node updates, each
    # declared CudaDeviceFunction, which src/cross.h defines as __device__ under nvcc or
    # hipcc. Before, the models were portable C.
    source = b"""\
CudaDeviceFunction float2 Color() {
    float2 ret;
    ret.x = getRho();
    ret.y = 1;
    return ret;
}

CudaDeviceFunction void Run() {
    switch (NodeType & NODE_BOUNDARY) {
    case NODE_Wall:
        BounceBack();
        break;
    }
}
"""
    assert _rules("models/flow/d2q9/Dynamics.c", source) == {"cuda.callable-macro"}
    assert _layers("models/flow/d2q9/Dynamics.c", source) == {"kernel": 13}


def test_tclb_header_of_device_operators_keeps_its_host_function_portable() -> None:
    # src/range_int.hpp: a bounded integer whose constructor and operators are declared
    # CudaDeviceFunction; the printing helper below it is host code.
    source = b"""\
#include <cstdio>

template <int A, int B>
struct bounded {
  const int val;
  CudaDeviceFunction bounded(const int& v = A) : val(v) {}
  template <int C, int D>
  CudaDeviceFunction bool operator < (const bounded<C, D>& o) const {
    if (B < C) return true;
    return val < o.val;
  }
};

template <int A, int B>
void print_bounded(const bounded<A, B>& x) {
  printf("%d <= %d <= %d\\n", A, x.val, B);
}
"""
    assert _rules("src/bounded.hpp", source) == {"cuda.callable-macro"}
    assert _layers("src/bounded.hpp", source) == {"kernel": 6, "portable": 9}


def test_tclb_kernel_declared_with_cuda_global_function() -> None:
    # src/GetThreads.h: the kernel template declared CudaGlobalFunction (__global__), whose
    # attributes the header queries to size its thread blocks.
    source = b"""\
#include "cross.h"

template <class E> CudaGlobalFunction void Kernel();

template <class T> int MaxThreads() {
  CudaFuncAttributes attr;
  CudaFuncGetAttributes(&attr, Kernel<T>);
  return attr.maxThreadsPerBlock;
}
"""
    assert _rules("src/MaxThreads.h", source) == {"cuda.callable-macro"}
    assert _layers("src/MaxThreads.h", source) == {"kernel": 1, "portable": 6}


def test_tclb_handler_calling_the_cross_wrappers_is_portable() -> None:
    # src/Handlers/acRunAction.cpp: the host loop calls the project's CudaDeviceSynchronize,
    # which src/cross.h maps to CUDA, to HIP or to nothing; the wrapper header is where the
    # vendor lies (checked right).
    source = b"""\
#include "acRunAction.h"

int acRunAction::Execute() {
    do {
        solver->lattice->Iterate(solver->steps);
        CudaDeviceSynchronize();
        MPI_Barrier(MPMD.local);
    } while (!Now(solver->iter));
    return 0;
}
"""
    assert _layers("src/Handlers/acRunAction.cpp", source) == {"portable": 9}


# -- Mimikkk/impl-engine-webgpu-1: a WebGPU engine beside a vendored copy of three.js ----------


def test_impl_engine_three_shader_chunk_tagged_glsl_is_kernel_code() -> None:
    # packages/client/src/renderers/three/src/renderers/shaders/ShaderChunk/
    # shadowmask_pars_fragment.glsl.ts: a three.js shader chunk, GLSL in a template literal
    # tagged /* glsl */ with no main and no #version of its own. Before, 72 of the copy's
    # chunks were portable.
    source = b"""\
export default /* glsl */ `
float getShadowMask() {

\tfloat shadow = 1.0;

\t#ifdef USE_SHADOWMAP
\t#if NUM_DIR_LIGHT_SHADOWS > 0
\tDirectionalLightShadow directionalLight;
\tfor ( int i = 0; i < NUM_DIR_LIGHT_SHADOWS; i ++ ) {
\t\tdirectionalLight = directionalLightShadows[ i ];
\t\tshadow *= receiveShadow ? getShadow( directionalShadowMap[ i ], vShadowCoord[ i ] ) : 1.0;
\t}
\t#endif
\t#endif

\treturn shadow;
}
`;
"""
    path = "src/renderers/shaders/ShaderChunk/shadowmask_pars_fragment.glsl.ts"
    assert _rules(path, source) == {"vulkan.glsl-tagged-string"}
    assert _layers(path, source) == {"kernel": 15, "portable": 3}


def test_impl_engine_chunk_of_one_uniform_is_kernel_code() -> None:
    # ShaderChunk/metalnessmap_pars_fragment.glsl.ts: the whole chunk is one guarded uniform.
    source = b"""\
export default /* glsl */ `
#ifdef USE_METALNESSMAP

\tuniform sampler2D metalnessMap;

#endif
`;
"""
    path = "src/renderers/shaders/ShaderChunk/metalnessmap_pars_fragment.glsl.ts"
    assert _layers(path, source) == {"kernel": 5, "portable": 2}


def test_impl_engine_untagged_chunk_index_stays_portable() -> None:
    # The negative: the tag named in a comment or held in a string, and an untagged literal
    # of one declaration, say nothing of the literal after them.
    source = b"""\
// every chunk below is a /* glsl */ template literal of its own file
import metalnessmap_pars_fragment from './metalnessmap_pars_fragment.glsl.js';
const glslTag = '/* glsl */';
export const ShaderChunk = { metalnessmap_pars_fragment, note: `uniform sampler2D map;` };
"""
    assert _layers("src/renderers/shaders/ShaderChunk/index.ts", source) == {"portable": 3}


# -- Grieverheart/partViewer3D-GLSL: a particle viewer on OpenGL 3.3 -----------------------------


def test_partviewer_glsl_file_holding_cxx_raw_strings_is_kernel_code() -> None:
    # include/shaders/color.glsl: C++ raw string literals holding a fragment shader, included
    # by the renderer (checked right: the shader lines are kernel code, the C++ wrapper
    # lines come along within 5 lines).
    source = b"""\
static const char color_frag[] = R"(
#version 330 core

uniform vec3 color;
layout(location = 0) out vec3 outColor;

void main(void){
\toutColor = color;
}
)";
"""
    assert _rules("include/shaders/color.glsl", source) == {"vulkan.shader-file"}
    # GLSL is read without C++ raw strings (lane h51-random-k): the two blank lines inside
    # the wrapper are blank, no longer string lines counted as portable code.
    assert _layers("include/shaders/color.glsl", source) == {"kernel": 8}


# -- KhronosGroup/SPIRV-Cross: the SPIR-V translator, with a reference output per test shader --


def test_spirv_cross_msl_reference_under_a_glsl_stage_extension_is_metal() -> None:
    # reference/shaders-msl/frag/*.frag: the Metal the translator emits for a test shader,
    # kept under the input's extension. Before, it was read as GLSL (kernel code of the
    # cross-vendor vulkan ecosystem); it is Apple's Metal.
    source = b"""\
#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct main0_out
{
    float4 FragColor [[color(0)]];
};

fragment main0_out main0(texture2d<float> uTex [[texture(0)]], sampler uTexSmplr [[sampler(0)]])
{
    main0_out out = {};
    out.FragColor = uTex.sample(uTexSmplr, float2(0.5));
    return out;
}
"""
    report = classify("reference/shaders-msl/frag/sample.frag", source)
    assert report.language == "Metal"
    assert set(report.ecosystems) == {"metal"}
    assert _layers("reference/shaders-msl/frag/sample.frag", source) == {"kernel": 13}


def test_spirv_cross_glsl_reference_stays_glsl() -> None:
    # reference/shaders/frag/basic.frag: the GLSL output of the same test stays GLSL, whose
    # metal-named uniform is no Metal (checked right).
    source = b"""\
#version 310 es
precision mediump float;

layout(binding = 0) uniform sampler2D metal_roughness;
layout(location = 0) out vec4 FragColor;

void main()
{
    FragColor = texture(metal_roughness, vec2(0.5));
}
"""
    report = classify("reference/shaders/frag/basic.frag", source)
    assert report.language == "GLSL"
    assert _layers("reference/shaders/frag/basic.frag", source) == {"kernel": 8}
