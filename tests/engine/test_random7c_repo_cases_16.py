"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-c).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 346-353. Two could not be read and were skipped, not replaced:
Mauragkas/thesis_grpc_lead_dga_cfd (no snapshot) and longcheng-nv/TensorRT-LLM (snapshot of
1.67 GB, over the limit). Fifteen files of each remaining repository (ALSparse/ALSparse,
izquiratops/wgsl-playground, kokkos/kokkos-fft, rwincey/hashcat, c3sr/cudnn_scope,
zzxzzk115/libvultra) were sampled with ``random.Random("owner/name")`` over every file lockin
counts with code lines, and labelled before any fix, with the files lockin calls non-portable
(up to 20) and GPU-looking files it calls portable (up to 10); three commits touching GPU code
per repository, drawn with ``random.Random("owner/name:commits")``, were judged against
``lockin diff``. Every sampled verdict was right; the misses were among the extras. Each snippet
is a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ALSparse/ALSparse: a sparse BLAS with CPU back ends and a DCU (HIP) one -------------------


def test_alsparse_dcu_prototypes_without_hip_names_are_portable() -> None:
    # include/alphasparse/kernel_dcu/kernel_bsr_c_dcu.h (sampled, right): the DCU back end's
    # prototypes name the library's own types only; the HIP code is in the .cpp files.
    source = b"""\
#pragma once

#include "../spmat.h"

alphasparse_status_t dcu_gemv_c_bsr(alphasparse_dcu_handle_t handle,
                                    ALPHA_INT mb,
                                    const ALPHA_Complex8 *x,
                                    ALPHA_Complex8 *y);
"""
    assert _layers("include/alphasparse/kernel_dcu/kernel_bsr_c_dcu.h", source) == {"portable": 6}


def test_alsparse_dcu_entry_including_hip_runtime_is_vendor_path() -> None:
    # src/core/op_dcu/level1/alphasparse_dcu_c_dotci.cpp (sampled, right): argument checks
    # around a call into the DCU kernels, in a file built by hipcc with the HIP runtime.
    source = b"""\
#include "alphasparse/handle.h"
#include <hip/hip_runtime.h>

alphasparse_status_t dotci(alphasparse_dcu_handle_t handle, ALPHA_INT nnz, ALPHA_Number *r)
{
    if (handle == nullptr) return ALPHA_SPARSE_STATUS_INVALID_HANDLE;
    return dcu_dotci(handle, nnz, r);
}
"""
    path = "src/core/op_dcu/level1/alphasparse_dcu_c_dotci.cpp"
    assert _rules(path, source) == {"hip.include"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 6}


# -- izquiratops/wgsl-playground: a WebGPU shader editor -----------------------------------------


def test_wgsl_playground_webgpu_host_is_portable_and_its_shader_is_kernel() -> None:
    # src/services/renderer.ts (GPU-looking extra, right) drives WebGPU, a cross-vendor API;
    # src/shaders/default.wgsl (right) is shader code in full.
    host = b"""\
class Renderer {
    constructor(private device: GPUDevice, private context: GPUCanvasContext) {}

    render(format: GPUTextureFormat) {
        this.context.configure({ device: this.device, format, alphaMode: "opaque" });
        const encoder = this.device.createCommandEncoder();
        this.device.queue.submit([encoder.finish()]);
    }
}
"""
    assert _layers("src/services/renderer.ts", host) == {"portable": 8}
    shader = b"""\
@vertex fn mainVertex(@builtin(vertex_index) i : u32) -> @builtin(position) vec4f {
  let pos = array(vec2f(0.0, 0.5), vec2f(-0.5, -0.5), vec2f(0.5, -0.5));
  return vec4f(pos[i], 0.0, 1.0);
}

@fragment fn mainFragment() -> @location(0) vec4f {
  return vec4f(1, 0, 0, 1);
}
"""
    assert _layers("src/shaders/default.wgsl", shader) == {"kernel": 7}


# -- rwincey/hashcat: per-vendor branches in the hash-mode plugins -----------------------------


