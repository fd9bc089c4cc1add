"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-i).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 329-335. Two had no snapshot and were skipped, not
replaced: cmdaltctr/llamaindex-rag-mcp (333) and llmvault/llmvault (335). Five were read:
DanqiZhao21/ReconSparse_base (a driving-policy RL trainer over a Gaussian-splatting
simulator; two PDFs of 4 MiB and more are absent from the snapshot), nicehash/NiceHashMiner
(a .NET mining-rig manager that detects CUDA and OpenCL devices through helper programs),
zhuxuejie8/triton-ascend (a Triton compiler fork with a Huawei Ascend back end),
kkirchheim/pytorch-ood (a PyTorch out-of-distribution detection library) and
gabemgem/PyCudaHLL (HyperLogLog on CuPy raw kernels; three text corpora of 4 MiB and more
are absent). Fifteen files of each repository (eight for PyCudaHLL, which counts no more)
were sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- zhuxuejie8/triton-ascend: a docs table of API constraints is no generated kernel ----------


def test_constraint_sentences_naming_tl_ops_are_portable() -> None:
    # docs/zh/python-api/_ascend_constraints.py: a dict of sentences shown beside each API
    # page ("must be tl.constexpr", "requires ... tl.load"); no kernel is written anywhere.
    source = b"""\
LIMITS = {
    "tl.arange": {
        "notes": [
            "Both ends must be tl.constexpr integers here.",
            "Loading with tl.load requires an aligned block when reversed.",
            "``cache``: not accepted (upstream tl.store exposes no such keyword).",
            "int64 tensors as tl.dot inputs do not work \\
                on the older chips and cannot be cast there.",
        ],
    },
}


def notes_for(op):
    return LIMITS.get(op, {}).get("notes", [])
"""
    assert _rules("docs/api/_limits.py", source) == set()
    assert _layers("docs/api/_limits.py", source) == {"portable": 13}


def test_generated_kernel_line_with_a_modal_comment_stays_kernel() -> None:
    # The same rule still reads a generator's line whose trailing comment says "should".
    source = b"""\
def write_row_kernel(code):
    code.writeline("@triton.jit")
    code.writeline("def row_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):")
    code.writeline("    row = tl.program_id(0)  # a program should own one row")
    code.writeline("    v = tl.load(x_ptr + row * n + tl.arange(0, BLOCK))")
    code.writeline("    tl.store(out_ptr + row, tl.sum(v, axis=0))")
    return code
"""
    assert _rules("codegen/row_sum.py", source) == {"triton.generated-source"}
    assert _layers("codegen/row_sum.py", source) == {"kernel": 7}


def test_triton_test_kernels_are_kernel_code() -> None:
    # python/triton_kernels/tests/test_specialize.py: two jitted functions, the host test
    # around them portable (already right before this lane).
    source = b"""\
import triton
import triton.language as tl


@triton.jit
def passthrough(x):
    return x


@triton.jit
def fill_one(o, fn: tl.constexpr):
    c = fn(1.0)
    tl.store(o, c)


def launch(out):
    fill_one[(1,)](out, passthrough)
"""
    assert _rules("tests/test_fill.py", source) == {"triton.jit"}
    assert _layers("tests/test_fill.py", source) == {"kernel": 7, "portable": 4}


# -- nicehash/NiceHashMiner: records parsed from an OpenCL device helper's JSON ----------------


def test_opencl_detection_model_namespace_is_portable() -> None:
    # src/NHM.DeviceDetection/OpenCL/Models/OpenCLDeviceDetectionResult.cs: a record of what
    # a helper program printed; no OpenCL call, nothing to port.
    source = b"""\
using System.Collections.Generic;

namespace Rig.Probe.OpenCL.Models
{
    internal class ProbeResult
    {
        public List<string> Platforms { get; set; }
        public string ErrorString { get; set; }
        public int Status { get; set; }
    }
}
"""
    assert _rules("src/Rig.Probe/OpenCL/Models/ProbeResult.cs", source) == set()
    assert _layers("src/Rig.Probe/OpenCL/Models/ProbeResult.cs", source) == {"portable": 10}


def test_opencl_backend_namespace_is_still_vendor_path() -> None:
    # The rule still reads a GPU compiler's OpenCL back end module whole (ILGPU-like).
    source = b"""\
namespace Jit.Runtime.OpenCL
{
    public sealed class ClQueue
    {
        internal System.IntPtr handle;
    }
}
"""
    assert _rules("src/Jit/Runtime/OpenCL/ClQueue.cs", source) == {"opencl.managed-backend"}
    assert _layers("src/Jit/Runtime/OpenCL/ClQueue.cs", source) == {"vendor-path": 7}


# -- gabemgem/PyCudaHLL: CuPy raw and elementwise kernels (already right) -----------------------


def test_cupy_raw_kernel_string_is_kernel() -> None:
    # pycudahll/CudaHLL.py: a cp.RawKernel holding CUDA C, launched with a grid and block.
    source = b"""\
import cupy as cp

bucket_max = cp.RawKernel(r'''
extern "C" __global__
void bucket_max(const unsigned char* v, unsigned char* out, unsigned int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) {
        out[i] = v[i] > out[i] ? v[i] : out[i];
    }
}
''', 'bucket_max')


def run(v, out, blocks, threads):
    bucket_max((blocks,), (threads,), (v, out, v.size))
"""
    layers = _layers("pkg/hll.py", source)
    assert "cupy.raw-kernel" in _rules("pkg/hll.py", source)
    assert layers["kernel"] >= 7


# -- DanqiZhao21/ReconSparse_base: device choices in configs and tools (already right) ---------


def test_dataset_config_preloading_on_cuda_is_vendor_path() -> None:
    # reconsimulator/render/configs/datasets/kitti/1cams.yaml: the cache device named cuda.
    source = b"""\
data:
  cameras: [0]
  preload: true
  preload_device: cuda # cpu or cuda
  white_background: false
"""
    assert _rules("configs/datasets/one_cam.yaml", source) == {"torch.device-flag"}
    assert _layers("configs/datasets/one_cam.yaml", source) == {"vendor-path": 1, "portable": 4}


def test_nvidia_smi_query_in_oom_report_is_vendor_path() -> None:
    # framework/runner/logging.py: on an out-of-memory error, list the compute processes
    # nvidia-smi reports.
    source = b"""\
import subprocess


def compute_apps():
    proc = subprocess.run(
        ["nvidia-smi", "--query-compute-apps=pid,used_memory", "--format=csv,noheader"],
        capture_output=True,
        text=True,
    )
    return proc.stdout.splitlines()
"""
    assert "cuda.tool-call" in _rules("runner/oom_report.py", source)
    assert _layers("runner/oom_report.py", source)["vendor-path"] >= 1
