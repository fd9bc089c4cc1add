"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-h).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 210-216 and every one had a snapshot, so none was skipped:
simlu/voxelshop (a Java voxel editor), eric-tramel/CSQuantization (MATLAB compressed-sensing
toolboxes), webonnx/wonnx (an ONNX runtime on wgpu with WGSL templates),
leolee9086/Better-Binary-Quantization (TypeScript and Rust-to-WebAssembly vector
quantization), Wlammm/VulkanEngine (a C++ Vulkan renderer with HLSL shaders and NVIDIA
Aftermath crash dumps), moeru-ai/auv (Rust desktop-automation drivers, ONNX Runtime inference
with CUDA features) and tensorflow/quantum (TensorFlow Quantum, qsim ops and a cuQuantum
build). Files whose blobs the snapshot lacks (Git LFS models, build output, assets) were left
out of each checkout. Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, and three commits touching GPU code judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- tensorflow/quantum: a matrix-product-state simulator is no Metal Performance Shaders -----


def test_mps_state_space_of_a_quantum_simulator_is_portable() -> None:
    # tensorflow_quantum/core/ops/math_ops/tfq_simulate_1d_samples.cc: the 1-D ops run qsim's
    # matrix-product-state simulator on the CPU; MPSStateSpace_ is its state space, not Apple's.
    source = b"""\
void ComputeSmall(const std::vector<Circuit>& circuits, int bond_dim, Tensor* out) {
  using Simulator = qsim::mps::MPSSimulator<qsim::For, float>;
  using StateSpace = Simulator::MPSStateSpace_;
  Simulator sim = Simulator(1);
  StateSpace ss = StateSpace(1);
  auto sv = ss.Create(circuits.size(), bond_dim);
  ss.SetStateZero(sv);
}
"""
    assert _rules("core/ops/math_ops/simulate_1d_samples.cc", source) == set()
    assert _layers("core/ops/math_ops/simulate_1d_samples.cc", source) == {"portable": 8}


def test_apple_mps_state_is_still_the_metal_library() -> None:
    # The other side of the exclusion: Apple's own MPSState objects stay MPS's.
    source = b"""\
MPSState *state = [kernel resultStateForSourceImage:src sourceStates:nil destinationImage:dst];
[kernel encodeToCommandBuffer:cmd sourceImage:src destinationState:state destinationImage:dst];
"""
    assert _rules("Sources/Train/step.m", source) == {"metal.mps-library"}
    assert _layers("Sources/Train/step.m", source) == {"vendor-library": 1, "portable": 1}


# -- moeru-ai/auv: Windows virtual-key codes in a module called vk ------------------------------


def test_windows_virtual_key_module_is_not_vulkan() -> None:
    # crates/auv-driver-windows/src/input.rs: key chords built from the driver's own `mod vk`
    # of VK_* codes (CONTROL, SHIFT, RETURN, the media keys); nothing here touches a GPU.
    source = b"""\
mod vk {
  pub const CONTROL: u16 = 0x11;
  pub const ESCAPE: u16 = 0x1B;
  pub const VOLUME_UP: u16 = 0xAF;
}

pub fn undo() -> Result<(), String> {
  send_chord(&[vk::CONTROL], u16::from(b'Z'))
}

fn named_key(name: &str) -> Option<u16> {
  match name {
    "esc" | "escape" => Some(vk::ESCAPE),
    "volume_up" => Some(vk::VOLUME_UP),
    _ => None,
  }
}
"""
    assert _rules("crates/driver-windows/src/keys.rs", source) == set()
    assert _layers("crates/driver-windows/src/keys.rs", source) == {"portable": 15}


def test_ash_types_through_vk_stay_vulkan() -> None:
    # The other side: ash's CamelCase types and its all-caps constants remain Vulkan's.
    source = b"""\
use ash::vk;

fn barrier(buffer: vk::Buffer) -> vk::BufferMemoryBarrier<'static> {
    vk::BufferMemoryBarrier::default().buffer(buffer).size(vk::WHOLE_SIZE)
}
"""
    assert _rules("src/sync.rs", source) == {"vulkan.rust-bindings"}
    assert "vendor-path" in _layers("src/sync.rs", source)


def test_ort_cuda_and_tensorrt_features_are_vendor_path() -> None:
    # crates/auv-inference-ort/Cargo.toml: execution providers chosen by Cargo features; the
    # CUDA and TensorRT ones are NVIDIA's (already right before this lane).
    source = b"""\
[package]
name = "detector-ort"
version = "0.1.0"

[features]
cpu = ["runtime"]
cuda = ["runtime", "ort/cuda"]
tensorrt = ["runtime", "ort/tensorrt"]
coreml = ["runtime", "ort/coreml"]
"""
    layers = _layers("crates/detector-ort/Cargo.toml", source)
    assert layers.get("vendor-path", 0) >= 2
    assert "deps.cuda-crate" in _rules("crates/detector-ort/Cargo.toml", source)


