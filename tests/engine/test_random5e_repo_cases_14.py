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


# -- mott91/mace_gaussian_interface: MACE vendored with a Gaussian interface -------------------


def test_mace_cuequivariance_torch_import_is_vendor_library() -> None:
    # mace_ML_pkg/mace/modules/wrapper_ops.py: the equivariant layers switch to NVIDIA's
    # cuEquivariance when it imports; its torch layers run on the CUDA kernels of
    # cuequivariance-ops. Before, the file was portable.
    source = b"""\
import torch
from e3nn import o3

try:
    import cuequivariance as cue
    import cuequivariance_torch as cuet

    CUET_AVAILABLE = True
except ImportError:
    CUET_AVAILABLE = False


def linear(irreps_in, irreps_out, use_cueq):
    if use_cueq and CUET_AVAILABLE:
        return cuet.Linear(cue.Irreps("O3", irreps_in), cue.Irreps("O3", irreps_out))
    return o3.Linear(irreps_in, irreps_out)
"""
    assert _rules("mace/modules/wrapper_ops.py", source) == {"cuda-libs.python-extension"}
    assert _layers("mace/modules/wrapper_ops.py", source) == {
        "vendor-library": 1,
        "portable": 11,
    }


def test_mace_test_checking_the_cuequivariance_front_end_stays_portable() -> None:
    # mace_ML_pkg/tests/test_run_train.py: the front end alone, imported to skip tests when it
    # is missing, describes the polynomials and runs nothing on a GPU.
    source = b"""\
import pytest

try:
    import cuequivariance as cue  # noqa: F401

    CUET_AVAILABLE = True
except ImportError:
    CUET_AVAILABLE = False


@pytest.mark.skipif(not CUET_AVAILABLE, reason="cuequivariance not installed")
def test_convert():
    assert CUET_AVAILABLE
"""
    assert _layers("tests/test_run_train.py", source) == {"portable": 9}


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
