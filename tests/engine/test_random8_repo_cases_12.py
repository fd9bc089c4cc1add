"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h39-random-h).

The pool is ``/work/pool-h39.txt``, ordered with ``random.seed("h39-pool")``; this lane took
positions 121-135. Two could not be read: plotfi/tensara-kernels and ryanswann-amd/tritonBLAS
(no snapshot). Fifteen files of each remaining repository (putao520/gllm-kernels, ROCm/rocWMMA,
codeplaysoftware/syclacademy, salehjg/DGCNN-GPGPU, SamGinzburg/strix-halo-int4-gemms,
dannyHallo/ComputeRayTracingAndDenoising, ecoPrimals/barraCuda, shadygm/gaussian-splatting-cuda,
ROCm/hip-tests, williamqwu/sol-execbench-rocm, mivertowski/RustKernels, MadrMan/gpgpuraytrace,
Archetapp/MetalShaders) were sampled with ``random.Random("owner/name")`` over every file lockin
counts with code lines, and labelled before any fix, with the files lockin calls non-portable
(up to 20) and GPU-looking files it calls portable (up to 10), and three commits touching GPU
code per repository were judged against ``lockin diff``. Each snippet is a small rewrite, in our
own words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ecoPrimals/barraCuda: WGSL attributes named in printed advice ------------------------------


def test_workgroup_size_in_a_printed_hint_is_no_wgsl() -> None:
    # crates/barracuda/src/bin/bench_wgsize_nvk.rs: after the benchmark, println! lines tell
    # the reader which @workgroup_size(...) to try. Before, each was a line of WGSL kernel.
    source = b"""\
fn report(batch: u32) {
    println!("batch {batch}: every run uses wp32 = @workgroup_size(32,1,1).");
    println!("To compare, change @workgroup_size(32,1,1) to @workgroup_size(1,1,1) and rerun.");
}
"""
    assert _rules("crates/barracuda/src/bin/bench_wgsize.rs", source) == set()
    assert _layers("crates/barracuda/src/bin/bench_wgsize.rs", source) == {"portable": 4}


def test_wgsl_string_with_workgroup_size_then_fn_stays_kernel() -> None:
    # crates/barracuda/src/device/probe/probes.rs keeps probe shaders in Rust strings; a
    # shader whose attributes come workgroup size first is still WGSL.
    source = b"""\
const PROBE: &str = "
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@workgroup_size(1) @compute
fn probe(@builtin(global_invocation_id) id: vec3<u32>) {
    out[0] = 7.0;
}
";
"""
    assert _rules("src/device/probe/probes.rs", source) == {"wgsl.source-string"}
    assert _layers("src/device/probe/probes.rs", source)["kernel"] == 7


# -- SamGinzburg/strix-halo-int4-gemms: Triton's IR dumps shipped as kernels ---------------------


def test_ttgir_dump_is_a_triton_kernel() -> None:
    # kernels/triton/*.ttgir: TritonGPU IR laid out for gfx1151, shipped beside the .s it
    # becomes. Before, .ttgir was no language and its lines were not counted.
    source = b"""\
#blocked = #ttg.blocked<{sizePerThread = [1, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 8 : i32, ttg.target = "hip:gfx1151"} {
  tt.func public @scaled_gemm(%a: !tt.ptr<i8>, %c: !tt.ptr<bf16>, %m: i32) {
    %pid = tt.get_program_id x : i32
    %offs = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    tt.return
  }
}
"""
    path = "kernels/triton/gfx1151_int4_gemm_bm64_bn128.ttgir"
    assert _rules(path, source) == {"triton.ir-file"}
    assert _layers(path, source) == {"kernel": 8}


def test_llir_dump_for_amdgpu_is_a_hip_kernel() -> None:
    # kernels/triton/*.llir: the LLVM IR Triton hands to the AMDGPU back end.
    source = b"""\
; ModuleID = 'LLVMDialectModule'
define amdgpu_kernel void @scaled_gemm(ptr addrspace(1) %0, i32 %1) {
  ret void
}
"""
    path = "kernels/triton/gfx1151_int4_gemm_bm64_bn128.llir"
    assert _rules(path, source) == {"hip.llvm-ir-kernel"}
    assert _layers(path, source) == {"kernel": 3}


# -- checked right, and hard: pinned as they stand -----------------------------------------


def test_sycl_host_only_assert_guard_stays_portable() -> None:
    # codeplaysoftware/syclacademy Code_Exercises/helpers.hpp: an assert macro that prints on
    # the host and compiles to nothing in the device pass; no SYCL call, no kernel.
    source = b"""\
#ifndef __SYCL_DEVICE_ONLY__
#include <cstdio>
#define ACADEMY_ASSERT(cond) do { if (!(cond)) { std::fprintf(stderr, "failed\\n"); } } while (0)
#else
#define ACADEMY_ASSERT(cond) void(0)
#endif
"""
    assert _rules("Code_Exercises/helpers.hpp", source) == set()


def test_triton_kernel_with_docstring_counts_its_code() -> None:
    # williamqwu/sol-execbench-rocm artifacts/**/kernel.py: a @triton.jit row kernel with a long
    # docstring; the docstring is not kernel code, the body is.
    source = b'''\
import triton
import triton.language as tl


@triton.jit
def _residual_norm(X, R, Y, N: tl.constexpr, BLOCK: tl.constexpr):
    """One program per row.

    Every element is read once and written once.
    """
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * N + cols, mask=cols < N, other=0.0)
    r = tl.load(R + row * N + cols, mask=cols < N, other=0.0)
    tl.store(Y + row * N + cols, x + r, mask=cols < N)
'''
    assert _rules("packet/kernel.py", source) == {"triton.jit"}
    assert 7 <= _layers("packet/kernel.py", source)["kernel"] <= 8
