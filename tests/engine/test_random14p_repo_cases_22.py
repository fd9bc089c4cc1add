"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-p).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 497-503. One was skipped: iomeone/gputest (499) had no
snapshot to fetch. Read were qnope/VulkanWrapper (a C++23 Vulkan wrapper with GLSL shaders,
ray tracing passes and GLSL compiled from strings in its tests), TomClabault/RayTracer (a Java
CPU ray tracer, no GPU code), varnholt/dynablaster_revenge (a C++/Qt OpenGL game with GLSL
shader files), Reuzola/modern-cpp-cuda-path-tracer-with-rust-harness (a C++ CPU path tracer
whose CUDA port is only planned, with a Rust scene tool), vinaygaba/pycuda-filters (Python 2
image filters with PyCUDA SourceModule kernels) and navatala-systems/navatala_gpu (a
generated multi-back-end kernel library: .cu/.hip/.cl/.metal/.comp kernel files, kernels held
in raw strings of C++ registries, ROCm benchmarks calling rocBLAS/rocSPARSE). Fifteen files
of each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- navatala-systems/navatala_gpu: vendor names listed in a row are no dynamic import -------------


def test_vendor_name_list_beside_import_module_is_portable() -> None:
    # python/tests/_manifest_driven/test_public_naming.py: a test imports the package's modules
    # with importlib.import_module and checks that no public name holds a vendor fragment from a
    # tuple whose one row lists "cudf", "cuml", ...; the row is data, not a module argument.
    source = b"""\
import importlib

FORBIDDEN = (
    "cudf", "cuml", "cugraph", "rapids",
)

def test_names():
    mod = importlib.import_module("shapes.api")
    for name in dir(mod):
        assert not any(f in name.lower() for f in FORBIDDEN)
"""
    assert _rules("tests/test_api_names.py", source) == set()
    assert _layers("tests/test_api_names.py", source) == {"portable": 8}


def test_rapids_name_alone_in_multiline_import_call_still_counts() -> None:
    # The same rule still reads a RAPIDS module named on its own line of a call running over
    # lines, with a trailing comma and nothing after it.
    source = b"""\
import importlib

def load_gpu_frames():
    lib = importlib.import_module(
        "cudf",
    )
    return lib.read_csv("x.csv")
"""
    assert _rules("frames/io.py", source) == {
        "cudf.python-dynamic-import",
    }
    assert _layers("frames/io.py", source) == {"vendor-library": 1, "portable": 5}


# -- vinaygaba/pycuda-filters: PyCUDA kernels compiled from a SourceModule string ------------------


def test_pycuda_source_module_kernel_and_transfers() -> None:
    # src/getpixels.py: mem_alloc/memcpy around a SourceModule whose string holds a __global__
    # thresholding kernel; the kernel lines are the string's, the transfers vendor-path.
    source = b'''\
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule

def clamp_bright(px):
    buf = drv.mem_alloc(px.nbytes)
    drv.memcpy_htod(buf, px)
    mod = SourceModule("""
        #define LIMIT 200

        __global__ void clamp(int *v)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (v[i] > LIMIT) {
                v[i] = 255;
            }
        }
        """)
    fn = mod.get_function("clamp")
    fn(buf, block=(64, 1, 1))
    out = np.empty_like(px)
    drv.memcpy_dtoh(out, buf)
    return out
'''
    assert _rules("filters/threshold_gpu.py", source) == {
        "pycuda.driver",
        "pycuda.host-api",
        "pycuda.source-module",
    }
    assert _layers("filters/threshold_gpu.py", source) == {
        "kernel": 10,
        "vendor-path": 7,
        "portable": 6,
    }


# -- qnope/VulkanWrapper: vk:: handle types in a wrapper's header ----------------------------------


def test_vulkan_hpp_handle_types_in_header_are_vendor_path() -> None:
    # VulkanWrapper/include/VulkanWrapper/Descriptors/DescriptorPool.h: a class holding
    # vk::UniqueDescriptorPool and handing out vk::DescriptorSet; only those lines are counted.
    source = b"""\
#pragma once
#include <memory>
#include <optional>
#include <vector>

namespace gfx {

class DescriptorArena {
  public:
    DescriptorArena(vk::UniqueDescriptorPool pool, std::size_t capacity);
    std::optional<vk::DescriptorSet> take();

  private:
    vk::UniqueDescriptorPool m_pool;
    std::vector<vk::DescriptorSet> m_free;
    std::size_t m_capacity;
};

} // namespace gfx
"""
    assert _rules("include/gfx/DescriptorArena.h", source) == {
        "vulkan.host-api",
    }
    assert _layers("include/gfx/DescriptorArena.h", source) == {"vendor-path": 4, "portable": 11}


