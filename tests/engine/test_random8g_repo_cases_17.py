"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h45-random-g).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 514-521. Two could not be counted: DrXuQian/TensorRT-LLM (snapshot over 500 MB) and
agenium-scale/boost.simd (its snapshot holds a README alone, no file lockin counts). Fifteen
files of each remaining repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts, and labelled before any fix, with the files lockin calls non-portable (up
to twenty) and GPU-looking files it calls portable (up to ten); three commits touching GPU code
per repository were drawn with ``random.Random("owner/name:commits")`` and judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- raullenchai/Rapid-MLX: an MLX inference server with custom Metal kernels ------------------


def test_rapid_mlx_buffer_name_lists_of_a_kernel_wrapper_are_not_kernel_code() -> None:
    # vllm_mlx/kernels/turboquant_fused.py: the Metal source sits in a .metal file beside the
    # module (counted there); a helper hands it to mx.fast.metal_kernel by name, and each call
    # site passes the helper lists of buffer names. Before, those lists were read as kernel
    # source assigned to a name the metal_kernel call uses (input_names=input_names): two
    # kernel lines here, six in the file. The call's own line is what the file holds of the
    # kernel (the next case).
    source = b"""\
import mlx.core as mx

_SOURCES = {}


def metal_ready():
    return mx.default_device() == mx.gpu and mx.metal.is_available()


def _build(name, input_names, output_names):
    return mx.fast.metal_kernel(
        name=name,
        input_names=input_names,
        output_names=output_names,
        source=_SOURCES[name],
    )


def encode(x, signs):
    kernel = _build(
        "encode_v4",
        input_names=["x", "signs", "dims"],
        output_names=["packed", "norms"],
    )
    return kernel(inputs=[x, signs], grid=(32, 1, 1), threadgroup=(32, 1, 1))
"""
    assert _rules("vllm_mlx/kernels/fused.py", source) == {"metal.mps-device", "metal.mlx-kernel"}
    assert _layers("vllm_mlx/kernels/fused.py", source) == {
        "kernel": 1,
        "vendor-path": 1,
        "portable": 16,
    }


def test_rapid_mlx_kernel_compiled_from_a_metal_file_is_not_portable() -> None:
    # The same helper without the availability test: MLX's arrays are portable and the call
    # holds no literal, so before, nothing in the module counted though it compiles Metal
    # kernels for Apple GPUs. The call's line is that step; the kernels' own lines are
    # counted in the .metal file.
    source = b"""\
from pathlib import Path

import mlx.core as mx

_SOURCE = (Path(__file__).parent / "fused.metal").read_text()


def compile_kernel(name, inputs, outputs):
    return mx.fast.metal_kernel(
        name=name,
        input_names=inputs,
        output_names=outputs,
        source=_SOURCE,
    )
"""
    assert _rules("vllm_mlx/kernels/fused.py", source) == {"metal.mlx-kernel"}
    assert _layers("vllm_mlx/kernels/fused.py", source) == {"kernel": 1, "portable": 9}


def test_rapid_mlx_raw_string_source_assigned_to_the_name_stays_kernel_code() -> None:
    # The negative: a body kept in a raw string assigned to the name the call reads
    # (vllm_mlx/models/deepseek_v4_verify_attention.py) is still the kernel's source, its
    # prefix letter no bracket.
    source = b'''\
import mlx.core as mx

_ROWWISE = r"""
    const uint lane = thread_index_in_simdgroup;
    float acc = 0.0f;
    for (int k = int(lane); k < K; k += 32) {
        acc += float(lhs[k]) * float(rhs[k]);
    }
    acc = simd_sum(acc);
    if (lane == 0) {
        out[0] = T(acc);
    }
"""


def rowwise():
    return mx.fast.metal_kernel(
        name="rowwise",
        input_names=["lhs", "rhs"],
        output_names=["out"],
        source=_ROWWISE,
    )
'''
    assert _rules("vllm_mlx/models/rowwise.py", source) == {"metal.mlx-kernel"}
    layers = _layers("vllm_mlx/models/rowwise.py", source)
    assert 9 <= layers.get("kernel", 0) <= 14


# -- tianyahechy/hlsl9gjjj_study: Direct3D 9/10 samples on DXUT ---------------------------------


def test_dxut_effect_embedded_in_a_cpp_string_is_kernel_code() -> None:
    # DXUT/Optional/DXUTgui.cpp (checked right): the UI's effect file kept in a C string,
    # compiled with D3DX10CreateEffectFromMemory; the shader program is kernel code, the
    # Direct3D host code around it portable.
    source = b"""\
CHAR g_strUIEffect[] = \\
    "Texture2D g_Texture;"\\
    "struct VS_OUTPUT"\\
    "{"\\
    "    float4 Pos : SV_POSITION;"\\
    "    float2 Tex : TEXCOORD;"\\
    "};"\\
    "float4 PS( VS_OUTPUT In ) : SV_Target"\\
    "{"\\
    "    return g_Texture.Sample( Sampler, In.Tex );"\\
    "}";

HRESULT CreateUI( ID3D10Device* pDevice )
{
    UINT size = ( UINT )strlen( g_strUIEffect );
    return D3DX10CreateEffectFromMemory( g_strUIEffect, size, "UI", NULL, NULL, "fx_4_0",
                                         0, 0, pDevice, NULL, NULL, &g_pEffect, NULL, NULL );
}
"""
    assert _rules("DXUT/Optional/DXUTgui.cpp", source) == {"hlsl.source-string"}
    assert _layers("DXUT/Optional/DXUTgui.cpp", source)["kernel"] >= 9


# -- wdevioxa-alternative/newkind-webgpu: a WebGPU 2D renderer in JavaScript --------------------


def test_newkind_wgsl_in_a_javascript_template_is_kernel_code() -> None:
    # src/image.mjs (checked right): the textured quad's WGSL in a template literal handed to
    # createShaderModule; the WebGPU host code is portable.
    source = b"""\
export class GImage {
    pipeline(device) {
        const module = device.createShaderModule({
            code: `
            struct VertexOutput {
              @builtin(position) position : vec4<f32>,
              @location(0) texCoord : vec2<f32>
            };
            @group(0) @binding(0) var bindSampler : sampler;
            @group(0) @binding(1) var bindTexture : texture_2d<f32>;
            @fragment
            fn fragmentMain(@location(0) texCoord : vec2<f32>) -> @location(0) vec4<f32> {
              return textureSample(bindTexture, bindSampler, texCoord);
            }
            `,
        });
        return module;
    }
}
"""
    assert _rules("src/image.mjs", source) == {"wgsl.source-string"}
    layers = _layers("src/image.mjs", source)
    assert 9 <= layers["kernel"] <= 12
