"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-l).

The pool is ``/work/pool-h47.txt``, shuffled with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 665-671. All seven had snapshots and were read:
alexchartier/raytracing (MATLAB and Python ionospheric ray tracing on the CPU),
tier4/Diffusion-Planner (a PyTorch diffusion motion planner with ROS 2 C++ tools),
huangzongmou/Pycuda-warpaffine-trt-post (YOLO pre/post-processing as CUDA C kernels in
PyCUDA strings around a TensorRT engine), jeffreyhorn/linalg_sparse_orthogonal (a sparse
linear-algebra library in C), ndimoforaretas/local-gemma-rag (a local RAG web app in
TypeScript and Python), Syncaidius/SharpShader (a C# to HLSL/GLSL translator) and
YukiagoTpf/UnityShaderNav (a VS Code language server for Unity HLSL/ShaderLab, with HLSL
fixtures). Three snapshots lacked a few large files (TensorRT engines and ONNX models,
matrix-market data, a tree-sitter wasm); the rest of each tree was checked out. Fifteen
files of each repository (all four where fewer) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, and three commits touching GPU code (none where none exist)
judged against ``lockin diff`` (``random.Random("owner/name:commits")``). Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- tier4/Diffusion-Planner: the GPU picked for a child process ------------------------------


def test_cuda_visible_devices_as_keyword_argument_is_vendor_path() -> None:
    # rlvr/autoresearch/tools/run_l2_eval.py: the evaluation runs torchrun with an environment
    # built as dict(os.environ, CUDA_VISIBLE_DEVICES=...); the variable is a keyword, not a
    # string, and only NVIDIA's runtime reads it.
    source = b"""\
import os
import subprocess


def evaluate(model_dir, port):
    cmd = ["torchrun", "--nproc-per-node", "1", f"--master-port={port}", "eval.py", model_dir]
    child_env = dict(os.environ, CUDA_VISIBLE_DEVICES="1")
    return subprocess.run(cmd, env=child_env, check=True)
"""
    assert _rules("tools/eval_one.py", source) == {"env.cuda-variables-python-keyword"}
    assert _layers("tools/eval_one.py", source) == {"vendor-path": 1, "portable": 5}


def test_hiding_gpus_through_keyword_argument_stays_portable() -> None:
    # The same launcher run on the CPU: an empty CUDA_VISIBLE_DEVICES hides every GPU and
    # selects nothing NVIDIA-specific.
    source = b"""\
import os
import subprocess


def evaluate_on_cpu(cmd):
    return subprocess.run(cmd, env=dict(os.environ, CUDA_VISIBLE_DEVICES=""), check=True)
"""
    assert _rules("tools/eval_cpu.py", source) == set()
    assert _layers("tools/eval_cpu.py", source) == {"portable": 4}


def test_dataclass_default_cuda_device_is_vendor_path() -> None:
    # diffusion_planner/valid_config.py: the validation config defaults its device to "cuda".
    source = b"""\
from dataclasses import dataclass


@dataclass
class EvalConfig:
    batch_size: int = 32
    device: str = "cuda"
"""
    assert _rules("valid_config.py", source) == {"torch.device-string"}
    assert _layers("valid_config.py", source) == {"vendor-path": 1, "portable": 4}


# -- huangzongmou/Pycuda-warpaffine-trt-post: CUDA C held in a PyCUDA SourceModule ------------


def test_pycuda_source_module_kernel_lines_are_kernel() -> None:
    # warpaffine.py: a resize kernel written in CUDA C inside SourceModule("""..."""); the
    # string's code lines are the kernel, the pycuda buffer set-up is vendor-path.
    source = b'''\
import numpy as np
import pycuda.driver as cuda
from pycuda.compiler import SourceModule


class Scale:
    def __init__(self, n):
        self.out = cuda.mem_alloc(n * 4)
        mod = SourceModule("""
        __global__ void scale_kernel(float *dst, const float *src, float k, int n)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i >= n) return;
            // one element a thread
            dst[i] = src[i] * k;
        }
        """)
        self.fn = mod.get_function("scale_kernel")
'''
    layers = _layers("scale.py", source)
    assert "pycuda.source-module" in _rules("scale.py", source)
    # The call's opening and closing lines are counted with the string (call-argument-string).
    assert 6 <= layers["kernel"] <= 8
    assert layers["vendor-path"] >= 1


# -- YukiagoTpf/UnityShaderNav and Syncaidius/SharpShader: shader tooling ---------------------


def test_hlsl_fixture_file_is_kernel() -> None:
    # server/tests/parser/hlsl/fixtures/nested-struct.hlsl: HLSL source on disk.
    source = b"""\
struct Inner { float3 normal; };
struct Outer { Inner inner; float4 position; };

Outer Build() { Outer o; return o; }
"""
    assert _layers("fixtures/nested.hlsl", source) == {"kernel": 3}


def test_csharp_shader_type_mirror_is_portable() -> None:
    # SharpShader.Core/Resources/RWTexture1DArray.cs: a C# interface that mirrors an HLSL type
    # for a C#-to-HLSL translator runs on the CPU and names no vendor.
    source = b"""\
namespace ShaderMirror
{
    /// <summary>A read/write texture array, after the HLSL type of that name.</summary>
    public interface RWTextureArray<T> where T : struct
    {
        void GetDimensions(out uint width, out uint elements);
    }
}
"""
    assert _rules("Resources/RWTextureArray.cs", source) == set()
    assert set(_layers("Resources/RWTextureArray.cs", source)) == {"portable"}


def test_shader_kept_a_line_per_list_item_is_kernel_by_its_vector_function() -> None:
    # server/tests/handlers/references.test.ts: a language server's test indexes a shader
    # written a line per item of a list joined with newlines; no item has a semantic, cbuffer
    # or numthreads, but a function returning float3 says what the list holds. Every item is
    # the shader's, the test around it portable.
    source = b"""\
import { expect, it } from 'vitest';

it('finds both readers', async () => {
  const text = [
    'struct Probe { float3 albedo; };',
    'float3 ReadProbe(Probe p) {',
    '  return p.albedo;',
    '}',
  ].join('\\n');
  const index = await indexFile('file:///p/Probe.hlsl', text);
  expect(index.symbols.length).toBe(3);
});
"""
    assert _rules("tests/references.test.ts", source) == {"hlsl.source-string-vector-function"}
    assert _layers("tests/references.test.ts", source) == {"kernel": 4, "portable": 7}


def test_shaderlab_scanner_token_names_stay_portable() -> None:
    # server/src/parser/shaderlab/tokenScanner.ts: the scanner's own list of ShaderLab block
    # keywords; a keyword alone in a literal is a token name, no shader program.
    source = b"""\
const BLOCK_OPENERS = new Set([
  'HLSLPROGRAM',
  'CGPROGRAM',
  'HLSLINCLUDE',
]);

export function opensBlock(word: string): boolean {
  return BLOCK_OPENERS.has(word);
}
"""
    assert _rules("src/tokenScanner.ts", source) == set()
    assert set(_layers("src/tokenScanner.ts", source)) == {"portable"}


def test_one_line_hlsl_function_written_to_a_shader_file_is_kernel() -> None:
    # tests/integration/client/rebuild-on-branch.test.ts: the test writes a one-line HLSL
    # function into the project's shared include; the function is shader source.
    source = b"""\
import { writeFile } from 'node:fs/promises';

export async function addHelper(path: string): Promise<void> {
  await writeFile(path, 'float4 Tinted() { return float4(1, 0, 0, 1); }\\n', 'utf8');
}
"""
    assert _rules("tests/rebuild.test.ts", source) == {"hlsl.source-string-vector-function"}
    assert _layers("tests/rebuild.test.ts", source) == {"kernel": 1, "portable": 3}


def test_vector_type_in_a_message_is_no_shader() -> None:
    # A help string naming a vector type, and a declaration with no body (wordAt.test.ts's
    # cursor text): neither is matched as a shader.
    source = b"""\
const hint = 'float4 color(r, g, b, a) packs four channels';
const text = 'float4 _MainTex = float4(0,0,0,1);';
"""
    assert _rules("tests/wordAt.test.ts", source) == set()
