"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-g).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 151-160. Four had no snapshot: zjohnson2005/gnn-hls-accel,
millarm/schrodingerattention, tamnd/mojo.core and supercatking/zcutlass. Fifteen files of each
remaining repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts, and labelled before any fix, with the files lockin calls non-portable (up to twenty)
and GPU-looking files it calls portable (up to ten), and three commits touching GPU code
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Actlars/DX12Framework: a Direct3D 12 engine vendoring DirectX-Headers and the Agility SDK --


def test_d3d12_idl_is_direct3d12_host_code_as_its_header_is() -> None:
    # External/DirectX-Header/include/d3d12compiler.idl: the MIDL source of d3d12compiler.h,
    # the same D3D12_* enums and ID3D12* interfaces. Before, every d3d12*.idl was portable
    # (6,127 lines of d3d12.idl alone) while the headers made from them were vendor-path.
    source = b"""\
import "oaidl.idl";
import "d3d12.idl";

typedef struct D3D12_ADAPTER_FAMILY
{
    WCHAR szAdapterFamily[128];
} D3D12_ADAPTER_FAMILY;

[uuid(7c3f2a10-1b2c-4d5e-8f90-a1b2c3d4e5f6), object, local, pointer_default(unique)]
interface ID3D12CompilerCacheSession : IUnknown
{
    HRESULT FindGroup(const void* pKey, UINT* pVersion);
    D3D12_ADAPTER_FAMILY GetFamily();
}
"""
    assert _rules("External/DirectX-Header/include/d3d12compiler.idl", source) == {
        "hlsl.directml-host"
    }
    layers = _layers("External/DirectX-Header/include/d3d12compiler.idl", source)
    assert layers.get("vendor-path", 0) >= 3
    assert layers.get("kernel", 0) == 0


def test_dxgi_idl_without_direct3d12_names_stays_portable() -> None:
    # External/DirectX-Header/include/dxgiformat.idl: DXGI's formats serve Direct3D 11 as
    # well; an IDL file naming no Direct3D 12 type is no vendor path.
    source = b"""\
typedef enum DXGI_FORMAT
{
    DXGI_FORMAT_UNKNOWN = 0,
    DXGI_FORMAT_R32G32B32A32_TYPELESS = 1,
    DXGI_FORMAT_R32G32B32A32_FLOAT = 2,
} DXGI_FORMAT;
"""
    assert _rules("External/DirectX-Header/include/dxgiformat.idl", source) == set()
    assert _layers("External/DirectX-Header/include/dxgiformat.idl", source) == {"portable": 6}


def test_d3d12_root_signature_setup_is_vendor_path() -> None:
    # Source/Engine/RootSignature/RootSignatureLayout/RootSignatureLayout.cpp (checked right):
    # root parameters and a serialised root signature for an ID3D12Device.
    source = b"""\
#include "RootSignatureLayout.h"

bool RootSignatureLayout::Create(ID3D12Device* device)
{
    D3D12_ROOT_PARAMETER param = {};
    param.ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    std::vector<int> order = BuildOrder();
    return Serialize(device, param, order);
}
"""
    assert _rules("Source/Engine/RootSignature/Layout.cpp", source) == {"hlsl.directml-host"}
    assert _layers("Source/Engine/RootSignature/Layout.cpp", source).get("vendor-path", 0) >= 3


def test_dxc_inline_spirv_header_is_hlsl_kernel_code() -> None:
    # External/DXC_2026_02/include/hlsl/vk/khr/cooperative_matrix.h: DXC's HLSL library for
    # Vulkan's cooperative matrices, under a .h name. Before, it was a C header with 8
    # vulkan.host-api lines; every code line of it is HLSL a shader includes.
    source = b"""\
#ifndef HLSL_VK_COOPMAT_H
#define HLSL_VK_COOPMAT_H
#include "vk/spirv.h"

namespace vk {
template <typename T, Scope scope, uint rows, uint cols>
class CoopMat {
  [[vk::ext_extension("SPV_KHR_cooperative_matrix")]]
  [[vk::ext_capability(6022)]]
  void Store(RWStructuredBuffer<T> data, uint index, uint stride);
};
} // namespace vk
#endif
"""
    assert _rules("include/hlsl/vk/khr/cooperative_matrix.h", source) == {"hlsl.shader-file"}
    assert _layers("include/hlsl/vk/khr/cooperative_matrix.h", source) == {"kernel": 12}


