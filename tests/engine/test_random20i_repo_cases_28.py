"""Cases from repositories drawn at random from a GPU-named sub-pool (issue 27, lane h56-random-i).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some are not GPU code
at all). This lane took sub-pool positions 176-182 and skipped none: every one had a snapshot.
Read were reallyhimbrodigy/promptly-gpu-worker (a video-editing worker on Modal: Python apps
on NVIDIA CUDA base images with gpu="L4"/"H100" functions, ffmpeg with NVENC and CUDA hwaccel,
a RIFE frame interpolator on torch, a Remotion front end in TypeScript),
Funky1981/jax-trading-assistant (a trading assistant in Go and TypeScript that carries two
copies of verl, the RL training library: Ray/FSDP/Megatron workers, Triton kernels, launch
scripts, Dockerfiles and GPU CI workflows), energye/gpui (a Go 2D renderer on gogpu's wgpu
with its WGSL shaders and an OpenGL presenter holding two GLSL strings), JaxYoun/huobangzhu
(a Java Spring logistics platform with a JavaScript admin UI, no GPU code),
MetalHexx/TeensyROM-UI (a WPF desktop app in C# for a Commodore 64 cartridge, no GPU code),
CodeMetalAI/c-to-rust-language-feature-bench (C11 feature programs with the Rust that language
models translated them to, no GPU code) and PeterBassett/Raytracer (a CPU ray tracer in C#
WinForms, no GPU code). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up
to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5
a repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. One sampled verdict was wrong before the fix: a CI workflow
whose job container is started with ``options: --gpus all`` (the NVIDIA container toolkit's
device request) was called portable. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- reallyhimbrodigy/promptly-gpu-worker: Modal apps on NVIDIA images, NVENC ----------------


def test_modal_function_on_cpu_only_is_portable() -> None:
    # cert_planonly_fps_ab_app.py (sampled, already right): a Modal app that reuses the
    # worker's image and runs on sixteen CPU cores; nothing of a GPU vendor's.
    source = b"""\
import modal

image = modal.Image.debian_slim().pip_install("requests")
app = modal.App("plan-check", image=image)


@app.function(cpu=16.0, memory=32768, timeout=1800)
def run(source_url: str) -> dict:
    return {"source": source_url, "fps": 2}
"""
    path = "check_plan_app.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_modal_gpu_model_and_nvidia_capabilities_are_vendor_path() -> None:
    # cert_gpu_fps.py (non-portable list, already right): a Modal secret that sets the NVIDIA
    # container toolkit's driver capabilities, and functions pinned to NVIDIA GPU models.
    source = b"""\
import modal

app = modal.App("fps-bench")
CAPS = modal.Secret.from_dict({"NVIDIA_DRIVER_CAPABILITIES": "all"})


@app.function(gpu="L4", timeout=600, secrets=[CAPS])
def bench(scene):
    return render(scene)
"""
    path = "bench_gpu_app.py"
    assert _rules(path, source) == {"container.nvidia-gpu-args", "cloud.nvidia-gpu-model-string"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 4}


def test_ffmpeg_nvenc_encoder_arguments_are_vendor_path() -> None:
    # handler.py (non-portable list, already right): the encoder arguments pick NVIDIA's
    # hardware encoder when the probe found it, libx264 otherwise.
    source = b"""\
def encoder_args(has_nvenc: bool) -> list[str]:
    if has_nvenc:
        return ["-c:v", "h264_nvenc", "-preset", "p4", "-cq", "23"]
    return ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23"]
"""
    path = "encode.py"
    assert _rules(path, source) == {"cuda.ffmpeg-nvidia-codec"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


# -- Funky1981/jax-trading-assistant: the verl copy (Triton kernels, GPU CI, launch scripts) -


def test_ci_job_container_options_requesting_gpus_are_vendor_path() -> None:
    # Agent0/.../verl/.github/workflows/e2e_dapo.yml (sampled, a miss before: portable): the
    # job's container is created with `--gpus all`, a device request that only the NVIDIA
    # container toolkit's hook answers; a ROCm job passes /dev/kfd and /dev/dri instead.
    source = b"""\
name: e2e
on: [pull_request]
jobs:
  e2e:
    runs-on: [gpu-8x]
    timeout-minutes: 40
    container:
      image: example/trainer:latest
      options: --gpus all --shm-size=10g
    steps:
      - uses: actions/checkout@v4
      - run: bash tests/e2e/run.sh
"""
    path = ".github/workflows/e2e.yml"
    assert _rules(path, source) == {"k8s.nvidia-gpu"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 11}


def test_rocm_ci_job_container_with_device_nodes_is_amd_not_nvidia() -> None:
    # The counterpart: AMD GPUs enter the container as the KFD and DRI device nodes, AMD's
    # own vendor-path (the HIP build-and-runtime rule), never NVIDIA's device request.
    source = b"""\
