"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-c).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 777-783. Four were skipped: dariyooo/onnxruntime-dart (777),
panxin-2000/Vulkan_render (782) and Ajaxels/MIB3 (783) had no snapshot to fetch, and
PaliC/pytorch-jit-paritybench (780) was refused by fetch (its newest commit holds too many
files). Read were inexorgame/vulkan-renderer (a C++20 Vulkan renderer: a render graph over
Vulkan wrappers, an octree engine core and four GLSL shaders compiled with glslangValidator),
blas1n/BSEngine (a Rust game engine drawing with wgpu, its WGSL shaders held in raw strings
and one .wgsl asset, games scripted in JavaScript) and Vmjkom/Ville_Megatron-DeepSpeed (a
Megatron-DeepSpeed fork: Python training code, CUDA softmax kernels in headers, SLURM and
torchrun launch scripts, Azure ML submission). Fifteen files of each repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts and labelled before any
fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository), and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Vmjkom/Ville_Megatron-DeepSpeed: images that are CUDA builds by another spelling ----------


def test_srun_container_image_from_nvidia_internal_registry_is_vendor_path() -> None:
    # tests/functional_tests/test_scripts/bert/sbatch_bert_distributed_resume_checkpoint_test.sh:
    # the SLURM job runs in NVIDIA's DGX PyTorch image pulled from its internal GitLab registry.
    source = b"""\
#!/bin/bash
#SBATCH -p luna -A adlr -t 00:20:00 --nodes=1 --exclusive
RUN_DIR=/lustre/runs
srun -o $RUN_DIR/out.log --container-image gitlab-master.nvidia.com/dl/dgx/pytorch:22.04-py3 \\
  --container-mounts $RUN_DIR:/workspace/runs bash -c "bash /workspace/run_test.sh"
"""
    assert _rules("tests/sbatch_resume.sh", source) == {"image.nvidia-base"}
    assert _layers("tests/sbatch_resume.sh", source) == {"vendor-path": 1, "portable": 2}


def test_ci_variable_naming_ngc_mirror_on_internal_registry_is_vendor_path() -> None:
    # .gitlab-ci.yml: a variable names the NGC PyTorch image mirrored on gitlab-master; the
    # nvcr.io image on the first line was already caught.
    source = b"""\
image: nvcr.io/nvidia/pytorch:23.04-py3
variables:
  TEST_IMAGE: gitlab-master.nvidia.com:5005/team/trainer/ngc/pytorch:23.04-py3_pytest
  DATA_DIR: /lustre/data
"""
    assert _rules(".gitlab-ci.yml", source) == {"image.nvidia-base"}
    assert _layers(".gitlab-ci.yml", source) == {"vendor-path": 2, "portable": 2}


def test_azureml_curated_image_with_cuda_in_its_name_is_vendor_path() -> None:
    # examples_deepspeed/azureml/Dockerfile.dockerfile: Azure ML's curated PyTorch image puts the
    # CUDA version in the repository name, the tag is only a build number.
    source = b"""\
FROM mcr.microsoft.com/azureml/curated/acpt-pytorch-2.1-cuda12.1:7
USER root:root
RUN pip install sentencepiece
"""
    assert _rules("azureml/Dockerfile.dockerfile", source) == {"image.nvidia-base"}
    assert _layers("azureml/Dockerfile.dockerfile", source) == {"vendor-path": 1, "portable": 2}


def test_cpu_azureml_image_stays_portable() -> None:
    source = b"""\
FROM mcr.microsoft.com/azureml/openmpi4.1.0-ubuntu22.04:20240101
RUN pip install sentencepiece
"""
    assert _rules("azureml/Dockerfile", source) == set()
    assert _layers("azureml/Dockerfile", source) == {"portable": 2}


# -- pinned verdicts that were already right ------------------------------------------------------


def test_cuda_header_device_helpers_and_kernel_counted_launcher_apart() -> None:
    # megatron/fused_kernels/scaled_masked_softmax.h: __device__ helpers and a __global__
    # kernel, then a host dispatcher launching it on PyTorch's current stream.
    source = b"""\
#include <cuda_fp16.h>
#include <ATen/cuda/CUDAContext.h>

template <typename T>
__device__ __forceinline__ T shfl_xor(T v, int mask) {
    return __shfl_xor_sync(0xffffffff, v, mask, 32);
}

template <typename T>
__global__ void scale_rows(T *out, const T *in, float scale, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = (T)(scale * (float)in[i]);
    }
}

template <typename T>
void dispatch_scale_rows(T *out, const T *in, float scale, int n) {
    int blocks = (n + 127) / 128;
    scale_rows<T><<<blocks, 128, 0, at::cuda::getCurrentCUDAStream()>>>(out, in, scale, n);
}
"""
    layers = _layers("kernels/scale_rows.h", source)
    assert layers["kernel"] == 11
    assert _rules("kernels/scale_rows.h", source) >= {"cuda.kernel", "cuda.launch"}


def test_wgsl_in_rust_raw_string_counted_as_kernel() -> None:
    # crates/bsengine-rhi-wgpu/src/particles.rs: a billboard shader held in a raw string
    # constant and compiled with wgpu's create_shader_module.
    source = b"""\
pub fn make_module(device: &wgpu::Device) -> wgpu::ShaderModule {
    device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("sprites"),
        source: wgpu::ShaderSource::Wgsl(SPRITE_WGSL.into()),
    })
}

const SPRITE_WGSL: &str = r#"
struct Out {
    @builtin(position) clip: vec4<f32>,
    @location(0) tint: vec4<f32>,
};

@vertex
fn vs_sprite(@builtin(vertex_index) vi: u32) -> Out {
    var o: Out;
    o.clip = vec4<f32>(f32(vi), 0.0, 0.0, 1.0);
    o.tint = vec4<f32>(1.0, 1.0, 1.0, 1.0);
    return o;
}

@fragment
fn fs_sprite(i: Out) -> @location(0) vec4<f32> {
    return i.tint;
}
"#;
"""
    assert _rules("src/sprites.rs", source) == {"wgsl.source-string"}
    assert _layers("src/sprites.rs", source) == {"kernel": 17, "portable": 8}


def test_glsl_vertex_shader_file_is_kernel() -> None:
    # shaders/ui.vert: an ImGui vertex shader with a push-constant block.
    source = b"""\
#version 450

layout (location = 0) in vec2 in_pos;
layout (location = 0) out vec2 out_pos;

layout (push_constant) uniform Push {
    vec2 scale;
} push;

void main() {
    out_pos = in_pos;
    gl_Position = vec4(in_pos * push.scale, 0.0, 1.0);
}
"""
    assert _layers("shaders/overlay.vert", source) == {"kernel": 10}


def test_distributed_launch_script_with_cuda_env_and_nccl_backend() -> None:
    # examples/pretrain_gpt_distributed.sh: torchrun with one CUDA setting and NCCL chosen.
    source = b"""\
#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1
GPUS_PER_NODE=8
torchrun --nproc_per_node $GPUS_PER_NODE pretrain_gpt.py \\
    --num-layers 24 \\
    --distributed-backend nccl
"""
    assert _rules("examples/pretrain.sh", source) == {
        "env.cuda-variables",
        "torch.nccl-backend-flag",
    }
    assert _layers("examples/pretrain.sh", source) == {"vendor-path": 2, "portable": 3}
