"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-w).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 917-923 and skipped none. Read were kube-HPC/simulator (a
React dashboard for the HKube pipeline engine, no GPU code), ctuning/ck-tensorflow (Collective
Knowledge packages and programs around TensorFlow, TF-TRT hooks among them), malkiavec/
Megatron (documentation pages, one counted YAML file), tuwanroshanuk/edgevox-onnx (a speech
toolkit over ONNX Runtime with CUDA, TensorRT and Ascend providers and per-platform GPU
archive downloads in CMake), DCC-Lab/RayTracing (a Python optics ray tracer with OpenCL
kernels in strings), JanuszL/CV-CUDA (NVIDIA's CUDA computer-vision library) and
kmbandy/llama.cpp (a llama.cpp fork: CUDA, HIP, Vulkan, OpenVINO back ends and Triton AOT
kernels). Snapshots missing large blobs (a ck-tensorflow weights file, llama.cpp vocabulary
files) were checked out without them. Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- tuwanroshanuk/edgevox-onnx: ONNX Runtime's GPU archive fetched by CMake ----------------------


def test_cmake_download_of_onnxruntime_gpu_cuda_archive_is_vendor_path() -> None:
    # cmake/onnxruntime-linux-x86_64-gpu.cmake: the build downloads ONNX Runtime's CUDA 12
    # archive (`-gpu_cuda12-` in its name) and looks for local copies of it first.
    source = b"""\
if(NOT WITH_GPU)
  message(FATAL_ERROR "this file needs WITH_GPU")
endif()
set(ort_url "https://mirror.example/v1.22.0/onnxruntime-linux-x64-gpu_cuda12-1.22.0.tgz")
set(ort_hash "SHA256=00")
set(ort_candidates
  $ENV{HOME}/Downloads/onnxruntime-linux-x64-gpu_cuda12-1.22.0.tgz
  /tmp/onnxruntime-linux-x64-gpu_cuda12-1.22.0.tgz
)
FetchContent_Declare(onnxruntime URL ${ort_url} URL_HASH ${ort_hash})
"""
    assert _rules("cmake/ort-x64-gpu.cmake", source) == {"build.cmake-nvidia-library"}
    assert _layers("cmake/ort-x64-gpu.cmake", source) == {"vendor-path": 3, "portable": 7}


def test_cmake_download_of_onnxruntime_aarch64_gpu_archive_is_vendor_path() -> None:
    # cmake/onnxruntime-linux-aarch64-gpu.cmake: the Jetson build's archive, per version.
    source = b"""\
if(ort_version VERSION_EQUAL "1.18.0")
  set(ort_url "https://mirror.example/onnxruntime-linux-aarch64-gpu-${ort_version}.tar.bz2")
endif()
"""
    assert _rules("cmake/ort-arm-gpu.cmake", source) == {"build.cmake-nvidia-library"}
    assert _layers("cmake/ort-arm-gpu.cmake", source) == {"vendor-path": 1, "portable": 2}


def test_cmake_download_of_onnxruntime_cpu_archive_stays_portable() -> None:
    # cmake/onnxruntime-linux-x86_64.cmake: the CPU archive beside it.
    source = b"""\
set(ort_url "https://mirror.example/v1.22.0/onnxruntime-linux-x64-1.22.0.tgz")
FetchContent_Declare(onnxruntime URL ${ort_url})
"""
    assert _rules("cmake/ort-x64.cmake", source) == set()
    assert _layers("cmake/ort-x64.cmake", source) == {"portable": 2}


# -- ctuning/ck-tensorflow: TensorFlow's TensorRT integration ---------------------------------


def test_tf_trt_contrib_graph_conversion_is_vendor_library() -> None:
    # program/object-detection-tf-py/tensorRT_hooks.py: a frozen graph rewritten by the TF 1.x
    # contrib TensorRT module; the tensor look-ups after it are TensorFlow's own.
    source = b"""\
import tensorflow as tf
import tensorflow.contrib.tensorrt as trt

def load_trt(params):
    graph_def = tf.compat.v1.GraphDef()
    with open(params["GRAPH"], "rb") as f:
        graph_def.ParseFromString(f.read())
    converted = trt.create_inference_graph(
        input_graph_def=graph_def,
        outputs=["boxes:0", "scores:0"],
        max_batch_size=params["BATCH"],
        precision_mode=params["PRECISION"])
    tf.import_graph_def(converted, name="")

def handles():
    graph = tf.compat.v1.get_default_graph()
    return graph.get_tensor_by_name("import/boxes:0")
"""
    assert _rules("hooks/trt_hooks.py", source) == {"tensorrt.api"}
    assert _layers("hooks/trt_hooks.py", source) == {"vendor-library": 6, "portable": 9}


def test_tf_trt_v2_converter_is_vendor_library() -> None:
    # The TF 2 form of the same hook: the converter class from tensorflow.python.compiler.
    source = b"""\
from tensorflow.python.compiler.tensorrt import trt_convert as trt

def convert(saved_dir, out_dir):
    conv = trt.TrtGraphConverterV2(input_saved_model_dir=saved_dir)
    conv.convert()
    conv.save(out_dir)
"""
    assert _rules("tools/convert.py", source) == {"tensorrt.api"}
    assert _layers("tools/convert.py", source)["vendor-library"] == 2


# -- verdicts that were already right -----------------------------------------------------


def test_opencl_kernel_in_python_string_is_kernel() -> None:
    # DCC-Lab/RayTracing raytracing/tests/testOpenCL.py: a pyopencl program source held in a
    # triple-quoted string; the host side around it stays portable.
    source = b'''\
import pyopencl as cl
import numpy as np

def run(ctx, queue, a, b):
    src = """
    kernel void add(global const float *x,
                    global const float *y,
                    global float *z)
    {
        int i = get_global_id(0);
        z[i] = x[i] + y[i];
    }
    """
    prog = cl.Program(ctx, src).build()
    return prog
'''
    assert "opencl.source-string" in _rules("tests/test_cl.py", source)
    assert _layers("tests/test_cl.py", source)["kernel"] == 9


def test_cuda_unit_test_kernel_and_launch() -> None:
    # JanuszL/CV-CUDA tests/nvcv_types/cudatools_system/DeviceMathWrappers.cu: a one-thread
    # kernel per math helper, launched and read back by the test body.
    source = b"""\
template<typename T>
__global__ void RunNeg(T *out, T u)
{
    out[0] = -u;
}

TEST(NegTest, works)
{
    float *d = nullptr;
    float h = 0;
    EXPECT_EQ(cudaSuccess, cudaMalloc(&d, sizeof(float)));
    RunNeg<<<1, 1>>>(d, 2.f);
    EXPECT_EQ(cudaSuccess, cudaMemcpy(&h, d, sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT_EQ(-2.f, h);
}
"""
    layers = _layers("tests/DeviceNeg.cu", source)
    assert layers["kernel"] == 5
    assert layers["vendor-path"] == 3


# -- DCC-Lab/RayTracing: PyOpenCL host calls under another alias -----------------------------


def test_pyopencl_host_calls_under_pycl_alias_are_vendor_path() -> None:
    # raytracing/matrix.py: the tracer imports PyOpenCL as `pycl` and builds its context,
    # queue and buffers through it; the kernel source beside them is kernel code.
    source = b"""\
import numpy as np

def trace_gpu(rays):
    import pyopencl as pycl
    platform = pycl.get_platforms()[0]
    context = pycl.Context(devices=platform.get_devices())
    queue = pycl.CommandQueue(context)
    flags = pycl.mem_flags
    src_buf = pycl.Buffer(context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=rays)
    out = np.empty_like(rays)
    return queue, src_buf, out
"""
    assert _rules("optics/tracer.py", source) == {"opencl.pyopencl-host"}
    assert _layers("optics/tracer.py", source) == {"vendor-path": 5, "portable": 5}
