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


def test_mace_setup_cfg_extra_pinning_cuequivariance_cuda_ops_is_vendor_path() -> None:
    # mace_ML_pkg/setup.cfg: an extra per CUDA release installs cuEquivariance's kernels.
    # Before, no language owned setup.cfg: the file was never counted (an extra outside the
    # random sample) and a commit adding a CUDA pin there passed the gate.
    source = b"""\
[metadata]
name = mace-torch

[options]
install_requires =
    torch>=1.12
    e3nn==0.4.4

[options.extras_require]
cueq = cuequivariance-torch
cueq-cuda-11 = cuequivariance-ops-torch-cu11
cueq-cuda-12 = cuequivariance-ops-torch-cu12

[flake8]
; kernels live elsewhere
max-line-length = 120
"""
    assert _rules("mace_ML_pkg/setup.cfg", source) == {"deps.cuda-wheel"}
    assert _layers("mace_ML_pkg/setup.cfg", source) == {"vendor-path": 2, "portable": 10}


def test_setup_cfg_without_a_cuda_build_stays_portable() -> None:
    # The negative: a package's setup.cfg naming portable wheels, and pytest's marker for the
    # tests that need a GPU.
    source = b"""\
[options]
install_requires =
    numpy
    torch>=2.0; platform_system == "Linux"

[tool:pytest]
markers = cuda: needs an NVIDIA GPU
"""
    assert _layers("setup.cfg", source) == {"portable": 6}


def test_mace_device_choice_offering_every_vendor_stays_portable() -> None:
    # Checked right: mace_ML_pkg/mace/tools/arg_parser.py lets the user pick any vendor's
    # device; mace/cli/eval_configs.py offers the CPU and CUDA only, a vendor-only path.
    every_vendor = b"""\
import argparse


def build_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--device",
        type=str,
        choices=["cpu", "cuda", "mps", "xpu"],
        default="cpu",
    )
    return parser
"""
    assert _layers("mace/tools/arg_parser.py", every_vendor) == {"portable": 10}
    cuda_only = every_vendor.replace(
        b'choices=["cpu", "cuda", "mps", "xpu"]', b'choices=["cpu", "cuda"]'
    )
    assert _rules("mace/cli/eval_configs.py", cuda_only) == {"torch.device-string"}
    assert _layers("mace/cli/eval_configs.py", cuda_only) == {"vendor-path": 1, "portable": 9}


def test_mace_graph_data_cuda_method_is_vendor_path() -> None:
    # Checked right: mace/tools/torch_geometric/data.py, a copy of PyG's Data, moves every
    # tensor with .cuda() beside its device-neutral .to().
    source = b"""\
class Data:
    def apply(self, func, *keys):
        for key in keys:
            self[key] = func(self[key])
        return self

    def to(self, device, *keys, **kwargs):
        return self.apply(lambda x: x.to(device, **kwargs), *keys)

    def cuda(self, device=None, non_blocking=False, *keys):
        return self.apply(
            lambda x: x.cuda(device=device, non_blocking=non_blocking), *keys
        )
"""
    assert _rules("mace/tools/torch_geometric/data.py", source) == {"torch.cuda-method"}
    assert _layers("mace/tools/torch_geometric/data.py", source) == {
        "vendor-path": 1,
        "portable": 10,
    }


# -- yukitsuji/SSD_CUDNN: SSD inference in C over cuDNN, cuBLAS and CUDA kernels ---------------


def test_ssd_cudnn_kernel_lines_stop_at_the_host_launch() -> None:
    # Checked right (kernel count in range): src/transpose_gpu.cu, an image to planar BGR
    # kernel; the launch geometry and the launch are host code.
    source = b"""\
#include "cuda_runtime.h"

extern "C" {
#include "transpose.h"
}

__global__ void to_planar_kernel(float *out, const unsigned char *in, int w, int h)
{
  const int x = blockDim.x * blockIdx.x + threadIdx.x;
  const int y = blockDim.y * blockIdx.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const int src = (y * w + x) * 3;
  out[y * w + x] = in[src] - 104.0f;
  out[w * h + y * w + x] = in[src + 1] - 117.0f;
  out[2 * w * h + y * w + x] = in[src + 2] - 123.0f;
}

void to_planar_gpu(float *out, const unsigned char *in, int w, int h) {
  dim3 block(16, 16, 1);
  dim3 grid((w + 15) / 16, (h + 15) / 16, 1);
  to_planar_kernel<<<grid, block>>>(out, in, w, h);
}
"""
    assert _rules("src/transpose_gpu.cu", source) == {
        "cuda.include",
        "cuda.kernel",
        "cuda.launch",
    }
    assert _layers("src/transpose_gpu.cu", source) == {
        "kernel": 10,
        "vendor-path": 2,
        "portable": 7,
    }


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
