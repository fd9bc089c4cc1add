"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-y).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 169-175. One was skipped:
CodeMiner786/MediFlow-Hospital-Appointment-Management-System (175) had no snapshot to fetch.
Read were jramke/fluid-primitives (a TYPO3 extension of UI primitives in PHP and TypeScript,
no GPU code), shaunandgemma/study-tracker (a React study tracker for AWS certifications whose
knowledge cards are JS objects of prose, some naming GPU instance types), abenmao/sycl-tla
(Intel's CUTLASS port to SYCL for Xe GPUs, with CUTLASS's NVIDIA headers, profiler, host
references and Doxygen HTML), lgsvl/simulator (a Unity autonomous-driving simulator in C#
with a vendored HDRP package of HLSL and ShaderLab shaders, and an NVENC capture plugin),
RefactorCheck/Refactor_Check (a data set of Java classes refactored by LLMs, no GPU code) and
mc-imperial/ShaderTests (GraphicsFuzz's GLSL and SPIR-V shaders reduced from compiler bugs,
with Python scripts generating CTS tests). Fifteen files of each repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts and labelled before any
fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules


def test_study_guide_prose_quoting_an_instance_type_is_portable() -> None:
    # shaunandgemma/study-tracker src/data/awsKnowledgeGuide/ec2/ec2-12.js and eks/eks-7.js: a
    # certification study guide keeps each card as a JS object of prose strings; one quotes an
    # EC2 type in Markdown backticks. Label portable; before, vendor-path 1 each
    # (cloud.nvidia-gpu-instance-string).
    source = b"""\
export default {
  id: 'ec2-9',
  title: 'Accelerated computing instances',
  summary: 'GPU families suit training and rendering.',
  example: 'Sizing note:\\n`g5.12xlarge` -> 4 GPUs, 96 GB.\\nFor batch jobs.',
  tags: ['ec2', 'gpu'],
};
"""
    path = "src/data/guide/ec2/ec2-9.js"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


def test_js_config_naming_a_gpu_instance_type_stays_vendor_path() -> None:
    # The counterpart kept: a config object asking for a g5 machine provisions NVIDIA hardware.
    source = b"""\
const fleet = {
  instanceType: "g5.xlarge",
  minSize: 1,
};
module.exports = fleet;
"""
    path = "infra/fleet.js"
    assert _rules(path, source) == {"cloud.nvidia-gpu-instance-string"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 4}


def test_cutlass_host_reference_is_host_code_naming_cutlass_types() -> None:
    # abenmao/sycl-tla tools/util/include/cutlass/util/reference/host/convolution.h (sampled):
    # CUTLASS's CPU reference convolutions, loops over TensorView on the host. Label
    # vendor-path (CUTLASS types, no device code); before, kernel 125 + vendor-path 31.
    source = b"""\
#pragma once
#include "cutlass/coord.h"
#include "cutlass/tensor_view.h"
#include "cutlass/conv/conv2d_problem_size.h"

namespace cutlass {
namespace reference {
namespace host {

template <typename Element, typename Layout>
void MaxPool2d(cutlass::conv::Conv2dProblemSize const &size,
               cutlass::TensorView<Element, Layout> input,
               cutlass::TensorView<Element, Layout> output) {
  for (int n = 0; n < size.N; ++n) {
    for (int p = 0; p < size.P; ++p) {
      Element best = input.at(cutlass::make_Coord(n, p * size.stride_h, 0, 0));
      output.at(cutlass::make_Coord(n, p, 0, 0)) = best;
    }
  }
}

} // namespace host
} // namespace reference
} // namespace cutlass
"""
    path = "tools/util/include/cutlass/util/reference/host/pool_ref.h"
    assert _rules(path, source) == {"cutlass.types"}
    assert _layers(path, source) == {"vendor-path": 6, "portable": 15}


