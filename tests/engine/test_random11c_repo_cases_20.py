"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-c).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 175-181. Two had no snapshot here and were skipped without
replacement: mlexpos/sparse-sgd (175) and kowalski-4831/vllm-torchtpu (178). The five read
were DudaEugen/Accelerated-Molecular-Dynamics (a C++ molecular dynamics code with no GPU code
yet), tenstorrent/tt-forge-onnx (Tenstorrent's model compiler front end, its C++ runtime on
tt-mlir), XaralampidisBasilis/volume-rendering (a three.js volume renderer carrying the lygia
shader library in GLSL, HLSL, WGSL, Metal and CUDA), shader-slang/sgl (a Slang graphics layer
over D3D12, Vulkan, Metal and CUDA, with CUDA and PyTorch interop) and cabouman/mbirjax (CT
reconstruction in JAX). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, and three commits touching GPU code (one where only one qualified)
drawn with ``random.Random("owner/name:commits")`` and judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- tenstorrent/tt-forge-onnx: tt-mlir's runtime in C++ --------------------------------------


def test_tt_mlir_runtime_calls_are_tenstorrent_library_code() -> None:
    # forge/csrc/runtime/tensor.hpp: a tensor wrapper that lays its data out on the chip and
    # copies it back through tt::runtime (toLayout, toHost, memcpy).
    source = b"""\
#pragma once
#include <vector>
#include "tt/runtime/types.h"

namespace tt
{
class DeviceTensor
{
   public:
    std::vector<float> read_back(bool untilize)
    {
        std::vector<float> out(count);
        auto host = tt::runtime::toHost(handle, untilize);
        tt::runtime::memcpy(out.data(), host);
        return out;
    }
    size_t count = 0;
    runtime::Tensor handle;
};
}  // namespace tt
"""
    assert _rules("csrc/runtime/device_tensor.hpp", source) == {"tenstorrent.tt-runtime"}
    assert _layers("csrc/runtime/device_tensor.hpp", source) == {
        "vendor-library": 3,
        "portable": 16,
    }


def test_forge_graph_pass_header_stays_portable() -> None:
    # forge/csrc/passes/split_graph.hpp: a compiler pass over the project's own graph, in a
    # namespace called tt, names no runtime.
    source = b"""\
#pragma once
#include "graph_lib/graph.hpp"

namespace tt::passes
{
GraphModule split_into_parts(tt::graphlib::Graph* graph);
}  // namespace tt::passes
"""
    assert _rules("csrc/passes/split_parts.hpp", source) == set()
    assert _layers("csrc/passes/split_parts.hpp", source) == {"portable": 6}


# -- shader-slang/sgl: DLPack devices and back-end enums --------------------------------------


def test_nanobind_cuda_device_value_for_torch_views_is_vendor_path() -> None:
    # src/sgl/utils/python/slangpystridedbufferview.cpp: a view of a buffer handed to PyTorch
    # as CUDA memory, to NumPy as host memory.
    source = b"""\
template<typename Framework>
nb::ndarray<Framework> wrap_view(void* data, std::vector<size_t>& shape, nb::handle owner)
{
    bool torch = Framework::value == nb::pytorch::value;
    auto where = torch ? nb::device::cuda::value : nb::device::cpu::value;
    return nb::ndarray<Framework>(data, shape.size(), shape.data(), owner, nullptr,
                                  nb::dtype<float>(), where);
}
"""
    assert _rules("src/python/view.cpp", source) == {"cuda.backend-enum-choice"}
    assert _layers("src/python/view.cpp", source) == {"vendor-path": 1, "portable": 7}


def test_nanobind_cuda_ndarray_declaration_only_names_the_type() -> None:
    # src/sgl/utils/python/slangpybuffer.cpp: a declaration of the function defined elsewhere.
    source = b"""\
extern nb::ndarray<nb::pytorch, nb::device::cuda>
buffer_as_torch(Buffer* self, std::vector<size_t> shape, size_t offset);
"""
    assert _rules("src/python/buffer.cpp", source) == set()
    assert _layers("src/python/buffer.cpp", source) == {"portable": 2}


