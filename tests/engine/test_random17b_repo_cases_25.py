"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h53-random-b).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 980-986 and skipped kxyesyes/molecular_chat_system
(position 984) and arnold-graf/raytracer-go-webgl (position 986): no snapshot could be had
of either. Read were Sakauma/onnx_translator (an ONNX model translator with a C/OpenMP operator
library and CUDA programs that compute reference results), DrRic/PyCUDACA (PyCUDA exercises:
SourceModule and ElementwiseKernel kernels in scripts and notebooks),
maxheil5/QuantizedQuadrotorMPC (quantized Koopman MPC for a quadrotor in MATLAB and ROS 2
Python, no GPU code), zzhuoxin1508/vllm-omni (vLLM's omni-modality serving with CUDA, ROCm,
XPU and NPU CI) and oss-esso/twpa-jax (a JAX solver for travelling-wave parametric
amplifiers with a GPU-session preflight). The QuantizedQuadrotorMPC snapshot lacked some
result files (.mat, .npz, .csv), so it was checked out file by file without them; no counted
source was missing. Fifteen files of each repository (all 13 of PyCUDACA) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Every sampled verdict, kernel count and commit verdict was
already right, so most cases pin them. Read apart, vllm-omni's per-platform pip files
(requirements/rocm.txt, npu.txt) were never counted: a .txt under a requirements/ folder is
now Requirements when a line reads as one, and deps.rocm-wheel reads ONNX Runtime's and
TensorFlow's ROCm builds (onnxruntime-rocm, onnxruntime-migraphx, tensorflow-rocm),
build.ascend-cann ONNX Runtime's CANN build. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

import json

from bot.engine import languages
from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules


def test_one_line_source_module_kernel_counts_one_kernel_line() -> None:
    # DrRic/PyCUDACA PyCUDA009-SourceModule-int.py: the whole __global__ kernel on one line of a
    # SourceModule string, launched through get_function; PyCUDA's host calls are vendor-path.
    source = b"""\
import pycuda.autoinit
from pycuda import gpuarray
from pycuda.compiler import SourceModule
import numpy as np


def build():
    return SourceModule("__global__ void twice(int *d, int *s){d[threadIdx.x] = 2*s[threadIdx.x];}")


mod = build()
twice = mod.get_function("twice")
src = gpuarray.to_gpu(np.arange(64, dtype=np.int32))
dst = gpuarray.empty_like(src)
twice(dst, src, block=(64, 1, 1), grid=(1, 1, 1))
print(dst.get())
"""
    assert _rules("lab/scale_int.py", source) == {
        "pycuda.driver",
        "pycuda.host-api",
        "pycuda.source-module",
    }
    assert _layers("lab/scale_int.py", source) == {"kernel": 1, "vendor-path": 7, "portable": 4}


def test_pycuda_elementwise_kernel_strings_are_kernel_lines() -> None:
    # DrRic/PyCUDACA PyCuda008-passing-correct-types.py: pycuda.elementwise.ElementwiseKernel given
    # its argument list, body and name as three strings, one a line (cupy.raw-kernel covers
    # PyCUDA's builders of the same name).
    source = b"""\
import pycuda.autoinit
from pycuda import gpuarray
from pycuda.elementwise import ElementwiseKernel
import numpy as np

doubler = ElementwiseKernel(
    "int *src, int *dst",
    "dst[i] = src[i] + src[i]",
    "doubler"
)

values = gpuarray.to_gpu(np.arange(8, dtype=np.int32))
result = gpuarray.empty_like(values)
doubler(values, result)
print(result.get())
"""
    assert _rules("lab/double_it.py", source) == {
        "cupy.raw-kernel",
        "pycuda.driver",
        "pycuda.host-api",
    }
    assert _layers("lab/double_it.py", source) == {"kernel": 3, "vendor-path": 5, "portable": 5}


def test_cuda_reference_program_splits_kernel_from_host_main() -> None:
    # Sakauma/onnx_translator cuda/verify_sub.cu: one element-wise kernel above a main that reads
    # inputs, copies them to the device, launches and writes the result; the comment above the
    # kernel and the blank lines are no kernel lines.
    source = b"""\
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

// reference result in float32
__global__ void minus_kernel(const float* x, const float* y, float* z, size_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        z[i] = x[i] - y[i];
    }
}

int main(int argc, char** argv) {
    if (argc != 3) return 1;
    size_t n = atol(argv[1]);
    size_t bytes = n * sizeof(float);
    float *hx = (float*)calloc(n, sizeof(float));
    float *hz = (float*)malloc(bytes);
    float *dx, *dz;
    cudaMalloc(&dx, bytes); cudaMalloc(&dz, bytes);
    cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice);
    minus_kernel<<<(n + 255) / 256, 256>>>(dx, dx, dz, n);
    cudaMemcpy(hz, dz, bytes, cudaMemcpyDeviceToHost);
    FILE *out = fopen(argv[2], "wb"); fwrite(hz, 1, bytes, out); fclose(out);
    free(hx); free(hz); cudaFree(dx); cudaFree(dz);
    return 0;
}
"""
    assert _rules("check/check_sub.cu", source) == {
        "cuda.include",
        "cuda.kernel",
        "cuda.launch",
        "cuda.runtime",
    }
    assert _layers("check/check_sub.cu", source) == {"kernel": 6, "vendor-path": 6, "portable": 12}


