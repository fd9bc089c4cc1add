"""Cases from repositories drawn at random from a pool of GPU repositories (issue 27, lane b).

The pool (/work/pool-h35.txt, built before anyone looked at the repositories) was put in a
random order with ``random.seed("h35-pool")``; this lane took positions 12-22:
ZichaoNickFox/cg, ryamauchi/mandala, Aurametrix/Alg-C, Natsu-Akatsuki/memo,
UTING-4517/aerial-cuda-accelerated-ran, Angeltr/PerformanceProgramming, TianZerL/Anime4KCPP,
monarin/psgpu, wakita/metalic, 997240/cuda-kernel-archive and ROCm/hip-python. Fifteen files
of each were sampled with ``random.seed("owner/name")`` over every file lockin counts and
labelled before any fix. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading
that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ZichaoNickFox/cg: an OpenGL renderer whose own namespace is cg -----------------------------


def test_cg_renderer_namespace_is_no_cooperative_groups() -> None:
    # playground/renderer_scene/path_tracing_geometry_scene.cc: a scene's compute shader is a
    # C++ class deriving from the project's cg::ComputeShader; its GLSL lives in .glsl files.
    # Before, every cg:: line counted as CUDA cooperative-groups device code (48 files).
    source = b"""\
#include "renderer/shader.h"

class PathTracingGeometrySceneShader : public cg::ComputeShader {
 public:
  struct Param {
    std::vector<cg::Sphere> spheres;
    cg::Texture canvas;
  };
  explicit PathTracingGeometrySceneShader(const Param& param)
      : cg::ComputeShader("path_tracing_geometry") {
    SetInt("sphere_count", static_cast<int>(param.spheres.size()));
  }
};
"""
    assert _layers("playground/renderer_scene/path_tracing_geometry_scene.cc", source) == {
        "portable": 12
    }


def test_cg_camera_header_accessor_stays_portable() -> None:
    # renderer/camera.h: a pointer to the project's cg::Transform.
    source = b"""\
namespace cg {
class Camera {
 public:
  cg::Transform* mutable_transform() { return &transform_; }
 private:
  cg::Transform transform_;
};
}  // namespace cg
"""
    assert _layers("renderer/camera.h", source) == {"portable": 8}


def test_cg_cooperative_groups_alias_in_a_kernel_file_counts() -> None:
    # The CUDA alias keeps counting where the file names cooperative_groups.
    source = b"""\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

inline unsigned tile_rank() {
  return cg::tiled_partition<32>(cg::this_thread_block()).thread_rank();
}
"""
    assert "cuda.cooperative-groups-alias" in _rules("reduce.cuh", source)
    lines = [
        f.start_line
        for f in classify("reduce.cuh", source).findings
        if f.rule == "cuda.cooperative-groups-alias"
    ]
    assert lines == [5]


def test_cg_glsl_shader_include_is_kernel_code() -> None:
    # renderer/shader/pbr/pbr_NDF.glsl: a GLSL function file the shaders include; shader code
    # is counted whole, as the project counts every GLSL file.
    source = b"""\
float DistributionGGX(vec3 N, vec3 H, float roughness) {
  float a = roughness * roughness;
  float a2 = a * a;
  float NdotH = max(dot(N, H), 0.0);
  float denom = (NdotH * NdotH * (a2 - 1.0) + 1.0);
  return a2 / (PI * denom * denom);
}
"""
    assert _layers("renderer/shader/pbr/pbr_NDF.glsl", source) == {"kernel": 7}


# -- ryamauchi/mandala: an autodiff library with an optional CuPy path --------------------------


def test_mandala_cupy_module_is_the_cuda_path() -> None:
    # mandala/cuda.py: imports cupy (and cupy.cudnn) when present and moves arrays to the
    # GPU; the numpy fall-back around it travels.
    source = b"""\
import numpy

available = False
try:
    import cupy
    available = True
except Exception as e:
    _resolution_error = e


def to_cpu(x):
    if available and isinstance(x, cupy.ndarray):
        return x.get()
    return x


def to_gpu(x, device=None):
    with cupy.cuda.Device(device):
        return cupy.array(x)
