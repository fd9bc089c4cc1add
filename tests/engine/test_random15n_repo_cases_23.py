"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-n).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 679-685. Four were skipped: pytorch/audio (681) and
vllm-project/vllm (685) had snapshots over the 500 MiB limit, opensensor/vllm-ascend (683) and
tvy-amd/rocm-libraries (684) had no snapshot to fetch. Read were FPC-effortless/TAC-transformer
(research code for a memory-augmented transformer: PyTorch training and benchmark scripts that
pick a CUDA device, autocast on CUDA, seed and time CUDA, and build Kaggle kernel metadata),
mostlygeek/llama-swap (a Go proxy that swaps llama.cpp servers, with a Svelte UI, GPU
telemetry through nvidia-smi, rocm-smi and Windows D3DKMT, and Docker images building
llama.cpp, whisper.cpp and stable-diffusion.cpp for CUDA or Vulkan) and
Wenfuuu/model-quantization-sentiment-analysis (quantization-aware training and explainability
of an Indonesian BERT: PyTorch, ONNX Runtime on CPU, EDA notebooks; its snapshot lacked one
large CSV, so it was checked out without it, and no counted file was missing). Fifteen files
of each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository; none of the three holds a kernel),
and up to three commits touching GPU code (``random.Random("owner/name:commits")``) judged
against ``lockin diff``. The one miss found was outside the sample: Kaggle's CamelCase NVIDIA
machine shapes ("NvidiaTeslaT4"), now read by cloud.nvidia-gpu-instance(-string). Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- FPC-effortless/TAC-transformer: Kaggle machine shapes, CUDA device choices --------------------


def test_kaggle_kernel_metadata_asking_for_an_nvidia_machine_is_vendor_path() -> None:
    # tac_transformer/research_plan.py: the metadata of a Kaggle kernel it pushes names the
    # machine shape "NvidiaTeslaT4"; the job runs on an NVIDIA T4 and nothing else. Was missed.
    source = b"""\
def kaggle_metadata(owner, slug, seed):
    return {
        "id": f"{owner}/{slug}-{seed}",
        "kernel_type": "script",
        "enable_gpu": "true",
        "enable_tpu": "false",
        "machine_shape": "NvidiaTeslaP100",
    }
"""
    assert _rules("plan/kaggle_meta.py", source) == {"cloud.nvidia-gpu-instance-string"}
    assert _layers("plan/kaggle_meta.py", source) == {"vendor-path": 1, "portable": 7}


def test_kaggle_kernel_metadata_asking_for_a_tpu_stays_portable() -> None:
    source = b"""\
def kaggle_metadata(owner, slug):
    return {
        "id": f"{owner}/{slug}",
        "enable_tpu": "true",
        "machine_shape": "TpuV38",
    }
"""
    assert _rules("plan/kaggle_tpu.py", source) == set()
    assert _layers("plan/kaggle_tpu.py", source) == {"portable": 6}


def test_kaggle_cli_push_with_an_nvidia_accelerator_is_vendor_path() -> None:
    # prd.json records a push with `--accelerator NvidiaTeslaT4`: the same choice from a shell.
    source = b"""\
#!/bin/bash
set -e
kaggle kernels push -p runs/seed-11 --accelerator NvidiaL4
"""
    assert _rules("scripts/push.sh", source) == {"cloud.nvidia-gpu-instance"}
    assert _layers("scripts/push.sh", source) == {"vendor-path": 1, "portable": 1}


def test_device_flag_and_helper_choosing_cuda_are_vendor_path() -> None:
    # kaggle/benchmark_chunked_memory.py: a --device flag offering "cuda" and a helper that
    # returns torch.device("cuda"). Already right; pinned.
    source = b"""\
import argparse
import torch

def pick(requested):
    if requested == "cuda":
        return torch.device("cuda")
    return torch.device("cpu")

parser = argparse.ArgumentParser()
parser.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
"""
    assert _rules("bench/pick_device.py", source) == {"torch.device-string"}
    assert _layers("bench/pick_device.py", source) == {"vendor-path": 3, "portable": 5}


def test_saving_cuda_rng_state_behind_a_probe_is_vendor_path() -> None:
    # experiments/benchmark_kaggle_tac_training_speed_profile.py: saves every CUDA device's
    # RNG state when CUDA is there (torch.cuda.* counts even behind a probe). Already right.
    source = b"""\
import torch

def snapshot_rng():
    cpu = torch.get_rng_state()
    gpu = torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None
    return cpu, gpu
"""
    assert _rules("bench/rng.py", source) == {"torch.cuda-call"}
    assert _layers("bench/rng.py", source) == {"vendor-path": 1, "portable": 4}


# -- Wenfuuu/model-quantization-sentiment-analysis: CUDA timing, ONNX Runtime on CPU ---------------


def test_cuda_event_timing_is_vendor_path() -> None:
    # src/evaluation/batch_eval.py: times inference with CUDA events on a CUDA device.
    # Already right; pinned.
    source = b"""\
import time
import torch

def time_forward(model, x, device):
    use_events = device.type == "cuda"
    if use_events:
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
    t0 = time.perf_counter()
    model(x)
    return time.perf_counter() - t0
"""
    assert _rules("eval/timing.py", source) == {"torch.cuda-call", "torch.device-string"}
    assert _layers("eval/timing.py", source) == {"vendor-path": 3, "portable": 7}


def test_onnx_runtime_session_on_the_cpu_provider_stays_portable() -> None:
    # src/xai/lime_explainer.py: an ONNX Runtime session pinned to CPUExecutionProvider.
    source = b"""\
import onnxruntime as ort

def open_session(path):
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 4
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
"""
    assert _rules("xai/onnx_session.py", source) == set()
    assert _layers("xai/onnx_session.py", source) == {"portable": 5}


