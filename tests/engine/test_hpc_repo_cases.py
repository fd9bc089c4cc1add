"""Cases seen in real repositories outside machine learning: simulation, rendering,
cryptography, scientific computing and GPU DSLs in other languages.

Each snippet is a small rewrite, in our own words, of a pattern found there; the repository is
named per test. They pin the verdict a porting engineer gives the file: its language, the
layer of its lines and the ecosystem (so the vendors) they belong to.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import FileReport, Layer


def _layers(report: FileReport) -> dict[str, int]:
    return {layer.value: count for layer, count in report.layers.items() if count}


# -- hashcat/hashcat: OpenCL kernels compiled for OpenCL, CUDA, HIP and Metal -----------------

HASHCAT_HEADER = b"""\
#ifndef INC_PLATFORM_H
#define INC_PLATFORM_H
#if defined IS_METAL
#define KERN_ATTR_MAIN uint3 gid [[ thread_position_in_grid ]]
#elif defined IS_CUDA
#define KERN_ATTR_MAIN const u64 gid_max, const u32 lsz
#else
#define KERN_ATTR_MAIN const u64 gid_max
#endif
DECLSPEC u32 hc_atomic_inc (GLOBAL_AS u32 *p);
#endif
"""


def test_hashcat_device_headers_are_opencl_device_code() -> None:
    # OpenCL/inc_*.h: headers of the .cl kernels with a Metal branch among CUDA/HIP/OpenCL
    # ones; they are device code for every backend, not Metal-only and not portable.
    report = classify("OpenCL/inc_platform.h", HASHCAT_HEADER)
    assert report.language == "OpenCL"
    assert _layers(report) == {"kernel": report.code_lines}
    assert set(report.ecosystems) == {"opencl"}
    # Outside an OpenCL folder the same Metal attribute under a project switch stays C.
    assert classify("include/platform.h", HASHCAT_HEADER).language == "C Header"


def test_hashcat_include_cl_files_of_device_functions_are_kernel_code() -> None:
    # OpenCL/inc_hash_sha256.cl: device functions only, no __kernel entry point.
    source = b"""\
#include "inc_vendor.h"
DECLSPEC void sha256_init (PRIVATE_AS sha256_ctx_t *ctx)
{
  ctx->h[0] = SHA256M_A;
  ctx->len = 0;
}
"""
    report = classify("OpenCL/inc_hash_sha256.cl", source)
    assert _layers(report) == {"kernel": 6}
    assert report.ecosystems == {"opencl": 6}


def test_hashcat_backend_wrappers_are_vendor_path() -> None:
    # src/ext_metal.m drives Metal through an untyped id; src/ext_hiprtc.c the HIP compiler.
    metal = b"""\
int hc_mtlCreateCommandQueue (void *ctx, id metal_device, id *queue)
{
  *queue = [metal_device newCommandQueue];
  return (*queue == nil) ? -1 : 0;
}
"""
    report = classify("src/ext_metal.m", metal)
    assert report.ecosystems == {"metal": 1}
    hiprtc = (
        b"typedef hiprtcResult (*HIPRTC_HIPRTCCREATEPROGRAM) (hiprtcProgram *, const char *);\n"
    )
    assert classify("include/ext_hiprtc.h", hiprtc).ecosystems == {"hip": 1}


# -- AMReX-Codes/amrex: ParallelFor lambdas compiled for CUDA, HIP and SYCL -------------------

AMREX_LAMBDA = b"""\
void scale(amrex::MultiFab& mf, amrex::Real a) {
    for (amrex::MFIter mfi(mf); mfi.isValid(); ++mfi) {
        auto const& arr = mf.array(mfi);
        amrex::ParallelFor(mfi.tilebox(), [=] AMREX_GPU_DEVICE (int i, int j, int k) noexcept
        {
            arr(i,j,k) *= a;
        });
    }
}
"""


def test_amrex_device_lambdas_are_kernel_code_for_every_backend() -> None:
    # Src/**: the lambda handed to ParallelFor is device code, but AMReX builds it for CUDA,
    # HIP and SYCL alike: kernel lines that no single vendor locks in.
    report = classify("Src/Base/AMReX_Scale.cpp", AMREX_LAMBDA)
    assert report.line_rules[3:7] == ["portable-gpu.device-lambda"] * 4
    assert report.ecosystems == {"portable-gpu": 4}
    assert report.line_rules[0] == ""
    assert report.line_rules[8] == ""


def test_amrex_raw_builtins_in_a_backend_branch_are_cuda() -> None:
    # Src/Base/AMReX_FBI.H: one device function with a SYCL branch and a CUDA/HIP branch of
    # warp built-ins; only the latter is CUDA code, and not the SYCL half.
    source = b"""\
