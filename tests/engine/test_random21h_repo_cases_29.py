"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-random-h).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (the name's text only, so some are no GPU code at all).
This lane took sub-pool positions 330-337. Two were skipped: shirulot/MyGDShader (330) and
fjruizhn/jax-platform (336) had no snapshot to fetch. Read were senium-Cyber/poppycuda (a
PageRank-on-encrypted-graphs study in C++ over OpenFHE and the FIDESlib CKKS library: every
source file is named .cu and compiled as CUDA by its CMakeLists.txt, but none holds a kernel
or a CUDA runtime call), otaviocc/Triton (a SwiftUI macOS client for the omg.lol services, no
GPU code), DamienBabet/LIBMF-with-Pycuda (a student project running the LIBMF matrix
factorisation's block updates as a PyCUDA SourceModule kernel, with NumPy prototypes and draft
notebooks), TritonDataCenter/smartos-live (the SmartOS live image's build tools, vmadm, the
firewall and their tests in JavaScript, C and shell, no GPU code), stjae/Vulkan (a C++ Vulkan
game engine with GLSL shaders, vendoring glm, Bullet, Mono, assimp, glslang, ImGui and the
Vulkan headers) and wpsimon09/Vulkan-RTX (a C++ Vulkan ray-tracing renderer with Slang shader
modules, an ECS and an ImGui editor). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. One sampled file was wrong before: LIBMF-with-Pycuda's
Drafts/codeCuda.ipynb copies to and from the device with PyCUDA's cuda.memcpy_htod and launches
a fetched kernel in a cell of a notebook that never imports pycuda, so pycuda.host-api's
import gate kept it portable; PyCUDA's own copy verbs now open that gate. Outside the sample,
Vulkan-RTX's editor reads the device-local heap flag VK_MEMORY_HEAP_DEVICE_LOCAL_BIT, a
constant family vulkan.host-api did not list. The other tests pin verdicts worth keeping. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

import json

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- DamienBabet/LIBMF-with-Pycuda: LIBMF block updates in PyCUDA -----------------------------