def test_cutlass_profiler_class_is_not_kernel() -> None:
    # abenmao/sycl-tla tools/profiler/include/cutlass/profiler/conv3d_operation_profiler.h (an
    # extra kernel file: hand 0, lockin 235 before): the profiler's problem-description class
    # reopens namespace cutlass but is host code whole.
    source = b"""\
#pragma once
#include <vector>
#include "cutlass/library/library.h"
#include "operation_profiler.h"

namespace cutlass {
namespace profiler {

class PoolOperationProfiler : public OperationProfiler {
public:
  struct PoolProblem {
    int64_t n, h, w, c;
    std::vector<uint8_t> alpha;
    cutlass::gemm::GemmCoord as_gemm() const {
      return cutlass::gemm::GemmCoord(int(n * h * w), int(c), 1);
    }
  };
  PoolProblem problem_;
  int profile(Options const &options);
};

} // namespace profiler
} // namespace cutlass
"""
    path = "tools/profiler/include/cutlass/profiler/pool_profiler.h"
    assert _rules(path, source) == {"cutlass.types"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 18}


def test_cutlass_extension_struct_in_device_namespace_stays_kernel() -> None:
    # The counterpart kept: a struct with CUTLASS_DEVICE members reopening namespace cutlass.
    source = b"""\
#pragma once
#include "cutlass/array.h"
namespace cutlass {
namespace epilogue {
namespace device {
template <typename Element, int N>
struct ScaleRows {
  Array<Element, N> scale;
  CUTLASS_DEVICE void apply(Array<Element, N>& frag) const {
    for (int i = 0; i < N; ++i) frag[i] *= scale[i];
  }
};
}
}
}
"""
    path = "csrc/cutlass_ext/epilogue/scale_rows.h"
    assert _rules(path, source) == {"cutlass.cpp", "cutlass.extension-class"}
    assert _layers(path, source) == {"kernel": 8, "portable": 7}


def test_xe_gemm_test_composing_a_cutlass_kernel_is_kernel() -> None:
    # abenmao/sycl-tla test/unit/gemm/device/xe_gemm_bf16_bf16_bf16_tensor_op_bf16.cpp (extra
    # kernel file, hand 18, lockin 18): the struct composing an Xe GEMM from CUTLASS pieces.
    source = b"""\
#include "cutlass/cutlass.h"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "gemm_testbed_3x.hpp"

namespace cutlass {
namespace {
template <typename LayoutA>
struct XeGemmHalf {
  using Config = gemm::device::DefaultGemmConfigurationToCutlass3Types<
      arch::OpClassTensorOp, arch::IntelXe, cute::half_t, LayoutA,
      cute::half_t, layout::RowMajor, float, layout::RowMajor, float>;
  using Gemm = gemm::device::GemmUniversalAdapter<gemm::kernel::GemmUniversal<
      cute::Shape<int, int, int, int>, typename Config::CollectiveMainloop,
      typename Config::CollectiveEpilogue>>;
};

TEST(XeGemmHalf, rowmajor) {
  using Gemm = XeGemmHalf<layout::RowMajor>::Gemm;
  EXPECT_TRUE(test::gemm::device::TestXe<Gemm>());
}
}
}
"""
    path = "test/unit/gemm/device/xe_gemm_f16_tensor_op.cpp"
    assert _rules(path, source) == {"cutlass.cpp", "cutlass.extension-class"}
    assert _layers(path, source) == {"kernel": 11, "portable": 9}


def test_unity_compute_shader_is_kernel_whole() -> None:
    # lgsvl/simulator HDRP's RaytracingIndirectDiffuse.compute (sampled, kernel whole, right).
    source = b"""\
#pragma kernel BlurHalf
#pragma kernel BlurFull
#pragma only_renderers d3d11 vulkan metal

#include "Packages/com.example.pipeline/ShaderLibrary/Common.hlsl"

RWTexture2D<float4> _Output;
Texture2D<float4> _Input;

[numthreads(8, 8, 1)]
void BlurHalf(uint3 id : SV_DispatchThreadID)
{
    float4 sum = _Input[id.xy] + _Input[id.xy + uint2(1, 0)];
    _Output[id.xy] = sum * 0.5;
}

[numthreads(8, 8, 1)]
void BlurFull(uint3 id : SV_DispatchThreadID)
{
    _Output[id.xy] = _Input[id.xy];
}
"""
    path = "Runtime/Lighting/Shaders/BlurMips.compute"
    assert _rules(path, source) == {"hlsl.shader-file"}
    assert _layers(path, source) == {"kernel": 17}


