"""Cases from repositories drawn at random from a GPU-named sub-pool (issue 27, lane h55-random-m).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (picked by the name's text only, so some are no GPU code
at all). This lane took sub-pool positions 29-35. One was skipped: triton2030/agentic-research
(34) had no snapshot to fetch. Read were eilanlaken/VulkanLWJGL (a Java 2D/3D game engine on
LWJGL's OpenGL bindings despite its name, with GLSL shaders as resources and as fallback
strings, and a Maven POM listing every LWJGL module), cupy/cupy-release-tools (CuPy's wheel
build and release tooling: CUDA runfile and ROCm images, per-CUDA wheel configuration, CI
scripts, and small CuPy smoke tests), matt328/triton (a C++ game engine on Vulkan-Hpp with a
render graph, VMA and GLSL shaders), KhronosGroup/Vulkan-Site (the Antora site generator of
the Vulkan documentation: playbooks, Handlebars templates, gulp and Node scripts, no GPU
code), antaalt/PrimRaytracer (a CPU path tracer in C++ with an ImGui editor on OpenGL or
Direct3D 11) and Witek902/Raytracer (a CPU ray tracer in C++ with SIMD maths, its D3D11
viewer removed in its history). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- matt328/triton: Vulkan-Hpp engine, the engine's own Vk-named classes ---------------------


def test_system_holding_the_engines_own_vk_named_manager_is_portable() -> None:
    # libs/shared-api/src/terrain/DebugTerrainSystem.cxx (a non-portable file, vendor-path 5
    # before): the terrain system keeps a shared_ptr to the engine's resource manager,
    # VkResourceManager, a class of the project; no Vulkan type ends in Manager.
    source = b"""\
#include "terrain/ChunkBuilder.hpp"
#include "VkResourceManager.hpp"

namespace eng {

TerrainSystem::TerrainSystem(std::shared_ptr<FieldSource> newField,
                             std::shared_ptr<VkResourceManager> newResources,
                             std::shared_ptr<Entities> newEntities)
    : field{std::move(newField)},
      resources{std::move(newResources)},
      entities{std::move(newEntities)} {
}

auto TerrainSystem::addChunk(glm::ivec3 at) -> ChunkId {
  const auto id = keys.next();
  chunks.emplace(id, Chunk{.origin = at});
  return id;
}

}
"""
    path = "libs/world/src/terrain/TerrainSystem.cxx"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_frame_manager_signature_growing_by_a_registry_adds_no_vulkan_line() -> None:
    # libs/graphics-vk/src/task/DefaultFrameManager.hpp (commit f2ff923406b9, a gate miss
    # before: 2 gated lines): a constructor parameter is added to a signature that also takes
    # the engine's VkResourceManager; the statement held no Vulkan type, so nothing grows.
    source = b"""\
class FrameManager : public IFrameManager {
public:
  explicit FrameManager(const FrameConfig& config,
                        std::shared_ptr<Swapchain> newSwapchain,
                        std::shared_ptr<VkResourceManager> newResourceManager,
                        std::shared_ptr<ImageRegistry> newImageRegistry,
                        std::shared_ptr<BufferRegistry> newBufferRegistry);
  auto acquire() -> Frame*;
};
"""
    path = "libs/gfx/src/task/FrameManager.hpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_real_vulkan_hpp_types_beside_the_wrapper_stay_vendor_path() -> None:
    # libs/graphics-vk/src/r3/render-pass/IRenderPass.hpp (a non-portable file, still right):
    # the pass records into a vk::raii::CommandBuffer; the wrapper's name beside it changes
    # nothing.
    source = b"""\
class IPass {
public:
  virtual ~IPass() = default;
  [[nodiscard]] virtual auto id() const -> PassId = 0;
  virtual auto record(Frame* frame, vk::raii::CommandBuffer& cmd) -> void = 0;
  virtual auto bind(VkResourceManager& resources) -> void = 0;
};
"""
    path = "libs/gfx/src/passes/IPass.hpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 6}


def test_swapchain_header_on_vulkan_hpp_is_vendor_path() -> None:
    # libs/graphics-vk/src/vk/core/Swapchain.hpp (sampled, already right): the swapchain
    # wrapper's members and accessors are Vulkan-Hpp handles and enums.
    source = b"""\
