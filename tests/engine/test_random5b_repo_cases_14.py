"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-b).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 101-110. Three were skipped: MohamedElashri/inference and Neura-Shadow/GWM-UAV-
Navigation-Sparse-Rewards had no snapshot, and RothschildsMa/GG31_DX11_HLSL's HEAD holds a
README alone (no file lockin counts). Fifteen files of each remaining repository
(Midori417/OpenGL, cortner/NBodyIPs.jl, jiayaozhang/cuDNN__TensorRT, SINTEF-AppliedCompSci/MRST,
taichi-dev/taichi_blend, mikemol/el-openglo, wuhudamei/mps) were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up
to 10); three commits touching GPU code were drawn with ``random.Random("owner/name:commits")``
and judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- taichi-dev/taichi_blend: Taichi kernels reached through a package's star import ----------


def test_taichi_blend_func_after_a_star_import_is_kernel_code() -> None:
    # taichi_blend/bundle-packages/melt/field_shuffle.py: the package's __init__ imports taichi
    # (through its utils), each node module takes `ti` with `from . import *` and defines its
    # sampler as a @ti.func method. Before, 45 such files of the repository were portable.
    source = b"""\
from . import *


@A.register
class Shuffle(IField):
    '''Category: sampler'''

    def __init__(self, field, index):
        self.field = field
        self.index = index

    @ti.func
    def _subscript(self, I):
        return self.field[self.index[I]]
"""
    assert _rules("melt/field_shuffle.py", source) == {"taichi.kernel"}
    assert _layers("melt/field_shuffle.py", source) == {"kernel": 3, "portable": 6}


def test_taichi_blend_kernel_method_of_a_data_oriented_class() -> None:
    # realtimetina/blend/engine.py: `from ..common import *`, then a @ti.data_oriented class
    # whose @ti.kernel loops over the image and calls a @ti.func helper; the plain methods
    # beside them are host code.
    source = b"""\
from ..common import *


@ti.data_oriented
class PixelWriter:
    def cook(self, color):
        return color

    @ti.func
    def write_one(self, img: ti.template(), out: ti.template(), i, j, width):
        out[j * width + i] = img[i, j].x

    @ti.kernel
    def write(self, img: ti.template(), out: ti.ext_arr(), width: int):
        for i, j in ti.ndrange(img.shape[0], img.shape[1]):
            self.write_one(img, out, i, j, width)
"""
    assert _rules("realtimetina/blend/engine.py", source) == {"taichi.kernel"}
    assert _layers("realtimetina/blend/engine.py", source) == {"kernel": 7, "portable": 5}


def test_taichi_blend_star_import_without_taichi_decorators_stays_portable() -> None:
    # realtimetina/util/__init__.py and the Blender node modules: star imports, no kernel.
    source = b"""\
from .control import *
from .assimp import *


def scale(values, k):
    return [v * k for v in values]
"""
    assert _layers("realtimetina/util/__init__.py", source) == {"portable": 4}


def test_taichi_blend_cuda_arch_is_vendor_path() -> None:
    # numblend_examples/classic/mpm3d.py: the example pins Taichi's CUDA back end before
    # declaring its fields; the kernels themselves stay Taichi's multi-vendor kernel code.
    source = b"""\
import taichi as ti

ti.init(arch=ti.cuda)
x = ti.Vector.field(3, float, 1024)


@ti.kernel
def init():
    for i in x:
        x[i] = ti.Vector([ti.random(), ti.random(), ti.random()])
"""
    assert _rules("numblend_examples/classic/mpm3d.py", source) == {
        "taichi.kernel",
        "taichi.cuda-arch",
    }
    assert _layers("numblend_examples/classic/mpm3d.py", source) == {
        "kernel": 4,
        "vendor-path": 1,
        "portable": 2,
    }


def test_taichi_blend_gpu_or_cpu_arch_is_portable() -> None:
    # misc/raster.py and numblend_examples/1_cube_array.py: ti.gpu takes whichever back end the
    # machine has, ti.cpu none.
    source = b"""\
import taichi as ti

if __name__ == "__main__":
    ti.init(ti.gpu)
else:
    ti.init(arch=ti.cpu)
"""
    assert _layers("misc/raster.py", source) == {"portable": 5}


