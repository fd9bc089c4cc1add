"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-c).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 15-21. One was skipped: Minhcupy/Laravel_Web (16) had no
snapshot to fetch. Read were tilakpatell/DeepSpeed-MultiModal-Project (a course project
timing FP32, FP16 and adaptive-precision training of a small text-image-graph model under
DeepSpeed: nvidia-smi probes, torch.cuda memory counters, a CUDA_HOME redirect), albinoJimy/
Neural-Hive-Mind (a multi-agent platform of Python services, Helm charts and Terraform, with
one optional CuPy inference wrapper), WeBankFinTech/DataSphereStudio (a Java and Vue data
development studio, no GPU code), zulumonkeymetallic/bob (an LLM agent CLI with a React
planner app, naming NVIDIA's hosted models only as slugs), rogelgarcia/bus_simulator (a
three.js bus simulator whose post-processing shaders live in .glsl files and whose material
patches keep GLSL in JavaScript string arrays) and GemmaAA1/etalia-open (a Django paper
recommender with gensim models and vendored JavaScript, no GPU code). Snapshots missing a few
large blobs were laid out without them; no sampled file was missing. Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts
(all eight of DeepSpeed-MultiModal-Project's) and labelled before any fix, with the files
lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to 10)
checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- tilakpatell/DeepSpeed-MultiModal-Project: the toolkit redirected, GPUs probed ----------


def test_cuda_home_pointed_at_the_runtime_wheel_is_vendor_path() -> None:
    # train.py (file right before, vendor-path; its CUDA_HOME lines were portable before):
    # the script points CUDA_HOME at the nvidia/cuda_runtime wheel and writes a stand-in nvcc
    # into its bin/ so that DeepSpeed's op builder finds a toolkit. Each line naming the
    # variable is NVIDIA toolkit plumbing (torch.nvcc-flags, widened to CUDA_HOME).
    source = b"""\
import os

import deepspeed
import torch

os.environ["CUDA_HOME"] = "/srv/envs/train/lib/python3.10/site-packages/nvidia/cuda_runtime"
stub = os.path.join(os.environ["CUDA_HOME"], "bin", "nvcc")
if not os.path.exists(stub):
    os.makedirs(os.path.dirname(stub), exist_ok=True)
    with open(stub, "w") as fh:
        fh.write("#!/bin/sh\\necho 12.1\\n")


def build(model):
    engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters())
    return engine
"""
    path = "train.py"
    assert _rules(path, source) == {"torch.nvcc-flags"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 10}


def test_a_message_naming_cuda_home_stays_portable() -> None:
    # The widened rule's negative: the variable named inside a sentence, and ROCm's own.
    source = b"""\
import os

if not os.environ.get("ROCM_HOME"):
    print("CUDA_HOME is unset: building the CPU ops only")
"""
    path = "setup_ops.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 3}


def test_nvidia_smi_query_of_the_card_name_is_vendor_path() -> None:
    # run_experiments.py (already right): the experiment driver names each run after the card
    # nvidia-smi reports, then launches the trainer under the deepspeed launcher.
    source = b"""\
import subprocess


def detect_card():
    out = subprocess.run(
        ["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
        stdout=subprocess.PIPE,
        text=True,
    )
    return out.stdout.strip() or "unknown"
"""
    path = "run_experiments.py"
    assert _rules(path, source) == {"cuda.tool-call"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 7}


def test_grouping_results_by_gpu_type_is_portable() -> None:
    # analyze_results.py (already right): pandas tables of throughput by the card's name and
    # the precision mode; naming GPUs as data is no GPU code.
    source = b"""\
import pandas as pd


def speedups(frame: pd.DataFrame) -> pd.DataFrame:
    by_card = frame.groupby(["gpu_type", "precision"])["throughput"].mean()
    table = by_card.unstack("precision")
    table["fp16_gain"] = table["fp16"] / table["fp32"] - 1.0
    return table
"""
    path = "analyze_results.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 6}


# -- albinoJimy/Neural-Hive-Mind: an optional CuPy path, a setting that names CUDA ----------


def test_optional_cupy_inference_wrapper_is_vendor_path() -> None:
    # libraries/python/neural_hive_specialists/gpu_inference.py (already right): a model
    # wrapper that selects a CUDA device through CuPy and moves rows onto it, CPU otherwise.
    source = b"""\
import numpy as np


class AcceleratedModel:
    def __init__(self, model, want_gpu=True):
        self.model = model
        self.xp = None
        if want_gpu:
            try:
                import cupy

                cupy.cuda.Device(0).use()
                self.xp = cupy
            except Exception:
                self.xp = None

    def predict(self, rows):
        if self.xp is None:
            return self.model.predict(rows)
        on_card = self.xp.asarray(rows)
        return np.asarray(self.model.predict(on_card))
"""
    path = "specialists/gpu_inference.py"
    assert _rules(path, source) == {"cupy.api"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 15}


