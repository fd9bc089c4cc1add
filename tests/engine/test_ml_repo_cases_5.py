"""Cases from a fifth audit of ML repositories the engine had not read (issue 27).

open-mmlab/mmcv keeps one op set per accelerator (CUDA, MUSA, Cambricon MLU, Ascend NPU, MPS);
vllm-project/vllm-ascend is Ascend C kernels and CANN operator host code. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say, and the ecosystem
says whose hardware the lines are locked to: none of these is NVIDIA's.
"""

from __future__ import annotations

from bot.engine import ECOSYSTEMS, classify
from tests.engine.test_ml_repo_cases import _layers


def test_vendor_ecosystems_of_the_plug_in_accelerators() -> None:
    assert ECOSYSTEMS["musa"].vendors == {"moorethreads"}
    assert ECOSYSTEMS["mlu"].vendors == {"cambricon"}
    assert ECOSYSTEMS["ascend"].vendors == {"huawei"}


# -- open-mmlab/mmcv: MUSA (Moore Threads) -------------------------------------------------------


def test_mmcv_musa_kernel_header_is_musa_kernel_code() -> None:
    # mmcv/ops/csrc/common/musa/*_musa_kernel.muh: the CUDA kernels renamed for mcc.
    source = b"""\
#ifndef BALL_QUERY_MUSA_KERNEL_MUH
#define BALL_QUERY_MUSA_KERNEL_MUH
#include "pytorch_musa_helper.hpp"

template <typename T>
__global__ void ball_query_forward_musa_kernel(int b, int m, const T* xyz, int* idx) {
  int bs_idx = blockIdx.y;
  MUSA_1D_KERNEL_LOOP(pt_idx, m) {
    if (bs_idx >= b) return;
    idx[bs_idx * m + pt_idx] = static_cast<int>(xyz[pt_idx]);
  }
}
#endif
"""
    path = "mmcv/ops/csrc/common/musa/ball_query_musa_kernel.muh"
    report = classify(path, source)
    assert report.language == "MUSA"
    assert report.ecosystems == {"musa": 8}
    assert _layers(path, source) == {"kernel": 8, "portable": 4}


def test_mmcv_musa_launcher_is_musa_host_code() -> None:
    # mmcv/ops/csrc/pytorch/musa/*_musa.mu: guard, stream, <<<>>> launch and error check.
    source = b"""\
#include "ball_query_musa_kernel.muh"
#include "pytorch_musa_helper.hpp"

void BallQueryForwardMUSAKernelLauncher(int b, int m, const Tensor xyz, Tensor idx) {
  c10::musa::MUSAGuard device_guard(xyz.device());
  musaStream_t stream = c10::musa::getCurrentMUSAStream();
  dim3 blocks(GET_BLOCKS(m, THREADS_PER_BLOCK), b);
  ball_query_forward_musa_kernel<float>
      <<<blocks, THREADS_PER_BLOCK, 0, stream>>>(b, m, xyz.data_ptr<float>(),
                                                 idx.data_ptr<int>());
  AT_MUSA_CHECK(musaGetLastError());
}
"""
    path = "mmcv/ops/csrc/pytorch/musa/ball_query_musa.mu"
    report = classify(path, source)
    assert report.language == "MUSA"
    assert set(report.ecosystems) == {"musa"}
    assert _layers(path, source) == {"vendor-path": 7, "portable": 4}


def test_mmcv_musa_helper_header_is_musa_not_cuda() -> None:
    # mmcv/ops/csrc/common/musa/common_musa_helper.hpp: <musa.h> and __device__ helpers under a
    # C++ extension; its CUDA twin (common/cuda/common_cuda_helper.hpp) stays CUDA's.
    source = b"""\
#include <musa.h>

#define THREADS_PER_BLOCK 512

template <typename T>
__device__ T bilinear_interpolate(const T* input, int width, T y, T x) {
  int y_low = (int)y;
  int x_low = (int)x;
  return input[y_low * width + x_low];
}
"""
    report = classify("mmcv/ops/csrc/common/musa/common_musa_helper.hpp", source)
    assert report.language == "MUSA"
    assert report.ecosystems == {"musa": 7}
    cuda = source.replace(b"<musa.h>", b"<cuda.h>")
    assert set(classify("mmcv/ops/csrc/common/cuda/common_cuda_helper.hpp", cuda).ecosystems) == {
        "cuda"
    }


