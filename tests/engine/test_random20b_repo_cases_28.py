"""Cases from repositories drawn at random from a fixed sub-pool (issue 27, lane h56-random-b).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text alone, so some are not GPU
code at all). This lane took sub-pool positions 127-133. One was skipped: dreamyloong2005/cgpui
(128) had no snapshot to fetch. Read were PluseggWill/SiriusEngine_VulkanReboot (a Vulkan
renderer in C++ with GLSL shaders, vendoring the Vulkan SDK, glm, GLFW, Dear ImGui and stb under
lib/), doodlum/skyrim-community-shaders (an SKSE plugin replacing Skyrim's Direct3D 11 shaders:
HLSL shaders and a C++ host on Direct3D 11, NVIDIA Streamline for DLSS and Reflex),
arsonrivvers/ShaderToy-to-ISF-converter (a Swift macOS app and package converting Shadertoy GLSL
to ISF, with a Metal preview and mixer, GLSL test fixtures in Swift strings and ISF .fs files),
KumarLabJax/JABS-behavior-classifier (a Python/Qt mouse behaviour classifier with a PyTorch
HRNet pose package and a GPU Dockerfile), rachit7645/VulkanRenderer (a Vulkan renderer in C++
with GLSL shaders, ray tracing, and headers shared by C++ and GLSL) and AFMahmuda/RayTracer (a
C# ray tracer and a C++ port in a folder named CUDA whose project builds with the CUDA 8
customisations but holds no device code). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix from
their contents, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, files outside the sample that hold kernel lines counted
by hand (up to 5 a repository), and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Every counted verdict
was right before any fix. Outside the counts, the headers VulkanRenderer shares between its C++
host and its GLSL shaders hold their GLSL under ``#ifndef __cplusplus`` and were portable: the
rule ``vulkan.glsl-shared-header-branch`` now takes those branches as kernel code. Each snippet
below is a small rewrite, in our own words, of a pattern found in the repository its test names;
the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- PluseggWill/SiriusEngine_VulkanReboot: Vulkan host code, GLSL, vendored glm -------------


def test_vendored_math_library_simd_switch_is_portable() -> None:
    # lib/VulkanSDK/glm/test/perf/perf_matrix_transpose.cpp (sampled, already right): a math
    # library's benchmark chooses aligned SIMD matrix types on the CPU; nothing of a device.
    source = b"""\
#include <glm/glm.hpp>
#include <cstdio>
#include <vector>

#if GLM_CONFIG_SIMD == GLM_ENABLE
using fast_mat = glm::aligned_mat4;
#else
using fast_mat = glm::mat4;
#endif

int bench(std::size_t n)
{
    std::vector<fast_mat> simd(n, fast_mat(1.0f));
    for (auto& m : simd)
        m = glm::transpose(m);
    std::printf("- SIMD: %zu matrices\\n", simd.size());
    return 0;
}
"""
    path = "lib/glm/test/perf/perf_transpose.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_vulkan_storage_buffer_created_and_mapped_with_vma_is_vendor_path() -> None:
    # VulkanDesktop/RenderCore/Vk_Core.cpp (commit f8f3ef387643, gate failed, right): a
    # per-frame storage buffer created with a Vulkan usage flag and mapped through VMA.
    source = b"""\
#include "Renderer.h"

void Renderer::CreateRecordBuffers()
{
    const VkDeviceSize bytes = static_cast<VkDeviceSize>(kSlots) * sizeof(Record);
    for (auto& frame : myFrames) {
        CreateBuffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VMA_MEMORY_USAGE_CPU_ONLY,
                     frame.records);
        void* mapped = nullptr;
        vmaMapMemory(myAllocator, frame.records.allocation, &mapped);
        frame.mapped = mapped;
    }
    Log("record buffers ready");
}
"""
    path = "Engine/RenderCore/Renderer.cpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    layers = _layers(path, source)
    assert set(layers) == {"vendor-path", "portable"}
    assert layers["vendor-path"] >= 3


def test_glsl_compute_shader_file_is_kernel_throughout() -> None:
    # VulkanDesktop/Shader/BloomThreshold.comp (an extra kernel file, hand 23, lockin 23): a
    # compute shader file is device code line for line.
    source = b"""\
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2D srcImage;
layout(binding = 1, rgba16f) uniform writeonly image2D dstImage;
layout(push_constant) uniform Params { float threshold; } params;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec3 c = texelFetch(srcImage, p, 0).rgb;
    float lum = dot(c, vec3(0.2126, 0.7152, 0.0722));
    imageStore(dstImage, p, vec4(lum > params.threshold ? c : vec3(0.0), 1.0));
}
"""
    path = "Engine/Shader/Threshold.comp"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 12}


# -- doodlum/skyrim-community-shaders: HLSL shaders over a Direct3D 11 host --------------------


def test_image_space_hlsl_pixel_shader_is_kernel() -> None:
    # package/Shaders/ISRadialBlur.hlsl (sampled, already right, hand 44 of 44): a full-screen
    # pixel shader with its samplers, constant buffer and entry point.
    source = b"""\
