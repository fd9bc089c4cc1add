"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-p).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 378-384 and every one had a snapshot, so none was skipped:
SparseLinearAlgebra/cuBool (sparse boolean linear algebra on CUDA, with a Python ctypes
binding), constantinpape/torch-em (PyTorch training for microscopy segmentation),
VisActor/VRender (a TypeScript canvas renderer), omid3098/openshadergraph (a shader-graph
editor emitting GLSL and Godot shaders), darbyjohnston/tlRender (an OpenGL timeline player),
JunaMeinhold/VoxelEngine (a C# Direct3D 11 voxel engine with HLSL shaders) and
vllm-project/vllm-metal (vLLM on Apple GPUs through MLX and Metal kernels). Fifteen files of
each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, and three commits touching GPU
code judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- SparseLinearAlgebra/cuBool: a ctypes binding of a library whose C API is named cu* ----


def test_ctypes_binding_of_cu_named_library_is_portable() -> None:
    # python/pycubool/bridge.py: argtypes and restype of the library's own C functions
    # (cuBool_Matrix_New and the like); no CUDA runtime or driver call is made from Python.
    source = b"""\
import ctypes

def configure(lib):
    status_t = ctypes.c_uint
    lib.cuGraphBit_Setup.restype = status_t
    lib.cuGraphBit_Setup.argtypes = [ctypes.c_uint]
    lib.cuGraphBit_Matrix_Free.restype = status_t
    return lib
"""
    assert _rules("python/graphbit/bridge.py", source) == set()
    assert _layers("python/graphbit/bridge.py", source) == {"portable": 7}


def test_versioned_driver_call_from_python_is_still_vendor_path() -> None:
    # The driver API's versioned names (cuMemAlloc_v2) stay what they were.
    source = b"""\
from cuda import cuda

def alloc(nbytes):
    err, ptr = cuda.cuMemAlloc_v2(nbytes)
    return ptr
"""
    assert _rules("alloc.py", source) == {"cuda.python-bindings"}
    assert _layers("alloc.py", source) == {"vendor-path": 2, "portable": 2}


def test_thrust_device_lambda_is_kernel_code() -> None:
    # deps/nsparse/include/detail/fill_nz.h: a __device__ lambda handed to thrust::for_each
    # is the kernel; the launcher around it is not (pinned, already right).
    source = b"""\
#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>

template <typename I>
void count_bins(I n, I* sizes, const I* offsets) {
  thrust::for_each(thrust::counting_iterator<I>(0), thrust::counting_iterator<I>(n),
      [sizes, offsets] __device__(I row) {
        I len = offsets[row + 1] - offsets[row];
        atomicAdd(sizes + (len > 32), 1);
      });
}
"""
    layers = _layers("include/detail/bins.h", source)
    assert "kernel" in layers
    assert 4 <= layers["kernel"] <= 7


# -- omid3098/openshadergraph: tests searching generated GLSL for one statement -------------


def test_assertion_searching_for_a_glsl_statement_is_portable() -> None:
    # tests/reroute.spec.ts, tests/compile_resolve_fallback.spec.ts: the generated shader is
    # searched with toMatch(/.../) or indexOf("...") for one line; no shader is written.
    source = b"""\
describe("reroute", () => {
  it("keeps the final write", () => {
    const out = build(graph);
    expect(out.fragment).toMatch(/precision highp float;/);
    const first = out.fragment.indexOf("gl_FragColor = vec4(base, 1.0);");
    expect(first).toBeGreaterThan(0);
  });
});
"""
    assert _rules("tests/reroute.spec.ts", source) == set()
    assert _layers("tests/reroute.spec.ts", source) == {"portable": 8}


def test_one_line_fallback_fragment_shader_is_still_kernel_code() -> None:
    # src/components/PreviewPanel.tsx: a fallback material's fragment shader in one literal.
    source = b"""\
const fallback = new THREE.ShaderMaterial({
  vertexShader: baseVertex(),
  fragmentShader: "void main(){ gl_FragColor = vec4(1.0, 0.0, 1.0, 1.0); }",
});
"""
    assert _rules("src/Preview.tsx", source) == {"vulkan.glsl-string"}
    assert _layers("src/Preview.tsx", source) == {"kernel": 1, "portable": 3}


# -- pinned verdicts that were already right ---------------------------------------------


def test_torch_cuda_device_in_training_script_is_vendor_path() -> None:
    # experiments/unet-segmentation/covid-if/train_affinities.py: the trainer is pinned to
    # torch.device("cuda").
    source = b"""\
import torch

def train(model, loaders):
    trainer = make_trainer(model, loaders, device=torch.device("cuda"))
    trainer.fit(iterations=1000)
"""
    assert _rules("train.py", source) == {"torch.device-string"}
    assert _layers("train.py", source) == {"vendor-path": 1, "portable": 3}


def test_direct3d11_compute_pipeline_in_csharp_is_portable() -> None:
    # VoxelEngine/Graphics/D3D11/ComputePipelineState.cs: Direct3D 11 runs on every GPU
    # vendor's driver; binding a compute shader through it is no vendor lock-in.
    source = b"""\
using Hexa.NET.D3D11;

public unsafe class ComputeState
{
    internal ComPtr<ID3D11ComputeShader> cs;

    public void Begin(ComPtr<ID3D11DeviceContext> context)
    {
        context.CSSetShader(cs, null, 0);
    }
}
"""
    assert _rules("Graphics/ComputeState.cs", source) == set()
