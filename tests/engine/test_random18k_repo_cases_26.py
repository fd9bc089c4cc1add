"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-k).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 71-77. One was skipped: dusseligerdussel/ollamail (72) had
no snapshot to fetch. Read were ttnhan18062000/rpg-based-simulation (a deterministic 2D RPG
simulation: a FastAPI server in Python and a React/TypeScript viewer drawing on 2D canvases,
no GPU code), WMsans/voxel-everything (a Godot GDExtension voxel renderer: C++ passes on
Godot's RenderingDevice, GLSL compute and raster shaders with Godot's ``#[compute]`` section
headers, a Godot shader include, GDScript spikes and gdUnit4 tests holding GLSL in strings),
LM-MachineLearning/SolDataVul-LLaMA-Dataset (6,852 generated Solidity contracts and a
Hugging Face model cache's metadata), NeuralNetworkVerification/Marabou (an SMT-based neural
network verifier in C++ with Python bindings, Gurobi and OpenBLAS options, ONNX, NNet and
MPS-format inputs, no GPU code), hdlopesrocha/vulkan-engine (a C++ Vulkan terrain and
vegetation renderer: raw Vulkan host code, GLSL vertex, geometry, tessellation and compute
shaders, a Makefile running glslc) and rootfabric/distributed-world-simulator (a Godot
world simulation in GDScript with PowerShell and shell test runners, no GPU code). No
snapshot missed a counted source file. Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand
(up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- NeuralNetworkVerification/Marabou: "mps" is the LP file format, not Apple's GPU -------


def test_suffix_test_for_mps_files_is_no_apple_device() -> None:
    # regress/run_regression.py before #553 (found in commit d6f36e15dee1's removed line):
    # the runner picks a parser by the network file's suffix; "mps" is the MPS format of
    # linear programs. lockin called the line metal.device-string (vendor-path) before.
    source = b"""\
import os


def run_case(binary, model_path, expected):
    if model_path.endswith('nnet'):
        return run_nnet(binary, model_path, expected)
    elif model_path.endswith('mps'):
        return run_lp_reader(binary, model_path, expected)
    raise NotImplementedError('only nnet and mps inputs')
"""
    path = "regress/run_checks.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


def test_suffix_tuple_naming_mps_is_no_apple_device() -> None:
    source = b"""\
def is_problem_file(name):
    return name.endswith(("lp", "mps"))
"""
    assert _rules("tools/files.py", source) == set()


def test_device_string_beside_an_unrelated_suffix_test_stays_vendor_path() -> None:
    source = b"""\
import torch


def load(path, net):
    if path.endswith(".pt"):
        net.load_state_dict(torch.load(path))
    return net.to("mps")
"""
    path = "load.py"
    assert _rules(path, source) == {"metal.device-string"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 4}


def test_lp_parser_front_end_in_cpp_is_portable() -> None:
    # src/input_parsers/mps_example/main.cpp: reads an MPS file into the solver's query.
    source = b"""\
#include "MpsParser.h"
#include <cstdio>

int main(int argc, char **argv) {
    if (argc < 2) {
        std::printf("usage: %s problem.mps\\n", argv[0]);
        return 1;
    }
    MpsParser parser(argv[1]);
    Query query;
    parser.generateQuery(query);
    return query.solve() ? 0 : 2;
}
"""
    path = "src/input_parsers/mps_example/main.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_cmake_option_for_openblas_and_gurobi_is_portable() -> None:
    # CMakeLists.txt: CPU libraries chosen by option, no GPU toolkit.
    source = b"""\
option(USE_GUROBI "Solve LP relaxations with Gurobi" OFF)
option(USE_OPENBLAS "Tighten bounds with BLAS" ON)
if (USE_GUROBI)
  add_compile_definitions(USE_GUROBI)
  target_include_directories(solver PRIVATE ${GUROBI_HOME}/include)
endif()
"""
    path = "CMakeLists.txt"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- WMsans/voxel-everything: Godot's RenderingDevice, GLSL with section headers ------------


def test_godot_rendering_device_pass_in_cpp_is_portable() -> None:
    # extension/src/render/*_pass.cpp: compute passes recorded through Godot's
    # RenderingDevice, which runs on Vulkan, Direct3D 12 and Metal alike.
    source = b"""\
#include <godot_cpp/classes/rendering_device.hpp>

using namespace godot;

bool CullPass::record(RenderingDevice *rd, const Vector2i &size) {
    const int64_t list = rd->compute_list_begin();
    rd->compute_list_bind_compute_pipeline(list, pipeline_);
    rd->compute_list_bind_uniform_set(list, uniforms_, 0);
    rd->compute_list_set_push_constant(list, push_.to_byte_array(), push_.size() * 4);
    rd->compute_list_dispatch(list, (size.x + 7) / 8, (size.y + 7) / 8, 1);
    rd->compute_list_end();
    return true;
}
"""
    path = "extension/src/render/cull_pass.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_shader_include_expander_in_cpp_is_portable() -> None:
    # extension/src/render/shader_loader.cpp: text processing of #include lines before the
    # source goes to the compiler; no shader of its own.
    source = b"""\
#include <sstream>
#include <string>

std::string strip_sections(const std::string &src) {
    std::istringstream in(src);
    std::ostringstream out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("#[", 0) == 0) continue;
        out << line << '\\n';
    }
    return out.str();
}
"""
    path = "extension/src/render/shader_text.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_glsl_compute_file_with_godot_section_header_is_kernel_whole() -> None:
    # shaders/*.comp.glsl (extra kernel files: hand 50 and 58, lockin 50 and 58).
    source = b"""\
#[compute]
#version 460

layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) restrict readonly buffer Cells { uint cells[]; };
layout(set = 0, binding = 1, std430) restrict writeonly buffer Quads { uint quads[]; };

// One thread per cell.
void main() {
    uint i = gl_GlobalInvocationID.x;
    quads[i] = cells[i] & 0xffu;
}
"""
    path = "shaders/pack_quads.comp.glsl"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 9}


