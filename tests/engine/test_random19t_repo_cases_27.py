"""Cases from repositories drawn at random from a GPU-named pool (issue 27, lane h55-random-t).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the
written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some are
not GPU code at all). This lane took sub-pool positions 78-84; none was skipped, all seven had
a snapshot. Read were oddyloops/RayTracer (a ray tracer in C++ AMP: restrict(amp) geometry,
light and shader classes run through parallel_for_each, beside a CPU copy of the engine and a
JSON scene parser), seanjames777/raytracer (a CPU ray tracer with an OpenGL preview: GLSL
shaders, imgui, and prebuilt glm, assimp, FBX SDK and stb headers), milos-agathon/vulkan-forge
(a Rust wgpu renderer behind Python bindings, with two WGSL shaders), TritonVM/tasm-lib (a
library of Triton VM assembly snippets in Rust: a zero-knowledge virtual machine, no GPU code),
ARHashemi/JAXTrace (particle tracking on JAX, with an NVML memory tracker and a jax[cuda12]
extra), triton-inference-server/model_navigator (NVIDIA's tool that exports and converts
models for Triton: TensorRT runners, CUDA driver calls through ctypes, NGC test images) and
AkshDesai04/CUDA (some 3,700 small LLM-written CUDA exercise programs, and single-line dumps of
the model's replies saved as .cu). Fifteen files of each repository were sampled with
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

# -- oddyloops/RayTracer: C++ AMP ---------------------------------------------------------------


def test_cpp_amp_restricted_methods_are_kernel_and_host_ones_portable() -> None:
    # RTEngine/amp_lcg_rand.cpp, rt_sphere.cpp (right before): a method marked restrict(amp)
    # runs on the accelerator and is counted from its head to its closing brace; a method
    # without the mark is host code.
    source = b"""\
#include "lcg.h"

lcg::lcg(unsigned int s) restrict(amp, cpu)
{
\tstate = s;
}

float lcg::next() restrict(amp, cpu)
{
\tstate = state * 22695477u + 1u;
\treturn state / 4294967295.0f;
}

void lcg::dump() const
{
\tprintf("%u\\n", state);
}
"""
    path = "engine/lcg.cpp"
    assert _rules(path, source) == {"hlsl.cpp-amp-kernel"}
    assert _layers(path, source) == {"kernel": 9, "portable": 5}


def test_cpp_amp_header_counts_only_its_restricted_declarations() -> None:
    # RTEngine/rt_spot_light.h (right before): the class body is portable; each declaration
    # carrying restrict(amp) is one kernel line.
    source = b"""\
#pragma once
#include <amp.h>
using namespace concurrency;

class light
{
public:
\tlight(float_3 at) restrict(amp, cpu);
\tfloat share(array_view<sphere, 1>& balls, float_3 p) restrict(amp);
\tvoid describe() const;
private:
\tfloat_3 m_at;
};
"""
    path = "engine/light.h"
    assert _rules(path, source) == {"hlsl.cpp-amp-kernel"}
    assert _layers(path, source) == {"kernel": 2, "portable": 10}


def test_parallel_for_each_lambda_is_the_only_kernel_in_the_gateway() -> None:
    # RTEngine/rt_gateway.cpp (right before): the host function sets up array_views and
    # synchronises; only the restrict(amp) lambda it hands parallel_for_each is device code.
    source = b"""\
#include "gateway.h"

void render(std::vector<float_3>& pixels, int w, int h, tracer t)
{
\tarray_view<float_3, 2> image(h, w, pixels);
\tparallel_for_each(image.extent, [=](index<2> i) restrict(amp) {
\t\timage[i] = t.shade(i[1], i[0]);
\t});
\timage.synchronize();
\tprintf("done\\n");
}
"""
    path = "engine/gateway.cpp"
    assert _rules(path, source) == {"hlsl.cpp-amp-kernel"}
    assert _layers(path, source) == {"kernel": 3, "portable": 7}


# -- seanjames777/raytracer: an OpenGL preview and a Metal-minded math header --------------------


def test_glsl_preview_shader_is_kernel() -> None:
    # src/preview/solid_vertex.glsl (an extra kernel file, right before).
    source = b"""\
#version 410 core

layout(location=0) in vec3 in_position;
uniform mat4 viewProjection;

void main() {
    gl_Position = viewProjection * vec4(in_position, 1);
}
"""
    path = "src/preview/flat_vertex.glsl"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 6}


def test_project_gpu_macro_choosing_simd_header_is_portable() -> None:
    # include/math/vector.h (GPU-looking, right before): `#if GPU` is the project's own switch
    # between Apple's simd types and its own; no vendor API is called.
    source = b"""\
