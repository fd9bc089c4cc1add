"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-c).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 111-120. Three had no snapshot: Ario627/Sparse-sensing-Equitable-Rolling-Allocation,
jesusluque/spark-webgpu and artuanDev/RaymarchingSDFRenderer. Fifteen files of each remaining
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts, and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10); three commits touching GPU code were drawn with
``random.Random("owner/name:commits")`` and judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- cgy1992/Rad3D: a Windows/Android engine with a 3ds Max exporter and NEON math -------------


def test_rad3d_3ds_max_material_macros_are_no_metal() -> None:
    # ThirdParty.Win32/max2010/include/imtl.h and Tools/MaxExport2010/MeshImporter.cpp: the
    # 3ds Max SDK's material flags and class ids are spelled MTL_* and MTLBASE_*. Before, nine
    # files were Metal host code for them, and a commit adding the exporter failed the gate.
    header = b"""\
#define MTL_IN_SCENE            (1<<0)
#define MTL_TEX_DISPLAY_ENABLED (1<<3)
#define MTL_LIB_CLASS_ID        0x001111
#define MTLBASE_LIB_CLASS_ID    0x003333

class MtlBase {
public:
    void SetMtlFlag(int mask, BOOL val = TRUE);
    int GetMeditObjType() { return (mtlFlags & MTL_MEDIT_OBJTYPE_MASK) >> MTL_OBJTYPE_SHIFT; }
private:
    ULONG mtlFlags;
};
"""
    assert _layers("ThirdParty.Win32/max2010/include/imtl.h", header) == {"portable": 11}
    importer = b"""\
void MeshImporter::SetupMaterial(StdMat2* mtl, BitmapTex* tex) {
    mtl->SetSubTexmap(ID_DI, tex);
    mtl->SetActiveTexmap(tex);
    mtl->SetMtlFlag(MTL_TEX_DISPLAY_ENABLED);
}
"""
    assert _layers("Tools/MaxExport2010/MeshImporter.cpp", importer) == {"portable": 5}


def test_rad3d_metal_cpp_names_stay_metal_host_code() -> None:
    # The negative: Apple's camel-case MTL names and metal-cpp's upper-case macros.
    source = b"""\
#define MTL_PRIVATE_IMPLEMENTATION
#include "render/metal_device.h"

MTL::Device* pick() { return MTL::CreateSystemDefaultDevice(); }
MTLPixelFormat colour_format() { return MTLPixelFormatBGRA8Unorm; }
NS::String* entry_name() { return MTLSTR("main0"); }
"""
    assert _rules("render/metal_device.cpp", source) == {"metal.host-api"}
    assert _layers("render/metal_device.cpp", source) == {"vendor-path": 4, "portable": 1}


def test_rad3d_armv7_neon_inline_assembly_is_no_ptx() -> None:
    # MCore/MMathNEON.h: ARMv7 NEON vector maths in inline assembly behind the project's own
    # M_SIMD_NEON switch; `vld1.32` and `vmul.f32` are dotted like PTX, but the operands are
    # NEON registers. Before, the file was 190 kernel lines of PTX.
    source = b"""\
#pragma once
#ifdef M_SIMD_NEON
namespace Rad {
    inline void NEON_Scale4(Float4* out, const Float4* v, float s) {
        asm volatile (
            // q0 = v
            "vld1.32        {d0, d1}, [%1]      \\n"
            "vdup.32        q1, %2              \\n"
            "vmul.f32       q0, q0, q1          \\n"
            "vst1.32        {d0, d1}, [%0]      \\n"
            :
            : "r"(out), "r"(v), "r"(s)
            : "q0", "q1", "memory"
        );
    }

    inline void NEON_Lerp4(Float4* out, const Float4* a, const Float4* b, float t) {
        asm volatile (
            "vld1.32        {d0, d1}, [%1]      \\n"
            "vld1.32        {d2, d3}, [%2]      \\n"
            "vsub.f32       q1, q1, q0          \\n"
            "vdup.32        q2, %3              \\n"
            "vmla.f32       q0, q1, q2          \\n"
            "vst1.32        {d0, d1}, [%0]      \\n"
            :
            : "r"(out), "r"(a), "r"(b), "r"(t)
            : "q0", "q1", "q2", "memory"
        );
    }
}
#endif
"""
    layers = _layers("MCore/MMathNEON.h", source)
    assert set(layers) == {"portable"}


# -- SHim719/D3D11_Port_folio_Thy_mesia: a Direct3D 11 game with effect-file shaders -----------


