"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-t).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 134-140. Two were skipped: Silviu2326/llamadasbatman (136)
and SunnyRaymond/fyp-vla-quantization (138) had no snapshot to fetch. Read were
Silmaen/VoxelWorld (a C++ 2D game engine with OpenGL and Vulkan renderers, GLSL shaders for
each, and CMake helpers), alezmad/liquidrender (a TypeScript monorepo: a web and mobile app
with AI provider lists, a UI kit and survey engine, no GPU code), rrwebsolution/gcgea-mlbms (a
React membership and loans front end with a PHP proposal script, no GPU code),
ejyle/devaccelerate-dotnet (a C# library of identity, subscription and notification building
blocks, no GPU code) and digitalservicebund/a2j-kommunikationsplattform (a Remix web app with
API mocks and Bruno request files, no GPU code). Snapshots missing large blobs were checked
out without them; no counted source file was missing. Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Silmaen/VoxelWorld: CMake helpers, Vulkan host code, GLSL shaders -----------------------


def test_cmake_list_of_every_target_property_name_is_portable() -> None:
    # cmake/OwlUtils.cmake (sampled; hand portable, lockin vendor-path 4 before): a helper that
    # prints each property a target has set walks a list of every property name CMake
    # documents, the CUDA_* ones among them. Naming a property enables no CUDA.
    source = b"""\
function(show_target_settings TGT)
    set(KNOWN_NAMES
            BUILD_RPATH
            COMPILE_OPTIONS
            CROSSCOMPILING_EMULATOR

            # the CUDA language's own
            CUDA_ARCHITECTURES
            CUDA_EXTENSIONS
            CUDA_PTX_COMPILATION
            CUDA_SEPARABLE_COMPILATION
            CUDA_STANDARD
            CUDA_STANDARD_REQUIRED
            CXX_STANDARD
            LINK_OPTIONS
    )
    foreach (name ${KNOWN_NAMES})
        get_target_property(value ${TGT} ${name})
        if (value)
            message(STATUS "${TGT} ${name}: ${value}")
        endif ()
    endforeach ()
endfunction()
"""
    path = "cmake/ProjectHelpers.cmake"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 21}


def test_cmake_cuda_properties_set_with_their_values_stay_vendor_path() -> None:
    # The same names with a value each, as a target that builds CUDA sets them: still gated.
    source = b"""\
add_library(solver solver.cu)
set_target_properties(solver PROPERTIES
    CUDA_SEPARABLE_COMPILATION ON
    CUDA_STANDARD 17
)
"""
    path = "src/CMakeLists.txt"
    assert "build.cmake-cuda" in _rules(path, source)
    assert _layers(path, source).get("vendor-path", 0) >= 2


def test_vulkan_host_header_with_handle_members_is_vendor_path() -> None:
    # source/owl/renderer/vulkan/internal/Descriptors.h (sampled; right before): the
    # engine's Vulkan back end keeps descriptor pools, sets and buffers as Vk handles.
    source = b"""\
#pragma once
#include <vulkan/vulkan.h>
#include <vector>

namespace engine::gfx::vk {

struct ImageSlot {
    VkImage image = nullptr;
    VkDeviceMemory memory = nullptr;
    VkImageView view = nullptr;
    VkSampler sampler = nullptr;
    void release();
};

class DescriptorBook {
public:
    void build();
    [[nodiscard]] auto pool() const -> VkDescriptorPool { return m_pool; }
    auto slot(unsigned index) -> ImageSlot&;

private:
    VkDescriptorPool m_pool{nullptr};
    std::vector<VkDescriptorSet> m_sets;
    std::vector<ImageSlot> m_slots;
};

}  // namespace engine::gfx::vk
"""
    path = "src/gfx/vk/DescriptorBook.h"
    assert "vulkan.host-api" in _rules(path, source)
    layers = _layers(path, source)
    assert set(layers) == {"vendor-path", "portable"}


def test_imgui_vulkan_back_end_calls_are_vendor_path() -> None:
    # source/owl/gui/UiLayer.cpp (a non-portable file outside the sample; vendor-path 1 line
    # before, the VkFormat vector only): the UI layer starts Dear ImGui's Vulkan back end and
    # hands it each frame's command buffer. Another API needs another back end: edits.
    source = b"""\
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>

void Overlay::attach(GLFWwindow* window, gfx::Backend backend) {
    if (backend == gfx::Backend::Vulkan) {
        ImGui_ImplGlfw_InitForVulkan(window, true);
        auto setup = gfx::vulkan::Context::get().imguiSetup();
        ImGui_ImplVulkan_Init(&setup);
    }
}

void Overlay::end(gfx::Backend backend) {
    ImGui::Render();
    if (backend == gfx::Backend::Vulkan)
        ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), gfx::vulkan::frameCmd());
}
"""
    path = "src/ui/Overlay.cpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 5, "portable": 10}


