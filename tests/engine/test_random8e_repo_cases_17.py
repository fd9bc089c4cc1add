"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h45-random-e).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 498-505. Three could not be read: HashSource/hashsource_antminer_S19x,
Lhan-chding/Operator-Valued-Hyper-Attention and cspool/MLX_dev (no snapshot). Fifteen files of
each remaining repository (nagato0614/Pathtracing, halohlsl/Halo4-Shader-Source,
libretro/glsl-shaders, Wallelhw/GLSLRayMarching, juliangrohmann/tinygrad) were sampled with
``random.Random("owner/name")`` over every file lockin counts with code lines, and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10), the files it gives no language, and three commits touching GPU code
per repository judged against ``lockin diff``. Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- halohlsl/Halo4-Shader-Source: Direct3D effects written through the engine's macros ------


def test_effect_file_without_semantics_of_its_own_is_hlsl() -> None:
    # decals/base.fx: parameters declared through the engine's DECLARE_* macros, a pixel
    # routine the shared includes call; the semantics live in core.fxh. Before, 544 of the
    # repository's 758 .fx/.fxh files had no language and none of their lines counted.
    source = b"""\
#define DISABLE_VERTEX_COLOR
#include "core/core.fxh"

DECLARE_SAMPLER(color_map, "Color Map", "Color Map", "shaders/default_diff.tif")
#include "next_texture.fxh"

void pixel_pre_lighting(in s_pixel_shader_input input, inout s_shader_data data)
{
    float2 uv = input.texcoord.xy;
    data.common.albedo = sample2DGamma(color_map, transform_texcoord(uv, color_map_transform));
    data.common.albedo.rgb *= input.texcoord.z;
}
"""
    assert classify("decals/base.fx", source).language == "HLSL"
    assert _layers("decals/base.fx", source) == {"kernel": 10}


def test_effect_variant_including_its_base_is_hlsl() -> None:
    # decals/base_alpha.fx: a variant is a switch and the effect it configures.
    source = b"""\
#define DECAL_ALPHA_MAP

#include "base.fx"
"""
    assert classify("decals/base_alpha.fx", source).language == "HLSL"
    assert _layers("decals/base_alpha.fx", source) == {"kernel": 2}


def test_fx_file_of_another_language_gets_no_hlsl() -> None:
    # The negative: JavaFX Script kept as .fx, with no vector type nor effect include.
    source = b"""\
import javafx.stage.Stage;
var count: Integer = 4;
Stage { title: "Demo" }
"""
    assert classify("ui/Main.fx", source).language != "HLSL"


# -- Wallelhw/GLSLRayMarching: Dear ImGui's Direct3D 11 back end (checked right) -------------


def test_imgui_dx11_backend_counts_its_hlsl_strings_as_kernel() -> None:
    # FrameWork/imgui/imgui_impl_dx11.cpp (sampled): the pixel shader is an HLSL string of
    # backslash-continued lines compiled by D3DCompile; the Direct3D 11 host code around it
    # stays portable (a cross-vendor API), the shader's code lines are kernel code.
    source = b"""\
static const char* pixelShader =
    "struct PS_INPUT\\
    {\\
    float4 pos : SV_POSITION;\\
    float2 uv  : TEXCOORD0;\\
    };\\
    sampler sampler0;\\
    Texture2D texture0;\\
    \\
    float4 main(PS_INPUT input) : SV_Target\\
    {\\
    return texture0.Sample(sampler0, input.uv);\\
    }";
ID3DBlob* blob;
D3DCompile(pixelShader, strlen(pixelShader), NULL, NULL, NULL, "main", "ps_4_0", 0, 0, &blob, NULL);
"""
    assert _rules("imgui/imgui_impl_dx11.cpp", source) == {"hlsl.source-string"}
    assert _layers("imgui/imgui_impl_dx11.cpp", source) == {"kernel": 11, "portable": 4}


# -- nagato0614/Pathtracing: a thread pool's enqueue_task --------------------------------------


