"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-s).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 127-133, and all seven had a snapshot within the size limit,
so none was skipped. Read were schrum2/MarioDiffusion (text-conditioned diffusion models that
generate Super Mario and Mega Man levels: PyTorch scripts picking the CUDA device, Windows
batch files driving them), ShiyumeMeguri/FractalMiner (a Unity URP project re-creating games'
post-processing and toon shaders: ShaderLab and HLSL, C# render features, RenderDoc capture
scripts), programadoresphicargo/phicargo_react_ts (a React and TypeScript logistics front
end, no GPU code), ConnorBaker/cuda-packages (Nix recipes and setup hooks packaging NVIDIA's
CUDA libraries and the Python packages built on them), reis-ship-it/avrai (a Flutter app with
a Rust native library, three.js WebGL shaders and a pile of shell scripts), TinaHanAtUnity/
CreativeRenderTool (Unity Ads' TypeScript SDK and its compiled JavaScript, no GPU code) and
KhronosGroup/Vulkan-ValidationLayers (the Vulkan validation layers in C++, their GLSL
instrumentation shaders, and a test suite holding its shaders as GLSL and SPIR-V assembly in
raw strings). Snapshots missing large blobs were laid out without them; no sampled file was
missing. Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (up to 5 a repository), and
up to three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- KhronosGroup/Vulkan-ValidationLayers: SPIR-V assembly in a test's raw strings ----------


def test_spirv_assembly_in_a_raw_string_is_kernel() -> None:
    # tests/unit/shader_spirv_positive.cpp (sampled: hand 1,333 kernel lines, lockin 541
    # before): most tests hand-write the module as SPIR-V assembly in a raw string, assembled
    # at run time; only the GLSL strings were counted. The literal's lines are the shader.
    source = b"""\
TEST_F(PositiveShaderSpirv, WideSpecConstant) {
    RETURN_IF_SKIP(Init());
    const std::string module = R"(
               OpCapability Shader
               OpCapability Int64
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %entry "main"
               OpExecutionMode %entry LocalSize 1 1 1
               OpDecorate %wide SpecId 7
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %ulong = OpTypeInt 64 0
       %wide = OpSpecConstant %ulong 3
      %entry = OpFunction %void None %fn
      %start = OpLabel
               OpReturn
               OpFunctionEnd
    )";
    CreateComputePipelineHelper pipe(*this);
    pipe.cs_ = VkShaderObj(*m_device, module, VK_SHADER_STAGE_COMPUTE_BIT, SPV_ENV_VULKAN_1_0,
                           SPV_SOURCE_ASM);
    pipe.CreateComputePipeline();
}
"""
    path = "tests/unit/shader_spirv_positive.cpp"
    assert _rules(path, source) == {"vulkan.spirv-assembly-string", "vulkan.host-api"}
    assert _layers(path, source)["kernel"] == 16


def test_spirv_fragment_spliced_into_a_template_counts_too() -> None:
    # tests/unit/gpu_av_descriptor_post_process.cpp and tile_shading.cpp (extra kernel files:
    # hand 706 and 479, lockin 419 and 218 before): a test builds its module from a
    # header string and a body string holding only `%id = OpX` instructions.
    source = b"""\
const char* body = R"asm(
     %index = OpLoad %uint %slot
       %ptr = OpAccessChain %_ptr_Uniform_uint %buffer %int_0 %index
              OpStore %ptr %uint_1
)asm";
std::string full = kHeader + std::string(body);
"""
    path = "tests/unit/gpu_av_descriptor_post_process.cpp"
    assert _rules(path, source) == {"vulkan.spirv-assembly-string"}
    assert _layers(path, source) == {"kernel": 5, "portable": 1}


def test_glsl_raw_string_beside_spirv_stays_glsl() -> None:
    # tests/unit/dynamic_rendering_local_read_positive.cpp (sampled, in range before and
    # after: hand 18, lockin 18): GLSL in a raw string, the literal's lines kernel.
    source = b"""\
const char* fs_source = R"glsl(
    #version 450
    layout(input_attachment_index=0, set=0, binding=0) uniform subpassInput previous;
    layout(location=0) out vec4 colour;
    void main() {
        colour = subpassLoad(previous);
    }
)glsl";
VkShaderObj fs(*m_device, fs_source, VK_SHADER_STAGE_FRAGMENT_BIT);
"""
    path = "tests/unit/dynamic_rendering_local_read_positive.cpp"
    assert _rules(path, source) == {"vulkan.glsl-string", "vulkan.host-api"}
    assert _layers(path, source) == {"kernel": 8, "vendor-path": 1}


def test_validator_messages_naming_instructions_are_no_shader() -> None:
    # The layers' own messages and expectations name instructions without operands.
    source = b"""\
void ReportStore(const Location& loc) {
    LogError("VUID-RuntimeSpirv-OpStore", device, loc, "OpStore Pointer is not a logical pointer");
    const char* hint = "add OpCapability Shader to the module";
    static const char* kLast[] = {"OpReturn", "OpFunctionEnd", "OpUnreachable"};
}
"""
    assert _layers("layers/core_checks/cc_spirv_store.cpp", source) == {"portable": 5}


def test_vulkan_layer_state_header_is_vendor_path() -> None:
    # layers/state_tracker/device_generated_commands_state.h (sampled, right before): a
    # state object wrapping a Vulkan handle; the layers run on Vulkan, the vendor path.
    source = b"""\
#pragma once
#include <vulkan/vulkan.h>

namespace vvl {
class IndirectCommandsLayout {
  public:
    explicit IndirectCommandsLayout(VkIndirectCommandsLayoutEXT handle);
    VkShaderStageFlags stages = 0;
    bool has_dispatch = false;
};
}  // namespace vvl
"""
    path = "layers/state_tracker/device_generated_commands_state.h"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 7}


