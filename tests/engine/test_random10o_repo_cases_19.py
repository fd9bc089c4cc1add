"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-o).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 113-120. Three were skipped: lakam99/voxel-godot and
xadupre/onnx-light have no snapshot to fetch, and
WGQZYJZ/Empirical-Study-on-LLM-based-DL-Compiler-Testing-Techniques is over the snapshot size
limit (712 MB). Five were read: limccn/deepspeed-trick (DeepSpeed, Megatron and NCCL launch
notes), JiGuang283/VulkanLab (a C++ Vulkan renderer with GLSL shaders),
flarive/Cortex-Raytracer (a CPU ray tracer with an OpenGL/ImGui front end),
danielsobrado/drusniel-voxels-bevy (a Bevy voxel game with WGSL shaders) and
kevinkicho/ollama_swarm (a TypeScript agent orchestrator). Fifteen files of each repository
were sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- limccn/deepspeed-trick: the NCCL backend chosen on a launch script's command line -------


def test_distributed_backend_flag_nccl_is_vendor_path() -> None:
    # src/01 Training/06 Megatron/pretrain_llama2_distributed.sh: a Megatron-DeepSpeed launch
    # passing the collective backend as a flag; backend="nccl" in Python is already
    # vendor-path (torch.device-string), and this is the same choice made in the shell.
    source = b"""\
#!/bin/bash
NODES=2
torchrun --nproc_per_node 8 --nnodes $NODES pretrain.py \\
       --num-layers 24 \\
       --distributed-backend nccl \\
       --lr 3e-4 \\
       --bf16
"""
    assert _rules("scripts/pretrain.sh", source) == {"torch.nccl-backend-flag"}
    assert _layers("scripts/pretrain.sh", source) == {"vendor-path": 1, "portable": 5}


def test_distributed_backend_from_variable_or_gloo_is_portable() -> None:
    # The same launch with the backend left to the deployment, or run on the CPU.
    source = b"""\
#!/bin/bash
torchrun pretrain.py --distributed-backend "$BACKEND" --bf16
torchrun pretrain.py --dist-backend gloo
"""
    assert _rules("scripts/pretrain.sh", source) == set()
    assert _layers("scripts/pretrain.sh", source) == {"portable": 2}


def test_dist_backend_key_in_yaml_config_is_vendor_path() -> None:
    # The config-file twin of the flag: a trainer section naming the backend.
    source = b"""\
trainer:
  nodes: 1
  dist_backend: nccl
  precision: bf16
"""
    assert _rules("configs/trainer.yaml", source) == {"torch.nccl-backend-flag"}
    assert _layers("configs/trainer.yaml", source) == {"vendor-path": 1, "portable": 3}


def test_nccl_process_group_in_python_stays_vendor_path() -> None:
    # src/01 Training/00 Startup/02 Distributed Training.py: already right before this lane.
    source = b"""\
import torch.distributed as dist

def setup(rank, world):
    dist.init_process_group(backend="nccl", rank=rank, world_size=world)
"""
    assert _rules("ddp_setup.py", source) == {"torch.device-string"}
    assert _layers("ddp_setup.py", source) == {"vendor-path": 1, "portable": 2}


def test_deepspeed_launch_with_fp16_is_portable() -> None:
    # src/01 Training/02 GPT-2/training.sh: the deepspeed launcher and mixed precision name no
    # vendor (DeepSpeed runs on ROCm, Gaudi and XPU builds too). Already right.
    source = b"""\
pip install torch transformers deepspeed
deepspeed train_gpt2.py \\
  --deepspeed ds_config.json \\
  --per_device_train_batch_size 1 \\
  --fp16
"""
    assert _rules("training.sh", source) == set()
    assert _layers("training.sh", source) == {"portable": 5}


# -- JiGuang283/VulkanLab: SPIR-V built and validated for a Vulkan target --------------------


def test_spirv_tools_targeting_vulkan_in_powershell_are_vendor_path() -> None:
    # cmake/GenerateCacaoShaders.ps1: HLSL compiled by dxc to SPIR-V for Vulkan 1.0, then
    # checked with spirv-val for the same target environment.
    source = b"""\
param([string]$Dxc, [string]$Validator, [string]$Out)
$common = @(
    '-spirv',
    '-fspv-target-env=vulkan1.0',
    '-T', 'cs_6_2'
)
& $Dxc @common -E main -Fo $Out filter.hlsl
& $Validator '--target-env' 'vulkan1.0' $Out
"""
    assert _rules("cmake/BuildFilters.ps1", source) == {"build.vulkan"}
    assert _layers("cmake/BuildFilters.ps1", source) == {"vendor-path": 2, "portable": 6}


def test_spirv_tools_for_opengl_are_portable() -> None:
    # The same tools aimed at OpenGL's SPIR-V or a bare SPIR-V version name no Vulkan target.
    source = b"""\
spirv-val --target-env opengl4.5 out.spv
spirv-opt --target-env=spv1.5 -O in.spv -o out.spv
"""
    assert _rules("shaders/build.sh", source) == set()
    assert _layers("shaders/build.sh", source) == {"portable": 2}


def test_glsl_compute_shader_file_is_kernel_code() -> None:
    # shader/atmosphere/transmittance.comp: a whole GLSL compute shader. Already right.
    source = b"""\
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba16f) uniform writeonly image2D lut;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(lut, p, vec4(exp(-float(p.x) * 0.01)));
}
"""
    assert _rules("shader/sky/transmittance.comp", source) == {"vulkan.shader-file"}
    assert _layers("shader/sky/transmittance.comp", source) == {"kernel": 7}


# -- flarive/Cortex-Raytracer: GLSL in C++ raw strings; a CUDA renderer that is only a stub ---


def test_glsl_in_cpp_raw_string_is_kernel_code() -> None:
    # postprocess/shaders.h: post-processing shaders kept as std::string raw literals.
    # Already right.
    source = b"""\
#pragma once
#include <string>

const std::string threshold_frag = R"(
    #version 330 core
    in vec2 uv;
    out vec4 color;
    uniform sampler2D src;
    void main() {
        color = texture(src, uv);
    }
)";
"""
    assert _rules("postprocess/shaders.h", source) == {"vulkan.glsl-string"}
    assert _layers("postprocess/shaders.h", source)["kernel"] >= 7


def test_renderer_named_cuda_without_cuda_code_is_portable() -> None:
    # core/renderers/gpu_cuda_renderer.cpp: the class only logs; its launcher is commented out.
    # Already right.
    source = b"""\
#include "gpu_renderer.h"

void gpu_renderer::render(scene& s) const
{
    std::clog << "Using GPU Cuda renderer" << std::endl;
    //launchGPU(s);
}
"""
    assert _rules("core/renderers/gpu_renderer.cpp", source) == set()
    assert _layers("core/renderers/gpu_renderer.cpp", source) == {"portable": 5}
