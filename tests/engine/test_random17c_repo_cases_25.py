"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h53-random-c).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 987-993. Three were skipped, having no snapshot to fetch:
WhoIsMars/Sustainable-Code-Refactoring-with-LLMs (990), RishiJain905/Gemma-E4B-Finance-RAG
(991) and sl33pyC01E/sprite-diffusion-research (992). Read were jaigouk/gpumod (a Python
service manager for vLLM and llama.cpp on NVIDIA GPUs: nvidia-smi and NVML for VRAM,
systemd units, YAML presets), torchscience/torchscience (a PyTorch extension of special
functions: C++ math headers under C10_HOST_DEVICE, CUDA dispatch through ATen's gpu_kernel,
sparse and quantized registrations), zuoyanzhang/DeepSpeed (a DeepSpeed copy: the
accelerator abstraction over CUDA, ROCm, XPU, NPU, MLU, HPU and Tecorigin's SDAA, CUDA and
CUTLASS kernels) and EnzymeAD/Enzyme-JAX (an MLIR compiler for JAX: passes in C++, lit tests
in MLIR, some lowering GPU code through the NVVM dialect). Fifteen files of each repository
were sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, files outside the sample that hold kernel lines
counted by hand (up to 5 a repository), and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- torchscience/torchscience: ops registered for CUDA's sparse and quantized keys ------------


def test_library_impl_for_sparse_cuda_key_is_vendor_path() -> None:
    # src/torchscience/csrc/sparse/coo/cuda/special_functions.h: the sparse operators are
    # registered under the SparseCUDA dispatch key, so only CUDA sparse tensors reach them.
    source = b"""\
#pragma once
#include "ops.cuh"

TORCH_LIBRARY_IMPL(mathlib, SparseCUDA, m_coo) {
    m_coo.impl("gamma", &coo_unary<gamma_op>);
}
"""
    assert _rules("csrc/sparse/coo/cuda/ops.h", source) == {"torch.cpp-cuda"}
    assert _layers("csrc/sparse/coo/cuda/ops.h", source) == {"vendor-path": 1, "portable": 4}


def test_library_impl_for_quantized_cuda_key_is_vendor_path() -> None:
    # src/torchscience/csrc/quantized/cuda/special_functions.h: the QuantizedCUDA key.
    source = b"""\
TORCH_LIBRARY_IMPL(mathlib, QuantizedCUDA, m_q) {
    m_q.impl("gamma", &quantized_unary<gamma_op>);
}
"""
    assert _rules("csrc/quantized/cuda/ops.h", source) == {"torch.cpp-cuda"}


def test_library_impl_for_sparse_cpu_key_stays_portable() -> None:
    # The CPU twin of the same registration names no vendor.
    source = b"""\
TORCH_LIBRARY_IMPL(mathlib, SparseCPU, m_coo) {
    m_coo.impl("gamma", &coo_unary<gamma_op>);
}
"""
    assert _rules("csrc/sparse/coo/cpu/ops.h", source) == set()


def test_host_device_math_header_is_portable() -> None:
    # src/torchscience/csrc/kernel/special_functions/log_gamma.h (already right): scalar math
    # under C10_HOST_DEVICE, PyTorch's macro that compiles the same source for the CPU, CUDA
    # and ROCm, is no vendor's code.
    source = b"""\
#pragma once
#include <c10/macros/Macros.h>
#include <cmath>

template <typename T>
C10_HOST_DEVICE T half_log_sum(T a, T b) {
  T hi = a > b ? a : b;
  return hi + std::log1p(std::exp((a > b ? b : a) - hi));
}
"""
    assert _layers("csrc/kernel/half_log_sum.h", source) == {"portable": 8}


# -- zuoyanzhang/DeepSpeed: an accelerator for Tecorigin's SDAA devices ----------------------


def test_sdaa_accelerator_module_calls_are_vendor_path() -> None:
    # accelerator/sdaa_accelerator.py: the accelerator class forwards to the torch_sdaa
    # plug-in's torch.sdaa module and names its devices "sdaa:N", its collectives "tccl".
    source = b"""\
import torch


class TecoAccel:
    def __init__(self):
        self.backend = 'tccl'

    def set_device(self, index):
        torch.sdaa.set_device(index)

    def name(self, index):
        return 'sdaa:{}'.format(index)

    def free_cache(self):
        return torch.sdaa.empty_cache()
"""
    assert _rules("accelerator/teco_accel.py", source) == {
        "sdaa.torch-plugin",
        "sdaa.device-string",
    }
    assert _layers("accelerator/teco_accel.py", source) == {"vendor-path": 4, "portable": 6}


def test_sdaa_op_builder_calling_its_operators_is_vendor_path() -> None:
    # op_builder/sdaa/fused_adam.py: the fused optimizer step is torch.ops.sdaa's operator.
    source = b"""\
class TecoFusedStep:
    def step(self, grads, params, lr):
        torch.ops.sdaa.fused_step(grads, params, lr)
        return params
"""
    assert _rules("op_builder/teco/fused_step.py", source) == {"sdaa.torch-plugin"}
    assert _layers("op_builder/teco/fused_step.py", source) == {"vendor-path": 1, "portable": 3}


def test_sdaa_probe_and_vendor_list_stay_portable() -> None:
    # accelerator/real_accelerator.py: a list of the accelerators it knows and a probe of
    # availability dispatch between vendors, pinning none.
    source = b"""\
KNOWN = ['cuda', 'cpu', 'npu', 'sdaa']


def teco_present(torch):
    return hasattr(torch, 'sdaa') and torch.sdaa.is_available()
"""
    assert _rules("accelerator/choose.py", source) == set()


