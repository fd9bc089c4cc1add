"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h58-rest-c).

The sub-pool is ``/work/pool-h58-rest.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold NO GPU term (the
complement of ``/work/pool/h55_gpu_rule.py``, written in ``/work/pool/h58_rest_rule.py``), so
most are no GPU code at all. This lane took sub-pool positions 81-88 and skipped one:
lifesimulationprofile/koala-clash-androidtv (position 85) has no snapshot to fetch. Read were
AI-Hypercomputer/accelerator-agents (LLM agents porting GPU code to JAX and writing Pallas TPU
kernels: ADK agents and prompts, JAX and PyTorch reference problems, and JAXBench's Pallas
TPU attention and GEMM kernels), Bigajax/ecofrontend888 (a React/TypeScript wellbeing app
with a Capacitor Android shell, no GPU code), xbz-24/voxel_engine (a C++ voxel engine on
Vulkan with an OpenGL fallback, GLSL shaders and a Minecraft resource pack's shaders),
quantizor/markdown-to-jsx (a Markdown-to-JSX library whose demo site draws a WebGPU lava lamp
from a WGSL module), hashgraph/hedera-accelerator-defi-dex-ui (a React DEX and DAO front end,
no GPU code), wert2all/phosphor-icons-compose (Phosphor icons as Kotlin Compose ImageVectors,
no GPU code) and D-camara/Tucupy-Labs (a Django carbon-credit marketplace, no GPU code).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, files outside the
sample that hold kernel lines counted by hand (up to 5 a repository), and up to three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Every sampled file was right before; two kernel files outside the sample were counted short:
JAXBench's GQA and sparse splash-attention kernels (2p_GQA_Attention/optimized.py and
4p_Sparse_Attention/optimized.py) call a masking helper that takes ``k_slice: pl.Slice`` and
indexes the mask Ref with it, which no rule named, so 83 kernel lines were left portable (361
counted against 444; pallas.kernel now reads ``pl.Slice``). The other tests pin verdicts
worth keeping. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- AI-Hypercomputer/accelerator-agents: Pallas TPU kernels, agent code --------------------


def test_pallas_helper_taking_a_block_slice_is_kernel_code() -> None:
    # JAXBench/benchmark/2p_GQA_Attention/optimized.py (extra kernel file, 361 of 444 before):
    # the kernels call a helper masking their scores with a slice of the mask block; it
    # calls no pl.* primitive, but its `pl.Slice` parameter says it runs in the kernel.
    source = b"""\
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

def _mask_scores(s, mask_ref, *, cols: pl.Slice, fill: float):
    keep = mask_ref[:, cols]
    return jnp.where(keep, s, fill)

def _attn_kernel(q_ref, k_ref, m_ref, o_ref):
    j = pl.program_id(1)
    s = q_ref[...] @ k_ref[...].T
    o_ref[...] = _mask_scores(s, m_ref, cols=pl.ds(j * 128, 128), fill=-1e9)

def attention(q, k, m):
    return pl.pallas_call(
        _attn_kernel,
        out_shape=q,
        compiler_params=pltpu.CompilerParams(),
    )(q, k, m)
"""
    path = "bench/gqa/optimized.py"
    rules = _rules(path, source)
    assert {"pallas.kernel", "pallas.tpu-called-kernel"} <= rules
    layers = _layers(path, source)
    # Both functions' 7 lines are kernel code (and pallas.tpu's import line); the wrapper
    # is the launch.
    assert layers["kernel"] == 8
    assert _layers(path, source.replace(b"cols: pl.Slice", b"cols"))["kernel"] == 5


def test_jax_cpu_subprocess_env_clearing_cuda_devices_is_portable() -> None:
    # MaxKernel/auto_agent/server_utils/cpu_server.py (sampled, right): the sandbox runs
    # candidate kernels on JAX's CPU back end and hides any GPU by clearing the variable.
    source = b"""\
import os

def cpu_only_env():
    env = dict(os.environ)
    env["JAX_PLATFORMS"] = "cpu"
    env["CUDA_VISIBLE_DEVICES"] = ""
    return env
"""
    assert _layers("server/cpu_env.py", source) == {"portable": 6}


def test_agent_constants_naming_gpu_frameworks_are_portable() -> None:
    # MaxKernel/hitl_agent/subagents/gpu_to_jax_agent/constants.py (sampled, right): the
    # converter lists the frameworks it can read; names in a list are data, not calls.
    source = b"""\
PREFERRED_BACKEND = "cpu"
KNOWN_SOURCES = ["CUDA", "Triton", "PyTorch CUDA", "cuDNN", "cuBLAS"]
MAX_ROUNDS = 4
"""
    assert _layers("agent/constants.py", source) == {"portable": 3}


