"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-f).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 308-314. localai-org/vllm.cpp (308) and
BarsSky/ollamalegion (312) were skipped: no snapshot of either can be had. The other five
were read: opensearch-project/neural-search (OpenSearch's neural search plugin, Java, with
TorchServe handlers for its remote-model tests), sstsimulator/sst-macro (an MPI network
simulator with skeleton apps, among them the CUDA-aware OSU benchmarks),
yigit-uslu/graph-signal-diffusion (PyTorch graph diffusion research code and run scripts),
Crazy-James26/HeteroCL_Transformer (BERT on Xilinx FPGAs through Vitis HLS) and gfx-rs/wgpu
(the Rust WebGPU implementation and its naga shader translator). Fifteen files of each were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- opensearch-project/neural-search: TorchServe handlers ---------------------------------


def test_cuda_device_string_with_index_joined_on_is_vendor_path() -> None:
    # src/test/resources/remote-models/torchserve/handlers/agentic_search_handler.py and
    # semantic_highlighter_handler.py: the handler builds its device from "cuda:" and the
    # GPU id TorchServe hands it, as the plain "cuda" pick does (before: no finding, and
    # both commits adding the handlers passed the gate).
    source = b"""\
import torch

def initialize(self, ctx):
    props = ctx.system_properties
    self.device = torch.device(
        "cuda:" + str(props.get("gpu_id"))
        if torch.cuda.is_available() and props.get("gpu_id") is not None
        else "cpu"
    )
    self.model.to(self.device)
"""
    assert _rules("handlers/reranker_handler.py", source) == {"torch.device-string"}
    assert _layers("handlers/reranker_handler.py", source) == {"vendor-path": 1, "portable": 8}


def test_cuda_device_string_formatted_with_percent_is_vendor_path() -> None:
    # The same device named with %-formatting, as older launch scripts write it.
    source = b"""\
def setup(local_rank):
    dev = torch.device("cuda:%d" % local_rank)
    return dev
"""
    assert _rules("launch.py", source) == {"torch.device-string"}
    assert _layers("launch.py", source) == {"vendor-path": 1, "portable": 2}


def test_cuda_label_printed_before_a_value_is_portable() -> None:
    # A version report printing "cuda:" as a label is no device choice.
    source = b"""\
import torch

def report():
    print("cuda:", torch.version.git_version)
    print("torch:", torch.__version__)
"""
    assert _rules("tools/env_report.py", source) == set()
    assert _layers("tools/env_report.py", source) == {"portable": 4}


def test_embedding_handler_without_device_choice_is_portable() -> None:
    # symmetric_text_embedding_handler.py: a handler that leaves the device to the library.
    source = b"""\
from sentence_transformers import SentenceTransformer

def initialize(self, ctx):
    self.model = SentenceTransformer(ctx.model_dir)

def handle(self, data):
    return self.model.encode([d["text"] for d in data]).tolist()
"""
    assert _rules("handlers/embedding_handler.py", source) == set()


# -- verdicts that were already right ----------------------------------------------------------


def test_cuda_aware_benchmark_kernel_counts_only_the_kernel() -> None:
    # sstsimulator/sst-macro skeletons/osu-micro-benchmarks-5.3.2/mpi/collective/kernel.cu:
    # a saxpy-style __global__ function and the extern "C" launcher around it; the launcher
    # is vendor-path, the kernel body kernel.
    source = b"""\
#include <cuda_runtime.h>

__global__
void busy_axpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int r = 0; r < n / 8; r++) {
            y[i] = a * x[i] + y[i];
        }
    }
}

extern "C"
void launch_busy_axpy(float a, const float *x, float *y, int n, cudaStream_t *s)
{
    busy_axpy<<<(n + 255) / 256, 256, 0, *s>>>(a, x, y, n);
}
"""
    layers = _layers("bench/busy.cu", source)
    assert layers["kernel"] == 10
    assert "vendor-path" in layers


def test_visible_devices_in_a_run_script_is_vendor_path() -> None:
    # yigit-uslu/graph-signal-diffusion scripts/.../cli_train_pooling.sh: one training run
    # pinned to a GPU by CUDA_VISIBLE_DEVICES.
    source = b"""\
#!/bin/bash
set -e
CUDA_VISIBLE_DEVICES=1 python -m trainer.cli \\
    task=forecast model=pooling seed=3
"""
    assert _rules("scripts/train_pooling.sh", source) == {"env.cuda-variables"}


def test_conda_env_without_cuda_package_is_portable() -> None:
    # yigit-uslu/graph-signal-diffusion environment-flexible.yml: pytorch from its channel with
    # no pytorch-cuda pin; the comments speak of CUDA but the install picks the build.
    source = b"""\
name: diffusion
channels:
  - pytorch
  - conda-forge
dependencies:
  # conda picks the CUDA build that fits, or the CPU one
  - pytorch=2.5.1
  - numpy=1.26.4
"""
    assert _layers("environment-flexible.yml", source) == {"portable": 7}


def test_jaxtyping_import_is_not_jax_code() -> None:
    # yigit-uslu/graph-signal-diffusion src/graph_signal_diffusion/cli/train.py: a PyTorch
    # trainer importing jaxtyping for shape annotations picks "cuda" for torch; the finding
    # is torch's device string, not JAX's platform (before: both rules on the line).
    source = b"""\
import jaxtyping
import torch

def main(cfg):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return device
"""
    assert _rules("cli/train.py", source) == {"torch.device-string"}
    assert _layers("cli/train.py", source) == {"vendor-path": 1, "portable": 4}