Texture2D<float4> SceneTex : register(t0);
SamplerState LinearSampler : register(s0);

cbuffer BlurCB : register(b2)
{
    float4 Center;
    float Strength;
};

struct PS_IN { float4 Pos : SV_POSITION; float2 UV : TEXCOORD0; };

float4 main(PS_IN input) : SV_Target
{
    float2 dir = input.UV - Center.xy;
    float4 acc = 0;
    [unroll] for (int i = 0; i < 8; ++i)
        acc += SceneTex.Sample(LinearSampler, input.UV - dir * Strength * i / 8.0);
    return acc / 8.0;
}
"""
    path = "package/Shaders/ISZoomBlur.hlsl"
    assert _rules(path, source) == {"hlsl.shader-file"}
    assert _layers(path, source) == {"kernel": 16}


def test_direct3d_11_pixel_shader_loading_host_code_stays_portable() -> None:
    # src/ShaderTools/ShaderCompiler.cpp (sampled, already right): the host reads a compiled
    # blob and creates a Direct3D 11 pixel shader; lockin keeps Direct3D 11 host code portable
    # (only Direct3D 12 and DirectML host code are vendor-path), and so did the label.
    source = b"""\
#include "d3d11.h"
#include "d3dcompiler.h"

ID3D11PixelShader* LoadPixelShader(ID3D11Device* device, const std::wstring& file)
{
    ID3DBlob* blob = nullptr;
    if (FAILED(D3DReadFileToBlob(file.c_str(), &blob)))
        return nullptr;
    ID3D11PixelShader* shader = nullptr;
    HRESULT hr = device->CreatePixelShader(blob->GetBufferPointer(), blob->GetBufferSize(),
                                           nullptr, &shader);
    blob->Release();
    return SUCCEEDED(hr) ? shader : nullptr;
}
"""
    path = "src/Tools/ShaderLoader.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- arsonrivvers/ShaderToy-to-ISF-converter: Swift, Metal, GLSL fixtures -----------------------


def test_swift_mixer_with_metal_source_string_is_kernel_and_vendor_path() -> None:
    # App/ARShader/Compositor.swift (sampled, already right, hand 87 kernel lines, lockin 87):
    # Metal Shading Language in a Swift multi-line string is kernel code; the MTLDevice and
    # render pipeline calls around it are Metal's host API.
    source = b'''\
import Metal

final class Blender {
    private let pipeline: MTLRenderPipelineState

    init?(device: MTLDevice) {
        guard let lib = try? device.makeLibrary(source: Blender.msl, options: nil) else {
            return nil
        }
        let desc = MTLRenderPipelineDescriptor()
        desc.vertexFunction = lib.makeFunction(name: "quad_vs")
        desc.fragmentFunction = lib.makeFunction(name: "blend_fs")
        guard let p = try? device.makeRenderPipelineState(descriptor: desc) else { return nil }
        pipeline = p
    }

    private static let msl = """
    #include <metal_stdlib>
    using namespace metal;
    struct VOut { float4 pos [[position]]; float2 uv; };
    vertex VOut quad_vs(uint vid [[vertex_id]]) {
        float2 p = float2((vid << 1) & 2, vid & 2);
        VOut o; o.pos = float4(p * 2.0 - 1.0, 0.0, 1.0); o.uv = p; return o;
    }
    fragment float4 blend_fs(VOut v [[stage_in]], texture2d<float> a [[texture(0)]]) {
        constexpr sampler s(filter::linear);
        return a.sample(s, v.uv);
    }
    """
}
'''
    path = "App/Mixer/Blender.swift"
    assert _rules(path, source) == {"metal.host-api", "metal.source-string"}
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "vendor-path", "portable"}
    assert 10 <= layers["kernel"] <= 13


def test_swift_test_holding_a_glsl_fixture_shader_counts_its_line_as_kernel() -> None:
    # ShadertoyISFKit/Tests/.../PassBuilderTests.swift (an extra kernel file, hand 1, lockin 1):
    # a test handing the converter a one-line Shadertoy entry point in a string.
    source = b"""\
import XCTest
@testable import ConverterKit

