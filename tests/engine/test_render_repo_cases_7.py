"""Cases seen in the seventh audit round: renderers, their GPU back ends, differentiable
rendering and 3D vision, Apple apps (ocornut/imgui, NVlabs/nvdiffrast,
NVIDIAGameWorks/kaolin, nerfstudio-project/nerfacc, xinntao/Real-ESRGAN-ncnn-vulkan,
apple/ml-stable-diffusion, KhronosGroup/MoltenVK, LuisaGroup/LuisaCompute).

Each snippet is a small rewrite, in our own words, of a pattern found there; the repository is
named per test. They pin the verdict a porting engineer gives the file: its language, whether
it holds vendor-locked lines, and for kernel code how many lines.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers


def _rules(path: str, source: bytes) -> set[str]:
    return {f.rule for f in classify(path, source).findings}


# -- ocornut/imgui: one renderer, a back end per graphics API ---------------------------------


def test_imgui_direct3d_backend_hlsl_string_counts_its_shader_lines() -> None:
    # backends/imgui_impl_dx11.cpp: the vertex shader is one literal run over lines by
    # backslashes and handed to D3DCompile; the device calls around it are the host side.
    source = b"""\
#include <d3d11.h>
#include <d3dcompiler.h>

static bool create_vertex_shader(ID3D11Device* device, ID3DBlob** blob)
{
    static const char* vertexShader =
        "cbuffer vertexBuffer : register(b0) \\
        {\\
          float4x4 ProjectionMatrix; \\
        };\\
        struct VS_INPUT { float2 pos : POSITION; float4 col : COLOR0; };\\
        struct PS_INPUT { float4 pos : SV_POSITION; float4 col : COLOR0; };\\
        PS_INPUT main(VS_INPUT input)\\
        {\\
          PS_INPUT output;\\
          output.pos = mul(ProjectionMatrix, float4(input.pos.xy, 0.f, 1.f));\\
          output.col = input.col;\\
          return output;\\
        }";
    return SUCCEEDED(D3DCompile(vertexShader, strlen(vertexShader), nullptr, nullptr,
                                nullptr, "main", "vs_4_0", 0, 0, blob, nullptr));
}
"""
    report = classify("backends/imgui_impl_dx11.cpp", source)
    assert "hlsl.source-string" in _rules("backends/imgui_impl_dx11.cpp", source)
    assert report.ecosystems == {"hlsl": 13}
    assert _layers("backends/imgui_impl_dx11.cpp", source)["kernel"] == 13


def test_imgui_opengl3_shaders_without_a_version_line_are_glsl() -> None:
    # backends/imgui_impl_opengl3.cpp: the #version line is chosen at run time and prepended,
    # so each shader literal starts with its declarations; one literal a line.
    source = b"""\
static void create_device_objects(const char* glsl_version)
{
    const GLchar* vertex_shader_glsl_130 =
        "uniform mat4 ProjMtx;\\n"
        "in vec2 Position;\\n"
        "in vec4 Color;\\n"
        "out vec4 Frag_Color;\\n"
        "void main()\\n"
        "{\\n"
        "    Frag_Color = Color;\\n"
        "    gl_Position = ProjMtx * vec4(Position.xy,0,1);\\n"
        "}\\n";
    const GLchar* vertex_shader[2] = { glsl_version, vertex_shader_glsl_130 };
    GLuint handle = glCreateShader(GL_VERTEX_SHADER);
    glShaderSource(handle, 2, vertex_shader, nullptr);
    glCompileShader(handle);
}
"""
    assert "vulkan.glsl-string" in _rules("backends/imgui_impl_opengl3.cpp", source)
    assert _layers("backends/imgui_impl_opengl3.cpp", source) == {"kernel": 9, "portable": 8}


def test_a_translator_emitting_void_main_holds_no_shader() -> None:
    # bgfx's tools/shaderc and its vendored SPIRV-Cross look for or write the entry point
    # one token at a time; no line of a shader sits in them.
    source = b"""\
static bool patch_entry(bx::StringView input)
{
    bx::StringView entry = bx::strFind(input, "void main()");
    return !entry.isEmpty();
}
void CompilerGLSL::emit_entry() { statement("void main()"); begin_scope(); }
"""
    assert _layers("tools/shaderc/shaderc.cpp", source) == {"portable": 6}


def test_imgui_wgpu_surface_helper_touches_metal_only_in_its_cocoa_branch() -> None:
    # backends/imgui_impl_wgpu.cpp: the WGSL shaders are counted as WGSL; a CAMetalLayer made
    # for the macOS surface is Apple's API.
    source = b"""\
