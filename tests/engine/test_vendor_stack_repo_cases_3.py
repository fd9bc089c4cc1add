"""Cases seen in the third audit round: the vendor stacks other than CUDA and the code that
targets them (PyTorch's XPU back end, Intel's extension for PyTorch, a SYCL implementation,
NVIDIA's and AMD's collectives libraries).

Each snippet is a small rewrite, in our own words, of a pattern found there; the repository is
named per test. They pin the verdict a porting engineer gives the file: its language, the layer
of its lines and the vendor they are locked to (Intel, AMD, NVIDIA or none).
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import FileReport, Layer
from bot.engine.registry import rule


def _vendors(report: FileReport) -> set[frozenset[str]]:
    return {rule(finding.rule).vendors for finding in report.findings}


# -- intel/torch-xpu-ops: SYCL kernels of PyTorch's XPU back end ---------------------------------


def test_torch_xpu_ops_device_helpers_in_a_sycl_folder_are_sycl_not_cuda() -> None:
    # src/ATen/native/xpu/sycl/MemoryAccessUtils.h: PyTorch's C10_DEVICE marks the helpers,
    # empty under the SYCL compiler; the header never spells sycl:: itself.
    source = b"""\
#pragma once
#include <c10/macros/Macros.h>
namespace at::native::memory {
template <int arg_index>
struct vectorized_load_helper {
  template <typename args_t, typename policy_t>
  static C10_DEVICE void apply(policy_t& self, args_t* args, int idx) {
    self.load_single_arg(args, idx);
  }
};
}
"""
    report = classify("src/ATen/native/xpu/sycl/MemoryAccessUtils.h", source)
    assert report.language == "SYCL"
    assert report.ecosystems == {"sycl": 4}  # template line and body: Intel, NVIDIA and AMD
    assert report.layers[Layer.KERNEL] == 4


def test_c10_device_helpers_outside_a_sycl_folder_stay_cuda() -> None:
    source = b"""\
#include <c10/macros/Macros.h>
static C10_DEVICE float twice(float x) {
  return 2.f * x;
}
"""
    report = classify("aten/src/ATen/native/cuda/MemoryAccess.cuh", source)
    assert report.ecosystems == {"cuda": 3}


def test_torch_xpu_ops_sycl_tla_flash_attention_is_intel_kernel_code() -> None:
    # src/ATen/native/transformers/xpu/flash_attn/sycltla/kernel/xe_tile_scheduler.h: CUTLASS
    # names, Intel's sycl-tla fork, Xe atoms; no sycl:: in the header.
    source = b"""\
#pragma once
#include <cutlass/cutlass.h>
namespace cutlass::fmha::kernel {
struct XeTileScheduler {
  int num_blocks;
  CUTLASS_DEVICE int block_index(int linear) const {
    return linear % num_blocks;
  }
  using Atom = cute::MMA_Atom<cute::XE_8x16x16_F32BF16BF16F32_TT>;
};
}
"""
    report = classify(
        "src/ATen/native/transformers/xpu/flash_attn/sycltla/kernel/xe_tile_scheduler.h", source
    )
    assert report.language == "SYCL"
    assert set(report.ecosystems) == {"sycl"}
    assert _vendors(report) == {frozenset({"intel"})}
    assert report.layers[Layer.KERNEL] >= 4


def test_cutlass_in_cuda_code_stays_nvidia() -> None:
    source = b"""\
#include <cutlass/cutlass.h>
struct Mainloop {
  CUTLASS_DEVICE void load(int* smem, int k) {
    smem[k] = k;
  }
  using Atom = cute::MMA_Atom<cute::SM80_16x8x16_F32F16F16F32_TN>;
};
"""
    report = classify("csrc/flash_attn/src/mainloop.h", source)
    assert set(report.ecosystems) == {"cutlass"}
    assert _vendors(report) == {frozenset({"nvidia"})}


# -- AdaptiveCpp/AdaptiveCpp: a SYCL implementation with CUDA, HIP and Level Zero back ends -----


def test_adaptivecpp_hipsycl_headers_are_not_hip() -> None:
    # include/hipSYCL/ is AdaptiveCpp's SYCL implementation under its old name.
    source = b"""\
