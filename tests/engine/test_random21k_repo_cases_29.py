"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h57-random-k).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (the name's text only, so some are no GPU code at all).
This lane took sub-pool positions 354-361. Three were skipped because no snapshot could be
fetched: Sylchi/edgerun-metal (354), newling/rocm-libraries (359) and
TritonGamingUCSD/tritongaming (360). Read were fullmetalfelix/QMTools-pycuda (quantum
chemistry on grids with PyCUDA: CUDA C kernels in .cu files whose #define placeholders the
Python host code fills in before SourceModule compiles them, a conda environment and a Slurm
job), brunocodutra/metal (a header-only C++ template metaprogramming library, "metal" by
name only), tlambert03/pycudadecon (a ctypes wrapper of the separately built cudaDecon
library, its CUDA code not in the repository), JaxGator/oea (a React and Supabase club site,
no GPU code; a resource list names "Hipcamp") and rfg-modding/RFGR-Shaders (a game's shaders
decompiled into HLSL by SPIRV-Cross, one file per stage, with JSON metadata). Fifteen files of
each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. No sampled
file verdict, kernel count or commit verdict was wrong before. One line-level miss outside the
sample was fixed: QMTools-pycuda's conda_env.yml lists the ``cuda`` meta-package (NVIDIA's
whole toolkit) bare, which no rule read; deps.cuda-conda-package now counts the CUDA stack's
bare conda names (cuda, cudnn, nccl, cutensor) in a conda dependency list or a conda install.
The other tests pin verdicts worth keeping. Each snippet is a small rewrite, in our own words,
of a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- fullmetalfelix/QMTools-pycuda: PyCUDA host code, CUDA C kernels in .cu files ----------


def test_conda_environment_naming_the_cuda_meta_package_is_vendor_path() -> None:
    # conda_env.yml (non-portable list, one line counted before): pycuda was read, the bare
    # `cuda` package beside it, NVIDIA's whole toolkit, was not.
    source = b"""\
name: grids
channels:
  - nvidia
  - conda-forge
dependencies:
  - python=3.11
  - numpy
  - pycuda
  - cuda
"""
    path = "conda_env.yml"
    assert "deps.cuda-conda-package" in _rules(path, source)
    assert _layers(path, source)["vendor-path"] == 2


def test_conda_install_of_cudnn_in_a_setup_script_is_vendor_path() -> None:
    # The same packages installed by a command, not an environment file.
    source = b"""\
#!/bin/sh
conda create -y -n grids python=3.11
conda install -y -c nvidia cuda=12.4 cudnn
"""
    path = "setup_env.sh"
    assert "deps.cuda-conda-package" in _rules(path, source)
    assert _layers(path, source)["vendor-path"] == 1


def test_a_ci_matrix_naming_a_cuda_back_end_is_no_conda_package() -> None:
    # A workflow without a conda dependency list or a conda install: `- cuda` is a matrix value.
    source = b"""\
jobs:
  test:
    strategy:
      matrix:
        device:
          - cpu
          - cuda
    steps:
      - run: pytest -q
"""
    assert "deps.cuda-conda-package" not in _rules(".github/workflows/test.yml", source)


def test_pycuda_host_code_compiling_a_cu_file_is_vendor_path_only() -> None:
    # qmtools/automaton_nn_singleshot.py (sampled, right): the kernel text is read from a .cu
    # file, its placeholders replaced, then compiled; copies go through pycuda.driver.
    source = b"""\
import numpy
import pycuda.driver as cuda
from pycuda.compiler import SourceModule

def evolve(grid, params, src_path):
    text = open(src_path).read()
    text = text.replace("GRID_NX", str(grid.shape[0]))
    mod = SourceModule(text, options=[])
    ptr, _ = mod.get_global("cParams")
    cuda.memcpy_htod(ptr, params)
    fn = mod.get_function("gpu_evolve")
    fn(grid.d_data, block=(8, 8, 8), grid=(4, 4, 4))
    cuda.memcpy_dtoh(grid.data, grid.d_data)
"""
    path = "qmtools/automaton.py"
    layers = _layers(path, source)
    assert "kernel" not in layers
    assert layers["vendor-path"] >= 4


