"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-q).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 113-119. Two were skipped: evolvingstuff/metalist (116) and
SubhajL/lastmile-accelerator (117) had no snapshot to fetch. Read were ethersphere/bee (Swarm's
storage node in Go, with AVX2/AVX-512 Keccak in Go assembly and no GPU code),
trueforge-org/containerforge (Dockerfiles, bake files and settings for ~150 self-hosted app
images; the media servers and desktops among them ask for NVIDIA's container runtime),
Ananth-fynxt/connxt-be (a Spring Boot back end in Java, no GPU code),
ckontz01/diffusion-world-model-planning-thesis (a thesis's PyTorch world-model experiments
and the SLURM jobs running them in an Apptainer image of a CUDA PyTorch build) and
enjiushi/VulkanLearn (a C++ Vulkan renderer with GLSL shaders, some of its GLSL headers
named .sh). Snapshots missing large blobs (VulkanLearn's textures and models) were checked
out without them; no counted source file was missing. Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, files outside the sample that hold kernel lines
counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ckontz01/diffusion-world-model-planning-thesis: SLURM jobs in a CUDA Apptainer image ----


def test_cpu_job_in_a_cuda_apptainer_image_is_vendor_path() -> None:
    # cluster/prometheus/run_gdp_cem_e10m_analyze.slurm and three more sampled files (portable
    # before): a CPU-only analysis job whose only NVIDIA tie is the image it runs in, a .sif
    # converted from a CUDA PyTorch build. A ROCm cluster needs another image on that line.
    source = b"""\
#!/usr/bin/env bash
#SBATCH --job-name=summarise
#SBATCH --cpus-per-task=4
set -euo pipefail
BASE=/scratch/lab/thesis
IMG="${BASE}/images/torch-2.4.0-cuda12.4-cudnn9-runtime.sif"
VENV="${BASE}/venvs/py311"
apptainer exec --cleanenv --bind "${BASE}:${BASE}" "${IMG}" \\
  "${VENV}/bin/python" summarise.py --out "${BASE}/results"
"""
    path = "cluster/jobs/summarise.sh"
    assert _rules(path, source) == {"container.cuda-sif-image"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 5}


def test_cpu_job_in_a_rocm_or_cpu_image_stays_portable() -> None:
    # The negative: the same job given a ROCm or a CPU image names no CUDA build.
    source = b"""\
#!/usr/bin/env bash
set -euo pipefail
# was torch-2.4.0-cuda12.4.sif before the move
IMG=/scratch/images/torch-2.4.0-rocm6.1.sif
CPU_IMG=/scratch/images/torch-2.4.0-cpu.sif
apptainer exec "${IMG}" python summarise.py
"""
    path = "cluster/jobs/summarise.sh"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 4}


def test_gpu_job_binding_nvidia_into_the_image_is_vendor_path() -> None:
    # cluster/prometheus/run_selected_null_scorer_array.slurm (already right): the GPU job
    # logs nvidia-smi, binds NVIDIA's driver with --nv and passes --device cuda; its image
    # line now counts as well. (--device cuda shares the apptainer line already counted.)
    source = b"""\
#!/usr/bin/env bash
#SBATCH --gres=gpu:1
set -euo pipefail
IMG=/scratch/images/torch-2.4.0-cuda12.4-cudnn9-runtime.sif
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
apptainer exec --nv --cleanenv "${IMG}" python score.py --device cuda --batch 64
"""
    path = "cluster/jobs/score.sh"
    assert _rules(path, source) == {
        "container.cuda-sif-image",
        "build.nvcc",
        "container.apptainer-nv",
    }
    assert _layers(path, source) == {"vendor-path": 3, "portable": 1}


def test_report_reading_peak_cuda_memory_fields_is_portable() -> None:
    # cluster/prometheus/analyze_gdp_cem_e10m_p1.py (already right): an analysis script that
    # copies the evaluation's recorded peak CUDA memory out of JSON summaries calls no CUDA.
    source = b"""\
import json
from pathlib import Path


def peak(summary: Path) -> dict[str, int]:
    value = json.loads(summary.read_text())
    if "peak_cuda_memory_allocated_bytes" not in value:
        raise RuntimeError("summary lacks its peak CUDA memory record")
    return {"peak_cuda_memory_allocated_bytes": int(value["peak_cuda_memory_allocated_bytes"])}
"""
    path = "cluster/analyse_peaks.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


def test_evaluation_requiring_cuda_is_vendor_path() -> None:
    # cluster/prometheus/evaluate_acid_alt_e6_d2.py (already right): the evaluation seeds
    # CUDA, refuses to run without it and reads the device's name and peak memory (the
    # is_available() guard alone is not counted).
    source = b"""\
import torch


def run(seed: int) -> dict[str, object]:
    torch.cuda.manual_seed_all(seed)
    if not torch.cuda.is_available():
        raise RuntimeError("this evaluation needs CUDA")
    device = torch.device("cuda")
    model = torch.nn.Linear(8, 8).to(device)
    model(torch.zeros(2, 8, device=device))
    return {"gpu": torch.cuda.get_device_name(0), "peak": torch.cuda.max_memory_allocated(device)}
"""
    path = "cluster/evaluate_planner.py"
    assert _rules(path, source) == {"torch.cuda-call", "torch.device-string"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 6}


# -- enjiushi/VulkanLearn: GLSL headers named .sh, the Vulkan header named bare --------------


def test_glsl_uniform_layout_header_named_sh_is_kernel() -> None:
    # data/shaders/uniform_layout.sh (portable as Shell before; hand 191 kernel lines): the
    # uniform blocks and structs every shader #includes, behind an include guard.
    source = b"""\
#if !defined(SHADER_LAYOUT)
#define SHADER_LAYOUT

#extension GL_EXT_scalar_block_layout : enable

struct FrameData
{
\tmat4 view;
\tmat4 projection;
\tvec4 screenSize;
\tvec4 timeAndIndex;
};

layout(std430, set = 0, binding = 0) uniform FrameUniforms
{
\tFrameData frame;
};

#endif
"""
    path = "data/shaders/layout.sh"
    assert _rules(path, source) == {"bgfx.shader-file"}
    assert _layers(path, source) == {"kernel": 15}


def test_glsl_constants_header_named_sh_is_kernel() -> None:
    # data/shaders/global_parameters.sh and atmosphere/header.sh (portable before): GLSL
    # constants and globals with no uniform, function or #extension line.
    source = b"""\
#ifndef SHADER_CONSTANTS
#define SHADER_CONSTANTS

const float PI = 3.14159265358979;
const int LUT_WIDTH = 256;
vec3 baseReflectance = vec3(0.04);
const float weights[3] = { 0.4, 0.2, 0.1 };

#endif
"""
    path = "data/shaders/constants.sh"
    assert _rules(path, source) == {"bgfx.shader-file"}
    assert _layers(path, source) == {"kernel": 7}


def test_shell_script_with_c_like_words_stays_shell() -> None:
    # The negative: a build script that names GLSL's types in its echo lines and comments is a
    # shell script still.
    source = b"""\
#!/bin/sh
# const float and vec3 values come from the shader headers
for f in *.comp; do
  echo "compiling $f (vec3 const float)"
  glslc "$f" -o "$f.spv"
done
"""
    path = "data/shaders/build.sh"
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


def test_compute_shader_file_is_kernel_whole() -> None:
    # data/shaders/env_skybox_gen.comp (sampled; hand 37, lockin 37): a compute shader
    # writing an image array from push constants.
    source = b"""\
#version 450
#include "layout.sh"

layout (local_size_x = 16, local_size_y = 16) in;
layout (set = 1, binding = 0, rgba16f) uniform image2D target;

void main()
{
\tivec2 size = imageSize(target);
\tvec2 uv = (vec2(gl_GlobalInvocationID.xy) + 0.5) / vec2(size);
\timageStore(target, ivec2(gl_GlobalInvocationID.xy), vec4(uv, 0.0, 1.0));
}
"""
    path = "data/shaders/fill.comp"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 10}


