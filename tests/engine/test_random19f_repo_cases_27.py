"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-f).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 232-238, and every one had a snapshot, so none was skipped.
Read were linksplatform/Data.Doublets.Gql (a GraphQL schema and clients of the Links Platform
doublets store in C#, Rust, Python and C++: no GPU code), Rad12390/easycloses (a Symfony PHP
web shop with its jQuery, CKEditor and amCharts plug-ins and two copies of Mozilla's pdf.js,
whose WebGL back end keeps four GLSL shaders in backslash-continued strings),
maorun/zinszins-simulation (a German compound-interest and retirement planner in TypeScript
and React, one three.js scene drawn through react-three-fiber, no shader of its own),
gemmaknits/Eschler (a knitting mill's VB.NET WinForms order, stock and invoice systems with
Crystal Reports: no GPU code), team-attention/code-squad (a VS Code extension in TypeScript
with a webview UI: no GPU code), rfdickerson/voxelsprout (a C++ voxel and city-building game
engine: Vulkan host code under src/render/backend/vulkan, 67 Slang shaders compiled to SPIR-V,
GLFW windows and input) and eastene/vRNN-PyCUDA (an LSTM trained on the GPU with PyCUDA:
ElementwiseKernel and ReductionKernel sources, gpuarray transfers and streams, scikit-cuda's
cuBLAS matrix products). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts (vRNN-PyCUDA has fourteen) and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, files outside the sample that hold kernel
lines counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- eastene/vRNN-PyCUDA: PyCUDA kernels, gpuarrays and scikit-cuda's cuBLAS calls ----------


def test_skcuda_linalg_calls_under_the_module_alias_are_vendor_library() -> None:
    # src/model/lstm_cell.py (a line-count miss before: only the import counted): the gate
    # products go through scikit-cuda's linalg.dot and linalg.transpose, cuBLAS underneath.
    source = b"""\
import pycuda.gpuarray as garray
import skcuda.linalg as linalg

def cell_backward(d_gate, joined, weights):
    d_w = linalg.dot(d_gate, linalg.transpose(joined))
    d_in = linalg.dot(linalg.transpose(weights), d_gate)
    return d_w, d_in
"""
    path = "src/model/cell.py"
    assert "cuda-libs.skcuda-linalg-call" in _rules(path, source)
    # The import (cuda-libs.python-extension) and both products.
    assert _layers(path, source)["vendor-library"] == 3


def test_skcuda_init_called_through_the_package_is_vendor_library() -> None:
    # src/model/LSTM.py: the training loop opens cuBLAS with the fully qualified init().
    source = b"""\
import skcuda.linalg

class Trainer:
    def fit(self, batches):
        skcuda.linalg.init()
        for batch in batches:
            self.step(batch)
"""
    path = "src/model/trainer.py"
    assert "cuda-libs.skcuda-linalg-call" in _rules(path, source)
    assert _layers(path, source)["vendor-library"] == 2


def test_numpy_linalg_next_to_skcuda_fft_stays_portable() -> None:
    # The negative: the bare name bound to NumPy's module, scikit-cuda imported for its FFT.
    source = b"""\
import numpy as np
import skcuda.fft as cu_fft
from numpy import linalg

def residual(a, b):
    x = linalg.solve(a, b)
    return np.abs(a @ x - b).max()
"""
    path = "solver/residual.py"
    assert "cuda-libs.skcuda-linalg-call" not in _rules(path, source)
    assert _layers(path, source).get("vendor-library") == 1  # the skcuda import only


def test_pycuda_elementwise_kernels_are_kernel_with_gpuarray_vendor_path() -> None:
    # src/utils/cuda.py (right before, kept): activation functions built as ElementwiseKernel
    # and ReductionKernel sources, their outputs allocated with pycuda.gpuarray.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.gpuarray
from pycuda.elementwise import ElementwiseKernel
from pycuda.reduction import ReductionKernel


def relu_gpu(x):
    relu = ElementwiseKernel(
        "double *out, double *x",
        "out[i] = x[i] > 0.0 ? x[i] : 0.0",
        "relu")
    out = pycuda.gpuarray.empty_like(x)
    relu(out, x)
    return out


def total_gpu(x):
    total = ReductionKernel(np.float64, neutral="0.0",
            reduce_expr="a+b", map_expr="x[i]",
            arguments="double *x")
    return total(x).get()
"""
    path = "src/utils/gpu_ops.py"
    layers = _layers(path, source)
    assert layers.get("kernel", 0) >= 6
    assert layers.get("vendor-path", 0) >= 4


def test_an_exception_class_named_for_the_gpu_is_portable() -> None:
    # src/model/GPUException.py and example/wiki-train.py (GPU-looking, right before): a name
    # and the project's own train_gpu methods call nothing of CUDA's.
    source = b"""\
class DeviceError(Exception):
    def __init__(self, message):
        super().__init__(message)


def run(model, text, use_gpu, layers_on_gpu):
    if use_gpu:
        model.train_gpu(text, layers_on_gpu)
    else:
        model.train_cpu(text)
"""
    path = "example/train_text.py"
    assert set(_layers(path, source)) == {"portable"}


# -- rfdickerson/voxelsprout: Vulkan host code and Slang shaders ------------------------------


def test_slang_shader_module_is_kernel_code() -> None:
    # src/render/shaders/pbr.slang (right before): a Slang module of BRDF helpers, every line
    # shader code.
    source = b"""\
module shading;

public struct Surface
{
    public float rough;
    public float metal;
};

