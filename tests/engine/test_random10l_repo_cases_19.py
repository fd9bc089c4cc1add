"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-l).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 89-96. Three had no snapshot and were skipped:
rdeforest/voxel-mvp, metalogiclabs/mathgraph and msankofa/workshop-webgpu. The five read were
DLR-SR/ThermofluidStream (a Modelica library; only its CI scripts are counted),
elena-lyulina/Megatron-LM-Attention-Benchmark (a Megatron-LM fork benchmarking attention
variants, with Triton kernels, Transformer Engine and Apex), Hydrospheredata/hydro-serving-ui
(an Angular front end for a model server), pytorch/captum (model interpretability on
PyTorch) and AndreeSalazar/REACTOR-Framework-for-Vulkan- (a Rust engine on ash with GLSL
shaders). Fifteen files of each repository (all eight of ThermofluidStream) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, and three commits touching GPU code judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- elena-lyulina/Megatron-LM-Attention-Benchmark: NVIDIA Apex imports -------------------


def test_bare_apex_probe_choosing_fused_norm_is_vendor_library() -> None:
    # megatron/core/models/vision/vit_layer_specs.py: a bare `import apex` in a try block
    # decides whether the layer spec uses the Apex-backed fused layer norm.
    source = b"""\
try:
    import apex  # noqa: F401

    from mylib.fused import FusedNorm

    NormImpl = FusedNorm
except ImportError:
    from mylib.plain import PlainNorm

    NormImpl = PlainNorm
"""
    assert _rules("models/vision/layer_specs.py", source) == {"cuda-libs.python-apex"}
    assert _layers("models/vision/layer_specs.py", source) == {
        "vendor-library": 1,
        "portable": 6,
    }


def test_apex_fused_optimizer_import_is_vendor_library() -> None:
    # megatron/core/optimizer/__init__.py: Apex's fused optimizers imported when present,
    # torch's own as the fallback.
    source = b"""\
try:
    from apex.optimizers import FusedAdam as Adam
    from apex.multi_tensor_apply import multi_tensor_applier
except ImportError:
    from torch.optim import AdamW as Adam

    multi_tensor_applier = None
"""
    assert _rules("optimizer/__init__.py", source) == {"cuda-libs.python-apex"}
    assert _layers("optimizer/__init__.py", source) == {"vendor-library": 2, "portable": 4}


def test_apex_named_things_that_are_not_apex_stay_portable() -> None:
    source = b"""\
import apexcharts_bridge
from apex_helpers import peak
# from apex.optimizers import FusedAdam once it is installed
FUSED = "apex"
"""
    assert _rules("tools/plot.py", source) == set()


# -- pytorch/captum: a CI job on PyTorch's NVIDIA GPU runners ------------------------------


def test_pytorch_shared_workflow_on_nvidia_runner_is_vendor_path() -> None:
    # .github/workflows/test-pip-gpu.yml: the shared linux job gets an NVIDIA runner label
    # and gpu-arch-type cuda; the CUDA wheel index in its script was already counted.
    source = b"""\
jobs:
  gpu:
    uses: pytorch/test-infra/.github/workflows/linux_job_v2.yml@main
    with:
      runner: linux.g6.4xlarge.nvidia.gpu
      gpu-arch-type: cuda
      gpu-arch-version: "12.8"
      script: |
        pip install -e .
        pytest tests
"""
    assert _rules(".github/workflows/gpu.yml", source) == {"ci.nvidia-gpu-runner"}
    assert _layers(".github/workflows/gpu.yml", source)["vendor-path"] == 2


def test_pytorch_shared_workflow_on_cpu_runner_is_portable() -> None:
    source = b"""\
jobs:
  cpu:
    uses: pytorch/test-infra/.github/workflows/linux_job_v2.yml@main
    with:
      runner: linux.4xlarge
      gpu-arch-type: cpu
"""
    assert _rules(".github/workflows/cpu.yml", source) == set()


# -- verdicts that were already right (pinned) ---------------------------------------------


def test_triton_kernel_docstring_is_not_counted_as_kernel() -> None:
    # megatron/core/inference/moe/metadata.py: one @triton.jit kernel with a long docstring;
    # the kernel's code lines are its signature and body.
    source = b'''\
import triton
import triton.language as tl


@triton.jit
def _sum_kernel(src_ptr, out_ptr, N: tl.constexpr):
    """Add up N values.

    Args:
        src_ptr: input.
        out_ptr: output.
    """
    offs = tl.arange(0, N)
    vals = tl.load(src_ptr + offs)
    tl.store(out_ptr, tl.sum(vals))


def launch(src, out):
    _sum_kernel[(1,)](src, out, N=src.numel())
'''
    assert _rules("moe/metadata.py", source) == {"triton.jit"}
    assert _layers("moe/metadata.py", source)["kernel"] == 5


def test_rust_ash_host_code_is_vendor_path_and_engine_prelude_is_portable() -> None:
    # REACTOR src/graphics/ibl/mod.rs: formats named through ash's vk module; xenofall/combat.rs
    # uses only the engine's own prelude, whose crate name happens to say vulkan.
    host = b"""\
use ash::vk;

pub(crate) const HDR: vk::Format = vk::Format::R16G16B16A16_SFLOAT;

pub fn describe() -> &'static str {
    "hdr target"
}
"""
    assert _rules("src/graphics/ibl/mod.rs", host) == {"vulkan.rust-bindings"}
    game = b"""\
use my_engine_vulkan::prelude::*;

pub fn fire(world: &mut World) {
    world.spawn_projectile();
}
"""
    assert _rules("game/combat.rs", game) == set()
    assert _layers("game/combat.rs", game) == {"portable": 4}


def test_parameterized_cuda_device_list_is_vendor_path() -> None:
    # pytorch/captum tests/attr/test_llm_attr.py: the test class runs on "cuda" too when
    # torch sees a CUDA device.
    source = b"""\
import torch
from parameterized import parameterized_class


@parameterized_class(
    ("device",),
    [("cpu",), ("cuda",)] if torch.cuda.is_available() else [("cpu",)],
)
class TestAttr:
    device: str
"""
    assert "torch.device-string" in _rules("tests/test_attr.py", source)
    assert set(_layers("tests/test_attr.py", source)) == {"vendor-path", "portable"}


def test_flash_attention_two_import_stays_portable() -> None:
    # attn_bench/kernels/full/flash.py: FlashAttention-2, which builds for ROCm as well.
    source = b"""\
try:
    from flash_attn import flash_attn_func

    HAVE_FLASH = True
except ImportError:
    HAVE_FLASH = False
"""
    assert _rules("kernels/full/flash.py", source) == set()
