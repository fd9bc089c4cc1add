"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-k).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 81-88 and every one had a snapshot and files lockin counts, so none
was skipped: GeodesicResearch/geodesic-megatron (a Megatron-Bridge fork: recipes, conversion
and training scripts), AndyAbad21/Practica_Docker_Pycuda (a Flask service running PyCUDA image
filters, an Angular front end, Docker files), poetac/VoxelForge (C# engineering models),
Ajaxels/MIB2 (MATLAB image browser with deep-learning tools), yaotianhang/
tensorflow_musa_extension (a TensorFlow plug-in for Moore Threads GPUs: muDNN op kernels, .mu
kernels, per-op tests), eosphoros-ai/DB-GPT (an LLM data app), tgriebel/Vulkan-Renderer (a
Vulkan renderer with GLSL passes) and metamolecular/datawarrior (Java cheminformatics). Their
snapshots lack a few large blobs (images, archives, jars); the clones were checked out without
them. Fifteen files of each repository (all 13 of Practica_Docker_Pycuda) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, and up to three commits touching GPU code judged against ``lockin diff``
(``random.Random("owner/name:commits")``). Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- yaotianhang/tensorflow_musa_extension: a TensorFlow plug-in for Moore Threads GPUs ----------


def test_mudnn_cxx_namespace_call_is_vendor_library() -> None:
    # musa_ext/kernels/math/musa_square_op.cc: the op builds a muDNN operator through its C++
    # namespace (::musa::dnn::Binary), runs it, and registers for the MUSA device type.
    source = b"""\
#include <mudnn.h>

#include "tensorflow/core/framework/op_kernel.h"

namespace tensorflow {

template <typename T>
class CubeOp : public PluginOpKernel {
 public:
  void Compute(OpKernelContext* ctx) override {
    const Tensor& x = ctx->input(0);
    Tensor* y = nullptr;
    OP_REQUIRES_OK(ctx, ctx->allocate_output(0, x.shape(), &y));
    ::musa::dnn::Unary op;
    op.SetMode(::musa::dnn::Unary::Mode::CUBE);
    op.Run(HandleOf(ctx), Wrap(*y), Wrap(x));
  }
};

REGISTER_KERNEL_BUILDER(Name("Cube").Device("MUSA").TypeConstraint<float>("T"),
                        CubeOp<float>);

}  // namespace tensorflow
"""
    assert _rules("kernels/math/cube_op.cc", source) == {
        "musa.include",
        "musa.library",
        "musa.tf-kernel-registration",
    }
    assert _layers("kernels/math/cube_op.cc", source) == {
        "vendor-library": 2,
        "vendor-path": 2,
        "portable": 14,
    }


def test_tensorflow_kernel_registered_for_musa_is_vendor_path() -> None:
    # musa_ext/kernels/array/musa_tensorlist_reserve_op.cc: a host-only op whose one tie to the
    # vendor is its registration for the "MUSA" device type.
    source = b"""\
#include "tensorflow/core/framework/op_kernel.h"

namespace tensorflow {

class ReserveListOp : public OpKernel {
 public:
  explicit ReserveListOp(OpKernelConstruction* c) : OpKernel(c) {}
  void Compute(OpKernelContext* c) override {
    Tensor* handle = nullptr;
    OP_REQUIRES_OK(c, c->allocate_output(0, TensorShape({}), &handle));
  }
};

REGISTER_KERNEL_BUILDER(Name("ReserveList")
                            .Device("MUSA")
                            .HostMemory("handle"),
                        ReserveListOp);

}  // namespace tensorflow
"""
    assert _rules("kernels/array/reserve_list_op.cc", source) == {"musa.tf-kernel-registration"}
    assert _layers("kernels/array/reserve_list_op.cc", source) == {"vendor-path": 1, "portable": 14}


def test_tensorflow_musa_device_placement_is_vendor_path() -> None:
    # test/ops/relu_op_test.py, expm1_op_test.py: the op runs under tf.device('/device:MUSA:0')
    # and is compared with the CPU; listing the MUSA devices to skip is a probe, not flagged.
    source = b"""\
import numpy as np
import tensorflow as tf

from plugin_test_utils import PluginTestCase


class SoftsignTest(PluginTestCase):
    def test_matches_cpu(self):
        x = tf.constant(np.linspace(-3, 3, 16), dtype=tf.float32)
        with tf.device("/CPU:0"):
            want = tf.nn.softsign(x)
        with tf.device("/device:MUSA:0"):
            got = tf.nn.softsign(x)
        self.assertAllClose(want, got)

    def test_registered(self):
        if not tf.config.list_physical_devices("MUSA"):
            self.skipTest("no device")
"""
    assert _rules("test/ops/softsign_op_test.py", source) == {"musa.device-string"}
    assert _layers("test/ops/softsign_op_test.py", source) == {"vendor-path": 1, "portable": 13}


def test_op_test_through_a_helper_stays_portable() -> None:
    # test/ops/greater_op_test.py: the test only calls the repository's compare helper; the
    # device it picks is named in the helper's file, not here. Already right before the audit.
    source = b"""\
import tensorflow as tf

from plugin_test_utils import PluginTestCase


class FloorTest(PluginTestCase):
    def test_floor(self):
        x = tf.constant([1.5, -0.5])
        self._compare_cpu_and_device(tf.math.floor, [x], tf.float32)
"""
    assert _rules("test/ops/floor_op_test.py", source) == set()
    assert _layers("test/ops/floor_op_test.py", source) == {"portable": 6}


def test_cmake_linking_musa_libraries_is_vendor_path() -> None:
    # CMakeLists.txt: the plug-in links Moore Threads' runtime, muDNN and muBLAS by name on a
    # continuation line of target_link_libraries; the message naming musa stays portable.
    source = b"""\
cmake_minimum_required(VERSION 3.10)
project(device_plugin)
set(SDK_ROOT "/usr/local/musa" CACHE STRING "toolkit root")
include_directories("${SDK_ROOT}/include")
link_directories("${SDK_ROOT}/lib")
file(GLOB_RECURSE SOURCES "${CMAKE_CURRENT_SOURCE_DIR}/src/*.cc")
add_library(device_plugin SHARED ${SOURCES})
target_link_libraries(device_plugin PRIVATE ${TF_LINK_FLAGS}
    musa mudnn mublas rt)
message(STATUS "musa sources: ${SOURCES}")
"""
    assert _rules("CMakeLists.txt", source) == {"build.cmake-musa-library"}
    assert _layers("CMakeLists.txt", source) == {"vendor-path": 1, "portable": 9}


def test_musa_kernel_file_splits_kernel_and_launcher() -> None:
    # musa_ext/kernels/array/musa_where_kernel.mu: __global__ kernels, a launcher with <<<>>> on
    # a musaStream_t, explicit instantiations. Already right before the audit.
    source = b"""\
#include <musa_runtime.h>

template <typename T>
__global__ void FillIotaKernel(T* out, T start, T step, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = start + static_cast<T>(i) * step;
}

template <typename T>
void LaunchFillIota(T* out, T start, T step, int n, musaStream_t s) {
  const int threads = 256;
  FillIotaKernel<T><<<(n + threads - 1) / threads, threads, 0, s>>>(out, start, step, n);
}

template void LaunchFillIota<float>(float*, float, float, int, musaStream_t);
"""
    assert _rules("kernels/array/iota_kernel.mu", source) == {
        "musa.include",
        "musa.kernel",
        "musa.launch",
        "musa.runtime",
    }
    assert _layers("kernels/array/iota_kernel.mu", source) == {
        "kernel": 5,
        "vendor-path": 5,
        "portable": 2,
    }


# -- tgriebel/Vulkan-Renderer: GLSL helpers kept as .h files in the shader folder -------------


def test_glsl_helper_header_in_shader_folder_is_kernel_code() -> None:
    # vkRenderer/shaders/util.h, color.h, light.h: functions on vec3/vec4 included by the .frag
    # passes, with no layout qualifier, gl_ built-in or #extension line.
    source = b"""\
// Shading helpers shared by the passes.

vec3 ToViewSpace( const vec3 p )
{
	return vec3( p.x, -p.z, p.y );
}

float Luminance( vec3 c )
{
	return dot( c, vec3( 0.2126, 0.7152, 0.0722 ) );
}
"""
    assert _rules("renderer/shaders/util.h", source) == {"vulkan.shader-file"}
    assert _layers("renderer/shaders/util.h", source) == {"kernel": 8}
    # Outside a shader folder the same text is left to C.
    assert _layers("renderer/src/util.h", source) == {"portable": 8}


def test_c_header_defining_vec3_in_shader_folder_stays_c() -> None:
    # The other side of the header heuristic: a C math header that defines its vec3 type.
    source = b"""\
#pragma once
typedef struct { float x, y, z; } vec3;
vec3 vec3_add( vec3 a, vec3 b );
"""
    assert _rules("renderer/shaders/math.h", source) == set()
    assert _layers("renderer/shaders/math.h", source) == {"portable": 3}


def test_vulkan_host_header_is_vendor_path() -> None:
    # vkRenderer/src/render_core/GpuSync.h: fences and semaphores of the Vulkan API. Already
    # right before the audit.
    source = b"""\
#pragma once
#include <vector>

class FrameFence {
public:
	VkFence		fence;
	VkSemaphore	imageReady;
	void Wait( VkDevice device ) { vkWaitForFences( device, 1, &fence, VK_TRUE, UINT64_MAX ); }
};
"""
    assert _rules("src/render_core/FrameFence.h", source) == {"vulkan.host-api"}
    assert _layers("src/render_core/FrameFence.h", source) == {"vendor-path": 3, "portable": 5}


# -- AndyAbad21/Practica_Docker_Pycuda: PyCUDA filters behind Flask, run by Compose ------------


def test_compose_gpu_capability_without_driver_is_vendor_path() -> None:
    # docker-compose.yml: the back end reserves `capabilities: [gpu]` with no driver named, the
    # device request only the NVIDIA container toolkit answers.
    source = b"""\
services:
  api:
    build: ./api
    ports:
      - "5000:5000"
    deploy:
      resources:
        reservations:
          devices:
            - capabilities: [gpu]
  web:
    build: ./web
    ports:
      - "4200:80"
"""
    assert _rules("docker-compose.yml", source) == {"k8s.nvidia-gpu"}
    assert _layers("docker-compose.yml", source) == {"vendor-path": 1, "portable": 13}


def test_pycuda_source_module_is_kernel_code() -> None:
    # FiltrosBackend/app.py: CUDA C kept in a module string, compiled by SourceModule and fed
    # through mem_alloc/memcpy. Already right before the audit.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule

INVERT_SRC = \"\"\"
__global__ void invert(unsigned char *img, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) img[i] = 255 - img[i];
}
\"\"\"


