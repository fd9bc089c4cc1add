"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h53-random-f).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 1008-1014 and skipped none. The seven read were
dothackzero72/VulkanGameEngine (a C++ Vulkan 2D engine with a C# level editor, GLSL and HLSL
shaders), NXP/eiq-onnx2tflite (an ONNX to TFLite converter in Python), lighttransport/gemm
(CPU SVE kernels for A64FX, CUDA kernels kept as NVRTC source strings, Vulkan compute
shaders), sa2c/cupybe (a Python reader of Score-P CUBE profiles), MolecularAI/REINVENT4
(molecular design in PyTorch), JamesPerlman/TurboNeRF (a CUDA NeRF renderer on tiny-cuda-nn)
and awayjs/renderer (a TypeScript renderer that assembles AGAL shader programs as strings).
Two snapshots (VulkanGameEngine, REINVENT4) lack files of 4 MiB and more, so their trees were
written with ``git read-tree HEAD && git checkout-index -a -f``; none of the absent files is
one lockin counts. Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, and three commits touching GPU code (drawn with
``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- dothackzero72/VulkanGameEngine: a Vulkan engine with its own GUID type ------------------


def test_engine_guid_type_named_vk_is_portable() -> None:
    # VulkanEngineDLL/VkGuid.h: a Windows-GUID wrapper the engine keys its asset maps with; its
    # Vk prefix made every line naming it Vulkan host code (VkGuid.h, SpriteSystem.h and
    # MeshSystem.h counted as vendor-path).
    source = b"""\
#pragma once
#include <cstring>

class VkGuid
{
public:
    unsigned int Part1 = 0;
    unsigned char Rest[12] = {};
    VkGuid() = default;
    bool operator==(const VkGuid& other) const { return std::memcmp(this, &other, 16) == 0; }
};

class AssetTable
{
    std::unordered_map<VkGuid, int> slotOf;
public:
    int Find(const VkGuid& id) const;
};
"""
    assert _rules("Engine/AssetGuid.h", source) == set()
    assert _layers("Engine/AssetGuid.h", source) == {"portable": 16}


def test_guid_keyed_draw_keeps_its_vulkan_command_buffer() -> None:
    # VulkanGameEngine/LevelSystem.cpp: the level's draw records into Vulkan command buffers
    # while naming its layers by the engine's GUID type; only the signature naming the
    # command buffers (a statement up to its brace) is Vulkan.
    source = b"""\
#include "LevelSystem.h"

void Level::Draw(std::vector<VkCommandBuffer>& buffers, float dt)
{
    for (auto& layer : layers)
    {
        VkGuid pass = layer.passId;
        renderer.Record(buffers, pass, dt);
    }
}
"""
    assert _rules("Game/LevelSystem.cpp", source) == {"vulkan.host-api"}
    assert _layers("Game/LevelSystem.cpp", source) == {"vendor-path": 2, "portable": 7}


def test_vulkan_buffer_flags_stay_vendor_path() -> None:
    # VulkanEngineDLL/Material.cpp: a material buffer created with Vulkan usage and memory
    # flags, the whole call statement (already right: pinned).
    source = b"""\
Buffer MakeMaterialBuffer(const Renderer& r, int index)
{
    return CreateBuffer(r, index, sizeof(MaterialData),
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
}
"""
    assert _rules("Engine/Material.cpp", source) == {"vulkan.host-api"}
    assert _layers("Engine/Material.cpp", source) == {"vendor-path": 3, "portable": 3}


# -- JamesPerlman/TurboNeRF: CUDA headers of device helpers (already right: pinned) ----------


def test_host_device_macro_members_count_as_kernel() -> None:
    # src/models/bounding-box.cuh: a struct whose members are `inline NRC_HOST_DEVICE`
    # (a project macro for __host__ __device__) and `inline __device__`: every member counts.
    source = b"""\
#pragma once
#define HD_FN __host__ __device__

struct Box {
    float lo, hi;

    inline __device__ bool hit(const float& o, const float& inv, float& t) const {
        float a = (lo - o) * inv;
        float b = (hi - o) * inv;
        t = fminf(a, b);
        return fmaxf(a, b) >= t;
    }

    inline HD_FN float width() const { return hi - lo; }

    inline HD_FN bool inside(const float& x) const {
        return x >= lo && x <= hi;
    }
};
"""
    layers = _layers("src/box.cuh", source)
    assert layers.get("kernel", 0) >= 10
    assert set(layers) <= {"kernel", "portable"}


def test_thrust_functor_and_calls_split_kernel_and_library() -> None:
    # src/utils/stream-compaction.cuh: a __host__ __device__ predicate functor is device
    # code; the thrust::count_if call on a CUDA stream is library and vendor-path code.
    source = b"""\
#include <thrust/count.h>

template <typename T>
struct is_set {
    __host__ __device__
    bool operator()(const T& v) const {
        return v != 0;
    }
};

template <typename T>
size_t count_set(const cudaStream_t& stream, size_t n, const T* data) {
    thrust::device_ptr<const T> p(data);
    return thrust::count_if(thrust::cuda::par.on(stream), p, p + n, is_set<T>());
}
"""
    layers = _layers("src/count.cuh", source)
    assert layers["kernel"] == 4
    assert "vendor-library" in layers
    assert "vendor-path" in layers


# -- lighttransport/gemm: CUDA held as NVRTC source, Vulkan compute shaders (pinned) ---------


def test_cuda_source_string_counts_its_lines_as_kernel() -> None:
    # cuda/fa2/cuda_fa2_kernels.h: a kernel kept as a C string literal, a line a string,
    # compiled at run time with NVRTC.
    source = b"""\
#pragma once
static const char *k_scale_src =
"extern \\"C\\" __global__ void scale(float *y, const float *x, float a, int n) {\\n"
"    int i = blockIdx.x * blockDim.x + threadIdx.x;\\n"
"    if (i < n) y[i] = a * x[i];\\n"
"}\\n";
"""
    assert "cuda.source-string" in _rules("cuda/scale_kernels.h", source)
    assert _layers("cuda/scale_kernels.h", source).get("kernel", 0) in (4, 5)


def test_glsl_compute_shader_file_is_kernel_whole() -> None:
    # vulkan/shaders/silu_mul_f32.comp: a compute shader file counts every code line.
    source = b"""\
// y = x * sigmoid(x) in place
#version 450
layout(local_size_x = 128) in;
layout(std430, binding = 0) buffer Data { float v[]; };
layout(push_constant) uniform P { uint n; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n) return;
    v[i] = v[i] / (1.0 + exp(-v[i]));
}
"""
    assert _layers("shaders/silu.comp", source) == {"kernel": 9}


def test_sve_assembly_is_portable() -> None:
    # a64fx/rng/philox_asm.S: Arm SVE assembly for a CPU, no GPU vendor in it.
    source = b"""\
    .arch armv8.2-a+sve
    .text
    .global philox_round
philox_round:
    ptrue   p0.s
    ld1w    {z0.s}, p0/z, [x0]
    mul     z1.s, z0.s, z2.s
    st1w    {z1.s}, p0, [x1]
    ret
"""
    assert _rules("a64fx/rng/philox.S", source) == set()


# -- awayjs/renderer: AGAL shader programs assembled from string pieces ----------------------


def test_agal_program_assembled_in_strings_is_kernel() -> None:
    # lib/base/ShaderBase.ts: the vertex and fragment programs are AGAL instructions appended
    # a line at a time, an opcode literal followed by the registers joined in with ', ';
    # the whole file counted as portable.
    source = b"""\
import { ShaderRegisterCache, ShaderRegisterElement } from '@awayjs/stage';

export class ProgramParts {
    public vertex: string = '';
    public fragment: string = '';

    public addTint(cache: ShaderRegisterCache, out: ShaderRegisterElement): void {
        const t = cache.getFreeFragmentVectorTemp();
        this.fragment += 'mul ' + t + '.xyz, ' + out + ', ' + this.tint + '\\n' +
            'add ' + out + '.xyz, ' + t + ', ' + this.offset + '\\n';
        this.vertex += `mov ${this.uvOut}, ${this.uvIn}\\n`;
        this.vertex += 'm44 ' + this.clip + ', ' + this.pos + ', ' + this.matrix + '\\n';
    }
}
"""
    assert _rules("lib/base/ProgramParts.ts", source) == {"agal.shader-string"}
    assert _layers("lib/base/ProgramParts.ts", source) == {"kernel": 4, "portable": 8}


def test_agal_instruction_array_is_kernel() -> None:
    # lib/elements/LineElements.ts: a thick line's vertex program as an array of instruction
    # strings, one a line, with a comment after each.
    source = b"""\
export function lineProgram(cache: ShaderRegisterCache, q0: string, q1: string): string {
    const dir = cache.getFreeVertexVectorTemp();
    return [
        'm44 ' + q0 + ', ' + this.p0 + ', ' + this.scene + '\\n', // first end to eye space
        'm44 ' + q1 + ', ' + this.p1 + ', ' + this.scene + '\\n',
        'sub ' + dir + ', ' + q1 + ', ' + q0 + '\\n', // along the line
        'nrm ' + dir + '.xyz, ' + dir + '\\n',
    ].join('');
}
"""
    assert _rules("lib/elements/Lines.ts", source) == {"agal.shader-string"}
    assert _layers("lib/elements/Lines.ts", source).get("kernel") == 4


def test_opcode_words_in_a_renderer_without_agal_registers_are_portable() -> None:
    # lib/events/MaterialEvent.ts and the sampled portable files: a renderer's TypeScript
    # that names no AGAL register or assembler keeps words like 'add ' as words.
    source = b"""\
export class Stats {
    public describe(lo: number, hi: number): string {
        const verb = 'add ';
        return 'min ' + lo + ', max ' + hi + ' (' + verb + ')';
    }
}
"""
    assert _rules("lib/Stats.ts", source) == set()
