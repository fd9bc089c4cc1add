"""Vendor names on the lines of a multi-line build command, and a lone ``#version`` string
(issue 27, lane h40-cmake).

Method: the audit's misses were read in the repositories named (a fork of NVIDIA/cutlass,
github:DrXuQian/cutlass: examples/10_planar_complex and 11_planar_complex_array, examples/,
test/unit and tools/profiler CMakeLists.txt; glslkit's core/test/glslkit/preprocessor_test.rb),
then DrXuQian/cutlass, kokkos/kokkos-tools, NVIDIA/CUDALibrarySamples, ROCm/hip-tests and the
bench corpus were scanned before and after the change and every file whose verdict moved
was read. Each snippet is a small rewrite of the pattern, with a comment naming its file.
"""

from __future__ import annotations

from bot.engine.lexer import FAMILIES, lex
from bot.engine.logical_lines import LogicalLines
from bot.engine.source_text import SourceText
from tests.engine.test_ml_repo_cases import _layers, _rules


def test_cuda_library_on_its_own_line_of_a_link_command_is_vendor_path() -> None:
    # DrXuQian/cutlass examples/11_planar_complex_array/CMakeLists.txt: `cuda` linked on a
    # line of its own inside a target_link_libraries(...) that spans seven lines.
    source = b"""\
if (WITH_LIBRARY)
target_link_libraries(
  planar_array
  PRIVATE
  cutlass_lib
  cuda
)
endif()
"""
    assert _rules("examples/planar/CMakeLists.txt", source) == {"build.cmake-cuda-library"}
    assert _layers("examples/planar/CMakeLists.txt", source) == {"vendor-path": 1, "portable": 7}


def test_cudart_beside_project_targets_and_generator_expressions() -> None:
    # DrXuQian/cutlass test/unit/CMakeLists.txt and tools/profiler/CMakeLists.txt: the CUDA
    # runtime linked by name among the project's own targets; cuda_driver and nvidia::cublas
    # are the targets CUTLASS imports for the driver and cuBLAS (as h40-random-i read the
    # same file).
    source = b"""\
target_link_libraries(
  unit_infra
  PUBLIC
  $<$<BOOL:${WITH_CUBLAS}>:nvidia::cublas>
  GTest::gtest
  cudart
  cuda_driver
  )
"""
    assert _layers("test/unit/CMakeLists.txt", source) == {"vendor-path": 3, "portable": 5}


def test_nvidia_math_libraries_listed_one_a_line_are_vendor_path() -> None:
    # NVIDIA/CUDALibrarySamples cuSOLVERMp/CMakeLists.txt and cutensorMp/CMakeLists.txt: the
    # runtime and math libraries one a line, MPI's and the sample's variables between them.
    source = b"""\
target_link_libraries(${sample} PUBLIC
    ${MPI_C_LIBRARIES}
    cudart
    cusolverMp
    ${SOLVER_LIBRARIES}
    cutensor
    m
)
"""
    assert _layers("cuSOLVERMp/CMakeLists.txt", source) == {"vendor-path": 3, "portable": 5}


def test_cuda_library_names_outside_a_link_command_stay_portable() -> None:
    # DrXuQian/cutlass cuBLAS.cmake: an imported target named cublas, its include
    # directories, and messages and cache strings naming the library.
    source = b"""\
message(STATUS "cublas not found.")
set(CUBLAS_FOUND OFF CACHE INTERNAL "cublas Library Found")
add_library(cublas SHARED IMPORTED GLOBAL)
target_include_directories(
  cublas
  INTERFACE
  $<BUILD_INTERFACE:${CUBLAS_INCLUDE_DIR}>)
target_link_libraries(cuda_tools PRIVATE fmt::fmt)
"""
    assert _layers("cuBLAS.cmake", source) == {"portable": 8}


def test_hip_and_level_zero_targets_on_their_own_lines_are_found_as_on_one() -> None:
    # The HIP and SYCL names the build rules know on one line (hip::device, ze_loader) are
    # found on a line of their own inside a multi-line command too.
    source = b"""\
target_link_libraries(
  app
  PRIVATE
  hip::device
  ze_loader
)
"""
    assert _rules("CMakeLists.txt", source) == {"build.hip-offload-arch", "build.level-zero"}
    assert _layers("CMakeLists.txt", source) == {"vendor-path": 2, "portable": 4}


def test_statement_first_is_the_line_a_wrapped_command_opens_on() -> None:
    lexed = lex(
        "project(p)\ntarget_link_libraries(\n  app\n  cudart\n)\nset(x 1)\n", FAMILIES["cmake"]
    )
    lines = LogicalLines(SourceText(lexed, "lines", {}))
    assert [lines.statement_first(n) for n in range(1, 7)] == [1, 2, 2, 2, 2, 6]


def test_a_lone_version_string_in_a_test_is_no_shader() -> None:
    # glslkit core/test/glslkit/preprocessor_test.rb: the preprocessor's expected output is
    # a #version line alone.
    source = b"""\
def test_keeps_version
  out = preprocess("#version 300 es\\n")
  assert_equal "#version 300 es\\n", out
end
"""
    assert _layers("core/test/glslkit/preprocessor_test.rb", source) == {"portable": 4}


def test_a_version_string_continued_by_the_shader_is_kernel_code() -> None:
    # vladiant/OpenGLsamples ComputeShaders/GenerateTexture/opengl_util.cpp: the #version
    # line is the first item of the array handed to glShaderSource, the shader the next.
    source = b"""\
const char *fsSrc[] = {"#version 430\\n",
                       "uniform sampler2D tex;\\n"
                       "void main() {\\n"
                       "  gl_FragColor = texture(tex, vec2(0.5));\\n"
                       "}\\n"};
int n = 2;
"""
    assert _layers("opengl_util.cpp", source) == {"kernel": 5, "portable": 1}


def test_a_table_of_version_lines_is_no_shader() -> None:
    # aras-p/hlsl2glslfork hlslang/GLSLCodeGen/hlslLinker.cpp: the #version line each target
    # picks, one item each; no item goes on with a shader.
    source = b"""\
static const char* kVersions[4] = {
    "",
    "#version 120\\n", // 1.20
    "#version 140\\n", // 1.40
};
"""
    assert _layers("hlslang/GLSLCodeGen/hlslLinker.cpp", source) == {"portable": 5}
