"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-y).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 560-566 and skipped none. Read were MolecularAI/aizynthfinder
(retrosynthesis planning in Python, no GPU code), JimClarke5/tensorflow-java-keras (Keras in
Java over TensorFlow, no GPU code), dsgoficial/pytorch_segmentation_models_trainer (PyTorch
segmentation training with CUDA device strings and an NVIDIA base image), sophgo/torch-tpu
(Sophgo's PyTorch plug-in: tpu_kernel.h firmware kernels in C, host ops calling tpuDNN, and
Python tests on the 'tpu' device), KStocky/ShaderTestFramework (a Catch2-based HLSL test
framework on Direct3D 12), MadLadSquad/UntitledVulkanGameEngineOld (a C++ game engine with a
Vulkan renderer and GLSL shaders) and ElixirTrials/medgemma-hackathon (a clinical-trial web
service, no GPU code). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- sophgo/torch-tpu: firmware kernels against tpu_kernel.h -----------------------------------


def test_tpu_firmware_kernel_file_is_kernel() -> None:
    # firmware_core/src/nodechip_pooling_parallel.c: an extern prototype of the worker taking
    # global addresses, the API entry bracketed by tpu_initialize/tpu_poll, its registration.
    source = b"""\
#include "tpu_kernel.h"

extern void nodechip_relu_worker(
    global_addr_t src,
    global_addr_t dst,
    int count);

int tpu_kernel_api_relu(const void *args)
{
  const relu_args_t *a = (const relu_args_t *)args;
  TPUKERNEL_ASSERT(a->count > 0);
  tpu_initialize();
  nodechip_relu_worker(a->src, a->dst, a->count);
  tpu_poll();
  return 0;
}
TPUKERNEL_FUNC_REGISTER(tpu_kernel_api_relu);
"""
    assert _rules("firmware_core/src/nodechip_relu.c", source) == {"sophgo.tpu-kernel"}
    assert _layers("firmware_core/src/nodechip_relu.c", source) == {"kernel": 14, "portable": 1}


def test_tpu_local_memory_prototypes_are_kernel() -> None:
    # firmware_core/src/kernel_utils_func.h: device helpers declared over local addresses.
    source = b"""\
#include "tpu_kernel.h"
void mask_nan(local_addr_t out, local_addr_t in,
              const dim4 *shape, data_type_t dtype);
int helper_count(void);
"""
    assert _rules("firmware_core/src/utils.h", source) == {"sophgo.tpu-kernel"}
    assert _layers("firmware_core/src/utils.h", source) == {"kernel": 2, "portable": 2}


def test_plain_c_with_similar_names_stays_portable() -> None:
    source = b"""\
typedef unsigned long addr_t;
int tpu_count = 0;  /* tpu_poll() is called by the firmware */
int poll_all(addr_t base) { return base != 0; }
"""
    assert _rules("src/poll.c", source) == set()
    assert _layers("src/poll.c", source) == {"portable": 3}


# -- sophgo/torch-tpu: host ops calling tpuDNN and kernel modules ------------------------------


def test_tpudnn_call_is_vendor_library() -> None:
    # torch_tpu/csrc/ops/native_ops/Softmax.cpp: the op hands TPU tensors to tpudnn*Async.
    source = b"""\
Tensor &exp_out_tpu(const Tensor &self, Tensor &out) {
  auto stream = c10_tpu::getCurrentTPUStream();
  auto status = tpudnnExpAsync(stream, wrap(stream, self), wrap(stream, out));
  check(status);
  return out;
}
"""
    assert _rules("torch_tpu/csrc/ops/Exp.cpp", source) == {"sophgo.tpudnn"}
    assert _layers("torch_tpu/csrc/ops/Exp.cpp", source) == {
        "vendor-library": 1,
        "portable": 5,
    }


def test_tpu_kernel_module_lambda_is_vendor_library() -> None:
    # torch_tpu/csrc/ops/native_ops/Gather.cpp: a lambda over the runtime's kernel module.
    source = b"""\
static int launch(uint64_t in, uint64_t out) {
  auto run = [&](TPUStream s, tpuKernelModule_t m) -> int { return gather_fp32(s, m, out, in); };
  return run(current(), module());
}
"""
    assert _rules("torch_tpu/csrc/ops/Gather.cpp", source) == {"sophgo.tpudnn"}
    assert _layers("torch_tpu/csrc/ops/Gather.cpp", source) == {
        "vendor-library": 1,
        "portable": 3,
    }


# -- sophgo/torch-tpu: Python on the torch_tpu plug-in -----------------------------------------


def test_torch_tpu_import_is_vendor_path() -> None:
    # python/test/addmm.py: a test imports the plug-in and moves tensors to "tpu".
    source = b"""\
import torch
import torch_tpu

def check(a, b):
    return torch.allclose(a @ b, (a.to("tpu") @ b.to("tpu")).cpu())
"""
    assert _rules("python/test/addmm.py", source) == {"sophgo.torch-plugin"}
    assert _layers("python/test/addmm.py", source) == {"vendor-path": 1, "portable": 3}


def test_torch_tpu_in_a_string_stays_portable() -> None:
    source = b"""\
PLUGIN = "torch-tpu"
print("install torch-tpu first")
"""
    assert _rules("setup_hint.py", source) == set()


# -- verdicts that were already right ----------------------------------------------------------


def test_hlsl_test_shader_is_kernel() -> None:
    # KStocky/ShaderTestFramework test/Shader/.../HLSLTests/*.hlsl: a compute entry under test.
    source = b"""\
struct Pair { int a; int b; };

[numthreads(1, 1, 1)]
void RunPair()
{
    Pair p = { 1, 2 };
    ASSERT(AreEqual, p.a + 1, p.b);
}
"""
    assert _layers("tests/Pair.hlsl", source) == {"kernel": 7}


def test_pytorch_base_image_is_vendor_path() -> None:
    # dsgoficial/pytorch_segmentation_models_trainer Dockerfile: a CUDA/cuDNN runtime image.
    source = b"""\
FROM pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime
WORKDIR /code
RUN pip3 install -r requirements.txt
"""
    assert "image.nvidia-base" in _rules("Dockerfile", source)
    assert _layers("Dockerfile", source)["portable"] == 2
