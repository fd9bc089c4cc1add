"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-q).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 875-881 and skipped none. Read were
MohammadFakhreddin/vulkan-engine (a C++ Vulkan engine with HLSL shaders, vendored GLM and
PhysX headers; its snapshot lacked the textures, models and prebuilt libraries, so it was
checked out file by file without them, and no counted file was missing), pplmx/vllm-lite (a
Rust LLM server on candle, CUDA behind cargo features), junaidi-ai/med-vllm (a Python
medical LLM engine with Triton kernels and CUDA benchmarks), cgerrity/Neural-Data-Reading
(MATLAB neural-data pipelines, a few gpuArray calls), tensorflow/data-validation (TFDV: C++
and Python, no GPU code; an old commit added a Colab notebook compiling a model for the Coral
Edge TPU), Megatron-HQ/Megatron (an Electron and TypeScript app, despite the name) and
lucashilbig/BA_Pathtracing_Fur (an OpenGL path tracer with GLSL shaders and .compute files).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, files outside the
sample that hold kernel lines counted by hand (up to 5 a repository), and up to three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules


def test_edge_tpu_compiler_install_and_run_is_vendor_path() -> None:
    # tensorflow/data-validation 43275.ipynb (commit dce394e, since removed): shell escapes
    # add Coral's apt repository, install the Edge TPU compiler and compile a TFLite model for
    # the Edge TPU; the key and repository lines install nothing TPU-specific by themselves.
    source = b"""\
#!/bin/bash
curl -fsSL https://packages.cloud.google.com/apt/doc/apt-key.gpg | sudo apt-key add -
echo "deb $CORAL_APT coral-edgetpu-stable main" | sudo tee "$APT_LIST"
sudo apt-get update
sudo apt-get install -y edgetpu-compiler
edgetpu_compiler --out_dir build model_int8.tflite
ls build
"""
    assert _rules("coral/compile.sh", source) == {"tpu.resources"}
    assert _layers("coral/compile.sh", source) == {"vendor-path": 2, "portable": 4}


def test_pycoral_imports_are_vendor_path() -> None:
    # Coral's pycoral library, the Python side of the same Edge TPU toolchain: the imports
    # bind the module to the Edge TPU runtime.
    source = b"""\
from pycoral.utils import edgetpu
from pycoral.adapters import detect


def load(path):
    interp = edgetpu.make_interpreter(path)
    interp.allocate_tensors()
    return interp
"""
    assert _rules("coral/detect.py", source) == {"tpu.tensorflow-api"}
    assert _layers("coral/detect.py", source) == {"vendor-path": 2, "portable": 4}


def test_rust_reading_cuda_visible_devices_is_vendor_path() -> None:
    # pplmx/vllm-lite crates/dist/tests/multi_gpu_tensor_parallel.rs: the test counts the
    # GPUs its partition was given from CUDA_VISIBLE_DEVICES, as Python code reads it from
    # os.environ.
    source = b"""\
/// How many GPUs the test partition was given.
fn visible_gpu_count() -> usize {
    match std::env::var("CUDA_VISIBLE_DEVICES") {
        Ok(list) if !list.trim().is_empty() => list.split(',').count(),
        _ => 1,
    }
}

#[test]
fn shards_fit_the_visible_gpus() {
    let gpus = visible_gpu_count();
    assert!(gpus >= 1);
}
"""
    assert _rules("tests/partition.rs", source) == {"env.cuda-variables-python"}
    assert _layers("tests/partition.rs", source) == {"vendor-path": 1, "portable": 10}


def test_shell_hiding_every_gpu_stays_portable() -> None:
    # junaidi-ai/med-vllm scripts/uat/_lib.sh: the acceptance scripts empty CUDA_VISIBLE_DEVICES
    # to run the CLI on the CPU; that selects nothing NVIDIA-specific.
    source = b"""\
#!/bin/bash
set -euo pipefail
export CUDA_VISIBLE_DEVICES=""
run_cli() {
  python -m app.cli "$@"
}
"""
    assert _rules("scripts/uat/lib.sh", source) == set()
    assert _layers("scripts/uat/lib.sh", source) == {"portable": 5}


