"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-b).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 399-405 and every one had a snapshot, so none was skipped
(three snapshots lacked a few large blobs, data files the census does not read):
radixark/miles_diffusion (diffusion-model RL training on PyTorch, Ray and SGLang),
KellyKinyama/dart-pytorch (a Dart tensor library with its own CUDA engine in lib/native/),
rohanchanani/pi-gpu-lab (bare-metal Raspberry Pi labs: VideoCore IV QPU assembly kernels),
MethodicalAcceleratorDesign/MAD-X (CERN's accelerator design code in C, C++ and Fortran, no
GPU code), Neural-basis-of-sensorimotor-control/matlab-analysis (MATLAB electrophysiology
analysis, no GPU code), WeianMao/triattention (KV-cache compression for vLLM and SGLang with
a Triton scoring kernel) and ScottKolo/suitesparse-matrix-collection-website (a Rails site,
no GPU code). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, up to five more kernel files counted by hand, and three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- MethodicalAcceleratorDesign/MAD-X: make settings named after Visual C++'s cl.exe ----------


def test_a_cl_file_of_make_settings_is_a_makefile_not_an_opencl_kernel() -> None:
    # make/compiler.cl and make/linker.cl: one settings file per compiler (compiler.gcc,
    # compiler.icc, compiler.cl for Microsoft's cl.exe), included by the main makefile. Before,
    # both were OpenCL and all 144 lines counted as kernel code.
    source = b"""\
# |
# | build settings for the Visual Studio compiler
# |

CPPFLAGS += -D_WIN

WIN_OPT := /O2 /Od

ifeq ($(CCNAME),cl)
CFLAGS = /O$(NOPT) /c
ifeq ($(DEBUG),yes)
CFLAGS += /Zi
endif
CFLAGS += /nologo /fp:precise
endif
"""
    path = "make/compiler.cl"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 9}


def test_a_cl_kernel_with_an_assignment_like_line_stays_opencl() -> None:
    # The other side: an OpenCL C file is kept whatever its macros look like.
    source = b"""\
#define TILE 16
__kernel void scale(__global float* x, const float a) {
    int i = get_global_id(0);
    x[i] *= a;
}
"""
    path = "kernels/scale.cl"
    assert _rules(path, source) == {"opencl.kernel-file"}
    assert _layers(path, source) == {"kernel": 5}


# -- rohanchanani/pi-gpu-lab: VideoCore IV QPU assembly kernels ------------------------------


def test_vc4asm_qasm_is_videocore_kernel_code_without_its_comments() -> None:
    # code/1-parallel-add/parallel-add.qasm: uniforms read into registers, a VPM read and
    # write, thrend. Before, .qasm was read as OpenQASM (quantum circuits) and counted
    # portable, with the `#` comments counted as code.
    source = b"""\
.include "../lib/vc4.qinc"

# addresses of the inputs and the output
mov   ra0, unif
mov   ra1, unif
mov   ra2, unif

:again
mov vr_setup, vdr_setup_0(0, 16, 1, vdr_h32(1, 0, 0))
mov vr_addr, ra0      # start the load
mov -, vr_wait
add r0, vpm, 1
nop
brr -, :again
nop
thrend
nop
"""
    path = "labs/add/add.qasm"
    assert _rules(path, source) == {"videocore.qpu-assembly-file"}
    assert _layers(path, source) == {"kernel": 14}


def test_vc4asm_macro_header_is_videocore_kernel_code() -> None:
    # code/share/vc4inc/vc4.qinc: the macro header the kernels include (.func ... .endf).
    source = b"""\
# register and setup helpers
.func row_setup(pitch, n)
  .assert n >= 0 && n <= 16
  0x80000000 | pitch << 24 | n << 16
.endf
.set flag_all, 0
"""
    path = "share/qpu/vc4.qinc"
    assert _rules(path, source) == {"videocore.qpu-assembly-file"}
    assert _layers(path, source) == {"kernel": 5}


def test_openqasm_circuit_stays_portable() -> None:
    # The other .qasm: a quantum circuit names no QPU register, unif or thrend.
    source = b"""\
OPENQASM 2.0;
include "qelib1.inc";
// two qubits in a Bell state
qreg q[2];
creg c[2];
h q[0];
cx q[0], q[1];
measure q -> c;
"""
    path = "circuits/bell.qasm"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


# -- verdicts that were already right ----------------------------------------------------------


def test_cuda_header_kernel_counts_from_signature_to_brace() -> None:
    # KellyKinyama/dart-pytorch lib/native/src/kernels/im2col.cuh: one __global__ kernel in a
    # .cuh with the runtime header included; every line of the kernel is kernel code.
    source = b"""\
#pragma once

#include <cuda_runtime.h>

__global__ void unfold_rows(const float *__restrict__ in,
                            float *__restrict__ out,
                            int rows, int cols)
{
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= rows * cols) return;
    const int r = idx / cols;
    out[idx] = in[r];
}
"""
    path = "native/kernels/unfold.cuh"
    assert _rules(path, source) == {"cuda.include", "cuda.kernel"}
    assert _layers(path, source) == {"kernel": 9, "vendor-path": 1, "portable": 1}


def test_nccl_exports_in_a_launch_script_are_vendor_path() -> None:
    # radixark/miles_diffusion flow_grpo/scripts/multi_node/sd3.sh: InfiniBand settings for
    # NCCL exported before a multi-node launch.
    source = b"""\
#!/bin/bash
export NCCL_IB_DISABLE=0
export NCCL_DEBUG=WARN
torchrun --nnodes=2 train.py --config base
"""
    path = "scripts/multi_node/run.sh"
    assert _rules(path, source) == {"env.cuda-variables"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 1}


def test_triton_scoring_kernel_body_is_kernel_and_wrapper_portable() -> None:
    # WeianMao/triattention triattention/vllm/core/kernels/triton_scoring.py: a @triton.jit
    # kernel and the Python wrapper that launches it.
    source = b"""\
import torch
import triton
import triton.language as tl


@triton.jit
def score_kernel(k_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    k = tl.load(k_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, k * k, mask=mask)


def score(k):
    out = torch.empty_like(k)
    score_kernel[(triton.cdiv(k.numel(), 128),)](k, out, k.numel(), BLOCK=128)
    return out
"""
    path = "pkg/kernels/scoring.py"
    assert _rules(path, source) == {"triton.jit"}
    assert _layers(path, source) == {"kernel": 7, "portable": 7}
