"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-random-f).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (the name's text only, so some are no GPU code at all).
This lane took sub-pool positions 314-321; none was skipped, every one had a snapshot. Read
were martinlaxenaire/gpu-curtains (a WebGPU rendering library in TypeScript: WGSL shader
chunks in template literals, tagged /* wgsl */ in the sources, the tag on a line of its own in
the bundled dist/, examples passing statement chunks to materials, generated typings and
TypeDoc pages), IEEE-UCSD-RoboCupSSL/TritonSoccerAI (a Java robot-soccer AI, "Triton" being the
team's name, no GPU code), ThomasDHZ/VulkanGameEngine (a C++ Vulkan engine: GLSL shader files,
Vulkan host code, an embedded Lua), trmcnealy/Vulkan (C# bindings of Vulkan, VMA, V-EZ and
FreeType), dtadpole/triton-ag (an LLM agent writing Triton matmul kernels, with the
generated kernels and their torch benchmarks), ROCm/rocm-cli (a Rust CLI that installs,
examines and serves models on ROCm, with Python test scripts), invzz/VulkanEngine (a C++ Vulkan
engine with GLSL shaders) and shaderLABS/shaderBOT (a Discord moderation bot in TypeScript,
no GPU code). Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (up to 5 a repository), and
up to three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Two sampled files were wrong before: gpu-curtains' raycasting example hands a
material a two-statement WGSL chunk whose only WGSL mark is a declaration typed `vec3f`, and
rocm-cli's Lemonade engine sets HIP_VISIBLE_DEVICES for the server it starts from Rust, which
env.hip-variables-python read in Python only. One extra kernel file was undercounted: the
bundled get-specular.mjs puts each /* wgsl */ tag on a line of its own, above the literal.
The other tests pin verdicts worth keeping. Each snippet is a small rewrite, in our own words,
of a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- martinlaxenaire/gpu-curtains: a WebGPU library ------------------------------------------


def test_material_chunk_with_a_typed_wgsl_declaration_is_kernel() -> None:
    # examples/raycasting-render-bundle-phong-shading/main.js (sampled, portable before): a
    # fragment chunk of two WGSL statements, a `let` typed vec3f and an assignment.
    source = b"""\
import { LitMesh } from '../../dist/esm/index.mjs'

const mesh = new LitMesh(renderer, {
  material: {
    shading: 'Phong',
    fragmentChunks: {
      preliminaryContribution: `
        // tint the hit mesh
        let tinted: vec3f = select(outputColor.rgb, hover.color, bool(hover.active));
        outputColor = vec4(tinted, 1.0);
      `,
    },
  },
})
"""
    path = "examples/hover-tint/main.js"
    assert "wgsl.source-string" in _rules(path, source)
    layers = _layers(path, source)
    assert 2 <= layers["kernel"] <= 5


def test_bundled_chunk_with_the_wgsl_tag_above_the_literal_is_kernel() -> None:
    # dist/esm/core/shaders/chunks/fragment/body/get-specular.mjs (extra kernel file, 10 of
    # 22 lines before): the bundler writes each /* wgsl */ tag on a line of its own.
    source = b"""\
const getSheen = ({ sheenTexture = null } = {}) => {
  let sheen = "";
  if (sheenTexture) {
    sheen += /* wgsl */
    `
  var sheenUV: vec2f = ${sheenTexture.uvName ?? "uv"};`;
    sheen += /* wgsl */
    `
  sheenColor = sheenColor * sheenSample.rgb;
  sheenRoughness = sheenRoughness * sheenSample.a;`;
  }
  return sheen;
};

export { getSheen };
"""
    path = "dist/esm/chunks/get-sheen.mjs"
    assert "wgsl.tagged-string" in _rules(path, source)
    assert 5 <= _layers(path, source)["kernel"] <= 7