def test_mmcv_helper_switching_on_its_musa_build_names_the_musa_path() -> None:
    # mmcv/ops/csrc/common/pytorch_cuda_helper.hpp: one header for both builds, the MUSA
    # includes under MMCV_WITH_MUSA.
    source = b"""\
#include <ATen/ATen.h>
#ifdef MMCV_WITH_MUSA
#include "common_musa_helper.hpp"
#include "torch_musa/csrc/core/MUSAGuard.h"
#else
#include <c10/cuda/CUDAGuard.h>
#include "common_cuda_helper.hpp"
#endif
using at::Tensor;
"""
    report = classify("mmcv/ops/csrc/common/pytorch_cuda_helper.hpp", source)
    assert report.line_rules[1:4] == ["musa.platform-guard"] * 3
    assert report.ecosystems["musa"] == 3


# -- open-mmlab/mmcv: Cambricon MLU ---------------------------------------------------------------


def test_mmcv_bang_c_kernel_file_is_cambricon_kernel_code() -> None:
    # mmcv/ops/csrc/common/mlu/*_mlu_kernel.mlu: NRAM buffers, __mlu_func__/__mlu_global__
    # functions with __bang_* intrinsics, and the host launcher at the end of the file.
    source = b"""\
#include "common_mlu_helper.hpp"

__nram__ char nram_buffer[MAX_NRAM_SIZE];

template <typename T>
__mlu_func__ void clearOutput(T *nram_out, int n) {
  __bang_write_value((T *)nram_out, n, (T)0);
}

__mlu_global__ void MLUKernelRoiPool(cnrtDataType_t data_type, void *output, int n) {
  clearOutput((float *)nram_buffer, n);
  __memcpy(output, nram_buffer, n * sizeof(float), NRAM2GDRAM);
}

void KernelRoiPool(cnrtDim3_t k_dim, cnrtFunctionType_t k_type, cnrtQueue_t queue,
                   void *output, int n) {
  MLUKernelRoiPool<<<k_dim, k_type, queue>>>(CNRT_FLOAT32, output, n);
}
"""
    path = "mmcv/ops/csrc/common/mlu/roi_pool_mlu_kernel.mlu"
    report = classify(path, source)
    assert report.language == "BANG C"
    assert set(report.ecosystems) == {"mlu"}
    assert _layers(path, source) == {"kernel": 9, "vendor-path": 3, "portable": 2}


def test_mmcv_mlu_host_code_calls_cambricon_libraries() -> None:
    # mmcv/ops/csrc/pytorch/mlu/*_mlu.cpp: torch_mlu tensors handed to MLU-OPS, then the op
    # registered under the MLU key.
    source = b"""\
#include "mlu_common_helper.h"

void ball_query_forward_mlu(int nsample, const Tensor xyz, Tensor idx) {
  auto xyz_contiguous = torch_mlu::cnnl::ops::cnnl_contiguous(xyz, xyz.suggest_memory_format());
  MluOpTensorDescriptor xyz_desc, idx_desc;
  xyz_desc.set(xyz_contiguous);
  auto xyz_impl = torch_mlu::getMluTensorImpl(xyz_contiguous);
  auto xyz_ptr = xyz_impl->cnnlMalloc();
  auto handle = mluOpGetCurrentHandle();
  TORCH_MLUOP_CHECK(mluOpBallQuery(handle, xyz_desc.desc(), xyz_ptr, nsample,
                                   idx_desc.desc(), idx.data_ptr()));
}

void ball_query_forward_impl(int nsample, const Tensor xyz, Tensor idx);
REGISTER_DEVICE_IMPL(ball_query_forward_impl, MLU, ball_query_forward_mlu);
"""
    path = "mmcv/ops/csrc/pytorch/mlu/ball_query_mlu.cpp"
    report = classify(path, source)
    assert set(report.ecosystems) == {"mlu"}
    assert report.line_rules[14] == "mlu.runtime"
    assert _layers(path, source) == {"vendor-library": 6, "vendor-path": 2, "portable": 5}


