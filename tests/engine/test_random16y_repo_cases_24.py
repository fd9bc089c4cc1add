"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-y).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 931-937 and skipped one: BradyAJohnston/MolecularNodes,
whose snapshot (838 MB) is over the size limit. Read were thu-pacman/ChituDiffusion (diffusion
serving in PyTorch: attention back ends over FlashAttention, FlashInfer, SageAttention and
SpargeAttn, CUDA and Ascend device handling, Slurm scripts), dmihovch/ViT-Quantization-Summer-
Scholars (ViT quantization experiments in PyTorch), robertszafa/elastic-sycl-hls (LLVM passes
that add load-store queues to SYCL HLS code for Intel FPGAs, with SYCL benchmark kernels and
the queue kernels themselves), philipjones77/arbPlusJAX (interval arithmetic in JAX; its
snapshot lacked two JSON registries, not counted code), adidshaft/ross-gemma4 (an on-device
legal assistant: Swift, Kotlin, TypeScript and Rust, no GPU code of its own) and
brineylab/deepspeed (training configs and CoreWeave job scripts). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, files outside the sample that hold kernel
lines counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- robertszafa/elastic-sycl-hls: SYCL kernels for Intel FPGAs ---------------------------------


def test_single_task_named_by_a_nested_template_is_a_kernel() -> None:
    # lsq/LoadStoreQueueBRAM.hpp: each stage of the queue is a single_task whose name is a
    # class template instantiated on the function's own parameter, its body after an
    # attribute macro. The nested angle brackets hid all four kernels.
    source = b"""\
#include <sycl/sycl.hpp>
using namespace sycl;
template <typename Id> class Forward;
template <typename Id, typename in_pipe, typename out_pipe, int N>
event forward(queue &q) {
  return q.single_task<Forward<Id>>([=]() STAGE_ATTRS {
    for (int i = 0; i < N; ++i) {
      auto v = in_pipe::read();
      out_pipe::write(v + 1);
    }
  });
}
"""
    assert "sycl.kernel" in _rules("lsq/forward.hpp", source)
    assert _layers("lsq/forward.hpp", source)["kernel"] == 6


def test_fpga_benchmark_single_task_with_attribute_is_a_kernel() -> None:
    # experiments/histogram_dram.cpp: one single_task with an Intel FPGA attribute after its
    # parameter list; the event and profiling lines around it are host code.
    source = b"""\
#include <sycl/sycl.hpp>
using namespace sycl;
class Count;
double run(queue &q, int *bins, const int *keys, int n) {
  auto ev = q.single_task<Count>([=]() [[intel::kernel_args_restrict]] {
    for (int i = 0; i < n; ++i) {
      bins[keys[i]] += 1;
    }
  });
  ev.wait();
  return 0.0;
}
"""
    assert _layers("experiments/count.cpp", source)["kernel"] == 5


# -- thu-pacman/ChituDiffusion: attention back ends ---------------------------------------------


def test_spargeattn_import_is_vendor_library() -> None:
    # chitu_diffusion/modules/attention/diffusion_attn_backend.py: probes for SpargeAttn's
    # CUDA-only sparse attention beside the portable FlashAttention-2 package.
    source = b"""\
try:
    import flash_attn
    HAVE_FA2 = True
except ImportError:
    HAVE_FA2 = False
try:
    from spas_sage_attn import block_sparse_sage2_attn_cuda
    HAVE_SPARSE = True
except ImportError:
    HAVE_SPARSE = False
"""
    assert _rules("attn/backends.py", source) == {"cuda-libs.python-llm-kernels"}
    assert _layers("attn/backends.py", source) == {"vendor-library": 1, "portable": 9}


def test_cuda_only_fallback_device_is_vendor_path() -> None:
    # chitu_diffusion/evaluation/strategy/fid.py: the metric model goes to "cuda" when it is
    # there and to the CPU otherwise.
    source = b"""\
import torch
def load_metric(model):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    return model.to(device).eval()
"""
    assert _layers("eval/fid.py", source) == {"vendor-path": 1, "portable": 3}


# -- philipjones77/arbPlusJAX: JAX platform selection -------------------------------------------


def test_jax_platforms_set_to_cuda_is_vendor_path() -> None:
    # src/arbplusjax/runtime.py: a GPU mode that pins JAX to its CUDA platform through the
    # environment of a child process.
    source = b"""\
import os
def child_env(mode):
    env = dict(os.environ)
    if mode == "gpu":
        env["JAX_PLATFORMS"] = "cuda"
    return env
"""
    assert _layers("runtime.py", source) == {"vendor-path": 1, "portable": 5}


def test_kernel_named_numerics_in_jax_are_portable() -> None:
    # src/arbplusjax/bessel_kernels.py: "kernel" here is a numerical routine in jax.numpy.
    source = b"""\
import jax.numpy as jnp
def bessel_series_kernel(x, terms):
    k = jnp.arange(terms)
    return jnp.sum((x / 2.0) ** (2 * k) / jnp.exp(jnp.lgamma(k + 1.0)) ** 2)
"""
    assert _rules("bessel_kernels.py", source) == set()


# -- brineylab/deepspeed: container image -------------------------------------------------------


def test_ngc_pytorch_base_image_is_vendor_path() -> None:
    # coreweave/Dockerfile: builds on NVIDIA's NGC PyTorch container.
    source = b"""\
ARG VERSION=25.01-py3
FROM nvcr.io/nvidia/pytorch:${VERSION}
RUN pip install accelerate wandb
"""
    assert _rules("Dockerfile", source) == {"image.nvidia-base"}
    assert _layers("Dockerfile", source) == {"vendor-path": 1, "portable": 2}
