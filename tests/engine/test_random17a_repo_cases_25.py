"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h53-random-a).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 973-979. Two were skipped: DXT00/BlackPearl-Rendering-Engine
(974) has a snapshot of 662 MB, over the 500 MB that can be fetched, and escossio/
attention-router (975) had no snapshot to fetch. Read were robocomp/active_inference (a
RoboComp robot's room and voxel-grid components in C++ with libtorch, an ONNX Runtime YOLO
detector with the CUDA and TensorRT providers, and a Qt OpenGL viewer whose GLSL lives in C++
raw strings), Telosnex/fonnx (a Flutter plugin running ONNX models on every platform: Dart, a
vendored ONNX Runtime C API, and a committed web build for GitHub Pages), ElectQ/Megatron (a
security-news radar in Python and HTML, no GPU code), BMMG-Curtin/
Molecular-Dynamics-Visualization-MDV (a Unity molecular viewer in C#, with TextMesh Pro's and
Pcx's ShaderLab shaders and .cginc includes) and chris320211/model-quantization-agent (a
LangChain agent porting quantization recipes to NVIDIA cloud instances: nvidia-smi probes,
instance tables, CUDA wheel indexes). Snapshots missing large blobs (a mesh, WebAssembly
builds, ONNX models, a texture) were checked out without them; no counted source file was
missing. Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (up to 5 a repository), and
up to three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Telosnex/fonnx: a Flutter web build's shader bundle, ORT bound through dart:ffi --------


def test_flutter_web_shader_bundle_counts_only_its_source_line_as_kernel() -> None:
    # docs/assets/shaders/ink_sparkle.frag (an extra kernel file: hand 1, lockin 126 before):
    # `flutter build web` writes each fragment program as JSON under its .frag name, the SkSL
    # source one escaped string, then a table of uniforms. Only the source line is a shader.
    source = b"""\
{
  "sksl": {
    "entrypoint": "glow_fragment_main",
    "shader": "// SkSL\\nuniform vec4 u_colour;\\nvec4 fragColor;\\nvoid FLT_main() {}\\n",
    "stage": 1,
    "uniforms": [
      {
        "array_elements": 0,
        "location": 0,
        "name": "u_colour",
        "rows": 4,
        "type": 10
      },
      {
        "array_elements": 0,
        "location": 1,
        "name": "u_time",
        "rows": 1,
        "type": 10
      }
    ]
  }
}
"""
    path = "web/assets/shaders/glow.frag"
    assert _rules(path, source) == {"vulkan.shader-bundle-source"}
    assert _layers(path, source) == {"kernel": 1, "portable": 22}


def test_glsl_fragment_shader_file_stays_kernel_whole() -> None:
    # The same program's source, as a Flutter app keeps it in shaders/*.frag: GLSL, whole.
    source = b"""\
#version 460 core
#include <flutter/runtime_effect.glsl>

uniform vec4 uColour;
uniform float uTime;

out vec4 fragColor;

void main() {
  fragColor = uColour * uTime;
}
"""
    path = "shaders/glow.frag"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 8}


def test_dart_ffi_binding_of_the_cuda_provider_is_vendor_path() -> None:
    # lib/onnx/ort_ffi_bindings.dart (ffigen's bindings of onnxruntime_c_api.h, whose CUDA
    # provider declarations the C header already counts as vendor-path): the same function
    # declared for Dart. The CPU provider beside it stays portable.
    source = b"""\
import 'dart:ffi' as ffi;

@ffi.Native<OrtStatusPtr Function(ffi.Pointer<OrtSessionOptions>, ffi.Int)>()
external OrtStatusPtr OrtSessionOptionsAppendExecutionProvider_CUDA(
  ffi.Pointer<OrtSessionOptions> options,
  int deviceId,
);

@ffi.Native<OrtStatusPtr Function(ffi.Pointer<OrtSessionOptions>, ffi.Int)>()
external OrtStatusPtr OrtSessionOptionsAppendExecutionProvider_CPU(
  ffi.Pointer<OrtSessionOptions> options,
  int useArena,
);
"""
    path = "lib/ort/bindings.dart"
    assert _rules(path, source) == {"onnxruntime.cuda-provider-api"}
    assert _layers(path, source) == {"vendor-path": 4, "portable": 7}


# -- chris320211/model-quantization-agent: back ends named as options, nvidia-smi probes -----


def test_literal_type_naming_tensorrt_llm_among_back_ends_is_portable() -> None:
    # src/quant_agent/tools/recommender.py (a false positive of deps.cuda-wheel-python): a
    # pydantic field whose typing.Literal lists the serving back ends a request may name.
    source = b"""\
from typing import Literal

from pydantic import BaseModel


class Ask(BaseModel):
    vram_gb: float
    engine: Literal["vllm", "sglang", "tensorrt_llm", "llama_cpp", "any"] = "any"
    goal: Literal["quality", "speed"] = "speed"
"""
    path = "agent/tools/advisor.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 6}


def test_requirement_list_pinning_tensorrt_llm_stays_vendor_path() -> None:
    # The negative's counterpart: a build script's requirement list still pins the wheel.
    source = b"""\
from setuptools import setup

setup(name="advisor", install_requires=["pydantic>=2", "tensorrt_llm>=0.12"])
"""
    path = "setup.py"
    assert _rules(path, source) == {"deps.cuda-wheel-python"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 1}


def test_nvidia_smi_probe_is_vendor_path() -> None:
    # src/quant_agent/tools/gpu_info.py (already right): a query of nvidia-smi for the
    # GPUs' names and memory, parsed from CSV.
    source = b"""\
import shutil
import subprocess


def gpus() -> list[str]:
    if not shutil.which("nvidia-smi"):
        return []
    out = subprocess.run(
        ["nvidia-smi", "--query-gpu=name,memory.total", "--format=csv,noheader"],
        capture_output=True, text=True, check=False,
    ).stdout
    return [row.strip() for row in out.splitlines() if row.strip()]
"""
    path = "agent/tools/probe.py"
    assert _rules(path, source) == {"cuda.tool-call"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 8}


