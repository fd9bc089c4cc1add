"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h39-random-a).

The pool is ``/work/pool-h39.txt``, ordered with ``random.seed("h39-pool")``; this lane took
positions 1-12. Four could not be read: AnshMittal1811/CUDAX365 and NVIDIA/cuda-quantum
(snapshots over 500 MB), paulhondola/gemm-bench (no snapshot) and GPGPUCourse/GPGPUTasks2025
(its default branch holds no file lockin counts: two Markdown files, slides and images).
Fifteen files of each remaining repository were sampled with ``random.Random("owner/name")``
over every file lockin counts with code lines, and labelled before any fix, with the files
lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to 10), and
three commits touching GPU code per repository were judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- spectrometerHBH/TIRx-kernels: Blackwell kernels written in TVM's TIRx -----------------------


def test_tirx_jit_kernel_and_inline_helpers_are_kernel_code() -> None:
    # flash_attention4.py as it stood in the sampled commits: `from tvm.script import tirx as
    # T`, the kernel under @T.jit and its device helpers under @T.inline. Before, only
    # @T.prim_func counted, so both commits adding one barrier to the kernel passed the gate.
    source = b"""\
import torch
from tvm.script import tirx as T


@T.inline
def rescale(acc, scale):
    for i in range(4):
        acc[i] = acc[i] * scale


@T.jit
def attention(Q: T.Buffer((128, 64), "float16"), O: T.Buffer((128, 64), "float16")):
    tid = T.thread_id()
    O[tid, 0] = Q[tid, 0]
    T.cuda.cta_sync()


def run(q):
    return attention(q, torch.empty_like(q))
"""
    assert _rules("tirx_kernels/flashattention/flash_attention4.py", source) == {"tvm.prim-func"}
    assert _layers("tirx_kernels/flashattention/flash_attention4.py", source) == {
        "kernel": 9,
        "portable": 4,
    }


def test_tirx_kern_decorator_spread_over_lines_names_the_sm_arch() -> None:
    # flashinfer/kda/flashkda_decode_t5_gram.py and 50 more: the repository's own decorator
    # over TIRx, `@K.kernel(warps=..., arch="sm_100a", grid=...)`, most often over several
    # lines. Before, these files were non-portable for their device="cuda" tensors alone and
    # their kernels (400-800 lines each) counted for nothing.
    source = b"""\
import torch
import tirx_kernels.kern as K


def build(spec):
    @K.kernel(
        warps=spec["threads"] // 32, arch="sm_100a", grid=(spec["heads"], spec["seqs"])
    )
    def decode(q: K.gptr[K.bf16], o: K.gptr[K.bf16]):
        tid = K.thread_id()
        o[tid] = q[tid]

    return decode


def prepare(n):
    return torch.empty(n, device="cuda")
"""
    rules = _rules("tirx_kernels/flashinfer/kda/flashkda_decode_t5_gram.py", source)
    assert "cuda.python-arch-kernel" in rules
    layers = _layers("tirx_kernels/flashinfer/kda/flashkda_decode_t5_gram.py", source)
    assert layers["kernel"] == 5  # from the arch= line to the body's end
    assert layers["vendor-path"] == 1


def test_kernel_decorator_without_an_sm_arch_is_not_claimed() -> None:
    # The negative: an architecture picked at run time, or another vendor's, is no NVIDIA
    # kernel by this rule.
    source = b"""\
import tirx_kernels.kern as K

ARCH = pick_arch()


@K.kernel(warps=4, arch=ARCH, grid=8)
def generic(x: K.gptr[K.f32]):
    x[K.thread_id()] = 0.0


@K.kernel(
    warps=4,
    arch="gfx950",
)
def amd(x: K.gptr[K.f32]):
    x[K.thread_id()] = 1.0
"""
    assert "cuda.python-arch-kernel" not in _rules("kernels/generic.py", source)


# -- ROCm/rocALUTION: sparse solvers with one HIP back end -----------------------------------------


def test_rocalution_support_hip_switch_is_the_hip_path() -> None:
    # src/base/backend_manager.cpp: every call into the HIP back end sits under the build's
    # SUPPORT_HIP switch; the #ifndef side is the host fallback. Before, the file was portable.
    source = b"""\
#include "backend_manager.hpp"
#ifdef SUPPORT_HIP
#include "hip/backend_hip.hpp"
#endif

void init_rocalution(int rank, int dev_per_node)
{
#ifdef SUPPORT_HIP
    set_device_rocalution(rank % dev_per_node);
    accelerator = rocalution_init_hip();
#else
    accelerator = false;
#endif
}
"""
    assert _rules("src/base/backend_manager.cpp", source) == {"hip.platform-guard"}
    assert _layers("src/base/backend_manager.cpp", source) == {"vendor-path": 6, "portable": 7}


def test_rocalution_rocsparseio_file_io_is_portable() -> None:
    # src/utils/rocsparseio.h and its callers (host_io.cpp, local_matrix.cpp): rocsparseio
    # writes and reads sparse matrices to files with the C library. Before, every
    # rocsparseio_ name read as a rocSPARSE call: 381 vendor-library lines in the header alone.
    source = b"""\
#include <stdio.h>
#include "../utils/rocsparseio.h"

bool read_matrix(const char* filename)
{
    rocsparseio_handle handle;
    rocsparseio_status status = rocsparseio_open(&handle, rocsparseio_rwmode_read, filename);
    return status == rocsparseio_status_success;
}
"""
    assert _layers("src/base/host/host_io.cpp", source) == {"portable": 8}