jobs:
  rocm:
    runs-on: [self-hosted]
    container:
      image: example/trainer-rocm:latest
      options: --device /dev/kfd --device /dev/dri --shm-size=10g
    steps:
      - run: bash tests/e2e/run.sh
"""
    path = ".github/workflows/rocm.yml"
    assert _rules(path, source) == {"build.hip-offload-arch"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 7}


def test_training_launcher_exporting_nccl_debug_is_vendor_path() -> None:
    # examples/train/math_tir/train_7b_grpo_megatron.sh (sampled, already right): a GRPO
    # launch script; its per-GPU batch sizes are any vendor's, the NCCL variable is not.
    source = b"""\
#!/bin/bash
set -x
n_gpus_per_node=8
micro_batch_per_gpu=1
gpu_memory_utilization=0.6
export NCCL_DEBUG=INFO
python -m trainer.main \\
    trainer.n_gpus_per_node=$n_gpus_per_node \\
    actor.micro_batch_size_per_gpu=$micro_batch_per_gpu \\
    rollout.gpu_memory_utilization=$gpu_memory_utilization
"""
    path = "examples/train/run_grpo.sh"
    assert _rules(path, source) == {"env.cuda-variables"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 8}


def test_device_agnostic_torch_helper_calls_are_portable() -> None:
    # verl/workers/sharding_manager/megatron_sglang.py (GPU-looking, already right): the
    # random states and cache go through a helper that returns torch.cuda or torch.npu.
    source = b"""\
from trainer.utils.device import get_torch_device


class ShardingManager:
    def __enter__(self):
        self.saved = get_torch_device().get_rng_state()
        get_torch_device().manual_seed(self.rank + 1000)
        get_torch_device().empty_cache()
        return self
"""
    path = "trainer/workers/sharding_manager.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_triton_entropy_kernel_is_kernel_and_cuda_check_vendor_path() -> None:
    # verl/utils/kernel/kernels.py (an extra kernel file, hand 831 code lines in nine
    # autotuned @triton.jit kernels, lockin 816): the jitted bodies are kernel code, the
    # host wrapper's is_cuda assertion is vendor-path.
    source = b"""\
import torch
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 64})], key=["n"])
@triton.jit
def row_max_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    vals = tl.load(x_ptr + row * n + cols, mask=cols < n, other=-float("inf"))
    tl.store(out_ptr + row, tl.max(vals, axis=0))


def row_max(x: torch.Tensor) -> torch.Tensor:
    assert x.is_cuda
    out = torch.empty(x.shape[0], device=x.device)
    row_max_kernel[(x.shape[0],)](x, out, x.shape[1])
    return out
"""
    path = "trainer/utils/kernel/kernels.py"
    assert _rules(path, source) == {"triton.jit", "torch.is-cuda"}
    assert _layers(path, source) == {"kernel": 7, "vendor-path": 1, "portable": 7}


def test_apex_fused_rms_norm_import_is_vendor_library() -> None:
    # verl/models/llama/megatron/layers/parallel_rmsnorm.py (non-portable list, already
    # right): the layer calls NVIDIA Apex's fused RMSNorm.
    source = b"""\
import torch
from apex.normalization.fused_layer_norm import fused_rms_norm_affine


class RMSNorm(torch.nn.Module):
    def forward(self, x):
        return fused_rms_norm_affine(x, self.weight, self.shape, eps=self.eps)
"""
    path = "models/layers/rmsnorm.py"
    assert _rules(path, source) == {"cuda-libs.python-apex"}
    assert set(_layers(path, source)) == {"vendor-library", "portable"}


# -- energye/gpui: a Go renderer on wgpu, WGSL shaders, GLSL strings -----------------------


def test_wgsl_blit_shader_is_kernel() -> None:
    # render/internal/gpu/shaders/blit.wgsl (sampled, hand 27, lockin 27): the whole shader
    # is hand-written device code; its comment lines are not counted.
    source = b"""\
// Copy a texture with one full-screen triangle.
struct VOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> VOut {
    let p = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    var o: VOut;
    o.pos = vec4<f32>(p * 2.0 - 1.0, 0.0, 1.0);
    o.uv = vec2<f32>(p.x, 1.0 - p.y);
    return o;
}

@fragment
fn fs(v: VOut) -> @location(0) vec4<f32> {
    return textureSample(tex, samp, v.uv);
}
"""
    path = "render/gpu/shaders/blit.wgsl"
    assert _layers(path, source) == {"kernel": 18}


def test_go_wgpu_host_code_is_portable() -> None:
    # render/internal/gpu/texture.go (sampled, already right): textures made through gogpu's
    # wgpu binding, a portable API over Vulkan, Metal and D3D12.
    source = b"""\
