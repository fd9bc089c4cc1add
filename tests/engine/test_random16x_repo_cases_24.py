"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-x).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 924-930. Skipped were tensorflow/tensorflow (its snapshot,
2.36 GB, is over the 500 MiB limit), jdominick05/ryzen-ai-xdna1-quantization,
ankurneog/gaudi-pytorch-bridge and dug-21/neural-data-platform (no snapshot to be had). Read
were yangfengzzz/Arche-webgpu (a C++ engine on Dawn's WebGPU with GLSL 450 shaders compiled
to SPIR-V, their shared functions kept as shaders/**/*.h, a Metal surface binding for macOS),
ItchyTrack/Voxel-Game-Engine (a Rust wgpu voxel ray caster with WGSL shaders; its snapshot
lacked the .vox scenes, so it was checked out without them, and no counted file was missing)
and saforem2/Megatron-DeepSpeed (Megatron-DeepSpeed with ALCF job scripts for Polaris and
Aurora, fused CUDA softmax kernels). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. The audit found ten of
Arche-webgpu's GLSL include headers (noise functions, PBR helpers; 814 lines) counted as
portable C: none is a sampled file, they showed among the GPU-looking files called portable.
The other cases pin verdicts that were right. Each snippet is a small rewrite,
in our own words, of a pattern found in the repository its test names; the expected layers are
what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- yangfengzzz/Arche-webgpu: GLSL include headers under a .h name -----------------------------


def test_glsl_noise_header_in_shader_directory_is_kernel() -> None:
    # shaders/noise/noise_perlin_2D.h: a classic-noise function the .frag passes #include;
    # bare GLSL vector types as return and parameter, swizzles, no `in` qualifier anywhere.
    source = b"""\
// gradient noise over a plane
float gradNoise( vec2 q ) {
    vec4 cell = floor(q.xyxy) + vec4(0.0, 0.0, 1.0, 1.0);
    vec4 frac4 = fract(q.xyxy) - vec4(0.0, 0.0, 1.0, 1.0);
    return dot(cell, frac4);
}
"""
    path = "shaders/noise/grad_noise_2D.h"
    assert classify(path, source).language == "GLSL"
    assert _layers(path, source) == {"kernel": 5}
    assert _rules(path, source) == {"vulkan.shader-file"}


def test_glsl_layout_snippet_header_is_kernel() -> None:
    # shaders/snippet/uv_define.h: varyings declared with layout qualifiers, the direction
    # chosen by a stage macro the including shader defines (right before the fix).
    source = b"""\
#ifdef STAGE_VERTEX
    layout (location = ATTR_UV) out vec2 uv0;
#else
    layout (location = ATTR_UV) in vec2 uv0;
#endif
"""
    path = "assets/shaders/snippet/texcoord_define.h"
    assert classify(path, source).language == "GLSL"
    assert _layers(path, source) == {"kernel": 5}


def test_glsl_out_parameter_and_constructor_header_is_kernel() -> None:
    # shaders/pbr/pbr_helper.h: a function filling an `out` struct, a matrix built with
    # GLSL's constructor.
    source = b"""\
void buildFrame(out Frame f) {
    mat3 basis = mat3(v_tangent, v_bitangent, v_normal);
    f.normal = normalize(basis * vec3(0.0, 0.0, 1.0));
}
"""
    path = "shaders/pbr/frame_helper.h"
    assert classify(path, source).language == "GLSL"
    assert _layers(path, source) == {"kernel": 4}


def test_binding_constants_header_in_shader_directory_stays_c() -> None:
    # shaders/common.h: attribute and binding numbers as #defines, shared with the host;
    # nothing in it is GLSL, so it stays a portable C header.
    source = b"""\
#define ATTR_POSITION 0
#define ATTR_NORMAL 1
#define BIND_CAMERA 2
"""
    path = "shaders/common.h"
    assert classify(path, source).language == "C Header"
    assert _layers(path, source) == {"portable": 3}


def test_cpp_header_with_glm_types_in_shader_directory_stays_portable() -> None:
    # A C++ shader-program wrapper kept beside the shaders: glm types are spelt glm::vec3 and
    # the layout word is a member, not a qualifier opening a line.
    source = b"""\
#pragma once
#include <glm/glm.hpp>
struct Program {
    void setVec3(const char* name, const glm::vec3& v);
    glm::vec4 tint(glm::vec4 base) const;
    Layout layout(int set) const;
};
"""
    path = "src/shaders/program.h"
    assert classify(path, source).language != "GLSL"
    assert _layers(path, source) == {"portable": 7}


def test_dawn_metal_layer_surface_is_vendor_path() -> None:
    # apps/example/GLFWUtils_metal.mm: a CAMetalLayer handed to WebGPU as the window surface.
    source = b"""\
#import <QuartzCore/CAMetalLayer.h>
#include "GLFW/glfw3.h"

void attach(NSView* view) {
    [view setWantsLayer:YES];
    [view setLayer:[CAMetalLayer layer]];
}
"""
    assert "metal.host-api" in _rules("apps/window_metal.mm", source)
    assert set(_layers("apps/window_metal.mm", source)) == {"vendor-path", "portable"}


# -- ItchyTrack/Voxel-Game-Engine: wgpu host code and WGSL shaders -------------------------------


def test_wgpu_buffer_layout_in_rust_stays_portable() -> None:
    # src/debug_draw.rs: a vertex layout described through wgpu, which runs on every backend.
    source = b"""\
impl LineVertex {
    const ATTRS: [wgpu::VertexAttribute; 2] =
        wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4];
    pub fn layout() -> wgpu::VertexBufferLayout<'static> {
        wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<LineVertex>() as wgpu::BufferAddress,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &Self::ATTRS,
        }
    }
}
"""
    assert _layers("src/line_draw.rs", source) == {"portable": 11}


def test_wgsl_shader_file_is_kernel() -> None:
    # src/render/shaders/crosshair.wgsl: a full-screen pass drawing a cross at the centre.
    source = b"""\
@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let x = f32(i & 1u) * 2.0 - 1.0;
    return vec4<f32>(x, 0.0, 0.0, 1.0);
}
"""
    assert _layers("src/render/shaders/cross.wgsl", source) == {"kernel": 5}


# -- saforem2/Megatron-DeepSpeed: job scripts around the fused kernels ---------------------------


def test_nvidia_smi_gpu_count_in_job_script_is_vendor_path() -> None:
    # ALCF/helpers.sh: the number of GPUs a host has, read from nvidia-smi when the scheduler
    # does not say.
    source = b"""\
#!/bin/bash
export NGPUS="${SLURM_GPUS_ON_NODE:-$(nvidia-smi -L | wc -l)}"
echo "gpus: ${NGPUS}"
"""
    assert _layers("ALCF/host_setup.sh", source) == {"vendor-path": 1, "portable": 1}


def test_glsl_inout_struct_parameter_header_is_kernel() -> None:
    # shaders/pbr/direct_irradiance_frag_define.h: light accumulated into an `inout` struct.
    source = b"""\
void addLight(vec3 dir, vec3 color, inout Radiance acc) {
    acc.diffuse += color * max(dot(dir, v_normal), 0.0);
}
"""
    path = "shaders/pbr/light_accumulate.h"
    assert classify(path, source).language == "GLSL"
    assert _layers(path, source) == {"kernel": 3}
