"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h56-random-g).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py``. This lane took sub-pool positions 162-168. One was
skipped: ROCm/rocmlirTriton (162) had no snapshot to fetch. Read were chuigda/vulkan4j (Java 22
FFM bindings generated for Vulkan, the Vulkan Memory Allocator, OpenXR, WebGPU, SDL3, GLFW,
OpenAL, OpenGL ES and stb, with a Kotlin generator, a Vulkan tutorial and its GLSL shaders),
Renzo-Test/RayTracingApp (a CPU ray tracer in C# with a WinForms front end and an Entity
Framework store, no GPU code), Brent-Newsom-NVIDIA/nvidia-cuda-wiki (a Quartz static site in
TypeScript publishing a Markdown wiki about NVIDIA's software, no GPU code), gpu-cli/vz (a Rust
container runtime over macOS's Virtualization framework, whose only GPU word is a passthrough
capability flag), StephenWang1/ShaderLearn (a Unity project of ShaderLab/Cg shader exercises,
with a game's Lua UI scripts and protobuf tables kept as notes) and pekkah/Ahjo-Vulkan (C#
Vulkan bindings generated with ClangSharp, a wrapper library over them and VMA, Slang and KTX
bindings, GLSL and Slang samples). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- chuigda/vulkan4j: generated Java bindings, one package tree per C library -----------------


def test_java_flags_class_in_a_vulkan_bindings_sub_package_is_vulkan_host_code() -> None:
    # modules/vulkan/.../vulkan/bitmask/VkAccessFlags3KHR.java (sample: portable before): a
    # flags class of the bindings, in their bitmask sub-package, importing nothing of Vulkan's.
    source = b"""\
package org.demo.vulkan.bitmask;

import java.util.ArrayList;
import java.util.List;

public final class VkPipelineStageFlags2 {
    public static final long NONE = 0x0L;
    public static final long COMPUTE_SHADER = 0x800L;

    public static String explain(long flags) {
        List<String> names = new ArrayList<>();
        if ((flags & COMPUTE_SHADER) != 0) {
            names.add("VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT");
        }
        return String.join(" | ", names);
    }

    private VkPipelineStageFlags2() {}
}
"""
    path = "modules/vulkan/src/main/java/org/demo/vulkan/bitmask/VkPipelineStageFlags2.java"
    assert _rules(path, source) == {"vulkan.jvm-package"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 14}


def test_java_marker_interface_of_a_vulkan_struct_is_vulkan_host_code() -> None:
    # modules/vulkan/.../datatype/IVkRenderPassCreateInfo.java, IVkVideoProfileInfoKHR.java and
    # IStdVideoEncodeH264PictureInfo.java (sample: portable before): a sealed interface uniting
    # a struct of the bindings with its pointer type.
    source = b"""\
package org.demo.vulkan.datatype;

import org.demo.ffi.IPointer;

/// Unifies VkSamplerCreateInfo and its pointer.
public sealed interface IVkSamplerCreateInfo
    extends IPointer
    permits VkSamplerCreateInfo, VkSamplerCreateInfo.Ptr
{}
"""
    path = "modules/vulkan/src/main/java/org/demo/vulkan/datatype/IVkSamplerCreateInfo.java"
    assert _rules(path, source) == {"vulkan.jvm-package"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 5}


def test_java_struct_of_the_bindings_importing_their_constants_is_vulkan_host_code() -> None:
    # modules/vulkan/.../datatype/VkMultisampledRenderToSingleSampledInfoEXT.java and its
    # NV and EXT siblings (sample: right before): the struct wrapper imports the bindings'
    # VkConstants, and now its package line says so too.
    source = b"""\
package org.demo.vulkan.datatype;

import java.lang.foreign.*;
import org.demo.vulkan.enumtype.*;
import static org.demo.vulkan.VkConstants.*;

public record VkFenceCreateInfo(MemorySegment segment) {
    public int sType() {
        return segment.get(ValueLayout.JAVA_INT, 0);
    }

    public void autoInit() {
        segment.set(ValueLayout.JAVA_INT, 0, VkStructureType.FENCE_CREATE_INFO);
    }
}
"""
    path = "modules/vulkan/src/main/java/org/demo/vulkan/datatype/VkFenceCreateInfo.java"
    assert _rules(path, source) == {"vulkan.jvm-package"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 10}


