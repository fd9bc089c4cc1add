"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-e).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 225-231. None was skipped: all seven had a snapshot.
Read were forkni/cuda-link (zero-copy GPU texture sharing between TouchDesigner and Python
through CUDA IPC: ctypes bindings of cudart, an NVML observer, CuPy and torch consumers),
sidhulyalkar/neural-search (a neuroscience data-set search engine: Python retrieval and
ingestion, a React and Three.js front end, no GPU code beyond one sentence-transformers
device pick), flagos-ai/Megatron-LM-FL (FlagOS's multi-vendor fork of Megatron-LM: Triton
Mamba and MoE kernels, Transformer Engine and Apex layers, torch.cuda host code, NCCL run
scripts and CI configs), Sphere10/Hydrogen (a relocation notice: one file, no code),
TheUnsolvedDev/TensorflowAI (TensorFlow image-classification networks, one script per model,
two of them pinning MirroredStrategy to NCCL), Freshield/LEARN_PYCUDA (PyCUDA tutorial
scripts: SourceModule kernels, gpuarray and ReductionKernel) and GitOrchAI/gitorch (a
TypeScript orchestrator of coding agents, no GPU code). Fifteen files of each repository
were sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, files outside the sample that hold kernel lines
counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- flagos-ai/Megatron-LM-FL: shard placements, Triton kernels, TE imports, CI configs -----


def test_sharded_tensor_placement_on_cuda_is_vendor_path() -> None:
    # megatron/core/dist_checkpointing/strategies/torch.py (sampled; before: vendor-library
    # only, the placements missed): each local shard of a ShardedTensor is placed with a
    # torch.distributed remote-device string, "rank:<n>/cuda", beside a TE import.
    source = b"""\
try:
    from transformer_engine.pytorch.float8_tensor import Float8Tensor
    HAVE_TE = True
except ImportError:
    HAVE_TE = False


def shard_layout(pieces, rank, world):
    metas = []
    for offset, size, mine in pieces:
        if mine:
            where = f"rank:{rank}/cuda"
        else:
            where = f"rank:{(rank + 1) % world}/cuda"
        metas.append(ShardMetadata(offset, size, where))
    return metas
"""
    path = "megatron/core/dist_checkpointing/strategies/shards.py"
    assert _rules(path, source) == {"cuda-libs.python-llm-kernels", "torch.remote-device-string"}
    layers = _layers(path, source)
    assert layers["vendor-path"] == 2
    assert layers["vendor-library"] == 1


def test_sharding_spec_placements_and_remote_module_are_vendor_path() -> None:
    # The documented forms of the same strings: a chunk sharding spec over two ranks and an
    # RPC remote module started on a worker's GPU.
    source = b"""\
spec = ChunkShardingSpec(
    dim=0,
    placements=["rank:0/cuda:0", "rank:1/cuda:1"],
)
layer = RemoteModule("trainer0/cpu", nn.Linear, args=(4, 4))
head = RemoteModule("worker1/cuda:0", nn.Linear, args=(4, 2))
"""
    path = "parallel/spec.py"
    assert _rules(path, source) == {"torch.remote-device-string"}
    assert _layers(path, source)["vendor-path"] == 2


def test_placement_from_the_runtime_device_and_cuda_folders_are_portable() -> None:
    # The negative: a placement built from the device type found at run time, and folder
    # names that end in cuda, name no device.
    source = b"""\
where = f"rank:{rank}/{device.type}"
spare = "rank:0/cpu"
sources = ["csrc/cuda", "third_party/cuda"]
"""
    path = "parallel/layout.py"
    assert "torch.remote-device-string" not in _rules(path, source)
    assert set(_layers(path, source)) == {"portable"}


def test_triton_barrier_with_inline_ptx_is_kernel() -> None:
    # megatron/core/inference/communication/torch_symm_triton/barrier.py (an extra kernel
    # file, hand 59, lockin 61): Triton helpers whose body is inline PTX spinning on a
    # compare-and-swap; the docstring-free rewrite here is kernel whole.
    source = b"""\
import triton
import triton.language as tl


@triton.jit
def _raise_flag(ptrs, order: tl.constexpr):
    tl.inline_asm_elementwise(
        f\"\"\"
        {{
            .reg .u32 %old<1>;
            .reg .pred %ok<1>;
        retry:
            atom.global.{order}.sys.cas.b32 %old0, [$1], 0, 1;
            setp.eq.u32 %ok0, %old0, 0;
            @!%ok0 bra retry;
        }}
        \"\"\",
        "=r, l",
        [ptrs],
        dtype=tl.int32,
        is_pure=False,
        pack=1,
    )
"""
    path = "megatron/core/inference/communication/sync_flags.py"
    layers = _layers(path, source)
    assert "triton.jit" in _rules(path, source)
    assert set(layers) - {"portable"} == {"kernel"}
    assert 17 <= layers["kernel"] <= 20


