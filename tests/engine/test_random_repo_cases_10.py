"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h35-a).

The pool is ``/work/pool-h35.txt``, ordered with ``random.seed("h35-pool")``; this lane took
positions 1-11. Three had no snapshot to fetch (shisa-ai/hipEngine, xynexus/hipfire,
jhinpan/ROCmKernelWiki). Fifteen files of each remaining repository were sampled with
``random.seed("owner/name")`` over every file lockin counts, and labelled before any fix. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers

# -- MarcoCiaramella/OpenSimplex2: noise on the CPU and on OpenCL kernels ---------------------


def test_opensimplex_host_header_beside_the_kernels_is_c() -> None:
    # GPU/OpenCL/OpenSimplex2F.h: the host's structs, declared with OpenCL's scalar typedefs,
    # in the GPU/OpenCL/ folder that also holds the .cl kernels. Before, the folder made it an
    # OpenCL device header and all 76 lines kernel code.
    source = b"""\
#include "opencl.h"

#define PSIZE 2048

typedef struct {
    cl_int xsv;
    cl_int ysv;
    cl_double dx;
    cl_double dy;
} LatticePoint2D;

typedef struct {
    cl_double dx;
    cl_double dy;
} Grad2;

double *noise2(OpenSimplexEnv *ose, double x, double y);
"""
    path = "GPU/OpenCL/OpenSimplex2F.h"
    assert classify(path, source).language == "C Header"
    assert set(_layers(path, source)) == {"portable"}


def test_opensimplex_kernel_header_in_the_folder_stays_opencl() -> None:
    # The negative: a header of device functions in an OpenCL/ folder, no host type nor API
    # header (hashcat's OpenCL/inc_*.h), is still OpenCL C.
    source = b"""\
#define N2 0.05481866495625118

typedef struct {
    int xsv, ysv;
    double dx, dy;
} LatticePoint2D;

inline double grad2(int h, double x, double y) {
    return (h & 1 ? x : -x) + (h & 2 ? y : -y);
}
"""
    path = "GPU/OpenCL/OpenSimplex2S.h"
    assert classify(path, source).language == "OpenCL"
    assert _layers(path, source) == {"kernel": 8}


def test_opensimplex_host_wrapper_is_opencl_host_code() -> None:
    # GPU/OpenCL/opencl.c: the one file that drives the OpenCL API; the noise code calls its
    # run_kernel wrapper with cl_double buffers and stays portable (scalar typedefs are C types).
    source = b"""\
#include "opencl.h"

void get_GPU_device(cl_platform_id platform, cl_device_id *device) {
    cl_device_id devices[1];
    exit_on_error(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, devices, NULL));
    *device = devices[0];
}
"""
    layers = _layers("GPU/OpenCL/opencl.c", source)
    assert layers["vendor-path"] >= 2
    caller = b"""\
#include "OpenSimplex2F.h"

double *noise2_batch(OpenSimplexEnv *ose, OpenCLEnv *env, double *points, size_t n) {
    cl_int dims = 2;
    return run_kernel(env, "noise2", ose->perm, ose->permGrad2, NULL, points, n, 0, 0, n, dims);
}
"""
    assert set(_layers("GPU/OpenCL/OpenSimplex2F.c", caller)) == {"portable"}


# -- byungwoo733/OpenCL_Programming: a book's OpenCL examples, host snippets kept as .cl ---------


def test_opencl_book_host_snippet_in_a_cl_file_is_host_code() -> None:
    # OpenCL_examples/OpenCL_RunningKernel.cl: setting arguments and enqueueing a kernel, C++
    # host code saved with the kernel extension. Before, every line was kernel code.
    source = b"""\
// Running Kernel
errNum = clSetKernelArg(kernel, 0, sizeof(cl_mem), &memObjects[0]);
errNum = clSetKernelArg(kernel, 1, sizeof(cl_mem), &memObjects[1]);
if (errNum != CL_SUCCESS)
{
    std::cerr << "Error setting kernel arguments." << std::endl;
    return 1;
}
size_t globalWorkSize[1] = { ARRAY_SIZE };
errNum = clEnqueueNDRangeKernel(commandQueue, kernel, 1, NULL,
                                globalWorkSize, NULL, 0, NULL, NULL);
"""
    path = "OpenCL_examples/OpenCL_RunningKernel.cl"
    report = classify(path, source)
    assert report.language == "C++"
    layers = _layers(path, source)
    assert "kernel" not in layers
    assert layers["vendor-path"] >= 3