# -- mostlygeek/llama-swap: GPU telemetry and llama.cpp builds -----------------------------------


def test_windows_d3dkmt_adapter_queries_stay_portable() -> None:
    # internal/perf/d3dkmt_windows.go: GPU statistics through gdi32's D3DKMT calls, which
    # answer for any vendor's adapter on Windows. Already right; pinned.
    source = b"""\
//go:build windows

package perf

import "golang.org/x/sys/windows"

var (
	gdi  = windows.NewLazySystemDLL("gdi32.dll")
	enum = gdi.NewProc("D3DKMTEnumAdapters2")
	stat = gdi.NewProc("D3DKMTQueryStatistics")
)

func adapterCount() (uint32, error) {
	var n uint32
	ret, _, _ := enum.Call(0)
	if ret != 0 {
		return 0, windows.Errno(ret)
	}
	return n, nil
}
"""
    assert _rules("perf/adapters_windows.go", source) == set()
    assert _layers("perf/adapters_windows.go", source) == {"portable": 15}


def test_pci_vendor_id_table_stays_portable() -> None:
    # internal/hw/detect_linux.go: names a board's vendor from its PCI id, every vendor alike.
    source = b"""\
package hw

func vendorName(id string) string {
	switch id {
	case "0x10de":
		return "NVIDIA"
	case "0x1002":
		return "AMD"
	case "0x8086":
		return "Intel"
	}
	return ""
}
"""
    assert _rules("hw/pci.go", source) == set()
    assert _layers("hw/pci.go", source) == {"portable": 12}


def test_go_exec_of_nvidia_smi_is_vendor_path() -> None:
    # internal/hw/nvidia.go: looks nvidia-smi up and runs it for the boards' names and memory.
    source = b"""\
package hw

import (
	"context"
	"os/exec"
)

func queryBoards(ctx context.Context) ([]byte, error) {
	if _, err := exec.LookPath("nvidia-smi"); err != nil {
		return nil, err
	}
	args := []string{"--query-gpu=name,memory.total", "--format=csv"}
	return exec.CommandContext(ctx, "nvidia-smi", args...).Output()
}
"""
    # The argument list counts too: --query-gpu= is nvidia-smi's option alone (lane
    # h54-random-i).
    assert _rules("hw/smi.go", source) == {"cuda.tool-call"}
    assert _layers("hw/smi.go", source) == {"vendor-path": 3, "portable": 9}


def test_install_script_switching_cmake_to_cuda_is_vendor_path() -> None:
    # docker/unified/install-whisper.sh: CUDA or Vulkan chosen by a BACKEND variable; only the
    # CUDA flag is a vendor's.
    source = b"""\
#!/bin/bash
set -e
FLAGS=(-DCMAKE_BUILD_TYPE=Release)
if [ "$BACKEND" = "cuda" ]; then
    FLAGS+=(-DGGML_CUDA=ON)
else
    FLAGS+=(-DGGML_VULKAN=ON)
fi
cmake -B build "${FLAGS[@]}"
"""
    assert _rules("docker/install-whisper.sh", source) == {"build.nvcc"}
    assert _layers("docker/install-whisper.sh", source) == {"vendor-path": 1, "portable": 7}


def test_proxy_config_pinning_a_model_to_a_cuda_device_is_vendor_path() -> None:
    # config.example.yaml: a model's server started with CUDA_VISIBLE_DEVICES set.
    source = b"""\
models:
  coder:
    cmd: llama-server --port 9001 -m coder.gguf
    env:
      - "CUDA_VISIBLE_DEVICES=1"
"""
    assert _rules("models.yaml", source) == {"env.cuda-variables"}
    assert _layers("models.yaml", source) == {"vendor-path": 1, "portable": 4}


def test_base_image_tag_ending_in_cuda_is_vendor_path() -> None:
    # docker/llama-swap.Containerfile: builds on llama.cpp's server image, its CUDA tag kept in
    # an ARG for FROM ${BASE_IMAGE}:${BASE_TAG}. Was missed: the tag names no CUDA version.
    source = b"""\
ARG BASE_IMAGE=ghcr.io/ggml-org/llama.cpp
ARG BASE_TAG=server-cuda
FROM ${BASE_IMAGE}:${BASE_TAG}
ARG PROXY_VERSION=170
COPY --chown=app:app proxy /app/proxy
"""
    assert _rules("docker/proxy.Containerfile", source) == {"image.nvidia-base"}
    assert _layers("docker/proxy.Containerfile", source) == {"vendor-path": 1, "portable": 4}


def test_base_image_tag_for_vulkan_stays_portable() -> None:
    source = b"""\
ARG BASE_IMAGE=ghcr.io/ggml-org/llama.cpp
ARG BASE_TAG=server-vulkan
FROM ${BASE_IMAGE}:${BASE_TAG}
COPY proxy /app/proxy
"""
    assert _rules("docker/proxy.Containerfile", source) == set()
    assert _layers("docker/proxy.Containerfile", source) == {"portable": 4}


def test_compose_service_on_a_cuda_tagged_server_image_is_vendor_path() -> None:
    # The same image named whole, as a compose file running the proxy's back end would.
    source = b"""\
services:
  llm:
    image: ghcr.io/ggml-org/llama.cpp:server-cuda
    command: ["-m", "/models/coder.gguf", "--port", "9001"]
"""
    assert _rules("compose.yaml", source) == {"image.nvidia-base"}
    assert _layers("compose.yaml", source) == {"vendor-path": 1, "portable": 3}
