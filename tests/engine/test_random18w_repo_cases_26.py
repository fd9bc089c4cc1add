"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-w).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 155-161. One was skipped: cobblecorn/metal-arms-pc-port
(155) had no snapshot to fetch. Read were alexw5335/Kotlin-Vulkan-Bindings (Vulkan bindings
for Kotlin on the JVM generated from vk.xml into a package of their own, thin wrappers over
them, a toy GUI engine and its GLSL shaders), adamglin0/compose-phosphor-icon (the Phosphor
icon set as Compose Multiplatform ImageVectors, no GPU code), richviramontes22-dotcom/
No-More-Mosquitoes- (a pest-control company's React and Express web app, no GPU code),
proserve/learning_pytorch (a Node.js back end with a few course notebooks and one PyTorch
classification script picking the CUDA device) and Marsimplodation/Bachelor-Thesis-Pathtracer
(a CPU path tracer in C++ with SDL2, ImGui and TBB) and qhdwight/voxelfield (a Unity voxel
shooter in C#, with its own ShaderLab surface shaders and TextMesh Pro's). Snapshots missing
large blobs were laid out without them; no counted source file was missing. Fifteen files of
each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- alexw5335/Kotlin-Vulkan-Bindings: a project's own Vulkan bindings, and code over them -----


def test_kotlin_wrapper_over_own_vulkan_package_is_vulkan_host_code() -> None:
    # module-vkwrapper/.../handle/DescriptorPool.kt and Surface.kt (sample: portable before):
    # handles that allocate descriptor sets and destroy surfaces through bindings generated
    # into a package named vulkan, the Vk prefix dropped from every name. The wildcard import
    # of that package is the line that says so.
    source = b"""\
package demo.wrapper.handle

import demo.core.memory.*
import demo.vulkan.*

class CommandPool(address: Long, val device: Device) : CommandPoolH(address) {
\tfun destroy() = device.commands.destroyCommandPool(this, null)

\tfun allocate(count: Int) = stackGet {
\t\tval info = CommandBufferAllocateInfo {
\t\t\tit.commandPool = this@CommandPool
\t\t\tit.commandBufferCount = count
\t\t}
\t\tdevice.commands.allocateCommandBuffers(info, mallocPointer(count)).check()
\t}
}
"""
    path = "module-vkwrapper/src/main/kotlin/demo/wrapper/handle/CommandPool.kt"
    assert _rules(path, source) == {"vulkan.jvm-package"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 12}


def test_kotlin_copy_of_a_vulkan_struct_is_vulkan_host_code() -> None:
    # module-vkwrapper/.../persistent/MemoryRequirementsP.kt, ImageSubresourceP.kt and
    # SurfaceFormatP.kt (sample: portable before): a plain class copying the fields of one of
    # the bindings' structs, named as Vulkan names it less the Vk prefix.
    source = b"""\
package demo.wrapper.persistent

import demo.vulkan.ImageUsageFlags
import demo.vulkan.Extent

class ImageInfoP(val usage: ImageUsageFlags, val width: Int, val height: Int) {
\tconstructor(usage: ImageUsageFlags, extent: Extent) : this(usage, extent.width, extent.height)
}
"""
    path = "module-vkwrapper/src/main/kotlin/demo/wrapper/persistent/ImageInfoP.kt"
    assert _rules(path, source) == {"vulkan.jvm-package"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 5}


def test_kotlin_file_of_the_bindings_package_is_vulkan_host_code() -> None:
    # module-vkwrapper/src/main/kotlin/kvb/vulkan/StructUtils.kt: helpers declared in the
    # bindings' own package.
    source = b"""\
package demo.vulkan

fun Extent.area() = width * height
"""
    path = "module-vkwrapper/src/main/kotlin/demo/vulkan/ExtentUtils.kt"
    assert _rules(path, source) == {"vulkan.jvm-package"}


def test_kotlin_binding_generator_package_named_vulkan_stays_portable() -> None:
    # module-codegen/.../kvb/codegen/vulkan/*: the generator that reads vk.xml and writes the
    # bindings out is text processing, whatever its package is called.
    source = b"""\
package demo.codegen.vulkan

import demo.codegen.vulkan.xml.XmlReader
import demo.codegen.vulkan.RegistryScraper
import demo.codegen.writer.CodeWriter

class BindingGenerator(private val scraper: RegistryScraper) {
\tfun write(out: CodeWriter) {
\t\tfor (struct in scraper.structs) out.line("class ${struct.name}")
\t}
}
"""
    path = "module-codegen/src/main/kotlin/demo/codegen/vulkan/BindingGenerator.kt"
    assert _layers(path, source) == {"portable": 9}


def test_kotlin_gui_pane_without_vulkan_stays_portable() -> None:
    # module-app/.../gui/type/pane/StackPane.kt and CheckBox.kt (sample: portable, right).
    source = b"""\
package demo.gui.pane

class LayerPane : Pane() {
\toverride fun align() {
\t\tfor (child in children) {
\t\t\tchild.width = width
\t\t\tchild.height = height
\t\t}
\t}
}
"""
    assert _layers("module-app/src/main/kotlin/demo/gui/pane/LayerPane.kt", source) == {
        "portable": 9
    }


def test_glsl_font_fragment_shader_is_kernel_whole() -> None:
    # res/shader/gui/font.frag (sample: kernel 17, hand 17) and its .vert/.geom siblings.
    source = b"""\
#version 450
#extension GL_ARB_separate_shader_objects : enable

layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint glyphBits;
layout(location = 0) out vec4 outColour;

void main() {
\tuint bit = uint(uv.y) * 8u + uint(uv.x);
\tfloat on = float((glyphBits >> bit) & 1u);
\toutColour = vec4(1.0, 1.0, 1.0, on);
}
"""
    assert _layers("res/shader/gui/glyph.frag", source) == {"kernel": 10}


# -- qhdwight/voxelfield: Unity surface shaders, TextMesh Pro includes, C# on the Unity API ----


def test_unity_surface_shader_counts_only_its_cg_program_as_kernel() -> None:
    # Assets/Shaders/Foliage.shader (sample: kernel 22 of 39, hand 20 between CGPROGRAM and
    # ENDCG, 22 with them): ShaderLab's Properties, Tags and render state are portable.
    source = b"""\
Shader "Custom/Sway" {
    Properties {
        _MainTex("Albedo", 2D) = "white" {}
        _Speed("Speed", Float) = 2.0
    }
    SubShader {
        Tags { "RenderType"="Opaque" }
        Cull Off
        CGPROGRAM
        #pragma surface surf Standard vertex:vert
        float _Speed;
        sampler2D _MainTex;
        struct Input { float2 uv_MainTex; };
        void vert(inout appdata_full v) {
            v.vertex.x += sin(_Time.y * _Speed) * 0.1;
        }
        void surf(Input IN, inout SurfaceOutputStandard o) {
            o.Albedo = tex2D(_MainTex, IN.uv_MainTex).rgb;
        }
        ENDCG
    }
}
"""
    path = "Assets/Shaders/Sway.shader"
    assert _layers(path, source) == {"kernel": 12, "portable": 10}


def test_cg_include_file_is_kernel_whole() -> None:
    # Assets/TextMesh Pro/Shaders/TMPro_Surface.cginc (sample: kernel 75, hand 75).
    source = b"""\
void OutlineSurf(float2 uv, float4 faceColor, inout SurfaceOutput o)
{
    float d = tex2D(_MainTex, uv).a;
    float edge = smoothstep(0.45, 0.55, d);
    o.Albedo = faceColor.rgb * edge;
    o.Alpha = faceColor.a * edge;
}
"""
    assert _layers("Assets/Shaders/Outline.cginc", source) == {"kernel": 7}


def test_unity_csharp_naming_a_replacement_shader_stays_portable() -> None:
    # Assets/Scripts/Voxelfield/Interface/MiniMapCamera.cs and Config.cs (GPU-looking,
    # portable, right): the engine's camera and SystemInfo APIs run on every back end.
    source = b"""\
using UnityEngine;

public class OverheadCamera : MonoBehaviour
{
    [SerializeField] private Shader m_Flat = default;
    private void Start()
    {
        var cam = GetComponent<Camera>();
        if (m_Flat) cam.SetReplacementShader(m_Flat, string.Empty);
        Debug.Log($"GPU: {SystemInfo.graphicsDeviceName}");
    }
}
"""
    assert _layers("Assets/Scripts/OverheadCamera.cs", source) == {"portable": 11}


# -- proserve/learning_pytorch, the three repositories with no GPU code ----------------------


def test_torch_script_picking_the_cuda_device_is_vendor_path() -> None:
    # neural_network_classification_with_pytorch.py (lockin's only non-portable file, and
    # the one line its initial commit is gated on: right).
    source = b"""\
import torch
from torch import nn

target = "cuda" if torch.cuda.is_available() else "cpu"
net = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1)).to(target)
"""
    path = "classify_points.py"
    assert _rules(path, source) == {"torch.device-string"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


def test_compose_icon_vector_stays_portable() -> None:
    # adamglin0/compose-phosphor-icon: every file an ImageVector path (sample 15/15 portable).
    source = b"""\
package demo.icons.bold

import androidx.compose.ui.graphics.Color
import androidx.compose.ui.graphics.SolidColor
import androidx.compose.ui.graphics.vector.ImageVector
import androidx.compose.ui.graphics.vector.path
import androidx.compose.ui.unit.dp

public val BoldGroup.Chip: ImageVector
    get() = ImageVector.Builder(name = "Chip", defaultWidth = 24.0.dp, defaultHeight = 24.0.dp,
            viewportWidth = 256.0f, viewportHeight = 256.0f).apply {
        path(fill = SolidColor(Color(0xFF000000))) {
            moveTo(40.0f, 40.0f)
            lineTo(216.0f, 40.0f)
            close()
        }
    }.build()
"""
    assert _layers("phosphor/src/commonMain/kotlin/demo/icons/bold/Chip.kt", source) == {
        "portable": 15
    }


def test_catalogue_metal_yard_sign_stays_portable() -> None:
    # richviramontes22-dotcom/No-More-Mosquitoes- client/lib/marketplace/catalogMetadata.ts
    # (GPU-looking by the word metal, portable, right).
    source = b"""\
export const catalog: Record<string, { title: string; blurb: string }> = {
  "sign-metal": {
    title: "Metal yard sign",
    blurb: "An aluminium sign on a metal stake.",
  },
};
"""
    assert _layers("client/lib/marketplace/catalog.ts", source) == {"portable": 6}


def test_cpu_path_tracer_build_with_avx_flags_stays_portable() -> None:
    # Marsimplodation/Bachelor-Thesis-Pathtracer CMakeLists.txt (sample: portable, right):
    # x86 vector flags and TBB are CPU code on any GPU vendor's machine.
    source = b"""\
cmake_minimum_required(VERSION 3.7)
project(tracer)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -msse2 -mavx2 -O3")
find_package(SDL2 REQUIRED)
find_package(TBB REQUIRED)
file(GLOB_RECURSE SOURCES "src/*.cpp")
add_executable(tracer ${SOURCES})
target_link_libraries(tracer SDL2 TBB::tbb)
"""
    assert _layers("CMakeLists.txt", source) == {"portable": 9}
