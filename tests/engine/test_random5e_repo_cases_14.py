"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-e).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 131-140. Four had no snapshot and were skipped, not replaced: Rust-GPU/rspirv2,
ethan-puyaubreau/energy-dashboard-for-kokkos, onnxsim/tinygrad and
wad157/Embodied_gaussians_fixed_super_best_sim. Fifteen files of each of the six others were
sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled before
any fix, with the files lockin calls non-portable (up to twenty) and GPU-looking files it calls
portable; three commits of each touching GPU code were judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- radian628/raymarching-engine: a WebGL2 raymarcher with a GLSL scene editor ------------------


def test_raymarching_engine_default_scene_functions_are_glsl_kernel_code() -> None:
    # client/src/settings/shader-editor/Validate.tsx: the user's scene shader gets a default
    # for each function it leaves out, one GLSL function per template literal. Before, the
    # file was portable: no literal holds a #version line, main or two vector declarations.
    source = b"""\
import { parser } from "@shaderfrog/glsl-parser";

export function addDefaults(src: string): string {
  const scope = parser.parse(src).scopes[0];
  let out = src;
  if (!scope.functions.sceneColor)
    out += `vec3 sceneColor(vec3 position) {
      if (length(position) > 20.0) return vec3(0.0);
      return vec3(0.5);
    }`;
  if (!scope.functions.sceneRoughness)
    out += `float sceneRoughness(vec3 position) {
      return 0.3;
    }`;
  return out;
}
"""
    assert _rules("client/src/settings/shader-editor/Validate.tsx", source) == {
        "vulkan.glsl-string"
    }
    assert _layers("client/src/settings/shader-editor/Validate.tsx", source) == {
        "kernel": 7,
        "portable": 8,
    }


def test_raymarching_engine_webgl_host_code_stays_portable() -> None:
    # client/src/renderer/ShaderCache.tsx: compiling and linking the shaders through WebGL2,
    # a cross-vendor API, with error text naming the shader stage.
    source = b"""\
export function compile(gl: WebGL2RenderingContext, src: string, type: number) {
  const shader = gl.createShader(type);
  if (!shader) return { type: "vertex", infoLog: "Failed to create shader." };
  gl.shaderSource(shader, src);
  gl.compileShader(shader);
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) {
    console.error("Shader compile error: \\n" + gl.getShaderInfoLog(shader));
  }
  return shader;
}
"""
    assert _layers("client/src/renderer/ShaderCache.tsx", source) == {"portable": 10}


def test_raymarching_engine_glsl_signature_in_prose_stays_portable() -> None:
    # The negative: a hint naming the function a scene must define, no body.
    source = b"""\
export const hint = "define vec3 sceneColor(vec3 position) to colour the scene";
export const error = `float sceneRoughness(vec3 position) is missing`;
"""
    assert _layers("client/src/settings/Hints.tsx", source) == {"portable": 2}


# -- aras-p/hlsl2glslfork (not in this lane's positions): the same GLSL function shape --------


def test_hlsl2glsl_support_library_functions_are_glsl_kernel_code() -> None:
    # hlslang/GLSLCodeGen/hlslSupportLib.cpp: the GLSL bodies of HLSL's intrinsics, written
    # into every translated shader that uses them. h40-random-i labelled the file kernel and
    # left it portable; the function-definition shape above now reaches it. Its many string
    # lines are device code the translator ships, not an emitter's fragments (compare
    # test_a_translator_emitting_void_main_holds_no_shader in test_render_repo_cases_7.py).
    source = b"""\
void init_support_lib(CodeMap *lib) {
    lib->insert(CodeMap::value_type(EOpTex2DLod,
        "vec4 xll_tex2Dlod(sampler2D s, vec4 coord) {\\n"
        "   return texture2DLod(s, coord.xy, coord.w);\\n"
        "}\\n\\n"));
}
"""
    assert _rules("hlslang/GLSLCodeGen/hlslSupportLib.cpp", source) == {"vulkan.glsl-string"}
    assert _layers("hlslang/GLSLCodeGen/hlslSupportLib.cpp", source) == {
        "kernel": 3,
        "portable": 3,
    }
