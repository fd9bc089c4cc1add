"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-random-c).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (the name's text only, so some are no GPU code at all).
This lane took sub-pool positions 290-297; none was skipped, every one had a snapshot. Read
were Triton-Robotics/TR-mbed (Mbed OS firmware in C++ for competition robots, a Jetson
companion reached over a serial link, no GPU code), Ryanshuai/
python_numpy_numba_cupy_pycuda_cuda_speed_comparison (timings of a reduction, a matrix sum and
a product in pure Python, NumPy, CuPy, Numba's CUDA target and PyCUDA, with a matplotlib
script plotting them), maracuda/Treller (a C# and React task-tracker dashboard, its name
holding "cuda" by chance), LunaticP/RayTracer (a school ray tracer in C: an OpenCL kernel file,
a small OpenCL host library, minilibx with GLSL in C strings for its OpenGL window),
zenlc2000/pycuda-euler (a genome assembler in Python: CUDA C in PyCUDA SourceModule strings,
several copies of each module, Spark and Dask notebooks), zhanzhan1848/GameEngine_VulkanCPP (a
C++ game engine with Vulkan and Direct3D 12 back ends, GLSL and HLSL shaders, a C# editor and
vendored PhysX headers), RainbowMetalPigeon/ExtremeYellow (a Game Boy game hack in assembly
with Python tools and notebooks, no GPU code) and YaluLiu/raytrace_vulkan_headless (NVIDIA's
Vulkan ray-tracing tutorial made headless, on nvpro_core, with a Hydra render delegate).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts (all five of the speed comparison) and labelled before any fix, with the
files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to 10)
checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Two sampled files were wrong before: the speed comparison's
plot.py, whose legend labels name "pycuda", and pycuda-euler's dask_run.ipynb, whose S3 bucket
is named "pycuda-euler-data", were both read as a CUDA wheel pinned. Outside the sample, the
ray tracer's Makefile links ``-framework opencl`` in lower case, which build.opencl did not
read, and the Vulkan tutorial's CMakeLists ask for the SDK with nvpro_core's own macro
(``_add_package_VulkanSDK()``) and build SPIR-V with ``VULKAN_TARGET "vulkan1.2"``, which
build.cmake-vulkan did not read. The other tests pin verdicts worth keeping. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Ryanshuai/python_numpy_numba_cupy_pycuda_cuda_speed_comparison -------------------------


def test_plot_legend_labels_naming_back_ends_are_portable() -> None:
    # plot.py (sampled, vendor-path before): one timing curve a back end, each labelled with
    # the back end's name; matplotlib only.
    source = b"""\
import matplotlib.pyplot as plt

sizes = [1e3, 1e4, 1e5]
plt.plot(sizes, [0.1, 0.2, 0.4], "k", label="pycuda")
plt.plot(sizes, [0.1, 0.3, 0.5], "g", label="cupy")
plt.plot(sizes, [0.2, 0.2, 0.3], "r", label="cuda")
plt.xscale('log')
plt.legend()
plt.savefig('sum.png')
"""
    assert _layers("plot.py", source) == {"portable": 8}


def test_numba_cuda_kernels_are_kernel_and_transfers_vendor_path() -> None:
    # numba_calculations.py (sampled, right before): @cuda.jit bodies with shared arrays and
    # syncthreads, the launch helpers, and device copies in the main block.
    source = b"""\
import numpy as np
import numba
from numba import cuda

WIDTH = 256


@cuda.jit
def block_sum(src, out):
    buf = cuda.shared.array(shape=WIDTH, dtype=numba.float32)
    t = cuda.threadIdx.x
    buf[t] = src[cuda.blockIdx.x * WIDTH + t]
    cuda.syncthreads()
    if t == 0:
        out[cuda.blockIdx.x] = buf[0]


def run(values):
    d_in = cuda.to_device(values)
    d_out = cuda.to_device(np.zeros(values.size // WIDTH, dtype=np.float32))
    block_sum[values.size // WIDTH, WIDTH](d_in, d_out)
    return d_out.copy_to_host()
"""
    path = "numba_calculations.py"
    assert "numba.cuda-jit" in _rules(path, source)
    layers = _layers(path, source)
    assert layers["kernel"] == 8
    assert "vendor-path" in layers


def test_cupy_event_timing_is_vendor_path() -> None:
    # test_time.py (sampled, right before): GPU timings taken with CuPy's CUDA events.
    source = b"""\
import cupy as cp


def time_on_gpu(fn, *args, repeat=10):
    begin = cp.cuda.Event()
    end = cp.cuda.Event()
    begin.record()
    for _ in range(repeat):
        fn(*args)
    end.record()
    end.synchronize()
    return cp.cuda.get_elapsed_time(begin, end) / repeat
"""
    path = "test_time.py"
    assert "cupy.api" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


