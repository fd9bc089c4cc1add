"""Cases from repositories drawn at random from a pool of GPU repositories (issue 27, lane random3).

The pool (/work/pool-h39.txt, 96 public GPU repositories) was put in a random order with
``random.seed("h39-pool")`` before anyone read them; this lane took positions 25-36:
edvn0/VkGPGPU, LuisaGroup/Psycles, NVIDIA/cuda-samples, vicgalle/metal-sci-kernels,
microsoft/DirectXShaderCompiler, leggedrobotics/elevation_mapping_cupy,
microsoft/triton-shared, SC-SGS/Distributed_GPU_LSH_using_SYCL, internaut/ogles_gpgpu and
ROCm/roc-optiq. Two were skipped: Hong-agent/K100LC-kernels (no snapshot) and
GPGPUCourse/GPGPUTasks2023 (its default branch holds only a README and a licence, no file
lockin counts). Fifteen files of each were drawn with ``random.Random("owner/name")`` over
every file lockin counts and labelled before any fix, with the files lockin calls
non-portable and GPU-looking files it calls portable. Each snippet is a small rewrite, in our
own words, of a pattern found in the repository its test names; the expected layers are what
a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- LuisaGroup/Psycles: Blender Cycles rewritten on the LuisaCompute DSL ---------------------


def test_psycles_luisa_kernel_lambda_is_kernel_code() -> None:
    # src/luisa/path_tracer_scene.cpp: a Kernel2D written as a C++ lambda over the DSL's
    # types (UInt2, Float3) and control flow ($if); LuisaCompute compiles it for its CUDA,
    # DirectX, Metal or CPU back end. The host function compiling and dispatching it is not
    # kernel code. Before, the file was portable.
    source = b"""#include <luisa/dsl/sugar.h>

void Scene::precompute_sky(Stream &stream) {
    Kernel2D precompute = [&](ImageFloat table, Float elevation) noexcept {
        UInt2 coord = dispatch_id().xy();
        Float3 xyz = make_float3(0.0f);
        $if (coord.x == 0u) {
            xyz = make_float3(elevation);
        };
        table.write(coord, make_float4(xyz, 1.0f));
    };
    auto shader = _device.compile(precompute);
    stream << shader(_table, 0.5f).dispatch(512u, 128u);
}
"""
    assert _rules("src/luisa/path_tracer_scene.cpp", source) == {"portable-gpu.luisa-kernel"}
    assert _layers("src/luisa/path_tracer_scene.cpp", source) == {"kernel": 8, "portable": 5}


def test_psycles_luisa_dsl_helper_method_is_kernel_code() -> None:
    # src/luisa/heterogeneous_volume_reservoir.cpp: a method the kernels call while they are
    # traced, its $if/$else building device-side branches on DSL values.
    source = b"""#include "volume_reservoir.h"

#include <luisa/dsl/sugar.h>

namespace psycles::luisa_backend {

void VolumeReservoir::add(Float weight) noexcept {
    $if (weight > 0.0f) {
        _total += weight;
        $if (_random <= weight / _total) {
            _random /= weight / _total;
        }
        $else {
            _random = (_random - weight / _total) / (1.0f - weight / _total);
        };
    };
}

}// namespace psycles::luisa_backend
"""
    assert _layers("src/luisa/volume_reservoir.cpp", source) == {"kernel": 11, "portable": 4}


def test_psycles_dsl_function_typed_only_in_its_signature_is_kernel_code() -> None:
    # include/psycles/luisa/camera_sampling.h: helpers over DSL values whose bodies use
    # `auto`; the constexpr host helper over plain floats beside them stays portable.
    source = b"""\
#include <luisa/dsl/sugar.h>

namespace psycles::luisa_backend::camera_sampling {

[[nodiscard]] inline luisa::compute::Float2 clip_range(
    luisa::compute::Float near_clip,
    luisa::compute::Float far_clip) noexcept {
    const auto scale = luisa::compute::max(near_clip, 1.0e-20f);
    return luisa::compute::make_float2(near_clip / scale, far_clip / scale);
}

[[nodiscard]] constexpr float aspect_span(float scale, float aspect) noexcept {
    return scale * aspect;
}

}// namespace psycles::luisa_backend::camera_sampling
"""
    assert _rules("include/psycles/luisa/camera_sampling.h", source) == {
        "portable-gpu.luisa-function"
    }
    assert _layers("include/psycles/luisa/camera_sampling.h", source) == {
        "kernel": 6,
        "portable": 6,
    }


def test_psycles_dsl_method_through_the_projects_luisa_headers_is_kernel_code() -> None:
    # src/luisa/heterogeneous_volume_reservoir.cpp and heterogeneous_volume_collision.cpp:
    # the DSL reached through the project's own include/psycles/luisa/ headers, and a method
    # named with its class whose DSL type is only its return type.
    source = b"""\
