"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-j).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 224-230. Two had no snapshot here and were skipped, not
replaced: henrique-simoes/llm-quantization-damage (position 228) and VoxelGraphicsX/GVM2
(position 230). Five were read: bow-simulation/virtualbow (a Qt bow simulator drawing with
OpenGL and four GLSL 1.20 shaders), WhereIsTom520/openMegatron (an agent desktop app in
Python and TypeScript, a few torch.cuda calls), ckmd/feature-extraction-pycuda (Gabor face
features on a Jetson: CUDA kernels compiled by PyCUDA, dlib's CUDA module),
OpenFLUID/openfluid (an environmental modelling platform in C++, no GPU code) and jdh8/metallic
(a C library for WebAssembly whose math "kernel" headers are CPU code). Samples were drawn by
``/work/lead/sample.py``: fifteen files of each repository with ``random.Random("owner/name")``
over every file lockin counts, labelled before any fix, the files lockin calls non-portable
(up to 20) and GPU-looking files it calls portable (up to 10) checked apart, and three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ckmd/feature-extraction-pycuda: dlib's CUDA module picks the GPU ------------------------


def test_dlib_cuda_module_under_an_alias_is_vendor_path() -> None:
    # testdlib.py: `import dlib.cuda as cuda`, then `cuda.set_device(0)` before each detector
    # call; the detector itself is plain dlib and stays portable.
    source = b"""\
import dlib
import dlib.cuda as cuda

cuda.set_device(0)
finder = dlib.get_frontal_face_detector()
for image in frames():
    cuda.set_device(0)
    boxes = finder(image)
"""
    assert _rules("face/detect_gpu.py", source) == {"dlib.cuda-device"}
    assert _layers("face/detect_gpu.py", source) == {"vendor-path": 3, "portable": 4}


def test_dlib_without_its_cuda_module_is_portable() -> None:
    # The same detector in a file that never imports dlib.cuda; torch's own set_device is
    # another rule's, and `cuda.set_device` of numba is not dlib's.
    source = b"""\
import dlib
from numba import cuda

finder = dlib.get_frontal_face_detector()
boxes = finder(image)
"""
    assert _rules("face/detect_cpu.py", source) == set()
    assert _layers("face/detect_cpu.py", source) == {"portable": 4}


# -- ckmd/feature-extraction-pycuda: verdicts already right, pinned -----------------------------


def test_pycuda_source_module_inside_a_function_counts_its_kernel_lines() -> None:
    # display.py: a function compiles one element-wise kernel with SourceModule, fetches it
    # with get_function and launches it with drv.In/drv.Out buffers and block=/grid=.
    source = b"""\
import pycuda.driver as drv

def scale_on_gpu(src, weights, out):
    from pycuda.compiler import SourceModule
    module = SourceModule(\"\"\"
    __global__ void scale(float *out, const float *src, const float *w)
    {
        const int k = blockDim.x * blockIdx.x + threadIdx.x;
        out[k] = src[k] * w[k];
    }
    \"\"\")
    scale = module.get_function("scale")
    scale(drv.Out(out), drv.In(src), drv.In(weights), block=(64, 1, 1), grid=(8, 1))
"""
    assert _rules("gabor_gpu.py", source) == {
        "pycuda.driver",
        "pycuda.host-api",
        "pycuda.source-module",
    }
    assert _layers("gabor_gpu.py", source) == {"kernel": 7, "vendor-path": 4, "portable": 1}


# -- bow-simulation/virtualbow: GLSL 1.20 shader files, pinned ----------------------------------


def test_glsl_120_fragment_shader_file_is_kernel_code() -> None:
    # resources/shaders/ModelShader.frag: varyings, uniforms and gl_FragColor, no layout().
    source = b"""\
#version 120

varying vec3 vNormal;
uniform vec3 sunDirection;
uniform vec3 tint;

void main()
{
    float lit = max(dot(normalize(vNormal), sunDirection), 0.0);
    gl_FragColor = vec4(tint * lit, 1.0);
}
"""
    assert _layers("resources/shaders/Model.frag", source) == {"kernel": 9}


# -- jdh8/metallic and OpenFLUID/openfluid: "kernel" in a path is not GPU code, pinned -------


def test_libm_kernel_header_is_portable() -> None:
    # src/math/double/kernel/*.h: a polynomial core of a libm function, plain C.
    source = b"""\
#include <math.h>

static double kernel_expm1_(double r)
{
    const double c[] = { 1.0, 0.5, 0.16666666666666666 };
    return r * (c[0] + r * (c[1] + r * c[2]));
}
"""
    assert _rules("src/math/double/kernel/expm1.h", source) == set()
    assert _layers("src/math/double/kernel/expm1.h", source) == {"portable": 6}


# -- WhereIsTom520/openMegatron: a torch.cuda cache release, pinned ------------------------------


def test_torch_cuda_empty_cache_on_unload_is_vendor_path() -> None:
    # pysrc/companion_model.py: unloading a model frees its GPU memory through torch.cuda.
    source = b"""\
import gc
import torch

def unload(self):
    self.model = None
    gc.collect()
    torch.cuda.empty_cache()
"""
    assert _rules("pysrc/companion.py", source) == {"torch.cuda-call"}
    assert _layers("pysrc/companion.py", source) == {"vendor-path": 1, "portable": 5}
