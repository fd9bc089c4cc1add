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

from bot.engine.classify import classify
from bot.engine.delta import changed_lines, file_delta
from bot.engine.model import Layer
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


# -- Time-Coder/PyGPGPU: CUDA and OpenCL from Python through ctypes ----------------------------


def test_pygpgpu_opencl_through_ctypes_is_opencl_host_code() -> None:
    # pygpgpu/opencl/oop/buffer.py and platform.py: the OpenCL C API on a CDLL handle. Before,
    # both files were portable while their CUDA twins (CUDA.cuMemAlloc) were not.
    source = b"""\
from ctypes import pointer

from ..runtime import CL, cl_mem


class Buffer:
    def __init__(self, context, flags, size, host_ptr):
        error_code = cl_int(0)
        self.id: cl_mem = CL.clCreateBuffer(context.id, flags, size, host_ptr, pointer(error_code))

    def write(self, queue, host_ptr, size):
        CL.clEnqueueWriteBuffer(queue.id, self.id, False, 0, size, host_ptr, 0, None, None)
        CL.clFinish(queue.id)

    @staticmethod
    def _release_func():
        return CL.clReleaseMemObject
"""
    assert _rules("pygpgpu/opencl/oop/buffer.py", source) == {"opencl.python-ctypes-host"}
    assert _layers("pygpgpu/opencl/oop/buffer.py", source) == {"vendor-path": 4, "portable": 8}


def test_pygpgpu_signature_table_of_the_opencl_api_stays_portable() -> None:
    # pygpgpu/opencl/driver/clinfo.py: the API's names as keys of a table of argument types and
    # error texts; nothing is called.
    source = b"""\
class CLInfo:
    funcs = {
        "clGetPlatformIDs": {"args": ["cl_uint", "cl_platform_id*", "cl_uint*"]},
        "clGetDeviceInfo": {"errors": {-33: "device is not a valid device"}},
    }
"""
    assert _layers("pygpgpu/opencl/driver/clinfo.py", source) == {"portable": 5}


# -- DanecLacey/SmaxKernels: sparse kernels with CPU and CUDA back ends --------------------------


def test_smaxkernels_benchmark_registering_the_cuda_platform_is_vendor_path() -> None:
    # examples/benchmarks/smax_benchmarks/smax_scs_cuda_spmv_bench.cpp: the benchmark names no
    # CUDA call; the platform it registers its kernel with is the CUDA back end alone. Before,
    # this file and the ten demos, tests and solvers like it were portable.
    source = b"""\
int main(int argc, char *argv[]) {
    SMAX::Interface *smax = new SMAX::Interface();
    register_kernel<IT, VT>(smax, bench_name, SMAX::KernelType::SPMV,
                            SMAX::PlatformType::CUDA);
    smax->kernel(bench_name)->apply();
    return 0;
}
"""
    assert _rules("examples/benchmarks/smax_scs_cuda_spmv_bench.cpp", source) == {
        "cuda.backend-enum-choice"
    }
    assert _layers("examples/benchmarks/smax_scs_cuda_spmv_bench.cpp", source) == {
        "vendor-path": 2,
        "portable": 5,
    }
    solver = b"""\
void run() {
    constexpr SMAX::PlatformType Platform = SMAX::PlatformType::CUDA;
    jacobi<Platform>(A, x, b);
}
"""
    assert _layers("examples/applications/jacobi/jacobi.cpp", solver) == {
        "vendor-path": 1,
        "portable": 3,
    }


def test_smaxkernels_dispatch_over_platforms_stays_portable() -> None:
    # src/kernels/spmv.hpp and src/interface.cpp: a switch over every back end, a comparison,
    # and the CUDA back end's namespace choose nothing.
    source = b"""\
namespace SMAX::KERNELS::SPMV::CUDA {
void launch();
}
int dispatch(PlatformType platform, Args *args) {
    if (platform == PlatformType::CUDA)
        prepare(args);
    switch (platform) {
    case PlatformType::CPU: { return cpu_spmv(args); }
    case PlatformType::CUDA: { return cuda_spmv(args); }
    }
    const std::vector<Backend> all = {Backend::CPU, Backend::CUDA};
    return 0;
}
"""
    assert _layers("src/kernels/spmv.hpp", source) == {"portable": 13}


def test_smaxkernels_torch_device_type_stays_torch_rule() -> None:
    source = b"""\
void pick() {
    auto device = torch::Device(c10::DeviceType::CUDA);
}
"""
    assert _rules("csrc/pick.cpp", source) == {"torch.cpp-cuda"}


def test_smaxkernels_switching_a_demo_to_cuda_adds_vendor_path() -> None:
    # A demo moving its one kernel from the CPU to the CUDA back end adds a vendor-path line and
    # removes none: the gate fails it.
    before = """\
void demo() {
    register_kernel(smax, "spmv", SMAX::KernelType::SPMV,
                    SMAX::PlatformType::CPU);
}
"""
    after = before.replace("PlatformType::CPU", "PlatformType::CUDA")
    added, removed = changed_lines(before, after)
    path = "examples/demos/spmv_demo.cpp"
    change = file_delta(
        path,
        classify(path, before.encode()),
        classify(path, after.encode()),
        added,
        removed,
        status="modified",
        texts=(before, after),
    )
    assert change.added[Layer.VENDOR_PATH] == 1
    assert change.removed[Layer.VENDOR_PATH] == 0