# -- jiayaozhang/cuDNN__TensorRT: ONNX Runtime on CUDA, build scripts, kernel headers --------


def test_cudnn_tensorrt_onnxruntime_session_on_cuda_alone_is_vendor_path() -> None:
    # chapter5/.../bertmodel_onnx_infer.py: a BERT model run by ONNX Runtime with the CUDA
    # execution provider alone (a commented-out line lists TensorRT's too). Before, the file
    # was portable.
    source = b"""\
import onnxruntime as ort

print("onnxruntime device:", ort.get_device())
# sess = ort.InferenceSession(path, providers=['TensorrtExecutionProvider'])
sess = ort.InferenceSession(
    "bert/model.onnx", providers=['CUDAExecutionProvider'])
outputs = sess.run(None, inputs)
"""
    assert _rules("chapter5/bert_onnx_infer.py", source) == {"onnxruntime.cuda-provider"}
    assert _layers("chapter5/bert_onnx_infer.py", source) == {"vendor-path": 1, "portable": 4}


def test_onnxruntime_available_providers_stays_portable() -> None:
    # The portable way: take what the installed build offers, or name every vendor's provider.
    source = b"""\
import onnxruntime as ort

sess = ort.InferenceSession("model.onnx", providers=ort.get_available_providers())
preferred = ["CUDAExecutionProvider", "ROCMExecutionProvider", "OpenVINOExecutionProvider",
             "CoreMLExecutionProvider", "CPUExecutionProvider"]
"""
    assert _layers("infer.py", source) == {"portable": 4}


def test_onnxruntime_tensorrt_then_cuda_names_one_vendor() -> None:
    # TensorRT's provider falls back on CUDA's: the usual list names NVIDIA alone.
    source = b"""\
import onnxruntime as ort

providers = [
    ("TensorrtExecutionProvider", {"trt_fp16_enable": True}),
    "CUDAExecutionProvider",
    "CPUExecutionProvider",
]
"""
    assert _rules("infer.py", source) == {"onnxruntime.cuda-provider"}
    assert _layers("infer.py", source)["vendor-path"] == 2


def test_torch_device_list_with_an_onnxruntime_provider_is_dispatch() -> None:
    # The provider names join torch's device kinds: a table naming the CUDA device and the
    # CoreML provider picks among vendors, as ["cuda", "mps"] does.
    source = b"""\
import torch

BACKENDS = ["cuda", "CoreMLExecutionProvider"]
"""
    assert _layers("backends.py", source) == {"portable": 2}


def test_cudnn_tensorrt_windows_toolkit_path_in_build_script() -> None:
    # chapter2/deal.sh: the CPU build commented out, then the .cu file compiled from the
    # Windows CUDA toolkit's bin directory. Before, the script was portable.
    source = b"""\
#g++ -O3 main_cpu.cpp -o VectorSumCPU

C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.7/bin matmul.cu -o GPU
"""
    assert _rules("chapter2/deal.sh", source) == {"build.nvcc"}
    assert _layers("chapter2/deal.sh", source) == {"vendor-path": 1}


def test_cudnn_tensorrt_kernel_declared_in_a_header() -> None:
    # chapter1/db/useless/gpu.h (checked right): the CUDA runtime header and a __global__
    # prototype, whose two lines lockin counts as kernel (no body to port).
    source = b"""\
#include <cuda_runtime.h>

__global__
void vec_add(float* a, float* b, float* c, int n);
"""
    assert _layers("gpu.h", source) == {"kernel": 2, "vendor-path": 1}


# -- Midori417/OpenGL: GLSL shaders, OpenGL host code (checked right) -------------------------


def test_opengl_game_gl_types_in_a_header_are_portable() -> None:
    # OpenGLGame/FGEngine/Include/FGEngine/Rendering/DrawParams.h: OpenGL's enums and types
    # in a draw call's parameters; OpenGL host code is cross-vendor.
    source = b"""\
#include "glad/glad.h"

struct DrawParams
{
    GLenum mode = GL_TRIANGLES;
    GLsizei count = 0;
    const void* indices = 0;
    GLint baseVertex = 0;
};
"""
    assert _layers("Rendering/DrawParams.h", source) == {"portable": 8}