def test_godot_shader_include_is_kernel() -> None:
    # shaders/cel.gdshaderinc: a Godot shading-language include of lighting helpers.
    source = b"""\
float band(float ndotl, float steps) {
    return floor(max(ndotl, 0.0) * steps) / steps;
}

vec3 toon(vec3 albedo, vec3 n, vec3 l) {
    return albedo * (0.25 + 0.75 * band(dot(n, l), 3.0));
}
"""
    path = "shaders/toon.gdshaderinc"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 6}


def test_gdscript_spike_with_glsl_in_a_string_counts_the_shader_lines() -> None:
    # spike/spike2.gd: a throwaway GDScript compiling a ray-generation shader held in a
    # triple-quoted string; the host lines on Godot's RenderingDevice stay portable. The
    # string's span is kernel, its opening and closing lines included (8; by hand 7).
    source = b'''\
extends Node

func _ready() -> void:
\tvar rd := RenderingServer.create_local_rendering_device()
\tvar raygen := """#version 460
#extension GL_EXT_ray_tracing : require
layout(set = 0, binding = 0, rgba32f) uniform image2D outImage;
void main() {
\tvec2 uv = vec2(gl_LaunchIDEXT.xy) / vec2(gl_LaunchSizeEXT.xy);
\timageStore(outImage, ivec2(gl_LaunchIDEXT.xy), vec4(uv, 0.0, 1.0));
}
"""
\tvar src := RDShaderSource.new()
\tsrc.source_raygen = raygen
\tprint(rd.shader_compile_spirv_from_source(src).compile_error_raygen)
'''
    path = "spike/raytrace_spike.gd"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 8, "portable": 6}


# -- hdlopesrocha/vulkan-engine: raw Vulkan host code, GLSL stages, glslc ------------------