def invert(pixels):
    mod = SourceModule(INVERT_SRC)
    buf = drv.mem_alloc(pixels.nbytes)
    drv.memcpy_htod(buf, pixels)
    grid = (pixels.size // 256 + 1, 1)
    mod.get_function("invert")(buf, np.int32(pixels.size), block=(256, 1, 1), grid=grid)
    drv.memcpy_dtoh(pixels, buf)
    return pixels
"""
    assert _rules("backend/app.py", source) == {
        "pycuda.driver",
        "pycuda.host-api",
        "pycuda.source-module",
    }
    # `mod = SourceModule(INVERT_SRC)` is the compile step: vendor-path (lane h55-random-n).
    assert _layers("backend/app.py", source) == {"kernel": 6, "vendor-path": 8, "portable": 4}


# -- GeodesicResearch/geodesic-megatron: Megatron-Core's Transformer Engine layers -------------


def test_megatron_core_transformer_engine_import_is_vendor_library() -> None:
    # src/megatron/bridge/models/ministral3/ministral3_provider.py: an attention class derived
    # from Megatron-Core's TEDotProductAttention, which wraps Transformer Engine.
    source = b"""\
import torch
from megatron.core.extensions.transformer_engine import TEDotProductAttention

from megatron.bridge.models.gpt_provider import GPTModelProvider


class ScaledTEAttention(TEDotProductAttention):
    def forward(self, query, key, value, mask, **kw):
        pos = torch.arange(query.shape[0], device=query.device)
        query = query * (1.0 + 0.1 * torch.log1p(pos.float())).view(-1, 1, 1, 1)
        return super().forward(query, key, value, mask, **kw)
"""
    assert _rules("src/models/provider.py", source) == {"cuda-libs.python-llm-kernels"}
    assert _layers("src/models/provider.py", source) == {"vendor-library": 1, "portable": 7}


def test_cuda_graph_setting_naming_transformer_engine_stays_portable() -> None:
    # scripts/performance/configs/qwen/qwen3_workload_base_configs.py: a config value naming
    # TE's CUDA-graph capture; left portable (an open decision in the lane's report).
    source = b"""\
from dataclasses import replace

BASE = WorkloadConfig(num_gpus=64, tensor_parallel_size=2)
LARGE_FP8 = replace(BASE, num_gpus=256, cuda_graph_impl="transformer_engine")
"""
    assert _rules("scripts/configs/workloads.py", source) == set()
    assert _layers("scripts/configs/workloads.py", source) == {"portable": 3}


def test_tensorflow_kernel_registered_through_mtgpu_constant_is_vendor_path() -> None:
    # musa_ext/kernels/control_flow/musa_merge_op.cc: most ops register with
    # .Device(DEVICE_MTGPU), the constant kernels/utils_op.h defines as "MUSA".
    source = b"""\
#include "../utils_op.h"

namespace tensorflow {

class PassThroughOp : public OpKernel {
 public:
  explicit PassThroughOp(OpKernelConstruction* c) : OpKernel(c) {}
  void Compute(OpKernelContext* c) override { c->set_output(0, c->input(0)); }
};

#define REGISTER_PASS_THROUGH(T)                        \\
  REGISTER_KERNEL_BUILDER(Name("PassThrough")           \\
                              .Device(DEVICE_MTGPU)     \\
                              .TypeConstraint<T>("T"),  \\
                          PassThroughOp);

REGISTER_PASS_THROUGH(float);
REGISTER_PASS_THROUGH(int32);

}  // namespace tensorflow
"""
    assert _rules("kernels/control_flow/pass_through_op.cc", source) == {"musa.tf-device-constant"}
    assert _layers("kernels/control_flow/pass_through_op.cc", source) == {
        "vendor-path": 5,
        "portable": 10,
    }
