"""Cases for the engine-level misses the seventh audits and their random samples left (issue 27).

GPUOpen-Effects/FidelityFX-FSR2 (HLSL and GLSL shader code kept in .h headers). Each snippet
is a small rewrite, in our own words, of a pattern found in the repository its test names;
the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers

# -- GPUOpen-Effects/FidelityFX-FSR2: shader code in .h headers --------------------------------


def test_fidelityfx_shared_shader_header_is_hlsl_kernel_code() -> None:
    # src/ffx-fsr2-api/shaders/ffx_fsr2_accumulate.h: written once through FidelityFX's
    # portable types and included by both ffx_fsr2_accumulate_pass.hlsl and .glsl. No include,
    # no HLSL or GLSL keyword of its own: the vector types returned and initialised say GPU.
    source = b"""\
#ifndef FFX_FSR2_ACCUMULATE_H
#define FFX_FSR2_ACCUMULATE_H

FfxFloat32 GetPxHrVelocity(FfxFloat32x2 fMotionVector)
{
    return length(fMotionVector * DisplaySize());
}

FfxFloat32x3 Blend(FfxFloat32x3 fHistory, FfxFloat32x4 fUpsampled)
{
    const FfxFloat32x3 fAlpha = fUpsampled.www / ffxMax(FSR2_EPSILON.xxx, fHistory);
    return ffxLerp(fHistory, fUpsampled.xyz, fAlpha);
}

#endif
"""
    report = classify("src/ffx-fsr2-api/shaders/ffx_fsr2_accumulate.h", source)
    assert report.language == "HLSL"
    assert report.ecosystems == {"hlsl": 12}
    assert _layers("src/ffx-fsr2-api/shaders/ffx_fsr2_accumulate.h", source) == {"kernel": 12}


def test_fidelityfx_cpu_side_headers_stay_portable_c() -> None:
    # ffx_core_cpu.h: on the CPU FidelityFX's vector types are C arrays, indexed, never
    # returned; ffx_common_types.h only names the types per language. Both stay host C.
    cpu = b"""\
#define FFX_STATIC static