def test_device_helpers_above_a_kernel_count_as_kernel_lines() -> None:
    # Sakauma/onnx_translator cuda/verify_quantize_linear.cu: __device__ saturating helpers that the
    # __global__ kernel below calls are kernel lines too; the launcher is vendor-path.
    source = b"""\
#include <cuda_runtime.h>

__device__ double clamp_signed(double v) {
    if (v > 127.0) return 127.0;
    if (v < -128.0) return -128.0;
    return v;
}

__global__ void clip_kernel(const double* x, double* y, size_t n) {
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = clamp_signed(rint(x[i]));
    }
}

int launch(const double* x, double* y, size_t n) {
    clip_kernel<<<(n + 127) / 128, 128>>>(x, y, n);
    return (int)cudaDeviceSynchronize();
}
"""
    assert _rules("check/check_clip.cu", source) == {
        "cuda.device-function",
        "cuda.include",
        "cuda.kernel",
        "cuda.launch",
        "cuda.runtime",
    }
    assert _layers("check/check_clip.cu", source) == {"kernel": 11, "vendor-path": 3, "portable": 2}


def test_mps_device_type_branch_is_vendor_path() -> None:
    # zzhuoxin1508/vllm-omni vllm_omni/diffusion/models/schedulers/
    # scheduling_flow_unipc_multistep.py: a branch taken only on Apple's "mps" device (float32
    # timesteps there) is a vendor code path.
    source = b"""\
import torch


def noisy(samples: torch.Tensor, noise: torch.Tensor, steps: torch.Tensor, table: torch.Tensor):
    if samples.device.type == "mps" and torch.is_floating_point(steps):
        # the Apple backend has no float64: keep the schedule in float32 there
        table = table.to(samples.device, dtype=torch.float32)
        steps = steps.to(samples.device, dtype=torch.float32)
    else:
        table = table.to(samples.device)
        steps = steps.to(samples.device)
    idx = torch.searchsorted(table, steps)
    return samples + noise * idx.to(samples.dtype)
"""
    assert _rules("sched/flow.py", source) == {"metal.device-string"}
    assert _layers("sched/flow.py", source) == {"vendor-path": 1, "portable": 9}


def test_nvidia_smi_memory_query_is_vendor_path_jax_device_flag_is_not() -> None:
    # oss-esso/twpa-jax scripts/chaos/gpu_preflight.py: reads board memory through nvidia-smi's
    # --query-gpu; the --jax-device choice between "cpu" and "gpu" names no vendor.
    source = b"""\
import argparse
import shutil
import subprocess


def board_memory():
    if shutil.which("nvidia-smi") is None:
        return None
    out = subprocess.run(
        ["nvidia-smi", "--query-gpu=memory.total,memory.free", "--format=csv,noheader,nounits"],
        capture_output=True, text=True, check=False,
    ).stdout
    total, free = (int(v) for v in out.split(",")[:2])
    return {"total": total, "free": free}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--jax-device", choices=("cpu", "gpu"), default="cpu")
    args = parser.parse_args()
    print(args.jax_device, board_memory())
"""
    assert _rules("tools/preflight.py", source) == {"cuda.tool-call"}
    assert _layers("tools/preflight.py", source) == {"vendor-path": 2, "portable": 15}


def test_hardware_test_markers_naming_ci_boards_stay_portable() -> None:
    # zzhuoxin1508/vllm-omni tests/e2e/offline_inference/test_sequence_parallel.py and
    # tests/model_executor/models/cosyvoice3/test_cosyvoice3_components.py: the suite's
    # hardware_test marker picks the CI machines (an L4, an MI325) a portable test runs on.
    source = b"""\
import pytest

from tests.utils import hardware_test, run_prompt


@pytest.mark.core_model
@hardware_test(res={"cuda": "L4", "rocm": "MI325"}, num_cards=2)
def test_two_stage_speech(server):
    reply = run_prompt(server, "say hello")
    assert reply.audio_bytes


@hardware_test(res={"cuda": "L4"}, num_cards=1)
def test_single_stage_speech(server):
    assert run_prompt(server, "say bye").text
"""
    assert _rules("tests/e2e/test_speech.py", source) == set()
    assert _layers("tests/e2e/test_speech.py", source) == {"portable": 10}


