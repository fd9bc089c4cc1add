"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-t).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 153-160. shayan65/low-rate-quantization (153) had no snapshot and
was skipped; the other seven were read: ROCm/omnitrace (a profiler and tracer for AMD GPUs),
microsoft/onnxscript (ONNX authoring in Python), lucylow/02-10-26-medgemma (a clinical app
serving MedGemma), BurykinaA/quantization-techniques (quantisation experiments in PyTorch),
tensorflow/tflite-micro (TensorFlow Lite for microcontrollers), LabCad/simple-pycuda (a ctypes
wrapper over the CUDA runtime) and wuye9036/SalviaRenderer (a software rasteriser with its own
shading language). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, and three commits touching GPU code judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/omnitrace: a packaging workflow with one row per ROCm release ----------------------


def test_ci_matrix_of_rocm_releases_is_vendor_path() -> None:
    # .github/workflows/cpack.yml: installers built per distro and ROCm release; "0.0" is the
    # row built without ROCm.
    source = b"""\
jobs:
  installers:
    strategy:
      matrix:
        include:
          - distro: ubuntu
            rocm-version: "0.0"
          - distro: ubuntu
            rocm-version: "6.1"
    steps:
      - run: ./build-installer.sh --rocm-versions ${{ matrix.rocm-version }}
"""
    assert _rules(".github/workflows/cpack.yml", source) == {"ci.rocm-version-matrix"}
    assert _layers(".github/workflows/cpack.yml", source) == {"vendor-path": 1, "portable": 10}


# -- LabCad/simple-pycuda: a package whose own name contains a CUDA wheel's ------------------


def test_setup_naming_a_project_after_pycuda_is_portable() -> None:
    # setup.py: the project's name and home page end in -pycuda; nothing is required.
    source = b"""\
import setuptools

setuptools.setup(
    name="mini-pycuda",
    version="0.1",
    url="https://example.org/group/mini-pycuda",
    packages=setuptools.find_packages(),
)
"""
    assert _rules("setup.py", source) == set()
    assert _layers("setup.py", source) == {"portable": 7}


def test_setup_requiring_pycuda_still_flags() -> None:
    # The same project once it pins the real wheel.
    source = b"""\
import setuptools

setuptools.setup(
    name="mini-pycuda",
    install_requires=["pycuda>=2022.1", "numpy"],
)
"""
    assert _rules("setup.py", source) == {"deps.cuda-wheel-python"}
    assert _layers("setup.py", source) == {"vendor-path": 1, "portable": 4}


def test_cuda_kernel_in_python_triple_quoted_string_is_kernel() -> None:
    # testSimplePyCuda.py: a doubling kernel compiled from a Python string (already right).
    source = b'''\
from wrapper import KernelBuild

mod = KernelBuild("""
__global__ void triple(float* v)
{
    int i = threadIdx.x + threadIdx.y * 4;
    v[i] *= 3;
}
""")
fn = mod.get_function("triple")
'''
    assert _rules("run_kernel.py", source) == {"cuda.source-string"}
    assert "kernel" in _layers("run_kernel.py", source)


# -- BurykinaA/quantization-techniques: the CUDA-or-CPU device line (already right) ---------


def test_cuda_or_cpu_device_line_is_vendor_path() -> None:
    # ADC/conv_experiments/conv_experiment_setup.py picks the device once for every run.
    source = b"""\
import torch

dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(f"running on {dev}")
"""
    assert _rules("setup_run.py", source) == {"torch.device-string"}
    assert _layers("setup_run.py", source) == {"vendor-path": 1, "portable": 2}


# -- ROCm/omnitrace: branches compiled only with one ROCm feature or a found HIP version ----


def test_rocm_feature_switch_and_hip_version_branches_are_vendor_path() -> None:
    # source/lib/omnitrace/library/rocm_smi.hpp and config.cpp: the ROCm SMI sampler is
    # declared only when the build switches it on, and the HIP version is recorded only when
    # one was found; the stub for other builds stays portable.
    source = b"""\
#pragma once
#if defined(PROF_USE_ROCM_SMI) && PROF_USE_ROCM_SMI > 0
void gpu_power_sample();
#endif
#if !defined(PROF_USE_ROCM_SMI) || PROF_USE_ROCM_SMI == 0
inline void gpu_power_sample() {}
#endif
void note_versions() {
#if PROF_HIP_VERSION >= 50200
    note("hip", PROF_HIP_VERSION_STRING);
#endif
}
"""
    assert _rules("src/sampler.hpp", source) == {"hip.platform-guard"}
    assert _layers("src/sampler.hpp", source) == {"vendor-path": 6, "portable": 6}
