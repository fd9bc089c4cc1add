"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-m).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 847-853 and skipped run-llama/llama_index (position 847: its
snapshot is over the 500 MiB limit), Zushah/WasmGPU (850) and Sphere-AI-Lab/Megatron-Bridge
(851), of which no snapshot could be had. Read were bkttt0429/GemmaFit (an Android fitness
coach on Gemma and LiteRT, with Colab fine-tuning notebooks and Python prototypes),
pytorch/test-infra (PyTorch's CI infrastructure: GitHub actions and workflows, a Next.js
dashboard, AWS lambdas, Windows AMI installers), seabee33/d-inference (a Go coordinator and a
Swift provider serving models on Apple Silicon through MLX) and Freshield/LEARN_TENSORFLOW
(TensorFlow 1 study scripts). The snapshots of GemmaFit, d-inference and LEARN_TENSORFLOW
lacked blobs of 4 MiB and more (models, data, logs, a built binary), so they were checked out
from the index without them; no counted source file was missing. Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, files outside the sample that hold kernel
lines counted by hand (up to 5 a repository; none held any), and up to three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. The fixes:
build.cuda-toolkit-path-string reads PowerShell's interpolated toolkit paths and the CUDA and
cuDNN Windows installers named in strings, and build.metal reads CI workflows (YAML) staging a
.metallib. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- pytorch/test-infra: a Windows image's installer for the CUDA toolkit and cuDNN ------------


def test_powershell_cuda_toolkit_installer_is_vendor_path() -> None:
    # aws/ami/windows/scripts/Installers/Install-CUDA-Tools.ps1: every NVIDIA name sits in a
    # string (the installers' file names, the toolkit's directory built from a variable).
    source = b"""\
param([string] $ver = $env:CUDA_VERSION)
$setup = "cuda_12.6.3_561.17_windows.exe"
$dnn = "cudnn-windows-x86_64-9.10.2.21_cuda12-archive"
switch ($ver) {
  "13.0" { $setup = "cuda_13.0.0_windows.exe" }
}
function Install-Toolkit() {
  $home = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v$ver"
  Invoke-WebRequest -Uri "$mirror/$setup" -OutFile "$tmp"
  Start-Process -FilePath "$tmp\\setup.exe" -Wait
}
$lib = "$env:ProgramFiles\\NVIDIA GPU Computing Toolkit\\CUDA\\v$ver\\lib"
"""
    assert _rules("ami/Installers/Install-Toolkit.ps1", source) == {
        "build.cuda-toolkit-path-string"
    }
    assert _layers("ami/Installers/Install-Toolkit.ps1", source) == {
        "vendor-path": 5,
        "portable": 7,
    }


def test_powershell_sentences_and_other_installers_stay_portable() -> None:
    source = b"""\
Write-Output "Downloading cuda_12.6.3_561.17_windows.exe from the mirror"
$zip = "$env:ProgramFiles\\7-Zip\\7z.exe"
$rocm = "AMD-Software-PRO-Edition-24.Q4-Win10-Win11-For-HIP.exe"
"""
    assert _rules("ami/Installers/Install-Tools.ps1", source) == set()
    assert _layers("ami/Installers/Install-Tools.ps1", source) == {"portable": 3}


# -- seabee33/d-inference: CI staging MLX's compiled Metal library --------------------------------


def test_workflow_staging_a_metallib_is_vendor_path() -> None:
    # .github/workflows/ci.yml: the run step copies the .metallib out of the MLX wheel next to
    # the test binary, as the repository's install.sh does for the installed app.
    source = b"""\
jobs:
  test:
    runs-on: macos-15
    steps:
      - name: Stage the shader library
        run: |
          lib=$(ls /tmp/venv/lib/python3*/site-packages/mlx/lib/mlx.metallib)
          cp "$lib" .build/debug/mlx.metallib
          swift test
"""
    assert _rules(".github/workflows/ci.yml", source) == {"build.metal"}
    assert _layers(".github/workflows/ci.yml", source) == {"vendor-path": 2, "portable": 7}


def test_workflow_naming_a_metallib_hash_key_stays_portable() -> None:
    source = b"""\
jobs:
  release:
    runs-on: macos-15
    outputs:
      metallib_hash: ${{ steps.hash.outputs.metallib_hash }}
"""
    assert _rules(".github/workflows/release.yml", source) == set()
    assert _layers(".github/workflows/release.yml", source) == {"portable": 5}


# -- already right: pinned so that they stay so ---------------------------------------------


def test_swift_metal_device_behind_a_build_guard_is_vendor_path() -> None:
    # seabee33/d-inference provider-swift/.../GPUEnforcement.swift: Metal imported and its
    # device queried only where the platform has Metal.
    source = b"""\
#if canImport(Metal)
import Metal
#endif

func gpuAvailable() -> Bool {
    #if canImport(Metal)
    return MTLCreateSystemDefaultDevice() != nil
    #else
    return false
    #endif
}
"""
    assert _rules("Sources/Core/GPUCheck.swift", source) == {"metal.build-guard"}
    assert _layers("Sources/Core/GPUCheck.swift", source)["vendor-path"] > 0


def test_swift_mlx_memory_calls_are_portable() -> None:
    # seabee33/d-inference KVPoolReclaimer.swift: MLX's cache and stream calls run on any MLX
    # back end (Metal or CUDA); nothing names Apple's GPU API.
    source = b"""\
import MLX

actor Reclaimer {
    func flush() {
        Stream().synchronize()
        Memory.clearCache()
    }
}
"""
    assert _rules("Sources/Core/Reclaimer.swift", source) == set()
    assert _layers("Sources/Core/Reclaimer.swift", source) == {"portable": 7}


def test_tensorflow_gpu_device_scope_is_portable_and_nvidia_smi_is_not() -> None:
    # Freshield/LEARN_TENSORFLOW 21_Part_Review/3_Tutorials/multi_gpu_mnist.py: towers placed
    # with tf.device('/gpu:N') (any vendor's TensorFlow build) and nvidia-smi polled for memory.
    source = b"""\
import os
import tensorflow as tf

for i in range(2):
    with tf.device('/gpu:%d' % i):
        loss = tower(i)
usage = os.popen('nvidia-smi').read()
"""
    assert _rules("mnist_towers.py", source) == {"cuda.tool-call"}
    assert _layers("mnist_towers.py", source) == {"vendor-path": 1, "portable": 5}


def test_dashboard_filtering_benchmarks_by_device_name_is_portable() -> None:
    # pytorch/test-infra compilerQueryBuilder.ts: a dashboard query picks rows whose device
    # column reads "rocm"; the code runs on no GPU.
    source = b"""\
const wantsRocm = [inputs.device, inputs.devices].some((v) =>
  Array.isArray(v) ? v.includes("rocm") : v === "rocm"
);
if (wantsRocm) {
  params.arch = "";
}
"""
    assert _rules("lib/queryBuilder.ts", source) == set()
    assert _layers("lib/queryBuilder.ts", source) == {"portable": 6}