def test_opencl_book_kernel_file_stays_opencl_kernel() -> None:
    # OpenCL_examples/OpenCL_HighSpeed_Fourier_Transform_Ocean_example.cl: kernels only.
    source = b"""\
__kernel void spectrum(__global float2 *h0, __global float2 *ht, float t, int n)
{
    int i = get_global_id(0);
    float2 a = h0[i];
    ht[i] = (float2)(a.x * cos(t), a.y * sin(t));
}
"""
    path = "OpenCL_examples/OpenCL_HighSpeed_Fourier_Transform_Ocean_example.cl"
    assert classify(path, source).language == "OpenCL"
    assert _layers(path, source) == {"kernel": 6}


# -- ariasanovsky/cuda-loop: a Rust kernel built by rustc's nvptx64 target, run with cudarc -----


def test_cuda_loop_ptx_kernel_in_rust_is_kernel_code() -> None:
    # src/lib.rs: `extern "ptx-kernel"` under #![feature(abi_ptx)], reading the thread and
    # block indices through core::arch::nvptx. Before, all 22 lines were portable.
    source = b"""\
#![feature(abi_ptx)]
#![no_std]

use core::arch::nvptx::*;

mod device;
use device::device;

#[no_mangle]
pub unsafe extern "ptx-kernel" fn kernel(array: *mut i32, size: u32) {
    let thread_id: i32 = _thread_idx_x();
    let block_id: i32 = _block_idx_x();
    let n_threads: i32 = _block_dim_x() * _grid_dim_x();
    let index = thread_id as usize;
    if index < size as usize {
        *array.offset(index as isize) = device(thread_id, block_id, n_threads);
    }
}
"""
    report = classify("src/lib.rs", source)
    assert {f.rule for f in report.findings} == {"cuda.rust-nvptx-body"}
    assert _layers("src/lib.rs", source) == {"kernel": 10, "portable": 5}


def test_cuda_loop_device_helper_without_intrinsics_stays_portable() -> None:
    # src/device.rs: plain arithmetic the kernel calls; it compiles for any target.
    source = b"""\
pub fn device(thread_id: i32, block_id: i32, n_threads: i32) -> i32 {
    thread_id + block_id + n_threads + 100000
}
"""
    assert set(_layers("src/device.rs", source)) == {"portable"}


def test_cuda_loop_cargo_build_for_the_nvptx_target_is_vendor_path() -> None:
    # examples/mvp.rs (commit 681b2ac, "fn build_nvptx()"): cargo run for rustc's NVPTX target
    # and the PTX copied out of its target folder. Before, the commit added no vendor line.
    source = b"""\
use std::path::Path;
use std::process::Command;

fn build_nvptx() -> std::io::Result<()> {
    let output = Command::new("cargo")
        .arg("rustc")
        .arg("--target")
        .arg("nvptx64-nvidia-cuda")
        .output()?;
    let target_dir = Path::new("target/nvptx64-nvidia-cuda/release");
    println!("{}", target_dir.display());
    Ok(())
}
"""
    report = classify("examples/mvp.rs", source)
    assert [(f.rule, f.start_line) for f in report.findings] == [
        ("build.rust-cuda-link", 8),
        ("build.rust-cuda-link", 10),
    ]


# -- monofuel/hippo: Nim GPU kernels on HIP, CUDA or the CPU --------------------------------


def test_hippo_direct_hip_calls_from_nim_are_hip_host_code() -> None:
    # examples/vector_sum_hip_nvidia.nim: hipMalloc, hipMemcpy and hipFree called from Nim.
    # Before, all 33 lines were portable.
    source = b"""\
import hippo

proc main() =
  var dev_a: pointer
  handleError(hipMalloc(addr dev_a, sizeof(int32)*N))
  handleError(hipMemcpy(dev_a, addr a[0], sizeof(int32)*N, hipMemcpyHostToDevice))
  handleError(hipFree(dev_a))
"""
    report = classify("examples/vector_sum_hip_nvidia.nim", source)
    assert {f.rule for f in report.findings} == {"hip.nim-host"}
    assert _layers("examples/vector_sum_hip_nvidia.nim", source) == {
        "vendor-path": 3,
        "portable": 3,
    }


def test_hippo_portable_api_reusing_hip_enum_names_stays_portable() -> None:
    # examples/vector_sum_hippo.nim: hippo's own calls, which pick HIP, CUDA or the CPU at build
    # time; the HIP-named copy direction is hippo's constant for every back end.
    source = b"""\
import hippo

proc main() =
  var dev_a = hippoMalloc(sizeof(int32)*N)
  hippoMemcpy(dev_a, addr a[0], sizeof(int32)*N, hipMemcpyHostToDevice)
  hippoLaunchKernel(addKernel, gridDim = newDim3(N.uint32), args = hippoArgs(dev_a))
"""
    assert set(_layers("examples/vector_sum_hippo.nim", source)) == {"portable"}