def test_ci_model_config_env_vars_are_vendor_path() -> None:
    # tests/functional_tests/test_cases/gpt/*/model_config.yaml (sampled twice, already
    # right): a functional test's environment pins CUDA, NCCL and cuBLAS knobs.
    source = b"""\
ENV_VARS:
  CUDA_DEVICE_MAX_CONNECTIONS: 1
  NCCL_ALGO: Ring
  CUBLAS_WORKSPACE_CONFIG: :4096:8
MODEL_ARGS:
  --num-layers: 12
  --hidden-size: 512
  --transformer-impl: local
"""
    path = "tests/functional_tests/test_cases/gpt/gpt_small/model_config.yaml"
    assert "env.cuda-variables" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_stub_module_of_mocked_extension_classes_is_portable() -> None:
    # megatron/core/extensions/kitchen.py (sampled, already right): an unreleased extension
    # stubbed with MagicMock names; nothing here calls a GPU.
    source = b"""\
from unittest.mock import MagicMock

HAVE_QUANT_EXT = False

QuantLinear = MagicMock()
QuantAttention = MagicMock()
quant_params_from_recipe = MagicMock()
"""
    path = "megatron/core/extensions/quant_ext.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- forkni/cuda-link: CUDA IPC over ctypes, an NVML observer, tests on the wrapper ---------


def test_nvml_available_flag_reexported_by_a_package_is_portable() -> None:
    # src/cuda_link/__init__.py (a non-portable file; before: vendor-path 1 on
    # NVML_AVAILABLE): the package re-exports its own wrapper and import flag; the wrapper
    # module's `import pynvml` is where NVML is used.
    source = b"""\
from .ipc_exporter import FrameExporter
from .gpu_observer import NVML_AVAILABLE, GpuObserver

__all__ = ["FrameExporter", "NVML_AVAILABLE", "GpuObserver"]
"""
    path = "src/texlink/__init__.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_nvml_wrapper_importing_pynvml_stays_vendor_path() -> None:
    # src/cuda_link/nvml_observer.py (a non-portable file, already right): the wrapper
    # imports pynvml and reads clocks with NVML's calls and constants.
    source = b"""\
try:
    import pynvml
    NVML_AVAILABLE = True
except ImportError:
    NVML_AVAILABLE = False


def sm_clock(handle):
    return pynvml.nvmlDeviceGetClockInfo(handle, pynvml.NVML_CLOCK_SM)
"""
    path = "src/texlink/gpu_observer.py"
    assert _rules(path, source) == {"cuda.nvml"}
    assert _layers(path, source)["vendor-path"] >= 2


def test_torch_cuda_event_timing_helper_is_vendor_path() -> None:
    # src/cuda_link/debug_utils.py (sampled, already right): a profiling helper timing a
    # section with torch.cuda events and synchronize.
    source = b"""\
import torch


def timed(fn):
    begin = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    begin.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    return begin.elapsed_time(end)
"""
    path = "src/texlink/profiling.py"
    assert "torch.cuda-call" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_tests_driving_the_projects_own_runtime_wrapper_are_portable() -> None:
    # tests/test_integration.py (sampled, already right): tests call the project's runtime
    # wrapper through a fixture (malloc, ipc handle, free); the CUDA calls live in the wrapper.
    source = b"""\
import pytest


@pytest.mark.requires_gpu
def test_handle_roundtrip(runtime, shm_name):
    ptr = runtime.malloc(1 << 20)
    handle = runtime.ipc_get_mem_handle(ptr)
    assert len(bytes(handle.internal)) == 64
    runtime.free(ptr)
"""
    path = "tests/test_handles.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- Freshield/LEARN_PYCUDA: SourceModule kernels, gpuarray, ReductionKernel -----------------


def test_pycuda_source_module_kernel_and_driver_calls() -> None:
    # 02_tutorial/test_begin.py (sampled, hand 5, lockin 7: the delimiters counted): a
    # SourceModule kernel doubling a matrix, with mem_alloc and memcpy around it.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule

