"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h42-random-b).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane
took positions 227-234. Two had no snapshot: pulse-compute/pulse and
Krump12/YOLO-TensorRT-Project. Fifteen files of each remaining repository
(ITensor/ITensors.jl, SparseArrayProgrammingSuite/SparseArrayProgrammingSuite,
SnowflakePowered/spirv-cross2-rs, tracel-ai/tracel-rspirv, blockminerspace-png/block-miner2.1,
emilx10/FinalProjectHLSLShaders) were sampled with ``random.Random("owner/name")`` over every
file lockin counts with code lines, and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10); three commits
touching GPU code per repository were judged against ``lockin diff``. Each snippet is a small
rewrite, in our own words, of a pattern found in the repository its test names; the expected
layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- SnowflakePowered/spirv-cross2-rs: Rust bindings to SPIRV-Cross, the shader translator ------


def test_spirv_cross2_msl_compiler_options_are_portable() -> None:
    # spirv-cross2/src/compile/msl/mod.rs: the options of the MSL back end of the translator.
    # MetalPlatform picks the dialect (iOS or macOS) of the MSL text it writes, on any host,
    # as the HLSL module's shader model does for HLSL. Before, metal.rust-backend-type took
    # the type for a Metal back end's, and the struct's fields (one C-style statement, with
    # no `;` between them) made 91 vendor-path lines of a portable file.
    source = b"""\
use crate::targets::Msl;
use spirv_cross_sys as sys;

/// MSL compiler options
#[derive(Debug, spirv_cross2_derive::CompilerOptions)]
pub struct CompilerOptions {
    /// Emit colour outputs as four components.
    #[option(SPVC_COMPILER_OPTION_MSL_PAD_FRAGMENT_OUTPUT_COMPONENTS, false)]
    pub pad_fragment_output_components: bool,

    /// The platform the MSL is written for.
    #[option(SPVC_COMPILER_OPTION_MSL_PLATFORM, MetalPlatform::MacOS)]
    pub platform: MetalPlatform,

    #[option(SPVC_COMPILER_OPTION_MSL_ARGUMENT_BUFFERS, false)]
    pub argument_buffers: bool,
}

#[repr(u32)]
#[derive(Debug, Copy, Clone)]
pub enum MetalPlatform {
    iOS = 0,
    MacOS = 1,
}

impl From<MetalPlatform> for u32 {
    fn from(value: MetalPlatform) -> Self {
        match value {
            MetalPlatform::iOS => 0,
            MetalPlatform::MacOS => 1,
        }
    }
}

impl Compiler<Msl> {
    pub fn add_shader_input(&mut self, location: u32) -> error::Result<()> {
        let raw = self.ptr.as_ptr();
        unsafe { sys::spvc_compiler_msl_add_shader_input_2(raw, &location).ok(&*self) }
    }
}
"""
    assert _layers("spirv-cross2/src/compile/msl/mod.rs", source) == {"portable": 31}


def test_spirv_cross2_caller_translating_to_msl_is_portable() -> None:
    # A crate handing SPIR-V to the translator for MSL text, as the crates that depend on
    # spirv-cross2 do: the same options, named through the crate's path.
    source = b"""\
use spirv_cross2::compile::msl::{CompilerOptions, MetalPlatform, MslVersion};
use spirv_cross2::{targets, Compiler, Module};

pub fn to_msl(words: &[u32]) -> String {
    let compiler = Compiler::<targets::Msl>::new(Module::from_words(words)).unwrap();
    let mut options = CompilerOptions::default();
    options.platform = MetalPlatform::iOS;
    options.version = MslVersion::new(2, 1, 0);
    compiler.compile(&options).unwrap().to_string()
}
"""
    assert _layers("src/shaders/msl.rs", source) == {"portable": 9}


