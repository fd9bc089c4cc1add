"""Kernel-line counts on kernel files drawn at random (issue 27, lane h34-kernels).

Repositories at positions 37-60 of the h33-audit-x pool order; in each, the files holding
device code by a plain text signal (``__global__``, ``__kernel``, ``@compute``, ``@triton.jit``,
...) were drawn with ``random.seed("owner/name")``, up to eight, and counted by hand before
any fix. The miss that recurred: a program held in string literals (WGSL in a JavaScript
template literal, CUDA in a Python string) counted its blank lines and comments as kernel
code. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers

# -- Welko/rtvis-webgpu-tutorial: WGSL compute shaders in JavaScript template literals ---------


def test_rtvis_wgsl_template_literal_counts_its_code_lines_only() -> None:
    # tasks/shaders/aggregate.js: the shader's blank lines and its tutorial comments are not
    # kernel code; before, all 16 lines of the literal were (the hand count is 10 + the opener).
    source = b"""\
window.SHADERS = Object.assign(window.SHADERS || {}, {
    add: /* wgsl */ `

// One storage buffer, every element bumped by a constant.
@group(0) @binding(0) var<storage, read_write> data : array<u32>;

const addend: u32 = 100u;

@compute
@workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
    if (id.x >= arrayLength(&data)) {
        return;
    }
    // Your code here
    data[id.x] += addend;
}

`});
"""
    report = classify("tasks/shaders/add.js", source)
    assert {f.rule for f in report.findings} == {"wgsl.source-string"}
    layers = _layers("tasks/shaders/add.js", source)
    # The opener line, the binding, the constant, the eight lines of the entry point and the
    # closing `}); line; the blank lines and the two comments go to the portable rest.
    assert layers["kernel"] == 12
    assert layers["portable"] == 1 + 6


# -- Kobzol/cuda-profile: CUDA programs in Python strings ----------------------------------------


def test_cuda_program_string_leaves_out_its_comment_block() -> None:
    # A test of the profiler compiles a CUDA program held in a Python string; its block
    # comment (a license or notes) is not kernel code, the kernel and its braces are.
    source = b'''\
def test_shared(profile):
    data = profile("""
    /*
     * Writes one element of a shared array per thread,
     * then reads it back.
     */
    __global__ void kernel() {
        __shared__ int arr[10];
        arr[threadIdx.x] = 1;
    }
    """)
    assert data["space"] == 1
'''
    spans = [(f.start_line, f.end_line) for f in classify("tests/test_shared.py", source).findings]
    assert (7, 11) in spans  # the kernel, to the line closing the string
    assert not any(first <= 3 <= last for first, last in spans)
    assert _layers("tests/test_shared.py", source)["kernel"] == 1 + 5


# -- a C string of OpenCL, a line a literal: blank literals are not code -----------------------


def test_opencl_adjacent_literals_leave_out_blank_literals() -> None:
    # GEGL-style kernels kept as adjacent C literals in a .c file: `"\n"` literals and a
    # `"// ..."` literal are the program's blank lines and comments.
    source = b"""\
static const char *invert_source =
"// Inverts each pixel's colour.                       \\n"
"                                                      \\n"
"__kernel void invert(__global const float4 *in,      \\n"
"                     __global       float4 *out)     \\n"
"{                                                     \\n"
"  int gid = get_global_id(0);                         \\n"
"                                                      \\n"
"  out[gid] = (float4)(1.0f) - in[gid];                \\n"
"}                                                     \\n";
"""
    report = classify("operations/invert.c", source)
    assert "opencl.source-string" in {f.rule for f in report.findings}
    # The five lines of the kernel's code; not the comment or the two blank literals.
    assert _layers("operations/invert.c", source)["kernel"] == 6


def test_one_line_program_string_keeps_its_span() -> None:
    # A kernel on one or two lines has nothing to leave out: the span stays whole.
    source = b'src = "__global__ void k(float* x) { x[threadIdx.x] = 0; }"\n'
    assert _layers("gen.py", source) == {"kernel": 1}


# -- OpenCL/GEGL-OpenCL: opencl/*.cl.h, each line of a .cl kernel quoted by a script -----------


def test_gegl_quoted_kernel_header_counts_as_its_kernel_file() -> None:
    # opencl/noise-hurl.cl.h: the .cl file's license comment and blank lines are quoted too;
    # before, all 57 lines were kernel code against 33 in the kernel itself.
    source = b"""\
