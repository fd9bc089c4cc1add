"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-v).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 910-916 and skipped two: mcarbonell/attention-neuron (910)
and ronbuening/LensVisualizerRayTraceComparator (911) had no snapshot. Read were
benschneider/spectral-diffusion (912: FFT-based diffusion experiments in PyTorch, CUDA timing
events and device strings; its snapshot lacked the checkpoints and CIFAR batches, so it was
checked out without them), dyedd/deepspeed-diffusers (913: Stable Diffusion fine-tuning with
DeepSpeed's accelerator API, Slurm jobs for Hygon DCUs under the DTK toolkit),
SamuelMarks/gemma-4-sql (914: Gemma text-to-SQL over JAX, Keras, MaxText and PyTorch back
ends, no GPU code beyond one device string), NaitorStudios/FusionShaderRepo (915: Clickteam
Fusion effects, each a Direct3D .fx/.hlsl pixel shader with OpenGL ES .fxao/.fxmo ports; its
snapshot lacked the .mfa examples and some textures, checked out without them) and
chennyso/Megatron-LM (916: a Megatron-LM fork; Triton kernels, Transformer Engine and Apex).
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

# -- dyedd/deepspeed-diffusers: Slurm jobs for Hygon DCUs ---------------------------------------


def test_slurm_job_switching_to_the_dtk_module_is_vendor_path() -> None:
    # scripts/train_text_to_image.slurm: asks Slurm for DCUs (a comment line, unread) and
    # switches the compiler module to Hygon's DTK, the ROCm fork its DCUs run under.
    source = b"""\
#!/bin/bash
#SBATCH -J sd-infer
#SBATCH --gres=dcu:2
#SBATCH -o logs/%j.out

module load apps/miniconda3/4.12
conda activate sd
module switch compiler/dtk/24.04

python ../infer.py --config ../cfg/run.json
"""
    assert _rules("jobs/infer_dcu.slurm", source) == {"build.hip-offload-arch"}
    assert _layers("jobs/infer_dcu.slurm", source) == {"vendor-path": 1, "portable": 3}


def test_sbatch_asking_for_dcus_is_vendor_path() -> None:
    # scripts/*.slurm's `--gres=dcu:N`, handed to sbatch on its command line.
    source = b"""\
for cfg in base large; do
    sbatch -p normal --gres=dcu:1 infer.slurm $cfg
done
"""
    assert _rules("jobs/submit.sh", source) == {"build.hip-offload-arch"}
    assert _layers("jobs/submit.sh", source) == {"vendor-path": 1, "portable": 2}


def test_module_named_like_dtk_but_longer_stays_portable() -> None:
    # The DTK alternative wants the module's own name: Deepin's dtkcore is not Hygon's DTK.
    source = b"""\
#!/bin/bash
module load gcc/12 dtkcore/5.6
make -C desktop
"""
    assert _rules("jobs/build_desktop.sh", source) == set()
    assert _layers("jobs/build_desktop.sh", source) == {"portable": 2}


def test_deepspeed_accelerator_device_stays_portable() -> None:
    # train_text_to_image.py: the device comes from DeepSpeed's accelerator abstraction, which
    # names CUDA, ROCm, XPU or NPU at run time; no vendor is written down.
    source = b"""\
import deepspeed
import torch
from deepspeed import get_accelerator


def pick_device(local_rank):
    if local_rank == -1:
        return torch.device(get_accelerator().device_name())
    get_accelerator().set_device(local_rank)
    deepspeed.init_distributed()
    return torch.device(get_accelerator().device_name(), local_rank)
"""
    assert _rules("train_ds.py", source) == set()
    assert _layers("train_ds.py", source) == {"portable": 9}


# -- NaitorStudios/FusionShaderRepo: one effect for Direct3D and OpenGL ES ----------------------


def test_fusion_android_shader_fxao_is_glsl_kernel() -> None:
    # Effects/*/*.fxao: the effect's OpenGL ES 2 port, vertex and fragment shaders between
    # //@Begin_ markers; every code line is shader code.
    source = b"""\
// Tint

//@Begin_vertex
uniform mat4 transformMatrix;
uniform mat4 projectionMatrix;
attribute vec4 position;
attribute vec2 texCoord;
varying vec2 uv;

void main(void)
{
\tuv = texCoord;
\tgl_Position = projectionMatrix * transformMatrix * position;
}
//@End
//@Begin_fragment
#ifdef GL_ES
    precision mediump float;
#endif
varying vec2 uv;
uniform sampler2D imgTexture;
uniform vec4 tint;

void main(void)
{
\tvec4 c = texture2D(imgTexture, uv);
\tgl_FragColor = vec4(c.rgb * tint.rgb, c.a);
}
//@End
"""
    assert _rules("effects/Tint/Tint.fxao", source) == {"vulkan.shader-file"}
    assert _layers("effects/Tint/Tint.fxao", source) == {"kernel": 21}


def test_fusion_apple_shader_fxmo_is_glsl_kernel() -> None:
    # Effects/*/*.fxmo: the GLSL 3 port (in/out, a fragColor output) for the Apple runtimes.
    source = b"""\
// Tint

//@Begin_vertex
//version_####
in vec2 position;
uniform mat3 projectionMatrix;
uniform mat3 transformMatrix;
out vec2 uv;

void main()
{
    vec3 p = vec3(position, 1.0);
    uv = p.xy;
    gl_Position = vec4(projectionMatrix * transformMatrix * p, 1.0);
}
//@End
//@Begin_fragment
//version_####
in vec2 uv;
uniform sampler2D imgTexture;
uniform vec4 tint;
out vec4 fragColor;

void main(void)
{
    vec4 c = texture(imgTexture, uv);
    fragColor = vec4(c.rgb * tint.rgb, c.a);
}
//@End
"""
    assert _rules("effects/Tint/Tint.fxmo", source) == {"vulkan.shader-file"}
    assert _layers("effects/Tint/Tint.fxmo", source) == {"kernel": 19}


def test_fusion_direct3d_effect_fx_is_hlsl_kernel() -> None:
    # Effects/ZoomBGNoAA/ZoomBGNoAA.fx: a ps_2_0 pixel shader and its technique, all kernel.
    source = b"""\
// A colour tint over the layer below
sampler2D img : register(s0);
float4 tint;

float4 ps_main(in float2 uv : TEXCOORD0) : COLOR0
{
    // keep alpha, scale the colour
    float4 c = tex2D(img, uv);
    c.rgb *= tint.rgb;
    return c;
}

technique tech_main { pass P0 { PixelShader = compile ps_2_0 ps_main(); } }
"""
    assert _rules("effects/Tint/Tint.fx", source) == {"hlsl.shader-file"}
    assert _layers("effects/Tint/Tint.fx", source) == {"kernel": 9}


# -- chennyso/Megatron-LM: a Triton kernel with a long docstring --------------------------------


def test_triton_kernel_docstring_is_not_counted_as_kernel() -> None:
    # megatron/core/transformer/moe/ops/paged_stash.py: the kernel's lines from the decorator
    # to its last store are kernel, its docstring and comments no code; imports stay portable.
    source = b'''\
"""Triton kernels that copy rows into pages."""

import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def copy_rows_kernel(src_ptr, dst_ptr, n_ptr, WIDTH: tl.constexpr, BLOCK: tl.constexpr):
    """Copy n rows of WIDTH values.

    One program per row block; the row count lives on the device.
    """
    pid = tl.program_id(axis=0)
    n = tl.load(n_ptr)
    # rows past n are masked off
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n * WIDTH
    vals = tl.load(src_ptr + offs, mask=mask)
    tl.store(dst_ptr + offs, vals, mask=mask)
'''
    assert _rules("ops/stash.py", source) == {"triton.jit"}
    assert _layers("ops/stash.py", source) == {"kernel": 8, "portable": 3}
