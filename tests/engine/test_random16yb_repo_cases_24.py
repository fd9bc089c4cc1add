"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-yb).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 952-958 and skipped none. Read were Sylvfo/miniRayTracer
(a C ray tracer on minilibx, no GPU code; its snapshot lacked three PDF books, so it was
checked out without them, and no counted file was missing), yashaswikarnati/Megatron-LM (a
Megatron-LM fork: CUDA graphs, Transformer Engine, job scripts with CUDA variables),
tk-yoshimura/TensorShader (a C# deep-learning library whose CUDA backend compiles kernels
held in C# strings with NVRTC and calls cuDNN), flashserve/flash-linear-attention-npu (linear
attention on Ascend NPUs: AscendC kernels, Catlass block templates, CANN op hosts and
builds), vllm-project/ci-infra (vLLM's CI: Terraform for GPU and TPU runners, Buildkite
pipeline generators), t-tetsuya222/kindle_PyCUDA_support (PyCUDA samples: kernels in .cu
files included from SourceModule strings, ElementwiseKernel, scikit-cuda cuBLAS) and
suminerProxy/lern (a decompiled Android app: Java, GLSL in Java strings). Fifteen files of
each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

import re

from bot.engine.languages import LANGUAGES
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- vllm-project/ci-infra: Terraform for TPU runners ------------------------------------------


def test_tpu_v7_vm_runtime_image_is_vendor_path() -> None:
    # terraform/gcp_old/tpu-inference/modules/ci_v7x/main.tf: the accelerator type comes from a
    # variable, so only the TPU VM runtime image names the TPU generation the runner needs.
    source = b"""\
resource "google_tpu_v2_vm" "agent" {
  count            = var.agents
  name             = "agent-${count.index}"
  accelerator_type = var.accelerator_type
  runtime_version  = "v2-alpha-tpu7-ubuntu2404"
}
"""
    assert "cloud.tpu-instance-string" in _rules("infra/runners/main.tf", source)
    assert _layers("infra/runners/main.tf", source) == {"vendor-path": 1, "portable": 5}


def test_tpu7x_accelerator_default_is_vendor_path() -> None:
    # terraform/gcp_old/tpu-inference/modules/ci_v7x: accelerator types of the tpu7x-N form.
    source = b"""\
variable "accelerator_type" {
  type    = string
  default = "tpu7x-8"
}
"""
    assert _layers("infra/runners/variables.tf", source) == {"vendor-path": 1, "portable": 3}


def test_tpu_word_in_a_resource_name_stays_portable() -> None:
    # terraform/gcp_old/tpu-inference/modules/ci_cache_storage/main.tf: a bucket named after
    # the TPU project runs on nothing in particular.
    source = b"""\
resource "google_storage_bucket" "cache" {
  name     = "tpu7x-ci-cache-bucket"
  location = "US"
}
"""
    assert _layers("infra/cache/main.tf", source) == {"portable": 4}


def test_previous_tpu_accelerator_literal_stays_vendor_path() -> None:
    # terraform/gcp_old/tpu-inference/modules/ci_v6/main.tf: already right before this lane.
    source = b"""\
resource "google_tpu_v2_vm" "agent" {
  name             = "agent"
  accelerator_type = "v6e-1"
}
"""
    assert _layers("infra/v6/main.tf", source) == {"vendor-path": 1, "portable": 3}


# -- t-tetsuya222/kindle_PyCUDA_support: verdicts that were already right -----------------------


def test_pycuda_elementwise_kernel_body_is_kernel() -> None:
    # hello_cuda.py: an ElementwiseKernel whose C body is a string argument.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.gpuarray as gpuarray
from pycuda.elementwise import ElementwiseKernel

double_it = ElementwiseKernel(
    "float *out, float *inp",
    "out[i] = 2 * inp[i]",
    "double_it")
a = gpuarray.to_gpu(np.ones(8, dtype=np.float32))
b = gpuarray.empty_like(a)
double_it(b, a)
"""
    layers = _layers("double.py", source)
    assert layers.get("kernel", 0) >= 3
    assert layers.get("vendor-path", 0) >= 1


def test_cuda_template_device_helper_and_kernel_are_kernel() -> None:
    # cuda/kernel_functions_for_template.cu: a templated __device__ helper and an extern "C"
    # __global__ kernel; the extern "C" braces are the only portable lines.
    source = b"""\
