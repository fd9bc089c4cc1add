"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h40-random-d).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 25-32. Two could not be read: KenaLoveS2/TeamD3D (snapshot over 500 MB) and
HarvardMadSys/hybridInference (no snapshot). Fifteen files of each remaining repository
(thirteen of tensor4all/tenferro-rs, which has no more) were sampled with
``random.Random("owner/name")`` over every file lockin counts, sorted by path, and labelled
before any fix, with the files lockin calls non-portable (up to twenty) and GPU-looking files
it calls portable (up to ten). Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Jeremyfff/arch-gaussian: 3D Gaussian splatting with its own fork of the rasterizer -------


def test_arch_gaussian_renamed_rasterizer_fork_is_vendor_library() -> None:
    # src/gaussian_renderer/fork_renderer.py imports the project's copy of the splatting
    # rasterizer, built from .cu files by a CUDAExtension under a suffixed name. Before, the
    # import of the upstream name counted and this one did not.
    source = b"""\
import math
import torch
from diff_gaussian_rasterization_fork import GaussianRasterizationSettings, GaussianRasterizer


def render(camera, pc, bg):
    settings = GaussianRasterizationSettings(
        image_height=int(camera.height),
        image_width=int(camera.width),
        tanfovx=math.tan(camera.fovx * 0.5),
        bg=bg,
    )
    return GaussianRasterizer(raster_settings=settings)(pc.xyz)
"""
    assert _rules("src/gaussian_renderer/fork_renderer.py", source) == {
        "cuda-libs.python-extension"
    }
    assert _layers("src/gaussian_renderer/fork_renderer.py", source) == {
        "vendor-library": 1,
        "portable": 10,
    }


def test_arch_gaussian_own_module_named_after_the_rasterizer_is_portable() -> None:
    # The negative: a module of the project's own package whose name holds the rasterizer's
    # is no import of the extension.
    source = b"""\
from utils.diff_gaussian_rasterization_torch import rasterize
from . import diff_gaussian_rasterization_notes
"""
    assert _rules("src/render_cpu.py", source) == set()


def test_arch_gaussian_rasterizer_header_of_torch_entry_points_is_portable() -> None:
    # src/submodules/diff-gaussian-rasterization-fork/rasterize_points.h: declarations of the
    # host entry points, named ...CUDA, taking torch tensors; no CUDA type or call. A
    # checked-right case: the file's name and its functions' say CUDA, the code does not.
    source = b"""\
#pragma once
#include <torch/extension.h>
#include <tuple>

torch::Tensor RasterizeGaussiansCUDA(
    const torch::Tensor& background,
    const torch::Tensor& means3D,
    const float scale_modifier,
    const bool debug);

torch::Tensor markVisible(torch::Tensor& means3D, torch::Tensor& viewmatrix);
"""
    assert _layers("rasterize_points.h", source) == {"portable": 9}


def test_arch_gaussian_moderngl_program_with_stage_guards_is_shader_code() -> None:
    # gui/resources/programs/texture_mouse_scroll.glsl: one file holding a vertex and a
    # fragment stage, each under the #if moderngl-window defines; counted whole.
    source = b"""\
#version 330
#if defined VERTEX_SHADER
in vec3 in_position;
void main() {
    gl_Position = vec4(in_position, 1);
}
#elif defined FRAGMENT_SHADER
uniform sampler2D texture0;
out vec4 fragColor;
void main() {
    fragColor = texture(texture0, vec2(0.5));
}
#endif
"""
    assert _layers("gui/resources/programs/texture_mouse_scroll.glsl", source) == {"kernel": 13}


# -- kyubey1228/glslkit: WebGL shaders embedded in generated Ruby, GLSL in files --------------


def test_glslkit_glsl_in_ruby_heredocs_is_kernel() -> None:
    # webgl/sample/generated-broken/neon-broken_shaders.rb: `rake glslkit:embed` writes each
    # stage of a program into a Ruby heredoc beside its reflection manifest. Before, the
    # heredocs' lines were Ruby code (their #version and #define lines comments) and the file
    # portable.
    source = b"""\
# frozen_string_literal: true

module PulseShaders
  VERTEX = <<'EMBED_VERTEX_SRC'.freeze
#version 300 es
layout(location = 0) in vec2 a_position;
void main() {
  gl_Position = vec4(a_position, 0.0, 1.0);
}
EMBED_VERTEX_SRC

  FRAGMENT = <<~EMBED_FRAGMENT_SRC
    #version 300 es
    precision highp float;
    uniform float u_time;
    out vec4 frag_color;
    void main() {
      frag_color = vec4(vec3(sin(u_time)), 1.0);
    }
  EMBED_FRAGMENT_SRC

  MANIFEST = {"schema_version" => 1, "programs" => {}}.freeze
end
"""
    assert _rules("webgl/sample/generated/pulse_shaders.rb", source) == {"vulkan.glsl-string"}
    assert _layers("webgl/sample/generated/pulse_shaders.rb", source) == {
        "kernel": 16,
        "portable": 3,
    }


