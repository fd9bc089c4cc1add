"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h53-random-m).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 1057-1063, and all seven had a snapshot and were read:
tobspr/RenderPipeline (1057, a physically based render pipeline for Panda3D, its stages in
Python and its shaders in GLSL), tensorflow/minigo (1058, an AlphaGo Zero style Go engine:
Python training, a C++ engine over TensorFlow and TensorRT, Kubernetes and Docker cluster
files), microsoft/DeepSpeed-MII (1059, DeepSpeed's model-serving library in Python),
jcisarano/tensorflow_practice (1060, TensorFlow course exercises), yjian8531/quantization
(1061, a Java Spring web service despite its name), mathematical-systems/blas-lapack-ffi
(1062, Common Lisp bindings to BLAS and LAPACK, with the LAPACK Fortran and its C wrappers
vendored) and Tencent/TurboTransformers (1063, a transformer inference runtime in C++ with
CUDA kernels, cuBLAS and MKL back ends and Python bindings). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts
and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, and three commits touching GPU
code (drawn with ``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- tensorflow/minigo: TensorFlow built from source with CUDA and TensorRT ------------------


def test_tensorflow_configure_variables_for_a_cuda_build_are_vendor_path() -> None:
    # cc/configure_tensorflow.sh answers TensorFlow's ./configure with environment variables:
    # CUDA on by default, the CUDA and cuDNN versions pinned, TensorRT on when asked. Only
    # CUDA_TOOLKIT_PATH counted; commit 2b52b2dbda (adding the TensorRT switch) passed the gate.
    source = b"""\
#!/bin/bash
set -e
read -p "Build with TensorRT? [y/N]: " answer
case $answer in
    [Yy]* ) export TF_NEED_TENSORRT=1;;
    * ) export TF_NEED_TENSORRT=0;;
esac
TF_NEED_CUDA=${TF_NEED_CUDA:-1} \\
TF_CUDA_VERSION=${TF_CUDA_VERSION:-10} \\
TF_CUDNN_VERSION=${TF_CUDNN_VERSION:-7} \\
TF_NEED_ROCM=${TF_NEED_ROCM:-0} \\
TF_NEED_MPI=${TF_NEED_MPI:-0} \\
bazel run @org_tensorflow//:configure
"""
    assert _rules("cc/configure_tf.sh", source) == {"build.nvcc"}
    # Lines 5, 8, 9 and 10; switched-off answers (TensorRT 0, ROCm 0) select nothing.
    assert _layers("cc/configure_tf.sh", source) == {"vendor-path": 4, "portable": 8}


def test_tensorflow_configure_with_gpu_switches_off_is_portable() -> None:
    # The CPU build of the same script: every GPU switch 0 or defaulting to 0.
    source = b"""\
TF_NEED_CUDA=0 \\
TF_NEED_TENSORRT=${TF_NEED_TENSORRT:-0} \\
TF_NEED_GCP=${TF_NEED_GCP:-1} \\
bazel run @org_tensorflow//:configure
"""
    assert _rules("cc/configure_cpu.sh", source) == set()
    assert _layers("cc/configure_cpu.sh", source) == {"portable": 4}


def test_tensorflow_tensorrt_op_labels_are_vendor_path() -> None:
    # cc/tensorflow/BUILD builds TF-TRT's engine ops into a shared library the engine loads
    # when TensorRT was asked for; the labels counted as portable.
    source = b"""\
config_setting(
    name = "with_trt",
    define_values = {"with_trt": "1"},
)

cc_binary(
    name = "libtrt_engine_ops.so",
    linkshared = True,
    deps = [
        "@org_tensorflow//tensorflow/compiler/tf2tensorrt:trt_op_kernels",
        "@org_tensorflow//tensorflow/compiler/tf2tensorrt:trt_engine_op_op_lib",
    ],
)
"""
    assert _rules("cc/tf/BUILD", source) == {"build.bazel-cuda-label"}
    assert _layers("cc/tf/BUILD", source) == {"vendor-path": 2, "portable": 10}


def test_tensorflow_core_labels_stay_portable() -> None:
    source = b"""\
cc_library(
    name = "tf_lib",
    deps = [
        "@org_tensorflow//tensorflow/core:tensorflow",
        "@org_tensorflow//tensorflow/c:c_api",
    ],
)
"""
    assert _rules("cc/tf/BUILD", source) == set()


def test_nvidia_require_cuda_in_a_pod_spec_is_vendor_path() -> None:
    # cluster/evaluator/cc-evaluator.yaml: the container toolkit's driver check set in the pod's
    # environment (commit 6867e67b04 added it and passed the gate); the GPU limit already counted.
    source = b"""\
spec:
  containers:
  - name: evaluator
    image: gcr.io/$PROJECT/cc-evaluator:latest
    resources:
      limits:
        nvidia.com/gpu: 1
    env:
    - name: JOB
      value: $JOB
    - name: NVIDIA_REQUIRE_CUDA
      value: cuda>=10.0,driver>=410
"""
    assert _rules("cluster/eval.yaml", source) == {"k8s.nvidia-gpu"}
    assert _layers("cluster/eval.yaml", source) == {"vendor-path": 2, "portable": 10}


def test_kubernetes_tpu_and_cpu_pod_spec_stays_portable() -> None:
    # cluster/selfplay/cpu-player.yaml's shape: a pod with no accelerator request.
    source = b"""\
spec:
  containers:
  - name: player
    image: gcr.io/$PROJECT/cc-player:latest
    resources:
      requests:
        cpu: 4
    env:
    - name: BUCKET
      value: $BUCKET
"""
    assert _rules("cluster/cpu-player.yaml", source) == set()


# -- Tencent/TurboTransformers: CUDA kernels, cuBLAS and MKL ---------------------------------


def test_cuda_image_put_into_a_dockerfile_template_is_vendor_path() -> None:
    # tools/build_docker_gpu.sh fills a Dockerfile template's base image with NVIDIA's CUDA
    # image by sed; the script counted as portable.
    source = b"""\
#!/bin/bash
set -xe
CUDA_TAG=11.8.0
for KIND in dev release; do
  sed "s#BASE#nvidia/cuda:${CUDA_TAG}-devel#g" docker/${KIND}.in > Dockerfile.${KIND}
  docker build -t runtime_gpu_${KIND} -f Dockerfile.${KIND} .
done
"""
    assert _rules("tools/build_images.sh", source) == {"image.nvidia-base"}
    assert _layers("tools/build_images.sh", source) == {"vendor-path": 1, "portable": 5}


def test_cuda_kernel_with_device_helpers_counts_helpers_and_kernel_only() -> None:
    # layers/kernels/gpu_activation_kernel.cu (already right, pinned): __device__ helpers and a
    # __global__ kernel are kernel lines; the host launcher and its instantiations are not.
    source = b"""\
#include <cuda_runtime.h>

template <typename T>
__inline__ __device__ T relu(const T& x) {
  return x > T(0) ? x : T(0);
}

template <typename T>
static __global__ void bias_relu(const T* bias, int width, T* out) {
  int row = blockIdx.x;
  for (int i = threadIdx.x; i < width; i += blockDim.x) {
    out[row * width + i] = relu(out[row * width + i] + bias[i]);
  }
}

template <typename T>
void LaunchBiasRelu(const T* bias, int rows, int width, cudaStream_t stream, T* out) {
  dim3 grid(rows);
  dim3 block(256);
  bias_relu<T><<<grid, block, 0, stream>>>(bias, width, out);
}

template void LaunchBiasRelu<float>(const float*, int, int, cudaStream_t, float*);
"""
    layers = _layers("kernels/bias_relu.cu", source)
    assert layers["kernel"] == 11
    assert "vendor-path" in layers


def test_cuda_guarded_includes_in_a_header_are_vendor_path() -> None:
    # core/allocator/allocator_impl.h (already right, pinned): the CUDA includes sit behind the
    # project's TT_WITH_CUDA switch; the declarations after them are portable.
    source = b"""\
#pragma once
#include "core/memory.h"
#ifdef TT_WITH_CUDA
#include <cuda_runtime.h>
#include "core/cuda_device_context.h"
#endif
namespace rt {
extern void* allocate_impl(size_t size, int dev);
extern void free_impl(void* addr, int dev);
}  // namespace rt
"""
    assert _layers("core/allocator_impl.h", source) == {"vendor-path": 4, "portable": 6}


def test_cpu_blas_selection_header_is_portable() -> None:
    # core/blas.h (already right, pinned): MKL, OpenBLAS or BLIS chosen at build time, all CPU
    # libraries.
    source = b"""\
#pragma once
#if defined(RT_USE_MKL)
#include "mkl.h"
using BlasInt = MKL_INT;
#elif defined(RT_USE_OPENBLAS)
#include "cblas.h"
using BlasInt = blasint;
#endif
"""
    assert _rules("core/blas.h", source) == set()


# -- tobspr/RenderPipeline: GLSL shader files -------------------------------------------------


def test_glsl_fragment_shader_file_is_all_kernel() -> None:
    # rpcore/shader/final_present_stage.frag.glsl (already right, pinned): a pass-through
    # fragment shader with the pipeline's #pragma include lines.
    source = b"""\
#version 430
#pragma include "render_pipeline_base.inc.glsl"

uniform sampler2D SourceTex;
out vec4 result;

// Pass the input texture through.
void main() {
    vec2 uv = (ivec2(gl_FragCoord.xy) + 0.5) / SCREEN_SIZE;
    result = vec4(textureLod(SourceTex, uv, 0).xyz, 1);
}
"""
    assert _layers("rpcore/shader/present.frag.glsl", source) == {"kernel": 8}


# -- mathematical-systems/blas-lapack-ffi: Common Lisp in .cl files --------------------------


def test_common_lisp_in_a_cl_file_is_lisp_not_opencl() -> None:
    # unused/scratch/scratch-allegro.cl: Allegro CL source named .cl was read as OpenCL C
    # (portable, but under the wrong language).
    source = b"""\
(eval-when (:compile-toplevel :load-toplevel :execute)
  (pushnew :test *features*))

(defpackage :example.blas
  (:use :cl)
  (:nicknames :blas))

(in-package :blas)

;; load the vendor library first
(defun dot (n x y)
  (loop for i below n sum (* (aref x i) (aref y i))))
"""
    from bot.engine import classify

    assert classify("scratch/allegro.cl", source).language == "Lisp"
    assert _layers("scratch/allegro.cl", source) == {"portable": 8}


def test_opencl_kernel_in_a_cl_file_stays_opencl() -> None:
    source = b"""\
__kernel void scale(__global float* x, const float a) {
    int i = get_global_id(0);
    x[i] = (a) * x[i];
}
"""
    from bot.engine import classify

    assert classify("kernels/scale.cl", source).language == "OpenCL"
    assert _layers("kernels/scale.cl", source) == {"kernel": 4}