package gpu

import (
	"github.com/gogpu/gputypes"
	"github.com/gogpu/wgpu"
)

func newTexture(dev *wgpu.Device, w, h uint32) (*wgpu.Texture, error) {
	return dev.CreateTexture(&wgpu.TextureDescriptor{
		Size:   wgpu.Extent3D{Width: w, Height: h, DepthOrArrayLayers: 1},
		Format: gputypes.TextureFormatRGBA8Unorm,
		Usage:  gputypes.TextureUsageTextureBinding | gputypes.TextureUsageCopyDst,
	})
}
"""
    path = "render/gpu/texture.go"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_go_glsl_source_strings_are_kernel_lines() -> None:
    # ui/control.go (non-portable list, already right, 2 kernel lines): an OpenGL presenter
    # compiles a vertex and a fragment shader written as one-line GLSL strings.
    source = b"""\
package ui

func (c *Control) initShader() {
	vs := "#version 330 core\\nin vec2 p;out vec2 uv;void main(){gl_Position=vec4(p,0,1);uv=p;}"
	fs := "#version 330\\nin vec2 uv;out vec4 c;uniform sampler2D s;void main(){c=texture(s,uv);}"
	c.program = link(compile(vs), compile(fs))
}
"""
    path = "ui/control.go"
    layers = _layers(path, source)
    assert layers["kernel"] == 2
    assert "vendor-path" not in layers
    assert "vendor-library" not in layers


# -- JaxYoun/huobangzhu, MetalHexx/TeensyROM-UI, CodeMetalAI/..., PeterBassett/Raytracer -----


def test_java_spring_service_is_portable() -> None:
    # hbz/hbz-core/.../service/impl/HbzRefundAutoServiceImpl.java (sampled, already right).
    source = b"""\
package com.example.shipping.service.impl;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
@Transactional
public class RefundServiceImpl implements RefundService {
    private final RefundRepository refunds;

    public RefundServiceImpl(RefundRepository refunds) {
        this.refunds = refunds;
    }

    public Refund approve(Long id) {
        Refund r = refunds.findById(id).orElseThrow();
        r.setStatus(RefundStatus.APPROVED);
        return refunds.save(r);
    }
}
"""
    path = "core/src/main/java/com/example/shipping/service/impl/RefundServiceImpl.java"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_csharp_reactive_view_model_using_dynamicdata_kernel_is_portable() -> None:
    # Features/Terminal/TerminalViewModel.cs (GPU-looking, already right): DynamicData's
    # Kernel namespace is a collection library's, not a device kernel.
    source = b"""\
using System.Reactive.Linq;
using DynamicData.Kernel;
using ReactiveUI;

namespace App.Features.Terminal
{
    public class TerminalViewModel : ReactiveObject
    {
        public ReactiveCommand<Unit, Unit> Connect { get; }

        public TerminalViewModel(ISerialPort serial)
        {
            Connect = ReactiveCommand.Create(() => serial.OpenPort());
        }
    }
}
"""
    path = "src/App/Features/Terminal/TerminalViewModel.cs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_c11_feature_program_and_its_translation_are_portable() -> None:
    # paper_experimental_results/.../source.c and target.rs (sampled, already right): a C11
    # qualifier test and the Rust a model wrote for it.
    c_source = b"""\
int main(void) {
  int x = 17;
  int *p = &x;
  const volatile int *q = p;
  if ((const void *)q != (const void *)p)
    return 1;
  return *q == 17 ? 0 : 2;
}
"""
    rs_source = b"""\
fn main() {
    let x: i32 = 17;
    let p: *const i32 = &x;
    let q = p;
    if q != p {
        std::process::exit(1);
    }
    std::process::exit(if unsafe { *q } == 17 { 0 } else { 2 });
}
"""
    assert set(_layers("bench/qualifiers/source.c", c_source)) == {"portable"}
    assert set(_layers("bench/qualifiers/sample_001/target.rs", rs_source)) == {"portable"}


def test_csharp_parallel_cpu_ray_tracer_is_portable() -> None:
    # Rendering/Renderers/TracingRendererBase.cs (sampled, already right): rows rendered with
    # Parallel.For on the CPU.
    source = b"""\
using System.Threading.Tasks;

namespace Raytracer.Rendering.Renderers
{
    public abstract class TracingRendererBase
    {
        public void Render(Buffer target, Scene scene, ParallelOptions options)
        {
            Parallel.For(0, target.Height, options, y =>
            {
                for (int x = 0; x < target.Width; x++)
                    target.SetPixel(x, y, Trace(scene.Camera.RayFor(x, y), 0));
            });
        }

        protected abstract Colour Trace(Ray ray, int depth);
    }
}
"""
    path = "Rendering/Renderers/TracingRendererBase.cs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
