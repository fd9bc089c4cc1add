"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-j).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 64-70. Two were skipped: mrcryptolife420/
Neural-network-binance-spot (66) and gabrielkmbo/FocusParse (69) had no snapshot to fetch.
Read were expipiplus1/vulkan (Haskell bindings to Vulkan generated from the registry, with
VMA and OpenXR bindings, utility libraries and example renderers whose GLSL and HLSL shaders
sit in quasi-quotes compiled to SPIR-V at build time), joaoblasques/corpus (a personal
knowledge-base builder in Python: feeds, mail and GitHub collectors, no GPU code),
PKU-CMEGroup/NeuralOperator (point-cloud and Fourier neural operators in PyTorch with SLURM
training scripts), AscendNTNU/fluid (a ROS drone-control state machine in C++ over MAVROS, no
GPU code) and yueliang13/cann-ops-adv-vllm (a fork of Huawei's CANN advanced operators:
Ascend C incremental and sparse paged flash-attention kernels, their op-host tiling, aclnn
wrappers, torch_npu tests and CANN build scripts). The cann-ops snapshot lacked 9 blobs, none
of a counted file at HEAD. Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- expipiplus1/vulkan: shaders in Haskell quasi-quotes --------------------------------------


def test_haskell_vertex_and_fragment_quasiquotes_are_kernel() -> None:
    # examples/lib/Triangle.hs (sampled: vendor-path only before): the pipeline is built with
    # the Vulkan bindings, and the two stages are GLSL inside [vert| |] and [frag| |].
    source = b"""\
{-# LANGUAGE QuasiQuotes #-}
module Quad (quadVert, quadFrag, stages) where

import qualified Vulkan.Core10 as Vk
import Vulkan.Utils.ShaderQQ.GLSL.Shaderc (frag, vert)

stages = [(Vk.SHADER_STAGE_VERTEX_BIT, quadVert), (Vk.SHADER_STAGE_FRAGMENT_BIT, quadFrag)]

quadVert =
  [vert|
    #version 450
    layout(location = 0) out vec2 uv;
    void main() {
      uv = vec2(gl_VertexIndex & 1, gl_VertexIndex >> 1);
      gl_Position = vec4(uv * 2.0 - 1.0, 0.0, 1.0);
    }
  |]

quadFrag =
  [frag|
    #version 450
    layout(location = 0) in vec2 uv;
    layout(location = 0) out vec4 colour;
    void main() { colour = vec4(uv, 0.5, 1.0); }
  |]
"""
    path = "examples/lib/Quad.hs"
    assert _rules(path, source) == {"vulkan.haskell-host", "vulkan.haskell-shader-quasiquote"}
    assert _layers(path, source) == {"kernel": 14, "vendor-path": 3, "portable": 3}


def test_haskell_glsl_chunks_spliced_into_a_compute_shader_are_kernel() -> None:
    # examples/visibility-buffer/Pipeline/Cull/Shader.hs and Pipeline/Common.hs (sampled, and
    # an extra kernel file): one-line [glsl| |] chunks (structs, helpers) spliced with $name
    # into a [glsl| |] compute shader that a Template Haskell splice compiles.
    source = b"""\
{-# LANGUAGE QuasiQuotes #-}
{-# LANGUAGE TemplateHaskell #-}
module Pass.Shader (cullCode) where

import Vulkan.Utils.ShaderQQ.GLSL.Glslang (glsl)
import qualified Pass.Common as Common

boxStruct = [glsl|struct Box { vec4 lo; vec4 hi; };|]

cullCode = $(Common.comp [glsl|
    #version 450
    layout(local_size_x = 128) in;
    $boxStruct
    layout(set = 0, binding = 0, std430) readonly buffer Boxes { Box boxes[]; };
    void main() {
      uint i = gl_GlobalInvocationID.x;
    }
  |])
"""
    path = "examples/cull/Pass/Shader.hs"
    assert _rules(path, source) == {"vulkan.haskell-host", "vulkan.haskell-shader-quasiquote"}
    assert _layers(path, source) == {"kernel": 10, "vendor-path": 1, "portable": 2}


