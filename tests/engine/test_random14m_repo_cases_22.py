"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-m).

The pool is ``/work/pool-h47.txt``, shuffled with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 476-482 and skipped none: every one had a snapshot under the
size limit with files lockin counts (shenxin-karl/RayTracing's snapshot lacks its binaries of
4 MiB and more, models, textures and DLLs, none of them counted). Seven were read:
FluffyAIcode/Kakeya-LLM-Inference-engine (a Python LLM inference engine for Apple MLX with
PyTorch CUDA and MPS research scripts), HiroYokoyama/python_molecular_editor (a PyQt molecule
editor), shenxin-karl/RayTracing (a Direct3D 12 ray-tracing renderer in C++ with HLSL
shaders), waleed-sh/mlx-sparse (sparse linear algebra for MLX: C++ primitives and Metal
kernels), Raster-Lab/Voxelia (a Swift medical-imaging engine with MSL kept in Swift strings),
Septonious/Solas-Shader (a Minecraft shader pack in GLSL) and akakist/megatron (a C++
networking framework). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, up to five more kernel files counted by hand, and three commits
touching GPU code (``random.Random("owner/name:commits")``; two for megatron, which has no
more) judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- waleed-sh/mlx-sparse: a Metal helper header with no Metal include of its own ------------


def test_header_fencing_a_metal_memory_scope_is_metal_as_a_whole() -> None:
    # src/linalg/common/metal_common.h: reductions and SpMV helpers the .metal solvers include,
    # reaching <metal_stdlib> through another header. Read as C, only the two functions calling
    # threadgroup_barrier were kernel (24 of 55 lines); the constant, the device-pointer helpers
    # and the include are Metal Shading Language too.
    source = b"""\
// Helpers shared by the solver kernels.
#pragma once

#include "base/metal_base.h"

constant uint k_group = 128;

inline float group_sum(float v, threadgroup float *tmp, uint lane) {
  tmp[lane] = v;
  threadgroup_barrier(mem_flags::mem_threadgroup);
  for (uint s = k_group / 2; s > 0; s >>= 1) {
    if (lane < s) {
      tmp[lane] += tmp[lane + s];
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
  }
  return tmp[0];
}

template <typename I>
inline void scale_rows(device const float *vals, device const I *ptr,
                       device float *out, int rows, uint lane) {
  for (int r = int(lane); r < rows; r += int(k_group)) {
    out[r] = vals[ptr[r]] * 2.0f;
  }
}
"""
    assert _rules("src/solvers/shared/gpu_helpers.h", source) == {"metal.shader-file"}
    assert _layers("src/solvers/shared/gpu_helpers.h", source) == {"kernel": 21}


def test_host_header_quoting_a_metal_barrier_stays_cxx() -> None:
    # The barrier inside a string literal is Metal source held by host code, not a Metal header.
    source = b"""\
#pragma once
#include <string>
// The Metal source is compiled at run time from this text.
inline std::string barrier_line() {
  return "threadgroup_barrier(mem_flags::mem_threadgroup);";
}
int count_rows(const int* ptr, int n);
"""
    assert _rules("src/backend/sources.h", source) == {"metal.source-string"}
    assert _layers("src/backend/sources.h", source) == {"kernel": 1, "portable": 5}


def test_header_with_a_cuda_branch_beside_the_metal_barrier_stays_cxx() -> None:
    # A header serving several back ends keeps its language; each branch is read on its own.
    source = b"""\
#pragma once
#if defined(__CUDACC__)
__device__ inline void sync_group() { __syncthreads(); }
#else
inline void sync_group() { threadgroup_barrier(mem_flags::mem_threadgroup); }
#endif
"""
    assert "metal.shader-file" not in _rules("src/common/reduce.h", source)
    assert _layers("src/common/reduce.h", source) == {"kernel": 2, "vendor-path": 1, "portable": 3}


def test_host_header_holding_metal_in_a_raw_string_stays_cxx() -> None:
    # The language is read with string literals masked: a barrier inside R"MSL(...)" is text.
    source = b"""\
#pragma once
#include <string>

inline const char* scale_source() {
  return R"MSL(
#include <metal_stdlib>
using namespace metal;
kernel void scale(device float* x [[buffer(0)]], threadgroup float* t [[threadgroup(0)]],
                  uint i [[thread_position_in_grid]]) {
  t[i] = x[i];
  threadgroup_barrier(mem_flags::mem_threadgroup);
  x[i] = t[i] * 2.0f;
}
)MSL";
}
int launch_scale(float* data, int n);
"""
    assert _rules("src/mps/embedded_kernels.h", source) == {"metal.source-string"}
    assert _layers("src/mps/embedded_kernels.h", source) == {"kernel": 10, "portable": 5}


# -- Raster-Lab/Voxelia: Metal buffers and encoders in Swift tests with no `import Metal` ------


