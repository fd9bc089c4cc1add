"""Cases from a seventh audit: cryptography, zero-knowledge provers, mining and key search
(issue 27).

tpruvot/ccminer (a CUDA miner: hundreds of hash kernels, NVML and NVAPI for clocks and fans,
an autotools build), JeanLucPons/Kangaroo (Pollard's kangaroo on secp256k1 with PTX carry
chains), johguse/profanity and samr7/vanitygen (OpenCL vanity-address searches),
matter-labs/era-boojum-cuda (a CUDA prover library driven from Rust), filecoin-project/
bellperson (Groth16 through ec-gpu, or SupraSeal's CUDA prover) and risc0/risc0 (a zkVM whose
circuits run on CUDA and Metal, and whose tests hold RISC-V guest programs). Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import Layer
from tests.engine.test_ml_repo_cases import _layers
from tests.policy.test_gate_growth import delta, judge

# -- tpruvot/ccminer: round functions as macros, NVML and NVAPI, autotools ----------------------

_FUGUE = b"""\
#include "cuda_helper.h"

#define TIX2(q, x00, x01, x08, x10, x24) { \\
        x10 ^= x00; \\
        x00 = (q); \\
        x08 ^= x00; \\
        x01 ^= x24; \\
    }

#define CMIX30(x00, x01, x02, x04, x05, x06, x15, x16, x17) { \\
        x00 ^= x04; \\
        x01 ^= x05; \\
        x15 ^= x04; \\
        x16 ^= x05; \\
    }

__global__ void fugue256_gpu_hash(uint32_t threads, uint32_t *state)
{
    uint32_t thread = blockDim.x * blockIdx.x + threadIdx.x;
    if (thread < threads) {
        uint32_t *S = &state[thread * 30];
        TIX2(S[0], S[1], S[2], S[3], S[4], S[5]);
        CMIX30(S[6], S[7], S[8], S[9], S[10], S[11], S[12], S[13], S[14]);
    }
}

void fugue256_cpu_hash(int thr_id, uint32_t threads, uint32_t *d_state)
{
    dim3 grid((threads + 255) / 256), block(256);
    fugue256_gpu_hash<<<grid, block>>>(threads, d_state);
}
"""


def test_ccminer_round_macros_count_with_the_kernel_that_expands_them() -> None:
    # Algo256/cuda_fugue256.cu: TIX2 and CMIX30 are the kernel's rounds. Before, only the
    # __global__ function counted (121 of the file's ~210 device lines).
    report = classify("Algo256/cuda_fugue256.cu", _FUGUE)
    kernel_lines = {
        line
        for finding in report.findings
        if finding.layer is Layer.KERNEL
        for line in range(finding.start_line, finding.end_line + 1)
    }
    assert set(range(3, 9)) <= kernel_lines  # TIX2
    assert set(range(10, 16)) <= kernel_lines  # CMIX30
    assert report.layers[Layer.KERNEL] == 6 + 6 + 9
    assert report.layers[Layer.VENDOR_PATH] == 1  # the launch


def test_ccminer_host_twin_of_a_round_stays_host_code() -> None:
    # Algo256/cuda_blake256.cu keeps hostGS, the CPU copy of the round, for the precalculation
    # the host does before the launch; the device GS beside it is kernel code.
    source = b"""\
#define hostGS(a, b, c, d, x) { \\
    v[a] += (m[x] ^ c_u256[x + 1]) + v[b]; \\
    v[d] = ROTR32(v[d] ^ v[a], 16); \\
}

void blake256_cpu_setBlock(uint32_t *pdata, uint32_t *v, const uint32_t *m)
{
    hostGS(0, 4, 8, 12, 0);
    cudaMemcpyToSymbol(c_data, v, 64, 0, cudaMemcpyHostToDevice);
}
"""
    report = classify("Algo256/cuda_blake256.cu", source)
    assert report.layers[Layer.KERNEL] == 0
    assert report.ecosystems == {"cuda": report.layers[Layer.VENDOR_PATH]}


def test_ccminer_structural_macros_without_xor_are_left_out() -> None:
    # x16/cuda_x16_simd512_80.cu builds its FFT from add/sub macros that only the kernel
    # expands: no signal on their lines, so they are not counted (a miss left: the kernel's
    # own lines count, the 1,300 lines of macros do not).
    source = b"""\
