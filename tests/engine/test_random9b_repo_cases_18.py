"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-b).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 562-569: xchang1121/inference_scaling, mc-imperial/dredd-webgpu-testing,
aws-neuron/neuronx-distributed-inference, dishitha-mahendrakar/cse-project-24-hashcat-analysis,
Crumbler/RayMarcher, vialamo/nbody, hpc/pavilion2 and Kbz-8/SPIRV-Interpreter. None was
skipped. Fifteen files of each were sampled with ``random.Random("owner/name")`` over every file
lockin counts, and labelled before any fix, with the files lockin calls non-portable and
GPU-looking files it calls portable, and three commits touching GPU code per repository. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- aws-neuron/neuronx-distributed-inference: NxD Inference, models compiled for Trainium ------


def test_neuronx_wrapper_importing_prebuilt_nki_kernels_is_vendor_path() -> None:
    # src/.../experimental/functional/moe/tokengen_moe/*.py: the module defines no kernel of its
    # own, it imports one of neuronxcc's prebuilt NKI kernels and launches it on a logical
    # NeuronCore grid. Before, the file was portable: neuron.torch-neuronx leaves neuronxcc.nki
    # imports to the kernel rule, which found no @nki.jit here.
    source = b"""\
import torch

from neuronxcc.nki.language import nc
from neuronxcc.nki._pre_prod_kernels.moe_token_gen import moe_all_experts_kernel


def moe_forward(hidden, gate_w, up_w, down_w):
    out = torch.empty_like(hidden)
    moe_all_experts_kernel[nc(2)](hidden, gate_w, up_w, down_w, out)
    return out
"""
    assert _rules("functional/moe/tokengen_moe.py", source) == {"neuron.nki-import"}
    assert _layers("functional/moe/tokengen_moe.py", source) == {"vendor-path": 2, "portable": 5}


def test_neuronx_attention_importing_the_nki_package_in_a_try_is_vendor_path() -> None:
    # contrib/models/GLM-5.2/src/mla_attention_nki.py: the standalone nki package (NKI 0.3) is
    # imported where the SDK is installed, with a PyTorch reference beside it.
    source = b"""\
import torch

NKI_AVAILABLE = False
try:
    import nki
    import nki.isa as nisa
    import nki.language as nl

    NKI_AVAILABLE = True
except ImportError:
    pass


def attention_reference(q, k, v):
    return torch.softmax(q @ k.T, dim=-1) @ v
"""
    assert _rules("src/mla_attention_nki.py", source) == {"neuron.nki-import"}
    assert _layers("src/mla_attention_nki.py", source) == {"vendor-path": 3, "portable": 8}


def test_neuronx_nki_kernel_file_counts_its_imports_with_the_kernel() -> None:
    # The negative: a file defining an NKI kernel (modules/sliding_window/attention.py) keeps
    # the counts it had; its neuronxcc.nki imports are the kernel's.
    source = b"""\
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl
from neuronxcc import nki


@nki.jit
def scale_kernel(a, out):
    tile = nl.load(a)
    nl.store(out, value=nisa.activation(op=nl.copy, data=tile, scale=2.0))
"""
    assert _rules("modules/sliding_window/attention.py", source) == {
        "neuron.nki-kernel",
        "neuron.torch-neuronx",
    }
    assert _layers("modules/sliding_window/attention.py", source) == {
        "kernel": 4,
        "vendor-path": 1,
        "portable": 2,
    }