#pragma once

namespace eng {

class Swapchain {
public:
  [[nodiscard]] auto image(uint32_t i) const -> const vk::Image&;
  [[nodiscard]] auto format() const -> vk::Format;
  [[nodiscard]] auto extent() const -> vk::Extent2D;
  auto acquire(const vk::raii::Semaphore& ready) -> std::optional<uint32_t>;

private:
  std::unique_ptr<vk::raii::SwapchainKHR> handle;
  vk::Format imageFormat = vk::Format::eUndefined;
  uint32_t count = 0;
};

}
"""
    path = "libs/gfx/src/vk/core/Swapchain.hpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source)["vendor-path"] == 6


def test_glfw_told_to_include_vulkan_by_cmake_is_vendor_path() -> None:
    # libs/glfw-vulkan/CMakeLists.txt (a GPU-looking file, portable before): the window
    # library is compiled with GLFW_INCLUDE_VULKAN, the define vulkan.host-api counts in C++.
    source = b"""\
project("window-vk")

add_library(${PROJECT_NAME} STATIC src/Window.cxx)

target_compile_definitions(${PROJECT_NAME}
  PRIVATE
  GLM_FORCE_RADIANS
  GLFW_INCLUDE_VULKAN=1
  NOMINMAX
)

target_link_libraries(${PROJECT_NAME} PUBLIC glfw)
"""
    path = "libs/window-vk/CMakeLists.txt"
    assert _rules(path, source) == {"build.cmake-vulkan"}
    assert _layers(path, source)["vendor-path"] == 1


def test_interface_library_adding_vulkan_include_dirs_is_vendor_path() -> None:
    # libs/shared-api/CMakeLists.txt (sampled, already right): an interface library whose
    # include path carries the Vulkan SDK's headers.
    source = b"""\
project("shared")
add_library(${PROJECT_NAME} INTERFACE)
target_link_libraries(${PROJECT_NAME} INTERFACE glm assets)
target_include_directories(${PROJECT_NAME}
  INTERFACE
  include
  ${Vulkan_INCLUDE_DIRS}
)
"""
    path = "libs/shared/CMakeLists.txt"
    assert _rules(path, source) == {"build.cmake-vulkan"}
    assert _layers(path, source)["vendor-path"] == 1


def test_bindless_fragment_shader_is_kernel_whole() -> None:
    # assets/shaders/dynamic.frag (sampled, hand 9, lockin 9): a bindless texture lookup.
    source = b"""\
#version 460
#extension GL_EXT_nonuniform_qualifier : require

layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint texIndex;
layout(location = 0) out vec4 color;

layout(set = 0, binding = 0) uniform sampler2D textures[];

void main() {
  color = texture(textures[texIndex], uv);
}
"""
    path = "assets/shaders/bindless.frag"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 9}


# -- cupy/cupy-release-tools: CUDA build images, CI scripts, smoke tests ----------------------


def test_ci_job_running_the_cuda_driver_update_script_is_vendor_path() -> None:
    # .pfnci/wheel-linux/main.sh (a GPU-looking file, portable before): before building the
    # wheels the job runs a script that updates the host's CUDA driver.
    source = b"""\
#!/bin/bash
set -uex

TOOLKIT=$1
PY=$2

git clone --depth 1 --branch "${BRANCH}" https://github.com/example/arraylib.git arraylib
arraylib/ci/linux/update-cuda-driver.sh
python3 -m pip install -r ./requirements.txt
./build.sh "${TOOLKIT}" "${PY}"
"""
    path = ".ci/wheel-linux/main.sh"
    assert _rules(path, source) == {"deps.cuda-install-script"}
    assert _layers(path, source)["vendor-path"] == 1


def test_job_submitter_looping_over_toolkit_versions_is_portable() -> None:
    # .pfnci/build_submit.sh (sampled, already right): submits one CI job per CUDA version
    # and Python; it installs and builds nothing itself.
    source = b"""\
#!/bin/bash
set -u
GROUP="$(date +%F_%T)"
submit() {
  local out=$(ci-cli --project="$1" run "$2")
  echo "-> ${out}"
}
for CUDA in 12.x 13.x; do
  for PY in 3.11 3.12 3.13; do
    submit wheel-win "ci\\\\windows\\\\main.bat ${CUDA} ${PY} ${GROUP}"
  done
