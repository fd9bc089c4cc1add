"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-a).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 91-100. One had no snapshot: alogeclock/Jungle-D3D11-Engine. Fifteen files of each
remaining repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts, and labelled before any fix, with the files lockin calls non-portable (up to twenty)
and GPU-looking files it calls portable (up to ten), and three commits touching GPU code
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- AmesingFlank/taichi.js: Taichi for the browser, kernels in JavaScript compiled to WGSL ----


def test_taichi_js_arrow_kernel_is_wgsl_kernel_code() -> None:
    # src/tests/TestFieldAccessor.ts: the arrow function handed to ti.kernel is compiled to a
    # WGSL compute shader. Before, the 65 files defining kernels this way were portable, and a
    # commit growing a kernel passed the gate.
    source = b"""\
import * as ti from '../taichi';

async function testFill(): Promise<boolean> {
    await ti.init();
    let s = ti.field(ti.f32, [4]);
    ti.addToKernelScope({ s });
    let kernel = ti.kernel(() => {
        for (let i of range(4)) {
            s[i] = i * 2;
        }
    });
    kernel();
    return (await s.get([1])) == 2;
}
"""
    assert _rules("src/tests/TestFill.ts", source) == {"wgsl.taichi-js-kernel"}
    assert _layers("src/tests/TestFill.ts", source) == {"kernel": 5, "portable": 8}


def test_taichi_js_class_kernel_after_its_argument_types_is_kernel_code() -> None:
    # src/engine/Renderer.ts: ti.classKernel takes `this` and an object literal of argument
    # types before the function; the function, not the object literal, is the kernel.
    source = b"""\
export class Blur {
    init() {
        this.blurKernel = ti.classKernel(
            this,
            { camera: Camera.getKernelType() },
            (camera: any) => {
                for (let I of ti.ndrange(16, 16)) {
                    this.out[I] = this.inp[I] * camera.near;
                }
            }
        );
    }
}
"""
    assert _layers("src/engine/Blur.ts", source) == {"kernel": 8, "portable": 5}


def test_taichi_js_device_function_with_typed_arrow_is_kernel_code() -> None:
    # src/language/frontend/Library.ts: ti.func device helpers, TypeScript-typed arrows.
    source = b"""\
import * as ti from '../../taichi';
let lerp = ti.func((a: ti.types.vector, b: ti.types.vector, t: number): ti.types.vector => {
    return a + (b - a) * t;
});
export { lerp };
"""
    assert _layers("src/language/frontend/Library.ts", source) == {"kernel": 3, "portable": 2}


def test_taichi_js_host_code_using_the_engine_stays_portable() -> None:
    # examples/home-alone/index.js: builds a scene and renders it through the library; the
    # kernels live in the library, not here. A kernel handed by name holds no body to claim.
    source = b"""\
import * as ti from '../../../dist/taichi.dev.js';

let main = async () => {
    await ti.init();
    let scene = new ti.engine.Scene();
    let renderer = new ti.engine.Renderer(scene, canvas);
    await renderer.init();
    let step = ti.kernel(stepBody)
    let frame = () => {
        renderer.render(camera);
        requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
};
"""
    assert _layers("examples/home-alone/index.js", source) == {"portable": 13}


# -- GridTools/stencil_benchmarks: CUDA/HIP stencils rendered from Jinja templates ------------


def test_stencil_benchmarks_jinja_kernel_body_template_is_cuda() -> None:
    # stencils/cuda_hip/templates/horizontal_diffusion_classic.j2: a child template fills in
    # only the kernel's body; the __global__ signature is in the base.j2 it extends. Before,
    # nothing named CUDA but the builtins, the eleven such templates were read as Jinja text
    # and not counted, and a commit growing two of them passed the gate.
    source = b"""\
{% extends "base.j2" %}

{% block gpu_kernel_body %}
    const {{ index_type }} i = blockIdx.x * {{ block_size[0] }} + threadIdx.x;
    __shared__ {{ ctype }} lap[{{ cache_size }}];
    lap[threadIdx.x] = inp[i];
    __syncthreads();
    out[i] = lap[threadIdx.x] * {{ ctype }}(2);
{% endblock gpu_kernel_body %}
"""
    report = classify("templates/diffusion_classic.j2", source)
    assert report.language == "CUDA"
    assert _layers("templates/diffusion_classic.j2", source).get("kernel", 0) > 0


def test_stencil_benchmarks_jinja_template_of_host_code_stays_cpp() -> None:
    # stencils/openmp/templates/base.j2: the OpenMP back end's C++, no device builtin.
    source = b"""\
#include <omp.h>
{% block kernel %}
void run({{ ctype }}* out) {
    #pragma omp parallel for
    for (int i = 0; i < {{ n }}; ++i) out[i] = {{ ctype }}(0);
}
{% endblock kernel %}
"""
    assert classify("templates/base.j2", source).language == "C++"
    assert _layers("templates/base.j2", source) == {"portable": 7}