static const char* invert_cl_source =
"/* This file is an image processing operation for GEGL                 \\n"
" *                                                                     \\n"
" * GEGL is free software; you can redistribute it and/or modify it.    \\n"
" */                                                                    \\n"
"                                                                       \\n"
"__kernel void invert(__global const float4 *in,                        \\n"
"                     __global       float4 *out)                       \\n"
"{                                                                      \\n"
"  int gid = get_global_id(0);                                          \\n"
"                                                                       \\n"
"  out[gid] = (float4)(1.0f) - in[gid];                                 \\n"
"}                                                                      \\n"
;
"""
    kernel_file = b"""\
/* This file is an image processing operation for GEGL
 *
 * GEGL is free software; you can redistribute it and/or modify it.
 */

__kernel void invert(__global const float4 *in,
                     __global       float4 *out)
{
  int gid = get_global_id(0);

  out[gid] = (float4)(1.0f) - in[gid];
}
"""
    quoted = _layers("opencl/invert.cl.h", source)
    assert _layers("opencl/invert.cl", kernel_file) == {"kernel": 6}
    # The kernel's six lines and the declaration and `;` around them; the quoted license and
    # blank lines are the rest.
    assert quoted == {"kernel": 6 + 2, "portable": 6}


def test_kernel_file_with_a_few_strings_stays_whole() -> None:
    # A kernel file whose strings are a small part of it keeps its whole-file span.
    source = b"""\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void k(__global double* x) {
  printf("%f\\n", x[0]);
}
"""
    assert _layers("k.cl", source) == {"kernel": 4}


# -- brian-team/brian2cuda: device helpers written as str.format templates --------------------


def test_brian2cuda_format_template_device_helpers_are_kernel_code() -> None:
    # brian2cuda/cuda_generator.py: a loop writes one helper per math function, its types and
    # name as placeholders; before, only the helpers without a placeholder before the
    # parameter list were kernel code.
    source = b'''\
for func, func_cuda in func_translations:
    cuda_code = """
        template <typename T>
        __host__ __device__
        {{default_type}} _brian_{func}(T value)
        {{{{
            return {func}(({{default_type}})value);
        }}}}
        """.format(func=func_cuda)
    DEFAULT_FUNCTIONS[func].add(code=cuda_code, name=f"_brian_{func_cuda}")
'''
    report = classify("brian2cuda/cuda_generator.py", source)
    assert [(f.rule, f.start_line, f.end_line) for f in report.findings] == [
        ("cuda.source-string", 2, 9)
    ]
    assert _layers("brian2cuda/cuda_generator.py", source) == {"kernel": 8, "portable": 2}


# -- RongRongRongRong/LPVFI: CuPy kernels in Python strings, with blank lines and notes ---------


def test_lpvfi_cupy_kernel_string_counts_its_code_lines() -> None:
    # liteflownet/correlation/correlation.py: the kernel is spaced out by blank lines and a
    # `//` note; before, all 223 lines of its strings were kernel code against 162 of code.
    source = b"""\
import cupy

kernel_rearrange = '''
    extern "C" __global__ void kernel_rearrange(const int n, const float* input, float* output) {
      int intIndex = (blockIdx.x * blockDim.x) + threadIdx.x;

      if (intIndex >= n) {
        return;
      }

      // one sample per block in z
      int intSample = blockIdx.z;

      output[intIndex] = input[intSample + intIndex];
    }
'''
"""
    layers = _layers("liteflownet/correlation/correlation.py", source)
    # The opener, the eight code lines of the kernel and the closer; `import cupy` is the
    # host's; the three blank lines and the note inside the string are the portable rest.
    assert layers == {"kernel": 1 + 8 + 1, "vendor-path": 1, "portable": 4}