def test_vulkan_renderer_host_code_is_vendor_path() -> None:
    # vulkan/renderer/*Renderer.cpp: descriptor sets and draw commands on the Vulkan API.
    source = b"""\
#include "SolidPass.hpp"

void SolidPass::draw(VkCommandBuffer cmd, uint32_t frame) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1,
                            &sets[frame], 0, nullptr);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &vertices.buffer, &offset);
    vkCmdDrawIndirect(cmd, commands.buffer, 0, count, sizeof(VkDrawIndirectCommand));
    drawn += count;
}
"""
    path = "vulkan/renderer/SolidPass.cpp"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_engine_header_on_glfw_and_glm_only_is_portable() -> None:
    # events/MousePublisher.hpp, space/InstanceData.hpp: windowing and maths, no GPU API.
    source = b"""\
#pragma once
#include <GLFW/glfw3.h>
#include <glm/glm.hpp>

struct CursorEvent {
    glm::vec2 position;
    int button = GLFW_MOUSE_BUTTON_LEFT;
};
"""
    path = "events/CursorEvent.hpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_glsl_tessellation_evaluation_stage_is_kernel_whole() -> None:
    # shaders/water.tese (a non-portable file): a tessellation evaluation stage.
    source = b"""\
#version 450
layout(triangles, equal_spacing, ccw) in;

layout(location = 0) in vec3 inPos[];
layout(location = 0) out vec3 outPos;

void main() {
    outPos = gl_TessCoord.x * inPos[0] + gl_TessCoord.y * inPos[1] + gl_TessCoord.z * inPos[2];
    gl_Position = vec4(outPos, 1.0);
}
"""
    path = "shaders/ocean.tese"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 8}


def test_makefile_compiling_shaders_with_glslc_is_vendor_path() -> None:
    # Makefile: each shader stage compiled to SPIR-V with the Vulkan SDK's glslc.
    source = b"""\
SHADERS := $(wildcard shaders/*.vert shaders/*.frag)
SPV := $(SHADERS:%=bin/%.spv)

bin/%.spv: %
\tmkdir -p $(dir $@)
\tglslc $< -o $@

app: $(SPV)
\t$(CXX) -O2 -o bin/app main.cpp -lglfw -lvulkan
"""
    path = "Makefile"
    assert _rules(path, source) == {"build.vulkan"}
    assert "vendor-path" in _layers(path, source)


# -- portable repositories: ttnhan18062000/rpg-based-simulation, rootfabric/distributed-
# -- world-simulator, LM-MachineLearning/SolDataVul-LLaMA-Dataset --------------------------


def test_canvas_2d_viewer_mentioning_the_gpu_compositor_is_portable() -> None:
    # frontend/src/components/GameCanvas.tsx: a 2D canvas whose comments speak of the GPU.
    source = b"""\
export function drawMinimap(canvas: HTMLCanvasElement, tiles: Uint8Array, w: number) {
  // Resize only on change: resetting width reallocates the GPU surface every frame.
  if (canvas.width !== w) {
    canvas.width = w;
    canvas.height = w;
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  tiles.forEach((t, i) => {
    ctx.fillStyle = t ? '#2a6' : '#114';
    ctx.fillRect(i % w, Math.floor(i / w), 1, 1);
  });
}
"""
    path = "frontend/src/components/Minimap.tsx"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_simulation_kernel_named_gdscript_is_portable() -> None:
    # scripts/runtime/simulation_kernel.gd, plant_seed_dispersal_kernel_v1.gd: "kernel" is
    # the simulation's core loop or a dispersal function, CPU code in GDScript.
    source = b"""\
extends RefCounted
class_name DispersalKernel

func weight(distance: float, scale: float) -> float:
\treturn exp(-distance / scale)

func step(cells: Array, scale: float) -> void:
\tfor c in cells:
\t\tc.seed += weight(c.distance, scale)
"""
    path = "scripts/research/dispersal_kernel.gd"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_headless_godot_test_runner_in_powershell_is_portable() -> None:
    # RUN_*_TESTS.ps1: runs Godot without a window to execute a test script.
    source = b"""\
param([string]$Godot = "godot")
$Root = Split-Path -Parent $MyInvocation.MyCommand.Path
$out = & $Godot --headless --path $Root --script "res://tests/run_all.gd" 2>&1
if ($LASTEXITCODE -ne 0) {
    Write-Output $out
    exit 1
}
"""
    path = "RUN_ALL_TESTS.ps1"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_solidity_contract_is_portable() -> None:
    source = b"""\
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

contract Ledger {
    mapping(address => uint256) public balance;

    function deposit() external payable {
        balance[msg.sender] += msg.value;
    }
}
"""
    path = "contracts/ledger_0001.sol"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