def test_haskell_hlsl_in_a_stage_quasiquote_is_kernel() -> None:
    # examples/hlsl/Main.hs: the HLSL quasi-quoters take the same stage names.
    source = b"""\
module Main where
import Vulkan.Utils.ShaderQQ.HLSL.Shaderc (frag)

pixel =
  [frag|
    float4 main([[vk::location(0)]] const float3 tint) : SV_TARGET
    {
        return float4(tint, 1);
    }
  |]
"""
    path = "examples/hlsl/Main.hs"
    assert "vulkan.haskell-shader-quasiquote" in _rules(path, source)
    assert _layers(path, source)["kernel"] == 6


def test_haskell_requirement_quasiquote_is_no_shader() -> None:
    # examples/rays/Init.hs (sampled, right before and after): a [reqs| |] block lists device
    # extensions and features; it is Vulkan host configuration, not a shader.
    source = b"""\
{-# LANGUAGE QuasiQuotes #-}
module Init (deviceRequirements) where

import Vulkan.Requirement (DeviceRequirement)
import Vulkan.Utils.Requirements.TH (reqs)

deviceRequirements :: [DeviceRequirement]
deviceRequirements =
  [reqs|
      1.2.162
      VK_KHR_ray_tracing_pipeline
      VK_KHR_acceleration_structure
  |]
"""
    path = "examples/rays/Init.hs"
    assert _rules(path, source) == {"vulkan.haskell-host"}
    assert "kernel" not in _layers(path, source)


def test_haskell_binding_generator_helper_stays_portable() -> None:
    # generate-new/src/VkModulePrefix.hs (sampled, right): the generator names the modules it
    # writes; it imports no binding.
    source = b"""\
module ModPrefix (bindingModule) where

import qualified Data.Text as T

-- | Prefix of every generated module
prefix :: T.Text
prefix = "Vulkan"

bindingModule :: [T.Text] -> T.Text
bindingModule = T.intercalate "." . (prefix :)
"""
    path = "generate-new/src/ModPrefix.hs"
    assert _layers(path, source) == {"portable": 6}


def test_haskell_extension_binding_module_is_vendor_path() -> None:
    # src/Vulkan/Extensions/VK_KHR_*.hs (sampled, right): a generated module re-exporting
    # Vulkan's structures and constants under the extension's name.
    source = b"""\
module Vulkan.Extensions.VK_KHR_thing (PhysicalDeviceThingFeaturesKHR) where
import Data.String (IsString)
import Vulkan.Core12.Promoted_From_VK_KHR_thing (PhysicalDeviceThingFeatures)
type PhysicalDeviceThingFeaturesKHR = PhysicalDeviceThingFeatures
"""
    path = "src/Vulkan/Extensions/VK_KHR_thing.hs"
    assert _rules(path, source) == {"vulkan.haskell-host"}
    assert "kernel" not in _layers(path, source)


# -- yueliang13/cann-ops-adv-vllm: CANN build scripts, AscendCL from Python, Ascend C ---------


def test_cann_op_host_cmake_compile_options_are_vendor_path() -> None:
    # src/transformer/sparse_paged_fusion_attention/ophost/CMakeLists.txt (sampled: portable
    # before): CANN's op-project function compiling the op for an Ascend compute unit with
    # bisheng's --cce-* options.
    source = b"""\
add_ops_compile_options(
        OP_NAME PagedDecode
        OPTIONS --cce-auto-sync=off
                -Werror
)
add_ops_compile_options(
        OP_NAME PagedDecode
        COMPUTE_UNIT ascend310p1
        OPTIONS -mllvm
                -cce-aicore-jump-expand=true
)
target_sources(optiling PRIVATE paged_decode_tiling.cc)
"""
    path = "src/ops/paged_decode/ophost/CMakeLists.txt"
    assert _rules(path, source) == {"build.ascend-cann"}
    assert _layers(path, source) == {"vendor-path": 5, "portable": 7}


def test_python_ctypes_ascendcl_soc_query_is_vendor_path() -> None:
    # cmake/scripts/examples/get_soc_info.py (sampled: portable before): libascendcl loaded
    # with ctypes to ask the runtime for the SoC's name.
    source = b"""\
import ctypes


def soc_name() -> str:
    runtime = ctypes.cdll.LoadLibrary("libascendcl.so")
    runtime.aclrtGetSocName.restype = ctypes.c_char_p
    name = runtime.aclrtGetSocName()
    return name.decode() if name else ""


if __name__ == "__main__":
    print(soc_name())
"""
    path = "cmake/scripts/examples/soc_name.py"
    assert _rules(path, source) == {"ascend.python-acl"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 6}


