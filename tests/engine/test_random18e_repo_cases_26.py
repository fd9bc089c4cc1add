"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-e).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 29-35, and none was skipped: every one had a snapshot
within the size limit. Read were angrysky56/agent-group-evolving-molecular-system-AGEM (an
agent orchestration system in TypeScript with a React dashboard and Python probe scripts,
whose browser overlay runs a WebGL halftone shader kept in JS template literals),
ucudal/PII_2021_2_Equipo7 (a university C# Telegram chat bot with its tests, no GPU code),
felipeathayde/stable-diffusion-webui-codex (a diffusion web UI: a PyTorch backend with two
torch-extension CUDA kernels, launchers and install scripts, a Vue front end), TiberiousDoom/
voxel-rpg-game (a React Three Fiber voxel game whose chunk material patches three.js's
built-in shader with onBeforeCompile), pytorch/PiPPy (PyTorch's pipeline-parallelism
library: tracing and schedules, examples and tests picking CUDA devices and NCCL), mrsteyk/
RWKV-LM-deepspeed (RWKV language-model training with DeepSpeed and Lightning: the WKV CUDA
kernels in float and half, their torch bindings, launch scripts) and MarioJa26/
babylonjs-voxel (a Babylon.js voxel world whose terrain, water, sky and LOD shaders are GLSL
ES 3.0 in TypeScript static strings). Snapshots missing large blobs were checked out without
them (seven objects of stable-diffusion-webui-codex); no counted source file was missing.
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, files outside the
sample that hold kernel lines counted by hand (up to 5 a repository), and up to three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- TiberiousDoom/voxel-rpg-game: three.js chunks patched in onBeforeCompile ---------------


def test_inputs_spliced_after_the_common_chunk_are_glsl() -> None:
    # src/components/3d/ChunkRenderer.jsx (an extra kernel file: hand 11, lockin 5 before):
    # the patch declares a scalar attribute, varying and uniform right after `#include
    # <common>`; only the literals naming a _vertex or _fragment chunk were found before.
    source = b"""\
function glowMaterial() {
  const mat = new THREE.MeshLambertMaterial({ vertexColors: true });
  mat.onBeforeCompile = (shader) => {
    shader.uniforms.uNight = nightUniform;
    shader.vertexShader = shader.vertexShader.replace(
      '#include <common>',
      `#include <common>
attribute float aGlow;
varying float vGlow;`
    );
    shader.vertexShader = shader.vertexShader.replace(
      '#include <fog_vertex>',
      `#include <fog_vertex>
vGlow = aGlow;`
    );
    shader.fragmentShader = shader.fragmentShader.replace(
      '#include <common>',
      `#include <common>
varying float vGlow;
uniform float uNight;`
    );
    shader.fragmentShader = shader.fragmentShader.replace(
      '#include <opaque_fragment>',
      `outgoingLight += vColor * vGlow * uNight;
#include <opaque_fragment>`
    );
  };
  return mat;
}
"""
    path = "src/world/ChunkMaterial.jsx"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 10, "portable": 19}


def test_webgl_context_mocked_for_tests_is_portable() -> None:
    # src/components/3d/testSetup.js (GPU-looking, portable, right): a jest stub of the
    # WebGL context's shader calls; no shader source anywhere.
    source = b"""\
HTMLCanvasElement.prototype.getContext = function (kind) {
  if (kind === 'webgl' || kind === 'webgl2') {
    return {
      createShader: jest.fn(() => ({})),
      shaderSource: jest.fn(),
      compileShader: jest.fn(),
      getShaderParameter: jest.fn(() => true),
    };
  }
  return null;
};
"""
    path = "src/scene/setupTests.js"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 11}


# -- angrysky56/agent-group-evolving-molecular-system-AGEM: a WebGL overlay, model names ----


def test_webgl_overlay_shaders_in_js_constants_are_kernel() -> None:
    # .agents/impeccable/scripts/live-browser.js (extra kernel file: hand 40, lockin 40): a
    # vertex and a fragment shader kept as template literals, compiled through WebGL.
    source = b"""\
const OVERLAY_VS = `attribute vec2 a_pos;
varying vec2 v_uv;
void main() {
  v_uv = a_pos * 0.5 + 0.5;
  gl_Position = vec4(a_pos, 0.0, 1.0);
}`;

const OVERLAY_FS = `precision mediump float;
uniform sampler2D u_image;
uniform float u_clock;
varying vec2 v_uv;

// a band of ink sweeping down the page
void main() {
  float edge = fract(u_clock * 0.25);
  float inBand = smoothstep(edge - 0.1, edge, v_uv.y);
  vec4 base = texture2D(u_image, v_uv);
  gl_FragColor = vec4(mix(base.rgb, vec3(0.9, 0.7, 0.3), inBand), base.a);
}`;

function compile(gl, kind, text) {
  const sh = gl.createShader(kind);
  gl.shaderSource(sh, text);
  gl.compileShader(sh);
  return sh;
}
"""
    path = "scripts/overlay.js"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 16, "portable": 8}


