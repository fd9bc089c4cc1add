"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-rest-b).

The sub-pool is ``/work/pool-h58-rest.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold NO GPU term (the
complement of ``/work/pool/h55_gpu_rule.py``, written in ``/work/pool/h58_rest_rule.py``), so
most are no GPU code at all. This lane took sub-pool positions 9-16. Three were skipped, having
no snapshot to fetch: mynority-studio/auraflow_music_game_console_simulator (10),
ani-ani/llm_evaluation_runs (13) and blastercz003/crm-app (15). Read were hoaxpoet/phosphene (a
macOS music visualiser: Swift host code on Metal, MPSGraph stem separation, Metal Shading
Language presets and utilities, Swift tests that compile inline MSL kernels, a CoreML training
script and an archived Electron prototype with GLSL shaders), bpwhelan/GameSentenceMiner (a
Japanese sentence-mining tool for games: Python OCR and voice detection with optional CUDA,
an Electron and TypeScript front end, a vendored Yomitan), NingMoe/sz_onecard (a city card
back office in ASP.NET, C# and SQL, no GPU code), anonymousgroundhog/MADScannerFinalGoldV2 (an
Android malware scanner whose snapshot holds Git LFS pointer files only, no GPU code) and
nickorsk2017/gemma-4-chat-harness (a FastAPI chat gateway and MCP agents calling a hosted Gemma
model through NVIDIA's OpenAI-compatible endpoint, no GPU code). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, files outside the sample that hold kernel
lines counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Every sampled file
and commit was right before; one GPU-looking file outside the sample was wrong:
GameSentenceMiner's util/config/configuration.py probes ``find_spec("nvidia.cublas")`` and
``"nvidia.cudnn"`` to put the CUDA wheels' DLL folders on PATH, which no rule named. The rules
cuda.nvidia-wheel-module-name (the module named for an import helper) and
cuda.nvidia-wheel-import (the module imported by statement) now take it. The other tests pin
verdicts worth keeping. Each snippet is a small rewrite, in our own words, of a pattern found in
the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- bpwhelan/GameSentenceMiner: OCR and voice detection with optional CUDA -----------------


def test_find_spec_probe_of_cuda_wheels_is_vendor_path() -> None:
    # GameSentenceMiner/util/config/configuration.py (GPU-looking, portable before): a loop
    # over the cuBLAS and cuDNN wheel modules puts their bin folders on PATH for Windows.
    source = b"""\
import importlib.util
import os


def add_cuda_dll_dirs():
    for module in ("nvidia.cublas", "nvidia.cudnn"):
        found = importlib.util.find_spec(module)
        if not found or not found.submodule_search_locations:
            continue
        root = os.path.dirname(found.submodule_search_locations[0])
        for sub in os.listdir(root):
            folder = os.path.join(root, sub, "bin")
            if os.path.isdir(folder):
                os.environ["PATH"] = folder + os.pathsep + os.environ["PATH"]
"""
    path = "app/util/config/settings.py"
    assert "cuda.nvidia-wheel-module-name" in _rules(path, source)
    assert _layers(path, source).keys() == {"vendor-path", "portable"}


def test_cuda_wheel_modules_imported_by_statement_are_vendor_path() -> None:
    source = b"""\
import os
from nvidia import cublas
import nvidia.cudnn.lib
from nvidia.cuda_nvrtc import lib as nvrtc_lib

os.add_dll_directory(os.path.join(cublas.__path__[0], "bin"))
"""
    path = "app/native_libs.py"
    assert "cuda.nvidia-wheel-import" in _rules(path, source)
    assert _layers(path, source)["vendor-path"] == 3


def test_cuda_wheel_names_without_an_import_helper_are_portable() -> None:
    source = b"""\
import json

REQUIRED = ["nvidia.cublas", "nvidia.cudnn"]
print(json.dumps(REQUIRED))
import nvidia_smi_parser
from nvidia.dali_shim import helpers
"""
    path = "app/requirements_check.py"
    rules = _rules(path, source)
    assert "cuda.nvidia-wheel-import" not in rules
    assert "cuda.nvidia-wheel-module-name" not in rules


def test_onnxruntime_cuda_provider_choice_is_vendor_path() -> None:
    # GameSentenceMiner/ocr/__init__.py (non-portable, right): the device string and the
    # execution provider are picked from a CUDA probe.
    source = b"""\
import onnxruntime as ort


def make_session(model_path, use_gpu):
    device = "cuda" if use_gpu else "cpu"
    provider = "CUDAExecutionProvider" if device == "cuda" else "CPUExecutionProvider"
    return ort.InferenceSession(model_path, providers=[provider])
"""
    path = "app/ocr/__init__.py"
    assert "onnxruntime.cuda-provider" in _rules(path, source)
    assert _layers(path, source).keys() == {"vendor-path", "portable"}


def test_electron_gpu_compositing_switch_is_portable() -> None:
    # commit 27ede4b6 (gate passes, right): a Chromium switch turning GPU compositing off.
    source = b"""\
const { app } = require('electron');

if (process.platform === 'linux') {
  app.commandLine.appendSwitch('enable-transparent-visuals');
  app.commandLine.appendSwitch('disable-gpu-compositing');
}
"""
    path = "electron-src/main/main.ts"
    assert _layers(path, source).keys() == {"portable"}


# -- nickorsk2017/gemma-4-chat-harness: a hosted model behind an HTTP API -------------------


def test_hosted_nvidia_inference_endpoint_is_portable() -> None:
    # the commits adding the LLM settings (gate passes, right): NVIDIA's hosted, OpenAI-style
    # endpoint is a web API, not GPU code.
    source = b"""\
from pydantic_settings import BaseSettings

NVIDIA_BASE_URL = "https://integrate.api.nvidia.com/v1"
DEFAULT_NVIDIA_MODEL = "google/gemma-4-31b-it"


class LlmSettings(BaseSettings):
    llm_provider: str = "nvidia"
    base_url: str = NVIDIA_BASE_URL
    model: str = DEFAULT_NVIDIA_MODEL
"""
    path = "mcp/agent_core/llm.py"
    assert _layers(path, source).keys() == {"portable"}


# -- hoaxpoet/phosphene: a Metal music visualiser --------------------------------------------


def test_swift_test_compiling_an_inline_msl_kernel() -> None:
    # PhospheneEngine/Tests/.../SDFPrimitivesTests.swift (sampled, right): an MSL compute
    # kernel in a Swift string, compiled and dispatched on the Metal device.
    source = b"""\
import Metal
import Testing

struct DistanceTests {
    func run(_ expr: String) throws -> [Float] {
        let source = \"\"\"
        kernel void probe(constant float3* points [[buffer(0)]],
                          device float* out [[buffer(1)]],
                          uint i [[thread_position_in_grid]]) {
            out[i] = \\(expr);
        }
        \"\"\"
        guard let device = MTLCreateSystemDefaultDevice() else { return [] }
        let library = try device.makeLibrary(source: source, options: nil)
        _ = library
        return []
    }
}
"""
    path = "Tests/EngineTests/DistanceTests.swift"
    layers = _layers(path, source)
    assert layers.keys() == {"kernel", "vendor-path", "portable"}
    assert 4 <= layers["kernel"] <= 7


def test_swift_host_importing_metal_is_vendor_path() -> None:
    # PhospheneEngine/Tests/.../StemSeparatorTests.swift (sampled, right).
    source = b"""\
import Metal
import Testing

@Test func separatorBuilds() throws {
    guard let device = MTLCreateSystemDefaultDevice() else { return }
    let separator = try Separator(device: device)
    #expect(separator.stemCount == 4)
}
"""
    path = "Tests/EngineTests/SeparatorTests.swift"
    assert _layers(path, source).keys() == {"vendor-path", "portable"}


def test_swift_dsp_on_accelerate_is_portable() -> None:
    # PhospheneEngine/Sources/DSP/BeatDetector+Tempo.swift (sampled, right): vDSP on the CPU.
    source = b"""\
import Foundation
import Accelerate

func meanLevel(_ samples: [Float]) -> Float {
    var mean: Float = 0
    vDSP_meanv(samples, 1, &mean, vDSP_Length(samples.count))
    return mean
}
"""
    path = "Sources/DSP/Level.swift"
    assert _layers(path, source).keys() == {"portable"}


def test_metal_noise_utility_is_all_kernel() -> None:
    # PhospheneEngine/Sources/Presets/Shaders/Utilities/Noise/DomainWarp.metal (sampled, right).
    source = b"""\
#include <metal_stdlib>
using namespace metal;

// warp a point through two octaves of value noise
static inline float2 warp2(float2 p, float amount) {
    float2 q = float2(sin(p.x * 1.7), cos(p.y * 2.3));
    return p + amount * q;
}
"""
    path = "Sources/Presets/Shaders/Utilities/Noise/Warp.metal"
    layers = _layers(path, source)
    assert layers.keys() == {"kernel"}
    assert layers["kernel"] == 6


def test_coreml_export_script_is_vendor_library() -> None:
    # tools/train_mood_classifier.py (non-portable, right): a trained model converted to a
    # Core ML package for the Neural Engine.
    source = b"""\
import coremltools as ct
import torch


def export(model, example):
    traced = torch.jit.trace(model, example)
    mlmodel = ct.convert(traced, inputs=[ct.TensorType(shape=example.shape)])
    mlmodel.save("Mood.mlpackage")
"""
    path = "tools/train_classifier.py"
    assert "metal.coreml" in _rules(path, source)
    assert _layers(path, source).keys() == {"vendor-library", "portable"}


# -- anonymousgroundhog/MADScannerFinalGoldV2: Git LFS pointers only -------------------------


def test_git_lfs_pointer_file_is_portable() -> None:
    source = b"""\
version https://git-lfs.github.com/spec/v1
oid sha256:0f3b6c2a9d41e8b7c5a2f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9
size 2048
"""
    path = "Python/scan_apps.py"
    assert _layers(path, source).keys() == {"portable"}
