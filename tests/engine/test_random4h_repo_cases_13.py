"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h40-random-h).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 61-70. One could not be read: JieWangnk/AortaCFD-app (no snapshot). Fifteen files of
each remaining repository (nine: torch-cublas-hgemm has nine, mnistCUDNN fourteen) were
sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10); three commits touching GPU code were drawn with
``random.Random("owner/name:commits")`` and judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- jcy9503/HLSL_DX11: Rastertek-style DirectX 11 lessons, shaders as .vs/.ps ---------------

_RASTERTEK_VS = b"""\
// Filename: light.vs
cbuffer MatrixBuffer
{
    matrix worldMatrix;
    matrix projectionMatrix;
};

struct VertexInputType
{
    float4 position : POSITION;
    float2 tex : TEXCOORD0;
};

struct PixelInputType
{
    float4 position : SV_POSITION;
    float2 tex : TEXCOORD0;
};

PixelInputType LightVertexShader(VertexInputType input)
{
    PixelInputType output;
    input.position.w = 1.0f;
    output.position = mul(input.position, worldMatrix);
    output.position = mul(output.position, projectionMatrix);
    output.tex = input.tex;
    return output;
}
"""


def test_hlsl_vertex_shader_named_vs_is_kernel() -> None:
    # HLSL_DX11/Demo09/Light.vs: the lesson's vertex shader, compiled by D3DCompileFromFile
    # from the C++ side. Before, no language owned .vs and the 38 shaders were not counted,
    # so the three sampled commits that added shaders passed the gate.
    report = classify("HLSL_DX11/Demo09/Light.vs", _RASTERTEK_VS)
    assert report.language == "HLSL"
    assert _rules("HLSL_DX11/Demo09/Light.vs", _RASTERTEK_VS) == {"hlsl.shader-file"}
    assert _layers("HLSL_DX11/Demo09/Light.vs", _RASTERTEK_VS) == {"kernel": 24}


def test_hlsl_pixel_shader_named_ps_is_kernel() -> None:
    # HLSL_DX11/FogShader/Fog.ps: a pixel shader, its only semantic on the entry point.
    source = b"""\
Texture2D shaderTexture;
SamplerState SampleType;

float4 FogPixelShader(float4 position : SV_POSITION, float2 tex : TEXCOORD0) : SV_TARGET
{
    float4 color = shaderTexture.Sample(SampleType, tex);
    return 0.5f * color;
}
"""
    assert classify("HLSL_DX11/FogShader/Fog.ps", source).language == "HLSL"
    assert _layers("HLSL_DX11/FogShader/Fog.ps", source) == {"kernel": 7}


def test_direct3d_effect_file_is_kernel() -> None:
    # A Direct3D 9-era effect (.fx): semantics without SV_ and a technique block.
    source = b"""\
float4x4 WorldViewProj;

float4 VS(float4 pos : POSITION) : POSITION
{
    return mul(pos, WorldViewProj);
}

technique Basic
{
    pass P0 { VertexShader = compile vs_2_0 VS(); }
}
"""
    assert classify("effects/basic.fx", source).language == "HLSL"
    assert _layers("effects/basic.fx", source) == {"kernel": 9}


def test_glsl_shaders_named_vs_and_fs_are_kernel() -> None:
    # The LearnOpenGL convention (shader.vs, shader.fs) for GLSL: its #version line says so.
    vertex = b"""\
#version 330 core
layout (location = 0) in vec3 aPos;
uniform mat4 model;

void main()
{
    gl_Position = model * vec4(aPos, 1.0);
}
"""
    fragment = b"""\
#version 330 core
out vec4 FragColor;

void main()
{
    FragColor = vec4(1.0, 0.5, 0.2, 1.0);
}
"""
    assert classify("shaders/1.model.vs", vertex).language == "GLSL"
    assert _layers("shaders/1.model.vs", vertex) == {"kernel": 7}
    assert classify("shaders/1.model.fs", fragment).language == "GLSL"
    assert _layers("shaders/1.model.fs", fragment) == {"kernel": 6}


