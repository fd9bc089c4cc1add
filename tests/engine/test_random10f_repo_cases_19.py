"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-f).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 41-48. Three had no snapshot here and were skipped:
karikris/BioMiner, TJ-IS/qual-llm-check and migaelstrydom/VoxelPhase. The five read were
Pitohuie-AIversion/Sparse2Full (PyTorch PDE reconstruction with Hydra configs),
mental1104/PokemonBattleInference (a FastAPI battle calculator), oneapi-src/SYCLomatic-test
(the CUDA-to-SYCL migration tool's tests: CUDA inputs, migrated SYCL and a compiler dump),
frozename/llamactl (a TypeScript control plane for llama.cpp fleets) and
gracien-app/PathTracer (a CPU path tracer in C++). Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, and three commits touching GPU code (fewer where fewer
exist) judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Pitohuie-AIversion/Sparse2Full: Hydra training configs and PyTorch scripts ---------------


def test_yaml_config_switching_cuda_on_is_vendor_path() -> None:
    # paper_package/configs/SR-PDEBench-64-SwinUNet-s2025.yaml: a `device:` block turns CUDA
    # on with a boolean and an ordinal instead of `device: cuda`. Before, it was portable.
    source = b"""\
training:
  epochs: 300
  use_amp: true
device:
  use_cuda: true
  cuda_device: 0
  pin_memory: true
logging:
  level: INFO
"""
    assert _rules("configs/SR-64-swin.yaml", source) == {"torch.config-cuda-switch"}
    assert _layers("configs/SR-64-swin.yaml", source) == {"vendor-path": 1, "portable": 8}


def test_yaml_config_with_cuda_switched_off_is_portable() -> None:
    # The same block on a CPU run, and a curriculum config that only logs GPU memory.
    source = b"""\
device:
  use_cuda: false
  cuda_device: 0
logging:
  log_gpu_memory: true
amp:
  enabled: true
"""
    assert _layers("configs/train/cpu.yaml", source) == {"portable": 7}


def test_config_naming_the_cuda_device_string_stays_vendor_path() -> None:
    # configs/train.yaml: `device: cuda` was already read (torch.device-flag); pinned.
    source = b"""\
experiment:
  name: sr_x4
device: cuda
seed: 42
"""
    assert _rules("configs/train.yaml", source) == {"torch.device-flag"}
    assert _layers("configs/train.yaml", source) == {"vendor-path": 1, "portable": 3}


def test_pytest_fixture_seeding_cuda_is_vendor_path() -> None:
    # tests/conftest.py: seeds CUDA, pins cuDNN to deterministic kernels and hands tests a
    # CUDA device when there is one. Already right; pinned.
    source = b"""\
import pytest
import torch


def pytest_configure(config):
    torch.manual_seed(0)
    torch.backends.cudnn.deterministic = True
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(0)


@pytest.fixture
def device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")
"""
    assert _layers("tests/conftest.py", source) == {"vendor-path": 3, "portable": 7}


# -- oneapi-src/SYCLomatic-test: CUDA inputs, migrated SYCL and an IGC dump -------------------


def test_llvm_ir_lowered_by_intels_graphics_compiler_is_kernel_code() -> None:
    # third-party-programs/Velocity-Bench/bitcracker/migrated/my_dump_dir/OCL_asm*_codegen_1.ll:
    # the Intel Graphics Compiler's dump of a migrated SYCL kernel, with IGC's buffer address
    # spaces and module metadata. Before, the whole file was portable.
    source = b"""\
; dump of one program
target triple = "spir64-unknown-unknown"

define spir_kernel void @fill(i32 addrspace(1)* %out, i32 %off, i32 %v) {
  %slot = inttoptr i32 %off to i32 addrspace(131079)*
  store i32 %v, i32 addrspace(131079)* %slot
  ret void
}

!igc.functions = !{!0}
!0 = !{void (i32 addrspace(1)*, i32, i32)* @fill, !1}
!1 = !{}
"""
    assert _rules("dump/OCL_asm_codegen.ll", source) == {"sycl.igc-ir-kernel"}
    assert _layers("dump/OCL_asm_codegen.ll", source) == {"kernel": 9}


def test_plain_spir_ir_and_host_ir_stay_portable() -> None:
    # SPIR IR before any vendor's lowering is the cross-vendor form (an earlier lane's call,
    # test_random9_repo_cases_12); host IR is CPU code.
    source = b"""\
target triple = "spir64-unknown-unknown"

define spir_kernel void @copy(i32 addrspace(1)* %src, i32 addrspace(1)* %dst) {
  ret void
}

define i32 @twice(i32 %x) {
  %y = shl i32 %x, 1
  ret i32 %y
}
"""
    assert _layers("test/lit/llvm/copy.ll", source) == {"portable": 8}


def test_intel_gpu_assembly_dump_is_kernel_code() -> None:
    # third-party-programs/Velocity-Bench/bitcracker/migrated/my_dump_dir/
    # OCL_asm*_simd16_entry_0001.asm: the graphics compiler's Gen ISA for one SYCL kernel on
    # DG2. Before, the Assembly language counted it as portable.
    source = b"""\
//.kernel _ZTS4Fill
//.platform DG2
//.declare %local_id_x (12)  rf=r size=4 type=ud align=2 words (r3.2)
(W)     mov (16|M0)  r4.0<1>:ud   r0.0<1;1,0>:ud
        mul (16|M0)  r6.0<1>:d    r4.0<1;1,0>:d   0x4:w
        send.ugm (16|M0) null  r6  r8:1  0x0  0x04000584
"""
    assert _rules("dump/OCL_asm_simd16_entry_0001.asm", source) == {"sycl.gen-assembly-file"}
    assert _layers("dump/OCL_asm_simd16_entry_0001.asm", source) == {"kernel": 6}


def test_cpu_assembly_stays_portable() -> None:
    # x86 assembly beside it in a project's tree is CPU code.
    source = b"""\
; sum two integers
global add2
add2:
    lea rax, [rdi+rsi]
    ret
"""
    assert _layers("asm/add2.asm", source) == {"portable": 4}


def test_thrust_predicate_functor_is_kernel_and_thrust_calls_library() -> None:
    # features/feature_case/thrust/thrust_stable_partition_copy.cu: a __host__ __device__
    # predicate handed to thrust::stable_partition_copy on device vectors. Already right.
    source = b"""\
#include <thrust/device_vector.h>
#include <thrust/partition.h>

struct is_odd {
  __host__ __device__ bool operator()(const int &v) const {
    return (v & 1) == 1;
  }
};

void split(const int *src, int n) {
  thrust::device_vector<int> in(src, src + n);
  thrust::device_vector<int> odd(n), even(n);
  thrust::stable_partition_copy(thrust::device, in.begin(), in.end(), odd.begin(),
                                even.begin(), is_odd());
}
"""
    layers = _layers("thrust/partition_copy.cu", source)
    assert layers["kernel"] == 3
    assert set(layers) == {"kernel", "vendor-library", "portable"}


def test_migrated_fft_test_is_sycl_runtime_and_library() -> None:
    # help_function/src/fft_utils/usm/r2cc2r_1d_inplace.dp.cpp: USM buffers on a SYCL queue
    # and dpct's FFT engine over oneMKL. The file was already right through its oneMKL include;
    # now the engine's calls are read as the library they are (sycl.library).
    source = b"""\
#include <sycl/sycl.hpp>
#include <dpct/dpct.hpp>
#include <dpct/fft_utils.hpp>

bool run_fft() {
  sycl::queue &q = dpct::get_default_queue();
  float *data = sycl::malloc_device<float>(16, q);
  dpct::fft::fft_engine *plan = dpct::fft::fft_engine::create(
      &q, 8, dpct::fft::fft_type::real_float_to_complex_float, 1);
  plan->compute<float, sycl::float2>(data, (sycl::float2 *)data,
                                     dpct::fft::fft_direction::forward);
  sycl::free(data, q);
  return true;
}
"""
    assert "sycl.library" in _rules("fft/r2c_inplace.dp.cpp", source)
    assert _layers("fft/r2c_inplace.dp.cpp", source) == {
        "vendor-library": 4,
        "vendor-path": 6,
        "portable": 3,
    }


# -- frozename/llamactl: probing a node's GPU ----------------------------------------------------


def test_node_probe_calling_vendor_tools_is_vendor_path() -> None:
    # packages/core/src/nodeFacts.ts: asks nvidia-smi, then rocminfo, what GPU the node has.
    # Already right; pinned.
    source = b"""\
import { execSync } from "node:child_process";

export function probeNvidia(): string | null {
  try {
    return execSync("nvidia-smi --query-gpu=name --format=csv,noheader").toString();
  } catch {
    return null;
  }
}

export function probeAmd(): boolean {
  try {
    execSync("rocminfo");
    return true;
  } catch {
    return false;
  }
}
"""
    assert _rules("src/nodeFacts.ts", source) == {"cuda.tool-call", "hip.tool-call"}
    assert _layers("src/nodeFacts.ts", source)["vendor-path"] == 2
