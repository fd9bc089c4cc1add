"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-j).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 455-461. One had no snapshot to fetch and was skipped:
Thorgrimmneth/Raytracer (455). Read were awslabs/stable-diffusion-aws-extension (a
SageMaker extension for Stable Diffusion WebUI and ComfyUI: Lambda handlers, CDK
infrastructure, build scripts naming GPU instance types), torchwooddev/torchwood (a Go game
backend with a TypeScript SDK and console, no GPU code), KeenSoftwareHouse/Miner-Wars-2081
(a C# game on SharpDX Direct3D 9 with its HLSL effect files), Bioconductor/SparseArray (an R
package with C code, no GPU code), shadergz/cosmic-station (an Android PlayStation 2
emulator in C++ and Kotlin with a Vulkan back end) and 0x00b1/torchscience (a PyTorch
scientific-computing library with C++ CPU kernels and CUDA launchers). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts
and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, up to five more files holding
kernel lines counted by hand, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- 0x00b1/torchscience: a macro stamping out a kernel and its launcher per name --------------


def test_macro_holding_kernels_and_launchers_counts_only_the_kernels() -> None:
    # src/torchscience/csrc/cuda/color_macros.cuh: one #define writes a namespace, a forward
    # and a backward __global__ kernel, then the host launchers and the TORCH_LIBRARY_IMPL
    # registration. Thread indexing sits in the kernels only: the launchers are host code
    # (CUDA-only, vendor-path), not 90 lines of kernel.
    source = b"""\
#include <ATen/ATen.h>
#include <c10/cuda/CUDAGuard.h>

#define DEFINE_SHIFT_OP(op)                                            \\
namespace mylib::cuda {                                                \\
                                                                       \\
template <typename T>                                                  \\
__global__ void op##_kernel(const T* in, T* out, int64_t n) {          \\
    int64_t i = blockIdx.x * blockDim.x + threadIdx.x;                 \\
    if (i < n) {                                                       \\
        out[i] = op##_scalar(in[i]);                                   \\
    }                                                                  \\
}                                                                      \\
                                                                       \\
inline at::Tensor op(const at::Tensor& in) {                           \\
    c10::cuda::CUDAGuard guard(in.device());                           \\
    auto out = at::empty_like(in);                                     \\
    const int64_t n = in.numel();                                      \\
    op##_kernel<float><<<(n + 255) / 256, 256>>>(                      \\
        in.data_ptr<float>(), out.data_ptr<float>(), n);               \\
    return out;                                                        \\
}                                                                      \\
                                                                       \\
}
"""
    assert _layers("csrc/cuda/shift_macros.cuh", source)["kernel"] == 7
    assert "cuda.launch" in _rules("csrc/cuda/shift_macros.cuh", source)


def test_macro_opening_on_its_kernel_counts_the_kernel_not_the_launcher() -> None:
    # The same construct with the qualifier within three lines of the #define, which
    # cuda.device-macro reads as a macro qualifying functions: the macro holds the whole
    # kernel, so the kernel (and the line using the macro) count, not the launcher beside it.
    source = b"""\
#include <c10/cuda/CUDAGuard.h>

#define MAKE_SCALE_OP(op)                                              \\
template <typename T>                                                  \\
__global__ void op##_kernel(const T* in, T* out, int64_t n) {          \\
    int64_t i = blockIdx.x * blockDim.x + threadIdx.x;                 \\
    if (i < n) out[i] = op##_scalar(in[i]);                            \\
}                                                                      \\
                                                                       \\
inline at::Tensor op(const at::Tensor& in) {                           \\
    c10::cuda::CUDAGuard guard(in.device());                           \\
    auto out = at::empty_like(in);                                     \\
    op##_kernel<float><<<64, 256>>>(in.data_ptr<float>(),              \\
                                    out.data_ptr<float>(), in.numel());\\
    return out;                                                        \\
}

MAKE_SCALE_OP(halve)
"""
    assert _layers("csrc/cuda/scale_ops.cuh", source)["kernel"] == 6


def test_macro_writing_only_a_kernel_header_still_claims_its_uses() -> None:
    # The flash-attention style the device-macro rule was written for stays as it was: the
    # macro writes `__global__ void name(...)` and each use is followed by the body.
    source = b"""\
#define DEFINE_KERNEL(name, ...) \\
template <typename T> \\
__global__ void name(__VA_ARGS__)

DEFINE_KERNEL(fill_kernel, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 1.0f;
}
"""
    assert _layers("kernels/fill.cuh", source) == {"kernel": 7}


def test_cuda_dispatch_branch_in_a_router_macro_counts_as_outside_one() -> None:
    # src/torchscience/csrc/composite/signal_processing/window_functions.h: a macro writes a
    # router per window that picks the CUDA dispatch key for CUDA tensors. The CUDA branch is
    # the vendor-path line, as it is in the same router written out by hand, not the router.
    source = b"""\
#define DEFINE_ROUTER(name)                                            \\
inline at::Tensor name##_make(int64_t n, c10::optional<at::Device> d) { \\
  c10::DispatchKeySet ks(c10::DispatchKey::CPU);                       \\
  if (d.value_or(at::kCPU).type() == at::kCUDA) {                      \\
    ks = c10::DispatchKeySet(c10::DispatchKey::CUDA);                  \\
  }                                                                    \\
  return c10::Dispatcher::singleton()                                  \\
    .findSchemaOrThrow("mylib::" #name, "")                            \\
    .typed<at::Tensor(int64_t, c10::optional<at::Device>)>()           \\
    .redispatch(ks, n, d);                                             \\
}

DEFINE_ROUTER(hann)
"""
    assert _rules("csrc/composite/windows.h", source) == {"torch.cpp-cuda"}
    assert _layers("csrc/composite/windows.h", source) == {"vendor-path": 1, "portable": 11}


