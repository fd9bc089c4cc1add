"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-q).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 674-679. One could not be read: wisnunugroho21/webgpu-renderer-1 (no snapshot). Fifteen
files of each remaining repository (serenity4/SPIRV.jl, junseok16/D3D11-Eternal-Return-Portfolio,
juj/wasm_webgpu, tommybazar/TBRaymarchProject with its seven, mmprotest/swarm-inference-lab) were
sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled before
any fix, with the files lockin calls non-portable and GPU-looking files it calls portable, and
three commits touching GPU code per repository. Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- serenity4/SPIRV.jl: a Julia -> SPIR-V compiler with a Vulkan.jl extension ----------------


def test_spirv_jl_feature_test_on_vulkan_jl_is_vulkan_host_code() -> None:
    # test/features.jl: the instance, physical devices and their features through Vulkan.jl's
    # `Vk` alias, which the file gets from runtests.jl. Before, it was portable while the same
    # calls in C++ are Vulkan host code (vulkan.host-api).
    source = b"""\
@testset "Supported features" begin
  layers = String["VK_LAYER_KHRONOS_validation"]
  instance = Vk.Instance(layers, String[])
  for device in unwrap(Vk.enumerate_physical_devices(instance))
    props = Vk.get_physical_device_properties_2(device)
    @test props.properties.api_version >= v"1.3"
  end
end
"""
    assert _rules("test/features.jl", source) == {"vulkan.julia-host"}
    assert _layers("test/features.jl", source) == {"vendor-path": 3, "portable": 5}


def test_spirv_jl_format_table_of_the_vulkan_extension() -> None:
    # ext/formats.jl: a @match table from Vk.Format values to SPIR-V image formats, in the
    # package extension loaded with Vulkan.jl. The commit adding one row (SRGB) adds a Vulkan
    # line; before, the gate passed it.
    source = b"""\
using Vulkan: Vk

to_image_format(f::Vk.Format) = @match f begin
  &Vk.FORMAT_R8G8B8A8_UNORM => ImageFormatRgba8
  &Vk.FORMAT_R8G8B8A8_SRGB => ImageFormatRgba8
  _ => nothing
end
"""
    assert _rules("ext/formats.jl", source) == {"vulkan.julia-host"}
    assert _layers("ext/formats.jl", source) == {"vendor-path": 4, "portable": 2}


def test_spirv_jl_ir_module_and_precompile_traces_stay_portable() -> None:
    # test/modules/function_call.jl (a SPIR-V module written with the package's own macros,
    # no entry point and no API call) and src/precompilation_traces.jl (precompile directives
    # naming Vulkan's types in full): compiler infrastructure for a cross-vendor IR, not host
    # code. Both were checked right in the sample.
    module = b"""\
Int32 = TypeInt(32, true)
@function add(x::Int32, y::Int32)::Int32 begin
  b = Label()
  z = IAdd(x, y)::Int32
  ReturnValue(z)
end
"""
    assert _layers("test/modules/function_call.jl", module) == {"portable": 6}
    traces = b"""\
precompile(Tuple{typeof(Base.unique), Array{Vulkan.Format, 1}})
precompile(Tuple{Type{Ref{T} where T}, VulkanCore.LibVulkan.VkPhysicalDeviceFeatures2})
"""
    assert _layers("src/precompilation_traces.jl", traces) == {"portable": 2}


# -- juj/wasm_webgpu: WebGPU for Emscripten, WGSL in C strings ----------------------------


def test_wasm_webgpu_wgsl_built_with_snprintf_is_kernel_code() -> None:
    # test/wgpu_device_create_render_pipeline.vertex_formats_x4.cpp: the WGSL program is the
    # format string of an snprintf that fills in the attribute type (checked right: 3 lines).
    source = b"""\
void run(const char *type) {
  char buf[512];
  snprintf(buf, sizeof(buf),
    "@vertex fn vs(@location(0) a: %s) -> @builtin(position) vec4f {"
    "  return vec4f(f32(a.x), f32(a.y), f32(a.z), f32(a.w)); }"
    "@fragment fn fs() -> @location(0) vec4f { return vec4f(1); }",
    type);
}
"""
    assert _rules("test/formats_x4.cpp", source) == {"wgsl.source-string"}
    assert _layers("test/formats_x4.cpp", source) == {"kernel": 3, "portable": 5}


def test_wasm_webgpu_commented_out_shader_test_is_portable() -> None:
    # test/wgpu_encoder_set_immediate_data.cpp: the whole test, WGSL included, sits in a block
    # comment until browsers ship the API (checked right).
    source = b"""\
int main()
{
/*
  WGpuShaderModuleDescriptor d = {
    .code = "@compute @workgroup_size(1)\\n"
            "fn main() { output[0] = 1u; }\\n"
  };
*/
  return 0;
}
"""
    assert _layers("test/immediate.cpp", source) == {"portable": 4}
