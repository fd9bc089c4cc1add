"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-za).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 183-189. One was skipped:
Intelligent-Microsystems-Lab/HeterogeneousQuantization (183) has a snapshot of 2.2 GB, over
the 500 MB that can be fetched. Read were sgammon/occupy.is (an App Engine web app in Python
and JavaScript with vendored nltk, pytz, logbook, jQuery; no GPU code), albmarvil/
The-Eternal-Sorrow (a C++ game on Ogre and PhysX 3 with Lua scripts: vendored Boost, Ogre
and its GLSL, HLSL and Cg shaders, PhysX headers whose math is PX_CUDA_CALLABLE, and game
code that hands PhysX a CUDA context manager), regione-piemonte/cit (a regional heating-plant
registry in Java, JSP and Angular; no GPU code), ossia/score-addon-onnx (an ossia score
add-on running ONNX models in C++, choosing ONNX Runtime's CUDA, TensorRT, ROCm, DirectML,
OpenVINO or CoreML provider at run time), allenai/olmoearth_pretrain (a PyTorch Earth-
observation foundation model on olmo-core: torch.cuda calls, CUDA base images, a cu128 wheel
index, optional FlashAttention-2) and MajorDragonfly/voxelverse (a Godot voxel game in
GDScript with three .gdshader files). Snapshots missing large blobs were checked out without
them; no counted source file was missing. Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- albmarvil/The-Eternal-Sorrow: PhysX 3 handed a CUDA context manager -------------------


def test_physx_scene_taking_the_cuda_gpu_dispatcher_is_vendor_path() -> None:
    # Src/Physics/Scene.cpp (before: only the signature taking the context manager counted):
    # PhysX 3 gives the scene its CUDA work queue with manager->getGpuDispatcher(); that line
    # is what sends rigid-body work to an NVIDIA GPU, so a commit adding it alone must gate.
    source = b"""\
#include "World.h"

void World::buildScene(physx::PxSceneDesc& desc)
{
	desc.gravity = physx::PxVec3(0.0f, -9.8f, 0.0f);
	desc.filterShader = m_filters->shader;
#ifdef _WIN32
	if (!desc.gpuDispatcher && m_gpuContext)
	{
		desc.gpuDispatcher = m_gpuContext->getGpuDispatcher();
	}
#endif
	m_scene = m_sdk->createScene(desc);
}
"""
    path = "game/physics/World.cpp"
    assert _rules(path, source) == {"cuda.physx-gpu-api"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 12}


def test_physx_context_manager_member_counts_forward_declaration_does_not() -> None:
    # Src/Physics/Server.h: the forward declaration uses nothing; the member holding the CUDA
    # context manager is the NVIDIA-only path (right before any fix).
    source = b"""\
#pragma once

namespace physx { class PxCudaContextManager; class PxScene; }

class World {
public:
	void buildScene(physx::PxSceneDesc& desc);
private:
	physx::PxScene* m_scene = nullptr;
	physx::PxCudaContextManager* m_gpuContext = nullptr;
};
"""
    path = "game/physics/World.h"
    assert _rules(path, source) == {"cuda.physx-gpu-api"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 8}


def test_physx_cuda_callable_math_header_is_kernel_in_its_functions() -> None:
    # dependencies/include/PhysX/Foundation/PxTransform.h and PxMat33.h (extra kernel files:
    # hand ~111 and 188, lockin 97 and 189): inline math marked PX_CUDA_CALLABLE is built for
    # the device too; the function lines count as kernel, the class frame stays portable.
    source = b"""\
#ifndef PX_PAIR2_H
#define PX_PAIR2_H

#include "PxVec3.h"

class PxPair2
{
public:
	PX_CUDA_CALLABLE PX_FORCE_INLINE PxPair2() : a(0.0f), b(0.0f) {}

	PX_CUDA_CALLABLE PX_FORCE_INLINE PxPair2 swapped() const
	{
		return PxPair2(b, a);
	}

	PX_CUDA_CALLABLE PX_FORCE_INLINE float sum() const { return a + b; }

	float a;
	float b;
};

#endif
"""
    path = "third_party/physx/foundation/PxPair2.h"
    assert _rules(path, source) == {"cuda.callable-macro"}
    assert _layers(path, source) == {"kernel": 6, "portable": 10}


