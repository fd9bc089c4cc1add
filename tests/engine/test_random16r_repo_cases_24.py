"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-r).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 882-888. Four were skipped, none replaced: shimomurakazuya/
ens_cityLBM (882), Zijie-Tian/nano-vllm (883), Hugaqq/Efficient_Diffusion_RL_for_Visual_
Generation (884) and aseniah/ollama_test (885) had no snapshot to fetch. Read were
firiceguo/my-pycuda (image convolution benchmarks in Python with PyCUDA kernels in template
strings), prodmodfour/molecular_dynamics_playtest (a Qt/VTK molecular-dynamics viewer in C++,
no GPU code; its snapshot lacks 21 binary DLL/PDB blobs, checked out file by file without them,
no counted source missing) and zhumingjue138/vllm-omni (vLLM's omni-modal serving plugin:
Python with CUDA, ROCm, XPU and Ascend platform classes, CI pipelines and Dockerfiles). Fifteen
files of each repository (all six of my-pycuda's) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository; none here), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- zhumingjue138/vllm-omni: base images named in a build argument ------------------------------


def test_rocm_base_image_in_a_build_argument_is_vendor_path() -> None:
    # docker/Dockerfile.rocm: the ROCm build of vLLM's server image is the default of a build
    # argument that FROM then reads; the container only runs on AMD GPUs.
    source = b"""\
ARG SERVER_BASE=vllm/vllm-openai-rocm:v0.14.1
FROM ${SERVER_BASE} AS runtime

WORKDIR /srv
RUN apt-get update && apt-get install -y sox
COPY . /srv/plugin
RUN pip install --no-build-isolation /srv/plugin
"""
    assert _rules("docker/Dockerfile.amd", source) == {"image.rocm-base"}
    assert _layers("docker/Dockerfile.amd", source) == {"vendor-path": 1, "portable": 5}


def test_ascend_base_image_in_a_build_argument_is_vendor_path() -> None:
    # docker/Dockerfile.npu: vLLM-Ascend's image from quay.io/ascend, named and tagged through
    # two build arguments.
    source = b"""\
ARG NPU_IMAGE=quay.io/ascend/vllm-ascend
ARG NPU_TAG=v0.13.0rc2
FROM ${NPU_IMAGE}:${NPU_TAG}
WORKDIR /srv
COPY . /srv/plugin
RUN pip install -e /srv/plugin
"""
    assert _rules("docker/Dockerfile.npu", source) == {"image.ascend-base"}
    assert _layers("docker/Dockerfile.npu", source) == {"vendor-path": 1, "portable": 5}


def test_python_base_image_argument_stays_portable() -> None:
    # The same shape on a plain Python base: nothing vendor-specific.
    source = b"""\
ARG BASE=python:3.12-slim
ARG ROCM_NOTES=docs/rocm/
FROM ${BASE}
RUN pip install -e .
"""
    assert _rules("docker/Dockerfile", source) == set()
    assert _layers("docker/Dockerfile", source) == {"portable": 4}


# -- zhumingjue138/vllm-omni: pytest markers that name AMD/ROCm in their descriptions ------------


def test_pytest_marker_descriptions_naming_amd_rocm_stay_portable() -> None:
    # pyproject.toml: marker registrations whose help text says "AMD/ROCm"; the HIP SDK's
    # install folder (C:\Program Files\AMD\ROCm) is what build.hip-offload-arch reads.
    source = b"""\
[tool.pytest.ini_options]
markers = [
    "slow: long-running cases",
    "amd: cases that run on an AMD/ROCm runner (added automatically)",
    "MI250: cases that need an MI250 card (AMD/ROCm)",
]
"""
    assert _rules("pyproject.toml", source) == set()
    assert _layers("pyproject.toml", source) == {"portable": 6}


def test_hip_sdk_install_folder_is_still_vendor_path() -> None:
    # The Windows HIP SDK folder the alternative exists for keeps matching (a batch build).
    source = b"set PATH=%ProgramFiles%\\AMD\\ROCm\\6.1\\bin;%PATH%\r\ncmake -B build\r\n"
    assert _rules("build.bat", source) == {"build.hip-offload-arch"}
    assert _layers("build.bat", source) == {"vendor-path": 1, "portable": 1}


# -- verdicts already right, pinned ---------------------------------------------------------------


def test_nvml_process_memory_query_is_vendor_path() -> None:
    # vllm_omni/worker/gpu_memory_utils.py: per-process GPU memory through NVML and the
    # CUDA_VISIBLE_DEVICES list.
    source = b"""\
import os

from pynvml import nvmlDeviceGetComputeRunningProcesses, nvmlDeviceGetHandleByIndex, nvmlInit


def used_by_me(index: int) -> int:
    nvmlInit()
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    handle = nvmlDeviceGetHandleByIndex(index)
    for proc in nvmlDeviceGetComputeRunningProcesses(handle):
        if proc.pid == os.getpid():
            return proc.usedGpuMemory
    return 0
"""
    layers = _layers("worker/mem_probe.py", source)
    assert "cuda.nvml" in _rules("worker/mem_probe.py", source)
    assert set(layers) == {"vendor-path", "portable"}


def test_flash_attention_two_fallback_import_stays_portable() -> None:
    # vllm_omni/model_executor/models/qwen3_tts/tokenizer_25hz/vq/whisper_encoder.py: the
    # FlashAttention-2 package (built for ROCm too) imported with a fallback when missing.
    source = b"""\
try:
    from flash_attn.flash_attn_interface import flash_attn_varlen_func
except ImportError:
    flash_attn_varlen_func = None


def attend(q, k, v, cu, n):
    if flash_attn_varlen_func is None:
        return None
    return flash_attn_varlen_func(q, k, v, cu, cu, n, n, dropout_p=0.0)
"""
    assert _rules("models/encoder.py", source) == set()
    assert _layers("models/encoder.py", source) == {"portable": 8}


# -- firiceguo/my-pycuda: PyCUDA kernels in %-formatted template strings ------------------------


def test_pycuda_template_kernel_counts_its_body() -> None:
    # naive.py: a __global__ convolution in a triple-quoted template filled with % before
    # SourceModule compiles it; the host launch and copies are vendor-path.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule


def run(n):
    src = \"\"\"
__global__ void blur(float *out, const float *img)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < %(N)s) {
        out[i] = 0.5f * img[i];
    }
}
\"\"\" % {'N': n}
    mod = SourceModule(src)
    fn = mod.get_function("blur")
    out = np.zeros(n, dtype=np.float32)
    img = np.ones(n, dtype=np.float32)
    fn(drv.Out(out), drv.In(img), block=(256, 1, 1), grid=(n // 256 + 1, 1))
    return out
"""
    layers = _layers("naive.py", source)
    assert {"pycuda.source-module"} <= _rules("naive.py", source)
    assert set(layers) == {"kernel", "vendor-path", "portable"}
    # seven lines of CUDA; the string's opening and closing lines may count with them
    assert 7 <= layers["kernel"] <= 9
