"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-u).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the
written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some are
no GPU code at all). This lane took positions 85-91 of the sub-pool; none was skipped, all
seven had a snapshot. Read were NVIDIAGameWorks/RayTracingDenoiser (NVIDIA's NRD denoisers:
C++ host code describing each pass, and HLSL compute shaders, a small `.cs.hlsl` entry file
of includes and defines per pass over `.hlsli` bodies and resource headers), vulkan0n/
bolsillo-bch (a Bitcoin Cash wallet in React and TypeScript, no GPU code),
QianLight/ShaderPerformance (a Unity game project: C# game and editor code, ShaderLab files
with HLSL/CG programs, URP and Spine packages vendored), killian0213/shader-handbook (a
handbook of thousands of Shadertoy GLSL shaders and a small web viewer),
TritonVM/tasm-lang (a Rust compiler of a Rust subset to Triton VM assembly, no GPU code),
veka0/mcbe-shader-codebase (Minecraft Bedrock's shaders dumped as GLSL ES and bgfx `.sc`
sources) and johang88/triton (a C# game engine on OpenGL with its GLSL shaders and generated
shader variants). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand
(up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- TritonVM/tasm-lang: a compiler's own "binding" methods ----------------------------------


def test_compiler_method_named_get_binding_name_on_self_is_portable() -> None:
    # src/tasm_code_generator.rs (a false positive of tensorrt.api before: 4 lines): the code
    # generator warns about a spilled value and names its variable binding through its own
    # method; TensorRT's engine is nowhere.
    source = b"""\
impl CompilerState {
    pub(crate) fn spill(&mut self, id: &ValueId) {
        eprintln!(
            "note: spilling {id}, bound as {}",
            self.get_binding_name(id)
        );
        self.spilled.insert(id.clone());
    }
}
"""
    path = "src/code_generator.rs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_tensorrt_engine_binding_queries_stay_vendor_library() -> None:
    # The narrowing above keeps the engine's own queries, called on the engine object.
    source = b"""\
def describe(engine):
    for i in range(engine.num_bindings):
        print(engine.get_binding_name(i), engine.get_binding_shape(i))
"""
    path = "tools/inspect_engine.py"
    assert _rules(path, source) == {"tensorrt.api"}
    assert set(_layers(path, source)) == {"vendor-library", "portable"}


def test_tasm_test_program_is_portable() -> None:
    # src/tests_and_benchmarks/ozk/programs/*.rs (sampled, already right): small Rust programs
    # compiled to the VM, with structs and vectors; no GPU word but the crate's name.
    source = b"""\
use triton_vm::prelude::*;

struct Pair { a: u32, b: BFieldElement }

fn main() {
    let p = Pair { a: 7, b: BFieldElement::new(9) };
    let v: Vec<u32> = vec![p.a, p.a * 2];
    tasmlib::tasmlib_io_write_to_stdout___u32(v[1]);
}
"""
    path = "src/tests_and_benchmarks/ozk/programs/structs/pair.rs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- johang88/triton: an OpenGL engine's shader loader ---------------------------------------


def test_shader_header_format_string_is_portable() -> None:
    # Triton.Graphics/Resources/ShaderSerializer.cs (a false positive of vulkan.glsl-string
    # before: 1 line): the loader prepends a #version line, a #define of the stage and a hole
    # for more defines to each shader file it reads; the shader itself is the .glsl file.
    source = b"""\
namespace Engine.Graphics
{
    class ShaderReader
    {
        private string AddHeader(string stage, string defines, string text)
            => string.Format("#version 460 core\\n#define {0}\\n{1}\\n", stage, defines) + text;
    }
}
"""
    path = "Engine.Graphics/Resources/ShaderReader.cs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_glsl_shader_file_of_the_engine_is_kernel_whole() -> None:
    # Data/core_data/shaders/deferred/*.glsl (sampled, already right): one file holding the
    # vertex and fragment stages under the defines the header above sets.
    source = b"""\
#ifdef VERTEX_SHADER
layout(location = 0) in vec3 iPosition;
uniform mat4 modelViewProjection;
void main() {
    gl_Position = modelViewProjection * vec4(iPosition, 1);
}
#else
out vec4 oColor;
void main() {
    oColor = vec4(1, 1, 1, 1);
}
#endif
"""
    path = "Data/core_data/shaders/deferred/solid.glsl"
    assert _layers(path, source) == {"kernel": 12}


# -- NVIDIAGameWorks/RayTracingDenoiser: HLSL compute passes ---------------------------------


def test_hlsl_pass_entry_file_of_includes_is_kernel() -> None:
    # Shaders/Source/*.cs.hlsl (sampled, already right): each pass's entry file is includes
    # and the defines that pick the variant; the body is in the headers, all shader code.
    source = b"""\
#include "Denoiser.hlsli"
#include "Math.hlsli"

#define BLUR_SPECULAR
#define BLUR_OCCLUSION

#include "Blur_Config.hlsli"
#include "Blur_Pass.resources.hlsli"
#include "Blur_Common.hlsli"
#include "Blur_Pass.hlsli"
"""
    path = "Shaders/Source/Blur_SpecularOcclusion_Pass.cs.hlsl"
    assert _layers(path, source) == {"kernel": 8}


def test_hlsl_resource_header_of_binding_macros_is_kernel() -> None:
    # Shaders/Resources/*.resources.hlsli (sampled, already right): a pass's constants,
    # samplers, inputs and outputs through the library's binding macros, and its group size.
    source = b"""\
RES_CONSTANTS_START( SmoothConstants )
    SHARED_CONSTANTS
RES_CONSTANTS_END

RES_INPUTS_START
    RES_INPUT( Texture2D<float3>, gIn_Tiles, t, 0 )
RES_INPUTS_END

RES_OUTPUTS_START
    RES_OUTPUT( RWTexture2D<float2>, gOut_Tiles, u, 0 )
RES_OUTPUTS_END

#define GROUP_X 16
#define GROUP_Y 16
"""
    path = "Shaders/Resources/Smooth.resources.hlsli"
    assert _layers(path, source) == {"kernel": 11}


def test_cmake_embedding_dxil_and_spirv_shaders_is_portable() -> None:
    # CMakeLists.txt (sampled, already right): options to embed DXIL, DXBC and SPIR-V builds
    # of the shaders, compiled by DXC or FXC through a shader build tool.
    source = b"""\
option(LIB_EMBEDS_SPIRV_SHADERS "embed SPIR-V shaders" ON)
cmake_dependent_option(LIB_EMBEDS_DXIL_SHADERS "embed DXIL shaders" ON "WIN32" OFF)
if(LIB_EMBEDS_DXIL_SHADERS)
    set(SHADER_CMDS ${SHADER_CMDS} COMMAND ShaderMake -p DXIL --compiler "${DXC_PATH}" ${ARGS})
endif()
if(LIB_EMBEDS_SPIRV_SHADERS)
    set(SHADER_CMDS ${SHADER_CMDS} COMMAND ShaderMake -p SPIRV --compiler "${DXC_VK}" ${ARGS})
endif()
"""
    path = "CMakeLists.txt"
    assert set(_layers(path, source)) == {"portable"}


# -- QianLight/ShaderPerformance: a Unity project --------------------------------------------


def test_unity_shader_counts_its_hlsl_program_as_kernel() -> None:
    # Assets/Engine/Runtime/Shaders/Shading/Scene/Flag_Old.shader (sampled, kernel count in
    # range): ShaderLab's properties and render state stay portable, the HLSLPROGRAM block is
    # the kernel.
    source = b"""\
Shader "Scene/Banner"
{
    Properties
    {
        _MainTex ("Texture", 2D) = "white" {}
        _Wave ("Wave", Vector) = (0.1, 1, 0, 0)
    }
    SubShader
    {
        Tags { "RenderPipeline" = "UniversalPipeline" "Queue" = "Transparent" }
        Pass
        {
            Blend SrcAlpha OneMinusSrcAlpha
            HLSLPROGRAM
            #pragma vertex vert
            #pragma fragment frag
            #include "Packages/com.unity.render-pipelines.universal/ShaderLibrary/Core.hlsl"
            half4 _Wave;
            struct a2v { float4 pos : POSITION; float2 uv : TEXCOORD0; };
            struct v2f { float4 pos : SV_POSITION; float2 uv : TEXCOORD0; };
            v2f vert (a2v v)
            {
                v2f o;
                v.pos.y += _Wave.x * sin(v.pos.x + _Time.z * _Wave.y);
                o.pos = TransformObjectToHClip(v.pos.xyz);
                o.uv = v.uv;
                return o;
            }
            half4 frag (v2f i) : SV_Target { return half4(i.uv, 0, 1); }
            ENDHLSL
        }
    }
}
"""
    path = "Assets/Shaders/Scene/Banner.shader"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "portable"}
    assert 16 <= layers["kernel"] <= 19


