"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-f).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 623-629. iker00/render-engine (position 627) had no
snapshot and was skipped. The six read were SemiAnalysisAI/InferenceX (inference benchmark
recipes and launchers for NVIDIA and AMD clusters), pytorch/ignite (a PyTorch training
library), Andrelbmachado/Open-Assistant (a SwiftUI app with no GPU code),
facebookexperimental/triton (Meta's fork of the Triton compiler), Kwasniok/cpp-raytracing (a
CPU ray tracer in C++) and TheApeMachine/decoupled-bottleneck-attention (attention research
with Triton kernels). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, and three commits touching GPU code (drawn with
``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- SemiAnalysisAI/InferenceX: disaggregated serving recipes --------------------------------


def test_ucx_cuda_transports_in_a_recipe_are_vendor_path() -> None:
    # benchmarks/multi_node/srt-slurm-recipes/vllm/minimax-m3/b300-fp4/1k1k/*.yaml: the
    # prefill and decode workers move their KV cache over UCX's CUDA copy transport; no
    # NCCL variable is set, so UCX_TLS was the file's only NVIDIA-specific setting.
    source = b"""\
name: "demo-disagg-1p1d"
resources:
  gpus_per_node: 8
backend:
  type: vllm
  prefill_environment:
    UCX_TLS: "cuda_copy,rc"
    VLLM_LOGGING_LEVEL: "INFO"
  decode_environment:
    UCX_TLS: "rc,cuda_ipc"
"""
    assert _rules("recipes/demo/1p1d.yaml", source) == {"env.cuda-variables"}
    assert _layers("recipes/demo/1p1d.yaml", source) == {"vendor-path": 2, "portable": 8}


def test_ucx_over_the_network_only_is_portable() -> None:
    # The same recipes' shape with UCX held to InfiniBand and TCP: nothing CUDA-specific.
    source = b"""\
backend:
  prefill_environment:
    UCX_TLS: "rc,tcp,self"
    UCX_NET_DEVICES: "mlx5_0:1"
"""
    assert _rules("recipes/demo/net.yaml", source) == set()
    assert _layers("recipes/demo/net.yaml", source) == {"portable": 4}


def test_nccl_tuning_in_a_recipe_stays_vendor_path() -> None:
    # benchmarks/multi_node/srt-slurm-recipes/sglang/deepseek-v4/8k1k/*.yaml: already right.
    source = b"""\
backend:
  decode_environment:
    NCCL_MNNVL_ENABLE: "1"
    NCCL_CUMEM_ENABLE: "1"
    SGLANG_LOG_LEVEL: "info"
"""
    assert _rules("recipes/demo/sglang.yaml", source) == {"env.cuda-variables"}
    assert _layers("recipes/demo/sglang.yaml", source) == {"vendor-path": 2, "portable": 3}


# -- facebookexperimental/triton: @jit methods of Triton aggregate classes --------------------


def test_jit_methods_of_an_aggregate_class_are_kernel_code() -> None:
    # python/triton/language/schedule.py: tile schedulers are @tl._aggregate classes whose
    # @jit methods run on the device; the plain helpers beside them stay portable.
    source = b"""\
import triton.language.core as tl
from triton.runtime.jit import jit


@tl._aggregate
class OneTileScheduler:
    _done: tl.tensor
    _x: tl.tensor

    @jit
    def start(n_tiles):
        return OneTileScheduler(tl.to_tensor(False), tl.program_id(0))

    @jit
    def valid(self):
        return not self._done


def attach(cls):
    cls.first = property(lambda self: self._x)
    return cls
"""
    assert _rules("language/schedule.py", source) == {"triton.jit"}
    assert _layers("language/schedule.py", source) == {"kernel": 6, "portable": 9}


# -- pytorch/ignite: device selection and logging ------------------------------------------


def test_cuda_device_chosen_when_available_is_vendor_path() -> None:
    # examples/mnist/mnist_with_neptune_logger.py: already right.
    source = b"""\
import torch


def pick():
    device = "cpu"
    if torch.cuda.is_available():
        device = "cuda"
    return device
"""
    assert _rules("examples/mnist/run.py", source) == {"torch.device-string"}
    assert _layers("examples/mnist/run.py", source) == {"vendor-path": 1, "portable": 5}


def test_logging_cuda_versions_is_portable() -> None:
    # examples/references/segmentation/pascal_voc2012/utils.py: the run's log names the GPU
    # and the CUDA and cuDNN versions when CUDA is there; nothing runs differently.
    source = b"""\
import torch


def describe(log):
    log.info(f"torch {torch.__version__}")
    if torch.cuda.is_available():
        from torch.backends import cudnn

        log.info(f"cuda {torch.version.cuda}")
        log.info(f"cudnn {cudnn.version()}")
"""
    assert _rules("examples/utils.py", source) == set()
    assert _layers("examples/utils.py", source) == {"portable": 7}


# -- facebookexperimental/triton: PTX bodies kept without a module header ---------------------


def test_ptx_fragments_in_an_analysers_tests_are_kernel_code() -> None:
    # bitequiv/tests/test_ptx_forward_cfg.py: kernel bodies kept as bare PTX (register
    # declarations, a read of %tid.x, a guarded branch) and wrapped in an entry by a helper.
    # Only the header and the `.visible .entry` wrapper were counted, not the three lines of
    # the body.
    source = b"""\
from ptxlib import parse

HEADER = ".version 8.0\\n"


def wrap(body):
    return parse(HEADER + ".visible .entry k()\\n{\\n" + body + "}\\n")


# thread index below 32: decided by the thread alone.
GUARD = (".reg .b32 %r<4>;\\n.reg .pred %p<2>;\\n"
         "mov.u32 %r1, %tid.x;\\nsetp.lt.s32 %p1, %r1, 32;\\n"
         "@%p1 bra END;\\nEND:\\nret;\\n")


def test_guard():
    assert wrap(GUARD).ok
"""
    assert _rules("tests/test_guard.py", source) == {"cuda.ptx-string"}
    assert _layers("tests/test_guard.py", source) == {"kernel": 5, "portable": 4}


def test_prose_naming_ptx_registers_is_portable() -> None:
    # The same tests' docstrings speak of %tid.x in prose; no instruction reads it.
    source = b"""\
def test_lane():
    \"\"\"The lane is %tid.x modulo 32.\"\"\"
    note = "a .reg .b32 per value"
    assert note
"""
    assert _rules("tests/test_lane.py", source) == set()
    assert _layers("tests/test_lane.py", source) == {"portable": 3}