#include "hipSYCL/runtime/error.hpp"
#include "hipSYCL/runtime/omp/omp_queue.hpp"
namespace hipSYCL {
namespace rt {
result submit(hipSYCL::rt::kernel_operation& op);
}
}
"""
    report = classify("include/hipSYCL/runtime/serialization/serialization.hpp", source)
    assert report.language != "HIP"
    assert report.ecosystems == {}


def test_adaptivecpp_hip_backend_folder_is_still_amd() -> None:
    source = b"""\
#include "hipSYCL/runtime/hip/hip_queue.hpp"
void wait(hipStream_t stream) {
  hipStreamSynchronize(stream);
}
"""
    report = classify("src/runtime/hip/hip_queue.cpp", source)
    assert report.language == "HIP"
    assert set(report.ecosystems) == {"hip"}
    assert report.line_rules[0] == ""  # the hipSYCL include


def test_adaptivecpp_level_zero_backend_is_intel() -> None:
    # src/runtime/ze/ze_queue.cpp: Level Zero command lists and handles.
    source = b"""\
#include <level_zero/ze_api.h>
#include "hipSYCL/runtime/ze/ze_queue.hpp"
result ze_queue::submit_barrier(ze_event_handle_t evt) {
  ze_result_t err = zeCommandListAppendBarrier(_command_list, evt, 0, nullptr);
  if (err != ZE_RESULT_SUCCESS) {
    return make_error(err);
  }
  return make_success();
}
"""
    report = classify("src/runtime/ze/ze_queue.cpp", source)
    assert set(report.ecosystems) == {"sycl"}
    assert _vendors(report) == {frozenset({"intel"})}
    assert report.layers[Layer.VENDOR_PATH] == 4  # the include, the handle, the call, the check


# -- intel/intel-extension-for-pytorch: the CPU side of IPEX ---------------------------------------


def test_ipex_cpu_side_modules_pin_nothing_to_intel_gpus() -> None:
    # intel_extension_for_pytorch/cpu/utils/_cpu_isa.py, cpu/tpp/fused_bert.py: IPEX's CPU code
    # importing its private and CPU-side modules.
    source = b"""\
import intel_extension_for_pytorch._isa_help as isa
import intel_extension_for_pytorch._C as torch_ipex_cpp
from intel_extension_for_pytorch.cpu.tpp.utils import blocked_layout


def check_avx512():
    return isa.check_isa_avx512()
"""
    assert classify("intel_extension_for_pytorch/cpu/utils/_cpu_isa.py", source).ecosystems == {}


def test_importing_ipex_to_enable_intel_gpus_is_intel() -> None:
    # DeepSpeed's op_builder/xpu/flash_attn.py: the import registers IPEX's XPU kernels.
    source = b"""\
def flash_attn(q, k, v):
    import intel_extension_for_pytorch  # noqa
    return sdpa(q, k, v)
"""
    report = classify("op_builder/xpu/flash_attn.py", source)
    assert report.ecosystems == {"xpu": 1}


def test_ipex_xpu_paths_are_intel() -> None:
    source = b"""\
from intel_extension_for_pytorch.xpu import amp
model = model.to("xpu")
"""
    report = classify("examples/gpu/train.py", source)
    assert set(report.ecosystems) == {"xpu"}
    assert report.layers[Layer.VENDOR_PATH] == 2


def test_ipex_cudnn_enable_parameter_is_not_cudnn() -> None:
    # csrc/cpu/aten/LayerNorm.h: PyTorch's layer_norm signature carries the flag everywhere.
    source = b"""\
#include <ATen/Tensor.h>
at::Tensor layer_norm(const at::Tensor& input, double eps, bool cudnn_enable);
"""
    assert classify("csrc/cpu/aten/LayerNorm.h", source).ecosystems == {}


def test_ipex_cpu_kernel_asserting_a_tensor_is_not_on_cuda_is_portable() -> None:
    # csrc/cpu/aten/kernels/NmsKrnl.cpp: the check guards the CPU kernel.
    source = b"""\
at::Tensor nms_cpu(const at::Tensor& dets, const at::Tensor& scores) {
  AT_ASSERTM(!dets.is_cuda(), "dets must be a CPU tensor");
  AT_ASSERTM(! scores.is_cuda(), "scores must be a CPU tensor");
  if (dets.is_cuda()) {
    return nms_cuda(dets, scores);
  }
  return dets;
}
"""
    report = classify("csrc/cpu/aten/kernels/NmsKrnl.cpp", source)
    assert [(f.rule, f.start_line) for f in report.findings] == [("torch.cpp-cuda", 4)]