# -- open-mmlab/mmcv: Ascend NPU and the per-device registries ------------------------------------


def test_mmcv_npu_op_command_chain_is_a_cann_operator_call() -> None:
    # mmcv/ops/csrc/pytorch/npu/*_npu.cpp: the whole OpCommand chain runs one CANN operator.
    source = b"""\
#include "pytorch_npu_helper.hpp"

void ball_query_forward_npu(int nsample, const Tensor xyz, Tensor idx) {
  at::Tensor xyz_t = xyz.transpose(1, 2).to(at::kFloat);
  OpCommand cmd;
  cmd.Name("BallQuery")
      .Input(xyz_t)
      .Output(idx)
      .Attr("sample_num", (int64_t)nsample)
      .Run();
}

REGISTER_NPU_IMPL(ball_query_forward_impl, ball_query_forward_npu);
"""
    path = "mmcv/ops/csrc/pytorch/npu/ball_query_npu.cpp"
    report = classify(path, source)
    assert report.ecosystems == {"ascend": 7}
    assert _layers(path, source) == {"vendor-library": 6, "vendor-path": 1, "portable": 4}


def test_mmcv_cudabind_registers_the_cuda_path_and_the_cpu_registry_stays_portable() -> None:
    # mmcv/ops/csrc/pytorch/cuda/cudabind.cpp (1,600 lines of launcher declarations and
    # registrations) against pytorch/cpu/*.cpp registering the CPU implementations.
    source = b"""\
void NMSCUDAKernelLauncher(Tensor boxes, Tensor scores, float iou_threshold, int offset);
Tensor nms_cuda(Tensor boxes, Tensor scores, float iou_threshold, int offset) {
  return NMSCUDAKernelLauncher(boxes, scores, iou_threshold, offset);
}
Tensor nms_impl(Tensor boxes, Tensor scores, float iou_threshold, int offset);
REGISTER_DEVICE_IMPL(nms_impl, CUDA, nms_cuda);
"""
    report = classify("mmcv/ops/csrc/pytorch/cuda/cudabind.cpp", source)
    assert report.line_rules[5] == "torch.cpp-cuda"
    cpu = source.replace(b"CUDA", b"CPU").replace(b"_cuda", b"_cpu")
    assert _layers("mmcv/ops/csrc/pytorch/cpu/nms.cpp", cpu) == {"portable": 6}


def test_mmcv_python_ops_pick_torch_npu_and_probes_stay_portable() -> None:
    # mmcv/ops/deform_conv.py, modulated_deform_conv.py; mmcv/utils/device_type.py probes.
    source = b"""\
import torch
from mmengine.device import is_npu_available

IS_NPU_AVAILABLE = torch.npu.is_available()


def deform_conv_npu(x, weight, offset):
    import torch_npu
    out = torch_npu.npu_deformable_conv2d(x, weight, offset)
    return out.to("npu")
"""
    report = classify("mmcv/ops/deform_conv.py", source)
    assert report.ecosystems == {"ascend": 3}
    assert report.line_rules[3] == ""


# -- vllm-project/vllm-ascend: Ascend C and CANN -------------------------------------------------


def test_vllm_ascend_aicore_kernel_and_its_launch_are_ascend_not_cuda() -> None:
    # csrc/kernels/bgmv_expand.cpp: `__global__ __aicore__` kernels and a
    # <<<blockDim, nullptr, stream>>> launcher, read as CUDA before.
    source = b"""\
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void bgmv_expand_half(GM_ADDR x, GM_ADDR y, uint32_t n) {
  KernelBgmvExpand<half> op;
  op.Init(x, y, n);
  op.Process();
}

extern void bgmv_expand_impl(void* stream, void* x, void* y, uint32_t n, uint32_t per_core) {
  uint32_t blockDim = (n + per_core - 1) / per_core;
  bgmv_expand_half<<<blockDim, nullptr, stream>>>(x, y, n);
}
"""
    path = "csrc/kernels/bgmv_expand.cpp"
    report = classify(path, source)
    assert set(report.ecosystems) == {"ascend"}
    assert report.line_rules[10] == "ascend.launch"
    assert _layers(path, source) == {"kernel": 5, "vendor-path": 1, "portable": 4}