def test_hosted_embedding_model_named_after_nvidia_is_portable() -> None:
    # interface/backend/src/services/llm.ts and .env.example (GPU-looking, portable, right):
    # an OpenRouter model id that starts with the vendor's name is a hosted API's choice.
    source = b"""\
export const embeddingDefaults = {
  provider: process.env.EMBED_PROVIDER ?? "openrouter",
  model: process.env.EMBED_MODEL ?? "nvidia/nemotron-embed-1b:free",
  maxChars: 30000,
};
"""
    path = "server/src/embedding.ts"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 5}


# -- felipeathayde/stable-diffusion-webui-codex: torch-extension kernels, memory probes ------


def test_torch_extension_cu_file_counts_only_the_global_function_as_kernel() -> None:
    # apps/backend/runtime/kernels/wan_fused_v1/wan_fused_v1_kernels.cu (extra kernel file:
    # hand 126, lockin 126): a long file of ATen host orchestration around two __global__
    # kernels; only their bodies are device code, the launch is vendor-path.
    source = b"""\
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

namespace {

int64_t env_chunk(const char* key, int64_t fallback) {
  const char* raw = std::getenv(key);
  return raw ? std::atoll(raw) : fallback;
}

template <typename scalar_t>
__global__ void rotate_pairs_kernel(scalar_t* x, const float* c, const float* s, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  const float a = static_cast<float>(x[2 * i]);
  const float b = static_cast<float>(x[2 * i + 1]);
  x[2 * i] = static_cast<scalar_t>(a * c[i] - b * s[i]);
  x[2 * i + 1] = static_cast<scalar_t>(a * s[i] + b * c[i]);
}

}  // namespace

torch::Tensor rotate_pairs(torch::Tensor x, torch::Tensor c, torch::Tensor s) {
  const int64_t n = x.numel() / 2;
  const int threads = 256;
  const int blocks = static_cast<int>((n + threads - 1) / threads);
  auto stream = at::cuda::getCurrentCUDAStream();
  rotate_pairs_kernel<float><<<blocks, threads, 0, stream>>>(
      x.data_ptr<float>(), c.data_ptr<float>(), s.data_ptr<float>(), n);
  return x;
}
"""
    path = "kernels/rotate/rotate_kernels.cu"
    assert "cuda.kernel" in _rules(path, source)
    assert _layers(path, source)["kernel"] == 11


def test_cuda_memory_statistics_in_a_diagnostics_helper_are_vendor_path() -> None:
    # apps/backend/runtime/families/wan22/diagnostics.py (sample, vendor-path, right): the
    # allocator's counters read before and after emptying the cache; the availability guard
    # is the portable fallback.
    source = b"""\
import torch


def report_memory(log, label):
    if not torch.cuda.is_available():
        return
    used = torch.cuda.memory_allocated() // (1024 * 1024)
    held = torch.cuda.memory_reserved() // (1024 * 1024)
    log.info("%s: used=%d MB held=%d MB", label, used, held)
"""
    path = "backend/runtime/memory_report.py"
    assert _rules(path, source) == {"torch.cuda-call"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 5}


def test_device_names_validated_from_a_multi_backend_list_are_portable() -> None:
    # apps/backend/runtime/families/supir/config.py (GPU-looking, portable, right): a
    # setting checked against every back end the program supports, CUDA one of five.
    source = b"""\
class ConfigError(ValueError):
    pass


def check_device(device: str) -> str:
    if device not in {"cpu", "cuda", "mps", "xpu", "directml"}:
        raise ConfigError("device must be one of cpu, cuda, mps, xpu, directml")
    return device
"""
    path = "backend/families/upscale/config.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 6}


# -- pytorch/PiPPy: devices and NCCL picked per rank ----------------------------------------