def test_triton_kernel_nested_in_host_function_counts_its_own_lines() -> None:
    # junaidi-ai/med-vllm medvllm/kernels/triton_fused_ffn.py: a @triton.jit kernel defined
    # inside the host function that launches it; only the kernel's lines are kernel, its
    # comment excluded, and the launch and the CPU fallback stay portable.
    source = b"""\
import torch
import triton
import triton.language as tl


def scaled_relu(x: torch.Tensor, alpha: float) -> torch.Tensor:
    if not x.is_cuda:
        return torch.relu(x) * alpha
    out = torch.empty_like(x)

    @triton.jit
    def relu_kernel(src, dst, n, alpha, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        keep = offs < n
        v = tl.load(src + offs, mask=keep, other=0.0)
        # clamp below at zero
        v = tl.where(v > 0, v, 0.0) * alpha
        tl.store(dst + offs, v, mask=keep)

    n = x.numel()
    relu_kernel[(triton.cdiv(n, 256),)](x, out, n, alpha, BLOCK=256)
    return out
"""
    assert _rules("kernels/bias_act.py", source) == {"triton.jit"}
    assert _layers("kernels/bias_act.py", source) == {"kernel": 8, "portable": 10}


def test_glsl_string_pair_in_gl3_backend_is_kernel() -> None:
    # lucashilbig/BA_Pathtracing_Fur src/libraries/externals/ImGui/imgui_impl_glfw_gl3.cpp:
    # the GLSL source as concatenated literals is kernel, line for line; the GL calls that
    # compile and link it stay portable.
    source = b"""\
#include <GL/gl3w.h>

static GLuint g_program = 0;

bool create_objects()
{
    const GLchar* vs_src =
        "#version 330\\n"
        "uniform mat4 Proj;\\n"
        "in vec2 Pos;\\n"
        "in vec4 Col;\\n"
        "out vec4 vCol;\\n"
        "void main()\\n"
        "{\\n"
        "    vCol = Col;\\n"
        "    gl_Position = Proj * vec4(Pos, 0, 1);\\n"
        "}\\n";
    GLuint vs = glCreateShader(GL_VERTEX_SHADER);
    glShaderSource(vs, 1, &vs_src, 0);
    glCompileShader(vs);
    g_program = glCreateProgram();
    glAttachShader(g_program, vs);
    glLinkProgram(g_program);
    return g_program != 0;
}
"""
    assert _rules("gui/gui_gl3.cpp", source) == {"vulkan.glsl-string"}
    assert _layers("gui/gui_gl3.cpp", source) == {"kernel": 10, "portable": 13}


def test_dot_compute_shader_file_is_kernel() -> None:
    # lucashilbig/BA_Pathtracing_Fur src/shaders/compute/Pathtracer/pt_sortHits.compute: a
    # compute shader in a .compute file is kernel, every code line of it.
    source = b"""\
#ifndef PT_COMPACT_COMPUTE
#define PT_COMPACT_COMPUTE
#include "pt_common.compute"

layout(std430) restrict buffer RayBuffer {
    Ray rays[];
};

layout(local_size_x = 256) in;

void main()
{
    uint id = gl_GlobalInvocationID.x;
    if (id >= ray_count) return;
    // drop rays that left the scene
    if (rays[id].hit < 0) rays[id].alive = 0;
}
#endif
"""
    assert _rules("shaders/pt_compact.compute", source) == {"hlsl.shader-file"}
    assert _layers("shaders/pt_compact.compute", source) == {"kernel": 14}


def test_hlsl_vertex_shader_file_is_kernel() -> None:
    # MohammadFakhreddin/vulkan-engine assets/depracated_shaders/pbr/pbr.vert.hlsl: an HLSL
    # vertex shader compiled to SPIR-V for the Vulkan renderer.
    source = b"""\
struct VSIn { float3 pos : POSITION; float2 uv : TEXCOORD0; };
struct VSOut { float4 pos : SV_POSITION; float2 uv : TEXCOORD0; };
cbuffer View : register(b0) { float4x4 viewProj; };

VSOut main(VSIn input)
{
    VSOut o;
    o.pos = mul(viewProj, float4(input.pos, 1.0));
    o.uv = input.uv;
    return o;
}
"""
    assert _rules("shaders/pipeline.vert.hlsl", source) == {"hlsl.shader-file"}
    assert _layers("shaders/pipeline.vert.hlsl", source) == {"kernel": 10}


def test_matlab_gpu_array_is_vendor_path() -> None:
    # cgerrity/Neural-Data-Reading Processing_Functions_cgg/ANN Functions/*.m: training data
    # moved to the GPU with gpuArray, which MATLAB runs on NVIDIA GPUs only.
    source = b"""\
function net = train_model(net, data)
if canUseGPU
    data = gpuArray(data);
end
net = fit(net, data);
end
"""
    assert _rules("ann/train_model.m", source) == {"matlab-gpu.gpu-array"}
    assert _layers("ann/train_model.m", source) == {"vendor-path": 1, "portable": 5}
