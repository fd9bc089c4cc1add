"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h56-random-e).

The pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered with
``random.seed("h54-pool")`` before anyone read it, from its position 253 on, that hold a GPU term
by the written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some
are no GPU code at all). This lane took positions 148-154 of that sub-pool. Two were skipped:
mpereiraesaa/ps5-vulkan (148) and t42-hu/Triton (150) had no snapshot to fetch. Read were
IEEE-UCSD-RoboCupSSL/TritonRoboCupSoftware (a RoboCup small-size league team's software in Java
with protobuf messages and game-controller configuration; "Triton" is the team, no GPU code),
imperatormk/triton-ext (out-of-tree extensions of the Triton compiler: MLIR passes and dialects
in C++, the TLX language extension's front-end built-ins in Python, Triton kernels in its
tutorials and tests, benchmark scripts driving nvidia-smi), TritonSE/ALUM-Mobile-Application (a
mentoring app, SwiftUI on iOS and a TypeScript/Express back end, no GPU code),
Trifido/Vulkan-Quarantine-Engine (a C++ game engine and editor on Vulkan with GLSL shaders,
glslc batch files and vendored ImGui, ImGuizmo and KTX-Software documentation) and
WenqiJiang/Convolution-Neural-Network-by-pyCUDA (a course project: CUDA C convolution kernels in
a PyCUDA SourceModule string, Python test and timing helpers, a Slurm launch script). Fifteen
files of each repository were sampled with ``random.Random("owner/name")`` over every file
lockin counts and labelled before any fix, with the files lockin calls non-portable (up to 20)
and GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching GPU
code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. One sampled
verdict was wrong before: TLX's ``@tl.builtin`` functions, compile-time Python that emits IR
through ``_semantic.builder``, were Triton kernel code because they take ``tl.constexpr``
arguments. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- IEEE-UCSD-RoboCupSSL/TritonRoboCupSoftware: a robot soccer AI named Triton --------------


def test_robot_soccer_skill_in_a_triton_package_is_portable() -> None:
    # triton-soccer-ai/src/main/java/com/triton/skill/individual_skill/DribbleBall.java
    # (sampled, already right): the team's package is named triton; the skill steers a robot
    # towards the ball and has nothing of a GPU.
    source = b"""\
package com.triton.skill;

import com.triton.util.Vector2d;

public class Dribble {
    private final int robotId;

    public Dribble(int robotId) {
        this.robotId = robotId;
    }

    public Vector2d target(Vector2d ball, Vector2d goal) {
        Vector2d away = goal.sub(ball).norm();
        return ball.sub(away.scale(90));
    }
}
"""
    path = "triton-soccer-ai/src/main/java/com/triton/skill/Dribble.java"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- imperatormk/triton-ext: Triton compiler extensions, TLX built-ins, tutorials ------------


def test_tlx_front_end_builtins_taking_constexpr_arguments_are_portable() -> None:
    # extensions/utlx/tlx/language/tlx/barrier.py (sampled, a miss before: 91 kernel lines):
    # @tl.builtin functions read their tl.constexpr arguments while a kernel is traced and
    # emit IR through _semantic.builder; they define the language, as an MLIR pass defines a
    # lowering, and run no device code themselves.
    source = b"""\
import triton.language.core as tl
from . import types as ext


@tl.builtin
def make_barriers(
    count: tl.constexpr,
    arrivals: tl.constexpr = tl.constexpr(1),
    _semantic=None,
) -> ext.barrier:
    layout = ext.shared_layout.default(rank=1)
    handle = _semantic.builder.create_barrier_alloc(count.value, arrivals.value, layout)
    return ext.barrier(handle, count, layout)


@tl.builtin
def wait_on(bar: ext.barrier, phase, pred: tl.tensor = None, _semantic=None) -> None:
    flag = _semantic.builder.get_int1(True) if pred is None else pred.handle
    _semantic.builder.create_barrier_wait(bar.handle, phase.handle, flag)
"""
    path = "extensions/ext/language/ext/barrier.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_builtin_helper_taking_the_semantic_object_is_portable() -> None:
    # extensions/utlx/python/utlx_plugin/mem_ops.py (non-portable before, 160 kernel lines in
    # its TLX twin): an undecorated helper of the built-ins takes `_semantic=None` and a
    # tl.constexpr rank; it builds IR, not a kernel.
    source = b"""\
import triton.language.core as tl


def remote_rank(rank: tl.constexpr, _semantic=None):
    return _semantic.builder.get_int32(rank.value)
"""
    path = "extensions/plugin/mem_ops.py"
    assert _rules(path, source) == set()


