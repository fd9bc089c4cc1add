"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-random-e).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (the name's text only, so some are no GPU code at all).
This lane took sub-pool positions 306-313. One was skipped: pest88-spec/keycuda-p1-perf-002
(306) had no snapshot to fetch. Read were risejoaquin/FULL-METAL-CASH (a C# point-of-sale
system with a React dashboard and PowerShell/SQL operations scripts, "metal" only in its
name), vudat1710/deepneural_pycuda (a small neural-network library on PyCUDA and scikit-cuda:
CUDA C in ElementwiseKernel, ReductionKernel and SourceModule strings, cuBLAS gemv through
skcuda, a torch LSTM baseline), developmentconexus-ops/MetalDocs (design documents and one CI
workflow of a document-management product, no GPU code), eliotttesnier/RayTracer (a C++ CPU
ray tracer with SFML output and plug-in primitives), mausimus/ShaderGlass (a Windows overlay
that runs RetroArch shaders over captured screens with Direct3D 11: HLSL held in raw strings
of C++ headers, most of them generated and left out, and a converter that runs glslang,
SPIRV-Cross and fxc), mohammadt3anii/MobileRayTracer (an Android CPU ray tracer in C++ and
Java showing its image through four OpenGL ES GLSL shaders) and
JuliaSparse/SuiteSparseGraphBLAS.jl (Julia bindings for SuiteSparse:GraphBLAS that compile
user operators to CPU bitcode with GPUCompiler). Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. One sampled file was
wrong before: deepneural_pycuda's test.py takes ``gpuarray`` through a star import of the
project's helpers and uploads its inputs with ``gpuarray.to_gpu``, while pycuda.host-api
asked for a pycuda import in the file; PyCUDA's upload call now opens that gate on its own.
Outside the sample, ShaderGlass.sln listed glslangValidator.exe among its Solution Items and
build.vulkan took that file entry for a compile step; it no longer does. The other tests pin
verdicts worth keeping. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading
that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- vudat1710/deepneural_pycuda: a neural-network library on PyCUDA -----------------------


def test_pycuda_upload_through_a_star_import_is_vendor_path() -> None:
    # test.py (sampled, portable before): gpuarray comes from `from utils.utils import *`,
    # the file itself imports no pycuda, and uploads each test input with gpuarray.to_gpu.
    source = b"""\
from helpers.gpu_ops import *
from helpers.losses import *


def check_scale():
    host = np.random.rand(2, 4).astype(np.float32)
    dev = gpuarray.to_gpu(host)
    print(scale_gpu(dev, 2.0).get())


def check_exp():
    dev = gpuarray.to_gpu(np.arange(6, dtype=np.float64))
    print(exp_gpu(dev))
"""
    path = "test.py"
    assert "pycuda.host-api" in _rules(path, source)
    layers = _layers(path, source)
    assert set(layers) - {"portable"} == {"vendor-path"}
    assert layers["vendor-path"] == 2


def test_pycuda_upload_name_of_another_object_stays_portable() -> None:
    # The gate is the gpuarray module's call: a method named to_gpu on a project object, or
    # a helper whose name holds the words, is no PyCUDA.
    source = b"""\
from helpers.tensors import *


def check_move(batch, cache):
    moved = batch.to_gpu()
    kept = cache.gpuarray_to_gpu(moved)
    return kept
"""
    assert "pycuda.host-api" not in _rules("test_move.py", source)


def test_pycuda_elementwise_and_curand_template_are_kernel() -> None:
    # model/operations.py (sampled, right): CUDA C statements in ElementwiseKernel calls, a
    # curand dropout kernel in a %-template compiled by SourceModule, cuBLAS gemv via skcuda.
    source = b'''\
import pycuda.autoinit
from pycuda import gpuarray
import pycuda.driver as drv
from pycuda.elementwise import ElementwiseKernel
from pycuda.compiler import SourceModule
from skcuda import cublas

handle = cublas.cublasCreate()

halve_ker = ElementwiseKernel(
    "float *out, float *inp",
    "out[i] = 0.5f * inp[i]",
    "halve_ker")

mask_template = """
#include <curand_kernel.h>
extern "C" {
__global__ void keep_%(t)s(%(t)s *m, int n, float p) {
    curandState st;
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    curand_init(1234ULL + k, 0, 0, &st);
    if (k < n) m[k] = curand_uniform(&st) < p ? 0 : 1;
}
}
"""

keep_float = SourceModule(no_extern_c=True,
                          source=mask_template % {"t": "float"}).get_function("keep_float")


def matvec(a, x, y):
    cublas.cublasSgemv(handle, "n", a.shape[1], a.shape[0], 1.0, a.gpudata,
                       a.shape[1], x.gpudata, 1, 0.0, y.gpudata, 1)
    return y
'''
    path = "model/operations.py"
    layers = _layers(path, source)
    assert {"kernel", "vendor-library", "vendor-path"} <= set(layers)
    assert layers["kernel"] >= 10


