"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h53-random-i).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 1029-1035 and skipped iksena/llm-iac-data-analysis
(position 1030: its snapshot's newest commit holds too many files to fetch). Read were
fluiddyn/fluidimage (PIV image processing on NumPy/Pythran, with two PyCUDA kernels),
Selbyl/PyCUDA-Raster (a QGIS raster plugin whose slope/aspect/hillshade kernels are CUDA C
kept in Python strings for PyCUDA), ProkopHapala/SimpleSimulationEngine (C++ physics and
games on SDL/OpenGL, OpenCL force fields, Python shader toys and a D OpenGL sketch),
duihuhu/Megatron-LM (a fork of NVIDIA's Megatron-LM), ROCm/TransformerEngine (AMD's port of
Transformer Engine: CUDA, HIP and Composable Kernel sources with PyTorch and JAX bindings)
and hiheyok/Voxel-Game (an OpenGL voxel game with GLSL shaders, vendored glm and nlohmann).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, files outside the
sample that hold kernel lines counted by hand (up to 5 a repository), and three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
The fixes: D reads token strings (``q{ ... }``) as strings, so GLSL kept in them is seen by
vulkan.glsl-string; torch.cpp-cuda reads ATen's legacy ``at::CUDA(dtype)``; deps.cuda-wheel
reads scikit-cuda. Each snippet is a small rewrite, in our own words, of a pattern found in
the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules


def test_glsl_in_d_token_strings_is_kernel() -> None:
    # ProkopHapala/SimpleSimulationEngine Dlang/TEMP/firstTriangle-derelict/source/shaders.d:
    # the vertex and fragment shaders are D token strings (q{ ... }); portable before D read
    # them as strings. Comment lines inside are not counted.
    source = b"""\
module gfx.sources;

string quadVert =
q{
    #version 330 core
    layout(location = 0) in vec2 corner;
    // the quad covers the screen
    void main(){
        gl_Position = vec4(corner, 0.0, 1.0);
    }
};

string quadFrag =
q{
    #version 330 core
    out vec4 outColor;
    void main(){
        outColor = vec4(gl_FragCoord.xy / 512.0, 0.5, 1.0);
    }
};
"""
    assert _rules("source/gfx_sources.d", source) == {"vulkan.glsl-string"}
    assert _layers("source/gfx_sources.d", source) == {"kernel": 12, "portable": 6}


def test_d_mixin_token_string_of_d_code_stays_portable() -> None:
    # The same D sketch's helpers: a token string is D's way to write code for a mixin, which
    # holds no shader; reading it as a string must not make it anything else.
    source = b"""\
module util.fields;

mixin template Counter(string name)
{
    mixin(q{int } ~ name ~ q{Count;});
}

struct Stats
{
    mixin Counter!"frame";
    void tick() { frameCount++; }
}
"""
    assert _rules("source/fields.d", source) == set()
    assert _layers("source/fields.d", source) == {"portable": 10}


def test_aten_cuda_type_properties_allocation_is_vendor_path() -> None:
    # ROCm/TransformerEngine transformer_engine/pytorch/csrc/common.cu: workspace tensors are
    # allocated with at::empty / at::zeros given at::CUDA(dtype), the legacy spelling of a
    # CUDA device; portable before torch.cpp-cuda read it.
    source = b"""\
#include <ATen/ATen.h>

at::Tensor make_workspace(int64_t rows, int64_t cols, bool clear) {
  std::vector<int64_t> shape{rows, cols};
  if (clear) {
    return at::zeros(shape, at::CUDA(at::kFloat));
  }
  return at::empty(shape, at::CUDA(at::kFloat));
}
"""
    assert _rules("csrc/workspace.cu", source) == {"torch.cpp-cuda"}
    assert _layers("csrc/workspace.cu", source) == {"vendor-path": 2, "portable": 6}


def test_aten_cpu_type_properties_stays_portable() -> None:
    # The host twin of the call above: at::CPU(dtype) names no vendor.
    source = b"""\
#include <ATen/ATen.h>

at::Tensor make_host_copy(int64_t n) {
  return at::empty({n}, at::CPU(at::kFloat));
}
"""
    assert _rules("csrc/host.cpp", source) == set()
    assert _layers("csrc/host.cpp", source) == {"portable": 4}


def test_scikit_cuda_in_conda_pip_list_is_vendor_path() -> None:
    # Selbyl/PyCUDA-Raster environment.yaml: pycuda and cudatoolkit were already read;
    # scikit-cuda, CUDA-only cuBLAS/cuFFT bindings, was not.
    source = b"""\
name: raster-env
dependencies:
  - python=3.11
  - numpy
  - gdal
  - pip
  - pip:
      - scikit-cuda
      - reikna
"""
    assert _rules("environment.yaml", source) == {"deps.cuda-wheel"}
    assert _layers("environment.yaml", source) == {"vendor-path": 1, "portable": 8}


def test_pycuda_source_string_comment_lines_are_not_kernel() -> None:
    # Selbyl/PyCUDA-Raster CUDARaster/gpuCalc.py (already right): a __device__ helper kept in
    # a Python string for SourceModule is kernel code, the line opening the literal with it;
    # the C comments inside it are not code.
    source = b'''\
from pycuda.compiler import SourceModule


def build(extra):
    return SourceModule("""
        /*
            gradient magnitude of one cell
        */
        __device__ float steep(float gx, float gy) {
            // radians
            return atan(sqrt(gx * gx + gy * gy));
        }
        __global__ void run(const float *g, float *out, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) out[i] = steep(g[2 * i], g[2 * i + 1]);
        }
    """ + extra)
'''
    assert _layers("raster/kernels.py", source)["kernel"] == 9


def test_triton_kernel_docstring_is_not_counted() -> None:
    # duihuhu/Megatron-LM megatron/core/fusions/fused_indices_converter.py (already right): the
    # kernel's docstring and comments are no kernel lines; its code is.
    source = b'''\
import triton
import triton.language as tl


@triton.jit
def _flag_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    """
    Write 1 where the source is non-zero.

    src: [n], dst: [n]
    """
    # one block per program
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(src_ptr + offs, mask=mask, other=0)
    tl.store(dst_ptr + offs, tl.where(x != 0, 1, 0), mask=mask)
'''
    assert _rules("fusions/flags.py", source) == {"triton.jit"}
    assert _layers("fusions/flags.py", source)["kernel"] == 6


def test_opengl_buffer_copy_stays_portable() -> None:
    # hiheyok/Voxel-Game's chunk memory pool (already right): OpenGL buffer copies and
    # barriers run on every vendor's driver.
    source = b"""\
#include <glad/glad.h>

void CopyRange(GLuint from, GLuint to, GLintptr src, GLintptr dst, GLsizeiptr size) {
  glBindBuffer(GL_COPY_READ_BUFFER, from);
  glBindBuffer(GL_COPY_WRITE_BUFFER, to);
  glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, src, dst, size);
  glMemoryBarrier(GL_ALL_BARRIER_BITS);
}
"""
    assert _rules("src/Render/Pool.cpp", source) == set()
    assert _layers("src/Render/Pool.cpp", source) == {"portable": 7}
