"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h56-random-q).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (a test on the name's text only, so some are no GPU code).
This lane took sub-pool positions 232-238; none was skipped, all seven had a snapshot. Read were
dbmdz/cudami (a Spring Boot web admin for a cultural-heritage repository in Java, Thymeleaf and
React; "cuda" is in its name only), lostjared/shaders (some two thousand GLSL fragment shaders for
a video-effects program, one file each), Gekoncze/MgVulkan (a generated Java binding of the
Vulkan API: a class per Vk struct, handle, flag set and function pointer in package
cz.mg.vulkan, and a JNI C file per struct and command that includes vulkan/vulkan.h),
Tykky/Raytracer (a CPU path tracer in C++ with OpenMP, its viewer on GLFW, GLEW, OpenGL and
Dear ImGui), wsttiger/cudaqx (a fork of NVIDIA's CUDA-QX quantum error correction and solver
libraries on CUDA-Q: C++ and Python, CUDA kernels for detector-error-model sampling and a
real-time decoder, TensorRT for an AI decoder, CI on CUDA dev containers), tritonmc/Triton (a
Minecraft server translation plugin in Java, no GPU code) and Antonito/Raytracer (a C ray
tracer from a school project, whose history once included the OpenCL headers). Fifteen files of
each repository were sampled with ``random.Random("owner/name")`` over every file lockin counts
and labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, files outside the sample that hold kernel lines
counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. One sampled file was
wrong before the fix: a CI build script passing CUDA-QX's own CMake options
(-DCUDAQX_INCLUDE_TESTS=ON) read as a CUDA back end switched on. Each snippet is a small
rewrite, in our own words, of a pattern found in the repository its test names; the expected
layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- wsttiger/cudaqx: CUDA-Q libraries, CUDA kernels, TensorRT, CUDA dev containers ----------


def test_cmake_options_of_a_cudaq_prefixed_project_are_portable() -> None:
    # .github/actions/build-lib/build_all.sh (sampled, wrong before: build.nvcc on two lines):
    # the project's own options begin with the letters CUDAQX_ (CUDA-QX, the quantum SDK);
    # turning its tests and Python bindings on switches no CUDA back end.
    source = b"""\
#!/bin/sh
out=$1
prefix=$2
cmake -S . -B "$out" \\
  -DCMAKE_BUILD_TYPE=Release \\
  -DCUDAQ_DIR="$prefix/lib/cmake/cudaq/" \\
  -DCUDAQX_ENABLE_LIBS="all" \\
  -DCUDAQX_INCLUDE_TESTS=ON \\
  -DCUDAQX_BINDINGS_PYTHON=ON \\
  -DCMAKE_INSTALL_PREFIX="$prefix"
cmake --build "$out" --target install -j 4
"""
    path = ".github/actions/build-lib/build_all.sh"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_cmake_switch_of_a_cuda_backend_stays_vendor_path() -> None:
    # The negative's twin: an option whose name holds CUDA as a whole word still switches the
    # CUDA back end on, beside the CUDA-QX options that do not.
    source = b"""\
#!/bin/sh
cmake -S . -B build \\
  -DMYLIB_ENABLE_CUDA=ON \\
  -DCUDAQX_INCLUDE_TESTS=ON
"""
    path = "scripts/build_gpu.sh"
    assert "build.nvcc" in _rules(path, source)
    assert _layers(path, source).get("vendor-path") == 1


def test_header_with_host_device_helper_and_stream_parameters() -> None:
    # libs/qec/lib/dem_sampling/dem_sampling_utils.h (sampled, already right): one inline
    # __host__ __device__ helper (kernel) and launcher declarations taking a cudaStream_t
    # (vendor-path).
    source = b"""\
#pragma once
#include <cstdint>
#include <cuda_runtime.h>

namespace qec::sampling {

inline __host__ __device__ uint64_t words_for(uint64_t bits) {
  return (bits + 31) / 32;
}

void pack_rows(const uint8_t *d_in, uint32_t *d_out, uint64_t rows,
               uint64_t cols, cudaStream_t stream = 0);

} // namespace qec::sampling
"""
    path = "libs/qec/lib/sampling/sampling_utils.h"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "vendor-path", "portable"}
    assert layers["kernel"] == 3


def test_device_function_declarations_in_a_cuh_are_kernel() -> None:
    # libs/qec/include/cudaq/qec/realtime/gpu_kernels.cuh (extra kernel file, already right):
    # only declarations of __device__ functions that the decoder pipeline's kernels call.
    source = b"""\
#pragma once
#include <cstdint>
#include <cuda_runtime.h>

namespace qec::rt {

__device__ void preprocess_one(std::size_t idx, const uint8_t *__restrict__ meas,
                               const uint32_t *__restrict__ rows,
                               float *__restrict__ soft);

__device__ void postprocess_one(std::size_t idx, const float *__restrict__ soft,
                                uint8_t *__restrict__ fixes, float thresh = 0.5f);

} // namespace qec::rt
"""
    path = "libs/qec/include/qec/rt/kernels.cuh"
    layers = _layers(path, source)
    assert set(layers) - {"portable"} == {"kernel", "vendor-path"}
    assert layers["kernel"] == 5


