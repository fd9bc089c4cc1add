"""Cases from a seventh audit: ML kernel libraries, quantisation and serving kernels (issue 27).

FlagOpen/FlagGems (Triton operators for many vendors, some generated line by line),
punica-ai/punica (LoRA SGMV/BGMV CUDA kernels), mobiusml/hqq (quantisation with a small CUDA
extension), NetEase-FuXi/EETQ (FasterTransformer's CUTLASS extensions for int8 weights),
microsoft/BitBLAS (TVM and TileLang schedules, CUDA source templates in Python),
mit-han-lab/qserve (W4A8 GEMM and attention kernels), kvcache-ai/ktransformers (CPU/GPU hybrid
inference with CUDA, MUSA, HIP and Ascend paths) and pytorch-labs/gpt-fast. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers
from tests.policy.test_gate_growth import delta, judge

# -- FlagOpen/FlagGems: Triton kernels written by a code generator --------------------------------

PAD_GENERATOR = """\
import torch

from flag_gems.utils.code_utils import IndentedBuffer


def generate_imports(code: IndentedBuffer) -> IndentedBuffer:
    code.writeline("import triton")
    code.writeline("import triton.language as tl")
    return code


def generate_kernel(rank: int, name: str, code: IndentedBuffer) -> IndentedBuffer:
    code.writeline("@libentry()")
    code.writeline("@triton.jit")
    code.writeline(f"def {name}(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):")
    with code.indent():
        code.writeline("pid = tl.program_id(0)")
        code.writeline("offs = pid * BLOCK + tl.arange(0, BLOCK)")
        for i in range(rank):
            code.writeline(f"idx{i} = offs // stride{i}")
        code.writeline("mask = offs < n")
        code.writeline("tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)")
    return code


def generate_wrapper(name: str, code: IndentedBuffer) -> IndentedBuffer:
    code.writeline("def launch(src, dst):")
    with code.indent():
        code.writeline("grid = (triton.cdiv(dst.numel(), 256), 1, 1)")
        code.writeline(f"{name}[grid](src, dst, dst.numel(), BLOCK=256)")
    return code
"""


def test_flaggems_generated_triton_kernel_counts_its_generator() -> None:
    # src/flag_gems/ops/pad.py, repeat.py, tile.py, scatter.py: the kernel is written into a
    # buffer line by line and imported from the code cache. The generator holds the kernel's
    # text (12 lines); the imports and the launch wrapper it also writes stay portable.
    report = classify("src/flag_gems/ops/pad.py", PAD_GENERATOR.encode())
    assert report.ecosystems == {"triton": 12}
    assert _layers("src/flag_gems/ops/pad.py", PAD_GENERATOR.encode()) == {
        "kernel": 12,
        "portable": 12,
    }


def test_flaggems_kernel_generator_class_counts_only_its_kernel_methods() -> None:
    # utils/pointwise_dynamic.py: KernelGenerator's methods write the decorators, signature and
    # body of the pointwise kernel; WrapperGenerator's write the host function launching it.
    source = b"""\
class KernelGenerator:
    def gen_decorators(self, code):
        code.writeline("@libentry()")
        code.writeline("@triton.jit")

    def gen_body(self, code):
        code.writeline("pid = tle.program_id(0)")
        code.writeline("in0 = tl.load(in0_ptr + offsets, mask=mask)")
        code.writeline("out0 = self.scalar_fn(in0)")


class WrapperGenerator:
    def gen_launch(self, code):
        code.writeline("num_tiles = triton.cdiv(num_tasks, tile_size)")
        code.writeline("with torch_device_fn.device(in0.device.index):")
