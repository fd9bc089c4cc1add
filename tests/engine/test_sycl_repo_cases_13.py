"""SYCL kernel spans as a porting engineer counts them (issue 27, kernel counts).

Method: lockin scanned oneapi-src/Velocity-Bench, triSYCL/triSYCL, oneapi-src/oneDPL and
UCL-oneAPI/CTA-oneAPI at their stored snapshots before and after each change; every file
whose kernel count moved was read, and twelve drawn with ``random.Random("h40-sycl")`` from
the files given kernel lines were counted by hand: the code lines of kernel lambdas, kernel
functions and their device-side helpers, not the host code launching them. Each snippet is
a small rewrite of the pattern seen, with a comment naming the file it stands for.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules


def test_launch_lines_of_small_kernels_are_host_code() -> None:
    # oneapi-src/Velocity-Bench easywave/SYCL/src/ewGpuNode.cpp: one submit per kernel, each
    # a lambda calling a device function. The kernel is the lambda (its parameter line
    # counts, as a CUDA kernel's signature does); `cgh.parallel_for<class K>(` and the
    # nd_range line are the launch. Before, 8 kernel lines; an engineer counts 6.
    source = b"""\
#include <sycl/sycl.hpp>
void step(sycl::queue& q, Data data, sycl::range<1> global, sycl::range<1> local) {
  q.submit([&](sycl::handler& cgh) {
    auto d = data;
    cgh.parallel_for<class runUpdate>(
        sycl::nd_range<1>(global, local),
        [=](sycl::nd_item<1> item) {
          update(d, item);
        });
  });
  q.submit([&](sycl::handler& cgh) {
    auto d = data;
    cgh.parallel_for<class runEdge>(sycl::nd_range<1>(global, local), [=](sycl::nd_item<1> item) {
      edge(d, item);
    });
  });
  q.wait_and_throw();
}
"""
    layers = _layers("easywave/SYCL/src/ewGpuNode.cpp", source)
    assert layers["kernel"] == 6
    assert "sycl.kernel" in _rules("easywave/SYCL/src/ewGpuNode.cpp", source)


def test_dpct_launch_with_a_range_over_many_lines_counts_the_lambda() -> None:
    # UCL-oneAPI/CTA-oneAPI testing_support/.../1049_partially_named_range.dp.cpp: a
    # SYCLomatic launch whose nd_range spreads over ten lines above the lambda. Before, the
    # whole statement (15 lines); the lambda is 6.
    source = b"""\
#include <sycl/sycl.hpp>
void sort(sycl::queue* stream, int* keys, int n, int threads) {
  stream->submit([&](sycl::handler& cgh) {
    auto n_ct1 = n;
    cgh.parallel_for(
        sycl::nd_range<3>(
            n *
                sycl::range<3>(
                    1, 1,
                    threads),
            sycl::range<3>(
                1, 1,
                threads)),
        [=](sycl::nd_item<3> item_ct1) {
          segmented_kernel(
              keys,
              n_ct1,
              item_ct1);
        });
  });
}
"""
    assert _layers("1049_partially_named_range.dp.cpp", source)["kernel"] == 6


def test_brace_initialised_init_captures_do_not_end_the_kernel() -> None:
    # triSYCL/triSYCL tests/dataflow/single_task_vector_add_drt_dataflow_func.cpp: the
    # capture list wraps accessors with `name = wrapper<T> { a }`. Before, the kernel ended
    # at the first `{ a }` (2 lines); it is the whole lambda, 11 code lines.
    source = b"""\
#include <CL/sycl.hpp>
using namespace cl::sycl;
void run(queue& q, buffer<int>& a, buffer<int>& b) {
  q.submit([&](handler& cgh) {
    auto a_a = a.get_access<access::mode::discard_write>(cgh);
    auto a_b = b.get_access<access::mode::read>(cgh);
    cgh.single_task<class add>([=,
                                d_a = drt::accessor<decltype(a_a)> { a_a },
                                d_b = drt::accessor<decltype(a_b)> { a_b }
                                ] {
      int in[64];
      int out[64];
      vendor::xilinx::dataflow([&] {
        read_input(in, d_b);
        write_output(out, d_a);
      });

    });
  });
}
"""
    assert _layers("tests/dataflow/vector_add_dataflow.cpp", source)["kernel"] == 11


def test_hierarchical_kernel_with_a_named_capture_is_a_kernel() -> None:
    # triSYCL/triSYCL tests/jacobi/jacobi2d-tile.cpp: `[=, &timer](sycl::group<2> group)`,
    # a capture list naming a variable. Before, not a kernel at all (the work-group lambda
    # and its two work-item loops, 52 lines of the file, were portable).
    source = b"""\
#include <CL/sycl.hpp>
void tile(sycl::queue& q, Timer& timer) {
  q.submit([&](sycl::handler& cgh) {
    cgh.parallel_for_work_group<class Compute>(sycl::nd_range<2> {
        sycl::range<2> {8, 8}, sycl::range<2> {4, 4}},
      [=, &timer](sycl::group<2> group) {
        float* local = new float[64];
        group.parallel_for_work_item([=, &local](sycl::h_item<2> it) {
          local[it.get_local_id(0)] = a[it.get_global_id()];
        });
        delete[] local;
      });
  });
}
"""
    assert _layers("tests/jacobi/jacobi2d-tile.cpp", source)["kernel"] == 7


def test_a_kernel_object_handed_to_single_task_holds_no_kernel_here() -> None:
    # triSYCL/triSYCL tests/SPIR/opencl_kernel_output_42.cpp: `cgh.single_task(k)` with `k`
    # a kernel built from an OpenCL program: no lambda, and no device code in this file.
    source = b"""\
