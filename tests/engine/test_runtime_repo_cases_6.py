"""Cases from a sixth audit: ML compilers, inference runtimes and serving engines (issue 27).

NVIDIA/FasterTransformer and NVIDIA/TensorRT's plugin/ tree (CUDA kernels, TensorRT plug-ins,
cubins pasted in as byte arrays), ztxz16/fastllm (a CUDA inference engine with one 18,000-line
.cu), turboderp/exllama, OpenPPL/ppl.llm.kernel.cuda, microsoft/onnxruntime-genai (CUDA, DirectML
and other execution providers), leejet/stable-diffusion.cpp (a ggml engine built per backend),
XiaoMi/mace and PaddlePaddle/Paddle-Lite (OpenCL, Metal and Kunlunxin XPU back ends). Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import ECOSYSTEMS, classify
from tests.engine.test_ml_repo_cases import _layers
from tests.policy.test_gate_growth import delta, judge

# -- NVIDIA/FasterTransformer, NVIDIA/TensorRT: cubins pasted into the source -------------------


def test_fastertransformer_embedded_cubin_is_nvidia_binary() -> None:
    # 3rdparty/trt_fused_multihead_attention/*_kernel.sm80.cpp: xxd output of a compiled .cu
    # (ELF magic first), and its length. SASS for sm_80 only: no tool ports it.
    source = b"""\
