"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h39-random-d).

The pool is ``/work/pool-h39.txt``, ordered with ``random.seed("h39-pool")``; this lane took
positions 37-48. Three could not be read (no snapshot): opentela-ai/vkernels,
tracycam/gaudi-kernels and amazingvince/gemma4-fa4-kernels. Fifteen files of each remaining
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts, and
labelled before any fix, with the files lockin calls non-portable and GPU-looking files it calls
portable; three commits touching GPU code were drawn per repository for the gate. Each snippet
is a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- flashrt-project/FlashRT-HF-kernels: one kernel-builder package per kernel ----------------


def test_flashrt_kernel_builder_build_toml_builds_for_cuda() -> None:
    # fp4-gemm/build.toml: the package builds for CUDA only, each kernel with its nvcc
    # capabilities and flags. Before, every build.toml of the repository was portable.
    source = b"""\
[general]
name = "fp4-gemm"
license = "Apache-2.0"
backends = ["cuda"]

[general.cuda]
minver = "12.8"

[torch]
include = ["csrc"]
src = ["torch-ext/torch_binding.cpp"]

[kernel.fp4_gemm_sm120]
backend = "cuda"
depends = ["torch", "cutlass_4_4"]
cuda-minver = "12.8"
cuda-capabilities = ["12.0a"]
cuda-flags = ["-O3", "--use_fast_math"]
src = ["csrc/gemm/fp4/gemm_sm120.cu"]
"""
    assert _rules("fp4-gemm/build.toml", source) == {"build.kernel-builder-cuda"}
    assert _layers("fp4-gemm/build.toml", source) == {"vendor-path": 6, "portable": 10}


def test_kernel_builder_rocm_kernel_and_a_metal_one() -> None:
    # The same file format for AMD: a ROCm kernel's backend and gfx list; a Metal kernel beside
    # it is another vendor's build, Apple's (build.kernel-builder-metal, lane h39-random-b).
    source = b"""\
[kernel.activation_rocm]
backend = "rocm"
rocm-archs = ["gfx90a", "gfx942"]
src = ["activation/kernels.cu"]

[kernel.activation_metal]
backend = "metal"
src = ["activation/kernels.metal"]
"""
    assert _rules("activation/build.toml", source) == {
        "build.kernel-builder-rocm",
        "build.kernel-builder-metal",
    }
    assert _layers("activation/build.toml", source)["vendor-path"] == 3


# -- thunlp/TritonBench: Triton kernels and their benchmarks ----------------------------------


def test_tritonbench_launcher_pins_each_script_to_a_gpu() -> None:
    # performance_metrics/perf_G/run_bench/multiprocess_gpu_run.py: a pool of workers, each
    # running one benchmark script on the GPU its index names. Before, it was portable.
    source = b"""\
import os
from multiprocessing import Pool

gpu_count = 8


def run_script(args):
    gpu_id, script = args
    cmd = f"CUDA_VISIBLE_DEVICES={gpu_id} python {script}"
    return os.system(cmd)


def main(scripts):
    with Pool(processes=gpu_count) as pool:
        pool.map(run_script, [(i % gpu_count, s) for i, s in enumerate(scripts)])
"""
    assert _rules("run_bench/multiprocess_gpu_run.py", source) == {"env.cuda-variables-python"}
    assert _layers("run_bench/multiprocess_gpu_run.py", source)["vendor-path"] == 1


def test_tritonbench_messages_naming_the_variable_stay_portable() -> None:
    # The negative: help text that shows the assignment, and a command that empties it.
    source = b"""\
import os

print("set CUDA_VISIBLE_DEVICES=0 to pick a GPU")
os.system("CUDA_VISIBLE_DEVICES= python run_on_cpu.py")
"""
    assert _layers("run_bench/help.py", source) == {"portable": 3}


def test_tritonbench_benchmark_that_moves_nothing_to_the_gpu_is_portable() -> None:
    # performance_metrics/perf_G/golden_metrics/nested_loops_processing_perf.py: imports
    # Triton for the harness, and its to_cuda hook hands the shape tuple back unchanged. Checked
    # right before any fix; its siblings calling .cuda() are vendor paths.
    source = b"""\
import triton
import triton.language as tl
from performance_utils import Performance_Metrics


class performance_metrics(Performance_Metrics):
    def get_input_tensors(self):
        self.input_tensors = [(2 ** i, 4) for i in range(12, 24)]

    def to_cuda(self, input_tensor):
        return input_tensor
"""
    assert _layers("golden_metrics/nested_loops_processing_perf.py", source) == {"portable": 8}