def test_neuronx_unit_test_setting_the_neuron_compiler_flags_is_vendor_path() -> None:
    # contrib/models/gemma3-vision/test/unit/siglip/test_*.py: each test passes its flags to
    # neuronx-cc through NEURON_CC_FLAGS before building the module on the XLA device.
    # Before, the file was portable (xm.xla_device alone is not Neuron's).
    source = b"""\
import torch
import torch_xla.core.xla_model as xm


def test_mlp(monkeypatch, base_flags):
    monkeypatch.setenv("NEURON_CC_FLAGS", " ".join(base_flags + ["--auto-cast=none"]))
    device = xm.xla_device()
    x = torch.randn(2, 16).to(device)
    assert x.shape == (2, 16)
"""
    assert _rules("test/unit/siglip/test_mlp.py", source) == {"env.neuron-variables-python"}
    assert _layers("test/unit/siglip/test_mlp.py", source) == {"vendor-path": 1, "portable": 6}


def test_neuronx_vllm_script_choosing_the_neuron_framework_is_vendor_path() -> None:
    # contrib/models/gemma3-vision/vllm/run_offline_inference.py: vLLM's Neuron back end is
    # picked, and the compiled artefacts found, through environment variables.
    source = b"""\
import os

from vllm import LLM

os.environ["VLLM_NEURON_FRAMEWORK"] = "neuronx-distributed-inference"
os.environ["NEURON_COMPILED_ARTIFACTS"] = "/home/ubuntu/traced_model"
llm = LLM(model="google/gemma-3-27b-it", tensor_parallel_size=8)
"""
    assert _rules("vllm/run_offline_inference.py", source) == {"env.neuron-variables-python"}
    assert _layers("vllm/run_offline_inference.py", source) == {"vendor-path": 2, "portable": 3}


def test_neuronx_test_config_yaml_setting_the_runtime_is_vendor_path() -> None:
    # test/integration/tp64/models/qwen3_vl/model_configs/*.yaml: the runtime's cores and
    # timeouts sit beside the model's settings.
    source = b"""\
model: Qwen3-VL-8B
tp_degree: 64
env:
  NEURON_RT_NUM_CORES: "64"
  NEURON_RT_EXEC_TIMEOUT: "600"
  NEURON_CONFIG_NAME: "baseline"
"""
    assert _rules("model_configs/bs1_bf16_baseline.yaml", source) == {"env.neuron-variables"}
    assert _layers("model_configs/bs1_bf16_baseline.yaml", source) == {
        "vendor-path": 2,
        "portable": 4,
    }


def test_neuronx_reading_its_own_package_is_vendor_path() -> None:
    # Checked right: test/unit/**/test_*.py import NxD Inference's Neuron* classes, the
    # package that compiles the model for NeuronCores (neuron.torch-neuronx).
    source = b"""\
from neuronx_distributed_inference.models.config import NeuronConfig


def test_batch_size():
    assert NeuronConfig(batch_size=2, tp_degree=1).batch_size == 2
"""
    assert _layers("test/unit/test_config.py", source) == {"vendor-path": 1, "portable": 2}


# -- xchang1121/inference_scaling: sampling experiments on Transformers and vLLM -----------------


def test_inference_scaling_toml_run_config_naming_cuda_is_vendor_path() -> None:
    # configs/gsm8k_full.toml: the [runtime] table the experiments read their device from.
    # Before, portable: torch.device-flag read YAML's `device: cuda` only.
    source = b"""\
[runtime]
backend = "transformers"
device = "cuda"
dtype = "bfloat16"
max_batch_size = 8
"""
    assert _rules("configs/gsm8k_full.toml", source) == {"torch.device-flag"}
    assert _layers("configs/gsm8k_full.toml", source) == {"vendor-path": 1, "portable": 4}


def test_inference_scaling_toml_on_the_cpu_is_portable() -> None:
    # The negative: configs/gsm8k_grpo.toml's per-device batch size, and a CPU run.
    source = b"""\
[runtime]
device = "cpu"
per_device_train_batch_size = 4
device_map = "cuda"
"""
    assert _layers("configs/cpu.toml", source) == {"portable": 4}


