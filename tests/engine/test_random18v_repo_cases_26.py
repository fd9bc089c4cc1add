"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-v).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 148-154. Two were skipped: koblas/quarry (148) and
popslovesmusic/accelerator (152) had no snapshot to fetch. Read were drewsephski/llamacoder (a
Next.js app generating web apps from prompts: TypeScript, Prisma migrations, and ready-made
WebGL backgrounds from @paper-design/shaders-react named in its prompts), Axionis47/
causal-inference-agent (a multi-agent causal inference service in Python and a React front
end; its "kernel" is an RBF kernel or a notebook's kernelspec, no GPU code), TheAmitChandra/
NeuralCleave (an agent platform in Python with a Tauri/Next.js front end; faster-whisper speech
recognition whose device defaults to the CPU, "cuda" only in settings and tests),
ajou-aisa/llama.cpp-gemmini (a fork of llama.cpp adding a stub Gemmini backend for RISC-V
cross builds, every upstream backend kept: CUDA, HIP, MUSA, SYCL, Vulkan and Kompute GLSL,
OpenCL, Metal, CANN) and MatterSphere/MatterSphere (a legal practice management suite in C#,
VB and T-SQL, no GPU code). Snapshots missing large blobs (images, a model) were checked out
without them; no counted source file was missing. Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Every verdict was
right before any fix; these tests keep them. Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ajou-aisa/llama.cpp-gemmini: ggml's backends -----------------------------------------


def test_sycl_nd_item_functions_and_parallel_for_bodies_are_kernel() -> None:
    # ggml/src/ggml-sycl/concat.cpp (an extra kernel file: hand 93, lockin 92): device
    # functions taking a sycl::nd_item, launched from queue lambdas; the launch geometry is
    # the runtime's, the wrapper taking the backend context plain C++.
    source = b"""\
#include "common.hpp"

static void join_rows(const float *a, const float *b, float *out, const int n,
                      const int na, const sycl::nd_item<3> &it) {
  int i = it.get_local_id(2) + it.get_group(2) * it.get_local_range(2);
  if (i >= n) {
    return;
  }
  out[i] = i < na ? a[i] : b[i - na];
}

static void join_rows_sycl(const float *a, const float *b, float *out, int n, int na,
                           queue_ptr q) {
  int blocks = (n + 256 - 1) / 256;
  q->parallel_for(
      sycl::nd_range<3>(sycl::range<3>(1, 1, blocks) * sycl::range<3>(1, 1, 256),
                        sycl::range<3>(1, 1, 256)),
      [=](sycl::nd_item<3> it) {
        join_rows(a, b, out, n, na, it);
      });
}

void op_join(backend_context &ctx, tensor *dst) {
  join_rows_sycl(dst->a, dst->b, dst->out, dst->n, dst->na, ctx.stream());
}
"""
    path = "ggml/src/ggml-sycl/join.cpp"
    assert _rules(path, source) == {"sycl.kernel-function", "sycl.kernel", "sycl.runtime"}
    layers = _layers(path, source)
    assert layers["kernel"] == 11
    assert layers["vendor-path"] == 3


def test_glsl_compute_shader_under_comp_is_kernel_whole() -> None:
    # ggml/src/ggml-vulkan/vulkan-shaders/cos.comp and the Kompute op_*.comp (sampled:
    # hand = lockin, every code line): a compute shader, its includes and push constants too.
    source = b"""\
#version 450

#include "shared_head.comp"

layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;

layout (push_constant) uniform params {
    uint count;
    float factor;
} pc;

void main() {
    const uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) {
        return;
    }
    dst[i] = sin(src[i]) * pc.factor;
}
"""
    path = "ggml/src/ggml-vulkan/vulkan-shaders/sinscale.comp"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 14}


def test_cuda_header_declaring_host_entry_points_stays_portable() -> None:
    # ggml/src/ggml-cuda/softmax.cuh, fattn-tile-f16.cuh (GPU-looking, lockin portable):
    # a block-size constant and the host function taking the backend context; the kernels
    # live in the .cu file.
    source = b"""\
#include "common.cuh"

#define CUDA_GATHER_BLOCK_SIZE 512

void backend_cuda_op_gather(backend_cuda_context & ctx, tensor * dst);
"""
    path = "ggml/src/ggml-cuda/gather.cuh"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 3}


def test_neon_guard_excluding_the_cuda_compiler_stays_portable() -> None:
    # ggml/src/ggml-impl.h (GPU-looking, lockin portable): CPU NEON helpers hidden from nvcc
    # and mcc; the guard keeps a CPU path away from the device compilers, none of their code.
    source = b"""\
#if defined(__ARM_NEON) && !defined(__CUDACC__) && !defined(__MUSACC__)
#include <arm_neon.h>
static inline float half_to_float(uint16_t h) {
    return vgetq_lane_f32(vcvt_f32_f16(vreinterpret_f16_u16(vdup_n_u16(h))), 0);
}
#endif
"""
    path = "ggml/src/ggml-impl.h"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 6}


def test_backend_registration_list_in_cmake_stays_portable() -> None:
    # ggml/src/CMakeLists.txt (sampled, portable): one generic call per backend, each
    # backend's own CMakeLists choosing its toolkit.
    source = b"""\
add_backend(CPU)
add_backend(BLAS)
add_backend(CUDA)
add_backend(HIP)
add_backend(METAL)
add_backend(SYCL)
add_backend(Vulkan)
add_backend(OpenCL)
"""
    path = "ggml/src/CMakeLists.txt"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 8}