"""
    path = "src/flag_gems/utils/pointwise_dynamic.py"
    assert _layers(path, source) == {"kernel": 7, "portable": 5}


def test_flaggems_plain_strings_naming_triton_are_not_a_kernel() -> None:
    # utils/code_cache.py-style helpers: file names and messages that mention tl.load or a
    # jit decorator in a docstring or a log line are no kernel source.
    source = b'''\
import logging

logger = logging.getLogger(__name__)


def cache_path(name):
    """Where the generated module (with its tl.load calls) is written."""
    logger.debug("writing %s", name)
    return f"{name}.py"
'''
    assert _layers("src/flag_gems/utils/code_cache.py", source) == {"portable": 5}


def test_a_commit_adding_a_generated_triton_operator_fails_the_gate() -> None:
    # FlagGems 7913bb84 ("Develop Pad"): a new generator file. It used to fail only on the
    # test lines beside it; the generated kernel itself is the new lock-in.
    verdict = judge(delta("src/flag_gems/ops/pad.py", None, PAD_GENERATOR))
    assert verdict.conclusion == "failure"
    assert verdict.gated_lines == 12


def test_flaggems_cambricon_backend_imports_torch_mlu() -> None:
    # src/flag_gems/runtime/backend/_cambricon/__init__.py: the vendor's PyTorch plug-in and
    # device name; the backend registry listing every vendor stays portable.
    source = b"""\
import torch  # noqa: F401
import torch_mlu  # noqa: F401

from flag_gems.runtime.backend.backend_utils import VendorInfoBase

vendor_info = VendorInfoBase(
    vendor_name="cambricon",
    device_name="mlu",
    device_query_cmd="cnmon",
)
"""
    report = classify("src/flag_gems/runtime/backend/_cambricon/__init__.py", source)
    assert set(report.ecosystems) == {"mlu"}
    assert _layers("src/flag_gems/runtime/backend/_cambricon/__init__.py", source) == {
        "vendor-path": 2,
        "portable": 6,
    }


# -- NetEase-FuXi/EETQ: FasterTransformer's CUTLASS extensions -------------------------------------

DEQUANTIZER = b"""\
#pragma once
#include "cutlass/array.h"
#include "cutlass/numeric_types.h"

namespace cutlass {
namespace gemm {
namespace warp {

template <typename MmaOperator_, typename Shape_, typename Enable = void>
class MmaDequantizer;

// Ampere and newer: bf16 scales
template <typename MmaOperator_, typename Shape_>
class MmaDequantizer<MmaOperator_, Shape_,
    typename platform::enable_if<MmaOperator_::ArchTag::kMinComputeCapability >= 80>::type> {
public:
    using MmaOperator = MmaOperator_;
    using ElementScale = bfloat16_t;
    static constexpr int kColsPerMmaPerThread = 1;
    using FragmentScale = Array<ElementScale, kColsPerMmaPerThread * MmaOperator::kColumns>;

    CUTLASS_DEVICE
    MmaDequantizer(ElementScale const* smem, int lane) : pointer_(smem + lane / 4) {}

    CUTLASS_DEVICE
    void load(FragmentScale& frag) {
        frag[0] = pointer_[0];
    }

private:
    ElementScale const* pointer_;
};

}  // namespace warp
}  // namespace gemm
}  // namespace cutlass
"""


def test_eetq_cutlass_extension_class_is_kernel_code_whole() -> None:
    # csrc/cutlass_extensions/include/cutlass_extensions/gemm/warp/mma_tensorop_dequantizer.h:
    # the fragment types and members of the dequantizer are as much kernel code as its two
    # CUTLASS_DEVICE functions (counted alone, about half of the file's kernel lines).
    path = "csrc/cutlass_extensions/include/cutlass_extensions/gemm/warp/mma_tensorop_dequantizer.h"
    report = classify(path, DEQUANTIZER)
    assert set(report.ecosystems) == {"cutlass"}
    # The primary template, the specialisation and the includes of CUTLASS; the pragma and
    # the namespace lines stay portable.
    assert _layers(path, DEQUANTIZER) == {"kernel": 21, "portable": 7}


def test_eetq_cutlass_arch_tag_is_cutlass_code() -> None:
    # cutlass_extensions/arch/mma.h: a tag naming the interleaved dequantize-then-MMA operator.
    source = b"""\