static const char __shader_vert_wgsl[] = R"(
@vertex
fn main(@location(0) position: vec2<f32>) -> @builtin(position) vec4<f32> {
    return vec4<f32>(position, 0.0, 1.0);
}
)";

WGPUSurface create_surface(NSWindow* ns_window)
{
    id metal_layer = [CAMetalLayer layer];
    [ns_window.contentView setLayer:metal_layer];
    return make_surface(metal_layer);
}
"""
    report = classify("backends/imgui_impl_wgpu.cpp", source)
    assert report.ecosystems == {"wgsl": 6, "metal": 1}


def test_imgui_sdl_gpu_precompiled_shader_bytes_are_data() -> None:
    # backends/imgui_impl_sdlgpu3_shaders.h: SPIR-V, DXBC and metallib blobs as byte arrays;
    # the shaders' source is counted where it lives (backends/sdlgpu3/shader.vert).
    source = b"""\
#pragma once
#include <stdint.h>
static const uint8_t spirv_vertex[1732] = {
    3,2,35,7,0,0,1,0,11,0,13,0,55,0,0,0,0,0,0,0,17,0,2,0,1,0,0,0,11,0,6,0,
    1,0,0,0,71,76,83,76,46,115,116,100,46,52,53,48,0,0,0,0,14,0,3,0,0,0,0,0,
};
"""
    assert _layers("backends/imgui_impl_sdlgpu3_shaders.h", source) == {"portable": 6}


# -- NVlabs/nvdiffrast: a CUDA rasterizer split into .inl files --------------------------------


def test_nvdiffrast_cudaraster_inl_device_functions_count_whole() -> None:
    # common/cudaraster/impl/Util.inl: one-line __device__ helpers around inline PTX, all of
    # them device code; the .inl files are included into one .cu.
    source = b"""\