def test_shaderlab_counts_its_cg_blocks_as_kernel() -> None:
    # lgsvl/simulator HDRP's Editor/PostProcessing/Shaders/CurveBackground.shader (extra kernel
    # file, hand 35, lockin 35): the CG blocks are kernel, the ShaderLab state portable.
    source = b"""\
Shader "Hidden/Editor/GradientStrip"
{
    CGINCLUDE
        #include "UnityCG.cginc"
        float _Dim;
        float4 FragStrip(v2f_img i) : SV_Target
        {
            float3 c = lerp(float3(0, 0, 0), float3(1, 1, 1), i.uv.x);
            return float4(c * _Dim, 1.0);
        }
    ENDCG

    SubShader
    {
        Cull Off ZWrite Off ZTest Always
        Pass
        {
            CGPROGRAM
                #pragma vertex vert_img
                #pragma fragment FragStrip
            ENDCG
        }
    }
}
"""
    path = "Editor/Shaders/GradientStrip.shader"
    assert _rules(path, source) == {"hlsl.shaderlab-program"}
    assert _layers(path, source) == {"kernel": 13, "portable": 10}


def test_unity_async_gpu_readback_is_portable() -> None:
    # lgsvl/simulator commit e3983364 (async GPU readback pool, gate passes, right): Unity's
    # AsyncGPUReadback is an engine API on every backend.
    source = b"""\
using UnityEngine;
using UnityEngine.Rendering;

public class ReadbackQueue
{
    public void Request(RenderTexture target)
    {
        AsyncGPUReadback.Request(target, 0, TextureFormat.RGBA32, OnDone);
    }

    void OnDone(AsyncGPUReadbackRequest req)
    {
        if (req.hasError) { Debug.LogWarning("GPU readback failed"); }
    }
}
"""
    path = "Assets/Scripts/Sensors/ReadbackQueue.cs"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 13}


def test_nvenc_loader_is_vendor_library() -> None:
    # lgsvl/simulator Assets/Plugins/VideoCapture/Source/VideoCapture.c: NVENC loaded by hand.
    source = b"""\
#include <windows.h>
#include "nvEncodeAPI.h"

static HMODULE EncoderDll;
static NV_ENCODE_API_FUNCTION_LIST EncoderApi;

int EncoderOpen(void)
{
    EncoderDll = LoadLibraryA("nvEncodeAPI64.dll");
    if (EncoderDll == NULL) return -1;
    EncoderApi.version = NV_ENCODE_API_FUNCTION_LIST_VER;
    return 0;
}
"""
    path = "Plugins/Capture/Source/Encoder.c"
    assert _rules(path, source) == {"cuda-libs.video-codec-loader", "cuda-libs.video-codec"}
    assert _layers(path, source) == {"vendor-library": 4, "portable": 7}


def test_graphicsfuzz_fragment_shader_is_kernel_whole() -> None:
    # mc-imperial/ShaderTests: GraphicsFuzz's reduced GLSL shaders (14 of 15 sampled, right).
    source = b"""\
#version 320 es
#define _int_1 _GLF_uniform_int_values[0]
precision highp float;
layout(set = 0, binding = 0) uniform buf0 {
 int _GLF_uniform_int_values[2];
};
layout(location = 0) out vec4 _GLF_color;
void main()
{
 int i = _int_1;
 while (i > 0) { i--; }
 _GLF_color = vec4(float(i), 0.0, 0.0, 1.0);
}
"""
    path = "coverage/IN_CTS/0100-COVERAGE-loop-fold/variant/shader.frag"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 13}


def test_graphicsfuzz_cts_generator_script_is_portable() -> None:
    # mc-imperial/ShaderTests generate_cts_test.py beside each test (sampled, right).
    source = b"""\
import sys
from pathlib import Path

from fuzztool import tool


def main() -> None:
    here = Path(__file__).parent
    tool.write_amber_test(here / "variant" / "shader.frag", "loop fold coverage")


if __name__ == "__main__":
    main()
    sys.exit(0)
"""
    path = "coverage/IN_CTS/0100-COVERAGE-loop-fold/generate_cts_test.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 9}