def test_bare_vulkan_header_include_is_vendor_path() -> None:
    # appEntry/AppEntry.h (portable before): the SDK's Include/vulkan is on the include path,
    # so the header is named without its folder; the rest is the project's own wrappers.
    source = b"""\
#pragma once
#include "vulkan.h"
#include "../render/Device.h"
#include <memory>

class Application
{
public:
\tbool Init();
private:
\tstd::shared_ptr<Device> m_device;
};
"""
    path = "app/Application.h"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 10}


def test_material_over_own_wrappers_stays_portable() -> None:
    # class/PerObjectUniforms.cpp (sampled, already right): uniform bookkeeping through the
    # renderer's own Buffer and DescriptorSet classes names no Vulkan type.
    source = b"""\
#include "../vulkan/DescriptorSet.h"
#include "ObjectUniforms.h"

void ObjectUniforms::SetModel(uint32_t index, const Matrix4f& model)
{
\tm_data[index].prevModel = m_data[index].model;
\tm_data[index].model = model;
\tMarkDirty(index);
}
"""
    path = "class/ObjectUniforms.cpp"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 8}


def test_pipeline_creation_is_vendor_path() -> None:
    # vulkan/Queue.cpp and the pipeline classes (sampled, already right): Vulkan host calls.
    source = b"""\
VkPipeline ComputeStage::Build(VkDevice device, const VkComputePipelineCreateInfo& info)
{
\tVkPipeline pipeline = VK_NULL_HANDLE;
\tvkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
\treturn pipeline;
}
"""
    path = "vulkan/ComputeStage.cpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 4, "portable": 2}


