"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-r).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the
written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some are
not GPU code at all). This lane took sub-pool positions 64-70. One was skipped:
pest88-spec/keycuda (70) had no snapshot to fetch. Read were triton/triton (a fork of nixpkgs:
Nix package expressions and NixOS modules, no GPU code beside the NVIDIA driver packages it
names), jorgy343/RayTracer (a CPU ray tracer in C++20 modules with AVX vector classes, no GPU
code), justinchuby/onnxruntime-ep-vulkan (an ONNX Runtime execution provider in Rust over
the Vulkan API, GLSL compute shaders, and a large Python test and benchmark harness),
sinisterchipmunk/jax (a WebGL framework for Rails in CoffeeScript, GLSL held in triple-quoted
strings), MrNeRF/gaussian-splatting-cuda (LichtFeld Studio: 3D Gaussian splatting training in
C++ on libtorch with CUDA kernels from gsplat, an OpenGL viewer and its GLSL shaders) and
yang137447/VulkanLearn (a Vulkan learning renderer in C++ with the Vulkan SDK, SDL3 and Eigen
vendored). Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (up to 5 a repository), and
up to three commits touching GPU code (``random.Random("owner/name:commits")``) judged
against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading
that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- yang137447/VulkanLearn: Eigen 3.4 vendored under extern/ ---------------------------------


def test_a_library_macro_swapped_with_push_macro_keeps_its_functions_portable() -> None:
    # extern/Eigen3/Eigen/src/Core/arch/Default/BFloat16.h (kernel 314 before): Eigen saves
    # its EIGEN_DEVICE_FUNC, redefines it to `__host__ __device__` for clang's CUDA pass
    # around the CPU emulation of bfloat16, then restores it. The macro is Eigen's own, defined
    # in another header, and its uses are portable C++ there and here; only the #define line
    # spelling the qualifier stays device code.
    source = b"""\
namespace numlib {
#if defined(__clang__) && defined(__CUDA__)
#pragma push_macro("NUMLIB_FN")
#undef NUMLIB_FN
#if defined(NUMLIB_HAS_NATIVE_BF16)
#define NUMLIB_FN __host__
#else
#define NUMLIB_FN __host__ __device__
#endif
#endif

NUMLIB_FN inline brain16 operator+(const brain16& a, const brain16& b) {
  return brain16(float(a) + float(b));
}
NUMLIB_FN inline brain16 operator*(const brain16& a, const brain16& b) {
  return brain16(float(a) * float(b));
}

#if defined(__clang__) && defined(__CUDA__)
#pragma pop_macro("NUMLIB_FN")
#endif

NUMLIB_FN inline float widen(brain16 h) {
  unsigned bits = static_cast<unsigned>(h.bits) << 16;
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}
}  // namespace numlib
"""
    path = "extern/numlib/src/Core/arch/Default/Brain16.h"
    assert "cuda.device-macro" not in _rules(path, source)
    assert _layers(path, source).get("kernel", 0) == 1


def test_a_device_macro_defined_in_place_still_claims_its_functions() -> None:
    # The exemption above reads the macro pushed and #undef'd, not any push_macro in the file:
    # a header that saves `min` for MSVC and defines its own host-device qualifier is device
    # code as before (gsplat's Cameras.cuh qualifies its camera models the same way).
    source = b"""\
#pragma push_macro("min")
#undef min
#define CAM_FN __host__ __device__
CAM_FN inline float project(float x, float z) {
  return x / z;
}
#pragma pop_macro("min")
"""
    path = "include/camera_model.cuh"
    assert "cuda.device-macro" in _rules(path, source)
    assert _layers(path, source).get("kernel", 0) >= 4


