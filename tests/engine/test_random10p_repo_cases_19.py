"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-p).

The pool is ``/work/pool-h47.txt``, shuffled with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 121-128. Two had no snapshot and were skipped, not replaced:
aswanthbajith/QLBM-DamBreak-Production and dud8/EasySplat. The six read were
decentraland/unity-renderer (a Unity client with ShaderLab and HLSL shaders), vorlac/llama-harness
(a llama.cpp workspace and orchestration harness), fusedio/fused-render (a file explorer whose
local AI runners pick CUDA, ROCm, Metal or Vulkan builds), skhavin/attentionheadgenome (PyTorch
interpretability scripts), lminervino18/oxidized-neural-orchestra (distributed training in Rust)
and trinhnkt/Sparse-Concept-and-Calibration (knowledge-tracing experiments). Fifteen files of
each were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, and three commits touching GPU code judged
against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- fusedio/fused-render: a hardware gate probing each vendor's device nodes ----------------


def test_vendor_device_nodes_probed_from_python_are_vendor_paths() -> None:
    # fused_render/ai/registry.py: the CUDA and ROCm runner rows are offered only when the
    # vendor's driver nodes exist; a WSL2 or Windows machine is recognised by its driver library.
    source = b"""\
import os

AMD_COMPUTE = "/dev/kfd"
RENDER_DIR = "/dev/dri"
NV_CONTROL = "/dev/nvidiactl"
NV_UVM = "/dev/nvidia-uvm"
WIN_DRIVER = r"C:\\Windows\\System32\\nvcuda.dll"


def amd_ready() -> bool:
    return os.access(AMD_COMPUTE, os.R_OK | os.W_OK) and os.path.isdir(RENDER_DIR)


def nvidia_ready() -> bool:
    return os.path.exists(NV_CONTROL) or os.path.exists(WIN_DRIVER)
"""
    assert _rules("app/ai/registry.py", source) == {
        "hip.kfd-device-node",
        "cuda.driver-files",
        "cuda.library-load-name",
    }
    assert _layers("app/ai/registry.py", source) == {"vendor-path": 4, "portable": 6}


def test_device_node_named_in_a_message_is_portable() -> None:
    # fused_render/ai/registry.py: the refusal text names the node the user must expose; a
    # sentence about /dev/kfd opens nothing.
    source = b"""\
def refusal() -> str:
    return "needs the GPU driver: start the container with --device /dev/kfd --device /dev/dri"


HINT = "no /dev/nvidiactl on this machine"
"""
    assert _rules("app/ai/messages.py", source) == set()
    assert _layers("app/ai/messages.py", source) == {"portable": 3}


def test_vulkan_wheel_index_in_pyproject_is_portable() -> None:
    # fused_render/ai/runners/llamacpp_text_vulkan/pyproject.toml: a llama.cpp build over
    # Vulkan, which reaches NVIDIA and AMD alike; nothing in it ties the runner to one vendor.
    source = b"""\
[project]
name = "runner-text-vulkan"
dependencies = ["llama-cpp-python==0.3.29", "jinja2>=3,<4"]

[[tool.uv.index]]
name = "llama-vulkan"
url = "https://example.github.io/llama-cpp-python/whl/vulkan/"
explicit = true

[tool.uv.sources]
llama-cpp-python = { index = "llama-vulkan" }
"""
    assert _rules("runners/text_vulkan/pyproject.toml", source) == set()
    assert _layers("runners/text_vulkan/pyproject.toml", source) == {"portable": 9}


# -- already right: pinned ------------------------------------------------------------------


def test_cuda_or_cpu_device_choice_is_vendor_path() -> None:
    # skhavin/attentionheadgenome isa-residual/code/step7_third_arch.py: the device is picked
    # once at the top, and the cache is emptied on CUDA between models.
    source = b"""\
import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def run(model, batch):
    out = model(batch.to(DEVICE))
    torch.cuda.empty_cache()
    return out
"""
    assert _rules("analysis/run_probe.py", source) == {"torch.device-string", "torch.cuda-call"}
    assert _layers("analysis/run_probe.py", source) == {"vendor-path": 2, "portable": 4}


def test_unity_custom_function_hlsl_file_is_kernel_code() -> None:
    # decentraland/unity-renderer Assets/Rendering/InfiniteFloor/InfiniteFloorMerger.hlsl: a
    # Shader Graph custom function, every line of it HLSL.
    source = b"""\
void Blend_float(float4 Base, float4 Tint, float Mask, out float4 Out)
{
    Out = lerp(Base, Tint, Mask);
    Out.a = saturate(Out.a);
}
"""
    assert _layers("Assets/Rendering/Floor/Blend.hlsl", source) == {"kernel": 5}


def test_unity_csharp_settings_store_is_portable() -> None:
    # decentraland/unity-renderer Assets/Scripts/MainScripts/DCL/DataStore/DataStore_Settings.cs.
    source = b"""\
namespace Game
{
    public class SettingsStore
    {
        public readonly BaseVariable<bool> profanityFilter = new BaseVariable<bool>(true);
        public readonly BaseVariable<float> drawDistance = new BaseVariable<float>(64f);
    }
}
"""
    assert _rules("Assets/Scripts/SettingsStore.cs", source) == set()
    assert _layers("Assets/Scripts/SettingsStore.cs", source) == {"portable": 8}
