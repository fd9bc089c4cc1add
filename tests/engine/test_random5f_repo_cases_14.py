"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-f).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 141-150. One could not be read: capitaharlock/btcfun-bitcoin-rgbpp-webgpu-launchpad
(no snapshot). Fifteen files of each remaining repository (all five of minhuanli/PyParticle)
were sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled
before any fix, with the files lockin calls non-portable (up to twenty) and GPU-looking files
it calls portable (up to ten); three commits touching GPU code per repository were drawn with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- mbdevpl/FLASH5: per-machine build settings in sites/<host>/Makefile.h ---------------------


def test_flash_site_makefile_h_with_cuda_flags_is_make() -> None:
    # sites/summit.olcf.ornl.gov/Makefile.h: the settings the FLASH Makefile includes for one
    # machine, nvcc and the CUDA libraries among them. Before, the name's .h made it a C header
    # and no build rule read it: the file was portable.
    source = b"""\
# FLASH settings for a GPU machine
CUDA_PATH = ${OLCF_CUDA_ROOT}
FCOMP   = mpif90
CUCOMP  = nvcc
FFLAGS_OACC = -acc -ta=tesla:cc70
LIB_CUDA = -L${CUDA_PATH}/lib64 -lcublas -lcudart
LIB_HDF5 = -L${HDF5_DIR}/lib -lhdf5
"""
    report = classify("sites/summit.olcf.ornl.gov/Makefile.h", source)
    assert report.language == "Makefile"
    assert _layers("sites/summit.olcf.ornl.gov/Makefile.h", source) == {
        "vendor-path": 4,
        "portable": 2,
    }


def test_flash_site_makefile_h_per_compiler_copy_is_make() -> None:
    # sites/titan.ccs.ornl.gov/Makefile.h.pgi: one copy per compiler, with the same settings.
    source = b"""\
CUCOMP = nvcc
LIB_CUDA = -lcublas -lcudart -lcuda
"""
    assert classify("sites/titan.ccs.ornl.gov/Makefile.h.pgi", source).language == "Makefile"
    assert _layers("sites/titan.ccs.ornl.gov/Makefile.h.pgi", source) == {"vendor-path": 2}


def test_flash_site_makefile_h_without_gpu_stays_portable() -> None:
    # sites/coyote.lanl.gov/Makefile.h and most of the 300 other machines: compilers, MPI and
    # HDF5 only; the comment lines now read as make comments, not as C code.
    source = b"""\
# settings for a CPU cluster
FCOMP = mpif90
FFLAGS_OPT = -O2 -r8
LIB_HDF5 = -L${HDF5_PATH}/lib -lhdf5
"""
    assert _layers("sites/coyote.lanl.gov/Makefile.h", source) == {"portable": 3}


# -- gabfssilva/mlx-omnia: MLX inference with Metal kernels handed to mx.fast.metal_kernel -----


def test_mlx_header_of_device_helpers_is_kernel_code() -> None:
    # src/mlx_omnia/engine/core/kernels/shared/affine.py: the dequantising dot product the
    # kernels of two other modules take as header=, a Metal function with no kernel
    # attribute. Before, the module was portable.
    source = b'''\
"""The shared dequant dot."""

HEADER = """
    template <int bits>
    inline float qdot(const device uint8_t* w, const thread float* x) {
        float d = 0.0f;
        const device uint* wq = (const device uint*)w;
        for (uint p = 0; p < 4; p++) {
            d += x[p] * (float)(wq[p] & 0xF);
        }
        return d;
    }
"""
'''
    assert _rules("kernels/shared/affine.py", source) == {"metal.source-string"}
    assert _layers("kernels/shared/affine.py", source) == {"kernel": 11}


def test_mlx_header_with_bit_casts_is_kernel_code() -> None:
    # src/mlx_omnia/engine/core/kernels/shared/nvfp4/packed.py: the FP4 scale decode, whose
    # only Metal spellings are as_type<half> casts before the helpers that take device pointers.
    source = b'''\
QDOT = """
static inline float fp4_scale(uint8_t bits) {
    ushort raw = ushort(bits) << 7;
    return float(as_type<half>(raw));
}
"""
'''
    assert _layers("kernels/shared/nvfp4/packed.py", source) == {"kernel": 6}


def test_mlx_metal_availability_guard_is_vendor_path() -> None:
    # src/mlx_omnia/engine/core/kernels/ssm/fused.py: the fused strategy declines unless the
    # Metal back end is there, and falls back to array ops, as torch.backends.mps guards do.
    source = b"""\
import mlx.core as mx


def build(cls, steps):
    if mx.default_device() != mx.gpu or not mx.metal.is_available():
        return None
    return cls(steps)
"""
    assert _rules("kernels/ssm/fused.py", source) == {"metal.mps-device"}
    assert _layers("kernels/ssm/fused.py", source) == {"vendor-path": 1, "portable": 4}


