"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-g).

The pool is ``/work/pool-h47.txt``, shuffled with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 434-440. Jokerboozp/TorchLink (440) had no snapshot and
was skipped. The six read were lhb8125/Megatron-LM (a fork of NVIDIA's Megatron-LM),
onnx/tensorflow-onnx (the TensorFlow-to-ONNX converter), frontloss/GPU_Validation_Infrastructure
(Intel's display validation harness: Python register maps, C# and C++ tools, a few D3D effect
shaders and Level Zero headers), microsoft/DeepSpeedExamples (DeepSpeed training and
inference examples), AngularSpectrumMTD/DXR_HobbyPathTracer (a DirectX Raytracing path tracer,
C++ host and HLSL shaders) and Chuhan722/table-diffusion (a Python/PyTorch research codebase).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up to
20) and GPU-looking files it calls portable (up to 10) checked apart, and three commits
touching GPU code (fewer where fewer exist) judged against ``lockin diff``
(``random.Random("owner/name:commits")``). Each snippet is a small rewrite, in our own words,
of a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- onnx/tensorflow-onnx: cuDNN-only recurrent layers -----------------------------------------


def test_cudnn_gru_layer_in_a_converter_test_is_vendor_library() -> None:
    # tests/test_cudnn.py: the test builds TensorFlow 1's contrib CudnnGRU, which has no kernel
    # but cuDNN's, and skips itself on CPU builds; only that constructor line is gated.
    source = b"""\
import numpy as np
import tensorflow as tf


class RnnOnCudnn(BaseCase):
    @skip_without_gpu_build("needs the fused GRU")
    def test_two_layer_gru(self):
        def graph(x, h):
            init = tf.constant_initializer(0.25)
            rnn = tf.contrib.cudnn_rnn.CudnnGRU(2, 4, 'linear_input', 'bidirectional',
                                                kernel_initializer=init)
            rnn.build([3, 5, 2])
            out = rnn.call(x, (h,))
            return tf.identity(out[0], name="y")
        self.check(graph, {"x": np.zeros((3, 5, 2), np.float32)})
"""
    assert _rules("tests/test_cudnn.py", source) == {"tensorflow.cudnn-rnn"}
    assert _layers("tests/test_cudnn.py", source) == {"vendor-library": 2, "portable": 11}


def test_keras_cudnn_lstm_import_and_layer_are_vendor_library() -> None:
    # The Keras 2 spelling of the same layers (CuDNNLSTM), as older converter tests import it.
    source = b"""\
from keras.models import Sequential
from keras.layers import CuDNNLSTM, Dense

model = Sequential()
model.add(CuDNNLSTM(16, input_shape=(10, 8)))
model.add(Dense(1))
"""
    assert _rules("tests/model_lstm.py", source) == {"tensorflow.cudnn-rnn"}
    assert _layers("tests/model_lstm.py", source) == {"vendor-library": 2, "portable": 3}


def test_cudnn_compatible_cell_stays_portable() -> None:
    # tests/test_cudnn_compatible_gru.py: CudnnCompatibleGRUCell is the CPU twin that loads
    # cuDNN-trained weights; it runs anywhere, and so does the converter test around it.
    source = b"""\
import tensorflow as tf

GruCell = tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell


def test_single_cell():
    cell = GruCell(5)
    outputs, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    return tf.identity(outputs, name="out")
"""
    assert _rules("tests/test_cudnn_compatible_gru.py", source) == set()


# -- onnx/tensorflow-onnx: probing which build of a package is installed -----------------------


def test_loop_over_every_build_of_a_framework_is_no_wheel_pin() -> None:
    # tf2onnx/tf_utils.py: when the lazy loader has no __version__ yet, the helper asks the
    # package metadata for each build in turn, the GPU build among CPU and vendor ones.
    source = b"""\
from importlib.metadata import PackageNotFoundError, version


def framework_version(tf):
    try:
        return parse(tf.__version__)
    except AttributeError:
        for name in ("tensorflow", "tensorflow-intel", "tensorflow-cpu", "tensorflow-gpu"):
            try:
                return parse(version(name))
            except PackageNotFoundError:
                continue
        return parse("0.0.0")
"""
    assert _rules("tf2onnx/tf_utils.py", source) == set()


def test_install_loop_over_cuda_builds_only_is_still_a_pin() -> None:
    # The negative of the case above: no CPU build sits beside the CUDA one, so the loop
    # installs NVIDIA-only wheels.
    source = b"""\
import subprocess

for req in ("cupy-cuda12x", "numpy"):
    subprocess.check_call(["pip", "install", req])
"""
    assert _rules("tools/setup_env.py", source) == {"deps.cuda-wheel-python"}


# -- verdicts that were already right ----------------------------------------------------------


def test_hlsl_compute_shader_counts_every_code_line_as_kernel() -> None:
    # AngularSpectrumMTD/DXR_HobbyPathTracer DXRPathTracer/shaders/Grid3D_*.hlsl (already
    # right): a compute shader clearing a grid of indices; comments are not counted.
    source = b"""\
// clears the cell table before the photons are binned
#include "Grid3D_Header.hlsli"

RWStructuredBuffer<uint2> cellRange : register(u0);

[numthreads(256, 1, 1)]
void clearCells(uint3 id : SV_DispatchThreadID)
{
    if (id.x >= cellCount)
        return;
    cellRange[id.x] = uint2(0xffffffff, 0xffffffff);
}
"""
    assert _rules("shaders/Grid3D_Clear.hlsl", source) == {"hlsl.shader-file"}
    assert _layers("shaders/Grid3D_Clear.hlsl", source) == {"kernel": 9}


def test_megatron_functional_test_env_block_is_vendor_path() -> None:
    # lhb8125/Megatron-LM tests/functional_tests/test_cases/*/model_config.yaml (already
    # right): the CUDA, NCCL and cuBLAS environment variables are the vendor-path lines.
    source = b"""\
ENV_VARS:
  CUDA_DEVICE_MAX_CONNECTIONS: 1
  NVTE_ALLOW_NONDETERMINISTIC_ALGO: 0
  NCCL_ALGO: Ring
  CUBLAS_WORKSPACE_CONFIG: :4096:8
MODEL_ARGS:
  --num-layers: 12
  --hidden-size: 512
  --seq-length: 1024
"""
    assert _rules("model_config.yaml", source) == {"env.cuda-variables"}
    assert _layers("model_config.yaml", source)["vendor-path"] == 3