# -- xbz-24/voxel_engine: Vulkan host code, GLSL shaders, OpenGL fallback -------------------


def test_vulkan_logical_device_creation_is_vendor_path() -> None:
    # src/render/backends/VulkanDevice.cpp (sampled, right): queue and device create infos.
    source = b"""\
#include <vulkan/vulkan.h>

bool make_device(VkPhysicalDevice gpu, uint32_t family, VkDevice* out) {
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{ VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO };
    queue.queueFamilyIndex = family;
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo info{ VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO };
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queue;
    return vkCreateDevice(gpu, &info, nullptr, out) == VK_SUCCESS;
}
"""
    layers = _layers("src/render/VkDevice.cpp", source)
    assert layers.get("vendor-path", 0) >= 4
    assert "kernel" not in layers


def test_minecraft_style_vertex_shader_file_is_kernel() -> None:
    # assets/shaders/core/rendertype_outline.vsh (sampled, right): a .vsh GLSL stage, whole.
    source = b"""\
#version 150

in vec3 Position;
in vec4 Color;

uniform mat4 ModelViewMat;
uniform mat4 ProjMat;

out vec4 vertexColor;

void main() {
    gl_Position = ProjMat * ModelViewMat * vec4(Position, 1.0);
    vertexColor = Color;
}
"""
    assert _layers("assets/shaders/core/outline.vsh", source) == {"kernel": 10}


def test_opengl_program_handle_holder_is_portable() -> None:
    # src/render/VolumetricRaymarcher.cpp (GPU-looking, right): keeps a GL program handle.
    source = b"""\
#include "Raymarcher.h"

Raymarcher::Raymarcher(GLuint program) noexcept : program_(program) {}

void Raymarcher::SetProgram(GLuint program) noexcept {
    program_ = program;
}
"""
    assert _layers("src/render/Raymarcher.cpp", source) == {"portable": 5}


# -- quantizor/markdown-to-jsx: a WGSL module in a template literal, WebGPU host -----------


def test_wgsl_module_built_in_a_template_literal_is_kernel() -> None:
    # site/lava-lamp-shader.ts (extra kernel file, in range): the function returns the WGSL
    # module as a template literal; the function around it stays portable.
    source = b"""\
export function shaderSource(count: number): string {
  return `
struct Params {
    time: f32,
    radius: f32,
};
@group(0) @binding(0) var<uniform> params: Params;

@compute @workgroup_size(64)
fn step(@builtin(global_invocation_id) id: vec3u) {
    let i = id.x;
    if (i >= ${count}u) { return; }
}
`
}
"""
    path = "site/lamp-shader.ts"
    layers = _layers(path, source)
    assert layers["kernel"] >= 10
    assert "vendor-path" not in layers


def test_webgpu_host_setup_is_portable() -> None:
    # site/lava-lamp.tsx (GPU-looking, right): WebGPU's host API runs on every vendor.
    source = b"""\
async function start(canvas: HTMLCanvasElement, code: string) {
  if (!navigator.gpu) return null
  const adapter = await navigator.gpu.requestAdapter()
  const device = await adapter!.requestDevice()
  const module = device.createShaderModule({ code })
  const uniforms = device.createBuffer({
    size: 64,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  })
  return { device, module, uniforms }
}
"""
    assert _layers("site/lamp.tsx", source) == {"portable": 11}


# -- repositories with no GPU code: web front ends, icons, a Django app ---------------------


def test_react_component_with_css_transform_hint_is_portable() -> None:
    # Bigajax/ecofrontend888 src/components (sampled, right): an animated card.
    source = b"""\
export function Card({ title }: { title: string }) {
  return (
    <div style={{ willChange: 'transform' }} className="card">
      {title}
    </div>
  )
}
"""
    assert _layers("src/components/Card.tsx", source) == {"portable": 7}


def test_compose_image_vector_icon_is_portable() -> None:
    # wert2all/phosphor-icons-compose lib/src/main/kotlin/... (sampled, right).
    source = b"""\
val Dot: ImageVector
    get() = ImageVector.Builder(
        name = "Dot",
        defaultWidth = 24.dp,
        defaultHeight = 24.dp,
        viewportWidth = 256f,
        viewportHeight = 256f,
    ).apply {
        path(fill = SolidColor(Color.Black)) {
            moveTo(128f, 128f)
            close()
        }
    }.build()
"""
    assert _layers("icons/Dot.kt", source) == {"portable": 13}


def test_django_view_is_portable() -> None:
    # D-camara/Tucupy-Labs credits/views.py (sampled, right).
    source = b"""\
from django.shortcuts import render

def credit_list(request):
    credits = Credit.objects.filter(owner=request.user)
    return render(request, "credits/list.html", {"credits": credits})
"""
    assert _layers("credits/views.py", source) == {"portable": 4}