def test_quantum_kernel_example_on_cudaq_is_portable() -> None:
    # docs/sphinx/examples/solvers/cpp/uccsd_vqe.cpp (sampled, already right): a CUDA-Q
    # quantum kernel is a circuit for a QPU or simulator, not GPU device code.
    source = b"""\
#include "cudaq.h"
#include "cudaq/solvers/operators.h"

int main() {
  auto h = cudaq::spin_op::from_word("ZZ");
  auto ansatz = [](std::vector<double> theta) __qpu__ {
    cudaq::qvector q(2);
    x(q[0]);
    ry(theta[0], q[1]);
  };
  auto result = cudaq::solvers::vqe(ansatz, h, {0.1});
  printf("energy %f\\n", result.energy);
}
"""
    path = "docs/sphinx/examples/solvers/cpp/vqe_example.cpp"
    assert set(_layers(path, source)) == {"portable"}


# -- lostjared/shaders: one GLSL fragment shader a file ---------------------------------------


def test_glsl_fragment_shader_file_is_kernel() -> None:
    # R/rgbt.glsl and the rest (sampled, already right): a whole fragment shader is device
    # code, every code line of it.
    source = b"""\
#version 330 core
in vec2 tc;
out vec4 color;
uniform sampler2D samp;
uniform float time_f;

void main() {
    float s = 0.5 + 0.5 * sin(time_f * 12.0);
    vec3 base = texture(samp, tc).rgb;
    vec3 shifted = texture(samp, tc + vec2(0.01 * s, 0.0)).rgb;
    color = vec4(mix(base, shifted, s), 1.0);
}
"""
    path = "S/strobe_shift.glsl"
    assert _layers(path, source) == {"kernel": 11}


# -- Gekoncze/MgVulkan: a generated Java binding of Vulkan with JNI C -------------------------


def test_java_class_in_a_package_named_vulkan_is_vendor_path() -> None:
    # 1.1/src/cz/mg/vulkan/PFNvkCmdSetStencilWriteMask.java (sampled, already right): the
    # binding's function-pointer wrapper; the package line says it is Vulkan host code.
    source = b"""\
package org.example.vulkan;

public class PFNvkCmdSetLineWidth extends VkFunctionPointer {
    public PFNvkCmdSetLineWidth(VkInstance instance) {
        super(instance, new VkString("vkCmdSetLineWidth"));
    }

    public void call(VkCommandBuffer cmd, float width) {
        callNative(getValue(), cmd.getVkAddress(), width);
    }

    protected static native void callNative(long fn, long cmd, float width);
}
"""
    path = "src/org/example/vulkan/PFNvkCmdSetLineWidth.java"
    assert "vulkan.jvm-package" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_jni_c_calling_a_vulkan_function_pointer_is_vendor_path() -> None:
    # 1.1/src/c/cz/mg/vulkan/PFN_vkQueueBindSparse.c (sampled, already right): JNI glue that
    # casts a long back to a PFN_vk* pointer and calls it with Vk handles.
    source = b"""\
#include <jni.h>
#include <vulkan/vulkan.h>

void* toPointer(jlong l);
PFN_vkVoidFunction toFunction(jlong l);

void Java_org_example_vulkan_PFNvkCmdSetLineWidth_callNative(
    JNIEnv* env, jclass c, jlong fn, jlong cmd, jfloat w){
    (void)env;
    (void)c;
    PFN_vkCmdSetLineWidth f = (PFN_vkCmdSetLineWidth)toFunction(fn);
    f(*((VkCommandBuffer*)toPointer(cmd)), (float)w);
}
"""
    path = "src/c/org/example/vulkan/PFN_vkCmdSetLineWidth.c"
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


# -- Tykky/Raytracer: CPU path tracer, OpenGL and ImGui viewer --------------------------------


def test_opengl_imgui_viewer_uploading_a_cpu_framebuffer_is_portable() -> None:
    # src/gui/Gui.cpp and src/CMakeLists.txt (GPU-looking, already right): the CPU image is
    # shown as an OpenGL texture under Dear ImGui; OpenGL host code is portable.
    source = b"""\
#include <GL/glew.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

void Viewer::init(GLFWwindow *w) {
    ImGui::CreateContext();
    ImGui_ImplGlfw_InitForOpenGL(w, true);
    ImGui_ImplOpenGL3_Init("#version 130");
    glGenTextures(1, &tex_);
    glBindTexture(GL_TEXTURE_2D, tex_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, w_, h_, 0, GL_RGB, GL_UNSIGNED_BYTE, pixels_.data());
}
"""
    path = "src/gui/Viewer.cpp"
    assert set(_layers(path, source)) == {"portable"}


# -- Antonito/Raytracer: a C ray tracer that once included the OpenCL headers ----------------


def test_c_header_including_the_opencl_headers_is_vendor_path() -> None:
    # include/raytracer.h at commit 3f45f6a7 (a sampled commit, gate already right): the
    # header starts including OpenCL's (Apple's framework path or CL/cl.h).
    source = b"""\
#ifndef RT_H_
# define RT_H_
# ifdef __APPLE__
#  include "OpenCL/opencl.h"
# else
#  include "CL/cl.h"
# endif
# include <stdbool.h>
# include "engine/scene.h"
#endif
"""
    path = "include/raytracer.h"
    layers = _layers(path, source)
    assert layers.get("vendor-path") == 2