def test_enum_mirroring_every_backend_chooses_none() -> None:
    # src/sgl/device/device.h: the layer's own device-type enum, one name per back end of the
    # hardware interface beneath it.
    source = b"""\
enum class GpuApi : uint32_t {
    automatic = static_cast<uint32_t>(hal::DeviceType::Default),
    d3d12 = static_cast<uint32_t>(hal::DeviceType::D3D12),
    vulkan = static_cast<uint32_t>(hal::DeviceType::Vulkan),
    metal = static_cast<uint32_t>(hal::DeviceType::Metal),
    cuda = static_cast<uint32_t>(hal::DeviceType::CUDA),
};
"""
    assert _rules("src/device/api.h", source) == set()
    assert _layers("src/device/api.h", source) == {"portable": 7}


def test_slang_compute_shader_file_is_kernel_code() -> None:
    # examples/torch_interop/add.slang (already right): a compute entry point over buffers.
    source = b"""\
// adds two buffers
[shader("compute")]
[numthreads(32, 1, 1)]
void sum(uint3 id: SV_DispatchThreadID, StructuredBuffer<float> x, RWStructuredBuffer<float> y)
{
    y[id.x] = y[id.x] + x[id.x];
}
"""
    assert _rules("examples/sum/sum.slang", source) == {"slang.shader-file"}
    assert _layers("examples/sum/sum.slang", source) == {"kernel": 6}


def test_cuda_driver_copy_on_an_interop_stream_is_vendor_path() -> None:
    # src/sgl/device/cuda_interop.cpp (already right): the driver API's async copy into memory
    # shared with the graphics API.
    source = b"""\
void SharedBuffer::upload(void* stream)
{
    CHECK_CU(cuMemcpyAsync(
        reinterpret_cast<CUdeviceptr>(m_mapped),
        reinterpret_cast<CUdeviceptr>(m_source),
        m_size,
        static_cast<CUstream>(stream)
    ));
}
"""
    assert _rules("src/device/shared_buffer.cpp", source) == {"cuda.driver"}
    assert _layers("src/device/shared_buffer.cpp", source) == {"vendor-path": 6, "portable": 3}


# -- cabouman/mbirjax: the project's CUDA extra, JAX's generic gpu platform ----------------------


def test_installing_the_projects_cuda_extra_is_vendor_path() -> None:
    # dev_scripts/clean_install_all.sh: GPU clusters install the package with its cuda12
    # extra, CPU machines without it.
    source = b"""\
#!/bin/bash
if [[ "$HOSTNAME" == *"gpucluster"* ]]; then
  conda activate mbir
  pip install -e "..[cuda12]"
else
  pip install -e ..
fi
pip install ..[test]
"""
    assert _rules("dev/install_all.sh", source) == {"deps.cuda-wheel"}
    assert _layers("dev/install_all.sh", source) == {"vendor-path": 1, "portable": 6}


def test_jax_generic_gpu_platform_stays_portable() -> None:
    # experiments/timing_and_memory/evaluate_over_indices.py (already right): the worker is
    # JAX's first 'gpu' device, which CUDA and ROCm builds both provide.
    source = b"""\
import jax

def place(model):
    model.main_device = jax.devices('cpu')[0]
    model.worker = jax.devices('gpu')[0]
    return model
"""
    assert _rules("experiments/place.py", source) == set()
    assert _layers("experiments/place.py", source) == {"portable": 5}


# -- XaralampidisBasilis/volume-rendering: lygia's GLSL functions -----------------------------


def test_glsl_library_function_file_is_kernel_code() -> None:
    # src/shaders/libraries/lygia/animation/easing/circularOut.glsl (already right): one
    # guarded easing function, counted whole.
    source = b"""\
/*
description: an easing curve
*/
#ifndef FNC_EASE_OUT_CIRC
#define FNC_EASE_OUT_CIRC
float easeOutCirc(in float t) { return sqrt((2.0 - t) * t); }
#endif
"""
    assert _rules("shaders/easing/outCirc.glsl", source) == {"vulkan.shader-file"}
    assert _layers("shaders/easing/outCirc.glsl", source) == {"kernel": 4}
