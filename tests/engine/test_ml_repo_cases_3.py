"""Cases from a third audit of ML repositories the engine had not read (issue 27).

Each snippet is a small rewrite of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers


def test_tinygrad_nv_backend_is_an_nvidia_driver_from_first_line_to_last() -> None:
    # tinygrad/tinygrad runtime/ops_nv.py: no CUDA at all; resource-manager and UVM ioctls on
    # the NVIDIA kernel driver, through generated bindings. Every line is the NVIDIA backend.
    source = b"""\
import ctypes
from tinygrad.runtime.autogen import nv_570 as nv_gpu

class NVKIface:
  def __init__(self, fd_ctl, fd_uvm):
    self.fd_ctl, self.fd_uvm = fd_ctl, fd_uvm
    self.root = self.rm_alloc(0, nv_gpu.NV01_ROOT_CLIENT)
    self.uvm(nv_gpu.UVM_INITIALIZE, nv_gpu.UVM_INITIALIZE_PARAMS())

  def rm_alloc(self, parent, clss):
    made = nv_gpu.NVOS21_PARAMETERS(hObjectParent=parent, hClass=clss)
    self.fd_ctl.ioctl(nv_gpu.NV_ESC_RM_ALLOC, made)
    return made.hObjectNew
"""
    report = classify("tinygrad/runtime/ops_nv.py", source)
    assert report.ecosystems == {"cuda": 11}
    assert _layers("tinygrad/runtime/ops_nv.py", source) == {"vendor-path": 11}


def test_tinygrad_amd_backend_is_an_amd_driver_and_its_bindings_are_not() -> None:
    # tinygrad/tinygrad runtime/ops_amd.py: KFD ioctls and PM4 packets; the generated binding
    # module (runtime/autogen/kfd.py) only declares the names and stays portable.
    source = b"""\
from tinygrad.runtime.autogen import kfd, hsa

class AMDComputeQueue:
  def release_mem(self, addr, value):
    self.pkt3(self.pm4.PACKET3_RELEASE_MEM, addr, value)

class KFDIface:
  def create_queue(self, ring):
    return kfd.AMDKFD_IOC_CREATE_QUEUE(self.fd, ring_base_address=ring,
      queue_type=kfd.KFD_IOC_QUEUE_TYPE_COMPUTE_AQL)
"""
    assert classify("tinygrad/runtime/ops_amd.py", source).ecosystems == {"hip": 8}
    bindings = b"""\
import ctypes
AMDKFD_IOC_CREATE_QUEUE = 0xC0604B02
KFD_IOC_QUEUE_TYPE_COMPUTE_AQL = 2
class struct_kfd_ioctl_create_queue_args(ctypes.Structure): pass
"""
    assert _layers("tinygrad/runtime/autogen/kfd.py", bindings) == {"portable": 4}


def test_a_python_program_naming_a_video_format_or_regularizer_is_not_a_driver() -> None:
    source = b"""\
import cv2
rgb = cv2.cvtColor(frame, cv2.COLOR_YUV2RGB_NV12)
loss = model.regularizer(w) * self.reg_lambda
"""
    assert _layers("data/video.py", source) == {"portable": 3}


def test_megatron_triton_kernels_import_triton_through_a_project_module() -> None:
    # NVIDIA/Megatron-LM megatron/core/ssm/ops/gdp/chunk_h.py: triton and tl come from the
    # package's common.py (which falls back when Triton is missing); the kernel is Triton.
    source = b"""\
import torch

from .common import HAVE_TRITON, exp2, prepare_chunk_indices, tl, triton


@triton.jit(do_not_specialize=["T"])
def fwd_kernel_h(h, g, T, BV: tl.constexpr):
    i_v = tl.program_id(0)
    b_g = tl.load(g + i_v)
    tl.store(h + i_v, exp2(b_g))


def fwd_h(h, g):
    fwd_kernel_h[(triton.cdiv(h.numel(), 64),)](h, g, h.shape[0], BV=64)
    return h
"""
    assert _layers("megatron/core/ssm/ops/gdp/chunk_h.py", source) == {
        "kernel": 5,
        "portable": 5,
    }


def test_megatron_tilelang_builder_behind_a_guarded_wrapper_is_kernel_code() -> None:
    # NVIDIA/Megatron-LM ops/tilelang_sparse_mla_fwd.py: `tilelang_jit` and `T` are
    # re-exported by tilelang_utils.py; the builder and its prim_func are the kernel, the
    # cache around it is host code.
    source = b"""\
from .tilelang_utils import (
    T,
    tilelang,
    tilelang_jit,
)

_CACHE = {}


@tilelang_jit(out_idx=[-1])
def sparse_mla_fwd(heads, dim, threads=256):
    padded = max(tilelang.math.next_power_of_2(heads), 16)

    @T.prim_func
    def main(Q: T.Tensor((padded, dim), "bfloat16")):
        with T.Kernel(padded, threads=threads) as bx:
            Q[bx, 0] = Q[bx, 0] * 2

    return main


def get_kernel(heads, dim):
    return _CACHE.setdefault((heads, dim), sparse_mla_fwd(heads, dim))
"""
    assert _layers("ops/tilelang_sparse_mla_fwd.py", source) == {"kernel": 8, "portable": 8}


def test_cupy_cython_bindings_call_cuda_libraries_and_the_runtime() -> None:
    # cupy/cupy cupy_backends/cuda/libs/cublas.pyx and api/runtime.pyx: Cython wrappers that
    # call cuBLAS and the CUDA runtime as C does; the mapping to hipBLAS happens in headers.
    blas = b"""\