def test_xcode_post_process_adding_apple_frameworks_is_portable() -> None:
    # Assets/GMSDK/.../XCodePostProcess.cs (sampled, already right): an SDK's build hook adds
    # the iOS system frameworks it links, Metal's among them; nothing of the game to port.
    source = b"""\
public static class XcodeHook
{
    static void AddFrameworks(List<string> frameworks)
    {
        frameworks.Add("StoreKit.framework");
        frameworks.Add("MetalKit.framework");
        frameworks.Add("MetalPerformanceShaders.framework");
        frameworks.Add("WebKit.framework");
    }
}
"""
    path = "Assets/SDK/Editor/XcodeHook.cs"
    assert set(_layers(path, source)) == {"portable"}


# -- killian0213/shader-handbook and veka0/mcbe-shader-codebase: shader collections -----------


def test_shadertoy_image_shader_is_kernel_whole() -> None:
    # shaders/shaders/*/image.glsl (sampled, already right): a Shadertoy image pass.
    source = b"""\
void mainImage(out vec4 fragColor, in vec2 fragCoord)
{
    vec2 uv = (2.0 * fragCoord - iResolution.xy) / iResolution.y;
    float d = length(uv) - 0.5 + 0.1 * sin(iTime);
    vec3 col = mix(vec3(0.1, 0.2, 0.4), vec3(1.0), smoothstep(0.01, 0.0, d));
    fragColor = vec4(col, 1.0);
}
"""
    path = "shaders/shaders/000001-abcd-Pulse/image.glsl"
    assert _layers(path, source) == {"kernel": 7}


def test_bgfx_varying_definition_is_kernel() -> None:
    # materials/*/*.varying.def.sc (sampled, already right): bgfx's varyings of a material,
    # the shader interface its vertex and fragment stages share.
    source = b"""\
vec4 v_color0 : COLOR0;
vec2 v_texcoord0 : TEXCOORD0;
vec3 a_position : POSITION;
vec4 a_color0 : COLOR0;
"""
    path = "materials/Glow/Glow.varying.def.sc"
    assert _layers(path, source) == {"kernel": 4}


# -- vulkan0n/bolsillo-bch: a wallet app -----------------------------------------------------


def test_tailwind_transform_gpu_class_is_portable() -> None:
    # src/kernel/app/NotificationService.tsx (checked, already right): Tailwind's
    # transform-gpu utility class asks the browser to composite; no GPU code.
    source = b"""\
export function Toast({ text }: { text: string }) {
  return (
    <div className="w-full max-w-md transition-opacity duration-300 transform-gpu">
      {text}
    </div>
  );
}
"""
    path = "src/components/atoms/Toast.tsx"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