AMREX_GPU_DEVICE AMREX_FORCE_INLINE
void lock_cells(int* m, int icell) noexcept
{
#ifdef AMREX_USE_SYCL
    int tid = item.get_global_id(0);
#else
    int tid = blockDim.x*blockIdx.x + threadIdx.x;
    __syncwarp();
#endif
    m[tid] = icell;
}
"""
    report = classify("Src/Base/AMReX_FBI.H", source)
    assert report.line_rules[5:9] == ["cuda.device-body"] * 4
    assert report.line_rules[3] == "portable-gpu.device-code"
    assert report.ecosystems == {"cuda": 4, "portable-gpu": 7}


def test_project_kernel_macros_are_found_by_their_bodies() -> None:
    # Application codes on top of their own KERNEL/GLOBAL macros (defined in a header the file
    # does not show): the body's thread indices make the function device code.
    source = b"""\
#include "gpu_macros.h"
GLOBAL void update(double* u, const double* f, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { u[i] += f[i]; }
}
void host_update(double* u, const double* f, int n) { launch(update, u, f, n); }
"""
    report = classify("src/update.cc", source)
    assert report.line_rules[1:6] == ["cuda.device-body"] * 5
    assert report.line_rules[6] == ""
    # Host code that only names the words stays portable.
    host = b'int threadIdx_count = 0;\nvoid log_it() { puts("threadIdx.x"); }\n'
    assert classify("src/log.cc", host).layers[Layer.KERNEL] == 0


# -- xmrig/xmrig: OpenCL and CUDA mining backends ---------------------------------------------


def test_xmrig_host_backend_headers_are_not_device_code() -> None:
    # src/backend/opencl/OclConfig.h: the OpenCL backend's host classes, in an opencl/ folder.
    source = b"""\
#pragma once
#include "backend/opencl/OclLaunchData.h"
namespace xmrig {
class OclConfig { public: bool isEnabled() const { return m_enabled; } bool m_enabled = true; };
}
"""
    report = classify("src/backend/opencl/OclConfig.h", source)
    assert report.language == "C Header"
    assert report.layers[Layer.KERNEL] == 0


def test_cpuid_inline_assembly_is_not_ptx() -> None:
    # src/3rdparty/hwloc/include/private/cpuid-x86.h: x86 cpuid through inline asm.
    source = b"""\
static inline void hwloc_x86_cpuid(unsigned *eax, unsigned *ebx, unsigned *ecx, unsigned *edx)
{
  __asm__("cpuid\\n\\t" : "+a" (*eax), "=b" (*ebx), "+c" (*ecx), "=d" (*edx));
}
"""
    report = classify("include/private/cpuid-x86.h", source)
    assert report.layers[Layer.KERNEL] == 0


# -- openmm/openmm: one kernel source compiled for CUDA, HIP and OpenCL -----------------------


def test_openmm_common_kernels_are_multi_vendor_kernel_code() -> None:
    # platforms/common/src/kernels/*.cc: KERNEL/DEVICE macros defined per platform, and bare
    # body fragments that the host pastes into generated kernels.
    kernel = b"""\
