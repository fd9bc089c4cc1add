"""More cases seen in real repositories outside machine learning (the second audit round):
HPC libraries, a GPU primitives library of each vendor, a miner, a Fortran benchmark, a
compiler with GPU back ends.

Each snippet is a small rewrite, in our own words, of a pattern found there; the repository is
named per test. They pin the verdict a porting engineer gives the file: its language, the
layer of its lines and the ecosystem (so the vendors) they belong to.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import FileReport, Layer


def _layers(report: FileReport) -> dict[str, int]:
    return {layer.value: count for layer, count in report.layers.items() if count}


# -- ethereum-mining/ethminer: CUDA headers of DEV_INLINE functions -----------------------------


def test_ethminer_device_headers_behind_a_project_macro_are_cuda_kernels() -> None:
    # libethash-cuda/keccak.cuh, fnv.cuh: DEV_INLINE is `__device__ __forceinline__` in
    # cuda_helper.h; the header itself never spells __device__.
    source = b"""\
#include "cuda_helper.h"
DEV_INLINE uint2 xor3(const uint2 a, const uint2 b, const uint2 c)
{
#if __CUDA_ARCH__ >= 500
    uint2 r;
    asm volatile ("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r.x) : "r"(a.x), "r"(b.x), "r"(c.x));
    return r;
#else
    return a ^ b ^ c;
#endif
}

DEV_INLINE uint32_t fnv_reduce(uint4 v)
{
    return fnv(fnv(fnv(v.x, v.y), v.z), v.w);
}
"""
    report = classify("libethash-cuda/keccak.cuh", source)
    assert report.ecosystems == {"cuda": report.code_lines - 1}
    assert report.layers[Layer.KERNEL] == report.code_lines - 1
    assert report.line_rules[0] == ""  # the #include


def test_macro_calls_and_constants_named_device_are_not_declarations() -> None:
    source = b"""\
void run(int x) {
  DEVICE_CHECK(x);
}
static const int DEVICE_COUNT = 4;
"""
    assert classify("src/run.cu", source).layers[Layer.KERNEL] == 0


# -- NVIDIA/cccl: CUB's agents and blocks are device code ---------------------------------------


def test_cccl_device_member_functions_are_kernel_code() -> None:
    # cub/cub/agent/agent_reduce.cuh: member functions declared _CCCL_DEVICE _CCCL_FORCEINLINE.
    source = b"""\
#include <cub/config.cuh>
template <typename Policy, typename InputIt, typename OffsetT>
struct AgentReduce
{
  InputIt d_in;

  _CCCL_DEVICE _CCCL_FORCEINLINE AgentReduce(InputIt d_in)
      : d_in(d_in)
  {}

  template <int IsFull>
  _CCCL_DEVICE _CCCL_FORCEINLINE void ConsumeTile(OffsetT offset)
  {
    d_in += offset;
  }
};
"""
    report = classify("cub/cub/agent/agent_reduce.cuh", source)
    assert report.line_rules[6:9] == ["cuda.device-qualifier-macro"] * 3
    assert report.line_rules[10:15] == ["cuda.device-qualifier-macro"] * 5
    assert report.line_rules[0] == "cub.call"  # the include: CUB is a library to its users
    assert report.ecosystems == {"cuda": 9}
    # Portability layers' macros stay theirs in a .cu file too.
    amrex = b"AMREX_GPU_HOST_DEVICE inline double twice(double x) { return 2.0 * x; }\n"
    assert classify("Src/Advance.cu", amrex).ecosystems == {"portable-gpu": 1}


# -- ROCm/rocPRIM: AMD's primitives library -----------------------------------------------------


def test_rocprim_headers_are_hip_device_code() -> None:
    # rocprim/include/rocprim/block/*.hpp: ROCPRIM_DEVICE functions, the HIP runtime reached
    # through ../config.hpp. AMD code, not CUDA and not portable.
    source = b"""\
#include "../config.hpp"
BEGIN_ROCPRIM_NAMESPACE
template<class T, unsigned int BlockSize>
class block_load
{
public:
    ROCPRIM_DEVICE ROCPRIM_INLINE
    void load(const T* input, T& item)
    {
        item = input[::rocprim::flat_block_thread_id()];
    }
};
END_ROCPRIM_NAMESPACE
"""
    report = classify("rocprim/include/rocprim/block/block_load.hpp", source)
    assert report.language == "HIP"
    assert report.line_rules[6:11] == ["hip.device-qualifier-macro"] * 5
    assert set(report.ecosystems) == {"hip"}


def test_a_cpp_file_driving_the_hip_runtime_is_hip() -> None:
    # rocPRIM's test/ and benchmark/ files: __global__ kernels and hipMalloc, the runtime
    # included through a common test header. Their kernels are AMD code.
    source = b"""\
#include "common_test_header.hpp"
__global__ void fill(int* out) { out[threadIdx.x] = 1; }
void run() {
    int* d = nullptr;
    HIP_CHECK(hipMalloc(&d, 64 * sizeof(int)));
    fill<<<1, 64>>>(d);
}
"""
    report = classify("benchmark/benchmark_fill.cpp", source)
    assert report.language == "HIP"
    assert set(report.ecosystems) == {"hip"}
    # Naming the CUDA runtime too makes the file dual-platform: it stays C++.
    dual = source.replace(b"void run() {", b"void run() {\n    cudaDeviceSynchronize();")
    assert classify("benchmark/benchmark_fill.cpp", dual).language == "C++"


# -- UoB-HPC/BabelStream: one benchmark in every programming model ------------------------------


def test_babelstream_cuda_fortran_is_cuda() -> None:
    # src/fortran/CUDAStream.F90: attributes(global) kernels and their host side.
    source = b"""\
module CUDAFortranKernels
    use BabelStreamTypes
contains
    attributes(global) subroutine do_copy(n, A, C)
        integer, intent(in), value :: n
        real(kind=REAL64), intent(in) :: A(n)
        real(kind=REAL64), intent(out) :: C(n)
        integer :: i
        i = blockDim%x * (blockIdx%x - 1) + threadIdx%x
        if (i <= n) C(i) = A(i)
    end subroutine do_copy
end module CUDAFortranKernels

module CUDAStream
    use cudafor, only: dim3
    real(kind=REAL64), allocatable, device :: A(:), C(:)
contains
    subroutine copy()
        integer :: err
        call do_copy<<<grid, tblock>>>(N, A, C)
        err = cudaDeviceSynchronize()
    end subroutine copy
end module CUDAStream
"""
    report = classify("src/fortran/CUDAStream.F90", source)
    assert report.language == "Fortran"
    assert report.line_rules[3:11] == ["cuda.fortran-kernel"] * 8
    assert report.layers[Layer.VENDOR_PATH] == 4
    assert report.ecosystems == {"cuda": 12}


def test_babelstream_openacc_and_openmp_offload_stay_portable() -> None:
    # src/fortran/OpenACCStream.F90, src/acc/ACCStream.cpp, src/omp/OMPStream.cpp: the
    # directives build for NVIDIA, AMD and Intel compilers; only build flags pick a vendor.
    fortran = b"""\
subroutine copy()
    integer :: i
    !$acc parallel loop present(A, C)
    do i = 1, N
        C(i) = A(i)
    end do
    !$omp target teams distribute parallel do simd
    do i = 1, N
        C(i) = A(i)
    end do
end subroutine copy
"""
    report = classify("src/fortran/OpenACCStream.F90", fortran)
    assert _layers(report) == {"portable": report.code_lines}
    cpp = b"""\
template <class T>
void ACCStream<T>::copy() {
  T* a = this->a; T* c = this->c;
  #pragma acc parallel loop present(a[0:n], c[0:n]) wait
  for (int i = 0; i < n; i++) c[i] = a[i];
}
template <class T>
void OMPStream<T>::copy() {
  #pragma omp target teams distribute parallel for simd
  for (int i = 0; i < n; i++) c[i] = a[i];
}
"""
    report = classify("src/acc/ACCStream.cpp", cpp)
    assert _layers(report) == {"portable": report.code_lines}


def test_babelstream_offload_flags_name_their_vendor() -> None:
    # src/omp/model.cmake and the Fortran make.inc files: the flag that picks the device.
    source = b"""\
set(OMP_FLAGS_OFFLOAD_INTEL -fiopenmp -fopenmp-targets=spir64)
set(OMP_FLAGS_OFFLOAD_GNU_NVIDIA -foffload=nvptx-none)
set(OMP_FLAGS_OFFLOAD_CLANG_AMD -fopenmp-targets=amdgcn-amd-amdhsa)
register_append_cxx_flags(ANY -gpu=${CUDA_ARCH})
set(OMP_FLAGS_CPU -fopenmp)
"""
    report = classify("src/omp/model.cmake", source)
    assert report.line_rules == [
        "",
        "build.offload-nvidia",
        "build.offload-amd",
        "build.offload-nvidia",
        "",
    ]


# -- halide/Halide and oneapi-src/oneDNN: CPU assembly and look-alike names ---------------------


def test_cpu_inline_assembly_and_compiler_barriers_are_not_ptx() -> None:
    # Halide src/runtime/profiler_inlined.cpp (a compiler barrier), src/runtime/qurt_hvx.cpp
    # (a Hexagon prefetch); oneDNN src/cpu/ppc64/ppc64_gemm_s8x8s32.hpp (a POWER prefetch).
    source = b"""\
inline void barrier() { asm volatile("" ::: "memory"); }
inline void l2fetch(const void* p, int n) {
    __asm__ __volatile__("l2fetch(%0,%1)" : : "r"(p), "r"(n));
}
inline void dcbt(const void* x, long y) {
    asm volatile("dcbt %0, %1" : : "r"(x), "b"(y) : "memory");
}
"""
    report = classify("src/runtime/prefetch.cpp", source)
    assert report.layers[Layer.KERNEL] == 0
    # PTX keeps its dotted mnemonics, or a bare `trap;`.
    ptx = b'inline void stop() { asm volatile("trap;"); }\n'
    assert classify("src/runtime/stop.cu", ptx).ecosystems == {"cuda": 1}


def test_halide_d3d12_runtime_is_not_metal() -> None:
    # src/runtime/d3d12compute.cpp names its helpers after Metal's methods, as free functions.
    source = b"""\
WEAK d3d12_library *new_library_with_source(d3d12_device *device, const char *src, size_t n) {
    return compile(device, src, n);
}
"""
    assert classify("src/runtime/d3d12compute.cpp", source).layers[Layer.VENDOR_PATH] == 0
    # metal-rs calls them as methods of a Metal device.
    rust = b"let lib = device.new_library_with_source(&src, &opts).unwrap();\n"
    assert classify("src/metal/mod.rs", rust).ecosystems == {"metal": 1}


def test_rocprim_kernel_macro_on_its_own_line() -> None:
    # rocprim/include/rocprim/device/device_*.hpp: ROCPRIM_KERNEL (`__global__`) alone on the
    # line above __launch_bounds__.
    source = b"""\
#include "../config.hpp"
template<class Config, class T>
ROCPRIM_KERNEL
__launch_bounds__(256) void scan_kernel(const T* input, T* output)
{
    output[0] = input[0];
}
"""
    report = classify("rocprim/include/rocprim/device/device_scan.hpp", source)
    assert report.line_rules[1:7] == ["hip.device-qualifier-macro"] * 6


# -- diku-dk/futhark: run-time system headers pasted into generated kernels ---------------------


def test_futhark_opencl_address_space_functions_are_kernel_code() -> None:
    # rts/c/atomics32.h: device functions over __global/__local pointers, compiled as OpenCL
    # (and as CUDA/HIP once the project defines the qualifiers away).
    source = b"""\
SCALAR_FUN_ATTR int32_t atomic_or_i32_shared(volatile __local int32_t *p, int32_t x);
SCALAR_FUN_ATTR int32_t atomic_or_i32_global(volatile __global int32_t *p, int32_t x) {
  return atomic_or(p, x);
}
static int host_helper(int x) { return x; }
"""
    report = classify("rts/c/atomics32.h", source)
    assert report.line_rules[:4] == ["opencl.address-space-function"] * 4
    assert report.line_rules[4] == ""
    # CUDA's __global__ and __constant__ are not OpenCL's address spaces.
    cuda = b"__global__ void fill(float* x) { x[0] = 1.0f; }\n"
    assert classify("src/fill.cu", cuda).ecosystems == {"cuda": 1}


# -- NVIDIA/warp and blender/cycles: names that say, and names that only look like, CUDA --------


def test_warp_cuda_callable_headers_are_cuda_device_code() -> None:
    # warp/native/mesh.h: CUDA_CALLABLE is `__host__ __device__` under nvcc (builtin.h).
    source = b"""\
#include "builtin.h"
CUDA_CALLABLE inline bool mesh_query_ray(uint64_t id, const vec3& p, float& t)
{
    return intersect(id, p, t);
}
"""
    report = classify("warp/native/mesh.h", source)
    assert report.ecosystems == {"cuda": 4}
    assert report.layers[Layer.KERNEL] == 4


def test_cycles_gpu_device_class_is_not_tensorflow() -> None:
    # src/device/device.cpp: Cycles' own GPUDevice class, no TensorFlow anywhere.
    source = b"""\
GPUDevice::~GPUDevice() noexcept(false) = default;
void GPUDevice::generic_free(device_memory &mem) { mem.device_pointer = 0; }
"""
    assert classify("src/device/device.cpp", source).ecosystems == {}


# -- alpaka-group/alpaka3: a portability layer's kernels ----------------------------------------


def test_alpaka_accelerator_functions_are_portable_kernels() -> None:
    # example/vectorAdd/src/vectorAdd.cpp: ALPAKA_FN_ACC kernels build for CUDA, HIP, SYCL
    # and CPUs.
    source = b"""\
struct VectorAddKernel {
    ALPAKA_FN_ACC auto operator()(auto const& acc, auto const a, auto c) const -> void
    {
        c[0] = a[0];
    }
};
"""
    report = classify("example/vectorAdd/src/vectorAdd.cpp", source)
    assert report.ecosystems == {"portable-gpu": 4}


# -- SaschaWillems/Vulkan: every ray-tracing shader stage is GLSL -------------------------------


def test_ray_tracing_shader_stages_are_glsl() -> None:
    source = b"""\
#version 460
#extension GL_EXT_ray_tracing : enable
layout(location = 0) callableDataInEXT vec3 outColor;
void main() { outColor = vec3(0.0, 1.0, 0.0); }
"""
    for path in ("shaders/callable1.rcall", "shaders/anyhit.rahit", "shaders/sphere.rint"):
        report = classify(path, source)
        assert report.language == "GLSL", path
        assert report.ecosystems == {"vulkan": 4}, path


# -- oneapi-src/oneDNN: OpenCL kernels written for Intel GPUs -----------------------------------


def test_onednn_intel_opencl_kernels_run_on_intel_only() -> None:
    # src/gpu/intel/ocl/**/*.cl: Intel sub-group block reads and sizes, no extension pragma.
    source = b"""\
#include "gpu/intel/ocl/ocl_types.h"
__attribute__((intel_reqd_sub_group_size(16))) __kernel void
mean(__global float* src, __global float* dst) {
    dst[0] = as_float(intel_sub_group_block_read((__global uint*)src));
}
"""
    report = classify("src/gpu/intel/ocl/bnorm/nhwc_reusable.cl", source)
    assert report.line_rules[1:5] == ["opencl.intel-extension"] * 4
    # The same builtins behind an `#ifdef cl_intel_subgroups` are an optional fast path.
    guarded = b"""\
#ifdef cl_intel_subgroups
#define READ(p) intel_sub_group_block_read(p)
#endif
__kernel void k(__global float* x) { x[get_global_id(0)] = 1.0f; }
"""
    report = classify("src/softmax.cl", guarded)
    assert set(report.line_rules) - {None} == {"opencl.kernel-file"}


def test_hlsl_shaders_are_cross_vendor_kernel_code() -> None:
    # Graphics engines keep Direct3D/Vulkan shaders in .hlsl files (compiled by DXC).
    source = b"""\
RWTexture2D<float4> resultImage : register(u1);
[numthreads(16, 16, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    resultImage[id.xy] = float4(1.0, 0.0, 0.0, 1.0);
}
"""
    report = classify("shaders/hlsl/emboss.hlsl", source)
    assert report.language == "HLSL"
    assert report.ecosystems == {"hlsl": 5}


# -- JuliaGPU/KernelAbstractions.jl and JuliaGPU/CUDA.jl: GPU kernels in Julia ------------------


def test_kernelabstractions_kernels_are_portable_kernel_code() -> None:
    # test/private.jl, test/test.jl: @kernel functions (with options, or anonymous callables),
    # each up to its own `end`; the host code around them stays portable.
    source = b"""\
using KernelAbstractions

@kernel function mul2!(A)
    I = @index(Global)
    A[I] = 2 * A[I]
end

@kernel cpu = false function (a::typeof(f))(x, ::Val{m}) where {m}
    x[@index(Global)] = m
end

mul2!(CPU())(A; ndrange = size(A))
"""
    report = classify("test/test.jl", source)
    assert report.language == "Julia"
    assert report.line_rules[2:6] == ["portable-gpu.julia-kernel"] * 4
    assert report.line_rules[7:10] == ["portable-gpu.julia-kernel"] * 3
    assert report.line_rules[11] == ""
    assert report.ecosystems == {"portable-gpu": 7}


def test_cuda_jl_kernels_and_host_code_are_cuda() -> None:
    # CUDA.jl's tests and examples: a kernel found by its thread indices, launched with @cuda.
    source = b"""\
using CUDA

function vadd(a, b, c)
    i = (blockIdx().x - 1) * blockDim().x + threadIdx().x
    c[i] = a[i] + b[i]
    return
end

a = CuArray(rand(Float32, 1024))
@cuda threads=256 blocks=4 vadd(a, a, a)
"""
    report = classify("examples/vadd.jl", source)
    assert report.line_rules[2:7] == ["cuda.julia-kernel"] * 5
    assert report.layers[Layer.VENDOR_PATH] == 3
    assert report.ecosystems == {"cuda": 8}
    # AMDGPU.jl's twin is AMD code.
    amd = source.replace(b"blockIdx()", b"workgroupIdx()").replace(b"using CUDA", b"using AMDGPU")
    amd = amd.replace(b"blockDim()", b"workgroupDim()").replace(b"threadIdx()", b"workitemIdx()")
    amd = amd.replace(b"CuArray", b"ROCArray").replace(b"@cuda threads=256 blocks=4", b"@roc")
    assert classify("examples/vadd.jl", amd).ecosystems == {"hip": 8}


def test_julia_device_intrinsics_name_their_vendor() -> None:
    # CUDA.jl CUDACore/src/device/intrinsics/math.jl and AMDGPU.jl's twin: one-line device
    # overrides calling libdevice / ROCm device-library functions through llvmcall.
    source = b"""\
within(lower, upper) = (val) -> lower <= val <= upper
@device_override Base.sin(x::Float32) = ccall("extern __nv_sinf", llvmcall, Cfloat, (Cfloat,), x)
@device_override Base.cos(x::Float32) = ccall("extern __ocml_cos_f32", llvmcall, Cfloat, (x,))
"""
    report = classify("src/device/intrinsics/math.jl", source)
    assert report.line_rules == ["", "cuda.julia-intrinsic", "hip.julia-intrinsic"]
