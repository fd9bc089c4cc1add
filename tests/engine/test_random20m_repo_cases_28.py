"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h56-random-m).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")`` before anyone read it, from its position 253 on, that hold a
GPU term by the written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text
only, so some are no GPU code at all). This lane took sub-pool positions 204-210 and skipped
none: every one had a snapshot within the size limit. Read were blockspacer/KD-Tree-Raytracer
(a CPU KD-tree ray tracer written as a job-application task on a game studio's C++ engine
library: SSE maths, allocators, MSBuild property sheets that link console and texture-tool
libraries, no GPU code), NexusI9/webgpu-sandbox (a C renderer on webgpu.h built with
Emscripten, its WGSL shaders beside it, one of them a ``.wgsl.in`` the Makefile preprocesses),
TritonSE/SPLAGen-Website (a TypeScript web application, front end and back end, no GPU code),
triton-lang/triton-ext (out-of-tree Triton compiler passes: an MLIR pass in C++ on the Triton
dialect, its lit test, the CI that builds LLVM and Triton, and a copy of Triton's fused
attention tutorial), caiprozect/Pycuda (bioinformatics exercises on PyCUDA: CUDA C kernels in
a .cu file and in SourceModule strings), TritonDataCenter/pkgsrc-wip (pkgsrc's
work-in-progress package collection: Makefiles, buildlink files, and patches to C, C++ and
CMake sources) and neil3d/50YearsOfRayTracing (CPU ray tracers retracing fifty years of papers,
on Embree and SDL2, no GPU code). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Two misses were
fixed: a WGSL shader kept as ``.wgsl.in`` was counted as Autoconf input, and a VirtualBox
patch whose file-scope ``__asm__("\\`` continues its directives on the next line was taken for
inline PTX. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- NexusI9/webgpu-sandbox: WGSL shaders and a C host on webgpu.h --------------------------


def test_wgsl_shader_template_before_preprocessing_is_kernel() -> None:
    # runtime/assets/shader/shader.pbr.wgsl.in (outside the sample, fixed): the PBR shader is
    # written with C preprocessor switches and turned into a .wgsl by the Makefile; before
    # the fix its 400 lines were counted as Autoconf input, portable.
    source = b"""\
// lights and shadows
const MAX_LIGHTS : u32 = 8u;

struct VertexIn {
  @location(0) pos : vec3<f32>,
  @location(1) normal : vec3<f32>,
};

struct VertexOut {
  @builtin(position) clip : vec4<f32>,
  @location(0) normal : vec3<f32>,
};

@group(0) @binding(0) var<uniform> view_proj : mat4x4<f32>;

@vertex fn vs_main(v : VertexIn) -> VertexOut {
  var out : VertexOut;
  out.clip = view_proj * vec4<f32>(v.pos, 1.0);
  out.normal = v.normal;
  return out;
}

@fragment fn fs_main(v : VertexOut) -> @location(0) vec4<f32> {
#ifdef SHOW_NORMALS
  return vec4<f32>(v.normal * 0.5 + 0.5, 1.0);
#else
  return vec4<f32>(1.0, 1.0, 1.0, 1.0);
#endif
}
"""
    path = "runtime/assets/shader/shader.lit.wgsl.in"
    assert set(_layers(path, source)) == {"kernel"}
    assert _layers(path, source)["kernel"] == 23


def test_wgsl_shader_file_is_kernel() -> None:
    # runtime/assets/shader/shader.grid.wgsl (sampled, already right, 98 of 98 lines).
    source = b"""\
struct Uniforms { view_proj : mat4x4<f32> };
@group(0) @binding(0) var<uniform> u : Uniforms;

@vertex fn vs_main(@location(0) pos : vec3<f32>) -> @builtin(position) vec4<f32> {
  return u.view_proj * vec4<f32>(pos, 1.0);
}

@fragment fn fs_main() -> @location(0) vec4<f32> {
  return vec4<f32>(0.3, 0.3, 0.3, 1.0);
}
"""
    path = "runtime/assets/shader/shader.grid.wgsl"
    assert _layers(path, source) == {"kernel": 8}


def test_c_host_code_on_webgpu_header_is_portable() -> None:
    # backend/buffer.c (GPU-looking, already right): buffers made and written through
    # webgpu.h, the vendor-neutral API Emscripten maps to the browser's WebGPU.
    source = b"""\
#include <webgpu/webgpu.h>
#include <stdint.h>

WGPUBuffer make_uniform(WGPUDevice device, WGPUQueue queue, const void *data, uint64_t size) {
  WGPUBufferDescriptor desc = {
      .label = "uniform",
      .usage = WGPUBufferUsage_Uniform | WGPUBufferUsage_CopyDst,
      .size = size,
      .mappedAtCreation = false,
  };
  WGPUBuffer buffer = wgpuDeviceCreateBuffer(device, &desc);
  wgpuQueueWriteBuffer(queue, buffer, 0, data, size);
  return buffer;
}
"""
    path = "backend/buffer.c"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- TritonDataCenter/pkgsrc-wip: patches to other projects' sources ------------------------


def test_patch_with_backslash_continued_assembler_directives_is_portable() -> None:
    # virtualbox/patches/patch-src_VBox_HostDrivers_Support_SUPDrvTracer.cpp (extra kernel
    # file, fixed: kernel 14 -> portable): the patch widens an OS guard above a file-scope
    # `__asm__("\` whose string goes on over the next lines with GNU assembler directives
    # for the host CPU; the first line, read alone, looked like a PTX template.
    source = b"""\
$NetBSD$

--- src/Support/Tracer.cpp.orig
+++ src/Support/Tracer.cpp
@@ -100,7 +100,7 @@ int TracerDeregister(void)
  * the probe stub has to be written in assembly here.
  */
-#if defined(__GNUC__) && (defined(OS_FREEBSD) || defined(OS_LINUX))
+#if defined(__GNUC__) && (defined(OS_FREEBSD) || defined(OS_LINUX) || defined(OS_NETBSD))
 __asm__("\\
         .section .text                    \\n\\
                                           \\n\\
@@ -200,4 +200,3 @@ void TracerTerm(void)
     dev->lock = NIL_MUTEX;
 }
-
"""
    path = "virtualbox/patches/patch-src_Support_Tracer.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_patch_to_intel_x_driver_gem_ioctls_is_vendor_path() -> None:
    # xf86-video-intel-dfbsd/patches/patch-src_sna_kgem.c (non-portable, already right): the
    # Intel X driver's buffer manager maps i915 GEM objects through the i915 DRM ioctls,
    # which only Intel's kernel driver answers.
    source = b"""\
--- src/sna/kgem.c.orig
+++ src/sna/kgem.c
@@ -500,6 +500,10 @@ static void *map_gtt(struct kgem *kgem, struct kgem_bo *bo)
 {
     struct drm_i915_gem_mmap_gtt gtt;
     VG_CLEAR(gtt);
     gtt.handle = bo->handle;
+#ifdef __DragonFly__
+    gtt.flags = 0;
+#endif
     if (do_ioctl(kgem->fd, DRM_IOCTL_I915_GEM_MMAP_GTT, &gtt))
         return NULL;
     return mmap(0, bytes(bo), PROT_READ | PROT_WRITE, MAP_SHARED, kgem->fd, gtt.offset);
 }
"""
    path = "xf86-video-intel-dfbsd/patches/patch-src_sna_kgem.c"
    assert _rules(path, source) == {"sycl.intel-tools"}
    assert set(_layers(path, source)) == {"portable", "vendor-path"}


def test_patch_to_vulkan_function_loader_is_vendor_path() -> None:
    # chromium/patches/patch-gpu_vulkan_vulkan__function__pointers.cc (non-portable, already
    # right by the project's Vulkan convention): a BSD guard added around the loading of
    # external-memory entry points by vkGetDeviceProcAddr.
    source = b"""\
--- gpu/vulkan/function_pointers.cc.orig
+++ gpu/vulkan/function_pointers.cc
@@ -800,7 +800,7 @@ bool FunctionPointers::BindDevice(VkDevice device)
-#if defined(OS_LINUX)
+#if defined(OS_LINUX) || defined(OS_BSD)
   if (HasExtension(extensions, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME)) {
     vkGetMemoryFdKHR = reinterpret_cast<PFN_vkGetMemoryFdKHR>(
         vkGetDeviceProcAddr(device, "vkGetMemoryFdKHR"));
     if (!vkGetMemoryFdKHR)
       return false;
   }
 #endif
"""
    path = "chromium/patches/patch-gpu_vulkan_function__pointers.cc"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert set(_layers(path, source)) == {"portable", "vendor-path"}


def test_pkgsrc_buildlink_file_for_openmp_is_portable() -> None:
    # openmp/buildlink3.mk (sampled, already right): a dependency declaration on LLVM's
    # OpenMP runtime, CPU threading; nothing of a GPU vendor.
    source = b"""\
BUILDLINK_TREE+=    omp-runtime

.if !defined(OMP_RUNTIME_BUILDLINK3_MK)
OMP_RUNTIME_BUILDLINK3_MK:=

BUILDLINK_API_DEPENDS.omp-runtime+=    omp-runtime>=10.0
BUILDLINK_PKGSRCDIR.omp-runtime?=    ../../wip/omp-runtime
.endif

BUILDLINK_TREE+=    -omp-runtime
"""
    path = "omp-runtime/buildlink3.mk"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- caiprozect/Pycuda: CUDA C kernels on PyCUDA --------------------------------------------


def test_pycuda_source_module_string_is_kernel_and_launch_vendor_path() -> None:
    # sandbox.py (sampled, already right: 89 kernel lines, 87 by hand): a k-mer counter
    # compiles its CUDA C from a SourceModule string and launches it with cuda.In/Out.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule

mod = SourceModule('''
__global__ void count_bases(const int n, const int *seq, int *hist)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n && seq[i] >= 0) {
        atomicAdd(&hist[seq[i]], 1);
    }
}
''')

def count(seq):
    hist = np.zeros(4, dtype=np.int32)
    fn = mod.get_function("count_bases")
    fn(np.int32(seq.size), drv.In(seq), drv.Out(hist), block=(256, 1, 1), grid=(64, 1))
    return hist
"""
    path = "kmers.py"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "vendor-path", "portable"}
    assert 7 <= layers["kernel"] <= 10


# -- triton-lang/triton-ext: Triton passes and a Triton tutorial copy -----------------------


def test_triton_kernel_with_capability_check_is_kernel_and_vendor_path() -> None:
    # pass/LoopSplit/06-fused-attention.py (sampled, already right: 380 kernel lines, 380 by
    # hand): @triton.jit functions are kernel; the compute-capability test that picks the
    # TMA variant is vendor-path.
    source = b"""\
import torch
import triton
import triton.language as tl


def use_tma():
    return torch.cuda.get_device_capability()[0] >= 9


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * 2.0, mask=mask)
"""
    path = "pass/Example/scale.py"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "vendor-path", "portable"}
    assert layers["kernel"] == 7


def test_llvm_build_action_for_both_gpu_targets_is_portable() -> None:
    # .github/actions/build-llvm/action.yml (sampled, already right): LLVM configured with
    # the NVPTX and AMDGPU back ends side by side, which ties the build to neither vendor.
    source = b"""\
