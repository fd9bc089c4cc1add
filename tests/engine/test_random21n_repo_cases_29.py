"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-random-n).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (the name's text only, so some are no GPU code at all).
This lane took sub-pool positions 378-385. One was skipped: MetalHexx/TeensyROM-Web (383) had
no snapshot to fetch. Read were marcogva-hub/mlx-flashattention-steel (a Flash Attention
extension for Apple's MLX: C++ generators writing Metal Shading Language into streams and raw
strings, compiled at run time, with Python benchmarks and tests), euclidespaim/pycuda (a
Windows virtualenv committed whole, CPython's library and Tk demos, beside one PyCUDA
SourceModule exercise), liupeiyu666/ShaderProject (a Unity shader collection: hand-written
ShaderLab and HLSL, and some 1,300 shaders dumped from a built game whose programs are quoted
GLSL ES), asamarin/pycuda-motion-detector (a Python 2 motion detector with PyCUDA SourceModule
kernels and the LaTeX of its report), TMoCo/RayTracer (a C++ CPU ray tracer shown through
OpenGL, with a few GLSL shader files), MCLD/ocuda (an ASP.NET library web site, "cuda" by
chance, no GPU code) and DolicaAkelloEgwel/howdoespycudawork (benchmarks of CuPy, Numba and
PyCUDA on imaging filters). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Eleven sampled files
were wrong before, all in ShaderProject's game dump: the GLSL ES quoted in each
``SubProgram "gles"`` block was portable (now vulkan.shaderlab-compiled-glsl). Four kernel
counts of mlx-flashattention-steel's generators were out of range: MSL written a line per
``ss << "..."`` statement, and a helper header spelling only METAL_FUNC (now
metal.streamed-source, and METAL_FUNC in metal.source-string). The other tests pin verdicts
worth keeping. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- marcogva-hub/mlx-flashattention-steel: MSL generators for MLX ---------------------------


def test_msl_written_a_line_per_stream_statement_is_kernel() -> None:
    # csrc/mfa_steel_fwd.cpp (extra kernel file, 813 of some 2,200 kernel lines before): the
    # generator writes most of the kernel one `ss << "...\n";` a line, few of which spell Metal.
    source = b"""\
#include <sstream>
#include <string>

std::string build_scale(int block, bool causal) {
  std::ostringstream ss;
  ss << "#define BLOCK " << block << "\\n";
  ss << "kernel void scale(\\n";
  ss << "    device half* out [[buffer(0)]],\\n";
  ss << "    uint3 tid [[threadgroup_position_in_grid]]) {\\n";
  ss << "  const int row = (int)tid.x * BLOCK;\\n";
  ss << "  float acc = 0.0f;\\n";
  if (causal) {
    ss << "  acc = min(acc, 1.0f);\\n";
  }
  ss << "  out[row] = half(acc);\\n";
  ss << "}\\n";
  return ss.str();
}

int block_for(int dim) { return dim <= 64 ? 32 : 16; }
"""
    path = "csrc/scale_gen.cpp"
    assert "metal.streamed-source" in _rules(path, source)
    layers = _layers(path, source)
    assert 9 <= layers["kernel"] <= 11
    assert set(layers) == {"kernel", "portable"}


def test_metal_func_helpers_in_a_raw_string_are_kernel() -> None:
    # csrc/mfa/GEMMHeaders.cpp (extra, out of range before): a header of matrix helpers
    # appended to each kernel, whose only Metal spelling is METAL_FUNC and the matrix type.
    source = b"""\
#include <string>

std::string matrix_helpers() {
  std::string text;
  text += R"(
namespace metal {
  template <typename T>
  struct tile_storage {
    vec<T, 2> v;
    METAL_FUNC vec<T, 2>* elements() thread { return &v; }
  };
}
)";
  return text;
}
"""
    path = "csrc/mfa/Helpers.cpp"
    assert _rules(path, source) & {"metal.source-string", "metal.streamed-source"}
    assert 7 <= _layers(path, source)["kernel"] <= 10


def test_placeholder_header_of_empty_templates_stays_portable() -> None:
    # csrc/mfa_steel_bwd.hpp, csrc/shader_cache.hpp (sampled, right): the generator's declared
    # entry points and its cache key, with no Metal in them.
    source = b"""\
#pragma once
#include <string>

namespace gen {
struct Key {
  int head_dim;
  bool causal;
  bool operator==(const Key& other) const;
};
std::string backward_source(const Key& key);
}  // namespace gen
"""
    path = "csrc/gen_bwd.hpp"
    assert _layers(path, source) == {"portable": 10}


def test_mlx_metal_device_query_in_bindings_is_vendor_path() -> None:
    # csrc/bindings.cpp (sampled, right): the binding reading the Metal device behind MLX's
    # GPU stream for its name and generation.
    source = b"""\
#include <mlx/backend/metal/device.h>

void fill_info(Info& out) {
  auto s = mlx::core::default_stream(mlx::core::Device::gpu);
  auto& d = mlx::core::metal::device(s.device);
  out.generation = d.get_architecture_gen();
}
"""
    layers = _layers("csrc/bindings.cpp", source)
    assert "vendor-path" in layers
    assert "kernel" not in layers


