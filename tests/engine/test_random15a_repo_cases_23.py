"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-a).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 588-594 and skipped none. Read were Baseng0815/VoxelGame (a
C++ OpenGL voxel game with GLSL .vert/.frag shaders; its snapshot lacked the PNG and BMP
textures, so it was checked out file by file without them, and no counted file was missing),
pytorch/data (torchdata: stateful data loaders and nodes, pin-memory on CUDA or XPU),
kojimano/Megatron-DeepSpeed-ABCI (Megatron-DeepSpeed with ABCI job scripts loading CUDA
modules, fused CUDA softmax and layer-norm kernels), tugapse/shader-playground (a TypeScript
WebGL engine with GLSL shader assets), jaxstro/jaxstro (JAX astronomy numerics, no GPU code),
FluidInference/fluidaudio-web (speech models on raw WebGPU: WGSL kernels held in JavaScript
template strings, a Rust wasm-SIMD decoder) and MapleSilicon/SparseFlow (2:4 sparse GEMM
experiments: CUDA, WMMA and CUTLASS kernels, cuSPARSELt and cuBLAS calls, PyTorch benchmarks,
MLIR passes over the gpu dialect). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. The audit found no
wrong verdict, so these cases pin verdicts that were right. Each snippet is a small rewrite,
in our own words, of a pattern found in the repository its test names; the expected layers are
what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- kojimano/Megatron-DeepSpeed-ABCI: job scripts and Python around the fused kernels ----------


def test_nvidia_smi_query_picking_a_free_gpu_is_vendor_path() -> None:
    # examples/data_efficiency/gpt/eval/ds_evalharness_parallel_run_10shot.sh: counts GPUs and
    # reads each one's free memory with nvidia-smi before placing a job on it.
    source = b"""\
#!/bin/bash
ngpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
slot=0
for task in a b c; do
    free=$(nvidia-smi --query-gpu=memory.free --format=csv -i $slot | grep -Eo [0-9]+)
    echo "$task on $slot with $free MiB"
    slot=$(((slot+1)%ngpu))
done
"""
    assert _rules("eval/run_tasks.sh", source) == {"build.nvcc"}
    assert _layers("eval/run_tasks.sh", source) == {"vendor-path": 2, "portable": 5}


def test_job_script_loading_cuda_modules_is_vendor_path() -> None:
    # abci/jobs/submit_pretrain_gpt_13b_32gpu_debug_abci.sh: a batch job that loads the CUDA,
    # cuDNN and NCCL environment modules before starting training.
    source = b"""\
#!/bin/bash
#$ -l rt_F=8
#$ -cwd
source /etc/profile.d/modules.sh
module load python/3.10 cuda/11.8/11.8.0 cudnn/8.6/8.6.0 nccl/2.16/2.16.2-1
source venv/bin/activate
sh scripts/train.sh
"""
    assert _rules("jobs/submit_train.sh", source) == {"build.nvcc"}
    assert _layers("jobs/submit_train.sh", source) == {"vendor-path": 1, "portable": 3}


def test_faiss_gpu_index_clone_stays_portable() -> None:
    # megatron/data/realm_index.py: an optional faiss GPU copy of the inner-product index;
    # faiss's GPU indexes build for ROCm as well as CUDA (see the raft.call rule's advice).
    source = b"""\
import faiss

def build_index(dim, on_gpu=False):
    flat = faiss.IndexFlatIP(dim)
    if on_gpu:
        opts = faiss.GpuMultipleClonerOptions()
        opts.shard = True
        flat = faiss.index_cpu_to_all_gpus(flat, co=opts)
    return faiss.IndexIDMap(flat)
"""
    assert _rules("data/mips_index.py", source) == set()
    assert _layers("data/mips_index.py", source) == {"portable": 8}


def test_accelerator_abstraction_device_stays_portable() -> None:
    # megatron/model/distributed.py: buffers placed on DeepSpeed's get_accelerator() device.
    source = b"""\
import torch
from deepspeed.accelerator import get_accelerator

def grad_buffer(numel, dtype):
    return torch.zeros(numel, dtype=dtype,
                       device=get_accelerator().current_device_name(),
                       requires_grad=False)
"""
    assert _rules("model/buffers.py", source) == set()
    assert _layers("model/buffers.py", source) == {"portable": 6}


def test_nccl_default_backend_argument_is_vendor_path() -> None:
    # megatron/mpu/tests/commons.py: the test helper's process group defaults to NCCL.
    source = b"""\
import torch

def init_group(backend='nccl'):
    rank = int(torch.distributed.get_rank() if torch.distributed.is_initialized() else 0)
    return rank
"""
    assert _rules("tests/helpers.py", source) == {"torch.device-string"}
    assert _layers("tests/helpers.py", source) == {"vendor-path": 1, "portable": 3}


# -- FluidInference/fluidaudio-web: WGSL in template strings, WebGPU host code -------------------


def test_wgsl_in_template_string_counts_the_shader_lines() -> None:
    # src/gpu/kernels/normalization.js: each kernel is an exported template string of WGSL.
    source = b"""\
export const SCALE_WGSL = `
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;
@group(0) @binding(2) var<uniform> k: f32;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x;
  if (i < arrayLength(&src)) { dst[i] = src[i] * k; }
}
`;
export const SCALE_ENTRY = "main";
"""
    assert _rules("src/gpu/kernels/scale.js", source) == {"wgsl.source-string"}
    assert _layers("src/gpu/kernels/scale.js", source) == {"kernel": 10, "portable": 1}


