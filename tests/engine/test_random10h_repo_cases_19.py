"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-h).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 57-64 and every one had a snapshot, so none was skipped:
pytorch/xla (PyTorch on XLA devices, with Pallas TPU kernels), Lecrut/Diffusion-code-generation
(a small code-generation diffusion model), rosshadden/pycuda-prime-factorization (a PyCUDA
toy), KnockerPulsar/raytracer (a CPU ray tracer in C++), tensorflow/playground (the browser
neural-network playground), jinhuang12/vllm (a fork of vLLM), osyka-yuri/renderpilot (a
desktop manager for game upscaler and shader add-ons) and jeiths2202/gpubase-raphrag (a RAG
service with a React front end). Two snapshots lack their largest blobs (textures, images), so
their trees were laid out with ``git checkout-index`` and the missing assets left out; no
counted file was missing. Fifteen files of each repository (all of them where fewer) were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, and three commits touching GPU code, drawn with
``random.Random("owner/name:commits")``, judged against ``lockin diff``. Each snippet is a small
rewrite, in our own words, of a pattern found in the repository its test names; the expected
layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- osyka-yuri/renderpilot: the company name as data, not a device's vendor string -----------


def test_code_signing_subject_naming_the_vendor_is_portable() -> None:
    # apps/desktop/ui/src/app/mocks/fixtures/libraries.ts: mock DLL records carry the
    # Authenticode signature, whose subject is the company that signed the file.
    source = b"""\
export const upscalerDlls = [
  {
    file: 'upscaler_a.dll',
    version: '3.7.10',
    primary_signature: { status: 'signed', subject: 'NVIDIA Corporation', signed_at: null },
  },
];
"""
    assert _rules("src/mocks/fixtures/dlls.ts", source) == set()
    assert _layers("src/mocks/fixtures/dlls.ts", source) == {"portable": 7}


def test_version_info_company_pair_is_portable() -> None:
    # crates/renderpilot-orchestration/src/addons/test_support.rs: a fake PE version-info
    # table is a list of (key, value) pairs, one of them the CompanyName.
    source = b"""\
fn fake_version_info() -> Vec<(&'static str, String)> {
    vec![
        ("ProductName", "Upscaler SDK".to_owned()),
        ("CompanyName", "NVIDIA Corporation".to_owned()),
    ]
}
"""
    assert _rules("src/addons/test_support.rs", source) == set()
    assert _layers("src/addons/test_support.rs", source) == {"portable": 6}


def test_vendor_string_comparison_stays_vendor_path() -> None:
    # The rule's own target next to the pairs above: a branch on the reported vendor.
    source = b"""\
fn warp_width(vendor: &str) -> u32 {
    if vendor == "NVIDIA Corporation" { 32 } else { 64 }
}
"""
    assert _rules("src/device.rs", source) == {"opencl.nvidia-vendor-check"}
    assert _layers("src/device.rs", source) == {"vendor-path": 1, "portable": 2}


# -- pytorch/xla: the Cloud TPU client package --------------------------------------------------


def test_cloud_tpu_client_install_is_vendor_path() -> None:
    # .github/upstream/install_conda.sh: the CI image installs the Cloud TPU client among
    # its plain Python tools.
    source = b"""\
#!/bin/bash
set -e
pip install pyyaml absl-py
pip install cloud-tpu-client
pip install pytest
"""
    assert _rules("ci/install_deps.sh", source) == {"tpu.resources"}
    assert _layers("ci/install_deps.sh", source) == {"vendor-path": 1, "portable": 3}


def test_cloud_tpu_client_in_ansible_pip_list_is_vendor_path() -> None:
    # infra/ansible/config/pip.yaml: the same package in a list of pip packages.
    source = b"""\
pip:
  common:
    - absl-py
    - cloud-tpu-client
    - numpy
"""
    assert _rules("infra/pip.yaml", source) == {"tpu.resources"}
    assert _layers("infra/pip.yaml", source) == {"vendor-path": 1, "portable": 4}


def test_libtpu_named_in_a_pull_request_body_is_portable() -> None:
    # .github/workflows/openxla_pin_update_weekly.yml: the weekly pin bump opens a pull
    # request whose body names the libtpu nightly; the steps install nothing for TPUs.
    source = b"""\
name: weekly pin update
on:
  schedule:
    - cron: "0 6 * * 1"
jobs:
  bump:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/create-pull-request@v4
        with:
          title: "Weekly pin update"
          body: "Moves the compiler pin and the libtpu nightly to ${{ env.DATE }}."
"""
    assert _rules(".github/workflows/pin_update.yml", source) == set()
    assert _layers(".github/workflows/pin_update.yml", source) == {"portable": 12}


def test_libtpu_wheel_pin_in_a_workflow_stays_vendor_path() -> None:
    # The rule's own target in the same kind of file: a step installing libtpu.
    source = b"""\
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: pip install libtpu-nightly
"""
    assert _rules(".github/workflows/tpu.yml", source) == {"tpu.resources"}
    assert _layers(".github/workflows/tpu.yml", source) == {"vendor-path": 1, "portable": 4}