def test_pyacl_device_setup_is_vendor_path() -> None:
    # The same runtime through pyACL, as Ascend's Python inference samples drive it.
    source = b"""\
import acl

def open_device(device_id=0):
    acl.init()
    acl.rt.set_device(device_id)
    context, ret = acl.rt.create_context(device_id)
    return context
"""
    path = "samples/open_device.py"
    assert _rules(path, source) == {"ascend.python-acl"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 3}


def test_shell_sourcing_the_ascend_toolkit_and_msprof_is_vendor_path() -> None:
    # extension/build.sh and op_eval/run.sh (GPU-looking files counted portable before): the
    # toolkit's environment script, its libraries on the loader path, CANN's profiler.
    source = b"""\
#!/bin/bash
source /usr/local/Ascend/ascend-toolkit/set_env.sh
export LD_LIBRARY_PATH=/usr/local/Ascend/ascend-toolkit/latest/lib64:$LD_LIBRARY_PATH
python3 setup.py bdist_wheel
# msprof op python3 case.py
msprof --ai-core=on --output=./prof python bench.py --iters 3
"""
    path = "extension/build.sh"
    assert _rules(path, source) == {"build.ascend-cann"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 1}


def test_ascend_c_matmul_config_constants_are_kernel() -> None:
    # src/transformer/*/ifa_public_define.h (an extra kernel file, hand ~300 lines, lockin 178
    # before): the MatmulConfig constants configuring AscendC's matmul template for the
    # attention kernels, beside the __aicore__ vector helpers.
    source = b"""\
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

constexpr MatmulConfig CFG_SPLIT_K{.doNorm = false,
                                   .doMultiDataLoad = true,
                                   .enUnitFlag = true,
                                   .iterateMode = IterateMode::ITERATE_MODE_ALL};

constexpr uint32_t BLOCK_BYTES = 32;

__aicore__ inline void ScaleRow(LocalTensor<float> dst, LocalTensor<float> src, float s, uint32_t n)
{
    Muls(dst, src, s, n);
}
"""
    path = "src/transformer/attn/attn_public_define.h"
    assert _rules(path, source) == {"ascend.kernel-types", "ascend.aicore-kernel"}
    assert _layers(path, source)["kernel"] == 8


def test_cann_host_tiling_enum_named_matmul_config_stays_portable() -> None:
    # src/utils/inc/tiling/tiling_type.h: the host's own enumeration, no AscendC constant.
    source = b"""\
#pragma once
enum class MatmulConfig {
    NULL_CONFIG = 0,
    NORMAL_CONFIG = 1,
    MDL_CONFIG = 2
};
"""
    path = "src/utils/inc/tiling/tiling_type.h"
    assert _layers(path, source) == {"portable": 6}


# -- PKU-CMEGroup/NeuralOperator: device selection and SLURM scripts --------------------------


def test_neural_operator_cuda_device_pick_is_vendor_path() -> None:
    # scripts/*/fno_train.py and friends (sampled, right): one device line per script.
    source = b"""\
import torch

def run(model, loader):
    device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')
    model = model.to(device)
    for x, y in loader:
        loss = ((model(x.to(device)) - y.to(device)) ** 2).mean()
    return loss
"""
    path = "scripts/burgers/fno_train.py"
    assert _rules(path, source) == {"torch.device-string"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 6}


def test_slurm_script_asking_for_a_gpu_stays_portable() -> None:
    # scripts/*/mpcno_train.sh (sampled, right): a generic resource request, no vendor named.
    source = b"""\
#!/bin/bash
#SBATCH -J train_pcno
#SBATCH -p GPU80G
#SBATCH --gres=gpu:1
module load conda
source activate pytorch
python pcno_train.py --k_max 16 > log/train.log
"""
    path = "scripts/airfoil/pcno_train.sh"
    assert _layers(path, source) == {"portable": 3}


# -- joaoblasques/corpus: a vendor's name in a test string ------------------------------------


def test_vendor_name_in_a_news_headline_fixture_stays_portable() -> None:
    # tests/test_collect_email.py (GPU-looking, right): a scored headline mentions NVIDIA.
    source = b"""\
def test_headline_scores_high(collector):
    score = collector.score("https://news.example.org/a", "NVIDIA opens a new lab")
    assert score > 0.5
"""
    path = "tests/test_collect_email.py"
    assert _layers(path, source) == {"portable": 3}