def test_cuda_placeholder_unit_holding_only_namespaces_is_portable() -> None:
    # src/torchscience/csrc/cuda/ordinary_differential_equation/initial_value_problem/euler.cu:
    # a .cu file left as a TODO holds an include and empty namespaces; nothing to port.
    source = b"""\
#include <ATen/ATen.h>

namespace mylib {
namespace cuda {
// TODO: a CUDA version of this solver; Python handles CUDA tensors for now.
}  // namespace cuda
}  // namespace mylib
"""
    assert _rules("csrc/cuda/ode/euler.cu", source) == set()
    assert _layers("csrc/cuda/ode/euler.cu", source) == {"portable": 5}


def test_host_device_math_header_stays_portable() -> None:
    # src/torchscience/csrc/kernel/information_theory/conditional_mutual_information.h: a
    # C10_HOST_DEVICE template compiled for the CPU and for whichever GPU build includes it.
    source = b"""\
#include <cmath>
#include <c10/macros/Macros.h>

template <typename T>
C10_HOST_DEVICE C10_ALWAYS_INLINE T plogp_sum(const T* p, int64_t n) {
    T total = T(0);
    for (int64_t i = 0; i < n; ++i) {
        if (p[i] > T(0)) total -= p[i] * std::log(p[i]);
    }
    return total;
}
"""
    assert _rules("csrc/kernel/entropy.h", source) == set()


def test_pytest_case_on_cuda_device_is_vendor_path() -> None:
    # tests/torchscience/information/test__kraskov_entropy.py: a skip-unless-CUDA test that
    # places its tensors on "cuda".
    source = b"""\
import pytest
import torch

@pytest.mark.skipif(not torch.cuda.is_available(), reason="no GPU")
def test_on_gpu():
    x = torch.randn(100, 2, device="cuda")
    assert estimate(x).device.type == "cuda"
"""
    assert "torch.device-string" in _rules("tests/test_estimate.py", source)
    assert "vendor-path" in _layers("tests/test_estimate.py", source)


# -- shadergz/cosmic-station: Adreno's KGSL node and Vulkan host code --------------------------


def test_opening_adreno_kgsl_node_is_vendor_path() -> None:
    # app/src/main/cpp/drivers_glvk_jni.cpp: a JNI helper opens Qualcomm's KGSL node and sends
    # it a power-control property ioctl to hold the GPU clocks up.
    source = b"""\
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

void hold_gpu_clocks(bool on) {
    int fd = open("/dev/kgsl-3d0", O_RDWR);
    if (fd < 0) return;
    ioctl(fd, PWR_REQUEST, &on);
    close(fd);
}
"""
    assert _rules("src/main/cpp/clocks_jni.cpp", source) == {"opencl.adreno-kgsl-node"}
    assert _layers("src/main/cpp/clocks_jni.cpp", source) == {"vendor-path": 1, "portable": 8}


def test_vulkan_debug_messenger_setup_is_vulkan_host_code() -> None:
    # app/src/main/cpp/cosmic/gpu/vulcano/vulkan_misc.cpp: the validation-layer messenger.
    source = b"""\
VkDebugUtilsMessengerCreateInfoEXT messenger_info() {
    VkDebugUtilsMessengerCreateInfoEXT info{};
    info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    return info;
}
"""
    assert _rules("src/gpu/vk_debug.cpp", source) == {"vulkan.host-api"}


# -- KeenSoftwareHouse/Miner-Wars-2081 and awslabs/stable-diffusion-aws-extension -------------


def test_hlsl_effect_include_of_sampler_macros_is_kernel() -> None:
    # Effects/Toolkit/Macros.fxh: shader-model-2 helper macros every effect file includes.
    source = b"""\
// helpers for shader model 2.0 effects
#define DECLARE_TEXTURE(Name, index) \\
    texture2D Name; \\
    sampler Name##Sampler : register(s##index) = sampler_state { Texture = (Name); };

#define SAMPLE_TEXTURE(Name, uv)  tex2D(Name##Sampler, uv)
"""
    assert _layers("Effects/Common/Helpers.fxh", source) == {"kernel": 4}


def test_sagemaker_multi_gpu_instance_list_is_vendor_path() -> None:
    # middleware_api/comfy/execute.py: the instance types an async endpoint spreads over.
    source = b"""\
MULTI_GPU_TYPES = ['ml.p4d.24xlarge', 'ml.g5.12xlarge',
                   'ml.g4dn.12xlarge']

def is_multi_gpu(instance_type):
    return instance_type in MULTI_GPU_TYPES
"""
    assert _rules("api/execute.py", source) == {"cloud.nvidia-gpu-instance-string"}
    assert _layers("api/execute.py", source) == {"vendor-path": 2, "portable": 2}