def test_a_vulkan_platform_header_is_vendor_path() -> None:
    # extern/VulkanSDK/include/vulkan/vulkan_directfb.h (right before): the SDK's surface
    # extension typedefs and prototypes are the Vulkan host API.
    source = b"""\
#define VK_EXT_wayland_surface_demo 1
typedef VkFlags VkDemoSurfaceCreateFlagsEXT;
typedef struct VkDemoSurfaceCreateInfoEXT {
    VkStructureType              sType;
    const void*                  pNext;
    VkDemoSurfaceCreateFlagsEXT  flags;
} VkDemoSurfaceCreateInfoEXT;
typedef VkResult (VKAPI_PTR *PFN_vkCreateDemoSurfaceEXT)(VkInstance instance,
    const VkDemoSurfaceCreateInfoEXT* pInfo, const VkAllocationCallbacks* pAlloc,
    VkSurfaceKHR* pSurface);
"""
    path = "extern/VulkanSDK/include/vulkan/vulkan_demo.h"
    assert set(_layers(path, source)) - {"portable"} == {"vendor-path"}


# -- MrNeRF/gaussian-splatting-cuda: libtorch host code beside gsplat's CUDA kernels --------


def test_a_torch_forward_declaration_header_in_cuh_is_portable() -> None:
    # include/kernels/bilateral_grid.cuh (right before): a .cuh that only declares the host
    # entry points, in torch::Tensor types, holds no device code.
    source = b"""\
#pragma once
#include <torch/torch.h>

namespace splat::grid {
    void apply_grid(const torch::Tensor& grid, const torch::Tensor& rgb, torch::Tensor& out);
    torch::Tensor smoothness_loss(const torch::Tensor& grids);
}
"""
    path = "include/kernels/grid_ops.cuh"
    assert set(_layers(path, source)) == {"portable"}


def test_a_torch_test_pinning_tensors_to_cuda_is_vendor_path() -> None:
    # tests/test_default_strategy.cpp (right before): the fixture picks torch::kCUDA and the
    # test asserts is_cuda() on the model's tensors.
    source = b"""\
class StrategyTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!torch::cuda::is_available()) {
            GTEST_SKIP() << "no GPU";
        }
        device = torch::kCUDA;
    }
    torch::Device device{torch::kCPU};
};

TEST_F(StrategyTest, ParamsLiveOnTheGpu) {
    auto means = torch::randn({8, 3}).to(device);
    EXPECT_TRUE(means.is_cuda());
}
"""
    path = "tests/test_strategy.cpp"
    assert set(_layers(path, source)) - {"portable"} == {"vendor-path"}


def test_a_gsplat_host_wrapper_launches_its_kernel_as_vendor_path() -> None:
    # gsplat/RasterizeToPixelsFromWorld3DGSBwd.cu (extra, 295 kernel lines, in range): the
    # __global__ body is kernel, the launcher's shared-memory attribute and <<<>>> launch are
    # vendor-path, its tensor bookkeeping portable.
    source = b"""\
#include <c10/cuda/CUDAStream.h>

template <typename T>
__global__ void scale_kernel(const T* in, T* out, int n, T s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * s;
    }
}

void launch_scale(const at::Tensor in, at::Tensor out, float s) {
    int n = in.numel();
    if (n == 0) {
        return;
    }
    dim3 threads(256);
    dim3 grid((n + 255) / 256);
    scale_kernel<float><<<grid, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        in.data_ptr<float>(), out.data_ptr<float>(), n, s);
}
"""
    path = "gsplat/Scale.cu"
    layers = _layers(path, source)
    assert layers["kernel"] == 7
    assert layers.get("vendor-path", 0) >= 3
    assert layers["portable"] >= 6


def test_a_viewer_glsl_vertex_shader_is_kernel_as_a_whole() -> None:
    # src/rendering/resources/shaders/viewport_gizmo.vert (16 of 16 kernel lines, in range).
    source = b"""\
#version 430 core
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aColor;
uniform mat4 uMVP;
out vec3 vColor;
void main() {
    vColor = aColor;
    gl_Position = uMVP * vec4(aPos, 1.0);
}
"""
    path = "src/rendering/resources/shaders/axis_gizmo.vert"
    assert _layers(path, source) == {"kernel": 9}


# -- sinisterchipmunk/jax: GLSL held in CoffeeScript strings ---------------------------------