def test_hashcat_module_vendor_id_branches_are_vendor_paths() -> None:
    # src/modules/module_11300.c (a GPU-looking extra): the JIT options differ per vendor id
    # and back end. Before, the file was portable; a quarter of the 583 modules hold such
    # branches, and 50 of them had nothing else lockin counted.
    source = b"""\
char *module_jit_build_options (const hc_device_param_t *device_param)
{
  char *jit_build_options = NULL;

  if (device_param->opencl_platform_vendor_id == VENDOR_ID_APPLE)
  {
    return jit_build_options;
  }

  if (device_param->opencl_device_vendor_id == VENDOR_ID_AMD_USE_HIP)
  {
    hc_asprintf (&jit_build_options, "-D _unroll");
  }

  if ((device_param->opencl_device_vendor_id == VENDOR_ID_AMD) && (device_param->has_vperm == true))
  {
    hc_asprintf (&jit_build_options, "-D _unroll");
  }

  return jit_build_options;
}
"""
    path = "src/modules/module_11300.c"
    assert _rules(path, source) == {"opencl.vendor-id-branch"}
    assert _layers(path, source) == {"vendor-path": 12, "portable": 5}


def test_hashcat_backend_flag_branches_are_vendor_paths() -> None:
    # src/dispatch.c: the thread pushes the CUDA context or selects the HIP device before it
    # runs, by the device's back-end flags.
    source = b"""\
static int thread_prepare (hashcat_ctx_t *hashcat_ctx, hc_device_param_t *device_param)
{
  if (device_param->is_cuda == true)
  {
    if (hc_cuCtxPushCurrent (hashcat_ctx, device_param->cuda_context) == -1) return -1;
  }

  if (device_param->is_metal == false) count_host (hashcat_ctx);

  return 0;
}
"""
    path = "src/dispatch.c"
    assert _rules(path, source) == {"opencl.vendor-id-branch"}
    assert _layers(path, source) == {"vendor-path": 4, "portable": 5}


def test_hashcat_module_without_device_branch_is_portable() -> None:
    # src/modules/module_01310.c (sampled, right before and after): limits and parsing only.
    source = b"""\
static const u32 DGST_SIZE = DGST_SIZE_4_8;
static const u64 KERN_TYPE = 1310;

u32 module_pw_max (const hashconfig_t *hashconfig, const user_options_t *user_options)
{
  const u32 pw_max = 256;

  return pw_max;
}
"""
    assert _layers("src/modules/module_01310.c", source) == {"portable": 7}


def test_hashcat_opencl_include_header_is_kernel_code() -> None:
    # OpenCL/inc_hash_sha512.h (sampled, right): a header of the OpenCL kernels, device code in
    # full.
    source = b"""\
#ifndef INC_HASH_SHA512_H
#define INC_HASH_SHA512_H

#define SHA512_S0(x) (hc_rotr64_S ((x), 28) ^ hc_rotr64_S ((x), 34))

DECLSPEC void sha512_transform (PRIVATE_AS const u32 *w0, PRIVATE_AS u64 *digest);

#endif
"""
    assert _layers("OpenCL/inc_hash_sha512.h", source) == {"kernel": 5}


# -- kokkos/kokkos-fft: back ends chosen by Kokkos execution space ------------------------------


def test_kokkos_fft_plans_constrained_to_cuda_and_hip_spaces_are_vendor_paths() -> None:
    # fft/src/KokkosFFT_Cuda_plans.hpp and KokkosFFT_HIP_plans.hpp (GPU-looking extras): the
    # plan builders exist only for Kokkos::Cuda and Kokkos::HIP. Before, both were portable.
    cuda = b"""\
template <typename ExecutionSpace, typename PlanType, typename InViewType>
  requires(std::same_as<ExecutionSpace, Kokkos::Cuda>)
auto create_plan(const ExecutionSpace& exec_space, std::unique_ptr<PlanType>& plan,
                 const InViewType& in) {
  using index_type = FFTIndexType<Kokkos::Cuda>;
  const index_type nx = in.extent(0);
  plan = std::make_unique<PlanType>(nx);
  plan->commit(exec_space);
  return nx;
}
"""
    path = "fft/src/KokkosFFT_Cuda_plans.hpp"
    assert _rules(path, cuda) == {"cuda.kokkos-space"}
    assert _layers(path, cuda) == {"vendor-path": 5, "portable": 5}
    hip = cuda.replace(b"Kokkos::Cuda", b"Kokkos::HIP")
    path = "fft/src/KokkosFFT_HIP_plans.hpp"
    assert _rules(path, hip) == {"hip.kokkos-space"}
    assert _layers(path, hip) == {"vendor-path": 5, "portable": 5}