KERNEL void applyThermostat(int numAtoms, GLOBAL mixed4* RESTRICT velm, real scale) {
    for (int index = GLOBAL_ID; index < numAtoms; index += GLOBAL_SIZE) {
        velm[index].x *= scale;
    }
}
"""
    report = classify("platforms/common/src/kernels/thermostat.cc", kernel)
    assert report.ecosystems == {"portable-gpu": 5}
    fragment = (
        b"real3 v0 = make_real3(pos2.x-pos1.x, pos2.y-pos1.y, pos2.z-pos1.z);\nenergy += v0.x;\n"
    )
    report = classify("platforms/common/src/kernels/angleForce.cc", fragment)
    assert report.ecosystems == {"portable-gpu": 2}
    # The CUDA platform's own kernels stay CUDA.
    cuda = b'extern "C" __global__ void clear(float* x) { x[threadIdx.x] = 0; }\n'
    assert classify("platforms/cuda/src/kernels/utilities.cu", cuda).ecosystems == {"cuda": 1}


# -- LLNL/RAJA and kokkos/kokkos: back-end folders of portability layers ----------------------


def test_backend_folders_of_portability_layers_are_hip() -> None:
    # RAJA include/RAJA/policy/hip/*.hpp guard themselves with RAJA_ENABLE_HIP; Kokkos keeps
    # its HIP back end in core/src/HIP/. Both are AMD code, not CUDA.
    source = b"""\
#if defined(RAJA_ENABLE_HIP)
#include <hip/hip_runtime.h>
__device__ inline int lane_sum(int v) { return __shfl_xor(v, 1) + v; }
#endif
"""
    for path in ("include/RAJA/policy/hip/intrinsics.hpp", "core/src/HIP/Kokkos_HIP_Team.hpp"):
        report = classify(path, source)
        assert report.language == "HIP", path
        assert set(report.ecosystems) == {"hip"}, path


# -- taichi-dev/taichi, tracel-ai/cubecl, Rust-GPU/Rust-CUDA: GPU DSLs ------------------------


def test_taichi_kernels_are_multi_vendor_kernels() -> None:
    source = b"""\
import taichi as ti
ti.init(arch=ti.gpu)
x = ti.field(dtype=ti.f32, shape=64)

@ti.func
def square(v):
    return v * v

@ti.kernel
def fill():
    for i in x:
        x[i] = square(i)
"""
    report = classify("python/taichi/examples/simple.py", source)
    assert report.ecosystems == {"taichi": 7}
    assert report.layers[Layer.KERNEL] == 7


def test_rust_gpu_kernels_and_bindings() -> None:
    cubecl = b"""\
use cubecl::prelude::*;

#[cube(launch)]
fn double<F: Float>(x: &mut Array<F>) {
    x[ABSOLUTE_POS] = x[ABSOLUTE_POS] * F::new(2.0);
}
"""
    assert classify("crates/kernels/src/double.rs", cubecl).ecosystems == {"cubecl": 4}
    rust_cuda = b"""\
use cuda_std::prelude::*;

#[kernel]
pub unsafe fn add(a: &[f32], out: *mut f32) {
    let i = thread::index_1d() as usize;
    *out.add(i) = a[i];
}
"""
    assert classify("kernels/src/lib.rs", rust_cuda).ecosystems == {"cuda": 6}
    driver = b"""\
use crate::sys::*;
pub fn count() -> i32 {
    let mut n = 0;
    unsafe { cuDeviceGetCount(&mut n) };
    n
}
"""
    report = classify("crates/cust/src/device.rs", driver)
    assert report.ecosystems == {"cuda": 1}
    assert report.layers[Layer.VENDOR_PATH] == 1
    wgpu = b"let module = device.create_shader_module(wgpu::ShaderModuleDescriptor { source });\n"
    assert classify("examples/compute.rs", wgpu).layers[Layer.PORTABLE] == 1
