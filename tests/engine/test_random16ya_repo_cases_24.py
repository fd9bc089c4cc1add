"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-ya).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 945-951. Skipped were leeyuntung/Deepspeed-website and
mburger89/MetalUI (no snapshot to be had), learning2hash/learning2hash.github.io (snapshot of
639 MB, over the 500 MB limit) and manojitrtc1in/LCT-LLM (a README and a licence only: no file
lockin counts). Read were Laris-edu/LBM (a NumPy/Numba lattice Boltzmann acoustics solver with
verification scripts and YAML configs, no GPU code), garrett4wade/DeepSpeedExamples (a fork of
DeepSpeed's examples: training and inference scripts, CUDA_VISIBLE_DEVICES and NCCL settings,
torch.cuda calls, pynvml, apex; its snapshot lacked the PNG/JPG/MP4 assets, so it was checked
out without them, and no counted file was missing) and tensorflow/swift-models (Swift for
TensorFlow models, backend-neutral devices, a Dockerfile on an nvidia/cuda base). Fifteen
files of each repository were sampled with ``random.Random("owner/name")`` over every file
lockin counts and labelled, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (none at HEAD in these repositories), and up to three
commits touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin
diff``. The audit found no wrong verdict, so these cases pin verdicts that were right; the
last one pins the kernel count of a fused-softmax header that a sampled commit added. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules


def test_nccl_variables_prefixing_a_launcher_are_vendor_path() -> None:
    # training/bing_bert/1-bit_lamb/nccl/ds_train_bert_onebitlamb_bsz64k_seq128_nccl.sh: the
    # launcher line sets NCCL transport variables before running deepspeed; only that line is
    # tied to NVIDIA's collective library, its continuation lines stay portable.
    source = b"""\
#!/bin/bash
root=$(dirname "$0")
# turn off infiniband when the cluster has none
NCCL_IB_DISABLE=1 NCCL_SOCKET_IFNAME=eth0 deepspeed ${root}/train.py \\
    --config ${root}/onebit.json \\
    --steps 1000
"""
    assert _rules("runs/train_onebit_nccl.sh", source) == {"env.cuda-variables"}
    assert _layers("runs/train_onebit_nccl.sh", source) == {"vendor-path": 1, "portable": 3}


def test_timer_events_per_backend_are_vendor_path() -> None:
    # benchmarks/communication/all_gather.py: timing events come from torch.xpu on Intel and from
    # torch.cuda otherwise; both branches are vendor code paths, the CPU branch is not.
    source = b"""\
import torch


def make_timers(kind):
    if kind == "xpu":
        begin = torch.xpu.Event(enable_timing=True)
        finish = torch.xpu.Event(enable_timing=True)
    elif kind == "cpu":
        begin = finish = None
    else:
        begin = torch.cuda.Event(enable_timing=True)
        finish = torch.cuda.Event(enable_timing=True)
    return begin, finish
"""
    assert _rules("bench/gather.py", source) == {
        "torch.cuda-call",
        "xpu.device-string",
        "xpu.torch",
    }
    assert _layers("bench/gather.py", source) == {"vendor-path": 5, "portable": 6}


def test_swift_tensors_on_a_default_device_are_portable() -> None:
    # tensorflow/swift-models Examples/Fractals/MandelbrotSet.swift: tensors are placed with
    # `on: device` and the device is Device.default or the XLA backend, which runs on any
    # accelerator; no vendor is named.
    source = b"""\
import TensorFlow

func escapeCounts(limit: Int, width: Int, device: Device) -> Tensor<Float> {
  let xs = Tensor<Float>(linearSpaceFrom: -2, to: 1, count: width, on: device)
  var counts = Tensor<Float>(repeating: Float(limit), shape: xs.shape, on: device)
  counts = counts - 1
  return counts
}

let result = escapeCounts(limit: 100, width: 64, device: Device.defaultXLA)
print(result.shape)
"""
    assert _rules("Fractals/Escape.swift", source) == set()
    assert _layers("Fractals/Escape.swift", source) == {"portable": 9}


def test_swift_toolchain_image_on_nvidia_cuda_base_is_vendor_path() -> None:
    # tensorflow/swift-models docker/Dockerfile: a Swift for TensorFlow toolchain installed on an
    # nvidia/cuda base image; only the FROM line is vendor-specific.
    source = b"""\
FROM nvidia/cuda:10.2-cudnn7-devel-ubuntu18.04
ARG toolchain=https://example.org/swift-tf/latest/toolchain-ubuntu18.04.tar.gz
RUN apt-get update && apt-get install -y curl git python3
RUN curl -fsSL $toolchain | tar -xz -C /opt
WORKDIR /models
"""
    assert _rules("docker/Dockerfile", source) == {"image.nvidia-base"}
    assert _layers("docker/Dockerfile", source) == {"vendor-path": 1, "portable": 4}


