"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-random-b).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (the name's text only, so some are no GPU code at all).
This lane took sub-pool positions 282-289. One was skipped: torlambrechts-sketch/Orgpuls (284)
had no snapshot to fetch. Read were NiclasHaderer/thoth-web (a React/Next.js front end for an
audiobook server, no GPU code), LunarG/VulkanSamples (LunarG's Vulkan API samples: C++ host
code on the Vulkan loader, GLSL shader stages, SPIR-V assembly, a vendored glm, Android and
Windows build scripts), srinivasadmurthy/bare-metal-manager-core (NVIDIA's bare-metal
provisioning service in Rust and Go: PXE images, Helm charts, hardware validation that runs
nvidia-smi and dcgmi; no device code), delock/DeepSpeedSYCLSupport (a DeepSpeed fork adding
SYCL ports under csrc/xpu: CUDA kernels, CUTLASS attention, SYCLomatic-migrated SYCL device
code, accelerator-neutral Python), pitchingcoachu/pcudashboard (a Next.js coaching portal
wrapped with Capacitor, its name holding "cu" by chance, no GPU code),
gnome-child/wgpu_app_framework (a Rust UI framework drawing through wgpu, its WGSL in .wgsl
files and Rust raw strings) and rafael3382/ILTGShader-LightEdition (a Survivalcraft shader mod
in C#: the game's decompiled reference sources and the engine's .vsh/.psh shader pairs).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, files outside the
sample that hold kernel lines counted by hand (up to 5 a repository), and up to three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Two sampled files were wrong before: VulkanSamples' build_windows_samples_sdk.bat builds the
samples inside the Vulkan SDK through %VULKAN_SDK%, which build.vulkan read only as MSBuild's
$(VULKAN_SDK); DeepSpeedSYCLSupport's csrc/xpu/includes/type_shim.h holds a SYCLomatic block
reduction that asks for its work-item with this_nd_item<3>(), a device function no rule read
(sycl.free-function-query now does). Outside the sample, ILTGShader's six .psh pixel shaders
had no language (a content row now reads them as GLSL). The other tests pin verdicts worth
keeping. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- LunarG/VulkanSamples: the Vulkan API samples --------------------------------------------


def test_batch_script_building_inside_the_vulkan_sdk_is_vendor_path() -> None:
    # build_windows_samples_sdk.bat (sampled, portable before): checks for cmake and msbuild,
    # changes into %VULKAN_SDK% and configures with the SDK's glslang.
    source = b"""\
@echo off
where cmake.exe > nul 2>&1 || exit /b 1
set HERE=%CD%
cd %VULKAN_SDK%
md build
cd build
cmake -G "Visual Studio 16" -A x64 -DGLSLANG_INSTALL_DIR=%VULKAN_SDK% ..
msbuild ALL_BUILD.vcxproj /p:Configuration=Release
cd %HERE%
"""
    path = "build_windows_samples_sdk.bat"
    assert _rules(path, source) == {"build.vulkan"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 7}


def test_vulkan_host_sample_is_vendor_path() -> None:
    # API-Samples/16-vulkan_1_1/16-vulkan_1_1.cpp (sampled, right before any fix): asks the
    # loader for the instance version and creates an instance.
    source = b"""\
#include <vulkan/vulkan.h>
#include <cstdio>

int sample_main() {
    uint32_t version = 0;
    vkEnumerateInstanceVersion(&version);
    VkApplicationInfo app = {};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.apiVersion = VK_API_VERSION_1_1;
    std::printf("loader %u\\n", version);
    return 0;
}
"""
    layers = _layers("API-Samples/16-vulkan_1_1/16-vulkan_1_1.cpp", source)
    assert "kernel" not in layers
    assert layers["vendor-path"] >= 4


def test_vulkan_sample_fragment_shader_is_kernel() -> None:
    # API-Samples/pipeline_derivative/pipeline_derivative.frag (sampled, right before any fix).
    source = b"""\
#version 400
#extension GL_ARB_separate_shader_objects : enable
layout (location = 0) in vec4 tint;
layout (location = 0) out vec4 outColor;
void main() {
   outColor = tint * 0.5;
}
"""
    assert _layers("API-Samples/pipeline_derivative/pipeline_derivative.frag", source) == {
        "kernel": 7
    }


def test_vendored_glm_header_is_portable() -> None:
    # API-Samples/utils/glm/gtx/wrap.hpp (sampled, right before any fix): CPU math templates.
    source = b"""\
#pragma once
namespace glm {
    template <typename genType>
    GLM_FUNC_DECL genType clamp_to_edge(genType const& Texcoord);
    template <typename genType>
    GLM_FUNC_DECL genType mirror_repeat(genType const& Texcoord);
}
"""
    assert _layers("API-Samples/utils/glm/gtx/wrap.hpp", source) == {"portable": 7}


# -- delock/DeepSpeedSYCLSupport: DeepSpeed with SYCL ports ----------------------------------


def test_sycl_block_reduction_asking_for_its_work_item_is_kernel() -> None:
    # csrc/xpu/includes/type_shim.h (sampled, vendor-path only before): type-dispatch macros,
    # then a reduction over a work-group that takes its nd_item from this_nd_item<3>(),
    # barriers between steps and a sub-group shuffle at the end.
    source = b"""\
#include <sycl/sycl.hpp>
#include <ATen/ATen.h>

#define PICK_FLOAT(T, ...) switch (T) { case at::ScalarType::Float: { __VA_ARGS__; } }

template <typename T>
T reduce_lanes(T* smem, T v, int lanes = 1) {
    auto it = sycl::ext::oneapi::experimental::this_nd_item<3>();
    int tid = it.get_local_id(2);
    int size = it.get_local_range(2);
    smem[tid] = v;
    it.barrier();
    for (int i = size / 2; i >= 32; i /= 2) {
        if (tid < i) smem[tid] += smem[tid + i];
        it.barrier();
    }
    return smem[tid % lanes];
}
"""
    path = "csrc/xpu/includes/type_shim.h"
    assert "sycl.free-function-query" in _rules(path, source)
    layers = _layers(path, source)
    assert layers["kernel"] == 13
    assert "vendor-path" in layers


def test_sycl_functor_body_from_syclomatic_is_kernel() -> None:
    # csrc/xpu/adam/multi_tensor_adam.dp.cpp (outside the sample, its Adam functor counted as
    # one vendor-path line before): the functor's operator() is the whole update loop.
    source = b"""\
#include <sycl/sycl.hpp>

template <typename T>
struct ScaleFunctor {
    void operator()(int chunk, T* data, float factor) {
        auto item = sycl::ext::oneapi::experimental::this_nd_item<3>();
        int base = item.get_group(2) * chunk;
        for (int i = item.get_local_id(2); i < chunk; i += item.get_local_range(2)) {
            data[base + i] = data[base + i] * factor;
        }
    }
};

void launch_host(int n) { (void)n; }
"""
    path = "csrc/xpu/adam/scale.dp.cpp"
    assert "sycl.free-function-query" in _rules(path, source)
    assert _layers(path, source)["kernel"] == 7


def test_rocm_pytorch_base_image_is_vendor_path() -> None:
    # docker/Dockerfile.rocm (sampled, right before any fix).
    source = b"""\
FROM rocm/pytorch:latest
RUN pip install --upgrade pip
RUN pip install deepspeed
"""
    assert _layers("docker/Dockerfile.rocm", source) == {"vendor-path": 1, "portable": 2}


def test_flash_attention_header_including_cuda_is_vendor_path() -> None:
    # deepspeed/inference/v2/kernels/ragged_ops/blocked_flash/flash.h (sampled, right before
    # any fix): a parameter struct and a launcher declaration taking a cudaStream_t.
    source = b"""\
#pragma once
#include <cuda.h>
#include <vector>

struct FwdParams {
    int heads;
    float scale;
    bool causal;
};

void run_forward(FwdParams& p, cudaStream_t stream);
"""
    layers = _layers("blocked_flash/flash.h", source)
    assert "kernel" not in layers
    assert layers["vendor-path"] == 2


def test_accelerator_neutral_checkpoint_loader_is_portable() -> None:
    # deepspeed/module_inject/load_checkpoint.py (sampled, right before any fix): tensors moved
    # to whatever device the accelerator abstraction names.
    source = b"""\
import torch
from deepspeed.accelerator import get_accelerator

def place(sd, name, rank, parts):
    data = sd[name].to(get_accelerator().current_device_name())
    return torch.split(data, data.shape[0] // parts)[rank].contiguous()
"""
    assert _layers("deepspeed/module_inject/load_checkpoint.py", source) == {"portable": 5}


# -- rafael3382/ILTGShader-LightEdition: a Survivalcraft shader mod --------------------------


def test_survivalcraft_pixel_shader_pair_member_is_glsl_kernel() -> None:
    # Shaders/Opaque.psh (outside the sample; no language before): an HLSL branch and a GLSL ES
    # branch of the same pixel shader, chosen by the engine's #ifdef.
    source = b"""\
#ifdef HLSL
Texture2D u_texture;
SamplerState u_sampler;
void main(in float4 c : COLOR, in float2 uv : TEXCOORD, out float4 o : SV_TARGET)
{
    o = c * u_texture.Sample(u_sampler, uv);
}
#endif
#ifdef GLSL
#ifdef GL_ES
precision mediump float;
#endif
uniform sampler2D u_texture;
varying vec4 v_color;
varying vec2 v_uv;
void main()
{
    gl_FragColor = v_color * texture2D(u_texture, v_uv);
}
#endif
"""
    assert _layers("Shaders/Opaque.psh", source) == {"kernel": 20}


def test_pixel_shader_name_without_glsl_stays_uncounted() -> None:
    # A Direct3D 8 pixel shader in assembly under the same extension holds no GLSL line.
    source = b"""\
ps.1.1
tex t0
mul r0, t0, v0
"""
    assert _layers("shaders/water.psh", source) == {}


def test_survivalcraft_vertex_shader_stays_kernel() -> None:
    # Shaders/Model.vsh (extra kernel file, right before any fix).
    source = b"""\
#ifdef GLSL
uniform mat4 u_worldViewProjectionMatrix;
attribute vec3 a_position;
attribute vec2 a_texcoord;
varying vec2 v_texcoord;
void main()
{
    v_texcoord = a_texcoord;
    gl_Position = u_worldViewProjectionMatrix * vec4(a_position, 1.0);
}
#endif
"""
    assert _layers("Shaders/Model.vsh", source) == {"kernel": 11}


def test_game_shader_loader_in_csharp_is_portable() -> None:
    # ShaderApi/General/ShaderReader.cs (GPU-looking, right before any fix): reads shader text
    # and textures through the game engine's storage; no graphics API of its own.
    source = b"""\
using Engine;
using Engine.Graphics;
using System.IO;

public static class ShaderReader
{
    public static string Load(string name)
    {
        return new StreamReader(Storage.OpenFile("shaders/" + name, OpenFileMode.Read)).ReadToEnd();
    }
}
"""
    assert _layers("ShaderApi/General/ShaderReader.cs", source) == {"portable": 10}


# -- gnome-child/wgpu_app_framework: a Rust UI framework on wgpu -----------------------------


def test_wgsl_raw_string_in_rust_is_kernel() -> None:
    # src/render/silhouette.rs (extra kernel file, right before any fix): WGSL helpers in a
    # raw string that other modules prepend to their shader source.
    source = b"""\
pub const WGSL: &str = r#"
fn coverage(d: f32) -> f32 {
    return clamp(0.5 - d, 0.0, 1.0);
}
@fragment
fn fs_main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(uv, 0.0, coverage(length(uv)));
}
"#;

pub fn module_source(body: &str) -> String {
    format!("{WGSL}\\n{body}")
}
"""
    layers = _layers("src/render/silhouette.rs", source)
    assert 7 <= layers["kernel"] <= 9
    assert "vendor-path" not in layers


def test_wgpu_host_code_is_portable() -> None:
    # src/render/retained.rs (sampled, right before any fix): a wgpu pipeline built from a
    # WGSL file included at compile time.
    source = b"""\
const QUAD: &str = include_str!("quad.wgsl");

pub fn pipeline(device: &wgpu::Device) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("quad"),
        source: wgpu::ShaderSource::Wgsl(QUAD.into()),
    })
}
"""
    assert _layers("src/render/retained.rs", source) == {"portable": 7}


# -- srinivasadmurthy/bare-metal-manager-core: bare-metal provisioning -----------------------


def test_rust_hardware_probe_running_nvidia_smi_is_vendor_path() -> None:
    # crates/host-support/src/hardware_enumeration/gpu.rs (non-portable, right before any fix).
    source = b"""\
use std::process::Command;

pub fn gpu_inventory() -> std::io::Result<String> {
    let out = Command::new("nvidia-smi")
        .args(["--query-gpu=name,serial", "--format=csv,noheader"])
        .output()?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
"""
    layers = _layers("crates/host-support/src/hardware_enumeration/gpu.rs", source)
    assert "kernel" not in layers
    assert layers["vendor-path"] >= 1


def test_boot_firmware_config_header_is_portable() -> None:
    # pxe/ipxe/local/general.h (sampled, right before any fix): iPXE build switches.
    source = b"""\
#undef DOWNLOAD_PROTO_HTTPS
#define DOWNLOAD_PROTO_HTTP
#define NET_PROTO_IPV6
#define IMAGE_EFI
#define REBOOT_CMD
"""
    assert _layers("pxe/ipxe/local/general.h", source) == {"portable": 5}


# -- pitchingcoachu/pcudashboard and NiclasHaderer/thoth-web: web apps, no GPU code ----------


def test_web_portal_named_with_cu_is_portable() -> None:
    # lib/auth.ts (pcudashboard; the name's "cu" is the coaching club's initials).
    source = b"""\
export function cookieDomain(host?: string): string | undefined {
  if (host && (host === 'pcudashboard.com' || host.endsWith('.pcudashboard.com'))) {
    return '.pcudashboard.com';
  }
  return undefined;
}
"""
    assert _layers("lib/auth.ts", source) == {"portable": 6}


def test_react_hook_is_portable() -> None:
    # src/hooks/infinity-scroll.ts (thoth-web, sampled, right before any fix).
    source = b"""\
import { useEffect } from 'react';

export function useBottomReached(onBottom: () => void) {
  useEffect(() => {
    const handler = () => {
      if (window.innerHeight + window.scrollY >= document.body.offsetHeight) onBottom();
    };
    window.addEventListener('scroll', handler);
    return () => window.removeEventListener('scroll', handler);
  }, [onBottom]);
}
"""
    assert _layers("src/hooks/infinity-scroll.ts", source) == {"portable": 10}
