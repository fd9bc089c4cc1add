"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-x).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the
written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some are
not GPU code at all). This lane took positions 106-112 of that sub-pool. One was skipped:
fjruizhn/Jax (110) had no snapshot to fetch. Read were mondrasovic/pycuda_course (a PyCUDA
course: Game of Life, Mandelbrot and Monte Carlo pi on SourceModule and ElementwiseKernel,
plus three small CUDA C++ programs, one with hand-written kernels and two on Thrust),
Mern-Unbeatable/baracuda260 (a React web site for an art competition, no GPU code),
myemural/VulkanCppExamples (C++ Vulkan tutorial examples over a wrapper library of their own,
with GLSL and HLSL shaders compiled by CMake to SPIR-V), TritonDataCenter/sdc-adminui (the
Joyent Triton operator web UI in JavaScript, no GPU code), MetalHexx/RadOrchestration (a
TypeScript orchestrator of coding agents, no GPU code) and achirkin/vulkan (Haskell bindings
of the Vulkan API generated from vk.xml, the generator, and two triangle demos with GLSL
shaders). Fifteen files of each repository (fourteen in pycuda_course, all it has) were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, files outside the sample that hold kernel lines
counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. No verdict of the
sample was wrong, so these tests pin right verdicts worth keeping. Each snippet is a small
rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- mondrasovic/pycuda_course: PyCUDA scripts and small CUDA programs -----------------------


def test_pycuda_source_module_body_is_kernel_and_driver_setup_vendor_path() -> None:
    # src/life.py (right before): a SourceModule holding a __global__ cellular-automaton step;
    # pycuda.autoinit and gpuarray are the CUDA runtime on the host side.
    source = b'''\
import numpy as np
import pycuda.autoinit
from pycuda import gpuarray
from pycuda.compiler import SourceModule


def build_step():
    module = SourceModule(
        """
__global__ void step(const int *cells, int *next, int width)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int alive = cells[y * width + x];
    next[y * width + x] = alive ^ 1;
}
"""
    )
    return module.get_function("step")


def run(board):
    step = build_step()
    current = gpuarray.to_gpu(board.astype(np.int32))
    following = gpuarray.empty_like(current)
    step(current, following, np.int32(board.shape[1]), block=(16, 16, 1), grid=(4, 4, 1))
    return following.get()
'''
    path = "src/life.py"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "vendor-path", "portable"}
    assert 6 <= layers["kernel"] <= 9


def test_pycuda_elementwise_kernel_expression_is_kernel() -> None:
    # src/elementwise_mul.py (right before): ElementwiseKernel's one-line CUDA C body.
    source = b"""\
import numpy as np
import pycuda.autoinit
from pycuda import gpuarray
from pycuda.elementwise import ElementwiseKernel

triple = ElementwiseKernel("float *src, float *dst", "dst[i] = 3 * src[i];", "triple_ker")

values = gpuarray.to_gpu(np.ones(1024, dtype=np.float32))
result = gpuarray.empty_like(values)
triple(values, result)
"""
    path = "src/triple.py"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "vendor-path", "portable"}
    assert layers["kernel"] == 1


def test_thrust_device_functor_is_kernel_and_thrust_calls_vendor_library() -> None:
    # src/dot_product/dot_product.cu (right before): a functor with a __device__ operator()
    # handed to thrust::transform, then thrust::reduce; only the operator is device code.
    source = b"""\
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>

struct scaled_product
{
    explicit scaled_product(float s) : s_(s) {}

    __device__ float operator()(const float &a, const float &b) const
    {
        return s_ * a * b;
    }

    float s_;
};

float weighted_dot(const thrust::device_vector<float> &a, const thrust::device_vector<float> &b)
{
    thrust::device_vector<float> tmp(a.size());
    thrust::transform(a.begin(), a.end(), b.begin(), tmp.begin(), scaled_product(2.0f));
    return thrust::reduce(tmp.begin(), tmp.end());
}
"""
    path = "src/dot/dot.cu"
    layers = _layers(path, source)
    assert {"kernel", "vendor-library"} <= set(layers)
    assert "vendor-path" not in layers
    assert 3 <= layers["kernel"] <= 5


def test_thrust_only_program_is_vendor_library_without_kernel() -> None:
    # src/thrust_demo/thrust_demo.cu (right before): host and device vectors of Thrust, no
    # device code written by hand.
    source = b"""\
#include <iostream>
#include <thrust/host_vector.h>
#include <thrust/device_vector.h>

int main()
{
    thrust::host_vector<int> host;
    host.push_back(7);
    host.push_back(8);
    thrust::device_vector<int> dev(host);
    for (int v : dev)
        std::cout << v << "\\n";
    return 0;
}
"""
    path = "src/demo/demo.cu"
    layers = _layers(path, source)
    assert "vendor-library" in layers
    assert "kernel" not in layers
    assert "vendor-path" not in layers


def test_requirements_pin_of_pycuda_is_vendor_path() -> None:
    # requirements.txt (right before, and commit da696738 "add pip requirements" gated): a
    # pip freeze whose one CUDA line is the pycuda pin.
    source = b"""\
matplotlib==3.5.2
numpy==1.21.6
pycuda==2022.1
sympy==1.10.1
"""
    path = "requirements.txt"
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


def test_makefile_running_nvcc_is_vendor_path_and_pip_makefile_portable() -> None:
    # src/matmul/Makefile (vendor-path) beside the top Makefile (portable, right before).
    nvcc = b"""\
NAME = matmul

all: $(NAME)

$(NAME): $(NAME).cu
\tnvcc $(NAME).cu -o $(NAME)
"""
    assert _layers("src/matmul/Makefile", nvcc).get("vendor-path") == 1
    pip = b"""\
setup: requirements.txt
\tpip install -r requirements.txt

clean:
\trm -rf __pycache__
"""
    assert _layers("Makefile", pip) == {"portable": 4}