#include <CL/sycl.hpp>
using namespace cl::sycl;
void run(queue& q, kernel& k) {
  buffer<int> output { 1 };
  q.submit([&] (handler &cgh) {
      cgh.set_args(output.get_access<access::mode::discard_write>(cgh));
      cgh.single_task(k);
    });
  auto a_output = output.get_access<access::mode::read>();
  check(a_output[0] == 42);
}
"""
    assert "kernel" not in _layers("tests/SPIR/opencl_kernel_output_42.cpp", source)


def test_a_runtime_forwarding_single_task_is_not_a_kernel() -> None:
    # triSYCL/triSYCL include/triSYCL/handler.hpp: the implementation's handler schedules a
    # task whose kernel object runs `single_task(t, queue)`: runtime code, no lambda.
    source = b"""\
namespace trisycl {
class handler {
  template <typename Kernel> void schedule(Kernel k) {
    task->schedule_kernel([=] {
        t->get_kernel().single_task(t, t->get_queue());
      });
  }
};
}
"""
    assert "kernel" not in _layers("include/triSYCL/handler.hpp", source)


def test_functions_a_kernel_lambda_calls_are_device_code() -> None:
    # oneapi-src/oneDPL test/xpu_api/utilities/meta/.../member_function_pointer.pass.cpp: the
    # single_task lambda calls kernel_test(), which calls a checker template, which calls
    # its implementation: all compiled for the device. Before, the one-line lambda alone
    # (1 line; an engineer counts 33 in the file, 24 here). main() launching it is host code.
    source = b"""\
#include <oneapi/dpl/type_traits>
#include "support/utils.h"

template <class T>
void
check_imp()
{
    static_assert(dpl::is_member_pointer<T>::value);
    static_assert(dpl::is_scalar<T>::value);
    static_assert(!dpl::is_reference<T>::value);
}

template <class T>
void
check()
{
    check_imp<T>();
    check_imp<const T>();
    check_imp<volatile T>();
}

struct Class
{
};

bool
kernel_test()
{
    check<void (Class::*)()>();
    check<void (Class::*)(int)>();
    return true;
}

int
main()
{
    sycl::queue q = TestUtils::get_test_queue();
    bool ret = false;
    {
        sycl::buffer<bool, 1> buf(&ret, sycl::range<1>{1});
        q.submit([&](sycl::handler& cgh) {
            auto acc = buf.get_access<sycl::access::mode::write>(cgh);
            cgh.single_task<class KernelTest>([=]() { acc[0] = kernel_test(); });
        });
    }
    return TestUtils::done();
}
"""
    layers = _layers("member_function_pointer.pass.cpp", source)
    assert layers["kernel"] == 24  # 8 + 8 + 7 lines of helpers, and the lambda's line


def test_a_kernel_lambdas_callees_leave_the_host_code_launching_it() -> None:
    # Velocity-Bench style launcher: the kernel calls a device function of the file and a
    # member of a struct of the file through `.` (both counted); the host function launching
    # the kernel, and the one it calls before the launch, stay host code.
    source = b"""\
#include <sycl/sycl.hpp>
float clamp01(float v) {
  return v < 0.f ? 0.f : (v > 1.f ? 1.f : v);
}
struct Params {
  float scale(float v) const { return v * factor; }
  float factor;
};
int block_count(int n) {
  return (n + 63) / 64;
}
void run(sycl::queue& q, float* x, int n, Params p) {
  int blocks = block_count(n);
  q.parallel_for(sycl::nd_range<1>(blocks * 64, 64), [=](sycl::nd_item<1> it) {
    int i = it.get_global_id(0);
    x[i] = clamp01(p.scale(x[i]));
  }).wait();
}
"""
    layers = _layers("src/launcher.cpp", source)
    assert layers["kernel"] == 8  # the lambda's 4 lines, clamp01's 3, Params::scale's line


def test_members_a_kernel_calls_through_an_object_are_device_code() -> None:
    # oneapi-src/oneDPL test/xpu_api/utilities/optional/.../op_arrow_const.pass.cpp: the
    # kernel calls `opt->test()` on optionals of the file's structs, whose test() members
    # run on the device. Before, the lambda alone.
    source = b"""\
#include <oneapi/dpl/optional>
struct X
{
    constexpr int
    test() const
    {
        return 3;
    }
};

void
kernel_test(sycl::queue& q, bool* ok)
{
    q.submit([&](sycl::handler& cgh) {
        cgh.single_task<class KernelTest>([=]() {
            constexpr dpl::optional<X> opt{};
            ok[0] = opt->test() == 3;
        });
    });
}
"""
    assert _layers("op_arrow_const.pass.cpp", source)["kernel"] == 9  # test(): 5, the lambda: 4


def test_the_launch_on_a_kernels_first_line_is_not_followed() -> None:
    # triSYCL/triSYCL tests/device_compiler/trivial.cpp: a stand-in handler whose
    # single_task runs the lambda. The `h.single_task(` written on the lambda's line calls
    # the runtime; the member the lambda calls is device code.
    source = b"""\
struct accessor {
  void op() const { }
};
struct handler {
  template <typename F>
  void single_task(F&& f) {
    f();
  }
};
int main() {
  handler h;
  accessor b;
  h.single_task([=] { b.op(); });
}
"""
    assert _layers("tests/device_compiler/trivial.cpp", source)["kernel"] == 2
