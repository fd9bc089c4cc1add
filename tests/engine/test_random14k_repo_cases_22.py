"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-k).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 462-468 and skipped none. Seven were read: LLNL/spheral (a
smoothed-particle hydrodynamics code in C++ over RAJA and CHAI, with a few CUDA and HIP test
kernels and Spack recipes), azer89/HelloVulkan (a Vulkan renderer with GLSL shaders),
Division/vulkan-engine (a Vulkan game engine with HLSL shaders and vendored PhysX, GLFW and
glm), zhaoyan1117/PyCUDAML (a CUDA k-means extension for Python), lizhuoh9/MPM-LBM (a Taichi
solid-fluid coupling solver and its many audit scripts), we-expand/neural_day_trader_V2 (a
React trading dashboard, no GPU code) and fyh2001/megatron-sft-recipes (fine-tuning launch
scripts and benchmarks on CUDA machines). Four snapshots lacked files of 4 MiB and more, so
their trees were laid out with ``git read-tree HEAD && git checkout-index -a -f``. Samples
were drawn by ``/work/lead/sample.py``: fifteen files of each repository (all ten of
PyCUDAML's) with ``random.Random("owner/name")`` over every file lockin counts, labelled
before any fix, the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, and three commits touching GPU code
(``random.Random("owner/name:commits")``; one only in neural_day_trader_V2) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- we-expand/neural_day_trader_V2: stock tickers read as OpenCL vendor checks -------------


def test_stock_records_naming_gpu_makers_are_not_vendor_checks() -> None:
    # src/app/data/market-assets.ts and src/config/infinoxContractSpecs.ts: a list of shares,
    # each with its ticker and the company's name or description ('NVIDIA Corporation',
    # 'Advanced Micro Devices'); opencl.*-vendor-check took the names for a device's vendor
    # string compared, and the commit that added the app was gated for it.
    source = b"""\
export interface Quote { symbol: string; name: string; bid: number; ask: number }

export const US_SHARES: Quote[] = [
  { symbol: 'AAPL', name: 'Apple Inc.', bid: 190.1, ask: 190.2 },
  { symbol: 'NVDA', name: 'NVIDIA Corporation', bid: 120.4, ask: 120.5 },
  { symbol: 'AMD', name: 'Advanced Micro Devices', bid: 150.3, ask: 150.4 },
];

export const SPECS = {
  AMD: { ...SHARE_DEFAULTS, region: 'US', description: 'Advanced Micro Devices' },
};
"""
    assert _rules("src/data/quotes.ts", source) == set()
    assert _layers("src/data/quotes.ts", source) == {"portable": 9}


def test_a_device_vendor_compared_in_typescript_is_still_a_vendor_check() -> None:
    # The other side of the fix above: the vendor string a device reports, compared.
    source = b"""\
export function localSize(vendor: string): number {
  if (vendor === 'Advanced Micro Devices, Inc.') {
    return 64;
  }
  return 32;
}
"""
    assert _rules("src/cl/tuning.ts", source) == {"opencl.amd-vendor-check"}
    assert _layers("src/cl/tuning.ts", source) == {"vendor-path": 1, "portable": 5}


# -- zhaoyan1117/PyCUDAML: verdicts already right, pinned ----------------------------------


def test_kmeans_kernels_and_launcher_in_one_cu_file() -> None:
    # PyCUDAML/KMeans/kmeans_kernel.cu: a __device__ distance helper and __global__ kernels
    # (kernel), then a host function that allocates, copies and launches (vendor-path lines
    # for the runtime calls and launches, the rest portable).
    source = b"""\
#include <stdlib.h>
#include "util.h"

__device__ static inline
float sq_dist(const float *pts, const float *ctr, int n, int dims, int k, int i, int c)
{
    float acc = 0;
    for (int d = 0; d < dims; d++) {
        float diff = pts[n * d + i] - ctr[k * d + c];
        acc += diff * diff;
    }
    return acc;
}

__global__ static
void nearest(const float *pts, const float *ctr, int n, int dims, int k, int *label)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int best = 0;
    float best_d = sq_dist(pts, ctr, n, dims, k, i, 0);
    for (int c = 1; c < k; c++) {
        float d = sq_dist(pts, ctr, n, dims, k, i, c);
        if (d < best_d) { best_d = d; best = c; }
    }
    label[i] = best;
}

void cluster(const float *host_pts, int n, int dims, int k, int *labels)
{
    float *pts;
    int *dev_labels;
    cudaMalloc((void **)&pts, n * dims * sizeof(float));
    cudaMalloc((void **)&dev_labels, n * sizeof(int));
    cudaMemcpy(pts, host_pts, n * dims * sizeof(float), cudaMemcpyHostToDevice);
    nearest <<< (n + 127) / 128, 128 >>> (pts, pts, n, dims, k, dev_labels);
    cudaMemcpy(labels, dev_labels, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(pts);
    cudaFree(dev_labels);
}
"""
    assert _rules("lib/dist_kmeans.cu", source) == {
        "cuda.device-function",
        "cuda.kernel",
        "cuda.launch",
        "cuda.runtime",
    }
    assert _layers("lib/dist_kmeans.cu", source) == {
        "kernel": 23,
        "vendor-path": 7,
        "portable": 7,
    }


def test_host_device_helper_in_a_header_is_kernel_code() -> None:
    # PyCUDAML/common/math_util.h: a `__host__ __device__ static inline` helper beside
    # plain macros.
    source = b"""\
#ifndef BITS_H
#define BITS_H

#define square(v) ((v) * (v))

__host__ __device__ static inline
unsigned int round_up_pow2(unsigned int v)
{
    --v;
    v |= v >> 1;
    v |= v >> 2;
    v |= v >> 4;
    return ++v;
}

#endif
"""
    assert _rules("common/bits.h", source) == {"cuda.device-function"}
    assert _layers("common/bits.h", source) == {"kernel": 9, "portable": 4}


def test_python_binding_in_a_cu_file_is_portable() -> None:
    # PyCUDAML/KMeans/_KMeans.cu: the CPython module compiled by nvcc holds no CUDA itself.
    source = b"""\
#include <Python.h>
#include <numpy/arrayobject.h>
#include "dist_kmeans.h"

static PyObject *fit(PyObject *self, PyObject *args)
{
    int k;
    PyObject *arr;
    if (!PyArg_ParseTuple(args, "iO", &k, &arr))
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"fit", fit, METH_VARARGS, "fit the clusters"},
    {NULL, NULL, 0, NULL}
};
"""
    assert _rules("ext/_binding.cu", source) == set()
    assert _layers("ext/_binding.cu", source) == {"portable": 15}


# -- lizhuoh9/MPM-LBM: Taichi methods in a data-oriented class, already right ---------------


def test_taichi_func_and_kernel_methods_count_as_kernel() -> None:
    # src/mpm_lbm/sim/coupling/link_area.py: @ti.func and @ti.kernel methods of a
    # @ti.data_oriented class are kernel code; __init__ and the stats method stay portable.
    source = b"""\
import numpy as np
import taichi as ti


@ti.data_oriented
class Drag:
    def __init__(self, n):
        self.n = n
        self.total = ti.field(ti.f32, shape=())

    @ti.func
    def inside(self, I, grid: ti.template()):
        return 0 <= I.x and I.x < grid.nx and 0 <= I.y and I.y < grid.ny

    @ti.kernel
    def apply(self, solid: ti.template(), grid: ti.template()):
        for p in range(self.n):
            base = ti.cast(solid.x[p] * grid.inv_dx - 0.5, ti.i32)
            if self.inside(base, grid):
                ti.atomic_add(self.total[None], grid.force[base].norm())

    def stats(self):
        return {"total": float(self.total[None]), "mean": float(np.mean([1.0]))}
"""
    assert _rules("sim/coupling/drag.py", source) == {"taichi.kernel"}
    assert _layers("sim/coupling/drag.py", source) == {"kernel": 9, "portable": 9}


# -- LLNL/spheral: a RAJA loop body is portable, already right -----------------------------


def test_raja_forall_with_host_device_lambda_is_portable() -> None:
    # tests/cpp/Field/fieldview_tests.cc: RAJA::forall over a policy with a lambda marked by
    # the project's host-device macro; RAJA runs it on CPU, CUDA, HIP or SYCL back ends.
    source = b"""\
#include "RAJA/RAJA.hpp"
#include "test-utilities.hh"

TEST(FieldView, Fill)
{
  const int n = 16;
  auto view = field.toView();
  RAJA::forall<LOOP_EXEC_POLICY>(RAJA::TypedRangeSegment<int>(0, n),
    [=] APP_HOST_DEVICE(int i) {
      view[i] = 2.0 * i;
    });
  EXPECT_EQ(view.size(), n);
}
"""
    assert _rules("tests/field_view_test.cc", source) == set()
    assert _layers("tests/field_view_test.cc", source) == {"portable": 12}
