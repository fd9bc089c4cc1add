"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-k).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 658-664. One was skipped: urakozz/intel-arc-inference-server
(662) had no snapshot to fetch. Read were santiago-salinas/Raytracing (a C# WinForms CPU ray
tracer with Entity Framework persistence, no GPU code), Saverio976/Raytracer (a C++ CPU ray
tracer with plug-in primitives, no GPU code), jonnxie/Particle (a C++ Vulkan engine with GLSL
shaders and glslangValidator batch scripts), LostPeter/LostPeterVulkan (a C++ Vulkan engine
with GLSL and HLSL shaders, shader build scripts, and vendored assimp, SPIRV-Cross, glfw and
zlib), jameshball/osci-render (a JUCE audio plug-in whose OpenGL visualiser keeps its GLSL
shaders in .glsl files wrapped in C++ raw strings) and NervanaSystems/he-transformer (a
homomorphic-encryption back end for the standalone nGraph compiler, on CPU through SEAL).
Snapshots missing large blobs (models, textures, images, a video, binaries) were checked out
without them; no counted source file was missing. Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- LostPeter/LostPeterVulkan: HLSL compiled to SPIR-V for Vulkan with DXC ------------------


def test_dxc_spirv_in_a_batch_script_is_vendor_path() -> None:
    # Bin/Shader/Build_Windows_Shader_HLSL.bat: picks a shader profile from the file's stage,
    # then `dxc -spirv -T <profile> -E main ... -Fo <name>.spv`, with and without debug info.
    source = b"""\
@echo off
set stage=%1
set src=%2
if "%stage%" == "pixel" (
    set profile=ps_6_1
) else (
    set profile=vs_6_1
)
if "%3" == "debug" (
    dxc -Od -Zi -spirv -T %profile% -E main -I include %src% -Fo out\\%src%.spv
) else (
    dxc -spirv -T %profile% -E main -I include %src% -Fo out\\%src%.spv
)
"""
    path = "shaders/compile_hlsl.bat"
    assert _rules(path, source) == {"build.vulkan"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 11}


def test_dxc_spirv_by_path_in_a_shell_script_is_vendor_path() -> None:
    # Bin/Shader/Build_MacOS_Shader_HLSL.sh: the same step for macOS, -spirv after the entry
    # point and SPIR-V extensions named.
    source = b"""\
#!/bin/sh
profile=$1
src=$2
mkdir -p ../out
/usr/local/bin/dxc -T "$profile" -E main -spirv -fspv-extension=SPV_KHR_multiview "$src" -Fo x.spv
"""
    path = "shaders/compile_hlsl.sh"
    assert _rules(path, source) == {"build.vulkan"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


def test_dxc_for_direct3d_stays_portable() -> None:
    source = b"""\
@echo off
set src=%1
dxc -T ps_6_0 -E main %src% -Fo out\\%src%.cso
echo Use -spirv for the Vulkan build
"""
    path = "shaders/compile_dx12.bat"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 4}


# -- LostPeter/LostPeterVulkan: Direct3D 9 effects held in C++ strings (vendored assimp) -----


def test_d3d9_effect_in_adjacent_string_literals_is_kernel() -> None:
    # Dependencies/Sources/assimp-5.2.4/tools/assimp_view/Shaders.cpp: each effect is one
    # std::string built from adjacent literals, comments between them, D3D9 semantics
    # (POSITION, COLOR) and a technique whose pass compiles its entry points for ps_2_0/vs_2_0.
    source = b"""\
#include "viewer.h"

namespace Viewer {

// Effect that draws a mesh in a flat colour
std::string g_flatEffect = std::string(
    "float4x4 WorldViewProj : WORLDVIEWPROJECTION;\\n"
    "float4 FLAT_COLOR;\\n"

    // vertex stage
    "float4 FlatVS(float3 pos : POSITION) : POSITION\\n"
    "{\\n"
    "  return mul(float4(pos, 1.0f), WorldViewProj);\\n"
    "}\\n"

    // pixel stage
    "float4 FlatPS() : COLOR\\n"
    "{\\n"
    "  return FLAT_COLOR;\\n"
    "}\\n"

    "technique Flat\\n"
    "{\\n"
    "  pass p0\\n"
    "  {\\n"
    "    CullMode = none;\\n"
    "    VertexShader = compile vs_2_0 FlatVS();\\n"
    "    PixelShader = compile ps_2_0 FlatPS();\\n"
    "  }\\n"
    "};\\n"
);

}  // namespace Viewer
"""
    path = "tools/viewer/EffectSources.cpp"
    assert _rules(path, source) == {"hlsl.source-string"}
    assert _layers(path, source) == {"kernel": 19, "portable": 5}