def test_java_binding_of_the_vulkan_memory_allocator_is_vulkan_host_code() -> None:
    # modules/vma/.../vma/bitmask/VmaVirtualBlockCreateFlags.java (sample: portable before):
    # VMA allocates Vulkan device memory; its binding goes where the Vulkan back end goes.
    source = b"""\
package org.demo.vma.bitmask;

public final class VmaPoolCreateFlags {
    public static final int IGNORE_BUFFER_IMAGE_GRANULARITY = 0x2;
    public static final int LINEAR_ALGORITHM = 0x4;

    private VmaPoolCreateFlags() {}
}
"""
    path = "modules/vma/src/main/java/org/demo/vma/bitmask/VmaPoolCreateFlags.java"
    assert _rules(path, source) == {"vulkan.jvm-package"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 5}


def test_java_openxr_and_webgpu_bindings_stay_portable() -> None:
    # modules/openxr/.../XrHandMeshIndexBufferMSFT.java and modules/webgpu/.../
    # WGPUSurfaceDescriptor.java (sample: right before): OpenXR and WebGPU are vendor-neutral
    # APIs, and their bindings' packages are not named after Vulkan.
    openxr = b"""\
package org.demo.openxr.datatype;

import java.lang.foreign.*;

public record XrViewState(MemorySegment segment) {
    public long viewStateFlags() {
        return segment.get(ValueLayout.JAVA_LONG, 16);
    }
}
"""
    webgpu = b"""\
package org.demo.webgpu.datatype;

import java.lang.foreign.*;

public record WGPUBlendComponent(MemorySegment segment) {
    public int srcFactor() {
        return segment.get(ValueLayout.JAVA_INT, 4);
    }
}
"""
    for path, source in (
        ("modules/openxr/src/main/java/org/demo/openxr/datatype/XrViewState.java", openxr),
        ("modules/webgpu/src/main/java/org/demo/webgpu/datatype/WGPUBlendComponent.java", webgpu),
    ):
        assert _rules(path, source) == set()
        assert set(_layers(path, source)) == {"portable"}


def test_java_text_block_of_wgsl_is_kernel_code() -> None:
    # modules/example/.../webgpu/LearnWebGPU.java (an extra kernel file, 29 lines by hand and
    # by lockin): the WGSL shader of a WebGPU triangle in a Java text block.
    source = b'''\
package demo.webgpu;

public final class Triangle {
    private static final String SHADER = """
            @vertex
            fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
                let x = f32(i) - 1.0;
                return vec4f(x, 0.5, 0.0, 1.0);
            }

            @fragment
            fn fs_main() -> @location(0) vec4f {
                return vec4f(1.0, 0.4, 0.0, 1.0);
            }
            """;

    public static String source() {
        return SHADER;
    }
}
'''
    path = "modules/example/src/main/java/demo/webgpu/Triangle.java"
    assert "wgsl.source-string" in _rules(path, source)
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "portable"}
    assert 8 <= layers["kernel"] <= 12


# -- StephenWang1/ShaderLearn: Unity ShaderLab exercises --------------------------------------


def test_shaderlab_program_opened_with_trailing_blanks_is_kernel_code() -> None:
    # Assets/4-Snow/Snow_Common_Surf.shader (non-portable list: 1 kernel line before, 31 by
    # hand): `CGPROGRAM` followed by two spaces ended the match at its own line.
    source = b"""\
Shader "Demo/SnowSurf" {
    Properties {
        _MainTex ("Base (RGB)", 2D) = "white" {}
        _Cover ("Cover", Range(0,1)) = 0
    }
    SubShader {
        Tags { "RenderType"="Opaque" }
        CGPROGRAM  \n\
        #pragma surface surf Lambert vertex:vert
        sampler2D _MainTex;
        float _Cover;
        struct Input {
            float2 uv_MainTex;
        };
        void vert (inout appdata_full v) {
            v.vertex.y += _Cover * 0.1;
        }
        void surf (Input IN, inout SurfaceOutput o) {
            half4 c = tex2D(_MainTex, IN.uv_MainTex);
            o.Albedo = lerp(c.rgb, half3(1, 1, 1), _Cover);
            o.Alpha = c.a;
        }
        ENDCG  \n\
    }
    FallBack "Diffuse"
}
"""
    path = "Assets/Snow/SnowSurf.shader"
    assert _rules(path, source) == {"hlsl.shaderlab-program"}
    assert _layers(path, source) == {"kernel": 16, "portable": 10}