"""
    layers = _layers("mandala/cuda.py", source)
    # The import opening the try: block is an optional import (cupy.api's unprobed-statement
    # kind); the three lines that use cupy are the CUDA path.
    assert layers["vendor-path"] == 3
    assert "kernel" not in layers


def test_mandala_array_module_user_stays_portable() -> None:
    # mandala/autodiff/utils_conv.py: asks the project's cuda module for numpy or cupy and
    # calls the array API only.
    source = b"""\
from mandala import cuda


def im2col(img, kh, kw):
    xp = cuda.get_array_module(img)
    img = xp.pad(img, ((0, 0), (0, 0), (kh, kh), (kw, kw)), mode="constant")
    return xp.ascontiguousarray(img)
"""
    assert _layers("mandala/autodiff/utils_conv.py", source) == {"portable": 5}


# -- Aurametrix/Alg-C: an algorithms collection with two CUDA notes ----------------------------


def test_alg_c_hip_snippet_without_includes_is_hip_host_code() -> None:
    # CUDA/CUDA-to-C.cpp: a pasted HIP fragment (hipMalloc, hipMemcpy, hipLaunchKernel), no
    # function around it.
    source = b"""\
hipMalloc(&A_d, Nbytes);
hipMemcpy(A_d, A_h, Nbytes, hipMemcpyHostToDevice);
const unsigned blocks = 512;
hipLaunchKernel(vector_square, dim3(blocks), dim3(256), 0, 0, C_d, A_d, N);
hipMemcpy(C_h, C_d, Nbytes, hipMemcpyDeviceToHost);
"""
    assert _layers("CUDA/CUDA-to-C.cpp", source) == {"vendor-path": 4, "portable": 1}


def test_alg_c_hello_world_kernel_and_host() -> None:
    # CUDAhello.cu: one five-line kernel and the runtime calls of main().
    source = b"""\
#include <stdio.h>
__global__
void hello(char *a, int *b)
{
    a[threadIdx.x] += b[threadIdx.x];
}
int main()
{
    char *ad;
    cudaMalloc((void**)&ad, 16);
    hello<<<1, 16>>>(ad, 0);
    cudaFree(ad);
    return 0;
}
"""
    layers = _layers("CUDAhello.cu", source)
    assert layers["kernel"] == 5
    assert layers["vendor-path"] == 3


# -- Natsu-Akatsuki/memo: development notes with a few GPU containers --------------------------


def test_memo_tensorrt_docs_path_is_no_requirement() -> None:
    # source/Writing/example/Zeal/dump_dsidx.py: builds a Zeal docset index from TensorRT's
    # HTML docs on disk. Before, the two path strings counted as a pinned CUDA wheel.
    source = b"""\
import os, sqlite3

docpath = '/home/user/application/TensorRT-8.2.2.1/doc/tensorrt.docset/Contents/Resources'
conn = sqlite3.connect('/home/user/application/TensorRT-8.2.2.1/doc/tensorrt.docset/docSet.dsidx')
cur = conn.cursor()
cur.execute('CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);')
page = open(os.path.join(docpath, 'index.html')).read()
"""
    assert _layers("source/Writing/example/Zeal/dump_dsidx.py", source) == {"portable": 6}


def test_memo_cuda_base_image_is_a_vendor_path() -> None:
    # source/Docker/example/NoeticTrt/Dockerfile: built on nvidia/cuda with the cudnn devel
    # image, the NVIDIA runtime variables and a cu113 wheel index.
    source = b"""\
FROM nvidia/cuda:11.1-cudnn8-devel-ubuntu20.04
RUN apt update && apt install -y vim wget
ENV NVIDIA_VISIBLE_DEVICES ${NVIDIA_VISIBLE_DEVICES:-all}
RUN pip3 install --no-cache-dir --extra-index-url https://download.pytorch.org/whl/cu113 \\
    catkin_pkg
