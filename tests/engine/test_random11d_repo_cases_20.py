"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-d).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 182-188. One had no snapshot and was skipped, not replaced:
ShiyuanDeng/Neural-BEM (188). The six read: CheickDiakite-yikes/gemma4-capability-map (a
benchmark harness running Gemma models on MLX, Hugging Face and llama.cpp), bioidiap/
bob.learn.tensorflow (Keras models and distribution strategies), Matt4401/Raytracer (a CPU ray
tracer in C++ with SFML; six large blobs absent from the snapshot, checked out around them),
EthanSMC/Attention (a TypeScript web app and CLI), jimmybach/Standardized-Tabular-Diffusion
(adapters and vendored copies of tabular diffusion models in PyTorch) and
maikeleckelboom/demo-quantize-image (a Nuxt colour-quantizing demo). Every sample was drawn by
``/work/lead/sample.py``: fifteen files of each repository with ``random.Random("owner/name")``
over the files lockin counts with code lines, labelled by hand before any fix; the files
lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to 10)
checked apart; three commits touching GPU code, drawn with
``random.Random("owner/name:commits")``, judged against ``lockin diff``. No sampled file held
kernel code. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- bioidiap/bob.learn.tensorflow: a distribution strategy pinned to NCCL ---------------------


def test_tensorflow_strategy_with_nccl_communication_is_vendor_path() -> None:
    # bob/learn/tensorflow/configs/MultiWorkerMirroredStrategy.py: the multi-worker strategy
    # is told to run its all-reduce on NCCL through CommunicationOptions.
    source = b"""\
import tensorflow as tf


def build_strategy():
    opts = tf.distribute.experimental.CommunicationOptions(
        implementation=tf.distribute.experimental.CollectiveCommunication.NCCL
    )
    return tf.distribute.MultiWorkerMirroredStrategy(communication_options=opts)
"""
    assert _rules("configs/multi_worker.py", source) == {"tensorflow.nccl-collective"}
    assert _layers("configs/multi_worker.py", source) == {"vendor-path": 1, "portable": 5}


def test_tensorflow_nccl_all_reduce_ops_is_vendor_path() -> None:
    # The same choice made with the cross-device ops class of a single-machine strategy.
    source = b"""\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(cross_device_ops=tf.distribute.NcclAllReduce())
"""
    assert _rules("train.py", source) == {"tensorflow.nccl-collective"}
    assert _layers("train.py", source) == {"vendor-path": 1, "portable": 1}


def test_tensorflow_default_strategy_and_ring_stay_portable() -> None:
    # bob/learn/tensorflow/configs/MirroredStrategy.py: the default strategy counts its
    # replicas and names no collective library; RING runs on any device.
    source = b"""\
import tensorflow as tf


def build_strategy():
    strategy = tf.distribute.MirroredStrategy()
    print("replicas: {}".format(strategy.num_replicas_in_sync))
    opts = tf.distribute.experimental.CommunicationOptions(
        implementation=tf.distribute.experimental.CommunicationImplementation.RING
    )
    return strategy, opts
"""
    assert _rules("configs/mirrored.py", source) == set()
    assert _layers("configs/mirrored.py", source) == {"portable": 8}


def test_tensorflow_gpu_listing_and_gpu_queue_name_stay_portable() -> None:
    # bob/learn/tensorflow/utils (history) lists GPU devices through device_lib, and
    # examples/mnist_multi_worker_mixed_precision.py asks an SGE cluster for its GPU queue:
    # neither names a vendor.
    source = b"""\
from dask_jobqueue import SGECluster
from tensorflow.python.client import device_lib


def visible_gpus():
    return [d.name for d in device_lib.list_local_devices() if d.device_type == "GPU"]


cluster = SGECluster(queue="q_gpu_short", resource_spec="q_gpu_short=TRUE", cores=1)
"""
    assert _rules("examples/distributed.py", source) == set()
    assert _layers("examples/distributed.py", source) == {"portable": 5}


# -- CheickDiakite-yikes/gemma4-capability-map: device fallbacks and test doubles --------------


