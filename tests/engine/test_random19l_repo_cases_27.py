"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-l).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some are not GPU
code at all). This lane took sub-pool positions 22-28 and skipped none: every one had a
snapshot under the size limit. Read were DrTimothyAldenDavis/GraphBLAS (SuiteSparse's sparse
linear algebra in C with generated CPU kernels, and a CUDA back end of JIT-compiled kernel
templates, their host launchers and CMake), wieslawsoltes/ProGPU (a .NET UI framework on
WebGPU through wgpu-native and Dawn: C# and C++ host code, WGSL shaders, WGSL and HLSL held in
C# strings by its translators and tests, one Metal memory query), Jax0303/T2 (table retrieval
research in Python: sentence-transformer embedders that pick a CUDA device, no kernels),
Encoded404/VulkanEngineV5 (a C++ module-based Vulkan engine with Slang shaders),
EduardoArce03/Dockerizacion_PyCuda (image filters as CUDA C in PyCUDA strings behind Flask,
an Angular front end, an nvidia/cuda base image), sultim-t/RayTracedGL1 (a Vulkan ray-traced
renderer: C++ host code, GLSL ray tracing and compute shaders with GLSL helpers kept as .h
files, vendored KTX and FSR2) and jax1313-outlook/Dispatch (a freight dispatch web app in
Python and HTML, no GPU code). Fifteen files of each repository were sampled with
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

# -- sultim-t/RayTracedGL1: GLSL ray tracer, helpers and structs kept as .h -----------------


def test_glsl_struct_header_in_shader_folder_is_kernel() -> None:
    # Source/Shaders/Structs.h (sampled; portable before, 43 lines read as a C header): the
    # payload and triangle records the ray tracing shaders share, members typed with GLSL's
    # vectors and matrices, no function in the file.
    source = b"""\
#ifndef SHADER_RECORDS_H_
#define SHADER_RECORDS_H_

struct HitRecord
{
    mat3    corners;
    mat3x2  uvs[ 2 ];
    vec4    tangent;
    uint    materialIndex;
};

struct ShadowRecord
{
    uint    blocked;
};

#endif
"""
    path = "Renderer/Shaders/Records.h"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 14}


def test_struct_header_shared_with_cpp_in_shader_folder_stays_c() -> None:
    # The negative: a header the host and the shaders both include, vec4 aliased to glm's for
    # C++ under __cplusplus, is the host's layout too and stays a C header.
    source = b"""\
#pragma once
#ifdef __cplusplus
#include "glm/glm.hpp"
typedef glm::vec4 vec4;
#endif

struct LightRecord
{
    vec4 position;
    vec4 color;
};
"""
    path = "Renderer/Shaders/SharedLight.h"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_struct_with_vec_members_outside_shader_folder_stays_c() -> None:
    # The same struct in a host source folder is left to C: only a shader folder or a shader
    # name makes the vector-typed members GLSL.
    source = b"""\
struct Particle
{
    vec3 position;
    vec3 velocity;
};
"""
    assert _rules("engine/src/Particle.h", source) == set()
    assert set(_layers("engine/src/Particle.h", source)) == {"portable"}


def test_vulkan_compute_pass_host_code_is_vendor_path() -> None:
    # Source/Sharpening.h-like host class (sampled, already right): a pass that records a
    # compute dispatch with Vulkan handles.
    source = b"""\
#pragma once
#include "Common.h"

class SharpenPass
{
public:
    void Apply( VkCommandBuffer cmd, uint32_t width, uint32_t height );

private:
    VkPipeline       pipeline;
    VkPipelineLayout layout;
    int              strength = 1;
};
"""
    path = "Source/SharpenPass.h"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 8}


# -- DrTimothyAldenDavis/GraphBLAS: CUDA JIT templates and their host side -------------------


def test_cuda_jit_template_kernel_and_launch() -> None:
    # CUDA/template/GB_jit_kernel_cuda_select_bitmap.cu (sampled, hand 47, lockin 46, already
    # right): a grid-stride kernel over the entries, then the JIT entry point that launches it.
    source = b"""\
using namespace cooperative_groups ;

__global__ void mark_kernel (int8_t *keep, const int64_t n, const int64_t stride)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x ;
    int nthreads = blockDim.x * gridDim.x ;
    for (int64_t p = tid ; p < n ; p += nthreads)
    {
        keep [p] = (p % stride) == 0 ;
    }
}

extern "C" int jit_entry (int8_t *keep, int64_t n, int64_t stride, int gridsz,
    int blocksz, cudaStream_t stream)
{
    mark_kernel <<<gridsz, blocksz, 0, stream>>> (keep, n, stride) ;
    return 0 ;
}
"""
    path = "CUDA/template/jit_kernel_mark.cu"
    assert {"cuda.kernel", "cuda.launch"} <= _rules(path, source)
    layers = _layers(path, source)
    assert layers["kernel"] >= 9
    assert layers["vendor-path"] >= 1


def test_device_atomic_in_shared_c_header_is_kernel() -> None:
    # Source/monoid/include/GB_monoid_shared_definitions.h (non-portable list, already right):
    # a CPU header that, only when compiled for the GPU, defines a compare-and-swap loop.
    source = b"""\
#ifndef MONOID_ATOMIC_USER
#define MONOID_ATOMIC_USER 0
#endif

#ifdef ON_THE_GPU
static __device__ __inline__ void atomic_combine (unsigned int *p, unsigned int t)
{
    unsigned int seen = *p, expect ;
    do
    {
        expect = seen ;
        seen = atomicCAS (p, expect, expect + t) ;
    }
    while (expect != seen) ;
}
#endif
"""
    path = "Source/monoid/include/monoid_shared.h"
    assert _rules(path, source) == {"cuda.device-function"}
    layers = _layers(path, source)
    assert layers["kernel"] >= 9
    assert "vendor-path" not in layers