def test_tagged_wgsl_function_chunk_is_kernel() -> None:
    # src/core/shaders/chunks/fragment/head/get-PBR-direct.ts (extra, right): a /* wgsl */
    # literal of helper functions typed with WGSL vectors and a function pointer.
    source = b"""\
/** Direct light helper appended to every PBR shader. */
export const getDirect = /* wgsl */ `
fn directTerm(
  normal: vec3f,
  lightDir: vec3f,
  out_light: ptr<function, vec3f>
) {
  let NdotL: f32 = saturate(dot(normal, lightDir));
  (*out_light) += NdotL * vec3(1.0);
}
`
"""
    path = "src/core/shaders/chunks/fragment/head/get-direct.ts"
    assert _rules(path, source) & {"wgsl.tagged-string", "wgsl.source-string"}
    assert _layers(path, source)["kernel"] == 10


def test_generated_typings_holding_a_wgsl_string_type_stay_portable() -> None:
    # dist/types/.../get-vertex-to-UV-coords-helpers.d.ts (sampled, right): tsc declares the
    # constant's literal type; nothing compiles a declaration file.
    source = b"""\
/** Map a clip-space position to uv coordinates. */
export declare const clipToUV = "\\nfn clipToUV(p: vec2f) -> vec2f {\\n  return p * 0.5;\\n}\\n";
"""
    path = "dist/types/core/shaders/chunks/clip-to-uv.d.ts"
    assert _layers(path, source) == {"portable": 1}


# -- IEEE-UCSD-RoboCupSSL/TritonSoccerAI: a Java robot-soccer AI --------------------------------


def test_java_robot_skill_named_after_the_triton_team_is_portable() -> None:
    # src/main/java/triton/... (sampled, right): the package is named after the team.
    source = b"""\
package triton.coreModules.ai.skills;

import triton.coreModules.robot.ally.Ally;
import triton.misc.math.linearAlgebra.Vec2D;

public class Dribble {
    public static void toward(Ally ally, Vec2D target) {
        ally.setDribblerOn(true);
        ally.curveTo(target);
    }
}
"""
    assert _layers("src/main/java/triton/coreModules/ai/skills/Dribble.java", source) == {
        "portable": 9
    }


# -- ThomasDHZ/VulkanGameEngine and invzz/VulkanEngine: Vulkan engines in C++ --------------------


def test_glsl_fragment_shader_file_is_kernel_as_a_whole() -> None:
    # Shaders/BloomShader.frag, assets/shaders/spot_light.frag (sampled, right).
    source = b"""\
#version 450
layout(location = 0) in vec3 inColor;
layout(location = 0) out vec4 outColor;

void main()
{
    outColor = vec4(inColor, 0.5);
}
"""
    assert _layers("Shaders/GlowShader.frag", source) == {"kernel": 7}


def test_engine_header_holding_vulkan_handles_is_vendor_path() -> None:
    # VulkanEngineDLL/MemoryPoolSystem.h (sampled, right): descriptor pool and set handles.
    source = b"""\
#pragma once
#include <vulkan/vulkan.h>

class BindlessPool
{
public:
    VkDescriptorPool      Pool = VK_NULL_HANDLE;
    VkDescriptorSetLayout Layout = VK_NULL_HANDLE;
    int Count = 0;
};
"""
    layers = _layers("VulkanEngineDLL/BindlessPool.h", source)
    assert set(layers) == {"vendor-path", "portable"}


def test_project_guid_type_spelled_vk_is_portable() -> None:
    # VulkanEngineDLL/MaterialSystem.cpp (GPU-looking, right): VkGuid is the engine's own id.
    source = b"""\
#include "MaterialSystem.h"

VkGuid MaterialSystem::Load(const nlohmann::json& json)
{
    VkGuid id = VkGuid(json["MaterialId"].get<std::string>());
    materials[id] = Material{};
    return id;
}
"""
    assert _layers("VulkanEngineDLL/MaterialSystem.cpp", source) == {"portable": 7}


def test_android_cmake_linking_gles_is_portable() -> None:
    # VulkanGameEngineAndroid/app/src/main/cpp/CMakeLists.txt (sampled, right).
    source = b"""\
cmake_minimum_required(VERSION 3.22.1)
project("gameapp")
add_library(gameapp SHARED main.cpp Renderer.cpp)
target_link_libraries(gameapp EGL GLESv3 android log)
"""
    assert _layers("app/src/main/cpp/CMakeLists.txt", source) == {"portable": 4}


