"""Cases from repositories drawn at random from a GPU-worded sub-pool (issue 27, lane h55-random-q).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the
written rule in ``/work/pool/h55_gpu_rule.py`` (picked on the name's text only, so some are no
GPU code at all). This lane took sub-pool positions 57-63. One was skipped:
zjfls/raytracetest (59), whose snapshot (833 MB) is over the 500 MB a fetch may bring. Read
were atharkes/raytracer (a C# path tracer on .NET with an OpenTK window: the image drawn by
two small GLSL shaders, every other file CPU maths), mhazoglou/PVM_PyCUDA (a predictive
vision model on PyCUDA: four .cu files of kernels loaded by SourceModule from a Python module
of gpuarray code, training scripts, and Arduino sketches of a pan-tilt rig),
Gabe-flomo/shader-studio (a Tauri and React node editor that assembles GLSL fragment shaders:
each node's TypeScript definition emits GLSL statements in template literals), alexisiddiqui/
JAX-ENT (a JAX package of maximum-entropy fitting of protein ensembles to HDX and SAXS data,
with example pipelines in shell and Python; no GPU code of its own, its pyproject.toml left
with a merge's conflict markers), TotoroTron/pycuda (course exercises of matrix
multiplication in Numba CUDA, CuPy and pyculib: @cuda.jit kernels, conda environments pinning
cudatoolkit, Slurm job scripts loading a cuda module) and ROCm/flang (AMD's Fortran compiler:
the classic flang front end and runtime, with two vendored LLVM/Clang trees, their AMDGPU and
NVPTX back ends and Clang's CUDA/HIP wrapper headers among them). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts
and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Gabe-flomo/shader-studio: GLSL a statement a literal, locals named from the node id ----


def test_joined_list_of_generated_glsl_statements_is_kernel() -> None:
    # src/nodes/definitions/halftone.ts (10 of 36 GLSL lines before): each node's code is a
    # list of one-line literals joined into the shader body, each local `${id}_name`.
    source = b"""\
import type { NodeDef } from '../types';

export const CellNode: NodeDef = {
  type: 'cells',
  build: (id: string, uv: string, density: string) => ({
    code: [
      `    float ${id}_row  = mod(floor(${uv}.y * ${density}), 2.0);\\n`,
      `    vec2  ${id}_pos  = ${uv} + vec2(${id}_row * 0.5 / ${density}, 0.0);\\n`,
      `    vec2  ${id}_cell = fract(${id}_pos * ${density});\\n`,
    ].join(''),
    outputs: { cell: `${id}_cell` },
  }),
};
"""
    path = "src/nodes/definitions/cells.ts"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source).get("kernel") == 3


def test_scalar_statements_near_a_glsl_builtin_are_kernel() -> None:
    # halftone.ts again: a node whose list declares scalars only, one of them from smoothstep.
    source = b"""\
export const disc = (id: string, cell: string, r: string, soft: string) => ({
  code: [
    `    float ${id}_d = length(${cell} - 0.5);\\n`,
    `    float ${id}_m = 1.0 - smoothstep(${r} - ${soft}, ${r} + ${soft}, ${id}_d);\\n`,
  ].join(''),
});
"""
    path = "src/nodes/definitions/disc.ts"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source).get("kernel") == 2


def test_one_statement_node_with_fract_going_on_after_the_call_is_kernel() -> None:
    # src/nodes/definitions/animations.ts (portable before): a wave node's single literal,
    # a scalar from fract() scaled and offset after the call.
    source = b"""\
export const sawNode = {
  type: 'saw',
  emit: (id: string, t: string, rate: string, gain: string) => ({
    code: `    float ${id}_v = (fract(${t} * ${rate}) * 2.0 - 1.0) * ${gain};\\n`,
    outputs: { value: `${id}_v` },
  }),
};
"""
    path = "src/nodes/definitions/waves.ts"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source).get("kernel") == 1


def test_one_vector_declaration_of_a_generated_name_is_kernel() -> None:
    # src/nodes/definitions/math.ts and fractals.ts: `vec3 ${o} = ...;\n` alone in a literal.
    source = b"""\
export function scaleColor(o: string, color: string, k: string) {
  return { code: `    vec3 ${o} = ${color} * ${k};\\n`, outputs: { rgb: o } };
}
"""
    path = "src/nodes/definitions/scale.ts"
    assert _rules(path, source) == {"vulkan.glsl-string"}


def test_c_generator_scalars_named_from_holes_stay_portable() -> None:
    # The negative of the above: a code generator for C declares scalars the same way.
    source = b"""\
export const meanNode = (id: string, total: string, n: string) => [
  `    float ${id}_sum = ${total} * 1.0;\\n`,
  `    int ${id}_count = ${n};\\n`,
  `    float ${id}_mean = ${id}_sum / ${id}_count;\\n`,
].join('');
"""
    path = "src/codegen/mean.ts"
    assert _rules(path, source) == set()


def test_glsl_example_in_an_input_placeholder_stays_portable() -> None:
    # src/components/NodeGraph/ImportGlslModal.tsx (right before): an import dialog shows a
    # GLSL function as the text area's placeholder, a hint to the user, no shader of its own.
    source = b"""\
export function ImportDialog({ onImport }: { onImport: (s: string) => void }) {
  const [text, setText] = useState('');
  return (
    <textarea
      value={text}
      onChange={(e) => setText(e.target.value)}
      placeholder={`// e.g.\\nfloat ring(vec2 q, float r) {\\n  return abs(length(q) - r);\\n}`}
    />
  );
}
"""
    path = "src/components/ImportDialog.tsx"
    assert "kernel" not in _layers(path, source)


def test_webgl_preview_shader_strings_are_kernel() -> None:
    # src/components/FunctionBuilder/PreviewCanvas.tsx (right before): a full-screen vertex
    # shader and a fallback fragment shader in template literals.
    source = b"""\