def test_kernel_jitted_by_call_beside_builtins_stays_kernel_code() -> None:
    # The other side of the built-in exception: in the same file, a def using tl.load and
    # tl.store and jitted by a call is still device code, and only it.
    source = b"""\
import triton
import triton.language as tl
import triton.language.core as core


@core.builtin
def fence(kind: tl.constexpr, _semantic=None):
    _semantic.builder.create_fence(kind.value)


def copy_rows(src, dst, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs))


copy_rows = triton.jit(copy_rows)
"""
    path = "extensions/plugin/copy.py"
    assert _rules(path, source) == {"triton.device-body"}
    assert _layers(path, source)["kernel"] == 3


def test_tlx_tutorial_kernel_and_its_cuda_device_tensors() -> None:
    # extensions/utlx/tlx/tutorials/blackwell-cross-attention.py (sampled, right: 890 kernel
    # lines by lockin, 878 by hand): @triton.jit kernels using the TLX built-ins, and a test
    # allocating its inputs on torch.device("cuda").
    source = b"""\
import torch
import triton
import triton.language as tl
import triton.language.extra.tlx as tlx


@triton.jit
def scaled_rows(X, Y, n, BLOCK: tl.constexpr):
    buf = tlx.local_alloc((BLOCK,), tl.float32, 1)
    offs = tl.arange(0, BLOCK)
    tlx.local_store(buf[0], tl.load(X + offs, mask=offs < n, other=0.0))
    tl.store(Y + offs, tlx.local_load(buf[0]) * 2.0, mask=offs < n)


def test_rows():
    x = torch.randn(128, device=torch.device("cuda"))
    y = torch.empty_like(x)
    scaled_rows[(1,)](x, y, 128, BLOCK=128)
"""
    path = "extensions/ext/tutorials/rows_attention.py"
    assert _rules(path, source) == {"triton.jit", "torch.device-string"}
    layers = _layers(path, source)
    assert layers["kernel"] == 6
    assert layers["vendor-path"] == 1


def test_benchmark_script_skipping_without_a_blackwell_part_is_portable() -> None:
    # extensions/utlx/tlx/tutorials/testing/test_blackwell_fa_mxfp8_perf.py (sampled, right):
    # it benchmarks a kernel defined elsewhere on the active torch device and calls the
    # test helpers' is_blackwell(); calling a project helper branches on no vendor itself.
    source = b"""\
import torch
import triton
from triton._internal_testing import is_blackwell
from .attention import attention, make_inputs

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def run(n_ctx):
    q, k, v = make_inputs((2, 8, n_ctx, 64), DEVICE, torch.float8_e4m3fn)
    ms = triton.testing.do_bench(lambda: attention(q, k, v), warmup=100, rep=100)
    return 4.0 * 2 * 8 * n_ctx * n_ctx * 64 * 1e-12 / (ms * 1e-3)


if __name__ == "__main__":
    if is_blackwell():
        print(run(4096))
    else:
        print("skipped: no Blackwell part")
"""
    path = "extensions/ext/tutorials/testing/bench_mxfp8.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_triton_layout_pass_over_the_nvidia_dialect_is_portable() -> None:
    # extensions/utlx/tlx/dialect/lib/Analysis/LayoutPropagation.cpp (sampled, right): an
    # analysis pass over TritonGPU and TritonNvidiaGPU ops is compiler code.
    source = b"""\
#include "mlir/IR/BuiltinOps.h"
#include "triton/Dialect/TritonGPU/IR/Dialect.h"
#include "triton/Dialect/TritonNvidiaGPU/IR/Dialect.h"

namespace ttg = ::mlir::triton::gpu;
namespace ttng = ::mlir::triton::nvidia_gpu;

static bool feedsTensorMemory(mlir::Operation *op) {
  for (mlir::Operation *user : op->getUsers())
    if (mlir::isa<ttng::TMEMAllocOp>(user))
      return true;
  return false;
}
"""
    path = "extensions/ext/dialect/lib/Analysis/LayoutWalk.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- TritonSE/ALUM-Mobile-Application: a SwiftUI mentoring app --------------------------------


def test_swiftui_profile_header_is_portable() -> None:
    # ALUM/ALUM/Components/ProfileHeaderComponent.swift (sampled, already right): a SwiftUI
    # view drawing a name and an avatar; no Metal behind it.
    source = b"""\
import SwiftUI

struct ProfileHeader: View {
    var name: String
    var imageURL: String

    var body: some View {
        VStack(spacing: 8) {
            AsyncImage(url: URL(string: imageURL))
                .frame(width: 96, height: 96)
                .clipShape(Circle())
            Text(name).font(.title2).bold()
        }
    }
}
"""
    path = "ALUM/Components/ProfileHeader.swift"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- Trifido/Vulkan-Quarantine-Engine: a Vulkan engine, GLSL shaders, glslc scripts ----------


