"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h42-random-h).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 274-280. Three have no snapshot: Ryannn-ry63/DiffusionDrive-GRPO, kry4r/Nuka-Physics
and mlexpos/sparse-sgd. The four read are wrld3d/android-api, felpzOliveira/PathTracer,
GoodSoftware-Group/zerollama and Jelly-Fish/nbody. Fifteen files of each were sampled with
``random.Random("owner/name")`` over the files lockin counts, and labelled before any fix,
with the files lockin calls non-portable and GPU-looking files it calls portable; three
commits touching GPU code were drawn with ``random.Random("owner/name:commits")``. Each snippet
is a small rewrite, in our own words, of a pattern found in the repository its test names;
the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- felpzOliveira/PathTracer: a CUDA path tracer with its own Wavefront .mtl reader ----------


def test_pathtracer_mtl_reader_header_is_portable() -> None:
    # src/third/mtl.h: the parser of OBJ material libraries names its functions after the
    # format (MTLParse, MTLGetSpectrum, MTLFindMaterial). Before, metal.host-api took them for
    # Apple's MTL* API and made the header vendor-path (6 of its 21 lines).
    source = b"""\
#pragma once
#include <map>
#include <string>
#include <vector>

typedef struct {
    std::string name;
    std::map<std::string, std::vector<std::string>> data;
} MTL;

bool MTLParse(const char *path, std::vector<MTL *> *materials, const char *basedir);

Spectrum MTLGetSpectrum(const char *property, MTL *mtl, bool &found);

std::string MTLGetValue(const char *property, MTL *mtl, bool &found);

MTL *MTLFindMaterial(const char *name, std::vector<MTL *> *materials);

bool MTLParseAll(std::vector<MTL *> *materials, const char *basedir);
"""
    assert _layers("src/third/mtl.h", source) == {"portable": 13}


def test_pathtracer_mtl_reader_source_is_portable() -> None:
    # src/third/mtl.cpp: the reader's token type and its line parser, plain file handling.
    source = b"""\
#include <mtl.h>
#include <fstream>

typedef struct {
    std::string key;
    std::string value;
} MTLToken;

static MTLToken MTLParseLine(const std::string &line) {
    MTLToken token;
    size_t at = line.find(' ');
    token.key = line.substr(0, at);
    token.value = at == std::string::npos ? "" : line.substr(at + 1);
    return token;
}

MTL *MTLFindMaterial(const char *name, std::vector<MTL *> *materials) {
    for (MTL *m : *materials) {
        if (m->name == name) return m;
    }
    return nullptr;
}
"""
    assert _rules("src/third/mtl.cpp", source) == set()


def test_pathtracer_kernel_beside_the_mtl_calls_keeps_only_cuda() -> None:
    # src/core/scene.cpp: the scene builder reads the .mtl colours on the host and builds the
    # scene in a one-thread kernel; only the kernel and its launch are vendor code.
    source = b"""\
Spectrum ReadEmission(MTL *mtl) {
    bool found = false;
    Spectrum L = MTLGetSpectrum("Ke", mtl, found);
    return found ? L : Spectrum(0.f);
}

__global__ void BuildScene(Aggregator *scene, SceneDescription *desc) {
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        scene->Reserve(desc->count);
    }
}

void MakeScene(Aggregator *scene, SceneDescription *desc) {
    BuildScene<<<1, 1>>>(scene, desc);
}
"""
    assert _rules("src/core/scene.cpp", source) == {"cuda.kernel", "cuda.launch"}
    assert _layers("src/core/scene.cpp", source) == {"kernel": 5, "vendor-path": 1, "portable": 7}


# -- GoodSoftware-Group/zerollama: an Ollama fork with ggml's CUDA, Vulkan and Metal back ends --


def test_zerollama_darwin_vram_query_is_metal() -> None:
    # discover/gpu_info_darwin.m: the recommended working set of the default Metal device;
    # Apple's MTL names stay Metal after the .mtl reader's exclusions.
    source = b"""\
#import <Foundation/Foundation.h>
#include "gpu_info_darwin.h"

uint64_t recommendedVRAM() {
  id<MTLDevice> device = MTLCreateSystemDefaultDevice();
  uint64_t n = device.recommendedMaxWorkingSetSize;
  CFRelease(device);
  return n;
}
"""
    assert _rules("discover/gpu_info_darwin.m", source) == {"metal.host-api"}


