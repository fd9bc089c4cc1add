"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h45-random-d).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 490-497, and every one had a snapshot: Feerip/hashcat, CorwinLab/extremeDiffusion1D,
TensorLink-AI/Gnomon, amirhh00/wgsl, wind342/gfg-training-learning-inference-experiments,
yashprit/paperworld3d, lhqsine/D3D_HLSL and ootomoh/cublas-xt. Fifteen files of each (all ten of
ootomoh/cublas-xt) were sampled with ``random.Random("owner/name")`` over every file lockin counts
with code lines, and labelled before any fix, with the files lockin calls non-portable (up to 20)
and GPU-looking files it calls portable (up to 10), and three commits touching GPU code per
repository were judged against ``lockin diff``. Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- wind342/gfg-training-learning-inference-experiments: a CPU-only experiment refusing CUDA --


def test_guard_raising_on_a_cuda_build_is_portable() -> None:
    # experiments/pytorch_autograd_training_lineage_v1/pipeline.py (and native_oracle_
    # workloads.py): the lineage must be computed on the CPU, so the runtime set-up raises when
    # the build or the machine has CUDA. Before, the guard was a line of vendor-path.
    source = b"""\
import torch


def configure_runtime():
    torch.set_default_dtype(torch.float64)
    torch.manual_seed(7)
    torch.use_deterministic_algorithms(True)
    if torch.cuda.is_available() or torch.version.cuda is not None:
        raise RuntimeError("CUDA must be disabled for this experiment")
"""
    assert _rules("experiments/lineage_v1/pipeline.py", source) == set()
    assert _layers("experiments/lineage_v1/pipeline.py", source) == {"portable": 7}


def test_test_asserting_the_cpu_build_is_portable() -> None:
    # experiments/pytorch_autograd_training_lineage_v1/tests/test_experiment.py: the test
    # checks that the official CPU wheel runs it. Before, the assertion was vendor-path.
    source = b"""\
import torch


def test_official_cpu_torch_executes():
    assert torch.__version__.endswith("+cpu")
    assert torch.version.cuda is None
    result = run_training_step("linear_chain")
    assert result["device"] == "cpu"
"""
    assert _rules("experiments/lineage_v1/tests/test_experiment.py", source) == set()
    assert _layers("experiments/lineage_v1/tests/test_experiment.py", source) == {"portable": 6}


def test_guard_raising_without_cuda_stays_vendor_path() -> None:
    # The negative: a build step that refuses every build but CUDA's takes an NVIDIA-only path,
    # and so does a branch choosing the CUDA kernel when the build has it.
    source = b"""\
import torch


def build_extension():
    if torch.version.cuda is None:
        raise RuntimeError("this extension needs a CUDA build of PyTorch")
    if torch.version.cuda is not None:
        return load_cuda_kernels()
    return None
"""
    assert _rules("setup_ext.py", source) == {"torch.cuda-version-check"}
    assert _layers("setup_ext.py", source) == {"vendor-path": 2, "portable": 5}


def test_seeding_cuda_when_present_stays_vendor_path() -> None:
    # experiments/gfg_rl_feedback_closure_v1/runtime.py: a sampled commit adds this; the gate
    # failing it was judged right (torch.cuda.* is vendor-path even behind a probe).
    source = b"""\
import random

import torch


def seed_everything(seed):
    random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)
"""
    assert _rules("experiments/rl_v1/runtime.py", source) == {"torch.cuda-call"}
    assert _layers("experiments/rl_v1/runtime.py", source) == {"vendor-path": 1, "portable": 6}
