"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h56-random-c).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")`` before anyone read it, from its position 253 on, that hold a
GPU term by the written rule in ``/work/pool/h55_gpu_rule.py`` (the name alone: some are no GPU
code at all). This lane took sub-pool positions 134-140; none was skipped, each had a snapshot.
Read were likev/CodeOrpgPub (NOAA's NEXRAD radar product generator, ORPG: C, Fortran and
makefiles, no GPU code; its product display decodes "packet code 3" with PACKET3_* offsets),
mathjax/MathJax-src (the TypeScript sources of MathJax, no GPU code), ThomasDHZ/VulkanGraphics
(a C++ 2D/3D game renderer on Vulkan with GLFW, Dear ImGui and GLSL shaders compiled by glslc),
paperrin/raytracer (a 42-school OpenCL ray tracer in C: .cl kernels, an OpenCL host layer, a
vendored GLFW with its Vulkan header), Shadercloud/rbxts-react-clean-ui (a Roblox UI component
library in TypeScript compiled to Luau, no GPU code), CutyCupy/PokemonSpiel (a small Java
Pokemon game, no GPU code) and tkraussionx/tt-metal (a fork of Tenstorrent's tt-metal: the
TT-Metalium host API, Tensix dataflow and compute kernels, LLK/SFPI headers, and the ttnn
operator library in C++ and Python). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Misses before the fixes: tt-metal's device kernels and their
headers were portable (no rule knew TT-Metalium) and its program factories too; a radar
display's PACKET3_XPOS read as an AMD PM4 packet; a Vulkan sprite whose one Vulkan line is
``vkDeviceWaitIdle`` was portable. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- likev/CodeOrpgPub: NEXRAD radar products, no GPU code ----------------------------------


def test_radar_product_packet_code_3_offsets_are_not_amd_pm4_packets() -> None:
    # files_orpg_sw/src/cpc001/hci_decode_product.h and lib003/hci_decode_product.c (outside
    # the sample, non-portable before the fix): a radar display decodes the mesocyclone
    # symbols of product "packet code 3" by fixed halfword offsets it names PACKET3_*.
    source = b"""\
#define PACKET3_XPOS  2
#define PACKET3_YPOS  3
#define PACKET3_SIZE  4

void decode_meso(short *data, int offset, struct meso_image *img, float km)
{
    img->count++;
    img->x[img->count] = data[offset + PACKET3_XPOS] / km;
    img->y[img->count] = data[offset + PACKET3_YPOS] / km;
    img->size[img->count] = data[offset + PACKET3_SIZE] / km;
}
"""
    path = "src/display/decode_product.c"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_amd_pm4_opcode_packet_stays_vendor_path() -> None:
    # The rule narrowed above still reads AMD's own opcodes (the amdgpu headers' names).
    source = b"""\
void emit_fence(struct ring *r, uint64_t addr, uint32_t seq)
{
    ring_write(r, PACKET3(PACKET3_RELEASE_MEM, 6));
    ring_write(r, PACKET3_RELEASE_MEM_EVENT_TYPE(5));
    ring_write(r, seq);
}
"""
    path = "src/queue/fence.c"
    assert _rules(path, source) == {"hip.pm4-sdma-packet"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 4}


def test_log_saver_copying_the_nvidia_installer_log_is_portable() -> None:
    # files_orpg_sw/src/cpc103/tsk004/save_log.script (GPU-looking, already right): a support
    # script tars up the display node's driver install log with everything else.
    source = b"""\
#!/bin/sh
if ls /var/log/nvidia-installer.log > /dev/null 2>&1
then
    echo "saving the driver installer log"
    tar -cf - /var/log/nvidia-installer.log | tar -C "$WORK" -xf -
fi
"""
    path = "scripts/save_logs.sh"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_host_ip_variable_named_hip_is_portable() -> None:
    # files_orpg_sw/src/cpc101/lib003/orpgmgr.c (GPU-looking, already right): `hip` is the
    # local host's IP address.
    source = b"""\
static int is_active_node(void)
{
    unsigned int ip, hip;
    hip = net_ip_by_name("");
    if (hip == INADDR_NONE)
        return 0;
    ip = active_node_ip();
    return ip == hip;
}
"""
    path = "src/mgr/nodes.c"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- mathjax/MathJax-src and Shadercloud/rbxts-react-clean-ui: no GPU code --------------------


