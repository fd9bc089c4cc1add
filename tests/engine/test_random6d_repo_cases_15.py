"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h42-random-d).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 243-250. Two could not be read: Maxritz/TensorRT-LLM-RDNA4 (snapshot over 500 MB) and
karlisjirgensons/aphysics (no snapshot). Fifteen files of each remaining repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled before
any fix, with the files lockin calls non-portable (up to 20, drawn the same way) and GPU-looking
files it calls portable (up to 10); three commits touching GPU code were drawn with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import Layer
from tests.engine.test_ml_repo_cases import _layers, _rules
from tests.engine.test_spliced_headers import census_of

# -- pohldaniel/OpenGL_Games: OpenGL games vendoring opus, libwebp, SDL2, glm, Vulkan SDK ---------


def test_opus_arm_asm_opening_with_an_assembler_comment_is_portable() -> None:
    # opus/src/celt/arm/kiss_fft_armv4.h: each macro's template opens with `#C_MUL`, a GNU
    # assembler comment, then ARM `ldrsh`/`smull`. Before, 78 kernel lines of cuda.ptx-asm.
    source = b"""\
#define C_MUL(m, a, b) \\
    do { \\
        int br_, bi_, tt_; \\
        __asm__ __volatile__( \\
            "#C_MUL\\n\\t" \\
            "ldrsh %[br], [%[bp], #0]\\n\\t" \\
            "smull %[tt], %[mi], r1, %[br]\\n\\t" \\
            : [br]"=&r"(br_), [bi]"=r"(bi_), [tt]"=r"(tt_), [mi]"=r"((m).i) \\
            : [ap]"r"(&(a)), [bp]"r"(&(b)) \\
            : "r0", "r1"); \\
    } while (0)
"""
    assert _layers("opus/src/celt/arm/kiss_fft_armv4.h", source) == {"portable": 11}


def test_opus_mips_dsp_asm_in_upper_case_is_portable() -> None:
    # opus/src/celt/mips/celt_mipsr1.h: MIPS DSP accumulator instructions written upper-case,
    # one asm statement a line. Before, each was a kernel line of cuda.ptx-asm.
    source = b"""\
static inline int comb_tap(int g0, int g1, int x0, int x1) {
    int res;
    asm volatile("MULT $ac1, %0, %1" : : "r" (g0), "r" (x0));
    asm volatile("MADD $ac1, %0, %1" : : "r" (g1), "r" (x1));
    asm volatile("EXTR_R.W %0,$ac1, %1" : "=r" (res): "i" (15));
    asm volatile("SHRA_R.W %0, %1, %2" : "+r" (res) : "0" (res), "i" (1));
    return res;
}
"""
    assert _layers("opus/src/celt/mips/celt_mipsr1.h", source) == {"portable": 8}


def test_libwebp_mips_asm_built_from_string_macros_is_portable() -> None:
    # Freeimage/libwebp/src/dsp/enc_mips32.c: under the project's MIPS switch, the template is a
    # run of string macros (`QUANTIZE_ONE(...)`), so no first template line shows MIPS.
    # Before, 70 kernel lines of cuda.ptx-asm.
    source = b"""\
#include "src/dsp/dsp.h"
#if defined(WEBP_USE_MIPS32)
static int quantize_block(short in[16], const unsigned short* q) {
  int t0, t1;
  __asm__ volatile(
    QUANTIZE_ONE( 0,  0,  0)
    QUANTIZE_ONE( 2,  4,  2)
    : [t0]"=&r"(t0), [t1]"=&r"(t1)
    : [in]"r"(in), [q]"r"(q)
    : "memory"
  );
  return t0 | t1;
}
#endif
"""
    assert _layers("Freeimage/libwebp/src/dsp/enc_mips32.c", source) == {"portable": 14}


def test_ptx_template_opening_a_block_stays_kernel_code() -> None:
    # The negative of the three above: PTX written with a `{` scope, a lower-case dotted
    # mnemonic and `%n` operands stays inline PTX.
    source = b"""\
static inline unsigned lane_mask_lt() {
    unsigned m;
    asm volatile(
        "{\\n\\t"
        ".reg .u32 t;\\n\\t"
        "mov.u32 %0, %%lanemask_lt;\\n\\t"
        "}" : "=r"(m));
    return m;
}
"""
    assert "cuda.ptx-asm" in _rules("src/lane.cuh", source)


def test_glsl_shader_is_kernel_code() -> None:
    # 11VolumetricTexture/res/shader/compute/splat2.gs, checked right: a geometry shader is
    # shader code as a whole (GLSL shaders are kernel code).
    source = b"""\
#version 430 core
layout(points) in;
layout(points, max_vertices = 1) out;
in float vInstance[];
out float gLayer;
void main() {
    gl_Layer = int(vInstance[0]);
    gLayer = float(gl_Layer);
    gl_Position = gl_in[0].gl_Position;
    EmitVertex();
    EndPrimitive();
}
"""
    assert _layers("res/shader/compute/splat2.gs", source) == {"kernel": 12}