# -- varnholt/dynablaster_revenge: OpenGL host calls of a material stay portable -------------------


def test_opengl_material_host_calls_are_portable() -> None:
    # client/src/engine/materials/destructionmaterial.cpp: a material binds its program,
    # uniforms and textures with plain OpenGL calls; GL runs on every vendor's driver.
    source = b"""\
#include "glowmaterial.h"
#include <GL/gl.h>

void GlowMaterial::begin()
{
   glUseProgram(mProgram);
   glUniform1f(mTimeParam, mTime);
   glActiveTexture(GL_TEXTURE0);
   glBindTexture(GL_TEXTURE_2D, mTexture);
   glEnable(GL_BLEND);
   glBlendFunc(GL_SRC_ALPHA, GL_ONE);
}

void GlowMaterial::end()
{
   glDisable(GL_BLEND);
   glUseProgram(0);
}
"""
    assert _rules("src/materials/glowmaterial.cpp", source) == set()
    assert _layers("src/materials/glowmaterial.cpp", source) == {"portable": 16}


# -- navatala-systems/navatala_gpu: CUDA kernel held in a C++ raw string registry ------------------


def test_cuda_kernel_in_cpp_raw_string_registry() -> None:
    # runtime/src/internal/_registry_strings_cuda_samples.cpp: each kernel's CUDA source is a
    # R"kernel( ... )kernel" constant, then a table of names and sources; only the strings count.
    source = b"""\
// Kernel table for the CUDA back end, generated.
#include <string_view>

const char* k_cuda_scale = R"kern(
#include <cuda_runtime.h>
extern "C" __global__ void scale(const float* x, const float* a, float* y) {
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  y[i] = a[0] * x[i];
}
)kern";

struct Entry { const char* name; const char* source; };
const Entry kTable[] = {
  { "scale", k_cuda_scale },
};
"""
    assert _rules("runtime/src/kernel_table_cuda.cpp", source) == {
        "cuda.source-string",
    }
    assert _layers("runtime/src/kernel_table_cuda.cpp", source) == {"kernel": 7, "portable": 5}


# -- navatala-systems/navatala_gpu: generated .hip kernel file -------------------------------------


def test_generated_hip_kernel_file() -> None:
    # kernels/hip/sparse/sparse_scale_f64.hip: licence comment, the HIP runtime include, one
    # extern "C" __global__ kernel; the include is vendor-path, the kernel's lines kernel.
    source = b"""\
// SPDX-License-Identifier: Apache-2.0
// generated file

#include <hip/hip_runtime.h>
extern "C" __global__ void neg_f32(const float* x, const int* n, float* y) {
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n[0]) {
    y[i] = -x[i];
  }
}
"""
    assert _rules("kernels/hip/linalg/neg_f32.hip", source) == {
        "hip.include",
        "hip.kernel",
    }
    assert _layers("kernels/hip/linalg/neg_f32.hip", source) == {"kernel": 6, "vendor-path": 1}


# -- varnholt/dynablaster_revenge: a GLSL 1.20 fragment shader file --------------------------------


def test_legacy_glsl_fragment_shader_file_is_kernel() -> None:
    # client/data/shaders/earth-frag.glsl: #version 120, uniforms and varyings, a main writing
    # gl_FragColor; every code line is shader code.
    source = b"""\
#version 120

uniform sampler2D colormap;
varying vec2 uv;
varying vec3 normal;

void main()
{
    // rim term from the view-space normal
    float rim = 1.0 - abs(normal.z);
    vec4 col = texture2D(colormap, uv);
    gl_FragColor = col + vec4(rim * 0.3);
}
"""
    assert _rules("data/shaders/rim-frag.glsl", source) == {
        "vulkan.shader-file",
    }
    assert _layers("data/shaders/rim-frag.glsl", source) == {"kernel": 10}
