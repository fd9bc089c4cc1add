"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-s).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 714-720. Three were skipped because no snapshot could be
fetched: Jpmartinslag/neural-temporal-relational-model (716), daiyaanarfeen/Megatron-LM (718)
and mrrsff/Raytracer (720). Read were cornerfarmer/LightBulb (a C++ neural-network library
with an Eigen CPU path and a ViennaCL/OpenCL GPU path, its kernels in cl/*.cl),
Riddy21/shader_dsp (audio synthesis in OpenGL ES fragment shaders: .glsl files and GLSL held
in C++ raw strings, SDL/EGL/GLFW host code), bardenChem/OOCCuPY (Python wrappers around the
pDynamo and ORCA/MOPAC quantum-chemistry tools, no GPU code) and
tenstorrent/tt-inference-server (model serving on Tenstorrent hardware through ttnn, vLLM
and SGLang plugins, a C++ media server). Snapshots missing large blobs were checked out with
``git read-tree HEAD && git checkout-index -a -f``; no counted source file was missing.
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

# -- cornerfarmer/LightBulb: ViennaCL's OpenCL back end driven by hand --------------------------


def test_viennacl_ocl_kernel_enqueue_is_opencl_host_code() -> None:
    # src/LightBulb/Learning/Reinforcement/DQNLearningRule.cpp: under a GPU calculator type, a
    # kernel from cl/*.cl is enqueued through viennacl::ocl on the raw OpenCL handles of the
    # matrices; the CPU branch beside it is plain Eigen.
    source = b"""\
void Rule::fillTargets(Matrix& out, const Matrix& rewards) {
    if (options.calculator == CALC_GPU) {
        viennacl::ocl::enqueue(targetKernel->use()(
            viennacl::traits::opencl_handle(out.gpuValue()),
            viennacl::traits::opencl_handle(rewards.gpuValue()),
            cl_uint(viennacl::traits::size(out.gpuValue()))
        ));
    } else {
        out.cpuValue() = rewards.cpuValue() * discount;
    }
}
"""
    assert _rules("src/Learning/Rule.cpp", source) == {"opencl.host-api"}
    assert _layers("src/Learning/Rule.cpp", source) == {"vendor-path": 5, "portable": 6}


def test_viennacl_program_loading_is_opencl_host_code() -> None:
    # src/LightBulb/LinearAlgebra/Kernel.cpp: a .cl file read from disk and added to ViennaCL's
    # current OpenCL context, then one of its kernels looked up by name.
    source = b"""\
#include <fstream>
#include <viennacl/ocl/context.hpp>

viennacl::ocl::kernel& KernelRef::get() const {
    std::ifstream in("cl/" + program + ".cl");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    viennacl::ocl::current_context().add_program(text, program);
    return viennacl::ocl::current_context().get_program(program).get_kernel(name);
}
"""
    assert _rules("src/LinearAlgebra/KernelRef.cpp", source) == {"opencl.host-api"}
    assert _layers("src/LinearAlgebra/KernelRef.cpp", source) == {
        "vendor-path": 4,
        "portable": 4,
    }


def test_viennacl_containers_and_blas_stay_portable() -> None:
    # include/LightBulb/LinearAlgebra/AbstractLinearAlgebraObject.hpp: ViennaCL's matrices
    # and products run on whichever back end the library was built for (OpenMP, CUDA, OpenCL).
    source = b"""\
template <typename CpuT, typename GpuT>
class DualValue {
    mutable GpuT gpuValue;
    void pushToGpu() const { viennacl::copy(cpuValue, gpuValue); }
    void product(const viennacl::matrix<float>& a, const viennacl::vector<float>& x) {
        gpuValue = viennacl::linalg::prod(a, x);
        viennacl::backend::finish();
    }
};
"""
    assert _rules("include/DualValue.hpp", source) == set()
    assert _layers("include/DualValue.hpp", source) == {"portable": 9}


def test_opencl_kernel_file_counts_every_line() -> None:
    # cl/fermi.cl: an element-wise activation kernel over strided vectors.
    source = b"""\
__kernel void sigmoid_assign(
        __global float * dst,
        uint4 dst_shape,
        __global const float * src,
        uint4 src_shape) {
    for (unsigned int i = get_global_id(0); i < dst_shape.z; i += get_global_size(0))
        dst[i*dst_shape.y + dst_shape.x] = 1 / (1 + exp(-src[i*src_shape.y + src_shape.x]));
}
"""
    assert _rules("cl/sigmoid.cl", source) == {"opencl.kernel-file"}
    assert _layers("cl/sigmoid.cl", source) == {"kernel": 8}


# -- Riddy21/shader_dsp: GLSL fragment shaders held in C++ raw strings --------------------------


def test_glsl_raw_string_in_cpp_is_kernel() -> None:
    # lib/graphics_components/graph_component.cpp: a line-plot's vertex shader in a raw string,
    # compiled by the project's OpenGL ES shader class.
    source = b"""\
void Plot::init() {
    const std::string vertex_src = R"(
        #version 300 es
        layout(location = 0) in float sample_value;
        uniform float count;
        void main() {
            float x = float(gl_VertexID) / (count - 1.0) * 2.0 - 1.0;
            gl_Position = vec4(x, sample_value, 0.0, 1.0);
        }
    )";
    program = std::make_unique<ShaderProgram>(vertex_src, fragment_src);
}
"""
    assert _rules("lib/plot.cpp", source) == {"vulkan.glsl-string"}
    layers = _layers("lib/plot.cpp", source)
    assert 6 <= layers["kernel"] <= 9


def test_opengl_host_calls_stay_portable() -> None:
    # playground/glfw_test.cpp: a GLFW window cleared each frame with core OpenGL calls.
    source = b"""\
int main() {
    glfwInit();
    GLFWwindow* window = glfwCreateWindow(640, 480, "probe", nullptr, nullptr);
    glfwMakeContextCurrent(window);
    while (!glfwWindowShouldClose(window)) {
        glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glfwSwapBuffers(window);
        glfwPollEvents();
    }
    glfwTerminate();
}
"""
    assert _rules("playground/window.cpp", source) == set()
    assert _layers("playground/window.cpp", source) == {"portable": 12}


# -- tenstorrent/tt-inference-server: ttnn device calls and plain serving code ------------------


def test_ttnn_mesh_device_open_is_vendor_library() -> None:
    # tt-media-server/tt_model_runners/base_metal_device_runner.py: the runner opens a mesh of
    # Tenstorrent chips through ttnn before loading a model onto it.
    source = b"""\
import ttnn


class Runner:
    def open(self, rows, cols):
        self.mesh = ttnn.open_mesh_device(ttnn.MeshShape(rows, cols))
        return self.mesh
"""
    assert _rules("runners/metal_runner.py", source) == {"tenstorrent.ttnn"}
    assert _layers("runners/metal_runner.py", source)["vendor-library"] >= 2


def test_benchmark_targets_parsing_stays_portable() -> None:
    # test_module/_test_common/target_check.py: performance targets read from a JSON per
    # device configuration; no device is touched.
    source = b"""\
import json
from pathlib import Path


def load_targets(path: Path, device: str) -> dict:
    data = json.loads(path.read_text())
    return data.get(device, {}).get("targets", {})
"""
    assert _rules("checks/targets.py", source) == set()
    assert _layers("checks/targets.py", source) == {"portable": 5}
