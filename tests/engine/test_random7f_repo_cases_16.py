"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-f).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 370-377, all eight with a snapshot and counted files, none skipped:
simon-schlepphorst/KokkosDslashWorkspace, ykafia/SdslSpirvBackend, trevnorris/toy_physics,
daxmawal/StarPU-Inference-Server, micmelesse/cublasgemm-benchmark, matter-labs/zksync,
CFDEMproject/LIGGGHTS-PUBLIC and gsimone/r3f-raymarching. Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled before
any fix, with the files lockin calls non-portable (up to 20, drawn the same way), GPU-looking
files it calls portable (up to 10) and the GPU-looking files it gives no language; three
commits touching GPU code were drawn with ``random.Random("owner/name:commits")``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ykafia/SdslSpirvBackend: a SPIR-V back end for Stride's shading language ----------------


def test_stride_sdsl_shader_files_are_kernel_code() -> None:
    # TestStrideSpirv/Shaders/SDSL/*.sdsl: Stride shader classes (HLSL with streams and
    # mixins). Before, no language: never counted, and the two sampled commits that added
    # shader code to them passed the gate.
    source = b"""\
shader VertexStreams : BaseStreams
{
    stage stream float Depth;

    stage void VSMain()
    {
        float2 offset = float2(0, 1);
        streams.Depth = offset.y;
    }
};
"""
    report = classify("TestStrideSpirv/Shaders/SDSL/VertexStreams.sdsl", source)
    assert report.language == "SDSL"
    assert _layers("TestStrideSpirv/Shaders/SDSL/VertexStreams.sdsl", source) == {"kernel": 9}
    assert _rules("Effects/Lighting.xksl", source) == {"hlsl.shader-file"}


# -- trevnorris/toy_physics: superfluid simulations on NumPy or CuPy -----------------------------


def test_cupy_bound_to_an_array_module_name_counts() -> None:
    # scripts/mhd/length_loss.py (and quantum_vortex_reconnection*.py): the optional import
    # binds CuPy to xp, and every array call goes through xp. Before, portable: the only
    # spelling the rule knew was cp.<name>.
    source = b"""\
import numpy as np

try:
    import cupy as cp
    xp = cp
    use_gpu = True
except ImportError:
    xp = np
    use_gpu = False


def to_host(a):
    if use_gpu:
        return a.get()
    return a


grid = xp.linspace(-8.0, 8.0, 128)
spectrum = xp.fft.fftn(grid)
"""
    assert _rules("scripts/mhd/length_loss.py", source) == {"cupy.api"}
    assert _layers("scripts/mhd/length_loss.py", source) == {"vendor-path": 1, "portable": 13}


def test_cupy_chosen_in_one_line_counts_and_a_numpy_fallback_does_not() -> None:
    # The same choice written as one conditional, beside a module that only compares.
    source = b"""\
import numpy
try:
    import cupy
except ImportError:
    cupy = None
xp = cupy if cupy is not None else numpy
same = xp is numpy
"""
    assert _layers("sim/backend.py", source) == {"vendor-path": 1, "portable": 6}


# -- simon-schlepphorst/KokkosDslashWorkspace: build scripts per machine for a Kokkos Dslash ----


def test_job_script_loading_the_easybuild_cuda_module_is_vendor_path() -> None:
    # runs/sbatch_jureca_gpu_nvcc.sh: JURECA's EasyBuild module is spelled CUDA. Before,
    # only a lower-case `cuda` module counted, and the script was portable.
    source = b"""\
#!/bin/bash -x
#SBATCH --nodes=1
#SBATCH --gres=gpu:1 --partition=dc-gpu
module load CUDA
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK}
srun --exclusive --cpu-bind=none "$@"
"""
    assert _rules("runs/sbatch_jureca_gpu_nvcc.sh", source) == {"build.nvcc"}
    assert _layers("runs/sbatch_jureca_gpu_nvcc.sh", source) == {"vendor-path": 1, "portable": 2}


def test_env_file_loading_a_versioned_cuda_module_is_vendor_path() -> None:
    # env_qcd14g0101.sh: `module load cuda10.0`, the version glued to the name; the other
    # modules and plain compiler flags are portable.
    source = b"""\
module load gcc-6.3.0
module load cmake-3.13.4
module load cuda10.0
PK_CXX="g++"
PK_CXXFLAGS="-g -O3 -fopenmp -march=native"
"""
    assert _layers("env_qcd14g0101.sh", source) == {"vendor-path": 1, "portable": 4}
    assert _layers("env_cpu.sh", source.replace(b"module load cuda10.0\n", b"")) == {"portable": 4}


def test_build_script_switching_on_the_kokkos_sycl_back_end_is_vendor_path() -> None:
    # build_kokkos_dslash_sycl.sh: the SYCL twin of build_kokkos_dslash_cuda.sh and _hip.sh,
    # whose -DKokkos_ENABLE_CUDA/HIP=ON lines counted. Before, portable.
    source = b"""\
source ./env.sh
CXX="${PK_CXX}" cmake \\
    -DKOKKOS_ENABLE_OPENMP="OFF" \\
    -DKOKKOS_ENABLE_SYCL="ON" \\
    -DMG_USE_AVX2=OFF \\
    -DMG_USE_SYCL=ON \\
    ${SRCDIR}/KokkosDslash
"""
    assert _rules("build_kokkos_dslash_sycl.sh", source) == {"build.sycl-flags"}
    assert _layers("build_kokkos_dslash_sycl.sh", source) == {"vendor-path": 2, "portable": 5}