final class PassTests: XCTestCase {
    func testSinglePassKeepsItsName() {
        let pass = ShaderPass(
            code: "void mainImage(out vec4 c, in vec2 f){c=vec4(f.x, 0.0, 1.0);}", name: "Image")
        XCTAssertEqual(Builder.build([pass]).first?.name, "Image")
    }
}
"""
    path = "Tests/ConverterKitTests/PassTests.swift"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 1, "portable": 8}


def test_swift_test_of_a_glsl_expression_rewriter_is_portable() -> None:
    # ShadertoyISFKit/Tests/.../UniformRewriterTests.swift (sampled, already right): strings
    # holding GLSL expression fragments, not shaders, checked against a text rewriter.
    source = b"""\
import XCTest
@testable import ConverterKit

final class ResolutionRewriteTests: XCTestCase {
    func testResolutionBecomesRenderSize() {
        XCTAssertEqual(Rewriter.rewrite("uv = fragCoord/iResolution.xy"),
                       "uv = fragCoord/vec3(RENDERSIZE, 1.0).xy")
    }
}
"""
    path = "Tests/ConverterKitTests/ResolutionRewriteTests.swift"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- KumarLabJax/JABS-behavior-classifier: PyTorch pose package, GPU container -----------------


def test_gpu_dockerfile_exposing_nvidia_devices_is_vendor_path() -> None:
    # containers/docker/Dockerfile.pose (non-portable, already right; commit 18923ceb39ba,
    # gate failed, right): a slim Python image that asks the NVIDIA container runtime for the
    # GPUs and lets uv pick the CUDA build of torch.
    source = b"""\
FROM python:3.12-slim
ENV PYTHONUNBUFFERED=1 \\
    NVIDIA_VISIBLE_DEVICES=all \\
    NVIDIA_DRIVER_CAPABILITIES=compute,utility \\
    UV_TORCH_BACKEND=auto
WORKDIR /srv
COPY . .
RUN pip install --no-cache-dir ./pose
ENTRYPOINT ["pose-cli"]
"""
    path = "docker/Dockerfile.gpu"
    assert _rules(path, source) == {"k8s.nvidia-gpu"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 7}


def test_torch_device_choice_and_cudnn_flags_are_vendor_path() -> None:
    # packages/jabs-vision/.../model_loader.py (non-portable, already right): the device
    # choice names CUDA, and cuDNN and TF32 switches are set from the config.
    source = b"""\
import torch
import torch.backends.cudnn as cudnn


def pick_device(name):
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def configure(cfg):
    cudnn.benchmark = cfg.BENCHMARK
    torch.backends.cudnn.deterministic = cfg.DETERMINISTIC
    torch.backends.cuda.matmul.allow_tf32 = True
"""
    path = "pkg/vision/loader.py"
    assert _rules(path, source) == {"torch.backends-cuda", "torch.device-string"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


# -- rachit7645/VulkanRenderer: headers shared by C++ and GLSL -----------------------------------


def test_shared_header_glsl_branch_is_kernel() -> None:
    # Shared/GPU/AABB.h (GPU-looking, portable before, kernel after): the struct both sides
    # read stays portable; the GLSL helpers under `#ifndef __cplusplus` are shader code.
    source = b"""\
#ifndef BOX_SHARED_H
#define BOX_SHARED_H

#include "Interop.h"

INTEROP_NAMESPACE_BEGIN(GPU)

struct Box
{
    INTEROP_VEC3 lo;
    INTEROP_VEC3 hi;
};

#ifndef __cplusplus

#include "Common.glsl"

vec3 Box_Extent(Box box)
{
    return box.hi - box.lo;
}

bool Box_Contains(Box box, vec3 p)
{
    return all(greaterThanEqual(p, box.lo)) && all(lessThanEqual(p, box.hi));
}

#endif

INTEROP_NAMESPACE_END

#endif
"""
    path = "Shared/GPU/Box.h"
    assert _rules(path, source) == {"vulkan.glsl-shared-header-branch"}
    assert _layers(path, source) == {"kernel": 11, "portable": 11}


def test_shared_header_buffer_reference_block_is_kernel() -> None:
    # Shared/ImGui/DearImGui.h (GPU-looking, portable before, kernel after): a GLSL-only
    # struct and buffer_reference block under `#ifndef __cplusplus`, then a push-constant
    # block both sides spell through macros.
    source = b"""\
#include "Interop.h"

#ifndef __cplusplus

struct UiVertex
{
    vec2 pos;
    vec2 uv;
    uint rgba;
};

layout(buffer_reference, scalar) readonly buffer UiVertices
{
    UiVertex items[];
};

#endif