def test_onebit_test_skipping_on_gaudi_is_vendor_path() -> None:
    # tests/unit/runtime/half_precision/onebit/test_onebit.py (already right): a module-level
    # skip on Gaudi's device name.
    source = b"""\
import pytest
from deepspeed.accelerator import get_accelerator

if get_accelerator().device_name() == 'hpu':
    pytest.skip("compressed comms are not ported to this device", allow_module_level=True)
"""
    assert _rules("tests/unit/test_compressed.py", source) == {"gaudi.device-string"}


# -- jaigouk/gpumod: a preset of offload options names no vendor -------------------------------


def test_llama_preset_with_gpu_layer_count_is_portable() -> None:
    # presets/llm/qwen-2.5-72b-gguf.yaml (already right): llama.cpp's layer offload count and
    # vLLM's memory fraction work on any backend those servers are built for.
    source = b"""\
id: big-model-gguf
driver: llamacpp
port: 7001
vram_mb: 22000
unit_vars:
  n_gpu_layers: 60
  ctx_size: 8192
  gpu_mem_util: 0.85
"""
    assert _layers("presets/llm/big-model.yaml", source) == {"portable": 8}


# -- EnzymeAD/Enzyme-JAX: MLIR tests whose device code is one block of the file ---------------


def test_mlir_gpu_module_targeting_nvvm_is_kernel_and_its_host_function_is_not() -> None:
    # test/lit_tests/lowering/addrspace-mismatch.mlir: a host function allocates and launches,
    # the gpu.module built for #nvvm.target holds the kernel. Before, all 17 lines were kernel.
    source = b"""\
// RUN: compiler-opt %s --lower-gpu | FileCheck %s
module attributes {gpu.container_module} {
  func.func @host(%n: index) {
    %one = arith.constant 1 : index
    %buf = gpu.alloc (%one) : memref<?xf32>
    gpu.launch_func @dev::@fill blocks in (%one, %one, %one) threads in (%n, %one, %one)
    return
  }

  gpu.module @dev [#nvvm.target<chip = "sm_90">] {
    gpu.func @fill(%m: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %c = arith.constant 2.0 : f32
      memref.store %c, %m[%t] : memref<?xf32>
      gpu.return
    }
  }
}
"""
    assert _rules("test/lowering/fill.mlir", source) == {"cuda.mlir-nvvm-kernel"}
    assert _layers("test/lowering/fill.mlir", source) == {"kernel": 8, "portable": 8}


def test_mlir_ptx_kernel_function_with_block_labels_is_kernel_in_full() -> None:
    # test/lit_tests/lowering/cpu.mlir: an llvm.func of the ptx_kernel convention, its block
    # labels printed at the function's own indentation, beside a stablehlo host function.
    source = b"""\
module {
  llvm.func internal ptx_kernelcc @twice(%p: !llvm.ptr<1>) {
    %lim = llvm.mlir.constant(31 : i32) : i32
    %t = nvvm.read.ptx.sreg.tid.x : i32
    %big = llvm.icmp "ugt" %t, %lim : i32
    llvm.cond_br %big, ^bb2, ^bb1
  ^bb1:
    %v = llvm.load %p : !llvm.ptr<1> -> i64
    %w = llvm.add %v, %v : i64
    llvm.store %w, %p : i64, !llvm.ptr<1>
    llvm.return
  ^bb2:
    llvm.return
  }
  func.func @main(%x: tensor<32xi64>) -> tensor<32xi64> {
    %r = enzymexla.jit_call @twice (%x) : (tensor<32xi64>) -> tensor<32xi64>
    return %r : tensor<32xi64>
  }
}
"""
    assert _layers("test/lowering/twice.mlir", source) == {"kernel": 13, "portable": 6}


def test_mlir_function_calling_an_nvvm_op_is_kernel_beside_runtime_declarations() -> None:
    # test/lit_tests/lowering/convert-cudart-to-hiprt.mlir: declarations and calls of the CUDA
    # runtime in a host function (not counted as kernel), and a function using an NVVM barrier.
    source = b"""\
module {
  llvm.func @cudaDeviceSynchronize() -> i32
  llvm.func @host_sync() -> i32 {
    %0 = llvm.call @cudaDeviceSynchronize() : () -> i32
    llvm.return %0 : i32
  }
  llvm.func @with_barrier(%p: !llvm.ptr) {
    %c = llvm.mlir.constant(7 : i32) : i32
    llvm.store %c, %p : i32, !llvm.ptr
    nvvm.barrier0
    llvm.return
  }
}
"""
    layers = _layers("test/lowering/barrier.mlir", source)
    assert layers["kernel"] == 6


def test_mlir_generic_gpu_dialect_without_a_target_stays_portable() -> None:
    # test/lit_tests/lowering/unhandled-conversion-cast-diagnostic.mlir (already right): a
    # wrapper of the compiler's own dialect and generic gpu ops name no vendor.
    source = b"""\
module {
  func.func @wrapped(%n: index, %m: memref<?xf64>, %v: f64) {
    %c0 = arith.constant 0 : index
    %w = "mydialect.gpu_wrapper"(%n) ({
      memref.store %v, %m[%c0] : memref<?xf64>
      "mydialect.yield"() : () -> ()
    }) : (index) -> index
    return
  }
}
"""
    assert _rules("test/lowering/wrapped.mlir", source) == set()