def test_mathml_entity_table_naming_curved_arrows_is_portable() -> None:
    # ts/util/entities/c.ts (GPU-looking, already right): entity names such as cudarrl.
    source = b"""\
import {add} from '../Entities.js';

add({
  cuepr: '\\u22DE',
  cudarrl: '\\u2938',
  cudarrr: '\\u2935',
  cularr: '\\u21B6'
}, 'c');
"""
    path = "ts/util/entities/c.ts"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_docs_config_naming_a_shader_account_is_portable() -> None:
    # docs/lib/shared.ts (GPU-looking, already right): the author's account holds "shader".
    source = b"""\
export const appName = 'Clean UI';
export const gitConfig = {
  user: 'shaderworks',
  repo: 'clean-ui',
  branch: 'master',
};
"""
    path = "docs/lib/shared.ts"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- ThomasDHZ/VulkanGraphics: a Vulkan renderer -----------------------------------------------


def test_sprite_waiting_for_the_vulkan_device_is_vendor_path() -> None:
    # VulkanGraphics/Sprite.cpp (sampled, portable before the fix): the only Vulkan line waits
    # for the device to go idle before the sprite's mesh is freed.
    source = b"""\
#include "Sprite.h"

void Sprite::Update(Renderer& renderer, float dt)
{
    Object2D::Update(renderer, dt);
}

void Sprite::Destroy(Renderer& renderer)
{
    vkDeviceWaitIdle(renderer.Base()->Device);
    mesh->Destroy(renderer);
}
"""
    path = "VulkanGraphics/Sprite.cpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 9}


def test_pipeline_header_taking_a_vulkan_render_pass_is_vendor_path() -> None:
    # VulkanGraphics/Reflection2DPipeline.h (sampled, already right).
    source = b"""\
#pragma once
#include "GraphicsPipeline.h"

class MirrorPipeline : public GraphicsPipeline
{
public:
    MirrorPipeline(Engine& engine, const VkRenderPass& pass);
    void Rebuild(Engine& engine, const VkRenderPass& pass);
};
"""
    path = "VulkanGraphics/MirrorPipeline.h"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 6}


def test_batch_file_compiling_shaders_with_glslc_is_vendor_path() -> None:
    # VulkanGraphics/Shaders/compile.bat (sampled, already right).
    source = b"""\
C:/VulkanSDK/1.2.141.2/Bin32/glslc.exe Sprite.vert -o SpriteVert.spv
C:/VulkanSDK/1.2.141.2/Bin32/glslc.exe Sprite.frag -o SpriteFrag.spv
pause
"""
    path = "VulkanGraphics/Shaders/compile.bat"
    assert _rules(path, source) == {"build.vulkan"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 1}


def test_glsl_fragment_shader_is_kernel_in_full() -> None:
    # VulkanGraphics/Shaders/WireFrameShader.frag (sampled, already right; 76 of 76 by hand).
    source = b"""\
#version 450
layout(binding = 1) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main()
{
    color = vec4(texture(tex, uv).rgb, 1.0);
}
"""
    path = "VulkanGraphics/Shaders/Wire.frag"
    assert _layers(path, source) == {"kernel": 8}


# -- paperrin/raytracer: OpenCL kernels and their host ----------------------------------------


def test_opencl_device_helpers_file_is_kernel_in_full() -> None:
    # src/cl/utils.cl (sampled, already right; 89 of 89 by hand).
    source = b"""\
#include "host.h"

float3 reflect_dir(float3 d, float3 n)
{
    return d - 2.0f * dot(d, n) * n;
}

float clamp01(float v)
{
    return fmin(fmax(v, 0.0f), 1.0f);
}
"""
    path = "src/cl/helpers.cl"
    assert _rules(path, source) == {"opencl.kernel-file"}
    assert _layers(path, source) == {"kernel": 9}