def test_boost_nvcc_config_counts_only_its_host_device_macro() -> None:
    # dependencies/include/boost/config/compiler/nvcc.hpp: Boost's nvcc configuration defines
    # one host-and-device macro; the feature macros around it are portable.
    source = b"""\
#ifndef BOOST_COMPILER
#  define BOOST_COMPILER "NVIDIA CUDA C++ Compiler"
#endif

// marks a function usable from both host and device code
#define BOOST_GPU_ENABLED __host__ __device__

#define BOOST_HAS_UNISTD_H
#define BOOST_HAS_STDINT_H
"""
    path = "include/boost/config/compiler/nvcc.hpp"
    assert _rules(path, source) == {"cuda.device-function"}
    assert _layers(path, source) == {"kernel": 1, "portable": 5}


# -- ossia/score-addon-onnx: ONNX Runtime providers picked at run time ---------------------


def test_onnxruntime_cuda_and_rocm_provider_setup_is_vendor_path() -> None:
    # Onnx/helpers/OnnxContext.hpp (right before any fix): the CUDA and ROCm provider options
    # are vendor-path; the CoreML provider named by string stays portable here.
    source = b"""\
#pragma once
#include <onnxruntime_cxx_api.h>
#include <string>

inline void addProvider(Ort::SessionOptions& opts, const std::string& which)
{
  const OrtApi& api = Ort::GetApi();
  if (which == "cuda")
  {
    OrtCUDAProviderOptionsV2* cuda = nullptr;
    Ort::ThrowOnError(api.CreateCUDAProviderOptions(&cuda));
    opts.AppendExecutionProvider_CUDA_V2(*cuda);
    api.ReleaseCUDAProviderOptions(cuda);
  }
  else if (which == "rocm")
  {
    OrtROCMProviderOptions rocm{};
    opts.AppendExecutionProvider_ROCM(rocm);
  }
  else if (which == "coreml")
  {
    opts.AppendExecutionProvider("CoreML", {});
  }
}
"""
    path = "src/inference/Session.hpp"
    assert _rules(path, source) == {
        "onnxruntime.cuda-provider-api",
        "onnxruntime.rocm-provider-api",
    }
    assert _layers(path, source) == {"vendor-path": 6, "portable": 17}


def test_cmake_fetching_the_cuda_build_of_onnxruntime_is_vendor_path() -> None:
    # cmake/onnxruntime.cmake: the gpu_cuda archive of ONNX Runtime is the NVIDIA build; the
    # CPU archive beside it is portable.
    source = b"""\
set(ORT_VERSION "1.22.0")
if(WIN32)
  if(USE_ORT_GPU)
    set(ORT_URL "https://github.com/microsoft/onnxruntime/releases/download/v${ORT_VERSION}/onnxruntime-win-x64-gpu_cuda12-${ORT_VERSION}.zip")
  else()
    set(ORT_URL "https://github.com/microsoft/onnxruntime/releases/download/v${ORT_VERSION}/onnxruntime-win-x64-${ORT_VERSION}.zip")
  endif()
endif()
FetchContent_Declare(ort URL ${ORT_URL})
"""
    path = "cmake/fetch_ort.cmake"
    assert _rules(path, source) == {"build.cmake-nvidia-library"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 8}


def test_pose_code_naming_a_hip_keypoint_is_portable() -> None:
    # OnnxModels/PoseDetector_*.cpp: `hip` is a body joint, not AMD's runtime.
    source = b"""\
#include "Track.hpp"
#include <cmath>

float torsoLength(const Keypoints& kp)
{
  const Point hip = midpoint(kp[23], kp[24]);
  const Point shoulder = midpoint(kp[11], kp[12]);
  return std::hypot(shoulder.x - hip.x, shoulder.y - hip.y);
}
"""
    path = "src/pose/Track.cpp"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 8}