def test_shaderlab_program_opened_with_a_comment_is_kernel_code() -> None:
    source = b"""\
Shader "Demo/Flat" {
    SubShader {
        Pass {
            CGPROGRAM // the whole pass
            #pragma vertex vert
            #pragma fragment frag
            float4 vert (float4 p : POSITION) : SV_POSITION { return UnityObjectToClipPos(p); }
            fixed4 frag () : SV_Target { return fixed4(1, 0, 0, 1); }
            ENDCG
        }
    }
}
"""
    path = "Assets/Flat/Flat.shader"
    assert _layers(path, source) == {"kernel": 6, "portable": 6}


def test_unity_script_setting_a_shader_lod_is_portable() -> None:
    # Assets/8-Water/SetShaderLOD.cs (sample: right before): a MonoBehaviour capping its
    # material's shader LOD through Unity's engine API.
    source = b"""\
using UnityEngine;

public class ShaderLodCap : MonoBehaviour
{
    public int lod = 300;
    private Shader shader;

    void Start()
    {
        shader = GetComponent<MeshRenderer>().material.shader;
        shader.maximumLOD = lod;
    }
}
"""
    path = "Assets/Water/ShaderLodCap.cs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_game_lua_ui_script_naming_a_shader_in_a_comment_is_portable() -> None:
    # Note/Work/luaRes/ui/panels/UIBubleOnLinePanel.lua (GPU-looking, right before): a UI
    # panel moving a liquid effect's fill level, the shader named in a comment only.
    source = b"""\
local FillPanel = {}

function FillPanel.ShowLevel(count)
    if count == nil or count == 0 then
        return
    end
    -- the liquid shader reads the level from high (empty) to low (full)
    local top, bottom = 0.8, -0.2
    local v = FillPanel.effect.localPosition
    v.y = top - count * (top - bottom)
    FillPanel.effect.localPosition = v
end

return FillPanel
"""
    path = "Note/Work/luaRes/ui/panels/FillPanel.lua"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- pekkah/Ahjo-Vulkan: ClangSharp bindings, a wrapper library, Slang fixtures ---------------


