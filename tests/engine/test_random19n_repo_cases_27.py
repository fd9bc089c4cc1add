"""Cases from repositories drawn at random from a GPU-named sub-pool (issue 27, lane h55-random-n).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the
written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some hold
no GPU code at all). This lane took positions 36-42 of the sub-pool. One was skipped:
ianras77/gpu-private-store (37) had no snapshot to fetch. Read were poiyomi/PoiyomiToonShader
(a Unity toon shader for VRChat avatars: ShaderLab files whose CGPROGRAM blocks and .cginc
includes are hand-written HLSL, a Unity compute shader for texture packing, and C# editor
tooling on Unity's API), CutyCupy/jeopardy (a Spring Boot quiz game in Java with a little
JavaScript, no GPU code), Shaderock/business-lunch-provider (a lunch-ordering service: Java
Spring back end, Vue front end and a Kotlin Android client in packages named after its
author, no GPU code), TritonDataCenter/monitor-reef (Rust services, clients and a CLI for
Triton DataCenter, Joyent's cloud, no GPU code), viclule/pycuda_harris_corner_detector (a
Harris corner detector in Python with CUDA C kernels compiled by PyCUDA from string.Template
sources) and vertexshader256/scala-x86-inst (x86 instruction definitions in Scala for an
assembler, no GPU code). Fifteen files of each repository were sampled with
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

# -- viclule/pycuda_harris_corner_detector: CUDA C in string.Template, compiled by PyCUDA ------


def test_pycuda_template_kernel_and_its_compile_call() -> None:
    # harris_corner_detector/pycuda_single_kernel.py (sample: kernel 38, hand 38): the kernel
    # is a string.Template filled in with the image's size before SourceModule compiles it.
    # The compile call took no literal, so its lines were portable before (the file's
    # verdict was right from the imports and launches); nvcc compiling it is a CUDA step.
    source = b"""\
from string import Template
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule


