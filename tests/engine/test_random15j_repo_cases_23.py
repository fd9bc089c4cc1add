"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-j).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 651-657. Three had no snapshot and were skipped, not
replaced: cedhuf/hollama-Next, xuwchen/Megatron-LM and lycilph/PathTracer. Four were read
(tomography/holotomocupy's snapshot lacked five large notebooks and a .npy the census does not
need, and was checked out around them): tomography/holotomocupy (holotomography
reconstruction on CuPy, with CUDA C kernels kept in cp.RawKernel strings and Jupyter
notebooks driving them), MegatronJeremy/Snowstorm (a C++ game engine with OpenGL and Vulkan
back ends, GLSL shaders, CMake and a Conan recipe), WIFSurvivors/Raytracer (an OpenGL compute
shader ray tracer in C++ with a C# WPF front end over TCP) and daniel-mf-92/holyc-inference
(LLM inference written in HolyC, whose 1,500 counted files are Python test harnesses
re-implementing it, the "GPU" ones included, with no vendor API). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, up to five more kernel files counted by
hand, and three commits touching GPU code (``random.Random("owner/name:commits")``) judged
against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- MegatronJeremy/Snowstorm: the Vulkan SDK reached through a script path and Conan ---------


def test_glslc_run_by_its_full_path_in_a_shell_script_is_a_vulkan_build_step() -> None:
    # Assets/shaders/compile.sh: the SDK's glslc run by an absolute path whose version folder
    # is a placeholder. Before, only the .bat twin (a numbered VulkanSDK folder) counted and
    # the shell script was portable.
    source = b"""\
/home/me/sdk/vulkan/x.x/bin/glslc sprite.vert -o sprite_vert.spv
/home/me/sdk/vulkan/x.x/bin/glslc sprite.frag -o sprite_frag.spv
"""
    path = "assets/shaders/build_shaders.sh"
    assert _rules(path, source) == {"build.vulkan"}
    assert _layers(path, source) == {"vendor-path": 2}


def test_a_wrapper_named_after_glslc_or_a_copy_of_it_is_no_build_step() -> None:
    source = b"""\
cp out/glslc /usr/local/bin/
./tools/glslc_wrapper assets/shaders
python3 tools/glslc.py assets/shaders
"""
    path = "scripts/install_tools.sh"
    assert _rules(path, source) == set()


def test_cmake_finding_conans_vulkan_loader_and_headers_requires_vulkan() -> None:
    # Snowstorm-Core/CMakeLists.txt: Conan's Vulkan packages found by their config names and
    # linked through their namespaced targets. Before, only the Vulkan::Loader line counted.
    source = b"""\
cmake_minimum_required(VERSION 3.20)
project(EngineCore CXX)
find_package(glfw3 REQUIRED CONFIG)
find_package(VulkanLoader REQUIRED CONFIG)
find_package(VulkanHeaders REQUIRED CONFIG)
add_library(EngineCore STATIC ${SOURCES})
target_link_libraries(EngineCore PUBLIC glfw vulkan-headers::vulkan-headers)
"""
    path = "Engine-Core/CMakeLists.txt"
    assert _rules(path, source) == {"build.cmake-vulkan"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 4}


def test_a_conan_recipe_requiring_the_vulkan_loader_is_a_vulkan_dependency() -> None:
    # conanfile.py: the requires list pins vulkan-headers, vulkan-loader and the validation
    # layers beside portable libraries. Before, the recipe counted all portable.
    source = b"""\
from conan import ConanFile


class EngineConan(ConanFile):
    settings = "os", "compiler", "build_type", "arch"
    generators = "CMakeDeps", "CMakeToolchain"
    requires = [
        "vulkan-headers/1.3.250.0",
        "vulkan-loader/1.3.250.0",
        "vulkan-validationlayers/1.3.250.0",
        "glfw/3.4",
        "glm/cci.20230113",
    ]
"""
    path = "conanfile.py"
    assert _rules(path, source) == {"deps.vulkan-conan"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 8}


def test_a_conan_recipe_without_vulkan_stays_portable() -> None:
    source = b"""\
from conan import ConanFile


class ToolConan(ConanFile):
    requires = ["glfw/3.4", "spdlog/1.15.0"]

    def package(self):
        self.output.info("vulkan-loader/ is provided by the system here")
"""
    path = "conanfile.py"
    assert _rules(path, source) == set()


def test_a_vulkan_named_stub_without_vulkan_calls_is_portable() -> None:
    # Snowstorm-Core/Source/Platform/Vulkan/VulkanFramebuffer.cpp: a back-end class whose
    # methods are still empty; only its folder and class name say Vulkan (already right).
    source = b"""\
#include "pch.h"
#include "VulkanFrameTarget.h"

namespace Engine
{
    VulkanFrameTarget::VulkanFrameTarget(const TargetSpec& spec) : m_Spec(spec) {}

    void VulkanFrameTarget::Resize(uint32_t w, uint32_t h)
    {
        if (w == 0 || h == 0)
            return;
        m_Spec.Width = w;
        m_Spec.Height = h;
    }
}
"""
    path = "Source/Platform/Vulkan/VulkanFrameTarget.cpp"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 13}


# -- tomography/holotomocupy: CuPy host code and CUDA C in RawKernel strings --------------------


def test_cupy_raw_kernel_strings_count_as_kernel_lines() -> None:
    # holotomocupy/cuda_kernels.py: each kernel a cp.RawKernel(r'''...''', name) at module
    # level; the string's lines with its opening and closing lines count as kernel, the import
    # as CuPy host code (already right: 191 kernel lines for 181 inside the strings).
    source = b"""\
import cupy as cp

scale_kernel = cp.RawKernel(r'''
extern "C" __global__ void scale(float2 *a, float s, int n)
{
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n)
    return;
  a[i].x *= s;
  a[i].y *= s;
}
''', 'scale')
"""
    path = "pkg/gpu_kernels.py"
    assert _rules(path, source) == {"cupy.api", "cupy.raw-kernel"}
    assert _layers(path, source) == {"kernel": 10, "vendor-path": 1}


def test_cupy_fft_host_code_launching_raw_kernels_is_vendor_path() -> None:
    # holotomocupy/holo.py: cp arrays and FFTs around a RawKernel launch with grid and block
    # tuples (already right).
    source = b"""\
import cupy as cp
from .gpu_kernels import scale_kernel


def propagate(f, n):
    g = cp.fft.fft2(f)
    scale_kernel((int(cp.ceil(n / 32)),), (32,), (g, cp.float32(0.5), n))
    return cp.fft.ifft2(g)
"""
    path = "pkg/propagate.py"
    assert _rules(path, source) == {"cupy.api"}
    assert _layers(path, source)["vendor-path"] >= 4


# -- daniel-mf-92/holyc-inference: a "GPU" module simulated in plain Python --------------------


def test_python_model_of_a_gpu_dispatch_queue_is_portable() -> None:
    # tests/test_gpu_dispatch_transcript.py: constants and checked integer arithmetic that
    # mirror a HolyC GPU dispatch recorder; no device API is touched (already right).
    source = b"""\
GPU_TX_OK = 0
GPU_TX_ERR_OVERFLOW = 5
I64_MAX = 0x7FFFFFFFFFFFFFFF


def add_checked(lhs: int, rhs: int) -> int | None:
    if lhs > I64_MAX - rhs:
        return None
    return lhs + rhs


def test_gpu_dispatch_overflow() -> None:
    assert add_checked(I64_MAX, 1) is None
"""
    path = "tests/test_gpu_dispatch_queue.py"
    assert _rules(path, source) == set()
