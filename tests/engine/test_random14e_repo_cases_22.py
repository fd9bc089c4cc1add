"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-e).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 420-426. springboardmentor0-commits/Consumer-Attention-Mapping-System
(420), wio1997/Inference-Foundry (421) and Rust-Framework/rust-gpui-rml (426) had no snapshot
and were skipped. The others were read: NREL-Sienna/PowerSimulations.jl (power-system
optimisation in Julia, no GPU code), samanta-amit/Megatron-DeepSpeed (Megatron-LM with
DeepSpeed and ALCF launch scripts, apex-style fused softmax kernels in CUDA headers),
arabbitplays/Vulkan-Raytracing (a Vulkan ray tracer in C++ with GLSL ray-tracing shaders) and
qboson/kaiwu-pytorch-plugin (restricted Boltzmann machines on PyTorch). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, and three commits touching GPU code
(``random.Random("owner/name:commits")``; PowerSimulations.jl had one) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules


def test_cuda_device_order_and_torch_nccl_in_python_environment_are_vendor_path() -> None:
    # examples_deepspeed/azureml/aml_submit.py (samanta-amit/Megatron-DeepSpeed): a cloud run's
    # environment asks the CUDA runtime for bus-id GPU order and tunes PyTorch's NCCL group;
    # before the fix only the NCCL_* entries were read.
    source = b"""\
from azureml.core import Environment

env = Environment("train")
env.environment_variables["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"
env.environment_variables["TORCH_NCCL_ASYNC_ERROR_HANDLING"] = "1"
env.environment_variables["OMP_NUM_THREADS"] = "8"
"""
    assert _rules("submit.py", source) == {"env.cuda-variables-python"}
    assert _layers("submit.py", source) == {"vendor-path": 2, "portable": 3}


def test_torch_nccl_variable_exported_by_launch_script_is_vendor_path() -> None:
    # train_aGPT_7B.sh (samanta-amit/Megatron-DeepSpeed): the launch script raises PyTorch's NCCL
    # watchdog timeout, a TORCH_NCCL_* name the NCCL_[A-Z]* alternative could not see.
    source = b"""\
#!/bin/bash
source ./setup_env.sh
export TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC=3600
export OMP_NUM_THREADS=4
mpiexec -n 8 python pretrain.py "$@"
"""
    assert _rules("train_job.sh", source) == {"env.cuda-variables"}
    assert _layers("train_job.sh", source) == {"vendor-path": 1, "portable": 3}


def test_softmax_header_kernels_counted_from_device_functions_to_kernel_end() -> None:
    # megatron/fused_kernels/scaled_upper_triang_masked_softmax.h (already right; its kernel count
    # matched a hand count): __device__ helpers and the __global__ kernel are kernel lines, the
    # host helper and the launcher around the <<<>>> launch are not.
    source = b"""\
#pragma once
#include <cuda_fp16.h>

namespace {

int ceil_log2(int n) {
    int k = 0;
    while ((1 << k) < n) ++k;
    return k;
}

template <typename T>
__device__ __forceinline__ T lane_xor(T v, int mask) {
    return __shfl_xor_sync(0xffffffff, v, mask, 32);
}

// one warp scales one row
template <typename T, int LOG2>
__global__ void scale_rows(T *out, const T *in, float s, int rows) {
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row >= rows) return;
    int col = threadIdx.x;
    T v = in[row * (1 << LOG2) + col];
    v = lane_xor(v, 1);
    out[row * (1 << LOG2) + col] = v * s;
}

}  // namespace

template <typename T>
void launch_scale_rows(T *out, const T *in, float s, int rows, int cols) {
    int log2_cols = ceil_log2(cols);
    dim3 threads(32, 4, 1);
    dim3 blocks((rows + 3) / 4, 1, 1);
    switch (log2_cols) {
        case 5:
            scale_rows<T, 5><<<blocks, threads, 0, stream>>>(out, in, s, rows);
            break;
        default:
            break;
    }
}
"""
    assert {"cuda.kernel", "cuda.device-function", "cuda.launch"} <= _rules(
        "kernels/softmax.h", source
    )
    assert _layers("kernels/softmax.h", source)["kernel"] == 13