# -- myemural/VulkanCppExamples: C++ over a Vulkan wrapper, GLSL and HLSL shaders -------------


def test_application_header_over_own_vulkan_wrapper_is_portable() -> None:
    # Examples/.../WrapAndFilteringModes/VulkanApplication.h (right before): members are the
    # project's own wrapper classes, no Vk type or vk call appears.
    source = b"""\
#pragma once

#include <memory>
#include <vector>

#include "VulkanImage.h"
#include "VulkanSampler.h"

namespace demo
{
class SamplerApp final : public AppBase
{
public:
    bool Init() override;
    void DrawFrame() override;

private:
    void CreateSamplers();
    std::shared_ptr<wrapper::VulkanImage> texture_;
    std::vector<std::shared_ptr<wrapper::VulkanSampler>> samplers_;
};
} // namespace demo
"""
    path = "Examples/Samplers/VulkanApplication.h"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_application_header_with_a_vkformat_member_is_vendor_path() -> None:
    # Examples/.../DrawingCube/VulkanApplication.h (right before): one VkFormat member.
    source = b"""\
#pragma once

#include <vulkan/vulkan.h>

class CubeApp final : public AppBase
{
private:
    void CreateDepthResources();
    VkFormat depthFormat_ = VK_FORMAT_UNDEFINED;
};
"""
    path = "Examples/Cube/VulkanApplication.h"
    assert "vulkan.host-api" in _rules(path, source)
    assert "vendor-path" in _layers(path, source)


def test_hlsl_pixel_shader_with_vk_bindings_is_kernel() -> None:
    # Shaders/.../hlsl/drawing_model.ps.hlsl (right before): a whole-file kernel.
    source = b"""\
struct PixelIn
{
    [[vk::location(0)]] float2 uv : TEXCOORD0;
};

[[vk::binding(1, 0)]] SamplerState sampler0;
[[vk::binding(1, 0)]] Texture2D albedo;

float4 main(PixelIn input) : SV_Target
{
    return albedo.Sample(sampler0, input.uv) * 0.5f;
}
"""
    path = "Shaders/Model/hlsl/model.ps.hlsl"
    assert _layers(path, source) == {"kernel": 10}


def test_glsl_vertex_shader_file_is_kernel() -> None:
    # Shaders/.../glsl/drawing_cube.vert.glsl (right before): every code line is kernel.
    source = b"""\
#version 450

layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inColor;
layout(location = 0) out vec3 fragColor;

layout(push_constant) uniform Push { mat4 mvp; } pc;

void main()
{
    gl_Position = pc.mvp * vec4(inPosition, 1.0);
    fragColor = inColor;
}
"""
    path = "Shaders/Cube/glsl/cube.vert.glsl"
    assert _layers(path, source) == {"kernel": 10}


# -- achirkin/vulkan: Haskell bindings of Vulkan and their generator --------------------------


def test_haskell_vulkan_demo_module_is_vendor_path() -> None:
    # vulkan-triangles/src/Lib/Vulkan/TransformationObject.hs (right before): a uniform
    # buffer's descriptor set layout through the generated bindings.
    source = b"""\
module Lib.Vulkan.Ubo (makeUboLayoutBinding) where

import Graphics.Vulkan
import Graphics.Vulkan.Core_1_0
import Graphics.Vulkan.Marshal.Create

makeUboLayoutBinding :: VkDescriptorSetLayoutBinding
makeUboLayoutBinding = createVk
  $  set @"binding" 0
  &* set @"descriptorType" VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
  &* set @"descriptorCount" 1
  &* set @"stageFlags" VK_SHADER_STAGE_VERTEX_BIT
"""
    path = "vulkan-triangles/src/Lib/Vulkan/Ubo.hs"
    assert "vulkan.haskell-host" in _rules(path, source)
    assert "vendor-path" in _layers(path, source)
    assert "kernel" not in _layers(path, source)


def test_haskell_parser_of_the_vulkan_registry_is_portable() -> None:
    # genvulkan/src/VkXml/Sections/Commands.hs (right before): the generator reads vk.xml
    # into records named after Vulkan commands; it calls no Vulkan API.
    source = b"""\
-- | Commands as the registry XML lists them
module VkXml.Sections.Commands
  ( parseCommands
  , VkCommand (..)
  ) where

import qualified Data.Map as Map
import           Data.Text (Text)

data VkCommand = VkCommand
  { cmdName   :: Text
  , cmdReturn :: Text
  , cmdParams :: [Text]
  } deriving Show

parseCommands :: [VkCommand] -> Map.Map Text VkCommand
parseCommands cs = Map.fromList [ (cmdName c, c) | c <- cs ]
"""
    path = "genvulkan/src/VkXml/Sections/Commands.hs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- repositories without GPU code: web front ends whose names matched the pool rule ---------


def test_react_page_mentioning_gpu_compositing_in_a_comment_is_portable() -> None:
    # MetalHexx/RadOrchestration ui/components/observability/transcript-event-card.tsx and the
    # pages of baracuda260 and sdc-adminui (right before): a comment about a browser's GPU
    # compositing layer is no GPU code.
    source = b"""\
import * as React from "react";

export function EventCard({ text }: { text: string }) {
  // A CSS mask here pushed the card onto a GPU compositing layer that flickered
  // while scrolling; a plain gradient overlay avoids it.
  return <div className="card fade-bottom">{text}</div>;
}
"""
    path = "ui/components/observability/event-card.tsx"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
