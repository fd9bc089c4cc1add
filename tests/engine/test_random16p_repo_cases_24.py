"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-p).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 868-874 and skipped none. Read were
vatsalcode/LLM_Transformer_Queue (students' C++, Java and Python exercises, no GPU code),
MolecularCartography/ili (a WebGL viewer for molecular maps on 3D models: JavaScript, GLSL
shader files and shaders concatenated from JS string pieces, three.js vendored minified),
yuichiis/test-openblas (a Windows loader shim exposing OpenBLAS/LAPACKE through
GetProcAddress, CPU only), kokizzu/DeepSpeedExamples (DeepSpeed training, inference and
benchmark scripts: torch.cuda calls, device strings, CUDA and NCCL environment variables),
sirirako/accelerated-intelligent-document-processing-on-aws (a serverless document pipeline on
Bedrock, no GPU code), BryanAv7/Practica3_Docker_PyCuda (a Flask image-filter service running
two PyCUDA convolution kernels held in a Python string, in an nvidia/cuda image) and
ROCm/hipSPARSE (AMD's sparse-algebra wrapper over rocSPARSE and cuSPARSE, with its test and
benchmark clients). Snapshots missing large blobs (images, PDFs, models, data) were checked out
without them; no counted source file was missing. Fifteen files of each repository (all six
of Practica3_Docker_PyCuda) were sampled with ``random.Random("owner/name")`` over every file
lockin counts and labelled before any fix, with the files lockin calls non-portable (up to 20)
and GPU-looking files it calls portable (up to 10) checked apart, files outside the sample
that hold kernel lines counted by hand (up to 5 a repository), and up to three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/hipSPARSE: CUDA-version branches spelled with the parenthesis against #if ----------


def test_cuda_version_branch_with_parenthesis_against_if_is_vendor_path() -> None:
    # clients/include/testing_*.hpp: `#if(CUDART_VERSION >= 12000)` and
    # `#elif(defined(CUDART_VERSION))` pick what the cuSPARSE backend runs; ROCm's
    # clang-format puts no space after the directive (these were counted portable).
    source = b"""\
#include "hipsparse.hpp"

template <typename T>
hipsparseStatus_t testing_spsort(Arguments argus)
{
#if(CUDART_VERSION >= 12000)
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
#elif(defined(CUDART_VERSION))
    int legacy_path = 1;
#endif
    int n = argus.M;
    return n > 0 ? HIPSPARSE_STATUS_SUCCESS : HIPSPARSE_STATUS_INVALID_VALUE;
}
"""
    assert _rules("clients/include/testing_spsort.hpp", source) == {
        "cuda.build-guard",
        "hip.library",
    }
    assert _layers("clients/include/testing_spsort.hpp", source) == {
        "vendor-library": 4,
        "vendor-path": 5,
        "portable": 3,
    }


def test_negated_cuda_version_guard_with_parenthesis_stays_unflagged() -> None:
    # clients/tests/test_csrcolor.cpp and testing_dense2csr.hpp: `#if(!defined(CUDART_VERSION)
    # || CUDART_VERSION < 13000)` is the branch the ROCm build and older CUDA compile; its
    # #else (CUDA 13 and later only) is left uncounted, as for `#if !defined(...)` (report).
    source = b"""\
#include "hipsparse.hpp"

int count_rows(int m)
{
#if(!defined(CUDART_VERSION) || CUDART_VERSION < 13000)
    int rows = m;
#else
    int rows = 0;
#endif
    return rows;
}
"""
    assert _rules("clients/include/testing_csx.hpp", source) == {"hip.library"}
    assert _layers("clients/include/testing_csx.hpp", source) == {
        "vendor-library": 1,
        "portable": 9,
    }


# -- BryanAv7/Practica3_Docker_PyCuda: a PyCUDA kernel in a raw string (already right) --------


def test_pycuda_kernel_string_counts_kernel_and_driver_calls_vendor_path() -> None:
    # gpu_filters_rgb.py: an extern "C" block of __global__ kernels in r"""...""", compiled by
    # SourceModule and launched with block=/grid=; the numpy around it is portable.
    source = b'''\
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule

SOURCE = r"""
extern "C" {
__global__ void scale(const float *src, float *dst, float k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    dst[i] = src[i] * k;
}
}
"""

mod = SourceModule(SOURCE)
scale = mod.get_function("scale")


def run(x, k):
    out = np.empty_like(x)
    grid = ((x.size + 255) // 256, 1)
    scale(drv.In(x), drv.Out(out), np.float32(k), np.int32(x.size), block=(256, 1, 1), grid=grid)
    return out
'''
    assert _rules("filters.py", source) == {
        "pycuda.driver",
        "pycuda.host-api",
        "pycuda.source-module",
    }
    # `mod = SourceModule(SOURCE)` is the compile step: vendor-path (lane h55-random-n).
    assert _layers("filters.py", source) == {"kernel": 10, "vendor-path": 6, "portable": 5}


# -- MolecularCartography/ili: a WebGL shader concatenated from JS strings (already right) -----


def test_webgl_shader_built_from_concatenated_js_strings_is_kernel() -> None:
    # js/surface/core/View2D.js: VERTEX_SHADER and FRAGMENT_SHADER as one '...' + piece a line.
    source = b"""\
define(['three'], function(THREE) {
    function Overlay() {}

    Overlay.VERTEX =
            'uniform vec2 viewSize;' +
            'varying vec2 vUv;' +
            'void main() {' +
                'vUv = uv;' +
                'gl_Position = vec4(position.xy / viewSize, 0.0, 1.0);' +
            '}';

    Overlay.prototype.size = function() { return 2; };
    return Overlay;
});
"""
    assert _rules("js/view/Overlay.js", source) == {"vulkan.glsl-string"}
    assert _layers("js/view/Overlay.js", source) == {"kernel": 6, "portable": 6}


# -- kokizzu/DeepSpeedExamples: a launcher script's NVIDIA-only lines (already right) ---------


def test_launcher_counting_gpus_with_nvidia_smi_and_exporting_nccl_is_vendor_path() -> None:
    # benchmarks/deepcompile/run.sh and BingBertSquad's mpirun scripts: the GPU count read from
    # nvidia-smi and NCCL settings passed with mpirun -x; deepspeed and python are portable.
    source = b"""\
#!/bin/bash
NODES=${NODES:-1}
GPUS=${GPUS:-$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)}
TOTAL=$((NODES * GPUS))
mpirun -n $TOTAL -x NCCL_IB_DISABLE=1 python train.py --deepspeed
echo "launched $TOTAL ranks"
"""
    assert _rules("run.sh", source) == {"build.nvcc", "env.cuda-variables"}
    assert _layers("run.sh", source) == {"vendor-path": 2, "portable": 3}


# -- MolecularCartography/ili: a minified three.js build's shader chunks ---------------------


def test_minified_shader_chunks_joined_by_newline_escapes_are_kernel() -> None:
    # js/lib/three.min.js: each chunk is one literal on one line, its GLSL lines joined by \n
    # escapes; the branch point counted 6 of its ~135 chunk lines, lane h52-random-n's rule
    # reads them. The object's other values (a version string, a scalar-only chunk with no
    # GLSL type) stay portable.
    source = b"""\
var Parts = {
\t\tfade_pars: "#ifdef USE_FADE\\n\\tuniform sampler2D fadeMap;\\n\\tuniform float k;\\n#endif",
\t\tfade_frag: "#ifdef USE_FADE\\n\\tvec4 s = texture2D( fadeMap, vUv );\\n\\tc.a *= s.r;\\n#endif",
\t\tflip_vert: "#ifdef FLIP_Y\\n\\tgl_Position.y = - gl_Position.y;\\n#endif",
\t\tcount_frag: "#ifdef COUNTED\\n\\tcount += 1.0;\\n#endif",
\t\trevision: "127"
\t};
"""
    assert _rules("js/lib/engine.min.js", source) == {"vulkan.glsl-string"}
    assert _layers("js/lib/engine.min.js", source) == {"kernel": 3, "portable": 4}