def test_imgui_opengl_back_end_calls_stay_portable() -> None:
    # The same layer on the OpenGL back end: OpenGL host code is portable.
    source = b"""\
#include <backends/imgui_impl_opengl3.h>

void Overlay::attach(GLFWwindow* window) {
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 410");
}
"""
    path = "src/ui/Overlay.cpp"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 5}


def test_renderer_class_in_a_vulkan_folder_without_the_api_is_portable() -> None:
    # source/owl/renderer/vulkan/DrawData.h (sampled; right before): the back end's draw
    # object declares only the engine's own types; the folder's name is no Vulkan call.
    source = b"""\
#pragma once
#include "../Mesh.h"
#include "Pipeline.h"

namespace engine::gfx::vk {
class Mesh final : public gfx::Mesh {
public:
    Mesh() = default;
    ~Mesh() override;
    void upload(const void* data, unsigned size) override;
    void bind() const override;
    [[nodiscard]] auto indexCount() const -> unsigned override;

private:
    int m_pipeline = -1;
    shared<Pipeline> m_program;
};
}  // namespace engine::gfx::vk
"""
    path = "src/gfx/vk/Mesh.h"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 16}


def test_glsl_fragment_shader_of_the_opengl_back_end_is_kernel_whole() -> None:
    # engine_assets/shaders/renderer2D/opengl/circle.frag (an extra kernel file: hand 22,
    # lockin 22): a shader is device code whichever API loads it.
    source = b"""\
#version 450 core

layout(location = 0) out vec4 outColour;

struct Varyings {
    vec3 local;
    vec4 colour;
    float edge;
};

layout (location = 0) in Varyings v;

void main() {
    float d = 1.0 - length(v.local);
    float ring = smoothstep(0.0, v.edge, d);
    if (ring == 0.0)
        discard;
    outColour = v.colour;
    outColour.a *= ring;
}
"""
    path = "assets/shaders/2d/gl/ring.frag"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 16}


# -- alezmad/liquidrender, rrwebsolution/gcgea-mlbms: web apps naming GPU words -------------


def test_ai_provider_table_naming_nvidia_is_portable() -> None:
    # packages/ai/src/types/index.ts and apps/web/src/modules/common/ai/icons.tsx (GPU-looking,
    # right before): NVIDIA as one hosted model provider among others is a string, no device.
    source = b"""\
export const Vendor = {
  OPENAI: "openai",
  ANTHROPIC: "anthropic",
  NVIDIA: "nvidia",
  MISTRAL: "mistral",
} as const;

export const vendorBadge = {
  [Vendor.NVIDIA]: Badges.Nvidia,
  [Vendor.OPENAI]: Badges.OpenAI,
};
"""
    path = "packages/llm/src/vendors.ts"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 10}


def test_tailwind_transform_gpu_class_is_portable() -> None:
    # packages/ui/web/src/components/animated-beam.tsx (GPU-looking, right before): Tailwind's
    # transform-gpu asks the browser for a composited layer; no GPU code is written.
    source = b"""\
export function Beam({ width }: { width: number }) {
  return (
    <svg
      width={width}
      className="pointer-events-none absolute transform-gpu stroke-2"
    >
      <path className="transform-gpu" d="M0 0 L10 10" />
    </svg>
  );
}
"""
    path = "src/components/beam.tsx"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 10}


def test_php_console_kernel_bootstrap_is_portable() -> None:
    # scripts/finalize-proposal-details.php (GPU-looking, right before): Laravel's console
    # Kernel booted to render a PDF; "Kernel" there is the framework's, not a device's.
    source = b"""\
<?php
declare(strict_types=1);
require __DIR__.'/../vendor/autoload.php';
use Illuminate\\Contracts\\Console\\Kernel;
$app = require __DIR__.'/../bootstrap/app.php';
$app->make(Kernel::class)->bootstrap();
echo "ready\\n";
"""
    path = "scripts/make-report.php"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}
