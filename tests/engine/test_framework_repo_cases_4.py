"""Cases from a fourth audit of GPU code inside large general frameworks (issue 27).

kaldi-asr/kaldi (cudamatrix, cudafeat, cudadecoder and its recipe scripts), colmap/colmap
(mvs and the vendored SiftGPU) and PointCloudLibrary/pcl (gpu/, cuda/). Each snippet is a
small rewrite of a pattern found in the repository its test names; the expected layers are
what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers


def test_kaldi_recipe_message_naming_nvcc_is_portable() -> None:
    # kaldi-asr/kaldi egs/*/local/chain/tuning/run_tdnn_*.sh (about 750 scripts): the recipe
    # stops with a here-document saying where "nvcc" is installed, or echoes the same advice.
    # Neither runs nvcc: the scripts drive Kaldi's binaries, which build for CUDA or ROCm.
    source = b"""\
#!/usr/bin/env bash
set -e
stage=0
. ./cmd.sh
. ./utils/parse_options.sh

if ! cuda-compiled; then
  cat <<EOF && exit 1
This script is intended to be used with GPUs but you have not compiled Kaldi with CUDA
If you want to use GPUs (and have them), go to src/, and configure and make on a machine
where "nvcc" is installed.
EOF
fi
if [ $stage -le 1 ]; then
  echo "$0: the GPUs and have nvcc installed, go to src/ and do ./configure; make"
  steps/nnet3/chain/train.py --use-gpu=wait --dir exp/chain/tdnn1a
fi
"""
    assert _layers("egs/swbd/s5c/local/chain/tuning/run_tdnn_1a.sh", source) == {"portable": 15}


def test_kaldi_recipe_that_probes_for_nvcc_stays_vendor_path() -> None:
    # kaldi-asr/kaldi egs/babel/s5/run-2b-bnf.sh: the script itself runs `which nvcc` and
    # nvidia-smi and stops without them, an NVIDIA-only code path; only its messages are prose.
    source = b"""\
if ! which nvcc; then
  echo "The command nvcc could not be found on the path: please make sure it is on"
  exit 1
fi
if ! nvidia-smi; then
  echo "The command nvidia-smi was not found: this probably means you don't have a GPU."
  exit 1
fi
"""
    assert _layers("egs/babel/s5/run-2b-bnf.sh", source) == {"vendor-path": 2, "portable": 6}


def test_kaldi_cuda_kernels_built_for_hip_through_a_shim_count_as_kernels() -> None:
    # kaldi-asr/kaldi src/cudafeat/*-kernels.cu: CUDA kernels that hipcc builds too, through
    # `#ifdef __IS_HIP_COMPILE__ #include "hipify.h"`; the kernels and their __device__
    # helpers are kernel code, the launch wrapper is the launch.
    source = b"""\
#ifdef __IS_HIP_COMPILE__
#include <hipcub/hipcub.hpp>
#include "hipify.h"
#else
#include <cub/cub.cuh>
#endif

__host__ __device__ inline float2 operator+(const float2 &a, const float2 &b) {
  return make_float2(a.x + b.x, a.y + b.y);
}

__global__ void compute_stats_kernel(const float *data, int ldd, int n, float2 *stats) {
  typedef cub::BlockScan<float2, 1024> BlockScan;
  __shared__ typename BlockScan::TempStorage temp;
  float2 running = {0.0f, 0.0f};
  for (int r = 0; r < n; r += blockDim.x) {
    int rid = r + threadIdx.x;
    float v = rid < n ? data[rid * ldd + blockIdx.x] : 0.0f;
    float2 psum, total;
    BlockScan(temp).InclusiveSum(make_float2(v, v * v), psum, total);
    if (rid < n) stats[rid] = psum + running;
    running = running + total;
  }
}

void ComputeStats(const float *data, int ldd, int n, int dim, float2 *stats) {
  compute_stats_kernel<<<dim, 1024>>>(data, ldd, n, stats);
}
"""
    layers = _layers("src/cudafeat/feature-online-cmvn-cuda.cu", source)
    assert layers["kernel"] == 16
    assert layers["portable"] == 6


def test_colmap_texture_fetch_macro_is_kernel_code() -> None:
    # colmap/colmap src/thirdparty/SiftGPU/ProgramCU.cu: a macro that only the keypoint
    # kernel expands reads three texels with tex1Dfetch<float>; the whole macro is device
    # code, as the kernel that expands it is.
    source = b"""\
#define READ_CMP_DOG_DATA(datai, tex, idx) \\
        datai[0] = tex1Dfetch<float>(tex, idx - 1);\\
        datai[1] = tex1Dfetch<float>(tex, idx);\\
        datai[2] = tex1Dfetch<float>(tex, idx + 1);\\
        if (v > nmax) {\\
            nmax = max(nmax, datai[0]);\\
            if (v < nmax) goto key_finish;\\
        }

void __global__ ComputeKEY_Kernel(cudaTextureObject_t texC, float4 *d_key, int width) {
    float data[3], v, nmax = 0.0f;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    v = tex1Dfetch<float>(texC, idx);
    READ_CMP_DOG_DATA(data, texC, idx);
key_finish:
    d_key[idx] = make_float4(v, nmax, 0, 0);
}
"""
    assert _layers("src/thirdparty/SiftGPU/ProgramCU.cu", source) == {"kernel": 16}


def test_colmap_own_gpumat_template_is_not_opencv() -> None:
    # colmap/colmap src/colmap/mvs/patch_match_cuda.h: GpuMat<T> is colmap's own CUDA buffer
    # (mvs/gpu_mat.h), built for ROCm too through util/cuda_to_hip.h; OpenCV's GpuMat is no
    # template. The host class that holds such buffers is portable.
    source = b"""\