def test_cg_shader_files_are_kernel_code() -> None:
    # 27JellyCar/Assets/Shaders/CG/*.cg (37 files): NVIDIA Cg shaders of the game's PS Vita
    # port. Before, no language: never counted.
    source = b"""\
float4 out vColor : COLOR;
uniform float4x4 translation;
void main(float3 iPosition, float3 iColor, float4 out vPosition : POSITION) {
    vPosition = mul(float4(iPosition, 1.f), translation);
    vColor = float4(iColor, 1.f);
}
"""
    report = classify("27JellyCar/Assets/Shaders/CG/font_v.cg", source)
    assert report.language == "Cg"
    assert _layers("27JellyCar/Assets/Shaders/CG/font_v.cg", source) == {"kernel": 6}


# -- KhryptorGraphics/OllamaMax: ollama with its vendored ggml (CUDA, Metal back ends) ----------

# ollama/ml/backend/ggml/ggml/src/ggml-metal/: the shaders include the argument structs, the
# Objective-C host code imports them.
IMPL = """\
#ifndef GGML_METAL_IMPL
#define GGML_METAL_IMPL
#define N_SG_Q4_0 2
typedef struct {
    int32_t  ne00;
    uint64_t nb01;
} ggml_metal_kargs_add;
#endif
"""
SHADERS = """\
#include <metal_stdlib>
#include "ggml-metal-impl.h"
using namespace metal;
kernel void kernel_add(constant ggml_metal_kargs_add & args, device float * x,
                       uint i [[thread_position_in_grid]]) {
    x[i] += args.ne00;
}
"""
HOST = """\
#import "ggml-metal-impl.h"
#import <Metal/Metal.h>
static void encode_add(id<MTLComputeCommandEncoder> enc) {
    ggml_metal_kargs_add args = { 1, 4 };
    [enc setBytes:&args length:sizeof(args) atIndex:0];
}
"""


def test_ggml_metal_argument_structs_imported_by_the_host_stay_plain_c() -> None:
    # Before, the host's `#import` was no include: the header counted as included only by the
    # shaders, spliced into them as 554 kernel lines of metal.shader-file.
    folder = "ollama/ml/backend/ggml/ggml/src/ggml-metal/"
    census = census_of(
        {
            folder + "ggml-metal-impl.h": IMPL,
            folder + "ggml-metal.metal": SHADERS,
            folder + "ggml-metal.m": HOST,
        }
    )
    impl = census.get(folder + "ggml-metal-impl.h")
    assert impl is not None
    assert impl.layers[Layer.KERNEL] == 0
    assert impl.layers[Layer.PORTABLE] == 8
    shaders = census.get(folder + "ggml-metal.metal")
    assert shaders is not None
    assert shaders.layers[Layer.KERNEL] == 7
    assert classify(folder + "ggml-metal.m", HOST.encode()).includes == (
        "ggml-metal-impl.h",
        "Metal/Metal.h",
    )


def test_header_only_the_shaders_include_is_still_spliced() -> None:
    # The negative: without the host's import the header is read as the shaders' code.
    folder = "ggml/src/ggml-metal/"
    census = census_of({folder + "ggml-metal-impl.h": IMPL, folder + "ggml-metal.metal": SHADERS})
    impl = census.get(folder + "ggml-metal-impl.h")
    assert impl is not None
    assert impl.layers[Layer.KERNEL] == 8


def test_ggml_metal_backend_api_header_is_portable() -> None:
    # ollama/ml/backend/ggml/ggml/include/ggml-metal.h, checked right: declarations of ggml's
    # own backend entry points, no Metal type or call.
    source = b"""\
#pragma once
#include "ggml.h"
#include "ggml-backend.h"
#ifdef __cplusplus
extern "C" {
#endif
GGML_BACKEND_API ggml_backend_t ggml_backend_metal_init(void);
GGML_BACKEND_API bool ggml_backend_is_metal(ggml_backend_t backend);
GGML_BACKEND_API ggml_backend_reg_t ggml_backend_metal_reg(void);
#ifdef __cplusplus
}
#endif
"""
    assert _layers("ggml/include/ggml-metal.h", source) == {"portable": 12}


# -- Qiucha/GPGaussian: Gaussian splatting with Warp/Taichi MPM, run on NVIDIA GPUs -----------


def test_gpgaussian_taichi_on_cuda_and_default_cuda_tensors_are_vendor_path() -> None:
    # src/simulation/runner.py, checked right: Taichi told to run on CUDA, tensors made on it.
    source = b"""\
import taichi as ti
import torch

ti.init(arch=ti.cuda, device_memory_GB=8.0)
background = torch.tensor([1, 1, 1], dtype=torch.float32, device="cuda")
"""
    assert _rules("src/simulation/runner.py", source) == {
        "taichi.cuda-arch",
        "torch.device-string",
    }
    assert _layers("src/simulation/runner.py", source) == {"vendor-path": 2, "portable": 2}


# -- Athenodoros/wgsl-playground: a WebGPU playground for WGSL --------------------------------


def test_wgsl_compute_shader_file_is_kernel_code() -> None:
    # src/examples/default_compute_shader.wgsl, checked right.
    source = b"""\
@group(0) @binding(0) var<storage, read_write> data: array<i32>;
@compute @workgroup_size(64, 1, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    data[id.x] = data[id.x] * 2;
}
"""
    assert _layers("src/examples/default_compute_shader.wgsl", source) == {"kernel": 5}
