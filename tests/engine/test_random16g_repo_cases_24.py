"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-g).

The pool is ``/work/pool-h47.txt``, shuffled with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 805-811. starpit/vllm (807) and oimiragieo/LLM-RULES (810)
had no snapshot and were skipped. The five read were mrphys/tensorflow-mri (MRI
reconstruction in TensorFlow: Python and CPU op kernels in C++), cxm211/llm_hallucination
(LLM bug-fixing experiments over Defects4J: Java sources, Python scripts, result data),
yanfengliu/voxel (a TypeScript voxel engine over three.js, its GLSL in template literals),
MrSmith33/voxelman (a voxel engine in D over OpenGL, its GLSL in D's backtick strings) and
torch-spyre/triton (a fork of the Triton compiler with an IBM Spyre back end). Fifteen files
of each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, and three commits touching GPU
code judged against ``lockin diff`` (``random.Random("owner/name:commits")``). Each snippet
is a small rewrite, in our own words, of a pattern found in the repository its test names;
the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- MrSmith33/voxelman: D sources, GLSL in WYSIWYG strings ------------------------------------


def test_d_module_with_glsl_in_backtick_strings_is_kernel() -> None:
    # source/voxelman/graphics/shaders.d: each shader stage is a module-level string in D's
    # backtick form, compiled by the OpenGL driver at run time; the D around it is portable.
    # Before, no .d file had a language, so the shaders (and a commit adding two) went unseen.
    source = b"""\
module engine.gfx.programs;

import derelict.opengl3.gl3;
import engine.gfx.program;

string flat_vertex = `
#version 330
uniform mat4 mvp;
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 tint;
smooth out vec4 v_tint;
void main() {
    v_tint = tint;
    gl_Position = mvp * vec4(pos, 1);
}
`;

struct FlatProgram
{
    Program prog;
    GLint mvp_at = -1;
    void build() {
        prog.link(flat_vertex);
        mvp_at = glGetUniformLocation(prog.handle, "mvp");
    }
}
"""
    assert _rules("source/engine/gfx/programs.d", source) == {"vulkan.glsl-string"}
    assert _layers("source/engine/gfx/programs.d", source) == {"kernel": 11, "portable": 12}


def test_d_module_without_shaders_is_portable() -> None:
    # plugins/voxelman/.../*.d: the rest of the engine, counted as the D it is.
    source = b"""\
module engine.math.box;

import std.algorithm : min, max;

/+ An axis-aligned box in block coordinates. +/
struct Box
{
    int[3] lo;
    int[3] hi;
    // Grows the box to hold p.
    void add(int[3] p) {
        foreach (i; 0 .. 3) { lo[i] = min(lo[i], p[i]); hi[i] = max(hi[i], p[i]); }
    }
}
"""
    assert _rules("source/engine/math/box.d", source) == set()
    assert _layers("source/engine/math/box.d", source) == {"portable": 10}


def test_make_dependency_file_under_d_extension_is_not_counted() -> None:
    # The negative: `cc -MD` writes build/obj/*.d, a make rule and no D; it stays uncounted.
    source = b"""\
build/obj/render.o: src/render.c src/render.h include/gl_loader.h \\
 include/shaders.h
src/render.h:
include/gl_loader.h:
"""
    assert _layers("build/obj/render.d", source) == {}


# -- yanfengliu/voxel: GLSL chunks in TypeScript template literals (checked right) ---------------


def test_glsl_function_chunk_in_a_tagged_template_is_kernel_checked_right() -> None:
    # src/three/stylizedToneBands.ts: a GLSL helper kept beside its TypeScript twin in a
    # /* glsl */ template spliced into a post-processing shader (26 kernel lines by hand,
    # lockin 26). A GLSL comment inside the literal is a line of the file but no shader code.
    source = b"""\
export function quantize(v: number, steps: number): number {
  return Math.floor(v * steps) / steps;
}

export const QUANTIZE_GLSL = /* glsl */`
uniform float uSteps;

float quantize(float v, float steps) {
  // floored, as the TypeScript above
  float s = max(1.0, floor(steps));
  return floor(v * s) / s;
}
`;
"""
    assert _rules("src/three/quantize.ts", source) == {"vulkan.glsl-tagged-string"}
    assert _layers("src/three/quantize.ts", source) == {"kernel": 7, "portable": 5}


# -- torch-spyre/triton: Gluon device helpers (checked right) ------------------------------------


def test_gluon_constexpr_helpers_beside_jit_helpers_are_kernel_checked_right() -> None:
    # python/triton/tools/triton_to_gluon_translator/translator_helpers.py: layout helpers run
    # at kernel compile time (@gluon.constexpr_function) beside @gluon.jit device helpers over
    # the NVIDIA Hopper modules; the host-side descriptor conversion stays portable.
    source = b"""\
from triton.experimental import gluon
from triton.experimental.gluon import language as ttgl
from triton.experimental.gluon.language.nvidia.hopper import mbarrier


@gluon.constexpr_function
def row_layout(width, num_warps):
    return ttgl.BlockedLayout([1, width], [1, 32], [num_warps, 1], [1, 0])


@gluon.jit
def wait_then_load(bar, ptr, phase):
    mbarrier.wait(bar, phase)
    return ttgl.load(ptr)


def host_shape(desc):
    return list(desc.shape)
"""
    assert _rules("tools/translator/helpers.py", source) == {"triton.gluon-nvidia"}
    assert _layers("tools/translator/helpers.py", source) == {"kernel": 7, "portable": 5}