def test_gpu_offload_query_through_the_backend_registry_stays_portable() -> None:
    # src/llama.cpp (sampled, portable): asks the device registry for any GPU-typed device;
    # no vendor is named.
    source = b"""\
bool model_supports_offload(void) {
    return backend_dev_by_type(BACKEND_DEVICE_TYPE_GPU) != nullptr ||
           backend_reg_by_name("RPC") != nullptr;
}

void keep_main_device(model_params & p, model & m) {
    if (p.main_gpu < 0 || p.main_gpu >= (int) m.devices.size()) {
        throw std::runtime_error("invalid main_gpu");
    }
    auto dev = m.devices[p.main_gpu];
    m.devices.clear();
    m.devices.push_back(dev);
}
"""
    path = "src/llama.cpp"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 12}


def test_shader_generator_targeting_a_vulkan_version_is_vendor_path() -> None:
    # ggml/src/ggml-vulkan/vulkan-shaders/vulkan-shaders-gen.cpp (non-portable, lockin
    # vendor-path 2): a build tool running glslc for a Vulkan target environment (here its
    # two targets on lines of their own).
    source = b"""\
#include <string>

std::string compiler = "glslc";

std::string target_env_for(const std::string & name) {
    if (name.find("_cm2") != std::string::npos) {
        return "--target-env=vulkan1.3";
    }
    return "--target-env=vulkan1.2";
}
"""
    path = "ggml/src/ggml-vulkan/vulkan-shaders/vulkan-shaders-gen.cpp"
    assert _rules(path, source) == {"build.vulkan-python"}
    assert _layers(path, source)["vendor-path"] == 3


# -- TheAmitChandra/NeuralCleave: faster-whisper's device setting ---------------------------


def test_tests_pinning_a_cuda_device_string_are_vendor_path() -> None:
    # tests/unit/test_voice_stt.py, tests/unit/test_config.py (non-portable, lockin
    # vendor-path 2 each): the tests build the recogniser for "cuda" and check it stuck.
    source = b"""\
from app.voice import Transcriber


def test_device_can_be_chosen():
    t = Transcriber(size="base", device="cuda")
    assert t.device == "cuda"
"""
    path = "tests/unit/test_transcriber.py"
    assert _rules(path, source) == {"torch.device-string"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 2}


def test_recogniser_taking_its_device_as_a_parameter_stays_portable() -> None:
    # neuralcleave/voice/stt.py (GPU-looking, lockin portable): the device defaults to the CPU
    # and is passed through; "cuda" is named only in the docstring.
    source = b'''\
class Transcriber:
    """Speech to text on the CPU by default; pass device="cuda" for a GPU."""

    def __init__(self, size: str = "base", device: str = "cpu") -> None:
        self.size = size
        self.device = device
        self._model = None

    def load(self):
        from faster_whisper import WhisperModel

        self._model = WhisperModel(self.size, device=self.device, compute_type="int8")
        return self._model
'''
    path = "app/voice/stt.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 9}


# -- drewsephski/llamacoder: ready-made WebGL backgrounds ---------------------------------


def test_prebuilt_shader_component_from_an_npm_package_stays_portable() -> None:
    # app/axion-studio/page.client.tsx (GPU-looking, lockin portable): a React page placing a
    # packaged WebGL background; no shader source is written here.
    source = b"""\
"use client";

import { MeshGradient } from "@paper-design/shaders-react";

export function HeroBackdrop() {
  return (
    <MeshGradient
      className="absolute inset-0"
      colors={["#0b1020", "#3a2a80", "#f0a0c0"]}
      speed={0.4}
    />
  );
}
"""
    path = "app/studio/backdrop.tsx"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 11}


# -- Axionis47/causal-inference-agent: kernels of statistics -------------------------------


def test_rbf_kernel_of_an_independence_test_stays_portable() -> None:
    # backend/src/causal/dag/discovery.py (GPU-looking, lockin portable): HSIC's RBF kernel
    # matrix in NumPy.
    source = b"""\
import numpy as np


def rbf_kernel(x: np.ndarray, sigma: float = 1.0) -> np.ndarray:
    sq = np.sum(x**2, axis=1, keepdims=True)
    dist = sq + sq.T - 2 * x @ x.T
    return np.exp(-dist / (2 * sigma**2))


def kernel_hsic(x: np.ndarray, y: np.ndarray) -> float:
    n = len(x)
    h = np.eye(n) - np.ones((n, n)) / n
    return float(np.trace(rbf_kernel(x) @ h @ rbf_kernel(y) @ h)) / (n - 1) ** 2
"""
    path = "backend/src/causal/dag/discovery.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 9}


# -- MatterSphere/MatterSphere: keyboard accelerators ---------------------------------------


def test_winforms_keyboard_accelerators_component_stays_portable() -> None:
    # src/Core/Fwbs.Oms.Windows/Components/Accelerators.cs (sampled, portable): "accelerator"
    # is a menu mnemonic here.
    source = b"""\
using System.ComponentModel;

namespace Firm.UI
{
    public class Accelerators : Component
    {
        private readonly System.Windows.Forms.Timer timer = new System.Windows.Forms.Timer();
        private string taken = "";

        public bool Claim(char key)
        {
            if (taken.IndexOf(key) >= 0) return false;
            taken += key;
            return true;
        }
    }
}
"""
    path = "src/Core/Firm.UI/Components/Accelerators.cs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
