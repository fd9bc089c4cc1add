"""Cases from repositories drawn at random from a GPU sub-pool (issue 27, lane h56-random-j).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some are no GPU code
at all). This lane took sub-pool positions 183-189 and skipped none: every one had a
snapshot. Read were dodoqumy/rocm-hip-map (a bilingual CUDA-to-HIP documentation site: Python
crawlers and translators of AMD's docs, a Docusaurus front end in TypeScript, YAML source lists
and a glossary of ROCm terms; no GPU code of its own), swasanaweddingpusat/swasana-project (a
wedding-business back office on Next.js and Prisma, no GPU code), vulkanlabs/lineart (a
credit-decision policy engine whose packages are called vulkan: Python services, a Dagster and
Hatchet runner, a React front end, notebooks; no GPU code), ngraymon/pycuda_lanczos (a Lanczos
step on PyCUDA gpuarrays, scikit-cuda's cuBLAS bindings and ElementwiseKernel/ReductionKernel
C snippets), woowacourse-teams/2021-gpu-is-mine (a Spring and React service that books
training jobs on shared GPU servers; no GPU code), SharkFinPro/VulkanRenderer (a C++ Vulkan
renderer with GLSL shaders, compute smoke and ray tracing) and AEspinosaDev/Vulkan-Engine (a
C++ Vulkan engine with GLSL shaders, vendoring glm, Dear ImGui with every back end and
Optick). Fifteen files of each repository (all nine of pycuda_lanczos) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, each
from its contents, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, files outside the sample that hold kernel lines
counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. The misses were all
in the non-GPU repositories: names of AMD's and NVIDIA's stacks inside a documentation
crawler's URL list, glossary and keyword tables, and a policy engine's SDK imported as
``vulkan.cli.client``. Each snippet is a small rewrite, in our own words, of a pattern found in
the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- dodoqumy/rocm-hip-map: a documentation crawler about CUDA and ROCm ----------------------


def test_crawl_list_with_an_amdsmi_docs_url_is_portable() -> None:
    # config/amd-sources.yaml (sampled, before: vendor-path 1 by deps.rocm-wheel): the list of
    # AMD documentation sites to crawl; the AMD SMI docs' slug and URL hold amdsmi inside a
    # longer name and as a path segment, which install nothing.
    source = b"""\
sources:
  - slug: hipify-docs
    name: "HIPIFY"
    base_url: "https://rocm.docs.amd.com/projects/HIPIFY/en/latest/"
    crawler: sphinx
    interval_hours: 24
  - slug: amdsmi-latest
    name: "AMD SMI"
    base_url: "https://rocm.docs.amd.com/projects/amdsmi/en/latest/"
    crawler: sphinx
    interval_hours: 24
"""
    path = "config/sources.yaml"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_amdsmi_requirement_is_still_a_rocm_dependency() -> None:
    # The other side of the fix above: the amdsmi package pinned in a requirements file is
    # AMD's management library (vendor-path), now found on a line of its own.
    source = b"""\
psutil>=5.9
amdsmi>=6.2
"""
    path = "requirements/amd.txt"
    assert _rules(path, source) == {"deps.rocm-wheel"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 1}


def test_glossary_of_hsa_error_codes_is_portable() -> None:
    # glossary/rocm-terms.yaml (a non-portable file outside the sample, before: vendor-path 2
    # by env.hip-variables): a translation glossary whose entries name HSA runtime status
    # codes; an HSA_STATUS_* name is an API value, not an environment variable.
    source = """\
terms:
  - en: "hipErrorOutOfMemory"
    zh: "hipErrorOutOfMemory（显存不足）"
    context: "the device ran out of memory"
  - en: "HSA_STATUS_ERROR_INVALID_AGENT"
    zh: "HSA_STATUS_ERROR_INVALID_AGENT（无效代理）"
    context: "the runtime did not know the agent handle"
""".encode()
    path = "glossary/terms.yaml"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_hsa_override_variable_in_a_launcher_stays_vendor_path() -> None:
    # Kept by the narrowing above: an HSA_* runtime variable exported before a run.
    source = b"""\
