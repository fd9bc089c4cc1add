"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-c).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 287-293. Three had no snapshot here and were skipped without
replacement: ssugary/pathTracer (289), NekoMint-Labs/Diffusion (291) and
DingdongD/SPN_Quantization (293). The four read were coolfluid/coolfluid3 (a C++ finite
element framework whose sandbox/ keeps CUDA and OpenCL matrix-product experiments and two
vendored ViennaCL copies), eightmm/equivariant-linear-attention (an equivariant attention
model in PyTorch with CUDA timing scripts), vllm-project/speculators (speculative decoding
draft models for vLLM, one Triton loss kernel) and IrisShaders/Iris (a Minecraft shader mod in
Java on OpenGL, GLSL in resources and in its shader transformers' strings). Fifteen files of
each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, and three commits touching GPU
code drawn with ``random.Random("owner/name:commits")`` (none qualified in coolfluid3's last
400) and judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- IrisShaders/Iris: shader-pack compute and geometry shaders -------------------------------


def test_shader_pack_compute_shader_in_csh_is_glsl_kernel_code() -> None:
    # common/src/main/resources/colorSpace.csh: a GLSL pass built as a compute shader or as
    # a fragment shader by a define, under the shader packs' compute extension, not C shell.
    source = b"""\
#ifdef COMPUTE
#version 430 core
layout(local_size_x = 16, local_size_y = 16) in;
layout(rgba8) uniform image2D target;
#else
#version 330 core
uniform sampler2D target;
out vec4 color;
#endif

// gamma curve
vec3 to_display(vec3 c) {
    return pow(c, vec3(1.0 / 2.2));
}
"""
    assert _rules("resources/tonemap.csh", source) == {"vulkan.shader-file"}
    assert _layers("resources/tonemap.csh", source) == {"kernel": 12}


def test_compute_shader_with_only_a_layout_line_is_glsl() -> None:
    # The same kind of pass with no uniform and its #version hidden from the C-shell reading:
    # the local size layout alone names GLSL.
    source = b"""\
#version 450
layout (local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float v[]; };
void main() {
    v[gl_GlobalInvocationID.x] *= 2.0;
}
"""
    assert _layers("shaders/scale.csh", source) == {"kernel": 6}


def test_c_shell_script_stays_c_shell() -> None:
    # A csh build script that names a variable `uniform` and echoes `layout` is no shader.
    source = b"""\
#!/bin/csh
# build the docs
set uniform = 1
if ($uniform) then
  echo layout
endif
"""
    assert _rules("tools/build.csh", source) == set()
    assert _layers("tools/build.csh", source) == {"portable": 4}


def test_shader_pack_geometry_shader_in_gsh_is_glsl() -> None:
    # Shader packs' geometry stage (Iris names it `_geometry.gsh` when it debugs programs).
    source = b"""\
#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
    for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position; EmitVertex(); }
    EndPrimitive();
}
"""
    assert _layers("shaders/world0/gbuffers_terrain.gsh", source) == {"kernel": 7}


def test_shader_pack_vertex_shader_stays_kernel() -> None:
    # common/src/main/resources/centerDepth.vsh (right before any fix): a pass-through
    # vertex shader.
    source = b"""\
#version 150 core
in vec3 Position;
uniform mat4 projection;
void main() {
    gl_Position = projection * vec4(Position, 1.0);
}
"""
    assert _layers("resources/blit.vsh", source) == {"kernel": 6}


# -- coolfluid/coolfluid3: sizes headers beside OpenCL kernels --------------------------------


def test_constants_header_in_opencl_folder_is_host_c() -> None:
    # sandbox/opencl/v1/matrix_sizes.h: an include guard around the matrix sizes the host
    # program includes; no OpenCL C in it.
    source = b"""\
#ifndef SIZES_H
#define SIZES_H

#define ROWS_A 512  // rows of A
#define COLS_A 256
#define COLS_B ROWS_A

#endif // SIZES_H
"""
    assert _rules("sandbox/opencl/v3/sizes.h", source) == set()
    assert _layers("sandbox/opencl/v3/sizes.h", source) == {"portable": 6}


def test_macro_header_in_opencl_folder_stays_opencl() -> None:
    # A header of function-like macros for the kernels beside it is device code still.
    source = b"""\
#ifndef HELPERS_H
#define HELPERS_H
#define IDX(r, c, w) ((r) * (w) + (c))
#endif
"""
    assert _rules("kernels/opencl/helpers.h", source) == {"opencl.kernel-file"}
    assert _layers("kernels/opencl/helpers.h", source) == {"kernel": 4}


def test_opencl_kernel_file_counts_every_code_line() -> None:
    # sandbox/opencl/v1/kernel.cl (right before any fix): a naive matrix product.
    source = b"""\
// one element per work item
__kernel void
mul(__global float* C,
    __global const float* A,
    __global const float* B,
    int n)
{
   int x = get_global_id(0);
   int y = get_global_id(1);
   float acc = 0;
   for (int k = 0; k < n; ++k)
      acc += A[y * n + k] * B[k * n + x];
   C[y * n + x] = acc;
}
"""
    assert _rules("sandbox/opencl/mul.cl", source) == {"opencl.kernel-file"}
    assert _layers("sandbox/opencl/mul.cl", source) == {"kernel": 13}


def test_cuda_kernel_in_disabled_branch_is_not_counted() -> None:
    # sandbox/cuda/v2/matrix_mult.cu (right before any fix): an old kernel kept under
    # `#if 0`, the live one under `#if 1`, and the host code launching it.
    source = b"""\
#if 0
__global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; }
#endif
#if 1
__global__ void scale(float* x)
{
    x[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
}
#endif
void run(float* d) { scale<<<4, 32>>>(d); }
"""
    layers = _layers("sandbox/cuda/scale.cu", source)
    assert layers["kernel"] == 4


# -- eightmm/equivariant-linear-attention and vllm-project/speculators ------------------------


def test_cuda_timing_helpers_are_vendor_path() -> None:
    # scripts/benchmark_triangle.py (right before any fix): synchronise and read peak memory
    # only on a CUDA device.
    source = b"""\
import torch


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def peak(device: torch.device) -> int:
    return torch.cuda.max_memory_allocated(device)
"""
    assert _rules("scripts/bench.py", source) >= {"torch.cuda-call"}
    assert set(_layers("scripts/bench.py", source)) == {"vendor-path", "portable"}


def test_triton_loss_kernel_lines_are_kernel() -> None:
    # src/speculators/losses/fused.py (right before any fix): a jitted row kernel and its
    # host wrapper.
    source = b"""\
import torch
import triton
import triton.language as tl


@triton.jit
def row_scale(x_ptr, n, BLOCK: tl.constexpr):
    \"\"\"Scale one row.\"\"\"
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + pid * n + offs, mask=mask)
    tl.store(x_ptr + pid * n + offs, x * 2.0, mask=mask)


def scale(x: torch.Tensor) -> torch.Tensor:
    row_scale[(x.shape[0],)](x, x.shape[1], BLOCK=1024)
    return x
"""
    layers = _layers("losses/fused.py", source)
    assert 7 <= layers["kernel"] <= 8


# -- coolfluid/coolfluid3: ViennaCL's generated kernel sources --------------------------------


def test_blank_literals_around_a_generated_kernel_source_are_not_kernel_lines() -> None:
    # sandbox/opencl/v7/viennacl/linalg/kernels/scalar_source.h: a generator writes each
    # kernel as C literals that open and close on a literal holding only a newline, the `;`
    # on a line of its own. Those two lines are no kernel code (152 counted for 121 before).
    source = b"""\
namespace gen
{
const char * const scale_kernel =
" \\n"
"__kernel void scale(\\n"
"          __global float * v,\\n"
"          float f)\\n"
"{\\n"
"  v[get_global_id(0)] *= f;\\n"
"};\\n"
" \\n"
; //scale_kernel
}
"""
    assert _rules("linalg/kernels/scale_source.h", source) == {"opencl.source-string"}
    assert _layers("linalg/kernels/scale_source.h", source)["kernel"] == 6


def test_kernel_source_opening_on_its_statement_line_keeps_it() -> None:
    # The usual form: the literal opens on the declaration's line and closes on its `;`.
    source = b"""\
const char* src = "__kernel void twice(__global float* v) {\\n"
                  "  v[get_global_id(0)] *= 2.0f;\\n"
                  "}\\n";
"""
    assert _layers("host/twice.c", source) == {"kernel": 3}