def test_message_naming_a_shader_model_stays_portable() -> None:
    source = b"""\
#include <string>

static const std::string kHelp =
    "Effects are compiled with fxc: compile ps_2_0 targets need D3D9.\\n"
    "Use /T vs_2_0 for vertex stages.\\n";

const std::string& help_text() { return kHelp; }
"""
    path = "tools/viewer/Messages.cpp"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 5}


# -- jameshball/osci-render: a .glsl shader wrapped in a C++ raw string ----------------------


def test_glsl_file_wrapped_in_a_raw_string_counts_no_blank_or_comment() -> None:
    # Source/visualiser/LineFragmentShader.glsl: `std::string name = R"(` ... `)";` around an
    # OpenGL fragment shader so C++ can #include it; read as C++ its blank and comment lines
    # were string lines, counted as portable code.
    source = b"""\
std::string glowFragment = R"(

uniform sampler2D uTex;
uniform float uGain;
varying vec2 vUv;

// soft clip so bright spots stay round
float softClip(float x) {
    return x / (1.0 + abs(x));
}

void main() {
    vec4 c = texture2D(uTex, vUv);
    gl_FragColor = vec4(softClip(c.rgb * uGain), 1.0);
}

)";
"""
    path = "Source/render/GlowFragment.glsl"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 12}


def test_plain_glsl_shader_file_is_all_kernel() -> None:
    # jonnxie/Particle ShatterInut/assets/shaders/cube/pc.frag: a #version 450 fragment shader
    # writing a G-buffer; already right, pinned.
    source = b"""\
#version 450

layout(set = 1, binding = 0) uniform Tint { vec3 color; } tint;

layout(location = 0) in vec3 inNormal;
layout(location = 0) out vec4 outAlbedo;
layout(location = 1) out vec4 outNormal;

// the normal's y is flipped for the deferred pass
void main() {
    vec3 n = normalize(inNormal);
    outNormal = vec4(n.x, -n.y, n.z, 1.0);
    outAlbedo = vec4(tint.color, 1.0);
}
"""
    path = "assets/shaders/tint/pc.frag"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 10}


# -- jonnxie/Particle: Vulkan host code and SDK shader scripts (already right, pinned) -------


def test_vulkan_command_buffer_helpers_are_vendor_path() -> None:
    # Shatter/src/Platform/Vulkan/Transfer.cpp: one-shot VkCommandBuffer helpers.
    source = b"""\
#include "OneShot.h"
#include "Device.h"

VkCommandBuffer beginOneShot() {
    return Device::get().allocateCommandBuffer(true);
}

void endOneShot(VkCommandBuffer cmd) {
    Device::get().submitAndWait(cmd);
}
"""
    path = "src/Platform/Vulkan/OneShot.cpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 6}


def test_glslangvalidator_from_the_sdk_folder_is_vendor_path() -> None:
    # ShatterInut/assets/shaders/cascade_shadow/compile.bat.
    source = b"""\
C:/VulkanSDK/1.3.250.1/Bin/glslangValidator.exe -V shadow.vert
C:/VulkanSDK/1.3.250.1/Bin/glslangValidator.exe -V shadow.frag
pause
"""
    path = "assets/shaders/shadow/compile.bat"
    assert _rules(path, source) == {"build.vulkan"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 1}


# -- santiago-salinas/Raytracing: a CPU ray tracer's metal material (already right, pinned) --


def test_metal_material_of_a_cpu_ray_tracer_stays_portable() -> None:
    # BusinessLogic/DomainObjects/Metallic.cs: a reflective material, no Apple Metal.
    source = b"""\
namespace BusinessLogic.Materials
{
    public class Metal : Material
    {
        public double Blur { get; set; }

        public override Ray Scatter(Ray incoming, HitRecord hit, Random rng)
        {
            var reflected = incoming.Direction.Reflect(hit.Normal);
            return new Ray(hit.Point, reflected + Vector.RandomInSphere(rng) * Blur);
        }
    }
}
"""
    path = "BusinessLogic/Materials/Metal.cs"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 12}