#include <psycles/luisa/volume_reservoir.h>

namespace psycles::luisa_backend {

Bool VolumeReservoir::empty() const noexcept {
    return _total_weight == 0.0f;
}

}// namespace psycles::luisa_backend
"""
    assert _layers("src/luisa/volume_reservoir.cpp", source) == {"kernel": 3, "portable": 3}


def test_psycles_scene_geometry_without_dsl_stays_portable() -> None:
    # src/luisa/path_tracer_scene_geometry.cpp: host-side bounds and sweeps over plain floats,
    # in the same namespace; no DSL value, so portable. A checked-right case.
    source = b"""namespace psycles::luisa_backend::detail {

struct Bounds {
    float min[3];
    float max[3];
};

bool overlap(const Bounds &a, const Bounds &b) noexcept {
    for (int i = 0; i < 3; ++i) {
        if (a.max[i] < b.min[i] || b.max[i] < a.min[i]) { return false; }
    }
    return true;
}

}// namespace psycles::luisa_backend::detail
"""
    assert _layers("src/luisa/path_tracer_scene_geometry.cpp", source) == {"portable": 12}


def test_float_and_bool_types_outside_luisa_stay_portable() -> None:
    # The negative: a C library with its own Float and Bool typedefs, no LuisaCompute.
    source = b"""typedef double Float;
typedef int Bool;

Float scale(Float x, Bool twice) {
    Float y = x;
    if (twice) { y = 2.0 * x; }
    return y;
}
"""
    assert _layers("src/numeric.c", source) == {"portable": 7}


# -- NVIDIA/cuda-samples: the CUDA toolkit's own samples ------------------------------------


def test_cuda_samples_nvvm_ir_marking_its_kernel_by_metadata_is_kernel_code() -> None:
    # Samples/7_libNVVM/cuda-shared-memory/extern_shared_memory.ll and uvmlite/uvmlite64.ll:
    # NVVM IR for libNVVM, its kernels named in !nvvm.annotations (no ptx_kernel calling
    # convention, no llvm.nvvm intrinsic) and the module built for the NVPTX triple.
    source = b"""\
; a kernel storing into extern shared memory
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64"
target triple = "nvptx64-nvidia-cuda"

@buf = external addrspace(3) global [0 x i32]

define void @fill() {
entry:
  %p = getelementptr [0 x i32], [0 x i32] addrspace(3)* @buf, i64 0, i64 0
  store i32 7, i32 addrspace(3)* %p
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void ()* @fill, !"kernel", i32 1}
"""
    assert _rules("Samples/7_libNVVM/shared/extern_shared_memory.ll", source) == {
        "cuda.llvm-ir-kernel"
    }
    assert _layers("Samples/7_libNVVM/shared/extern_shared_memory.ll", source) == {"kernel": 11}


def test_cuda_samples_llvm_ir_for_the_host_stays_portable() -> None:
    # The negative: a module for x86-64 with ordinary metadata is no GPU code.
    source = b"""\
target triple = "x86_64-unknown-linux-gnu"

define i32 @add(i32 %a, i32 %b) {
  %s = add i32 %a, %b
  ret i32 %s
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"wchar_size", i32 4}
"""
    assert _layers("test/add.ll", source) == {"portable": 7}


# -- ROCm/roc-optiq: a profile viewer on ImGui and Vulkan ------------------------------------


def test_roc_optiq_sphinx_author_naming_the_vendor_is_no_vendor_check() -> None:
    # docs/conf.py: the Sphinx project's author and copyright name the company; nothing
    # compares a device's vendor string with them. Before, the author line was an AMD-only path.
    source = b"""\
html_theme = "rocm_docs_theme"
project = "ROCm Optiq (Beta)"
author = "Advanced Micro Devices, Inc."
copyright = "Copyright (c) 2026 Advanced Micro Devices, Inc. All rights reserved."
"""
    assert _layers("docs/conf.py", source) == {"portable": 4}


def test_package_metadata_naming_nvidia_is_no_vendor_check() -> None:
    # The same for setup.py keywords and an assignment of the NVIDIA name (the docs of
    # NVIDIA's own projects).
    source = b"""\
from setuptools import setup

