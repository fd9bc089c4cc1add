"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-i).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 65-72. Two had no snapshot and were skipped: Zahgon/transformers
and eZWALT/MasterThesis-The-Price-of-Attention. The six read were PINTO0309/onnx2tf (an ONNX to
TensorFlow/TFLite converter), DongminL/Molecular_Search (a Spring Boot service),
KIDinfinity/light_render (a three.js lighting demo beside a large React front end),
ciayomin/DeepSpeedExamples (DeepSpeed's training and inference examples),
Autodesk/molecular-simulation-tools (a Node.js workflow server) and
PytorchConnectomics/pytorch_connectomics (EM segmentation on PyTorch, with CuPy kernels).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, and three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- PINTO0309/onnx2tf: an image that hides its GPUs configures no NVIDIA stack ---------------


def test_dockerfile_hiding_every_gpu_stays_portable() -> None:
    # Dockerfile: the converter's image writes CUDA_VISIBLE_DEVICES=-1 into the user's shell
    # profile so TensorFlow runs on the CPU; Python code doing the same was already portable.
    source = b"""\
FROM python:3.11-slim
RUN pip install --no-cache-dir tensorflow onnx
RUN echo 'export CUDA_VISIBLE_DEVICES=-1' >> /home/app/.bashrc \\
    && echo 'export TF_CPP_MIN_LOG_LEVEL=3' >> /home/app/.bashrc
ENV CUDA_VISIBLE_DEVICES -1
"""
    assert _rules("Dockerfile", source) == set()
    assert _layers("Dockerfile", source) == {"portable": 5}


def test_compose_service_hiding_gpus_stays_portable_but_picking_one_is_not() -> None:
    # The same rule read from a compose file: "-1" hides the GPUs, "0" picks the first.
    source = b"""\
services:
  convert:
    environment:
      CUDA_VISIBLE_DEVICES: "-1"
  bench:
    environment:
      CUDA_VISIBLE_DEVICES: "0"
"""
    assert _rules("docker-compose.yml", source) == {"env.cuda-variables"}
    assert _layers("docker-compose.yml", source) == {"vendor-path": 1, "portable": 6}


def test_python_hiding_gpus_before_conversion_stays_portable() -> None:
    # onnx2tf/onnx2tf.py: with no CUDA-only op in the graph, the converter hides the GPUs.
    source = b"""\
import os

def prepare(op_types, gpu_only_ops):
    needs_gpu = any(op in gpu_only_ops for op in op_types)
    if not needs_gpu:
        os.environ['CUDA_VISIBLE_DEVICES'] = '-1'
    return needs_gpu
"""
    assert _layers("convert/prepare.py", source) == {"portable": 6}


# -- checked right before any fix ------------------------------------------------------------


def test_tensor_core_check_by_compute_capability_is_vendor_path() -> None:
    # PytorchConnectomics/pytorch_connectomics connectomics/runtime/dispatch.py: probing for a
    # device is portable, reading NVIDIA's compute capability to find tensor cores is not.
    source = b"""\
import torch

def pick_matmul_precision(wanted_gpus):
    if wanted_gpus <= 0 or not torch.cuda.is_available():
        return
    count = min(wanted_gpus, torch.cuda.device_count())
    for index in range(count):
        major, _ = torch.cuda.get_device_capability(index)
        if major >= 7:
            torch.set_float32_matmul_precision("medium")
            return
"""
    assert _rules("runtime/dispatch.py", source) == {"torch.cuda-call"}
    assert _layers("runtime/dispatch.py", source) == {"vendor-path": 1, "portable": 9}


def test_cupy_raw_module_sweep_is_kernel_code() -> None:
    # PytorchConnectomics/pytorch_connectomics connectomics/decoding/decoders/
    # segmentation_kernels.py: CUDA C sweeps along one axis, compiled by cp.RawModule.
    source = b'''\
import cupy as cp

SOURCE = r"""
extern "C" __global__
void min_sweep(unsigned int* labels, const unsigned char* edges, int n, int* changed) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) return;
    for (int i = 0; i < n - 1; ++i) {
        int at = row * n + i;
        if (edges[at] && labels[at + 1] > labels[at]) { labels[at + 1] = labels[at]; *changed = 1; }
    }
}
"""

def build():
    return cp.RawModule(code=SOURCE).get_function("min_sweep")
'''
    assert _rules("decoders/sweeps.py", source) == {"cupy.raw-kernel", "cupy.api"}
    # The import and the module build are CuPy calls; the literal is the kernel.
    assert _layers("decoders/sweeps.py", source) == {"kernel": 11, "vendor-path": 2, "portable": 1}


def test_nccl_tuning_prefix_on_a_launcher_is_vendor_path() -> None:
    # ciayomin/DeepSpeedExamples training/bing_bert/ds_train_bert_nvidia_data_bsz64k_seq128.sh:
    # NCCL's tree algorithm switched off for one DeepSpeed run.
    source = b"""\
#!/bin/bash
base=$(dirname "$0")
NCCL_TREE_THRESHOLD=0 deepspeed $base/train.py \\
  --cf $base/bert_large.json \\
  --max_seq_length 128
"""
    assert _rules("scripts/train_bert.sh", source) == {"env.cuda-variables"}
    assert _layers("scripts/train_bert.sh", source) == {"vendor-path": 1, "portable": 3}


def test_flag_named_cuda_without_a_cuda_call_stays_portable() -> None:
    # ciayomin/DeepSpeedExamples training/bing_bert/turing/logger.py: a flag named `cuda`
    # that only means "running distributed"; no CUDA API is called.
    source = b"""\
import logging
import torch.distributed as dist

class RankLogger:
    def __init__(self, cuda=False):
        self.cuda = cuda
        self.log = logging.getLogger("train")

    def info(self, message):
        if not self.cuda or dist.get_rank() == 0:
            self.log.info(message)
"""
    assert _layers("turing/logger.py", source) == {"portable": 9}
