"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-h).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 50-56. One was skipped: mykhailov-ua/bidshard-lead-miner
(56) had no snapshot to fetch. Read were sharkls/SparseEndtoEnd (Sparse4D end-to-end 3D
detection and tracking: PyTorch training, CUDA kernels for NMS, image augmentation and
instance-bank top-k, TensorRT plugins and engine-building scripts, a C++ onboard pipeline),
someaka/adaptive-attention-tiling-v2 (a research code base of quantum-geometric attention in
PyTorch, once with Vulkan benchmarks through the Python vulkan package), hung-lo/
molecular_tracking (ROI matching and plotting for microscopy sessions in Python and notebooks,
Cellpose run with its GPU flag), ntnhon/Metal-Archives-iOS (a SwiftUI client of a heavy-metal
music encyclopaedia: "Metal" is its subject, not Apple's API), TeamMoegMC/FrostedHeart (a
Minecraft Forge mod in Java with Minecraft core shaders and a Flywheel vertex shader in GLSL)
and HashSource/bitmain_antminer_binaries (Ghidra decompilations of Antminer firmware tools:
C, no GPU code). Snapshots missing large blobs (one 4 MB C file of the Antminer decompilations,
three objects of the attention repository) were laid out without them; no sampled file was
missing. Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (up to 5 a repository), and
up to three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- sharkls/SparseEndtoEnd: fixed misses -------------------------------------------------


def test_singular_requirement_txt_pins_cuda_python() -> None:
    # requirement.txt (outside the sample; lockin before: plain text, portable): the pip file
    # is named in the singular, and it pins NVIDIA's cuda-python bindings.
    source = b"numpy==1.24.4\nonnx==1.16.1\ncuda-python==12.3.0\ncolorlog==6.8.2\n"
    path = "requirement.txt"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


def test_singular_requirement_txt_without_gpu_wheels_stays_portable() -> None:
    source = b"numpy==1.24.4\npyyaml>=6.0\n"
    assert _layers("requirement.txt", source) == {"portable": 2}


def test_shell_script_asking_libcuda_for_the_sm_through_ctypes_is_vendor_path() -> None:
    # deploy/dfa_plugin/tools/cudasm.sh (outside the sample; lockin before: portable): a
    # Python program in a shell variable loads libcuda.so with ctypes, calls cuInit and
    # cuDeviceComputeCapability, and the script keeps the SM number for the plugin's nvcc.
    source = b"""\
query="
import ctypes
drv = ctypes.cdll.LoadLibrary('libcuda.so')
hi = ctypes.c_int(0)
lo = ctypes.c_int(0)
drv.cuInit(ctypes.c_int(0))
rc = drv.cuDeviceComputeCapability(ctypes.pointer(hi), ctypes.pointer(lo), ctypes.c_int(0))
if int(rc) != 0:
    exit(int(rc))
print(f'{hi.value}{lo.value}', end='')
"
SM_VERSION=`python3 -c "$query"`
"""
    path = "deploy/plugin/tools/smver.sh"
    assert _rules(path, source) == {"cuda.shell-inline-ctypes-load"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 9}


def test_shell_ctypes_load_of_the_projects_own_library_stays_portable() -> None:
    source = b"""\
code="
import ctypes
lib = ctypes.cdll.LoadLibrary('./build/libaggr.so')
lib.cuInit_wrapper(0)
"
python3 -c "$code"
"""
    assert _layers("tools/load_plugin.sh", source) == {"portable": 6}


# -- sharkls/SparseEndtoEnd: right verdicts kept ------------------------------------------


def test_trtexec_by_its_install_path_with_continued_options_is_one_vendor_path_line() -> None:
    # deploy/build_sparse4d_engine.sh and optimize_backbone_precision.sh: trtexec run from the
    # TensorRT folder an environment variable names, its options one a continuation line.
    source = b"""\
echo "building the backbone engine"
${TRT_BIN_DIR}/trtexec --onnx=${BACKBONE_ONNX} \\
    --memPoolSize=workspace:2048 \\
    --saveEngine=${BACKBONE_PLAN} \\
    --fp16 \\
    >${LOG_DIR}/backbone.log 2>&1
"""
    path = "deploy/make_engines.sh"
    assert _rules(path, source) == {"build.nvcc"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 5}


def test_host_device_constructors_in_a_header_are_kernel_and_the_stream_default_vendor_path() -> (
    None
):
    # C++/Src/Sparse4D/postprocessor/gpu_nms.hpp (sample; hand 6 kernel lines, lockin 6): a box
    # struct whose constructors are __host__ __device__, and a launcher taking a cudaStream_t.
    source = b"""\
#pragma once
#include <cuda_runtime.h>

struct Box {
    float cx, cy, score;
    int label;

    __host__ __device__
    Box() : cx(0), cy(0), score(0), label(-1) {}

    __host__ __device__
    Box(float x, float y, float s, int l)
        : cx(x), cy(y), score(s), label(l) {}
};

int run_nms(const float* boxes, int count, Box* out,
            float threshold, cudaStream_t stream = 0);
"""
    path = "src/post/nms_gpu.hpp"
    assert _rules(path, source) == {"cuda.include", "cuda.device-function", "cuda.runtime"}
    layers = _layers(path, source)
    assert layers["kernel"] == 5
    assert layers["vendor-path"] == 3


