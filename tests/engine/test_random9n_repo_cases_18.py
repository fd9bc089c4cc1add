"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-n).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 656-661. One could not be read: shariqnaiyer/tinygrad (no snapshot). Fifteen files of
each remaining repository (yang-365/cublas-learn, AI-Hypercomputer/maxdiffusion,
char5742/dynamic-sparse-recurrent-lookup-tetris, Jin-Y-Chen/RISC-V-Dual-Issue-SIMD-Processor,
Olympus-HPC/proteus) were sampled with ``random.Random("owner/name")`` over every file lockin
counts, and labelled before any fix, with the files lockin calls non-portable and GPU-looking
files it calls portable, and three commits each drawn with ``random.Random("owner/name:commits")``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- char5742/dynamic-sparse-recurrent-lookup-tetris: OpenVINO on an Intel NPU ----------------


def test_tetris_npu_results_read_with_get_are_no_device() -> None:
    # experiments/legacy_full_feasibility/finalize_result.py: the OpenVINO run's results are a
    # dict keyed by device, read with .get("npu", {}). Before, the key counted as a Huawei
    # Ascend device string (ascend.device-string), and the two commits adding such files
    # failed the gate.
    source = b"""\
def check(gates, failures):
    openvino = gates["openvino"]
    if openvino.get("npu", {}).get("max_abs_error", float("inf")) > 1.0e-2:
        failures.append("NPU equivalence failed")
    return failures
"""
    assert _layers("experiments/feasibility/finalize_result.py", source) == {"portable": 5}


def test_tetris_default_device_given_to_get_still_counts() -> None:
    # The default a .get returns is a value, not a key: a device string as before.
    source = b"""\
def pick(config):
    return config.get("device", "npu")
"""
    assert _rules("train.py", source) == {"ascend.device-string"}
    assert _layers("train.py", source) == {"vendor-path": 1, "portable": 1}


# -- AI-Hypercomputer/maxdiffusion: JAX diffusion models, NVIDIA's JAX image for GPUs --------


def test_maxdiffusion_gpu_image_on_nvidia_jax_base() -> None:
    # maxdiffusion_gpu_dependencies.Dockerfile: the GPU image starts from NVIDIA's JAX Toolbox
    # image on GitHub's registry. Before, the file was portable.
    source = b"""\
ARG BASEIMAGE=ghcr.io/nvidia/jax:base
FROM $BASEIMAGE
RUN apt-get update && apt-get install -y iproute2 ethtool
WORKDIR /deps
"""
    assert _rules("gpu_dependencies.Dockerfile", source) == {"image.nvidia-base"}
    assert _layers("gpu_dependencies.Dockerfile", source) == {"vendor-path": 1, "portable": 3}


def test_maxdiffusion_build_script_picks_nvidia_base_for_gpu() -> None:
    # docker_build_dependency_image.sh: the GPU build's base image.
    source = b"""\
#!/bin/bash
if [[ ${DEVICE} == "gpu" ]]; then
  export BASEIMAGE=ghcr.io/nvidia/jax:base
  docker build --build-arg BASEIMAGE=$BASEIMAGE -f ./gpu.Dockerfile -t img .
else
  docker build -f ./tpu.Dockerfile -t img .
fi
"""
    assert _rules("docker_build_image.sh", source) == {"image.nvidia-base"}
    assert _layers("docker_build_image.sh", source) == {"vendor-path": 1, "portable": 5}


def test_maxdiffusion_tpu_flag_plumbing_is_portable() -> None:
    # models/ltx_video/transformers_pytorch/transformer3d.py (checked right): a flag naming the
    # TPU attention pushed down to the blocks calls nothing of the TPU's.
    source = b"""\
class Transformer3DModel(nn.Module):
    def set_use_tpu_flash_attention(self):
        self.use_tpu_flash_attention = True
        for block in self.transformer_blocks:
            block.set_use_tpu_flash_attention()
"""
    assert _layers("models/transformer3d.py", source) == {"portable": 5}


# -- Olympus-HPC/proteus: a JIT for CUDA and HIP kernels, its wheels and CI ----------------------


def test_proteus_rocm_wheel_switches_hip_on_for_cmake() -> None:
    # packaging/python/backend-rocm/pyproject.toml: scikit-build-core hands these keys to CMake
    # as -D flags. Before, the file was portable.
    source = b"""\
[project]
name = "mylib-backend-rocm"

[tool.scikit-build.cmake.define]
BUILD_SHARED = "ON"
MYLIB_ENABLE_CUDA = "OFF"
MYLIB_ENABLE_HIP = "ON"
MYLIB_ENABLE_MPI = "OFF"
"""
    assert _rules("packaging/backend-rocm/pyproject.toml", source) == {"build.hip-offload-arch"}
    assert _layers("packaging/backend-rocm/pyproject.toml", source) == {
        "vendor-path": 1,
        "portable": 6,
    }


def test_proteus_cuda_wheel_switches_cuda_on_for_cmake() -> None:
    # packaging/python/backend-cuda/pyproject.toml, its twin.
    source = b"""\
[tool.scikit-build.cmake.define]
MYLIB_ENABLE_CUDA = "ON"
MYLIB_ENABLE_HIP = "OFF"
"""
    assert _rules("packaging/backend-cuda/pyproject.toml", source) == {"build.nvcc"}
    assert _layers("packaging/backend-cuda/pyproject.toml", source) == {
        "vendor-path": 1,
        "portable": 2,
    }


def test_proteus_spack_ci_job_for_rocm() -> None:
    # tests/spack/hip/ci-test-spack.sh: Lmod's `ml load rocm/...`, then a Spack spec with the
    # ROCm variant and an AMD target. Before, the file was portable.
    source = b"""\
#!/bin/bash
set -e
ml load rocm/${CI_ROCM_VERSION}
spack env create -d /tmp/env
spack external find hip hsa-rocr-dev llvm-amdgpu
spack add mylib@git.${CI_COMMIT_SHA} +rocm amdgpu_target=${CI_AMDGPU_TARGET} ^hip@${CI_ROCM_VERSION}
spack install -v
"""
    assert _rules("tests/spack/hip/ci-test-spack.sh", source) == {"build.hip-offload-arch"}
    assert _layers("tests/spack/hip/ci-test-spack.sh", source) == {"vendor-path": 2, "portable": 4}


def test_proteus_jit_kernel_in_a_raw_string_is_kernel_code() -> None:
    # tests/frontend/gpu/cpp_instantiate_shmem.cpp (checked right): the kernel the JIT compiles
    # is a raw string; the host code picks the target by build guard.
    source = b"""\
#if PROTEUS_ENABLE_HIP
constexpr const char *Target = "hip";
#elif PROTEUS_ENABLE_CUDA
constexpr const char *Target = "cuda";
#endif
int main() {
  const char *Code = R"cpp(
    __global__ void plain(int *Out) {
      extern __shared__ unsigned char Shmem[];
      if (threadIdx.x == 0) {
        Shmem[0] = 11;
        Out[0] = Shmem[0];
      }
    }
  )cpp";
  return run(Target, Code);
}
"""
    layers = _layers("tests/frontend/gpu/shmem.cpp", source)
    assert 7 <= layers.get("kernel", 0) <= 9