ENTRYPOINT /bin/bash
"""
    layers = _layers("source/Docker/example/NoeticTrt/Dockerfile", source)
    assert layers["vendor-path"] >= 3
    assert "kernel" not in layers


# -- UTING-4517/aerial-cuda-accelerated-ran: NVIDIA's 5G PHY in CUDA ---------------------------


def test_aerial_graph_node_launch_fields_are_host_code() -> None:
    # cuPHY/src/cuphy/rate_matching/rate_matching.cu: setup() copies its local dim3 launch
    # geometry into the CUDA_KERNEL_NODE_PARAMS of three graph nodes. Before, each
    # `...gridDimX = gridDim.x;` line counted as kernel code (18 lines in that file).
    source = b"""\
void puschRxRateMatch::setup(cuphyPuschRxRateMatchLaunchCfg_t* pLaunchCfg, uint32_t EMax,
                             uint32_t CMax, uint16_t nSchUes)
{
    dim3 gridDim(div_round_up(EMax, DERM_BLK_DIM), CMax, nSchUes);
    dim3 blockDim(DERM_BLK_DIM, 1, 1);
    pLaunchCfg->kernelNodeParamsDriver.gridDimX  = gridDim.x;
    pLaunchCfg->kernelNodeParamsDriver.gridDimY  = gridDim.y;
    pLaunchCfg->kernelNodeParamsDriver.blockDimX = blockDim.x;
    pLaunchCfg->kernelNodeParamsDriver.func      = m_kernelFunc;
}
"""
    layers = _layers("cuPHY/src/cuphy/rate_matching/rate_matching.cu", source)
    assert "kernel" not in layers


def test_aerial_driver_launch_of_local_dims_is_host_code() -> None:
    # testBenches/chanModels/src/fastFadingCommon.cu: the kernel pointer is looked up and
    # launched with cuLaunchKernel, passing the local gridDim/blockDim components.
    source = b"""\
template <typename Tscalar, typename Tcomplex>
void fastFadingBaseChan<Tscalar, Tcomplex>::run(float refTime0)
{
    dim3 gridDim = dim3(m_nLink, m_nBatch, m_nAnt);
    dim3 blockDim = dim3(m_nPrbg, 1, 1);
    cudaFunction_t functionPtr;
    cudaGetFuncBySymbol(&functionPtr, reinterpret_cast<void*>(kernelPtr));
    CUresult status = cuLaunchKernel(functionPtr, gridDim.x, gridDim.y, gridDim.z, blockDim.x,
                                     blockDim.y, blockDim.z, 0, m_strm, m_args, nullptr);
    CHECK_CURESULT(status);
}
"""
    layers = _layers("testBenches/chanModels/src/fastFadingCommon.cu", source)
    assert "kernel" not in layers
    assert layers["vendor-path"] >= 4


def test_aerial_ldpc_launcher_without_kernels_is_vendor_path() -> None:
    # cuPHY/src/cuphy/error_correction/attic/ldpc2_*.cu: a host dispatcher taking a
    # cudaStream_t and half2 types; the kernels live in the included .cuh files.
    source = b"""\
#include "ldpc2_shared.cuh"
namespace ldpc2
{
cuphyStatus_t decode_shared_BG1_Z240(const LDPC_config& cfg, const dim3& grdDim,
                                     const dim3& blkDim, cudaStream_t strm)
{
    cuphyStatus_t s = CUPHY_STATUS_NOT_SUPPORTED;
    typedef __half2 T;
    switch(cfg.mb)
    {
    case 4: s = launch_all_shared<T, 1, 22, 240, 4>(grdDim, blkDim, strm); break;
    default: break;
    }
    return s;
}
}
"""
    layers = _layers("cuPHY/src/cuphy/error_correction/attic/ldpc2_shared_BG1_Z240.cu", source)
    assert "kernel" not in layers
    assert layers["vendor-path"] >= 3


def test_aerial_host_code_on_cuda_complex_types_is_vendor_path() -> None:
    # testBenches/chanModels/src/sls_chan_src/sls_chan_isac.cpp (and cuMAC's *Cpu.cpp
    # reference schedulers): host C++ whose data are CUDA's cuComplex, built with
    # make_cuComplex and cuCmulf from cuComplex.h. Before, every line was portable.
    source = b"""\
#include <cmath>
#include "cuComplex.h"

cuComplex reflection(float magnitude, float phase)
{
    return make_cuComplex(magnitude * std::cos(phase), magnitude * std::sin(phase));
}

