"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-k).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 410-417: simbleau/nbody-wasm-sim, Tugbars/VectorFFT, Masaya-Sakamoto/cublas_speed_test,
Hugo-Matias/StableDiffusion-Blazor-WebApp, hhe5361/nccl, SirAnthony/GLSL-Debugger,
pikdum/nx_tinygrad and deacix/tinygrad. Two were skipped, having no snapshot: hhe5361/nccl and
deacix/tinygrad. Fifteen files of each remaining repository were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix, with
up to twenty files lockin calls non-portable, up to ten GPU-looking files it calls portable,
three commits touching GPU code judged against ``lockin diff``, and the files lockin gives no
language looked at apart. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from bot.engine.languages import may_hold_code
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- pikdum/nx_tinygrad: an Elixir Nx compiler whose Python worker runs tinygrad ----------------


def test_nx_tinygrad_worker_defaulting_amd_to_kfd_is_vendor_path() -> None:
    # priv/worker/device.py: the AMD backend gets tinygrad's KFD interface and LLVM renderer,
    # set as DEV before tinygrad is imported. Before, portable (a sampled file).
    source = b"""\
import os


def parse_device(spec):
    backend, iface, renderer = split(spec or "CPU")
    if backend == "AMD":
        iface = iface or "KFD"
        renderer = renderer or "LLVM"
        dev = f"{iface}+AMD:{renderer}"
    else:
        dev = backend
    os.environ.setdefault("DEV", dev)
    return dev
"""
    assert _rules("priv/worker/device.py", source) == {"hip.tinygrad-amd-device"}
    assert _layers("priv/worker/device.py", source) == {"vendor-path": 1, "portable": 10}


def test_nx_tinygrad_elixir_device_parser_is_vendor_path() -> None:
    # lib/nx_tinygrad/device.ex: the same choice on the Elixir side, in a function clause
    # matching "AMD". Before, portable (a sampled file).
    source = b"""\
defmodule NxTinygrad.Device do
  defp configure("AMD", iface, renderer) do
    interface = iface || "KFD"
    renderer = renderer || "LLVM"
    {interface, renderer, "#{interface}+AMD:#{renderer}"}
  end

  defp configure(backend, iface, renderer), do: {iface, renderer, backend}
end
"""
    assert _rules("lib/nx_tinygrad/device.ex", source) == {"hip.tinygrad-amd-device"}
    assert _layers("lib/nx_tinygrad/device.ex", source) == {"vendor-path": 1, "portable": 7}


def test_nx_tinygrad_gpu_test_on_the_amd_device_is_vendor_path() -> None:
    # test/gpu/amd_smoke_test.exs: parity tests compiled for the AMD GPU by its device string.
    # Before, portable (a GPU-looking extra).
    source = b"""\
defmodule NxTinygrad.GPU.SmokeTest do
  use ExUnit.Case, async: false

  test "softmax on the GPU" do
    x = Nx.tensor([[1.0, 2.0], [0.5, 0.5]])
    f = NxTinygrad.jit(&G.softmax/1, device: "KFD+AMD:LLVM")
    assert_close(f.(x), G.softmax(x))
  end
end
"""
    assert _rules("test/gpu/amd_smoke_test.exs", source) == {"hip.tinygrad-amd-device"}
    assert _layers("test/gpu/amd_smoke_test.exs", source) == {"vendor-path": 1, "portable": 7}


def test_nx_tinygrad_module_doc_naming_the_device_is_portable() -> None:
    # lib/nx_tinygrad.ex: the usage example in @moduledoc names the AMD device string. A
    # heredoc is one string: before Elixir's heredocs were read as such, the quotes inside
    # it opened literals of their own and the rule counted the documentation.
    source = b'''\
defmodule NxTinygrad do
  @moduledoc """
  An Nx compiler that runs on tinygrad.

      predict = NxTinygrad.jit(&Model.predict/3, device: "KFD+AMD:LLVM")
  """

  def jit(fun, opts \\\\ []), do: Nx.Defn.jit(fun, Keyword.put(opts, :compiler, Compiler))
end
'''
    assert _layers("lib/nx_tinygrad.ex", source) == {"portable": 8}