def test_pallas_payload_sent_as_tpu_custom_call_is_vendor_path() -> None:
    # torch_xla/experimental/custom_kernel.py: a Pallas kernel is traced with the Mosaic TPU
    # lowering registered, and its serialized body is run through XLA's TPU custom call.
    source = b"""\
import torch


def lower_kernel(kernel, *shapes):
    import jax
    import jax._src.pallas.mosaic.pallas_call_registration

    ir = jax.jit(kernel).lower(*shapes).compiler_ir()
    return find_backend_config(ir)


def run_kernel(kernel, tensors, out_shapes, out_dtypes):
    payload = lower_kernel(kernel, *[meta(t) for t in tensors])
    return torch_xla._XLAC._xla_tpu_custom_call(tensors, payload, out_shapes, out_dtypes)
"""
    assert _rules("ext/custom_kernel.py", source) == {"tpu.custom-call"}
    assert _layers("ext/custom_kernel.py", source) == {"vendor-path": 2, "portable": 7}


def test_test_named_after_tpu_custom_call_is_not_the_call() -> None:
    # test/test_ops_error_message.py: a test method is named after the custom call it checks;
    # the def line calls nothing, the body's call through a variable is not read.
    source = b"""\
class CustomCallMessages:
    def test_tpu_custom_call(self):
        call = self.pick("tpu")
        self.assert_raises(lambda: call([], "", [[1]]), "expected at least 1 input")
"""
    assert _rules("test/test_messages.py", source) == set()
    assert _layers("test/test_messages.py", source) == {"portable": 4}


def test_jax_prebuilt_tpu_kernels_import_is_vendor_library() -> None:
    # test/test_ragged_paged_attention_kernel.py: the test checks its kernel against helpers
    # from JAX's bundled Pallas TPU kernels.
    source = b"""\
import jax.numpy as jnp
from jax.experimental.pallas.ops.tpu.paged_attention import quantization_utils


def quantize_pages(pages, bits):
    return quantization_utils.quantize_to_int(pages, bits)


def reference(q, pages):
    return jnp.einsum("hd,phd->hp", q, pages)
"""
    assert _rules("test/test_paged_kernel.py", source) == {"pallas.tpu-ops"}
    assert _layers("test/test_paged_kernel.py", source) == {"vendor-library": 1, "portable": 5}


# -- verdicts that were already right -----------------------------------------------------------


def test_triton_nan_count_kernel_is_kernel_code() -> None:
    # jinhuang12/vllm vllm/v1/worker/gpu/metrics/logits.py: a Triton kernel counting NaNs per
    # row and its launcher.
    source = b"""\
import torch
from vllm.triton_utils import tl, triton


@triton.jit
def _count_inf_kernel(x_ptr, stride, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    total = 0
    for start in range(0, n, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * stride + cols, mask=cols < n, other=0)
        total += tl.sum((v == float("inf")).to(tl.int32))
    tl.store(out_ptr + row, total)


def count_inf(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty(x.shape[0], dtype=torch.int32, device=x.device)
    _count_inf_kernel[(x.shape[0],)](x, x.stride(0), out, x.shape[1], BLOCK=1024)
    return out
"""
    assert _rules("metrics/inf_count.py", source) == {"triton.jit"}
    assert _layers("metrics/inf_count.py", source) == {"kernel": 9, "portable": 6}


def test_pycuda_source_module_is_kernel_and_driver_calls_vendor_path() -> None:
    # rosshadden/pycuda-prime-factorization parallelFactors.py: CUDA C in a SourceModule
    # string, launched with pycuda's In/Out wrappers.
    source = b"""\
import numpy
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule

mod = SourceModule('''
__global__ void divides(long long n, int *out, const int *cand) {
    int i = threadIdx.x;
    out[i] = (n % cand[i] == 0) ? cand[i] : 0;
}
''')


def divisors(n, cand):
    out = numpy.zeros_like(cand)
    mod.get_function('divides')(numpy.int64(n), drv.Out(out), drv.In(cand), block=(len(cand), 1, 1))
    return out
"""
    assert _rules("factor.py", source) == {
        "pycuda.driver",
        "pycuda.host-api",
        "pycuda.source-module",
    }
    layers = _layers("factor.py", source)
    assert set(layers) == {"kernel", "vendor-path", "portable"}
    assert 4 <= layers["kernel"] <= 7


def test_cub_or_hipcub_header_switch_is_vendor_code() -> None:
    # jinhuang12/vllm csrc/cub_helpers.h: CUB on CUDA, hipCUB aliased to cub on ROCm.
    source = b"""\
#pragma once
#ifndef USE_ROCM
  #include <cub/cub.cuh>
using SumOp = cub::Sum;
#else
  #include <hipcub/hipcub.hpp>
namespace cub = hipcub;
using SumOp = hipcub::Sum;
#endif
"""
    layers = _layers("csrc/reduce_helpers.h", source)
    assert set(layers) - {"portable"} == {"vendor-library", "vendor-path"}


def test_cuda_wheel_index_in_requirements_is_vendor_path() -> None:
    # Lecrut/Diffusion-code-generation requirements.txt: torch from the CUDA 13 wheel index.
    source = b"""\
--index-url https://download.pytorch.org/whl/cu130
--extra-index-url https://pypi.org/simple
torch
numpy==2.3.5
"""
    assert _rules("requirements.txt", source) == {"deps.cuda-wheel"}
    assert _layers("requirements.txt", source) == {"vendor-path": 1, "portable": 3}