#include "colmap/mvs/gpu_mat.h"
#include "colmap/util/cuda_to_hip.h"

namespace colmap {
namespace mvs {
class PatchMatchCuda {
 public:
  void Run();
 private:
  std::unique_ptr<GpuMat<float>> depth_map_;
  std::unique_ptr<GpuMat<float>> normal_map_;
  std::unique_ptr<GpuMat<uint8_t>> consistency_mask_;
};
}  // namespace mvs
}  // namespace colmap
"""
    report = classify("src/colmap/mvs/patch_match_cuda.h", source)
    assert not report.findings


def test_opencv_gpumat_still_reads_as_opencv_cuda() -> None:
    # The same members typed with OpenCV's cv::cuda classes (opencv_contrib's cuda modules);
    # core/cuda.hpp itself is in every OpenCV build, so the include stays portable.
    source = b"""\
#include <opencv2/core/cuda.hpp>
class Matcher {
  cv::cuda::GpuMat descriptors_;
  cv::cuda::Stream stream_;
};
"""
    assert _layers("src/matcher.h", source) == {"vendor-path": 2, "portable": 3}


def test_pcl_device_functor_struct_counts_its_device_members() -> None:
    # PointCloudLibrary/pcl gpu/octree/src/cuda/octree_builder.cu: a functor whose members are
    # __device__ functions, run by a one-line __global__ kernel. Pinned: the member functions
    # and the kernel are kernel code; the struct's header and data members stay portable.
    source = b"""\
struct SingleStepBuild {
  const int* codes;
  int points_number;

  __device__ __forceinline__ int divUp(int total, int grain) const {
    return (total + grain - 1) / grain;
  }
  __device__ __forceinline__ void operator()() const {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < points_number) divUp(codes[i], 8);
  }
};

__global__ void singleStepKernel(const SingleStepBuild ssb) { ssb(); }
"""
    assert _layers("gpu/octree/src/cuda/octree_builder.cu", source) == {"kernel": 8, "portable": 4}


def test_opencv_cudacodec_video_codec_sdk_is_vendor_library() -> None:
    # opencv/opencv_contrib modules/cudacodec/src/NvEncoder.cpp and frame_queue.hpp: NVENC
    # through nvEncodeAPI.h and NVDEC's parser structures; the host code around them stays
    # portable, the SDK's calls and types are NVIDIA's library.
    source = b"""\
#include "nvEncodeAPI.h"
#include <vector>

void NvEncoder::CreateEncoder(const NV_ENC_INITIALIZE_PARAMS* params) {
    if (!m_hEncoder)
        return;
    m_nvenc.nvEncInitializeEncoder(m_hEncoder, const_cast<NV_ENC_INITIALIZE_PARAMS*>(params));
    m_nEncoderBuffer = m_nExtraOutputDelay + 1;
}

class FrameQueue {
    std::vector<CUVIDPARSERDISPINFO> displayQueue_;
    int maxSz_ = 0;
};
"""
    assert _layers("modules/cudacodec/src/NvEncoder.cpp", source) == {
        "vendor-library": 4,
        "portable": 8,
    }


def test_pcl_ncv_staging_functions_are_not_npp() -> None:
    # PointCloudLibrary/pcl gpu/people/src/cuda/nvidia/NPP_staging.hpp: NVIDIA's NCV staging
    # code, vendored with its kernels, names its own host entry points nppiSt*/nppsSt*;
    # declaring or calling them is a call into the repository, not into NPP. The CUDA stream
    # in a signature is the vendor part.
    source = b"""\
#include "NCV.hpp"

cudaStream_t nppStSetActiveCUDAstream(cudaStream_t cudaStream);
NCVStatus nppiStIntegral_8u32u_C1R(Ncv8u *d_src, Ncv32u srcStep, Ncv32u *d_dst,
                                   Ncv32u dstStep, NcvSize32u roiSize, Ncv8u *pBuffer);
NCVStatus nppsStCompact_32u(Ncv32u *d_src, Ncv32u srcLen, Ncv32u *d_dst, Ncv32u *p_dstLen);
"""
    report = classify("gpu/people/src/cuda/nvidia/NPP_staging.hpp", source)
    assert {f.rule for f in report.findings} == {"cuda.runtime"}


def test_kaldi_cu_file_switching_on_its_hip_build_stays_cuda() -> None:
    # kaldi-asr/kaldi src/cudadecoder/batched-static-nnet3-kernels.cu: nvcc builds it by
    # default; only `#ifdef __IS_HIP_COMPILE__` brings in the HIP runtime and the hipify.h
    # shim. Written for both vendors, it is CUDA with a HIP branch, not AMD-only HIP code.
    source = b"""\
#include "cudadecoder/batched-static-nnet3-kernels.h"
#ifdef __IS_HIP_COMPILE__
#include "hip/hip_runtime.h"
#include "hipify.h"
#endif

__global__ void save_context_kernel(Params params) {
  for (int slot = blockIdx.z; slot < params.batch_size; slot += gridDim.z)
    params.out[slot * blockDim.x + threadIdx.x] = params.in[slot];
}

void SaveContext(const dim3 &grid, const dim3 &block, const cudaStream_t &stream,
                 const Params &params) {
  save_context_kernel<<<grid, block, 0, stream>>>(params);
}
"""
    report = classify("src/cudadecoder/batched-static-nnet3-kernels.cu", source)
    assert report.language == "CUDA"
    assert report.ecosystems["cuda"] > report.ecosystems.get("hip", 0)
    assert _layers("src/cudadecoder/batched-static-nnet3-kernels.cu", source)["kernel"] == 4