def test_kokkos_fft_test_of_every_device_back_end_is_portable() -> None:
    # fft/unit_test/Test_Plans.cpp (a GPU-looking extra, right): one branch for every device
    # back end, the execution space left to Kokkos.
    source = b"""\
TEST(Plans, DeviceOnly) {
  using execution_space = Kokkos::DefaultExecutionSpace;
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP) || \\
    defined(KOKKOS_ENABLE_SYCL)
  GTEST_SKIP() << "device back ends plan on the device only";
#endif
  run_plan<execution_space>();
}
"""
    assert _layers("fft/unit_test/Test_Plans.cpp", source) == {"portable": 8}


def test_kokkos_fft_typos_allow_list_is_portable() -> None:
    # .typos.toml (called non-portable): the spell checker's allow-list names an AMD variable
    # as itself; nothing sets it. Before, the line was vendor-path.
    source = b"""\
[files]
extend-exclude = ["tpls/*"]

[default.extend-identifiers]
HSA_XNACK = "HSA_XNACK"
"""
    assert _layers(".typos.toml", source) == {"portable": 4}
    # A variable set to a value is still the AMD stack's.
    assert _rules("env.toml", b'[env]\nHSA_XNACK = "1"\n') == {"env.hip-variables"}


def test_kokkos_fft_device_lambda_test_counts_its_lambdas_as_kernels() -> None:
    # testing/unit_test/Test_AreClose.cpp (sampled, right): the KOKKOS_LAMBDA bodies are device
    # code of the portability layer (portable-gpu.device-lambda), the rest host test code.
    source = b"""\
TEST(AreClose, Scalars) {
  Kokkos::View<bool, execution_space> close("close");
  Kokkos::parallel_for(
      Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int>>{0, 1},
      KOKKOS_LAMBDA(int) {
        close() = are_almost_equal(a, b, rtol, atol);
      });
  EXPECT_TRUE(read(close));
}
"""
    path = "testing/unit_test/Test_AreClose.cpp"
    assert _rules(path, source) == {"portable-gpu.device-lambda"}
    assert _layers(path, source) == {"kernel": 3, "portable": 6}


# -- zzxzzk115/libvultra: a Vulkan renderer's lines that name no Vk type -------------------------


def test_libvultra_rhi_enum_spelt_with_vulkan_constants_is_vendor_path() -> None:
    # source/include/vultra/core/rhi/sampler_info.hpp (GPU-looking extra): the RHI's sampler
    # enums take Vulkan's values. Before, the file was portable.
    source = b"""\
namespace vultra::rhi {
enum class SamplerMipmapMode {
    eNearest = VK_SAMPLER_MIPMAP_MODE_NEAREST,
    eLinear  = VK_SAMPLER_MIPMAP_MODE_LINEAR,
};
enum class BorderColor {
    eOpaqueBlack = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK,
};
}
"""
    path = "source/include/vultra/core/rhi/sampler_info.hpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 5, "portable": 4}


def test_libvultra_openxr_vulkan_binding_is_vendor_path() -> None:
    # source/src/function/openxr/xr_headset.cpp and xr_device.hpp (GPU-looking extras): the
    # OpenXR session binds a Vulkan device and loads the Vulkan entry points of OpenXR.
    source = b"""\
struct XrDeviceFns {
    PFN_xrGetVulkanGraphicsDevice2KHR xrGetVulkanGraphicsDevice2KHR {nullptr};
};

bool Headset::begin(XrInstance instance, XrSession* session) {
    XrGraphicsBindingVulkan2KHR binding {};
    binding.type = XR_TYPE_GRAPHICS_BINDING_VULKAN2_KHR;
    XrSessionCreateInfo info {XR_TYPE_SESSION_CREATE_INFO};
    info.next = &binding;
    return xrCreateSession(instance, &info, session) == XR_SUCCESS;
}
"""
    path = "source/src/function/openxr/xr_headset.cpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 7}


def test_libvultra_runtime_shader_compiler_for_vulkan_is_vendor_path() -> None:
    # source/src/core/rhi/shader_compiler.cpp (GPU-looking extra): glslang compiles the GLSL
    # for a Vulkan client into SPIR-V.
    source = b"""\
std::vector<uint32_t> compile(EShLanguage stage, const char* code) {
    glslang::TShader shader {stage};
    shader.setStrings(&code, 1);
    shader.setEnvInput(glslang::EShSourceGlsl, stage, glslang::EShClientVulkan, 100);
    shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_3);
    return link(shader);
}
"""
    path = "source/src/core/rhi/shader_compiler.cpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 5}