# -- reis-ship-it/avrai: a shell script writing Dart through heredocs -----------------------


def test_shell_script_writing_dart_through_heredocs_is_no_bgfx_header() -> None:
    # scripts/android_build_fix.sh (an extra kernel file: hand 0, lockin 683 as a bgfx shader
    # header before): no fi/done/esac, but a shebang and echo lines; the Dart it writes
    # (`void dispose() {`) looked like a GLSL function to the .sh heuristic.
    source = b"""\
#!/bin/bash
set -e
echo "Rewriting the onboarding page"
cat > lib/pages/onboarding_page.dart << 'EOF'
class OnboardingState extends State<OnboardingPage> {
  int page = 0;
  @override
  void dispose() {
    controller.dispose();
    super.dispose();
  }
}
EOF
echo "done"
"""
    path = "scripts/android_build_fix.sh"
    assert classify(path, source).language == "Shell"
    assert _layers(path, source) == {"portable": 13}


def test_bgfx_shader_header_stays_bgfx() -> None:
    # bgfx's own .sh headers: GLSL helpers with bgfx's macros, no shebang or echo.
    source = b"""\
#ifndef TONEMAP_SH
#define TONEMAP_SH
uniform vec4 u_exposure;
vec3 tonemap(vec3 colour)
{
    return colour / (colour + vec3_splat(1.0)) * u_exposure.x;
}
#endif
"""
    assert classify("shaders/tonemap.sh", source).language == "bgfx Shader"


def test_threejs_bloom_pass_shader_strings_are_kernel() -> None:
    # assets/three_js/lib/postprocessing/UnrealBloomPass.js (an extra kernel file: hand 51,
    # lockin 51): a vendored three.js pass building ShaderMaterials from GLSL template strings.
    source = b"""\
import { ShaderMaterial } from 'three';
export function blurMaterial(radius) {
  return new ShaderMaterial({
    defines: { RADIUS: radius },
    vertexShader: `varying vec2 vUv;
      void main() {
        vUv = uv;
        gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
      }`,
    fragmentShader: `varying vec2 vUv;
      uniform sampler2D source;
      void main() {
        gl_FragColor = texture2D(source, vUv);
      }`
  });
}
"""
    path = "assets/three_js/lib/postprocessing/BlurPass.js"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 10, "portable": 6}


# -- ShiyumeMeguri/FractalMiner: ShaderLab passes that only name their entry points ---------