#define FFT_LOOP(rb) do { \\
    int m = q[(rb)]; \\
    int n = q[(rb) + 16]; \\
    q[(rb)] = m + n; \\
    q[(rb) + 16] = m - n; \\
} while (0)
"""
    assert _layers("x16/cuda_x16_simd512_80.cu", source) == {"portable": 6}


def test_ccminer_nvml_through_dlsym_is_an_nvidia_code_path() -> None:
    # nvml.cpp: libnvidia-ml resolved at run time and called through the handle's pointers to
    # read temperatures and set application clocks. Before, 40 of its 1,876 lines counted.
    source = b"""\
nvml_handle *nvml_create()
{
    nvml_handle *h = (nvml_handle *) calloc(1, sizeof(nvml_handle));
    h->nvml_dll = wrap_dlopen("libnvidia-ml.so");
    h->nvmlInit = (nvmlReturn_t (*)(void)) wrap_dlsym(h->nvml_dll, "nvmlInit_v2");
    h->nvmlInit();
    return h;
}

int nvml_set_clocks(nvml_handle *h, int dev, unsigned mem, unsigned gpu)
{
    nvmlReturn_t rc = h->nvmlDeviceSetApplicationsClocks(h->devs[dev], mem, gpu);
    if (rc != NVML_SUCCESS)
        return -1;
    return 0;
}
"""
    report = classify("nvml.cpp", source)
    assert report.language == "C++"
    # NVML is a management library with no mapped peer (AMD SMI differs call by call): its
    # calls are an NVIDIA code path (cuda.nvml), as lane t's NVML and DCGM cases count them;
    # so is the load of libnvidia-ml by name (cuda.library-load-name, round 8).
    assert report.layers[Layer.VENDOR_PATH] == 6
    assert report.ecosystems == {"cuda": 6}


def test_ccminer_nvapi_calls_are_an_nvidia_code_path() -> None:
    # nvapi.cpp: NVAPI's entry points on Windows (Pascal boost tables, thermal settings).
    source = b"""\
int nvapi_temperature(NvPhysicalGpuHandle gpu, int *celsius)
{
    NV_GPU_THERMAL_SETTINGS t = { 0 };
    t.version = NV_GPU_THERMAL_SETTINGS_VER;
    NvAPI_Status ret = NvAPI_GPU_GetThermalSettings(gpu, 0, &t);
    *celsius = t.sensor[0].currentTemp;
    return ret == NVAPI_OK ? 0 : -1;
}
"""
    report = classify("nvapi.cpp", source)
    assert report.layers[Layer.VENDOR_PATH] == 4
    assert report.layers[Layer.PORTABLE] == 4


def test_a_commit_adding_nvml_clock_calls_fails_the_gate() -> None:
    # ccminer 0c545eb7 ("nvml: check available memory clocks"): the new NVML call is a new
    # NVIDIA-only code path (before, the diff saw portable code), so the change needs a decision.
    before = """\
int nvml_set_clocks(nvml_handle *h, int n, unsigned mem_clk)
{
    return 0;
}
"""
    after = """\
int nvml_set_clocks(nvml_handle *h, int n, unsigned mem_clk)
{
    unsigned nclocks = 0, clocks[128] = { 0 };
    h->nvmlDeviceGetSupportedMemoryClocks(h->devs[n], &nclocks, clocks);
    for (unsigned u = 0; u < nclocks; u++)
        if (clocks[u] <= mem_clk) { mem_clk = clocks[u]; break; }
    return 0;
}
"""
    change = delta("nvml.cpp", before, after)
    assert change.added[Layer.VENDOR_PATH] == 1
    assert judge(change).conclusion == "failure"


def test_ccminer_configure_ac_setting_up_nvcc_is_a_cuda_build() -> None:
    # configure.ac: --with-cuda, nvcc and -lcudart for the Makefile.
    source = b"""\
