"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-g).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 239-245. Two were skipped: cheeseoryx/voxel-frontline-battle
(240) and JoylimJY/skill-llm (242) had no snapshot to fetch. Read were bartblast/hologram (a
full-stack Elixir web framework that compiles Elixir pages to JavaScript: Elixir, .mjs runtime
and thousands of test fixtures, no GPU code), occupydems/android-weather-app2 (an Android
weather app in Kotlin drawing its effects on a Canvas, with stubs of a vendor's native
OpenGL effects engine, no GPU code of its own),
Santiago-cabrera-Arias/Encriptacion-Pycuda-Fastapi-Public (AES and RSA encryption with CUDA
kernels compiled by PyCUDA's SourceModule, served by FastAPI from an nvidia/cuda image),
BPMSoftwareSolutions/renderx-plugins-demo (a TypeScript and C# Avalonia plugin shell with
orchestration scripts, no GPU code) and YiJiangFengYun/vulkan-graphics-examples (a C++ Vulkan
framework on Vulkan-Hpp and GLFW with GLSL sample shaders compiled to SPIR-V by CMake).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over
every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (up to 5 a repository), and
up to three commits touching GPU code (``random.Random("owner/name:commits")``) judged
against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading
that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Santiago-cabrera-Arias/Encriptacion-Pycuda-Fastapi-Public: PyCUDA kernels --------------


def test_pycuda_source_module_kernel_and_its_launch_are_kernel_and_vendor_path() -> None:
    # encriptacion.py (right before): CUDA C kept in a SourceModule string is the kernel; the
    # imports, to_device, get_function, the launch and the copy back are PyCUDA host code.
    source = b'''\
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule


class XorStage:
    def __init__(self):
        self.mod = SourceModule("""
            __global__ void xor_bytes(unsigned char *buf, unsigned char *key, int n) {
                int i = blockIdx.x * blockDim.x + threadIdx.x;
                if (i < n) {
                    buf[i] ^= key[i % 16];
                }
            }
        """)
        self.fn = self.mod.get_function("xor_bytes")

    def run(self, data, key):
        d_buf = drv.to_device(data)
        d_key = drv.to_device(key)
        self.fn(d_buf, d_key, np.int32(len(data)), block=(128, 1, 1), grid=(1, 1))
        drv.memcpy_dtoh(data, d_buf)
        return data
'''
    path = "crypto/xor_stage.py"
    layers = _layers(path, source)
    assert _rules(path, source) == {"pycuda.driver", "pycuda.host-api", "pycuda.source-module"}
    assert layers["kernel"] == 8
    assert layers["vendor-path"] == 8


def test_fastapi_app_importing_pycuda_autoinit_is_vendor_path() -> None:
    # main.py (right before): the web app only imports PyCUDA (autoinit opens a CUDA context
    # at import); its routes call the encryption classes and are portable.
    source = b"""\
import pycuda.autoinit
import pycuda.driver as drv
from fastapi import FastAPI

from crypto.xor_stage import XorStage

app = FastAPI()


@app.post("/encrypt")
def encrypt(text: str):
    return {"cipher": XorStage().run(text.encode(), b"k" * 16).hex()}
"""
    path = "main.py"
    assert _rules(path, source) == {"pycuda.driver"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 6}


def test_service_image_on_nvidia_cuda_base_is_vendor_path() -> None:
    # Dockerfile (right before): the service runs from NVIDIA's CUDA devel image.
    source = b"""\
FROM nvidia/cuda:12.2.0-devel-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip
RUN pip3 install pycuda fastapi uvicorn
COPY . /srv
CMD ["uvicorn", "main:app", "--host", "0.0.0.0"]
"""
    path = "Dockerfile"
    # The pip line installs PyCUDA into the image: vendor-path too since
    # deps.cuda-pip-install-list (lane h55-random-v).
    assert _rules(path, source) == {"image.nvidia-base", "deps.cuda-pip-install-list"}
    assert _layers(path, source)["vendor-path"] == 2


def test_sequential_aes_in_numpy_is_portable() -> None:
    # AESSecuencial.py (right before): the CPU reference of the same cipher.
    source = b"""\
import numpy as np


def add_round_key(state, key):
    return np.bitwise_xor(np.asarray(state, dtype=np.uint8), np.asarray(key, dtype=np.uint8))
"""
    assert _layers("AESSecuencial.py", source) == {"portable": 3}


# -- occupydems/android-weather-app2: Canvas drawing on Android -----------------------------


def test_android_canvas_gradient_shader_is_portable() -> None:
    # engine/inert/InertSceneRenderer.kt (a GPU-looking file, right before): android.graphics'
    # Shader is a Paint's gradient fill, drawn by the Canvas, not a GPU program.
    source = b"""\
package com.example.sky

import android.graphics.Canvas
import android.graphics.LinearGradient
import android.graphics.Paint
import android.graphics.Shader

class SkyPainter {
    private val paint = Paint()

    fun draw(canvas: Canvas, w: Float, h: Float, top: Int, bottom: Int) {
        paint.shader = LinearGradient(0f, 0f, 0f, h, top, bottom, Shader.TileMode.CLAMP)
        canvas.drawRect(0f, 0f, w, h, paint)
        paint.shader = null
    }
}
"""
    assert _layers("app/src/main/java/com/example/sky/SkyPainter.kt", source) == {"portable": 13}


def test_kotlin_stub_of_a_native_gl_engine_is_portable() -> None:
    # engine/inert/InertRenderEngine.kt (a GPU-looking file, right before): a fallback whose
    # comments and log lines describe what the native OpenGL engine would do.
    source = b"""\
package com.example.engine

import android.util.Log

class StubEngine {
    // The native engine creates its GL context and compiles its shaders here.
    fun init() {
        Log.d("StubEngine", "init: no-op, the native build sets up GL and shader programs")
    }

    // The native engine uploads a float uniform to the bound shader program here.
    fun setUniform(name: String, value: Float) {
        Log.d("StubEngine", "setUniform($name, $value): no-op")
    }
}
"""
    path = "app/src/main/java/com/example/engine/StubEngine.kt"
    assert _rules(path, source) == set()


# -- bartblast/hologram: an Elixir web framework -------------------------------------------


def test_headless_chrome_disable_gpu_flag_in_elixir_config_is_portable() -> None:
    # test/features/config/test.exs (a GPU-looking file, right before): browser test flags.
    source = b"""\
import Config

config :wallaby,
  driver: Wallaby.Chrome,
  chromedriver: [
    headless: true,
    capabilities: %{
      chromeOptions: %{args: ["--headless", "--disable-gpu", "--no-sandbox"]}
    }
  ]
"""
    assert _rules("test/app/config/test.exs", source) == set()


# -- BPMSoftwareSolutions/renderx-plugins-demo: scripts that mention a GPU -----------------


def test_analysis_script_printing_gpu_advice_is_portable() -> None:
    # packages/telemetry-workbench/scripts/analyze_gap_3.py (a GPU-looking file, right
    # before): a report's recommendation names GPU acceleration in a string.
    source = b"""\
def recommend(gap_ms):
    print("Recommendations:")
    if gap_ms > 100:
        print("   - GPU handoff for hardware acceleration")
        print("   - batch DOM updates per animation frame")
"""
    assert _layers("scripts/analyze_gap.py", source) == {"portable": 5}


# -- YiJiangFengYun/vulkan-graphics-examples: Vulkan-Hpp framework and GLSL samples --------


def test_vulkan_sample_fragment_shader_is_kernel_as_a_whole() -> None:
    # samples/resources/shaders/texture/texture.frag (right before: 21 of 21 lines).
    source = b"""\
#version 450

layout (set = 1, binding = 0) uniform sampler2D albedo;

layout (location = 0) in vec2 uv;
layout (location = 1) in vec3 normal;
layout (location = 2) in vec3 toLight;

layout (location = 0) out vec4 fragColor;

void main()
{
    vec4 base = texture(albedo, uv);
    // Lambert only.
    float ndl = max(dot(normalize(normal), normalize(toLight)), 0.0);
    fragColor = vec4(base.rgb * ndl, base.a);
}
"""
    path = "samples/resources/shaders/lit/lit.frag"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 12}


