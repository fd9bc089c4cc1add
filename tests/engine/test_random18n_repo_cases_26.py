"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-n).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 92-98. Two were skipped: scalameta/metals (96) has a
snapshot of 1.32 GB, over the 500 MB that can be fetched, and mertbuilds/attentionawareness
(98) had no snapshot to fetch. Read were btrid/VulkanExperiment (a Windows Vulkan sandbox in
C++ on Vulkan-Hpp: hundreds of GLSL compute, vertex, fragment, mesh and ray-tracing shaders
compiled by batch files running glslangValidator, headers shared by C++ and GLSL, and old
OpenGL experiments), vllm-project/aibrix (a Kubernetes control plane for vLLM in Go and
Python: CRDs and sample deployments requesting nvidia.com/gpu, a runtime sidecar reading
NVML, a KV-cache offloading package with vLLM's CUDA and HIP attention and fp8 headers),
onnx/turnkeyml (ONNX model export and benchmarking tools and the lemonade LLM server: timm and
transformers model scripts, ONNX Runtime GenAI on CPU, DirectML, CUDA and Ryzen AI NPUs, a
TensorRT device plugin), hashgraph-online/hol-guard (a security guard for coding agents'
plugins and hooks in Python and TypeScript, no GPU code) and google/gemma.cpp (Gemma
inference on CPUs in C++ with Highway's portable SIMD, no GPU code). Snapshots missing large
blobs were checked out without them; no counted source file was missing. Fifteen files of
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

# -- onnx/turnkeyml: ONNX Runtime's CUDA wheels pinned in setup.py ----------------------------


def test_setup_py_pinning_onnxruntime_cuda_builds_is_vendor_path() -> None:
    # setup.py (GPU-looking, portable before; the commit adding these pins passed the gate
    # before): the CUDA build of ONNX Runtime under a marker, and GenAI's CUDA wheel in an
    # extra. The CPU and DirectML pins beside them stay portable.
    source = b"""\
from setuptools import setup

setup(
    name="modelkit",
    install_requires=[
        "onnx>=1.11.0",
        "onnxruntime >=1.10.1;platform_system=='Linux' and extra != 'genai-cuda'",
        "onnxruntime-directml >=1.19.0;platform_system=='Windows'",
        "onnxruntime-gpu >=1.19.1,<1.22;extra == 'genai-cuda'",
    ],
    extras_require={
        "genai-cpu": ["onnxruntime-genai==0.6.0"],
        "genai-cuda": [
            "onnxruntime-genai-cuda==0.6.0",
            "transformers<4.45.0",
        ],
    },
)
"""
    assert _rules("setup.py", source) == {"deps.cuda-wheel-python"}
    assert _layers("setup.py", source) == {"vendor-path": 2, "portable": 15}


def test_onnxruntime_build_names_probed_in_a_tuple_stay_portable() -> None:
    # The bare names of every build, looked up one by one, pin nothing.
    source = b"""\
BUILDS = ("onnxruntime", "onnxruntime-gpu", "onnxruntime-directml", "onnxruntime-rocm")
found = [name for name in BUILDS if installed(name)]
"""
    assert _rules("src/probe.py", source) == set()


def test_plugin_subpackage_named_tensorrt_and_empty_extra_are_portable() -> None:
    # plugins/devices/setup.py (vendor-path 2 before, hand portable): the project's own
    # subpackage called tensorrt in packages=, and an extra of that name listing nothing.
    source = b"""\
from setuptools import setup

setup(
    name="devkit_plugins",
    packages=[
        "devkit_plugins",
        "devkit_plugins.onnxrt",
        "devkit_plugins.tensorrt",
    ],
    install_requires=["numpy<2", "gitpython"],
    extras_require={
        "onnxrt": [],
        "tensorrt": [],
    },
)
"""
    assert _rules("plugins/devices/setup.py", source) == set()
    assert _layers("plugins/devices/setup.py", source) == {"portable": 14}


def test_tensorrt_pinned_in_an_extra_is_still_vendor_path() -> None:
    source = b"""\
extras_require = {
    "tensorrt": ["tensorrt>=10.0"],
}
"""
    assert _rules("setup.py", source) == {"deps.cuda-wheel-python"}


def test_trtexec_in_docker_with_all_gpus_is_vendor_path() -> None:
    # plugins/devices/.../tensorrt/execute.py (right before): NVIDIA's TensorRT container,
    # started with every GPU, and trtexec and nvidia-smi run inside it.
    source = b"""\
def benchmark(onnx_file, out_dir, version):
    image = f"nvcr.io/nvidia/tensorrt:{version}"
    run_args = f"--gpus all -v {out_dir}:/work -itd --rm"
    exec_args = f"trtexec --onnx={onnx_file} --fp16"
    probe = "nvidia-smi --query-gpu=power.draw --format=csv"
    return image, run_args, exec_args, probe
"""
    assert _layers("plugins/trt/execute.py", source) == {"vendor-path": 4, "portable": 2}


# -- vllm-project/aibrix: a kind cluster taking NVIDIA's GPUs, GPU pods, NVML ---------------


def test_kind_cluster_mounting_nvidia_container_devices_is_vendor_path() -> None:
    # hack/lambda-cloud/nvkind-cluster.yaml (GPU-looking, portable before): the worker gets
    # every NVIDIA GPU through the container runtime's volume-mount device list.
    source = b"""\
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
- role: control-plane
- role: worker
  extraMounts:
    - hostPath: /dev/null
      containerPath: /var/run/nvidia-container-devices/all
    - hostPath: /srv/models/
      containerPath: /models/
"""
    assert _rules("hack/gpu-kind.yaml", source) == {"k8s.nvidia-gpu"}
    assert _layers("hack/gpu-kind.yaml", source) == {"vendor-path": 1, "portable": 9}


def test_kind_cluster_without_gpu_mounts_stays_portable() -> None:
    source = b"""\
kind: Cluster
nodes:
- role: worker
  extraMounts:
    - hostPath: /var/run/docker.sock
      containerPath: /var/run/docker.sock
"""
    assert _rules("hack/kind.yaml", source) == set()


def test_model_deployment_with_nvidia_gpus_and_nccl_interface_is_vendor_path() -> None:
    # samples/deepseek-r1/deepseek-r1-tcp.yaml (sampled, right before): GPU limits and the
    # NCCL socket interface of a multi-node vLLM pod.
    source = b"""\
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: engine
          image: example.org/serving/engine:v1
          env:
            - name: NCCL_SOCKET_IFNAME
              value: eth0
          resources:
            limits:
              nvidia.com/gpu: 8
"""
    assert _rules("samples/model.yaml", source) == {"env.cuda-variables", "k8s.nvidia-gpu"}
    assert _layers("samples/model.yaml", source)["vendor-path"] == 2


def test_benchmark_scenario_naming_engines_stays_portable() -> None:
    # brixbench scenarios (sampled, right before): engine names and manifest paths only.
    source = b"""\
Scenario: engine-replicas
Tests:
  - name: engine-tp4-replicas2
    provider: null
    engine:
      type: vllm
      manifest: testdata/deployments/engine/tp4-replicas2.yaml
"""
    assert _rules("benchmark/scenarios/replicas.yaml", source) == set()


def test_runtime_reading_gpu_memory_through_nvml_is_vendor_path() -> None:
    # python/aibrix/aibrix/runtime/model_runtime.py (right before): pynvml's calls.
    source = b"""\
def gpu_memory():
    import pynvml

    pynvml.nvmlInit()
    try:
        used = 0
        for i in range(pynvml.nvmlDeviceGetCount()):
            handle = pynvml.nvmlDeviceGetHandleByIndex(i)
            used += pynvml.nvmlDeviceGetMemoryInfo(handle).used
        return used
    finally:
        pynvml.nvmlShutdown()
"""
    assert _rules("runtime/gpu.py", source) == {"cuda.nvml"}


def test_vector_type_traits_are_portable_and_device_helpers_kernel() -> None:
    # python/aibrix_kvcache/csrc/attention/dtype_float32.cuh (an extra kernel file: hand 126,
    # lockin 126): the type specialisations are plain C++, the __device__ helpers kernel.
    source = b"""\
#pragma once

namespace kv {

struct Pair4 {
  float2 a;
  float2 b;
};

template <> struct VecOf<float, 2> {
  using Type = float2;
};

inline __device__ float2 sum(float2 p, float2 q) {
  float2 r;
  r.x = p.x + q.x;
  r.y = p.y + q.y;
  return r;
}

inline __device__ void clear(float &v) { v = 0.f; }

} // namespace kv
"""
    assert _rules("csrc/attention/dtype_f32.cuh", source) == {"cuda.device-function"}
    assert _layers("csrc/attention/dtype_f32.cuh", source) == {"kernel": 7, "portable": 10}


def test_device_conversions_disabled_by_if_zero_are_not_kernel() -> None:
    # csrc/quantization/fp8/nvidia/quant_utils.cuh (an extra kernel file: hand 192, lockin
    # 192): a long `#if 0` block of fp8 conversions is dead; the live ones count.
    source = b"""\
namespace fp8 {
#if 0
template <>
__inline__ __device__ uint16_t widen(const uint8_t &a) {
  return a << 8;
}
#endif

template <typename To, typename From>
__inline__ __device__ To scaled(const From &x, const float s) {
  return x * s;
}
}
"""
    layers = _layers("csrc/fp8/quant_utils.cuh", source)
    assert layers["kernel"] == 4
    assert "cuda.device-function" in _rules("csrc/fp8/quant_utils.cuh", source)


def test_torch_library_impl_for_cuda_dispatch_key_is_vendor_path() -> None:
    # python/aibrix_kvcache/csrc/torch_bindings.cpp (right before).
    source = b"""\
#include <torch/library.h>

TORCH_LIBRARY_FRAGMENT(kvcache_ops, m) {
  m.def("offload(Tensor src, Tensor dst) -> ()");
  m.impl("offload", torch::kCUDA, &offload);
}
"""
    assert _rules("csrc/bindings.cpp", source) == {"torch.cpp-cuda"}


# -- btrid/VulkanExperiment: GLSL shaders, their build scripts, Vulkan-Hpp host code --------


def test_glsl_compute_shader_with_includes_is_kernel_whole() -> None:
    # resource/shader/.../*.comp (nine sampled, all right before): included headers, a push
    # constant block and the work-group size, device code from the first line.
    source = b"""\
#version 460
#extension GL_GOOGLE_include_directive : require

#define USE_SCENE 0
#include "Scene.glsl"

layout(push_constant) uniform Params
{
\tvec2 goal;
} params;

layout (local_size_x = 64) in;
void main()
{
\tb_agents[gl_GlobalInvocationID.x].goal = params.goal;
}
"""
    assert _rules("shader/agents/SetGoal.comp", source) == {"vulkan.shader-file"}
    assert _layers("shader/agents/SetGoal.comp", source) == {"kernel": 13}


def test_batch_file_compiling_shaders_with_glslangvalidator_is_vendor_path() -> None:
    # resource/shader/model/model.bat (sampled, right before): one line names the SDK's
    # compiler; the calls through the variable are portable batch lines.
    source = b"""\
@echo off
cd /d %~dp0
SET exe=glslangValidator.exe --target-env vulkan1.2 -V -I./ -g
SET out=-o ../binary/

%exe% %out%/Update.comp.spv Update.comp
%exe% %out%/Draw.vert.spv Draw.vert
"""
    assert _rules("shader/model/build.bat", source) == {"build.vulkan"}
    assert _layers("shader/model/build.bat", source) == {"vendor-path": 1, "portable": 5}


def test_vulkan_hpp_command_buffers_are_vendor_path() -> None:
    # source/013_2DGI/013_main.cpp (sampled, right before: vendor-path).
    source = b"""\
#include <vector>

void frame(Context& ctx, int n)
{
\tstd::vector<vk::CommandBuffer> cmds(n);
\tctx.record(cmds);
}
"""
    assert _rules("src/main.cpp", source) == {"vulkan.host-api"}


def test_cpp_file_wholly_inside_if_zero_is_portable() -> None:
    # source/001_clear/001_main2.cpp (GPU-looking, portable; hand portable): a byte-order mark,
    # then `#if 0` around the whole Vulkan sample.
    source = b"""\
\xef\xbb\xbf#if 0
#include <vulkan/vulkan.hpp>
#pragma comment(lib, "vulkan-1.lib")

int main()
{
\tvk::Instance inst = vk::createInstance({});
\tvkCmdDispatch(nullptr, 1, 1, 1);
\treturn 0;
}
#endif
"""
    assert _rules("src/old/main2.cpp", source) == set()


def test_header_shared_by_cpp_and_glsl_with_only_defines_is_portable() -> None:
    # resource/shader/020_RT/config.h (GPU-looking, portable; hand portable): sizes and a
    # switch between Vulkan's and OpenGL's depth convention, shared by both languages.
    source = b"""\
#ifndef MESHLET_CONFIG_H
#define MESHLET_CONFIG_H

#define MESHLET_PRIM_ALIGN   32
#define MESHLET_VERT_ALIGN   16

#ifdef VULKAN
#define IS_VULKAN 1
#endif
#ifndef IS_VULKAN
#define IS_VULKAN 0
#endif

#if IS_VULKAN
  #define CLIP_Z_SIGNED 0
#else
  #define CLIP_Z_SIGNED 1
#endif

#endif
"""
    assert _rules("shader/rt/config.h", source) == set()


def test_opengl_geometry_builder_is_portable() -> None:
    # project/022_SurfaceNet/SNLib/MMGeometryGL.cpp (sampled, right before).
    source = b"""\
#include "SurfaceGeometry.h"

SurfaceGeometry::SurfaceGeometry(const Net* net)
{
\tint floatsPerVertex = sizeof(GLVertex) / sizeof(float);
\tm_vertices = new float[net->count() * floatsPerVertex];
\tbuildQuads(net);
}
"""
    assert _rules("SNLib/SurfaceGeometry.cpp", source) == set()


# -- google/gemma.cpp and hashgraph-online/hol-guard: no GPU code ---------------------------


def test_highway_simd_kernel_on_cpu_is_portable() -> None:
    # ops/*-inl.h (sampled, all portable): Highway's portable SIMD, dispatched per CPU target.
    source = b"""\
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace gcpp {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

float Dot(const float* a, const float* b, size_t n) {
  const hn::ScalableTag<float> d;
  auto acc = hn::Zero(d);
  for (size_t i = 0; i < n; i += hn::Lanes(d)) {
    acc = hn::MulAdd(hn::LoadU(d, a + i), hn::LoadU(d, b + i), acc);
  }
  return hn::ReduceSum(d, acc);
}

}  // namespace HWY_NAMESPACE
}  // namespace gcpp
HWY_AFTER_NAMESPACE();
"""
    assert _rules("ops/dot-inl.h", source) == set()


def test_windows_kernel32_calls_through_ctypes_are_portable() -> None:
    # hol-guard's windows_paths.py (GPU-looking, portable; hand portable): "kernel" is the
    # Windows DLL's name.
    source = b"""\
import ctypes

def file_id(path):
    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    handle = kernel32.CreateFileW(path, 0, 7, None, 3, 0x02000000, None)
    return kernel32.GetFileInformationByHandle(handle)
"""
    assert _rules("guard/windows_paths.py", source) == set()
