"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h45-random-i).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 530-537. Two could not be read: zero0zero7/wgsl-spe (no snapshot) and
andrealani/COOLFluiD (snapshot over 500 MB). Fifteen files of each remaining repository
(Prorok1015/OpenGL_Engine, YangXu1990uiuc/cudnn-frontend, robotlabs/wgsl-lab,
amaleewilson/pycublas, Li-Hongda/TensorRT_Inference_Demo,
cg-tuwien/Gaussian-Mixture-Convolution-Networks) were sampled with
``random.Random("owner/name")`` over every file lockin counts with code lines, and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10), the files it gives no language, and three commits touching GPU code
per repository judged against ``lockin diff``. Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- amaleewilson/pycublas: a C extension wrapping cuBLAS, built by distutils -----------------


def test_setup_script_linking_cublas_and_cudart_is_vendor_path() -> None:
    # setup.py: the extension's sources and the NVIDIA libraries it links by name. Before, the
    # file was portable: only the C file calling cuBLAS counted.
    source = b"""\
from distutils.core import setup, Extension
import numpy.distutils.misc_util

gemm_ext = Extension("_gemm",
                     sources=["_gemm.c", "gemm.c"],
                     libraries=["cublas", "cudart"])

setup(
    ext_modules=[gemm_ext],
    include_dirs=numpy.distutils.misc_util.get_numpy_include_dirs(),
)
"""
    assert _rules("setup.py", source) == {"build.python-extension-cuda-library"}
    assert _layers("setup.py", source) == {"vendor-path": 1, "portable": 8}


def test_extension_linking_host_libraries_only_stays_portable() -> None:
    # The negative: the same script before it swapped OpenBLAS for cuBLAS, and a benchmark
    # report keyed by library names, which builds nothing.
    setup = b"""\
from distutils.core import setup, Extension

gemm_ext = Extension("_gemm", sources=["_gemm.c", "gemm.c"], libraries=["openblas", "m"])
setup(ext_modules=[gemm_ext])
"""
    assert _layers("setup.py", setup) == {"portable": 3}
    report = b"""\
timings = {"cublas": 1.9, "rocblas": 2.1, "openblas": 14.0}
for name in ("cublas", "rocblas"):
    print(name, timings[name])
"""
    assert _layers("bench/report.py", report) == {"portable": 3}


def test_build_helper_returning_cuda_libraries_on_windows() -> None:
    # The op builder's pattern (seen in the bench corpus's DeepSpeed op_builder/builder.py
    # when checking this fix): a method of a builder class that hands setuptools' Extension
    # the libraries to link.
    source = b"""\
from setuptools import Extension


class GpuOpBuilder:
    def libraries_args(self):
        if sys.platform == "win32":
            return ["cublas", "curand"]
        return []

    def extension(self):
        return Extension(self.name, libraries=self.libraries_args())
"""
    assert _rules("op_builder/builder.py", source) == {"build.python-extension-cuda-library"}
    assert _layers("op_builder/builder.py", source)["vendor-path"] == 1


# -- Li-Hongda/TensorRT_Inference_Demo: detectors on a TensorRT engine ------------------------


def test_model_running_the_tensorrt_context_through_a_member_is_vendor_library() -> None:
    # src/rtdetr.cpp and src/yolo.cpp: the subclass runs the execution context its base class
    # (include/basemodel.h) declares as nvinfer1::IExecutionContext; the file itself never
    # names TensorRT. Before, both were portable.
    source = b"""\
#include "rtdetr.h"

std::vector<Detections> RTDETR::InferenceImages(std::vector<cv::Mat>& batch) noexcept {
    PreProcess(batch);
    auto bindings = reinterpret_cast<void**>(device_buffers);
    this->context->enqueueV2(bindings, stream, nullptr);
    return PostProcess(batch, device_buffers[1], device_buffers[2]);
}
"""
    assert _rules("src/rtdetr.cpp", source) == {"tensorrt.api"}
    assert _layers("src/rtdetr.cpp", source) == {"vendor-library": 1, "portable": 6}


def test_python_helper_running_a_context_it_is_given() -> None:
    # The Python form of the same call: a helper takes the engine's context and its bindings
    # without importing tensorrt.
    source = b"""\
def infer(context, bindings, inputs, outputs, stream):
    for inp in inputs:
        inp.upload(stream)
    context.execute_async_v2(bindings=bindings, stream_handle=stream.handle)
    for out in outputs:
        out.download(stream)
    stream.synchronize()
    return [out.host for out in outputs]
"""
    assert _rules("common.py", source) == {"tensorrt.api"}
    assert _layers("common.py", source) == {"vendor-library": 1, "portable": 7}


def test_queue_and_runner_methods_of_other_names_stay_portable() -> None:
    # The negative: a task queue's enqueue and an executor's execute_async are no TensorRT.
    source = b"""\
void Worker::Submit(Job job) {
    queue->enqueue(std::move(job));
    executor.execute_async(plan, stream);
    runner->executeV1(plan);
}
"""
    assert _layers("src/worker.cpp", source) == {"portable": 5}


def test_subdirectory_build_listing_a_cu_source_stays_portable() -> None:
    # object_detection/yolov5/CMakeLists.txt: each detector's build lists the shared CUDA
    # source; CUDA itself is enabled (and TensorRT found) by the parent CMakeLists.txt, which
    # counts. Checked right before any fix; the file name alone is no vendor build setting.
    source = b"""\
cmake_minimum_required(VERSION 3.10)
project(yolov5)
set(PROJECT_LIBRARY ../../src/common.cpp
                    ../../src/yolov5.cpp
                    ../../src/cuda_function.cu)
add_library(yolov5 SHARED ${PROJECT_LIBRARY})
target_link_libraries(yolov5 ${ALL_LIBS} yaml-cpp)
"""
    assert _layers("object_detection/yolov5/CMakeLists.txt", source) == {"portable": 7}


# -- YangXu1990uiuc/cudnn-frontend: checked right before any fix ------------------------------


def test_benchmark_config_naming_cudnn_as_a_backend_stays_portable() -> None:
    # benchmark/norms/configs/llama3_8b.py: a list of back ends to compare, as strings.
    source = b"""\
from ..config_types import NormConfig

CONFIG = NormConfig(
    name="llama3_8b_rmsnorm",
    hidden_sizes=[4096],
    backends=["cudnn", "quack", "pytorch", "torch_compile"],
)
"""
    assert _layers("benchmark/norms/configs/llama3_8b.py", source) == {"portable": 6}
