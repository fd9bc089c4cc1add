"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h42-random-c).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 235-242. Two had no snapshot: eviking/numba-metal and seanwevans/PrimeTensor-NS. Of
the six read, fifteen files each (eight in KhronosGroup/SPIRV-Guide, all it counts) were sampled
with ``random.Random("owner/name")`` over the files lockin counts, sorted by path, and labelled
before any fix, with the files lockin calls non-portable, GPU-looking files it calls portable
(``git grep -il`` for GPU words) and the files it gives no language. Three commits touching GPU
code were drawn from each repository that has any. Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- KhronosGroup/SPIRV-Guide: a guide to SPIR-V, its examples as GLSL and SPIR-V assembly -----


def test_spirv_guide_disassembled_compute_shader_is_kernel_code() -> None:
    # chapters/examples/*/*.spvasm: spirv-dis output of the GLSL compute shader beside it, each a
    # whole module (header comments, capabilities, types, the entry point's body). Before, a
    # .spvasm file had no language and went uncounted: the guide's five modules, ~300 lines.
    source = b"""\
; SPIR-V
; Version: 1.5
; Generator: Khronos Glslang Reference Front End; 10
; Bound: 12
; Schema: 0
               OpCapability Shader
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpName %main "main"
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %main = OpFunction %void None %3
          %5 = OpLabel
               OpReturn
               OpFunctionEnd
"""
    assert _rules("chapters/examples/loops/simple.spvasm", source) == {"vulkan.spirv-assembly-file"}
    assert _layers("chapters/examples/loops/simple.spvasm", source) == {"kernel": 12}


def test_spirv_guide_comment_only_assembly_counts_nothing() -> None:
    # The negative: a module stub holding only its `;` comments has no code line to count.
    source = b"""\
; SPIR-V
; TODO: assemble the example from the chapter's listing
"""
    assert _layers("chapters/examples/todo.spvasm", source) == {}


def test_spirv_guide_buffer_reference_shader_is_kernel_code() -> None:
    # chapters/examples/access_chains/example_physical.comp: GL_EXT_buffer_reference linked
    # list walked in main(); right before the fix (vulkan.shader-file, the whole file).
    source = b"""\
#version 450
#extension GL_EXT_buffer_reference : require

layout(buffer_reference) buffer Node;
layout(buffer_reference) buffer Node {
    int value;
    Node next;
};

layout(set = 0, binding = 0) buffer Root {
    int out_value;
    Node head;
};

void main() {
    out_value = head.next.next.value;
}
"""
    assert _rules("chapters/examples/chains/example_physical.comp", source) == {
        "vulkan.shader-file"
    }
    assert _layers("chapters/examples/chains/example_physical.comp", source) == {"kernel": 14}


# -- CIS5650-Fall-2025/Project4-WebGPU-Forward-Plus-and-Clustered-Deferred: a WebGPU course ----


def test_webgpu_course_templated_wgsl_compute_shader_is_kernel_code() -> None:
    # src/shaders/move_lights.cs.wgsl: the host fills ${...} placeholders by string
    # substitution before creating the module; the file is still WGSL device code as a whole.
    source = b"""\
@group(${bindGroup_scene}) @binding(0) var<storage, read_write> lights: LightSet;
@group(${bindGroup_scene}) @binding(1) var<uniform> time: f32;

@compute
@workgroup_size(${moveLightsWorkgroupSize})
fn main(@builtin(global_invocation_id) gid: vec3u) {
    let i = gid.x;
    if (i >= lights.numLights) {
        return;
    }
    lights.lights[i].pos = vec3f(sin(time), 0.0, cos(time));
}
"""
    assert _rules("src/shaders/move_lights.cs.wgsl", source) == {"wgsl.shader-file"}
    assert _layers("src/shaders/move_lights.cs.wgsl", source) == {"kernel": 11}


def test_webgpu_course_comment_only_shader_stub_counts_nothing() -> None:
    # src/shaders/clustering.cs.wgsl: the assignment's stub, only TODO comments.
    source = b"""\
// TODO-2: implement the light clustering compute shader
// For each cluster (X, Y, Z):
//     - compute its bounds in view space
"""
    assert _layers("src/shaders/clustering.cs.wgsl", source) == {}


def test_webgpu_course_host_setup_is_portable() -> None:
    # src/renderer.ts: WebGPU host code (navigator.gpu, requestAdapter, GPUDevice) runs on every
    # vendor's GPU through the browser.
    source = b"""\
export var device: GPUDevice;

export async function initWebGPU() {
    if (!navigator.gpu) {
        throw new Error("WebGPU not supported on this browser");
    }
    const adapter = await navigator.gpu.requestAdapter();
    device = await adapter!.requestDevice();
    const context = canvas.getContext("webgpu")!;
    context.configure({ device, format: navigator.gpu.getPreferredCanvasFormat() });
}
"""
    assert _layers("src/renderer.ts", source) == {"portable": 10}


# -- joshuazick1/ollama-orchestrator: a load balancer in front of Ollama servers ---------------


def test_ollama_orchestrator_gpu_memory_bookkeeping_is_portable() -> None:
    # src/model-manager.ts: tracks the VRAM each Ollama server reports for its loaded models
    # and refuses a load that would not fit; no vendor API, only numbers from an HTTP answer.
    source = b"""\
interface ModelState {
  gpuMemory: number; // GPU memory used in MB
}

function updateGpuMemory(state: ModelState, sizeVram: number): void {
  // Update GPU memory tracking after a successful load
  state.gpuMemory = Math.round(sizeVram / (1024 * 1024));
  if (state.gpuMemory > 24000) {
    throw new Error(`Insufficient GPU memory: ${state.gpuMemory}MB`);
  }
}
"""
    assert _layers("src/model-manager.ts", source) == {"portable": 9}


# -- acgabbert/inference-lens: an LLM evaluation workbench -----------------------------------


def test_inference_lens_run_kernel_module_is_portable() -> None:
    # app/*.client.ts: "run-kernel" is the name of the app's core module, not a GPU kernel.
    source = b"""\
import type { InferenceOptions } from "../../packages/core/src/run-kernel/types.ts";
import { createEntityId } from "../../packages/core/src/run-kernel/types.ts";

export function startRun(options: InferenceOptions) {
  return { id: createEntityId("run"), options };
}
"""
    assert _layers("app/evaluations/evaluation-start.client.ts", source) == {"portable": 5}