# -- zenlc2000/pycuda-euler: PyCUDA kernels, Dask and Spark notebooks ----------------------


def test_s3_bucket_named_after_the_project_is_no_wheel() -> None:
    # src/referenceassembler/dask_run.ipynb (sampled, vendor-path before): reads a FASTQ file
    # from an S3 bucket whose name starts with "pycuda-"; Dask only.
    source = b"""\
import s3fs
import dask.bag as db

fs = s3fs.S3FileSystem(anon=False)
fs.ls('pycuda-assembly-reads')
chunks = db.read_text('s3://pycuda-assembly-reads/sample.fq')
"""
    path = "src/referenceassembler/dask_run.py"
    assert "deps.cuda-wheel-python" not in _rules(path, source)
    assert _layers(path, source) == {"portable": 5}


def test_pycuda_source_module_with_struct_and_gpuarray_host() -> None:
    # src/component/pycomponent.py (sampled, right before; hand 186 kernel lines against
    # lockin's 206 over the file): each step builds a SourceModule holding a struct and one
    # kernel, then launches it on gpuarray buffers.
    source = b'''\
import numpy as np
import pycuda.autoinit
import pycuda.gpuarray as gpuarray
from pycuda.compiler import SourceModule


def mark_roots(parents, flags, n):
    mod = SourceModule("""
    typedef struct Node { unsigned int id; unsigned int left; } Node;

    __global__ void markRoots(unsigned int *parent, unsigned int *flag, unsigned int n)
    {
        unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            flag[i] = (parent[i] == i);
        }
    }
    """)
    fn = mod.get_function("markRoots")
    d_parent = gpuarray.to_gpu(parents)
    d_flag = gpuarray.to_gpu(flags)
    fn(d_parent, d_flag, np.uint32(n), block=(256, 1, 1), grid=((n + 255) // 256, 1))
    return d_flag.get()
'''
    path = "src/component/pycomponent.py"
    assert "pycuda.source-module" in _rules(path, source)
    layers = _layers(path, source)
    assert 7 <= layers["kernel"] <= 10
    assert "vendor-path" in layers


# -- LunaticP/RayTracer: OpenCL kernels, an OpenCL host library, minilibx --------------------


def test_makefile_linking_the_opencl_framework_in_lower_case_is_vendor_path() -> None:
    # Makefile (GPU-looking, portable before): macOS frameworks linked by name, OpenCL's in
    # lower case.
    source = b"""\
NAME = rt
LIBS = -L./libft -lft -L./libcl -lcl
FRAMEWORKS = -framework OpenGl -framework AppKit -framework opencl

$(NAME): $(OBJ)
\t$(CC) -o $(NAME) $(OBJ) $(LIBS) $(FRAMEWORKS)
"""
    path = "Makefile"
    assert "build.opencl" in _rules(path, source)
    assert _layers(path, source)["vendor-path"] == 1


def test_opencl_program_build_is_vendor_path() -> None:
    # libocl/ocl_build_prog.c (sampled, right before): reads a .cl file and builds it.
    source = b"""\
#include "libcl.h"

int cl_build(const char *src, size_t len, t_prog *p)
{
    cl_int err;

    p->program = clCreateProgramWithSource(p->context, 1, &src, &len, &err);
    if (err < 0)
        return (0);
    err = clBuildProgram(p->program, 1, &p->device, NULL, NULL, NULL);
    return (err >= 0);
}
"""
    path = "libocl/ocl_build_prog.c"
    assert "opencl.host-api" in _rules(path, source)
    assert "vendor-path" in _layers(path, source)
    assert "kernel" not in _layers(path, source)


def test_glsl_in_c_strings_of_an_opengl_window_is_kernel() -> None:
    # libmlx/mlx_shaders.c (extra kernel file, right before; 57 lines by hand and by lockin):
    # a vertex shader's GLSL concatenated in C strings, compiled with OpenGL.
    source = b"""\
#include <OpenGL/gl3.h>

int make_shader(GLuint *out)
{
  char *text;

  *out = glCreateShader(GL_VERTEX_SHADER);
  text = strdup("#version 110 \\n"
          "attribute vec2 corner;"
          "varying vec2 uv;"
          "void main()"
          "{"
          " gl_Position = vec4(corner, 0.0, 1.0);"
          " uv = (corner + 1.0) / 2.0;"
          "}");
  glShaderSource(*out, 1, (const GLchar **)&text, NULL);
  glCompileShader(*out);
  return (0);
}
"""
    path = "libmlx/mlx_shaders.c"
    assert "vulkan.glsl-string" in _rules(path, source)
    assert _layers(path, source)["kernel"] == 8