AC_INIT([ccminer], [2.3.1])
AC_ARG_WITH([cuda], [  --with-cuda=PATH    prefix where cuda is installed])
NVCC="nvcc"
CUDA_LIBS="-lcudart"
AC_SUBST(CUDA_LIBS)
AC_OUTPUT
"""
    assert _layers("configure.ac", source) == {"vendor-path": 2, "portable": 4}


# -- JeanLucPons/Kangaroo: PTX carry chains and the nvcc build -----------------------------------


def test_kangaroo_ptx_carry_chain_and_device_arithmetic_are_kernel_code() -> None:
    # GPU/GPUMath.h: add-with-carry macros on inline PTX, and device functions built on them.
    source = b"""\
#define UADDO(c, a, b) asm volatile ("add.cc.u64 %0, %1, %2;" : "=l"(c) : "l"(a), "l"(b));
#define UADDC(c, a, b) asm volatile ("addc.cc.u64 %0, %1, %2;" : "=l"(c) : "l"(a), "l"(b));

__device__ void ModAdd256(uint64_t *r, uint64_t *a, uint64_t *b)
{
    UADDO(r[0], a[0], b[0]);
    UADDC(r[1], a[1], b[1]);
}
"""
    report = classify("GPU/GPUMath.h", source)
    assert report.ecosystems == {"cuda": report.code_lines}
    assert report.layers[Layer.KERNEL] == report.code_lines == 7


def test_kangaroo_makefile_building_with_nvcc_is_a_vendor_path() -> None:
    source = b"""\
CXX = g++
CUDA = /usr/local/cuda-8.0
NVCC = $(CUDA)/bin/nvcc

obj/GPU/GPUEngine.o: GPU/GPUEngine.cu
\t$(NVCC) --compile -gencode=arch=compute_61,code=sm_61 -o $@ -c $<
"""
    layers = _layers("Makefile", source)
    assert layers["vendor-path"] >= 3


# -- johguse/profanity, samr7/vanitygen: OpenCL kernels and their host code -------------------


def test_profanity_opencl_kernel_file_counts_whole_and_runs_everywhere() -> None:
    source = b"""\
__kernel void profanity_score_range(__global mp_number * const pInverse,
                                    __global result * const pResult)
{
    const size_t id = get_global_id(0);
    pResult[id].found = pInverse[id].d[0] == 0;
}
"""
    report = classify("profanity.cl", source)
    assert report.language == "OpenCL"
    assert report.layers[Layer.KERNEL] == report.code_lines == 6


def test_vanitygen_opencl_host_engine_is_opencl_host_code() -> None:
    # oclengine.c: buffers and kernel launches through the OpenCL API; not NVIDIA-only.
    source = b"""\
int vg_ocl_kernel_start(vg_ocl_context_t *vocp, int slot, int ncol, int nrow)
{
    size_t globalws[2] = { ncol, nrow };
    cl_int ret = clEnqueueNDRangeKernel(vocp->voc_oclcmdq, vocp->voc_oclkernel[slot][0],
                                        2, NULL, globalws, NULL, 0, NULL, NULL);
    return ret == CL_SUCCESS;
}
"""
    report = classify("oclengine.c", source)
    assert report.ecosystems == {"opencl": report.layers[Layer.VENDOR_PATH]}
    assert report.layers[Layer.VENDOR_PATH] >= 2


# -- matter-labs/era-boojum-cuda: Rust over a CUDA static library -------------------------------


def test_boojum_build_script_linking_cudart_is_a_cuda_build() -> None:
    # build/main.rs: CMake builds the native kernels for CUDAARCHS, then cudart is linked.
    source = b"""\
