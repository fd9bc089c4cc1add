"""The kernel inventory names each hand-written kernel once, with its helpers."""

from __future__ import annotations

import textwrap

from bot.engine.classify import classify
from bot.engine.kernels import Kernel, inventory, kernel_rules
from bot.engine.registry import RULES


def kernels_of(path: str, code: str) -> list[Kernel]:
    text = textwrap.dedent(code)
    return inventory([(path, text, classify(path, text.encode()).findings)])


def test_cuda_kernel_with_helper_and_instantiations_is_one_kernel() -> None:
    found = kernels_of(
        "csrc/act.cu",
        """\
        #include <cuda_runtime.h>
        __device__ __forceinline__ float gelu(float x) {
          return 0.5f * x;
        }
        __device__ float unused(float x) { return x; }
        template <int N>
        __global__ void __launch_bounds__(256) scale(float* x, float a) {
          int i = blockIdx.x;
          x[i] = gelu(x[i]) * a;
        }
        template __global__ void scale<4>(float* x, float a);
        template __global__ void scale<8>(float* x, float a);
        """,
    )
    assert [(k.name, k.start_line, k.helpers, k.ecosystem, k.vendors) for k in found] == [
        ("scale", 6, ["gelu"], "cuda", ("nvidia",))
    ]
    # The definition's lines; the two explicit instantiations are the same kernel.
    assert (found[0].end_line, found[0].code_lines, found[0].appearances) == (10, 5, 3)


def test_triton_and_numba_kernels_are_named_after_their_function() -> None:
    triton = kernels_of(
        "k/add.py",
        """\
        import triton
        import triton.language as tl

        @triton.jit
        def add_kernel(x_ptr, n):
            pid = tl.program_id(0)
            tl.store(x_ptr + pid, 1)
        """,
    )
    assert [(k.name, k.ecosystem) for k in triton] == [("add_kernel", "triton")]
    assert "amd" in triton[0].vendors
    numba = kernels_of(
        "k/n.py",
        """\
        from numba import cuda

        @cuda.jit
        def axpy(a, x, y):
            i = cuda.grid(1)
            y[i] = a * x[i]
        """,
    )
    assert [k.name for k in numba] == ["axpy"]


def test_two_kernels_in_one_file_are_two_entries() -> None:
    found = kernels_of(
        "a.cu",
        """\
        __global__ void first(int* p) { p[0] = 1; }
        __global__ void second(int* p) { p[0] = 2; }
        """,
    )
    assert [(k.name, k.start_line, k.end_line) for k in found] == [
        ("first", 1, 1),
        ("second", 2, 2),
    ]


def test_every_inventory_row_names_a_rule_of_the_registry() -> None:
    assert set(kernel_rules()) <= set(RULES)
    assert {spec.role for spec in kernel_rules().values()} == {"kernel", "helper"}


def test_a_tilelang_kernel_is_named_by_its_jit_function() -> None:
    found = kernels_of(
        "ops/tilelang/add.py",
        """\
        import tilelang
        import tilelang.language as T

        @tilelang.jit(out_idx=[-1])
        def add_one(n, threads=128):
            @T.prim_func
            def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
                with T.Kernel(T.ceildiv(n, threads), threads=threads) as bx:
                    B[bx] = A[bx] + 1
            return main
        """,
    )
    assert [(k.name, k.start_line, k.end_line, k.ecosystem, k.vendors) for k in found] == [
        ("add_one", 4, 10, "tilelang", ("nvidia", "amd", "apple"))
    ]


def test_a_warp_kernel_lists_the_device_functions_it_calls() -> None:
    found = kernels_of(
        "sim/step.py",
        """\
        import warp as wp

        @wp.func
        def damp(v: wp.vec3):
            return v * 0.99

        @wp.kernel
        def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float):
            tid = wp.tid()
            x[tid] = x[tid] + damp(v[tid]) * dt
        """,
    )
    assert [(k.name, k.start_line, k.helpers, k.ecosystem, k.vendors) for k in found] == [
        ("integrate", 7, ["damp"], "warp", ("nvidia",))
    ]


def test_sycl_kernel_lambdas_are_named_by_the_launch_above_them() -> None:
    # The kernel is the lambda, from its own line: the name stands on the launch above it,
    # and two launches in one file are two kernels, not one named after the file.
    found = kernels_of(
        "src/step.cpp",
        """\
        #include <sycl/sycl.hpp>
        void step(sycl::queue& q, float* x, float* y, size_t n) {
          q.submit([&](sycl::handler& cgh) {
            cgh.parallel_for<class advance>(
                sycl::nd_range<1>(n, 64),
                [=](sycl::nd_item<1> it) {
                  x[it.get_global_id(0)] += 1.0f;
                });
          });
          q.submit([&](sycl::handler& cgh) {
            cgh.parallel_for<class reflect>(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
              y[it.get_global_id(0)] = -x[it.get_global_id(0)];
            });
          });
        }
        """,
    )
    assert [(k.name, k.start_line, k.end_line) for k in found] == [
        ("advance", 6, 8),
        ("reflect", 11, 13),
    ]


def test_functions_a_sycl_kernel_lambda_calls_are_its_helpers() -> None:
    # sycl.kernel claims the functions of the file its lambda calls: they are the kernel's
    # device helpers in the inventory, not kernels named after the file.
    found = kernels_of(
        "src/clamp.cpp",
        """\
        #include <sycl/sycl.hpp>
        template <typename T>
        T clamp01(T v) {
          return v < T(0) ? T(0) : (v > T(1) ? T(1) : v);
        }
        void run(sycl::queue& q, float* x, size_t n) {
          q.submit([&](sycl::handler& cgh) {
            cgh.parallel_for<class clamp>(sycl::range<1>(n), [=](sycl::item<1> i) {
              x[i] = clamp01(x[i]);
            });
          });
        }
        """,
    )
    assert [(k.name, k.start_line, k.helpers) for k in found] == [("clamp", 8, ["clamp01"])]
