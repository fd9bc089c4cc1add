"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-i).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 57-63, and none was skipped: every one had a snapshot under
the size limit. Read were RSOFT-REUNION/TOPDIFFUSION (a Laravel and Livewire shop for bikes:
PHP, Blade templates, a vendored Font Awesome), sanyokkua/ollama_llm_bench (a PyQt desktop
benchmark of local Ollama models, with YAML task sets), sybil-solutions/vllm-studio (a Bun and
Next.js workstation that launches vLLM, SGLang and llama.cpp and watches the GPUs through
nvidia-smi, amd-smi and rocm-smi), vectorch-ai/ScaleLLM (a C++ and CUDA LLM inference engine:
libtorch model code, CUDA and CuTe/CUTLASS kernels, CUDA build images),
software-competence-center-hagenberg/2025-SWQD-LLM-Invariant-classification (a paper's Java
experiment and its REST API data, no GPU code), fuwjax/fuwjin (Java grammar and injection
libraries, no GPU code) and joaopauloschuler/neural-api (CAI, a Free Pascal neural network
library with an OpenCL back end: one .cl file of kernels and a Pascal unit driving them).
Snapshots missing large blobs (ScaleLLM's GPTQ test weights, TOPDIFFUSION's Font Awesome
bundles and a picture, one neural-api object) were checked out without them. Fifteen files of
each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- sybil-solutions/vllm-studio: GPU telemetry through each vendor's SMI tool ---------------


def test_rocm_smi_options_run_on_a_binary_found_elsewhere_are_vendor_path() -> None:
    # controller/src/modules/system/platform/amd-gpu.ts (a GPU-looking file lockin called
    # portable before): the rocm-smi binary comes from a helper in another module, and this
    # file runs it with options only rocm-smi takes, then parses its text.
    source = b"""\
import { run } from "../core/command";
import { findRocmSmi } from "./tools";

export const readAmdCards = (): string[] => {
  const bin = findRocmSmi();
  if (!bin) return [];
  const out = run(bin, ["--showproductname", "--showmeminfo", "vram", "--showuse"], 5000);
  return out.stdout.split("\\n").filter((line) => line.includes("GPU["));
};
"""
    path = "server/platform/amd-cards.ts"
    assert _rules(path, source) == {"hip.tool-call"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 7}


def test_nvidia_smi_query_option_in_a_template_literal_is_vendor_path() -> None:
    # controller/src/modules/system/platform/gpu.ts: the fields are spliced into the query
    # option of a binary resolved in another file; before the fix only the lines naming
    # "nvidia-smi" itself counted.
    source = b"""\
import { run } from "../core/command";

export const queryCards = (bin: string, fields: string[]): string =>
  run(bin, [`--query-gpu=${fields.join(",")}`, "--format=csv,noheader,nounits"]).stdout;
"""
    path = "server/platform/cards.ts"
    assert _rules(path, source) == {"cuda.tool-call"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 2}


def test_smi_binary_resolved_from_an_environment_variable_is_vendor_path() -> None:
    # controller/src/modules/system/platform/smi-tools.ts (right before): the tool's name is the
    # fallback of a path read from the environment, one resolver per vendor.
    source = b"""\
const resolve = (key: string, fallback: string): string | null =>
  which(process.env[key]?.trim() || fallback);

export const nvidiaSmi = () => resolve("NVIDIA_SMI_BIN", "nvidia-smi");
export const rocmSmi = () => resolve("ROCM_SMI_BIN", "rocm-smi");
export const pick = (name: string) => (name === "amd-smi" ? "amd" : "other");
"""
    path = "server/platform/smi.ts"
    assert _rules(path, source) == {"cuda.tool-call", "hip.tool-call"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 2}


def test_dashboard_sizing_gpus_by_name_and_memory_is_portable() -> None:
    # frontend/src/features/recipes/recipes-content/hardware-profile.ts (right before): the UI
    # groups whatever GPUs the controller reports, spotting Apple Silicon by its name.
    source = b"""\
export interface Card { name: string; memoryMb: number }

export function describe(cards: Card[]): string {
  const apple = cards.some((c) => /apple|metal|unified/i.test(c.name));
  const poolGb = cards.reduce((sum, c) => sum + c.memoryMb, 0) / 1024;
  return apple ? "Apple Silicon" : `${cards.length} GPUs, ${Math.round(poolGb)} GB`;
}
"""
    path = "web/recipes/hardware.ts"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 6}


# -- joaopauloschuler/neural-api: an OpenCL back end written in Free Pascal ------------------


