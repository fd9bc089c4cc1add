"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-b).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 770-776. Three had no snapshot and were skipped, not
replaced: yelkhamra/rocm-systems, saman-amd/rocm-systems and cordanaLLM/praetor. Four were
read: raydac/nano-vllm-java (a CPU-only LLM inference library in Java, no GPU code; its
"kernels" are Java vector-API loops), NeuralBlitz/fishstick (a large PyTorch framework whose
GPU code is device strings and torch.cuda calls), CodeAlexx/EriDiffusion (diffusion-model
training in Rust on the flame_core CUDA tensor crate, with .cu kernels and CUDA C in raw
strings) and nik-xyz/webgl-pathtracer (a WebGL2 path tracer: GLSL fragment-shader pieces
joined by JavaScript; CoffeeScript holding the GLSL in strings early in its history). Fifteen
files of each repository were sampled with ``random.Random("owner/name")`` over every file
lockin counts and labelled before any fix, with the files lockin calls non-portable (up to
20) and GPU-looking files it calls portable (up to 10) checked apart, up to five more kernel
files counted by hand, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- CodeAlexx/EriDiffusion: a CUDA tensor crate's device handle, asked for by name ----------


def test_a_lower_case_cuda_device_constructor_and_handle_call_are_vendor_path() -> None:
    # eridiffusion/src/bin/test_permute.rs: flame_core's Device::cuda(0) opens the GPU and
    # .cuda_device_arc() hands its CUDA device to a tensor constructor. Before, both read as
    # portable.
    source = b"""\
use flame_core::{Device, Shape, Tensor};

fn main() -> anyhow::Result<()> {
    let gpu = Device::cuda(0)?;
    let x = Tensor::ones(Shape::from_dims(&[4, 8]), gpu.cuda_device_arc())?;
    println!("{:?}", x.shape());
    Ok(())
}
"""
    path = "src/bin/shape_probe.rs"
    assert _rules(path, source) == {"cuda.rust-bindings"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 5}


def test_a_snake_case_conversion_to_the_cuda_device_is_vendor_path() -> None:
    # eridiffusion/crates/data/src/image_dataset.rs: the dataset turns its own device enum
    # into flame_core's CUDA device (`self.device.to_flame_cuda()?`) before uploading
    # images; src/trainers/checkpoint_manager.rs asks `self.device.cuda_device()` the same way.
    source = b"""\
impl Loader {
    pub fn batch(&self, pixels: Vec<f32>, dims: Vec<usize>) -> Result<Tensor> {
        let dev = self.device.to_flame_cuda()?;
        let t = Tensor::from_vec(pixels, Shape::from_dims(&dims), dev)?;
        Ok(t)
    }

    pub fn restore(&self, data: Vec<f32>, dims: Vec<usize>) -> Result<Tensor> {
        Tensor::from_vec(data, Shape::from_dims(&dims), self.device.cuda_device().clone())
    }
}
"""
    path = "crates/data/src/loader.rs"
    assert _rules(path, source) == {"cuda.rust-bindings"}
    assert _layers(path, source)["vendor-path"] >= 2


def test_an_apps_own_device_enum_cuda_variant_is_vendor_path() -> None:
    # eridiffusion/inference/bin/sdxl_cli.rs: `ModelDevice::Cuda(args.device)`, the core
    # crate's Device renamed on import, picks the CUDA build of the pipeline.
    source = b"""\
use sdcore::Device as RunDevice;

fn build(ordinal: usize) -> Result<Pipeline> {
    let pipe = Pipeline::new(RunDevice::Cuda(ordinal))?;
    Ok(pipe)
}
"""
    path = "inference/bin/run_cli.rs"
    assert _rules(path, source) == {"cuda.rust-bindings"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 4}


def test_generic_device_use_in_rust_stays_portable() -> None:
    # eridiffusion/crates/models/hunyuan/src/lib.rs and src/trainers/lora/collection.rs: the
    # framework's Device passed through and `x.device().clone()` name no vendor; a variable
    # named for CUDA is no call. Already right before this lane.
    source = b"""\
fn zeros_like(x: &Tensor) -> Result<Tensor> {
    let cuda_devices_seen = 1usize;
    let t = Tensor::zeros(x.shape().clone(), x.device().clone())?;
    let _ = cuda_devices_seen;
    Ok(t)
}
"""
    path = "crates/models/demo/src/lib.rs"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 6}


def test_a_cuda_kernel_in_a_rust_raw_string_counts_from_its_first_line() -> None:
    # eridiffusion/crates/common/vae/src/sdxl.rs: a bf16 finishing kernel kept in an r#"..."#
    # string for NVRTC. Already in range before this lane (14 of 12-by-hand kernel lines).
    source = b"""\
const FINISH_SRC: &str = r#"
#include <cuda_bf16.h>

extern "C" __global__ void scale_to_unit(__nv_bfloat16* buf, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) { return; }
    float v = __bfloat162float(buf[i]);
    buf[i] = __float2bfloat16_rn(fminf(fmaxf(v * 0.5f + 0.5f, 0.0f), 1.0f));
}
"#;

fn unused() {}
"""
    path = "crates/vae/src/finish.rs"
    assert "cuda.source-string" in _rules(path, source)
    assert 6 <= _layers(path, source)["kernel"] <= 9