# -- chaosagent/tinygrad: a fork of tinygrad with its back ends ---------------------------------


def test_tinygrad_ptx_renderer_module_header_is_ptx_kernel_code() -> None:
    # tinygrad/renderer/assembly.py: the PTX back end writes every kernel under a module header
    # whose version and target are placeholders filled in later. Before, the renderer was
    # portable: no line named a PTX version, an sm_ target or an entry with its parameters.
    source = b'''\
from tinygrad.renderer import Renderer

class PTXRenderer(Renderer):
  device = "CUDA"
  suffix = "PTX"
  kernel_prefix = """.version VERSION
.target TARGET
.address_size 64
.visible .entry"""
  barrier = "bar.sync\\t0;"
'''
    assert _rules("tinygrad/renderer/assembly.py", source) == {"cuda.ptx-string"}
    assert _layers("tinygrad/renderer/assembly.py", source) == {"kernel": 4, "portable": 5}


# -- Eugene3535/World3D: a Vulkan engine, its shaders compiled to SPIR-V at build time ---------


def test_world3d_shader_step_running_the_vulkan_sdks_glslc_is_vendor_build() -> None:
    # src/cmake/compile_shaders.cmake: fails the configure step without the Vulkan SDK's glslc
    # and runs it on every shader. Before, only find_package(Vulkan) and the Vulkan:: targets
    # counted, and this helper was portable.
    source = b"""\
function(compile_shaders SRC_DIR DEST_DIR)
  if (NOT Vulkan_glslc_FOUND)
    message(SEND_ERROR "compile_shaders: Vulkan glslc not found")
  endif()
  message(STATUS "compiling with ${Vulkan_GLSLC_EXECUTABLE}")
  file(GLOB shaders ${SRC_DIR}/*.vert ${SRC_DIR}/*.frag)
  foreach(shader IN LISTS shaders)
    get_filename_component(name ${shader} NAME_WE)
    execute_process(COMMAND ${Vulkan_GLSLC_EXECUTABLE} ${shader} -o ${DEST_DIR}/${name}.spv)
  endforeach()
endfunction()
"""
    assert _rules("src/cmake/compile_shaders.cmake", source) == {"build.cmake-vulkan"}
    assert _layers("src/cmake/compile_shaders.cmake", source) == {"vendor-path": 1, "portable": 10}


# -- Cases checked right that were hard -------------------------------------------------------


def test_cutlass_examples_gtest_file_naming_only_launch_wrappers_is_portable() -> None:
    # xuanyuandy/CUTLASS-Examples examples/cute_matrix_transpose/tests/test_*.cu: a .cu file,
    # but only GoogleTest parameters and pointers to launch functions declared elsewhere.
    source = b"""\
#include <gtest/gtest.h>
#include "transpose.hpp"

static auto const LAUNCH_FLOAT{launch_transpose_padded<float>};
static auto const M_VALUES{::testing::Values(2 * 4, 17 * 4, 83 * 4)};

TEST_P(TestTransposeFloat, TestTransposeFloat)
{
    RunTest(LAUNCH_FLOAT);
}

INSTANTIATE_TEST_SUITE_P(TestTransposePadded, TestTransposeFloat,
                         ::testing::Combine(M_VALUES, M_VALUES));
"""
    assert _layers("tests/test_transpose_padded.cu", source) == {"portable": 10}


def test_hcp_diffusion_mps_dtype_branch_is_vendor_path() -> None:
    # IrisRainbowNeko/HCP-Diffusion hcpdiff/models/controlnet.py: Apple's MPS has no float64,
    # so the timestep dtype takes an MPS-only branch.
    source = b"""\
import torch

def embed_timesteps(sample, timesteps):
    if not torch.is_tensor(timesteps):
        is_mps = sample.device.type == "mps"
        dtype = torch.float32 if is_mps else torch.float64
        timesteps = torch.tensor([timesteps], dtype=dtype, device=sample.device)
    return timesteps.expand(sample.shape[0])
"""
    assert _layers("hcpdiff/models/controlnet.py", source) == {"vendor-path": 1, "portable": 6}


def test_world3d_window_for_a_vulkan_surface_is_portable() -> None:
    # Eugene3535/World3D src/app/MainWindow.cpp: GLFW with no client API, the native handle
    # handed to the engine's own wrapper; no Vulkan call or type in the file.
    source = b"""\
#include <GLFW/glfw3.h>
#include "MainWindow.hpp"

bool MainWindow::create(const char* title, int32_t width, int32_t height) noexcept
{
    if (!m_api.init())
        return false;
    glfwInit();
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    m_window = glfwCreateWindow(width, height, title, nullptr, nullptr);
    return m_api.createMainView(reinterpret_cast<uint64_t>(m_window));
}
"""
    assert _layers("src/app/MainWindow.cpp", source) == {"portable": 11}
