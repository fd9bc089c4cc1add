"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h53-random-j).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 1036-1042 and skipped none. Seven were read (four snapshots
lacked large data blobs, images, archives or a DLL the census does not need, and were checked
out around them, blob by blob): Hydr10n/DirectX-Raytracing-Spheres-Demo (a Direct3D 12 path
tracer: HLSL shaders, C++ modules driving D3D12, NVIDIA's NRD, RTXDI, SHARC and Streamline),
NVIDIA/bare-metal-manager-core (a Rust bare-metal provisioning service whose validation
configs run nvidia-smi and DCGM), k2-fsa/sherpa-onnx (speech recognition on ONNX Runtime
with CUDA, TensorRT, Ascend and QNN builds, and bindings in a dozen languages),
google-deepmind/gemma (the Gemma JAX library and its notebooks), onnx/onnxmltools (converters
to ONNX, one of them from Core ML), SciSharp/TensorFlow.NET (TensorFlow's .NET binding) and
mlcommons/inference (the MLPerf inference reference implementations: PyTorch, vLLM, SGLang,
a CUDA IoU extension, Triton kernels and NVIDIA base images). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, up to five more kernel files counted by
hand, and three commits touching GPU code (``random.Random("owner/name:commits")``) judged
against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- google-deepmind/gemma: JAX's older `gpu` extra ------------------------------------------


def test_jax_gpu_extra_installed_in_a_setup_script_is_a_cuda_wheel() -> None:
    # gemma's colabs/gsm8k_eval.ipynb (commit 036083a) installed `jax[gpu]`, the extra that
    # was JAX's CUDA build before jax[cuda12] (ROCm has its own); lockin diff let it through.
    source = b"""\
python3 -m pip install --upgrade pip
python3 -m pip install --upgrade "jax[gpu]" optax
python3 -m pip install datasets
"""
    path = "tools/install_deps.sh"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 2}


def test_jax_cpu_and_tpu_extras_and_a_note_on_gpus_are_no_cuda_wheel() -> None:
    source = b"""\
pip install --upgrade "jax[cpu]"
# jax gpu builds are described in the install guide
pip install flax
"""
    path = "tools/install_cpu.sh"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 2}


def test_xla_memory_fraction_for_any_accelerator_stays_portable() -> None:
    # gemma's colabs/lora_finetuning.ipynb: XLA's client memory fraction applies to whichever
    # accelerator JAX was installed for. Already right.
    source = b"""\
import os
os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = "0.95"
import jax
"""
    path = "colabs/tune.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 3}


# -- Hydr10n/DirectX-Raytracing-Spheres-Demo: HLSL shaders and their D3D12 host -------------


def test_hlsl_compute_shader_file_is_kernel_throughout() -> None:
    # Shaders/Merge.hlsl: two inputs blended into an output, every line of it. Already right.
    source = b"""\
struct Weights { float A, B; };
ConstantBuffer<Weights> g_weights : register(b0);
Texture2D<float3> g_first : register(t0);
Texture2D<float3> g_second : register(t1);
RWTexture2D<float3> g_result : register(u0);

[numthreads(8, 8, 1)]
void main(uint2 id : SV_DispatchThreadID)
{
\tg_result[id] = g_first[id] * g_weights.A + g_second[id] * g_weights.B;
}
"""
    path = "Shaders/Blend.hlsl"
    assert _rules(path, source) == {"hlsl.shader-file"}
    assert _layers(path, source) == {"kernel": 10}


def test_shader_compile_step_to_dxil_stays_portable() -> None:
    # ShaderCompilation.cmake: ShaderMake drives DXC to DXIL headers; a build step for the
    # shaders, no vendor. Already right.
    source = b"""\
function(BuildShaders)
\tset(cmd ShaderMake --compiler ${DXC_PATH} --platform DXIL --header)
\tadd_custom_target(shaders COMMAND ${cmd})
endfunction()
"""
    path = "BuildShaders.cmake"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 4}


# -- mlcommons/inference: device strings and guards -----------------------------------------


def test_autocast_on_the_cuda_device_is_vendor_path_and_an_availability_guard_is_not() -> None:
    # recommendation/dlrm_v3/.../multitask_module.py autocasts on "cuda"; SUT_VLLM.py only
    # refuses to start without a GPU. Both already right.
    source = b"""\
import torch

def heads(x, dtype):
    with torch.autocast(
        "cuda",
        dtype=dtype,
    ):
        return x * 2

def start():
    if not torch.cuda.is_available():
        raise SystemExit("no accelerator")
"""
    path = "modules/heads.py"
    assert _rules(path, source) == {"torch.device-string"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 9}


# -- SciSharp/TensorFlow.NET: fetching TensorFlow's CUDA C library from PowerShell -----------


def test_powershell_download_of_the_libtensorflow_gpu_archive_is_vendor_path() -> None:
    # tools/scripts/Copy-NativeTensorFlowLibs.ps1 fetches the libtensorflow-gpu archives that
    # its GPU redistributable packages ship; the rule read no PowerShell before.
    source = b"""\
param([string] $Version = "2.11.0")
$BaseUrl = "https://storage.googleapis.com/tensorflow/libtensorflow"
$CpuZip = "$BaseUrl/libtensorflow-cpu-linux-x86_64-$Version.tar.gz"
$GpuZip = "$BaseUrl/libtensorflow-gpu-linux-x86_64-$Version.tar.gz"
Invoke-WebRequest -Uri $GpuZip -OutFile "$PSScriptRoot/native.tar.gz"
"""
    path = "tools/scripts/Fetch-Native.ps1"
    assert _rules(path, source) == {"deps.cuda-prebuilt-library"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 4}


# -- NVIDIA/bare-metal-manager-core: NVIDIA's distroless runtime images ----------------------


def test_nvidia_distroless_base_image_is_no_cuda_image() -> None:
    # bluefield/containers/*/Dockerfile: the agents are Rust binaries copied onto NGC's
    # distroless C runtime, which carries no CUDA; before, every such file was vendor-path.
    source = b"""\
ARG BASE=nvcr.io/nvidia/distroless/cc
ARG TAG=v3.2.1
FROM --platform=linux/arm64 ${BASE}:${TAG}-dev
COPY target/release/agent /usr/local/bin/agent
ENTRYPOINT ["/usr/local/bin/agent"]
"""
    path = "containers/agent/Dockerfile"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 5}


def test_ngc_framework_image_in_the_same_shape_stays_vendor_path() -> None:
    source = b"""\
ARG BASE=nvcr.io/nvidia/pytorch
FROM nvcr.io/nvidia/tritonserver:24.05-py3
COPY model_repository /models
"""
    path = "containers/serve/Dockerfile"
    assert _rules(path, source) == {"image.nvidia-base"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 1}