# -- trmcnealy/Vulkan: C# bindings ---------------------------------------------------------------


def test_csharp_vulkan_function_pointer_delegate_is_vendor_path() -> None:
    # Vulkan/Delegates/PFN_vk*.cs (sampled, right): the binding's delegate of a Vulkan entry.
    source = b"""\
using System.Runtime.InteropServices;

namespace Vulkan
{
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    public unsafe delegate VkResult PFN_vkResetFence([NativeTypeName("VkDevice")] VkDevice device,
                                                     VkFence fence);
}
"""
    assert "vendor-path" in _layers("Vulkan/Delegates/PFN_vkResetFence.cs", source)


# -- dtadpole/triton-ag: generated Triton kernels --------------------------------------------------


def test_generated_triton_matmul_is_kernel_and_its_benchmark_vendor_path() -> None:
    # func_matmul/*/matmul_triton.py (sampled, right): a jitted kernel, a torch wrapper and a
    # test on a CUDA device.
    source = b"""\
import torch
import triton
import triton.language as tl

@triton.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)

def scale(x):
    y = torch.empty_like(x)
    scale_kernel[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
    return y

if __name__ == "__main__":
    print(scale(torch.ones(1000, device="cuda")).sum())
"""
    layers = _layers("func_matmul/gen_000/scale_triton.py", source)
    assert layers["kernel"] == 6
    assert layers["vendor-path"] == 1


def test_agent_prompts_about_triton_are_portable() -> None:
    # gen_code.py (sampled, right): system prompts naming Triton kernels are text.
    source = b"""\
from pydantic_ai import Agent

planner = Agent(
    "claude-3-7-sonnet-latest",
    system_prompt="You write a plan for a fast Triton kernel and its PyTorch wrapper.",
)
"""
    assert _layers("gen_code.py", source) == {"portable": 5}


# -- ROCm/rocm-cli: a Rust CLI for ROCm ------------------------------------------------------------


def test_rust_child_environment_pinning_hip_devices_is_vendor_path() -> None:
    # engines/lemonade/src/lib.rs (sampled, portable before): the server it starts is given
    # HIP_VISIBLE_DEVICES; the hint printed to the user is no setting.
    source = b"""\
use std::ffi::OsString;

fn server_env(indices: &[u32]) -> Vec<(&'static str, OsString)> {
    let mut vars = Vec::new();
    if !indices.is_empty() {
        let csv = indices.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        vars.push(("HIP_VISIBLE_DEVICES", OsString::from(csv)));
    }
    println!("HIP_VISIBLE_DEVICES={} is set for the server.", indices.len());
    vars
}
"""
    path = "engines/lemonade/src/env.rs"
    assert "env.hip-variables-python" in _rules(path, source)
    assert _layers(path, source)["vendor-path"] == 1


def test_rust_module_naming_rocm_backends_in_text_is_portable() -> None:
    # crates/rocm-dash-tui/src/ui/tabs/serving.rs and lifecycle steps (sampled, right): the
    # product name in labels and messages.
    source = b"""\
pub fn title(engine: &str) -> String {
    format!("rocm serve: {engine} (ROCm or Vulkan backend)")
}
"""
    assert _layers("crates/dash/src/ui/title.rs", source) == {"portable": 3}


# -- shaderLABS/shaderBOT: a Discord bot -----------------------------------------------------------


def test_discord_bot_command_is_portable() -> None:
    # src/bot/chatInputCommands/*/callback.ts (sampled, right).
    source = b"""\
import { ChatInputCommandInteraction } from 'discord.js';

export async function purge(interaction: ChatInputCommandInteraction) {
    const amount = interaction.options.getInteger('amount', true);
    await interaction.channel?.bulkDelete(amount);
    await interaction.reply({ content: `Deleted ${amount} messages.`, ephemeral: true });
}
"""
    assert _layers("src/bot/chatInputCommands/purge/callback.ts", source) == {"portable": 6}
