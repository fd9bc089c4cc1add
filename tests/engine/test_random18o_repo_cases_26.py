"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-o).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 99-105, and none was skipped: every one had a snapshot
under the size limit. Read were iamthetwodigiter/Megatronix (a Flutter app for a college
tech fest: Dart pages, Lottie animations, no GPU code), yet300/BlockBlast (a Kotlin
Multiplatform block puzzle game with Compose UI, plus coding agents' skill notes in
Markdown that speak of GPU compositing), proganalysis/type-inference (Java type-inference
research: the Checker Framework, javac's langtools, Soot, benchmarks with libsvm's SVM
"Kernel" classes), dblaszkiewicz/Farming (a C# and Angular farm-warehouse application),
gardenerframework/fragrans (a Java Spring SDK), kamisaberi/xtorch (a C++ deep-learning
library over libtorch: models, datasets, transforms, CMake that fetches the CUDA libtorch
build, and an NCCL/MPI data-parallel prototype) and Atmosphere/atmosphere (a Java
real-time and AI-agent framework with Semantic Kernel and other LLM adapters).
proganalysis/type-inference lacked 23 large blobs; no file sampled or listed was among
them. Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (none here), and up to
three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in
the repository its test names; the expected layers are what a porting engineer reading
that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- kamisaberi/xtorch: libtorch C++ host code --------------------------------------------


def test_libtorch_cuda_synchronize_in_data_parallel_header_is_vendor_path() -> None:
    # include/data_parallels/data_parallel.h (portable before): after each replica's step the
    # trainer waits on every CUDA device with torch::cuda::synchronize(), libtorch's C++ face
    # of torch.cuda.synchronize(). The file names no kCUDA, so nothing else marked it.
    source = b"""\
#pragma once
#include <torch/torch.h>

class Replicas {
public:
    void step(torch::optim::Optimizer& opt) {
        opt.step();
        share_weights();
        torch::cuda::synchronize();
    }
private:
    void share_weights() {}
};
"""
    path = "include/parallel/replicas.h"
    assert _rules(path, source) == {"torch.cpp-cuda"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 11}


def test_libtorch_cuda_seed_call_is_vendor_path() -> None:
    # future_work/junks/temp/mnt.cpp: a test program seeds every CUDA generator with
    # torch::cuda::manual_seed_all(), as torch.cuda.manual_seed_all() in Python.
    source = b"""\
#include <torch/torch.h>

int main() {
    torch::manual_seed(1);
    torch::cuda::manual_seed_all(1);
    auto x = torch::rand({2, 2});
    return x.numel() == 4 ? 0 : 1;
}
"""
    path = "tools/seeded_run.cpp"
    assert _rules(path, source) == {"torch.cpp-cuda"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 6}


def test_libtorch_device_probes_alone_stay_portable() -> None:
    # future_work/junks/temp/ddp/ddp_common.h: asking whether CUDA is there and how many
    # devices it has lets the program fall back to the CPU; a probe adds no lock-in, as
    # torch.cuda.is_available() does not in Python.
    source = b"""\
#include <torch/torch.h>

torch::Device pick_device(int local_rank) {
    if (torch::cuda::is_available() && torch::cuda::device_count() > local_rank) {
        return torch::Device(torch::DeviceType::CPU, local_rank);
    }
    return torch::Device(torch::DeviceType::CPU);
}
"""
    path = "src/common/device_pick.h"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


def test_libtorch_device_choice_with_kcuda_is_vendor_path() -> None:
    # examples/generating_images_with_dcgan.cpp and the old CNN examples: one line picks
    # kCUDA when it is there; the rest of the example is portable libtorch.
    source = b"""\
#include <torch/torch.h>
#include <iostream>

int main() {
    torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    auto net = torch::nn::Linear(4, 2);
    net->to(device);
    std::cout << net->forward(torch::ones({1, 4}, device)) << std::endl;
    return 0;
}
"""
    path = "examples/tiny_linear.cpp"
    assert _rules(path, source) == {"torch.cpp-cuda"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 8}


def test_commented_out_training_main_in_model_file_stays_portable() -> None:
    # src/models/generative_models/gans/big_gan.cpp and others: the model is generic libtorch
    # and the old CUDA training driver is kept commented out below it.
    source = b"""\
#include "models/tiny_gan.h"

namespace xt::models {
    torch::Tensor TinyGan::forward(torch::Tensor z) { return fc->forward(z).tanh(); }
}

// int main() {
//     torch::Device device(torch::kCUDA);
//     if (!torch::cuda::is_available()) device = torch::Device(torch::kCPU);
//     torch::cuda::synchronize();
// }
"""
    path = "src/models/gans/tiny_gan.cpp"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 4}


def test_nccl_and_cuda_runtime_header_is_library_and_vendor_path() -> None:
    # future_work/.../my_from_scratch_ddp_with_mpi_nccl.h: includes nccl.h and the CUDA
    # runtime, with error-check macros for both around MPI.
    source = b"""\
#pragma once
#include <mpi.h>
#include <nccl.h>
#include <cuda_runtime.h>

#define CHECK_NCCL(call) do { ncclResult_t rc = (call); \\
  if (rc != ncclSuccess) { MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

#define CHECK_CUDA(call) do { cudaError_t rc = (call); \\
  if (rc != cudaSuccess) { MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)
"""
    path = "src/dist/nccl_replicas.h"
    layers = _layers(path, source)
    assert set(layers) == {"vendor-library", "vendor-path", "portable"}
    assert {"nccl.call", "cuda.include", "cuda.runtime"} <= _rules(path, source)


