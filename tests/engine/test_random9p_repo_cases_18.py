"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-p).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 668-673. One could not be read: scottnarmstrong/Superdiffusion (no snapshot). Fifteen
files of each remaining repository (morganmcg1/mlxfast-challenge_senpai, praeclarum/webgpu-torch,
hpcc-systems/Tombolo, Zarcx127/GaussianSplatViewer, kwcantrell/attention-all-microbes) were
sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10); three commits touching GPU code per repository were judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- morganmcg1/mlxfast-challenge_senpai: vendors ml-explore/mlx, mlx-swift and mlx-swift-lm --


def test_mlx_release_workflow_matrix_of_cuda_toolkits_is_vendor_path() -> None:
    # Vendor/.../mlx/.github/workflows/release.yml: the CUDA wheels are built once per toolkit
    # the matrix names. Before, the workflow was portable; the artifact and upload names that
    # only hold the matrix value are not counted.
    source = b"""\
jobs:
  build_cuda_release:
    strategy:
      matrix:
        arch: ['x86_64', 'aarch64']
        toolkit: ['cuda-12.9', 'cuda-13.0']
    steps:
      - uses: ./.github/actions/setup-linux
        with:
          toolkit: ${{ matrix.toolkit }}
      - uses: actions/upload-artifact@v4
        with:
          name: mlx-${{ matrix.toolkit }}-${{ matrix.arch }}
          path: wheelhouse/mlx-cuda-12.9-linux.whl
"""
    path = ".github/workflows/release.yml"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 13}


def test_mlx_swift_can_import_metal_branch_is_vendor_path() -> None:
    # Vendor/mlx-swift-lm/Libraries/MLXLMCommon/WiredMemoryPolicies.swift: the working-set cap
    # is Metal's, read only where the framework exists; the #else branch is the other
    # platforms'. Before, the whole file was portable.
    source = b"""\
import Foundation
import MLX

func recommendedCap(_ cap: Int?) -> Int? {
    if let cap { return cap }
#if canImport(Metal)
    return GPU.maxRecommendedWorkingSetBytes()
#else
    return nil
#endif
}
"""
    path = "Libraries/Common/WiredPolicies.swift"
    assert _rules(path, source) == {"metal.build-guard"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 8}


def test_mlx_metal_backend_wheel_is_vendor_path() -> None:
    # Vendor/.../mlx/.github/actions/build-macos-release/action.yml: the Metal back end is its
    # own wheel, built and installed for the macOS tests. Before, the action was portable.
    source = b"""\
runs:
  using: "composite"
  steps:
    - name: Test local packages
      shell: bash
      run: |
        uv pip install numpy torch
        uv pip install dist/mlx_metal-*-macosx_15_0_arm64.whl
        uv pip install dist/mlx-*-macosx_15_0_arm64.whl
"""
    path = ".github/actions/build-macos-release/action.yml"
    assert _rules(path, source) == {"deps.coreml-wheel"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 8}


def test_swiftpm_build_plugin_picking_cu_sources_is_vendor_path() -> None:
    # Vendor/mlx-swift/Plugins/CudaBuild/plugin.swift: a build-tool plugin that hands every
    # .cu source of the target to a CUDA-to-C++ compiler. Before, the plugin was portable.
    source = b"""\
import Foundation
import PackagePlugin

@main
struct KernelBuild: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let inputs = target.sourceModule?.sourceFiles.map { $0.url } ?? []
        let kernels = inputs.filter { $0.pathExtension == "cu" }
        let tool = try context.tool(named: "kernelc")
        return kernels.map { url in
            .buildCommand(displayName: "Compiling \\(url.lastPathComponent)",
                          executable: tool.url, arguments: [url.path], outputFiles: [])
        }
    }
}
"""
    path = "Plugins/KernelBuild/plugin.swift"
    assert _rules(path, source) == {"build.swiftpm-cuda-link"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 13}


def test_mlx_c_umbrella_header_including_backend_headers_is_portable() -> None:
    # Vendor/mlx-swift/Source/Cmlx/include/mlx/c/mlx.h (checked right): the umbrella header
    # includes the CUDA and Metal entry points beside the others; it calls nothing.
    source = b"""\
#ifndef MLX_ALL_H
#define MLX_ALL_H
#include "mlx/c/array.h"
#include "mlx/c/cuda.h"
#include "mlx/c/device.h"
#include "mlx/c/metal.h"
#include "mlx/c/ops.h"
#endif
"""
    assert _layers("include/mlx/c/mlx.h", source) == {"portable": 8}


def test_mlx_nccl_distributed_backend_is_vendor_path() -> None:
    # Vendor/.../mlx/python/tests/nccl_test_distributed.py (checked right): the test group
    # starts MLX's distributed layer on NCCL, NVIDIA's collective library.
    source = b"""\
import mlx.core as mx


class NcclCase:
    @classmethod
    def setUpClass(cls):
        _ = mx.distributed.init(strict=True, backend="nccl")
        cls.atol = 1e-4
"""
    path = "python/tests/nccl_test_distributed.py"
    assert "vendor-path" in _layers(path, source)


# -- kwcantrell/attention-all-microbes: a TensorFlow model ---------------------------------


def test_tensorflow_listing_gpus_for_memory_growth_is_portable() -> None:
    # aam/attention_cli.py (checked right): TensorFlow's own device list, whatever its
    # plug-in; only pyproject.toml's tensorflow[and-cuda] pins NVIDIA.
    source = b"""\
import tensorflow as tf


def main():
    gpus = tf.config.list_physical_devices("GPU")
    if len(gpus) > 0:
        tf.config.experimental.set_memory_growth(gpus[0], True)
"""
    assert _layers("aam/attention_cli.py", source) == {"portable": 5}


# -- Zarcx127/GaussianSplatViewer: a Vulkan renderer with GLSL compute shaders --------------


def test_vulkan_logger_header_is_vendor_path() -> None:
    # include/logging/Logger.hpp (checked right): the logger's overloads take Vulkan types.
    source = b"""\
#pragma once
#include <vector>
#include <vulkan/vulkan.hpp>

class Logger {
public:
    void print(const char* msg);
    void log(const vk::PhysicalDevice& device);
    void log(const vk::Extent2D& extent, const char* prefix = "\\t");
};
"""
    assert _rules("include/logging/Logger.hpp", source) == {"vulkan.host-api"}
