"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-a).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 161-167. Two had no snapshot to fetch and were skipped:
rootkind35-del/HNSW-Combined-Quantization (161) and JohnAndrewsX/jax-seldon (165). Read were
rishabh-ranjan/relational-transformer (a PyTorch model for relational databases, trained on a
Slurm cluster), rgsmohanraj/triton (an Angular and Spring web application, no GPU code despite
its name), Raghavsharma10/Transformer_scratch (a transformer in plain Python),
cachebox-project/inference-cache (a Go Kubernetes operator for vLLM and LMCache KV caches)
and Ealrann/Lily-Vulkan (a Java engine on LWJGL's Vulkan bindings, with GLSL shaders).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, five more files
holding kernel lines counted by hand, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- rishabh-ranjan/relational-transformer: a Slurm GPU type asked for by model and count -----


def test_slurm_helper_gpu_type_with_count_is_vendor_path() -> None:
    # expts/repaper/baselines/submit.py and expts/pretrain/submit.py: the job's resources name
    # NVIDIA's A100 or B200 with a count; on AMD nodes each string changes.
    source = b"""\
from cluster import Resources, submit

def featurize(db):
    submit(
        "featurize:run",
        resources=Resources(partition="main", gpus="a100:1", cpus_per_task=8),
        name=f"feat-{db}",
    )

def pretrain():
    res = Resources(partition="main", gpus="b200:2", mem="1200G")
    submit("train:main", resources=res)
"""
    assert _rules("expts/submit.py", source) == {"cloud.nvidia-gpu-instance-string"}
    assert _layers("expts/submit.py", source) == {"vendor-path": 2, "portable": 8}


def test_gpu_model_table_and_cpu_job_stay_portable() -> None:
    # expts/pretrain/submit.py keys a per-model batch size by "a100" and "b200"; the CPU
    # helper asks for gpus="0". Neither asks the cluster for an NVIDIA card.
    source = b"""\
TOKENS = {"a100": 2**17, "b200": 2**18}

def cpu_job(mem):
    return Resources(partition="main", gpus="0", mem=mem)
"""
    assert _rules("expts/submit.py", source) == set()
    assert _layers("expts/submit.py", source) == {"portable": 3}


def test_submitit_gres_string_is_vendor_path() -> None:
    # The same request through submitit's Slurm parameters.
    source = b"""\
import submitit

ex = submitit.AutoExecutor(folder="logs")
ex.update_parameters(slurm_partition="gpu", slurm_gres="gpu:h100:4")
"""
    assert _rules("launch.py", source) == {"cloud.nvidia-gpu-instance-string"}
    assert _layers("launch.py", source) == {"vendor-path": 1, "portable": 2}


def test_cuda_probe_in_a_skip_marker_stays_portable() -> None:
    # tests/test_smoke.py: the smoke test is skipped without a GPU; probing answers on ROCm
    # builds of PyTorch as well, so it is no CUDA path.
    source = b"""\
import pytest
import torch

@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_train_runs(tmp_path):
    assert run(tmp_path, steps=3)
"""
    assert _rules("tests/test_smoke.py", source) == set()
    assert _layers("tests/test_smoke.py", source) == {"portable": 5}


# -- cachebox-project/inference-cache: NVIDIA's container runtime variable from Go -----------


def test_go_pod_env_with_nvidia_visible_devices_is_vendor_path() -> None:
    # internal/adapters/builtin/runtime/lmcache_mp_nodelocal.go: the injected cache server's
    # environment asks NVIDIA's container runtime for every GPU.
    source = b"""\
package runtime

import corev1 "k8s.io/api/core/v1"

func serverEnv(port string) []corev1.EnvVar {
	return []corev1.EnvVar{
		{Name: "NVIDIA_VISIBLE_DEVICES", Value: "all"},
		{Name: "CACHE_PORT", Value: port},
	}
}
"""
    assert _rules("runtime/server.go", source) == {"container.nvidia-gpu-args"}
    assert _layers("runtime/server.go", source) == {"vendor-path": 1, "portable": 7}


# -- Ealrann/Lily-Vulkan: LWJGL Vulkan host code, its EMF model, and GLSL shaders -------------


def test_lwjgl_vulkan_builder_is_vendor_path() -> None:
    # org.sheepy.lily.vulkan.process.graphic/.../MultisampleBuilder.java: fills a Vulkan
    # create-info struct through LWJGL.
    source = b"""\
package demo.pipeline;

import static org.lwjgl.vulkan.VK10.*;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkPipelineRasterizationStateCreateInfo;

public class RasterBuilder
{
	public VkPipelineRasterizationStateCreateInfo alloc(MemoryStack stack)
	{
		final var info = VkPipelineRasterizationStateCreateInfo.calloc(stack);
		info.sType(VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
		info.lineWidth(1.0f);
		return info;
	}
}
"""
    assert _rules("pipeline/RasterBuilder.java", source) == {"vulkan.java-host"}
    assert _layers("pipeline/RasterBuilder.java", source) == {"vendor-path": 5, "portable": 9}


def test_emf_model_named_after_vulkan_stays_portable() -> None:
    # org.sheepy.lily.vulkan.api/src/generated/.../SetScissorImpl.java: the engine's own model
    # objects carry Vulkan's vocabulary but call no Vulkan API.
    source = b"""\
package org.example.lily.vulkan.model.process.impl;

import org.eclipse.emf.ecore.EClass;

public class CopyImageTaskImpl extends LilyEObject implements CopyImageTask
{
	protected int stageMask = 0;

	@Override
	protected EClass eStaticClass()
	{
		return ProcessPackage.Literals.COPY_IMAGE_TASK;
	}
}
"""
    assert _rules("model/CopyImageTaskImpl.java", source) == set()
    assert _layers("model/CopyImageTaskImpl.java", source) == {"portable": 11}


def test_glsl_compute_shader_is_kernel_code() -> None:
    # org.sheepy.lily.vulkan.demo.test/src/main/shader/increment.comp: a one-line compute
    # kernel over two storage buffers.
    source = b"""\
#version 450 core

layout (local_size_x = 64) in;

layout(set = 0, binding = 0) buffer Src { float v[]; } src;
layout(set = 0, binding = 1) buffer Dst { float v[]; } dst;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	dst.v[i] = src.v[i] * 2.0;
}
"""
    assert _rules("shader/double.comp", source) == {"vulkan.shader-file"}
    assert _layers("shader/double.comp", source) == {"kernel": 9}
