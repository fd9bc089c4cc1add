"""Cases for the engine-level misses the eighth audits left (issue 27, lane h34-misses).

sleeepyjack/warpcore (device lambdas with no parameter list), k2-fsa/k2 (K2_EVAL bodies whose
return type sits on its own line, and in headers that spell no __device__), gunrock/gunrock and
WilliamRo/CLipPYME. Each snippet is a small rewrite, in our own words,
of a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.census import Census
from tests.engine.test_ml_repo_cases import _layers


def _spans(path: str, source: bytes) -> list[tuple[str, int, int]]:
    return [(f.rule, f.start_line, f.end_line) for f in classify(path, source).findings]


# -- sleeepyjack/warpcore: `[=] DEVICEQUALIFIER {` lambdas handed to a launch ------------------


_WARPCORE_KEYS = b"""\
template<class key_t>
key_t * make_keys(const uint64_t n, const uint32_t multiplicity = 1)
{
    key_t * keys_d = nullptr;
    const uint64_t bytes = sizeof(key_t) * n;
    allocate(&keys_d, bytes);

    helpers::lambda_kernel
    <<<SDIV(n, 1024), 1024>>>
    ([=] DEVICEQUALIFIER
    {
        const uint64_t tid = blockDim.x * blockIdx.x + threadIdx.x;
        if(tid < n)
        {
            keys_d[tid] = (tid % (n / multiplicity)) + 1;
        }
    });

    check_errors();
    log_bytes(bytes);
    return keys_d;
}
"""


def test_warpcore_parameterless_device_lambda_is_the_kernel_not_its_host_function() -> None:
    # benchmarks/include/benchmark_common.cuh: the lambda has no parameter list, so its body
    # was not taken for a lambda's and the thread index claimed the whole host function
    # (24 of the file's kernel lines were host code). The launch statement and the lambda are
    # the kernel; the allocation and the checks around them are host code.
    spans = _spans("benchmarks/include/benchmark_common.cuh", _WARPCORE_KEYS)
    assert ("cuda.device-body", 8, 17) in spans
    layers = _layers("benchmarks/include/benchmark_common.cuh", _WARPCORE_KEYS)
    assert layers == {"kernel": 10, "portable": 10}


def test_array_initialisers_and_attributes_before_a_brace_are_no_lambdas() -> None:
    # A brace after `]` that opens no lambda's body: an array initialiser and an attribute
    # before a branch. The function around them (behind a macro the file does not define)
    # stays the body the thread index claims, from its declaration to its last brace.
    source = b"""\
INLINE_QUALIFIER int pick(const int *in)
{
    int table[4] {threadIdx.x, 1, 2, 3};
    if (in[0]) [[likely]] {
        return in[threadIdx.x] + table[0];
    }
    return table[1];
}
"""
    assert _spans("src/pick.cu", source) == [("cuda.device-body", 1, 8)]


# -- k2-fsa/k2: K2_EVAL bodies in more shapes ----------------------------------------------------


def test_k2_eval_with_the_return_type_on_its_own_line_is_device_code() -> None:
    # k2/csrc/nbest.cu: the parameter list ends the line, `-> void {` opens the next.
    source = b"""\
#include "k2/csrc/nbest.h"

void SetDistToBegin(ContextPtr c, int32_t num_elements, const int32_t *row_ids,
                    int32_t *dist) {
  K2_EVAL(
    c, num_elements, lambda_set_dist_to_begin, (int32_t idx01)
    -> void {
      int32_t idx0 = row_ids[idx01];
      dist[idx01] = idx01 - idx0 + 1;
    });
}
"""
    assert ("cuda.macro-lambda-body", 5, 10) in _spans("k2/csrc/nbest.cu", source)
    assert _layers("k2/csrc/nbest.cu", source) == {"kernel": 6, "portable": 4}


def test_k2_eval_in_a_header_without_device_qualifiers_is_device_code() -> None:
    # k2/csrc/algorithms.h: an inline helper calling K2_EVAL, included by .cu files; the
    # header spells no __device__, the macro adds it to the body it is handed.
    source = b"""\
#include "k2/csrc/array.h"

