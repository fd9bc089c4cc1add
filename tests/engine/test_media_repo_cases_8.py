"""Cases seen in the eighth audit round: media, vision and signals (LizardByte/Sunshine,
ledatelescope/bifrost, astra-toolbox/astra-toolbox, CERN/TIGRE, k2-fsa/k2, open-mmlab/OpenPCDet,
alicevision/popsift).

Each snippet is a small rewrite, in our own words, of a pattern found there; the repository is
named per test. They pin the verdict a porting engineer gives the file: its language, whether
it holds vendor-locked lines, and for kernel code how many lines.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers


def _rules(path: str, source: bytes) -> set[str]:
    return {f.rule for f in classify(path, source).findings}


# -- k2-fsa/k2: lambdas handed to K2_EVAL, the macro adding [=] __device__ ---------------------


def test_k2_eval_lambda_body_in_a_cu_file_is_device_code() -> None:
    # k2/csrc/fsa.cu: the macro gets the parameter list, the return type and the body; it
    # builds a host loop for the CPU context and a __device__ lambda for the GPU one.
    source = b"""\
#include "k2/csrc/fsa.h"

void GetArcFlags(ContextPtr c, const Arc *arcs_data, int32_t num_arcs,
                 int32_t *flags_data) {
  NVTX_RANGE(K2_FUNC);
  K2_EVAL(
      c, num_arcs, lambda_get_flags, (int32_t idx012)->void {
        Arc arc = arcs_data[idx012];
        int32_t flag = 0;
        if (arc.label == 0) flag |= 1;
        if (arc.dest_state <= arc.src_state) flag |= 2;
        flags_data[idx012] = flag;
      });
  CheckFlags(flags_data, num_arcs);
}
"""
    assert "cuda.macro-lambda-body" in _rules("k2/csrc/fsa.cu", source)
    assert _layers("k2/csrc/fsa.cu", source)["kernel"] == 8


def test_k2_eval2_lambda_without_a_return_type_is_device_code() -> None:
    # k2/csrc/rnnt_decode.cu: `(int32_t row, int32_t col) {` with no `-> void`, the body
    # opening the line's last brace.
    source = b"""\
void SetContexts(ContextPtr c_, int32_t n, int32_t len, int32_t *ctx_data) {
  K2_EVAL2(
      c_, n, len, lambda_set_contexts,
      (int32_t row, int32_t col) {
        ctx_data[row * len + col] = row + col;
      });
}
"""
    assert _layers("k2/csrc/rnnt_decode.cu", source) == {"kernel": 5, "portable": 2}


def test_k2_inline_header_with_device_code_counts_its_macro_lambdas() -> None:
    # k2/csrc/ragged_ops_inl.h: included by the .cu files; it declares __host__ __device__
    # helpers, so nvcc compiles it and its K2_EVAL bodies run on the GPU.
    source = b"""\
template <typename T>
__host__ __device__ inline T Clamp(T x, T lo) { return x < lo ? lo : x; }

template <typename T>
void ClampAll(ContextPtr c, int32_t n, T *data, T lo) {
  K2_EVAL(
      c, n, lambda_clamp, (int32_t i)->void {
        data[i] = Clamp(data[i], lo);
      });
}
"""
    assert "cuda.macro-lambda-body-header" in _rules("k2/csrc/ragged_ops_inl.h", source)
    assert _layers("k2/csrc/ragged_ops_inl.h", source)["kernel"] == 6


def test_k2_host_code_with_trailing_returns_and_compound_literals_stays_portable() -> None:
    # A .cu file's host helpers: a capturing lambda, a trailing-return function, a compound
    # literal argument and a wrapped condition are no macro-made lambdas.
    source = b"""\
auto twice = [](int32_t i) -> int32_t { return 2 * i; };
auto next_of(Node *n) -> Node * { return n->next; }
void Store(float2 *out, float x, float y) {
  Put(out, (float2){x, y});
  if (x > 0 &&
      (y > 0)) {
    Flush(out);
  }
}
"""
    assert _layers("k2/csrc/host_utils.cu", source) == {"portable": 9}


# -- alicevision/popsift: FindCUDA-era CMake and Windows CI ------------------------------------


def test_popsift_findcuda_macros_in_upper_case_are_a_cuda_build() -> None:
    # src/CMakeLists.txt: CMake commands are case-insensitive; FindCUDA's library variables.
    source = b"""\
CUDA_ADD_LIBRARY(popsift sift_pyramid.cu sift_octave.cu)
target_include_directories(popsift PUBLIC ${CUDA_INCLUDE_DIRS})
target_link_libraries(popsift ${CUDA_CUDADEVRT_LIBRARY} ${CUDA_CUBLAS_LIBRARIES})
list(APPEND PD_LINK_LIBS ${CUDA_NVTX_LIBRARY})
"""
    assert _layers("src/CMakeLists.txt", source) == {"vendor-path": 3, "portable": 1}


def test_popsift_appveyor_script_installing_the_cuda_toolkit_is_a_cuda_build() -> None:
    # cudaInstallAppveyor.cmd: downloads NVIDIA's installer, then checks nvcc.
    source = b"""\