def test_spirv_cross2_caller_that_also_drives_metal_stays_vendor_path() -> None:
    # The negative: a renderer that translates to MSL and then builds the library on the
    # device still calls Metal; metal.host-api counts those lines, and a Metal back end's own
    # types elsewhere still count by metal.rust-backend-type.
    source = b"""\
use objc2_metal::{MTLDevice, MTLLibrary};
use spirv_cross2::compile::msl::{CompilerOptions, MetalPlatform};

pub fn build(device: &ProtocolObject<dyn MTLDevice>, msl: &str) -> Library {
    let options = CompilerOptions { platform: MetalPlatform::MacOS, ..Default::default() };
    device.newLibraryWithSource_options_error(&NSString::from_str(msl), None).unwrap()
}
"""
    assert _rules("src/render/metal.rs", source) == {"metal.host-api"}
    backend = b"""\
use lambdaworks_gpu::metal::abstractions::state::MetalState;
pub fn hash(leaves: &[u64]) -> Vec<u64> {
    let state = MetalState::new(None).unwrap();
    state.run(leaves)
}
"""
    assert _rules("src/merkle/metal.rs", backend) == {"metal.rust-backend-type"}


def test_spirv_cross2_glsl_compute_shader_in_a_test_is_kernel_code() -> None:
    # spirv-cross2/tests/sandbox.rs: GLSL compute shaders in raw strings, compiled by glslang
    # for the tests; checked right (95 kernel lines against 93 counted by hand).
    source = b"""\
#[test]
pub fn workgroup_size() {
    const SHADER: &str = r##"#version 450
layout (local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(set = 0, binding = 0) readonly buffer Input { float values[]; } src;
layout(set = 0, binding = 1) buffer Output { float values[]; } dst;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    dst.values[i] = src.values[i] * 2.0;
}
"##;
    let spv = compile(SHADER, ShaderStage::Compute);
    assert!(!spv.is_empty());
}
"""
    # Nine lines of GLSL, and the line closing the literal with it.
    layers = _layers("spirv-cross2/tests/sandbox.rs", source)
    assert layers["kernel"] == 10
    assert _rules("spirv-cross2/tests/sandbox.rs", source) == {"vulkan.glsl-string"}


# -- ITensor/ITensors.jl: tensor networks in Julia, with per-vendor package extensions ----------


def test_itensors_cuda_extension_adapting_storage_is_cuda_path() -> None:
    # NDTensors/ext/NDTensorsCUDAExt/adapt.jl: the extension moves storage onto CuArrays;
    # checked right.
    source = b"""\
using Adapt: Adapt
using CUDA: CUDA, CuArray, CuVector
using NDTensors: NDTensors, EmptyStorage

function Adapt.adapt_storage(adaptor::CuArrayAdaptor, xs::AbstractArray)
    cutype = set_type_parameters(CuArray, (eltype, ndims), (eltype(xs), ndims(xs)))
    return isbits(xs) ? xs : adapt(cutype, xs)
end
"""
    assert _rules("NDTensors/ext/NDTensorsCUDAExt/adapt.jl", source) == {"cuda.julia-host"}


def test_itensors_jlarrays_extension_is_portable() -> None:
    # NDTensors/ext/NDTensorsJLArraysExt/copyto.jl: JLArrays is the CPU reference array of
    # GPUArrays, used to test the GPU code paths without a GPU; a comment naming CUDA's bug
    # does not make it CUDA code. Checked right.
    source = b"""\
using JLArrays: JLArray
using NDTensors.Expose: Exposed, expose, unexpose

# Catches a bug in `copyto!` in CUDA backend.
function Base.copyto!(dest::Exposed{<:JLArray}, src::Exposed{<:JLArray, <:SubArray})
    copyto!(dest, expose(copy(src)))
    return unexpose(dest)
end
"""
    assert _layers("NDTensors/ext/NDTensorsJLArraysExt/copyto.jl", source) == {"portable": 6}


def test_itensors_test_skipping_a_case_on_amd_is_portable() -> None:
    # NDTensors/test/test_linearalgebra.jl: a device loop that skips one case on AMD's
    # arrays, for a ROCm bug; the test runs on every device, so nothing here is AMD-only.
    # Checked right.
    source = b"""\
for dev in devices_list(copy(ARGS)), singular in (false, true)
    if dev == NDTensors.AMDGPUExtensions.roc && singular
        continue
    end
    A = dev(randomTensor(Float64, (4, 8)))
    Q, R = qr(A)
end
"""
    assert _layers("NDTensors/test/test_linearalgebra.jl", source) == {"portable": 7}