INTEROP_PUSH_CONSTANT_BEGIN
{
    INTEROP_POINTER(UiVertices) Vertices;
    u32 TextureIndex;
} INTEROP_PUSH_CONSTANT_END;
"""
    path = "Shared/Ui/UiPush.h"
    assert _rules(path, source) == {"vulkan.glsl-shared-header-branch"}
    assert _layers(path, source) == {"kernel": 12, "portable": 6}


def test_c_header_guarding_a_c_only_bool_stays_portable() -> None:
    # The same directive in a plain C header (stb_ds.h-like libraries under lib/ in
    # SiriusEngine_VulkanReboot): C-only typedefs, no GLSL near it.
    source = b"""\
#ifndef TINYLIB_H
#define TINYLIB_H
#ifndef __cplusplus
#include <stdbool.h>
#define TL_INLINE static inline
#endif
typedef struct { float x, y, z; } tl_vec3;
bool tl_layout(const tl_vec3* in, int n);
#endif
"""
    path = "lib/tinylib/tinylib.h"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_vulkan_ray_tracing_pipeline_groups_are_vendor_path() -> None:
    # Source/Renderer/Shadows (commit 97544736c386, gate failed, right): shader groups of a
    # ray tracing pipeline named with Vulkan's KHR enums.
    source = b"""\
#include "Vulkan/RayTracingPipelineBuilder.h"

Pipeline BuildShadowPipeline(const Vk::Context& context)
{
    return Vk::RayTracingPipelineBuilder(context)
        .AttachShader("Shadow.rgen", VK_SHADER_STAGE_RAYGEN_BIT_KHR)
        .AttachShader("Shadow.rmiss", VK_SHADER_STAGE_MISS_BIT_KHR)
        .AttachShaderGroup(VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR, 0, VK_SHADER_UNUSED_KHR)
        .Build();
}
"""
    path = "Source/Renderer/Shadows/Pipeline.cpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_glsl_ray_generation_shader_is_kernel() -> None:
    # Assets/Shaders/Shadows/RT/Shadow.rgen (non-portable, already right): a ray generation
    # shader tracing one shadow ray per pixel.
    source = b"""\
#version 460
#extension GL_EXT_ray_tracing : require

layout(set = 0, binding = 0) uniform accelerationStructureEXT topLevel;
layout(set = 0, binding = 1, r8) uniform writeonly image2D shadowMask;
layout(location = 0) rayPayloadEXT float visibility;

void main()
{
    ivec2 px = ivec2(gl_LaunchIDEXT.xy);
    visibility = 0.0;
    traceRayEXT(topLevel, gl_RayFlagsTerminateOnFirstHitEXT, 0xFF, 0, 0, 0,
                vec3(px, 1.0), 0.01, vec3(0.0, 1.0, 0.0), 100.0, 0);
    imageStore(shadowMask, px, vec4(visibility));
}
"""
    path = "Assets/Shaders/RT/Shadow.rgen"
    assert set(_layers(path, source)) == {"kernel"}


# -- AFMahmuda/RayTracer: a CPU ray tracer in a folder named CUDA ----------------------------


def test_cuda_build_customisation_in_a_vcxproj_is_vendor_path() -> None:
    # RayTracer - BVH - CUDA/RayTracerCUDA/RayTracerCUDA.vcxproj (non-portable, already right):
    # the CUDA build customisation, cudart linked and its DLL copied next to the program.
    source = b"""\
<?xml version="1.0" encoding="utf-8"?>
<Project DefaultTargets="Build" ToolsVersion="14.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <ImportGroup Label="ExtensionSettings">
    <Import Project="$(VCTargetsPath)\\BuildCustomizations\\CUDA 8.0.props" />
  </ImportGroup>
  <ItemDefinitionGroup>
    <Link>
      <AdditionalDependencies>cudart.lib;kernel32.lib;user32.lib</AdditionalDependencies>
    </Link>
  </ItemDefinitionGroup>
  <ItemGroup>
    <ClCompile Include="Scene.cpp" />
  </ItemGroup>
</Project>
"""
    path = "Tracer/Tracer.vcxproj"
    assert _rules(path, source) == {"build.msbuild-cuda"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_plain_cpp_vector_class_in_a_cuda_named_folder_is_portable() -> None:
    # RayTracer - BVH - CUDA/RayTracerCUDA/Vec3.h (sampled, already right): the folder says
    # CUDA, the class is ordinary host C++ with no device qualifier.
    source = b"""\
#pragma once
#include <cmath>

class vec3 {
public:
    float x, y, z, w;
    vec3(float x = 0, float y = 0, float z = 0, float w = 0) : x(x), y(y), z(z), w(w) {}
    float length() const { return std::sqrt(x * x + y * y + z * z); }
    vec3 operator-(const vec3& o) const { return vec3(x - o.x, y - o.y, z - o.z, w); }
    float& operator[](int i) { return (&x)[i]; }
};
"""
    path = "Tracer - CUDA/Tracer/Vec3.h"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