# -- trueforge-org/containerforge: NVIDIA's container runtime asked for by env ---------------


def test_dockerfile_asking_nvidia_driver_capabilities_is_vendor_path() -> None:
    # apps/jellyfin/Dockerfile (already right): the media server image asks NVIDIA's
    # container runtime for the video and compute driver libraries.
    source = b"""\
FROM ghcr.io/example/ubuntu:24.04
ENV NVIDIA_DRIVER_CAPABILITIES="compute,video,utility"
RUN apt-get update && apt-get install -y --no-install-recommends mediaserver
USER apps
"""
    path = "apps/media/Dockerfile"
    assert _rules(path, source) == {"k8s.nvidia-gpu"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


def test_dockerfile_installing_the_opencl_loader_is_portable() -> None:
    # apps/stash/Dockerfile (sampled, already right): the OpenCL ICD loader and a distro's
    # ffmpeg build serve every vendor's GPU.
    source = b"""\
FROM ghcr.io/example/ubuntu:24.04
ARG TARGETARCH
RUN apt-get update && \\
    if [ "$TARGETARCH" = "amd64" ]; then \\
      apt-get install -y --no-install-recommends media-ffmpeg ocl-icd-libopencl1; \\
    else \\
      apt-get install -y --no-install-recommends media-ffmpeg; \\
    fi
"""
    path = "apps/gallery/Dockerfile"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 8}


# -- ethersphere/bee: CPU SIMD is no GPU code --------------------------------------------


def test_go_avx2_opt_in_is_portable() -> None:
    # pkg/keccak/keccak_test.go and pkg/bmt/benchmark_test.go (sampled, already right): an
    # AVX2 Keccak path chosen at run time is CPU code.
    source = b"""\
package hashing

import "testing"

func TestWideHash(t *testing.T) {
\tif !HasAVX2() {
\t\tt.Skip("no AVX2 on this CPU")
\t}
\tprev := SIMDEnabled()
\tSetSIMD(true)
\tdefer SetSIMD(prev)
}
"""
    path = "pkg/hashing/wide_test.go"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 10}


# -- Ananth-fynxt/connxt-be: a Spring Boot service -------------------------------------------


def test_spring_controller_is_portable() -> None:
    # services/core/.../AuthController.java (sampled, already right).
    source = b"""\
@RestController
@RequestMapping("/v1/auth")
public class SessionController {
    private final SessionService sessions;

    @PostMapping("/login")
    public ResponseEntity<TokenDto> login(@RequestBody LoginDto body) {
        return ResponseEntity.ok(sessions.login(body));
    }
}
"""
    path = "services/core/src/main/java/app/auth/SessionController.java"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 9}