@echo off
echo Downloading CUDA toolkit 9
appveyor DownloadFile https://developer.nvidia.com/compute/cuda/9.1/Prod/cuda_9.1_win -FileName c
c.exe -s nvcc_9.1 cublas_9.1 cudart_9.1
nvcc -V
"""
    report = classify("cudaInstallAppveyor.cmd", source)
    assert report.language == "Batch"
    # the download and the nvcc run; the installer's component list (nvcc_9.1 ...) is not read
    assert report.ecosystems == {"cuda": 2}


def test_popsift_dockerfile_on_a_cuda_tagged_base_image() -> None:
    # Dockerfile: the deps image is chosen by a CUDA version argument.
    source = b"""\
ARG CUDA_TAG=10.2
ARG OS_TAG=18.04
FROM alicevision/popsift-deps:cuda${CUDA_TAG}-ubuntu${OS_TAG}
COPY . /opt/popsift
RUN cmake .. && make install
"""
    assert _layers("Dockerfile", source) == {"vendor-path": 1, "portable": 4}


# -- CERN/TIGRE: MATLAB's mex set up for nvcc --------------------------------------------------


def test_tigre_matlab_compile_script_configuring_mex_for_nvcc() -> None:
    # MATLAB/Compile.m and Utilities/Setup/*.m: the mex_CUDA configuration, nvcc's -gencode list
    # and the toolkit's path; the plain C++ mex build of a file reader is portable.
    source = b"""\
function Compile()
cuda_path = getenv('CUDA_PATH');
[status, cmout] = system([cuda_path, '/bin/nvcc -V']);
if ispc
    mex -setup:'mex_CUDA_win64.xml'
end
A{2} = '        COMPFLAGS=" -gencode=arch=compute_80,code=sm_80 --default-stream per-thread"';
mex('-largeArrayDims', './Utilities/IO/mexReadXim.cpp');
disp('Compilation complete');
end
"""
    report = classify("MATLAB/Compile.m", source)
    assert report.language == "MATLAB"
    assert _layers("MATLAB/Compile.m", source) == {"vendor-path": 4, "portable": 6}


def test_tigre_gpu_array_helpers_stay_matlab_gpu() -> None:
    # MATLAB/Utilities/IO/VarianCBCT/LogNormal.m: gpuArray puts the work on an NVIDIA GPU.
    source = b"""\
function proj = LogNormal(proj, airnorm)
proj = gpuArray(single(proj));
proj = log(airnorm ./ proj);
proj = gather(proj);
end
"""
    assert classify("MATLAB/LogNormal.m", source).ecosystems == {"matlab-gpu": 1}


def test_tigre_siddon_kernel_counts_kernel_and_constant_lines() -> None:
    # Common/CUDA/Siddon_projection.cu: a __constant__ table, a __global__ kernel, the host
    # side copying the table and launching it.
    source = b"""\
#include <cuda_runtime_api.h>
__constant__ Point3D projParamsArrayDev[36];

__global__ void vecAddInPlace(float *a, float *b, unsigned long n)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        a[idx] = a[idx] + b[idx];
}

void add(float *a, float *b, unsigned long n, cudaStream_t s)
{
    vecAddInPlace<<<(n + 1023) / 1024, 1024, 0, s>>>(a, b, n);
}
"""
    layers = _layers("Common/CUDA/Siddon_projection.cu", source)
    assert layers["kernel"] == 7
    # the include, the launch, and the host signature taking a cudaStream_t (with its brace)
    assert layers["vendor-path"] == 4


# -- LizardByte/Sunshine: NVENC loaded by name, NVAPI driver profiles, nvcc options ------------


def test_sunshine_nvenc_factory_loading_the_driver_library_is_nvidia_code() -> None:
    # src/nvenc/nvenc_dynamic_factory.cpp: the NVENC DLL and its version entry point by name.
    source = b"""\
constexpr auto nvenc_dll_name = "nvEncodeAPI64.dll";

std::shared_ptr<factory> factory::get(const runtime_api &api) {
  auto dll = api.load_driver();
  if (!dll) {
    return {};
  }
  auto get_max = api.get_symbol(dll.get(), "NvEncodeAPIGetMaxSupportedVersion");
  return get_max ? std::make_shared<factory>(std::move(dll)) : nullptr;
}
"""
    report = classify("src/nvenc/nvenc_dynamic_factory.cpp", source)
    assert "cuda-libs.video-codec-loader" in _rules("src/nvenc/nvenc_dynamic_factory.cpp", source)
    assert report.ecosystems == {"cuda": 2}


def test_sunshine_amf_and_qsv_encoder_names_are_not_nvidia() -> None:
    # src/video.cpp's other vendors' encoders are chosen by FFmpeg name; none of them is NVENC.
    source = b"""\
static const char *amd_encoders[] = {"h264_amf", "hevc_amf", "av1_amf"};
static const char *intel_encoders[] = {"h264_qsv", "hevc_qsv", "av1_qsv"};
const char *dll = "amfrt64.dll";
"""
    assert _layers("src/video.cpp", source) == {"portable": 3}


def test_sunshine_nvprefs_header_including_nvapi() -> None:
    # src/platform/windows/nvprefs/driver_settings.h: NVIDIA driver profiles through NVAPI.
    source = b"""\