def test_inference_scaling_environment_report_is_vendor_path() -> None:
    # Checked right: experiments/arllm/gsm8k_async_benchmark.py records the GPU's name, read
    # through torch.cuda, in the run's report.
    source = b"""\
import torch


def environment():
    return {
        "torch": torch.__version__,
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
    }
"""
    assert _layers("experiments/arllm/report.py", source) == {"vendor-path": 1, "portable": 5}


# -- mc-imperial/dredd-webgpu-testing: mutation testing of Dawn and Tint -------------------------


def test_dredd_webgpu_killing_gpu_processes_through_nvidia_smi_is_vendor_path() -> None:
    # Checked right: run/cts/utils.py finds the mutants' processes in nvidia-smi's list.
    source = b"""\
import subprocess


def kill_gpu_processes(name):
    smi = subprocess.Popen(["nvidia-smi"], stdout=subprocess.PIPE)
    grep = subprocess.Popen(["grep", name], stdin=smi.stdout, stdout=subprocess.PIPE)
    return grep.communicate()
"""
    assert _rules("run/cts/utils.py", source) == {"cuda.tool-call"}


def test_dredd_webgpu_choosing_the_lavapipe_vulkan_driver_is_portable() -> None:
    # Checked right (a judgement call): run/cts/parse_cts_live.py points the Vulkan loader at
    # Mesa's lavapipe, a CPU driver, to run the WebGPU CTS through Dawn.
    source = b"""\
import os

vk_icd = "/data/dev/mesa/build/install/share/vulkan/icd.d/lvp_icd.x86_64.json"
env = os.environ.copy()
env["VK_ICD_FILENAMES"] = vk_icd
"""
    assert _layers("run/cts/parse_cts_live.py", source) == {"portable": 4}


# -- vialamo/nbody and Kbz-8/SPIRV-Interpreter ----------------------------------------------------


def test_nbody_openmp_declare_target_under_a_gpu_switch_is_portable() -> None:
    # Checked right: src/math_utils.h marks a helper for OpenMP offload (any vendor's device).
    source = b"""\
#ifdef USE_GPU
#pragma omp declare target
#endif
inline double periodic(double dx, double size) {
    return dx > 0.5 * size ? dx - size : dx;
}
#ifdef USE_GPU
#pragma omp end declare target
#endif
"""
    assert _layers("src/math_utils.h", source) == {"portable": 9}


def test_spirv_interpreter_test_shader_in_a_zig_string_is_portable() -> None:
    # Checked right, by the precedent of SPIRV-Tools' tests (h45-random-k): test/arrays.zig
    # hands a shader, as a Zig multiline string, to the CPU interpreter under test.
    source = b"""\
const std = @import("std");

test "Simple array" {
    const shader =
        \\\\ [entry(frag)]
        \\\\ fn main() -> FragOut
        \\\\ {
        \\\\     let value = array[f32](4.0, 3.0, 2.0, 1.0);
        \\\\ }
    ;
    try std.testing.expect(shader.len > 0);
}
"""
    assert _layers("test/arrays.zig", source) == {"portable": 11}


def test_spirv_interpreter_nzsl_shader_file_is_kernel_code() -> None:
    # example/shader.nzsl and sandbox/shader.nzsl: Nazara shaders the example compiles to
    # SPIR-V. Before, .nzsl had no language, so the files were never counted and a commit
    # growing the example's shader (c5225e3a: 11 lines in, 5 out) passed the gate.
    source = b"""\
[nzsl_version("1.1")]
module;

struct FragOut
{
    [location(0)] color: vec4[f32]
}

// one colour for the whole screen
[entry(frag)]
fn main() -> FragOut
{
    let output: FragOut;
    output.color = vec4[f32](1.0, 0.0, 0.0, 1.0);
    return output;
}
"""
    report = classify("example/shader.nzsl", source)
    assert report.language == "NZSL"
    assert _rules("example/shader.nzsl", source) == {"vulkan.shader-file"}
    assert _layers("example/shader.nzsl", source) == {"kernel": 13}