def _notebook(*cells: str) -> bytes:
    return json.dumps(
        {
            "cells": [
                {"cell_type": "code", "metadata": {}, "source": c.splitlines(keepends=True)}
                for c in cells
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 2,
        },
        indent=1,
    ).encode()


def test_notebook_copying_with_pycuda_verbs_and_no_import_is_vendor_path() -> None:
    # Drafts/codeCuda.ipynb (sampled, portable before): a draft notebook whose loop cell
    # allocates, copies host to device and launches, the pycuda imports living in another draft.
    source = _notebook(
        "import numpy as np\nimport random\n",
        "for sweep in range(n_sweeps):\n"
        "    order = np.random.permutation(n_blocks)\n"
        "    d_p = cuda.mem_alloc(p.nbytes)\n"
        "    cuda.memcpy_htod(d_p, p)\n"
        "    update = mod.get_function('block_sgd')\n"
        "    update(d_p, block=(n_blocks, 1, 1))\n"
        "    cuda.memcpy_dtoh(p, d_p)\n",
    )
    path = "Drafts/draft_cuda.ipynb"
    assert "pycuda.host-api" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_notebook_of_numpy_matrix_factorisation_stays_portable() -> None:
    # Drafts/MatrixFactorization.ipynb (sampled, right): the sequential SGD in NumPy and SciPy,
    # a function called "noyau" (kernel) that is plain Python.
    source = _notebook(
        "import numpy as np\nfrom scipy import sparse as sp\n",
        "def noyau(block, P, Q, k, gamma=0.02, lam=0.02):\n"
        "    for i, j, r in zip(block.row, block.col, block.data):\n"
        "        err = r - P[i] @ Q[j]\n"
        "        P[i] += gamma * (err * Q[j] - lam * P[i])\n"
        "    return P, Q\n",
    )
    assert _layers("Drafts/MF.ipynb", source) == {"portable": 7}


def test_pycuda_project_helper_named_cuda_without_copy_verbs_stays_portable() -> None:
    # The widened gate asks for PyCUDA's own copy verbs: a project's module named cuda whose
    # helper is called memcpy is not PyCUDA.
    source = b"""\
from .backend import cuda

def stage(host):
    return cuda.memcpy(host)
"""
    assert _layers("bench/stage.py", source) == {"portable": 3}


def test_pycuda_source_module_block_update_is_kernel_and_host_is_vendor_path() -> None:
    # V3libmfcuda.py (sampled, right): the block update as CUDA C in a SourceModule string,
    # launched with cuda.InOut arguments and a block shape.
    source = b'''\
import numpy as np
import pycuda.autoinit
import pycuda.driver as cuda
from pycuda.compiler import SourceModule

mod = SourceModule("""
__global__ void sweep(float *p, float *q, const float *r, const float *off)
{
    int b = threadIdx.x;
    for (int n = (int)off[b]; n < (int)off[b + 1]; ++n) {
        int i = (int)r[3 * n], j = (int)r[3 * n + 1];
        float e = r[3 * n + 2] - p[i] * q[j];
        p[i] += 0.01f * e * q[j];
        q[j] += 0.01f * e * p[i];
    }
}
""")
sweep = mod.get_function("sweep")
sweep(cuda.InOut(p), cuda.InOut(q), cuda.In(r), cuda.In(off), block=(4, 1, 1))
'''
    path = "V3libmfcuda.py"
    layers = _layers(path, source)
    assert 11 <= layers["kernel"] <= 13
    assert "vendor-path" in layers


# -- senium-Cyber/poppycuda: host C++ in .cu files over a CKKS library ------------------------


def test_cu_file_holding_only_host_cpp_over_a_third_party_library_is_portable() -> None:
    # poppy/src/utils/utils_naive.cu (sampled, right): .cu by name only; it builds a CKKS
    # context from another project's GPU library and multiplies ciphertexts, no CUDA of its own.
    source = b"""\
#include "naive.cuh"
#include <map>

void Naive::scale_ranks(const Graph& g) {
    auto raw = fhe::GetRawParams(cc);
    fhe::Context gctx(params.adaptTo(raw), {0});
    for (auto& [node, ct] : ranks) {
        fhe::Ciphertext dev(gctx, fhe::GetRawCipherText(cc, ct));
        dev.multScalar(1.0 / g.out_degree(node));
    }
}
"""
    assert set(_layers("poppy/src/utils/utils_naive.cu", source)) == {"portable"}


def test_cmake_enabling_cuda_language_and_cudart_is_vendor_path() -> None:
    # poppy/CMakeLists.txt (listed, right): the CUDA language, the toolkit and cudart linked.
    source = b"""\
cmake_minimum_required(VERSION 3.18)
project(Ranks LANGUAGES CXX CUDA)
find_package(CUDAToolkit REQUIRED)
add_executable(ranks ${SOURCES})
set_source_files_properties(${SOURCES} PROPERTIES LANGUAGE CUDA)
target_link_libraries(ranks PRIVATE CUDA::cudart)
"""
    layers = _layers("poppy/CMakeLists.txt", source)
    assert set(layers) == {"vendor-path", "portable"}
    assert layers["vendor-path"] >= 3


# -- otaviocc/Triton and TritonDataCenter/smartos-live: no GPU code --------------------------


def test_swiftui_scene_named_triton_is_portable() -> None:
    # OMG/TritonScene.swift (GPU-looking by name, right): a SwiftUI window scene.
    source = b"""\
import SwiftUI

struct MainScene: Scene {
    @State private var selection: Feature? = .status
    var body: some Scene {
        WindowGroup { SidebarView(selection: $selection) }
    }
}
"""
    assert _layers("OMG/TritonScene.swift", source) == {"portable": 7}


def test_zone_tool_script_is_portable() -> None:
    # tools/build_live (GPU-looking, right): a shell build script for a live image.
    source = b"""\
#!/bin/bash
set -o errexit
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$ROOT/output"
tar -C "$ROOT/proto" -cf "$ROOT/output/platform.tar" .
"""
    assert set(_layers("tools/build_live", source)) == {"portable"}


# -- stjae/Vulkan and wpsimon09/Vulkan-RTX: Vulkan renderers -------------------------------


def test_vulkan_heap_flag_in_an_editor_panel_is_vendor_path() -> None:
    # Internal/Editor/Editor.cpp (GPU-looking, portable before): the device-local heaps summed
    # through Vulkan's heap flag, the properties read from the engine's globals.
    source = b"""\
void Editor::MemoryOverlay() {
    float total = 0.0f;
    for (uint32_t h = 0; h < gMemProps.memoryHeapCount; ++h) {
        if (gMemProps.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            total += gMemProps.memoryHeaps[h].size;
    }
    ImGui::Text("VRAM %.1f GB", total / 1e9f);
}
"""
    path = "Internal/Editor/Editor.cpp"
    assert "vulkan.host-api" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_win32_virtual_key_is_not_a_vulkan_constant() -> None:
    # The VK_ families stay Vulkan's: a window procedure's virtual keys are not.
    source = b"""\
void Input::OnKey(WPARAM key) {
    if (key == VK_ESCAPE) running = false;
    if (key == VK_F1) showHelp = !showHelp;
}
"""
    assert "vulkan.host-api" not in _rules("src/Input.cpp", source)


def test_slang_binding_module_is_kernel() -> None:
    # Shaders/Source/Modules/ShaderBindingGroups/SkyBox.slang (sampled, right): a Slang module
    # declaring its descriptor bindings.
    source = b"""\
module SkyBindings;
import Core;

[[vk::binding(0, 0)]]
ConstantBuffer<FrameData> frame;
[[vk::binding(0, 1)]]
SamplerCube skyHdr;
"""
    assert _layers("Shaders/Source/Modules/SkyBindings.slang", source) == {"kernel": 6}


def test_header_only_including_vulkan_hpp_is_vendor_path() -> None:
    # Internal/Application/ECS/Types.hpp (sampled, right): the ECS's aliases after an include
    # of vulkan.hpp, the one line another API would change.
    source = b"""\
#pragma once
#include "vulkan/vulkan.hpp"
#include <bitset>

namespace ECS {
using Entity = uint32_t;
constexpr Entity kMaxEntities = 4096;
}
"""
    path = "Internal/Application/ECS/Types.hpp"
    assert _layers(path, source) == {"vendor-path": 1, "portable": 6}


def test_glsl_fragment_shader_is_kernel() -> None:
    # shader/physicsDebug.frag (extra kernel file, right): a pass-through colour stage.
    source = b"""\
#version 450
layout (location = 0) in vec3 tint;
layout (location = 0) out vec4 color;
void main()
{
    color = vec4(tint, 1.0);
}
"""
    assert _layers("shader/debugLines.frag", source) == {"kernel": 7}


def test_vendored_glm_matrix_header_is_portable() -> None:
    # externalLibrary/glm/ext/matrix_uint4x3.hpp (sampled, right): type aliases of a math library.
    source = b"""\
#pragma once
#include "../mat4x3.hpp"
#include "../detail/type_mat4x3.hpp"

namespace glm {
    typedef mat<4, 3, unsigned int, defaultp> umat4x3;
}
"""
    assert set(_layers("externalLibrary/glm/ext/matrix_uint4x3.hpp", source)) == {"portable"}
