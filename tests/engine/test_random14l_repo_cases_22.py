"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-l).

The pool is ``/work/pool-h47.txt``, shuffled with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 469-475. All seven had snapshots and were read:
lrmsspace/LLM-CodeQualityEval (LeetCode solutions written by code assistants, plus the
scripts that scored them), redoop/riscv-ai-accelerator (a Chisel RISC-V accelerator with
SystemVerilog testbenches and FPGA deployment scripts), sphair/ClanLib (a C++ game SDK
with OpenGL and Direct3D back ends and GLSL/HLSL shaders in examples), chran554/pathtracer
(a CPU path tracer in Go), michalprusek/spheroseg (a TypeScript web app with a PyTorch
segmentation service), MoonSakura0416/CPUPathTracing (a CPU path tracer in C++) and
dududjf/kompute-onnx (ONNX operators on Kompute/Vulkan: GLSL in Python strings and ncnn's
compute shaders). Three snapshots lacked a few large data files (models, meshes, a
synthesis library); the rest of each tree was checked out. Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts
and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, and three commits touching
GPU code (fewer where fewer exist) judged against ``lockin diff``
(``random.Random("owner/name:commits")``). Each snippet is a small rewrite, in our own words,
of a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- dududjf/kompute-onnx: GLSL compute shaders held in Python strings -------------------------


def test_kompute_operator_glsl_string_is_kernel_and_host_is_portable() -> None:
    # src/kp_onnx/kop_transpose.py: the operator compiles a GLSL compute shader given as a
    # triple-quoted string; the string's code lines (not its comment) are the kernel, the
    # Kompute host calls that dispatch it stay portable (Vulkan runs on every vendor).
    source = b'''\
import kp
import numpy as np
from .compile import glsl_to_spirv


class NegateOp:
    def __init__(self, mgr: kp.Manager):
        self.mgr = mgr
        self.spirv = glsl_to_spirv("""
#version 450
layout(local_size_x = 1) in;

layout(binding = 0) readonly buffer Src { float src[]; };
layout(binding = 1) writeonly buffer Dst { float dst[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    // flip the sign
    dst[i] = -src[i];
}""")

    def run(self, x):
        t_in = self.mgr.tensor(np.asarray(x, np.float32).ravel())
        t_out = self.mgr.tensor(np.zeros(t_in.size(), np.float32))
        algo = self.mgr.algorithm([t_in, t_out], self.spirv, (t_in.size(), 1, 1))
        seq = self.mgr.sequence()
        seq.record(kp.OpTensorSyncDevice([t_in]))
        seq.record(kp.OpAlgoDispatch(algo))
        seq.record(kp.OpTensorSyncLocal([t_out]))
        seq.eval()
        return t_out.data()
'''
    assert _rules("src/kp_onnx/kop_negate.py", source) == {"vulkan.glsl-string"}
    assert _layers("src/kp_onnx/kop_negate.py", source) == {"kernel": 9, "portable": 19}


def test_ncnn_compute_shader_file_is_kernel_without_its_licence_comment() -> None:
    # src/ncnn_shader/absval.comp: a whole .comp file is kernel; the licence comment is not code.
    source = b"""\
// SPDX-License-Identifier: BSD-3-Clause
#version 450

layout (constant_id = 0) const uint n = 0;
layout (binding = 0) buffer blob { vec4 data[]; };

void main()
{
    const uint gi = gl_GlobalInvocationID.x;
    if (gi >= n)
        return;

    data[gi] = max(data[gi], vec4(0.0));
}
"""
    assert _rules("src/ncnn_shader/relu.comp", source) == {"vulkan.shader-file"}
    assert _layers("src/ncnn_shader/relu.comp", source) == {"kernel": 10}


# -- sphair/ClanLib: GLSL raw strings and HLSL quoted lines in one C++ file ---------------------


def test_clanlib_example_shaders_in_cpp_strings_are_kernel() -> None:
    # Examples/3D/Object3D/Sources/shader.cpp: a GLSL program as a raw string and the HLSL
    # twin as one quoted literal per line; the ProgramObject set-up around them is portable.
    source = b"""\
#include "precomp.h"
#include "tint_shader.h"

const char TintShader::vertex_glsl[] = R"(
#version 330

in vec3 Position;
uniform mat4 MVP;

void main()
{
    // no lighting here
    gl_Position = MVP * vec4(Position, 1.0);
}
)";

const char TintShader::pixel_hlsl[] =
\t"cbuffer Params\\n"
\t"{\\n"
\t"\tfloat4 Tint;\\n"
\t"};\\n"
\t"float4 main(float4 pos : SV_Position) : SV_Target\\n"
\t"{\\n"
\t"\treturn Tint;\\n"
\t"}\\n";

TintShader::TintShader(Canvas &canvas)
{
\tProgramObject prog(canvas);
\tprog.attach(ShaderObject(canvas, ShaderType::vertex, vertex_glsl));
\tif (!prog.link())
\t\tthrow Exception("link failed: " + prog.get_info_log());
\tprogram = prog;
}
"""
    path = "Examples/3D/Tint/Sources/tint_shader.cpp"
    assert _rules(path, source) == {"vulkan.glsl-string", "hlsl.source-string"}
    assert _layers(path, source) == {"kernel": 17, "portable": 14}


# -- michalprusek/spheroseg: a compose GPU reservation, a device-count probe --------------------


def test_compose_gpu_device_reservation_is_vendor_path() -> None:
    # docker-compose.optimized.yml: the ML service reserves a GPU through the NVIDIA container
    # runtime's `capabilities: [gpu]`; the Redis service beside it is portable.
    source = b"""\
services:
  ml:
    build: ./ml
    deploy:
      resources:
        limits:
          memory: 8G
        reservations:
          devices:
            - capabilities: [gpu]
              count: 1
  redis:
    image: redis:7-alpine
"""
    assert _rules("docker-compose.optimized.yml", source) == {"k8s.nvidia-gpu"}
    assert _layers("docker-compose.optimized.yml", source) == {"vendor-path": 1, "portable": 12}


def test_device_count_probe_before_data_parallel_stays_portable() -> None:
    # packages/ml/test.py: asking how many devices there are before wrapping the model in
    # DataParallel runs on any build of torch (and answers on ROCm too).
    source = b"""\
import torch
import torch.nn as nn


def wrap(model):
    if torch.cuda.device_count() > 1 and not isinstance(model, nn.DataParallel):
        model = nn.DataParallel(model)
    return model
"""
    assert _rules("packages/ml/test.py", source) == set()


# -- MoonSakura0416/CPUPathTracing: a CPU renderer's material code -----------------------------


def test_cpu_path_tracer_material_is_portable() -> None:
    # source/src/Material/conductor.cpp: BSDF sampling in plain C++ on the CPU.
    source = b"""\
#include "Material/mirror.h"
#include <cmath>

std::optional<BSDFSample> Mirror::sample(const Vec3 &wo, const Vec2 &u) const
{
    Vec3 wi(-wo.x, -wo.y, wo.z);
    float cos_theta = std::abs(wi.z);
    if (cos_theta == 0.0f)
        return std::nullopt;
    return BSDFSample{albedo / cos_theta, wi, 1.0f, true};
}
"""
    assert _rules("source/src/Material/mirror.cpp", source) == set()
    assert _layers("source/src/Material/mirror.cpp", source) == {"portable": 10}
