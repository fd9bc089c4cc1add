"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-q).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 129-136. Danmoreng/intel-b70-qwen38-vllm was skipped: the store
has no snapshot of it. The others were read: thuml/learn_torch.compile (torch.compile dumps:
Inductor's Triton and C++ kernels for many models), ussoewwin/Hybrid-Sensitivity-Weighted-
Quantization (FP8 quantization scripts beside a vendored ComfyUI), exasol/transformers-extension
(Hugging Face models as Exasol UDFs), matboivin/raytracer (a CPU ray tracer in C),
DevelopNumericalLibraryForSupercomputer/SparseEigensolver (C++ eigensolvers with MKL, MPI and
cuBLAS back ends), AlgenticsCorp/molecular_analysis_dashboard (a Python project template) and
ai-blaise/Megatron-LM (a fork of NVIDIA's Megatron-LM). Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, and up to three commits touching GPU code judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- exasol/transformers-extension: a requirements filter is no device string ----------------


def test_requirement_prefix_filter_dropping_cuda_wheels_is_portable() -> None:
    # exasol_transformers_extension/deployment/language_container.py: the CPU-only container
    # build drops the nvidia-*, cuda-* and triton distributions from its requirements list.
    source = b"""\
def keep_requirement(req: str) -> bool:
    return (
        not req.startswith("nvidia")
        and not req.startswith("cuda")
        and not req.startswith("triton")
    )
"""
    assert _rules("deploy/container.py", source) == set()
    assert _layers("deploy/container.py", source) == {"portable": 6}


def test_device_name_prefix_test_stays_vendor_path() -> None:
    # exasol_transformers_extension/utils/device_management.py picks "cuda:<id>" when a GPU is
    # there; a device string tested for its prefix is the same CUDA branch.
    source = b"""\
def pick(device_id):
    name = f"cuda:{device_id}" if device_id is not None else "cpu"
    if name.startswith("cuda"):
        warm_up()
    return name
"""
    assert _rules("utils/devices.py", source) == {"torch.device-string"}
    assert _layers("utils/devices.py", source) == {"vendor-path": 2, "portable": 3}


# -- DevelopNumericalLibraryForSupercomputer/SparseEigensolver: cuBLAS back end (already right)


def test_cublas_backend_constructor_is_vendor_library_and_path() -> None:
    # include/device/cuda/CUDAComm.hpp: the GPU specialisation of the communicator creates a
    # cuBLAS handle and a CUDA stream; the copy-based collectives call the project's wrappers.
    source = b"""\
#include "Utility.hpp"

template<>
Backend<Kind::GPU>::Backend(int rank, int size): rank(rank), size(size)
{
    if (blas == nullptr) {
        auto st = cublasCreate(&blas);
        assert(st == CUBLAS_STATUS_SUCCESS);
    }
    if (queue == nullptr) {
        auto st2 = cudaStreamCreate(&queue);
        assert(st2 == cudaSuccess);
    }
}

template<>
template <typename T>
void Backend<Kind::GPU>::reduce_all(const T* src, int n, T* dst) const {
    copy<T, Kind::GPU>(dst, src, n);
}
"""
    assert _rules("include/device/gpu/Comm.hpp", source) == {"cublas.call", "cuda.runtime"}
    assert _layers("include/device/gpu/Comm.hpp", source) == {
        "vendor-library": 1,
        "vendor-path": 2,
        "portable": 15,
    }


# -- ai-blaise/Megatron-LM (already right) -----------------------------------------------------


def test_triton_function_with_inline_ptx_is_kernel_code() -> None:
    # megatron/core/inference/communication/torch_symm_triton/barrier.py: a Triton function
    # spinning on a compare-and-swap written as inline PTX; the host helper stays portable.
    source = b'''\
import triton
import triton.language as tl


@triton.jit
def _raise_flag(ptrs, order: tl.constexpr):
    tl.inline_asm_elementwise(
        f"""
        {{
            .reg .u32 %old;
            retry:
                atom.global.{order}.sys.cas.b32 %old, [$1], 0, 1;
                setp.ne.u32 %p, %old, 0;
                @%p bra retry;
        }}
        """,
        "=r, l",
        [ptrs],
        dtype=tl.int32,
        is_pure=False,
        pack=1,
    )


def host_side(pads):
    return [p.data_ptr() for p in pads]
'''
    assert _rules("comm/spin.py", source) == {"cuda.ptx-string", "triton.jit"}
    assert _layers("comm/spin.py", source) == {"kernel": 18, "portable": 4}


def test_nvtx_ranges_around_serialisation_are_vendor_path() -> None:
    # megatron/core/inference/inference_request.py: NVTX ranges mark each serialize() call.
    source = b"""\
import torch


def pack(items):
    torch.cuda.nvtx.range_push("pack")
    out = [i.serialize() for i in items]
    torch.cuda.nvtx.range_pop()
    return out
"""
    assert _rules("inference/request.py", source) == {"torch.cuda-call"}
    assert _layers("inference/request.py", source) == {"vendor-path": 2, "portable": 4}