def test_thrust_sort_on_a_stream_beside_a_kernel_is_vendor_library() -> None:
    # C++/Src/Sparse4D/postprocessor/gpu_nms.cu (sample): kernels, then thrust::sort with the
    # CUDA execution policy on the caller's stream, a library rocThrust maps.
    source = b"""\
#include <thrust/device_ptr.h>
#include <thrust/sort.h>
#include <cuda_runtime.h>

__global__ void mark(const float* s, int* keep, int n, float t) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) keep[i] = s[i] > t;
}

void order(float* d_scores, int n, cudaStream_t stream) {
    thrust::device_ptr<float> p(d_scores);
    thrust::sort(thrust::cuda::par.on(stream), p, p + n, thrust::greater<float>());
}
"""
    path = "src/post/order.cu"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "vendor-library", "vendor-path", "portable"}
    assert layers["kernel"] == 4


def test_tensorrt_engine_deserialised_from_python_is_vendor_library() -> None:
    # deploy/unit_test/check_engine_safe.py (sample): the TensorRT runtime reads a plan file.
    source = b"""\
import tensorrt as trt

def load(path):
    log = trt.Logger(trt.Logger.WARNING)
    with open(path, "rb") as f:
        blob = f.read()
    return trt.Runtime(log).deserialize_cuda_engine(blob)
"""
    path = "deploy/checks/load_plan.py"
    assert set(_layers(path, source)) == {"vendor-library", "portable"}


def test_distributed_launch_script_pinning_cuda_visible_devices_is_vendor_path() -> None:
    # script/dist_train.sh (sample): the GPU list set and read back through CUDA's variable.
    source = b"""\
#!/usr/bin/env bash
export CUDA_VISIBLE_DEVICES=0,1
ids=(${CUDA_VISIBLE_DEVICES//,/ })
n=${#ids[@]}
python3 -m torch.distributed.run --nproc_per_node=$n tools/train.py "$@"
"""
    path = "scripts/launch_ddp.sh"
    assert _rules(path, source) == {"env.cuda-variables"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 2}


# -- someaka/adaptive-attention-tiling-v2 ------------------------------------------------


def test_guarded_cuda_cache_release_in_a_test_is_vendor_path() -> None:
    # tests/test_neural/test_attention/lol2.py (sample): the CUDA cache emptied when present.
    source = b"""\
import gc
import torch

def free():
    gc.collect()
    torch.cuda.empty_cache() if torch.cuda.is_available() else None
"""
    assert _layers("tests/test_attention_mem.py", source) == {"vendor-path": 1, "portable": 4}


def test_device_following_tensors_stays_portable() -> None:
    # src/core/patterns/symplectic.py and the other samples: tensors made on the input's device.
    source = b"""\
import torch

def pad(x, extra):
    z = torch.zeros(*x.shape[:-1], extra, device=x.device, dtype=x.dtype)
    return torch.cat([x, z], dim=-1)
"""
    assert _layers("src/core/patterns/pad.py", source) == {"portable": 4}


def test_vulkan_driven_from_python_is_vendor_path() -> None:
    # Commit 9dc46f10ab82 (gate fails, right): compute pipelines built with the vulkan package.
    source = b"""\
import vulkan as vk

def make_pool(device, family):
    info = vk.VkCommandPoolCreateInfo(queueFamilyIndex=family)
    return vk.vkCreateCommandPool(device, info, None)
"""
    path = "src/perf/vk/pool.py"
    assert "vendor-path" in _layers(path, source)


# -- hung-lo/molecular_tracking -----------------------------------------------------------


def test_cellpose_gpu_flag_stays_portable() -> None:
    # notebooks/weeklyRegister_*.ipynb (GPU-looking, portable, right): Cellpose picks CUDA,
    # MPS or the CPU behind its own flag; the notebook names no vendor.
    source = b"""\
from cellpose import models

model = models.CellposeModel(gpu=True, pretrained_model="cpsam")
masks, flows, styles = model.eval(images, diameter=None)
"""
    assert _layers("analysis/segment.py", source) == {"portable": 3}


# -- ntnhon/Metal-Archives-iOS -------------------------------------------------------------


def test_swift_app_about_metal_music_stays_portable() -> None:
    # Metal Archives/Models/Band/BandLite.swift (GPU-looking by its name, portable, right).
    source = b"""\
import Foundation

struct MetalBandLite: Hashable {
    let name: String
    let country: String
    let metalGenre: String
}
"""
    assert _layers("Metal Archives/Models/Band/MetalBandLite.swift", source) == {"portable": 6}


# -- TeamMoegMC/FrostedHeart ----------------------------------------------------------------


def test_minecraft_core_fragment_shader_is_kernel_whole() -> None:
    # src/main/resources/assets/frostedheart/shaders/core/round.fsh (an extra kernel file:
    # hand 18, lockin 18): a core shader of the game, GLSL 150, every code line device code.
    source = b"""\
#version 150

uniform vec4 ColorModulator;
in vec2 texCoord0;
in vec4 vertexColor;
out vec4 fragColor;

void main() {
    vec2 d = texCoord0 * 2.0 - 1.0;
    if (dot(d, d) > 1.0) {
        discard;
    }
    fragColor = vertexColor * ColorModulator;
}
"""
    path = "src/main/resources/assets/mymod/shaders/core/disc.fsh"
    assert _layers(path, source) == {"kernel": 12}


def test_minecraft_render_system_calls_stay_portable() -> None:
    # Commit 311dba94e018 "accelerated rendering" (gate passes, right): Blaze3D's buffers.
    source = b"""\
import com.mojang.blaze3d.systems.RenderSystem;
import com.mojang.blaze3d.vertex.BufferUploader;

public final class QuadBatch {
    public void flush() {
        BufferUploader.drawWithShader(builder.end());
        RenderSystem.disableBlend();
    }
}
"""
    assert _layers("src/main/java/mod/client/QuadBatch.java", source) == {"portable": 8}
