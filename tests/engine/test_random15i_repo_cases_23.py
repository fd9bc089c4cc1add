"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-i).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 644-650. Two were skipped, not replaced, for want of a
snapshot: singularity119/Training-Free-Looped-Transformers-Reproduction (645) and
simingh124/Megatron-LM (649). Five were read: gkcng/vertex-deepspeed (Dockerfiles, shell
scripts and notebooks running DeepSpeed on Vertex AI), hicann/ops-blas (Huawei's BLAS for
Ascend NPUs: Ascend C kernels, their host launchers and ACL tests), AntaresSimulatorTeam/
Antares_Simulator (a C++ power-system simulator with a wxWidgets UI; one header of 4 MiB and
more is absent from the snapshot), Kenshy18/Inference_deployment (a Python video
segmentation pipeline with TensorRT engines, CUDA extensions and an NVENC overlay renderer;
one archive absent) and mammothb/IBLBM (a C++ lattice Boltzmann solver). Fifteen files of
each repository (fourteen of vertex-deepspeed, which has no more) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- gkcng/vertex-deepspeed: Vertex AI jobs that ask for an NVIDIA GPU by its enum name ----


def test_vertex_accelerator_enum_in_a_job_spec_is_vendor_path() -> None:
    # examples/deepspeed-chat/Vertex_DeepspeedChat.ipynb: the worker pools of a custom job
    # each ask for one T4; counted portable before.
    source = b"""\
from google.cloud import aiplatform

def worker_pools(image, count):
    return [
        {
            "machine_spec": {
                "machine_type": "n1-standard-8",
                "accelerator_type": "NVIDIA_TESLA_T4",
                "accelerator_count": 1,
            },
            "replica_count": count,
            "container_spec": {"image_uri": image},
        }
    ]
"""
    assert _rules("jobs/pools.py", source) == {"cloud.nvidia-gpu-instance-string"}
    assert _layers("jobs/pools.py", source) == {"vendor-path": 1, "portable": 12}


def test_vertex_accelerator_in_a_gcloud_config_is_vendor_path() -> None:
    # The same job described in the YAML file `gcloud ai custom-jobs create --config` reads.
    source = b"""\
workerPoolSpecs:
  - machineSpec:
      machineType: a2-highgpu-1g
      acceleratorType: NVIDIA_A100_80GB
      acceleratorCount: 1
    replicaCount: 2
"""
    assert _rules("jobs/train.yaml", source) == {"cloud.nvidia-gpu-instance"}
    assert _layers("jobs/train.yaml", source) == {"vendor-path": 2, "portable": 4}


def test_commented_out_accelerator_stays_portable() -> None:
    # examples/ssh-only/Vertex_InterComm.ipynb: the accelerator lines are commented out, the
    # pool runs on CPUs (already right before this lane).
    source = b"""\
pools = [{
    "machine_spec": {
        "machine_type": "n1-standard-4",
        #"accelerator_type": "NVIDIA_TESLA_K80",
    },
    "replica_count": 2,
}]
"""
    assert _rules("jobs/pools.py", source) == set()
    assert _layers("jobs/pools.py", source) == {"portable": 6}


def test_nvidia_smi_slot_count_in_a_hostfile_script_is_vendor_path() -> None:
    # scripts/gen_hostfile.sh: each host's slots come from nvidia-smi (already right).
    source = b"""\
#!/bin/bash
for host in $(cat "$1"); do
    slots=$(ssh -n "$host" 'nvidia-smi -L | wc -l' || echo 0)
    echo "$host slots=$slots" >> hostfile
done
"""
    assert _layers("scripts/hosts.sh", source) == {"vendor-path": 1, "portable": 3}


# -- Kenshy18/Inference_deployment: NVENC through FFmpeg, back-end names ----------------


def test_ffmpeg_nvenc_encoder_string_is_vendor_path() -> None:
    # overlay/src/overlay_renderer/render.py and overlay/native/segmented.py: FFmpeg is told
    # to encode with NVIDIA's NVENC when a GPU is asked for; counted portable before.
    source = b"""\
import subprocess

def encode(frames_dir, out, gpu):
    codec = "h264_nvenc" if gpu else "libx264"
    cmd = ["ffmpeg", "-y", "-i", f"{frames_dir}/%06d.png", "-c:v", codec, out]
    subprocess.run(cmd, check=True)
"""
    assert _rules("render/encode.py", source) == {"cuda.ffmpeg-nvidia-codec"}
    assert _layers("render/encode.py", source) == {"vendor-path": 1, "portable": 4}


def test_backend_names_starting_with_tensorrt_are_no_wheel() -> None:
    # InstanceSegmentation/inference/dinov3_codino/infer.py and registry.py: the project's
    # own back-end names were read as pins of the TensorRT wheel before.
    source = b"""\
import argparse

BACKENDS = ("tensorrt-fast", "tensorrt-backbone", "pytorch")

def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--backend", choices=BACKENDS, default="tensorrt-fast")
    args = p.parse_args()
    shell = args.backend == "tensorrt-fast"
    return args, shell
"""
    assert _rules("infer/cli.py", source) == set()
    assert _layers("infer/cli.py", source) == {"portable": 8}