def test_skcuda_linalg_and_device_switch_are_vendor_library_and_path() -> None:
    # model/tensor_new.py (sampled, right): a tensor class that keeps data on the GPU when
    # device == 'cuda', multiplying with skcuda's linalg.dot (cuBLAS) there.
    source = b"""\
import numpy as np
import pycuda.autoinit
from pycuda import gpuarray
from skcuda import linalg

linalg.init()


class Tensor:
    def __init__(self, data, device="cuda"):
        self.device = device
        self.data = gpuarray.to_gpu(data) if device == "cuda" else data

    def mm(self, other):
        if self.device == "cuda":
            return Tensor(linalg.dot(self.data, other.data), device="cuda")
        return Tensor(np.dot(self.data, other.data), device="cpu")
"""
    path = "model/tensor_new.py"
    layers = _layers(path, source)
    assert set(layers) - {"portable"} == {"vendor-library", "vendor-path"}


def test_settings_device_string_is_vendor_path() -> None:
    # settings.py (sampled, right): the training device named in the settings module.
    source = b"""\
TRAIN_BS = 256
# where the model runs
DEVICE = 'cuda'
NUM_EPOCHS = 5
"""
    layers = _layers("settings.py", source)
    assert set(layers) - {"portable"} == {"vendor-path"}
    assert layers["vendor-path"] == 1


# -- mausimus/ShaderGlass: a Direct3D 11 shader overlay ------------------------------------


def test_hlsl_pass_in_a_raw_string_is_kernel() -> None:
    # Shaders/PassthroughShaderDef.h (extra kernel file, right): the pass's HLSL pixel shader
    # kept as C++ raw-string source beside its compiled byte code.
    source = b"""\
#pragma once

namespace CopyPassDefs
{
const BYTE sPixelByteCode[] = { 68, 88, 66, 67, 1, 2, 3, 4 };
}

struct CopyPass
{
    CopyPass()
    {
        PixelSource = R"(
Texture2D<float4> Source : register(t2);
SamplerState Source_smp : register(s2);

struct PSIn { float2 uv : TEXCOORD0; };
struct PSOut { float4 color : SV_Target0; };

PSOut main(PSIn input)
{
    PSOut o;
    o.color = float4(Source.Sample(Source_smp, input.uv).rgb, 1.0f);
    return o;
}
)";
    }
    const char* PixelSource;
};
"""
    path = "ShaderGlass/Shaders/CopyShaderDef.h"
    assert "hlsl.source-string" in _rules(path, source)
    layers = _layers(path, source)
    assert set(layers) - {"portable"} == {"kernel"}
    assert 9 <= layers["kernel"] <= 14


def test_solution_items_listing_the_shader_compiler_is_portable() -> None:
    # ShaderGlass.sln (non-portable list, vendor-path before): the Solution Items section
    # names glslangValidator.exe as a file shipped beside the projects; nothing runs it here.
    source = b"""\
Microsoft Visual Studio Solution File, Format Version 12.00
Project("{8BC9CEB8}") = "Overlay", "Overlay\\Overlay.vcxproj", "{1111-2222}"
EndProject
Project("{2150E333}") = "Solution Items", "Solution Items", "{6666-7777}"
\tProjectSection(SolutionItems) = preProject
\t\tREADME.md = README.md
\t\tTools\\glslangValidator.exe = Tools\\glslangValidator.exe
\t\tTools\\spirv-cross.exe = Tools\\spirv-cross.exe
\tEndProjectSection
EndProject
"""
    path = "Overlay.sln"
    assert "build.vulkan" not in _rules(path, source)
    assert set(_layers(path, source)) == {"portable"}


def test_batch_script_running_glslang_stays_vendor_path() -> None:
    # The narrowing keeps a script that runs the compiler by its path.
    source = b"""\
@echo off
Tools\\glslangValidator.exe -V shaders\\blit.vert -o out\\blit.vert.spv
"""
    path = "tools/compile.bat"
    assert "build.vulkan" in _rules(path, source)


