"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-d).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 294-300. One had no snapshot to fetch and was skipped:
JacobFV/structured-psi0-latent-diffusion-dynamics (294). Read were MarineBioAcousticsRC/Triton
(MATLAB acoustic analysis, no GPU code despite its name), karajensen/shader-editor (a C++
editor for Direct3D and OpenGL shaders, each effect kept as HLSL and GLSL .fx files),
Ascend/pytorch (torch_npu, Huawei's PyTorch plug-in for Ascend NPUs), veaba/tensorflow-docs
(a VuePress site translating TensorFlow's documentation), gemini-hlsw/lucupy (an astronomy
scheduling library) and camdennis/pyCudaMeta (a CUDA string simulation bound to Python
with pybind11). Fifteen files of each repository (all eight of pyCudaMeta's) were sampled
with ``random.Random("owner/name")`` over every file lockin counts and labelled before any
fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, more files holding kernel lines counted by hand, and
three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in
the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- karajensen/shader-editor: GLSL shaders kept under .fx beside their HLSL twins ----------


def test_glsl_fragment_shader_in_fx_file_is_kernel_code() -> None:
    # src/bin/Assets/Shaders/*_glsl_frag.fx: `#version 150`, in/out/uniform declarations and
    # a main writing the output colour. Before the fix the file had no language at all.
    source = b"""\
// fade_glsl_frag.fx
#version 150

in vec2 uv;
out vec4 colour;
uniform sampler2D image;
uniform float fade;

void main(void)
{
    colour = texture(image, uv) * fade;
}
"""
    assert classify("shaders/fade_glsl_frag.fx", source).language == "GLSL"
    assert _layers("shaders/fade_glsl_frag.fx", source) == {"kernel": 9}


def test_glsl_vertex_shader_in_fx_file_is_kernel_code() -> None:
    # src/bin/Assets/Shaders/*_glsl_vert.fx: the vertex stage, found by its #version line.
    source = b"""\
#version 150
in vec4 in_Position;
in vec2 in_UVs;
out vec2 ex_UVs;
void main(void)
{
    gl_Position = in_Position;
    ex_UVs = in_UVs;
}
"""
    assert classify("shaders/quad_glsl_vert.fx", source).language == "GLSL"
    assert _layers("shaders/quad_glsl_vert.fx", source) == {"kernel": 9}


def test_hlsl_effect_in_fx_file_stays_hlsl() -> None:
    # src/bin/Assets/Shaders/*_hlsl.fx: the Direct3D twin, a constant buffer and semantics.
    source = b"""\
cbuffer SceneVertexBuffer : register(b0)
{
    float4x4 viewProjection;
};
struct Attributes
{
    float4 position : POSITION;
    float2 uvs      : TEXCOORD0;
};
float4 PShader(Attributes input) : SV_TARGET
{
    return float4(input.uvs, 0.0, 1.0);
}
"""
    assert classify("shaders/quad_hlsl.fx", source).language == "HLSL"
    assert _layers("shaders/quad_hlsl.fx", source) == {"kernel": 13}


def test_other_fx_file_without_shader_signs_gets_no_glsl() -> None:
    # A JavaFX Script or FLUX .fx file names no GLSL version line nor gl_ built-in.
    source = b"""\
var version = "1.2";
def stage = Stage { title: "demo" }
"""
    assert classify("ui/main.fx", source).language != "GLSL"


# -- Ascend/pytorch: a libtorch host that starts AscendCL itself -----------------------------


def test_ascendcl_header_and_init_are_vendor_path() -> None:
    # examples/libtorch_triton_ascend/triton_runtime/src/triton_runtime.cpp: the host includes
    # AscendCL's headers and calls aclInit before torch_npu starts; only CANN provides them.
    source = b"""\
#include <acl/acl.h>
#include <acl/acl_rt.h>
#include <stdexcept>

void start_runtime() {
    int status = aclInit(nullptr);
    if (status != 0) {
        throw std::runtime_error("runtime start failed");
    }
}
"""
    assert _rules("runtime/src/runtime.cpp", source) == {"ascend.runtime"}
    assert _layers("runtime/src/runtime.cpp", source) == {"vendor-path": 3, "portable": 6}


def test_access_control_list_names_stay_portable() -> None:
    # Negative twin: an "acl" that is an access-control list, not AscendCL.
    source = b"""\
#include "security/acl.h"
int aclInitCount = 0;
bool acl_allows(int user) { return user > aclInitCount; }
"""
    assert _rules("security/check.cpp", source) == set()
    assert _layers("security/check.cpp", source) == {"portable": 3}


def test_npu_event_member_is_counted_as_torch_npu_library() -> None:
    # torch_npu/csrc/npu/Event.h (pinned, right before the fix): a Python event object holding
    # torch_npu's NPU event; c10_npu:: is the plug-in's library.
    source = b"""\
#include <torch/csrc/Event.h>
struct PyNpuEvent : public THPEvent {
  c10_npu::NPUEvent npu_event;
};
extern PyObject* PyNpuEventClass;
"""
    assert _rules("csrc/npu/Event.h", source) == {"ascend.cann-op"}
    assert _layers("csrc/npu/Event.h", source) == {"vendor-library": 1, "portable": 4}


def test_npu_device_test_is_vendor_path() -> None:
    # test/distributed/test_device.py (pinned): tensors placed on "npu:0" and torch.npu streams.
    source = b"""\
import torch
import torch_npu

def check_stream():
    a = torch.full((3, 4), 0.0, device="npu:0")
    s = torch.npu.Stream()
    return a, s
"""
    assert _rules("test/test_device.py", source) == {"ascend.torch-plugin", "ascend.device-string"}
    assert _layers("test/test_device.py", source) == {"vendor-path": 3, "portable": 3}


# -- camdennis/pyCudaMeta: CUDA kernels with extern "C" launchers (pinned) -------------------


def test_cuda_kernels_and_launchers_split_kernel_from_vendor_path() -> None:
    # src/model.cu: element-wise __global__ kernels, then extern "C" wrappers that launch them
    # with <<<grid, block>>> and synchronise. Kernel lines are the __global__ functions only.
    source = b"""\
#include <cuda_runtime.h>

__global__ void step(double* x, double* v, double dt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] += v[i] * dt;
    }
}

extern "C" void stepCUDA(double* x, double* v, double dt, int n) {
    int grid = (n + 255) / 256;
    step<<<grid, 256>>>(x, v, dt, n);
    cudaDeviceSynchronize();
}
"""
    layers = _layers("src/model.cu", source)
    assert layers["kernel"] == 6
    assert "cuda.kernel" in _rules("src/model.cu", source)


def test_cmake_linking_ascendcl_is_vendor_path() -> None:
    # examples/libtorch_triton_ascend/triton_runtime/CMakeLists.txt: the runtime library links
    # AscendCL (and torch_npu) by name; built elsewhere, the link fails.
    source = b"""\
add_library(npu_runtime SHARED src/runtime.cpp)
target_link_libraries(npu_runtime
    PRIVATE
        torch
        ascendcl
)
"""
    assert _rules("runtime/CMakeLists.txt", source) == {"build.ascend-cann"}
    assert _layers("runtime/CMakeLists.txt", source) == {"vendor-path": 1, "portable": 5}


def test_script_installing_triton_ascend_wheel_is_vendor_path() -> None:
    # .ci/docker/common/install_triton.sh: the CI image installs Huawei's Triton fork for NPUs
    # from its release wheel, a package no other accelerator can use.
    source = b"""\
#!/usr/bin/bash
set -e
VERSION="${VERSION:-3.2.0}"
WHEEL="triton_ascend-${VERSION}-cp311-cp311-manylinux_2_28_x86_64.whl"
pip3 install --no-cache-dir "${WHEEL}"
"""
    assert _rules("docker/install_triton.sh", source) == {"build.ascend-cann"}
    assert _layers("docker/install_triton.sh", source) == {"vendor-path": 1, "portable": 3}


def test_script_installing_upstream_triton_stays_portable() -> None:
    # Negative twin: upstream Triton from PyPI names no vendor fork.
    source = b"""\
#!/usr/bin/bash
set -e
pip3 install --no-cache-dir "triton==3.2.0"
"""
    assert _rules("docker/install_triton.sh", source) == set()