# -- Wlammm/VulkanEngine: NVIDIA Nsight Aftermath crash dumps ------------------------------------


def test_nsight_aftermath_crash_dump_tracker_is_vendor_path() -> None:
    # Engine/Engine/Vulkan/Aftermath/NvidiaAftermathTracker.cpp: GPU crash dumps switched on
    # and decoded through GFSDK_Aftermath_*, which answers on NVIDIA drivers only.
    source = b"""\
#include "GFSDK_Aftermath_GpuCrashDumpDecoding.h"

Tracker::~Tracker() {
    if (m_Started) {
        GFSDK_Aftermath_DisableGpuCrashDumps();
    }
}

void Tracker::Describe(PFN_GFSDK_Aftermath_AddGpuCrashDumpDescription add) {
    add(GFSDK_Aftermath_GpuCrashDumpDescriptionKey_ApplicationName, "Viewer");
}

void Tracker::Save(const void* dump, uint32_t size) {
    std::ofstream file("crash.nv-gpudmp", std::ios::binary);
    file.write(static_cast<const char*>(dump), size);
}
"""
    assert _rules("src/gpu/crash_tracker.cpp", source) == {"cuda.nsight-aftermath"}
    assert _layers("src/gpu/crash_tracker.cpp", source) == {"vendor-path": 4, "portable": 9}


def test_hlsl_vertex_shader_file_is_kernel_code() -> None:
    # Engine/Engine/Shaders/FullscreenVS.hlsl: a fullscreen-triangle vertex shader compiled
    # for Vulkan (already right before this lane).
    source = b"""\
struct VSOutput
{
    float4 position : SV_Position;
    float2 uv : TEXCOORD0;
};

VSOutput VSMain(uint id : SV_VertexID)
{
    VSOutput o;
    o.uv = float2((id << 1) & 2, id & 2);
    o.position = float4(o.uv * 2.0 - 1.0, 0.0, 1.0);
    return o;
}
"""
    assert _layers("Shaders/FullscreenVS.hlsl", source) == {"kernel": 12}


# -- webonnx/wonnx: WGSL compute templates with Tera directives ----------------------------------


def test_wgsl_template_with_tera_directives_is_all_kernel() -> None:
    # wonnx/templates/endomorphism/cast.wgsl: a compute shader rendered from a Tera template;
    # the include and placeholders are part of the shader text (already right before).
    source = b"""\
{%- include "structs.wgsl" -%}
@group(0) @binding(0)
var<storage, read> input_0: ArrayVector;

@group(0) @binding(1)
var<storage, read_write> output_0: Output;

@compute @workgroup_size({{ workgroup_size_x }})
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    output_0.data[gid.x] = vec4<{{ to_type }}>(input_0.data[gid.x]);
}
"""
    assert _rules("templates/cast.wgsl", source) == {"wgsl.shader-file"}
    assert _layers("templates/cast.wgsl", source) == {"kernel": 9}


def test_wgpu_session_in_rust_is_portable() -> None:
    # wonnx-cli/src/gpu.rs: inference through wgpu, which reaches Vulkan, Metal, DX12 and
    # WebGPU alike (already right before this lane).
    source = b"""\
pub struct GpuInferer {
    session: engine::Session,
}

impl GpuInferer {
    pub async fn new(path: &str) -> Result<Self, Error> {
        let (device, queue) = request_device_queue().await;
        Ok(GpuInferer { session: engine::Session::load(path, device, queue).await? })
    }
}
"""
    assert _rules("cli/src/gpu.rs", source) == set()
    assert _layers("cli/src/gpu.rs", source) == {"portable": 9}


# -- tensorflow/quantum: TensorFlow's Bazel switches for a CUDA build ---------------------------


def test_bazel_cuda_switches_written_by_configure_are_vendor_path() -> None:
    # configure.sh: with the GPU answer yes it writes TensorFlow's CUDA config into .bazelrc
    # (the nvcc define, the toolkit's crosstool, --config=cuda for build and test); the CPU
    # answer writes using_cuda=false, which stays portable.
    source = b"""\
#!/bin/bash
emit() { echo "$1" >> .bazelrc; }
if [[ "$WANT_GPU" == "1" ]]; then
  emit "build:cuda --define=using_cuda=true --define=using_cuda_nvcc=true"
  emit "build:cuda --crosstool_top=@local_config_cuda//crosstool:toolchain"
  emit "build --config=cuda"
  emit "test --config=cuda"
else
  emit "build --define=using_cuda=false"
fi
"""
    assert _rules("configure.sh", source) == {"build.nvcc"}
    assert _layers("configure.sh", source) == {"vendor-path": 4, "portable": 5}