def test_mlx_array_ops_on_the_gpu_stay_portable() -> None:
    # src/mlx_omnia/engine/core/kernels/gated_delta/default.py: the recurrence in MLX ops,
    # which MLX runs on its Metal or CUDA back end alike.
    source = b"""\
import mlx.core as mx


def step(state, k, v, decay):
    state = state * decay[..., None] + mx.outer(k, v)
    return state, mx.matmul(k, state)
"""
    assert _layers("kernels/gated_delta/default.py", source) == {"portable": 4}


# -- LokiMetaSmith/llama-cluster-upbringing-script: one streamer trait, a binding per vendor ---


def test_rust_cufile_binding_is_vendor_path() -> None:
    # colibri_io_uring/src/cufile_ffi.rs: GPUDirect Storage (libcufile) declared by hand and
    # called to read weights into device memory. Before, only its HIP sibling was counted.
    source = b"""\
type CUfileHandle_t = *mut libc::c_void;

extern "C" {
    fn cuFileDriverOpen() -> i32;
    fn cuFileRead(fh: CUfileHandle_t, dev: *mut libc::c_void, n: usize, off: i64) -> isize;
}

pub fn open() -> bool {
    unsafe { cuFileDriverOpen() == 0 }
}
"""
    assert _rules("colibri_io_uring/src/cufile_ffi.rs", source) == {"cuda.rust-bindings"}
    assert _layers("colibri_io_uring/src/cufile_ffi.rs", source) == {
        "vendor-path": 4,
        "portable": 4,
    }


def test_rust_level_zero_binding_is_vendor_path() -> None:
    # colibri_io_uring/src/intel_ffi.rs: Level Zero's copy and synchronise calls, bound by hand.
    source = b"""\
type ze_result_t = i32;

extern "C" {
    fn zeCommandQueueSynchronize(queue: *mut libc::c_void, timeout: u64) -> ze_result_t;
}

pub fn wait(queue: *mut libc::c_void) -> bool {
    unsafe { zeCommandQueueSynchronize(queue, u64::MAX) == 0 }
}
"""
    assert _rules("colibri_io_uring/src/intel_ffi.rs", source) == {"sycl.level-zero"}
    assert _layers("colibri_io_uring/src/intel_ffi.rs", source) == {
        "vendor-path": 3,
        "portable": 4,
    }


def test_cufile_from_cpp_is_vendor_library() -> None:
    # The same library from C++, as GPUDirect Storage's own samples call it.
    source = b"""\
#include <cufile.h>

ssize_t load(CUfileHandle_t fh, void* dev, size_t n) {
    return cuFileRead(fh, dev, n, 0, 0);
}
"""
    assert _rules("src/gds_reader.cpp", source) == {"cuda-libs.call"}
    assert _layers("src/gds_reader.cpp", source) == {"vendor-library": 3, "portable": 1}


def test_rust_streamer_trait_naming_vendors_in_comments_is_portable() -> None:
    # colibri_io_uring/src/vram_streamer.rs: the trait every binding implements; the vendors
    # are named in its documentation only.
    source = b"""\
/// Streams weights from disk into GPU memory.
pub trait DirectVramStreamer: Sized {
    /// For NVIDIA the pointer comes from cudaMalloc, for AMD from hipMalloc.
    fn read_into(&mut self, gpu_ptr: *mut libc::c_void, size: usize) -> Result<usize, String>;
}
"""
    assert _layers("colibri_io_uring/src/vram_streamer.rs", source) == {"portable": 3}


# -- checked right before any fix: hard cases --------------------------------------------------


def test_tensorflow_io_ci_script_turning_cuda_off_is_portable() -> None:
    # tensorflow/io .kokorun/io_gpu.sh: the GPU job's wrapper sets TF_NEED_CUDA=0 and hands
    # over to the script that holds the CUDA settings.
    source = b"""\
#!/usr/bin/env bash
set -x
export CC_OPT_FLAGS='-mavx'
export TF_NEED_CUDA=0
bash -x -e .github/workflows/build.gpu.sh
"""
    assert _layers(".kokorun/io_gpu.sh", source) == {"portable": 4}


def test_physics_toolkit_gpu_facade_header_is_portable() -> None:
    # Q-Minh/PhysicsBasedAnimationToolkit source/pbat/gpu/geometry/SweepAndPrune.h: the public
    # face of a CUDA implementation, a pointer to an implementation class and plain types.
    source = b"""\
#include "pbat/gpu/Aliases.h"
namespace pbat::gpu::impl::geometry { class SweepAndPrune; }
namespace pbat::gpu::geometry {
class SweepAndPrune {
  public:
    SweepAndPrune(std::size_t nPrimitives, std::size_t nOverlaps);
    GpuIndexMatrixX SortAndSweep(Aabb& aabbs);
  private:
    impl::geometry::SweepAndPrune* mImpl;
};
}
"""
    assert _layers("source/pbat/gpu/geometry/SweepAndPrune.h", source) == {"portable": 11}