def test_deepspeed_launch_with_gpu_count_and_triton_flag_is_portable() -> None:
    # benchmarks/inference/run_triton_benchmark.sh: `deepspeed --num_gpus 1 ... --triton` picks
    # a GPU count and DeepSpeed's Triton kernels, neither of which names a vendor.
    source = b"""\
#!/bin/bash
stamp=$(date +%F)
for m in bert-base bert-large; do
    mkdir -p logs/$stamp
    deepspeed --num_gpus 1 bench.py --model $m --dtype fp16 --triton &> logs/$stamp/$m.log
done
"""
    assert _rules("bench/run_all.sh", source) == set()
    assert _layers("bench/run_all.sh", source) == {"portable": 5}


def test_nvml_utilization_query_is_vendor_path() -> None:
    # applications/DeepSpeed-Chat/training/step3_rlhf_finetuning/slurm_main.py: pynvml reads
    # each NVIDIA GPU's utilization to choose where to run; NVML exists only on NVIDIA.
    source = b"""\
import pynvml


def busiest(count):
    pynvml.nvmlInit()
    loads = []
    for idx in range(count):
        h = pynvml.nvmlDeviceGetHandleByIndex(idx)
        loads.append(pynvml.nvmlDeviceGetUtilizationRates(h).gpu)
    pynvml.nvmlShutdown()
    return max(range(count), key=loads.__getitem__)
"""
    assert _rules("launch/pick_node.py", source) == {"cuda.nvml"}
    assert _layers("launch/pick_node.py", source) == {"vendor-path": 5, "portable": 4}


def test_numpy_lattice_boltzmann_relaxation_is_portable() -> None:
    # Laris-edu/LBM core/collision_bgk.py: the BGK collision step of a lattice Boltzmann solver in
    # plain NumPy; the repository has no device code at all.
    source = b"""\
import numpy as np


def relax(f, feq, tau):
    \"\"\"BGK relaxation of every population towards equilibrium.\"\"\"
    omega = 1.0 / tau
    out = f - omega * (f - feq)
    out[:, 0, :] = out[:, 1, :]
    return np.ascontiguousarray(out)
"""
    assert _rules("lbm/relax.py", source) == set()
    assert _layers("lbm/relax.py", source) == {"portable": 6}


def test_warp_softmax_header_counts_functors_helpers_and_kernel() -> None:
    # Megatron-LM-v1.1.5-3D_parallelism/megatron/fused_kernels/scaled_masked_softmax.h (added by
    # commit 1bee84f, gone at HEAD): a __device__ functor, a templated warp-shuffle helper and a
    # templated __global__ softmax are kernel code (each template line with its function; the
    # functor's struct lines stay outside), the <<<>>> launcher and the cudaStream_t signature
    # are vendor-path, the include of cuda_fp16.h is vendor-path.
    source = b"""\
#pragma once
#include <cuda_fp16.h>
#include <c10/macros/Macros.h>

namespace {

template <typename T>
struct Sum {
  __device__ __forceinline__ T operator()(T a, T b) const { return a + b; }
};

template <typename T>
__device__ __forceinline__ T shuffle_xor(T v, int lane, int width = warpSize) {
    return __shfl_xor_sync(0xffffffff, v, lane, width);
}

template <typename T, int WIDTH>
__global__ void row_softmax(T *out, const T *in, int cols, float scale) {
    int row = blockIdx.x;
    int lane = threadIdx.x;
    float best = -1e30f;
    for (int c = lane; c < cols; c += WIDTH) {
        best = fmaxf(best, (float)in[row * cols + c] * scale);
    }
    for (int off = WIDTH / 2; off > 0; off /= 2) {
        best = fmaxf(best, shuffle_xor(best, off, WIDTH));
    }
    float total = 0.f;
    for (int c = lane; c < cols; c += WIDTH) {
        total += __expf((float)in[row * cols + c] * scale - best);
    }
    for (int off = WIDTH / 2; off > 0; off /= 2) {
        total = Sum<float>()(total, shuffle_xor(total, off, WIDTH));
    }
    for (int c = lane; c < cols; c += WIDTH) {
        out[row * cols + c] = (T)(__expf((float)in[row * cols + c] * scale - best) / total);
    }
}

}  // namespace

template <typename T>
void launch_row_softmax(T *out, const T *in, int rows, int cols, float scale, cudaStream_t s) {
    row_softmax<T, 32><<<rows, 32, 0, s>>>(out, in, cols, scale);
}
"""
    assert _rules("fused/softmax_rows.h", source) == {
        "cuda.device-function",
        "cuda.include",
        "cuda.kernel",
        "cuda.launch",
        "cuda.runtime",
    }
    assert _layers("fused/softmax_rows.h", source) == {
        "kernel": 27,
        "vendor-path": 4,
        "portable": 8,
    }