def test_thy_mesia_directxtk_d3d12_viewport_conversion_is_vendor_path() -> None:
    # External/Inc/DirectXTK/SimpleMath.h: the viewport converts to and from D3D12_VIEWPORT
    # when d3d12.h was included first; the Direct3D 11 conversions beside it are portable.
    source = b"""\
struct Viewport {
    float x, y, width, height, minDepth, maxDepth;
#if defined(__d3d11_h__) || defined(__d3d11_x_h__)
    explicit Viewport(const D3D11_VIEWPORT& vp) noexcept :
        x(vp.TopLeftX), y(vp.TopLeftY), width(vp.Width), height(vp.Height),
        minDepth(vp.MinDepth), maxDepth(vp.MaxDepth) {}
#endif
#if defined(__d3d12_h__) || defined(__d3d12_x_h__)
    explicit Viewport(const D3D12_VIEWPORT& vp) noexcept :
        x(vp.TopLeftX), y(vp.TopLeftY), width(vp.Width), height(vp.Height),
        minDepth(vp.MinDepth), maxDepth(vp.MaxDepth) {}
    operator D3D12_VIEWPORT() noexcept { return *reinterpret_cast<const D3D12_VIEWPORT*>(this); }
#endif
};
"""
    assert _rules("External/Inc/DirectXTK/SimpleMath.h", source) == {"hlsl.directml-host"}
    layers = _layers("External/Inc/DirectXTK/SimpleMath.h", source)
    assert 3 <= layers["vendor-path"] <= 6
    assert "kernel" not in layers


def test_thy_mesia_effect_file_is_kernel_code_throughout() -> None:
    # Client/Bin/ShaderFiles/Shader_Cell.hlsl: globals, the stage structs, both entry points
    # and the technique11 block that binds them are all effect-file HLSL.
    source = b"""\
#include "Shader_Defines.hlsli"

float4x4 g_WorldMatrix, g_ViewMatrix, g_ProjMatrix;
vector g_vColor;

struct VS_IN { float3 vPosition : POSITION; };
struct VS_OUT { float4 vPosition : SV_POSITION; };

VS_OUT VS_MAIN(VS_IN In)
{
    VS_OUT Out = (VS_OUT)0;
    matrix matWVP = mul(mul(g_WorldMatrix, g_ViewMatrix), g_ProjMatrix);
    Out.vPosition = mul(float4(In.vPosition, 1.f), matWVP);
    return Out;
}

float4 PS_MAIN(VS_OUT In) : SV_TARGET0
{
    return g_vColor;
}

technique11 DefaultTechnique
{
    pass Default
    {
        SetRasterizerState(RS_Default);
        VertexShader = compile vs_5_0 VS_MAIN();
        PixelShader = compile ps_5_0 PS_MAIN();
    }
}
"""
    assert _layers("Client/Bin/ShaderFiles/Shader_Cell.hlsl", source) == {"kernel": 25}


# -- li-guohao/asam-attention and RobRoyce/cudnn_performance_model: scripts around CUDA --------


def test_asam_runner_checking_nvidia_smi_and_installing_cu118_wheels() -> None:
    # experiments/run_on_3060.sh: stops without nvidia-smi, then installs PyTorch's CUDA 11.8
    # wheels before running the experiment.
    source = b"""\
#!/bin/bash
if ! command -v nvidia-smi &> /dev/null; then
    echo "ERROR: nvidia-smi not found."
    exit 1
fi
nvidia-smi --query-gpu=name,memory.total --format=csv
python3 -m venv env && source env/bin/activate
pip install torch torchvision --index-url https://download.pytorch.org/whl/cu118
python run_baseline.py
"""
    layers = _layers("experiments/run_on_3060.sh", source)
    assert layers["vendor-path"] >= 3


def test_asam_windows_runner_installing_cu118_wheels() -> None:
    # experiments/run_on_3060.bat: the Windows twin of the script above. Its nvidia-smi check
    # was found, the CUDA 11.8 wheel index was not: Batch was no language of deps.cuda-wheel.
    source = b"""\
@echo off
REM Run the experiments on the RTX 3060
python -m venv env
call env\\Scripts\\activate.bat
pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu118
pip install matplotlib numpy seaborn
python run_baseline.py
"""
    assert _rules("experiments/run_on_3060.bat", source) == {"deps.cuda-wheel"}
    assert _layers("experiments/run_on_3060.bat", source) == {"vendor-path": 1, "portable": 5}


def test_cudnn_model_profile_script_naming_its_parameter_files_is_portable() -> None:
    # run_profiles.sh: runs the benchmark binaries over parameter files whose variables are
    # named after cuDNN; the script itself calls no NVIDIA tool and sets no CUDA variable.
    source = b"""\
DEEPBENCH_BIN=/opt/deepbench/bin
CUDNN_CONV_PARAMS=/opt/model/config/cudnn_conv_params.csv
CUDNN_GEMM_PARAMS=/opt/model/config/cudnn_gemm_params.csv

cd $DEEPBENCH_BIN
echo "gemm_bench inference half"
./gemm_bench inference half $CUDNN_GEMM_PARAMS > gemm_inference_half
echo "conv_bench inference float"
./conv_bench inference float $CUDNN_CONV_PARAMS > conv_inference_float
"""
    assert _layers("run_profiles.sh", source) == {"portable": 8}


# -- ITensor/ITensor: a vendored test framework stepping around nvcc ---------------------------


def test_itensor_catch_guard_excluding_nvcc_is_portable() -> None:
    # unittest/catch.hpp: warning pragmas skipped when nvcc compiles the header; no CUDA path.
    source = b"""\
#if defined(__GNUC__) && !defined(__clang__) && !defined(__ICC) && !defined(__CUDACC__)
#    pragma GCC diagnostic push
#    pragma GCC diagnostic ignored "-Wunused-variable"
#endif
namespace Catch { struct SourceLineInfo { const char* file; std::size_t line; }; }
"""
    assert _layers("unittest/catch.hpp", source) == {"portable": 5}
