"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-i).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 448-454. One was skipped, not replaced:
microsoft/onnxruntime (451), whose snapshot (946 MB) is over the 500 MiB limit. Six were
read: Reccy/CppRayTracerChallenge (a C++ ray tracer with an OpenGL preview window; two
.blend files of 4 MiB and more are absent from the snapshot), untodesu/voxelius (a voxel game
in C++ with GLSL shaders and a vendored Eigen), Panbok/vulkan_renderer (a C renderer with
Vulkan and Metal back ends and Slang/MSL shaders; 87 large assets absent),
ewoprager/grangeat-2d-3d-register-pytorch (2D/3D X-ray registration with a PyTorch CUDA
extension; one pickle absent), mirmik/diffusion-editor (a Python image editor with GLSL and
Slang shaders in strings and torch workers) and kevalmorabia97/onnxscript (a fork of ONNX
Script). Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart, and
three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Reccy/CppRayTracerChallenge: a .shader file of '#shader <stage>' GLSL sections ----------


def test_glsl_stage_sections_in_a_shader_file_are_kernel() -> None:
    # src/main/res/shaders/Default.shader: a vertex and a fragment stage in one file, each
    # opened by a '#shader' line the C++ loader splits on; counted portable before.
    source = b"""\
#shader vertex
#version 330 core
layout(location = 0) in vec3 aPosition;
uniform mat4 uViewProj;
out vec3 vWorld;
void main()
{
    vWorld = aPosition;
    gl_Position = uViewProj * vec4(aPosition, 1.0);
}
#shader fragment
#version 330 core
in vec3 vWorld;
out vec4 outColour;
void main()
{
    outColour = vec4(normalize(vWorld) * 0.5 + 0.5, 1.0);
}
"""
    assert _rules("res/shaders/Lit.shader", source) == {"vulkan.glsl-stage-sections"}
    assert _layers("res/shaders/Lit.shader", source) == {"kernel": 18}


def test_unity_shaderlab_file_still_counts_only_its_program() -> None:
    # The same extension in a Unity project: the ShaderLab blocks stay portable.
    source = b"""\
Shader "Demo/Solid" {
  SubShader {
    Pass {
      CGPROGRAM
      #pragma fragment frag
      fixed4 frag() : SV_Target { return fixed4(1, 0, 0, 1); }
      ENDCG
    }
  }
}
"""
    assert _rules("Assets/Solid.shader", source) == {"hlsl.shaderlab-program"}
    assert _layers("Assets/Solid.shader", source) == {"kernel": 4, "portable": 6}


def test_opengl_shader_loader_is_portable() -> None:
    # src/main/rogll/shader.cpp: reads the file, splits on the marker, compiles through GL
    # (already right before this lane).
    source = b"""\
#include <glad.h>
#include <string>

static unsigned compileStage(unsigned kind, const std::string& text)
{
    unsigned id = glCreateShader(kind);
    const char* src = text.c_str();
    glShaderSource(id, 1, &src, nullptr);
    glCompileShader(id);
    return id;
}

static int stageOf(const std::string& line)
{
    if (line.find("#shader vertex") != std::string::npos) return 0;
    if (line.find("#shader fragment") != std::string::npos) return 1;
    return -1;
}
"""
    assert _rules("src/gl/program.cpp", source) == set()
    assert _layers("src/gl/program.cpp", source) == {"portable": 16}


# -- untodesu/voxelius (vendored Eigen): float4 packet ops behind EIGEN_DEVICE_FUNC -----------


def test_gpu_packet_specialisations_on_cuda_vector_types_are_kernel() -> None:
    # deps/eigen/.../arch/GPU/MathFunctions.h: specialisations for float4 and double2 built
    # with make_float4/make_double2 under the GPU guard, no CUDA include; portable before.
    source = b"""\
#ifndef PACKET_MATH_GPU_H
#define PACKET_MATH_GPU_H
namespace Eigen {
namespace internal {
#if defined(EIGEN_GPUCC) && defined(EIGEN_USE_GPU)
template <>
EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE float4 pabs<float4>(const float4& v) {
  return make_float4(fabsf(v.x), fabsf(v.y), fabsf(v.z), fabsf(v.w));
}
template <>
EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE double2 pabs<double2>(const double2& v) {
  return make_double2(fabs(v.x), fabs(v.y));
}
#endif
}  // namespace internal
}  // namespace Eigen
#endif
"""
    assert _rules("Eigen/src/Core/arch/GPU/Abs.h", source) == {"cuda.device-qualifier-macro-header"}
    assert _layers("Eigen/src/Core/arch/GPU/Abs.h", source) == {"kernel": 8, "portable": 9}