#!/bin/sh
export HSA_OVERRIDE_GFX_VERSION=11.0.0
python serve.py
"""
    path = "scripts/run_amd.sh"
    assert _rules(path, source) == {"env.hip-variables"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 1}


def test_regex_table_keyed_by_tensorrt_is_portable() -> None:
    # scripts/classify_v2.py (non-portable outside the sample, before: vendor-path 1 by
    # deps.cuda-wheel-python): a document tagger's table of regular expressions by framework;
    # the "tensorrt" key names a topic, its raw strings are patterns, nothing is installed.
    source = b"""\
import re

FRAMEWORKS = {
    "pytorch": [r"\\bpytorch\\b", r"\\btorch\\b"],
    "tensorrt": [r"\\btensorrt\\b", r"\\btrt\\b"],
    "onnx": [r"\\bonnx\\b"],
}


def tag(text):
    return [name for name, pats in FRAMEWORKS.items() if any(re.search(p, text) for p in pats)]
"""
    path = "scripts/classify.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_keyword_list_naming_nvcc_is_portable() -> None:
    # scripts/fetch-papers.py (non-portable outside the sample, before: vendor-path 1 by
    # torch.nvcc-flags): tags for arXiv papers from the words of the abstract; "nvcc" is a
    # word looked for, not a compiler run.
    source = b"""\
KEYWORDS = {
    "hip": ["hip", "hipify"],
    "cuda": ["cuda", "nvcc"],
    "kernel": ["kernel", "warp", "wavefront"],
}


def infer_tags(text):
    low = text.lower()
    return sorted(tag for tag, words in KEYWORDS.items() if any(w in low for w in words))
"""
    path = "scripts/papers.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_nvcc_flag_list_in_a_dict_stays_vendor_path() -> None:
    # Kept by the exception above: the same dict shape holding compiler flags.
    source = b"""\
from torch.utils.cpp_extension import CUDAExtension

compile_args = {
    "cxx": ["-O3"],
    "nvcc": ["-O3", "--use_fast_math", "-lineinfo"],
}
"""
    path = "setup.py"
    assert "torch.nvcc-flags" in _rules(path, source)
    assert "vendor-path" in _layers(path, source)


# -- swasanaweddingpusat/swasana-project and woowacourse-teams/2021-gpu-is-mine ------------


def test_gpu_server_booking_entity_is_portable() -> None:
    # back-end/.../gpuserver/domain/repository/GpuBoardRepository.java (sampled, already
    # right): a Spring Data repository of the GPU boards a lab registers; GPU is the
    # business's word, there is no device code.
    source = b"""\
package app.gpuserver.domain.repository;

import app.gpuserver.domain.GpuBoard;
import java.util.Optional;
import org.springframework.data.jpa.repository.JpaRepository;

public interface GpuBoardRepository extends JpaRepository<GpuBoard, Long> {
    Optional<GpuBoard> findByGpuServerId(Long gpuServerId);
}
"""
    path = "back-end/src/main/java/app/gpuserver/domain/repository/GpuBoardRepository.java"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- vulkanlabs/lineart: a decision engine whose packages are called vulkan ----------------


def test_notebook_importing_a_policy_sdk_named_vulkan_is_portable() -> None:
    # docs/examples/notebooks/legacy/3-create-policy.ipynb and 4-create-backtest.ipynb
    # (non-portable outside the sample, before: vendor-path 1 each by vulkan.python-host): the
    # project's own client, vulkan.cli.client, imported as vulkan; Vulkan's Python bindings
    # are one flat module that is never imported dotted.
    source = b"""\
import vulkan.sdk.client as vulkan
from vulkan.sdk.context import Context

ctx = Context()
policy_id = vulkan.policy.create_policy(ctx, name="approve", description="demo")
run_id, status = vulkan.run.trigger_run_by_policy_id(ctx, policy_id, data={"score": 700})
"""
    path = "docs/examples/create_policy.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_vulkan_bindings_imported_flat_stay_vendor_path() -> None:
    # Kept by the narrowing above: the vulkan bindings package and its vk* calls.
    source = b"""\