void scale(cuComplex* taps, int n, cuComplex g)
{
    for (int i = 0; i < n; ++i) {
        taps[i] = cuCmulf(taps[i], g);
    }
}
"""
    report = classify("testBenches/chanModels/src/sls_chan_src/sls_chan_isac.cpp", source)
    assert {f.rule for f in report.findings} == {"cuda.include", "cuda.complex-types"}
    assert "kernel" not in _layers("sls_chan_isac.cpp", source)


def test_aerial_std_complex_host_code_stays_portable() -> None:
    # The same arithmetic on std::complex names no CUDA header.
    source = b"""\
#include <complex>

std::complex<float> reflection(float magnitude, float phase)
{
    return std::polar(magnitude, phase);
}
"""
    assert _layers("src/reflection.cpp", source) == {"portable": 5}


def test_aerial_mig_script_runs_nvidia_smi_behind_sudo() -> None:
    # testBenches/perf/measure/mig.py: partitions the GPU with `nvidia-smi mig` and starts
    # MPS daemons, each command an f-string opening with an optional sudo. Before, the file
    # was portable: the tool-call row wanted the string to open with nvidia-smi and an option.
    source = b"""\
import os

def create_instances(args, sudo, instance):
    os.system(f"{sudo}nvidia-smi mig -i {args.gpu} -lgip >buffer.txt")
    os.system(f"{sudo}nvidia-smi mig -i {args.gpu} -cgi {instance} > buffer.txt")
    print("created", instance)

def start_mps(env):
    os.system(f"sudo {env} nvidia-cuda-mps-control -d")
"""
    report = classify("testBenches/perf/measure/mig.py", source)
    lines = {
        line
        for f in report.findings
        if f.rule == "cuda.tool-call"
        for line in range(f.start_line, f.end_line + 1)
    }
    assert lines == {4, 5, 9}


def test_aerial_nvidia_smi_in_prose_is_no_call() -> None:
    source = b"""\
HELP = "nvidia-smi mig is how the admin splits the GPU"
NOTE = "sudo rights are needed"
"""
    assert _layers("testBenches/perf/measure/help.py", source) == {"portable": 2}


# -- Angeltr/PerformanceProgramming: course notes on OpenCL, SYCL and OpenACC ------------------


def test_performance_programming_opencl_notes_count_kernel_and_host() -> None:
    # test.cpp: a __kernel pasted beside OpenCL host calls, with OpenACC loops in between.
    source = b"""\
__kernel void large_kernel(__global int *a, __global int *b, __global int *c) {
    int i = get_global_id(0);
    c[i] = a[i] + b[i];
}

void host(void) {
    cl_context context;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
#pragma acc parallel loop
    for (i = 0; i < n; i++) a[i] = b[i];
}
"""
    layers = _layers("test.cpp", source)
    assert layers["kernel"] == 4
    assert layers["vendor-path"] == 2


def test_performance_programming_plain_c_stays_portable() -> None:
    # C/util.c: the molecular-dynamics helpers of the course code.
    source = b"""\
#include <math.h>
double wind_force(double r, double w) {
    return -(r * w);
}
"""
    assert _layers("C/util.c", source) == {"portable": 4}


# -- TianZerL/Anime4KCPP: an upscaler with OpenCL and CUDA back ends ---------------------------


def test_anime4kcpp_cuda_launch_wrapper_is_vendor_path() -> None:
    # core/src/processor/cuda/Kernel.cu: a template specialisation taking a cudaStream_t
    # launches the kernel with chevrons; the kernels above it are device code.
    source = b"""\
namespace ac::core::cuda
{
    template<typename T>
    __global__ void scale(const T* src, T* dst, const int w)
    {
        const int x = blockIdx.x * blockDim.x + threadIdx.x;
        if (x < w) dst[x] = src[x] * 2;
    }

    void scale_cuda(const float* src, float* dst, const int w, cudaStream_t stream) noexcept
    {
        dim3 block{ 256 };
        dim3 grid{ (w + 255) / 256 };
        scale<float> <<< grid, block, 0, stream >>> (src, dst, w);
    }
}
"""
    layers = _layers("core/src/processor/cuda/Kernel.cu", source)
    assert layers["kernel"] == 6
    assert layers["vendor-path"] >= 2


def test_anime4kcpp_opencl_kernel_file_is_kernel_code() -> None:
    # core/src/processor/opencl/*Kernel.cl: each file is OpenCL C, counted whole.
    source = b"""\