def test_cu_file_with_placeholder_defines_counts_device_code_as_kernel() -> None:
    # qmtools/cuda/kernel_vne_classic.cu and kin (sampled, in range): #define lines whose values
    # the host code fills in stay portable; the __constant__ array and the kernel are device
    # code.
    source = b"""\
#include "common.h"

#define NX GRID_NX
#define NY GRID_NY
#define STEP GRID_STEP

__constant__ float cParams[16];

__global__ void gpu_fill(float *q, float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < NX && j < NY) {
        q[i + j * NX] = scale * cParams[0] * STEP;
    }
    __syncthreads();
}
"""
    path = "qmtools/cuda/kernel_fill.cu"
    layers = _layers(path, source)
    assert layers["kernel"] == 10
    assert layers["portable"] == 4


def test_slurm_job_loading_the_cuda_module_is_vendor_path() -> None:
    # scripts/train-singleshot.job (non-portable list, right): the CUDA module loaded on the
    # cluster; asking Slurm for a GPU names no vendor.
    source = b"""\
#!/bin/bash
#SBATCH --time=1-00:00:00
#SBATCH --gres=gpu:1
module load gcc cuda
python train.py --population 128
"""
    path = "scripts/train.job"
    assert _layers(path, source).get("vendor-path") == 1


# -- brunocodutra/metal: C++ template metaprogramming ----------------------------------------


def test_template_metaprogramming_header_named_metal_is_portable() -> None:
    # include/metal/list/rotate.hpp (sampled, right): the library's namespace is `metal`;
    # nothing here is Apple's Metal.
    source = b"""\
#ifndef METAL_LIST_SPIN_HPP
#define METAL_LIST_SPIN_HPP

#include "../config.hpp"

namespace metal {
namespace detail {
    template <class seq, class num>
    struct _spin;
}

template <class seq, class num>
using spin = typename detail::_spin<seq, num>::type;
}

#endif
"""
    assert _layers("include/metal/list/spin.hpp", source) == {"portable": 12}


# -- tlambert03/pycudadecon: ctypes wrapper of a separately built CUDA library ---------------


def test_ctypes_wrapper_of_a_third_party_cuda_library_is_portable() -> None:
    # src/pycudadecon/_libwrap.py (sampled, right): functions of libcudaDecon declared by
    # signature; the CUDA code lives in that library's own repository.
    source = b'''\
import numpy as np
from ._ctyped import Library

lib = Library("libcudaDecon")


@lib.function
def deskew_volume(raw: np.ndarray, nx: int, ny: int, nz: int, out: np.ndarray) -> int:
    """Deskew a stage-scanned stack on the GPU."""


@lib.function
def device_reset() -> None:
    """Release every allocation the library made on the device."""
'''
    assert "vendor-path" not in _layers("src/pkg/_libwrap.py", source)
    assert "kernel" not in _layers("src/pkg/_libwrap.py", source)


# -- JaxGator/oea: a web app ------------------------------------------------------------------


def test_resource_list_naming_hipcamp_is_portable() -> None:
    # src/data/resourcesData.ts (GPU-looking list, right): "Hipcamp" is a campsite service.
    source = b"""\
export const resources = [
  { label: "State Park Trails", url: "https://parks.example.org/trails" },
  { label: "Hipcamp Florida", url: "https://www.hipcamp.com/en-US/d/florida" },
];
"""
    assert _layers("src/data/resources.ts", source) == {"portable": 4}


# -- rfg-modding/RFGR-Shaders: decompiled HLSL -------------------------------------------------


def test_spirv_cross_hlsl_pixel_shader_is_kernel_throughout() -> None:
    # Shaders/Standard/standard_s/standard_s__ps_0.hlsl (sampled, in range): constant buffers,
    # stage globals, the SPIRV-Cross input struct and the entry point are all shader code.
    source = b"""\
cbuffer cb0_t : register(b0)
{
    float4 cb0_m[4] : packoffset(c0);
};

uniform sampler2D SPIRV_Cross_Combinedt0s0;

static float2 v1;
static float4 o0;

struct SPIRV_Cross_Input
{
    float2 v1 : TEXCOORD1;
};

void frag_main()
{
    float4 c = tex2D(SPIRV_Cross_Combinedt0s0, v1);
    o0 = c * cb0_m[1];
}
"""
    path = "Shaders/Standard/plain_s/plain_s__ps_0.hlsl"
    layers = _layers(path, source)
    assert set(layers) == {"kernel"}
    assert layers["kernel"] == 16