def test_swift_test_reading_a_buffer_back_through_metal_is_vendor_path() -> None:
    # Tests/VoxeliaMetalTests/MetalResidencyManagerTests.swift: the module under test hands
    # out its device and queue; the test makes a shared buffer, a command buffer and a blit
    # encoder itself. Only `@testable import` of its own module, so no import named Metal.
    source = b"""\
import Testing
@testable import RenderCore

struct ResidencyTests {
    func sharedBufferRoundTrips() throws {
        let pool = try context.pool()
        let stored = try pool.makeBuffer(byteCount: 8, policy: .shared)
        let copy = try context.withHandles { device, queue in
            let target = try #require(device.makeBuffer(length: 8, options: [.storageModeShared]))
            let cmd = try #require(queue.makeCommandBuffer())
            let blit = try #require(cmd.makeBlitCommandEncoder())
            blit.copy(from: stored, sourceOffset: 0, to: target, destinationOffset: 0, size: 8)
            blit.endEncoding()
            return (target, cmd)
        }
        copy.1.commit()
    }
}
"""
    path = "Tests/RenderCoreTests/ResidencyTests.swift"
    assert _rules(path, source) == {"metal.host-api"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 14}


def test_swift_factories_named_like_metal_stay_portable() -> None:
    # The project's own makeBuffer(byteCount:policy:) beside it takes none of Metal's labels.
    source = b"""\
struct Planner {
    func plan(_ pool: BufferPool) throws -> Plan {
        let buffer = try pool.makeBuffer(byteCount: 64, policy: .automatic)
        let queue = makeCommandBufferQueue(depth: 2)
        return Plan(buffer: buffer, queue: queue)
    }
}
"""
    assert _layers("Sources/Planning/Planner.swift", source) == {"portable": 7}


# -- verdicts that were already right ---------------------------------------------------------


def test_shader_pack_stage_stub_is_kernel_code() -> None:
    # Septonious/Solas-Shader shaders/world1/composite3.fsh: a version line and defines around
    # the include of the shared program; every line is GLSL.
    source = b"""\
#version 130

#define FSH
#define NETHER

#include "/programs/deferred.glsl"
"""
    assert _layers("shaders/world2/deferred.fsh", source) == {"kernel": 4}


def test_swift_string_holding_msl_counts_the_kernel_lines() -> None:
    # Raster-Lab/Voxelia Sources/VoxeliaMetal/Internal/InvertKernelSource.swift: the MSL of one
    # compute kernel in a multi-line Swift string; 16 MSL code lines by hand, in range.
    source = b"""\
// SPDX-License-Identifier: MIT

/// The embedded MSL source of the threshold kernel.
enum ThresholdKernelSource {
    static let source = \"\"\"
        #include <metal_stdlib>
        using namespace metal;

        struct ThresholdParams {
            uint count;
            uchar level;
        };

        kernel void threshold_u8(
            device const uchar *input [[buffer(0)]],
            device uchar *output [[buffer(1)]],
            constant ThresholdParams &p [[buffer(2)]],
            uint i [[thread_position_in_grid]]
        ) {
            if (i >= p.count) {
                return;
            }
            output[i] = input[i] >= p.level ? 255 : 0;
        }
        \"\"\"
}
"""
    path = "Sources/Render/Internal/ThresholdKernelSource.swift"
    assert _rules(path, source) == {"metal.source-string"}
    assert _layers(path, source) == {"kernel": 19, "portable": 4}


def test_direct3d12_command_allocator_pool_is_vendor_path() -> None:
    # shenxin-karl/RayTracing Runtime/D3d12/CommandListPool.h.
    source = b"""\
#pragma once
#include "GfxStd.h"

class CommandPool {
public:
    void Create(Device *pDevice, uint32_t count, D3D12_COMMAND_LIST_TYPE type);
    auto Allocator() const -> ID3D12CommandAllocator *;
private:
    std::vector<WRL::ComPtr<ID3D12CommandAllocator>> _allocators;
    size_t _next = 0;
};
"""
    assert _rules("Engine/Gfx/CommandPool.h", source) == {"hlsl.directml-host"}
    assert _layers("Engine/Gfx/CommandPool.h", source) == {"vendor-path": 3, "portable": 7}


def test_dxc_compiler_wrapper_stays_portable() -> None:
    # shenxin-karl/RayTracing Runtime/D3d12/Dxc/DxcModule.h: the DirectX Shader Compiler's
    # interfaces; DXC also runs off Windows and emits SPIR-V, so it ties to no GPU vendor.
    source = b"""\
#pragma once
#include "GfxStd.h"

class ShaderCompilerModule {
public:
    void Create();
    auto Compiler() const -> IDxcCompiler3 *;
    auto Utils() const -> IDxcUtils *;
private:
    WRL::ComPtr<IDxcUtils> _utils;
    WRL::ComPtr<IDxcCompiler3> _compiler;
};
"""
    path = "Engine/Gfx/Compiler/ShaderCompilerModule.h"
    assert _layers(path, source) == {"portable": 11}


def test_mps_default_device_argument_is_vendor_path() -> None:
    # FluffyAIcode/Kakeya-LLM-Inference-engine scripts/research/k3_dflash_specdecode_eval_mac.py.
    source = b"""\
import argparse

def parse() -> argparse.Namespace:
    ap = argparse.ArgumentParser()
    ap.add_argument("--draft-device", default="mps", choices=["mps", "cpu"])
    ap.add_argument("--steps", type=int, default=8)
    return ap.parse_args()
"""
    assert _rules("scripts/eval_draft_mac.py", source) == {"metal.device-string"}
    assert _layers("scripts/eval_draft_mac.py", source) == {"vendor-path": 1, "portable": 5}