fn main() {
    let archs = std::env::var("NATIVE_ARCHS").unwrap_or("native".to_string());
    let dst = cmake::Config::new("native")
        .profile("Release")
        .define("CMAKE_CUDA_ARCHITECTURES", archs)
        .build();
    println!("cargo:rustc-link-search=native={}", dst.display());
    println!("cargo:rustc-link-lib=static=boojum_cuda_native");
    println!("cargo:rustc-link-lib=cudart");
}
"""
    assert _layers("build/main.rs", source) == {"vendor-path": 2, "portable": 8}


def test_boojum_launch_geometry_on_era_cudart_is_cuda_host_code() -> None:
    # src/utils.rs: grid and block sizes as era_cudart's Dim3, for 32-lane warps.
    source = b"""\
use era_cudart::execution::Dim3;

pub fn grid_block_dims(threads_per_block: u32, count: u32) -> (Dim3, Dim3) {
    let block = count.min(threads_per_block);
    ((count + block - 1) / block).into()
}
"""
    report = classify("src/utils.rs", source)
    assert report.ecosystems == {"cuda": report.layers[Layer.VENDOR_PATH]}
    assert report.layers[Layer.VENDOR_PATH] >= 1


def test_boojum_unqualified_cub_calls_are_cub_library_calls() -> None:
    # native/ops_cub/device_scan.cu: `using namespace cub;` sits in ops_cub/common.cuh, so
    # the calls are unqualified; before, only the cudaError_t/cudaStream_t lines counted.
    source = b"""\
#include "common.cuh"

EXTERN cudaError_t exclusive_sum_u32(void *tmp, size_t &bytes, const uint32_t *in,
                                     uint32_t *out, int n, cudaStream_t stream) {
  return DeviceScan::ExclusiveSum(tmp, bytes, in, out, n, stream);
}
"""
    report = classify("native/ops_cub/device_scan.cu", source)
    assert report.layers[Layer.VENDOR_LIBRARY] == 1
    assert report.ecosystems == {"cuda": report.code_lines - 2}


# -- filecoin-project/bellperson: SupraSeal's CUDA prover beside ec-gpu ------------------------


def test_bellperson_supraseal_prover_call_is_a_cuda_path() -> None:
    # src/groth16/prover/supraseal.rs (the cuda-supraseal feature): the proof comes from
    # SupraSeal's CUDA Groth16 prover.
    source = b"""\
pub fn create_proof_batch(provers: &[Assignment], srs: &SuprasealSrs) -> Vec<Proof> {
    let mut proofs = vec![Proof::default(); provers.len()];
    supraseal_c2::generate_groth16_proofs(provers, srs, &mut proofs);
    proofs
}
"""
    report = classify("src/groth16/prover/supraseal.rs", source)
    assert report.ecosystems == {"cuda": report.layers[Layer.VENDOR_PATH]}
    assert report.layers[Layer.VENDOR_PATH] == 1


def test_bellperson_ec_gpu_multiexp_stays_portable() -> None:
    # src/gpu/multiexp.rs: rust_gpu_tools picks CUDA or OpenCL; the code names neither.
    source = b"""\
use ec_gpu_gen::multiexp::MultiexpKernel;
use rust_gpu_tools::Device;

pub fn kernel_for(devices: &[&Device]) -> MultiexpKernel<G1Affine> {
    MultiexpKernel::create(programs(devices), devices)
}
"""
    assert _layers("src/gpu/multiexp.rs", source) == {"portable": 5}


# -- risc0/risc0: RISC-V guest programs, a three-way platform header, the CUDA HAL -------------


def test_risc0_riscv_guest_ecalls_are_not_ptx() -> None:
    # risc0/circuit/rv32im-sys/cxx/rv32im/test/test_io_kernel.cpp: the zkVM's machine-mode
    # "kernel" for a test, compiled for RISC-V; before, its ecalls counted as inline PTX.
    source = b"""\