def response(img, k):
    text = Template(\"\"\"
    __global__ void harris(float *out, const float *gxx, const float *gyy, float k) {
        unsigned int i = threadIdx.x + blockIdx.x * blockDim.x;
        if (i < ${SIZE}) {
            float det = gxx[i] * gyy[i];
            out[i] = det - k * (gxx[i] + gyy[i]);
        }
    }
    \"\"\")
    module = SourceModule(text.substitute(SIZE=img.size,
                                          ROWS=img.shape[0]))
    fn = module.get_function("harris")
    out = np.zeros_like(img)
    fn(drv.Out(out), drv.In(img), drv.In(img), np.float32(k),
       block=(256, 1, 1), grid=(img.size // 256 + 1, 1))
    return out
"""
    path = "detector/pycuda_single.py"
    assert _rules(path, source) == {"pycuda.driver", "pycuda.host-api", "cuda.source-string"}
    layers = _layers(path, source)
    assert layers["kernel"] == 9
    # the imports (3), the compile call (2), get_function (1) and the launch (2)
    assert layers["vendor-path"] == 8


def test_pycuda_streams_and_events_are_vendor_path() -> None:
    # harris_corner_detector/pycuda_multi_kernel.py (non-portable, right): the image cut in
    # slices, each copied and launched on a stream of its own, timed with driver events.
    source = b"""\
import pycuda.autoinit
import pycuda.driver as drv


def run_sliced(parts, fn):
    streams = [drv.Stream() for _ in parts]
    bufs = [drv.mem_alloc(p.nbytes) for p in parts]
    for buf, part, stream in zip(bufs, parts, streams):
        drv.memcpy_htod_async(buf, part, stream=stream)
    start = drv.Event()
    return streams, bufs, start
"""
    path = "detector/pycuda_sliced.py"
    assert _rules(path, source) == {"pycuda.driver", "pycuda.host-api"}
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_cli_choosing_the_cuda_implementation_is_vendor_path() -> None:
    # main.py (sample, vendor-path 1, labelled vendor-path): the script imports the PyCUDA
    # modules and picks the CUDA implementation by its name; a port edits this dispatch.
    source = b"""\
import sys
from detector.python_based import corners_numpy
from detector.pycuda_single import corners_cuda

if __name__ == "__main__":
    choice = sys.argv[1]
    if choice == "numpy":
        found = corners_numpy(0.05)
    elif choice == "cuda":
        found = corners_cuda(0.05)
    print(len(found))
"""
    path = "run.py"
    assert _rules(path, source) == {"torch.device-string"}
    assert _layers(path, source)["vendor-path"] == 1


def test_requirements_pinning_a_pycuda_build_for_cuda_is_vendor_path() -> None:
    # requirements.txt (sample, vendor-path 1, right): a PyCUDA wheel built for CUDA 10.0.
    source = b"""\
numpy==1.16.1
pycuda==2018.1.1+cuda100
scipy==1.2.1
"""
    path = "requirements.txt"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 2}


def test_numpy_reference_implementation_is_portable() -> None:
    # harris_corner_detector/python_based.py (sample, portable, right): the same detector
    # on the CPU with NumPy, the baseline the CUDA versions are timed against.
    source = b"""\
import numpy as np


def corners_numpy(img, k):
    dy, dx = np.gradient(img)
    det = (dx * dx) * (dy * dy) - (dx * dy) ** 2
    trace = dx * dx + dy * dy
    return det - k * trace * trace
"""
    assert _layers("detector/python_based.py", source) == {"portable": 6}


# -- poiyomi/PoiyomiToonShader: ShaderLab passes with CG programs, HLSL includes, C# editor ----


def test_shaderlab_pass_including_cg_files_counts_its_program_only() -> None:
    # Shaders/7.3/Pro/Shaders/S_Poiyomi_Toon.shader (sample: kernel 177 of 1489, hand 167
    # inside the CGPROGRAM blocks): a thousand lines of Properties and the passes' render
    # state are Unity's material description; the CG programs, mostly pragmas, defines and
    # #include lines of the .cginc files, are the shader.
    source = b"""\
Shader "Toon/Outlined"
{
    Properties
    {
        [HideInInspector] m_start_Main ("Main", Float) = 0
        _Color ("Color", Color) = (1, 1, 1, 1)
        [Enum(UnityEngine.Rendering.CullMode)] _Cull ("Cull", Int) = 2
    }
    CustomEditor "Toon.Inspector"
    SubShader
    {
        Tags { "RenderType" = "Opaque" "Queue" = "Geometry" }
        Pass
        {
            Name "Base"
            Cull [_Cull]
            CGPROGRAM
            #pragma target 5.0
            #pragma multi_compile_fwdbase
            #define BASE_PASS
            #pragma vertex vert
            #pragma fragment frag
            #include "../Includes/ToonPass.cginc"
            ENDCG
        }
    }
}
"""
    path = "Shaders/Toon/Outlined.shader"
    assert _layers(path, source) == {"kernel": 8, "portable": 19}


def test_cginc_include_with_guard_and_property_uniforms_is_kernel() -> None:
    # Shaders/7.3/Pro/Includes/CGI_PoiPanosphere.cginc (sample: kernel 72, hand 72): an
    # include guard, the material's uniforms and the functions sampling them.
    source = b"""\
#ifndef SKY_SPHERE
    #define SKY_SPHERE
    float _SkyBlend;
    float3 _SkyPan;
    #if defined(PROP_SKYTEX) || !defined(OPTIMIZER_ENABLED)
        sampler2D _SkyTex; float4 _SkyTex_ST;
    #endif

    float2 sphereUV(float3 dir)
    {
        float3 n = normalize(dir);
        float2 uv = float2(atan2(n.z, n.x), acos(n.y)) / UNITY_PI;
        return uv + _Time.y * _SkyPan.xy;
    }
#endif
"""
    assert _layers("Shaders/Includes/SkySphere.cginc", source) == {"kernel": 14}


def test_unity_compute_shader_for_texture_packing_is_kernel() -> None:
    # Scripts/ThryEditor/Editor/TexturePacker/ThryTexturePacker.compute (extra kernel file:
    # kernel 250, hand 250): a compute kernel with its thread-group size, read by Unity's
    # shader compiler, HLSL throughout.
    source = b"""\
#pragma kernel Pack

Texture2D<float4> _Red;
SamplerState sampler_Red;
RWTexture2D<float4> Result;
float _Width;

[numthreads(8, 8, 1)]
void Pack(uint3 id : SV_DispatchThreadID)
{
    float2 uv = id.xy / _Width;
    Result[id.xy] = float4(_Red.SampleLevel(sampler_Red, uv, 0).r, 0, 0, 1);
}
"""
    assert _layers("Editor/Packer/Pack.compute", source) == {"kernel": 11}


def test_unity_editor_rewriting_shader_text_is_portable() -> None:
    # Scripts/ThryEditor/Editor/ShaderOptimizer.cs (portable, right): the editor bakes a
    # material's settings into a copy of the shader by editing its text; the pragmas are
    # strings it searches for, nothing it compiles for a vendor.
    source = b"""\
using System;
using UnityEngine;

public static class Baker
{
    public static string Strip(string line)
    {
        if (line.StartsWith("#pragma shader_feature", StringComparison.Ordinal))
            return line.Replace("#pragma shader_feature_local", "").Trim();
        if (line.StartsWith("#pragma geometry", StringComparison.Ordinal))
            return "";
        return line;
    }
}
"""
    assert _layers("Editor/Baker.cs", source) == {"portable": 13}


def test_unity_editor_filling_compute_buffers_is_portable() -> None:
    # Scripts/ThryEditor/Editor/TexturePacker/Packer.cs (GPU-looking, portable, right):
    # ComputeShader and ComputeBuffer are Unity's own API, run on every graphics back end.
    source = b"""\
using UnityEngine;

public static class Packer
{
    public static void Run(ComputeShader shader, RenderTexture target, int n)
    {
        var buffer = new ComputeBuffer(n, sizeof(float));
        int k = shader.FindKernel("Pack");
        shader.SetBuffer(k, "Weights", buffer);
        shader.SetTexture(k, "Result", target);
        shader.Dispatch(k, target.width / 8, target.height / 8, 1);
        buffer.Release();
    }
}
"""
    assert _layers("Editor/Packer.cs", source) == {"portable": 13}


# -- monitor-reef, business-lunch-provider, scala-x86-inst: GPU words in names, no GPU code --


def test_triton_datacenter_rust_client_is_portable() -> None:
    # cli/triton-cli/src/commands/account.rs (GPU-looking, portable, right): Triton here is
    # Joyent's cloud, not OpenAI's compiler; its clients and profiles are plain Rust.
    source = b"""\
use triton_gateway_client::Client;

pub async fn show_account(client: &Client, profile: &str) -> anyhow::Result<()> {
    let triton_url = std::env::var("TRITON_URL")?;
    let account = client.get_account(profile).send().await?;
    println!("{} at {}", account.login, triton_url);
    Ok(())
}
"""
    assert _layers("cli/triton-cli/src/commands/account.rs", source) == {"portable": 7}


def test_triton_datacenter_cargo_manifest_is_portable() -> None:
    # clients/internal/triton-gateway-client/Cargo.toml (sample, portable, right).
    source = b"""\
[package]
name = "triton-gateway-client"
version = "0.1.0"
edition = "2021"

[dependencies]
triton-auth = { path = "../../../libs/triton-auth" }
reqwest = { version = "0.12", features = ["json"] }
"""
    assert _layers("clients/triton-gateway-client/Cargo.toml", source) == {"portable": 7}


def test_java_service_in_a_package_named_shaderock_is_portable() -> None:
    # backend/.../supplier/service/SupplierValidationService.java (sample, portable, right):
    # the author's name, Shaderock, is every package's root; nothing of it is a shader.
    source = b"""\
package com.shaderock.lunch.backend.feature.supplier.service;

import org.springframework.stereotype.Service;

@Service
public class SupplierChecks {
    public boolean hasMenu(Supplier supplier) {
        return supplier.getMenu() != null && !supplier.getMenu().isEmpty();
    }
}
"""
    path = "backend/src/main/java/com/shaderock/lunch/SupplierChecks.java"
    assert _layers(path, source) == {"portable": 8}


def test_scala_x86_instruction_definition_is_portable() -> None:
    # src/main/scala/com/scalaAsm/x86/Instructions/General/POPCNT.scala (sample, portable,
    # right): an x86 opcode table for an assembler written in Scala; CPU instructions only.
    source = b"""\
package com.scalaAsm.x86
package Instructions
package General

// Description: count the bits set to 1
trait COUNTBITS extends InstructionDefinition {
  val mnemonic = "COUNTBITS"
}

object COUNTBITS extends TwoOperands[COUNTBITS] with COUNTBITSImpl

trait COUNTBITSImpl extends COUNTBITS {
  implicit object _0 extends TwoOp[r32, rm32] {
    val opcode: TwoOpcodes = (0x0F, 0xB8) /r
    override def prefix = REPZ
    val format = RegRmFormat
  }
}
"""
    assert _layers("src/main/scala/x86/General/COUNTBITS.scala", source) == {"portable": 14}
