"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-g).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 49-56 and every one had a snapshot, so none was skipped:
jdvelasq/techminer2 (a bibliometrics toolkit), llvm/torch-mlir (PyTorch to MLIR compiler),
ldtteam/JVoxelizer (a Minecraft modding API in Java), fwyc0573/Megatron-LM (a fork of NVIDIA's
trainer), zv1131860787/nano-deepspeed (a small ZeRO trainer), kanghyunmin-bot/
ROS2-mujoco-UUVsimulator (ROS 2 underwater robot with OpenVINO vision), KolosalAI/
torch-inference (a Rust inference server over tch) and Kuan-Mi/UnityPathTracing (a Unity path
tracer with HLSL shaders and a Direct3D 12 denoiser plugin). Four snapshots lack their files of
4 MiB and more (binary models, meshes, textures, generated HTML); those were left out of the
checkout and counted nowhere. Fifteen files of each repository (all thirteen of nano-deepspeed)
were sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- llvm/torch-mlir: PyTorch's cudnn_enabled flag read by a compiler lowering -------------


def test_camel_case_cudnn_enabled_flag_in_a_lowering_is_portable() -> None:
    # lib/Conversion/TorchToStablehlo/Basic.cpp: the batch_norm lowering reads the op's
    # cudnn_enabled operand into a local and ignores it; nothing here calls cuDNN.
    source = b"""\
LogicalResult lowerBatchNorm(AtenBatchNormOp op, PatternRewriter &rewriter) {
  bool cudnnEnabled = false;
  if (!matchPattern(op.getCudnnEnabled(), m_TorchConstantBool(&cudnnEnabled)))
    return rewriter.notifyMatchFailure(op, "flag must be constant");
  return success();
}
"""
    assert _rules("lib/Conversion/ToStablehlo/Norm.cpp", source) == set()
    assert _layers("lib/Conversion/ToStablehlo/Norm.cpp", source) == {"portable": 6}


def test_cudnn_handle_call_stays_vendor_library() -> None:
    # The same lowering's neighbour in a CUDA backend would call cuDNN itself.
    source = b"""\
void run(cudnnHandle_t handle, cudnnTensorDescriptor_t x) {
  bool cudnnEnabled = true;
  cudnnBatchNormalizationForwardInference(handle, x);
}
"""
    assert _rules("src/bn.cpp", source) == {"cudnn.call"}
    assert _layers("src/bn.cpp", source) == {"vendor-library": 2, "portable": 2}


# -- fwyc0573/Megatron-LM: CUDA tensor types named by string ------------------------------


def test_cuda_tensor_type_string_assert_is_vendor_path() -> None:
    # megatron/inference/text_generation/sampling.py: the sampler asserts its logits are a
    # CUDA float tensor by comparing tensor.type() with the type's name.
    source = b"""\
def pick_tokens(scores, k=1):
    assert scores.ndim == 2, "scores are [batch, vocab]"
    assert scores.type() == 'torch.cuda.FloatTensor', \\
        'scores should be fp32'
    return scores.topk(k).indices
"""
    assert _rules("generation/pick.py", source) == {"torch.cuda-tensor-type-string"}
    assert _layers("generation/pick.py", source) == {"vendor-path": 1, "portable": 4}


def test_cuda_tensor_type_strings_in_a_membership_test_are_vendor_path() -> None:
    # megatron/core/optimizer/optimizer.py: fp16 and bf16 parameters are told apart from fp32
    # ones by their CUDA type names.
    source = b"""\
def split_groups(params):
    low, full = [], []
    for p in params:
        if p.type() in ['torch.cuda.HalfTensor', 'torch.cuda.BFloat16Tensor']:
            low.append(p)
        elif p.type() == 'torch.cuda.FloatTensor':
            full.append(p)
    return low, full
"""
    assert _rules("optim/groups.py", source) == {"torch.cuda-tensor-type-string"}
    assert _layers("optim/groups.py", source) == {"vendor-path": 2, "portable": 6}


def test_host_tensor_type_string_stays_portable() -> None:
    source = b"""\
def check(x):
    assert x.type() == 'torch.FloatTensor', 'expected torch.cuda.FloatTensor or host fp32'
    return x
"""
    assert _rules("utils/check.py", source) == set()
    assert _layers("utils/check.py", source) == {"portable": 3}