done
"""
    path = ".ci/build_submit.sh"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_cuda_runfile_image_script_is_vendor_path() -> None:
    # builder/base/cuda-runfile/build.sh (sampled, already right): each case arm names the
    # CUDA runfile installer the image is built from.
    source = b"""\
#!/bin/bash
set -uex
case "$1" in
  12.9 )
    INSTALLER="https://developer.download.nvidia.com/compute/cuda/12.9.0/local_installers/cuda_12.9.0_575.51.03_linux.run"
    ARCH="linux/amd64"
    ;;
  * )
    echo "unknown version: $1"; exit 1 ;;
esac
docker build --platform "${ARCH}" --build-arg installer="${INSTALLER}" .
"""
    path = "images/cuda-runfile/build.sh"
    assert _rules(path, source) == {"build.nvcc"}
    assert _layers(path, source)["vendor-path"] == 1


def test_powershell_switching_cuda_path_per_version_is_vendor_path() -> None:
    # .pfnci/wheel-windows/_flexci.ps1 (sampled, already right): the build picks the CUDA
    # toolkit by pointing CUDA_PATH at one of the installed versions.
    source = b"""\
function UseToolkit($version) {
    if ($version -eq "12.x") {
        $Env:CUDA_PATH = $Env:CUDA_PATH_V12_9
    } elseif ($version -eq "13.x") {
        $Env:CUDA_PATH = $Env:CUDA_PATH_V13_1
    } else {
        throw "Unsupported version: $version"
    }
}
"""
    path = "ci/windows/_helpers.ps1"
    assert _rules(path, source) == {"build.nvcc"}
    assert _layers(path, source)["vendor-path"] == 2


def test_cupy_smoke_test_with_elementwise_kernel_body_is_kernel_and_vendor_path() -> None:
    # release-tests/common/test_basic.py (an extra kernel file, hand 1, lockin 1): the
    # ElementwiseKernel's body string is CUDA C; the rest calls CuPy.
    source = b"""\
import unittest

import cupy


class TestKernels(unittest.TestCase):
    def test_add(self):
        a = cupy.arange(8)
        b = cupy.arange(8)
        out = cupy.ElementwiseKernel(
            'T a, T b', 'T c', 'c = a + b;', 'smoke_add',
        )(a, b)
        self.assertTrue(bool(cupy.all(out == a + b)))
"""
    path = "release-tests/common/test_kernels.py"
    assert _rules(path, source) == {"cupy.api", "cupy.raw-kernel"}
    assert _layers(path, source)["kernel"] == 1


def test_cupy_nvtx_marker_test_is_vendor_path() -> None:
    # release-tests/common/test_nvtx.py (sampled, already right): imports CuPy's NVTX module.
    source = b"""\
import unittest

import cupy.cuda.nvtx as nvtx


class TestMarks(unittest.TestCase):
    def test_mark(self):
        nvtx.Mark('smoke')
"""
    path = "release-tests/common/test_marks.py"
    assert _rules(path, source) == {"cupy.api"}
    assert _layers(path, source)["vendor-path"] == 1


# -- eilanlaken/VulkanLWJGL: Java on LWJGL's OpenGL, GLSL resources --------------------------


def test_java_fallback_shader_strings_are_kernel() -> None:
    # src/main/java/.../graphics/Renderer2D.java (an extra kernel file, hand 20, lockin 20):
    # when the shader resources cannot be read, the GLSL is given inline; here 7 lines.
    source = b"""\
class Batch {
    static ShaderProgram fallback() {
        String fragment = "#version 450\\n" +
                "in vec4 tint;\\n" +
                "uniform sampler2D u_texture;\\n" +
                "layout (location = 0) out vec4 result;\\n" +
                "void main() {\\n" +
                "    result = tint;\\n" +
                "}";
        return new ShaderProgram(VERTEX, fragment);
    }
}
"""
    path = "src/main/java/org/demo/gfx/Batch.java"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source)["kernel"] == 7


def test_java_opengl_host_code_is_portable() -> None:
    # src/main/java/.../graphics/TextureBuilder.java (a GPU-looking file, already right):
    # texture upload through LWJGL's OpenGL bindings.
    source = b"""\
