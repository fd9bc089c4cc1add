"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-v).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 735-741 and skipped none. Read were blixt/voxels (a Rust
voxel world: wgpu renderer with WGSL shaders, a candle Metal terrain-diffusion crate, a
TypeScript client), dariopagliaricci/Metal-PathTracer-arm64 (an Objective-C++ path tracer on
Metal with .metal shaders and an Embree CPU back end), vsg-dev/VulkanSceneGraph (a C++ scene
graph on the Vulkan API, its shader sets baked into byte arrays), Motifman/llm-rpg (a Python
LLM role-playing game, no GPU code), ai-safety-foundation/sparse_autoencoder (PyTorch sparse
autoencoders, a CUDA devcontainer image), ROCm/rocprofiler-sdk (AMD's profiler SDK: HSA and
HIP API tracing, HIP samples with kernels) and kklouzal/stable-diffusion-webui (a fork of the
AUTOMATIC1111 web UI: torch device choices for CUDA, MPS, XPU and Ascend). Snapshots missing
large blobs (two: the path tracer's Embree model and OIDN dylib, the scene graph's
pbr_ShaderSet.cpp) were checked out file by file without them. Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, files outside the sample that hold kernel
lines counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/rocprofiler-sdk: a profiler's own rccl_* names are no RCCL call ----------------------


def test_profiler_names_for_traced_rccl_records_are_no_library_call() -> None:
    # tests/tools/json-tool.cpp and source/lib/rocprofiler-sdk-tool/tool.cpp: records, buffers
    # and options for the RCCL API trace are named rccl_api_*; nothing calls RCCL.
    source = b"""\
#include <deque>
#include <cstdint>

struct rccl_trace_entry_t
{
    uint64_t begin = 0;
    uint64_t end   = 0;
};

auto rccl_trace_entries = std::deque<rccl_trace_entry_t>{};

void on_record(const rccl_trace_entry_t& e, bool rccl_trace_enabled)
{
    if(rccl_trace_enabled) rccl_trace_entries.emplace_back(e);
}
"""
    assert _rules("tools/trace-dump.cpp", source) == set()
    assert _layers("tools/trace-dump.cpp", source) == {"portable": 12}


def test_rccl_header_and_entry_point_stay_vendor_library() -> None:
    source = b"""\
#include <rccl/rccl.h>

int rccl_version()
{
    int v = 0;
    rcclGetVersion(&v);
    return v;
}
"""
    assert _rules("comm/version.cpp", source) == {"hip.library"}
    assert _layers("comm/version.cpp", source) == {"vendor-library": 2, "portable": 5}


# -- ROCm/rocprofiler-sdk: already right before this lane --------------------------------------


def test_hip_sample_kernel_counts_its_body_and_forward_declaration() -> None:
    # samples/api_callback_tracing/main.cpp: a __global__ declared near the top, defined
    # after main, launched with <<<>>> from a host function.
    source = b"""\
#include <hip/hip_runtime.h>

__global__ void
scale(float* x, int n);

void run(float* x, int n, hipStream_t s)
{
    scale<<<(n + 255) / 256, 256, 0, s>>>(x, n);
}

__global__ void
scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) x[i] *= 2.0f;
}
"""
    assert _layers("samples/scale/main.cpp", source)["kernel"] == 8


# -- kklouzal/stable-diffusion-webui: already right before this lane ---------------------------


def test_free_memory_query_on_cuda_is_vendor_path() -> None:
    # modules/sd_hijack_optimizations.py: free memory read from torch.cuda when the device is
    # CUDA, to size the attention slices.
    source = b"""\
import torch

def free_bytes(device):
    if device.type == 'cuda':
        free, _ = torch.cuda.mem_get_info(device)
        return free
    return 0
"""
    assert "vendor-path" in _layers("modules/attention_split.py", source)


# -- blixt/voxels: a Cargo dependency declared with its Metal feature on ------------------------


def test_cargo_dependency_with_metal_feature_is_vendor_path() -> None:
    # world-terrain-diffusion/Cargo.toml: candle's crates pulled in on macOS with their Metal
    # back end switched on, optional behind the crate's own feature.
    source = b"""\
[package]
name = "terrain-model"
version = "0.1.0"

[target.'cfg(target_os = "macos")'.dependencies]
candle-core = { version = "0.9", features = ["metal"], optional = true }
candle-nn = { version = "0.9", features = ["metal"], optional = true }
sha2 = "0.10"
"""
    assert _rules("terrain-model/Cargo.toml", source) == {"deps.metal-crate"}
    assert _layers("terrain-model/Cargo.toml", source) == {"vendor-path": 2, "portable": 5}


def test_cargo_wgpu_features_stay_portable() -> None:
    # render/Cargo.toml: wgpu with its WGSL front end, which reaches every vendor.
    source = b"""\
[dependencies]
wgpu = { version = "30", default-features = false, features = ["wgsl"] }
bytemuck = { version = "1", features = ["derive"] }
"""
    assert _rules("render/Cargo.toml", source) == set()
    assert _layers("render/Cargo.toml", source) == {"portable": 3}


# -- blixt/voxels: already right before this lane ----------------------------------------------


def test_wgsl_file_is_kernel_as_a_whole() -> None:
    # render/src/shaders/ui_present.wgsl: a full-screen vertex and fragment pair.
    source = b"""\
@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
    return textureLoad(src, vec2<i32>(p.xy), 0);
}
"""
    assert _layers("shaders/present.wgsl", source) == {"kernel": 11}
