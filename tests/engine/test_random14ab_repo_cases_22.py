"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-ab).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 581-587. Skipped were
springboardmentor56789s-lang/Cosumer-Attention-Mapping (no snapshot to be had) and
K9i-0/Seedance_Madogiwa-voxel-game (snapshot of 620 MB, over the 500 MiB limit). Read were
marki2121/Floyd-welch-algorithm-PYCUDA (Floyd-Warshall in PyCUDA: a .cu kernel read by the
Python host), tensorflow/similarity (metric learning on TensorFlow, no GPU code but a CUDA
wheel extra), garg-amit/DeepSpeedExamples (DeepSpeed training and inference examples: torch
CUDA calls, NCCL settings in launch scripts), xlnwel/grl2-jax (multi-agent RL in JAX and
PyTorch, nvidia-smi in run scripts) and LaurentMazare/tensorflow-ocaml (OCaml bindings to
TensorFlow's C API, no GPU code). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository; none had any), and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- marki2121/Floyd-welch-algorithm-PYCUDA: the kernel file read by the host ------------------


def test_pycuda_source_read_from_file_is_vendor_path_not_kernel() -> None:
    # main.py: SourceModule compiles main.cu, read at run time; the kernel is counted in the
    # .cu file, and the literal in the call is only its path.
    source = b"""\
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule
import numpy as np

dist = np.zeros((64, 64), dtype=np.float32)
mod = SourceModule(open("relax.cu").read())
relax = mod.get_function("relax")
for k in range(64):
    relax(drv.InOut(dist), np.int32(k), block=(32, 32, 1), grid=(2, 2))
"""
    assert _rules("main.py", source) == {"pycuda.driver", "pycuda.host-api"}
    assert _layers("main.py", source) == {"vendor-path": 6, "portable": 3}


def test_pycuda_source_module_with_inline_kernel_still_kernel() -> None:
    # Pinned: the inline form (the repository's earlier test script) stays a kernel: the
    # literal's lines, from the call's line to its close.
    source = b"""\
from pycuda.compiler import SourceModule
mod = SourceModule(\"\"\"
__global__ void relax(float *d, int n, int k) {
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && j < n) d[i * n + j] = fminf(d[i * n + j], d[i * n + k] + d[k * n + j]);
}
\"\"\")
"""
    assert "pycuda.source-module" in _rules("main.py", source)
    assert _layers("main.py", source)["kernel"] == 7


def test_cuda_kernel_file_counts_every_code_line() -> None:
    # Pinned: main.cu, a lone __global__ function without includes.
    source = b"""\
__global__ void relax(float *m, int *n1, int *k1) {
    int i = blockDim.y * blockIdx.y + threadIdx.y;
    int j = blockDim.x * blockIdx.x + threadIdx.x;

    int n = n1[0];
    int k = k1[0];
    if (i < n && j < n) {
        float via = m[i * n + k] + m[k * n + j];
        m[i * n + j] = via < m[i * n + j] ? via : m[i * n + j];
    }
}
"""
    assert _layers("relax.cu", source) == {"kernel": 10}


# -- xlnwel/grl2-jax: PopArt, the value normalisation, is not Graphcore's PopART ---------------


def test_popart_value_normalisation_is_portable() -> None:
    # algo/ppo/run.py and algo/happo/elements/trainer.py: a RunningMeanStd kept as `popart`.
    source = b"""\
import numpy as np

class Trainer:
    def __init__(self, config, n_groups):
        self.config = config
        self.popart = [RunningMeanStd(name=f"popart{i}") for i in range(n_groups)]

    def values(self, data, gid):
        if self.config.popart:
            return self.popart[gid].denormalize(data.value)
        return data.value

    def weights(self):
        return [popart.get_rms_stats() for popart in self.popart]
"""
    assert _rules("algo/trainer.py", source) == set()
    assert _layers("algo/trainer.py", source) == {"portable": 11}


def test_popart_library_import_still_vendor_library() -> None:
    # Pinned: Graphcore's PopART imported and used.
    source = b"""\
import popart
builder = popart.Builder()
x = builder.addInputTensor(popart.TensorInfo("FLOAT", [4]))
"""
    assert _rules("ipu/build.py", source) == {"graphcore.popart"}
    assert _layers("ipu/build.py", source) == {"vendor-library": 3}


def test_nvidia_smi_gpu_count_in_run_script_is_vendor_path() -> None:
    # Pinned: scripts/inf_mac/inf_tc counts GPUs with nvidia-smi to spread seeds over them.
    source = b"""\
#!/bin/bash
gpus=$(nvidia-smi -L | wc -l)
for s in 1 2 3; do
    gpu=$(( (s - 1) % gpus ))
    python run/train.py --gpu $gpu -s $s &
done
"""
    assert _layers("scripts/run_all", source) == {"vendor-path": 1, "portable": 4}


# -- garg-amit/DeepSpeedExamples: collective backends of two vendors ---------------------------


def test_backend_choices_naming_nccl_and_oneccl_are_portable() -> None:
    # benchmarks/communication/utils.py: the backends the benchmark accepts, NCCL beside
    # Intel's oneCCL under torch-ccl's name 'ccl'.
    source = b"""\
import argparse

def parser():
    p = argparse.ArgumentParser()
    p.add_argument("--dist", type=str, default="nccl", choices=["nccl", "ccl", "mpi"])
    return p
"""
    assert _rules("bench/utils.py", source) == set()
    assert _layers("bench/utils.py", source) == {"portable": 5}


def test_nccl_only_backend_string_still_vendor_path() -> None:
    # Pinned: a lone 'nccl' default stays vendor-path (DeepSpeedExamples constants).
    source = b"""\
DEFAULT_BACKEND = "nccl"
DEFAULT_DEVICE = "cuda"
TRIALS = 5
"""
    assert _rules("bench/constants.py", source) == {"torch.device-string"}
    assert _layers("bench/constants.py", source) == {"vendor-path": 2, "portable": 1}


def test_cuda_visible_devices_in_launch_script_is_vendor_path() -> None:
    # Pinned: bash_script/run_medium_random_ltd.sh pins the run to one NVIDIA GPU.
    source = b"""\
#!/bin/bash
export CUDA_VISIBLE_DEVICES=2
python run_clm.py \\
    --model_name_or_path gpt2-medium \\
    --per_device_train_batch_size 2
"""
    assert _rules("run_ltd.sh", source) == {"env.cuda-variables"}
    assert _layers("run_ltd.sh", source) == {"vendor-path": 1, "portable": 3}