#pragma once
namespace cutlass {
namespace arch {
struct OpMultiplyAddDequantizeInterleavedBToA;
}  // namespace arch
}  // namespace cutlass
"""
    report = classify("csrc/cutlass_extensions/include/cutlass_extensions/arch/mma.h", source)
    assert report.ecosystems == {"cutlass": 1}


def test_eetq_host_gemm_config_outside_namespace_cutlass_stays_portable() -> None:
    # ft_gemm_configs.h and cutlass_heuristic.h: plain config structs of the host dispatcher.
    source = b"""\
#pragma once
namespace fastertransformer {
enum class CutlassTileConfig { Undefined, CtaShape32x128x64_WarpShape32x32x64 };
struct CutlassGemmConfig {
    CutlassTileConfig tile_config = CutlassTileConfig::Undefined;
    int split_k_factor = -1;
    int stages = -1;
};
}  // namespace fastertransformer
"""
    assert _layers(
        "csrc/cutlass_extensions/include/cutlass_extensions/ft_gemm_configs.h", source
    ) == {"portable": 9}


SETUP_BEFORE = """\
from torch.utils import cpp_extension

include_paths = ["csrc", "csrc/cutlass/include"]
include_paths.append(cpp_extension.include_paths(cuda=True))    # cuda path
"""


def test_eetq_setup_adding_cuda_include_paths_is_a_cuda_build() -> None:
    assert _layers("setup.py", SETUP_BEFORE.encode()) == {"vendor-path": 1, "portable": 2}


def test_eetq_respelling_the_cuda_include_paths_passes_the_gate() -> None:
    # EETQ bfb17cd: include_paths(cuda=True) became include_paths(device_type='cuda'), a
    # PyTorch API change. The old spelling counted for nothing, so the edit looked like growth.
    after = SETUP_BEFORE.replace("include_paths(cuda=True)", "include_paths(device_type='cuda')")
    assert judge(delta("setup.py", SETUP_BEFORE, after)).conclusion == "success"


# -- microsoft/BitBLAS: TVM schedules and CUDA templates in Python --------------------------------


def test_bitblas_tensor_core_schedule_on_cuda_intrinsics_is_an_nvidia_path() -> None:
    # bitblas/gpu/matmul_mma.py: the schedule rule imports the CUDA tensor intrinsics inside the
    # method that tensorizes the GEMM for ldmatrix/mma.sync fragments.
    source = b"""\
from tvm import tir

from .base import GPUScheduleRule


class MatmulTensorizationMMA(GPUScheduleRule):
    def apply(self, func, target, _):
        from tvm.tir.tensor_intrin.cuda import get_mma_intrin_group
        sch = tir.Schedule(func)
        block = sch.get_block("C")
        group = get_mma_intrin_group(load_scope="shared.dyn", store_scope="shared.dyn",
                                     a_dtype="float16", b_dtype="float16", out_dtype="float32")
        sch.tensorize(sch.get_loops(block)[-3], group["compute"])
        return sch

    def is_supported(self, target):
        return target.kind.name in ("cuda", "rocm")
"""
    report = classify("bitblas/gpu/matmul_mma.py", source)
    assert report.ecosystems == {"cuda": 8}
    assert _layers("bitblas/gpu/matmul_mma.py", source) == {"vendor-path": 8, "portable": 5}


def test_bitblas_comment_naming_the_cuda_intrinsics_module_is_portable() -> None:
    # bitblas/tl/utils.py: a comment points at TVM's CUDA intrinsics for the layout it copies.
    source = b"""\
# after 3rdparty/tvm/python/tvm/tir/tensor_intrin/cuda.py#get_ldmatrix_intrin
def ldmatrix_offset(row, col, stride):
    return row * stride + col
