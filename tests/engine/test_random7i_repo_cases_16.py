"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-i).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 394-401. Two had no snapshot and were skipped, not replaced:
silverenternal/flowa-multistep-reinference and qhsc/cutlass. The six read were
nishantj2006/3D-Gaussian-Splatting-, idsc-frazzoli/tensor, ismacaulay/webgpu-adventures,
cywzl/LeukocyteGUI_for_oclHashCat, vkorotkine/DPGSolver and dneto0/SPIRV-Tools. Fifteen files
of each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts, and labelled before any fix, with the files lockin calls non-portable (up to 20, drawn
the same way), GPU-looking files it calls portable (up to 10) and the GPU-looking files it gives
no language; three commits touching GPU code were drawn with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- nishantj2006/3D-Gaussian-Splatting-: Inria's SIBR viewers and their OpenGL shaders ------


def test_sibr_fragment_program_as_fp_is_glsl_kernel_code() -> None:
    # SIBR_viewers/src/core/view/shaders/texture.fp: a fragment shader under a licence comment.
    # Before, no language owned .fp/.vp/.gp/.tcs/.tes: the repository's 82 such shaders were
    # never counted, while the same shaders saved as .frag/.vert were.
    source = b"""\
/*
 * Licence header of the viewer.
 */

#version 420

layout(binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 out_color;
in vec2 tex_coord;

void main(void) {
    out_color = texture(tex, tex_coord);
}
"""
    assert classify("src/core/view/shaders/texture.fp", source).language == "GLSL"
    assert _rules("src/core/view/shaders/texture.fp", source) == {"vulkan.shader-file"}
    assert _layers("src/core/view/shaders/texture.fp", source) == {"kernel": 7}


def test_sibr_tessellation_control_shader_as_tcs_is_glsl_kernel_code() -> None:
    # SIBR_viewers/src/core/renderer/shaders/longlat.tcs: passes the patch through, three
    # vertices a patch.
    source = b"""\
#version 450 core

layout(vertices = 3) out;
in vec3 vs_colors[];
out vec3 colors_tcs[];

void main(void) {
    colors_tcs[gl_InvocationID] = vs_colors[gl_InvocationID];
    if (gl_InvocationID == 0) {
        gl_TessLevelOuter[0] = 4.0;
        gl_TessLevelInner[0] = 4.0;
    }
}
"""
    assert classify("src/core/renderer/shaders/longlat.tcs", source).language == "GLSL"
    assert _layers("src/core/renderer/shaders/longlat.tcs", source) == {"kernel": 11}


def test_gnuplot_script_as_gp_gets_no_glsl() -> None:
    # The negative: gnuplot's .gp scripts (and ARB assembly programs as .vp/.fp) have no
    # #version line, GLSL built-in or typed uniform.
    plot = b"""\
set terminal pngcairo size 800,600
set output "speedup.png"
plot "timings.dat" using 1:2 with lines title "speedup"
"""
    assert classify("plots/speedup.gp", plot).language != "GLSL"
    arb = b"""\
!!ARBfp1.0
TEMP color;
TEX color, fragment.texcoord[0], texture[0], 2D;
MOV result.color, color;
END
"""
    assert classify("shaders/copy.fp", arb).language != "GLSL"
