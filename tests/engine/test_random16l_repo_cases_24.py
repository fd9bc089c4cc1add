"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-l).

The pool is ``/work/pool-h47.txt``, shuffled with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 840-846. Two were skipped: KitsuMate/KitsuMate.Onnx (no
snapshot can be had) and 941035636/WXShaderGardenManagerPro (its one commit holds a README
only: no file lockin counts). Five were read: ManSio/gemma_agent (a Python chat agent
calling hosted LLM APIs), juandi-etcheverry/RayTracing (a C# WinForms ray tracer on the
CPU), Jerry-Shen0527/SimpleRayTracer (a C++ pbrt-style ray tracer whose CMake asks for CUDA
and NVIDIA's OptiX SDK, with an empty OptiX integrator), bettyballin/StackoverflowVSllms
(Stack Overflow answers against LLM answers: Java files at the tip, one-line C/C++ snippets
in its history) and hjiang13/LLMs-in-IR (LLM experiments on compiler IR: Python scripts,
C/C++ programs and their LLVM IR). Four snapshots lacked a few large files (a PNG, a
database backup, a DLL, a data CSV); the rest of each tree was checked out. Fifteen files of
each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, and three commits touching GPU
code judged against ``lockin diff`` (``random.Random("owner/name:commits")``). Each snippet is
a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Jerry-Shen0527/SimpleRayTracer: the OptiX SDK asked of CMake -----------------------------


def test_cmake_finding_optix_sdk_is_vendor_path() -> None:
    # CMakeLists.txt: CUDA among the project's languages, then find_package of OptiX and its
    # include directory beside the CUDA toolkit's: the build needs NVIDIA's ray-tracing SDK.
    source = b"""\
cmake_minimum_required(VERSION 3.18)
project(Tracer LANGUAGES CXX CUDA)
find_package(OptiX REQUIRED)
find_package(CUDAToolkit REQUIRED)
include_directories(${PROJECT_SOURCE_DIR}/include)
include_directories(${OptiX_INCLUDE})
add_subdirectory(src)
"""
    assert _rules("CMakeLists.txt", source) == {"build.cmake-cuda"}
    assert _layers("CMakeLists.txt", source) == {"vendor-path": 4, "portable": 3}


def test_cmake_optix_target_is_vendor_path() -> None:
    # The same requirement through an imported target of a FindOptiX module.
    source = b"""\
add_library(render STATIC render.cpp)
target_link_libraries(render PUBLIC OptiX::OptiX)
"""
    assert _rules("src/CMakeLists.txt", source) == {"build.cmake-cuda"}
    assert _layers("src/CMakeLists.txt", source) == {"vendor-path": 1, "portable": 1}


def test_cmake_optional_optix_switch_stays_portable() -> None:
    # An option naming OptiX and a status line print nothing the build requires.
    source = b"""\
option(WITH_OPTIX "trace rays with OptiX when present" OFF)
if(WITH_OPTIX)
  message(STATUS "OptiX back end requested")
endif()
add_library(render STATIC render.cpp)
"""
    assert _rules("CMakeLists.txt", source) == set()
    assert _layers("CMakeLists.txt", source) == {"portable": 5}


def test_optix_integrator_stub_with_commented_include_stays_portable() -> None:
    # src/Integrators/OptiXPathIntegrator.cpp: the OptiX header commented out and an empty
    # Render; a class named after OptiX runs nothing on the GPU.
    source = b"""\
#include "integrators/gpu_path.h"
// #include <optix.h>
void GpuPathIntegrator::Render(const Scene& scene, bool benchmark)
{
}
"""
    assert _rules("src/gpu_path.cpp", source) == set()
    assert _layers("src/gpu_path.cpp", source) == {"portable": 4}