cpdef sgemm(intptr_t handle, int m, size_t A, size_t C):
    _setStream(handle)
    with nogil:
        status = cublasSgemm(<Handle>handle, m, <float*>A, <float*>C)
    check_status(status)
"""
    assert _layers("cupy_backends/cuda/libs/cublas.pyx", blas) == {
        "vendor-library": 1,
        "portable": 4,
    }
    runtime = b"""\
cpdef intptr_t malloc(size_t size) except? 0:
    cdef void* ptr
    with nogil:
        status = cudaMalloc(&ptr, size)
    check_status(status)
    return <intptr_t>ptr
"""
    assert _layers("cupy_backends/cuda/api/runtime.pyx", runtime) == {
        "vendor-path": 1,
        "portable": 5,
    }


def test_candle_metal_dispatch_through_metal_rs_is_apple_vendor_path() -> None:
    # huggingface/candle candle-metal-kernels/src/kernels/affine.rs: the pipeline is set and
    # dispatched with metal-rs's snake_case encoder methods.
    source = b"""\
pub fn call_affine(ep: impl EncoderProvider, kernels: &Kernels, size: usize) -> Result<()> {
    let pipeline = kernels.load_pipeline(Source::Affine, "affine_f32")?;
    let encoder = ep.encoder();
    encoder.set_compute_pipeline_state(&pipeline);
    let (count, group) = linear_split(&pipeline, size);
    encoder.dispatch_thread_groups(count, group);
    Ok(())
}
"""
    report = classify("candle-metal-kernels/src/kernels/affine.rs", source)
    assert report.ecosystems == {"metal": 2}
    assert _layers("candle-metal-kernels/src/kernels/affine.rs", source) == {
        "vendor-path": 2,
        "portable": 6,
    }


def test_flashinfer_cuda_templates_with_placeholders_are_kernel_source() -> None:
    # flashinfer-ai/flashinfer jit/attention/fmha_v2/generator_utils.py: CUDA kernels kept as
    # str.format templates, their names and parameter types left as {placeholders}.
    source = b'''\
kernel_template = """\\
#include <cuda.h>
extern "C"
__global__
void {kernel_name}({params_type} params){{
  fused_multihead_attention::device_{kernel_variant}<Kernel_traits>(params);
}}
"""

def render(name):
    return kernel_template.format(kernel_name=name, params_type="Params", kernel_variant="1xN")
'''
    assert _layers("flashinfer/jit/attention/fmha_v2/generator_utils.py", source) == {
        "kernel": 8,
        "portable": 2,
    }


def test_tilelang_device_macros_are_kernel_code() -> None:
    # tile-ai/tilelang rocm/intrinsics/mfma_macro_generator.py: @T.macro helpers are inlined
    # into the kernel; the emitter's layout arithmetic around them is compile-time Python.
    source = b"""\
import tilelang.language as T

class MatrixCoreEmitter:
    def __init__(self, warp_rows):
        self.warp_rows = warp_rows

    def mfma(self, A_local, B_local, C_local):
        @T.macro
        def _warp_mfma(A_local, B_local, C_local):
            for i in T.serial(self.warp_rows):
                T.tvm_mfma(C_local.data, A_local.data, B_local.data, i)
        return _warp_mfma(A_local, B_local, C_local)
"""
    assert _layers("tilelang/rocm/intrinsics/mfma_macro_generator.py", source) == {
        "kernel": 4,
        "portable": 6,
    }


def test_thunderkittens_layout_structs_name_tile_types_unqualified() -> None:
    # HazyResearch/ThunderKittens kernels/fftconv/fftconv_non_pc.cu: after `using namespace
    # kittens` the layout struct names tiles and global layouts (st_bf, gl<...>) bare.
    source = b"""\
#include "kittens.cuh"
using namespace kittens;

struct fftconv_layout {
    using input_layout = gl<bf16, -1, 16, 64, 64>;
    using tile = st_bf<64, 64>;
    using acc = rt<float, 16, 64>;
};

static int checks = 0;
bool small(int st, int gl) { return st < 3 && gl <= 4; }
"""
    report = classify("kernels/fftconv/fftconv_non_pc.cu", source)
    assert report.line_rules[4:7] == ["thunderkittens.tile-types"] * 3
    assert report.line_rules[9:] == ["", ""]


def test_ctranslate2_rocm_image_installs_amd_libraries_as_system_packages() -> None:
    # OpenNMT/CTranslate2 docker/Dockerfile_rocm: ROCm's libraries come from apt; the other
    # packages of the same step are not lock-in of their own (the ROCm path in ENV already
    # counted).
    source = b"""\
FROM ubuntu:22.04 AS builder
RUN apt-get update && \\
    apt-get install -y --no-install-recommends \\
        rocm-hip-runtime-dev \\
        hipblas-dev \\
        rocthrust-dev \\
        python3-dev \\
        wget
ENV PATH=/opt/rocm-7.2/bin:$PATH
"""
    report = classify("docker/Dockerfile_rocm", source)
    assert report.ecosystems == {"hip": 4}
    assert report.line_rules[3:8] == ["deps.rocm-system-package"] * 3 + ["", ""]
    assert report.line_rules[8] == "build.hip-offload-arch"