name: Build LLVM
runs:
  using: composite
  steps:
    - name: Configure
      shell: bash
      run: >
        cmake -S llvm-project/llvm -B llvm-build -G Ninja
        -DCMAKE_BUILD_TYPE=Release
        -DLLVM_ENABLE_PROJECTS="mlir;llvm"
        -DLLVM_TARGETS_TO_BUILD="host;NVPTX;AMDGPU"
    - name: Build
      shell: bash
      run: ninja -C llvm-build install
"""
    path = ".github/actions/build-llvm/action.yml"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- blockspacer/KD-Tree-Raytracer and neil3d/50YearsOfRayTracing: CPU ray tracers ----------


def test_msbuild_props_linking_texture_tools_and_console_libraries_is_portable() -> None:
    # FbEngineForTools/fb/lang/platform/x64.props (GPU-looking, already right): an engine's
    # property sheet defines RENDER_D3D and links a texture-compression library and a
    # console SDK's graphics libraries; no CUDA, no vendor compute library.
    source = b"""\
<?xml version="1.0" encoding="utf-8"?>
<Project ToolsVersion="4.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <ItemDefinitionGroup>
    <ClCompile>
      <PreprocessorDefinitions>WIN32;RENDER_D3D;WIN64;%(PreprocessorDefinitions)</PreprocessorDefinitions>
    </ClCompile>
    <Link>
      <AdditionalDependencies>ws2_32.lib;../../external/texture-tools/lib/nvtt_x64.lib;%(AdditionalDependencies)</AdditionalDependencies>
    </Link>
  </ItemDefinitionGroup>
</Project>
"""
    path = "engine/lang/platform/x64.props"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_cmake_for_embree_cpu_ray_tracer_is_portable() -> None:
    # RTKit2/CMakeLists.txt (sampled, already right): Intel's Embree is a CPU ray-tracing
    # library; linking it with SDL2 and glm ties nothing to a GPU vendor.
    source = b"""\
cmake_minimum_required(VERSION 3.10)
project(RayKit)
find_package(glm CONFIG REQUIRED)
find_package(SDL2 CONFIG REQUIRED)
find_package(embree 3 CONFIG REQUIRED)
aux_source_directory(./scene SCENE_SRC)
add_library(RayKit ${SCENE_SRC})
target_link_libraries(RayKit PUBLIC glm::glm embree SDL2::SDL2)
"""
    path = "RayKit/CMakeLists.txt"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