def test_rocalution_hip_folder_header_of_declarations_is_portable() -> None:
    # src/base/hip/hip_matrix_mcsr.hpp (checked right): in the HIP folder, yet only the
    # class's declarations, no HIP call or kernel.
    source = b"""\
#include "../base_matrix.hpp"
namespace rocalution
{
    template <typename ValueType>
    class HIPAcceleratorMatrixMCSR : public HIPAcceleratorMatrix<ValueType>
    {
    public:
        virtual void CopyFromHost(const HostMatrix<ValueType>& src);
        virtual void Apply(const BaseVector<ValueType>& in, BaseVector<ValueType>* out) const;
    };
}
"""
    report = classify("src/base/hip/hip_matrix_mcsr.hpp", source)
    assert report.language == "HIP"
    assert _layers("src/base/hip/hip_matrix_mcsr.hpp", source) == {"portable": 11}


# -- iteathen/CUDA-JS: the CUDA driver and NVRTC from Node.js through node:ffi ---------------------


def test_cuda_js_driver_calls_through_node_ffi_are_vendor_path() -> None:
    # experiments/exp-012/src/driver-worker.mjs and the backends' windows-native.mjs: the
    # driver's entry points called by their C names on the object node:ffi returns. Before,
    # the files were portable: only the names of the libraries loaded counted.
    source = b"""\
import ffi from 'node:ffi';

const SYMBOLS = Object.freeze(['cuInit', 'cuDeviceGet', 'cuCtxCreate_v4']);

export function open(path, definitions) {
  const { functions } = ffi.dlopen(path, definitions);
  const device = Buffer.alloc(4);
  check('cuInit', functions.cuInit(0));
  check('cuDeviceGet', functions.cuDeviceGet(device, 0));
  return functions;
}
"""
    assert _rules("experiments/exp-012/src/driver-worker.mjs", source) == {
        "cuda.managed-runtime-call"
    }
    assert _layers("experiments/exp-012/src/driver-worker.mjs", source) == {
        "vendor-path": 2,
        "portable": 7,
    }


def test_cuda_js_windows_nvidia_smi_exe_is_a_tool_call() -> None:
    # conformance/hardware/hyperv-readiness.mjs: counts the GPUs with nvidia-smi.exe -L.
    source = b"""\
import { spawnSync } from 'node:child_process';

function visibleGpuCount(root) {
  const result = spawnSync('nvidia-smi.exe', ['-L'], { cwd: root, encoding: 'utf8' });
  return result.stdout.split('\\n').filter((line) => line.startsWith('GPU ')).length;
}
"""
    assert _rules("conformance/hardware/hyperv-readiness.mjs", source) == {"cuda.tool-call"}


# -- KhronosGroup/SYCL-CTS: the SYCL 2020 conformance suite ---------------------------------------


def test_sycl_cts_cpp_in_template_is_a_sycl_source() -> None:
    # tests/local_accessor/local_accessor_api.cpp.in (and 42 more): C++ sources CMake's
    # configure_file() fills in for each type. Before, .cpp.in read as Autoconf and counted no
    # SYCL line.
    source = b"""\
#include "../common/common.h"
#cmakedefine CTS_TYPE @CTS_TYPE@

TEST_CASE("local_accessor api", "[accessor]") {
  auto queue = sycl_cts::util::get_cts_object::queue();
  if (!queue.get_device().has(sycl::aspect::fp64)) {
    SKIP("Device does not support double precision floating point operations.");
  }
  run_local_api_for_type<CTS_TYPE>{}();
}
"""
    report = classify("tests/local_accessor/local_accessor_api.cpp.in", source)
    assert report.language == "SYCL"
    assert _rules("tests/local_accessor/local_accessor_api.cpp.in", source) == {"sycl.runtime"}


def test_sycl_cts_test_calling_only_suite_helpers_is_portable() -> None:
    # tests/extension/oneapi_non_uniform_groups/group_of.cpp (checked right): the test case
    # hands types to the suite's templates; no SYCL object is named here.
    source = b"""\
#include "group_of.h"

namespace non_uniform_groups::tests {
static const auto wide_types =
    named_type_pack<int32_t, uint32_t, int64_t, float>::generate("int32_t", "uint32_t",
                                                                  "int64_t", "float");

TEMPLATE_LIST_TEST_CASE("joint of bool functions", "[group_func]", GroupPackTypes) {
  for_all_combinations<joint_of_group_test>(TestType{}, wide_types);
}
}  // namespace non_uniform_groups::tests
"""
    assert _layers("tests/extension/oneapi_non_uniform_groups/group_of.cpp", source) == {
        "portable": 9
    }


# -- tomography/tomocupy: CuPy around CUDA C extensions built with SWIG -------------------------


def test_tomocupy_wrapper_of_its_own_cuda_extension_is_portable() -> None:
    # src/tomocupy/reconstruction/lamfourierrec.py (checked right): it hands array and stream
    # pointers to the project's own compiled modules; the CUDA lives in src/cuda/*.cu, and the
    # sibling files that import cupy are the non-portable ones.
    source = b"""\
from tomocupy import cfunc_usfft1d
from tomocupy import cfunc_fft2d


class LamFourierRec:
    def __init__(self, n0, n1, n2, deth):
        self.cl_usfft1d = cfunc_usfft1d.cfunc_usfft1d(n0, n1, n2, deth)
        self.cl_fft2d = cfunc_fft2d.cfunc_fft2d(n0, n2, deth)

    def usfft1d_adj(self, out, inp, phi, stream):
        self.cl_usfft1d.adj(out.data.ptr, inp.data.ptr, phi, stream.ptr)
"""
    assert _layers("src/tomocupy/reconstruction/lamfourierrec.py", source) == {"portable": 8}