FFX_STATIC FfxFloat32 ffxDot3(FfxFloat32x3 a, FfxFloat32x3 b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

FFX_STATIC void ffxOpAAddOneF3(FfxFloat32x3 d, FfxFloat32x3 a, FfxFloat32 b)
{
    FfxFloat32x3 t = { b, b, b };
    d[0] = a[0] + t[0];
}
"""
    types = b"""\
#if defined(FFX_CPU)
typedef float FfxFloat32x2[2];
#elif defined(FFX_HLSL)
typedef float2 FfxFloat32x2;
#elif defined(FFX_GLSL)
#define FfxFloat32x2 vec2
#endif
"""
    for path, source in (
        ("src/ffx-fsr2-api/shaders/ffx_core_cpu.h", cpu),
        ("src/ffx-fsr2-api/shaders/ffx_common_types.h", types),
    ):
        report = classify(path, source)
        assert report.language == "C Header", path
        assert set(_layers(path, source)) == {"portable"}, path


def test_fidelityfx_glsl_callbacks_header_is_glsl_kernel_code() -> None:
    # ffx_fsr2_callbacks_glsl.h: the GLSL pass's resource bindings and accessors.
    source = b"""\
#if defined(FSR2_BIND_SRV_INPUT_COLOR)
layout (set = 1, binding = FSR2_BIND_SRV_INPUT_COLOR) uniform texture2D r_input_color_jittered;
#endif

FfxFloat32x3 LoadInputColor(FfxInt32x2 iPxPos)
{
    return texelFetch(r_input_color_jittered, iPxPos, 0).rgb;
}
"""
    report = classify("src/ffx-fsr2-api/shaders/ffx_fsr2_callbacks_glsl.h", source)
    assert report.language == "GLSL"
    assert report.ecosystems == {"vulkan": 7}


def test_fidelityfx_hlsl_callbacks_header_is_hlsl_kernel_code() -> None:
    # ffx_fsr2_callbacks_hlsl.h: typed resources bound to registers, a groupshared array.
    source = b"""\
#if defined(FSR2_BIND_SRV_INPUT_COLOR)
Texture2D<FfxFloat32x4> r_input_color_jittered : FFX_FSR2_DECLARE_SRV(FSR2_BIND_SRV_INPUT_COLOR);
#endif
RWTexture2D<float4> rw_upscaled_output : register(u0);
groupshared uint spdCounter;

float4 LoadInputColor(int2 iPxPos)
{
    return r_input_color_jittered[iPxPos];
}
"""
    report = classify("src/ffx-fsr2-api/shaders/ffx_fsr2_callbacks_hlsl.h", source)
    assert report.language == "HLSL"
    assert _layers("src/ffx-fsr2-api/shaders/ffx_fsr2_callbacks_hlsl.h", source) == {"kernel": 9}


def test_cxx_headers_naming_gpu_vector_types_stay_c() -> None:
    # Host headers in shader folders or with shader names (the only ones the heuristics read)
    # that name shader-looking words: a CUDA header with float2 and __device__,
    # a math library with texelFetch-like helpers in a namespace, a D3D12 host header naming
    # Texture2D in a C++ template, a C struct with a register field, an OpenGL loader.
    for path, source in (
        (
            "src/shaders/vec_math.h",
            b"__device__ inline float2 operator+(float2 a, float2 b) {\n"
            b"    return make_float2(a.x + b.x, a.y + b.y);\n}\n",
        ),
        (
            "include/shader_math/packing.h",
            b"namespace glm {\nuint packHalf2x16(vec2 const& v);\n"
            b"vec4 texelFetch(sampler const& s, ivec2 p, int lod);\n}\n",
        ),
        (
            "src/renderer/shader_resources.h",
            b"#include <d3d12.h>\ntemplate <typename T> struct Texture2D { T* res; };\n"
            b"static Texture2D<ID3D12Resource> color_target;\n"
            b"class Renderer { public: void draw(); };\n",
        ),
        (
            "src/shaders/cpu_state.h",
            b"struct cpu_state {\n    unsigned int reg;\n};\nvoid layout(struct cpu_state* s);\n",
        ),
        (
            "src/gl/glsl_loader.h",
            b"#define GL_TEXTURE_2D 0x0DE1\n"
            b"typedef void (*PFNGLTEXIMAGE2DPROC)(unsigned int target, int level);\n",
        ),
    ):
        report = classify(path, source)
        assert report.language == "C Header", path


# -- NVIDIA/k8s-device-plugin: NVIDIA's libraries loaded by name from Go ------------------------


def test_device_plugin_loading_libcuda_by_name_is_an_nvidia_code_path() -> None:
    # internal/cuda/api.go: libcuda named in a constant and opened with go-nvml's dl.New; the
    # driver's entry points are then reached through the package's own wrappers.
    source = b"""\
package cuda

import (
	"github.com/NVIDIA/go-nvml/pkg/dl"
)

const (
	libraryName      = "libcuda.so.1"
	libraryLoadFlags = dl.RTLD_LAZY | dl.RTLD_GLOBAL
)

var cuda *dl.DynamicLibrary

func Init() Result {
	lib := dl.New(libraryName, libraryLoadFlags)
	if err := lib.Open(); err != nil {
		return ERROR_UNKNOWN
	}
	cuda = lib
	return SUCCESS
}
"""
    report = classify("internal/cuda/api.go", source)
    assert report.ecosystems == {"cuda": 1}
    assert [(f.rule, f.start_line) for f in report.findings] == [("cuda.library-load-name", 8)]


def test_strings_merely_naming_nvidia_libraries_stay_portable() -> None:
    # A package list and a help text name libcuda; the load of AMD's runtime is AMD's
    # (hip.library-load-name).
    source = b"""\
package info

var packages = []string{"libcuda1", "nvidia-container-toolkit"}

const hint = "install the NVIDIA driver (libcuda.so.1) first"

func load() { dl.New("libamdhip64.so", dl.RTLD_LAZY) }
"""
    assert classify("internal/info/version.go", source).ecosystems == {"hip": 1}
    assert _layers("internal/info/version.go", source) == {"vendor-path": 1, "portable": 3}


# -- huggingface/text-embeddings-inference: Cargo features pulling CUDA crates -----------------


def test_cargo_cuda_feature_and_cuda_crates_are_vendor_build_configuration() -> None:
    # backends/candle/Cargo.toml: candle's CUDA kernel crates as optional dependencies, and
    # the `cuda` feature turning on candle's CUDA build and those crates.
    source = b"""\
[dependencies]
candle = { workspace = true }
candle-nn = { workspace = true }
candle-cublaslt = { workspace = true, optional = true }
candle-layer-norm = { workspace = true, optional = true }
serde = { workspace = true }

[features]
metal = ["candle/metal", "candle-nn/metal"]
cuda = ["candle/_cuda", "candle-nn/_cuda", "dep:candle-cublaslt", "dep:candle-layer-norm"]
flash-attn = ["dep:candle-flash-attn", "cuda"]
"""
    report = classify("backends/candle/Cargo.toml", source)
    assert [(f.rule, f.start_line, f.end_line) for f in report.findings] == [
        ("deps.cuda-crate", 4, 5),
        ("deps.cuda-crate", 10, 11),
    ]
    assert _layers("backends/candle/Cargo.toml", source) == {"vendor-path": 4, "portable": 6}


def test_a_cuda_crate_own_manifest_and_workspace_members_stay_portable() -> None:
    # The crate's own [package] name, its keywords, and a workspace listing member folders.
    source = b"""\
[package]
name = "candle-kernels"
keywords = ["cuda", "candle"]

[workspace]
members = ["candle-core", "candle-kernels", "candle-flash-attn"]
"""
    assert _layers("candle-kernels/Cargo.toml", source) == {"portable": 5}


def test_fidelityfx_v1_header_gpu_branches_are_kernel_and_cpu_set_up_portable() -> None:
    # bkaradzic/bgfx examples/46-fsr/ffx_fsr1.h: FSR 1's CPU constant set-up (A_STATIC), then
    # the EASU pass under `#if defined(A_GPU)`, compiled as HLSL or GLSL by the passes.
    source = b"""\
A_STATIC void FsrEasuCon(outAU4 con0, AF1 inputViewportInPixelsX) {
  con0[0] = AU1_AF1(inputViewportInPixelsX);
}

#if defined(A_GPU)&&defined(FSR_EASU_F)
 AF3 FsrEasuRF(AF2 p);
 void FsrEasuF(out AF3 pix, AU2 ip, AU4 con0) {
  AF2 pp = AF2(ip) * AF2_AU2(con0.xy) + AF2_AU2(con0.zw);
  pix = FsrEasuRF(pp);
 }
#endif
"""
    report = classify("examples/46-fsr/ffx_fsr1.h", source)
    assert report.language == "C Header"
    assert report.ecosystems == {"hlsl": 7}
    assert _layers("examples/46-fsr/ffx_fsr1.h", source) == {"kernel": 7, "portable": 3}


def test_an_nv_extension_among_others_under_an_if_does_not_lock_the_shader_to_nvidia() -> None:
    # ffx_core_glsl.h enables GL_NV_shader_atomic_int64 after GL_ARB_gpu_shader_int64, both
    # under `#if defined(FFX_LONG)`; Tencent/ncnn's gemm_int8_cm.comp enables two GL_NV_
    # extensions in the `#elif` beside its KHR cooperative-matrix branch. Neither file is
    # NVIDIA-only: the extensions' run follows an #if, not a plain line.
    ffx = b"""\
#if defined(FFX_LONG)
    #extension GL_ARB_gpu_shader_int64 : require
    #extension GL_NV_shader_atomic_int64 : require
#endif
layout (set = 1, binding = 0) uniform texture2D r_input_color;
FfxFloat32x3 LoadInput(FfxInt32x2 p) { return texelFetch(r_input_color, p, 0).rgb; }
"""
    report = classify("src/ffx-fsr2-api/shaders/ffx_core_glsl.h", ffx)
    assert report.language == "GLSL"
    assert "vulkan.nv-extension-shader" not in {f.rule for f in report.findings}
    ncnn = b"""\
#version 450
#if ncnn_VK_KHR_cooperative_matrix
#extension GL_KHR_cooperative_matrix : require
#elif ncnn_VK_NV_cooperative_matrix
#extension GL_NV_cooperative_matrix : require
#extension GL_NV_integer_cooperative_matrix : require
#endif
layout (local_size_x = 32) in;
void main() {}
"""
    rules = {f.rule for f in classify("src/layer/vulkan/shader/gemm_int8_cm.comp", ncnn).findings}
    assert "vulkan.nv-extension-shader" not in rules
    # Enabled outright, after a plain line, the extensions do make it NVIDIA's.
    plain = ncnn.replace(b"#elif ncnn_VK_NV_cooperative_matrix\n", b"#endif\n", 1)
    plain = plain.replace(b"#endif\nlayout", b"layout", 1)
    rules = {f.rule for f in classify("shader/gemm_nv.comp", plain).findings}
    assert "vulkan.nv-extension-shader" in rules
    # The guarded files stay cross-vendor shader code, every line of them.
    assert _layers("src/ffx-fsr2-api/shaders/ffx_core_glsl.h", ffx) == {"kernel": 6}
    assert classify("src/layer/vulkan/shader/gemm_int8_cm.comp", ncnn).ecosystems == {"vulkan": 9}