# -- YaluLiu/raytrace_vulkan_headless: nvpro_core's Vulkan ray-tracing tutorial -------------


def test_nvpro_core_vulkan_sdk_package_is_vendor_path() -> None:
    # CMakeLists.txt (GPU-looking, portable before): nvpro_core's macros pull in the packages.
    source = b"""\
cmake_minimum_required(VERSION 3.9.6)
project(rt_tutorial)
include(${BASE_DIRECTORY}/nvpro_core/cmake/setup.cmake)
_add_package_OpenGL()
_add_package_VulkanSDK()
_add_package_ImGUI()
_add_nvpro_core_lib()
"""
    path = "CMakeLists.txt"
    assert "build.cmake-vulkan" in _rules(path, source)
    assert _layers(path, source)["vendor-path"] == 1


def test_nvpro_core_glsl_build_for_a_vulkan_target_is_vendor_path() -> None:
    # headless/CMakeLists.txt (GPU-looking, portable before): the shaders compiled to SPIR-V.
    source = b"""\
compile_glsl_directory(
  SRC "${CMAKE_CURRENT_SOURCE_DIR}/shaders"
  DST "${CMAKE_CURRENT_SOURCE_DIR}/spv"
  VULKAN_TARGET "vulkan1.2"
  DEPENDENCY ${VULKAN_BUILD_DEPENDENCIES}
  )
target_sources(${PROJNAME} PUBLIC ${SOURCE_FILES})
"""
    path = "headless/CMakeLists.txt"
    assert "build.cmake-vulkan" in _rules(path, source)
    assert "vendor-path" in _layers(path, source)


def test_struct_header_shared_by_cpp_and_glsl_is_portable() -> None:
    # headless/shaders/host_device.h (sampled, right before): glm aliases under __cplusplus
    # and plain structs both sides read; no shader logic.
    source = b"""\
#ifndef SHARED_LAYOUT_H
#define SHARED_LAYOUT_H

#ifdef __cplusplus
#include <glm/glm.hpp>
using vec3 = glm::vec3;
using mat4 = glm::mat4;
using uint = unsigned int;
#endif

struct FrameData
{
  mat4 viewProj;
  mat4 viewInverse;
};

struct RayConstants
{
  vec3  lightPos;
  float lightPower;
  uint  frame;
};

#endif
"""
    assert set(_layers("headless/shaders/host_device.h", source)) == {"portable"}


def test_closest_hit_shader_is_kernel() -> None:
    # headless/shaders/raytrace.rchit (sampled, right before; 92 lines by hand and lockin).
    source = b"""\
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec3 payload;
hitAttributeEXT vec2 bary;

void main()
{
  vec3 w = vec3(1.0 - bary.x - bary.y, bary.x, bary.y);
  payload = w * 0.5 + 0.5;
}
"""
    assert _layers("headless/shaders/raytrace.rchit", source) == {"kernel": 9}


def test_vulkan_image_creation_is_vendor_path() -> None:
    # headless/headless_vk.hpp (sampled, right before): an offscreen image made with Vulkan.
    source = b"""\
#include <vulkan/vulkan.h>

VkImage make_target(VkDevice device, VkExtent2D size)
{
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format    = VK_FORMAT_R32G32B32A32_SFLOAT;
  info.extent    = {size.width, size.height, 1};
  VkImage image  = VK_NULL_HANDLE;
  vkCreateImage(device, &info, nullptr, &image);
  return image;
}
"""
    path = "headless/headless_vk.hpp"
    assert "vulkan.host-api" in _rules(path, source)
    assert "kernel" not in _layers(path, source)
    assert "vendor-path" in _layers(path, source)


# -- Triton-Robotics/TR-mbed: robot firmware beside a Jetson ----------------------------------


def test_firmware_talking_to_a_jetson_over_serial_is_portable() -> None:
    # core/util/communications/jetson/Jetson.h (sampled, right before): the packet layout the
    # microcontroller sends to the Jetson, no GPU code on this side.
    source = b"""\
#pragma once
#include "mbed.h"
#include <cstdint>

class Jetson {
  public:
    struct WriteState {
        float chassis_vx;
        float chassis_vy;
        float yaw;
    };
    explicit Jetson(BufferedSerial &link) : link_(link) {}
    void send(const WriteState &state);
  private:
    BufferedSerial &link_;
};
"""
    assert set(_layers("core/util/communications/jetson/Jetson.h", source)) == {"portable"}
