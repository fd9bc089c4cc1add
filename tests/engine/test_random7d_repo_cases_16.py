"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-d).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 354-361. Two could not be read: Kauthar728/GGUF_Context_Fix and
adfnekc/go-qwen3-gguf (no snapshot). Fifteen files of each remaining repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix,
with the files lockin calls non-portable (up to twenty) and GPU-looking files it calls portable
(up to ten); three commits touching GPU code per repository were drawn with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- denisgrzechnik/LayerMapper_GLSL: an iOS shader toy, Metal shader bodies in Swift strings --


def test_layermapper_swift_shader_bodies_are_metal_kernel_code() -> None:
    # LM_GLSL/Shaders/ShaderCodes_Part*.swift: hundreds of fragment bodies, each a multi-line
    # string with its sliders as comments, spliced into a Metal template at run time. Before,
    # the nineteen files (some 30,000 shader lines) were portable; six were in the sample.
    source = b'''\
import Foundation

/// Hexagon grid
let hexGridCode = """
// @param zoom "Zoom" range(0.5, 3.0) default(1.0)
float2 p = (uv - 0.5) * zoom;
float angle = atan2(p.y, p.x);
float d = length(p);
float rings = fmod(d * 8.0 - iTime, 1.0);
float3 col = mix(float3(0.1, 0.0, 0.2), float3(0.0, 0.8, 1.0), rings);
return float4(col, 1.0);
"""
'''
    assert _rules("LM_GLSL/Shaders/ShaderCodes_Part17.swift", source) == {
        "metal.shader-body-string"
    }
    # The string's lines but its slider comment (the app's, not the shader's code), and none
    # of the Swift around it.
    assert _layers("LM_GLSL/Shaders/ShaderCodes_Part17.swift", source) == {
        "kernel": 8,
        "portable": 2,
    }


def test_layermapper_default_shader_of_a_settings_preview() -> None:
    # LM_GLSL/Views/ShaderSettingsView.swift: a preview's two-line default body.
    source = b'''\
struct SettingsPreview: View {
    var body: some View {
        ShaderPreviewView(shader: ShaderEntity(
            name: "Preview",
            fragmentCode: """
            float3 col = float3(uv.x, uv.y, 0.5);
            return float4(col, 1.0);
            """
        ))
    }
}
'''
    assert _rules("LM_GLSL/Views/ShaderSettingsView.swift", source) == {"metal.shader-body-string"}


def test_swift_model_and_prose_naming_vector_types_stay_portable() -> None:
    # LM_GLSL/Models/ShaderParameter.swift: the app's own parameter model, and a help text
    # naming one MSL type, are no shader.
    source = b'''\
struct ShaderParameter: Codable {
    var name: String
    var value: SIMD2<Float>
    let help = """
    The body gets uv as float2 and must return a color.
    float4 color = tint is a good start.
    """
}
'''
    assert _layers("LM_GLSL/Models/ShaderParameter.swift", source) == {"portable": 8}


# -- benpm/dx12_mini_engine: a Direct3D 12 engine behind its own gfx layer ---------------------


def test_dx12_mini_engine_module_including_d3d12_is_vendor_path() -> None:
    # src/application/scene.cpp: a C++ module unit whose global fragment includes d3d12.h
    # and the d3dx12 helpers, then works through the project's gfx:: handles. Before, the
    # lower-case header name never woke hlsl.directml-host and the file was portable.
    source = b"""\
module;

#include <d3d12.h>
#include <DirectXMath.h>
#include <flecs.h>
#include "scene_data.h"

module application;

void Application::reloadScene(gfx::Device& device) {
    scene.clear(device);
}
"""
    assert _rules("src/application/scene.cpp", source) == {"hlsl.directml-host"}
    assert _layers("src/application/scene.cpp", source) == {"vendor-path": 1, "portable": 8}


def test_dx12_mini_engine_directxmath_and_dxgi_alone_stay_portable() -> None:
    # src/gizmo.cpp: DirectXMath is CPU SIMD maths, and DXGI serves Direct3D 11 as well.
    source = b"""\
#include <DirectXMath.h>
#include <dxgi1_6.h>
#include <d3d11.h>

DirectX::XMFLOAT3 axis(int i) { return {i == 0 ? 1.f : 0.f, i == 1 ? 1.f : 0.f, 0.f}; }
"""
    assert _layers("src/gizmo.cpp", source) == {"portable": 4}


def test_dx12_mini_engine_cmake_linking_d3d12_is_vendor_path() -> None:
    # CMakeLists.txt: the ImGui library target links d3d12 and dxgi; the HLSL shaders are
    # compiled with DXC, which targets SPIR-V as well and says nothing by itself.
    source = b"""\
add_library(imgui_lib STATIC ${IMGUI_SOURCES})
target_link_libraries(imgui_lib PUBLIC d3d12 dxgi)
find_program(DXC_EXECUTABLE dxc)
add_custom_command(OUTPUT ${OUT} COMMAND ${DXC_EXECUTABLE} -T ps_6_0 -E main ${SRC})
"""
    assert _rules("CMakeLists.txt", source) == {"build.cmake-d3d12"}
    assert _layers("CMakeLists.txt", source) == {"vendor-path": 1, "portable": 3}


