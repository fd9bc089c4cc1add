"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-random-l).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (the name's text only, so some are no GPU code at all).
This lane took sub-pool positions 362-369. One was skipped: yuhuiaws/GPU-Fault-Recovery-System
(369) had no snapshot to fetch. Read were ROCm/OpenFOAM_HMM (OpenFOAM ported by AMD to its
GPUs through OpenMP target offload on unified memory: `omp target` loops in the solvers,
`__host__ __device__` helpers and one HIP kernel under USE_HIP, roctx ranges, wmake rules
with --offload-arch), noeyheadb/pycuda-cpa (correlation power analysis on PyCUDA: two .cu
files read, patched and compiled by SourceModule, driver-API copies in the host code),
ShaderHelper/ShaderHelper (a C++ shader editor and debugger over its own RHI with D3D12,
Vulkan and Metal back ends, HLSL shaders, vendored Agility SDK, Vulkan and metal-cpp headers),
suxiaoshao/gpui (Rust desktop apps on Zed's GPUI framework, no GPU code of their own),
MinhGiang241/app_cudan_demego (a Flutter residents' app, "cudan" from Vietnamese; no GPU code),
jskress/RayTracer (a CPU ray tracer in C#, no GPU code) and GPUOpen-Tools/GPU-Reshape (a
Vulkan and D3D12 validation layer: layer hooks, DXBC, DXIL and SPIR-V rewriting, HLSL tests,
an Avalonia UI). Fifteen files of each repository (pycuda-cpa has eight) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. No sampled file,
kernel count or commit was wrong. Outside the figures, OpenFOAM_HMM's wmake rules (make
fragments named c++, c++Opt, cOpt, link-c++ without an extension) were given no language, so
their AMD offload flags went uncounted; the names OpenFOAM's build uses are now Makefile
(RapidCFD, the CUDA port, keeps `nvcc -arch=sm_NN` in its wmake/rules/linux64Nvcc/c++). The
other tests pin verdicts worth keeping. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/OpenFOAM_HMM: OpenFOAM on AMD GPUs through OpenMP offload ------------------------


def test_wmake_optimisation_rules_naming_amd_offload_targets_are_vendor_path() -> None:
    # wmake/rules/linux64Clang/c++Opt (no language before): the optimisation flags of the
    # Clang rules build every solver for named AMD GPUs.
    source = b"""\
c++DBUG     =
c++OPT      = -O3 -std=c++17 -fopenmp --offload-arch=gfx90a,gfx942 -DUSE_OMP
"""
    path = "wmake/rules/linux64Clang/c++Opt"
    assert "build.hip-offload-arch" in _rules(path, source)
    assert _layers(path, source) == {"vendor-path": 1, "portable": 1}


def test_wmake_compiler_rule_choosing_nvcc_for_an_arch_is_vendor_path() -> None:
    # The CUDA port's counterpart (RapidCFD keeps it in wmake/rules/linux64Nvcc/c++): the C++
    # rule compiles every .C with nvcc for one NVIDIA architecture.
    source = b"""\
.SUFFIXES: .cu .C

CC          = nvcc -std=c++14 -m64 -gencode arch=compute_80,code=sm_80

include $(RULES)/c++$(WM_COMPILE_OPTION)

Ctoo        = $(WM_SCHEDULER) $(CC) $(c++FLAGS) -x cu -o $@ -c $$SOURCE
"""
    path = "wmake/rules/linux64Nvcc/c++"
    assert "build.gencode" in _rules(path, source)
    assert "vendor-path" in _layers(path, source)


def test_wmake_rule_without_gpu_flags_is_portable() -> None:
    # wmake/rules/linux64Gcc/cOpt of a CPU build: counted now, and portable.
    source = b"""\
cDBUG       =
cOPT        = -O3 -march=native
"""
    path = "wmake/rules/linux64Gcc/cOpt"
    assert _layers(path, source) == {"portable": 2}


def test_host_device_helper_under_a_hip_guard_is_kernel() -> None:
    # src/OpenFOAM/primitives/Scalar/Scalar.H (extra kernel file, in range): a small inline
    # helper made callable on the device when the HIP build asks for it.
    source = b"""\
#pragma once

inline double clampNeg(const double s)
{
    return s < 0 ? 0 : s;
}

#ifdef USE_HIP
__host__ __device__
#endif
inline double squareOf(const double s)
{
    return s*s;
}
"""
    path = "src/primitives/ScalarOps.H"
    rules = _rules(path, source)
    assert "cuda.device-function" in rules
    assert "hip.platform-guard" in rules
    layers = _layers(path, source)
    assert 5 <= layers["kernel"] <= 6
    assert layers["vendor-path"] == 1


def test_omp_target_loop_with_roctx_ranges_is_vendor_path_only() -> None:
    # src/OpenFOAM/matrices/lduMatrix/solvers/PCG/PCG.C (non-portable list, right): the
    # offloaded loop is OpenMP, portable; only the roctx ranges and their header are AMD's.
    source = b"""\
#ifdef USE_ROCTX
#include <roctracer/roctx.h>
#endif

void updateSolution(double* x, const double* p, double alpha, long n)
{
    #ifdef USE_ROCTX
    roctxRangePush("update x");
    #endif

    #pragma omp target teams distribute parallel for if(target:n>20000)
    for (long i = 0; i < n; i++)
    {
        x[i] += alpha*p[i];
    }

    #ifdef USE_ROCTX
    roctxRangePop();
    #endif
}
"""
    path = "src/matrices/solvers/CG/CG.C"
    rules = _rules(path, source)
    assert "hip.tracer" in rules
    layers = _layers(path, source)
    assert "kernel" not in layers
    assert 3 <= layers["vendor-path"] <= 9


def test_openfoam_solver_module_without_gpu_code_is_portable() -> None:
    # A sampled physics model of the same tree (e.g. a heat transfer model selector): no
    # guard, no tracer, plain C++.
    source = b"""\
template<class CloudType>
Foam::autoPtr<Foam::HeatModel<CloudType>>
Foam::HeatModel<CloudType>::New(const dictionary& dict, CloudType& owner)
{
    const word modelType(dict.get<word>("heatModel"));
    Info<< "Selecting heat model " << modelType << endl;
    return autoPtr<HeatModel<CloudType>>(ctorPtr(dict, owner));
}
"""
    assert set(_layers("src/lagrangian/HeatModel/HeatModelNew.C", source)) == {"portable"}


# -- noeyheadb/pycuda-cpa: correlation power analysis on PyCUDA -----------------------------


def test_cuda_file_with_placeholder_typedefs_is_kernel() -> None:
    # cuda_kernels/cpa_kernel.cu (sampled, 28 kernel lines, in range): typedefs the host
    # rewrites before compiling, a __device__ helper and a __global__ entry on it.
    source = b"""\
#define SAMPLES -1
typedef X T_in;

__device__ double dot_step(T_in *a, T_in *b, int n, int stride)
{
    double acc = 0;
    for (int k = 0; k < n; k += stride)
        acc += a[k] * b[k];
    return acc;
}

__global__ void correlate(double *out, T_in *a, T_in *b)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] =
        dot_step(a, b, SAMPLES, gridDim.x);
}
"""
    path = "cuda_kernels/correlate.cu"
    layers = _layers(path, source)
    assert 11 <= layers["kernel"] <= 14
    assert "vendor-path" not in layers


def test_pycuda_host_reading_its_kernel_file_is_vendor_path_only() -> None:
    # core/cpa_cuda.py (sampled, right): the .cu text is read from disk and patched, so the
    # kernel lines are counted in that file; the driver copies here are CUDA host code.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule

def run(a, b, path):
    with open(path) as fp:
        text = fp.read().replace("typedef X T_in;", "typedef double T_in;")
    fn = SourceModule(text).get_function("correlate")
    out = np.empty(256)
    d_a = drv.mem_alloc(a.nbytes)
    drv.memcpy_htod(d_a, a)
    d_out = drv.mem_alloc(out.nbytes)
    fn(d_out, d_a, d_a, block=(256, 1, 1), grid=(1, 1))
    drv.memcpy_dtoh(out, d_out)
    return out
"""
    layers = _layers("core/correlate_cuda.py", source)
    assert "kernel" not in layers
    assert layers["vendor-path"] >= 5


# -- ShaderHelper/ShaderHelper: shader editor over its own RHI -----------------------------


def test_hlsl_pixel_shader_in_a_cxx_text_literal_is_kernel() -> None:
    # Source/ShaderHelper/AssetObject/Render/MeshRenderObject.cpp (extra kernel file, 4 lines,
    # in range): a one-line pixel shader spelt over four string pieces for the RHI.
    source = b"""\
TRefCountPtr<GpuShader> MakeFlatPs()
{
    auto Ps = Rhi->CreateShaderFromSource({
        .Name   = TEXT("FlatPs"),
        .Source = TEXT("float4 Main() : SV_Target0\\n"
            "{\\n"
            "    return float4(1, 0, 1, 1);\\n"
            "}\\n"),
        .Type   = ShaderType::Pixel,
    });
    return Ps;
}
"""
    path = "Source/Render/FlatObject.cpp"
    assert "hlsl.source-string" in _rules(path, source)
    assert _layers(path, source)["kernel"] == 4


def test_hlsl_compute_shader_file_is_kernel() -> None:
    # Resource/Shaders/Mip3D.hlsl (extra kernel file, 14 lines, in range).
    source = b"""\
Texture2D<float4> Src : register(t0);
RWTexture2D<float4> Dst : register(u1);

[numthreads(8, 8, 1)]
void MainCS(uint3 Id : SV_DispatchThreadID)
{
    Dst[Id.xy] = Src[Id.xy * 2];
}
"""
    assert _layers("Resource/Shaders/Halve.hlsl", source) == {"kernel": 7}


def test_editor_code_over_its_own_gpu_abstraction_is_portable() -> None:
    # Source/ShaderHelper/Renderer/ScenePreviewRenderer.h (sampled, right): Gpu* types of the
    # project's own RHI, no D3D12, Vulkan or Metal name.
    source = b"""\
#pragma once
#include "GpuApi/GpuRhi.h"

namespace FW
{
    class PreviewRenderer
    {
    public:
        void DrawGrid(RenderGraph& Graph, GpuTextureView* Output, GpuTextureView* Depth);
    private:
        TRefCountPtr<GpuTexture> IconTex;
    };
}
"""
    assert set(_layers("Source/Renderer/PreviewRenderer.h", source)) == {"portable"}


# -- GPUOpen-Tools/GPU-Reshape: Vulkan and D3D12 validation layer --------------------------


def test_vulkan_layer_hook_is_vendor_path() -> None:
    # Source/Backends/Vulkan/Layer/Source/RenderPass.cpp (sampled, right): a layer's hook
    # calls down the dispatch table with Vulkan's types.
    source = b"""\
#include <Backends/Vulkan/Tables/DeviceDispatchTable.h>

VKAPI_ATTR VkResult VKAPI_CALL Hook_vkCreateRenderPass(
    VkDevice device, const VkRenderPassCreateInfo* info,
    const VkAllocationCallbacks* alloc, VkRenderPass* out)
{
    auto table = DeviceDispatchTable::Get(GetInternalTable(device));
    VkResult result = table->next_vkCreateRenderPass(device, info, alloc, out);
    if (result != VK_SUCCESS)
    {
        return result;
    }
    table->states_renderPass.Add(*out);
    return VK_SUCCESS;
}
"""
    layers = _layers("Source/Backends/Vulkan/Layer/Source/RenderPass.cpp", source)
    assert set(layers) == {"vendor-path", "portable"}


def test_bytecode_block_parser_is_portable() -> None:
    # .../Compiler/DXBC/Blocks/DXBCPhysicalBlockPipelineStateValidation.cpp (sampled, right):
    # reading a shader container's bytes calls no graphics API.
    source = b"""\
#include <Backends/DX12/Compiler/DXBC/DXBCParseContext.h>

void BlockReader::Parse(ParseContext& ctx)
{
    header = ctx.Consume<BlockHeader>();
    for (uint32_t i = 0; i < header.entryCount; i++)
    {
        entries.push_back(ctx.Consume<Entry>());
    }
}
"""
    assert set(_layers("Source/Compiler/DXBC/Blocks/BlockReader.cpp", source)) == {"portable"}


# -- repositories with a GPU word in the name and no GPU code ------------------------------


def test_gpui_application_code_is_portable() -> None:
    # suxiaoshao/gpui crates/gpui-form/src/lib.rs (sampled, right): a UI framework named
    # gpui; nothing here touches a device.
    source = b"""\
use gpui::{App, Context, Window};

pub struct FormField {
    pub label: String,
    pub value: String,
}

impl FormField {
    pub fn render(&self, _window: &mut Window, _cx: &mut Context<Self>) {}
}
"""
    assert set(_layers("crates/gpui-form/src/lib.rs", source)) == {"portable"}


def test_csharp_ray_tracer_material_is_portable() -> None:
    # jskress/RayTracer Core/Material.cs (GPU-looking list, right): "metallic" and "shader"
    # words in CPU ray tracing code.
    source = b"""\
namespace RayTracer.Core;

public class Material
{
    public double Metallic { get; set; }
    public double Roughness { get; set; } = 0.5;

    public Color Shade(Color light) => light * (1 - Metallic);
}
"""
    assert set(_layers("Core/Material.cs", source)) == {"portable"}


def test_flutter_model_in_a_repository_named_cudan_is_portable() -> None:
    # MinhGiang241/app_cudan_demego lib/models/province.dart (sampled, right).
    source = b"""\
class Province {
  Province({this.code, this.name});

  String? code;
  String? name;

  factory Province.fromJson(Map<String, dynamic> json) =>
      Province(code: json['code'], name: json['name']);
}
"""
    assert set(_layers("lib/models/province.dart", source)) == {"portable"}