__kernel void conv3x3_1to8(__read_only image2d_t src, __write_only image2d_t dst)
{
    const int x = get_global_id(0), y = get_global_id(1);
    float4 v = read_imagef(src, (int2)(x, y));
    write_imagef(dst, (int2)(x, y), v);
}
"""
    assert _layers("core/src/processor/opencl/ACNetKernel.cl", source) == {"kernel": 6}


# -- monarin/psgpu: CUDA, Thrust and Numba experiments -----------------------------------------


def test_psgpu_numba_kernel_is_kernel_code() -> None:
    # numba/matrixmul.py: a @cuda.jit shared-memory matmul; the profiler calls around it
    # are module code.
    source = b"""\
from numba import cuda, float32

TPB = 16

@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    sA[tx, 0] = A[x, 0]
    cuda.syncthreads()
    C[x, y] = sA[tx, 0]
"""
    layers = _layers("numba/matrixmul.py", source)
    assert layers["kernel"] == 8


def test_psgpu_thrust_sample_is_a_vendor_library() -> None:
    # examples/thrust_sample/sum.cu: Thrust device vectors and a reduction, no kernel.
    source = b"""\
#include <thrust/device_vector.h>
#include <thrust/reduce.h>

int main(void)
{
    thrust::device_vector<int> d(100, 1);
    int sum = thrust::reduce(d.begin(), d.end(), 0, thrust::plus<int>());
    return sum == 100 ? 0 : 1;
}
"""
    layers = _layers("examples/thrust_sample/sum.cu", source)
    assert layers["vendor-library"] >= 4
    assert "kernel" not in layers


def test_psgpu_sorting_network_header_stays_portable() -> None:
    # examples/others/CUDA-QuickSort_v1.61/libraries/bitonicSort/src/sortingNetworks_common.h:
    # extern "C" prototypes of the host entry points.
    source = b"""\
typedef unsigned int uint;
extern "C" uint bitonicSort(
    uint *d_DstKey,
    uint *d_SrcKey,
    uint batchSize,
    uint arrayLength
);
"""
    assert _layers("libraries/bitonicSort/src/sortingNetworks_common.h", source) == {"portable": 7}


# -- wakita/metalic: Metal by Tutorials exercises in Swift ------------------------------------


def test_metalic_metallib_makefile_is_metal_build() -> None:
    # 20181203-compute/Makefile: .metal files compiled to .metallib with xcrun.
    source = b"""\
LIB = compute.metallib
XC = xcrun -sdk macosx

%.metallib: %.metal
\t$(XC) metal -c -o /tmp/$<.air $^
\t$(XC) metallib -o $@ /tmp/$<.air
"""
    layers = _layers("20181203-compute/Makefile", source)
    assert layers["vendor-path"] >= 2


def test_metalic_app_delegate_stays_portable() -> None:
    # 20181119-balls/mac/AppDelegate.swift: the Cocoa template, nothing Metal in it.
    source = b"""\
import Cocoa

@NSApplicationMain
class AppDelegate: NSObject, NSApplicationDelegate {
    func applicationDidFinishLaunching(_ aNotification: Notification) {
    }
}
"""
    assert _layers("20181119-balls/mac/AppDelegate.swift", source) == {"portable": 6}


# -- 997240/cuda-kernel-archive: single-file CUDA kernels taken from vLLM and llama.cpp ---------


def test_cuda_kernel_archive_kernel_and_rocm_guard() -> None:
    # copy_blocks_kernel.cu: a ROCm bf16 typedef behind USE_ROCM, then the kernel.
    source = b"""\
#ifdef USE_ROCM
  #include <hip/hip_bf16.h>
typedef __hip_bfloat16 __nv_bfloat16;
#endif

