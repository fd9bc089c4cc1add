"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-f).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 427-433. One was skipped:
springboardmentor150-png/consumer-attention-mapping-system (429) had no snapshot to fetch.
Read were SeekPoint/DeepSpeed (a fork of DeepSpeed: CUDA kernels under csrc/, Triton
kernels, per-vendor accelerator classes), mattmireles/gemma-tuner-multimodal (a Gemma
fine-tuning tool for Apple Silicon with CUDA fallbacks), software-competence-center-hagenberg/
2025-SWQD-LLM-Invariant-classification (Java and OpenAPI specifications, no GPU code),
ParagEkbote/quantized-containerized-models (Cog model containers: predictors on CUDA, cog.yaml
build files), cdgiessen/VulkanRenderer (a C++ Vulkan renderer with GLSL shaders) and
josephbaileyy/MINERvA-OmniFold (physics unfolding scripts and Slurm launchers for GPU nodes).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, files outside the
sample that hold kernel lines counted by hand (up to 5 a repository), and up to three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ParagEkbote/quantized-containerized-models: Cog's build asks for a CUDA version ----------


def test_cog_build_cuda_version_is_vendor_path() -> None:
    # src/models/flux_fast_lora_hotswap/cog.yaml: `gpu: true` and `cuda: "12.1"` under build:
    # make Cog start from NVIDIA's CUDA image of that version.
    source = b"""\
build:
  gpu: true
  cuda: "11.8"
  python_version: "3.10"
  system_packages:
    - "git"
predict: "predict.py:Predictor"
"""
    assert _rules("models/demo/cog.yaml", source) == {"image.cog-cuda"}
    assert _layers("models/demo/cog.yaml", source) == {"vendor-path": 1, "portable": 6}


def test_cog_build_without_cuda_stays_portable() -> None:
    source = b"""\
build:
  gpu: true
  python_version: "3.10"
  cuda_hint: "11.8 or later on the host"
predict: "predict.py:Predictor"
"""
    assert _rules("models/demo/cog.yaml", source) == set()
    assert _layers("models/demo/cog.yaml", source) == {"portable": 5}


def test_dependency_matrix_cuda_selector_stays_portable() -> None:
    # Without a GPU build in the file, a `cuda:` version is a matrix selector, not an image.
    source = b"""\
matrices:
  - matrix:
      cuda: "12.9"
    packages:
      - numpy
"""
    assert _rules("dependencies.yaml", source) == set()


# -- mattmireles/gemma-tuner-multimodal: MPS allocator watermarks set at import ---------------


def test_mps_watermark_environment_is_vendor_path() -> None:
    # gemma_tuner/core/bootstrap.py: on Apple Silicon the import clamps PyTorch's MPS
    # allocator watermarks, reading and writing PYTORCH_MPS_*_WATERMARK_RATIO.
    source = b"""\
import os

def _ratio(name, default):
    return float(os.environ.get(name, default))

def setup():
    hi = _ratio("PYTORCH_MPS_HIGH_WATERMARK_RATIO", 0.8)
    if hi < 0.5:
        os.environ["PYTORCH_MPS_LOW_WATERMARK_RATIO"] = "0.4"
"""
    assert _rules("core/setup_env.py", source) == {"metal.mps-env-python"}
    assert _layers("core/setup_env.py", source) == {"vendor-path": 2, "portable": 5}


def test_mps_variable_named_in_a_tip_stays_portable() -> None:
    source = b"""\
def advise():
    print("Consider PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.8 when memory runs short")
"""
    assert _rules("core/advice.py", source) == set()
    assert _layers("core/advice.py", source) == {"portable": 2}


# -- josephbaileyy/MINERvA-OmniFold: a test reading a launcher's text ------------------------


def test_assert_that_launcher_text_holds_nvidia_smi_stays_portable() -> None:
    # nd-unfolding/tests/test_floor_replicate_launcher.py reads the sbatch script as text and
    # asserts the GPU-identity probe is in it; the test itself runs no tool.
    source = b"""\
from pathlib import Path

SRC = Path("launch_gpu.sh").read_text()

def test_records_gpu_identity():
    assert "nvidia-smi --query-gpu=uuid,name" in SRC
"""
    assert _rules("tests/test_launch.py", source) == set()
    assert _layers("tests/test_launch.py", source) == {"portable": 4}


def test_launcher_running_nvidia_smi_is_vendor_path() -> None:
    # The same probe run from Python stays a tool call.
    source = b"""\
import subprocess

def gpu_identity():
    return subprocess.check_output(["nvidia-smi", "--query-gpu=uuid", "--format=csv"])
"""
    assert _rules("tools/identity.py", source) == {"cuda.tool-call"}
    assert _layers("tools/identity.py", source) == {"vendor-path": 1, "portable": 2}


# -- Verdicts already right, pinned ----------------------------------------------------------


def test_cuda_elementwise_kernel_counts_its_body() -> None:
    # SeekPoint/DeepSpeed csrc/transformer/inference/csrc/pointwise_ops.cu: a templated
    # __global__ kernel is kernel lines from its template line to its brace; the launcher
    # with <<<>>> and cudaStream_t is vendor-path.
    source = b"""\
#include <cuda_fp16.h>

template <typename T>
__global__ void scale_add(T* out, const T* a, const T* b, float g, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a[i] * g + b[i];
    }
}

template <typename T>
void launch_scale_add(T* out, const T* a, const T* b, float g, int n, cudaStream_t s)
{
    scale_add<<<(n + 255) / 256, 256, 0, s>>>(out, a, b, g, n);
}
"""
    layers = _layers("ops/scale_add.cu", source)
    assert layers["kernel"] == 8
    assert "vendor-path" in layers


def test_vulkan_swapchain_host_code_is_vendor_path() -> None:
    # cdgiessen/VulkanRenderer engine/rendering/backend: the renderer talks to Vulkan
    # directly (vkDeviceWaitIdle, VkCommandBuffer).
    source = b"""\
#include <vulkan/vulkan.h>

void wait_idle(VkDevice device) { vkDeviceWaitIdle(device); }

int frames() { return 3; }
"""
    assert _rules("backend/Device.cpp", source) == {"vulkan.host-api"}
    assert "vendor-path" in _layers("backend/Device.cpp", source)