# -- RRZE-HPC/likwid: CPU and GPU performance counters -----------------------------------------


def test_likwid_rdpmc_module_x86_template_after_an_escaped_tab_is_no_ptx() -> None:
    # kernel/enable_rdpmc.c: a Linux kernel module reading and setting CR4 on every CPU; its
    # first template opens with `\t` before the x86 mnemonic. Before, that line was PTX.
    source = b"""\
#include <linux/module.h>
#include <linux/kernel.h>

static uint64_t read_cr4(void) {
    uint64_t output;
    __asm__("\\t mov %%cr4,%0" : "=r"(output));
    return output;
}

static void set_pce(void *info) {
    __asm__("push   %rax\\n\\t"
            "mov    %cr4,%rax;\\n\\t"
            "or     $(1 << 8),%rax;\\n\\t"
            "mov    %rax,%cr4;\\n\\t"
            "pop    %rax");
}
"""
    assert _layers("kernel/enable_rdpmc.c", source) == {"portable": 14}


def test_likwid_nvidia_perfworks_header_stays_vendor_path() -> None:
    # src/includes/nvmon_perfworks.h: the whole body sits under the CUDA runtime's version
    # macro and binds CUPTI's profiler through dlopen'ed pointers (checked right).
    source = b"""\
#ifndef NVMON_PERFWORKS_H
#define NVMON_PERFWORKS_H
#if defined(CUDART_VERSION) && CUDART_VERSION > 10000
#include <cupti_profiler_target.h>
static void *dl_cupti = NULL;
static int perfworks_init(void) {
    dl_cupti = dlopen("libcupti.so", RTLD_NOW | RTLD_GLOBAL);
    return dl_cupti ? 0 : -1;
}
#endif
#endif
"""
    layers = _layers("src/includes/nvmon_perfworks.h", source)
    assert layers.get("kernel", 0) == 0
    assert layers["vendor-path"] >= 6


def test_likwid_vendored_hwloc_rename_header_is_portable() -> None:
    # ext/hwloc/include/hwloc/rename.h: hwloc prefixes its own symbols, the ROCm SMI helpers
    # among them. Before, the four rsmi lines were vendor-path in every project embedding hwloc.
    source = b"""\
#define HWLOC_NAME(name) HWLOC_MUNGE_NAME(HWLOC_PREFIX, name)
/* nvml.h */
#define hwloc_nvml_get_device_cpuset HWLOC_NAME(nvml_get_device_cpuset)
/* rsmi.h */
#define hwloc_rsmi_get_device_cpuset HWLOC_NAME(rsmi_get_device_cpuset)
#define hwloc_rsmi_get_device_osdev HWLOC_NAME(rsmi_get_device_osdev)
#define hwloc_rsmi_component HWLOC_NAME(rsmi_component)
"""
    assert _layers("ext/hwloc/include/hwloc/rename.h", source) == {"portable": 5}


def test_hwloc_rsmi_helper_calling_rocm_smi_stays_vendor_path() -> None:
    # The negative: hwloc's rsmi.h helper asks ROCm SMI for the device's PCI id.
    source = b"""\
static inline int
hwloc_rsmi_get_device_cpuset(hwloc_topology_t topology, uint32_t dv_ind, hwloc_cpuset_t set)
{
  uint64_t bdfid = 0;
  if (rsmi_dev_pci_id_get(dv_ind, &bdfid) != RSMI_STATUS_SUCCESS)
    return -1;
  return 0;
}
"""
    assert _rules("include/hwloc/rsmi.h", source) == {"hip.smi"}


def test_dx12_mini_engine_tracy_d3d12_gpu_zones_are_vendor_path() -> None:
    # include/profiling.h: CPU zones through Tracy, GPU zones through Tracy's Direct3D 12
    # back end, which times the command list with D3D12 queries. Before, portable.
    source = b"""\
#pragma once
#ifdef TRACY_ENABLE
    #include <tracy/Tracy.hpp>
    #include <tracy/TracyD3D12.hpp>
    #define PROFILE_SCOPE(name) ZoneScopedN(name)
    #define PROFILE_GPU_ZONE(ctx, cl, name) \\
        TracyD3D12NamedZone(ctx, gpu_zone_, cl, name, (ctx) != nullptr)
    #define PROFILE_GPU_FRAME(ctx) TracyD3D12NewFrame(ctx)
#else
    #define PROFILE_SCOPE(name)
#endif
"""
    assert _rules("include/profiling.h", source) == {"hlsl.directml-host"}
    layers = _layers("include/profiling.h", source)
    assert layers["vendor-path"] >= 3
    cpu_only = b"#include <tracy/Tracy.hpp>\n#define PROFILE_SCOPE(name) ZoneScopedN(name)\n"
    assert _layers("include/profiling.h", cpu_only) == {"portable": 2}