#ifndef VEC_H
#define VEC_H

#if GPU
#include <simd/simd.h>
using namespace simd;
#else
#include <math.h>
struct float3 { float x, y, z; };
#endif

#endif
"""
    path = "include/math/vec.h"
    assert _rules(path, source) == set()


# -- milos-agathon/vulkan-forge: WGSL over wgpu ---------------------------------------------------


def test_wgsl_shader_is_kernel() -> None:
    # src/shaders/triangle.wgsl (right before).
    source = b"""\
struct Out {
    @builtin(position) pos: vec4<f32>,
};

@vertex
fn vs(@location(0) p: vec2<f32>) -> Out {
    var o: Out;
    o.pos = vec4<f32>(p, 0.0, 1.0);
    return o;
}
"""
    path = "src/shaders/flat.wgsl"
    assert _rules(path, source) == {"wgsl.shader-file"}
    assert _layers(path, source) == {"kernel": 9}


def test_wgpu_backend_names_in_a_runner_are_portable() -> None:
    # python/tools/backends_runner.py (GPU-looking, right before): wgpu picks Vulkan, DX12,
    # Metal or GL by a name; a list of those names is no vendor lock-in.
    source = b"""\
import os, sys, subprocess

def backends():
    if sys.platform == "win32":
        return ["VULKAN", "DX12", "GL"]
    if sys.platform == "darwin":
        return ["METAL", "GL"]
    return ["VULKAN", "GL"]

def run(b):
    env = dict(os.environ, WGPU_BACKEND=b.lower())
    return subprocess.run([sys.executable, "draw.py"], env=env).returncode
"""
    path = "python/tools/run_backends.py"
    assert _rules(path, source) == set()


# -- TritonVM/tasm-lib: Triton the virtual machine, not the GPU language ---------------------------


def test_triton_vm_assembly_snippet_is_portable() -> None:
    # tasm-lib/src/list/get.rs (GPU-looking by name only, right before).
    source = b"""\
use triton_vm::prelude::*;

use crate::prelude::*;

pub struct Length;

impl BasicSnippet for Length {
    fn entrypoint(&self) -> String {
        "tasmlib_list_length".to_string()
    }

    fn code(&self, _: &mut Library) -> Vec<LabelledInstruction> {
        triton_asm!({self.entrypoint()}: read_mem 1 pop 1 return)
    }
}
"""
    path = "tasm-lib/src/list/length.rs"
    assert _rules(path, source) == set()


# -- ARHashemi/JAXTrace: JAX with NVML on the side --------------------------------------------


def test_xla_client_memory_settings_and_jax_devices_are_portable() -> None:
    # example_workflow.py, tests/test_quick.py (right before): XLA's client allocator settings
    # and jax.devices("gpu") serve every XLA GPU back end, ROCm's too.
    source = b"""\
import os
os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = "0.6"

import jax

def place(x):
    devs = jax.devices("gpu")
    return jax.device_put(x, devs[0]) if devs else x
"""
    path = "examples/run_tracking.py"
    assert _rules(path, source) == set()


def test_jax_cuda_extra_is_vendor_path() -> None:
    # pyproject.toml (right before): the gpu extra installs JAX's CUDA 12 plugin.
    source = b"""\
[project]
name = "tracer"
dependencies = ["jax>=0.4", "numpy"]

[project.optional-dependencies]
gpu = [
    "jax[cuda12_pip]",
]
"""
    path = "pyproject.toml"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source)["vendor-path"] == 1


def test_legacy_nvml_bindings_requirement_is_vendor_path() -> None:
    # Found reading jaxtrace/utils/memory_tracker.py's imports: nvidia-ml-py3, the legacy
    # NVML bindings, was unread as a requirement (the trailing 3 broke the name's boundary).
    source = b"""\
numpy>=1.24
matplotlib
nvidia-ml-py3==7.352.0
"""
    path = "requirements.txt"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 2}


def test_import_of_nvidia_smi_module_is_nvml() -> None:
    # jaxtrace/utils/memory_tracker.py imports nvidia-ml-py3's package by name (missed before,
    # that one line; the file was vendor-path already by its nvml calls). nvidia_smi is the
    # same package's NVML-backed module.
    source = b"""\
try:
    import nvidia_smi
    HAVE_SMI = True
except ImportError:
    HAVE_SMI = False

def used_mb():
    return 0.0
