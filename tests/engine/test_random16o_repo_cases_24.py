"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-o).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 861-867. One was skipped: randyspauldingamd/rocm-libraries
(864) has a snapshot of 1.2 GB, over the 500 MiB limit. Read were jasl/vllm-ds4-sm120-harness
(a benchmark harness for vLLM on NVIDIA SM120 GPUs: shell launchers with CUDA variables and
nvidia-smi probes, Python report tooling, recorded model outputs), Layr-Labs/d-inference
(inference on Apple Silicon: a Go coordinator, a Rust provider running vllm-mlx, a Swift app,
a Next.js console), yaetoti/Raytracer (a Direct3D 11 renderer: C++ host code and HLSL
shaders), yiqiao-yin/deepspeed-course (DeepSpeed training examples with SLURM scripts),
ntaylorwss/megatron (a Keras pipeline library) and jsturges28/diffusion-LLM (a LLaDA
diffusion-LM demo with a web UI). Snapshots missing large blobs (the harness's two largest
JSON baselines, d-inference's built coordinator binary, the renderer's models and textures)
were checked out file by file without them; no counted source file was missing. Fifteen files
of each repository (all eight of diffusion-LLM's) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- jasl/vllm-ds4-sm120-harness: a report test is no CUDA wheel pin -------------------------


def test_assertion_that_a_report_names_the_cuda_build_is_portable() -> None:
    # tests/test_baseline_report.py: the provenance section of a generated report must print
    # the torch build it was measured on; the test reads text, it installs nothing.
    source = b"""\
def test_provenance_lists_versions(tmp_path):
    report = render_report(load_bundle(tmp_path))
    assert "## Provenance" in report
    assert "2.9.0+cu128" in report
    assert "12.8.61" in report
"""
    assert _rules("tests/test_report.py", source) == set()
    assert _layers("tests/test_report.py", source) == {"portable": 5}


def test_assertion_on_the_installed_torch_version_still_pins_the_cuda_build() -> None:
    # The same literal checked against torch's own version demands the CUDA wheel.
    source = b"""\
import torch

def test_runs_on_the_cuda_build():
    assert "2.9.0+cu128" in torch.__version__
"""
    assert _rules("tests/test_env.py", source) == {"deps.cuda-wheel-python"}
    assert _layers("tests/test_env.py", source) == {"vendor-path": 1, "portable": 2}


def test_environment_summary_reading_cuda_visible_devices_is_vendor_path() -> None:
    # tests/test_run_environment.py (already right): the summary is asked for the GPUs that
    # CUDA_VISIBLE_DEVICES leaves visible, NVIDIA's device mask.
    source = b"""\
def test_summary_counts_visible_gpus():
    env = {"CUDA_VISIBLE_DEVICES": "0,1", "RUN_LABEL": "smoke"}
    summary = summarize(env=env, smi_csv="0, Board, 1024\\n1, Board, 1024\\n")
    assert summary["gpu"]["count"] == 2
"""
    assert _rules("tests/test_env_summary.py", source) == {"env.cuda-variables-python"}
    assert _layers("tests/test_env_summary.py", source) == {"vendor-path": 1, "portable": 3}


# -- yaetoti/Raytracer: HLSL shaders are kernel code, Direct3D 11 host code is not -----------


def test_hlsl_vertex_shader_file_is_all_kernel_code() -> None:
    # Assets/Shaders/Depth2D.hlsl (already right): a depth-only vertex shader.
    source = b"""\
#include "common.hlsli"

struct VertexIn {
  float3 pos : POSITION;
  float4x4 world : WORLD;  // per instance
};

float4 main(VertexIn v) : SV_POSITION {
  return mul(g_viewProj, mul(v.world, float4(v.pos, 1.0)));
}
"""
    assert _rules("shaders/depth.hlsl", source) == {"hlsl.shader-file"}
    assert _layers("shaders/depth.hlsl", source) == {"kernel": 8}


def test_direct3d11_device_creation_is_portable() -> None:
    # src/Engine/Flame/graphics/DxContext.cpp (already right): DXGI and D3D11 set-up is the
    # Windows graphics API, not a GPU vendor's.
    source = b"""\
#include <d3d11.h>
#include <dxgi.h>

void Context::Init() {
  CreateDXGIFactory(IID_PPV_ARGS(factory.GetAddressOf()));
  factory->EnumAdapters(0, adapter.GetAddressOf());
  D3D11CreateDevice(adapter.Get(), D3D_DRIVER_TYPE_UNKNOWN, nullptr, 0, nullptr, 0,
                    D3D11_SDK_VERSION, device.GetAddressOf(), nullptr, context.GetAddressOf());
}
"""
    assert _rules("src/graphics/Context.cpp", source) == set()
    assert _layers("src/graphics/Context.cpp", source) == {"portable": 8}


# -- yiqiao-yin/deepspeed-course and Layr-Labs/d-inference: launch scripts -------------------


def test_slurm_job_pinning_cuda_devices_and_probing_nvidia_smi_is_vendor_path() -> None:
    # 05_huggingface_ocr/submit_job.sh (already right): a SLURM job that masks devices with
    # CUDA_VISIBLE_DEVICES, prints nvidia-smi and installs torch from the cu118 index.
    source = b"""\
#!/bin/bash
#SBATCH --gres=gpu:2
export CUDA_VISIBLE_DEVICES=0,1
nvidia-smi
uv add torch --index-url https://download.pytorch.org/whl/cu118
uv run deepspeed --num_gpus=2 train.py
"""
    assert _layers("jobs/submit.sh", source) == {"vendor-path": 3, "portable": 1}


def test_bundle_script_installing_mlx_is_portable() -> None:
    # scripts/build-bundle.sh (already right): MLX and vllm-mlx wheels go into the app's
    # bundled Python; MLX has a CUDA back end beside Metal, so naming it picks no vendor.
    source = b"""\
#!/bin/bash
set -euo pipefail
"$PY" -m pip install --quiet 'mlx-lm>=0.30' 'git+https://example.org/forks/vllm-mlx.git@main'
for pkg in mlx mlx_lm vllm_mlx; do
  test -d "$SITE/$pkg" || { echo "missing $pkg"; exit 1; }
done
"""
    assert _rules("scripts/bundle.sh", source) == set()
    assert _layers("scripts/bundle.sh", source) == {"portable": 5}


# -- jsturges28/diffusion-LLM: a frozen environment's NVIDIA wheels --------------------------


def test_frozen_requirements_with_nvidia_cu12_wheels_are_vendor_path() -> None:
    # requirements.txt (already right): pip freeze of a CUDA torch install.
    source = b"""\
numpy==2.3.3
nvidia-cublas-cu12==12.8.4.1
nvidia-cudnn-cu12==9.10.2.21
torch==2.8.0
"""
    assert _rules("requirements.txt", source) == {"deps.cuda-wheel"}
    assert _layers("requirements.txt", source) == {"vendor-path": 2, "portable": 2}