def test_settings_field_describing_a_cuda_choice_is_portable() -> None:
    # libraries/python/neural_hive_specialists/config.py (already right): pydantic settings
    # whose descriptions mention CUDA; the default device is "auto" and nothing is called.
    source = b"""\
from pydantic import BaseSettings, Field


class ScorerSettings(BaseSettings):
    accelerate: bool = Field(default=False, description="use the GPU for scoring (needs CUDA)")
    accelerator: str = Field(default="auto", description="one of auto, cuda or cpu")
    batch_rows: int = Field(default=64)
"""
    path = "specialists/config.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 5}


# -- rogelgarcia/bus_simulator: GLSL files and GLSL chunks built in JavaScript --------------


def test_post_processing_glsl_file_is_kernel_whole() -> None:
    # src/graphics/shaders/postprocessing/*.frag.glsl (sampled, hand = lockin: 18, 10, 35 and
    # 13 lines): a fragment shader of the post-processing chain, every code line GLSL.
    source = b"""\
uniform sampler2D tScene;
uniform float uStrength;
varying vec2 vUv;

// darken towards the rim
void main() {
    vec4 base = texture2D(tScene, vUv);
    float d = distance(vUv, vec2(0.5));
    float k = 1.0 - smoothstep(0.3, 0.8, d) * uStrength;
    gl_FragColor = vec4(base.rgb * k, base.a);
}
"""
    path = "src/graphics/shaders/post/vignette.frag.glsl"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 9}


def test_glsl_chunk_builders_count_only_their_shader_lines() -> None:
    # src/graphics/visuals/shared/noise/NoiseShaderChunks.js (extra kernel file, hand 22,
    # lockin 22): functions returning GLSL helpers as arrays of lines joined with newlines;
    # the JavaScript around them stays portable.
    source = b"""\
// GLSL helpers spliced into materials by name.
function pickName(value, fallback) {
    const s = typeof value === 'string' ? value.trim() : '';
    return s || fallback;
}

export function hashChunk({ name = 'hash21' } = {}) {
    const fn = pickName(name, 'hash21');
    return [
        `float ${fn}(vec2 q){`,
        'vec3 r = fract(vec3(q.xyx) * 0.1031);',
        'r += dot(r, r.yzx + 19.19);',
        'return fract((r.x + r.y) * r.z);',
        '}'
    ].join('\\n');
}

export function noiseChunk({ name = 'vnoise', hash = 'hash21' } = {}) {
    const fn = pickName(name, 'vnoise');
    return [
        `float ${fn}(vec2 q){`,
        'vec2 cell = floor(q);',
        'vec2 t = fract(q);',
        `float a = ${hash}(cell);`,
        `float b = ${hash}(cell + vec2(1.0, 0.0));`,
        'vec2 w = t * t * (3.0 - 2.0 * t);',
        'return mix(a, b, w.x);',
        '}'
    ].join('\\n');
}
"""
    path = "src/visuals/noise/NoiseChunks.js"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 13, "portable": 14}


def test_three_shader_material_from_a_loaded_payload_is_portable() -> None:
    # src/graphics/visuals/vehicles/BusContactShadowRig.js (GPU-looking, right portable):
    # three.js host code building a ShaderMaterial from sources loaded out of .glsl files.
    source = b"""\
import * as THREE from 'three';
import { vignettePayload } from '../shaders/VignetteShader.js';

export function makeVignetteMaterial(strength) {
    const payload = vignettePayload({ uStrength: strength });
    const mat = new THREE.ShaderMaterial({
        uniforms: payload.uniforms,
        vertexShader: payload.vertexSource,
        fragmentShader: payload.fragmentSource,
        transparent: true,
        depthWrite: false
    });
    mat.name = 'vignette';
    return mat;
}
"""
    path = "src/visuals/post/VignettePass.js"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 14}


# -- zulumonkeymetallic/bob and WeBankFinTech/DataSphereStudio: GPU words as data ------------


def test_hosted_model_slugs_naming_nvidia_are_portable() -> None:
    # hermes_cli/models.py and hermes_cli/model_normalize.py (bob, already right): an LLM
    # router's tables of hosted model slugs, some published by NVIDIA.
    source = b"""\
FREE_ROUTES = [
    ("nvidia/nemotron-nano-9b-v2", "free"),
    ("meta-llama/llama-3.3-70b-instruct", ""),
]

VENDOR_OF = {"nemotron": "nvidia", "llama": "meta-llama", "qwen": "qwen"}


def vendor_for(slug: str) -> str:
    for key, vendor in VENDOR_OF.items():
        if key in slug:
            return vendor
    return "unknown"
"""
    path = "hermes_cli/models.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 10}


def test_headless_browser_disabling_the_gpu_is_portable() -> None:
    # OrchestratorServiceImpl.java (DataSphereStudio, GPU-looking, right portable): Chrome's
    # headless options for a page snapshot turn the GPU off; no device code.
    source = b"""\
package org.example.preview;

import org.openqa.selenium.chrome.ChromeOptions;

public class HeadlessBrowser {
    public ChromeOptions options() {
        ChromeOptions options = new ChromeOptions();
        options.addArguments("headless");
        options.addArguments("disable-gpu");
        options.addArguments("no-sandbox");
        return options;
    }
}
"""
    path = "src/main/java/org/example/preview/HeadlessBrowser.java"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 11}