inline void die() {
  asm("unimp\\n");
}

inline uint32_t host_read(uint32_t fd, uint32_t buf, uint32_t len) {
  register uintptr_t a0 asm("a0") = fd;
  register uintptr_t a1 asm("a1") = buf;
  register uintptr_t a7 asm("a7") = 1;
  asm volatile("ecall\\n" : "+r"(a0) : "r"(a1), "r"(a7));
  return a0;
}
"""
    path = "risc0/circuit/rv32im-sys/cxx/rv32im/test/test_io_kernel.cpp"
    assert _layers(path, source) == {"portable": 10}


def test_risc0_platform_header_with_cuda_and_metal_branches_stays_cxx() -> None:
    # risc0/circuit/rv32im-sys/cxx/rv32im/base/platform.h: one branch per back end; before,
    # the Metal branch made the whole header Metal kernel code.
    source = b"""\
#pragma once
#if defined(CUDA)
__device__ inline void ATOMIC_ADD(uint32_t& data, uint32_t toAdd) {
  atomicAdd(&data, toAdd);
}
#elif defined(METAL)
using namespace metal;
#include <metal_atomic>
inline void ATOMIC_ADD(atomic_uint device& data, uint32_t toAdd) {
  atomic_fetch_add_explicit(&data, toAdd, memory_order_relaxed);
}
#else
inline void ATOMIC_ADD(std::atomic<uint32_t>& data, uint32_t toAdd) {
  data.fetch_add(toAdd, std::memory_order_relaxed);
}
#endif
"""
    report = classify("risc0/circuit/rv32im-sys/cxx/rv32im/base/platform.h", source)
    assert report.language == "C Header"
    assert report.layers[Layer.KERNEL] == 3
    # The `#if defined(CUDA)` line is the CUDA branch's guard (cuda.build-guard), counted with
    # the branch's three kernel lines.
    assert report.ecosystems.get("cuda") == 4


def test_risc0_circuit_cuda_hal_in_rust_is_cuda_host_code() -> None:
    # risc0/circuit/keccak/src/prove/hal/cuda.rs: the circuit's HAL over risc0_zkp's CudaHal.
    source = b"""\
use risc0_zkp::hal::cuda::{BufferImpl as CudaBuffer, CudaHal, CudaHash};

pub struct CudaCircuitHal<CH: CudaHash> {
    hal: Rc<CudaHal<CH>>,
}

impl<CH: CudaHash> CudaCircuitHal<CH> {
    pub fn new(hal: Rc<CudaHal<CH>>) -> Self {
        Self { hal }
    }
}
"""
    report = classify("risc0/circuit/keccak/src/prove/hal/cuda.rs", source)
    assert report.ecosystems == {"cuda": report.layers[Layer.VENDOR_PATH]}
    assert report.layers[Layer.VENDOR_PATH] >= 5


def test_risc0_metal_folder_header_of_address_space_structs_is_metal() -> None:
    # risc0/circuit/recursion-sys/kernels/metal/context.h: structs of `device` pointers that
    # the .metal kernels include; no Metal header or attribute says so.
    source = b"""\
#pragma once
#include "fpext.h"

struct AccumBuffers {
  device Fp* ctrl;
  device Fp* data;
  device Fp* accum;
};
"""
    report = classify("risc0/circuit/recursion-sys/kernels/metal/context.h", source)
    assert report.language == "Metal"
    assert report.layers[Layer.KERNEL] == report.code_lines == 7


def test_a_metal_folder_host_header_naming_a_device_stays_cxx() -> None:
    # A host header beside a Metal back end: `device` is a type there, not an address space.
    source = b"""\
#pragma once
struct Backend {
  device* dev;
  int queues;
};
"""
    report = classify("src/backends/metal/backend.h", source)
    assert report.language == "C Header"
    assert report.layers[Layer.KERNEL] == 0