# -- robocomp/active_inference: GLSL in C++ raw strings, libtorch and ORT devices ----------


def test_glsl_in_cpp_raw_strings_counts_each_shader_line() -> None:
    # robot_concept/src/voxel_opengl_viewer.cpp (extra kernel file, hand 57, lockin 57): a Qt
    # OpenGL viewer keeping its vertex and fragment shaders as R"( ... )" strings.
    source = b"""\
void Viewer::initializeGL()
{
    initializeOpenGLFunctions();
    static constexpr const char* vs = R"(
        #version 330 core
        layout(location = 0) in vec3 in_pos;
        uniform mat4 u_mvp;
        void main()
        {
            gl_Position = u_mvp * vec4(in_pos, 1.0);
        }
    )";
    static constexpr const char* fs = R"(
        #version 330 core
        out vec4 out_col;
        void main()
        {
            out_col = vec4(0.2, 0.8, 0.4, 1.0);
        }
    )";
    program_.addShaderFromSourceCode(QOpenGLShader::Vertex, vs);
    program_.addShaderFromSourceCode(QOpenGLShader::Fragment, fs);
}
"""
    path = "src/viewer_gl.cpp"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 17, "portable": 6}


def test_libtorch_cuda_device_choice_is_vendor_path() -> None:
    # room_concept/src/room_concept.h (sampled, already right): the torch::Device picked from
    # a use_cuda flag, kCUDA when the runtime has one.
    source = b"""\
#include <torch/torch.h>

struct Model {
    bool use_cuda = false;
    torch::Device device() const
    {
        if (use_cuda && torch::cuda::is_available())
            return torch::kCUDA;
        return torch::kCPU;
    }
};
"""
    path = "src/model.h"
    assert _rules(path, source) == {"torch.cpp-cuda"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 8}


def test_onnxruntime_cuda_provider_from_cpp_is_vendor_path() -> None:
    # robot_concept/src/yolo_seg_detector.cpp (already right): the CUDA execution provider
    # appended to the session options when the GPU is asked for.
    source = b"""\
#include <onnxruntime_cxx_api.h>

void Detector::configure(bool use_gpu)
{
    if (use_gpu) {
        OrtCUDAProviderOptions cuda{};
        cuda.device_id = 0;
        opts_.AppendExecutionProvider_CUDA(cuda);
    }
    opts_.SetIntraOpNumThreads(1);
}
"""
    path = "src/detector.cpp"
    assert _rules(path, source) == {"onnxruntime.cuda-provider-api"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 8}


# -- BMMG-Curtin/Molecular-Dynamics-Visualization-MDV: Unity ShaderLab and .cginc ----------


def test_unity_surface_shader_counts_its_cg_program() -> None:
    # Assets/CurtinUniversity/Shaders/VertexShader.shader (extra kernel file, hand 19, lockin
    # 19): a surface shader; the CGPROGRAM block is kernel, the ShaderLab around it portable.
    source = b"""\
Shader "Lab/Tinted" {
    Properties {
        _Color ("Color", Color) = (1,1,1,1)
    }
    SubShader {
        Tags { "RenderType"="Opaque" }
        CGPROGRAM
        #pragma surface surf Standard
        fixed4 _Color;
        struct Input {
            float4 color : COLOR;
        };
        void surf (Input IN, inout SurfaceOutputStandard o) {
            o.Albedo = _Color.rgb * IN.color.rgb;
        }
        ENDCG
    }
    FallBack "Diffuse"
}
"""
    path = "Assets/Shaders/Tinted.shader"
    assert _rules(path, source) == {"hlsl.shaderlab-program"}
    assert _layers(path, source) == {"kernel": 10, "portable": 9}


def test_cginc_of_colour_packing_functions_is_kernel_whole() -> None:
    # Assets/Pcx/Runtime/Shaders/Common.cginc (extra kernel file, hand 17, lockin 17): HLSL
    # helper functions a point-cloud shader includes.
    source = b"""\
// Colour packing for the point shaders.
#define MAX_GAIN 16

uint PackColour(half3 rgb)
{
    half y = max(max(rgb.r, rgb.g), rgb.b);
    uint4 i = half4(rgb * 255 / MAX_GAIN, y);
    return i.x | (i.y << 8) | (i.z << 16) | (i.w << 24);
}
"""
    path = "Assets/Points/Shaders/Pack.cginc"
    assert _rules(path, source) == {"hlsl.shader-file"}
    assert _layers(path, source) == {"kernel": 7}


def test_tensorrt_libraries_preloaded_by_name_are_vendor_path() -> None:
    # robot_concept/src/yolo_seg_detector.cpp (already vendor-path for its providers; these
    # lines were portable): TensorRT's runtime and parser loaded with dlopen before ONNX
    # Runtime's TensorRT provider starts. The prefix searched among file names loads nothing.
    source = b"""\
#include <dlfcn.h>

static void preload_trt()
{
    static const char* libs[] = {
        "/usr/lib/x86_64-linux-gnu/libnvinfer.so.10",
        "/usr/lib/x86_64-linux-gnu/libnvonnxparser.so.10",
    };
    for (const char* lib : libs)
        dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
}

static bool is_builder_resource(const std::string& name)
{
    return name.rfind("libnvinfer_builder_resource_", 0) == 0;
}
"""
    path = "src/trt_loader.cpp"
    assert _rules(path, source) == {"cuda.library-load-name"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 12}
