"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h56-random-s).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (picked on the name's text only, so some are no GPU code
at all). This lane took sub-pool positions 246-252. One was skipped: Harvoxx-hub/the-metal-app
(248) had no snapshot to fetch. Read were MetalMMagic/Ythril (a self-hosted knowledge base: a
TypeScript server and Angular client, Kubernetes manifests for Ollama and Whisper whose GPU
limit is only a comment, face embeddings on a CPU WASM backend; no GPU code),
LukasBanana/XShaderCompiler (an HLSL to GLSL translator in C++ with its HLSL and GLSL test
shaders), HuangPuStar/FenixAgent (a TypeScript agent platform with sandbox management and
bioinformatics workflow examples in YAML; no GPU code), lucoiso/VulkanLearning (a C++23 module
renderer on Vulkan, volk and VMA, with two GLSL shaders), ROCm/rocThrust (Thrust ported to HIP:
the library headers with their ``__host__ __device__`` algorithms, the HIP backend on rocPRIM,
tests, benchmarks and examples as .cu files) and gpustack/gpustack-ui (a React front end for a
GPU cluster manager: pages, locale strings, a per-vendor driver table). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, files outside the sample that hold kernel
lines counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- HuangPuStar/FenixAgent: bioinformatics workflow examples in YAML -----------------------


def test_salmon_gencode_flag_in_a_workflow_yaml_is_portable() -> None:
    # workflow-examples/pe-rna-seq-single-sample.yaml (non-portable list, was vendor-path 1 by
    # build.gencode): an RNA-seq workflow's parameter notes that the Salmon index was built
    # with Salmon's own --gencode switch (GENCODE transcript names), no nvcc flag.
    source = b"""\
name: rnaseq-one-sample
params:
  reads_dir:
    type: string
    description: directory of paired FASTQ files
  quant_index:
    type: string
    default: /data/ref/salmon_idx
    description: salmon index (built beforehand with --gencode, ready to use)
    required: true
steps:
  - id: build_index
    run: salmon index -t transcripts.fa -i salmon_idx --gencode -p 8
"""
    path = "workflow-examples/rnaseq-one-sample.yaml"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- ROCm/rocThrust: Thrust on HIP ------------------------------------------------------------


def test_thrust_test_makefile_fragment_with_rdc_is_vendor_path() -> None:
    # testing/cuda/merge_by_key.mk (sampled, was portable): the per-test fragment of Thrust's
    # make harness asks nvcc for relocatable device code, an NVIDIA compiler switch.
    source = b"""\
CUDACC_FLAGS += -rdc=true
"""
    path = "testing/cuda/reduce_by_key.mk"
    assert _rules(path, source) == {"build.gencode"}
    assert _layers(path, source) == {"vendor-path": 1}


def test_host_device_functor_in_a_thrust_test_is_kernel_beside_library_calls() -> None:
    # testing/for_each.cu (sampled, already right: hand 42 kernel lines, lockin 42): functors
    # whose call operator is __host__ __device__ run on the GPU inside thrust::for_each; the
    # thrust calls around them are the vendor library.
    source = b"""\
#include <thrust/for_each.h>
#include <thrust/device_vector.h>

template <typename T>
struct mark_slot
{
  T* out;
  __host__ __device__ void operator()(T i) { out[(int) i] = 1; }
};

void run_test()
{
  thrust::device_vector<int> in(4, 1);
  thrust::device_vector<int> out(4, 0);
  thrust::for_each(in.begin(), in.end(), mark_slot<int>{thrust::raw_pointer_cast(out.data())});
}
"""
    path = "testing/for_each_mark.cu"
    layers = _layers(path, source)
    assert layers.get("kernel", 0) >= 1
    assert "vendor-library" in layers


def test_cmake_default_amdgpu_targets_is_vendor_path() -> None:
    # extra/CMakeLists.txt (sampled, already right): the default GPU_TARGETS list names gfx
    # architectures for the HIP build.
    source = b"""\
cmake_minimum_required(VERSION 3.16)
project(thrust_extra CXX)
if(NOT DEFINED AMDGPU_TARGETS)
  set(GPU_TARGETS gfx900;gfx906;gfx908 CACHE STRING "GPU architectures to build for")
endif()
add_executable(extra main.cpp)
"""
    path = "extra/CMakeLists.txt"
    assert "vendor-path" in _layers(path, source)


# -- LukasBanana/XShaderCompiler: HLSL test shaders ------------------------------------------


def test_hlsl_test_shader_of_a_translator_is_kernel_as_a_whole() -> None:
    # test/GeometryTest4.hlsl (sampled, already right: hand 17, lockin 17): an HLSL entry
    # point the translator's tests feed in is shader code, every code line of it.
    source = b"""\
// translator test: typedef arrays
struct Pair { float a, b; };
typedef Pair PairArr[2];

float4 VS(float4 pos : POSITION) : SV_Position
{
    PairArr p;
    p[0].a = pos.x;
    return pos * p[0].a;
}
"""
    path = "test/TypedefArrayTest.hlsl"
    layers = _layers(path, source)
    assert set(layers) == {"kernel"}
    assert layers["kernel"] == 8


# -- lucoiso/VulkanLearning: a Vulkan renderer ------------------------------------------------


def test_cmake_with_vulkan_loader_defines_alone_is_portable() -> None:
    # CMakeLists.txt (sampled, already right): VK_NO_PROTOTYPES and VMA's function-loading
    # switches configure the project's own loader wrapper and require no Vulkan SDK here.
    source = b"""\
cmake_minimum_required(VERSION 3.28)
project(renderer VERSION 0.1 LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 23)
add_definitions(-DVK_NO_PROTOTYPES)
add_definitions(-DVMA_STATIC_VULKAN_FUNCTIONS=0)
add_definitions(-DVMA_DYNAMIC_VULKAN_FUNCTIONS=1)
add_subdirectory(Core)
"""
    path = "CMakeLists.txt"
    assert set(_layers(path, source)) == {"portable"}


# -- gpustack/gpustack-ui and MetalMMagic/Ythril: no GPU code -----------------------------------


def test_locale_strings_naming_rocm_paths_are_portable() -> None:
    # src/locales/en-US/clusters.ts (sampled, already right): help text for adding a worker
    # mentions /opt/rocm and the NVIDIA toolkit; it is text shown to a user.
    source = b"""\
export default {
  'clusters.worker.amdHint':
    'If /opt/rocm is missing, link it to where ROCm is installed: ln -s /path/to/rocm /opt/rocm.',
  'clusters.worker.nvidiaHint': 'Install the NVIDIA driver and container toolkit first.',
  'clusters.worker.title': 'Add worker'
};
"""
    path = "src/locales/en-US/workers.ts"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_k8s_deployment_with_gpu_limit_only_in_a_comment_is_portable() -> None:
    # kubernetes/manifests/ollama-deploy.yaml (GPU-looking, already right): the GPU limit is a
    # commented hint; the deployment as written runs on CPU.
    source = b"""\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: llm
spec:
  template:
    spec:
      containers:
        - name: llm
          image: ollama/ollama:latest
          resources:
            limits:
              memory: 8Gi
              # on GPU nodes add:
              #   nvidia.com/gpu: "1"
"""
    path = "kubernetes/manifests/llm-deploy.yaml"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
