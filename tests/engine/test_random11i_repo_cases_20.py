"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-i).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 217-223. Two had no snapshot and were skipped:
springboardmentor822-cloud/Consumer-Attention-Mapping-System-Group- and intrinsicD/structsplat.
Five were read: Thuong180702/Wheeled-bipedal-robot-simulation (a MuJoCo/JAX robot trainer),
joeloverbeck/neural-narrative (an LLM storytelling web app), abeeto/PyTorchCodeCloneAnalysis
(notebooks analysing code clones; seven blobs of 4 MiB and more are absent from the snapshot,
so only the other 34 files were checked out), TypeDreamMoon/DreamShader (an Unreal Engine
plugin compiling a material language to UMaterial graphs) and jiayingsong2023/litevLLM (a
single-GPU vLLM cut down to Python and Triton, run on AMD). Fifteen files of each repository
(eleven for the clone analysis, which counts no more) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, and up to three commits touching GPU code judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- jiayingsong2023/litevLLM: vLLM's platform object asked for ROCm -------------------------


def test_vllm_platform_rocm_branch_is_vendor_path() -> None:
    # examples/offline_inference/data_parallel.py: the data-parallel launcher switches
    # multiprocessing to spawn on ROCm only.
    source = b"""\
from multiprocessing import Process
from vllm.platforms import current_platform


def launch(ranks):
    if current_platform.is_rocm():
        import multiprocessing

        multiprocessing.set_start_method("spawn", force=True)
    return [Process(target=work, args=(r,)) for r in ranks]
"""
    assert _rules("examples/offline_inference/data_parallel.py", source) == {
        "torch.hip-version-check"
    }
    assert _layers("examples/offline_inference/data_parallel.py", source) == {
        "vendor-path": 1,
        "portable": 6,
    }


def test_vllm_platform_rocm_reported_not_branched_is_portable() -> None:
    # The same call stored in an environment report takes no path of its own.
    source = b"""\
from vllm.platforms import current_platform

def report():
    return {"rocm": current_platform.is_rocm(), "name": current_platform.device_name}
"""
    assert _rules("tools/env_report.py", source) == set()
    assert _layers("tools/env_report.py", source) == {"portable": 3}


def test_vllm_platform_cuda_assert_and_branch_are_vendor_path() -> None:
    # benchmarks/kernels/bench_block_fp8_gemm.py refuses to run off CUDA;
    # benchmarks/benchmark_batch_invariance.py picks its path on CUDA with a capability.
    source = b"""\
from vllm.platforms import current_platform

assert current_platform.is_cuda(), "this benchmark needs an NVIDIA GPU"


def pick_backend():
    if current_platform.is_cuda() and current_platform.has_device_capability(90):
        return "flash"
    return "reference"
"""
    assert _rules("benchmarks/bench_fp8.py", source) == {"torch.cuda-version-check"}
    assert _layers("benchmarks/bench_fp8.py", source) == {"vendor-path": 2, "portable": 4}


# -- jiayingsong2023/litevLLM: a serving benchmark's table of back ends ----------------------


def test_request_function_table_naming_tensorrt_llm_is_portable() -> None:
    # benchmarks/backend_request_func.py: each serving back end's name maps to the coroutine
    # that posts to it over HTTP; "tensorrt-llm" names a server, not a wheel to install.
    source = b"""\
async def post_generate(session, payload):
    return await session.post("/generate", json=payload)


BACKENDS = {
    "vllm": post_completion,
    "tensorrt-llm": post_generate,
    "sglang": post_completion,
}
"""
    assert _rules("benchmarks/backend_request_func.py", source) == set()
    assert _layers("benchmarks/backend_request_func.py", source) == {"portable": 7}


def test_extras_table_pinning_tensorrt_stays_vendor_path() -> None:
    # The counter-case: an extra whose value is the pin itself.
    source = b"""\
EXTRAS = {
    "trt": "tensorrt>=10",
    "cpu": "onnxruntime",
}
"""
    assert _rules("setup.py", source) == {"deps.cuda-wheel-python"}
    assert _layers("setup.py", source) == {"vendor-path": 1, "portable": 3}


# -- verdicts that were already right ---------------------------------------------------------


def test_triton_kernel_docstring_is_not_counted_as_kernel() -> None:
    # litevLLM vllm/kernels/triton/activation.py: a gated-MLP activation kernel with a
    # docstring describing its layout; the launcher below it is host code.
    source = b'''\
import torch
import triton
import triton.language as tl


@triton.jit
def _gated_act(X, Out, n_cols, BLOCK: tl.constexpr):
    """Out[r] = silu(X[r, :n]) * X[r, n:].

    One program per row.
    """
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    a = tl.load(X + row * 2 * n_cols + offs, mask=mask).to(tl.float32)
    b = tl.load(X + row * 2 * n_cols + n_cols + offs, mask=mask).to(tl.float32)
    tl.store(Out + row * n_cols + offs, a / (1.0 + tl.exp(-a)) * b, mask=mask)


def gated_act(x):
    n = x.shape[-1] // 2
    out = torch.empty(x.shape[0], n, dtype=x.dtype, device=x.device)
    _gated_act[(x.shape[0],)](x, out, n, BLOCK=triton.next_power_of_2(n))
    return out
'''
    assert _rules("vllm/kernels/triton/activation.py", source) == {"triton.jit"}
    assert _layers("vllm/kernels/triton/activation.py", source)["kernel"] == 8


def test_jax_cuda_extra_named_in_a_message_is_portable() -> None:
    # Thuong180702/Wheeled-bipedal-robot-simulation scripts/train.py: the trainer picks JAX's
    # backend at run time and only tells the user which extra makes it fast.
    source = b"""\
import jax

backend = jax.default_backend()
if backend == "cpu":
    print("CPU only: install jax[cuda12] for thousands of parallel envs")
else:
    print(f"accelerator found: {jax.devices()}")
"""
    assert _rules("scripts/train.py", source) == set()
    assert _layers("scripts/train.py", source) == {"portable": 6}


def test_unreal_material_generator_emitting_hlsl_types_is_portable() -> None:
    # TypeDreamMoon/DreamShader DreamShaderEditorBridge.cpp: the generator spells preview
    # values as HLSL constructors for Unreal's Custom node, which Unreal cross-compiles to
    # every graphics back end; the plugin's own C++ holds no shader.
    source = b"""\
FString FormatPreview(const FVector4& V, int32 Components)
{
    switch (Components)
    {
    case 2: return FString::Printf(TEXT("float2(%g, %g)"), V.X, V.Y);
    case 3: return FString::Printf(TEXT("float3(%g, %g, %g)"), V.X, V.Y, V.Z);
    default: return FString::Printf(TEXT("float4(%g, %g, %g, %g)"), V.X, V.Y, V.Z, V.W);
    }
}
"""
    assert _rules("Source/Editor/Private/ShaderBridge.cpp", source) == set()
    assert _layers("Source/Editor/Private/ShaderBridge.cpp", source) == {"portable": 9}