template <typename scalar_t>
__global__ void copy_blocks_kernel(int64_t* key_cache_ptrs, const int64_t* block_mapping,
                                   const int numel_per_block) {
  const int layer_idx = blockIdx.x;
  scalar_t* key_cache = reinterpret_cast<scalar_t*>(key_cache_ptrs[layer_idx]);
  for (int i = threadIdx.x; i < numel_per_block; i += blockDim.x) {
    key_cache[i] = key_cache[i + numel_per_block];
  }
}
"""
    layers = _layers("copy_blocks_kernel.cu", source)
    assert layers["kernel"] == 9
    assert layers["vendor-path"] == 4


def test_cuda_kernel_archive_rocm_fp8_shim_is_no_nvidia_fp8() -> None:
    # act_and_mul_quant_kernel.cu (taken from vLLM): under the ROCm branch the HIP FP8 types
    # get CUDA's names. Before, the typedefs counted as NVIDIA FP8 kernel lines.
    source = b"""\
#ifndef USE_ROCM
  #include <cuda_fp8.h>
#else
  #include <hip/hip_fp8.h>
typedef __hip_fp8_e4m3 __nv_fp8_e4m3;
typedef __hip_fp8x4_e4m3 __nv_fp8x4_e4m3;
#endif
"""
    assert _layers("act_and_mul_quant_kernel.cu", source) == {"vendor-path": 7}


# -- ROCm/hip-python: Python bindings of HIP, with examples -----------------------------------


def test_hip_python_llvm_ir_string_is_amd_kernel_code() -> None:
    # examples/2_Advanced/hiprtc_jit_with_llvm_ir.py: the gfx90a LLVM IR of a scale kernel in
    # a string, linked by hiprtc. Before, the IR counted as portable lines.
    source = b'''\
from hip import hip, hiprtc

kernel_llvm_ir = """\\
target triple = "amdgcn-amd-amdhsa"
define protected amdgpu_kernel void @scale(ptr addrspace(1) %0, float %1) {
    %3 = tail call i32 @llvm.amdgcn.workitem.id.x()
    %4 = zext i32 %3 to i64
    ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"""
'''
    report = classify("examples/2_Advanced/hiprtc_jit_with_llvm_ir.py", source)
    lines = [f.start_line for f in report.findings if f.rule == "hip.llvm-ir-string"]
    assert lines == [3]
    # The literal from its assignment to its closing quotes, as a CUDA source string counts.
    assert _layers("examples/2_Advanced/hiprtc_jit_with_llvm_ir.py", source)["kernel"] == 9


def test_hip_python_amdgpu_llvm_ir_file_is_kernel_code() -> None:
    # An .ll module for an AMD target, as the example's IR would be kept on disk.
    source = b"""\
; ModuleID = 'scale'
define amdgpu_kernel void @scale(ptr addrspace(1) %0, float %1) {
  %3 = tail call i32 @llvm.amdgcn.workitem.id.x()
  ret void
}
"""
    assert _layers("kernels/scale.ll", source) == {"kernel": 4}


def test_hip_python_cuda_directory_name_is_no_device() -> None:
    # _render_update_version.py: renders _version.py into hip-python-as-cuda/cuda. Before,
    # the "cuda" path component counted as a torch device string.
    source = b"""\
import os

def render_version_py(parent_dir):
    with open(os.path.join(parent_dir, "_version.py"), "w") as outfile:
        outfile.write("0.1")

if __name__ == "__main__":
    render_version_py(os.path.join("hip-python", "hip"))
    render_version_py(os.path.join("hip-python-as-cuda", "cuda"))
"""
    assert _layers("_render_update_version.py", source) == {"portable": 7}


def test_hip_python_device_properties_example_is_hip_host_code() -> None:
    # examples/0_Basic_Usage/hip_deviceproperties.py: reads hipDeviceProp_t through the
    # bindings; the printing loop travels.
    source = b"""\
from hip import hip

props = hip.hipDeviceProp_t()
err = hip.hipGetDeviceProperties(props, 0)
for attrib in sorted(props.PROPERTIES()):
    print(f"props.{attrib}={getattr(props, attrib)}")
"""
    layers = _layers("examples/0_Basic_Usage/hip_deviceproperties.py", source)
    assert layers["vendor-path"] == 3
    assert layers["portable"] == 2