"""
    path = "tracer/utils/gpu_mem.py"
    assert _rules(path, source) == {"cuda.nvml"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 6}


def test_name_merely_like_nvidia_smi_is_portable() -> None:
    source = b"""\
import shutil

nvidia_smi_hint = "install the vendor tools"

def has_tool(name):
    return shutil.which(name) is not None
"""
    path = "tracer/utils/tools.py"
    assert _rules(path, source) == set()


# -- triton-inference-server/model_navigator ------------------------------------------------------


def test_cuda_driver_through_ctypes_is_vendor_path() -> None:
    # model_navigator/utils/devices.py (right before): libcuda loaded by ctypes, cu* calls.
    source = b"""\
import ctypes

try:
    drv = ctypes.cdll.LoadLibrary("libcuda.so")
except OSError:
    drv = None

def count():
    n = ctypes.c_int()
    drv.cuInit(0)
    drv.cuDeviceGetCount(ctypes.byref(n))
    return n.value
"""
    path = "navigator/utils/devices.py"
    assert _rules(path, source) == {"cuda.ctypes-library-load", "cuda.python-bindings"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 7}


def test_functional_test_on_an_ngc_image_is_vendor_path() -> None:
    # tests/functional/*/test.py (right before): each runs in NVIDIA's NGC PyTorch container.
    source = b"""\
METADATA = {
    "image_name": "nvcr.io/nvidia/pytorch:{version}-py3",
    "repository": "navigator",
}

def main():
    return METADATA["repository"]
"""
    path = "tests/functional/L0_roundtrip/test.py"
    assert _rules(path, source) == {"image.cuda-tag-python"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 5}


def test_device_string_validation_and_nvidia_hub_model_are_portable() -> None:
    # model_navigator/configuration/device.py (GPU-looking, right) and
    # examples/models/torch/resnet50_nvidia_torch_hub/optimize.py (sampled, right): torch's
    # "cuda" device string serves ROCm builds too, and a model from NVIDIA's hub is weights.
    validate = b"""\
import re

def check_device(s):
    if not re.match(r"^(cuda:\\d+|cuda|cpu)$", s):
        raise ValueError("device must be cpu or cuda[:N]")

def device_index(s):
    m = re.match(r"^cuda:(\\d+)$", s)
    return int(m.group(1)) if m else 0
"""
    assert _rules("navigator/configuration/device.py", validate) == set()
    hub = b"""\
import torch
import navigator as nav

def model():
    m = torch.hub.load("NVIDIA/DeepLearningExamples:torchhub", "nvidia_resnet50", pretrained=True)
    return m.eval()

def main():
    nav.torch.optimize(model=model(), dataloader=[torch.randn(1, 3, 224, 224)])
"""
    assert _rules("examples/hub_resnet/optimize.py", hub) == set()


# -- AkshDesai04/CUDA: exercise programs -----------------------------------------------------------


def test_cuda_exercise_counts_its_kernel_and_runtime_calls() -> None:
    # final/Fundamentals_ErrorCheck_07_C.cu and its siblings (right before): the kernel from
    # its head to its brace, the runtime calls and the launch as vendor-path.
    source = b"""\
#include <cstdio>
#include <cuda_runtime.h>

__global__ void bump(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] += 1;
    }
}

int main()
{
    int *d = nullptr;
    cudaMalloc(&d, 64 * sizeof(int));
    bump<<<1, 64>>>(d, 64);
    cudaDeviceSynchronize();
    cudaFree(d);
    return 0;
}
"""
    path = "final/Fundamentals_Kernel_99.cu"
    assert _rules(path, source) == {"cuda.runtime", "cuda.kernel", "cuda.launch", "cuda.include"}
    assert _layers(path, source) == {"kernel": 7, "vendor-path": 5, "portable": 6}


def test_kernel_shown_only_in_a_usage_comment_is_portable() -> None:
    # final_samples/Fundamentals_Kernel_14_E.cu (checked apart, right): a macro file whose
    # only kernel and launch sit in a block comment showing its use.
    source = b"""\
#include <cstdio>
#include <cstdlib>

#define CHECK_LAUNCH() do { if (!ok()) { fprintf(stderr, "bad\\n"); exit(1); } } while (0)

static int ok(void) { return 1; }

/* Usage:
__global__ void k(void) { }
int main(void) { k<<<1,1>>>(); CHECK_LAUNCH(); return 0; }
*/
"""
    path = "final/Fundamentals_ErrorCheck_99.cu"
    assert _rules(path, source) == set()
