"""Cases from repositories drawn at random from a GPU-named sub-pool (issue 27, lane h56-random-v).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (the name alone decides, so some are no GPU code at
all). This lane took sub-pool positions 267-273. One was skipped: Nickersoft/shader-editor
(270) had no snapshot to fetch. Read were G3993/ShaderClaw3 (a browser live-coding tool for
Interactive Shader Format shaders: some 280 GLSL .fs/.vs passes under JSON headers, the
WebGL/Three.js host in JavaScript, Puppeteer test scripts holding small shaders in strings),
gwokhou/SOL-ExecBench-ROCm (a ROCm port of a GPU kernel benchmark: Python harness and
scoring, HIP probe and template kernels loaded as PyTorch extensions, torch.cuda calls and
HIP_VISIBLE_DEVICES in tests, YAML generation rules), enpasos/jax2onnx (a JAX/Flax to ONNX
converter: a few hundred Python plugins and their tests, no GPU code beyond two parity
scripts), Casttiiel/WebGPUEngine (a TypeScript WebGPU deferred renderer whose shaders are
WGSL kept as assets/shaders/*.fs and *.vs beside a few .wgsl includes),
KwpGitHub/vulkan_ep (an ONNX execution provider on Vulkan: GLSL compute shaders, ncnn-style
layers, SPIR-V kept as hex arrays in C++ sources) and zjd1988/tensorrt_wrapper_for_onnx (a
TensorRT wrapper for ONNX models with its own CUDA kernels and plugins, a vendored CUB 1.8
and jsoncpp). Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (up to 5 a repository), and
three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. One miss was found: WebGPUEngine's WGSL shaders under the .fs and .vs names
were given no language, so they counted no lines and a commit growing one passed the gate.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Casttiiel/WebGPUEngine: WGSL shaders under GLSL's stage extensions -------------------------


def test_wgsl_fragment_shader_named_fs_is_kernel() -> None:
    # assets/shaders/ambient.fs (missed before: no language, no lines; a commit growing it by
    # some 60 lines passed the gate): a WGSL fragment pass with bound uniforms and textures,
    # pulled together by the engine's own #include preprocessor.
    source = b"""\
#include "common/camera"

struct LightParams {
    color: vec3<f32>,
    intensity: f32,
}

@group(0) @binding(0) var<uniform> camera: Camera;
@group(1) @binding(0) var<uniform> light: LightParams;
@group(1) @binding(1) var albedoTex: texture_2d<f32>;

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let base = textureLoad(albedoTex, vec2<i32>(uv * 512.0), 0).rgb;
    return vec4<f32>(base * light.color * light.intensity, 1.0);
}
"""
    path = "assets/shaders/lighting.fs"
    assert _rules(path, source) == {"wgsl.shader-file"}
    assert _layers(path, source) == {"kernel": 13}


def test_wgsl_vertex_shader_named_vs_is_kernel() -> None:
    # assets/shaders/presentation.vs (missed before): a full-screen triangle's vertex stage,
    # no bound resource, only the @vertex entry point tells it is WGSL.
    source = b"""\
struct VertexOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