#pragma once
#include "undo_data.h"
#include <nvapi.h>
#include <NvApiDriverSettings.h>
namespace nvprefs {
  class driver_settings_t;
}
"""
    assert classify("src/platform/windows/nvprefs/driver_settings.h", source).ecosystems == {
        "cuda": 2
    }


def test_sunshine_cmake_passing_nvcc_options_by_compile_language() -> None:
    # cmake/targets/common.cmake: host flags forwarded to nvcc for the CUDA sources only.
    source = b"""\
foreach(flag IN LISTS SUNSHINE_COMPILE_OPTIONS)
  list(APPEND OPTIONS_CUDA "$<$<COMPILE_LANGUAGE:CUDA>:--compiler-options=${flag}>")
endforeach()
target_compile_options(sunshine PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${SUNSHINE_COMPILE_OPTIONS}>)
"""
    assert _layers("cmake/targets/common.cmake", source) == {"vendor-path": 1, "portable": 3}


# -- ledatelescope/bifrost: autoconf's CUDA macros, a tutorial image ---------------------------


def test_bifrost_autoconf_m4_finding_nvcc_is_a_cuda_build() -> None:
    # config/cuda.m4: the AX_CHECK_CUDA macro finds nvcc and the toolkit's tools.
    source = b"""\
AC_DEFUN([AX_CHECK_CUDA],
[
  AC_SUBST([HAVE_CUDA], [0])
  if test "$enable_cuda" != "no"; then
    AC_PATH_PROG(NVCC, nvcc, no, [$CUDA_HOME/bin:$PATH])
    AC_PATH_PROG(CUOBJDUMP, cuobjdump, no, [$CUDA_HOME/bin:$PATH])
  fi
])
"""
    report = classify("config/cuda.m4", source)
    assert report.language == "m4"
    assert report.ecosystems == {"cuda": 2}


def test_bifrost_tutorial_dockerfile_base_image_from_an_argument() -> None:
    # tutorial/docker/Dockerfile: FROM $BASE_CONTAINER, whose default is NVIDIA's CUDA image.
    source = b"""\
ARG BASE_CONTAINER=nvidia/cuda:10.1-devel-ubuntu18.04
FROM $BASE_CONTAINER
ARG LSL_USER="lwa"
RUN apt-get update && apt-get install -y python3
"""
    assert _layers("tutorial/docker/Dockerfile", source) == {"vendor-path": 1, "portable": 3}


# -- astra-toolbox/astra-toolbox: Windows provisioning, a HIP-capable FFT header ---------------


def test_astra_powershell_provisioning_the_cuda_installer() -> None:
    # build/containers/windows/provision-cuda.ps1: commented-out versions are not counted.
    source = b"""\
@(
#'https://developer.download.nvidia.com/compute/cuda/11.3.1/local_installers/cuda_11.3.1_465.89_win10.exe'
'https://developer.download.nvidia.com/compute/cuda/12.9.2/local_installers/cuda_12.9.2_576.57_windows.exe'
) | ForEach-Object {
  curl.exe -L -o cuda.exe $_
  Start-Process -Wait cuda.exe -ArgumentList "-s"
}
"""
    report = classify("build/containers/windows/provision-cuda.ps1", source)
    assert report.language == "PowerShell"
    assert report.ecosystems == {"cuda": 1}


def test_astra_fft_wrapper_choosing_cufft_or_hipfft_holds_both_vendors() -> None:
    # include/astra/cuda/gpu_fft_wrapper.h: one include per vendor build.
    source = b"""\
#ifndef ASTRA_GPU_FFT_WRAPPER_H
#define ASTRA_GPU_FFT_WRAPPER_H
#ifndef ASTRA_BUILDING_HIP
#include <cufft.h>
#else
#include <hipfft/hipfft.h>
#endif
#endif
"""
    assert classify("include/astra/cuda/gpu_fft_wrapper.h", source).ecosystems == {
        "cuda": 1,
        "hip": 1,
    }


# -- open-mmlab/OpenPCDet: numba CUDA device functions -----------------------------------------


def test_openpcdet_numba_cuda_device_functions_are_kernel_code() -> None:
    # pcdet/datasets/kitti/kitti_object_eval_python/rotate_iou.py: @cuda.jit device helpers;
    # the @numba.jit CPU helper is portable.
    source = b"""\
import numba
from numba import cuda


@numba.jit(nopython=True)
def div_up(m, n):
    return m // n + (m % n > 0)


@cuda.jit('(float32[:], float32[:], float32[:])', device=True, inline=True)
def trangle_area(a, b, c):
    return ((a[0] - c[0]) * (b[1] - c[1]) - (a[1] - c[1]) *
            (b[0] - c[0])) / 2.0
"""
    layers = _layers("pcdet/datasets/kitti/kitti_object_eval_python/rotate_iou.py", source)
    assert layers["kernel"] == 4
    assert layers["portable"] == 5