const VERT = `
attribute vec2 a_pos;
varying vec2 v_uv;
void main() {
  v_uv = a_pos * 0.5 + 0.5;
  gl_Position = vec4(a_pos, 0.0, 1.0);
}`.trim();

export const draw = (gl: WebGLRenderingContext) => gl.drawArrays(gl.TRIANGLES, 0, 6);
"""
    path = "src/components/Preview.tsx"
    assert _rules(path, source) == {"vulkan.glsl-string"}


# -- atharkes/raytracer: GLSL files drawn by an OpenTK host -------------------------------


def test_glsl_fragment_shader_file_is_kernel() -> None:
    # PathTracer/Drawing/shader.frag (right before): a texture blit, every line counted.
    source = b"""\
#version 440 core
in vec2 uv;
out vec4 color;
uniform sampler2D image;

void main() {
    color = texture(image, uv);
}
"""
    path = "Viewer/blit.frag"
    assert _layers(path, source) == {"kernel": 7}


def test_opentk_shader_compilation_host_code_is_portable() -> None:
    # PathTracer/Drawing/Shader.cs (right before): OpenGL host calls through OpenTK.
    source = b"""\
using OpenTK.Graphics.OpenGL4;

public sealed class Program2D {
    public int Handle { get; }
    public Program2D(string vert, string frag) {
        int vs = GL.CreateShader(ShaderType.VertexShader);
        GL.ShaderSource(vs, vert);
        GL.CompileShader(vs);
        Handle = GL.CreateProgram();
        GL.AttachShader(Handle, vs);
        GL.LinkProgram(Handle);
    }
}
"""
    path = "Viewer/Program2D.cs"
    assert set(_layers(path, source)) == {"portable"}


# -- mhazoglou/PVM_PyCUDA: kernels in .cu files, loaded by SourceModule -------------------


def test_pycuda_module_reading_kernels_from_a_cu_file_is_vendor_path() -> None:
    # PVM_PyCUDA.py (right before): the .cu text is read from disk and compiled; the module
    # itself holds host calls only.
    source = b"""\
import numpy as np
import pycuda.driver as drv
from pycuda import gpuarray, compiler

with open("./kernels.cu") as fh:
    kernel_text = fh.read()
mod = compiler.SourceModule(kernel_text)
scale = mod.get_function("ScaleKernel")

def run(x):
    x_gpu = gpuarray.to_gpu(x.astype(np.float64))
    scale(x_gpu, np.uint32(x.size), block=(256, 1, 1), grid=(8, 1))
    return x_gpu.get()
"""
    path = "pvm/model.py"
    layers = _layers(path, source)
    assert "vendor-path" in layers
    assert "kernel" not in layers


def test_grid_stride_cuda_kernel_file_is_all_kernel() -> None:
    # adam_kernels.cu (right before): grid-stride __global__ loops, every line kernel.
    source = b"""\
__global__ void blendKernel(double* x, const double* y, double a, double b, uint n) {
    uint step = gridDim.x * blockDim.x;
    for (uint i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += step) {
        x[i] = a * x[i] + b * y[i];
    }
}
"""
    path = "pvm/blend_kernels.cu"
    assert _layers(path, source) == {"kernel": 6}


# -- TotoroTron/pycuda: Numba CUDA exercises ----------------------------------------------


def test_numba_cuda_jit_method_and_device_copies() -> None:
    # cuda/ex3/matmul.py (right before): a kernel as a class's @cuda.jit method, the
    # host side copying with cuda.to_device.
    source = b"""\
from numba import cuda

class GlobalMem:
    def __init__(self, a, out):
        self.d_a = cuda.to_device(a)
        self.d_out = cuda.to_device(out)

    @cuda.jit
    def _square(a, out):
        i = cuda.grid(1)
        if i < a.shape[0]:
            out[i] = a[i] * a[i]
"""
    path = "cuda/ex9/square.py"
    layers = _layers(path, source)
    assert layers.get("kernel") == 5
    assert "vendor-path" in layers


def test_slurm_job_loading_a_cuda_module_is_vendor_path() -> None:
    # cuda/ex4/job.sh (right before): the GPU partition request is generic; the CUDA
    # toolkit module is the vendor's.
    source = b"""\
#!/bin/bash
#SBATCH --partition=gpu
#SBATCH --gres=gpu:1
#SBATCH --time=00:10:00
module purge
module load cuda/11.8
python main.py
"""
    path = "cuda/ex9/job.sh"
    assert _layers(path, source).get("vendor-path") == 1


def test_conda_environment_pinning_cudatoolkit_is_vendor_path() -> None:
    # numba/ex1/environment.yml (right before): an exported environment with cudatoolkit.
    source = b"""\
name: gpu-course
channels:
  - defaults
dependencies:
  - python=3.8
  - numpy=1.19.2
  - numba=0.51.2
  - cudatoolkit=10.2.89=0
"""
    path = "numba/ex9/environment.yml"
    assert "vendor-path" in _layers(path, source)


# -- alexisiddiqui/JAX-ENT: JAX's platform name is no vendor ------------------------------


def test_jax_platform_choice_by_name_is_portable() -> None:
    # jaxent/src/config/runtime.py (right before): modes pick "cpu" or "gpu" for JAX.
    source = b"""\
import os
import jax

MODES = {"debug": {"platform": "cpu"}, "production": {"platform": "gpu"}}

def configure(mode: str) -> None:
    platform = os.environ.get("APP_PLATFORM", MODES[mode]["platform"])
    jax.config.update("jax_platform_name", platform)
"""
    path = "pkg/config/runtime.py"
    assert set(_layers(path, source)) == {"portable"}