# -- daxmawal/StarPU-Inference-Server: a gRPC inference server on StarPU's CPU and CUDA workers --


def test_device_enum_printed_or_compared_in_a_test_is_portable() -> None:
    # tests/unit/utils/unit_datatype_utils.cpp: a test of the enum's names. Before, 2
    # vendor-path lines of cuda.backend-enum-choice, though nothing runs on a GPU.
    source = b"""\
#include "utils/device_type.hpp"

TEST(DeviceTypeNames, KnownValues)
{
  EXPECT_STREQ(
      starpu_server::to_string(starpu_server::DeviceType::CPU), "CPU");
  EXPECT_STREQ(
      starpu_server::to_string(starpu_server::DeviceType::CUDA), "CUDA");
  EXPECT_EQ(job->get_executed_on(), starpu_server::DeviceType::CUDA);
}
"""
    assert _layers("tests/unit/utils/unit_datatype_utils.cpp", source) == {"portable": 9}


def test_device_enum_handed_to_a_setter_still_counts() -> None:
    # The rule's own case in the same repository: a CUDA device chosen for a call.
    source = b"""\
void run(Job& job)
{
  job.set_device(starpu_server::DeviceType::CUDA);
}
"""
    assert _rules("src/core/run.cpp", source) == {"cuda.backend-enum-choice"}


def test_test_fixture_switching_cuda_workers_on_is_vendor_path() -> None:
    # tests/integration/starpu/integration_starpu_setup.cpp (and the robustness and gRPC
    # tests): the fixture needs a CUDA device and turns the CUDA workers on. Before, portable.
    source = b"""\
class StarPUSetupFixture : public ::testing::Test {
 protected:
  void SetUp() override
  {
    skip_if_no_cuda();
    starpu_server::RuntimeConfig opts;
    opts.devices.use_cpu = true;
    opts.devices.use_cuda = true;
    opts.devices.ids = {0};
  }
};
"""
    assert _rules("tests/integration/starpu/integration_starpu_setup.cpp", source) == {
        "cuda.backend-flag-on"
    }
    assert _layers("tests/integration/starpu/integration_starpu_setup.cpp", source) == {
        "vendor-path": 1,
        "portable": 10,
    }


def test_cuda_option_switched_off_or_read_is_portable() -> None:
    # tests/integration/core/integration_warmup_runner.cpp: the CPU-only runs.
    source = b"""\
void configure(Fixture& fixture)
{
  fixture.opts.devices.use_cuda = false;
  if (!fixture.opts.devices.use_cuda) {
    fixture.models_gpu.clear();
  }
}
"""
    assert _layers("tests/integration/core/integration_warmup_runner.cpp", source) == {
        "portable": 7
    }


# -- CFDEMproject/LIGGGHTS-PUBLIC: LIGGGHTS with LAMMPS's CUDA package and GPU library ----------


def test_lammps_gpu_library_makefile_fragment_is_make() -> None:
    # lib/gpu/Nvidia.makefile: the nvcc rules every lib/gpu/Makefile.<machine> includes.
    # Before, no language: never counted.
    source = b"""\
CUDA = $(NVCC) $(CUDA_INCLUDE) $(CUDA_OPTS) $(CUDA_ARCH)
CUDA_LINK = $(CUDA_LIB) -lcudart
GPU_LIB = $(LIB_DIR)/libgpu.a

$(OBJ_DIR)/pppm.cubin: lal_pppm.cu
\t$(CUDA) --cubin -DNV_KERNEL -o $@ lal_pppm.cu
"""
    report = classify("lib/gpu/Nvidia.makefile", source)
    assert report.language == "Makefile"
    assert _rules("lib/gpu/Nvidia.makefile", source) == {"build.nvcc"}
    assert classify("src/Makefile.inc", source).language == "Makefile"


def test_lammps_cuda_host_unit_counts_its_constant_symbols_as_kernel() -> None:
    # lib/cuda/neighbor.cu (checked right): the device's __constant__ symbols are device
    # code, the cudaMemcpyToSymbol uploads and the launch are host calls to the CUDA runtime.
    source = b"""\
#include "cuda_shared.h"
__device__ __constant__ int* _ex_type;
__device__ __constant__ int _nex_type;

void Cuda_UpdateExclusions(cuda_shared_neighlist* sneighlist)
{
  cudaMemcpyToSymbol(MY_AP(nex_type), &sneighlist->nex_type, sizeof(int));
  dim3 threads(128, 1, 1);
  dim3 grid(sneighlist->bins, 1, 1);
  Exclusion_Kernel<<<grid, threads>>>();
  cudaThreadSynchronize();
}
"""
    layers = _layers("lib/cuda/neighbor.cu", source)
    assert layers["kernel"] == 2
    assert layers["vendor-path"] >= 3