public float3 fresnel(float3 f0, float cosTheta)
{
    return f0 + (1.0 - f0) * pow(saturate(1.0 - cosTheta), 5.0);
}
"""
    path = "src/render/shaders/shading.slang"
    layers = _layers(path, source)
    assert set(layers) == {"kernel"}
    assert layers["kernel"] == 10


def test_vulkan_compute_pass_recording_is_vendor_path() -> None:
    # src/render/backend/vulkan/post_compute.cc (right before): a post-processing compute pass
    # bound and dispatched through Vulkan's command buffer API.
    source = b"""\
#include <vulkan/vulkan.h>

void recordBlurPass(VkCommandBuffer cmd, VkPipeline pipe, VkPipelineLayout layout,
                    VkDescriptorSet set, uint32_t w, uint32_t h) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cmd, (w + 7) / 8, (h + 7) / 8, 1);
}
"""
    path = "src/render/backend/vulkan/blur_pass.cc"
    assert "vulkan.host-api" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_glfw_input_polling_in_a_game_app_is_portable() -> None:
    # src/games/voxelcraft/voxelcraft_app.cc and citybuilder_app.cc (right before): GLFW keys
    # read each frame, no graphics API call in the file.
    source = b"""\
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

void App::pollInput() {
    m_input.forward = glfwGetKey(m_window, GLFW_KEY_W) == GLFW_PRESS;
    m_input.back = glfwGetKey(m_window, GLFW_KEY_S) == GLFW_PRESS;
    if (glfwGetKey(m_window, GLFW_KEY_ESCAPE) == GLFW_PRESS) {
        glfwSetWindowShouldClose(m_window, GLFW_TRUE);
    }
}
"""
    path = "src/games/sandbox/sandbox_app.cc"
    assert set(_layers(path, source)) == {"portable"}


def test_render_backend_selector_header_is_portable() -> None:
    # src/render/backend/render_backend_selector.h (GPU-looking, right before): a build switch
    # that includes the one implemented back end and refuses the others.
    source = b"""\
#pragma once

#if defined(ENGINE_BACKEND_VULKAN)
#include "render/backend/vulkan/backend.h"
#elif defined(ENGINE_BACKEND_METAL)
#error "The Metal back end is not written yet."
#else
#error "No render back end configured."
#endif
"""
    path = "src/render/backend/backend_select.h"
    assert set(_layers(path, source)) == {"portable"}


# -- Rad12390/easycloses: pdf.js's WebGL shaders inside a PHP web shop ----------------------


def test_webgl_shader_in_backslash_continued_js_string_is_kernel() -> None:
    # web/shop/js/pdf.js and web/js/esign/pdfjs/pdf.js (extra kernel files, right before): the
    # WebGL compositor keeps its vertex and fragment shaders in one-quote strings continued
    # with a backslash at each line's end.
    source = b"""\
var tintVertexSource = '\\
  attribute vec2 a_pos;                           \\
  uniform vec2 u_size;                            \\
                                                  \\
  void main() {                                   \\
    vec2 clip = (a_pos / u_size) * 2.0 - 1.0;     \\
    gl_Position = vec4(clip * vec2(1, -1), 0, 1); \\
  }                                               ';

function compile(gl) {
  var shader = gl.createShader(gl.VERTEX_SHADER);
  gl.shaderSource(shader, tintVertexSource);
  gl.compileShader(shader);
  return shader;
}
"""
    path = "web/js/viewer/webgl_tint.js"
    assert "vulkan.glsl-string" in _rules(path, source)
    layers = _layers(path, source)
    assert 5 <= layers["kernel"] <= 8
    assert "vendor-path" not in layers


def test_symfony_kernel_event_listener_config_is_portable() -> None:
    # src/LocalsBest/UserBundle/Resources/config/services.yml (GPU-looking, right before):
    # Symfony's HttpKernel events, no compute kernel.
    source = b"""\
services:
    shop.login_listener:
        class: Shop\\UserBundle\\Listener\\LoginListener
        arguments: ["@router", "@security.token_storage"]
        tags:
            - { name: kernel.event_listener, event: kernel.request, method: onKernelRequest }
"""
    path = "src/Shop/UserBundle/Resources/config/services.yml"
    assert set(_layers(path, source)) == {"portable"}


# -- maorun/zinszins-simulation: a three.js chart without a shader of its own ----------------


def test_react_three_fiber_scene_without_shaders_is_portable() -> None:
    # src/components/ThreeDVisualization.tsx (commit ff2272ae, right before: exit 0): spheres
    # and orbit controls from react-three-fiber and drei, three.js's stock materials.
    source = b"""\
import { Canvas } from '@react-three/fiber'
import { OrbitControls } from '@react-three/drei'

export function CapitalCloud({ points }: { points: Point[] }) {
  return (
    <Canvas camera={{ position: [8, 6, 8] }}>
      <ambientLight intensity={0.6} />
      {points.map((p) => (
        <mesh key={p.id} position={[p.x, p.y, p.z]}>
          <sphereGeometry args={[0.1, 16, 16]} />
          <meshStandardMaterial color={p.color} />
        </mesh>
      ))}
      <OrbitControls />
    </Canvas>
  )
}
"""
    path = "src/components/CapitalCloud.tsx"
    assert set(_layers(path, source)) == {"portable"}


# -- linksplatform/Data.Doublets.Gql: a C++ workflow with clang and conan --------------------


def test_cpp_ci_with_clang_and_conan_is_portable() -> None:
    # .github/workflows/cpp.yml (right before): a CPU build and test job, no CUDA anywhere.
    source = b"""\
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Set up clang
        uses: egor-tensin/setup-clang@v1
        with:
          version: 15
      - run: pip install conan
      - run: |
          conan install . --build=missing
          cmake -S . -B build -DCMAKE_CXX_COMPILER=clang++
          cmake --build build
"""
    path = ".github/workflows/cpp.yml"
    assert set(_layers(path, source)) == {"portable"}
