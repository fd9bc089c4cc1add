"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h39-kernels).

The pool is ``/work/pool-h39.txt``, ordered with ``random.seed("h39-pool")``; this lane took
positions 61-76. Two could not be read: sztlink/turboquant-cuda-bench and
RuyiAI-Stack/triton-riscv (no snapshot). Fifteen files of each remaining repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable and GPU-looking files it calls portable. The lane's
measure is the kernel count: up to six files marked by a device-language extension, a device
built-in or lockin's kernel layer were drawn with ``random.Random("owner/name:kernels")``, and
their kernel lines counted by hand (code lines of kernels, device functions, their device-side
helpers and the device-only state they use). Each snippet is a small rewrite, in our own words,
of a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules


# -- cyew3/oneVPL-intel-gpu: Intel's media runtime, x86 atomics and C for Metal kernels ---------


def test_onevpl_x86_lock_prefixed_atomics_are_no_ptx() -> None:
    # _studio/shared/umc/core/vm/src/vm_interlocked_unix.c: `lock; xaddl` and `lock; cmpxchgl`
    # templates. Before, cuda.ptx-asm read `lock;` as a dotless PTX statement (`trap;`) and
    # gave the file 15 kernel lines.
    source = b"""\
#include "vm_interlocked.h"

unsigned int vm_interlocked_add32(volatile unsigned int *p, unsigned int v)
{
    asm volatile ("lock; xaddl %0,%1"
                  : "=r" (v), "=m" (*p)
                  : "0" (v), "m" (*p)
                  : "memory", "cc");
    return v;
}

unsigned int vm_interlocked_cas32(volatile unsigned int *p, unsigned int with, unsigned int cmp)
{
    unsigned int prev;
    asm volatile ("lock; cmpxchgl %1,%2"
                  : "=a" (prev)
                  : "r" (with), "m" (*p), "0" (cmp)
                  : "memory", "cc");
    return prev;
}
"""
    assert _layers("_studio/shared/umc/core/vm/src/vm_interlocked_unix.c", source) == {
        "portable": 18
    }


def test_onevpl_ptx_trap_still_counts() -> None:
    # The negative: PTX's dotless `trap;` is still inline PTX.
    source = b"""\
inline void fail() {
    asm volatile("trap;");
}
"""
    assert "cuda.ptx-asm" in _rules("fail.cuh", source)