def test_postscript_and_fsharp_under_shader_extensions_are_no_shaders() -> None:
    # .ps is PostScript's and .fs F#'s elsewhere: neither has a semantic, cbuffer or #version.
    # PostScript stays uncounted; the F# module is counted as F#, portable (lane h51-random-d).
    postscript = b"""\
%!PS-Adobe-3.0
/Times-Roman findfont 12 scalefont setfont
72 720 moveto (Fog: COLOR) show
showpage
"""
    fsharp = b"""\
module Shapes
let area (w: float) (h: float) : float = w * h
printfn "%f" (area 2.0 3.0)
"""
    report = classify("docs/figure.ps", postscript)
    assert report.language is None
    assert report.code_lines == 0
    report = classify("src/Shapes.fs", fsharp)
    assert report.language == "F#"
    assert _layers("src/Shapes.fs", fsharp) == {"portable": 3}


def test_direct3d11_host_class_stays_portable() -> None:
    # HLSL_DX11/LightShaderClass.cpp: compiles the .vs/.ps above and binds them; Direct3D 11
    # host code is a cross-vendor API (tests/engine/test_render_repo_cases_7.py).
    source = b"""\
#include "LightShaderClass.h"

bool LightShaderClass::Initialize(ID3D11Device* device, HWND hwnd)
{
    WCHAR vsFile[] = L"../HLSL_DX11/Demo09/Light.vs";
    WCHAR psFile[] = L"../HLSL_DX11/Demo09/Light.ps";
    return InitializeShader(device, hwnd, vsFile, psFile);
}
"""
    assert _layers("HLSL_DX11/LightShaderClass.cpp", source) == {"portable": 7}


# -- TadaoYamaoka/mnistCUDNN: cuDNN inference in C++, trained with Chainer ---------------------


def test_chainer_gpu_selection_is_a_vendor_path() -> None:
    # chainer/train_mnist.py: Chainer's CUDA back end (CuPy underneath) chosen by --gpu. Before,
    # both Chainer scripts of the sample were portable.
    source = b"""\
import chainer
from chainer import cuda
from nn import NN

model = NN()
if args.gpu >= 0:
    cuda.get_device_from_id(args.gpu).use()
    model.to_gpu()

optimizer = chainer.optimizers.SGD()
optimizer.setup(model)
"""
    assert _rules("chainer/train_mnist.py", source) == {"cupy.chainer-cuda"}
    assert _layers("chainer/train_mnist.py", source) == {"vendor-path": 2, "portable": 7}


def test_chainer_model_definition_stays_portable() -> None:
    # chainer/nn.py: links and functions only; Chainer runs them on NumPy or CuPy alike.
    source = b"""\
import chainer
import chainer.functions as F
import chainer.links as L

class NN(chainer.Chain):
    def __init__(self, k=16):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, k, ksize=3, pad=1)
            self.l2 = L.Linear(None, 10)

    def __call__(self, x):
        h = F.max_pooling_2d(F.relu(self.conv1(x)), 2)
        return self.l2(h)
"""
    assert _layers("chainer/nn.py", source) == {"portable": 12}


# -- wenxcs-archive/pycublas: cuBLAS from Python through ctypes, TensorRT-LLM MoE kernels --------


def test_tensorrt_llm_runtime_config_header_stays_portable() -> None:
    # include/tensorrt_llm/runtime/speculativeDecodingModule.h: a plain class that includes the
    # project's cudaUtils.h only for divUp; no CUDA call or device code of its own.
    source = b"""\
#pragma once
#include "tensorrt_llm/common/cudaUtils.h"

namespace tensorrt_llm::runtime
{
class DraftModule
{
public:
    explicit DraftModule(int maxDraftTokens) noexcept : mMaxDraftTokens(maxDraftTokens) {}
    int getNumPackedMasks() const noexcept { return common::divUp(mMaxDraftTokens, 32); }

private:
    int mMaxDraftTokens;
};
}
"""
    assert _layers("include/tensorrt_llm/runtime/draftModule.h", source) == {"portable": 13}


def test_host_device_accessors_count_as_kernel_lines() -> None:
    # include/tensorrt_llm/kernels/kvCacheIndex.h: a host class whose two accessors are
    # __host__ __device__, the only lines a port must rewrite as device code.
    source = b"""\
#pragma once
#include <cstdint>
#include <cuda_runtime.h>

class KVCacheIndex
{
public:
    explicit KVCacheIndex(std::int32_t value) : value{value} {}

    __host__ __device__ std::int32_t get() const
    {
        return value & 0x7fffffff;
    }

    __host__ __device__ bool isPrimary() const
    {
        return value >= 0;
    }

private:
    std::int32_t value;
};
"""
    layers = _layers("include/tensorrt_llm/kernels/kvCacheIndex.h", source)
    assert layers["kernel"] == 8
