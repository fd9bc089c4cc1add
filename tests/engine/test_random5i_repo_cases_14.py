"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-i).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 171-180. Four had no snapshot and were skipped, not replaced:
Xiaobai-grow/webgpu-cesium, NVIDIA/TensorRT-RTX-EP-ABI, vork/RestirPT-WebGPU and
physics-Yu/QEC-schedule. Fifteen files of each remaining repository were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix,
with the files lockin calls non-portable and GPU-looking files it calls portable; three
commits touching GPU code were drawn with ``random.Random("owner/name:commits")``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- aezaqiel/PathTracer: a Vulkan ray tracer on volk, VMA and GLFW ----------------------------


def test_aezaqiel_vma_implementation_unit_is_vulkan_host_code() -> None:
    # src/Platform/VMAImpl.cpp: the one translation unit that builds the Vulkan Memory
    # Allocator, through the volk loader. Before, it named no Vk type and was portable.
    source = b"""\
#define VMA_IMPLEMENTATION
#define VMA_STATIC_VULKAN_FUNCTIONS 0
#include <volk.h>
#include <vk_mem_alloc.h>
"""
    assert _rules("src/Platform/VmaImpl.cpp", source) == {"vulkan.host-api"}
    assert _layers("src/Platform/VmaImpl.cpp", source) == {"vendor-path": 2, "portable": 2}


def test_aezaqiel_glfw_instance_extensions_are_the_vulkan_path() -> None:
    # src/Core/Window.cpp: a GLFW window made without a client API, which hands the Vulkan
    # instance the extensions it needs. Before, the file was portable.
    source = b"""\
#include <GLFW/glfw3.h>

Window::Window(uint32_t w, uint32_t h, const std::string& title)
{
    glfwInit();
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    m_Window = glfwCreateWindow((int)w, (int)h, title.c_str(), nullptr, nullptr);
}

std::vector<const char*> Window::InstanceExtensions()
{
    uint32_t count = 0;
    const char** names = glfwGetRequiredInstanceExtensions(&count);
    return std::vector<const char*>(names, names + count);
}
"""
    assert _rules("src/Core/Window.cpp", source) == {"vulkan.host-api"}
    assert _layers("src/Core/Window.cpp", source) == {"vendor-path": 1, "portable": 12}


def test_glfw_window_for_opengl_stays_portable() -> None:
    # The negative: the same library opening an OpenGL context takes no Vulkan path.
    source = b"""\
#include <GLFW/glfw3.h>

GlWindow::GlWindow(int w, int h)
{
    glfwInit();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    m_Window = glfwCreateWindow(w, h, "viewer", nullptr, nullptr);
    glfwMakeContextCurrent(m_Window);
}
"""
    assert _layers("src/app/GlWindow.cpp", source) == {"portable": 8}


def test_aezaqiel_vma_mapping_counts_its_calls() -> None:
    # src/RHI/Buffer.cpp: writing a host-visible buffer through the allocator's map and unmap
    # calls; before, only lines naming a Vk type counted.
    source = b"""\
#include "Buffer.hpp"

void Buffer::Write(const void* data, size_t size)
{
    void* mapped = nullptr;
    vmaMapMemory(m_Allocator, m_Allocation, &mapped);
    std::memcpy(mapped, data, size);
    vmaUnmapMemory(m_Allocator, m_Allocation);
}
"""
    assert _rules("src/RHI/Buffer.cpp", source) == {"vulkan.host-api"}
    assert _layers("src/RHI/Buffer.cpp", source) == {"vendor-path": 2, "portable": 6}


# -- Microsista/Pathtracer: a DirectX Raytracing path tracer ----------------------------------


def test_microsista_dxgi_fullscreen_toggle_is_portable() -> None:
    # DXCore.ixx (checked right, hard): the window's fullscreen toggle reads the output
    # through DXGI, which Direct3D 11 shares; no Direct3D 12 object is named.
    source = b"""\
void Application::ToggleFullscreen(IDXGISwapChain* swapChain)
{
    if (m_fullscreen) {
        SetWindowLong(m_hwnd, GWL_STYLE, m_windowStyle);
    } else {
        ComPtr<IDXGIOutput> output;
        swapChain->GetContainingOutput(&output);
        DXGI_OUTPUT_DESC desc;
        output->GetDesc(&desc);
        SetWindowPos(m_hwnd, HWND_TOPMOST, desc.DesktopCoordinates.left, 0, 0, 0, SWP_NOSIZE);
    }
    m_fullscreen = !m_fullscreen;
}
"""
    assert _layers("DXCore.ixx", source) == {"portable": 13}


# -- GGasset/CudNN: a CUDA neural network library ---------------------------------------------


def test_cudnn_header_of_templated_kernels_and_host_helpers() -> None:
    # cuda_functionality.cuh (checked right, hard): device prototypes, a templated kernel, a
    # kernel prototype, then a __host__ template that reallocates device memory.
    source = b"""\
#pragma once
#include "cuda_runtime.h"

__device__ size_t get_tid();

template<typename T, typename t>
__global__ void scale_array(T* arr, size_t n, t by)
{
	size_t tid = get_tid();
	if (tid >= n) return;
	arr[tid] *= by;
}

__global__ void reset_nans(float* arr, float value, size_t n);

template<typename T>
__host__ T* device_resize(T* old, size_t old_n, size_t new_n)
{
	T* out = 0;
	cudaMalloc(&out, sizeof(T) * new_n);
	cudaMemcpy(out, old, sizeof(T) * (old_n < new_n ? old_n : new_n), cudaMemcpyDeviceToDevice);
	cudaFree(old);
	return out;
}
"""
    assert _layers("cuda_functionality.cuh", source) == {
        "kernel": 9,
        "vendor-path": 4,
        "portable": 7,
    }
