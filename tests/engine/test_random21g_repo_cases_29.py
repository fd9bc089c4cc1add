"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-random-g).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (the name's text only, so some are no GPU code at all).
This lane took sub-pool positions 322-329. One was skipped: chinmay-sawant/go-gpui (326) had no
snapshot to fetch. Read were tritonJS826/phototours (a photo-tour booking site: a Go API over
SQL and a React/TypeScript web client, "triton" only in the owner's name, no GPU code),
TritonSE/SI-Website-Revamp (a student club's Express and React web site, no GPU code),
Lor9ndr/RockEngine.Vulkan (a C# game engine and editor on Silk.NET.Vulkan: GLSL vertex,
fragment, geometry and compute shaders, Vulkan host code in the engine's wrappers, a NuGet
reference to the bindings), TritonDataCenter/containerpilot (a Go init system for containers
with Consul, no GPU code), AntonShalgachev/vulkan-renderer-demo (a C++ Vulkan renderer: GLSL
shader sources, Vulkan object wrappers, a Python script running glslc, CMake linking
Vulkan::Vulkan), ivirtex/vulkan-hover-docs (a VS Code extension showing Vulkan manual pages
on hover, with a Go scraper generating the pages: no Vulkan calls, only its names as text) and
Stanford-PERTS/triton (a Python and React survey platform for teachers, no GPU code). Fifteen
files of each repository (all nine of vulkan-hover-docs) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. No sampled file, kernel count or commit was wrong. Outside the
sample, two RockEngine files name a Silk.NET.Vulkan type in full (``new
Silk.NET.Vulkan.Extent2D(...)``, ``Silk.NET.Vulkan.ImageLayout.ShaderReadOnlyOptimal``) without
a ``using`` of the namespace and were portable; ``vulkan.silk-net-host`` now takes such a
qualified name as a use. The other tests pin verdicts worth keeping. Each snippet is a small
rewrite, in our own words, of a pattern found in the repository its test names; the expected
layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Lor9ndr/RockEngine.Vulkan: C# engine on Silk.NET.Vulkan ---------------------------------


def test_silk_net_vulkan_type_named_in_full_is_vendor_path() -> None:
    # ECS/Components/Camera.cs (outside the sample, portable before): the render target's
    # size built as a fully qualified Silk.NET.Vulkan struct, no using of the namespace.
    source = b"""\
using RockEngine.Core.Rendering;

namespace Engine.Components
{
    public class Viewer
    {
        public OffscreenTarget? Target { get; private set; }

        public void Attach(Renderer renderer)
        {
            Target = new OffscreenTarget(renderer.Context,
                new Silk.NET.Vulkan.Extent2D(800, 600));
        }
    }
}
"""
    path = "Engine/Components/Viewer.cs"
    assert "vulkan.silk-net-host" in _rules(path, source)
    assert _layers(path, source) == {"vendor-path": 1, "portable": 12}


def test_silk_net_vulkan_enum_named_in_full_is_vendor_path() -> None:
    # Assets/MaterialAsset.cs (outside the sample, portable before): a texture bound with a
    # fully qualified image layout.
    source = b"""\
namespace Engine.Assets
{
    public class SkinAsset
    {
        public void Bind(Material material, Texture albedo, uint slot)
        {
            material.Attach(new TextureSlot(2, slot,
                Silk.NET.Vulkan.ImageLayout.ShaderReadOnlyOptimal, albedo));
        }
    }
}
"""
    path = "Engine/Assets/SkinAsset.cs"
    assert "vendor-path" in _layers(path, source)


def test_silk_net_vulkan_named_only_in_a_string_stays_portable() -> None:
    # The qualified name as text (a type looked up by name) is no use of the bindings.
    source = b"""\
public class BackendProbe
{
    public const string VulkanApiType = "Silk.NET.Vulkan.Vk";

    public bool Has(System.Reflection.Assembly asm) => asm.GetType(VulkanApiType) != null;
}
"""
    assert _layers("Engine/BackendProbe.cs", source) == {"portable": 5}


def test_silk_net_using_file_with_pipeline_barriers_is_vendor_path() -> None:
    # Rendering/Passes/SubPasses/PickingSubPass.cs (sampled, right): a render pass built from
    # Silk.NET.Vulkan enums and shader modules created for two stages.
    source = b"""\
using RockEngine.Vulkan;
using Silk.NET.Vulkan;

public class HitTestPass
{
    public void Build(PassBuilder builder, VulkanContext ctx, ShaderCache cache)
    {
        builder.Attachment(Format.R8G8B8A8Unorm, ImageLayout.TransferSrcOptimal);
        builder.Dependency(PipelineStageFlags.BottomOfPipeBit, AccessFlags.ColorAttachmentWriteBit);
        var vs = VkShaderModule.Create(ctx, cache.Get("hit.vert"), ShaderStageFlags.VertexBit);
    }
}
"""
    path = "Editor/Passes/HitTestPass.cs"
    assert "vulkan.silk-net-host" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_plain_queue_family_struct_stays_portable() -> None:
    # RockEngine.Vulkan/QueueFamilyIndices.cs (sampled, right): nullable indices and a check,
    # in a namespace named Vulkan but with no call into the bindings.
    source = b"""\
namespace Engine.Vulkan
{
    public struct QueueSlots
    {
        public uint? Graphics { get; set; }
        public uint? Compute { get; set; }

        public readonly bool Ready() => Graphics.HasValue && Compute.HasValue;
    }
}
"""
    assert _layers("Engine.Vulkan/QueueSlots.cs", source) == {"portable": 9}


def test_glsl_point_shadow_vertex_stage_is_kernel_as_a_whole() -> None:
    # Shaders/PointShadow.vert (sampled, 16 kernel lines, right): a vertex stage reading model
    # matrices from a storage buffer by gl_BaseInstance.
    source = b"""\
#version 460

layout(location = 0) in vec3 inPos;

layout(set = 1, binding = 0) readonly buffer Models {
    mat4 transforms[];
};

layout(location = 0) out vec3 worldPos;

void main() {
    worldPos = vec3(transforms[gl_BaseInstance] * vec4(inPos, 1.0));
}
"""
    assert _layers("Shaders/Shadow.vert", source) == {"kernel": 9}


def test_silk_net_vulkan_package_reference_is_vendor_path() -> None:
    # RockEngine.Vulkan/RockEngine.Vulkan.csproj (outside the sample, right): the bindings as a
    # NuGet reference beside portable packages.
    source = b"""\
<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="Serilog" Version="4.0.0" />
    <PackageReference Include="Silk.NET.Vulkan" Version="2.22.0" />
    <PackageReference Include="Silk.NET.Windowing" Version="2.22.0" />
  </ItemGroup>
</Project>
"""
    path = "Engine.Vulkan/Engine.Vulkan.csproj"
    assert "build.vulkan" in _rules(path, source)
    assert _layers(path, source)["vendor-path"] == 1


# -- AntonShalgachev/vulkan-renderer-demo: C++ Vulkan renderer -------------------------------


def test_vulkan_image_view_wrapper_is_vendor_path() -> None:
    # vko/ImageView.cpp (sampled, right): a create-info filled field by field and the view
    # created and destroyed through the C API.
    source = b"""\
#include "View.h"

namespace gpu
{
    View::View(VkDevice device, VkImage image, VkFormat format) : m_device(device)
    {
        VkImageViewCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
        info.image = image;
        info.format = format;
        info.subresourceRange.levelCount = 1;
        vkCreateImageView(m_device, &info, nullptr, &m_view);
    }

    View::~View() { vkDestroyImageView(m_device, m_view, nullptr); }
}
"""
    path = "code/gpu/View.cpp"
    assert "vulkan.host-api" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_win32_virtual_key_codes_are_not_vulkan() -> None:
    # platform_win64/src/window.cpp (GPU-looking, portable, right): VK_ names are Win32's
    # virtual-key codes.
    source = b"""\
#include <windows.h>

Key translate(WPARAM wparam)
{
    switch (wparam)
    {
    case VK_SHIFT: return Key::Shift;
    case VK_CONTROL: return Key::Control;
    case VK_LEFT: return Key::Left;
    default: return Key::Unknown;
    }
}
"""
    assert _layers("code/platform/window.cpp", source) == {"portable": 11}


def test_shader_packaging_script_running_glslc_is_vendor_path() -> None:
    # data/shaders/package.py (outside the sample, right): glslc named as the compiler and
    # looked up under VULKAN_SDK.
    source = b"""\
import os
import subprocess

COMPILER = 'glslc'

def compile_stage(src, dst):
    return subprocess.run([COMPILER, '-O', src, '-o', dst], check=True)
"""
    path = "data/shaders/build.py"
    assert "build.vulkan-python" in _rules(path, source)
    assert "vendor-path" in _layers(path, source)


# -- ivirtex/vulkan-hover-docs: hover text for Vulkan names ----------------------------------


def test_hover_provider_matching_vk_prefixed_words_stays_portable() -> None:
    # vscode_extension/src/hover_provider.ts (sampled, right): a word starting with "vk" is
    # looked up in a map of markdown pages; nothing runs on a GPU.
    source = b"""\
import * as vscode from 'vscode';

export class ManPageHover implements vscode.HoverProvider {
    constructor(private pages: Map<string, string>) { }

    provideHover(doc: vscode.TextDocument, pos: vscode.Position) {
        const word = doc.getText(doc.getWordRangeAtPosition(pos));
        if (word.toLowerCase().startsWith('vk') && this.pages.has(word)) {
            return new vscode.Hover(new vscode.MarkdownString(this.pages.get(word)!));
        }
    }
}
"""
    assert _layers("vscode_extension/src/hover.ts", source) == {"portable": 10}