def test_itensors_project_with_gpu_extensions_names_each_vendor_package() -> None:
    # NDTensors/Project.toml: AMDGPU.jl, CUDA.jl, Metal.jl and cuTENSOR.jl as weak
    # dependencies, each behind its package extension. Before, only the NVIDIA lines counted:
    # deps.julia-cuda had no AMD or Apple twin. Each declared vendor package is a line of
    # lock-in, as an optional Cargo dependency on cudarc is; the compat bounds are not.
    source = b"""\
[deps]
Adapt = "79e6a3ab-5dfb-504d-930d-738a2a938a0e"

[weakdeps]
AMDGPU = "21141c5a-9bdb-4563-92ae-f87d6854732e"
CUDA = "052768ef-5323-5732-b1bb-66c8b64840ba"
JLArrays = "27aeb0d3-9eb9-45fb-866b-73c2ecf80fcb"
Metal = "dde4c033-4e86-420c-a63e-0dd931031962"
cuTENSOR = "011b41b2-24ef-40a8-b3eb-fa098493e9e1"

[extensions]
NDTensorsAMDGPUExt = ["AMDGPU", "GPUArraysCore"]
NDTensorsCUDAExt = ["CUDA", "GPUArraysCore"]
NDTensorsMetalExt = ["GPUArraysCore", "Metal"]

[compat]
AMDGPU = "0.9, 1, 2"
CUDA = "5, 6"
Metal = "1"
"""
    assert _rules("NDTensors/Project.toml", source) == {
        "deps.julia-amdgpu",
        "deps.julia-cuda",
        "deps.julia-metal",
    }
    assert _layers("NDTensors/Project.toml", source) == {"vendor-path": 4, "portable": 12}


def test_julia_project_on_amdgpu_alone_is_an_amd_dependency() -> None:
    # The verdict the twins change: an environment whose only GPU package is AMDGPU.jl (or
    # Metal.jl, or oneAPI.jl) was portable.
    for name, uuid, rule in (
        ("AMDGPU", "21141c5a-9bdb-4563-92ae-f87d6854732e", "deps.julia-amdgpu"),
        ("Metal", "dde4c033-4e86-420c-a63e-0dd931031962", "deps.julia-metal"),
        ("oneAPI", "8f75cd03-7ff8-4ecb-9b8f-daf728133b1b", "deps.julia-oneapi"),
    ):
        source = f"""\
[deps]
{name} = "{uuid}"
KernelAbstractions = "63c18a36-062a-441e-b654-da1e3ab1ce7c"

[compat]
{name} = "1"
""".encode()
        assert _rules("bench/Project.toml", source) == {rule}
        assert _layers("bench/Project.toml", source) == {"vendor-path": 1, "portable": 4}


# -- emilx10/FinalProjectHLSLShaders: a Unity project painting with HLSL shaders ---------------


def test_unity_script_dispatching_a_compute_shader_is_portable() -> None:
    # Assets/Ilan's Work/ChallengeComparisonManager.cs: Unity's ComputeShader API dispatches
    # the .compute kernel on whatever graphics API the player runs (D3D11, Metal, Vulkan);
    # the kernel is counted in its own file. Checked right.
    source = b"""\
using UnityEngine;

public class ChallengeComparisonManager : MonoBehaviour
{
    [SerializeField] private ComputeShader comparisonShader;
    private ComputeBuffer scores;
    private int kernel;

    void Compare(RenderTexture player, RenderTexture target)
    {
        kernel = comparisonShader.FindKernel("CompareMaps");
        comparisonShader.SetTexture(kernel, "_Player", player);
        comparisonShader.SetTexture(kernel, "_Target", target);
        comparisonShader.Dispatch(kernel, player.width / 8, player.height / 8, 1);
    }
}
"""
    assert _layers("Assets/Scripts/ChallengeComparisonManager.cs", source) == {"portable": 14}