def test_direct3d11_overlay_host_code_is_portable() -> None:
    # ShaderGlass.cpp / ShaderPass.h (sampled, right): Direct3D 11 device, context, shader
    # and buffer objects drive any vendor's Windows GPU, like OpenGL host code.
    source = b"""\
#include <d3d11.h>
#include <winrt/base.h>

class Pass
{
public:
    void Create(ID3D11Device* device, const BYTE* vs, size_t vsLen)
    {
        device->CreateVertexShader(vs, vsLen, nullptr, m_vertexShader.put());
        D3D11_BUFFER_DESC desc = {};
        desc.ByteWidth = 64;
        desc.BindFlags = D3D11_BIND_CONSTANT_BUFFER;
        device->CreateBuffer(&desc, nullptr, m_constants.put());
    }
    void Draw(ID3D11DeviceContext* ctx)
    {
        ctx->VSSetShader(m_vertexShader.get(), nullptr, 0);
        ctx->Draw(4, 0);
    }
private:
    winrt::com_ptr<ID3D11VertexShader> m_vertexShader;
    winrt::com_ptr<ID3D11Buffer> m_constants;
};
"""
    assert set(_layers("ShaderGlass/Pass.cpp", source)) == {"portable"}


# -- mohammadt3anii/MobileRayTracer: an Android CPU ray tracer ----------------------------


def test_gles_fragment_shader_asset_is_kernel() -> None:
    # app/src/main/assets/Shaders/*.glsl (extra kernel files, right): OpenGL ES 2 shaders that
    # show the traced image; every code line is shader code.
    source = b"""\
#version 100

precision mediump float;

uniform sampler2D frameTexture;
varying vec2 uv;

void main () {
\tvec4 c = texture2D(frameTexture, uv);
\tgl_FragColor = vec4(c.rgb, 1.0);
}
"""
    layers = _layers("app/src/main/assets/Shaders/Present.glsl", source)
    assert set(layers) == {"kernel"}
    assert layers["kernel"] == 8


def test_cpu_shading_class_named_shader_is_portable() -> None:
    # app/Components/Shaders/PathTracer.hpp (sampled, right): a CPU shading model that the
    # tracer calls per ray; the folder's name is no GPU code.
    source = b"""\
#ifndef COMPONENTS_SHADERS_PATHTRACER_HPP
#define COMPONENTS_SHADERS_PATHTRACER_HPP

#include "MobileRT/Shader.hpp"

namespace Components {
    class PathTracer final : public MobileRT::Shader {
    public:
        explicit PathTracer(MobileRT::Scene scene, ::std::int32_t bounces) noexcept;
    private:
        bool shade(::glm::vec3 *rgb, const MobileRT::Intersection &hit) noexcept final;
    };
}

#endif
"""
    assert set(_layers("app/Components/Shaders/PathTracer.hpp", source)) == {"portable"}


# -- JuliaSparse/SuiteSparseGraphBLAS.jl: GraphBLAS bindings ------------------------------


def test_gpucompiler_for_cpu_bitcode_is_portable() -> None:
    # src/GrB/compiler.jl (GPU-looking, right): GPUCompiler drives Julia's code generation to
    # LLVM bitcode for the host CPU's triple, which GraphBLAS's JIT links; no GPU target.
    source = b"""\
using GPUCompiler, LLVM

Base.@kwdef struct HostBitcodeTarget <: GPUCompiler.AbstractCompilerTarget
    triple::String = Sys.MACHINE
    cpu::String = Sys.CPU_NAME
end

GPUCompiler.llvm_triple(t::HostBitcodeTarget) = t.triple

function emit_bitcode(job)
    GPUCompiler.JuliaContext() do ctx
        ir, meta = GPUCompiler.codegen(:llvm, job; strip=true, validate=false)
        return string(ir)
    end
end
"""
    assert set(_layers("src/GrB/compiler.jl", source)) == {"portable"}


# -- risejoaquin/FULL-METAL-CASH: a point-of-sale system -----------------------------------


def test_metal_in_a_service_url_is_portable() -> None:
    # src/api/posServerClient.ts (GPU-looking, right): "metal" only in the deployment's
    # host name.
    source = b"""\
const defaultBaseUrl =
  import.meta.env.VITE_API_BASE_URL ?? 'https://iron-metal-till.example.app';

export async function getHealth(): Promise<string> {
  const res = await fetch(`${defaultBaseUrl}/health`);
  return res.text();
}
"""
    assert set(_layers("src/api/serverClient.ts", source)) == {"portable"}