def test_hippo_nimscript_compiler_choices_are_vendor_build_flags() -> None:
    # tests/hip/config.nims, examples/vector_sum_hip_nvidia.nims, examples/vector_sum_cuda.nims:
    # Nim's back end handed to hipcc or nvcc. Before, every line was portable.
    hip = b"""\
--path:"../../src"
--define:"HippoRuntime:HIP_CPU"
--cc:hipcc
--define:"useMalloc"
"""
    assert _layers("tests/hip/config.nims", hip) == {"vendor-path": 1, "portable": 3}
    nvidia = b"""\
--path:"../src"
--cc:nvcc
--nvcc.cpp.exe:hipcc
--nvcc.cpp.linkerexe:hipcc
--define:"useMalloc"
"""
    report = classify("examples/vector_sum_hip_nvidia.nims", nvidia)
    assert {f.rule for f in report.findings} == {"build.nim-nvcc", "build.nim-hipcc"}
    assert report.ecosystems == {"cuda": 1, "hip": 2}
    threads = b"""\
--path:"../src"
--threads:on
--define:"HippoRuntime:SIMPLE"
"""
    assert set(_layers("examples/vector_sum_threads.nims", threads)) == {"portable"}


def test_hippo_flake_dev_shell_pulls_both_vendors_toolkits() -> None:
    # flake.nix: one dev shell with NVIDIA's toolkit and driver and AMD's ROCm from nixpkgs.
    source = b"""\
{
  outputs = { self, nixpkgs }: {
    devShells.default = pkgs.mkShell {
      buildInputs = with pkgs; [
        nim
        cudatoolkit
        cudaPackages.cuda_nvcc
        linuxPackages.nvidia_x11
        rocmPackages.clr
        rocmPackages.hip-common
      ];
    };
  };
}
"""
    report = classify("flake.nix", source)
    assert report.ecosystems == {"cuda": 3, "hip": 2}


# -- carni-ships/zkMetal: zero-knowledge proving on Metal, with Rust and Go bindings -------------


def test_zkmetal_rust_build_script_linking_metal_is_vendor_path() -> None:
    # Sources/zkMetal-ffi/RustBindings/build.rs: links the Swift library and Apple's Metal
    # framework. Before, all 20 lines were portable.
    source = b"""\
fn main() {
    let lib_dir = std::env::var("ZKMETAL_LIB_DIR").unwrap_or_default();
    println!("cargo:rustc-link-search=native={}", lib_dir);
    println!("cargo:rustc-link-lib=dylib=zkMetal-ffi");
    println!("cargo:rustc-link-lib=framework=Metal");
    println!("cargo:rustc-link-lib=framework=Foundation");
}
"""
    report = classify("Sources/zkMetal-ffi/RustBindings/build.rs", source)
    assert {f.rule for f in report.findings} == {"build.rust-metal-link"}
    assert _layers("build.rs", source) == {"vendor-path": 1, "portable": 6}


def test_zkmetal_metal_shader_and_swift_engine() -> None:
    # Sources/Shaders/fields/goldilocks.metal is kernel code whole; a Swift engine importing
    # Metal and making its pipeline is Metal host code.
    shader = b"""\
#include <metal_stdlib>
using namespace metal;

kernel void gl_add(device const ulong *a [[buffer(0)]],
                   device ulong *out [[buffer(1)]],
                   uint gid [[thread_position_in_grid]]) {
    out[gid] = a[gid] + 1;
}
"""
    assert _layers("Sources/Shaders/fields/goldilocks.metal", shader) == {"kernel": 7}
    swift = b"""\
import Foundation
import Metal

final class GoldilocksEngine {
    let device: MTLDevice
    init?() {
        guard let d = MTLCreateSystemDefaultDevice() else { return nil }
        device = d
    }
}
"""
    layers = _layers("Sources/zkMetal/Fields/GoldilocksEngine.swift", swift)
    assert layers["vendor-path"] >= 3


# -- lambdaclass/lambdaworks: a proving library with CUDA and Metal back ends ------------------


def test_lambdaworks_cuda_backend_through_cudarc_is_vendor_path() -> None:
    # crates/crypto/src/merkle_tree/cuda/backend.rs: the CUDA Merkle backend on cudarc.
    source = b"""\
use cudarc::driver::{CudaDevice, LaunchAsync, LaunchConfig};
use std::sync::Arc;

pub struct CudaPoseidonBackend {
    device: Arc<CudaDevice>,
}

impl CudaPoseidonBackend {
    pub fn len(&self) -> usize {
        0
    }
}
"""
    layers = _layers("crates/crypto/src/merkle_tree/cuda/backend.rs", source)
    assert layers["vendor-path"] >= 2
    assert "kernel" not in layers


