"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h53-random-r).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 1092-1098. Two had no snapshot and were skipped:
srirampc/TorchLean (1093) and Yjlion/onnx-web-filter (1094). Five were read:
FreeEnergyLBM/LBM-shared (1092, a lattice Boltzmann library in C++ headers with MPI and
OpenMP, some OpenMP target-offload experiments in its history), vitalitylearning2021/
problemSolvingPyCUDA (1095, PyCUDA teaching notebooks and scripts, with Thrust sorts built
into DLLs and loaded through ctypes), isikmustafa/pycuda-volumetric-renderer (1096, a delta
tracking volume renderer: a CUDA kernel file compiled at run time by PyCUDA), NeuralEnsemble/
python-neo (1097, electrophysiology file readers in Python, no GPU code) and shaz01/
metricdp-flower-pytorch (1098, federated learning with metric differential privacy in
PyTorch and Flower, with run scripts for H100 and L4 machines). Fifteen files of each
repository (all three of the renderer's) were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
and three commits touching GPU code (drawn with ``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- vitalitylearning2021/problemSolvingPyCUDA: PyCUDA scripts and ctypes-loaded DLLs --------


def test_ctypes_loader_of_a_projects_own_cuda_dll_is_portable() -> None:
    # DLL/testSortDLL.py (and its two by-key siblings) load a DLL the project builds from a
    # Thrust .cu file and call its export `cudaSort`; cuda.python-bindings read the export's
    # name as a CUDA runtime call. Rebuilding the DLL for another vendor leaves this file as it
    # is: the vendor code is counted in the .cu file.
    source = b"""\
import ctypes
from ctypes import POINTER, c_int, c_size_t
import numpy as np


def load_sorter():
    lib = ctypes.CDLL("./gpu_sort.so")
    fn = lib.cudaSortInts
    lib.cudaSortInts.argtypes = [POINTER(c_int), POINTER(c_int), c_size_t]
    return fn


sort_on_gpu = load_sorter()
values = np.arange(16, dtype=np.int32)[::-1].copy()
out = np.empty_like(values)
sort_on_gpu(values.ctypes.data_as(POINTER(c_int)), out.ctypes.data_as(POINTER(c_int)), 16)
"""
    assert _rules("wrappers/dll_sort.py", source) == set()
    assert _layers("wrappers/dll_sort.py", source) == {"portable": 12}


def test_ctypes_call_into_the_cuda_runtime_library_stays_vendor_path() -> None:
    # The negative above must not lose the real thing: libcudart's own functions from ctypes.
    source = b"""\
import ctypes
cudart = ctypes.CDLL("libcudart.so")
cudart.cudaSetDevice(0)
cudart.cudaDeviceSynchronize()
"""
    assert _rules("runtime.py", source) == {"cuda.ctypes-runtime-binding", "cuda.python-bindings"}
    assert _layers("runtime.py", source) == {"vendor-path": 3, "portable": 1}


def test_pycuda_source_module_kernel_lines_counted_from_the_opening_call() -> None:
    # N-body/N-body_simple_GPU.py keeps three __global__ kernels in one SourceModule string,
    # with banner comments between them; lockin's 51 kernel lines matched a hand count. The
    # kernel layer runs from the SourceModule line to the closing quotes, banner comments and
    # blank lines left out (17 here); the pycuda imports and get_function are vendor-path.
    source = b'''\
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule

module = SourceModule("""
    #define SOFTENING 1e-3f

    /*******************/
    /* PAIRWISE FORCES */
    /*******************/
    __global__ void accelerations(const float2 *pos, const float *mass, float2 *acc, const int n) {

        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;

        float ax = 0.0f, ay = 0.0f;
        for (int j = 0; j < n; j++) {
            float dx = pos[j].x - pos[i].x;      // --- separation
            float dy = pos[j].y - pos[i].y;
            float inv = rsqrtf(dx * dx + dy * dy + SOFTENING);
            ax += mass[j] * dx * inv * inv * inv;
            ay += mass[j] * dy * inv * inv * inv;
        }
        acc[i].x = ax;
        acc[i].y = ay;
    }
""")

accelerations = module.get_function("accelerations")
n = 1024
pos = np.random.rand(n, 2).astype(np.float32)
'''
    assert _rules("nbody_gpu.py", source) == {
        "pycuda.driver",
        "pycuda.host-api",
        "pycuda.source-module",
    }
    assert _layers("nbody_gpu.py", source) == {"kernel": 17, "vendor-path": 4, "portable": 9}


# -- isikmustafa/pycuda-volumetric-renderer: device members in a plain header ----------------


def test_device_member_functions_in_a_header_are_kernel_and_fields_portable() -> None:
    # geometry.h declares a ray and a bounding box whose methods are __device__ only (the
    # renderer's kernel.cpp includes it); lockin's 15 kernel lines matched a hand count.
    source = b"""\
struct Segment
{
	glm::vec3 start;
	glm::vec3 dir;

	__device__ glm::vec3 at(float t) const
	{
		return start + t * dir;
	}
};

struct Box
{
	glm::vec3 lo;
	glm::vec3 hi;

	__device__ bool contains(const glm::vec3& p) const
	{
		auto a = glm::greaterThanEqual(p, lo);
		auto b = glm::lessThanEqual(p, hi);
		return glm::all(a) && glm::all(b);
	}
};
"""
    assert _rules("geometry.h", source) == {"cuda.device-function"}
    assert _layers("geometry.h", source) == {"kernel": 10, "portable": 10}


# -- FreeEnergyLBM/LBM-shared: OpenMP target offload is portable ------------------------------


def test_openmp_declare_target_regions_are_portable() -> None:
    # Commit 0b51050050 ("Experiments with offloading") wrapped the collision operators of
    # src/Collide.hh in `omp begin/end declare target`; OpenMP offload is vendor-neutral and the
    # gate rightly let the commit pass.
    source = b"""\
#pragma once

class Collision {
public:
    #pragma omp begin declare target
    double equilibrium(const double& rho, const double* u, int q) const;
    #pragma omp end declare target
};

#pragma omp begin declare target
inline double Collision::equilibrium(const double& rho, const double* u, int q) const {
    return rho * weights[q] * (1.0 + 3.0 * (u[0] * c[q][0] + u[1] * c[q][1]));
}
#pragma omp end declare target
"""
    assert _rules("src/Collide.hh", source) == set()
    assert _layers("src/Collide.hh", source) == {"portable": 12}


# -- shaz01/metricdp-flower-pytorch: pinned memory when a GPU is there -----------------------


def test_pin_memory_when_cuda_is_available_is_portable() -> None:
    # metricdp_pytorch/utils/data.py pins host memory for the DataLoader when torch sees a
    # GPU; torch.cuda.is_available() also answers on ROCm builds, so nothing here is tied to a
    # vendor (commit 555a29eca1, which added it, passed the gate).
    source = b"""\
import torch
from torch.utils.data import DataLoader


def make_loader(dataset, batch_size, workers):
    return DataLoader(
        dataset,
        batch_size=batch_size,
        shuffle=True,
        num_workers=workers,
        pin_memory=torch.cuda.is_available(),
    )
"""
    assert _rules("utils/data.py", source) == set()
    assert _layers("utils/data.py", source) == {"portable": 10}