def test_vulkan_hpp_enum_table_is_vendor_path() -> None:
    # framework/graphics/graphics/mesh/mesh_option.cpp (right before): the framework's own
    # topology enum mapped to vk::PrimitiveTopology.
    source = b"""\
#include "mesh/topology.hpp"

namespace gfx
{
    const std::pair<Topology, vk::PrimitiveTopology> kTopologies[] = {
        {Topology::Points, vk::PrimitiveTopology::ePointList},
        {Topology::Lines, vk::PrimitiveTopology::eLineList},
        {Topology::Triangles, vk::PrimitiveTopology::eTriangleList},
    };
}
"""
    path = "framework/gfx/mesh/topology.cpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert "kernel" not in _layers(path, source)


def test_glfw_include_vulkan_define_is_vendor_path() -> None:
    # framework/framework/framework/global.hpp (a non-portable file, right before): asking
    # GLFW to include vulkan.h for the surface calls.
    source = b"""\
#ifndef APP_GLOBAL_HPP
#define APP_GLOBAL_HPP

#include <cstdint>

#ifndef GLFW_INCLUDE_VULKAN
#define GLFW_INCLUDE_VULKAN
#endif
#include <GLFW/glfw3.h>

#endif
"""
    path = "framework/app/global.hpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source)["vendor-path"] == 2