def test_mlx_benchmark_on_array_ops_is_portable() -> None:
    # benchmarks/bench_kvcache.py (sampled, right): MLX array operations and synchronize.
    source = b"""\
import time
import mlx.core as mx

def bench(q, k):
    mx.synchronize()
    start = time.perf_counter()
    out = mx.concatenate([q, k], axis=2)
    mx.eval(out)
    return time.perf_counter() - start
"""
    assert set(_layers("benchmarks/bench_concat.py", source)) == {"portable"}


# -- liupeiyu666/ShaderProject: Unity shaders, hand-written and dumped -----------------------


def test_dumped_unity_shader_gles_programs_are_kernel() -> None:
    # *_gles.shader (11 sampled files, portable before): a dump of a built game's shader,
    # each SubProgram's GLSL ES quoted between a `"#version 100` line and a lone quote.
    source = b"""\
Shader "Hidden/Demo/Unlit" {
SubShader {
 Pass {
  GpuProgramID 4096
Program "vp" {
SubProgram "gles hw_tier00 " {
"#version 100

#ifdef VERTEX
attribute vec4 _glesVertex;
uniform highp mat4 unity_MatrixVP;
varying highp vec2 uv_0;
void main ()
{
  uv_0 = _glesVertex.xy;
  gl_Position = (unity_MatrixVP * _glesVertex);
}
#endif
#ifdef FRAGMENT
uniform sampler2D _MainTex;
varying highp vec2 uv_0;
void main ()
{
  gl_FragData[0] = texture2D (_MainTex, uv_0);
}
#endif
"
}
SubProgram "gles hw_tier01 " {
"#version 100

#ifdef VERTEX
attribute vec4 _glesVertex;
void main ()
{
  gl_Position = _glesVertex;
}
#endif
#ifdef FRAGMENT
void main ()
{
  gl_FragData[0] = vec4(1.0, 1.0, 1.0, 1.0);
}
#endif
"
}
}
Program "fp" {
SubProgram "gles " {
""
}
}
}
}
}
"""
    path = "Shader/Hidden_Demo_Unlit_gles.shader"
    assert "vulkan.shaderlab-compiled-glsl" in _rules(path, source)
    layers = _layers(path, source)
    # 18 and 13 lines of GLSL ES between the quotes, the version lines with them.
    assert 27 <= layers["kernel"] <= 33
    assert "vendor-path" not in layers


def test_dumped_unity_shader_gles3_program_is_kernel() -> None:
    # *_gles3.shader: the quote opens with the vertex guard, `#version 300 es` under it.
    source = b"""\
Shader "Effect/Soft" {
SubShader {
 Pass {
Program "vp" {
SubProgram "gles3 hw_tier00 " {
Keywords { "FOG_ON" }
"#ifdef VERTEX
#version 300 es
in highp vec4 in_POSITION0;
out highp vec2 vs_TEXCOORD0;
void main ()
{
    vs_TEXCOORD0 = in_POSITION0.xy;
    gl_Position = in_POSITION0;
}
#endif
#ifdef FRAGMENT
#version 300 es
precision highp float;
in highp vec2 vs_TEXCOORD0;
layout(location = 0) out mediump vec4 SV_Target0;
void main ()
{
    SV_Target0 = vec4(vs_TEXCOORD0, 0.0, 1.0);
}
#endif
"
}
}
}
}
}
"""
    path = "Shader/Effect_Soft_gles3.shader"
    assert "vulkan.shaderlab-compiled-glsl" in _rules(path, source)
    assert 19 <= _layers(path, source)["kernel"] <= 21


def test_dumped_unity_shader_with_stripped_programs_stays_portable() -> None:
    # AVProVideo_BlendFrames_gles.shader (sampled, right): the dump kept no program at all.
    source = b"""\
// NOTE: a dumped shader, not a valid one
Shader "Video/Blend" {
Properties {
_MainTex ("Before", 2D) = "white" { }
_t ("t", Float) = 0.5
}
SubShader {
 Pass {
  ZTest Always
  GpuProgramID 100
Program "vp" {
}
Program "fp" {
}
}
}
}
"""
    assert set(_layers("Shader/Video_Blend_gles.shader", source)) == {"portable"}


def test_glslprogram_in_shaderlab_is_not_claimed_past_its_end() -> None:
    # A hand-written GLSLPROGRAM with the same stage guards is hlsl.shaderlab-program's; the
    # dump rule stops at ENDGLSL, and the material blocks after it stay portable.
    source = b"""\
Shader "Custom/Plain" {
  SubShader {
    Pass {
      GLSLPROGRAM
#ifdef VERTEX
void main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex; }
#endif
#ifdef FRAGMENT
void main() { gl_FragColor = vec4(1.0); }
#endif
      ENDGLSL
    }
  }
  FallBack "Diffuse"
}
"""
    path = "Assets/Plain.shader"
    assert "hlsl.shaderlab-program" in _rules(path, source)
    layers = _layers(path, source)
    assert 7 <= layers["kernel"] <= 8
    assert layers["portable"] >= 5


