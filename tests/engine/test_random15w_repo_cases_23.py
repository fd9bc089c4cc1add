"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-w).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 742-748 and skipped none. Read were GPUOpen-Archive/CodeXL
(AMD's archived GPU debugger, profiler and shader analyzer: OpenCL and OpenGL API
interception, HSA tracing, shader and kernel templates kept in strings), tensorflow/ranking
(TensorFlow learning-to-rank, one TPUStrategy helper), jennerfeijoo/
Computational_Biomedicine_Study_Hub (a Python/Qt course app, no GPU code),
python-accelerator-middle-layer/pyaml (a particle-accelerator control layer, no GPU code),
JJBcku/VulkanSimplified (a C++ wrapper around the Vulkan API with two GLSL shaders),
cmdrf/molecular-gfx (a C++ renderer over OpenGL and Vulkan whose shader generator keeps GLSL
function bodies in string literals) and mbarleon/Raytracer (a CPU ray tracer in C++, no GPU
code). Snapshots missing large blobs (CodeXL's prebuilt libraries, a Raytracer skybox, a
pyaml fixture) were checked out file by file without them. Fifteen files of each repository
were sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, files outside the sample that hold kernel lines
counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- cmdrf/molecular-gfx: GLSL function bodies a shader generator splices -------------------------


def test_generator_function_body_indented_with_tab_escapes_is_kernel() -> None:
    # molecular/gfx/SkinProgramData.cpp: a fragment-stage body handed to the program generator,
    # one literal a line, each indented with \t escapes; a comment sits between two literals.
    source = b"""\
void SheenData::Feed(Generator& gen)
{
    Generator::Function sheen;
    sheen.source.push_back(
        "float sheenOut = 0.0;\\n"
        "\\tfloat nl = dot(normalize(n), toLight);\\n"
        "\\tif( nl > 0.0 )\\n"
        "\\t{\\n"
        "\\t\\tvec3 mid = normalize(toLight + toEye);\\n" // half vector
        "\\t\\tsheenOut = nl * pow(1.0 - dot(toEye, mid), 5.0);\\n"
        "\\t}\\n"
        "\\tsheenLight = sheenOut * lightIn;");
    sheen.output = "sheenLight"_H;
    gen.Add(sheen);
}
"""
    assert _rules("gfx/SheenData.cpp", source) == {"vulkan.glsl-string"}
    assert _layers("gfx/SheenData.cpp", source) == {"kernel": 8, "portable": 7}


def test_generator_loop_with_reflected_vector_is_kernel() -> None:
    # molecular/gfx/DefaultProgramData.cpp: a specular loop over a light array, and the
    # vertex-stage clip distance write, each a body the generator splices in.
    source = b"""\
void LightData::Feed(Generator& gen)
{
    Generator::Function spec;
    spec.source.push_back(
        "specOut = vec3(0.0);\\n"
        "\\tfor(int i = 0; i < lightCount; i++)\\n"
        "\\t{\\n"
        "\\t\\tvec3 r = reflect(lightDirs[i], normalize(n));\\n"
        "\\t\\tspecOut += pow(max(0.0, dot(r, toEye)), gloss) * lightColors[i];\\n"
        "\\t}");
    gen.Add(spec);
    Generator::Function clip;
    clip.source.push_back("gl_ClipDistance[0] = dot(world * position, plane0);");
    gen.Add(clip);
}
"""
    assert _rules("gfx/LightData.cpp", source) == {"vulkan.glsl-string"}
    assert _layers("gfx/LightData.cpp", source) == {"kernel": 7, "portable": 8}


def test_generator_one_line_texture_lookup_stays_kernel() -> None:
    # molecular/gfx/TextureSplattingData.cpp (right before the fix): a splatting body whose
    # first literal declares a vector from a texture lookup.
    source = b"""\
void BlendData::Feed(Generator& gen)
{
    gen.AddVariable("weights", "sampler2D");
    Generator::Function blend;
    blend.source.push_back(
        "vec3 w = texture(weights, uv0).rgb;\\n"
        "\\tcolorOut = texture(layers[0], uv0 * tiling).rgb * w.x\\n"
        "\\t\\t+ texture(layers[1], uv0 * tiling).rgb * w.y;");
    gen.Add(blend);
}
"""
    assert _rules("gfx/BlendData.cpp", source) == {"vulkan.glsl-string"}
    assert _layers("gfx/BlendData.cpp", source) == {"kernel": 3, "portable": 7}


def test_generator_output_names_and_glm_host_maths_stay_portable() -> None:
    # molecular/gfx/functions/Transform.cpp: the host binds uniforms by hashed name and does
    # its own matrix maths; no GLSL text in it.
    source = b"""\
void Place::Execute()
{
    auto& model = scope.Bind<Uniform<Matrix4>>("modelMatrix"_H);
    model = parentMatrix * localMatrix;
    clip.output = "gl_ClipDistance"_H;
    glm::vec3 d = glm::normalize(target - eye);
}
"""
    assert _rules("gfx/Place.cpp", source) == set()
    assert _layers("gfx/Place.cpp", source) == {"portable": 7}


# -- GPUOpen-Archive/CodeXL: a kernel debugger's table of query names -----------------------------