namespace CR
{
template<class T> __device__ __inline__ void swap(T& a, T& b) { T t = a; a = b; b = t; }
__device__ __inline__ U32 getLo(U64 a) { return __double2loint(__longlong_as_double(a)); }
__device__ __inline__ U32 laneLt() { U32 r; asm("mov.u32 %0, %lanemask_lt;" : "=r"(r)); return r; }
__device__ __inline__ U32 add_sub(U32 a, U32 b, U32 c)
{
    U32 v;
    asm("vadd.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(v) : "r"(a), "r"(b), "r"(c));
    return v;
}
}
"""
    report = classify("csrc/common/cudaraster/impl/Util.inl", source)
    assert report.ecosystems == {"cuda": 9}
    assert _layers("csrc/common/cudaraster/impl/Util.inl", source) == {
        "kernel": 9,
        "portable": 3,
    }


def test_nvdiffrast_samples_importing_the_extension_are_nvidia_library_code() -> None:
    # samples/torch/triangle.py: every nvdiffrast context runs CUDA kernels.
    source = b"""\
import numpy as np
import torch
import nvdiffrast.torch as dr

glctx = dr.RasterizeCudaContext()
pos = torch.zeros([1, 3, 4], device="cuda")
"""
    assert _rules("samples/torch/triangle.py", source) >= {
        "cuda-libs.python-extension",
        "torch.device-string",
    }
    assert _layers("samples/torch/triangle.py", source) == {
        "vendor-library": 2,
        "vendor-path": 1,
        "portable": 2,
    }


# -- NVIDIAGameWorks/kaolin: CUDA ops behind WITH_CUDA, nvdiffrast as an optional back end ----


def test_kaolin_optional_nvdiffrast_context_is_nvidia_library_code() -> None:
    # kaolin/render/mesh/nvdiffrast_context.py: the import may fail, but the path it enables
    # rasterizes with CUDA only.
    source = b"""\
_device2glctx = {}
try:
    import nvdiffrast.torch as nvdiff
    _has_nvdiffrast = True
except ImportError:
    nvdiff = None
    _has_nvdiffrast = False

def default_nvdiffrast_context(device):
    name = str(device)
    if name not in _device2glctx:
        _device2glctx[name] = nvdiff.RasterizeCudaContext(device=device)
    return _device2glctx[name]
"""
    assert _layers("kaolin/render/mesh/nvdiffrast_context.py", source) == {
        "vendor-library": 2,
        "portable": 10,
    }


def test_kaolin_op_binding_with_cuda_branch_is_vendor_path() -> None:
    # kaolin/csrc/ops/packed_simple_sum.cpp: the CUDA launch compiled only WITH_CUDA; the
    # #else raises. The C++ around it stays portable.
    source = b"""\
#include <ATen/ATen.h>

namespace kaolin {

void packed_simple_sum_cuda_impl(at::Tensor in, at::Tensor out);

at::Tensor packed_simple_sum(at::Tensor in, int n) {
  at::Tensor out = at::zeros({n}, in.options());
#ifdef WITH_CUDA
  packed_simple_sum_cuda_impl(in, out);
#else
  AT_ERROR("packed_simple_sum not built with CUDA");
#endif
  return out;
}

}
"""
    layers = _layers("kaolin/csrc/ops/packed_simple_sum.cpp", source)
    assert layers["vendor-path"] >= 2
    assert "kernel" not in layers


# -- nerfstudio-project/nerfacc: scans in .cuh headers, launched from .cu host code -----------


def test_nerfacc_scan_header_device_templates_are_kernel_code() -> None:
    # nerfacc/cuda/csrc/include/utils_scan.cuh: a templated __device__ row scan over shared
    # memory; the include and namespace lines around it are not.
    source = b"""\
#include "utils_cuda.cuh"

namespace device {

template <typename T, int NX, int NY>
__device__ void inclusive_scan_impl(T* row_buf, const T* src, int n)
{
    int tx = threadIdx.x;
    for (int i = tx; i < n; i += NX) {
        row_buf[i] = src[i];
    }
    __syncthreads();
}

}
"""
    assert _layers("nerfacc/cuda/csrc/include/utils_scan.cuh", source) == {
        "kernel": 9,
        "portable": 3,
    }


def test_nerfacc_host_launch_file_has_no_kernel_lines() -> None:
    # nerfacc/cuda/csrc/scan.cu: torch glue launching the header's kernels; a host file.
    source = b"""\
#include "include/utils_scan.cuh"

torch::Tensor inclusive_sum(torch::Tensor inputs, torch::Tensor starts)
{
    at::cuda::CUDAStream stream = at::cuda::getCurrentCUDAStream();
    dim3 threads = dim3(16, 32);
    dim3 blocks = dim3(64);
    torch::Tensor outputs = torch::empty_like(inputs);
    device::inclusive_scan_kernel<float, 16, 32><<<blocks, threads, 0, stream>>>(
        outputs.data_ptr<float>(), inputs.data_ptr<float>(), starts.size(0));
    return outputs;
}
"""
    layers = _layers("nerfacc/cuda/csrc/scan.cu", source)
    assert "kernel" not in layers
    assert layers["vendor-path"] >= 3


# -- xinntao/Real-ESRGAN-ncnn-vulkan: ncnn Vulkan compute shaders -----------------------------


def test_realesrgan_preproc_comp_with_ncnn_macros_counts_whole() -> None:
    # src/realesrgan_preproc.comp: ncnn's fp16/int8 storage switches around a GLSL compute
    # shader; every line builds for every Vulkan vendor.
    source = b"""\
#version 450
#if NCNN_fp16_storage
#extension GL_EXT_shader_16bit_storage: require
#define sfp float16_t
#else
#define sfp float
#endif
layout (constant_id = 0) const int bgr = 0;
layout (binding = 0) readonly buffer bottom_blob { float bottom_blob_data[]; };
layout (binding = 1) writeonly buffer top_blob { sfp top_blob_data[]; };
layout (push_constant) uniform parameter { int w; int h; } p;
void main()
{
    int gx = int(gl_GlobalInvocationID.x);
    if (gx >= p.w) return;
    top_blob_data[gx] = sfp(bottom_blob_data[gx] * (1 / 255.f));
}
"""
    report = classify("src/realesrgan_preproc.comp", source)
    assert report.ecosystems == {"vulkan": 17}


def test_realesrgan_main_through_ncnn_gpu_api_is_portable() -> None:
    # src/main.cpp: ncnn picks the Vulkan device; the program names no Vulkan object.
    source = b"""\
#include "gpu.h"
#include "realesrgan.h"

int run(int gpuid)
{
    ncnn::create_gpu_instance();
    int gpu_count = ncnn::get_gpu_count();
    if (gpuid >= gpu_count) {
        ncnn::destroy_gpu_instance();
        return -1;
    }
    RealESRGAN net(gpuid, false);
    ncnn::destroy_gpu_instance();
    return 0;
}
"""
    assert _layers("src/main.cpp", source) == {"portable": 14}


# -- apple/ml-stable-diffusion: Core ML from Swift and coremltools from Python ----------------


def test_ml_stable_diffusion_swift_core_ml_pipeline_is_apple_library_code() -> None:
    # swift/StableDiffusion/pipeline/Decoder.swift: a model loaded and predicted through Core
    # ML; the function header is one line of Core ML, not the body it opens, while a
    # statement whose closure builds Core ML inputs counts to the closure's end.
    source = b"""\
import Foundation
import CoreML

public struct Decoder {
    var model: MLModel

