"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-x).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 553-559. One was skipped: ParticleTroned/
skyrim-community-shaders (556) had no snapshot to fetch. Read were markusmoenig/Eldiron (a Rust
game creator drawing through wgpu with WGSL shaders, and Swift/Metal Xcode clients; the
snapshot lacked the blobs of some 290 Rust files, sampled over the files present),
TaylorAmarelTech/gemma4_comp (Python packages and Kaggle notebooks around Gemma fine-tuning),
XZiar/RayRenderer (a C++ renderer with OpenGL, OpenCL and Direct3D 12 utilities, GLSL and
OpenCL kernels, and OpenCL C generated from C++ raw strings), raphaelmenges/MolecularDynamics
(C++ OpenGL molecule visualisation with GLSL shaders and a vendored Dear ImGui),
Arize-ai/openinference (Python/TypeScript/Java LLM tracing, no GPU code) and
kotoshu/models-fasttext-onnx (shell test scripts around fastText ONNX models, no GPU code).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, files outside the
sample that hold kernel lines counted by hand (up to 5 a repository), and up to three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- XZiar/RayRenderer: OpenCL C helpers in C++ raw strings, address spaces without "__" ----


def test_opencl_helper_in_raw_string_with_bare_address_spaces() -> None:
    # OpenCLUtil/oclKernelDebug.cpp: a patched-in device helper returned as a raw string; its
    # pointers say `global uint*`, never `__global`, and it calls no work-item query.
    source = b"""\
#include <string>

static std::string RingHelper()
{
    return R"(inline global uint* ring_take(const uint want,
    global uint* restrict head, global uint* restrict ring)
{
    const uint at = atom_add(head, want);
    if (at + want > 4096u)
        return 0;
    return ring + at;
}
)";
}
"""
    assert _rules("util/ring_helper.cpp", source) == {"opencl.source-string"}
    assert _layers("util/ring_helper.cpp", source) == {"kernel": 9, "portable": 4}


def test_bare_global_word_in_host_strings_stays_portable() -> None:
    source = b"""\
const char* kHelp = "global uint counters are reset at start";
const char* kNote = "local int values * two";
int twice(int x) { return x * 2; }
"""
    assert _rules("util/help.cpp", source) == set()
    assert _layers("util/help.cpp", source) == {"portable": 3}


# -- raphaelmenges/MolecularDynamics: the Vulkan loader found by library name in CMake -------


def test_cmake_find_library_vulkan_is_vendor_path() -> None:
    # externals/imgui/examples/vulkan_example/CMakeLists.txt (Dear ImGui's old example): the
    # loader is looked up with find_library under both its Unix and Windows names.
    source = b"""\
cmake_minimum_required(VERSION 3.5)
project(VkViewer C CXX)
find_library(VK_LOADER_LIB
  NAMES vulkan vulkan-1)
add_executable(vk_viewer main.cpp)
target_link_libraries(vk_viewer glfw ${VK_LOADER_LIB})
"""
    assert _rules("viewer/CMakeLists.txt", source) == {"build.cmake-vulkan"}
    assert _layers("viewer/CMakeLists.txt", source) == {"vendor-path": 1, "portable": 5}


def test_cmake_other_library_stays_portable() -> None:
    source = b"""\
find_library(GLFW_LIB NAMES glfw glfw3)
find_path(VK_HEADERS NAMES vulkan/vulkan.h)
find_library(VMA_LIB vulkan-memory-allocator)
"""
    assert _rules("viewer/CMakeLists.txt", source) == set()


# -- Verdicts that were already right ---------------------------------------------------------


def test_glsl_compute_file_is_kernel() -> None:
    # src/shaders/NeighborSearch/neighborhoodSearch/countingSort.comp: a GLSL compute pass
    # scattering indices by cell, every line kernel.
    source = b"""\
#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Cells { uint cells[]; };
layout(std430, binding = 1) buffer Offsets { uint offsets[]; };
layout(std430, binding = 2) writeonly buffer Sorted { uint sorted[]; };
uniform uint count;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= count) return;
    uint slot = atomicAdd(offsets[cells[i]], 1);
    sorted[slot] = i;
}
"""
    assert _rules("shaders/sort/scatter.comp", source) == {"vulkan.shader-file"}
    assert _layers("shaders/sort/scatter.comp", source) == {"kernel": 13}


def test_wgsl_header_is_kernel() -> None:
    # markusmoenig/Eldiron crates/scenevm/embedded/sdf_header.wgsl: signed-distance helpers
    # pasted ahead of the scene shaders.
    source = b"""\
fn sd_circle(p: vec2<f32>, r: f32) -> f32 {
    return length(p) - r;
}

fn sd_box(p: vec2<f32>, b: vec2<f32>) -> f32 {
    let d = abs(p) - b;
    return length(max(d, vec2<f32>(0.0))) + min(max(d.x, d.y), 0.0);
}
"""
    assert _rules("embedded/sdf_helpers.wgsl", source) == {"wgsl.shader-file"}
    assert _layers("embedded/sdf_helpers.wgsl", source) == {"kernel": 7}


def test_opengl_compute_dispatch_host_stays_portable() -> None:
    # src/libraries/SurfaceExtraction/GPUHullSamples.cpp: OpenGL host code binding buffers
    # and dispatching a compute program; OpenGL runs on every vendor.
    source = b"""\
#include <GL/glew.h>

void RunHullPass(GLuint program, GLuint samples, unsigned count)
{
    glUseProgram(program);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, samples);
    glDispatchCompute((count / 64) + 1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}
"""
    assert _rules("hull/HullPass.cpp", source) == set()