def test_shaderlab_passes_of_pragmas_count_from_marker_to_marker() -> None:
    # Assets/Project/PunishingGrayRaven/Shader/PunishingGrayRavenPostProcess.shader (sampled:
    # hand 46, lockin 46): an HLSLINCLUDE block of includes, then passes that only pick
    # their vertex and fragment functions; each program runs from HLSLPROGRAM to ENDHLSL.
    source = b"""\
Shader "Custom/PostStack"
{
    Properties
    {
        _BlitTexture ("Texture", 2D) = "white" {}
    }
    SubShader
    {
        HLSLINCLUDE
            #include "Packages/com.unity.render-pipelines.core/Runtime/Utilities/Blit.hlsl"
            #include "PostStackPasses.hlsl"
        ENDHLSL

        Pass
        {
            Name "Blur"
            HLSLPROGRAM
            #pragma vertex Vert
            #pragma fragment BlurFragment
            ENDHLSL
        }

        Pass
        {
            Name "Grade"
            HLSLPROGRAM
            #pragma vertex Vert
            #pragma fragment GradeFragment
            ENDHLSL
        }
    }
}
"""
    path = "Assets/Shaders/PostStack.shader"
    assert _rules(path, source) == {"hlsl.shaderlab-program"}
    assert _layers(path, source)["kernel"] == 12


def test_unity_render_feature_in_csharp_is_portable() -> None:
    # Assets/Project/QuantumBreak/URP/GeometricDistortion/GeometricDistortionFeature.cs
    # (sampled, right before): a URP renderer feature enqueuing a pass; Unity picks the API.
    source = b"""\
using UnityEngine;
using UnityEngine.Rendering;
using UnityEngine.Rendering.Universal;

public class RippleFeature : ScriptableRendererFeature
{
    public Material material;
    RipplePass pass;

    public override void Create() { pass = new RipplePass(material); }

    public override void AddRenderPasses(ScriptableRenderer renderer, ref RenderingData data)
    {
        renderer.EnqueuePass(pass);
    }
}
"""
    assert _layers("Assets/URP/RippleFeature.cs", source) == {"portable": 13}


# -- ConnorBaker/cuda-packages: Nix recipes for CUDA packages -------------------------------


def test_nix_recipe_pointing_cuda_home_at_nvcc_is_vendor_path() -> None:
    # pkgs/development/python-modules/mmdet/default.nix (sampled, right before): the build
    # environment forces the CUDA extension and points CUDA_HOME at the toolkit's nvcc.
    source = b"""\
{ lib, buildPythonPackage, pkgsBuildHost, torch, mmcv }:
buildPythonPackage {
  pname = "detector";
  version = "3.3.0";
  env = {
    FORCE_CUDA = "1";
    CUDA_HOME = lib.getBin pkgsBuildHost.cudaPackages.cuda_nvcc;
  };
  dependencies = [ torch mmcv ];
}
"""
    path = "pkgs/development/python-modules/detector/default.nix"
    assert _rules(path, source) == {"deps.nix-cuda"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 9}


def test_nix_setup_hook_package_naming_no_toolkit_is_portable() -> None:
    # pkgs/development/cuda-modules/packages/nvccHook/package.nix (sampled, right before):
    # a setup hook's wrapper names its script and metadata, pulls no NVIDIA package.
    source = b"""\
{ lib, makeSetupHook, patchelf, cudaNamePrefix }:
makeSetupHook {
  name = "${cudaNamePrefix}-linkerHook";
  propagatedBuildInputs = [ patchelf ];
  meta.description = "Setup hook keeping the host compiler's libraries out of binaries";
  meta.maintainers = lib.teams.cuda.members;
} ./linkerHook.bash
"""
    assert _layers("pkgs/cuda-modules/linkerHook/package.nix", source) == {"portable": 7}


# -- schrum2/MarioDiffusion: a PyTorch script picking the CUDA device -----------------------


def test_torch_script_choosing_cuda_device_and_seeding_it_is_vendor_path() -> None:
    # evaluate_caption_order_tolerance.py (sampled, right before): the device is CUDA when
    # present, and CUDA's generators are seeded apart.
    source = b"""\
import random
import numpy as np
import torch

def setup(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)
    return device
"""
    path = "evaluate_order.py"
    assert _rules(path, source) == {"torch.cuda-call", "torch.device-string"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 9}
