"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-random-a).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (the name's text only, so some are no GPU code at all).
This lane took sub-pool positions 274-281. One was skipped: campdotdev/shaders (281) had no
snapshot to fetch. Read were climate-analytics-lab/jax-gcm (an atmospheric general circulation
model in JAX, its Dockerfile installing the TPU build of JAX), DeepLink-org/DLBlas (a library
of Triton kernels for LLM inference on NVIDIA, Ascend, Cambricon and MetaX devices: attention,
MoE, grouped GEMM, norms, with a few CUDA and CUTLASS sources and a DeepEP token dispatcher),
ROCm/MAD (AMD's model benchmarking harness: per-vendor Dockerfiles, run scripts keyed on the
GPU architecture and a Python runner that asks nvidia-smi or rocm-smi about the machine),
ouerkakaChango/UnityRayTraceGitee (a Unity ray-tracing and SDF game project: C# host scripts
dispatching HLSL compute shaders, ShaderLab surface shaders and generated HLSL scene files),
thiagowfx/raytracer-lcg-2014 (a CPU ray tracer in C++ after "Ray Tracing from the Ground Up",
with an OpenGL viewer), tarnishablec/LeagueJax (a League of Legends client companion in
Tauri: Rust and TypeScript, "Jax" being a champion's name, no GPU code) and
MarkKirichko2002/AGPU-iOS-App (a Swift iOS app for a university named AGPU, with vendored
Realm and SDWebImage pods, no GPU code). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Two files were wrong before: DLBlas's
dlblas/layers/moe/token_dispatcher.py imports DeepEP (NVLink and NVSHMEM all-to-all, built
for NVIDIA only), which no rule named, and MAD's tools/run_models.py runs nvidia-smi and
rocm-smi with a shell operator right after the command (``nvidia-smi || true``), which the
tool-call rules did not take. DeepEP now joins cuda-libs.python-llm-kernels; cuda.tool-call
and hip.tool-call take a pipe, a chain or a redirection after the bare command. The other tests
pin verdicts worth keeping. Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- DeepLink-org/DLBlas: Triton kernels for several vendors --------------------------------


def test_deepep_token_dispatcher_import_is_vendor_library() -> None:
    # dlblas/layers/moe/token_dispatcher.py (sampled, portable before): DeepEP's Buffer imported
    # in a try block, its SM count read into a class attribute; nothing else vendor-bound.
    source = b"""\
try:
    from deep_ep import Buffer
    HAVE_EP = True
except ImportError:
    HAVE_EP = False

import torch.distributed as dist


class ExpertBuffer:
    sms = Buffer.num_sms
    handle = None

    @classmethod
    def get(cls, group, nvl_bytes, rdma_bytes):
        if cls.handle is None:
            cls.handle = Buffer(group, nvl_bytes, rdma_bytes)
        return cls.handle
"""
    path = "dlblas/layers/moe/token_dispatcher.py"
    assert "cuda-libs.python-llm-kernels" in _rules(path, source)
    assert _layers(path, source).keys() == {"vendor-library", "portable"}


def test_deep_ep_named_in_a_string_or_a_longer_module_is_not_deepep() -> None:
    source = b"""\
import deep_ep_compat
BACKEND = "deep_ep"
# from deep_ep import Buffer
"""
    path = "dlblas/layers/moe/backends.py"
    assert "cuda-libs.python-llm-kernels" not in _rules(path, source)
    assert _layers(path, source).keys() == {"portable"}


def test_triton_kernel_file_counts_the_jitted_functions_only() -> None:
    # dlblas/kernels/mbgmv.py (sampled, right): two jitted matrix-vector kernels and a host
    # wrapper that launches one; only the jitted functions are kernel lines.
    source = b"""\
import torch
import triton
import triton.language as tl


@triton.jit
def _scale_rows(X, Y, W, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(X + row * n_cols + cols, mask=mask, other=0.0)
    w = tl.load(W + row)
    tl.store(Y + row * n_cols + cols, x * w, mask=mask)


def scale_rows(x, w):
    y = torch.empty_like(x)
    block = triton.next_power_of_2(x.shape[1])
    _scale_rows[(x.shape[0],)](x, y, w, x.shape[1], BLOCK=block)
    return y
"""
    path = "dlblas/kernels/mbgmv.py"
    layers = _layers(path, source)
    assert layers["kernel"] == 8
    assert layers.keys() == {"kernel", "portable"}


def test_triton_kernel_with_inline_ptx_and_cuda_streams() -> None:
    # dlblas/kernels/allgather_grpo_loss.py (sampled, right): thread ids read through inline
    # PTX in jitted helpers, a jitted loss kernel, and host code on CUDA streams.
    source = b"""\
import torch
import triton
import triton.language as tl


@triton.jit
def lane_id():
    return tl.inline_asm_elementwise(
        "mov.u32 $0, %tid.x;", "=r", [], dtype=tl.int32, is_pure=True, pack=1
    )


@triton.jit
def loss_kernel(X, OUT, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0.0)
    tl.store(OUT + offs, -x + lane_id(), mask=offs < n)


def run(x):
    flags = torch.zeros(4, dtype=torch.int32, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    out = torch.empty_like(x)
    loss_kernel[(triton.cdiv(x.numel(), 128),)](x, out, x.numel(), BLOCK=128)
    return out, flags
"""
    path = "dlblas/kernels/allgather_grpo_loss.py"
    layers = _layers(path, source)
    assert 9 <= layers["kernel"] <= 12
    assert "vendor-path" in layers


def test_test_parametrised_on_the_cuda_device_is_vendor_path() -> None:
    # tests/test_cache.py (sampled, right): the device is a parametrised 'cuda' string.
    source = b"""\
import pytest
import torch


@pytest.mark.parametrize("device", ["cuda"])
def test_key(device):
    a = torch.ones(2, 2, device=device)
    assert a.sum().item() == 4
"""
    path = "tests/test_cache.py"
    assert _layers(path, source).keys() == {"vendor-path", "portable"}


def test_benchmark_on_an_inferred_device_is_portable() -> None:
    # tests/kernels/test_paged_attention.py and benchmarks/bench_layernorm.py (GPU-looking,
    # right): the device comes from the project's own helper, never spelt.
    source = b"""\
import torch
import triton
from dlblas.utils.device_utils import infer_device

device = infer_device()


@triton.testing.perf_report(
    triton.testing.Benchmark(x_names=["n"], x_vals=[256, 512], line_arg="p",
                             line_vals=["triton"], line_names=["Triton"], ylabel="ms",
                             plot_name="norm", args={})
)
def bench(n, p):
    x = torch.randn(n, n, device=device)
    return triton.testing.do_bench(lambda: torch.nn.functional.layer_norm(x, (n,)))
"""
    path = "benchmarks/bench_layernorm.py"
    assert _layers(path, source).keys() == {"portable"}


def test_cutlass_numeric_converter_header_is_not_portable() -> None:
    # dlblas/kernels/cutlass/fp8_convert.cuh (sampled, right): a CUTLASS header included and its
    # fp8 types converted with NumericConverter.
    source = b"""\
#include <cutlass/numeric_conversion.h>

static void to_e4m3(cutlass::float_e4m3_t &out, cutlass::float_e5m2_t &in) {
    cutlass::NumericConverter<cutlass::float_e4m3_t, cutlass::float_e5m2_t> conv;
    out = conv(in);
}
"""
    path = "dlblas/kernels/cutlass/fp8_convert.cuh"
    layers = _layers(path, source)
    assert "kernel" in layers
    assert layers["kernel"] <= 5


# -- ROCm/MAD: model benchmarking harness ---------------------------------------------------


def test_smi_chained_in_a_container_shell_string_is_vendor_path() -> None:
    # tools/run_models.py (sampled, portable before): inside the container it started, the
    # runner logs the GPU state with each vendor's tool, `|| true` keeping a failure harmless.
    source = b"""\
import re


def log_gpus(docker, suffix):
    if re.search("nvidia", suffix):
        docker.sh("/usr/bin/nvidia-smi || true")
    else:
        docker.sh("/opt/rocm/bin/rocm-smi || true")
"""
    path = "tools/run_models.py"
    rules = _rules(path, source)
    assert {"cuda.tool-call", "hip.tool-call"} <= rules
    assert _layers(path, source).keys() == {"vendor-path", "portable"}


def test_rocminfo_piped_to_grep_is_a_hip_tool_call() -> None:
    # tools/utils.py (sampled, right before, this line missed): the gfx target read by piping
    # rocminfo into grep.
    source = b"""\
import subprocess


def amd_arch():
    out = subprocess.check_output("/opt/rocm/bin/rocminfo |grep -o -m 1 'gfx.*'", shell=True)
    return out.decode().strip()
"""
    path = "tools/utils.py"
    assert "hip.tool-call" in _rules(path, source)


def test_smi_named_in_messages_is_no_call() -> None:
    source = b"""\
MISSING_NV = "nvidia-smi: command not found"
MISSING_AMD = "rocm-smi: command not found"
HINT = "nvidia-smi (from the driver) lists the GPUs"
"""
    path = "tools/messages.py"
    rules = _rules(path, source)
    assert "cuda.tool-call" not in rules
    assert "hip.tool-call" not in rules


def test_vendor_base_images_are_vendor_path() -> None:
    # docker/pyt_huggingface.ubuntu.{amd,nvidia}.Dockerfile (sampled, right): each vendor's
    # PyTorch base image, a CUDA wheel index on the NVIDIA one.
    amd = b"""\
ARG BASE_DOCKER=rocm/pytorch:latest
FROM $BASE_DOCKER
RUN pip3 install -U scipy
"""
    nvidia = b"""\
ARG BASE_DOCKER=nvidia/cuda:12.1.1-cudnn8-devel-ubuntu20.04
FROM $BASE_DOCKER
RUN pip3 install --pre torch --index-url https://download.pytorch.org/whl/nightly/cu121
RUN pip3 install -U scipy
"""
    assert _layers("docker/bench.amd.Dockerfile", amd).keys() == {"vendor-path", "portable"}
    assert _layers("docker/bench.nvidia.Dockerfile", nvidia).keys() == {"vendor-path", "portable"}


def test_run_script_keyed_on_gfx_targets_is_vendor_path() -> None:
    # scripts/huggingface_bert/run.sh (sampled, right): the batch size chosen by GPU target.
    source = b"""\
#!/bin/bash
if [[ "$SYSTEM_GPU_ARCH" == *"gfx90a"* ]]; then
    BATCH=${BATCH:-24}
elif [[ "$SYSTEM_GPU_ARCH" == *"gfx908"* ]]; then
    BATCH=${BATCH:-16}
else
    BATCH=${BATCH:-1}
fi
torchrun train.py --per_device_train_batch_size="$BATCH" --fp16
"""
    path = "scripts/huggingface_bert/run.sh"
    assert "vendor-path" in _layers(path, source)


# -- climate-analytics-lab/jax-gcm: a JAX climate model -------------------------------------


def test_jax_tpu_wheel_in_a_dockerfile_is_vendor_path() -> None:
    # Dockerfile (non-portable list, right): the TPU build of JAX from Google's wheel index.
    source = b"""\
FROM python:3.11-slim
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
RUN pip install --upgrade "jax[tpu]" -f https://storage.googleapis.com/jax-releases/libtpu_releases.html
"""
    assert "vendor-path" in _layers("Dockerfile", source)


def test_jax_physics_module_is_portable() -> None:
    # jcm/physics/speedy/humidity.py (sampled, right): jitted array code, no device named.
    source = b"""\
import jax
import jax.numpy as jnp


@jax.jit
def saturation_ratio(temp, qv, pres):
    es = 6.108 * jnp.exp(17.27 * (temp - 273.15) / (temp - 35.85))
    qs = 0.622 * es / pres
    return jnp.clip(qv / qs, 0.0, 1.0)
"""
    assert _layers("jcm/physics/speedy/humidity.py", source).keys() == {"portable"}


# -- ouerkakaChango/UnityRayTraceGitee: Unity compute shaders -------------------------------


def test_unity_compute_shader_is_kernel_throughout() -> None:
    # TestRayTrace/Assets/Resources/CommonFiliterCS/Add.compute (sampled, right).
    source = b"""\
#pragma kernel Blend

RWTexture2D<float4> Result;
Texture2D<float4> first;
Texture2D<float4> second;

[numthreads(8, 8, 1)]
void Blend(uint3 id : SV_DispatchThreadID)
{
    float3 c = 0.5 * (first[id.xy] + second[id.xy]).rgb;
    Result[id.xy] = float4(c, 1);
}
"""
    layers = _layers("Assets/Resources/Filters/Blend.compute", source)
    assert layers == {"kernel": 10}


def test_unity_surface_shader_counts_its_cg_block() -> None:
    # TestRayTrace/Assets/Material/NewSurfaceShader.shader (extra kernel file, right): the
    # CGPROGRAM block is kernel code, the ShaderLab properties around it are not.
    source = b"""\
Shader "Custom/Tinted"
{
    Properties
    {
        _Color ("Color", Color) = (1,1,1,1)
        _MainTex ("Albedo", 2D) = "white" {}
    }
    SubShader
    {
        Tags { "RenderType"="Opaque" }
        CGPROGRAM
        #pragma surface surf Standard
        sampler2D _MainTex;
        fixed4 _Color;
        struct Input { float2 uv_MainTex; };
        void surf (Input IN, inout SurfaceOutputStandard o)
        {
            o.Albedo = tex2D(_MainTex, IN.uv_MainTex).rgb * _Color.rgb;
        }
        ENDCG
    }
}
"""
    layers = _layers("Assets/Material/Tinted.shader", source)
    assert 8 <= layers["kernel"] <= 11


def test_unity_script_dispatching_a_compute_shader_is_portable() -> None:
    # TestRayTrace/Assets/Scripts/CameraTrace/PathTrace.cs (sampled, right): Unity's
    # ComputeShader API runs on every back end the engine targets.
    source = b"""\
using UnityEngine;

public class Tracer : MonoBehaviour
{
    public ComputeShader cs;
    RenderTexture rt;

    void Trace(int w, int h)
    {
        int k = cs.FindKernel("Trace");
        cs.SetTexture(k, "Result", rt);
        cs.Dispatch(k, w / 8, h / 8, 1);
    }
}
"""
    assert _layers("Assets/Scripts/Tracer.cs", source).keys() == {"portable"}


# -- thiagowfx/raytracer-lcg-2014, MarkKirichko2002/AGPU-iOS-App: no GPU code ----------------


def test_cpu_ray_tracer_material_is_portable() -> None:
    # lib/raytracer/Materials/Matte.cpp (sampled, right).
    source = b"""\
#include "Matte.h"

RGBColor Matte::shade(ShadeRec& sr) {
    Vector3d wo = -sr.ray.d;
    RGBColor L = ambient->rho(sr, wo) * sr.w.ambient->L(sr);
    for (auto light : sr.w.lights) {
        double ndotwi = sr.normal.dot(light->get_direction(sr));
        if (ndotwi > 0.0) L += diffuse->f(sr, wo, wo) * light->L(sr) * ndotwi;
    }
    return L;
}
"""
    assert _layers("lib/raytracer/Materials/Matte.cpp", source).keys() == {"portable"}


def test_swift_view_model_of_a_university_app_is_portable() -> None:
    # AGPU/AGPU/resources/Services/Date/Protocol/DateManagerProtocol.swift (sampled, right):
    # "AGPU" is the university's initials.
    source = b"""\
import Foundation

protocol DateManagerProtocol {
    func today() -> String
    func weekday(for date: Date) -> Int
}
"""
    assert _layers("AGPU/Services/DateManagerProtocol.swift", source).keys() == {"portable"}