# -- NeuralBlitz/fishstick: the fallback device string --------------------------------------


def test_a_cuda_else_cpu_default_argument_is_vendor_path() -> None:
    # fishstick/timeseries/forecasting.py: every trainer defaults its device to
    # `"cuda" if torch.cuda.is_available() else "cpu"`; the project counts the CUDA name as
    # vendor-path, one line a default. Already right.
    source = b"""\
import torch


class Runner:
    def __init__(self, net, device: str = "cuda" if torch.cuda.is_available() else "cpu"):
        self.net = net.to(device)
        self.device = device
"""
    path = "pkg/forecast/runner.py"
    assert _rules(path, source) == {"torch.device-string"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 4}


# -- raydac/nano-vllm-java: CPU "kernels" in Java ----------------------------------------------


def test_a_java_vector_api_kernel_class_is_portable() -> None:
    # nano-vllm-java/src/main/java/.../tensor/vector/VectorFloatKernels.java: the word kernel
    # names CPU SIMD loops (jdk.incubator.vector); nothing here runs on a GPU. Already right.
    source = b"""\
package demo.tensor;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

final class SimdKernels {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;

    static float dot(float[] a, float[] b) {
        var acc = FloatVector.zero(S);
        int i = 0;
        for (; i < S.loopBound(a.length); i += S.length()) {
            acc = FloatVector.fromArray(S, a, i).fma(FloatVector.fromArray(S, b, i), acc);
        }
        float sum = acc.reduceLanes(jdk.incubator.vector.VectorOperators.ADD);
        for (; i < a.length; i++) sum += a[i] * b[i];
        return sum;
    }
}
"""
    path = "src/main/java/demo/tensor/SimdKernels.java"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- nik-xyz/webgl-pathtracer: GLSL pieces joined at run time ---------------------------------


def test_a_glsl_piece_of_structs_and_uniforms_is_kernel_code_throughout() -> None:
    # shaders/geom-types.glsl and shaders/uniforms.glsl: no main, only declarations the
    # fragment shader is assembled from; every code line is device code. Already right.
    source = b"""\
const uint STRIDE = 9u;

// A ray with its reciprocal direction cached for slab tests.
struct Probe {
    vec3 origin, dir, invDir;
};

uniform highp usampler2D nodeSampler;
uniform vec3 eye;

Probe makeProbe(vec3 o, vec3 d) {
    return Probe(o, d, 1.0 / d);
}
"""
    path = "shaders/probe-types.glsl"
    assert _layers(path, source) == {"kernel": 9}


def test_a_rust_extern_block_of_cuda_memory_shims_is_vendor_path() -> None:
    # eridiffusion/crates/training/src/cuda_pinned.rs: C shims over cudaHostAlloc and
    # cudaMemcpyAsync (built from utils_pinned.cu) declared for Rust under snake_case cuda_*
    # names. Before, the file read as portable.
    source = b"""\
extern "C" {
    pub fn cuda_malloc_host_buffer(bytes: usize) -> *mut core::ffi::c_void;
    pub fn cuda_free_host_buffer(ptr: *mut core::ffi::c_void);
}
"""
    path = "crates/io/src/host_pinned.rs"
    assert _rules(path, source) == {"cuda.rust-bindings"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 2}


def test_glsl_in_a_coffeescript_triple_quoted_string_is_kernel_code() -> None:
    # shaders/RayTraceFrag.coffee (commit 902b267b, before the shaders moved to .glsl files):
    # the fragment shader is one """ string assigned to a class property. CoffeeScript came
    # from scc's table with one-quote strings only, so its lines read as portable code.
    source = b'''\
Tracer.fragSource = """
#version 300 es
precision mediump float;

in  vec2 uv;
out vec4 color;
uniform sampler2D dataSampler;

void main() {
    vec4 t = texelFetch(dataSampler, ivec2(uv * 64.0), 0);
    color = vec4(t.rgb, 1.0);
}
"""

### Compiled once the context exists. ###
Tracer.compile = (gl) -> gl.createShader(gl.FRAGMENT_SHADER)
'''
    path = "shaders/TracerFrag.coffee"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    layers = _layers(path, source)
    assert 9 <= layers["kernel"] <= 11
    assert layers["portable"] <= 4


def test_coffeescript_without_a_shader_stays_portable() -> None:
    # src/GLCommon.coffee of the same commit: texture set-up through the WebGL API, a
    # docstring-like block comment, no shader source. Already portable; pinned so the
    # language row's strings and comments read it the same.
    source = b'''\
###
Uploads a float buffer as an RGBA32F texture.
###
class GLCommon
  @floatTexture: (gl, data, width) ->
    tex = gl.createTexture()
    gl.bindTexture(gl.TEXTURE_2D, tex)
    label = """float buffer #{width} wide"""
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, width, 1, 0, gl.RGBA, gl.FLOAT, data)
    tex
'''
    path = "src/GLCommon.coffee"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}
