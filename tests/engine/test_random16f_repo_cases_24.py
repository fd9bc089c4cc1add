"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-f).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 798-804. kpratik41/nl2sql-gspo-gemma4 (798),
soongjinghao/triton-evo-optimizer (799) and gimeit0/auditory_attention (803) had no snapshot
and were skipped. The four read were Phala-Network/phala-inference-guard (a Go QoS proxy in
front of vLLM or SGLang, with NVIDIA confidential-computing attestation through NVML),
subha-v/quantization (KV-cache quantization experiments on Qwen2.5-VL in PyTorch, with shell
launchers), shawnwan47/ST_Attention (spatio-temporal attention models for traffic forecasting
in PyTorch) and shader-slang/slang-rhi (Slang's rendering hardware interface over Direct3D
11/12, Vulkan, Metal, CUDA/OptiX, WebGPU and a CPU back end). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts
and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, and three commits touching GPU
code (drawn with ``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- shader-slang/slang-rhi: a multi-back-end rendering interface ----------------------------


def test_metal_cpp_core_animation_layer_is_vendor_path() -> None:
    # src/metal/metal-surface.h: the Metal back end's swapchain surface holds metal-cpp's
    # CA::MetalLayer and CA::MetalDrawable; it counted as portable (metal-fence.h, holding
    # MTL::SharedEvent, was already vendor-path).
    source = b"""\
#pragma once
namespace gfx::mtl {
class SwapSurface : public Surface
{
public:
    NS::SharedPtr<CA::MetalLayer> m_layer;
    NS::SharedPtr<CA::MetalDrawable> m_frame;
    Result present() override;
};
}
"""
    assert _rules("src/mtl/mtl-surface.h", source) == {"metal.host-api"}
    assert _layers("src/mtl/mtl-surface.h", source) == {"vendor-path": 2, "portable": 8}


def test_hlsl_shader_appended_line_by_line_counts_every_piece() -> None:
    # tests/test-texture-view.cpp: a test writes its compute shader into a std::string a
    # statement a line (`source += "[numthreads(1,1,1)]\n"; ...`), choosing the texel type in
    # C++ between them. Only the two literals holding the attribute or a semantic counted
    # (4 kernel lines of about 65 in the file).
    source = b"""\
std::string makeWriter(const std::string& texType, bool scalar)
{
    std::string source;
    source += "[shader(\\"compute\\")]\\n";
    source += "[numthreads(1,1,1)]\\n";
    source += "void writeAll(\\n";
    source += "    uint3 tid : SV_DispatchThreadID,\\n";
    source += "    " + texType + " tex,\\n";
    source += "    uniform uint count)\\n";
    source += "{\\n";
    source += "    if (tid.x >= count)\\n";
    source += "        return;\\n";
    if (scalar)
    {
        source += "    tex[tid.x] = 1;\\n";
    }
    source += "}\\n";
    return source;
}
"""
    rules = _rules("tests/test-writer.cpp", source)
    assert rules == {"hlsl.source-string", "hlsl.streamed-source"}
    # Lines 4-12, 15 and 17 append the shader; the C++ around them stays portable.
    assert _layers("tests/test-writer.cpp", source) == {"kernel": 11, "portable": 8}


def test_hlsl_diagnostic_built_piece_by_piece_is_portable() -> None:
    # The same back ends build their error messages with `+=` too; a semantic named in text
    # with no colon before it is no shader.
    source = b"""\
std::string describe(int slot)
{
    std::string msg;
    msg += "render target SV_Target";
    msg += std::to_string(slot);
    msg += " is not bound";
    return msg;
}
"""
    assert _rules("src/debug-layer.cpp", source) == set()
    assert _layers("src/debug-layer.cpp", source) == {"portable": 8}


def test_webgpu_back_end_stays_portable() -> None:
    # src/wgpu/wgpu-buffer.h and wgpu-backend.cpp: WebGPU is cross-vendor; already right.
    source = b"""\
#pragma once
namespace gfx::webgpu {
class BufferImpl : public Buffer
{
public:
    DeviceAddress getDeviceAddress() override;
    WGPUBuffer m_buffer = nullptr;
};
}
"""
    assert _rules("src/webgpu/webgpu-buffer.h", source) == set()
    assert _layers("src/webgpu/webgpu-buffer.h", source) == {"portable": 9}


def test_nvrtc_test_keeps_its_cuda_source_as_kernel() -> None:
    # tests/test-nvrtc.cpp: a CUDA kernel in a raw string handed to NVRTC, the whole test
    # behind the CUDA build guard; already right (kernel in range).
    source = b"""\
#if GFX_ENABLE_CUDA
TEST_CASE("runtime-compile")
{
    const char* text = R"(
        extern "C" __global__ void touch(float* p) {
            p[threadIdx.x] = 0.0f;
        }
    )";
    CHECK(rtc.compilePTX(text, out) == OK);
}
#endif
"""
    layers = _layers("tests/test-rtc.cpp", source)
    assert "cuda.source-string" in _rules("tests/test-rtc.cpp", source)
    assert 3 <= layers.get("kernel", 0) <= 5
    assert layers.get("vendor-path", 0) >= 4


# -- subha-v/quantization and shawnwan47/ST_Attention: PyTorch research scripts ---------------


def test_launcher_checking_nvidia_smi_and_visible_devices_is_vendor_path() -> None:
    # qwen/scripts/run_smoke.sh: a launcher that insists on CUDA_VISIBLE_DEVICES and prints
    # nvidia-smi's view of the GPU; already right.
    source = b"""\
#!/usr/bin/env bash
set -euo pipefail
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi --query-gpu=index,memory.used --format=csv
fi
: "${CUDA_VISIBLE_DEVICES:?pick a free GPU first}"
python3 run.py --frames 32
"""
    assert _rules("scripts/launch.sh", source) >= {"env.cuda-variables"}
    assert "vendor-path" in _layers("scripts/launch.sh", source)


def test_torch_cuda_seed_and_device_choice_is_vendor_path() -> None:
    # main.py: the training entry point selects a CUDA device and seeds it; already right.
    source = b"""\
import torch

def setup(cfg):
    use = torch.cuda.is_available() and cfg.cuda
    if use:
        torch.cuda.set_device(cfg.gpuid)
        torch.cuda.manual_seed(cfg.seed)
    return use
"""
    assert "vendor-path" in _layers("main.py", source)


def test_attention_module_with_no_device_code_is_portable() -> None:
    # modules/attn.py: plain torch.nn attention; already right.
    source = b"""\
import torch.nn as nn

class Attn(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)

    def forward(self, x):
        return self.score(x).softmax(-2) * x
"""
    assert _rules("modules/attn.py", source) == set()
    assert _layers("modules/attn.py", source) == {"portable": 7}
