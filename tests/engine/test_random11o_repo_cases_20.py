"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-o).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 259-265. gpustack/gpustack-operator (position 263) had no
snapshot to fetch, so it was skipped and not replaced. The six read were
takuphilchan/pycuda_plus (a PyCUDA wrapper with CUDA C kernels in Python strings),
openproblems-bio/task_grn_inference (a gene-network benchmark, PyTorch on CUDA in a few
methods), pytorch/glow (a neural-network compiler with OpenCL, Habana and NNPI backends),
AdnanHoque/torch-spyre (PyTorch's out-of-tree backend for IBM's Spyre accelerator),
tensorflow/deepmath (theorem proving; no GPU code) and polaires/Banta_Lab_RFdiffusion (a
protein-design app whose backend runs on NVIDIA GPUs). Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, and three commits touching GPU code (drawn with
``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- AdnanHoque/torch-spyre: recorded tensors replayed by a test harness ---------------------


def test_recorded_tensor_device_in_op_trace_is_portable() -> None:
    # tests/configs/model_ops_tests/granite-3.3-8b-instruct.yaml: each op's inputs as captured
    # on cuda:0 (shape, stride, storage_offset, dtype, device); the harness swaps the device
    # for the one under test, so the recorded device pins nothing.
    source = b"""\
ops:
  include:
    - name: torch.mul
      sample_inputs_func:
        args:
          - tensor:
              shape: [1, 12, 256]
              stride: [3072, 256, 1]
              storage_offset: 0
              dtype: torch.bfloat16
              device: cuda:0
              init: rand
          - value: 4.0
"""
    assert _rules("tests/configs/ops/model.yaml", source) == set()
    assert _layers("tests/configs/ops/model.yaml", source) == {"portable": 13}


def test_run_config_device_cuda_still_pins_the_run() -> None:
    # The same key in a run config (no recorded tensor in the file) stays vendor-path.
    source = b"""\
model: granite-small
dtype: bfloat16
device: cuda:0
batch_size: 4
"""
    assert _rules("configs/run.yaml", source) == {"torch.device-flag"}
    assert _layers("configs/run.yaml", source) == {"vendor-path": 1, "portable": 3}


# -- polaires/Banta_Lab_RFdiffusion: a package name looked for in an error message ----------


def test_wheel_name_searched_in_lowered_message_is_no_pin() -> None:
    # backend/serverless/handler.py: a known NVML warning filtered out of a tool's error text;
    # the nvidia-smi query above it is what makes the file vendor-path.
    source = b"""\
import subprocess

def gpu_memory():
    cmd = ["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader"]
    return subprocess.check_output(cmd).decode()

def is_fatal(message):
    if "pynvml" in message.lower() and "not supported" in message.lower():
        return False
    return True
"""
    assert _rules("backend/handler.py", source) == {"cuda.tool-call"}
    assert _layers("backend/handler.py", source) == {"vendor-path": 1, "portable": 7}


def test_pynvml_pinned_in_a_requirement_list_stays_vendor_path() -> None:
    # The wheel named as a requirement is still a pin.
    source = b"""\
from setuptools import setup

setup(name="designer", install_requires=["numpy", "pynvml>=11.0"])
"""
    assert _rules("setup.py", source) == {"deps.cuda-wheel-python"}


# -- pytorch/glow: Habana's SynapseAI C API -------------------------------------------------


def test_synapse_device_and_graph_calls_are_vendor_path() -> None:
    # lib/Backends/Habana/HabanaDeviceManager.cpp and Habana.cpp: the Gaudi backend opens the
    # device and builds graph nodes naming Habana's TPC kernels through synapse.h.
    source = b"""\
#include "synapse.h"

void Backend::open() {
  check(synInitialize());
  synStatus st = synAcquireDevice(&device_, nullptr);
  (void)st;
}

void Backend::lowerTanh(Tensor &in, Tensor &out) {
  check(synCreateGenericNode(&in.get(), &out.get(), 1, 1, nullptr,
                             kernelFor("tanh", in.type()).c_str(),
                             in.name().c_str(), nullptr, nullptr));
}
"""
    assert _rules("lib/Backends/Gaudi/Backend.cpp", source) == {"gaudi.synapse-api"}
    assert _layers("lib/Backends/Gaudi/Backend.cpp", source) == {"vendor-path": 6, "portable": 5}


def test_backend_test_list_naming_habana_is_portable() -> None:
    # lib/Backends/Habana/tests/HabanaOperatorTest.cpp: the shared operator tests, with the
    # names this backend skips; no SynapseAI call.
    source = b"""\
#include "tests/unittests/BackendTestUtils.h"

std::set<std::string> glow::backendTestBlacklist = {
    "ConvolutionDepth10_Int8/0",
    "TanhConcatQuantized/0",
};
"""
    assert _layers("lib/Backends/Habana/tests/OperatorTest.cpp", source) == {"portable": 5}


# -- checked right before any fix ------------------------------------------------------------


def test_pycuda_kernel_dictionary_counts_kernel_bodies_only() -> None:
    # takuphilchan/pycuda_plus utils/prebuilt_kernels.py: CUDA C kernels kept as values of a
    # dict; the accessor's docstring after it is no kernel.
    source = b'''\
kernels = {
    "scale": """__global__ void scale(float *x, float s, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] *= s;
    }""",
}

def get_kernels():
    """
    The kernel sources by name.
    """
    return kernels
'''
    assert _rules("utils/kernels.py", source) == {"cuda.source-string"}
    layers = _layers("utils/kernels.py", source)
    assert set(layers) == {"kernel", "portable"}
    assert 3 <= layers["kernel"] <= 4


def test_pycuda_driver_wrapper_is_vendor_path() -> None:
    # takuphilchan/pycuda_plus core/async.py: a stream from PyCUDA's driver module.
    source = b"""\
import pycuda.driver as cuda

class Streams:
    def __init__(self, stream=None):
        self.stream = stream if stream else cuda.Stream()
"""
    assert "vendor-path" in _layers("core/streams.py", source)
    assert "kernel" not in _layers("core/streams.py", source)


def test_opencl_kernel_file_is_all_kernel() -> None:
    # pytorch/glow lib/Backends/OpenCL/kernels_specialized_no_local_mem_conv.cl.
    source = b"""\
__kernel void addK(__global float *dest, __global const float *lhs,
                   __global const float *rhs, unsigned n) {
  size_t i = get_global_id(0);
  if (i < n) {
    dest[i] = lhs[i] + rhs[i];
  }
}
"""
    assert _layers("lib/Backends/OpenCL/add.cl", source) == {"kernel": 7}


def test_tensorflow_cpu_op_registration_is_portable() -> None:
    # tensorflow/deepmath deepmath/guidance/jagged_ops.cc: kernels registered for the CPU.
    source = b"""\
#include "tensorflow/core/framework/op_kernel.h"

REGISTER_KERNEL_BUILDER(
    Name("JaggedMax").Device(tensorflow::DEVICE_CPU).TypeConstraint<float>("T"),
    JaggedMaxOp<float>);
"""
    assert _layers("deepmath/guidance/jagged_ops.cc", source) == {"portable": 4}