def test_csharp_generated_vulkan_struct_is_vulkan_host_code() -> None:
    # src/Ahjo.Vulkan.Native/Generated/VkFenceCreateInfo.cs and its siblings (sample: right
    # before): a blittable struct emitted by ClangSharp from vulkan_core.h.
    source = b"""\
namespace Demo.Vulkan.Native;

public unsafe partial struct VkSemaphoreCreateInfo
{
    public VkStructureType sType;

    [NativeTypeName("const void *")]
    public void* pNext;

    [NativeTypeName("VkSemaphoreCreateFlags")]
    public uint flags;
}
"""
    path = "src/Demo.Vulkan.Native/Generated/VkSemaphoreCreateInfo.cs"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_csharp_struct_chain_generator_reading_vk_xml_is_portable() -> None:
    # tools/Ahjo.Vulkan.StructExtendsGen/Program.cs (sample: right before): a console tool that
    # reads vk.xml and writes partial structs out as text; it runs nothing of Vulkan's.
    source = b"""\
using System.Text;
using System.Xml.Linq;

namespace Demo.Tools.ChainGen;

internal static class Program
{
    private static int Main(string[] args)
    {
        var registry = XDocument.Load(args[0]);
        var sb = new StringBuilder();
        foreach (var type in registry.Descendants("type"))
        {
            var extends = (string?)type.Attribute("structextends");
            if (extends is null) continue;
            sb.Append("partial struct ").Append((string?)type.Attribute("name")).AppendLine(" { }");
        }
        File.WriteAllText(args[1], sb.ToString());
        return 0;
    }
}
"""
    path = "tools/Demo.Tools.ChainGen/Program.cs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_msbuild_project_running_the_vulkan_sdk_glslc_is_vendor_path() -> None:
    # samples/AotSmoke/AotSmoke.csproj (sample: right before): the shader step finds glslc
    # under VULKAN_SDK.
    source = b"""\
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net9.0</TargetFramework>
  </PropertyGroup>
  <Target Name="CompileShaders" BeforeTargets="Build">
    <PropertyGroup>
      <Glslc Condition="'$(VULKAN_SDK)' != ''">$(VULKAN_SDK)\\Bin\\glslc.exe</Glslc>
    </PropertyGroup>
    <Exec Command="&quot;$(Glslc)&quot; Shaders/tri.vert -o $(OutDir)tri.vert.spv" />
  </Target>
</Project>
"""
    path = "samples/Smoke/Smoke.csproj"
    assert "build.vulkan" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_csharp_raw_string_of_slang_entry_points_is_kernel_code() -> None:
    # tests/Ahjo.Vulkan.Slang.Tests/ShaderFixtures.cs (an extra kernel file: 545 lines by
    # lockin, about 490 bodies plus their 80 delimiter lines by hand): Slang sources the tests
    # compile, each in a raw string literal.
    source = b'''\
namespace Demo.Slang.Tests;

internal static class Fixtures
{
    public const string Triangle = """
        struct VOut
        {
            float4 position : SV_Position;
            float3 color    : COLOR;
        };

        [shader("vertex")]
        VOut vertexMain(uint id : SV_VertexID)
        {
            VOut o;
            o.position = float4(float(id), 0.0, 0.0, 1.0);
            o.color    = float3(0.0, 1.0, 0.0);
            return o;
        }
        """;
}
'''
    path = "tests/Demo.Slang.Tests/Fixtures.cs"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "portable"}
    assert 12 <= layers["kernel"] <= 16


# -- gpu-cli/vz, Renzo-Test/RayTracingApp, Brent-Newsom-NVIDIA/nvidia-cuda-wiki: no GPU code ----


def test_rust_capability_flag_named_gpu_passthrough_is_portable() -> None:
    # crates/vz-api/src/main.rs (GPU-looking, right before): a runtime's capability list, one
    # of whose names is a GPU passthrough switch; no device is touched.
    source = b"""\
const CAPABILITIES: &[&str] = &["fs_quota_enforcement", "gpu_passthrough", "live_resize"];

#[derive(Default)]
struct Caps {
    gpu_passthrough: bool,
    live_resize: bool,
}

fn parse(names: &[&str]) -> Caps {
    let mut caps = Caps::default();
    for name in names {
        match *name {
            "gpu_passthrough" => caps.gpu_passthrough = true,
            "live_resize" => caps.live_resize = true,
            _ => {}
        }
    }
    caps
}
"""
    path = "crates/runtime-api/src/caps.rs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_csharp_cpu_ray_type_is_portable() -> None:
    # source-code/RayTracingApp/Engine/Ray.cs (sample: right before): the CPU tracer's ray.
    source = b"""\
namespace Tracer.Engine
{
    public class Ray
    {
        public Vector Origin { get; set; }
        public Vector Direction { get; set; }

        public Vector PointAt(double t)
        {
            return Origin.Add(Direction.Multiply(t));
        }
    }
}
"""
    path = "source-code/Tracer/Engine/Ray.cs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_static_site_config_titled_after_cuda_is_portable() -> None:
    # quartz.config.ts (GPU-looking, right before): a wiki's site settings whose title and
    # base URL name NVIDIA CUDA.
    source = b"""\
import { QuartzConfig } from "./quartz/cfg"

const config: QuartzConfig = {
  configuration: {
    pageTitle: "NVIDIA CUDA Notes",
    enableSPA: true,
    locale: "en-US",
    baseUrl: "example.github.io/cuda-notes",
  },
  plugins: { transformers: [], filters: [], emitters: [] },
}

export default config
"""
    path = "quartz.config.ts"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