def test_tensorrt_wheel_pin_still_counts() -> None:
    # InstanceSegmentation/inference/dinov3_cascade/setup_environment.py pins TensorRT's own
    # wheels in an install list (a pin, unlike the names above).
    source = b"""\
REQUIRED = ["torch>=2.6", "tensorrt-cu12==10.13.0", "onnx>=1.17"]
"""
    assert _rules("setup_env.py", source) == {"deps.cuda-wheel-python"}
    assert _layers("setup_env.py", source) == {"vendor-path": 1}


def test_cuda_extension_kernel_and_device_helper_count_in_full() -> None:
    # InstanceSegmentation/inference/dinov3_codino_mh0/optimization/native/preprocess_fused.cu:
    # a __device__ sampler and a __global__ kernel counted whole, the torch launcher apart
    # (already right).
    source = b"""\
#include <torch/extension.h>
#include <cuda_runtime.h>

__device__ __forceinline__ float lerp_px(const unsigned char* p, int i, float t) {
  const float a = float(p[i]);
  const float b = float(p[i + 3]);
  return fmaf(t, b - a, a);
}

__global__ void normalise(const unsigned char* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = (lerp_px(in, i * 3, 0.5f) - 127.5f) / 58.0f;
}

void normalise_out(torch::Tensor in, torch::Tensor out) {
  const int n = int(out.numel());
  normalise<<<(n + 255) / 256, 256>>>(in.data_ptr<unsigned char>(), out.data_ptr<float>(), n);
}
"""
    assert _layers("native/normalise.cu", source)["kernel"] == 10


def test_plain_c_interface_of_a_cuda_library_stays_portable() -> None:
    # overlay/native/src/cuda_overlay.h: the C interface names no CUDA type (already right).
    source = b"""\
#pragma once
#include <cstddef>
struct OverlaySpan { int y; int x0; int x1; };
extern "C" {
void* overlay_create(int device_index, char* error, std::size_t error_size);
int overlay_apply(void* ctx, const OverlaySpan* spans, std::size_t count);
void overlay_destroy(void* ctx);
}
"""
    assert _rules("native/overlay.h", source) == set()
    assert _layers("native/overlay.h", source) == {"portable": 8}


# -- hicann/ops-blas: Ascend C kernel classes, ACL test wrappers ---------------------------


def test_ascend_host_launcher_with_gm_addr_arguments_is_not_kernel() -> None:
    # blas/stbsv/arch35/stbsv_kernel.cpp and blas/asum/arch35/sasum_kernel.cpp: the host
    # launcher after the kernels takes their GM_ADDR arguments; its signature counted as
    # kernel before. (The class's plain fields stay portable, as test_kernels_repo_cases_12
    # decided: an open decision in this lane's report.)
    source = b"""\
#include "kernel_operator.h"
using namespace AscendC;

class BandSolve {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR x, uint32_t n, uint32_t k);
    __aicore__ inline void Process();

private:
    GlobalTensor<float> aGm;
    GlobalTensor<float> xGm;
    uint32_t n;
    uint32_t k;
    int32_t stride;
};

__aicore__ inline void BandSolve::Process()
{
    for (uint32_t i = 0; i < n; ++i) {
        xGm.SetValue(i, xGm.GetValue(i) / aGm.GetValue(i * stride));
    }
}

extern "C" __global__ __aicore__ void band_solve(GM_ADDR a, GM_ADDR x, uint32_t n, uint32_t k)
{
    BandSolve op;
    op.Init(a, x, n, k);
    op.Process();
}

void band_solve_do(GM_ADDR a, GM_ADDR x, uint32_t n, uint32_t k, void* stream)
{
    band_solve<<<1, nullptr, stream>>>(a, x, n, k);
}
"""
    assert _rules("op_kernel/band_solve.cpp", source) == {
        "ascend.aicore-kernel",
        "ascend.kernel-types",
        "ascend.launch",
    }
    assert _layers("op_kernel/band_solve.cpp", source) == {
        "kernel": 16,
        "vendor-path": 1,
        "portable": 12,
    }


def test_acl_test_wrapper_is_vendor_path() -> None:
    # test/scalex/arch35/scalex_npu_wrapper.h: device buffers through the ACL runtime around
    # the library call (already right).
    source = b"""\
#include "acl/acl.h"
#include <vector>

inline int run_on_npu(const std::vector<float>& host, void** dev)
{
    size_t bytes = host.size() * sizeof(float);
    if (aclrtMalloc(dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return -1;
    aclrtMemcpy(*dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    return 0;
}
"""
    assert _rules("test/npu_wrapper.h", source) == {"ascend.runtime"}
    assert set(_layers("test/npu_wrapper.h", source)) == {"vendor-path", "portable"}


def test_tiling_struct_header_stays_portable() -> None:
    # blas/geqrf_batched/arch35/sgeqrf_batched_tiling_data.h: the host fills it, the kernel
    # reads it; nothing in it is Ascend's (already right).
    source = b"""\
#pragma once
#include <cstdint>
#pragma pack(push, 4)
struct QrTiling {
    uint32_t m;
    uint32_t n;
    uint32_t coreNum;
};
#pragma pack(pop)
"""
    assert _rules("op_kernel/qr_tiling.h", source) == set()
    assert _layers("op_kernel/qr_tiling.h", source) == {"portable": 9}
