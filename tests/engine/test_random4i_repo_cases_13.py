"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h40-random-i).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 71-80. Two had no snapshot: raghdakais/Taichi_verification_environment and
ChickenHin/HLSLinearAlgebra. Fifteen files of each remaining repository were sampled with
``random.Random("owner/name")`` over every file lockin counts (battyone/cublas-inverse-pytorch
counts four), and labelled before any fix, with the files lockin calls non-portable (up to
twenty) and GPU-looking files it calls portable (up to ten), and three commits touching GPU
code judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- kikonen/learnopengl: an OpenGL engine, its shaders as .vs, .fs and .glsl files ------------


def test_learnopengl_vertex_shader_in_a_vs_file_is_glsl_kernel_code() -> None:
    # shader/tex.vs: a vertex shader under linguist's .vs extension. Before, no language owned
    # .vs or .fs and the 144 shaders were not counted, while the .glsl files they include were;
    # a commit growing them passed the gate.
    source = b"""\
#version 460 core

layout (location = 0) in vec3 a_pos;
uniform mat4 u_projected;

out vec3 v_pos;

void main() {
  v_pos = a_pos;
  gl_Position = u_projected * vec4(a_pos, 1.0);
}
"""
    report = classify("shader/tex.vs", source)
    assert report.language == "GLSL"
    assert _rules("shader/tex.vs", source) == {"vulkan.shader-file"}
    assert _layers("shader/tex.vs", source) == {"kernel": 8}


def test_learnopengl_es_fragment_shader_in_an_fs_file_is_glsl_kernel_code() -> None:
    # An OpenGL ES fragment shader with no #version line: its precision statement says GLSL.
    source = b"""\
precision mediump float;
varying vec2 v_uv;
uniform sampler2D u_tex;

void main() {
  gl_FragColor = texture2D(u_tex, v_uv);
}
"""
    assert classify("shader/blit.fs", source).language == "GLSL"
    assert _layers("shader/blit.fs", source) == {"kernel": 6}


def test_fs_and_gs_files_that_are_not_shaders_are_no_shaders() -> None:
    # .fs is F#'s extension too and .gs Google Apps Script's: without a shader's first lines
    # neither is GLSL. The F# module is counted as F#, portable (lane h51-random-d); the Apps
    # Script file stays out of the count.
    fsharp = b"""\
module Geometry

let uniform x = x * 2.0
let attribute name = sprintf "%s" name
"""
    apps_script = b"""\
function onOpen() {
  var ui = SpreadsheetApp.getUi();
  ui.createMenu('Tools').addToUi();
}
"""
    assert classify("src/Geometry.fs", fsharp).language == "F#"
    assert _layers("src/Geometry.fs", fsharp) == {"portable": 3}
    assert classify("Code.gs", apps_script).language is None


# -- Strivin0311/cutlass: CUTLASS, its unit tests' CMake --------------------------------------


def test_cutlass_unit_tests_linking_the_cuda_runtime_by_name_are_vendor_build() -> None:
    # test/unit/CMakeLists.txt: every unit test links the CUDA runtime and driver by their
    # bare library names and cuBLAS by CUTLASS's nvidia:: target. Before, only CUDA:: targets
    # and the FindCUDA variables counted, and the file was portable.
    source = b"""\
target_link_libraries(
  test_unit_infra
  PUBLIC
  CUTLASS
  $<$<BOOL:${ENABLE_CUBLAS}>:nvidia::cublas>
  GTest::gtest
  cudart
  cuda_driver
  )
"""
    assert _rules("test/unit/CMakeLists.txt", source) == {"build.cmake-cuda-library"}
    assert _layers("test/unit/CMakeLists.txt", source) == {"vendor-path": 3, "portable": 6}


def test_cutlass_own_nvidia_targets_and_nvrtc_namespace_strings_are_portable() -> None:
    # cmake/NvidiaCutlassConfig.cmake.in and bin2hex.cmake: the project's own nvidia::cutlass
    # targets, a cache variable's help string and a C++ namespace written out as text name
    # no CUDA library to link.
    source = b"""\
if(TARGET nvidia::cutlass::CUTLASS)
  add_library(nvidia::cutlass::tools::util ALIAS cutlass_tools_util_includes)
endif()
set(CUBLAS_FOUND ON CACHE INTERNAL "cublas Library Found")
string(APPEND RESULT "namespace nvrtc {\\n")
set(OPTIONS --providers=cutlass --verification-providers=cublas)
"""
    assert _layers("cmake/NvidiaCutlassConfig.cmake.in", source) == {"portable": 6}


# -- aras-p/hlsl2glslfork: an HLSL to GLSL translator -----------------------------------------


def test_hlsl2glsl_version_prefixes_hold_no_shader() -> None:
    # hlslang/GLSLCodeGen/hlslLinker.cpp: the #version line prepended for each target, kept
    # in a table. Before, its lines were kernel code and the translator's linker
    # non-portable. (The head of main() the linker writes alone, `preamble << "void
    # main() {\n";`, still reads as a shader: this lane's condition for it was not merged,
    # as it overlapped h40-cmake's lone_prefix, which handles the table.)
    source = b"""\
static const char* kVersionStrings[4] = {
    "",                // ES 1.00
    "#version 120\\n",  // 1.20
    "#version 140\\n",  // 1.40
    "",                // ES 3.0: its version line is added later
};
"""
    assert _layers("hlslang/GLSLCodeGen/hlslLinker.cpp", source) == {"portable": 6}


def test_a_version_item_listed_before_its_shader_body_is_still_a_shader() -> None:
    # The same table shape holding a shader: the #version item is followed by the body that
    # ends its statements, so both count (the rule's own example from vladiant/OpenGLsamples,
    # here with the body inline).
    source = b"""\
const char* sources[] = {"#version 430\\n",
                         "layout(local_size_x = 8) in;\\n"
                         "void main() { out_buf[gl_GlobalInvocationID.x] = 1.0; }\\n"};
int count = 2;
"""
    assert _rules("gl/blit.cpp", source) == {"vulkan.glsl-string"}
    assert _layers("gl/blit.cpp", source) == {"kernel": 3, "portable": 1}