def test_main_calling_the_projects_own_opencl_wrappers_is_portable() -> None:
    # src/main.c (sampled, already right): the OpenCL calls are in src/opencl, counted there.
    source = b"""\
#include "rt.h"

int app_create(t_app *app)
{
    if (!window_create(&app->win, 800, 600, "rt"))
        return (0);
    if (!opencl_create(&app->ocl))
        return (0);
    if (!kernel_ray_trace_create(app))
        return (0);
    return (1);
}
"""
    path = "src/main.c"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_cmake_find_module_for_vulkan_is_vendor_path() -> None:
    # glfw/CMake/modules/FindVulkan.cmake (sampled, already right).
    source = b"""\
if (WIN32)
    find_path(VULKAN_INCLUDE_DIR NAMES vulkan/vulkan.h HINTS "$ENV{VULKAN_SDK}/Include")
    find_library(VULKAN_LIBRARY NAMES vulkan-1 HINTS "$ENV{VULKAN_SDK}/Lib")
endif()
set(VULKAN_LIBRARIES ${VULKAN_LIBRARY})
"""
    path = "cmake/FindVulkan.cmake"
    assert "build.cmake-vulkan" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


# -- tkraussionx/tt-metal: TT-Metalium kernels, LLK headers, program factories, ttnn ----------


def test_tt_metal_dataflow_kernel_is_kernel_in_full() -> None:
    # ttnn/.../kernels/dataflow/reader_unary_stick_layout_interleaved_start_id.cpp (sampled,
    # portable before the fix; 37 of 37 by hand): a reader that pulls rows over the NoC into
    # a circular buffer.
    source = b"""\
#include <stdint.h>
#include "dataflow_api.h"

void kernel_main() {
    uint32_t src = get_arg_val<uint32_t>(0);
    uint32_t row_bytes = get_arg_val<uint32_t>(1);
    uint32_t rows = get_arg_val<uint32_t>(2);
    constexpr uint32_t cb_in = get_compile_time_arg_val(0);
    const InterleavedAddrGen<true> gen = {.bank_base_address = src, .page_size = row_bytes};
    for (uint32_t r = 0; r < rows; ++r) {
        cb_reserve_back(cb_in, 1);
        noc_async_read(get_noc_addr(r, gen), get_write_ptr(cb_in), row_bytes);
        noc_async_read_barrier();
        cb_push_back(cb_in, 1);
    }
}
"""
    path = "ttnn/kernels/dataflow/reader_rows.cpp"
    assert _rules(path, source) == {"tenstorrent.tt-metal-kernel"}
    assert _layers(path, source) == {"kernel": 15}


def test_tt_metal_debug_print_kernel_is_kernel() -> None:
    # tests/tt_metal/tt_metal/test_kernels/misc/print_one_int.cpp (sampled, portable before).
    source = b"""\
#include "debug/dprint.h"

void kernel_main() {
    uint32_t n = get_arg_val<uint32_t>(0);
    DPRINT << "n = " << n << ENDL();
}
"""
    path = "tests/test_kernels/misc/print_arg.cpp"
    assert _rules(path, source) == {"tenstorrent.tt-metal-kernel"}
    assert _layers(path, source) == {"kernel": 5}


def test_compute_kernel_api_header_is_kernel() -> None:
    # tt_metal/include/compute_kernel_api/eltwise_unary/fmod.h (sampled, portable before): the
    # tile-level call a compute kernel makes, forwarding to the math thread's LLK.
    source = b"""\
#pragma once
#include "compute_kernel_api/common_globals.h"
#ifdef TRISC_MATH
#include "llk_math_eltwise_unary_sfpu_rem.h"
#define MATH(x) x
#else
#define MATH(x)
#endif

namespace ckernel {
ALWI void rem_tile(uint32_t idst, uint32_t divisor) {
    MATH((llk_math_eltwise_unary_sfpu_rem<APPROX>(idst, divisor)));
}
ALWI void rem_tile_init() { MATH((llk_math_eltwise_unary_sfpu_rem_init<APPROX>())); }
}
"""
    path = "tt_metal/include/compute_kernel_api/eltwise_unary/rem.h"
    assert _rules(path, source) == {"tenstorrent.tt-metal-kernel"}
    assert set(_layers(path, source)) == {"kernel"}