    public func decode(_ latents: [MLShapedArray<Float32>], scale: Float32) throws -> [Float] {
        let scaled = latents.map { scale * $0.scalars[0] }
        let inputs: [MLFeatureProvider] = try latents.map { sample in
            try MLDictionaryFeatureProvider(dictionary: ["z": MLMultiArray(sample)])
        }
        let batch = MLArrayBatchProvider(array: inputs)
        _ = try model.predictions(from: batch)
        return scaled
    }
}
"""
    report = classify("swift/StableDiffusion/pipeline/Decoder.swift", source)
    assert report.ecosystems == {"metal": 7}
    assert _layers("swift/StableDiffusion/pipeline/Decoder.swift", source) == {
        "vendor-library": 7,
        "portable": 7,
    }


def test_ml_stable_diffusion_coremltools_converter_is_apple_library_code() -> None:
    # python_coreml_stable_diffusion/torch2coreml.py: PyTorch traced, then converted to an
    # .mlpackage only Core ML runs.
    source = b"""\
import coremltools as ct
import torch

def convert_unet(traced, sample_shape):
    return ct.convert(
        traced,
        inputs=[ct.TensorType(name="sample", shape=sample_shape)],
        compute_units=ct.ComputeUnit.ALL,
    )
"""
    assert _layers("python_coreml_stable_diffusion/torch2coreml.py", source) == {
        "vendor-library": 1,
        "portable": 7,
    }


def test_a_swift_model_type_named_like_core_ml_is_portable() -> None:
    # A Swift app's own ML* type and a string naming Core ML's class are no Core ML calls.
    source = b"""\
import Foundation

struct MLConfig {
    let steps: Int
}
let name = "MLModel"
"""
    assert _layers("Sources/App/Config.swift", source) == {"portable": 5}


# -- KhronosGroup/MoltenVK: Vulkan implemented on Metal ---------------------------------------


def test_moltenvk_metal_shader_source_in_an_objc_header_is_kernel_code() -> None:
    # MoltenVK/Commands/MVKCommandPipelineStateFactoryShaderSource.h: the MSL of its blit and
    # clear pipelines in an NSString raw literal.
    source = b"""\
#import <Foundation/Foundation.h>

static NSString* _MVKStaticCmdShaderSource = @R"(
#include <metal_stdlib>
using namespace metal;

kernel void cmdFillBuffer(device uint32_t* buff [[ buffer(0) ]],
                          constant uint32_t& fillValue [[ buffer(1) ]],
                          uint pos [[thread_position_in_grid]]) {
    buff[pos] = fillValue;
}
)";
"""
    report = classify("MoltenVK/Commands/MVKCommandPipelineStateFactoryShaderSource.h", source)
    assert report.ecosystems == {"metal": 9}  # not the blank line inside the string


def test_moltenvk_command_encoding_is_metal_and_vulkan_host_code() -> None:
    # MoltenVK/Commands/MVKCmdDispatch.mm: a Vulkan command recorded, replayed on a Metal
    # compute encoder.
    source = b"""\
#include "MVKCmdDispatch.h"

VkResult MVKCmdDispatch::setContent(MVKCommandBuffer* cmdBuff, uint32_t x, uint32_t y, uint32_t z) {
    _mtlThreadgroupCount = MTLRegionMake3D(0, 0, 0, x, y, z);
    return VK_SUCCESS;
}

