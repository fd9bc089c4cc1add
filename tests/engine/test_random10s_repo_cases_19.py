"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-s).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 145-152. Two had no snapshot and were skipped, not replaced:
ucb-bar/mx-gemmini-mlir (150) and YUUSUKE18/lllmp (152). The six read were 0xMilord/renderiq
(a Next.js rendering-service web app), synthetik-technologies/blastfoam (an OpenFOAM CFD
solver), qminer/qminer (a C++/Node.js analytics library), FelixFifi/rtx-pathtracer (a Vulkan
ray-tracing path tracer with GLSL shaders), khemisset18/gpubnb (a GPU rental marketplace whose
agent starts NVIDIA containers) and Edgar1738/voxel-realm (a three.js voxel game with WebGL
shaders in strings). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, and three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- khemisset18/gpubnb: docker arguments for the NVIDIA container toolkit, built in code ----


def test_python_docker_gpu_arguments_are_vendor_path() -> None:
    # agent/gpubnb_agent/runner.py: the agent passes one GPU to a workload container by
    # docker's --gpus=device=<uuid> and the toolkit's NVIDIA_DRIVER_CAPABILITIES variable.
    source = b"""\
import subprocess


def container_command(image, gpu_id, caps="compute,utility"):
    args = ["docker", "run", "--rm", "--pull=never"]
    args += [f"--gpus=device={gpu_id}", f"--env=NVIDIA_DRIVER_CAPABILITIES={caps}"]
    args.append(image)
    return args


def start(image, gpu_id):
    return subprocess.run(container_command(image, gpu_id), check=False).returncode
"""
    assert _rules("agent/runner.py", source) == {"container.nvidia-gpu-args"}
    assert _layers("agent/runner.py", source) == {"vendor-path": 1, "portable": 7}


def test_typescript_nvidia_visible_devices_env_is_vendor_path() -> None:
    # The same request from a TypeScript service that assembles docker's arguments.
    source = b"""\
export function workloadArgs(image: string, gpus: string): string[] {
  const args = ['run', '--rm'];
  args.push('-e', `NVIDIA_VISIBLE_DEVICES=${gpus}`);
  args.push(image);
  return args;
}
"""
    assert _rules("src/workload.ts", source) == {"container.nvidia-gpu-args"}
    assert _layers("src/workload.ts", source) == {"vendor-path": 1, "portable": 5}


def test_lightning_gpus_option_stays_portable() -> None:
    # A training launcher's --gpus counts devices of any vendor: no finding.
    source = b"""\
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--gpus", type=int, default=1)
args = parser.parse_args()
cmd = f"python train.py --gpus {args.gpus} --max_epochs 3"
"""
    assert _rules("launch.py", source) == set()


def test_gpu_status_codes_and_inventory_fields_stay_portable() -> None:
    # agent/gpubnb_agent/control_channel_runtime.py keeps error codes naming nvidia-smi as
    # plain strings, and apps/api/test/rental-gpu-catalog.test.ts fixtures carry a listing's
    # vendor and CUDA version as data: neither runs anything vendor-specific (right before).
    py = b"""\
BLOCKING_REASONS = {
    "resource_gpu_nvidia_smi_unavailable",
    "resource_gpu_inventory_unavailable",
}


def blocked(reason):
    return reason in BLOCKING_REASONS
"""
    assert _rules("agent/runtime.py", py) == set()
    ts = b"""\
const listing = {
  vendor: 'NVIDIA',
  model: 'RTX 4090',
  driverVersion: '550.10',
  cudaVersion: '12.4',
};
export default listing;
"""
    assert _rules("test/catalog.test.ts", ts) == set()


def test_rust_nvidia_smi_command_is_vendor_path() -> None:
    # apps/host-desktop/src-tauri/src/mining_thermal_guard.rs reads temperatures by running
    # nvidia-smi (right before).
    source = b"""\
use std::process::Command;

pub fn hottest() -> Option<u32> {
    let out = Command::new("nvidia-smi")
        .args(["--query-gpu=temperature.gpu", "--format=csv,noheader"])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).lines().filter_map(|l| l.trim().parse().ok()).max()
}
"""
    assert _rules("src/thermal.rs", source) == {"cuda.tool-call"}
    assert "vendor-path" in _layers("src/thermal.rs", source)


# -- FelixFifi/rtx-pathtracer: Vulkan-Hpp's dispatch storage alone in a file ---------------


def test_vulkan_hpp_dispatch_storage_is_vendor_path() -> None:
    # src/VulkanLoader.cpp holds only the include and the dynamic loader's storage macro.
    source = b"""\
#include "Loader.h"

VULKAN_HPP_DEFAULT_DISPATCH_LOADER_DYNAMIC_STORAGE;
"""
    assert _rules("src/Loader.cpp", source) == {"vulkan.host-api"}
    assert _layers("src/Loader.cpp", source) == {"vendor-path": 1, "portable": 1}


def test_glsl_ray_hit_shader_file_is_kernel_code() -> None:
    # shaders/raytrace.sphere.rchit: a closest-hit shader, all kernel lines (right before).
    source = b"""\
#version 460
#extension GL_EXT_ray_tracing : require

layout(location = 0) rayPayloadInEXT vec3 hitValue;
hitAttributeEXT vec3 normal;

void main() {
    hitValue = normal * 0.5 + 0.5;
}
"""
    assert _rules("shaders/sphere.rchit", source) == {"vulkan.shader-file"}
    assert _layers("shaders/sphere.rchit", source) == {"kernel": 7}


# -- Edgar1738/voxel-realm: a WebGL shader held in a tagged template string ---------------


def test_glsl_tagged_template_in_typescript_is_kernel_code() -> None:
    # src/render/ChunkMaterial.ts: three.js RawShaderMaterial with /* glsl */ sources
    # (right before).
    source = b"""\
import { RawShaderMaterial, GLSL3 } from 'three';

const vertexShader = /* glsl */ `
precision highp float;
uniform mat4 projectionMatrix;
uniform mat4 modelViewMatrix;
in vec3 position;
void main() {
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
}
`;

export function makeMaterial(fragmentShader: string): RawShaderMaterial {
  return new RawShaderMaterial({ glslVersion: GLSL3, vertexShader, fragmentShader });
}
"""
    # Seven GLSL lines by hand; lockin also counts the two lines opening and closing the
    # template, within the audit's range.
    assert _rules("src/render/Material.ts", source) == {"vulkan.glsl-string"}
    assert _layers("src/render/Material.ts", source) == {"kernel": 9, "portable": 4}
