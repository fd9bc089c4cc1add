"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-n).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 364-370, all seven fetched and read:
crypticUXdesigner/ShaderNoice (a WebGL shader-noise editor), RobertJaro/SuNeRF (a PyTorch
NeRF of the solar corona), DrTimothyAldenDavis/SuiteSparse (sparse-matrix libraries with
CUDA back ends), ActiveInferenceInstitute/NoOrg (a TypeScript and Python agent framework),
zyd2001/ECE554-RayTracing-TeamKEVIN (a course's ray-tracing core in SystemVerilog, with its
own assembler and C# simulator), intel/intel-extension-for-tensorflow (Intel's XPU plug-in
for TensorFlow) and DVSProductions/Raytracer (a C# and C++ CPU ray tracer).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, and three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- zyd2001/ECE554-RayTracing-TeamKEVIN: a custom core's instruction table as .isa ----------


def test_custom_instruction_table_isa_is_not_gcn_assembly() -> None:
    # Software/Assembler/CP.isa and RT.isa: each instruction's mnemonic and operand kinds,
    # then its opcode bits and field widths, read by the course's own Python assembler. No
    # AMD GPU runs it; even its s_-prefixed mnemonics take no GCN registers.
    source = b"""\
addi r r i
0001 4 4 20
s_load_word r r i
101100 5 5 16
jmp l
0111 28
"""
    assert _rules("asm/core.isa", source) == set()
    assert _layers("asm/core.isa", source) == {"portable": 6}


def test_clrx_gcn_isa_still_is_amd_kernel_code() -> None:
    # The counterpart: CLRX source for gfx9 cards, directives and GCN registers.
    source = b"""\
.amdcl2
.gpu GFX900
.kernel scan
    .config
        .dims x
    .text
        s_load_dwordx2 s[0:1], s[4:5], 0x0
        v_add_u32 v1, vcc, s2, v0
        s_endpgm
"""
    assert _rules("isa/scan.isa", source) == {"hip.gcn-assembly-file"}
    assert _layers("isa/scan.isa", source) == {"kernel": 9}


# -- intel/intel-extension-for-tensorflow: cwise ops registered for GPU by macro -------------


def test_cwise_register_macro_for_gpu_is_vendor_path() -> None:
    # itex/core/kernels/gpu/cwise_op_isnan.cc and cwise_op_round.cc: the element-wise op is
    # registered on the GPU device through TensorFlow's REGISTERn helper, the same DEVICE_GPU
    # registration REGISTER_KERNEL_BUILDER spells out.
    source = b"""\
#include "kernels/common/cwise_ops_common.h"

namespace itex {
REGISTER3(UnaryOp, GPU, "Floor", functor::floor, float, Eigen::half,
          Eigen::bfloat16);
}  // namespace itex
"""
    assert _rules("kernels/gpu/cwise_op_floor.cc", source) == {"tensorflow.gpu-kernel-registration"}
    assert _layers("kernels/gpu/cwise_op_floor.cc", source) == {"vendor-path": 2, "portable": 3}


def test_cwise_register_macro_for_cpu_stays_portable() -> None:
    source = b"""\
#include "kernels/common/cwise_ops_common.h"

REGISTER2(UnaryOp, CPU, "Floor", functor::floor, float, double);
"""
    assert _rules("kernels/cpu/cwise_op_floor.cc", source) == set()


# -- RobertJaro/SuNeRF: verdicts already right -----------------------------------------------


def test_torch_device_string_with_cpu_fallback_is_vendor_path() -> None:
    # sunerf/evaluation/loader.py: the model loader picks "cuda" when present.
    source = b"""\
import torch

def pick(device=None):
    if device is None:
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return device
"""
    assert _rules("loader.py", source) == {"torch.device-string"}


# -- DrTimothyAldenDavis/SuiteSparse: AMD/ is the Approximate Minimum Degree ordering ---------


def test_plain_c_under_an_amd_folder_is_not_hip() -> None:
    # AMD/Source/amd_l1.c and its siblings: the int64 variant of each ordering step, made by
    # defining a switch and including the int32 source. AMD here names an algorithm, not the
    # GPU vendor; nothing in the file is device code.
    source = b"""\
#define LONG_INDEX
#include "order_step.c"
"""
    assert _rules("AMD/Source/order_l_step.c", source) == set()
    assert _layers("AMD/Source/order_l_step.c", source) == {"portable": 2}


def test_device_code_under_an_amd_folder_still_is_hip() -> None:
    source = b"""\
#include <hip/hip_runtime.h>
__global__ void zero(float* x) { x[threadIdx.x] = 0.f; }
"""
    assert "hip.kernel" in _rules("backends/amd/zero.cpp", source)


# -- intel/intel-extension-for-tensorflow: its own xpu_* plugin functions ---------------------


def test_own_xpu_function_definitions_are_not_kunlun_runtime() -> None:
    # itex/core/devices/xpu_device.cc: the StreamExecutor plugin's callbacks, defined under
    # xpu_ names (Intel calls its devices XPU too); Kunlunxin's runtime is not involved.
    source = b"""\
void xpu_memset(const Device* device, Stream stream, MemoryBase* location,
                uint8_t value, uint64_t size, Status* status) {
  FillBytes(device, stream, location, value, size);
}
"""
    assert _rules("devices/xpu_device.cc", source) == set()


def test_kunlun_runtime_call_still_is_vendor_path() -> None:
    source = b"""\
int Alloc(void** ptr, size_t n) {
  return xpu_malloc(ptr, n);
}
"""
    assert _rules("backends/xpu/alloc.cc", source) == {"kunlun.runtime"}


# -- intel/intel-extension-for-tensorflow: Intel's GPU driver repository and OpenCL driver ----


def test_intel_gpu_driver_repository_and_opencl_icd_are_vendor_path() -> None:
    # docker/itex-xpu.Dockerfile: Intel's graphics key and apt repository, then its OpenCL
    # driver installed beside Level Zero; an image for another vendor's GPU drops all three.
    source = b"""\
FROM ubuntu:22.04
RUN curl -fsSL https://repositories.intel.com/gpu/intel-graphics.key | gpg --dearmor -o /g.gpg
ARG OCL_VERSION
RUN apt-get update && apt-get install -y \\
    intel-opencl-icd=${OCL_VERSION} \\
    python3-pip
"""
    assert _rules("docker/xpu.Dockerfile", source) == {"build.level-zero"}
    assert _layers("docker/xpu.Dockerfile", source)["vendor-path"] == 2