namespace fastertransformer {

unsigned char fused_multihead_attention_fp16_64_64_kernel_sm80_cu_o[] = {0x7f, 0x45, 0x4c,
  0x46, 0x02, 0x01, 0x01, 0x33, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00,
  0xbe, 0x00, 0x71, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

unsigned int fused_multihead_attention_fp16_64_64_kernel_sm80_cu_o_len = 48;

}  // namespace fastertransformer
"""
    path = "3rdparty/trt_fused_multihead_attention/fused_mha_fp16_64_64_kernel.sm80.cpp"
    report = classify(path, source)
    # The declaration marks the file; the data lines are one artefact, not 4 lines of code.
    assert report.ecosystems == {"cuda": 1}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 6}


def test_tensorrt_plugin_cubin_array_opening_on_its_own_line() -> None:
    # plugin/bertQKVToContextPlugin/fused_multihead_attention/*_kernel.sm90.cpp: the numbers
    # start on the line after `= {`.
    source = b"""\
namespace nvinfer1 {
namespace plugin {
unsigned char cubin_fmha_v1_int8_384_64_sm90_cu_cubin[] = {
  0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x33, 0x07, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0xbe, 0x00, 0x76, 0x00, 0x00, 0x00,
  0x00};
uint32_t cubin_fmha_v1_int8_384_64_sm90_cu_cubin_len = 25;
} // namespace plugin
} // namespace nvinfer1
"""
    path = "plugin/bertQKVToContextPlugin/fused_multihead_attention/fmha_int8_384_64.sm90.cpp"
    assert _layers(path, source) == {"vendor-path": 1, "portable": 8}


def test_a_kernel_table_naming_cubins_is_not_a_cubin() -> None:
    # The loader beside the arrays: declarations and a table of pointers, no bytes.
    source = b"""\
extern unsigned char cubin_fmha_v1_int8_384_64_sm90_cu_cubin[];
extern uint32_t cubin_fmha_v1_int8_384_64_sm90_cu_cubin_len;
static const struct Entry { const unsigned char* cubin; uint32_t len; } kTable[] = {
  {cubin_fmha_v1_int8_384_64_sm90_cu_cubin, 25},
};
"""
    path = "plugin/bertQKVToContextPlugin/fused_multihead_attention/fused_multihead_attention.h"
    assert _layers(path, source) == {"portable": 5}


# -- ztxz16/fastllm: a header written twice across #if/#else -------------------------------------


def test_fastllm_if_else_header_does_not_swallow_the_rest_of_the_file() -> None:
    # src/devices/cuda/fastllm-cuda.cu: FastllmCudaFree opens `if (...) {` once per branch of a
    # CUDART_VERSION test. Counted naively one brace stayed open, so the device code of an
    # explicitly specialised kernel further on (`Kernel<1, half>(`, not read as a function
    # name) found FastllmCudaFree around it, which ran to the end of the file: 7,400 host
    # lines were called kernel code.
    source = b"""\
void FastllmCudaFree(void* ret) {
    cudaPointerAttributes attributes;
    cudaError_t state = cudaPointerGetAttributes(&attributes, ret);
    if (state == cudaSuccess) {
#if (CUDART_VERSION < 10000) && !(defined(USE_ROCM))
        if (attributes.memoryType == cudaMemoryTypeDevice) {
#else
        if (attributes.type == cudaMemoryTypeDevice ||
            attributes.type == cudaMemoryTypeManaged) {
#endif
            ReleaseOnDevice(attributes.device, ret);
        }
    }
}

int FastllmCudaPoolSize(const Pool& pool) {
    int total = 0;
    for (const Buffer& b : pool.buffers) {
        total += b.size;
    }
    return total;
}

template <>
__global__ void FastllmSum2Kernel<1, half>(const half* input, float* sumOut, int channels) {
    int o = blockIdx.x;
    float sum2 = 0.0f;
    for (int i = threadIdx.x; i < channels; i += 32) {
        sum2 += (float)input[o * channels + i];
    }
    sumOut[o] = sum2;
}

void FastllmSum2(const half* input, float* sumOut, int outer, int channels) {
    FastllmSum2Kernel<1, half><<<outer, 32>>>(input, sumOut, channels);
}
"""
    path = "src/devices/cuda/fastllm-cuda.cu"
    layers = _layers(path, source)
    # The kernel's 9 lines and nothing of the two host functions before it.
    assert layers["kernel"] == 9
    assert layers["portable"] >= 12


def test_branches_that_each_balance_keep_both_functions() -> None:
    # One function per branch (a HIP and a CUDA spelling): both bodies are read, so the kernel
    # in the #else branch is still kernel code.
    source = b"""\
#ifdef __HIPCC__
__global__ void fill(float* x, float v, int n) {
    int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    if (i < n) x[i] = v;
}
#else
__global__ void fill(float* x, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = v;
}
#endif

int count(int n) {
    int total = 0;
    for (int i = 0; i < n; ++i) {
        total += i;
    }
    return total;
}
"""
    path = "csrc/fill.cu"
    layers = _layers(path, source)
    assert layers["kernel"] >= 8
    assert layers["portable"] >= 7


# -- leejet/stable-diffusion.cpp, microsoft/onnxruntime-genai: CUDA builds outside CMake ----------


DOCKERFILE_BEFORE = """\
FROM nvidia/cuda:12.6.3-cudnn-devel-ubuntu24.04 AS build
WORKDIR /sd.cpp
COPY . .
RUN cmake . -B ./build
RUN cmake --build ./build --config Release -j$(nproc)
"""

DOCKERFILE_AFTER = """\
FROM nvidia/cuda:12.6.3-cudnn-devel-ubuntu24.04 AS build
WORKDIR /sd.cpp
COPY . .
ARG CUDA_ARCHITECTURES=""
RUN cmake . -B ./build \\
    -DSD_CUDA=ON \\
    ${CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHITECTURES}"}
RUN cmake --build ./build --config Release -j$(nproc)
"""


def test_stable_diffusion_cpp_dockerfile_switching_cuda_on_is_a_vendor_path() -> None:
    # Dockerfile.cuda: -DSD_CUDA=ON and the NVIDIA architecture list handed to CMake.
    path = "Dockerfile.cuda"
    assert _layers(path, DOCKERFILE_AFTER.encode()) == {"vendor-path": 3, "portable": 5}


def test_a_commit_adding_a_cuda_build_to_a_dockerfile_fails_the_gate() -> None:
    # stable-diffusion.cpp 21fd4e67 ("add CUDA Docker image support for GB10"): the build now
    # switches the CUDA backend on and names NVIDIA architectures; it used to pass the gate.
    verdict = judge(delta("Dockerfile.cuda", DOCKERFILE_BEFORE, DOCKERFILE_AFTER))
    assert verdict.conclusion == "failure"


def test_switching_a_backend_off_is_not_lock_in() -> None:
    # .github/workflows/build.yml's matrix: the Vulkan row turns CUDA and HIP off.
    source = b"""\
jobs:
  build:
    strategy:
      matrix:
        include:
          - build: "vulkan"
            defines: "-DSD_VULKAN=ON -DGGML_CUDA=OFF -DGGML_HIP=OFF -DGGML_NATIVE=OFF"
"""
    assert _layers(".github/workflows/build.yml", source) == {"portable": 7}


def test_onnxruntime_genai_ci_building_with_cuda_is_a_vendor_path() -> None:
    # .github/workflows/linux-gpu-x64-build.yml: build.py --use_cuda and an sm list for CMake.
    source = b"""\
jobs:
  linux-cuda-x64-build:
    steps:
      - run: |
          python3 build.py --config Release \\
            --use_cuda \\
            --cmake_extra_defines 'CMAKE_CUDA_ARCHITECTURES=80-real;90-real'
"""
    report = classify(".github/workflows/linux-gpu-x64-build.yml", source)
    assert report.ecosystems == {"cuda": 2}


def test_stable_diffusion_cpp_rocm_matrix_row_is_amd_build() -> None:
    source = b"""\
- build: "rocm"
  defines: "-DSD_HIPBLAS=ON -DGGML_NATIVE=OFF -DSD_BUILD_SHARED_LIBS=ON"
"""
    report = classify(".github/workflows/build.yml", source)
    assert report.ecosystems == {"hip": 1}


def test_stable_diffusion_cpp_sycl_dockerfile_builds_on_intel_oneapi() -> None:
    # docker/Dockerfile.sycl: the oneAPI base kit, icpx and -DSD_SYCL=ON.
    source = b"""\
ARG SYCL_VERSION=2025.3.2-0
FROM intel/oneapi-basekit:${SYCL_VERSION}-devel-ubuntu24.04 AS build
WORKDIR /sd.cpp
COPY . .
RUN mkdir build && cd build && cmake .. -DCMAKE_CXX_COMPILER=icpx -DSD_SYCL=ON
FROM intel/oneapi-basekit:${SYCL_VERSION}-devel-ubuntu24.04 AS runtime
"""
    # The cmake line switching the SYCL back end on counts as Dockerfile.cuda's -DSD_CUDA=ON
    # and the ROCm row's -DSD_HIPBLAS=ON do (build.sycl-flags, lane h43-random-f).
    report = classify("docker/Dockerfile.sycl", source)
    assert report.ecosystems == {"sycl": 3}
    assert _layers("docker/Dockerfile.sycl", source) == {"vendor-path": 3, "portable": 3}


# -- PaddlePaddle/Paddle-Lite: Metal through a wrapper encoder, Kunlunxin XPU --------------------


def test_paddle_lite_metal_kernel_binding_textures_is_metal_host_code() -> None:
    # lite/kernels/metal/image_op/tanh_image_compute.mm: no MTL type in the file, but every
    # argument is bound with Metal's setTexture:atIndex: on the wrapper's command encoder.
    source = b"""\
#include "lite/kernels/metal/image_op/tanh_image_compute.h"
#include "lite/backends/metal/metal_debug.h"

void TanhImageCompute::Run() {
    auto encoder =
        std::make_shared<MetalEncoder>(metal_context_->cmd_buf_.get(), &kernel_->program_);
    MetalUint3 global_work_size = {static_cast<MetalUint>(output_width),
        static_cast<MetalUint>(output_height),
        static_cast<MetalUint>(output_array_length)};

    [encoder->metal_command_encoder_ setTexture:(input_buffer_->image()) atIndex:(0)];
    [encoder->metal_command_encoder_ setTexture:(output_buffer_->image()) atIndex:(1)];
    kernel_->Execute(*encoder, global_work_size, false);
}
"""
    path = "lite/kernels/metal/image_op/tanh_image_compute.mm"
    report = classify(path, source)
    assert report.ecosystems == {"metal": 2}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 10}


def test_kunlunxin_is_its_own_vendor() -> None:
    assert ECOSYSTEMS["kunlun"].vendors == {"kunlunxin"}


def test_paddle_phi_xpu_kernel_calls_xdnn() -> None:
    # PaddlePaddle/Paddle paddle/phi/kernels/xpu/log_softmax_kernel.cc: the operator is one
    # XDNN call on the device context's XPU context and its check.
    source = b"""\
#include "paddle/phi/backends/xpu/enforce_xpu.h"
#include "paddle/phi/core/kernel_registry.h"

namespace phi {

template <typename T, typename Context>
void LogSoftmaxKernel(const Context& dev_ctx, const DenseTensor& x, int axis, DenseTensor* out) {
  using XPUType = typename XPUTypeTrait<T>::Type;
  auto x_shape = phi::vectorize<int>(x.dims());
  dev_ctx.template Alloc<T>(out);
  int r = xpu::softmax<XPUType>(dev_ctx.x_context(),
                                reinterpret_cast<const XPUType*>(x.data<T>()),
                                reinterpret_cast<XPUType*>(out->data<T>()),
                                x_shape,
                                axis);
  PADDLE_ENFORCE_XDNN_SUCCESS(r, "softmax");
}

}  // namespace phi
"""
    path = "paddle/phi/kernels/xpu/log_softmax_kernel.cc"
    report = classify(path, source)
    assert report.ecosystems == {"kunlun": 6}
    assert _layers(path, source) == {"vendor-library": 6, "portable": 10}


def test_paddle_lite_xpu_target_wrapper_calls_the_xpu_runtime() -> None:
    # lite/backends/xpu/target_wrapper.cc: device memory through the XPU runtime.
    source = b"""\
#include "lite/backends/xpu/target_wrapper.h"
#include "xpu/runtime.h"

void* TargetWrapperXPU::Malloc(size_t size) {
  void* ptr{nullptr};
  XPU_CALL(xpu_malloc(&ptr, size));
  return ptr;
}

void TargetWrapperXPU::MemcpySync(void* dst, const void* src, size_t size) {
  XPU_CALL(xpu_memcpy(dst, src, size, XPUMemcpyKind::XPU_HOST_TO_DEVICE));
}
"""
    path = "lite/backends/xpu/target_wrapper.cc"
    report = classify(path, source)
    assert report.ecosystems == {"kunlun": 3}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 7}


def test_intel_xpu_namespace_is_not_kunlunxin() -> None:
    # intel/intel-extension-for-pytorch style: `xpu::dpcpp` and at::xpu are Intel's, and no
    # XDNN context or check is in the file.
    source = b"""\
#include <ATen/ATen.h>

at::Tensor softmax(const at::Tensor& input, int64_t dim) {
  auto& queue = xpu::dpcpp::dpcppGetCurrentQueue();
  return at::xpu::softmax(input, dim);
}
"""
    report = classify("csrc/gpu/aten/operators/Softmax.cpp", source)
    assert "kunlun" not in report.ecosystems


# -- microsoft/onnxruntime-genai: execution providers through ORT's own API -----------------------


def test_onnxruntime_genai_amdgpu_provider_through_ort_api_is_portable() -> None:
    # src/amdgpu/interface.cpp: device buffers are ORT allocations and copies go through
    # OrtEnv::CopyTensors; no ROCm call is made here, so it is the runtime's mapping.
    source = b"""\
namespace Generators {
namespace AMDGPU {

struct GpuMemory final : DeviceBuffer {
  GpuMemory(size_t size, Ort::Allocator* allocator) : ort_allocator_{allocator} {
    size_in_bytes_ = size;
    p_device_ = static_cast<uint8_t*>(ort_allocator_->Alloc(size_in_bytes_));
  }
  ~GpuMemory() override { ort_allocator_->Free(p_device_); }
};

}  // namespace AMDGPU
}  // namespace Generators
"""
    assert _layers("src/amdgpu/interface.cpp", source) == {"portable": 11}