m = np.ones((4, 4), dtype=np.float32)
m_dev = drv.mem_alloc(m.nbytes)
drv.memcpy_htod(m_dev, m)
mod = SourceModule(
    \"\"\"
    __global__ void twice(float *m)
    {
        int k = threadIdx.x + threadIdx.y * 4;
        m[k] *= 2;
    }
    \"\"\"
)
mod.get_function("twice")(m_dev, block=(4, 4, 1))
drv.memcpy_dtoh(m, m_dev)
"""
    path = "02_tutorial/twice.py"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "vendor-path", "portable"}
    assert 5 <= layers["kernel"] <= 7


def test_pycuda_gpuarray_only_is_vendor_path() -> None:
    # 02_tutorial/test_gpuarray.py (sampled, already right): an array moved to the GPU and
    # scaled there with gpuarray; no kernel source.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.gpuarray as gpuarray

host = np.arange(16, dtype=np.float32)
dev = gpuarray.to_gpu(host)
print((dev * 3).get())
"""
    path = "02_tutorial/scale_array.py"
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_pycuda_reduction_kernel_expressions_are_kernel() -> None:
    # 02_tutorial/test_reduction.py (sampled, hand 3, lockin 3): ReductionKernel's map and
    # reduce expressions are C compiled for the GPU.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.gpuarray as gpuarray
from pycuda.reduction import ReductionKernel

x = gpuarray.arange(64, dtype=np.float32)
norm2 = ReductionKernel(np.float32, neutral="0",
                        reduce_expr="a+b", map_expr="v[i]*v[i]",
                        arguments="float *v")
print(norm2(x).get())
"""
    path = "02_tutorial/norm.py"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "vendor-path", "portable"}
    assert layers["kernel"] == 3


# -- TheUnsolvedDev/TensorflowAI: GPU selection through tf.config, NCCL strategies ---------


def test_tensorflow_gpu_selection_through_tf_config_is_portable() -> None:
    # LargeNetwork/*/train_and_test.py (sampled many times, already right): the script picks
    # a GPU with tf.config's device-generic calls; a ROCm build of TensorFlow answers too.
    source = b"""\
import argparse
import tensorflow as tf

parser = argparse.ArgumentParser(description="pick a GPU")
parser.add_argument("--gpu", type=int, default=0)
args = parser.parse_args()
gpus = tf.config.experimental.list_physical_devices("GPU")
for g in gpus:
    tf.config.experimental.set_memory_growth(g, True)
if args.gpu != -1:
    tf.config.experimental.set_visible_devices(gpus[args.gpu], "GPU")
strategy = tf.distribute.MirroredStrategy()
"""
    path = "Vision/ResNet/train.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_mirrored_strategy_pinned_to_nccl_is_vendor_path() -> None:
    # SmallNetwork/6_ShuffleNet/*/train_and_test.py (non-portable, already right; commit
    # 7b2dec1f adds two such lines and fails the gate, as it should).
    source = b"""\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(cross_device_ops=tf.distribute.NcclAllReduce())
with strategy.scope():
    model = build()
"""
    path = "Vision/ShuffleNet/train.py"
    assert _rules(path, source) == {"tensorflow.nccl-collective"}
    assert _layers(path, source)["vendor-path"] == 1


# -- sidhulyalkar/neural-search: a Three.js viewer and one device pick ---------------------


def test_three_js_brain_viewer_is_portable() -> None:
    # apps/web/src/components/brain/BrainCircuitViewer.tsx (sampled, already right): a React
    # component drawing a scene with Three.js over WebGL, a portable API.
    source = b"""\
import * as THREE from 'three'
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js'

export function mountViewer(el: HTMLElement) {
  const renderer = new THREE.WebGLRenderer({ antialias: true })
  const scene = new THREE.Scene()
  const camera = new THREE.PerspectiveCamera(45, 1, 0.1, 100)
  new OrbitControls(camera, renderer.domElement)
  el.appendChild(renderer.domElement)
  renderer.render(scene, camera)
}
"""
    path = "apps/web/src/components/viewer/Viewer.tsx"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_embedding_model_auto_device_pick_is_vendor_path() -> None:
    # neural_search/embeddings/dense_provider.py (non-portable, already right): the model
    # goes to "cuda" when torch sees it, else the CPU.
    source = b"""\
def auto_device() -> str:
    import torch
    return "cuda" if torch.cuda.is_available() else "cpu"
"""
    path = "search/embeddings/dense.py"
    assert set(_layers(path, source)) == {"vendor-path", "portable"}