def test_glsl_debug_vertex_shader_is_kernel_in_full() -> None:
    # resources/shaders/Debug/debug.vert (sampled, right: 15 of 15 lines).
    source = b"""\
#version 450

layout(set = 0, binding = 0, std140) uniform Camera
{
    mat4 viewProjection;
} cam;

layout(location = 0) in vec4 inPosition;
layout(location = 1) in vec4 inColor;
layout(location = 0) out vec3 outColor;

void main()
{
    outColor = inColor.rgb;
    gl_Position = cam.viewProjection * inPosition;
}
"""
    path = "resources/shaders/Debug/lines.vert"
    assert _layers(path, source) == {"kernel": 13}


def test_batch_file_compiling_shaders_with_glslc_is_vendor_path() -> None:
    # resources/shaders/particles.bat (sampled, right): each line runs the Vulkan SDK's glslc
    # on a shader; the last pauses.
    source = b"""\
C:/VulkanSDK/1.3.250.0/Bin/glslc.exe Sparks/sparks.vert -o Sparks/sparks_vert.spv
C:/VulkanSDK/1.3.250.0/Bin/glslc.exe Sparks/sparks.frag -o Sparks/sparks_frag.spv
C:/VulkanSDK/1.3.250.0/Bin/glslc.exe Sparks/spawn.comp -o Sparks/spawn.spv
pause
"""
    path = "resources/shaders/sparks.bat"
    assert _layers(path, source) == {"vendor-path": 3, "portable": 1}


def test_vulkan_uniform_buffer_creation_is_vendor_path() -> None:
    # src/QuarantineEngine/Memory/UBO.cpp (sampled, right): buffers created with Vulkan's
    # sizes and usage flags; the loops around them are the engine's.
    source = b"""\
#include "Buffers.h"

void Uniforms::Create(VkDeviceSize size, uint32_t frames, Device& device)
{
    buffers.resize(frames);
    memory.resize(frames);
    for (size_t i = 0; i < frames; i++)
    {
        Buffers::create(size, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, buffers[i], memory[i], device);
    }
}
"""
    path = "src/Engine/Memory/Uniforms.cpp"
    assert "vendor-path" in _layers(path, source)
    assert "kernel" not in _layers(path, source)


def test_glsl_program_in_c_strings_of_an_imgui_example_is_kernel() -> None:
    # extern/ImGuizmo/example/ImApp.h (an extra kernel file, in range: 22 by lockin and by
    # hand): the OpenGL back end's vertex shader held in a string, one literal per line.
    source = b"""\
static void CreateDeviceObjects()
{
    const GLchar* vertex_shader =
        "#version 330\\n"
        "uniform mat4 Proj;\\n"
        "in vec2 Pos;\\n"
        "out vec2 UV;\\n"
        "void main()\\n"
        "{\\n"
        "    UV = Pos;\\n"
        "    gl_Position = Proj * vec4(Pos, 0, 1);\\n"
        "}\\n";
    g_Vert = glCreateShader(GL_VERTEX_SHADER);
    glShaderSource(g_Vert, 1, &vertex_shader, 0);
}
"""
    path = "extern/Gizmo/example/App.h"
    assert "vulkan.glsl-string" in _rules(path, source)
    assert _layers(path, source)["kernel"] == 9


# -- WenqiJiang/Convolution-Neural-Network-by-pyCUDA: PyCUDA course project ------------------


def test_pycuda_source_module_kernel_string_and_driver_imports() -> None:
    # convolution.py (sampled, right: 408 kernel lines by lockin, 406 by hand): a CUDA C
    # convolution in a class attribute string compiled by SourceModule; the pycuda imports are
    # vendor-path.
    source = b'''\
import numpy as np
import pycuda.driver as cuda
from pycuda.compiler import SourceModule
import pycuda.autoinit


class Conv:
    def __init__(self):
        self.src = """
        __global__ void relu_conv(const float* in, float* out, const float* w, int n)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) {
                float v = in[i] * w[0];
                out[i] = v > 0.0f ? v : 0.0f;
            }
        }
        """
        self.mod = SourceModule(self.src)
'''
    path = "convolution.py"
    layers = _layers(path, source)
    # The string's lines, its opening and closing quotes' lines with them.
    assert layers["kernel"] == 10
    assert layers["vendor-path"] >= 3


def test_slurm_job_asking_for_one_gpu_is_portable() -> None:
    # cnn.sh (sampled, right): sbatch's --gres=gpu:1 asks the scheduler for any GPU; nothing in
    # it names a vendor.
    source = b"""\
rm -f slurm-*.out
sbatch --gres=gpu:1 --time=30 --wrap="python run.py"
while [ ! -e slurm-*.out ]
do
    sleep 2
done
cat slurm-*.out
"""
    path = "cnn.sh"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