def test_aten_dispatch_macros_header_is_portable() -> None:
    # megatron/fused_kernels/type_shim.h (already right): ATen type-dispatch macros, no device code.
    source = b"""\
#include <ATen/ATen.h>

#define DISPATCH_HALF_OR_FLOAT(KIND, LABEL, ...)         \\
  switch (KIND) {                                        \\
    case at::ScalarType::Half: {                         \\
      using scalar_t = at::Half;                         \\
      __VA_ARGS__;                                       \\
      break;                                             \\
    }                                                    \\
    case at::ScalarType::Float: {                        \\
      using scalar_t = float;                            \\
      __VA_ARGS__;                                       \\
      break;                                             \\
    }                                                    \\
    default:                                             \\
      AT_ERROR(#LABEL, " has no case for this type");    \\
  }
"""
    assert _rules("csrc/dispatch_shim.h", source) == set()
    assert _layers("csrc/dispatch_shim.h", source) == {"portable": 16}


def test_glsl_include_fragment_of_ray_tracer_is_kernel_code() -> None:
    # arabbitplays/Vulkan-Raytracing shaders/metalRough/infinite_area_light.glsl (already right): a
    # GLSL piece #included by the ray-tracing shaders is device code throughout.
    source = b"""\
#include "../common/constants.glsl"
#include "sampling.glsl"

vec3 skyRadiance() {
    return sky.color.rgb * sky.color.a;
}

LightHit sampleSky(inout uint seed) {
    LightHit hit;
    hit.dir = randomOnSphere(seed);
    hit.radiance = skyRadiance();
    hit.pdf = 1.0 / (4.0 * PI);
    return hit;
}
"""
    assert _rules("shaders/light_sampling.glsl", source) == {"vulkan.shader-file"}
    assert _layers("shaders/light_sampling.glsl", source) == {"kernel": 12}


def test_runner_header_naming_vulkan_command_buffers_is_vendor_path() -> None:
    # arabbitplays/Vulkan-Raytracing include/engine/runner/Runner.hpp (already right): only the two
    # methods taking a VkCommandBuffer are Vulkan host code.
    source = b"""\
#pragma once
#include <memory>
#include "Renderer.hpp"

namespace Engine {
    class FrameRunner {
    public:
        explicit FrameRunner(std::shared_ptr<Renderer> renderer) : renderer(renderer) {}
        virtual void beginFrame(VkCommandBuffer cmd, uint32_t image_index);
        virtual void endFrame(VkCommandBuffer cmd, uint32_t image_index);
    private:
        std::shared_ptr<Renderer> renderer;
    };
}
"""
    assert _rules("include/FrameRunner.hpp", source) == {"vulkan.host-api"}
    assert _layers("include/FrameRunner.hpp", source) == {"vendor-path": 2, "portable": 11}


def test_cuda_or_cpu_device_choice_is_one_vendor_path_line() -> None:
    # qboson/kaiwu-pytorch-plugin src/kaiwu/torch_plugin/dbn.py (already right): the model picks
    # "cuda" when present; the rest is plain PyTorch.
    source = b"""\
import torch
from torch import nn


class StackedRBM(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.sizes = sizes
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.weights = nn.ParameterList(
            nn.Parameter(torch.zeros(a, b)) for a, b in zip(sizes, sizes[1:])
        )

    def forward(self, x):
        x = x.to(self.device)
        for w in self.weights:
            x = torch.sigmoid(x @ w)
        return x
"""
    assert _rules("dbn.py", source) == {"torch.device-string"}
    assert _layers("dbn.py", source) == {"vendor-path": 1, "portable": 14}


def test_julia_power_system_device_models_are_portable() -> None:
    # NREL-Sienna/PowerSimulations.jl src/devices_models/devices/renewable_generation.jl (already
    # right): "device" here is a generator in a power grid, not a GPU.
    source = b"""\
function add_limits!(container, devices, model::DeviceModel{D, W}) where {D <: RenewableGen, W}
    for device in devices
        name = get_name(device)
        limits = get_active_power_limits(device)
        set_bounds!(container, name, limits.min, limits.max)
    end
    return
end
"""
    assert _rules("src/renewables.jl", source) == set()
    assert _layers("src/renewables.jl", source) == {"portable": 8}
