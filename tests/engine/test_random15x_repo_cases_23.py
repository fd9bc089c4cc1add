"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-x).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 749-755. Four were skipped, having no snapshot to fetch:
MolecularFrontier/structurized (749), moazelessawey/pycudal (750),
dragonleopardpig/Kraken-Optical-Simulator (751) and manit2004/wgblas (753). Read were
khabibullet/raytracer (a C ray tracer on a vendored minilibx, whose OpenGL build compiles
GLSL held in C strings), JetBrains-Research/kinference (a Kotlin ONNX inference engine with a
TensorFlow.js back end and an ONNX Runtime GPU back end) and ConsDotPy/pycuda-lstm (LSTM
training in PyCUDA, kernels in SourceModule and DynamicSourceModule strings). Snapshots
missing large blobs were checked out file by file without them; no counted source file was
missing. Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (up to 5 a repository), and
up to three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ConsDotPy/pycuda-lstm: kernels handed to DynamicSourceModule ----------------------------


def test_dynamic_source_module_string_is_kernel_to_its_last_line() -> None:
    # ParaTraining.py / CUDA_LSTM.py: one DynamicSourceModule string holds every kernel,
    # sizes spliced in with `""" + str(n) + """`; the last kernel came after the last splice
    # and was counted portable.
    source = b'''\
from pycuda.compiler import DynamicSourceModule

step = DynamicSourceModule("""
    __global__ void adam(float *w, float *m, float *g) {
        int cols =""" + str(hidden) + """;
        int r = blockDim.y * blockIdx.y + threadIdx.y;
        int c = blockDim.x * blockIdx.x + threadIdx.x;
        float decay = 0.9;
        m[r * cols + c] = decay * m[r * cols + c] + (1 - decay) * g[r * cols + c];
        w[r * cols + c] = w[r * cols + c] - 0.001 * m[r * cols + c];
    }
    """, arch="sm_70")
'''
    # The call's opening and closing lines are counted with the string, as for SourceModule.
    assert "pycuda.source-module" in _rules("train_lstm.py", source)
    assert _layers("train_lstm.py", source)["kernel"] == 10


def test_source_module_kernel_pinned() -> None:
    # hadMulGPU.py: an element-wise product kernel in a SourceModule string (already right).
    source = b'''\
from pycuda.compiler import SourceModule

mod = SourceModule("""
__global__ void ew_mul(float *x, float *y, float *out)
{
    int width = """ + str(cols) + """;
    int r = blockDim.y*blockIdx.y + threadIdx.y;
    int c = blockDim.x*blockIdx.x + threadIdx.x;
    out[r * width + c] = x[r * width + c] * y[r * width + c];
}
""")
'''
    assert "pycuda.source-module" in _rules("ew.py", source)
    assert _layers("ew.py", source)["kernel"] == 9


def test_plot_of_gpu_timings_stays_portable() -> None:
    # comparison.py: a matplotlib bar chart whose labels say "GPU"; no GPU code.
    source = b"""\
import matplotlib.pyplot as plt
import numpy as np

x = np.arange(4)
fig, ax = plt.subplots()
ax.bar(x - 0.2, cpu_times, 0.4, label='CPU')
ax.bar(x + 0.2, gpu_times, 0.4, label='GPU - shared')
ax.legend()
plt.show()
"""
    assert _rules("plot_speed.py", source) == set()
    assert _layers("plot_speed.py", source) == {"portable": 8}


# -- JetBrains-Research/kinference: ONNX Runtime's Java API asked for CUDA ---------------------


def test_ort_java_api_add_cuda_is_vendor_path() -> None:
    # inference/inference-ort-gpu/.../ORTEngine.kt: the session options get the CUDA
    # execution provider through SessionOptions.addCUDA().
    source = b"""\
import ai.onnxruntime.OrtEnvironment
import ai.onnxruntime.OrtSession

object GpuLoader {
    fun load(bytes: ByteArray): OrtSession {
        val env = OrtEnvironment.getEnvironment()
        val options = OrtSession.SessionOptions()
        options.addCUDA()
        return env.createSession(bytes, options)
    }
}
"""
    assert _rules("src/jvmMain/kotlin/ort/GpuLoader.kt", source) == {
        "onnxruntime.cuda-provider-api"
    }
    assert _layers("src/jvmMain/kotlin/ort/GpuLoader.kt", source) == {
        "vendor-path": 1,
        "portable": 9,
    }


def test_ort_wrapper_class_in_gpu_module_stays_portable() -> None:
    # inference/inference-ort-gpu/.../data/map/ORTMap.kt: a wrapper of OnnxMap; the module is
    # named for the GPU but this file selects nothing.
    source = b"""\
import ai.onnxruntime.OnnxMap

class WrappedMap(val name: String?, val data: OnnxMap) {
    fun rename(newName: String): WrappedMap = WrappedMap(newName, data)
    fun close() {
        data.close()
    }
}
"""
    assert _rules("src/jvmMain/kotlin/ort/WrappedMap.kt", source) == set()
    assert _layers("src/jvmMain/kotlin/ort/WrappedMap.kt", source) == {"portable": 7}


# -- khabibullet/raytracer: minilibx's GLSL in C strings (already right) -----------------------


def test_glsl_in_c_strdup_string_is_kernel() -> None:
    # libraries/libmlx/sources/mlx_shaders.c: a vertex shader built with strdup("..." "...").
    source = b"""\
#include <stdlib.h>
#include <string.h>

char *vertex_source(void)
{
  return strdup("#version 110 \\n"
      "attribute vec2 position;"
      "varying vec2 texcoord;"
      "void main()"
      "{"
      " gl_Position = vec4( position, 0.0, 1.0);"
      " texcoord = vec2(position[0]+1.0, 1.0 - position[1]) / 2.0;"
      "}");
}
"""
    assert _rules("mlx_shaders.c", source) == {"vulkan.glsl-string"}
    assert _layers("mlx_shaders.c", source)["kernel"] >= 7
