"""Cases from random samples on the final engine of the seventh audit (issue 27).

Fifteen files drawn at random (``random.seed("owner/name")``) from each of repositories nobody
had read: Lightning-AI/lightning-thunder here (Tencent/TNN's case is with the edge-inference
ones). Each snippet is a small rewrite, in our own words, of a pattern found in the repository
its test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers

# -- Lightning-AI/lightning-thunder: the nvFuser executor -------------------------------------


def test_thunder_nvfuser_translations_are_nvidia_library_code() -> None:
    # thunder/executors/nvfuserex_impl.py: Thunder's ops translated into nvFuser fusions, which
    # nvFuser compiles to CUDA kernels. Before, 3,300 lines counted as portable Python.
    source = b"""\
from nvfuser import DataType, FusionDefinition

from thunder.core.proxies import TensorProxy


def _mul(a: TensorProxy, b: TensorProxy, *, fd: FusionDefinition, lc_to_nv_map: dict):
    nva = getnv(a, fd, lc_to_nv_map)
    nvb = getnv(b, fd, lc_to_nv_map)
    return fd.ops.mul(nva, nvb)


def _full(shape, value, *, fd, lc_to_nv_map):
    nv_value = fd.define_scalar(value, DataType.Float)
    return fd.ops.full(shape, nv_value, DataType.Float)
"""
    path = "thunder/executors/nvfuserex_impl.py"
    assert classify(path, source).ecosystems == {"cuda": 5}
    assert _layers(path, source) == {"vendor-library": 5, "portable": 4}


def test_a_fused_op_without_nvfuser_stays_portable() -> None:
    # thunder/executors/torchex.py: the same op on PyTorch, which every vendor's build runs.
    source = b"""\
def _mul(a, b):
    # nvFuser would take this as a FusionDefinition of its own
    return torch.mul(a, b)
"""
    assert _layers("thunder/executors/torchex.py", source) == {"portable": 2}