# -- oneapi-src/oneAPI-samples: SYCL samples and their Visual Studio projects -----------------


def test_oneapi_samples_vcxproj_with_the_dpcpp_toolset() -> None:
    # StructuredGrids/guided_iso3dfd_GPUOptimization/VSProjects/*/*.vcxproj: the Windows build
    # of each sample picks Intel's DPC++ toolset and sets its SYCL warning level. Before, all 26
    # such projects were portable.
    source = b"""\
<?xml version="1.0" encoding="utf-8"?>
<Project DefaultTargets="Build" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <PropertyGroup Condition="'$(Configuration)|$(Platform)'=='Debug|x64'" Label="Configuration">
    <ConfigurationType>Application</ConfigurationType>
    <PlatformToolset>Intel(R) oneAPI DPC++ Compiler 2024</PlatformToolset>
  </PropertyGroup>
  <ItemDefinitionGroup Condition="'$(Configuration)|$(Platform)'=='Debug|x64'">
    <ClCompile>
      <SYCLWarningLevel>Level3</SYCLWarningLevel>
    </ClCompile>
  </ItemDefinitionGroup>
  <ItemGroup>
    <ClCompile Include="..\\..\\src\\iso3dfd.cpp" />
  </ItemGroup>
</Project>
"""
    assert _rules("VSProjects/2_GPU_basic/2_GPU_basic.vcxproj", source) == {"build.msbuild-sycl"}
    assert _layers("VSProjects/2_GPU_basic/2_GPU_basic.vcxproj", source)["vendor-path"] == 2


# -- ROCm/hipDNN: one API over MIOpen and cuDNN ------------------------------------------------


def test_hipdnn_test_naming_the_library_types_is_a_rocm_library() -> None:
    # test/test_convolution_forward_backward.cpp: the test declares hipDNN's data type and
    # pooling mode before calling the suite's helpers. Before, it was portable.
    source = b"""\
#include "test_convolution_common.hpp"

hipdnnDataType_t dataType = HIPDNN_DATA_FLOAT;
hipdnnPoolingMode_t poolMode = HIPDNN_POOLING_MAX;

TEST(convolution_fwd_bwd, func_check) {
  Desc inputDesc(1, 3, 16, 16);
  Desc filterDesc(1, 3, 3, 3);
  compute_hipdnn_conv_forward<float>(sizes, src.gpu(), filter.gpu(), dst.gpu(), &avg_time);
}
"""
    assert _rules("test/test_convolution_forward_backward.cpp", source) == {"hip.library"}
    assert _layers("test/test_convolution_forward_backward.cpp", source)["vendor-library"] == 2


def test_hipdnn_test_calling_only_its_own_helpers_stays_portable() -> None:
    # test/test_convolution_backward_filter.cpp: descriptors and the suite's helper, named
    # after the library but no call of it. Checked right before any fix.
    source = b"""\
#include "test_convolution_common.hpp"

TEST(convolution_bwd_filter, func_check_backward_conv_filter) {
  Desc inputDesc(1, 3, 30, 30);
  Desc filterDesc(1, 3, 5, 5);
  int pad[2] = {0, 0};
  Test_convolution_bwd_filter<float>(inputDesc, filterDesc, pad, "bwd_filter", 1.f, 0.f);
  compute_hipdnn_conv_backward_filter<float>(sizes, src.gpu(), grad.gpu(), &avg_time);
}
"""
    assert _layers("test/test_convolution_backward_filter.cpp", source) == {"portable": 8}


# -- shader-slang/slangpy: Slang from Python ---------------------------------------------------


def test_slangpy_function_from_a_source_string_is_device_code() -> None:
    # slangpy/tests/slangpy_tests/test_simple_function_call.py: each test compiles a small
    # Slang function from a raw string. Before, the file was portable.
    source = b'''\
import slangpy as spy
from slangpy.testing import helpers


def test_returnvalue(device_type):
    device = helpers.get_device(device_type)
    function = helpers.create_function_from_module(
        device,
        "add_numbers",
        r"""
int add_numbers(int a, int b) {
    return a+b;
}
""",
    )
    assert function(5, 10) == 15
'''
    assert _rules("tests/test_simple_function_call.py", source) == {"slang.source-argument"}
    layers = _layers("tests/test_simple_function_call.py", source)
    assert layers["kernel"] == 6  # the function's name and its four lines of Slang