import org.lwjgl.opengl.GL11;
import org.lwjgl.opengl.GL30;

public final class Textures {
    public static int upload(Image img) {
        int id = GL11.glGenTextures();
        GL11.glBindTexture(GL11.GL_TEXTURE_2D, id);
        GL11.glTexImage2D(GL11.GL_TEXTURE_2D, 0, GL11.GL_RGBA, img.w, img.h, 0,
                GL11.GL_RGBA, GL11.GL_UNSIGNED_BYTE, img.pixels);
        GL30.glGenerateMipmap(GL11.GL_TEXTURE_2D);
        return id;
    }
}
"""
    path = "src/main/java/org/demo/gfx/Textures.java"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_pom_listing_every_lwjgl_module_is_portable() -> None:
    # pom.xml (sampled, already right by our label): LWJGL's "everything" preset lists its
    # CUDA, OpenCL and Vulkan bindings among forty others; the code uses OpenGL only, and the
    # CUDA binding needs no NVIDIA library to build or start.
    source = b"""\
<dependencies>
    <dependency>
        <groupId>org.lwjgl</groupId>
        <artifactId>lwjgl-bgfx</artifactId>
    </dependency>
    <dependency>
        <groupId>org.lwjgl</groupId>
        <artifactId>lwjgl-cuda</artifactId>
    </dependency>
    <dependency>
        <groupId>org.lwjgl</groupId>
        <artifactId>lwjgl-opencl</artifactId>
    </dependency>
    <dependency>
        <groupId>org.lwjgl</groupId>
        <artifactId>lwjgl-opengl</artifactId>
    </dependency>
</dependencies>
"""
    path = "pom.xml"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- antaalt/PrimRaytracer: ImGui editor on OpenGL or Direct3D 11 ----------------------------


def test_imgui_set_up_naming_the_vulkan_platform_init_is_vendor_path() -> None:
    # src/Editor/EditorUI.cpp (sampled, already right): the OpenGL branch is portable; the
    # other branch initialises GLFW's platform back end for Vulkan.
    source = b"""\
void Editor::init()
{
    ImGui::CreateContext();
#if defined(USE_GL)
    ImGui_ImplGlfw_InitForOpenGL(window(), true);
    ImGui_ImplOpenGL3_Init("#version 330");
#else
    ImGui_ImplGlfw_InitForVulkan(window(), true);
    ImGui_ImplDX11_Init(d3dDevice(), d3dContext());
#endif
    ImGui::StyleColorsDark();
}
"""
    path = "src/Editor/Editor.cpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source)["vendor-path"] == 1


# -- Witek902/Raytracer and KhronosGroup/Vulkan-Site: no GPU code -----------------------------


def test_cpu_bsdf_sampling_is_portable() -> None:
    # Core/Material/BSDF/RoughMetalBSDF.cpp (sampled, already right): microfacet sampling
    # on the CPU.
    source = b"""\
bool RoughMetal::Sample(SamplingContext& ctx) const
{
    const float roughness = ctx.material.roughness.Evaluate(ctx.uv);
    if (roughness < 0.005f)
        return false;
    const Vec4 m = Microfacet(roughness * roughness).Sample(ctx.randomGenerator.GetVec2f());
    ctx.outIncomingDir = -Vec4::Reflect3(ctx.outgoingDir, m);
    return ctx.outIncomingDir.z > 0.0f;
}
"""
    path = "Core/Material/BSDF/RoughMetal.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_docs_site_playbook_naming_vulkan_repositories_is_portable() -> None:
    # docs-site/antora-playbook.yml (sampled, already right): the site generator's sources
    # are the Vulkan documentation repositories; nothing here touches a GPU.
    source = b"""\
site:
  title: Vulkan Documentation
  url: https://docs.example.org
content:
  sources:
    - url: https://github.com/KhronosGroup/Vulkan-Guide.git
      branches: main
    - url: https://github.com/KhronosGroup/Vulkan-Samples.git
      start_path: antora
ui:
  bundle:
    url: ./ui-bundle.zip
"""
    path = "docs-site/antora-playbook.yml"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