def test_glslkit_ruby_heredoc_of_other_text_and_shifts_stay_portable() -> None:
    # The negatives: a heredoc of SQL, an array append, a shift and `class << self`.
    source = b"""\
class Store
  QUERY = <<~SQL
    SELECT id FROM shaders WHERE name = ?
  SQL

  class << self
    def flags(a, b)
      list = []
      list << a
      a<<B_SHIFT
    end
  end
end
"""
    assert _layers("rails/lib/store.rb", source) == {"portable": 12}


def test_glslkit_fragment_shader_fixture_is_shader_code() -> None:
    # webgl/test/fixtures/shaders/hello.vert: a WebGL vertex shader, counted whole as GLSL
    # files are (a checked-right case).
    source = b"""\
#version 300 es
layout(location = 0) in vec2 a_position;
uniform mat4 u_transform;
void main() {
  gl_Position = u_transform * vec4(a_position, 0.0, 1.0);
}
"""
    assert _layers("webgl/test/fixtures/shaders/hello.vert", source) == {"kernel": 6}


# -- SimiaCryptus/mindseye-cudnn: cuDNN layers of a Java network library ----------------------


def test_mindseye_pom_depending_on_jcudnn_is_vendor_path() -> None:
    # pom.xml: the build takes JCuda's cuDNN binding and its native libraries per platform.
    # Before, pom.xml was XML data, not counted at all.
    source = b"""\
<project>
    <artifactId>mindseye-cudnn</artifactId>
    <dependencies>
        <!-- the network library the layers plug into -->
        <dependency>
            <groupId>com.simiacryptus</groupId>
            <artifactId>mindseye-core</artifactId>
        </dependency>
        <dependency>
            <groupId>org.jcuda</groupId>
            <artifactId>jcudnn</artifactId>
        </dependency>
        <dependency>
            <groupId>org.jcuda</groupId>
            <artifactId>jcudnn-natives</artifactId>
            <classifier>linux-x86_64</classifier>
            <scope>test</scope>
        </dependency>
    </dependencies>
</project>
"""
    assert _rules("pom.xml", source) == {"deps.jvm-cuda-artifact"}
    assert _layers("pom.xml", source) == {"vendor-path": 2, "portable": 17}


def test_mindseye_pom_of_a_cpu_build_is_portable() -> None:
    # The negative: a Maven build of the same library's CPU layers and ND4J's native back end.
    source = b"""\
<dependency>
    <groupId>org.nd4j</groupId>
    <artifactId>nd4j-native-platform</artifactId>
</dependency>
<dependency>
    <groupId>com.simiacryptus</groupId>
    <artifactId>mindseye-cudnn</artifactId>
</dependency>
"""
    assert _rules("pom.xml", source) == set()


def test_mindseye_layer_in_the_cudnn_package_is_the_binding_whole() -> None:
    # src/main/java/.../layers/cudnn/GateBiasLayer.java: a layer of the package named for
    # cuDNN, calling it through the project's CudaSystem; counted whole as the binding (a
    # checked-right case of cuda.managed-library-module).
    source = b"""\
package com.simiacryptus.mindseye.layers.cudnn;

import jcuda.jcudnn.cudnnOpTensorOp;

public class GateBiasLayer {
  public Object eval(Object left, Object right) {
    return CudaSystem.run(gpu -> gpu.opTensor(cudnnOpTensorOp.CUDNN_OP_TENSOR_ADD, left, right));
  }
}
"""
    assert "cuda.managed-library-module" in _rules("GateBiasLayer.java", source)
    assert set(_layers("GateBiasLayer.java", source)) == {"vendor-library"}


# -- tensor4all/tenferro-rs: a Rust tensor library whose GPU back ends are still to come ------


def test_tenferro_device_enum_naming_cuda_and_hip_is_portable() -> None:
    # tenferro-device/src/lib.rs: an enum of compute devices with CUDA and HIP variants and
    # their display names; nothing calls either runtime (a checked-right case).
    source = b"""\
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComputeDevice {
    Cpu { device_id: usize },
    Cuda { device_id: usize },
    Hip { device_id: usize },
}

impl std::fmt::Display for ComputeDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ComputeDevice::Cpu { device_id } => write!(f, "cpu:{device_id}"),
            ComputeDevice::Cuda { device_id } => write!(f, "cuda:{device_id}"),
            ComputeDevice::Hip { device_id } => write!(f, "hip:{device_id}"),
        }
    }
}
"""
    assert _layers("tenferro-device/src/lib.rs", source) == {"portable": 15}