"""
    assert _layers("bitblas/tl/utils.py", source) == {"portable": 2}


def test_bitblas_cuda_template_module_is_kernel_code() -> None:
    # bitblas/ops/general_matmul/cuda/template.py: CUDA C++ source held in Python strings.
    source = b'''\
decode_template = """
template <typename T>
__device__ void decode_i4(int const *w, T *out) {
  out[threadIdx.x] = static_cast<T>(w[threadIdx.x] & 0xF);
}
"""
'''
    report = classify("bitblas/ops/general_matmul/cuda/template.py", source)
    assert report.ecosystems == {"cuda": 6}


def test_bitblas_bitnet_autocast_device_falling_back_from_mps_is_portable() -> None:
    # integration/BitNet/modeling_bitnet.py: Hugging Face's rotary embedding sends the Apple
    # device to the CPU for autocast; nothing there needs a vendor.
    source = b"""\
import torch


def rotate(x, inv_freq, position_ids):
    device_type = x.device.type
    device_type = device_type if isinstance(device_type,
                                            str) and device_type != "mps" else "cpu"
    with torch.autocast(device_type=device_type, enabled=False):
        return inv_freq[None, :, None].float() @ position_ids[:, None, :].float()
"""
    assert _layers("integration/BitNet/modeling_bitnet.py", source) == {"portable": 7}


# -- punica-ai/punica, mobiusml/hqq, mit-han-lab/qserve ------------------------------------------


def test_punica_ci_container_on_the_nvidia_runtime_is_a_vendor_path() -> None:
    # ci/test-run-ci.bash: the GPU tests run in Docker's NVIDIA runtime.
    source = b"""\
docker run --runtime=nvidia --rm -t \\
    -v $HOME/ci-test/cache:/ci-cache \\
    -e PUNICA_CI_TORCH_VERSION=2.1.0 \\
    ci-image bash /app/ci/run-ci-gpu-tests.bash
"""
    report = classify("ci/test-run-ci.bash", source)
    assert report.ecosystems == {"cuda": 1}


def test_punica_bgmv_kernel_and_its_dispatch() -> None:
    # csrc/bgmv/bgmv_impl.cuh: a cooperative-groups kernel with cuda::pipeline copies and the
    # host function choosing and launching it.
    source = b"""\
#include <cooperative_groups.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;

template <int feat_in, typename T>
__global__ void bgmv_shrink_kernel(T* Y, const T* X, const T* W, float scale) {
  auto block = cg::this_thread_block();
  __shared__ T X_shared[feat_in];
  auto pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(X_shared + threadIdx.x, X + threadIdx.x, sizeof(T), pipe);
  pipe.producer_commit();
  block.sync();
  Y[blockIdx.x] += scale * X_shared[threadIdx.x] * W[blockIdx.x];
}

template <int feat_in, typename T>
void bgmv_kernel(T* Y, const T* X, const T* W, int64_t batch, float scale) {
  dim3 nblks(batch);
  dim3 nthrs(32);
  bgmv_shrink_kernel<feat_in><<<nblks, nthrs>>>(Y, X, W, scale);
}
"""
    # The kernel (11 lines) and the cooperative-groups include and alias it needs; the
    # launch is host code of the vendor path.
    assert _layers("csrc/bgmv/bgmv_impl.cuh", source) == {
        "kernel": 13,
        "vendor-path": 2,
        "portable": 5,
    }


def test_hqq_aten_binding_of_cuda_functions_stays_portable() -> None:
    # hqq/kernels/hqq_aten_cuda.cpp: pybind declarations of the .cu file's entry points.
    source = b"""\
#include <torch/extension.h>
#include <pybind11/pybind11.h>