def test_glsl_in_a_coffeescript_heredoc_is_kernel_and_the_rest_portable() -> None:
    # doc/input/basics.coffee and jax-engine/app/assets/jax/controllers/noise.js.coffee (7
    # kernel lines each, 6 by hand, in range): a material layer's fragment shader in a
    # triple-quoted string; the CoffeeScript around it is WebGL host code, portable.
    source = b'''\
class Demo.Layer.Stripes extends Demo.Layer
  @shaderSource:
    fragment: """
      uniform float phase;

      void main(void) {
        float s = step(0.5, fract(gl_FragCoord.x * 0.1 + phase));
        gl_FragColor = vec4(s, s, s, 1.0);
      }
    """

  setVariables: (context, mesh, model, vars, pass) ->
    vars.phase = context.uptime
'''
    path = "doc/input/stripes.coffee"
    layers = _layers(path, source)
    assert 5 <= layers["kernel"] <= 7
    assert set(layers) == {"kernel", "portable"}


# -- justinchuby/onnxruntime-ep-vulkan: the Python harness around a Vulkan EP ----------------


def test_a_session_on_the_vulkan_execution_provider_is_portable() -> None:
    # bench/phi35.py (right before): the Vulkan EP runs on NVIDIA, AMD and Intel GPUs; a model
    # folder named after a CUDA build variant is a path, not a dependency.
    source = b"""\
import onnxruntime as ort

EP = "VulkanExecutionProvider"
MODEL_DIR = "phi-mini/cuda-int4-block-32"

def open_session(path):
    opts = ort.SessionOptions()
    return ort.InferenceSession(str(path), opts, providers=[EP, "CPUExecutionProvider"])
"""
    path = "bench/phi_bench.py"
    assert set(_layers(path, source)) == {"portable"}


def test_gpu_adapter_names_in_test_data_are_portable() -> None:
    # bench/test_win_gpu_counters.py, tests/ops/test_device_identity_wire.py (right before):
    # NVIDIA and Intel adapter names are strings the tests compare.
    source = b"""\
def test_two_adapters_keep_their_own_luid(counters):
    igpu = counters.luid_for_adapter("Intel(R) UHD Graphics")
    dgpu = counters.luid_for_adapter("NVIDIA GeForce RTX 3050 Laptop GPU")
    assert igpu != dgpu

def test_device_name_round_trips(entry):
    assert entry["device"] == "NVIDIA RTX A2000 Laptop GPU"
"""
    path = "tests/ops/test_adapter_names.py"
    assert set(_layers(path, source)) == {"portable"}


# -- triton/triton (a nixpkgs fork) and jorgy343/RayTracer: no GPU code -----------------------


def test_a_nixos_module_adding_the_nvidia_driver_module_is_vendor_path() -> None:
    # services/b/bumblebee/default.nix (right before): the NVIDIA kernel module is added when
    # the service is set to the proprietary driver.
    source = b"""\
{ config, lib, pkgs, ... }:
let
  cfg = config.services.optimus;
  kernel = config.boot.kernelPackages;
  proprietary = cfg.driver == "nvidia";
in {
  config = lib.mkIf cfg.enable {
    boot.blacklistedKernelModules = [ "nouveau" "nvidia" ];
    boot.extraModulePackages = [ kernel.bbswitch ] ++ lib.optional proprietary kernel.nvidia_x11;
  };
}
"""
    path = "nixos/modules/services/optimus.nix"
    assert _rules(path, source) == {"deps.nix-cuda"}
    assert _layers(path, source)["vendor-path"] == 1


def test_a_cpu_ray_tracer_module_with_avx_vectors_is_portable() -> None:
    # src/Yart.Engine/SphereSoa.ixx (right before): SIMD intersection over a structure of
    # arrays with AVX vector classes, CPU code only.
    source = b"""\
export module SphereSoa;
import "Vcl.hpp";

export struct SpheresSoa {
    Vec8f cx, cy, cz, r2;
    Vec8fb Hit(Vec8f ox, Vec8f oy, Vec8f oz) const {
        Vec8f dx = cx - ox, dy = cy - oy, dz = cz - oz;
        return dx * dx + dy * dy + dz * dz < r2;
    }
};
"""
    path = "src/Engine/SpheresSoa.ixx"
    assert set(_layers(path, source)) == {"portable"}
