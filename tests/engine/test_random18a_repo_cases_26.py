"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-a).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 1-7. Two were skipped: 0z5a/vllm-omni (4) and
BlastWind/OmniStax (6) had no snapshot to fetch. Read were Gistix/CreationEngineRaytracing
(a path-traced renderer injected into Skyrim and Fallout 4: C++ host code on NVRHI over
Direct3D 11/12 and Vulkan, DXC compiling HLSL ray-generation, hit and compute shaders, NVAPI's
HLSL extensions, and interop .hlsli headers shared between C++ and HLSL),
Junang-Wang-2004/AI-code-detector-with-Transformer (a CodeBERT classifier of human or LLM
written code: one training notebook on torch with CUDA, and some 24,000 small Python
solutions of programming puzzles as its data set), TritonDataCenter/pkgsrc-joyent (Joyent's
pkgsrc packages: Makefiles, buildlink files and patches of upstream sources, no GPU code),
komei0727/muvluvgg_battle_simulator (a game battle simulator in TypeScript with a React UI,
no GPU code) and BioinformaticsPlatformWIV-ISP/CAMEL (a Python and Snakemake framework of
pathogen genomics pipelines, no GPU code). Fifteen files of each repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts and labelled before any
fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted
by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- TritonDataCenter/pkgsrc-joyent: a ports tree's patches of autotools files --------------


def test_libtool_nvcc_case_arms_in_a_ports_patch_are_portable() -> None:
    # usbredir/patches/patch-aclocal.m4 (a false positive of build.nvcc before: 3 lines): a
    # pkgsrc patch of a generated aclocal.m4 whose hunks remove libtool's compiler table,
    # `nvcc*)` arms among the others; the same arms unpatched were already portable.
    source = b"""\
$NetBSD$

Regenerated with a newer libtool.

--- aclocal.m4.orig
+++ aclocal.m4
@@ -1711,9 +1711,6 @@
       case $cc_basename in
-  nvcc*)
-    _LT_TAGVAR(lt_prog_compiler_wl, $1)='-Xlinker '
-    ;;
       xlc* | xlC*)
@@ -1916,4 +1913,4 @@
-    nvcc*) # Cuda Compiler Driver 2.2
+    pgcc*)
       lt_prog_compiler_pic='-fPIC'
@@ -2212,3 +2209,3 @@
-\tnvcc*)\t# Cuda Compiler Driver 2.2
+\tpgf77*)
 \t  tmp_flags='-shared'
"""
    path = "sysutils/usbtool/patches/patch-aclocal.m4"
    assert _rules(path, source) == set()
    assert "vendor-path" not in _layers(path, source)


def test_patch_pointing_configure_at_nvcc_stays_vendor_path() -> None:
    # The negative's counterpart: a patch line that sets the CUDA compiler is still a CUDA
    # build step, diff marker or not.
    source = b"""\
--- configure.ac.orig
+++ configure.ac
@@ -40,2 +40,3 @@
 AC_PROG_CC
+NVCC="$CUDA_HOME/bin/nvcc"
 AC_OUTPUT
"""
    path = "graphics/gputool/patches/patch-configure.ac"
    assert _rules(path, source) == {"build.nvcc"}
    assert _layers(path, source)["vendor-path"] == 1


def test_llvm_target_list_naming_nvptx_and_amdgpu_is_portable() -> None:
    # llvm6/options.mk (a GPU-looking file, already right): the package builds every LLVM
    # back end, NVPTX and AMDGPU among a dozen CPU ones; nothing here runs on a GPU.
    source = b"""\
PKG_OPTIONS_VAR=\tPKG_OPTIONS.llvm
PKG_SUPPORTED_OPTIONS=\tllvm-target-all

.include "../../mk/bsd.options.mk"

.if !empty(PKG_OPTIONS:Mllvm-target-all)
LLVM_TARGETS=\tAArch64 AMDGPU ARM Mips NVPTX PowerPC X86
.else
LLVM_TARGETS=\tX86
.endif
CMAKE_ARGS+=\t-DLLVM_TARGETS_TO_BUILD=${LLVM_TARGETS:ts;}
"""
    path = "lang/llvm/options.mk"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- Gistix/CreationEngineRaytracing: HLSL shaders, interop headers, NVRHI host code ---------


def test_interop_hlsli_counts_its_shader_side_as_kernel() -> None:
    # interop/byte4.hlsli (sampled, hand 24, lockin 24): a header included by both the C++
    # host and the HLSL shaders; the __cplusplus-only packing methods are host code (the
    # #ifdef and #endif around them stay with the shader side).
    source = b"""\
#ifndef SNORM8_HLSL
#define SNORM8_HLSL

#include "Interop.h"

struct snorm8 {
    unorm8 bits;

#ifdef __cplusplus
    void store(half v)
    {
        bits.store(v * 0.5f + 0.5f);
    }
#endif

    half load()
    {
        return bits.load() * 2.0f - 1.0f;
    }
};

#endif
"""
    path = "interop/snorm8.hlsli"
    assert _rules(path, source) == {"hlsl.shader-file"}
    assert _layers(path, source) == {"kernel": 13, "portable": 4}