def test_cmake_cuda_toolchain_settings_are_vendor_path() -> None:
    # CMakeLists.txt: the CUDA host compiler, architectures and nvcc path set at the top, then
    # cuDNN's paths under the CUDA toolkit; the rest of the project is portable CMake.
    source = b"""\
cmake_minimum_required(VERSION 3.24)
set(CMAKE_CUDA_HOST_COMPILER "g++-12")
set(CMAKE_CUDA_ARCHITECTURES "80;90")
set(CMAKE_CUDA_COMPILER /usr/local/cuda-12.4/bin/nvcc)
project(Tensorish LANGUAGES CXX)
set(CUDNN_INCLUDE_DIR "/usr/local/cuda-12.4/include")
add_library(tensorish src/a.cpp)
"""
    path = "CMakeLists.txt"
    assert _rules(path, source) == {"build.cmake-cuda", "build.nvcc"}
    assert _layers(path, source) == {"vendor-path": 4, "portable": 3}


def test_cmake_download_of_cuda_libtorch_build_is_vendor_path() -> None:
    # future_work/installation/windows.cmake and cmake/amd.cmake: the dependency block
    # downloads the cu128 libtorch archive (its line portable before; the files were
    # vendor-path by ONNX Runtime's GPU archive on the next lines). The CPU archive is not.
    source = b"""\
set(DEPS "${CMAKE_SOURCE_DIR}/third_party")
set(TORCH_ZIP_URL "https://download.pytorch.org/libtorch/cu126/libtorch-shared-with-deps-2.6.0%2Bcu126.zip")
set(TORCH_ZIP_CPU "https://download.pytorch.org/libtorch/cpu/libtorch-shared-with-deps-2.6.0%2Bcpu.zip")
"""
    path = "cmake/deps.cmake"
    assert _rules(path, source) == {"build.cmake-nvidia-library"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 2}


def test_python_converter_device_string_is_vendor_path() -> None:
    # python/xtorch_py/convert_hf_model.py: a Hugging Face export script picks "cuda" when
    # the device is there.
    source = b"""\
import torch

def pick(force_cpu: bool) -> torch.device:
    if force_cpu:
        return torch.device("cpu")
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")
"""
    path = "python/export_tool.py"
    assert _rules(path, source) == {"torch.device-string"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 4}


# -- proganalysis/type-inference and Atmosphere/atmosphere: "kernel" that is no GPU --------


def test_svm_kernel_class_in_java_stays_portable() -> None:
    # mapreduce-benchmarks/src/SVM/libsvm/svm.java: an SVM's kernel function and cache.
    source = b"""\
abstract class GramKernel {
    private final int kernelType;
    GramKernel(int kernelType) { this.kernelType = kernelType; }
    double kernelFunction(double[] a, double[] b) {
        double dot = 0;
        for (int i = 0; i < a.length; i++) dot += a[i] * b[i];
        return kernelType == 0 ? dot : Math.exp(-dot);
    }
}
"""
    path = "bench/svm/GramKernel.java"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 9}


def test_semantic_kernel_adapter_stays_portable() -> None:
    # modules/semantic-kernel/.../SemanticKernelAgentRuntime.java: Microsoft's Semantic Kernel
    # is an LLM orchestration library, not a device kernel.
    source = b"""\
package org.example.ai.sk;

import com.microsoft.semantickernel.Kernel;

public final class KernelRuntime {
    private final Kernel kernel;
    public KernelRuntime(Kernel kernel) { this.kernel = kernel; }
    public String name() { return "semantic-kernel"; }
}
"""
    path = "modules/sk/src/main/java/org/example/ai/sk/KernelRuntime.java"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


# -- yet300/BlockBlast: agent notes on GPU compositing --------------------------------------


def test_markdown_notes_on_gpu_compositing_stay_portable() -> None:
    # .agents/skills/*/SKILL.md (added by the three sampled commits): web animation advice
    # that names the GPU's compositor; prose, no device code.
    source = b"""\
# Motion review

- Animate only `transform` and `opacity`: the GPU composites them on their own layer.
- `will-change` asks the browser to promote an element to a GPU layer before it moves.
- Avoid `transition: all`; it animates properties the GPU cannot composite.
"""
    path = ".agents/skills/motion-review/SKILL.md"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) <= {"portable"}


def test_compose_shadow_shape_stays_portable() -> None:
    # core/uikit/.../LiftedPieceShadow.kt: a Compose Shape tracing a piece's outline.
    source = b"""\
package game.ui

import androidx.compose.ui.graphics.Outline
import androidx.compose.ui.graphics.Path
import androidx.compose.ui.graphics.Shape

class CellsShape(private val cells: List<Pair<Int, Int>>) : Shape {
    override fun createOutline(size: Size, dir: LayoutDirection, density: Density): Outline {
        val path = Path()
        cells.forEach { (x, y) -> path.addRect(Rect(x * 10f, y * 10f, x * 10f + 9f, y * 10f + 9f)) }
        return Outline.Generic(path)
    }
}
"""
    path = "core/uikit/src/commonMain/kotlin/game/ui/CellsShape.kt"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 11}