def test_unity_hlsl_include_is_kernel_and_editor_script_portable() -> None:
    # SubpixelMorphologicalAntialiasingBridge.hlsl (sampled, right) and
    # PostProcessLayerEditor.cs (sampled, right).
    hlsl = b"""\
#ifndef EDGE_BRIDGE
#define EDGE_BRIDGE
TEXTURE2D_SAMPLER2D(_MainTex, sampler_MainTex);
float4 _MainTex_TexelSize;
struct VaryingsEdge { float4 vertex : SV_POSITION; float2 texcoord : TEXCOORD0; };
#endif
"""
    assert _layers("Shaders/Builtins/EdgeBridge.hlsl", hlsl) == {"kernel": 6}
    cs = b"""\
using UnityEditor;
using UnityEngine;

public class LayerEditor : Editor {
    public override void OnInspectorGUI() {
        var material = new Material(Shader.Find("Hidden/Editor/Log"));
        Graphics.Blit(null, null, material, 0);
    }
}
"""
    assert set(_layers("Editor/LayerEditor.cs", cs)) == {"portable"}


# -- asamarin/pycuda-motion-detector, euclidespaim/pycuda: PyCUDA SourceModule --------------


def test_pycuda_source_module_pixel_kernel_is_kernel_and_vendor_path() -> None:
    # src/getpixels2.py (sampled, right): host arrays copied with PyCUDA's driver and a
    # thresholding kernel in a SourceModule string.
    source = b'''\
import numpy as np
import pycuda.autoinit
import pycuda.driver as cuda
from pycuda.compiler import SourceModule

def run(red):
    r_gpu = cuda.mem_alloc(red.nbytes)
    cuda.memcpy_htod(r_gpu, red)
    mod = SourceModule("""
        #define LIMIT 40
        __global__ void clamp_pixel(int* r) {
            int idx = threadIdx.x;
            if (r[idx] > LIMIT) {
                r[idx] = 255;
            }
        }
        """)
    f = mod.get_function("clamp_pixel")
    f(r_gpu, block=(4, 64, 1))
    out = np.empty_like(red)
    cuda.memcpy_dtoh(out, r_gpu)
    return out
'''
    layers = _layers("src/getpixels2.py", source)
    assert 7 <= layers["kernel"] <= 10
    assert "vendor-path" in layers


def test_kernel_string_handed_in_at_run_time_leaves_only_vendor_path() -> None:
    # src/Filters/CUDAHandler.py (sampled, right): the handler compiles whatever string it is
    # given; the regular expression naming __global__ is no kernel.
    source = b"""\
import re
import pycuda.driver as cuda
from pycuda.compiler import SourceModule

class Handler:
    def set_kernel(self, text):
        self.module = SourceModule(text)
        found = re.search(r"\\s*__global__\\s+\\w+\\s+(\\w+)", text)
        self.name = found.group(1)

    def upload(self, host):
        self.dev = cuda.mem_alloc(host.nbytes)
        cuda.memcpy_htod(self.dev, host)
"""
    layers = _layers("src/Filters/Handler.py", source)
    assert "vendor-path" in layers
    assert "kernel" not in layers


# -- DolicaAkelloEgwel/howdoespycudawork: CuPy, Numba and PyCUDA benchmarks -----------------


def test_numba_cuda_jit_kernel_is_kernel_and_cpu_parallel_is_portable() -> None:
    # test_numba_jit.py (sampled, right) and test_numba_parallel.py (sampled, right).
    jit = b"""\
from numba import cuda

TPB = cuda.get_current_device().WARP_SIZE

@cuda.jit
def add(a, b, out):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = a[i, j] + b[i, j]
"""
    layers = _layers("test_numba_jit.py", jit)
    assert 4 <= layers["kernel"] <= 6
    assert "vendor-path" in layers
    cpu = b"""\
import numpy as np
from numba import njit, prange

@njit(parallel=True)
def scale(a):
    for i in prange(a.shape[0]):
        a[i] *= 2
    return a
"""
    assert set(_layers("test_numba_parallel.py", cpu)) == {"portable"}


# -- TMoCo/RayTracer: GLSL files beside an OpenGL host -----------------------------------------


def test_glsl_vertex_file_is_kernel_and_gl_shape_header_portable() -> None:
    # shaders/composition.vert (sampled, right) and include/render/shapes/GLShapes.h
    # (sampled, right): OpenGL host code is portable.
    vert = b"""\
#version 450 core
layout (location = 0) in vec3 inPos;
out vec2 uv;
void main()
{
  gl_Position = vec4(inPos, 1.0);
  uv = inPos.xy;
}
"""
    assert _layers("shaders/composition.vert", vert) == {"kernel": 8}
    header = b"""\
#pragma once
#include <glad/glad.h>

struct Quad {
  GLuint vao = 0, vbo = 0;
  void draw() const { glBindVertexArray(vao); glDrawArrays(GL_TRIANGLES, 0, 6); }
};
"""
    assert set(_layers("include/render/shapes/Quad.h", header)) == {"portable"}
