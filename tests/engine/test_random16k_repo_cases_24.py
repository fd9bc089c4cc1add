"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-k).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 833-839. Three were skipped, having no snapshot to fetch:
varnholt/dynablaster_revenge_sdl (836), c0remusic/shaderlab (838) and chan-na/Shader-Playground
(839). Read were endomorphosis/ipfs_accelerate_py (a Python hardware-abstraction layer for
model inference over CUDA, ROCm, OpenVINO, MPS, Qualcomm and WebGPU, with a TypeScript
WebGPU/WebNN port holding WGSL shaders in files and template strings, and thousands of
generated per-model test files), transformerlab/transformerlab-app (an Electron and Python
app for training and serving models on local and cloud GPUs, whose gallery of example tasks
asks SkyPilot-style for an accelerator by model), MJ-2nd/pyCUDA_learn (Numba CUDA kernels and
cuda-python cuBLAS calls for a seminar) and genji970/mistralai-7B_training_using_DeepSpeed
(a DeepSpeed fine-tuning script with a CUDA container image and cu121 wheels). The
ipfs_accelerate_py snapshot was checked out without its largest blobs (LLVM binaries, shared
libraries, bundle indexes, two images and one test file); those are no source lockin counts
but for the one test file. Fifteen files of each repository (all seven of pyCUDA_learn) were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- transformerlab/transformerlab-app: a task file asking for an NVIDIA GPU by model ---------


def test_task_yaml_accelerators_by_nvidia_model_is_vendor_path() -> None:
    # api/transformerlab/galleries/examples/unsloth-grpo-train/task.yaml: resources ask for
    # "RTX3090:1" in SkyPilot's form; other examples ask for "A100-80GB:1" or "H100:8".
    source = b"""\
name: reward-tuning
resources:
  accelerators: "RTX4090:2"
setup: "uv pip install trl datasets"
run: "python reward/train.py"
envs:
  PYTHONUNBUFFERED: "1"
"""
    path = "gallery/reward-tuning/task.yaml"
    assert _rules(path, source) == {"cloud.nvidia-gpu-instance"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 6}


def test_task_yaml_accelerators_with_memory_suffix_is_vendor_path() -> None:
    # grpo-multi-gpu-train/task.yaml: the model with its memory size before the count.
    source = b"""\
resources:
  accelerators: A100-80GB:4
  disk_size: 500
"""
    path = "gallery/grpo/task.yaml"
    assert _rules(path, source) == {"cloud.nvidia-gpu-instance"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 2}


def test_task_yaml_amd_or_unnamed_accelerators_stay_portable() -> None:
    source = b"""\
resources:
  accelerators: "MI300X:1"
fallback:
  accelerators: 2
  max_accelerators: A100
"""
    path = "gallery/amd/task.yaml"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 5}


# -- verdicts already right, pinned ------------------------------------------------------------


def test_numba_tiled_kernel_counts_its_body_and_not_its_launcher() -> None:
    # MJ-2nd/pyCUDA_learn code_2.py: a shared-memory tiled matmul under @cuda.jit, launched
    # with [blocks, threads] from a host function that moves arrays to the device.
    source = b"""\
import numpy as np
from numba import cuda, float32

TILE = 16

@cuda.jit
def tiled(A, B, C):
    sa = cuda.shared.array((TILE, TILE), float32)
    sb = cuda.shared.array((TILE, TILE), float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    r = cuda.blockIdx.y * TILE + ty
    c = cuda.blockIdx.x * TILE + tx
    acc = 0.0
    for t in range(A.shape[1] // TILE):
        sa[ty, tx] = A[r, t * TILE + tx]
        sb[ty, tx] = B[t * TILE + ty, c]
        cuda.syncthreads()
        for k in range(TILE):
            acc += sa[ty, k] * sb[k, tx]
        cuda.syncthreads()
    C[r, c] = acc

def run(a, b):
    da = cuda.to_device(a)
    db = cuda.to_device(b)
    dc = cuda.device_array((a.shape[0], b.shape[1]), dtype=np.float32)
    grid = (a.shape[0] // TILE, b.shape[1] // TILE)
    tiled[grid, (TILE, TILE)](da, db, dc)
    cuda.synchronize()
    return dc.copy_to_host()
"""
    path = "bench/tiled.py"
    assert _rules(path, source) == {"numba.cuda-jit", "numba.cuda-api"}
    # The launch itself (tiled[grid, block](...)) is left portable, as before this lane.
    assert _layers(path, source) == {"kernel": 17, "vendor-path": 4, "portable": 7}