inline void SetOffsets(ContextPtr c, int32_t num, const int32_t *sizes,
                       int32_t *offsets) {
  K2_EVAL(c, num, lambda_set_offsets, (int32_t i) {
    offsets[i] = sizes[i] * 2;
  });
}
"""
    assert ("cuda.macro-lambda-body-header", 5, 7) in _spans("k2/csrc/algorithms.h", source)
    assert _layers("k2/csrc/algorithms.h", source) == {"kernel": 3, "portable": 4}


# -- gunrock/gunrock: HIP's API mapped back to CUDA, reached through <...> includes -------------

_GUNROCK_NAMES = [
    "Malloc", "Free", "Memcpy", "Memset", "SetDevice", "GetDevice",
    "DeviceSynchronize", "GetLastError", "StreamDestroy", "EventRecord",
]  # fmt: skip
_GUNROCK_COMPAT = "".join(
    ["#pragma once\n", "#if defined(__CUDACC__) && !defined(__HIP__)\n"]
    + [f"#define hip{name} cuda{name}\n" for name in _GUNROCK_NAMES]
    + ["typedef cudaStream_t hipStream_t;\n", "using hipError_t = cudaError_t;\n"]
    + ["#else\n", "#include <hip/hip_runtime.h>\n", "#endif\n"]
)
_GUNROCK_ARRAY = """\
#include <gunrock/compat/runtime_api.h>
#include <vector>

namespace gunrock {
__global__ void fill(int *out, int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}
}  // namespace gunrock
"""
_GUNROCK_APP = """\
#include <gunrock/container/array.hxx>

int main() {
  int *out = nullptr;
  hipMalloc(&out, 64 * sizeof(int));
  gunrock::fill<<<1, 64>>>(out, 1, 64);
  hipFree(out);
}
"""


def test_gunrock_hip_to_cuda_compat_header_carries_its_includers_to_amd() -> None:
    # include/gunrock/compat/runtime_api.h maps HIP's names to CUDA's for nvcc; every source
    # reaches it through `#include <gunrock/...>` (examples/ too, through -I include/). Built
    # by hipcc as well, the CUDA kernels of those files run on AMD: gunrock's NVIDIA-only lines
    # went from 1,904 of 19,982 code lines to 352.
    files = {
        "include/gunrock/compat/runtime_api.h": _GUNROCK_COMPAT,
        "include/gunrock/container/array.hxx": _GUNROCK_ARRAY,
        "examples/app/app.cu": _GUNROCK_APP,
    }
    reports = [classify(path, text.encode()) for path, text in files.items()]
    assert reports[0].shim
    assert reports[1].includes == ("gunrock/compat/runtime_api.h",)  # <vector> names no folder
    census = Census(reports)
    assert census.reaching_shim() == frozenset(files)
    fill = _layers("include/gunrock/container/array.hxx", _GUNROCK_ARRAY.encode())["kernel"]
    assert fill == 4
    assert census.carried_by_shims() >= fill
    # The same kernel file with no compat header in the tree stays NVIDIA-only.
    alone = Census([reports[1]])
    assert alone.reaching_shim() == frozenset()
    assert alone.locked_to_nvidia() >= fill


def test_a_header_defining_its_own_macros_as_cuda_calls_is_no_shim() -> None:
    # A CUDA project's error macros name CUDA calls but no HIP name: nothing maps HIP to CUDA.
    text = "".join(f"#define CHECK_{n} cudaGetLastError\n" for n in range(12))
    assert not classify("src/check.cuh", text.encode()).shim


# -- WilliamRo/CLipPYME: a branch on the vendor string a device reports ------------------------


def test_clippyme_branch_on_the_amd_vendor_string_is_an_amd_code_path() -> None:
    # clip/dip/ofindPara.py: the work-group size AMD's devices take, chosen by the vendor name
    # OpenCL reports. The file used the project's own clip.cl wrapper and counted as portable.
    source = b"""\
from clip import cl


def GetLocalSize(device, maxGroupSize, workItemDim):
    if device.vendor == 'Advanced Micro Devices, Inc.':
        localSize = maxGroupSize
    else:
        localSize = 1
    return [1, localSize]
"""
    report = classify("clip/dip/ofindPara.py", source)
    assert _spans("clip/dip/ofindPara.py", source) == [("opencl.amd-vendor-check", 5, 5)]
    assert report.ecosystems == {"opencl": 1}
    assert _layers("clip/dip/ofindPara.py", source) == {"vendor-path": 1, "portable": 6}


def test_vendor_names_inside_messages_are_no_vendor_checks() -> None:
    source = b"""\
def describe(device):
    print("Vendor: " + device.vendor)
    return "Tested on NVIDIA Corporation and Advanced Micro Devices, Inc. boards"
"""
    assert _layers("clip/cl/_device.py", source) == {"portable": 3}