torch::Tensor dequantize_4bit_u8(torch::Tensor &Wq, torch::Tensor &scale, torch::Tensor &zero);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("dequantize_4bit_u8", &dequantize_4bit_u8, "4-bit dequantization");
}
"""
    assert _layers("hqq/kernels/hqq_aten_cuda.cpp", source) == {"portable": 6}


def test_qserve_gemm_launch_macro_is_launch_code() -> None:
    # kernels/csrc/qgemm/w4a8_per_chn/gemm_cuda.cu: the launch is a macro expanded per tile
    # shape in the host entry point.
    source = b"""\
#include <cuda_fp16.h>
#include <torch/extension.h>

#define KERNEL_LAUNCH_CODE                                                     \\
  constexpr int kSmemByteSize = CTA_M * CTA_K * 2;                             \\
  dim3 num_blocks(num_out_feats / CTA_M * (num_out_channels / CTA_N));         \\
  dim3 threads_per_block(WARP_SIZE, NUM_WARPS);                                \\
  cudaFuncSetAttribute(dense_kernel<CTA_M, CTA_N, CTA_K>,                      \\
                       cudaFuncAttributeMaxDynamicSharedMemorySize,            \\
                       kSmemByteSize);                                         \\
  dense_kernel<CTA_M, CTA_N, CTA_K>                                            \\
      <<<num_blocks, threads_per_block, kSmemByteSize>>>(in, w, out);

template <int CTA_M, int CTA_N, int CTA_K>
__global__ void dense_kernel(const int8_t* in, const int8_t* w, half* out) {
  out[threadIdx.x] = __int2half_rn(in[threadIdx.x] * w[threadIdx.x]);
}
"""
    report = classify("kernels/csrc/qgemm/w4a8_per_chn/gemm_cuda.cu", source)
    assert report.ecosystems == {"cuda": 14}
    assert _layers("kernels/csrc/qgemm/w4a8_per_chn/gemm_cuda.cu", source)["kernel"] == 4


# -- kvcache-ai/ktransformers ---------------------------------------------------------------------

CUDA_WRAPPER = b"""\
import ctypes
from dataclasses import dataclass
from typing import Any, List


@dataclass
class Function:
    name: str
    restype: Any
    argtypes: List[Any]


class CudaRTLibrary:
    exported_functions = [
        Function("cudaSetDevice", ctypes.c_int, [ctypes.c_int]),
        Function("cudaIpcGetMemHandle", ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p]),
    ]

    def __init__(self, so_file=None):
        if so_file is None:
            so_file = find_loaded_library("libcudart")
        self.lib = ctypes.CDLL(so_file)
        self.funcs = {f.name: getattr(self.lib, f.name) for f in self.exported_functions}

    def cudaSetDevice(self, device: int) -> None:
        self.funcs["cudaSetDevice"](device)

    def describe(self) -> str:
        return f"{len(self.funcs)} functions"
"""


def test_ktransformers_ctypes_cudart_wrapper_is_cuda_host_code() -> None:
    # archive/ktransformers/server/balance_serve/inference/distributed/cuda_wrapper.py (vLLM's
    # cuda_wrapper.py): the function table's entries, the loader and the per-function wrappers
    # are the CUDA runtime API; the generic dataclass and a helper naming no entry point are not.
    path = "ktransformers/server/balance_serve/inference/distributed/cuda_wrapper.py"
    report = classify(path, CUDA_WRAPPER)
    assert report.ecosystems == {"cuda": 9}
    assert _layers(path, CUDA_WRAPPER) == {"vendor-path": 9, "portable": 13}


def test_ktransformers_wrapped_mps_autocast_fallback_is_portable() -> None:
    # archive/ktransformers/models/modeling_llama.py: the same fallback as BitBLAS's, wrapped.
    source = b"""\
def forward(self, x, position_ids):
    device_type = x.device.type
    device_type = (
        device_type
        if isinstance(device_type, str) and device_type != "mps"
        else "cpu"
    )
    return device_type
"""
    assert _layers("ktransformers/models/modeling_llama.py", source) == {"portable": 8}