def test_nvtx_ranges_through_torch_cuda_are_vendor_path() -> None:
    # megatron/core/models/gpt/gpt_model.py (already right): torch.cuda.nvtx imported under
    # an alias; the import line is what lockin counts.
    source = b"""\
import torch
import torch.cuda.nvtx as marks

def forward(self, x):
    marks.range_push("decoder")
    y = self.decoder(x)
    marks.range_pop()
    return y
"""
    assert _rules("model/gpt.py", source) == {"torch.cuda-call"}
    assert _layers("model/gpt.py", source) == {"vendor-path": 1, "portable": 6}


# -- zv1131860787/nano-deepspeed: backend choice guarded by availability (already right) ---


def test_nccl_backend_choice_and_set_device_are_vendor_path() -> None:
    # nano_deepspeed/distributed.py: NCCL when CUDA is there, gloo otherwise.
    source = b"""\
import torch
import torch.distributed as dist

def setup(rank):
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    dist.init_process_group(backend=backend)
    if torch.cuda.is_available():
        torch.cuda.set_device(rank)
"""
    assert _rules("trainer/dist.py", source) == {"torch.device-string", "torch.cuda-call"}
    assert _layers("trainer/dist.py", source) == {"vendor-path": 2, "portable": 5}


# -- Kuan-Mi/UnityPathTracing: DLSS through NRI's upscaler; HLSL shaders --------------------


def test_nri_dlss_ray_reconstruction_upscaler_is_vendor_library() -> None:
    # RenderingPlugin/Denoiser/DLRRInstance.cpp: the denoiser plugin creates NRI's upscaler
    # with the DLSS ray-reconstruction type; only that choice ties it to NVIDIA.
    source = b"""\
void Denoiser::Init(nri::Device* device, uint32_t w, uint32_t h) {
    nri::UpscalerDesc desc = {};
    desc.upscaleResolution = {w, h};
    desc.type = nri::UpscalerType::DLRR;
    NRI_ABORT_ON_FAILURE(m_nri.CreateUpscaler(*device, desc, m_upscaler));
}
"""
    assert _rules("plugin/Denoiser.cpp", source) == {"hlsl.dlss-upscaler"}
    assert _layers("plugin/Denoiser.cpp", source) == {"vendor-library": 1, "portable": 5}


def test_nri_image_scaling_upscaler_stays_portable() -> None:
    # RenderingPlugin/Denoiser/NISInstance.cpp: NVIDIA Image Scaling is a shader that runs on
    # every vendor's GPU.
    source = b"""\
void Scaler::Init(nri::Device* device) {
    nri::UpscalerDesc desc = {};
    desc.type = nri::UpscalerType::NIS;
    m_nri.CreateUpscaler(*device, desc, m_upscaler);
}
"""
    assert _rules("plugin/Scaler.cpp", source) == set()
    assert _layers("plugin/Scaler.cpp", source) == {"portable": 5}


def test_hlsl_include_with_guard_is_kernel_code_as_a_whole() -> None:
    # UnityProject/Assets/Shaders/RTXDI/GI/BoilingFilter.hlsl (already right): a guarded
    # include file holding one shader helper.
    source = b"""\
#ifndef GI_FILTER_HLSLI
#define GI_FILTER_HLSLI
#include "Reservoir.hlsl"

void ClampReservoir(uint2 tid, float strength, inout GIReservoir r)
{
    float w = Luminance(r.radiance) * r.weightSum;
    if (ShouldDrop(tid, strength, w))
        r = EmptyReservoir();
}

#endif
"""
    assert _rules("Shaders/GI/Filter.hlsl", source) == {"hlsl.shader-file"}
    assert _layers("Shaders/GI/Filter.hlsl", source) == {"kernel": 10}


def test_shared_parameter_struct_header_beside_shaders_is_portable() -> None:
    # UnityProject/Assets/Shaders/RTXDI/LightSampling/RISBufferSegmentParameters.h (already
    # right): a plain struct shared by host and shaders.
    source = b"""\
#ifndef SEGMENT_PARAMS_H
#define SEGMENT_PARAMS_H

struct SegmentParams
{
    uint32_t offset;
    uint32_t tileSize;
    uint32_t tileCount;
};

#endif
"""
    assert _rules("Shaders/Sampling/SegmentParams.h", source) == set()
    assert _layers("Shaders/Sampling/SegmentParams.h", source) == {"portable": 9}