# -- allenai/olmoearth_pretrain: PyTorch on olmo-core --------------------------------------


def test_torch_cuda_cache_release_behind_a_device_test_is_vendor_path() -> None:
    # olmoearth_pretrain/evals/finetune/train.py (commit b25a8971 gates on these two lines,
    # right): the device-type test and torch.cuda.empty_cache() are vendor-path.
    source = b"""\
import torch


def evaluate(model, loader, device: torch.device) -> float:
    model.eval()
    total = 0.0
    with torch.no_grad():
        for batch in loader:
            total += model(batch.to(device)).sum().item()
    if device.type == "cuda":
        torch.cuda.empty_cache()
    return total
"""
    path = "evals/finetune/loop.py"
    assert _rules(path, source) == {"torch.cuda-call", "torch.device-string"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 8}


def test_olmo_core_gpu_memory_callback_and_gpu_count_are_portable() -> None:
    # scripts/archived/*/latent_mim_*.py (sampled, right): a framework callback and a GPU count
    # in a launch config name GPUs without tying the code to a vendor.
    source = b"""\
from olmo_core.train.callbacks import GPUMemoryMonitorCallback
from olmo_core.config import DType


def build(trainer, config):
    config.launch.num_gpus = 4
    config.precision = DType.bfloat16
    return trainer.with_callback("gpu_memory_monitor", GPUMemoryMonitorCallback())
"""
    path = "scripts/sweeps/base_run.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 6}


def test_flashattention_2_import_stays_portable() -> None:
    # olmoearth_pretrain/nn/attention.py: FlashAttention-2 builds for ROCm too, so the rule set
    # leaves `import flash_attn` portable (only FA3/FA4 imports are NVIDIA-only).
    source = b"""\
import torch

try:
    import flash_attn
except ImportError:
    flash_attn = None


def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    if flash_attn is None:
        raise RuntimeError("install flash-attn")
    return flash_attn.flash_attn_func(q, k, v, causal=False)
"""
    path = "model/nn/attn.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 9}


def test_uv_index_of_cuda_torch_wheels_is_vendor_path() -> None:
    # pyproject.toml: a uv index of cu128 wheels is vendor-path; the CPU index is portable.
    source = b"""\
[project]
name = "earthmodel"
version = "0.1.0"
dependencies = ["torch>=2.7", "numpy"]

[[tool.uv.index]]
name = "torch-cpu"
url = "https://download.pytorch.org/whl/cpu"
explicit = true

[[tool.uv.index]]
name = "torch-cu128"
url = "https://download.pytorch.org/whl/cu128"
explicit = true
"""
    path = "pyproject.toml"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 11}


# -- MajorDragonfly/voxelverse: Godot shaders and the GDScript that loads them -------------


def test_godot_shader_file_is_kernel_whole() -> None:
    # world/visuals/*/*.gdshader (extra kernel files, all in range): Godot shading language,
    # every code line is shader code.
    source = b"""\
shader_type spatial;
render_mode blend_mix, cull_disabled;

uniform vec4 deep_colour : source_color = vec4(0.0, 0.2, 0.4, 1.0);
uniform float wave_speed = 0.5;

void vertex() {
	VERTEX.y += sin(VERTEX.x * 2.0 + TIME * wave_speed) * 0.1;
}

void fragment() {
	ALBEDO = deep_colour.rgb;
	ALPHA = deep_colour.a;
}
"""
    path = "world/visuals/sea.gdshader"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 11}


def test_gdscript_setting_shader_parameters_is_portable() -> None:
    # world/visuals/voxel/voxel_surface_styler.gd (GPU-looking, portable, right): loading a
    # ShaderMaterial and setting its uniforms is engine host code.
    source = b"""\
extends Node3D

const SEA_MATERIAL: ShaderMaterial = preload("res://world/visuals/sea_material.tres")

var _material: ShaderMaterial = null


func _ready() -> void:
	_material = SEA_MATERIAL.duplicate() as ShaderMaterial
	_material.set_shader_parameter("wave_speed", 0.8)
"""
    path = "world/visuals/sea_styler.gd"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 6}