__author__ = "NVIDIA Corporation"
setup(name="tool", author="NVIDIA Corporation", maintainer="Intel(R) Corporation")
"""
    assert _layers("setup.py", source) == {"portable": 3}


def test_device_vendor_comparison_stays_a_vendor_path() -> None:
    # The negative: a branch on the vendor string a device reports.
    source = b"""\
def local_size(device, max_group):
    if device.vendor == "Advanced Micro Devices, Inc.":
        return max_group
    author = device.vendor
    return 1
"""
    assert _rules("clip/dip/params.py", source) == {"opencl.amd-vendor-check"}


# -- vicgalle/metal-sci-kernels: Metal kernels evolved by language models --------------------


def test_metal_sci_kernels_requirement_on_pyobjc_metal_is_vendor_path() -> None:
    # requirements.txt: the harness drives Metal from Python through PyObjC's Metal framework
    # binding, which exists on macOS only.
    source = b"""\
numpy>=1.26
pyobjc-framework-Metal>=10.0
pyobjc-framework-MetalPerformanceShaders
matplotlib
"""
    assert _rules("requirements.txt", source) == {"deps.coreml-wheel"}
    assert _layers("requirements.txt", source) == {"vendor-path": 2, "portable": 2}


def test_pyobjc_requirement_without_metal_stays_portable() -> None:
    # The negative: PyObjC's Cocoa binding draws windows, no GPU.
    source = b"""\
pyobjc-framework-Cocoa>=10.0
pyobjc-core
"""
    assert _layers("requirements.txt", source) == {"portable": 2}


def test_metal_sci_kernels_candidate_kernel_file_is_kernel_code() -> None:
    # results/*/best.metal: every line but the include and the namespace is the kernel; a
    # checked-right case, the counts in range.
    source = b"""\
#include <metal_stdlib>
using namespace metal;

kernel void heat_step(device const float *u_in  [[buffer(0)]],
                      device       float *u_out [[buffer(1)]],
                      constant uint      &nx    [[buffer(2)]],
                      uint2 gid [[thread_position_in_grid]]) {
    uint i = gid.x;
    uint j = gid.y;
    u_out[j * nx + i] = 0.25f * (u_in[j * nx + i - 1] + u_in[j * nx + i + 1]);
}
"""
    assert _layers("results/heat2d/best.metal", source) == {"kernel": 10}


# -- edvn0/VkGPGPU: a Vulkan compute and rendering engine -------------------------------------


def test_vkgpgpu_cmake_requiring_vulkan_is_vendor_path() -> None:
    # CMakeLists.txt and Core/CMakeLists.txt: the build finds the Vulkan SDK and links its
    # loader; the same project's host code (vkCreateInstance...) was already vendor-path.
    source = b"""\
cmake_minimum_required(VERSION 3.21)
project(VkGPGPU)
find_package(Vulkan REQUIRED)

add_library(Core STATIC src/Device.cpp)
target_link_libraries(Core PUBLIC fmt::fmt glfw
    Vulkan::Vulkan)
if(Vulkan_GLSLC_EXECUTABLE)
  message(STATUS "compiling shaders with ${Vulkan_GLSLC_EXECUTABLE}")
endif()
"""
    assert _rules("CMakeLists.txt", source) == {"build.cmake-vulkan"}
    # The lines naming Vulkan; testing for the SDK's shader compiler is a choice the build
    # makes, no requirement.
    assert _layers("CMakeLists.txt", source) == {"vendor-path": 2, "portable": 7}


def test_cmake_without_vulkan_stays_portable() -> None:
    # The negative: Reflection/CMakeLists.txt's other libraries, and a test for the SDK that
    # only reports it.
    source = b"""\
add_library(Reflection src/Reflector.cpp)
target_link_libraries(Reflection fmt::fmt spirv-cross-core)
if(Vulkan_FOUND)
  message(STATUS "Vulkan found: ${Vulkan_LIBRARIES}")
endif()
"""
    assert _layers("Reflection/CMakeLists.txt", source) == {"portable": 5}


def test_meson_vulkan_dependency_is_vendor_path() -> None:
    source = b"""\
project('viewer', 'cpp')
vk = dependency('vulkan')
executable('viewer', 'main.cpp', dependencies: [vk])
"""
    assert _rules("meson.build", source) == {"build.cmake-vulkan"}


# -- internaut/ogles_gpgpu: GPGPU on OpenGL ES 2.0 fragment shaders ---------------------------


def test_ogles_gpgpu_fragment_shader_inside_a_stringizing_macro_is_kernel_code() -> None:
    # common/proc/multipass/gauss_pass.cpp: the shader is written bare inside OG_TO_STR(...)
    # (`#define OG_TO_STR(x) #x` in macros.h); the filter's C++ below it is host code. Before,
    # the whole file was portable.
    source = b"""\