def test_libvultra_tracy_vulkan_zones_are_vendor_path() -> None:
    # source/include/vultra/core/profiling/tracy_wrapper.hpp (GPU-looking extra): Tracy's GPU
    # zones for Vulkan, stubbed out when Tracy is off.
    source = b"""\
#pragma once
#ifdef TRACY_ENABLE
#include <tracy/TracyVulkan.hpp>
#else
#define TracyVkZone(ctx, cmd, name)
#endif
"""
    path = "source/include/vultra/core/profiling/tracy_wrapper.hpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 4}


def test_libvultra_render_pass_through_its_own_rhi_is_portable() -> None:
    # source/src/function/renderer/builtin/post_process_helper.cpp (sampled, right): the
    # pipeline is built through the engine's RHI from a SPIR-V blob; no Vulkan name.
    source = b"""\
rhi::GraphicsPipeline createPostProcessPipeline(rhi::RenderDevice& rd, rhi::PixelFormat format,
                                                const rhi::SPIRV& spv) {
    return rhi::GraphicsPipeline::Builder {}
        .setColorFormats({format})
        .addBuiltinShader(rhi::ShaderType::eFragment, spv)
        .setRasterizer({.polygonMode = rhi::PolygonMode::eFill})
        .build(rd);
}
"""
    path = "source/src/function/renderer/builtin/post_process_helper.cpp"
    assert _layers(path, source) == {"portable": 8}


def test_libvultra_ci_installing_the_vulkan_sdk_is_vendor_path() -> None:
    # .github/workflows/build_windows.yaml (GPU-looking extra): the build job installs the
    # Vulkan SDK through an action before xmake builds. Before, the workflow was portable.
    source = b"""\
jobs:
  build:
    runs-on: windows-latest
    steps:
      - uses: xmake-io/github-action-setup-xmake@v1
      - name: Prepare Vulkan SDK
        uses: humbletim/setup-vulkan-sdk@v1.2.1
        with:
          vulkan-components: Vulkan-Headers, Vulkan-Loader
      - name: Build
        run: xmake -y
"""
    path = ".github/workflows/build_windows.yaml"
    assert _rules(path, source) == {"build.vulkan"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 10}


# -- c3sr/cudnn_scope: cuDNN benchmarks kept in .inc fragments ---------------------------------


def test_cudnn_scope_benchmark_fragment_in_inc_is_counted() -> None:
    # src/cudnn_conv_fwd.inc (a file lockin gave no language): the cuDNN benchmark body that
    # src/cudnn_conv_fwd_<n>.cpp includes after one define. Before, it was never counted.
    source = b"""\
#include <benchmark/benchmark.h>
#include <cudnn.h>

template <typename T, cudnnConvolutionFwdAlgo_t algo>
void conv_fwd(benchmark::State& state) {
  cudnnHandle_t handle;
  cudnnCreate(&handle);
  for (auto _ : state) {
    cudnnConvolutionForward(handle, &alpha, x, x_data, w, w_data, conv, algo, ws, ws_size,
                            &beta, y, y_data);
  }
  cudnnDestroy(handle);
}
"""
    report = classify("src/cudnn_conv_fwd.inc", source)
    assert report.language == "C++"
    assert "cudnn.call" in _rules("src/cudnn_conv_fwd.inc", source)
    # An .inc that includes only the standard library stays uncounted, as before.
    plain = b"#include <stdio.h>\nstatic int counter;\n"
    assert classify("src/counter.inc", plain).language is None


def test_libvultra_xmake_build_running_the_sdk_shader_compiler_is_vendor_path() -> None:
    # builtin/xmake.lua (GPU-looking extra): xmake compiles the built-in GLSL shaders to SPIR-V
    # with the Vulkan SDK's glslangValidator. Before, the Lua build file was portable.
    source = b"""\
target("vultra_builtin_assets")
    set_kind("static")
    before_build(function (target)
        for _, f in ipairs(os.files("shaders/**.frag")) do
            os.execv("glslangValidator", {"-V", "--target-env", "vulkan1.2", "-o", f .. ".spv", f})
        end
    end)
"""
    path = "builtin/xmake.lua"
    assert _rules(path, source) == {"build.xmake-vulkan"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 6}