def test_thread_pool_enqueue_task_is_no_boost_compute() -> None:
    # src/render/Pathtracing.cpp: without OpenMP, each row of the image is a task handed to
    # the project's own ThreadPool. Before, `pool.enqueue_task(` read as Boost.Compute's
    # command_queue::enqueue_task, and the renderer was OpenCL host code (and a commit adding
    # the pool failed the gate).
    source = b"""\
std::vector<std::future<void>> futures;
for (int y = 0; y < height; y++)
{
  futures.emplace_back(pool.enqueue_task(
    [this, y, width]()
    {
      for (size_t x = 0; x < width; x++)
        (*film)[y * width + x] += Li(x, y);
    }));
}
"""
    assert _layers("src/render/Pathtracing.cpp", source) == {"portable": 10}


def test_boost_compute_queue_stays_opencl_host_code() -> None:
    # The negative: Boost.Compute's queue still names its objects and transfers.
    source = b"""\
#include <boost/compute/core.hpp>
boost::compute::command_queue queue(context, device);
queue.enqueue_write_buffer(buf, 0, bytes, host);
queue.enqueue_task(kernel);
"""
    assert _rules("src/gpu.cpp", source) == {"opencl.host-api"}
    assert _layers("src/gpu.cpp", source) == {"vendor-path": 3, "portable": 1}


# -- juliangrohmann/tinygrad: test skips listing several vendors' backends ---------------------


def test_tinygrad_skip_over_several_vendors_backends_is_portable() -> None:
    # test/test_subbuffer.py and test/test_linearizer_overflows.py: a test that runs only on
    # the backends with a feature, NVIDIA's, AMD's and Apple's alike. Before, the "CUDA" and
    # "NV" in the set made each file NVIDIA's.
    source = b"""\
import unittest
from tinygrad import Device

@unittest.skipIf(Device.DEFAULT not in {"CUDA", "NV", "AMD"}, "only NV, AMD, CUDA")
class TestSubBuffer(unittest.TestCase):
  pass

@unittest.skipIf(Device.DEFAULT not in {"GPU", "HSA", "CUDA", "METAL"}, "only backends with locals")
class TestOverflows(unittest.TestCase):
  pass
"""
    assert _layers("test/test_subbuffer.py", source) == {"portable": 8}


def test_tinygrad_skip_on_nvidia_alone_stays_vendor_path() -> None:
    # The negative: test/test_nn.py skips on NVIDIA's two backends, and only there.
    source = b"""\
import unittest
from tinygrad import Device, Tensor

@unittest.skipIf(CI and Device.DEFAULT in {"CUDA", "NV"}, "slow")
def test_conv():
  Tensor.ones(4).realize()
"""
    assert _rules("test/test_nn.py", source) == {"cuda.tinygrad-device"}
    assert _layers("test/test_nn.py", source) == {"vendor-path": 1, "portable": 4}


def test_tinygrad_neural_engine_library_build_links_apple_only() -> None:
    # extra/accel/ane/lib/build.sh (sampled): the ANE helper library is linked against the
    # Neural Engine's private frameworks. Before, portable.
    source = b"""\
#!/bin/bash
clang++ ane.mm --shared -F /System/Library/PrivateFrameworks/ -framework ANEServices \\
  -framework ANECompiler -framework Foundation -o libane.dylib
"""
    assert _rules("extra/accel/ane/lib/build.sh", source) == {"build.metal"}
    assert _layers("extra/accel/ane/lib/build.sh", source) == {"vendor-path": 2}


def test_tinygrad_libtpu_driver_client_is_tpu_only() -> None:
    # extra/accel/tpu/tfexample/libtpu_client.c (sampled): opens the local TPU through
    # libtpu's TpuDriver_* table, compiles an HLO module for it and allocates on its core.
    # Before, portable.
    source = b"""\
#include <stdio.h>
#include "libtpu.h"

int main(void) {
  struct TpuDriverFn fn;
  TpuDriver_Initialize(&fn, true);
  struct TpuDriver *driver = fn.TpuDriver_Open("local://");
  printf("version %s\\n", fn.TpuDriver_Version());
  return 0;
}
"""
    assert _rules("extra/accel/tpu/libtpu_client.c", source) == {"tpu.libtpu-c-api"}
    assert _layers("extra/accel/tpu/libtpu_client.c", source) == {
        "vendor-path": 4,
        "portable": 5,
    }