template <class T>
__device__ T twice(T v){
    return v + v;
}

extern "C" {
__global__ void twice_kernel(int n, int *out, const int *in){
    const int i = threadIdx.x + blockDim.x * blockIdx.x;
    if (i < n){
        out[i] = twice<int>(in[i]);
    }
}
}
"""
    assert _layers("cuda/twice.cu", source) == {"kernel": 10, "portable": 2}


# -- tk-yoshimura/TensorShader: CUDA built in C# interpolated verbatim strings -----------------


def test_quotes_inside_an_interpolated_verbatim_hole_do_not_end_the_cuda_source() -> None:
    # TensorShaderCudaBackend/Shaders/Complex/Convolution/FloatPrecision/KernelProduct2D.cs:
    # a CUDA kernel in a $@"..." string whose holes pick guard lines with ?: between nested
    # strings; the kernel runs to the closing quote, not to the first nested one.
    source = b"""\
public sealed class Scale : Shader {
    public Scale(uint n, bool guard) {
        string code = $@"
        __global__ void scale(float* x, float a) {{
            unsigned int i = {Defines.IndexX};
            { (guard ? $"if(i >= {n}){{ return; }}" : "") }
            x[i] *= a;
            { (guard ? "" : "/* unguarded */") }
            __syncthreads();
        }}";
        this.Kernel = new Kernel(code, "scale");
    }
}
"""
    assert "cuda.source-string" in _rules("Shaders/Scale.cs", source)
    assert _layers("Shaders/Scale.cs", source) == {"kernel": 8, "portable": 5}


def test_interpolated_verbatim_string_tokens() -> None:
    # The lexer's view of the same construct: one string from $@" to its closing quote,
    # doubled quotes and braces inside, a hole that never closes leaving its brace plain.
    pattern = re.compile(LANGUAGES["C#"].family.tokens.pattern)
    source = 'var s = $@"a {(c ? $"x{{" : "y")} ""q"" {{b}}\nc"; // end\nvar t = @$"{ open\n";\n'
    tokens = [(m.lastgroup, m.group()) for m in pattern.finditer(source)]
    assert tokens == [
        ("string", '$@"a {(c ? $"x{{" : "y")} ""q"" {{b}}\nc"'),
        ("comment", "// end"),
        ("string", '@$"{ open\n"'),
    ]


def test_plain_verbatim_string_keeps_braces_and_quotes_as_before() -> None:
    # TensorShaderCudaBackend: a verbatim string that is not interpolated; a brace followed by
    # a doubled quote is text, and the literal still ends at its single closing quote.
    pattern = re.compile(LANGUAGES["C#"].family.tokens.pattern)
    source = 'var s = @"{ ""k"": 1 }"; var u = "v";\n'
    tokens = [m.group() for m in pattern.finditer(source)]
    assert tokens == ['@"{ ""k"": 1 }"', '"v"']


# -- flashserve/flash-linear-attention-npu: Ascend builds and kernels -------------------------


def test_cann_ai_cpu_kernel_module_build_is_vendor_path() -> None:
    # examples/add_example/op_kernel_aicpu/CMakeLists.txt: an operator's AI CPU kernels built
    # by the CANN operator project's CMake function, with the toolkit's cross compiler.
    source = b"""\
if (WITH_CANN)
  file(GLOB CPU_SRC ${CMAKE_CURRENT_SOURCE_DIR}/*_cpu.cpp)
  set(OBJ gather_cpu_obj)
  add_aicpu_cust_kernel_modules(${OBJ})
  target_sources(${OBJ} PRIVATE ${CPU_SRC})
endif()
"""
    assert "build.ascend-cann" in _rules("op_kernel_cpu/CMakeLists.txt", source)
    assert _layers("op_kernel_cpu/CMakeLists.txt", source) == {"vendor-path": 1, "portable": 5}


def test_plain_cmake_target_for_cpu_ops_stays_portable() -> None:
    # The same project's ordinary targets: nothing in them names the NPU toolchain.
    source = b"""\
file(GLOB CPU_SRC ${CMAKE_CURRENT_SOURCE_DIR}/*_cpu.cpp)
add_library(cpu_ops STATIC ${CPU_SRC})
target_include_directories(cpu_ops PRIVATE include)
"""
    assert _layers("ops/CMakeLists.txt", source) == {"portable": 3}