def test_debugger_table_keyed_by_work_item_query_names_is_portable() -> None:
    # CodeXL/Components/GpuDebugging/AMDTServerUtilities/src/suIKernelDebuggingManager.cpp: the
    # watch expressions a user may type (`get_global_id(0)`) mapped to pseudo-variable ids.
    source = b"""\
void WatchTable::Fill()
{
    m_ids[L"get_work_dim()"] = WATCH_DIMS;
    m_ids[L"get_global_id(0)"] = WATCH_GID_X;
    m_ids[L"get_global_id(1)"] = WATCH_GID_Y;
    m_ids[L"get_local_size(2)"] = WATCH_LSIZE_Z;
    m_ids[L"get_num_groups(0)"] = WATCH_GROUPS_X;
}
"""
    assert _rules("src/WatchTable.cpp", source) == set()
    assert _layers("src/WatchTable.cpp", source) == {"portable": 8}


def test_stub_opencl_program_in_a_continued_string_stays_kernel() -> None:
    # CodeXL/Components/GpuDebugging/AMDTOpenCLServer/src/csContextMonitor.cpp (right before the
    # fix): a stub program built to probe a context, written with backslash continuations.
    source = b"""\
static const char* s_probeSource = "\\
__kernel void probe(__global int* sink) \\
{ \\
} ";
static const char* s_probeName = "probe";
"""
    assert _rules("src/Probe.cpp", source) == {"opencl.source-string"}
    assert _layers("src/Probe.cpp", source) == {"kernel": 4, "portable": 1}


def test_profiler_enum_named_after_opencl_calls_stays_portable() -> None:
    # CodeXL/Components/GpuProfiling/AMDTGpuProfiling/APIColorMap.cpp (right before the fix):
    # the profiler's own enumerators spelled after the traced OpenCL calls, no call made.
    source = b"""\
QColor ColorFor(int apiId, int subType)
{
    if (subType & CL_ENQUEUE_KERNEL)
        return kernelColor;
    if (apiId == CL_FUNC_TYPE_clEnqueueReadBuffer || apiId == CL_FUNC_TYPE_clEnqueueReadImage)
        return readColor;
    return otherColor;
}
"""
    assert _rules("APIColors.cpp", source) == set()
    assert _layers("APIColors.cpp", source) == {"portable": 8}


# -- JJBcku/VulkanSimplified: plain data types over Vulkan's -------------------------------------


def test_struct_of_vulkan_blend_fields_is_vendor_path() -> None:
    # VulkanSimplified/DoNotInclude/DNIData/VSSharedData/VSPipelineColorBlendAttachment.h
    # (right before the fix): a struct whose members are Vulkan's own enum types.
    source = b"""\
#pragma once
#include <vulkan/vulkan_core.h>

struct BlendSlot
{
    VkBool32 enabled;
    VkBlendFactor srcFactor;
    VkBlendOp colorOp;
    uint32_t writeMask;
};
"""
    assert _rules("DNIData/BlendSlot.h", source) == {"vulkan.host-api"}
    assert _layers("DNIData/BlendSlot.h", source)["vendor-path"] >= 3


def test_cpu_vendor_test_naming_amd_is_portable() -> None:
    # CodeXL/AMDTApplicationFramework/src/afGlobalVariablesManager.cpp: the CPU profiler asks
    # whether the processor is AMD's, by brand string or CPUID's vendor id.
    source = b"""\
bool CpuIsAmd(const std::string& cpuBrand, const std::string& cpuId)
{
    if ("Advanced Micro Devices, Inc." == cpuBrand || ("AuthenticAMD" == cpuId))
        return true;
    return false;
}
"""
    assert _rules("src/CpuCheck.cpp", source) == set()
    assert _layers("src/CpuCheck.cpp", source) == {"portable": 6}


def test_gpu_vendor_test_naming_amd_stays_vendor_path() -> None:
    # CodeXL/Components/GpuDebugging/AMDTOpenCLServer/src/csDevicesMonitor.cpp (right before the
    # fix): an OpenCL device's reported vendor compared with AMD's name.
    source = b"""\
bool DeviceIsAmd(const std::string& vendor)
{
    return vendor == "Advanced Micro Devices, Inc.";
}
"""
    assert _rules("src/DeviceCheck.cpp", source) == {"opencl.amd-vendor-check"}
    assert _layers("src/DeviceCheck.cpp", source) == {"vendor-path": 1, "portable": 3}


def test_opencl_platform_vendor_named_amd_two_ways_stays_vendor_path() -> None:
    # CodeXL/Components/GpuDebugging/AMDTOpenCLServer/src/csDevicesMonitor.cpp: a platform's
    # vendor compared with AMD's GPU runtime name and its CPU runtime's CPUID string.
    source = b"""\
bool PlatformIsAmd(const std::string& vendorName)
{
    return ("Advanced Micro Devices, Inc." == vendorName) || ("AuthenticAMD" == vendorName);
}
"""
    assert _rules("src/PlatformCheck.cpp", source) == {"opencl.amd-vendor-check"}
    assert _layers("src/PlatformCheck.cpp", source) == {"vendor-path": 1, "portable": 3}