def test_hlsl_ray_generation_shader_is_kernel_whole() -> None:
    # shaders/raytracing/Debug/RayGeneration.hlsl (sampled, hand 105, lockin 105): a DXR
    # ray-generation entry point with its payload and resource bindings.
    source = b"""\
#include "raytracing/include/Payload.hlsli"

RaytracingAccelerationStructure Scene : register(t0);
RWTexture2D<float4> Output : register(u0);

[shader("raygeneration")]
void Main()
{
    uint2 pixel = DispatchRaysIndex().xy;
    RayDesc ray;
    ray.Origin = float3(0, 0, 0);
    ray.Direction = float3(0, 0, 1);
    ray.TMin = 0.0f;
    ray.TMax = 1e4f;
    HitPayload payload = (HitPayload)0;
    TraceRay(Scene, RAY_FLAG_NONE, 0xFF, 0, 1, 0, ray, payload);
    Output[pixel] = float4(payload.color, 1.0f);
}
"""
    path = "shaders/raytracing/Debug/RayGen.hlsl"
    assert _rules(path, source) == {"hlsl.shader-file"}
    assert _layers(path, source) == {"kernel": 16}


def test_nvrhi_pass_compiling_hlsl_with_dxc_is_portable() -> None:
    # src/Pass/Raytracing/Common/GIComposite.cpp (sampled, already right): a compute pass on
    # NVRHI, which runs over Direct3D 11, Direct3D 12 and Vulkan, its HLSL compiled by DXC.
    source = b"""\
void Composite::CreatePipeline()
{
    auto device = GetRenderer()->GetDevice();

    winrt::com_ptr<IDxcBlob> blob;
    Shaders::Compile(blob, L"data/shaders/Composite.hlsl", defines, L"cs_6_5");
    if (!blob)
        return;

    auto cs = device->createShader({ nvrhi::ShaderType::Compute, "", "Main" },
        blob->GetBufferPointer(), blob->GetBufferSize());
    auto desc = nvrhi::ComputePipelineDesc().setComputeShader(cs).addBindingLayout(m_Layout);
    m_Pipeline = device->createComputePipeline(desc);
}
"""
    path = "src/Pass/Composite.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_renderer_header_naming_d3d12_and_vulkan_handles_is_vendor_path() -> None:
    # src/Renderer.h (a non-portable file, already right): the renderer keeps the native
    # Direct3D 12 device and takes either API's device at start-up; the rest is portable.
    source = b"""\
class Renderer
{
public:
    bool Start(ID3D12Device5* device, ID3D12CommandQueue* queue);
    bool Start(VkInstance instance, VkPhysicalDevice gpu, VkDevice device);
    nvrhi::IDevice* GetDevice() const { return m_Device; }

private:
    nvrhi::DeviceHandle m_Device;
    ID3D12Device5* m_Native = nullptr;
};
"""
    path = "src/Renderer.h"
    assert _rules(path, source) == {"hlsl.directml-host", "vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 7}


# -- Junang-Wang-2004/AI-code-detector-with-Transformer: a torch notebook, CPU numba -----------


def test_training_script_on_torch_cuda_is_vendor_path() -> None:
    # codeBERT.ipynb (the one non-portable file, already right): seeding every CUDA device,
    # the caching allocator's environment variable, cuDNN's autotuner and an OOM fallback.
    source = b"""\
import os
import torch

os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
torch.manual_seed(0)
torch.cuda.manual_seed_all(0)
torch.backends.cudnn.benchmark = True

def fit(model, batch):
    try:
        return model(batch)
    except torch.cuda.OutOfMemoryError:
        torch.cuda.empty_cache()
        return None
"""
    path = "train_detector.py"
    assert _rules(path, source) == {
        "env.cuda-variables-python",
        "torch.cuda-call",
        "torch.backends-cuda",
    }
    assert _layers(path, source) == {"vendor-path": 5, "portable": 7}


def test_numba_njit_puzzle_solution_is_portable() -> None:
    # AIGCodeSet_normalized/human_code/*.py (GPU-looking files, already right): a contest
    # solution compiled for the CPU with numba's njit; no CUDA target is named.
    source = b"""\
import numpy as np
from numba import njit

MOD = 998244353

@njit(cache=True)
def count(n, steps):
    dp = np.zeros(n + 1, np.int64)
    dp[1] = 1
    for i in range(2, n + 1):
        for s in steps:
            if i - s >= 1:
                dp[i] = (dp[i] + dp[i - s]) % MOD
    return dp[n]
"""
    path = "data/human_code/p01234.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- BioinformaticsPlatformWIV-ISP/CAMEL: a pipeline's GPU resource key ----------------------


def test_snakemake_resource_named_gpu_is_portable() -> None:
    # camel/tests/core/utils/snakeutils/test_snakeutils.py (a GPU-looking file, already
    # right): a scheduler resource called GPU handed to snakemake's command line.
    source = b"""\
def test_resources_are_passed(self):
    command = build_snakemake_command(
        SNAKEFILE, CONFIG, [], self.workdir, resources={"RAM": 2, "GPU": 4})
    self.assertIn("GPU", command.command, "resource missing")
"""
    path = "tests/utils/test_snake.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