def test_nx_tinygrad_example_taking_the_device_from_the_environment_is_portable() -> None:
    # examples/matmul.exs: the AMD device appears only in the comment showing how to run it.
    source = b"""\
# Run: NX_TINYGRAD_DEVICE="KFD+AMD:LLVM" mix run examples/matmul.exs
device = System.get_env("NX_TINYGRAD_DEVICE", "CPU")
f = Nx.Defn.jit(&Nx.dot/2, compiler: NxTinygrad.Compiler, device: device)
IO.inspect(f.(Nx.iota({4, 4}), Nx.iota({4, 4})))
"""
    assert _layers("examples/matmul.exs", source) == {"portable": 3}


# -- SirAnthony/GLSL-Debugger: an OpenGL shader debugger with Mesa's GLSL compiler ----------------


_GLSL_VP = b"""\
#version 120

uniform vec4 vpParams;
varying vec3 ellipsoid_Color;

void main(void)
{
    ellipsoid_Color = gl_Color.rgb;
    gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;
}
"""


def test_glsl_debugger_vertex_program_named_vp_is_glsl() -> None:
    # glsldb/shaders/pointbased_spheres.vp and .fp: GLSL 1.20 shaders under the ARB program
    # names. Before, lockin gave them no language (two extras, never drawn).
    assert may_hold_code("glsldb/shaders/pointbased_spheres.vp")
    assert _rules("glsldb/shaders/pointbased_spheres.vp", _GLSL_VP) == {"vulkan.shader-file"}
    assert _layers("glsldb/shaders/pointbased_spheres.vp", _GLSL_VP) == {"kernel": 8}
    fragment = _GLSL_VP.replace(b"gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex", b"")
    fragment = fragment.replace(b"ellipsoid_Color = gl_Color.rgb;", b"gl_FragColor = vec4(1.0);")
    assert classify("glsldb/shaders/pointbased_spheres.fp", fragment).language == "GLSL"


def test_arb_fragment_program_named_fp_stays_uncounted() -> None:
    # The negative: an ARB assembly program has no GLSL line.
    source = b"""\
!!ARBfp1.0
TEMP r0;
MOV result.color, fragment.color;
END
"""
    assert classify("shaders/flat.fp", source).language is None


def test_glsl_debugger_preprocessor_token_table_is_portable() -> None:
    # GLSLCompiler/glslang/MachineIndependent/preprocessor/tokens.h: a GLSL compiler's own
    # sources, naming extensions in its tables, are no shader (checked right).
    source = b"""\
#ifndef TOKENS_H
#define TOKENS_H
#define EOF_SY (-1)
int ReadToken(TokenStream *pTok, yystypepp *yylvalpp);
void RecordToken(TokenStream *pTok, int token, yystypepp *yylvalpp);
static const char *GL_ARB_texture_rectangle = "GL_ARB_texture_rectangle";
#endif
"""
    assert _layers("preprocessor/tokens.h", source) == {"portable": 7}


# -- Masaya-Sakamoto/cublas_speed_test: cuBLAS against BLIS, timed from Python -------------------


def test_cublas_speed_test_build_script_counts_its_nvcc_lines() -> None:
    # lib/build.sh: g++ builds the BLIS programs, nvcc the cuBLAS one (checked right).
    source = b"""\
#!/bin/bash
g++ -O3 -Iinclude -c src/utils.cpp -o build/utils.o
g++ build/cblas_test.o build/utils.o -o build/cblas_test -lblis-mt
nvcc -O3 -Iinclude -c src/cublas_test.cu -o build/cublas_test.o
nvcc build/cublas_test.o build/utils.o -o build/cublas_test -lcublas
"""
    assert _rules("lib/build.sh", source) == {"build.nvcc"}
    assert _layers("lib/build.sh", source) == {"vendor-path": 2, "portable": 2}


# -- simbleau/nbody-wasm-sim: an n-body simulation on wgpu in the browser ------------------------


def test_nbody_wasm_wgpu_instance_on_every_backend_is_portable() -> None:
    # src/render/wgpu_context.rs: wgpu picks Vulkan, Metal, DX12 or WebGPU; the comment names
    # them (checked right).
    source = b"""\
pub async fn new(window: &Window) -> WgpuContext {
    // Backends::all => Vulkan + Metal + DX12 + Browser WebGPU
    let instance = wgpu::Instance::new(wgpu::Backends::all());
    let surface = unsafe { instance.create_surface(window) };
    WgpuContext { instance, surface }
}
"""
    assert _layers("src/render/wgpu_context.rs", source) == {"portable": 5}