def test_eigen_host_device_functions_without_gpu_types_stay_portable() -> None:
    # deps/eigen/.../Core/Inverse.h: EIGEN_DEVICE_FUNC members of an ordinary expression
    # (already right before this lane).
    source = b"""\
template <typename X>
class Flipped {
 public:
  EIGEN_DEVICE_FUNC explicit Flipped(const X& x) : m_x(x) {}
  EIGEN_DEVICE_FUNC Index rows() const { return m_x.cols(); }
  EIGEN_DEVICE_FUNC Index cols() const { return m_x.rows(); }
 private:
  const X& m_x;
};
"""
    assert _rules("Eigen/src/Core/Flipped.h", source) == set()
    assert _layers("Eigen/src/Core/Flipped.h", source) == {"portable": 9}


# -- ewoprager/grangeat-2d-3d-register-pytorch: __host__ __device__ functors in a header ------


def test_host_device_functor_header_counts_functions_and_cuda_block() -> None:
    # packages/reg23_core/src/backend/include/reg23_core/Common.h: functor members marked
    # __host__ __device__ are kernel; the __CUDACC__ memcpy helper is vendor-path (already
    # right before this lane: 34 kernel and 6 vendor-path lines, as counted by hand).
    source = b"""\
#pragma once
template <typename T> struct Affine {
    T offset;
    T scale;
    __host__ __device__ T operator()(const T &x) const { return scale * x + offset; }
    __host__ __device__ Affine operator()(const Affine &o) const {
        return {scale * o.offset + offset, scale * o.scale};
    }
};
#ifdef __CUDACC__
template <typename T>
__host__ cudaError_t CopyToSymbol(const T &symbol, T &src) {
    return cudaMemcpyToSymbol(symbol, &src, sizeof(T));
}
#endif
"""
    assert _layers("include/affine.h", source) == {"kernel": 4, "vendor-path": 6, "portable": 5}


# -- mirmik/diffusion-editor: GLSL stages held in Python strings ------------------------------


def test_glsl_in_python_strings_counts_the_string_lines() -> None:
    # diffusion_editor/app/native_reconstruction_viewport.py: each stage a triple-quoted
    # string opened by '#version' (already right before this lane: 234 of 234 lines).
    source = b'''\
import numpy as np

_VERTEX = """#version 450 core
layout(location = 0) in vec3 a_pos;
uniform mat4 u_mvp;
void main() {
    gl_Position = u_mvp * vec4(a_pos, 1.0);
}
"""


def upload(points):
    return np.asarray(points, dtype=np.float32)
'''
    assert _rules("app/viewport.py", source) == {"vulkan.glsl-string"}
    assert _layers("app/viewport.py", source) == {"kernel": 7, "portable": 3}


# -- kevalmorabia97/onnxscript: a test choosing ONNX Runtime's CUDA provider ------------------


def test_cuda_execution_provider_in_a_test_is_vendor_path() -> None:
    # onnxscript/tools/transformers_models/llama_test.py (already right before this lane).
    source = b"""\
import unittest
import onnxruntime
import torch


class ExportTest(unittest.TestCase):
    @unittest.skipIf(not torch.cuda.is_available(), reason="no GPU")
    def test_run(self):
        session = onnxruntime.InferenceSession(
            "model.onnx", providers=["CUDAExecutionProvider"]
        )
        self.assertIsNotNone(session)
"""
    assert "onnxruntime.cuda-provider" in _rules("tests/export_test.py", source)
    assert _layers("tests/export_test.py", source) == {"vendor-path": 1, "portable": 9}