def test_zerollama_flash_attention_dispatch_in_a_cu_file_is_portable() -> None:
    # ml/backend/ggml/ggml/src/ggml-cuda/fattn-tile.cu: a switch over head sizes calling the
    # project's templated launchers; no kernel, launch or CUDA call stands in the file.
    source = b"""\
#include "common.cuh"
#include "fattn-tile.cuh"

void flash_attn_tile(backend_context & ctx, tensor * dst) {
    const tensor * K = dst->src[1];
    switch (K->ne[0]) {
        case 64: {
            flash_attn_tile_case<64, 64>(ctx, dst);
        } break;
        case 128: {
            flash_attn_tile_case<128, 128>(ctx, dst);
        } break;
        default: {
            ABORT("unsupported head size");
        } break;
    }
}
"""
    assert _layers("src/ggml-cuda/fattn-tile.cu", source) == {"portable": 16}


def test_zerollama_training_worker_cuda_paths_are_vendor_path() -> None:
    # training.py: the worker picks CUDA when present and empties its cache after an OOM.
    source = b"""\
import torch


class Worker:
    def __init__(self):
        self.device = "cuda" if torch.cuda.is_available() else "cpu"

    def unload(self):
        self.model = None
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
"""
    assert _rules("training.py", source) == {"torch.device-string", "torch.cuda-call"}
    assert _layers("training.py", source) == {"vendor-path": 2, "portable": 6}


# -- wrld3d/android-api: a map SDK linking OpenGL ES ------------------------------------------


def test_android_api_native_library_linking_gles_is_portable() -> None:
    # sdk/src/main/cpp/CMakeLists.txt: OpenGL ES and EGL are Android's cross-vendor graphics
    # libraries, linked beside curl and zlib.
    source = b"""\
add_library(${library_name} SHARED jnimain.cpp)
target_link_libraries(
    ${library_name}
    android
    curl
    EGL
    GLESv2
    log
    z)
"""
    assert _layers("sdk/src/main/cpp/CMakeLists.txt", source) == {"portable": 9}


def test_zerollama_windows_rocm_build_script_is_vendor_path() -> None:
    # scripts/build_windows.ps1: finds the HIP SDK under Program Files and keeps its folder in
    # HIP_PATH for the ROCm build, as the CUDA branch keeps the toolkit's. Before, only the
    # gfx906 clean-up line of the ROCm branch counted (the HIP_PATH lines were portable).
    source = b"""\
$rocmDir = (get-item 'C:\\Program Files\\AMD\\ROCm\\6.*' | select-object -First 1)
if ($null -ne $rocmDir) {
    $script:HIP_PATH = $rocmDir.FullName
}
function rocm {
    if ($script:HIP_PATH) {
        Write-Output "Building ROCm backend libraries"
        & cmake --build --preset "ROCm 6" --config Release
    }
}
"""
    assert _rules("scripts/build_windows.ps1", source) == {"build.hip-offload-arch"}
    assert _layers("scripts/build_windows.ps1", source) == {"vendor-path": 3, "portable": 7}


def test_zerollama_rocm_release_matrix_installs_the_hip_sdk() -> None:
    # .github/workflows/release.yaml: the Windows ROCm entry downloads AMD's HIP SDK and the
    # step exports its folder and platform, the twins of the CUDA entry's installer lines.
    source = b"""\
jobs:
  windows-depends:
    strategy:
      matrix:
        include:
          - preset: 'ROCm 6'
            install: https://download.amd.com/developer/eula/rocm-hub/AMD-Software-PRO-Edition-24.Q4-WinSvr2022-For-HIP.exe
    steps:
      - name: Install ROCm
        run: |
          $hipPath = (Resolve-Path "C:\\Program Files\\AMD\\ROCm\\*").path
          echo "HIP_PLATFORM=amd" | Out-File -FilePath $env:GITHUB_ENV -Append
"""
    assert _rules(".github/workflows/release.yaml", source) == {"build.hip-offload-arch"}
    assert _layers(".github/workflows/release.yaml", source) == {"vendor-path": 3, "portable": 9}