def test_sample_main_through_the_framework_wrapper_is_portable() -> None:
    # samples/texture/main.cpp (right before): the sample only calls the framework's types.
    source = b"""\
#include <framework/framework.hpp>
#include "texture/app.hpp"

int main() {
    gfx::DeviceFeatures required;
    gfx::DeviceFeatureWishes optional;
    optional.anisotropy = 1u;
    App app;
    app.init<Window>(1280, 720, "texture", required, optional);
    app.run();
    return 0;
}
"""
    path = "samples/texture/main.cpp"
    assert _layers(path, source) == {"portable": 11}


def test_cmake_running_glslangvalidator_by_its_sdk_path_is_vendor_path() -> None:
    # cmake/ResourceProcess.cmake (portable before, outside the sample): a macro compiles each
    # sample's GLSL to SPIR-V with "${Vulkan_BIN_DIR}/glslangValidator.exe" -V, quoted.
    source = b"""\
macro(compile_glsl shader_dir names)
    foreach(name ${names})
        file(GLOB SRCS "${shader_dir}/${name}.vert" "${shader_dir}/${name}.frag")
        foreach(src ${SRCS})
            add_custom_command(OUTPUT "${src}.spv"
                COMMAND "${VK_TOOLS_DIR}/glslangValidator.exe" "-V" "${src}" "-o" "${src}.spv"
                MAIN_DEPENDENCY "${src}")
        endforeach()
    endforeach()
endmacro()
"""
    path = "cmake/CompileGlsl.cmake"
    assert _rules(path, source) == {"build.cmake-vulkan"}
    assert _layers(path, source)["vendor-path"] == 1


def test_cmake_sample_listing_its_shader_names_is_portable() -> None:
    # samples/cubemaps/CMakeLists.txt (a GPU-looking file, right before): the sample names its
    # shaders and calls the project's macro; the compiler runs elsewhere.
    source = b"""\
set(EXE_NAME "cubemaps")
file(GLOB_RECURSE SOURCES *.cpp)
add_executable(${EXE_NAME} ${SOURCES})
set(SHADER_NAMES "reflect" "skybox")
set(SHADERS_DIR "${SHADERS_DIR}/${EXE_NAME}")
compile_glsl("${SHADERS_DIR}" "${SHADER_NAMES}")
"""
    assert _rules("samples/cubemaps/CMakeLists.txt", source) == set()
