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


# -- hjiang13/LLMs-in-IR: a memory space written on a class --------------------------------


def test_managed_attribute_on_class_definition_stays_portable() -> None:
    # processed_data/decompilation_result/GPT_llama3/NumberGroups.cpp: an LLM's decompiled
    # C++ gives libc's FILE structures `__attribute__((__managed__))`; a class lives in no
    # memory space, nvcc ignores the attribute, and the bodies are plain host declarations.
    source = b"""\
#include <cstdio>

class __attribute__((__managed__)) StreamState {
public:
    int fd;
    char *buffer;
    long offset;
};

int main() {
    StreamState s{};
    return s.fd;
}
"""
    assert _rules("decompiled/Groups.cpp", source) == set()
    assert _layers("decompiled/Groups.cpp", source) == {"portable": 11}


def test_managed_variable_is_still_kernel() -> None:
    # The memory space on a variable, as CUDA means it: unified memory the device reads.
    source = b"""\
#include <cstdio>

__managed__ int hits[64];

int main() {
    printf("%d\\n", hits[0]);
    return 0;
}
"""
    assert _rules("count.cu", source) == {"cuda.shared-memory"}
    assert _layers("count.cu", source) == {"kernel": 1, "portable": 5}


# -- bettyballin/StackoverflowVSllms: answers stored as one physical line -----------------------


def test_one_line_cuda_answer_counts_one_kernel_line() -> None:
    # llama31/C/6341.c (history): an LLM's answer saved with its newlines escaped, so the
    # whole kernel and its host program are one physical line: one kernel line.
    source = (
        b"__global__ void scale(float *v, float k) {\\n    int i = blockIdx.x * blockDim.x"
        b" + threadIdx.x;\\n    v[i] *= k;\\n}\n"
    )
    assert _layers("answers/41.c", source) == {"kernel": 1}


# -- juandi-etcheverry/RayTracing and SimpleRayTracer: a metal material is no Metal ----------


def test_metallic_material_class_stays_portable() -> None:
    # ObligatorioDA1/Domain/MetallicMaterial.cs: a ray tracer's metal material, CPU code
    # whose name only sounds like Apple's Metal.
    source = b"""\
namespace Domain
{
    public class MetallicMaterial : Material
    {
        public double Blur { get; set; }
        public override string Describe() => "metallic, blur " + Blur;
    }
}
"""
    assert _rules("Domain/MetallicMaterial.cs", source) == set()
    assert _layers("Domain/MetallicMaterial.cs", source) == {"portable": 8}
