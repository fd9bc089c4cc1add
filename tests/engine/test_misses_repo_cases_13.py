"""Cases for the engine-level misses earlier audits left (issue 27, lane h40-misses).

A vendor library's own sources read as its callers: ROCm/AMDMIGraphX's sources name
``migraphx::`` inside ``namespace migraphx {`` and fjnl/CHARM-SYCL, a SYCL implementation,
names ``sycl::`` inside the namespace its CHARM_SYCL_BEGIN_NAMESPACE macro opens. A file that
opens a library's namespace is that library; its calls of another vendor's library, its
kernels and its HIP runtime calls still count. Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/AMDMIGraphX: the library's own sources -------------------------------------------------

_OWN_PASS = b"""\
#include <migraphx/eliminate_identity.hpp>
#include <migraphx/instruction.hpp>
#include <migraphx/make_op.hpp>

namespace migraphx {
inline namespace MIGRAPHX_INLINE_NS {

void eliminate_identity::apply(module& m) const
{
    for(auto ins : iterator_for(m))
    {
        if(ins->name() == "identity")
            m.replace_instruction(ins, migraphx::make_op("identity"), ins->inputs());
    }
}

value to_value(const shape& s) { value v; migraphx_to_value(v, s); return v; }

} // namespace MIGRAPHX_INLINE_NS
} // namespace migraphx
"""


def test_migraphx_own_pass_naming_its_namespace_is_portable() -> None:
    # src/eliminate_identity.cpp, src/shape.cpp: before, its includes, its migraphx::
    # names and its own C-style helpers were hip.library lines.
    assert _layers("src/eliminate_identity.cpp", _OWN_PASS) == {"portable": 16}


_OWN_GPU = b"""\
#include <migraphx/gpu/context.hpp>
#include <migraphx/gpu/rocblas.hpp>
#include <hip/hip_runtime_api.h>

namespace migraphx {
inline namespace MIGRAPHX_INLINE_NS {
namespace gpu {

void* allocate_gpu(std::size_t n)
{
    void* result = nullptr;
    auto status  = hipMalloc(&result, n);
    if(status != hipSuccess)
        MIGRAPHX_THROW("gpu allocation failed");
    return result;
}

void gemm(context& ctx, const migraphx::shape& s, float* a, float* b, float* c)
{
    rocblas_sgemm(ctx.get_stream().get_rocblas(), rocblas_operation_none, rocblas_operation_none,
                  s.lens()[0], s.lens()[1], s.lens()[2], nullptr, a, 1, b, 1, nullptr, c, 1);
}

} // namespace gpu
} // namespace MIGRAPHX_INLINE_NS
} // namespace migraphx
"""


def test_migraphx_gpu_target_keeps_its_hip_runtime_and_rocblas_calls() -> None:
    # src/targets/gpu/hip.cpp and gemm_impl.cpp: the library's own GPU target calls the
    # HIP runtime and rocBLAS; only its own names are not lock-in.
    source = _OWN_GPU
    rules = _rules("src/targets/gpu/hip.cpp", source)
    assert "hip.runtime" in rules
    assert "hip.library" in rules
    layers = _layers("src/targets/gpu/hip.cpp", source)
    # The rocblas_sgemm call and the include of the library's rocBLAS wrapper (its path names
    # rocblas); not the include of its own context.hpp.
    assert layers["vendor-library"] == 3
    assert layers["vendor-path"] >= 3


def test_a_migraphx_caller_still_counts() -> None:
    # AMD's MIVisionX amd_migraphx node, a caller: it does not open the namespace.
    caller = b"""\
#include <migraphx/migraphx.hpp>
using namespace migraphx;
void compile(migraphx::program& prog) { prog.compile(migraphx::make_target("gpu")); }
"""
    assert _layers("node.cpp", caller) == {"vendor-library": 2, "portable": 1}


# -- fjnl/CHARM-SYCL: a SYCL implementation's own sources ------------------------------------------

_CHARM_QUEUE = b"""\
#include <charm/sycl.hpp>
#include "rt.hpp"

CHARM_SYCL_BEGIN_NAMESPACE
namespace runtime {

sycl::backend queue_impl::get_backend() const noexcept {
    return sycl::backend::charm;
}

void queue_impl::wait() {
    for (auto& ev : events_) {
        ev->wait();
    }
}

}  // namespace runtime
CHARM_SYCL_END_NAMESPACE
"""


def test_charm_sycl_own_source_is_portable() -> None:
    # lib/sycl/queue.cpp: the implementation's sycl:: types inside its own namespace.
    assert _layers("lib/sycl/queue.cpp", _CHARM_QUEUE) == {"portable": 14}


def test_a_sycl_program_specialising_a_trait_in_the_namespace_still_counts() -> None:
    program = b"""\
#include <sycl/sycl.hpp>
namespace sycl {
template <> struct is_device_copyable<Particle> : std::true_type {};
}
float* alloc(sycl::queue& q, size_t n) { return sycl::malloc_device<float>(n, q); }
"""
    # The include, the specialisation (sycl.device-copyable-trait) and the allocation.
    assert _layers("particles.cpp", program)["vendor-path"] == 3


# -- Triton IR saved under a .py name ---------------------------------------------------------

_TTGIR = b"""\
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func public @scale_kernel(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c512 = arith.constant 512 : i32
    %pid = tt.get_program_id x : i32
    %off = arith.muli %pid, %c512 : i32
    tt.return
  }
}
"""


def test_triton_gpu_ir_saved_as_py_is_triton_ir() -> None:
    # A TRITON_KERNEL_DUMP's .ttgir kept under a .py name (issue 27's audit): before, it read
    # as Python, its `#` lines comments and its tt.func no kernel.
    report = classify("dumps/scale_kernel.py", _TTGIR)
    assert report.language == "Triton IR"
    assert _rules("dumps/scale_kernel.py", _TTGIR) == {"triton.ir-file"}
    assert _layers("dumps/scale_kernel.py", _TTGIR) == {"kernel": 9}


def test_python_holding_triton_ir_in_strings_stays_python() -> None:
    # A compiler test writing IR to a file, and a docstring quoting it: strings, masked.
    source = b'''\
"""Checks the parser on IR such as:

    tt.func public @k(%arg0: !tt.ptr<f32>) {
"""


def test_invalid(tmp_path):
    path = tmp_path / "invalid.ttgir"
    path.write_text("module { tt.func public @broken( { }", encoding="utf-8")
    ir = """
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%arg0: !tt.ptr<f32>) {
    tt.return
  }
}
"""
    assert parse(ir)
'''
    assert classify("tests/test_parser.py", source).language == "Python"