def test_slangpy_module_constant_loaded_from_source() -> None:
    # slangpy/tests/slangpy_tests/test_call_group_integrations.py: a module's Slang kept in a
    # constant, then compiled with helpers.create_module; the loop that calls it is host code.
    source = b'''\
from slangpy.testing import helpers

KERNEL = """
import "slangpy";
float scale(float a, uint2 cell) {
    return a * float(cell.x + 1);
}
"""


def make_module(device):
    return helpers.create_module(device, KERNEL)
'''
    layers = _layers("tests/test_call_group_integrations.py", source)
    assert layers["kernel"] == 6
    assert layers["portable"] == 3


def test_slangpy_module_loaded_from_a_file_is_host_code() -> None:
    # examples: a module read from a .slang file; the .slang file is the device code.
    source = b"""\
import slangpy as spy

device = spy.create_device()
module = spy.Module.load_from_file(device, "add.slang")
print(module.add(1.0, 2.0))
"""
    assert _layers("examples/add.py", source) == {"portable": 4}


def test_slangpy_skipping_the_cuda_device_is_portable() -> None:
    # slangpy/tests/device/test_torch_interop.py: a test that skips the CUDA back end, and one
    # that asks whether the device shares memory with CUDA, pick no vendor. Checked right.
    source = b"""\
import pytest
import slangpy as spy


def test_buffer_roundtrip(device_type):
    if device_type == spy.DeviceType.cuda:
        pytest.skip("Not tested with CUDA device")
    device = spy.create_device(device_type)
    buffer = device.create_buffer(size=64, usage=spy.BufferUsage.shared)
    assert buffer.size == 64
"""
    assert _layers("tests/device/test_buffer.py", source) == {"portable": 8}


# -- arporter/psycloned_nemo: NEMO with OpenACC KERNELS regions --------------------------------


def test_psycloned_nemo_openacc_kernels_region_is_portable() -> None:
    # solfrac_mod.f90: PSyclone's OpenACC KERNELS region around a loop; OpenACC directives are
    # vendor-neutral. Checked right: all fifteen sampled files are portable.
    source = b"""\
MODULE solfrac_mod
  USE par_kind
  IMPLICIT NONE
  CONTAINS
  REAL(KIND = dp) FUNCTION solfrac(ptop, pbottom)
    REAL(KIND = wp), INTENT(IN) :: ptop, pbottom
    INTEGER :: jt
    !$ACC KERNELS
    solfrac = 0._wp
    DO jt = 1, 9
      solfrac = solfrac + EXP(- ptop / jt) - EXP(- pbottom / jt)
    END DO
    !$ACC END KERNELS
  END FUNCTION
END MODULE solfrac_mod
"""
    assert _layers("solfrac_mod.f90", source) == {"portable": 13}


# -- Qwicen/cuda_hlt: LHCb's GPU trigger -------------------------------------------------------


def test_cuda_hlt_constant_memory_table_is_kernel_code() -> None:
    # cuda/kalman/ParKalman/include/ParKalmanDefinitions.cuh: a __constant__ table among
    # plain constants and structs. Checked right: the table is device memory, the rest portable.
    source = b"""\
#pragma once
#include "ParKalmanMath.cuh"

namespace ParKalmanFilter {
  __constant__ static float F_diag[4] = {1, 0, 0, 1};
  const int nMaxMeasurements = 41;
  struct FittedTrack {
    float chi2;
    unsigned ndof;
  };
}
"""
    layers = _layers("ParKalmanDefinitions.cuh", source)
    assert layers["kernel"] == 1
    assert "vendor-path" not in layers


def test_slangpy_test_fixture_on_the_cuda_device_is_a_vendor_path() -> None:
    # slangpy/tests/slangpy_tests/test_load_image.py: every test of the module runs on a device
    # the fixture creates as CUDA. Before, the file was portable; the skip and the list of all
    # back ends beside it stay so.
    source = b"""\
import pytest
import slangpy as spy
from slangpy.testing import helpers

ALL_TYPES = [spy.DeviceType.vulkan, spy.DeviceType.cuda]


@pytest.fixture(scope="module")
def device():
    try:
        return helpers.get_device(spy.DeviceType.cuda)
    except Exception as exc:
        pytest.skip(f"CUDA device unavailable: {exc}")
"""
    assert _rules("tests/test_load_image.py", source) == {"slang.cuda-device"}
    assert _layers("tests/test_load_image.py", source)["vendor-path"] == 1