def test_cuda_python_cublas_sgemm_is_vendor_library() -> None:
    # MJ-2nd/pyCUDA_learn test.py: cuda-python's runtime bindings allocate and copy, its
    # cuBLAS bindings make a handle and run Sgemm.
    source = b"""\
import numpy as np
from cuda.bindings import runtime as rt
from cuda.bindings import cublas

n = 256
x = np.ones((n, n), dtype=np.float32)
dx = rt.cudaMalloc(x.nbytes)[1]
rt.cudaMemcpy(dx, x.ctypes.data, x.nbytes, rt.cudaMemcpyKind.cudaMemcpyHostToDevice)
h = cublas.cublasCreate_v2()[1]
one = np.array([1.0], dtype=np.float32)
cublas.cublasSgemm_v2(h, cublas.CUBLAS_OP_N, cublas.CUBLAS_OP_N, n, n, n,
                      one.ctypes.data, dx, n, dx, n, one.ctypes.data, dx, n)
cublas.cublasDestroy_v2(h)
rt.cudaFree(dx)
"""
    path = "demo/sgemm.py"
    assert _rules(path, source) == {"cuda.python-bindings", "cuda.python-library-bindings"}
    layers = _layers(path, source)
    assert set(layers) == {"vendor-library", "vendor-path", "portable"}


def test_wgsl_in_typescript_template_strings_is_kernel() -> None:
    # endomorphosis/ipfs_accelerate_py ipfs_accelerate_js/src/worker/webgpu/compute/
    # matrix_operations.ts: two WGSL compute shaders held in template literals, handed to
    # createShaderModule by the host code after them.
    source = b"""\
const SCALE_SHADER = `
  @group(0) @binding(0) var<storage, read> src: array<f32>;
  @group(0) @binding(1) var<storage, read_write> dst: array<f32>;
  @group(0) @binding(2) var<uniform> factor: f32;

  @compute @workgroup_size(64)
  fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= arrayLength(&src)) {
      return;
    }
    dst[i] = src[i] * factor;
  }
`;

export function makeScale(device: GPUDevice) {
  const module = device.createShaderModule({ code: SCALE_SHADER });
  return device.createComputePipeline({
    layout: 'auto',
    compute: { module, entryPoint: 'main' },
  });
}
"""
    path = "src/webgpu/scale.ts"
    assert _rules(path, source) == {"wgsl.source-string"}
    layers = _layers(path, source)
    assert 11 <= layers["kernel"] <= 14
    assert set(layers) == {"kernel", "portable"}


def test_device_choices_naming_several_vendors_stay_portable() -> None:
    # endomorphosis/ipfs_accelerate_py test/skillset/test_hf_*.py: the --device option lists
    # every backend the skillsets implement.
    source = b"""\
import argparse

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--device", choices=["cpu", "cuda", "rocm", "mps", "openvino"], default="cpu")
    return p.parse_args()
"""
    path = "test/skillset/test_model.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 5}


def test_cuda_image_and_cuda_wheel_index_in_a_dockerfile() -> None:
    # genji970/mistralai-7B_training_using_DeepSpeed Dockerfile: a CUDA runtime base image
    # and PyTorch from the cu118 wheel index; the rest installs Python and DeepSpeed.
    source = b"""\
FROM nvidia/cuda:12.1.0-cudnn8-runtime-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip git
RUN pip install torch --index-url https://download.pytorch.org/whl/cu121
RUN pip install deepspeed transformers datasets
WORKDIR /work
COPY . .
"""
    path = "Dockerfile"
    assert _rules(path, source) == {"image.nvidia-base", "deps.cuda-wheel"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 4}
