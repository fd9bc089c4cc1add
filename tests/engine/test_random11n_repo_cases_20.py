"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-n).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 252-258. Four had no snapshot and were skipped:
AshunFeiyu/flash-attention3, silent-diffusion/Memento, HansRobo/Diffusion-Planner and
hongziqi/triton-ascend. HuggingAGI/HuggingArxivLLM was fetched but holds only Markdown paper
summaries and one JSON file, no file lockin counts, so it was skipped too. Two were read:
onnx/onnx-tensorflow (an ONNX backend running models on TensorFlow) and
fuzzifikation/vLLM-Copilot (a VS Code extension in TypeScript talking to vLLM servers).
Fifteen files of each were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any look at lockin's verdicts; lockin calls no file of either
non-portable, and three commits of each touching GPU words were judged against
``lockin diff``. Every verdict was right, so these cases pin verdicts already right. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- onnx/onnx-tensorflow: TensorFlow's generic device names -------------------------------


def test_tensorflow_gpu_and_cpu_placement_is_portable() -> None:
    # onnx_tf/handlers/backend/space_to_depth.py: a dtype TensorFlow's GPU kernel lacks is
    # run under tf.device("/cpu:0"); "/gpu:0" is TensorFlow's name for any vendor's GPU.
    source = b"""\
import tensorflow as tf

def space_to_depth(x, block, data_format):
  # TensorFlow's GPU kernel lacks int64 here; the CPU one has it
  if x.dtype == tf.int64:
    with tf.device("/cpu:0"):
      return tf.nn.space_to_depth(x, block, data_format="NHWC")
  with tf.device("/gpu:0"):
    return tf.nn.space_to_depth(x, block, data_format=data_format)
"""
    assert _rules("handlers/space_to_depth.py", source) == set()
    assert _layers("handlers/space_to_depth.py", source) == {"portable": 7}


def test_tensorflow_gpu_device_listing_is_portable() -> None:
    # onnx_tf/common/__init__.py supports_device: any local device of type 'GPU' will do,
    # which TensorFlow reports for NVIDIA and ROCm builds alike.
    source = b"""\
from tensorflow.python.client import device_lib

def gpu_present():
  protos = device_lib.list_local_devices()
  return any(p.device_type == 'GPU' for p in protos)
"""
    assert _layers("common/devices.py", source) == {"portable": 4}


# -- fuzzifikation/vLLM-Copilot: GPU words in a client of an inference server --------------


def test_inference_client_naming_gpus_and_nvidia_models_is_portable() -> None:
    # src/dashboard.ts and src/vllmMetrics.ts describe the server's per-GPU metrics;
    # test/openRouter.test.ts parses model ids under the nvidia/ organisation. A client of a
    # remote server runs nothing on a GPU.
    source = b"""\
const METRIC_HELP: Record<string, string> = {
  num_requests_running: 'Requests the GPU is working on right now.',
  estimated_flops_per_gpu_total: 'Estimated FLOPs per GPU, for utilisation',
};

export function servedId(url: string): string {
  // 'https://openrouter.ai/nvidia/nemotron-mini:free' -> 'nvidia/nemotron-mini:free'
  return url.replace(/^https?:\\/\\/openrouter\\.ai\\//, '');
}
const quantized = 'nvidia/Llama-3.1-70B-Instruct-FP8';
"""
    assert _rules("src/metrics.ts", source) == set()
    assert _layers("src/metrics.ts", source) == {"portable": 8}