@vertex
fn main(@builtin(vertex_index) i: u32) -> VertexOut {
    var corners = array<vec2<f32>, 3>(vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
    var out: VertexOut;
    out.pos = vec4<f32>(corners[i], 0.0, 1.0);
    out.uv = corners[i] * 0.5 + 0.5;
    return out;
}
"""
    path = "assets/shaders/quad.vs"
    assert _rules(path, source) == {"wgsl.shader-file"}
    assert _layers(path, source) == {"kernel": 12}


def test_fsharp_source_under_fs_stays_portable() -> None:
    # Negative for the WGSL heuristic: F# owns .fs too, and has no stage attribute, bound
    # resource or address-space variable.
    source = b"""\
module App.Program

open System

[<EntryPoint>]
let main argv =
    let group = argv |> Array.groupBy id
    printfn "%A" group
    0
"""
    path = "src/App/Program.fs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_webgpu_pipeline_setup_in_typescript_is_portable() -> None:
    # src/renderer/resources/Technique.ts (GPU-looking, already right): the WebGPU host API
    # runs on every vendor's adapter; only the shaders it loads are counted as kernel.
    source = b"""\
export function createBlitPipeline(device: GPUDevice, module: GPUShaderModule): GPURenderPipeline {
  return device.createRenderPipeline({
    layout: 'auto',
    vertex: { module, entryPoint: 'main' },
    fragment: { module, entryPoint: 'main', targets: [{ format: 'bgra8unorm' }] },
    primitive: { topology: 'triangle-list' },
  });
}
"""
    path = "src/renderer/Blit.ts"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- G3993/ShaderClaw3: ISF shaders and their browser host ---------------------------------------


def test_isf_fragment_pass_stays_glsl_kernel() -> None:
    # shaders/droste_spiral.fs (sampled, already right): GLSL under an ISF JSON header, which
    # the WGSL heuristic placed before the GLSL one must leave to GLSL.
    source = b"""\
/*{
  "DESCRIPTION": "soft glow",
  "INPUTS": [ { "NAME": "radius", "TYPE": "float", "DEFAULT": 0.3 } ]
}*/
void main() {
    vec2 uv = gl_FragCoord.xy / RENDERSIZE.xy;
    float d = length(uv - 0.5);
    gl_FragColor = vec4(vec3(smoothstep(radius, 0.0, d)), 1.0);
}
"""
    path = "shaders/glow.fs"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 5}


# -- gwokhou/SOL-ExecBench-ROCm: HIP probes and a torch.cuda harness -----------------------------


def test_hip_probe_kernel_counts_only_its_device_function() -> None:
    # src/sol_execbench/data/hardware_calibration_probes/stream_copy_fp32_fp32.hip (extra,
    # already in range): a copy kernel of four lines, then a host main on the HIP runtime.
    source = b"""\
#include <hip/hip_runtime.h>
#include <vector>

__global__ void copy_probe(const float* src, float* dst, size_t n) {
  const size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { dst[i] = src[i]; }
}

int main() {
  const size_t n = 1 << 20;
  std::vector<float> host(n, 1.0f);
  float *src = nullptr, *dst = nullptr;
  hipMalloc(&src, n * sizeof(float));
  hipMalloc(&dst, n * sizeof(float));
  hipMemcpy(src, host.data(), n * sizeof(float), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(copy_probe, dim3(n / 256), dim3(256), 0, 0, src, dst, n);
  hipDeviceSynchronize();
  hipFree(src);
  hipFree(dst);
  return 0;
}
"""
    path = "src/probes/copy_probe.hip"
    layers = _layers(path, source)
    assert layers["kernel"] == 4
    assert layers["vendor-path"] >= 6


def test_torch_cuda_cache_release_in_rocm_port_is_vendor_path() -> None:
    # src/sol_execbench/core/solar_bridge/formal_device.py (commit c84869e, gate failed, right):
    # synchronising and emptying the device cache through torch.cuda is an edit on another
    # vendor's stack even when the build underneath is ROCm's.
    source = b"""\
import torch


def release_device_memory(device: str) -> None:
    selected = torch.device(device)
    with torch.cuda.device(selected):
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
"""
    path = "src/bench/formal_device.py"
    assert "vendor-path" in _layers(path, source)


# -- KwpGitHub/vulkan_ep: SPIR-V blobs beside their GLSL sources ---------------------------------


def test_spirv_words_in_a_cpp_array_are_portable() -> None:
    # c_api/include/shaders/maxpool1d_spv.cpp (sampled, already right): the compiled SPIR-V
    # of a .comp shader kept as a word array; its GLSL source is counted where it lives.
    source = b"""\
#include <cstdlib>
namespace kernel { namespace shaders {

extern const unsigned int pool_spv[16] = {
    0x07230203,0x00010000,0x00080007,0x000000a1,0x00000000,0x00020011,0x00000001,0x0006000b,
    0x00000001,0x4c534c47,0x6474732e,0x3035342e,0x00000000,0x0003000e,0x00000000,0x00000001,
};

} }
"""
    path = "c_api/include/shaders/pool_spv.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- zjd1988/tensorrt_wrapper_for_onnx: a vendored CUB ------------------------------------------


def test_cub_style_device_helper_is_kernel_and_policy_struct_portable() -> None:
    # cub-1.8.0/cub/thread/thread_search.cuh (sampled, already in range): device functions
    # are kernel lines; a tuning-policy template of enums beside them is plain C++.
    source = b"""\
template <int THREADS, int ITEMS>
struct SearchPolicy
{
    enum { BLOCK_THREADS = THREADS, ITEMS_PER_THREAD = ITEMS };
};

template <typename It, typename T>
__device__ __forceinline__ int LowerBound(It data, int n, T key)
{
    int lo = 0;
    while (n > 0) {
        int half = n >> 1;
        if (data[lo + half] < key) { lo += half + 1; n -= half + 1; }
        else { n = half; }
    }
    return lo;
}
"""
    path = "third_party/cub/thread/search.cuh"
    layers = _layers(path, source)
    assert 10 <= layers["kernel"] <= 12
    assert layers["portable"] >= 4