#include "blur_pass.h"

using namespace ogles_gpgpu;

const char *BlurPass::fshaderSrc = OG_TO_STR(
precision mediump float;

uniform sampler2D uInputTex;
uniform float uPxD;
varying vec2 vTexCoord;
void main() {
    vec4 c = texture2D(uInputTex, vTexCoord);
    vec4 l = texture2D(uInputTex, vTexCoord - vec2(uPxD, 0.0));
    vec4 r = texture2D(uInputTex, vTexCoord + vec2(uPxD, 0.0));
    gl_FragColor = 0.25 * (l + r) + 0.5 * c;
}
);

int BlurPass::init(int inW, int inH) {
    createFBO();
    filterInit(fshaderSrc);
    return 1;
}
"""
    assert _rules("ogles_gpgpu/common/proc/blur_pass.cpp", source) == {"vulkan.glsl-stringified"}
    # The shader's ten lines and the line opening the macro.
    assert _layers("ogles_gpgpu/common/proc/blur_pass.cpp", source) == {"kernel": 11, "portable": 8}


def test_gpuimage_style_shader_string_macro_in_objective_c_is_kernel_code() -> None:
    # The same idiom as GPUImage's SHADER_STRING, a vertex shader in an Objective-C file.
    source = b"""\
NSString *const kPassthroughVertex = SHADER_STRING
(
 attribute vec4 position;
 attribute vec4 inputTextureCoordinate;
 varying vec2 textureCoordinate;
 void main()
 {
     gl_Position = position;
     textureCoordinate = inputTextureCoordinate.xy;
 }
);
"""
    assert _rules("framework/Source/PassthroughFilter.m", source) == {"vulkan.glsl-stringified"}


def test_ogles_gpgpu_host_proc_without_shader_stays_portable() -> None:
    # common/proc/base/procbase.cpp: the OpenGL ES calls that run the shaders are host code
    # lockin leaves portable (OpenGL is no compute API it counts); a checked-right case.
    source = b"""\
void ProcBase::setOutputSize(float scaleOrW, float h) {
    if (h <= 0) {
        procParamOutScale = scaleOrW;
    } else {
        procParamOutW = (int)scaleOrW;
        procParamOutH = (int)h;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, fbo->getId());
}
"""
    assert _layers("ogles_gpgpu/common/proc/base/procbase.cpp", source) == {"portable": 9}


# -- checked right, and hard: pinned as they stand -----------------------------------------


def test_triton_shared_mlir_test_of_the_triton_dialect_stays_portable() -> None:
    # microsoft/triton-shared test/Conversion/TritonToLinalg/*.mlir: Triton IR lowered to
    # linalg for the CPU by the project's own passes; no vendor target in it.
    source = b"""\
// RUN: triton-shared-opt --triton-to-linalg %s | FileCheck %s
module {
  tt.func @kernel(%a : !tt.ptr<f32>, %n : i32) {
    %0 = tt.splat %a : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
// CHECK-LABEL: func.func @kernel(
"""
    assert _layers("test/Conversion/TritonToLinalg/splat.mlir", source) == {"portable": 6}


def test_sycl_lsh_parallel_for_lambda_is_kernel_and_its_queue_host_code() -> None:
    # SC-SGS/Distributed_GPU_LSH_using_SYCL src/sycl_lsh/detail/hashing/entropy_based.cpp: the
    # lambda given to parallel_for is the kernel; the submission around it is SYCL host code.
    source = b"""\
#include "sycl/sycl.hpp"

void hash_values(sycl::queue &queue, const float *data, const float *pool, float *out,
                 std::size_t functions, std::size_t points, std::size_t dims) {
    queue.submit([&](sycl::handler &cgh) {
        cgh.parallel_for(sycl::range<2>{ functions, points }, [=](sycl::item<2> item) {
            const std::size_t f = item.get_id(0);
            const std::size_t i = item.get_id(1);
            float value = 0.0f;
            for (std::size_t d = 0; d < dims; ++d) {
                value += data[d * points + i] * pool[f * dims + d];
            }
            out[f * points + i] = value;
        });
    });
    queue.wait_and_throw();
}
"""
    layers = _layers("src/sycl_lsh/detail/hashing/entropy_based.cpp", source)
    assert 8 <= layers["kernel"] <= 10
    assert layers["vendor-path"] >= 2