def test_lambdaworks_metal_backend_types_are_metal_host_code() -> None:
    # crates/crypto/src/merkle_tree/backends/metal/backend.rs and fuzz/metal_fuzz/*: the
    # crate's own Metal state and errors over metal-rs, the twin of its CUDA backend's Cuda*
    # types. Before, the Metal files were portable while their CUDA twins were vendor-path.
    source = b"""\
use lambdaworks_gpu::metal::abstractions::{errors::MetalError, state::DynamicMetalState};

const POSEIDON_SHADER: &str = include_str!("shaders/poseidon.metal");

pub struct MetalPoseidonBackend;

impl MetalPoseidonBackend {
    pub fn hash_leaves_gpu(leaves: &[u64]) -> Result<Vec<u64>, MetalError> {
        let mut state = DynamicMetalState::new()?;
        state.load_library(POSEIDON_SHADER)?;
        Ok(leaves.to_vec())
    }
}
"""
    path = "crates/crypto/src/merkle_tree/backends/metal/backend.rs"
    report = classify(path, source)
    assert {f.rule for f in report.findings} == {"metal.rust-backend-type"}
    assert _layers(path, source) == {"vendor-path": 5, "portable": 5}


def test_lambdaworks_cargo_manifests_pulling_gpu_back_ends() -> None:
    # crates/math/Cargo.toml: metal-rs as a dependency and the feature pulling it in;
    # fuzz/cuda_fuzz/Cargo.toml: the workspace crates with their cuda feature on.
    math = b"""\
[dependencies]
cudarc = { version = "0.9.7", optional = true }
metal = { version = "0.29", optional = true }
serde = { version = "1.0", default-features = false }

[features]
cuda = ["dep:cudarc", "lambdaworks-gpu/cuda"]
metal = ["dep:metal", "lambdaworks-gpu/metal"]
"""
    report = classify("crates/math/Cargo.toml", math)
    assert [(f.rule, f.start_line) for f in report.findings] == [
        ("deps.cuda-crate", 2),
        ("deps.metal-crate", 3),
        ("deps.cuda-crate", 7),
        ("deps.metal-crate", 8),
    ]
    fuzz = b"""\
[dependencies]
lambdaworks-math = { workspace = true, features = ["cuda"] }
lambdaworks-gpu = { workspace = true, features = ["cuda"] }
honggfuzz = "0.5.55"
"""
    assert _layers("fuzz/cuda_fuzz/Cargo.toml", fuzz) == {"vendor-path": 2, "portable": 2}


# -- fnalacceleratormodeling/synergia2: beam dynamics on Kokkos, with vendored Boost ------------


def test_synergia_kokkos_inline_functions_are_portable_gpu_kernels() -> None:
    # src/synergia/libFF/ff_octupole.h: element kernels marked KOKKOS_INLINE_FUNCTION, device
    # code of a portable model (the portable-gpu ecosystem), not a vendor's.
    source = b"""\
#include <Kokkos_Core.hpp>

namespace FF_octupole {
  template <typename T>
  KOKKOS_INLINE_FUNCTION void thin_octupole_unit(T const& x, T const& y, T& xp, T& yp, double k) {
    xp += k * (x * x * x - 3.0 * x * y * y);
    yp -= k * (3.0 * x * x * y - y * y * y);
  }
}
"""
    report = classify("src/synergia/libFF/ff_octupole.h", source)
    assert {f.rule for f in report.findings} == {"portable-gpu.device-code"}
    assert report.ecosystems == {"portable-gpu": 5}


# -- uDeviceX/uDeviceX: blood-flow simulation in CUDA behind its own launch macros -----------------


def test_udevicex_curand_state_in_host_code_is_a_vendor_library() -> None:
    # src/control/inflow/imp/main.h: cuRAND states initialised through the project's KL launch
    # macro; the cuRAND type is the vendor library.
    source = b"""\
static void ini_rnd(int n, curandState_t *rr) {
    KL(inflow_dev::ini_rnd, (k_cnf(n)), (1234, n, rr));
}

void inflow_ini(int n, Inflow *d) {
    Dalloc(&d->rnds, n);
    ini_rnd(n, d->rnds);
}
"""
    layers = _layers("src/control/inflow/imp/main.h", source)
    assert layers["vendor-library"] >= 1
    assert "kernel" not in layers