def test_pascal_opencl_host_calls_are_vendor_path() -> None:
    # neural/neuralopencl.pas (outside the sample, portable before): Free Pascal's cl unit
    # binds the C API under the same names; the unit sets kernel arguments and enqueues the
    # NDRange itself. Declarations and plain Pascal around it stay portable.
    source = b"""\
unit gpumath;

interface

uses cl, ctypes;

type
  TGpuAdder = class
    FQueue: cl_command_queue;
    FKernel: cl_kernel;
    FData: cl_mem;
    procedure Run(Count: csize_t);
  end;

implementation

procedure TGpuAdder.Run(Count: csize_t);
var
  Err: cl_int;
begin
  { one work-item for each element }
  Err := clSetKernelArg(FKernel, 0, SizeOf(cl_mem), @FData);
  Err := Err or clEnqueueNDRangeKernel(FQueue, FKernel, 1, nil, @Count, nil, 0, nil, nil);
  clFinish(FQueue);
end;

end.
"""
    path = "neural/gpumath.pas"
    assert _rules(path, source) == {"opencl.host-api"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 17}


def test_pascal_unit_naming_opencl_in_comments_only_is_portable() -> None:
    # neural/neuralthread.pas (a GPU-looking file, right before): the CPU thread pool mentions
    # the device path in comments only.
    source = b"""\
unit workers;

interface

type
  TWorkerPool = class
    // clEnqueueNDRangeKernel would replace this loop on a device
    procedure RunAll(Count: integer);
  end;

implementation

procedure TWorkerPool.RunAll(Count: integer);
var
  I: integer;
begin
  (* clFinish(queue) has no CPU counterpart *)
  for I := 0 to Count - 1 do
    Step(I);
end;

end.
"""
    path = "neural/workers.pas"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 15}


def test_opencl_program_file_counts_every_line_as_kernel() -> None:
    # neural/neural.cl (an extra kernel file: hand 2016, lockin 2016): helpers and __kernel
    # functions, all device code.
    source = b"""\
float leaky(float x) {
  return x > 0.0f ? x : 0.01f * x;
}

__kernel void apply_leaky(__global float* v, const int n) {
  const int i = get_global_id(0);
  if (i < n) v[i] = leaky(v[i]);
}
"""
    path = "neural/net.cl"
    assert _layers(path, source) == {"kernel": 7}


# -- vectorch-ai/ScaleLLM: CUDA kernels launched from libtorch, CuTe device helpers ----------


def test_cuda_norm_kernel_and_its_torch_launch_split_kernel_and_vendor_path() -> None:
    # src/kernels/layernorm_kernels.cu (sampled: hand 119 kernel lines, lockin 119): the
    # __global__ body is kernel, the launch on PyTorch's current stream vendor-path.
    source = b"""\
#include <ATen/cuda/CUDAContext.h>
#include <torch/torch.h>

template <typename T>
__global__ void scale_rows(T* out, const T* in, float s, int64_t n) {
  const int64_t row = blockIdx.x;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    out[row * n + i] = (T)((float)in[row * n + i] * s);
  }
}

void scale(torch::Tensor& out, torch::Tensor in, float s) {
  const int64_t n = in.size(1);
  scale_rows<float>
      <<<in.size(0), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
          out.data_ptr<float>(), in.data_ptr<float>(), s, n);
}
"""
    path = "src/kernels/scale_kernels.cu"
    layers = _layers(path, source)
    assert layers["kernel"] == 7
    assert set(layers) == {"kernel", "vendor-path", "portable"}


def test_cute_device_helper_header_is_kernel() -> None:
    # src/kernels/attention/common/online_softmax.cuh (sampled: hand about 113, lockin 106): a
    # warp reduction written with CuTe's device macros and CUDA's shuffle.
    source = b"""\
#pragma once
#include <cute/tensor.hpp>

namespace demo {
template <int N, typename T>
CUTE_DEVICE T warp_sum(T v) {
  CUTE_UNROLL
  for (int m = N / 2; m > 0; m >>= 1) {
    v += __shfl_xor_sync(0xffffffff, v, m, 32);
  }
  return v;
}
}  // namespace demo
"""
    path = "src/kernels/common/warp_sum.cuh"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "portable"}
    assert layers["kernel"] >= 7


def test_libtorch_model_header_taking_the_device_from_options_is_portable() -> None:
    # src/models/meta/llama.h and src/engine/worker.h (sampled, right before): the device is
    # whatever the caller's tensor options say; a method named after CUDA graphs is no call.
    source = b"""\
#include <torch/torch.h>

class Block : public torch::nn::Module {
 public:
  Block(const torch::TensorOptions& options) {
    act_ = make_activation("silu", options.device());
  }
  void capture_cuda_graph(uint32_t batch_size);

 private:
  Activation act_;
};
"""
    path = "src/models/block.h"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 10}


# -- RSOFT-REUNION/TOPDIFFUSION: a web framework's HTTP kernel -------------------------------


def test_laravel_http_kernel_is_portable() -> None:
    # app/Http/Kernel.php (touched by a sampled commit, which passes the gate): Laravel's
    # middleware table is named Kernel, and has nothing of a GPU.
    source = b"""\
<?php

namespace App\\Http;

use Illuminate\\Foundation\\Http\\Kernel as HttpKernel;

class Kernel extends HttpKernel
{
    protected $middleware = [
        \\App\\Http\\Middleware\\TrimStrings::class,
        \\App\\Http\\Middleware\\Breadcrumbs::class,
    ];
}
"""
    path = "app/Http/Kernel.php"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 10}