def test_llk_sfpu_wrapper_header_is_kernel() -> None:
    # tt_metal/hw/ckernels/blackhole/metal/llk_api/llk_sfpu/llk_math_eltwise_unary_sfpu_power.h
    # (sampled, portable before; 18 of 18 by hand).
    source = b"""\
#pragma once
#include "llk_math_eltwise_unary_sfpu_init.h"
#include "ckernel_sfpu_cube.h"

namespace ckernel {
template <bool APPROXIMATE>
inline void llk_math_eltwise_unary_sfpu_cube_init() {
    llk_math_eltwise_unary_sfpu_init<SfpuType::cube, APPROXIMATE>();
}
template <bool APPROXIMATE>
inline void llk_math_eltwise_unary_sfpu_cube(uint dst_index) {
    llk_math_eltwise_unary_sfpu_params<APPROXIMATE>(
        ckernel::sfpu::calculate_cube<APPROXIMATE>, dst_index);
}
}
"""
    path = "tt_metal/hw/ckernels/metal/llk_api/llk_sfpu/llk_math_eltwise_unary_sfpu_cube.h"
    assert _rules(path, source) == {"tenstorrent.tt-metal-kernel"}
    assert _layers(path, source) == {"kernel": 14}


def test_program_factory_setting_runtime_args_is_vendor_path() -> None:
    # ttnn/.../moreh_matmul/device/moreh_matmul_program_factory.cpp (sampled, portable before):
    # the host side places kernels on cores and hands them their arguments.
    source = b"""\
#include "ops/scale_device_operation.hpp"

void set_args(Program& program, KernelHandle reader, const std::vector<CoreCoord>& cores,
              uint32_t src_addr, uint32_t tiles_per_core) {
    uint32_t start = 0;
    for (const auto& core : cores) {
        tt::tt_metal::SetRuntimeArgs(program, reader, core, {src_addr, tiles_per_core, start});
        start += tiles_per_core;
    }
}
"""
    path = "ttnn/operations/scale/device/scale_program_factory.cpp"
    assert _rules(path, source) == {"tenstorrent.tt-metal-host"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 8}


def test_ttnn_operation_declaration_is_portable() -> None:
    # ttnn/.../attn_matmul/attn_matmul.hpp and reshard_op.hpp (sampled, already right): the
    # op's signatures and registration launch nothing.
    source = b"""\
#pragma once
#include "ttnn/run_operation.hpp"

namespace ttnn::operations::experimental {
struct ScaledMatmulOperation {
    static ttnn::Tensor invoke(const Tensor& a, const Tensor& b, float scale,
                               const std::optional<MemoryConfig>& memory_config = std::nullopt);
};
}
"""
    path = "ttnn/operations/experimental/scaled_matmul.hpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_ttnn_python_test_is_vendor_library() -> None:
    # tests/ttnn/unit_tests/operations/eltwise/backward/test_backward_addcdiv.py (sampled,
    # already right).
    source = b"""\
import torch
import ttnn


def test_sub_backward(device):
    a = torch.rand(1, 1, 32, 32)
    t = ttnn.from_torch(a, layout=ttnn.TILE_LAYOUT, device=device)
    out = ttnn.sub_bw(t, t, t)
    assert len(out) == 2
"""
    path = "tests/ttnn/test_sub_bw.py"
    assert _rules(path, source) == {"tenstorrent.ttnn"}
    assert set(_layers(path, source)) == {"vendor-library", "portable"}