def test_vllm_ascend_ascend_c_template_headers_are_kernel_code() -> None:
    # csrc/attention/*/op_kernel/attn_infra/arch/*.hpp: __aicore__ inline members on
    # AscendC::LocalTensor/GlobalTensor.
    source = b"""\
template <typename DType>
struct GmToUb {
    __aicore__ inline GmToUb(AscendC::LocalTensor<DType> dst, AscendC::GlobalTensor<DType> src,
                             uint16_t n)
    {
        AscendC::DataCopy(dst, src, AscendC::DataCopyParams(1, n, 0, 0));
    }
};
"""
    path = "csrc/attention/common/op_kernel/arch/gm_to_ub.hpp"
    assert classify(path, source).ecosystems == {"ascend": 5}


def test_vllm_ascend_op_host_tiling_is_cann_host_code() -> None:
    # csrc/attention/*/op_host/*_tiling.cpp and *_def.cpp: the operator's tiling and
    # registration against CANN's graph-engine API, read as portable before.
    source = b"""\
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingSparseAttention(gert::TilingContext* context) {
    auto shape = context->GetInputShape(0)->GetStorageShape();
    uint32_t blocks = shape.GetDim(0);
    context->SetBlockDim(blocks);
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(SparseAttention).Tiling(TilingSparseAttention);
}  // namespace optiling
"""
    path = "csrc/attention/sparse_attention/op_host/sparse_attention_tiling.cpp"
    report = classify(path, source)
    assert report.ecosystems == {"ascend": 3}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 7}


def test_vllm_ascend_cmake_finding_cann_is_the_ascend_build() -> None:
    # CMakeLists.txt: the CANN toolkit's path and ascendc.cmake, then ascendc_library().
    source = b"""\
cmake_minimum_required(VERSION 3.16)
project(vllm_ascend_C)
set(ASCEND_CANN_PACKAGE_PATH ${ASCEND_HOME_PATH})
set(ASCENDC_CMAKE_DIR ${ASCEND_HOME_PATH}/tools/tikcpp/ascendc_kernel_cmake)
include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)
ascendc_library(vllm_ascend_kernels SHARED ${KERNEL_FILES})
add_library(vllm_ascend_C SHARED csrc/torch_binding.cpp)
"""
    report = classify("CMakeLists.txt", source)
    assert report.ecosystems == {"ascend": 4}
    assert report.line_rules[2:6] == ["build.ascend-cann"] * 4


# -- AutoGPTQ/AutoGPTQ: Intel Gaudi ---------------------------------------------------------------


def test_autogptq_hpu_linear_is_gaudi_code_not_intel_gpu_code() -> None:
    # auto_gptq/nn_modules/qlinear/qlinear_hpu.py: habana_frameworks, a torch.ops.hpu custom op
    # and tensors moved to 'hpu' (the class's "hpu" tag reads as a device string too, as
    # qlinear_cuda.py's "cuda" does); Gaudi is Intel's, yet none of this runs on an Intel GPU.
    source = b"""\
import torch
import habana_frameworks.torch.core as htcore


class QuantLinear(torch.nn.Module):
    QUANT_TYPE = "hpu"

    def post_init(self):
        self.qweight = self.qweight.to("hpu")

    def forward(self, x):
        w = torch.ops.hpu.convert_from_uint4(self.qweight, self.scales, self.zeros, x.dtype)
        return x @ w
"""
    report = classify("auto_gptq/nn_modules/qlinear/qlinear_hpu.py", source)
    assert report.ecosystems == {"gaudi": 4}
    assert ECOSYSTEMS["gaudi"].vendors == {"habana"}