import vulkan as vk


def gpu_names(instance):
    devices = vk.vkEnumeratePhysicalDevices(instance)
    return [vk.vkGetPhysicalDeviceProperties(d).deviceName for d in devices]
"""
    path = "tools/list_gpus.py"
    assert _rules(path, source) == {"vulkan.python-host"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 1}


# -- ngraymon/pycuda_lanczos: PyCUDA, scikit-cuda cuBLAS, elementwise kernels ---------------


def test_pycuda_lanczos_with_cublas_and_elementwise_kernels() -> None:
    # simple_lanczos.py (sampled, already right; hand 8 kernel lines, lockin 8): gpuarrays
    # (vendor-path), cuBLAS through scikit-cuda (vendor-library) and C expressions handed to
    # ElementwiseKernel and ReductionKernel (kernel).
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.gpuarray as gpuarray
from pycuda.elementwise import ElementwiseKernel
import skcuda.cublas as cublas


def step(a, q):
    handle = cublas.cublasCreate()
    a_gpu = gpuarray.to_gpu(a)
    q_gpu = gpuarray.to_gpu(q)
    w = gpuarray.zeros(q.shape[0], dtype=np.float64)
    axpby = ElementwiseKernel(
        arguments="double *w, double *q, double s",
        operation="w[i] = w[i] - s * q[i]",
        name="axpby")
    cublas.cublasDgemv(handle, "T", a.shape[0], a.shape[0], 1.0, a_gpu.gpudata,
                       a.shape[0], q_gpu.gpudata, 1, 0.0, w.gpudata, 1)
    axpby(w, q_gpu, 0.5)
    return w.get()
"""
    path = "lanczos.py"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "vendor-library", "vendor-path", "portable"}
    assert layers["kernel"] == 3


# -- SharkFinPro/VulkanRenderer and AEspinosaDev/Vulkan-Engine: Vulkan with GLSL ----------


def test_glsl_line_vertex_shader_is_kernel() -> None:
    # source/shaders/Line.vert (sampled, already right; hand 8, lockin 8): a vertex shader
    # with a push-constant matrix; every code line is shader code.
    source = b"""\
#version 450

layout(push_constant) uniform Push {
    mat4 transform;
};

layout(location = 0) in vec3 position;

void main() {
    gl_Position = transform * vec4(position, 1.0);
}
"""
    path = "shaders/Line.vert"
    assert _layers(path, source) == {"kernel": 8}


def test_window_header_with_a_vk_extent_is_vendor_path() -> None:
    # include/engine/core/windows/window.h (sampled, already right, 2 lines): a window
    # interface whose constructor builds a VkExtent2D; the rest is the engine's own types.
    source = b"""\
#pragma once
#include <string>
#include <engine/common.h>

class Window
{
  protected:
    std::string m_title;
    Extent2D m_extent;

  public:
    Window(const std::string& title, uint32_t w, uint32_t h)
        : m_title(title), m_extent(VkExtent2D{w, h})
    {
    }
    virtual ~Window() = default;
};
"""
    path = "include/engine/core/window.h"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_render_pass_over_engine_wrappers_is_portable() -> None:
    # include/engine/render/passes/sky_pass.h (sampled, already right): a pass declared on the
    # engine's own descriptor-set and pass classes, with no Vulkan type in sight.
    source = b"""\
#ifndef SKY_PASS_H
#define SKY_PASS_H
#include <engine/render/passes/graphic_pass.h>

namespace Render {
class SkyPass final : public BaseGraphicPass
{
  protected:
    Graphics::DescriptorSet m_imageDescriptor;
    float m_sunElevation = 45.0f;

  public:
    void setup_shader_passes() override;
    void render(Graphics::Frame& frame, Scene* scene) override;
};
} // namespace Render
#endif
"""
    path = "include/engine/render/passes/sky_pass.h"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