def test_device_preference_chain_counts_its_vendor_branches() -> None:
    # src/gemma4_capability_map/models/embeddinggemma_runner.py: the runner resolves a
    # preferred device, trying Apple's MPS and then CUDA before the CPU.
    source = b"""\
import torch


def pick_device(preferred: str) -> str:
    if preferred == "mps":
        if torch.backends.mps.is_available():
            return "mps"
    if preferred == "cuda":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return "cpu"
"""
    assert _rules("models/runner.py", source) == {
        "metal.device-string",
        "metal.mps-device",
        "torch.device-string",
    }
    assert _layers("models/runner.py", source) == {"vendor-path": 3, "portable": 5}


def test_fake_torch_namespace_in_a_test_stays_portable() -> None:
    # tests/test_hf_service.py: a stand-in torch module whose back ends all report absent;
    # the test runs the service on the CPU.
    source = b"""\
import types


def fake_torch():
    return types.SimpleNamespace(
        backends=types.SimpleNamespace(mps=types.SimpleNamespace(is_available=lambda: False)),
        cuda=types.SimpleNamespace(is_available=lambda: False),
    )
"""
    assert _rules("tests/test_service.py", source) == set()
    assert _layers("tests/test_service.py", source) == {"portable": 6}


def test_yaml_experiment_with_mps_reasoner_device_is_vendor_path() -> None:
    # configs/alpha_matrix.yaml: each experiment runs its Hugging Face reasoner on the
    # device the matrix names, Apple's MPS; the MLX back end beside it stays portable.
    source = b"""\
matrix:
  name: local_default
  experiments:
    - id: small_thinking
      backend: mlx
      reasoner: org/small-model
      reasoner_device: mps
      max_new_tokens: 48
    - id: small_auto
      reasoner_device: auto
"""
    assert _rules("configs/matrix.yaml", source) == {"metal.device-flag"}
    assert _layers("configs/matrix.yaml", source) == {"vendor-path": 1, "portable": 9}


def test_device_choices_on_a_command_line_stay_portable() -> None:
    # scripts/run_eval.py: the runner offers every device and defaults to picking one.
    source = b"""\
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--device", choices=["auto", "cpu", "mps", "cuda"], default="auto")
"""
    assert _rules("scripts/run_eval.py", source) == set()
    assert _layers("scripts/run_eval.py", source) == {"portable": 3}


# -- jimmybach/Standardized-Tabular-Diffusion: run configs and CPU-only guards -----------------


def test_toml_run_config_with_cuda_device_is_vendor_path() -> None:
    # TabDDPM-main/exp/*/config.toml: each experiment's config names the CUDA device to run on.
    source = b"""\
seed = 0
parent_dir = "exp/adult/tvae"
real_data_path = "data/adult/"
device = "cuda:1"

[train_params]
epochs = 300
"""
    assert _rules("exp/adult/tvae/config.toml", source) == {"torch.device-flag"}
    assert _layers("exp/adult/tvae/config.toml", source) == {"vendor-path": 1, "portable": 5}


def test_cpu_only_guard_stays_portable() -> None:
    # standardized_tabular_diffusion/validation/p4_global_source.py: the pilot refuses to run
    # where CUDA is present, and records that it saw none.
    source = b"""\
import torch


def check_runtime() -> dict:
    if torch.cuda.is_available():
        raise RuntimeError("this pilot is CPU-only")
    return {"torch_cuda_available": False}
"""
    assert _rules("validation/pilot.py", source) == set()
    assert _layers("validation/pilot.py", source) == {"portable": 5}


# -- Matt4401/Raytracer: a C++ helper named after GLSL's mod ----------------------------------


def test_cpp_helper_named_after_glsl_stays_portable() -> None:
    # src/object/primitive/fractal/strategy/MengerspongeStrategy.cpp: a lambda copying GLSL's
    # mod() for a signed distance function evaluated on the CPU.
    source = b"""\
#include <cmath>

double sponge(double x, double y, double scale) {
    auto glslMod = [](double v, double m) { return v - m * std::floor(v / m); };
    const double ax = glslMod(x * scale, 2.0) - 1.0;
    const double ay = glslMod(y * scale, 2.0) - 1.0;
    return std::sqrt(ax * ax + ay * ay);
}
"""
    assert _rules("src/fractal/Sponge.cpp", source) == set()
    assert _layers("src/fractal/Sponge.cpp", source) == {"portable": 7}