def test_c_header_with_standard_attributes_stays_c() -> None:
    # The HLSL test reads vk::ext_ attributes only: a host header with C++ attributes and a
    # comment quoting the HLSL spelling stays a C header.
    source = b"""\
#pragma once
// shaders bind with [[vk::ext_instruction(...)]]; the host never does
[[nodiscard]] int spirv_opcode(const char* name);
"""
    assert _rules("src/spirv_names.h", source) == set()
    assert _layers("src/spirv_names.h", source) == {"portable": 2}


def test_nuget_packages_config_pulling_the_d3d12_sdk_is_vendor_build() -> None:
    # External/DirectXTex/packages.config: the NuGet list restoring the Direct3D 12 Agility SDK
    # the project builds against. Before, packages.config had no language and was not counted.
    source = b"""\
<?xml version="1.0" encoding="utf-8"?>
<packages>
  <package id="Microsoft.Direct3D.D3D12" version="1.619.3" targetFramework="native" />
  <package id="directxtk12_desktop_2019" version="2024.10.29.1" targetFramework="native" />
</packages>
"""
    assert _rules("External/DirectXTex/packages.config", source) == {"build.msbuild-d3d12"}
    assert _layers("External/DirectXTex/packages.config", source) == {
        "vendor-path": 1,
        "portable": 4,
    }


def test_nuget_packages_config_without_gpu_packages_is_portable() -> None:
    source = b"""\
<?xml version="1.0" encoding="utf-8"?>
<packages>
  <package id="Microsoft.Windows.CppWinRT" version="2.0.240405.15" targetFramework="native" />
</packages>
"""
    assert _rules("app/packages.config", source) == set()
    assert _layers("app/packages.config", source) == {"portable": 4}


# -- tensorworksio/TensorRT-Vision: TensorRT detectors, classifiers and trackers --------------


def test_tensorrt_logger_subclass_is_vendor_library() -> None:
    # include/engine/logger.hpp (checked right): an nvinfer1::ILogger subclass that forwards
    # TensorRT's messages to spdlog.
    source = b"""\
#pragma once
#include <NvInfer.h>
#include <spdlog/spdlog.h>

class TrtLog : public nvinfer1::ILogger
{
public:
    void log(Severity severity, const char* msg) noexcept override
    {
        if (severity <= Severity::kWARNING) spdlog::warn("{}", msg);
    }
};
"""
    assert "tensorrt.api" in _rules("include/engine/logger.hpp", source)
    assert _layers("include/engine/logger.hpp", source).get("vendor-library", 0) >= 1


def test_meson_cuda_dependency_and_nvinfer_link_is_vendor_build() -> None:
    # meson.build (checked right): dependency('cuda') and TensorRT linked by -lnvinfer.
    source = b"""\
project('vision', 'cpp', default_options : ['cpp_std=c++17'])
cuda_dep = dependency('cuda')
json_dep = dependency('nlohmann_json')
trt_dep = declare_dependency(link_args : ['-lnvinfer', '-lcudart'])
lib = shared_library('engine', 'src/engine.cpp', dependencies : [cuda_dep, trt_dep, json_dep])
"""
    layers = _layers("meson.build", source)
    assert layers.get("vendor-path", 0) + layers.get("vendor-library", 0) >= 1


# -- daumkuchen/study-glsl: GLSL sketches for glslViewer / VEDA ------------------------------


def test_fragment_shader_sketch_is_kernel_code_whole() -> None:
    # 066.glsl (checked right): a fragment shader, every code line of it is shader code.
    source = b"""\
#ifdef GL_ES
precision mediump float;
#endif

uniform vec2 resolution;
uniform float time;

void main(void) {
  vec2 p = (gl_FragCoord.xy * 2.0 - resolution.xy) / min(resolution.x, resolution.y);
  float c = fract(p.x * p.y + sin(time));
  gl_FragColor = vec4(vec3(c), 1.0);
}
"""
    assert _layers("066.glsl", source) == {"kernel": 10}


# -- HashSource/hashsource_antminer_Ex and retro-foundry/alienbreed3d2: no GPU code -----------


def test_decompiled_c_naming_opencl_in_a_message_is_portable() -> None:
    # bitmain_firmware/_binaries/gdb_*.dec/sub_*.c: decompiled gdb, whose only GPU word is
    # OpenCL in an error message string.
    source = b"""\
int __fastcall sub_1BACFC(int a1, int a5)
{
  if ( a5 > 16 )
    sub_94708("Invalid OpenCL vector size: %d", a5);
  return a1 + a5;
}
"""
    assert _layers("gdb.dec/sub_1BACFC@1BACFC.c", source) == {"portable": 6}