def test_triton_kernel_built_in_a_lazy_loader_counts_its_body() -> None:
    # zzhuoxin1508/vllm-omni vllm_omni/model_executor/models/qwen3_tts/tokenizer_12hz/
    # modeling_qwen3_tts_tokenizer_v2.py: a @triton.jit kernel defined inside the staticmethod
    # that imports Triton on first use; decorator to last store are kernel lines, the docstring
    # and blank line are not, the loader around it is portable.
    source = b'''\
import torch


class Snake(torch.nn.Module):
    _compiled = None

    @staticmethod
    def _load():
        if Snake._compiled is not None:
            return Snake._compiled is not False
        try:
            import triton
            import triton.language as tl
        except ImportError:
            Snake._compiled = False
            return False

        @triton.jit
        def _snake(x_ptr, a_ptr, out_ptr, stride, n, block: tl.constexpr):
            """x + sin(a x)^2 / a, one channel a program."""
            row = tl.program_id(0)
            offs = tl.program_id(1) * block + tl.arange(0, block)
            mask = offs < n

            x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0)
            a = tl.load(a_ptr + row)
            s = tl.sin(x * a)
            tl.store(out_ptr + row * stride + offs, x + s * s / a, mask=mask)

        Snake._compiled = _snake
        return True

    def forward(self, x):
        return x
'''
    assert _rules("codec/snake.py", source) == {"triton.jit"}
    assert _layers("codec/snake.py", source) == {"kernel": 9, "portable": 17}


def test_openmp_shared_library_makefile_is_portable() -> None:
    # Sakauma/onnx_translator makefile: gcc with -fopenmp building the CPU operator library.
    source = b"""\
CC = gcc
CFLAGS = -O3 -fPIC -Wall -fopenmp
LDFLAGS = -shared -lm
TARGET = ops.so
SRCS = $(wildcard src/*.c)

all: $(TARGET)

$(TARGET): $(SRCS)
\t$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS)

clean:
\trm -f $(TARGET)
"""
    assert _rules("makefile", source) == set()
    assert _layers("makefile", source) == {"portable": 10}


def test_notebook_raw_cell_with_cuda_path_exports_is_not_counted() -> None:
    # DrRic/PyCUDACA PyCUDA004-Kernel.ipynb: a raw cell noting the shell exports that put
    # /usr/local/cuda on PATH is never run; only the code cell is counted.
    notebook = {
        "cells": [
            {
                "cell_type": "raw",
                "metadata": {},
                "source": [
                    "export PATH=/usr/local/cuda/bin:$PATH\n",
                    "export LD_LIBRARY_PATH=/usr/local/cuda/lib64\n",
                ],
            },
            {
                "cell_type": "code",
                "metadata": {},
                "execution_count": 1,
                "outputs": [],
                "source": ["import numpy as np\n", "x = np.ones(4)\n", "print(x * 2)\n"],
            },
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 4,
    }
    source = json.dumps(notebook, indent=1).encode()
    assert _rules("notes/setup.ipynb", source) == set()
    assert _layers("notes/setup.ipynb", source) == {"portable": 3}


# -- zzhuoxin1508/vllm-omni: one pip file a platform under requirements/ --------------------


def test_platform_requirements_file_in_requirements_folder_pins_rocm_build() -> None:
    # zzhuoxin1508/vllm-omni requirements/rocm.txt: no name says requirements, the folder does;
    # it pulls in the shared list and pins ONNX Runtime's ROCm build, which was never read
    # (Plain Text) and, read, named no ROCm wheel.
    source = b"""\
-r base.txt
onnxruntime-rocm>=1.20
"""
    assert languages.may_hold_code("requirements/rocm.txt")
    assert classify("requirements/rocm.txt", source).language == "Requirements"
    assert _rules("requirements/rocm.txt", source) == {"deps.rocm-wheel"}
    assert _layers("requirements/rocm.txt", source) == {"vendor-path": 1, "portable": 1}


def test_platform_requirements_file_pins_cann_build_of_onnxruntime() -> None:
    # zzhuoxin1508/vllm-omni requirements/npu.txt: ONNX Runtime's build with the CANN
    # execution provider, Huawei Ascend only.
    source = b"""\
-r base.txt
onnxruntime-cann>=1.20
soundfile>=0.12
"""
    assert _rules("requirements/npu.txt", source) == {"build.ascend-cann"}
    assert _layers("requirements/npu.txt", source) == {"vendor-path": 1, "portable": 2}


def test_shared_requirements_file_in_requirements_folder_is_portable() -> None:
    # zzhuoxin1508/vllm-omni requirements/common.txt and cuda.txt: plain wheels and the
    # vendor-neutral onnxruntime are counted, portable.
    source = b"""\
-r base.txt
onnxruntime>=1.20
librosa>=0.10
imageio[ffmpeg]>=2.30
pydub
"""
    assert _rules("requirements/common.txt", source) == set()
    assert _layers("requirements/common.txt", source) == {"portable": 5}


def test_prose_txt_in_requirements_folder_stays_text() -> None:
    # The requirements folder fix: a note beside the pip files holds no requirement line.
    source = b"""\
Each file here lists what one platform installs.
Pick one with pip's -r option, after the shared list.
"""
    assert classify("requirements/README.txt", source).language == "Plain Text"
    assert _layers("requirements/README.txt", source) == {}