void MVKCmdDispatch::encode(MVKCommandEncoder* cmdEncoder) {
    id<MTLComputeCommandEncoder> enc = cmdEncoder->getMTLComputeEncoder(kMVKCommandUseDispatch);
    [enc dispatchThreadgroups:_mtlThreadgroupCount.size threadsPerThreadgroup:_size];
}
"""
    report = classify("MoltenVK/Commands/MVKCmdDispatch.mm", source)
    assert set(report.ecosystems) == {"metal", "vulkan"}
    assert "kernel" not in _layers("MoltenVK/Commands/MVKCmdDispatch.mm", source)


# -- LuisaGroup/LuisaCompute: one DSL, back ends for CUDA, Metal, DirectX and Vulkan ----------


def test_luisa_metal_codegen_prelude_string_is_metal_kernel_code() -> None:
    # src/backends/metal/metal_codegen_ast.cpp: the code generator writes MSL; the literal
    # holding a whole kernel signature is Metal source, the emitter around it host code.
    source = b"""\
void MetalCodegenAST::emit_kernel_header(StringScratch& s) {
    s << "[[kernel]] void kernel_main(\\n"
         "    constant Args &args [[buffer(0)]],\\n"
         "    uint3 tid [[thread_position_in_threadgroup]]) {\\n";
    s << "}\\n";
}
"""
    assert "metal.source-string" in _rules("src/backends/metal/metal_codegen_ast.cpp", source)


# -- isl-org/Open3D: one tensor library, CPU, CUDA and SYCL kernels side by side --------------


def test_open3d_sycl_parallel_for_wrapper_lambda_is_a_sycl_kernel() -> None:
    # cpp/open3d/core/kernel/BinaryEWSYCL.cpp: core::ParallelFor(queue, n, lambda) submits the
    # lambda to the SYCL queue; its int64_t index hides the item type sycl.kernel looks for.
    source = b"""\
#include <sycl/sycl.hpp>

namespace open3d {
void BinaryEWSYCL(sycl::queue queue, const float* lhs, const float* rhs, float* dst, int64_t n) {
    core::ParallelFor(queue, n, [=](int64_t i) {
        float a = lhs[i];
        float b = rhs[i];
        dst[i] = a + b;
    });
    queue.wait_and_throw();
}
}
"""
    assert "sycl.parallel-for-lambda" in _rules("cpp/open3d/core/kernel/BinaryEWSYCL.cpp", source)
    layers = _layers("cpp/open3d/core/kernel/BinaryEWSYCL.cpp", source)
    assert layers["kernel"] == 5


def test_open3d_cpu_parallel_for_outside_sycl_stays_portable() -> None:
    # cpp/open3d/core/kernel/BinaryEWCPU.cpp: the same wrapper over an OpenMP loop in a plain
    # C++ file is host code.
    source = b"""\
#include "open3d/core/ParallelFor.h"

void BinaryEWCPU(const float* lhs, const float* rhs, float* dst, int64_t n) {
    core::ParallelFor(core::Device("CPU:0"), n, [=](int64_t i) {
        dst[i] = lhs[i] + rhs[i];
    });
}
"""
    assert _layers("cpp/open3d/core/kernel/BinaryEWCPU.cpp", source) == {"portable": 6}


# -- DiligentGraphics/DiligentCore: inline test shaders for every back end -------------------


def test_diligent_inline_hlsl_test_shader_in_a_raw_string_is_hlsl() -> None:
    # Tests/DiligentCoreAPITest/include/InlineShaders/ComputeShaderTestHLSL.h: raw strings
    # of HLSL compiled by the test for D3D11, D3D12 and (through DXC) Vulkan.
    source = b"""\
namespace HLSL
{
const std::string FillTextureCS{
R"(
RWTexture2D<float4> g_tex2DUAV;

[numthreads(16, 16, 1)]
void main(uint3 DTid : SV_DispatchThreadID)
{
    g_tex2DUAV[DTid.xy] = float4(0.0, 1.0, 0.0, 1.0);
}
)"};
}
"""
    report = classify(
        "Tests/DiligentCoreAPITest/include/InlineShaders/ComputeShaderTestHLSL.h", source
    )
    assert report.ecosystems == {"hlsl": 8}  # not the blank line inside the string


def test_diligent_tokenizer_test_input_opening_with_void_main_is_no_shader() -> None:
    # Tests/DiligentCoreTest/src/Common/ParsingToolsTest.cpp: C-like inputs for the shader
    # tokenizer, with no GLSL built-in in them.
    source = b"""\
TEST(Common_ParsingTools, SkipComment)
{
    static const char* TestStr = R"(
void main()
{
    float Number1 = 10;
    const char* String = "string constant";
}
)";
    EXPECT_TRUE(Parse(TestStr));
}
"""
    assert _layers("Tests/DiligentCoreTest/src/Common/ParsingToolsTest.cpp", source) == {
        "portable": 11
    }
