"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h39-random-i).

The pool is ``/work/pool-h39.txt``, ordered with ``random.seed("h39-pool")``; this lane took
positions 136-150. Three could not be read: harshithkantamneni/moe-kernels and
robcholz/barracuda (no snapshot) and tenstorrent/tt-metal (snapshot over 500 MB). Fifteen files
of each remaining repository were sampled with ``random.Random("owner/name")`` over every file
lockin counts, and labelled before any fix, with the files lockin calls non-portable (up to 20)
and GPU-looking files it calls portable (up to 10); three commits touching GPU code were drawn
with ``random.Random("owner/name:commits")`` and judged against ``lockin diff``. Each snippet is
a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- uxlfoundation/oneapi-construction-kit: UnitCL, the OpenCL conformance-style tests ---------


def test_oneapi_construction_kit_bare_clfinish_is_opencl_host_code() -> None:
    # source/cl/test/UnitCL/source/cl_khr_command_buffer/clEnqueueCommandBufferKHR.cpp: the fix
    # of commit f9defe8 adds one line, a wait on the queue. Before, clFinish( and clFlush( were
    # keywords of opencl.host-api that its pattern never matched, and the commit passed.
    source = b"""\
TEST_F(CommandBufferEnqueueTest, IncrementKernelTwiceDifferentQueues) {
  EnqueueFill(command_queue, buffer);
  clFinish(command_queue);
  clFlush(other_queue);
}
"""
    assert _rules("source/cl/test/UnitCL/source/enqueue_twice.cpp", source) == {"opencl.host-api"}
    assert _layers("source/cl/test/UnitCL/source/enqueue_twice.cpp", source) == {
        "vendor-path": 2,
        "portable": 3,
    }


def test_oneapi_construction_kit_clfinish_flag_is_not_a_call() -> None:
    source = b"""\
struct Options {
  bool clFinish = false;
  bool clFlush = true;
};
"""
    assert _layers("source/cl/options.hpp", source) == {"portable": 4}


def test_oneapi_construction_kit_spir_ir_test_stays_portable() -> None:
    # modules/compiler/vecz/test/lit/llvm/*.ll: the vectorizer's tests are SPIR kernels in LLVM
    # IR (spir_kernel, __mux_get_global_id), a cross-vendor IR: checked right, kept so.
    source = b"""\
target triple = "spir64-unknown-unknown"

define spir_kernel void @test(i32 addrspace(1)* %src, i32 addrspace(1)* %dst) {
entry:
  %call = tail call i64 @__mux_get_global_id(i32 0)
  ret void
}

declare i64 @__mux_get_global_id(i32)
"""
    assert _layers("modules/compiler/vecz/test/lit/llvm/memop_stride.ll", source) == {"portable": 7}
