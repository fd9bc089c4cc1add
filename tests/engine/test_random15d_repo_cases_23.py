"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-d).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 609-615. Two were skipped: VladyslavSan/unity-map-renderer
(610) and wyf9218/rfic-transformer-inverse-design (615) had no snapshot to fetch. Read were
FS-GG/FS.GG.Rendering (an F# UI and rendering framework over SkiaSharp and Silk.NET's OpenGL
and GLFW, with .fsi signatures, .fsx scripts and 1,008 .fs sources), AntaresSimulatorTeam/
antares-xpansion (a C++ and Python investment optimiser around linear-programming solvers,
with MPS problem files), opendatalab/MinerU (Python document parsing: torch models on CUDA,
Ascend, MPS, MUSA and MLU, ONNX Runtime providers, vLLM and LMDeploy servers, Docker images),
hambonesoftware/FluidRAG (a Python RAG back end and JavaScript front end, no GPU code) and
mpycroft/raytracer (a Rust CPU ray tracer, no GPU code). Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository; none held any), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- opendatalab/MinerU: ONNX Runtime options only the CUDA provider reads ----------------------


def test_cuda_provider_option_dict_is_vendor_path() -> None:
    # mineru/model/table/rec/onnxruntime_provider.py (commit 1cc2320d): the CUDA provider's name
    # is a module constant, and a new option dict tunes cuDNN's convolution search for it.
    source = b"""\
GPU_EP = "CUDAExecutionProvider"
GPU_EP_OPTIONS = {
    "cudnn_conv_algo_search": "EXHAUSTIVE",
}


def gpu_provider():
    return (GPU_EP, dict(GPU_EP_OPTIONS))
"""
    assert _rules("table/providers.py", source) == {
        "onnxruntime.cuda-provider",
        "onnxruntime.cuda-provider-option",
    }
    assert _layers("table/providers.py", source) == {"vendor-path": 2, "portable": 4}


def test_tensorrt_provider_options_are_vendor_path() -> None:
    source = b"""\
def trt_options(cache_dir):
    return {"trt_engine_cache_enable": True, "trt_engine_cache_path": cache_dir}
"""
    assert _rules("infer/options.py", source) == {"onnxruntime.cuda-provider-option"}
    assert _layers("infer/options.py", source) == {"vendor-path": 1, "portable": 1}


def test_cpu_provider_options_and_a_trt_named_variable_stay_portable() -> None:
    source = b"""\
CPU_OPTIONS = {"arena_extend_strategy": "kSameAsRequested"}
trt_model_path = "weights/model.engine"
settings = {"trt_model": trt_model_path}
"""
    assert _rules("table/cpu.py", source) == set()
    assert _layers("table/cpu.py", source) == {"portable": 3}


def test_clean_memory_across_vendors_stays_vendor_path() -> None:
    # mineru/utils/model_utils.py: a memory cleaner with one branch per vendor's torch module
    # (already right before this lane: pinned).
    source = b"""\
import torch


def free_cache(device="cuda"):
    if str(device).startswith("cuda"):
        torch.cuda.empty_cache()
    elif str(device).startswith("mps"):
        torch.mps.empty_cache()
"""
    assert _layers("utils/memory.py", source)["vendor-path"] >= 3


def test_calling_a_memory_helper_with_the_model_device_is_portable() -> None:
    # mineru/backend/pipeline/batch_analyze.py: the helper is called with whatever device the
    # model sits on (already right: pinned).
    source = b"""\
def run_batch(self, pages):
    results = self.model.predict(pages)
    release_memory(self.model.device, threshold_gb=8)
    return results
"""
    assert _rules("pipeline/batch.py", source) == set()
    assert _layers("pipeline/batch.py", source) == {"portable": 4}


# -- AntaresSimulatorTeam/antares-xpansion: "mps" as a linear program's file format ------------


def test_mps_problem_file_extension_is_no_apple_device() -> None:
    # tests/python/test_problem_generator_driver.py: problem files are named with the MPS
    # format's extension beside the lp_namer's outputs; no torch anywhere.
    source = b"""\
def expected_problem_files(tmp_path, lp_dir):
    names = []
    for week in (1, 2):
        name = problem_file_name("problem", 1, week, "mps")
        (tmp_path / name).write_text("")
        names.append(name)
    return names
"""
    assert _rules("tests/test_problem_files.py", source) == set()
    assert _layers("tests/test_problem_files.py", source) == {"portable": 7}


def test_mps_device_beside_an_lp_word_in_torch_code_stays_vendor_path() -> None:
    source = b"""\
import torch

lp_weight = 0.5
model = build_model().to("mps")
"""
    assert _rules("train_lp.py", source) == {"metal.device-string"}
    assert _layers("train_lp.py", source) == {"vendor-path": 1, "portable": 2}


# -- FS-GG/FS.GG.Rendering: F# sources under .fs ------------------------------------------------


def test_fsharp_module_under_fs_is_counted_as_fsharp() -> None:
    # src/Shared/Numeric.fs: an internal module, its doc comment and one inline function.
    source = b"""\
// A clamp shared by linked source files.
module internal Shared.Clamp

/// `value` kept inside [lo, hi].
let inline clampTo lo hi value = min hi (max lo value)
"""
    report = classify("src/Shared/Clamp.fs", source)
    assert report.language == "F#"
    assert _layers("src/Shared/Clamp.fs", source) == {"portable": 2}


def test_fsharp_namespace_with_opens_under_fs_is_fsharp() -> None:
    # src/SkiaViewer/Host/OpenGl.fs: a namespace, opens of .NET namespaces, a GL host (OpenGL
    # through Silk.NET runs on every vendor: portable).
    source = b"""\
namespace Viewer.Host

open System
open Silk.NET.OpenGL

module GlHost =
    let clear (gl: GL) = gl.Clear(ClearBufferMask.ColorBufferBit)
"""
    assert classify("src/Viewer/Host/GlHost.fs", source).language == "F#"
    assert _layers("src/Viewer/Host/GlHost.fs", source) == {"portable": 5}


def test_glsl_fragment_shader_under_fs_stays_glsl() -> None:
    source = b"""\
#version 330 core
out vec4 color;
void main() { color = vec4(1.0, 0.5, 0.0, 1.0); }
"""
    assert classify("shaders/tint.fs", source).language == "GLSL"
    assert _layers("shaders/tint.fs", source) == {"kernel": 3}


def test_fs_file_without_fsharp_or_glsl_signs_stays_uncounted() -> None:
    source = b"""\
: square ( n -- n*n ) dup * ;
5 square .
"""
    assert classify("forth/square.fs", source).language is None


# -- opendatalab/MinerU: LMDeploy's device types checked against a list of vendors ---------------


def test_lmdeploy_device_type_list_is_dispatch_and_the_default_is_vendor_path() -> None:
    # mineru/model/vlm/lmdeploy_server.py: the device type defaults to CUDA (vendor-path) and a
    # given one is checked against the four vendors LMDeploy serves (dispatch: portable).
    source = b"""\
import os

kind = os.getenv("SERVE_DEVICE", "")
if kind == "":
    kind = "cuda"
elif kind not in ["cuda", "ascend", "maca", "camb"]:
    raise ValueError(f"unsupported device type: {kind}")
"""
    assert _rules("vlm/serve.py", source) == {"torch.device-string"}
    assert _layers("vlm/serve.py", source) == {"vendor-path": 1, "portable": 5}
