"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-t).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 721-727 and skipped none. Read were nest/nest-simulator (a
C++ spiking-network simulator whose only GPU code is the vendored Random123 headers, written to
compile for CUDA, OpenCL and Metal too), ryandcarter/mule-inference-connector (a Java MuleSoft
connector calling hosted LLM APIs, NVIDIA's among them), tanh1c/Word2Vec-PyCUDA (word2vec
trained by Numba CUDA kernels, with notebooks and Colab set-up scripts), bochendong/
Diffusion-Molecule (molecule-generation research: PyTorch code, Slurm scripts asking for H100
MIG slices), gruco0002/FluidSolver (a C++ SPH fluid solver with an OpenGL viewer: .glsl files
and GLSL in raw strings), pytorch/executorch (PyTorch's on-device runtime: Vulkan GLSL and
WebGPU WGSL shaders, CUDA, Metal and NPU back ends, CUDA wheel CI) and matsushibadenki/
vLLM-apple (a Python control plane for vLLM-Metal on Apple silicon, carrying vLLM's own
history). Snapshots missing large blobs were checked out file by file without them; no counted
source file was missing. Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- matsushibadenki/vLLM-apple (vLLM's history): a wheel built for one vendor's GPUs ----------


def test_build_target_device_variable_naming_xpu_is_intel_vendor_path() -> None:
    # docker/Dockerfile.xpu of the XPU wheel-release commit: the package's setup.py is run with
    # its target-device variable set to xpu, which builds the Intel GPU variant.
    source = b"""\
FROM base AS wheel
RUN pip install -r requirements/common.txt
RUN MYPKG_TARGET_DEVICE=xpu python3 setup.py bdist_wheel --dist-dir=dist
"""
    assert "env.intel-variables" in _rules("docker/Dockerfile.gpu", source)
    assert _layers("docker/Dockerfile.gpu", source) == {"vendor-path": 1, "portable": 2}


def test_build_target_device_variable_naming_cuda_or_rocm_is_vendor_path() -> None:
    # The same variable set to cuda and rocm, as vLLM's other Dockerfiles and scripts set it;
    # cpu names no vendor.
    source = b"""\
export MYPKG_TARGET_DEVICE=cuda
pip wheel .
export MYPKG_TARGET_DEVICE=rocm
pip wheel .
export MYPKG_TARGET_DEVICE=cpu
pip wheel .
"""
    rules = _rules("tools/build_all.sh", source)
    assert {"env.cuda-variables", "env.hip-variables"} <= rules
    assert _layers("tools/build_all.sh", source) == {"vendor-path": 2, "portable": 4}


def test_vllm_metal_control_plane_backend_enum_is_portable() -> None:
    # vllm_apple/types.py: an enum naming the back ends a status report can show; nothing here
    # runs on, or selects, a GPU.
    source = b"""\
from enum import Enum


class Engine(str, Enum):
    CPU = "cpu"
    MLX_GPU = "mlx_gpu"
    METAL = "metal"
"""
    assert _layers("vllm_apple/types.py", source) == {"portable": 5}


# -- pytorch/executorch: the compute capabilities a CUDA wheel is built for --------------------


def test_shell_variable_listing_cuda_compute_capabilities_is_vendor_path() -> None:
    # .ci/scripts/wheel/cuda_arch_list.sh: one lower-case variable per CUDA release and machine
    # holding the dotted capabilities the wheel's device code is built for; a variable that
    # copies another, or holds a path, is no list.
    source = b"""\
_arch_for_cu128_x86="7.5 8.0 8.6 9.0"
_arch_for_cu128_arm="8.0 9.0"
_cuda_arch_x86_cu128="7.5 8.0 8.6 9.0"
_cuda_arch_arm_cu128='8.0 9.0'
_cuda_arch_arm_cu129="${_cuda_arch_arm_cu128}"
cuda_arch_cache="${HOME}/.cache/arch"
"""
    assert "build.gencode" in _rules(".ci/scripts/arch_list.sh", source)
    assert _layers(".ci/scripts/arch_list.sh", source) == {"vendor-path": 2, "portable": 4}


def test_wgsl_shader_in_generated_cpp_header_string_is_kernel() -> None:
    # backends/webgpu/runtime/ops/rope/rotary_embedding_wgsl.h: a WGSL compute shader kept as a
    # raw string constant; the shader's lines are kernel, the namespace around it is not.
    source = b"""\
#pragma once
namespace demo::webgpu {
inline constexpr const char* kScaleWGSL = R"(
@group(0) @binding(0) var<storage, read_write> buf: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  buf[gid.x] = buf[gid.x] * 2.0;
}
)";
} // namespace demo::webgpu
"""
    layers = _layers("ops/scale_wgsl.h", source)
    assert "wgsl.source-string" in _rules("ops/scale_wgsl.h", source)
    assert 4 <= layers.get("kernel", 0) <= 7


# -- tanh1c/Word2Vec-PyCUDA: Numba CUDA kernels counted to their last line --------------------


def test_numba_cuda_kernel_and_device_function_lines_are_kernel() -> None:
    # w2v_skipgram.py: a @cuda.jit kernel with a long parameter list and a docstring, and a
    # @cuda.jit(device=True) helper; the launch below them is host code.
    source = b"""\
import math
from numba import cuda


@cuda.jit(device=True)
def squash(v, limit):
    \"\"\"Clamp a score.\"\"\"
    if v > limit:
        return limit
    return v


@cuda.jit
def update(
        rows,
        weights,
        rate):
    \"\"\"One thread per row.\"\"\"
    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    if i >= rows:
        return
    weights[i] = squash(weights[i] * rate, 1.0)


def train(weights, rate):
    d = cuda.to_device(weights)
    update[math.ceil(len(weights) / 32), 32](len(weights), d, rate)
    return d.copy_to_host()
"""
    layers = _layers("w2v_demo.py", source)
    assert "numba.cuda-jit" in _rules("w2v_demo.py", source)
    # The two decorated functions: 6 + 10 code lines (docstrings are not code).
    assert 13 <= layers["kernel"] <= 16


# -- gruco0002/FluidSolver: GLSL in a C++ raw string ------------------------------------------


def test_glsl_in_cpp_raw_string_is_kernel() -> None:
    # src/fluidStudio/engine/RectangleRenderer.cpp: vertex and fragment shaders as R"( )"
    # strings beside the OpenGL calls that compile them; the GL calls are portable.
    source = b"""\
#include <string>
static const std::string kVert = R"(#version 330 core
layout(location = 0) in vec2 pos;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
}
)";
void build(unsigned int prog) {
    compile_shader(prog, kVert);
}
"""
    layers = _layers("engine/QuadRenderer.cpp", source)
    assert "vulkan.glsl-string" in _rules("engine/QuadRenderer.cpp", source)
    assert 5 <= layers.get("kernel", 0) <= 7
    assert layers.get("portable", 0) >= 3


# -- bochendong/Diffusion-Molecule: Slurm GPU requests naming H100 MIG slices -----------------


def test_slurm_gres_names_for_nvidia_mig_slices_are_vendor_path() -> None:
    # SketchImageJEPA/scripts/submit_phase4_edit_action_planner.sh: the job asks Slurm for one
    # slice of an NVIDIA H100 by its MIG profile name.
    source = b"""\
PROFILE="${JOB_GPU_PROFILE:-small}"
if [[ "$PROFILE" == "small" ]]; then
  CANDIDATES=("nvidia_h100_80gb_hbm3_1g.10gb:1")
fi
sbatch --gres="gpu:${CANDIDATES[0]}" job.sh
"""
    layers = _layers("scripts/submit.sh", source)
    assert layers.get("vendor-path", 0) >= 1


# -- ryandcarter/mule-inference-connector: a hosted NVIDIA API is no GPU code -----------------


def test_java_connector_naming_nvidia_hosted_api_is_portable() -> None:
    # src/main/java/.../utils/ConnectionUtils.java: NVIDIA is one of many hosted chat-completion
    # providers, reached over HTTPS; nothing in the program runs on a GPU.
    source = b"""\
package demo;

public final class Endpoints {
    static String chatUrl(String provider) {
        switch (provider) {
            case "NVIDIA":
                return "https://integrate.api.nvidia.com/v1/chat/completions";
            default:
                return "https://api.example.com/v1/chat/completions";
        }
    }
}
"""
    assert _layers("src/main/java/demo/Endpoints.java", source) == {"portable": 11}


def test_buck_target_compiled_with_nvcc_flags_is_vendor_path() -> None:
    # backends/cuda/runtime/targets.bzl: Buck library targets given nvcc_flags (built by nvcc
    # for NVIDIA GPUs) beside a plain host target with compiler_flags only.
    source = b"""\
def define_common_targets():
    runtime.cxx_library(
        name = "stream_guard",
        srcs = ["stream_guard.cpp"],
        nvcc_flags = arch_flags() + ["-lineinfo"],
    )
    runtime.cxx_library(
        name = "host_only",
        srcs = ["host_only.cpp"],
        compiler_flags = ["-Wno-global-constructors"],
    )
"""
    assert "build.bazel-cuda" in _rules("runtime/targets.bzl", source)
    assert _layers("runtime/targets.bzl", source) == {"vendor-path": 1, "portable": 10}


def test_buck_targets_file_is_starlark_and_read_by_build_rules() -> None:
    # backends/cuda/runtime/TARGETS (before the move to targets.bzl): Buck's build file by its
    # fbcode name, holding the same nvcc_flags target; a BUCK file is Starlark too.
    source = b"""\
load(":targets.bzl", "define_common_targets")

cpp_library(
    name = "gpu_guard",
    srcs = ["gpu_guard.cpp"],
    nvcc_flags = ["-lineinfo"],
)
"""
    assert "build.bazel-cuda" in _rules("backends/gpu/TARGETS", source)
    assert _layers("backends/gpu/TARGETS", source) == {"vendor-path": 1, "portable": 5}
    assert _layers("backends/gpu/BUCK", b"define_common_targets()\n") == {"portable": 1}


def test_wheel_matrix_input_enabling_cuda_rows_is_vendor_path() -> None:
    # .github/workflows/build-wheels-cuda-linux.yml: the shared matrix generator is asked for
    # its CUDA rows only; the disabled CPU and ROCm inputs name nothing.
    source = b"""\
jobs:
  generate-matrix:
    uses: pytorch/test-infra/.github/workflows/generate_binary_build_matrix.yml@main
    with:
      package-type: wheel
      with-cuda: enable
      with-rocm: disable
      with-cpu: disable
"""
    assert "ci.nvidia-gpu-runner" in _rules(".github/workflows/wheels.yml", source)
    assert _layers(".github/workflows/wheels.yml", source) == {"vendor-path": 1, "portable": 7}