def test_webgpu_pipeline_cache_stays_portable() -> None:
    # src/gpu/pipeline-cache.js: compiles shader modules and compute pipelines by key; the
    # WGSL itself lives elsewhere.
    source = b"""\
export class Pipelines {
  constructor(device) { this.device = device; this.byKey = new Map(); }
  get(key, code, entry) {
    let p = this.byKey.get(key);
    if (!p) {
      const module = this.device.createShaderModule({ code });
      const compute = { module, entryPoint: entry };
      p = this.device.createComputePipeline({ layout: "auto", compute });
      this.byKey.set(key, p);
    }
    return p;
  }
}
"""
    assert _rules("src/gpu/pipelines.js", source) == set()
    assert _layers("src/gpu/pipelines.js", source) == {"portable": 13}


# -- MapleSilicon/SparseFlow: a small CUDA kernel with its launcher --------------------------------


def test_cast_kernel_and_launcher_split_kernel_and_vendor_path() -> None:
    # experiments/wmma_dense/cast_f32_to_f16.cu: a one-thread-per-element conversion kernel
    # and an extern "C" launcher.
    source = b"""\
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void to_half(const float* __restrict__ x, half* __restrict__ y, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) y[t] = __float2half(x[t]);
}

extern "C" void launch_to_half(const float* x, half* y, int n) {
    int threads = 256;
    int blocks = (n + threads - 1) / threads;
    to_half<<<blocks, threads>>>(x, y, n);
}
"""
    assert _rules("exp/to_half.cu", source) == {"cuda.include", "cuda.kernel", "cuda.launch"}
    assert _layers("exp/to_half.cu", source) == {"kernel": 4, "vendor-path": 3, "portable": 4}


def test_mlir_pass_over_gpu_dialect_stays_portable() -> None:
    # experiments/old_structure/compiler/passes/TiledKernelVerifierPass.cpp: a compiler pass
    # walking gpu.func bodies for barriers; compiler code, not device code.
    source = b"""\
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/Pass.h"
using namespace mlir;

static bool hasBarrier(gpu::GPUFuncOp fn) {
  bool found = false;
  fn.walk([&](gpu::BarrierOp) { found = true; });
  return found;
}
"""
    assert _rules("passes/BarrierCheck.cpp", source) == set()
    assert _layers("passes/BarrierCheck.cpp", source) == {"portable": 8}


# -- pytorch/data and Baseng0815/VoxelGame: guards and host graphics code --------------------------


def test_pin_memory_only_when_cuda_is_there_stays_portable() -> None:
    # examples/nodes/hf_datasets_nodes_mnist.ipynb: pins batches when CUDA is available;
    # nothing is placed on a vendor's device.
    source = b"""\
import torch
from torchdata.nodes import Batcher, PinMemory

def pipeline(node):
    node = Batcher(node, batch_size=32)
    if torch.cuda.is_available():
        node = PinMemory(node)
    return node
"""
    assert _rules("examples/pipeline.py", source) == set()
    assert _layers("examples/pipeline.py", source) == {"portable": 7}


def test_opengl_buffer_setup_stays_portable() -> None:
    # src/Components/BlockSelectionComponent.cpp: vertex array and buffers through OpenGL.
    source = b"""\
#include <GL/glew.h>

void Outline::upload(const float* verts, const unsigned* idx) {
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, 24 * sizeof(float), verts, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float), (void*)0);
}
"""
    assert _rules("src/Outline.cpp", source) == set()
    assert _layers("src/Outline.cpp", source) == {"portable": 10}


def test_glsl_fragment_shader_file_is_kernel() -> None:
    # Resources/Shaders/blockSelectionShader.frag: a fragment shader writing one colour.
    source = b"""\
#version 420

out vec4 frag_colour;

void main() {
    frag_colour = vec4(1.0, 1.0, 1.0, 1.0);
}
"""
    assert _rules("Resources/Shaders/outline.frag", source) == {"vulkan.shader-file"}
    assert _layers("Resources/Shaders/outline.frag", source) == {"kernel": 5}


def test_using_namespace_nvcuda_counts_with_the_wmma_kernel() -> None:
    # experiments/old_structure/sparseflow_pipeline/gemm_pipeline.cu: the file opens nvcuda
    # (declared only by NVIDIA's mma.h) for the tensor-core fragments of its one kernel, which
    # Python launches; a ROCm port rewrites that line with the kernel (rocWMMA's namespace).
    source = b"""\
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

extern "C" __global__ void tile_gemm(const half* a, const half* b, float* c, int ld) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(fa, a, ld);
    wmma::load_matrix_sync(fb, b, ld);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(c, acc, ld, wmma::mem_row_major);
}
"""
    assert _rules("exp/tile_gemm.cu", source) == {
        "cuda.include",
        "cuda.kernel",
        "cuda.arch-feature",
    }
    assert _layers("exp/tile_gemm.cu", source) == {"kernel": 11, "vendor-path": 2}


def test_project_namespace_sharing_the_prefix_stays_portable() -> None:
    source = b"""\
#include "nvcudax/devices.h"
using namespace nvcudax;

int visible_devices() { return devices().size(); }
"""
    assert _rules("src/probe.cpp", source) == set()
    assert _layers("src/probe.cpp", source) == {"portable": 3}