def test_generated_cpu_semiring_kernel_is_portable() -> None:
    # FactoryKernels/GB_AxB__plus_second_uint32.c and its siblings (sampled, already right):
    # generated C "kernels" of a semiring, OpenMP on the CPU, no device code.
    source = b"""\
#define GB_ADD(z,x,y) z = (x) + (y)
#define GB_MULT(z,a,b,i,k,j) z = (b)

GrB_Info AxB_dot_plus_second_u32 (GrB_Matrix C, const GrB_Matrix A, int nthreads)
{
    #pragma omp parallel for num_threads(nthreads) schedule(dynamic,1)
    for (int tid = 0 ; tid < nthreads ; tid++)
    {
        combine_rows (C, A, tid) ;
    }
    return (GrB_SUCCESS) ;
}
"""
    path = "FactoryKernels/AxB__plus_second_uint32.c"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- wieslawsoltes/ProGPU: WebGPU UI framework in C# ------------------------------------------


def test_metal_device_query_through_pinvoke_is_vendor_path() -> None:
    # src/ProGPU.Backend/WgpuNativeResourceSnapshot.cs (non-portable list, already right): on
    # macOS the allocated bytes come from MTLCreateSystemDefaultDevice through P/Invoke.
    source = b"""\
internal static class MacGpuMemory
{
    private const string Framework = "/System/Library/Frameworks/Metal.framework/Metal";

    public static IntPtr Device()
    {
        return MTLCreateSystemDefaultDevice();
    }

    [DllImport(Framework)]
    private static extern IntPtr MTLCreateSystemDefaultDevice();
}
"""
    path = "src/Backend/MacGpuMemory.cs"
    assert _rules(path, source) == {"metal.host-api"}
    assert _layers(path, source)["vendor-path"] == 2


def test_wgsl_function_in_csharp_test_string_is_kernel() -> None:
    # src/ProGPU.Tests/WpfShaderEffectParamsTests.cs (extra kernel file, hand 2, lockin 2): an
    # effect's WGSL entry point given as a one-line string.
    source = b"""\
public sealed class EffectKeyTests
{
    [Fact]
    public void KeyIsStable()
    {
        var effect = new ShaderEffect
        {
            Source = "fn fx_main(uv: vec2<f32>, c: vec4<f32>) -> vec4<f32> { return c; }"
        };
        Assert.StartsWith("effect_", effect.Key());
    }
}
"""
    path = "src/Tests/EffectKeyTests.cs"
    assert _rules(path, source) == {"wgsl.source-string"}
    assert _layers(path, source)["kernel"] == 1


def test_wgpu_native_ios_build_script_is_portable() -> None:
    # eng/build-wgpu-native-ios.sh (sampled, already right): cargo builds wgpu-native for the
    # iOS device and simulator with its WGSL front end and Metal back end, the only GPU API
    # iOS has; the framework above it stays on WebGPU.
    source = b"""\
#!/usr/bin/env bash
set -euo pipefail
rustup target add aarch64-apple-ios aarch64-apple-ios-sim
features="wgsl,metal"
for target in aarch64-apple-ios aarch64-apple-ios-sim; do
  cargo build --manifest-path "$src/Cargo.toml" --target "$target" --release \\
    --no-default-features --features "$features"
done
"""
    path = "eng/build-wgpu-ios.sh"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- Jax0303/T2: embedders that choose a CUDA device ------------------------------------------


def test_embedder_defaulting_to_cuda_device_is_vendor_path() -> None:
    # hart-table-retrieval/src/retrieval/embedder.py (commit d8889d72, gate failed, right): the
    # embedder picks CUDA when torch sees it and sizes its batches for it.
    source = b"""\
class LocalEmbedder:
    def __init__(self, name, device=None):
        import torch
        from sentence_transformers import SentenceTransformer

        if device is None:
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.model = SentenceTransformer(name, device=device)
        self.batch = 128 if device == "cuda" else 32
"""
    path = "retrieval/embedder.py"
    assert _layers(path, source)["vendor-path"] >= 2


# -- EduardoArce03/Dockerizacion_PyCuda: CUDA C in PyCUDA strings -----------------------------


def test_pycuda_filter_with_kernel_string_is_kernel_and_vendor_path() -> None:
    # filters/blur_filter.py (sampled, hand 10, lockin 10, already right): a CUDA kernel kept
    # in a string for SourceModule, the driver imported beside it.
    source = b'''\
import numpy as np
import pycuda.driver as drv
from pycuda.compiler import SourceModule


class Invert:
    def __init__(self):
        self.code = """
        __global__ void invert(float *src, float *dst, int w, int h)
        {
            int x = blockIdx.x * blockDim.x + threadIdx.x;
            int y = blockIdx.y * blockDim.y + threadIdx.y;
            if (x >= w || y >= h) return;
            dst[y * w + x] = 255.0f - src[y * w + x];
        }
        """
        self.fn = SourceModule(self.code).get_function("invert")
'''
    path = "filters/invert_filter.py"
    layers = _layers(path, source)
    assert layers["kernel"] >= 7
    assert layers["vendor-path"] >= 2


# -- Encoded404/VulkanEngineV5: Slang shaders -------------------------------------------------


def test_empty_slang_fragment_entry_is_kernel() -> None:
    # src/engine/shaders/depth_prepass.slang (sampled, hand 2, lockin 2): an empty fragment
    # stage for a depth-only pass is still a Slang shader.
    source = b"""\
[shader("fragment")]
void main() { }
"""
    path = "src/engine/shaders/depth_only.slang"
    assert _layers(path, source) == {"kernel": 2}