def test_rank_device_and_nccl_backend_choice_are_vendor_path() -> None:
    # test/test_optim.py and the examples (sample, vendor-path, right): a CUDA device per
    # rank when asked, NCCL then, gloo on the CPU.
    source = b"""\
import argparse
import torch
import torch.distributed as dist

parser = argparse.ArgumentParser()
parser.add_argument("--cuda", type=int, default=int(torch.cuda.is_available()))
parser.add_argument("--rank", type=int, default=0)
args = parser.parse_args()
if args.cuda:
    args.device = torch.device(f"cuda:{args.rank % torch.cuda.device_count()}")
else:
    args.device = torch.device("cpu")
dist.init_process_group(backend="nccl" if args.cuda else "gloo")
"""
    path = "tests/test_stages.py"
    assert "torch.device-string" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_slurm_job_exporting_nccl_settings_is_vendor_path() -> None:
    # test/multinode_trainer.slurm (sample, vendor-path, right): GPUs per task and NCCL's
    # transport settings for a multi-node run.
    source = b"""\
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --gpus-per-task=8
export NCCL_IB_DISABLE=1
export NCCL_DEBUG=WARN
export CUDA_LAUNCH_BLOCKING=0
srun torchrun --nnodes 2 --nproc_per_node 8 train.py
"""
    path = "jobs/train_two_nodes.slurm"
    assert _layers(path, source).get("vendor-path", 0) >= 3


# -- mrsteyk/RWKV-LM-deepspeed: WKV kernels, their bindings, Lightning launchers ------------


def test_half_precision_binding_through_cuda_fp16_is_vendor_path() -> None:
    # RWKV-v4neo/cuda/wkv_op_half.cpp (sample, vendor-path, right): the binding casts torch
    # halves to CUDA's __half; its float twin (RWKV-v4f/cuda/wkv_op.cpp) stays portable.
    half = b"""\
#include <torch/extension.h>
#include <cuda_fp16.h>

void run_half(int n, __half *x, __half *y);

void forward(int64_t n, torch::Tensor &x, torch::Tensor &y) {
    run_half(n, (__half*)x.data_ptr<c10::Half>(), (__half*)y.data_ptr<c10::Half>());
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("forward", &forward, "half forward");
}
"""
    single = b"""\
#include <torch/extension.h>

void run_float(int n, float *x, float *y);

void forward(int64_t n, torch::Tensor &x, torch::Tensor &y) {
    run_float(n, x.data_ptr<float>(), y.data_ptr<float>());
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("forward", &forward, "float forward");
}
"""
    assert set(_layers("ops/mix_op_half.cpp", half)) == {"vendor-path", "portable"}
    assert _layers("ops/mix_op.cpp", single) == {"portable": 8}


def test_lightning_gpu_accelerator_flag_in_a_launch_script_is_portable() -> None:
    # RWKV-v4neo/train.sh and inference*.sh (GPU-looking, portable, right): Lightning's
    # `--accelerator gpu` names no vendor (CUDA or Apple's MPS behind it).
    source = b"""\
python3 trainer.py --load_model_init base.pth \\
--data_file train.npy --ctx_len 1024 --batch_size 2 \\
--accelerator gpu --devices 1 --precision 16 --strategy deepspeed_stage_2
"""
    path = "scripts/train.sh"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 3}


# -- MarioJa26/babylonjs-voxel: GLSL ES 3.0 in static strings, Babylon host code -------------


def test_glsl_es3_in_a_typescript_static_string_is_kernel() -> None:
    # src/code/World/Light/SkyShader.ts (non-portable, hand 29, lockin 33: each literal's
    # opening and closing line counts with it, in range): a sky dome's two shaders.
    source = b"""\
export class DomeShader {
  static readonly vertex = `
    #version 300 es
    precision highp float;
    in vec3 position;
    uniform mat4 worldViewProjection;
    out vec3 vDir;
    void main(void) {
      gl_Position = worldViewProjection * vec4(position, 1.0);
      vDir = position;
    }
  `;
}
"""
    path = "src/world/light/DomeShader.ts"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 11, "portable": 2}


def test_registering_shaders_with_babylon_is_portable_host_code() -> None:
    # src/code/Maps/WorldEnvironment.ts (sample, portable, right): the shaders handed to
    # Babylon's store and a ShaderMaterial built from them; the GLSL lives elsewhere.
    source = b"""\
import { Effect, ShaderMaterial, Scene } from "@babylonjs/core";
import { DomeShader } from "./DomeShader";

export function makeDome(scene: Scene): ShaderMaterial {
  Effect.ShadersStore["domeVertexShader"] = DomeShader.vertex;
  Effect.ShadersStore["domeFragmentShader"] = DomeShader.fragment;
  return new ShaderMaterial("dome", scene, "dome", {
    attributes: ["position"],
    uniforms: ["worldViewProjection", "sunDirection"],
  });
}
"""
    path = "src/maps/Environment.ts"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 10}
