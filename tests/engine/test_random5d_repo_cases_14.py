"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-d).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 121-130. One could not be read: jwwang2003/kokkos (no snapshot). Fifteen files of
each remaining repository (seven of heikogleu-dev/Openfoam-v2512-Petsc-Kokkos-Sycl-Intel-B70,
which has no more) were sampled with ``random.Random("owner/name")`` over every file lockin
counts, sorted by path, and labelled before any fix, with the files lockin calls non-portable
(up to twenty) and GPU-looking files it calls portable (up to ten). Each snippet is a small
rewrite, in our own words, of a pattern found in the repository its test names; the expected
layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- lih827/cutlass: a CUTLASS fork, with the C++-emitting Python interface cutlass_cppgen ----


def test_cutlass_cppgen_interface_test_is_vendor_path() -> None:
    # test/python/cutlass/interface/gemm_interface.py: plans GEMMs with cutlass_cppgen (the
    # Python interface CUTLASS 4 renamed from `cutlass`, which compiles with nvcc) for the
    # device's compute capability. Before, `cutlass_cppgen` was not the `cutlass` the import
    # rule knew, and the file was portable.
    source = b"""\
import unittest

import cutlass_cppgen
from cutlass_cppgen.backend.utils.device import device_cc


class GemmTest(unittest.TestCase):
    @unittest.skipIf(device_cc() < 80, "needs tensor cores")
    def test_f64(self):
        plan = cutlass_cppgen.op.Gemm(cc=device_cc(), element=cutlass_cppgen.DataType.f64)
        self.assertIsNotNone(plan)
"""
    assert _rules("test/python/cutlass/interface/gemm_interface.py", source) == {
        "cutlass.dsl-import"
    }
    assert _layers("test/python/cutlass/interface/gemm_interface.py", source) == {
        "vendor-path": 2,
        "portable": 6,
    }


def test_cutlass_library_generator_import_stays_portable() -> None:
    # python/cutlass_library/*.py: the generator that writes CUTLASS C++ needs no GPU to run;
    # only the interface that compiles and launches does.
    source = b"""\
import cutlass_library
from cutlass_library.library import DataType, LayoutType

def tags():
    return [DataType.f16, LayoutType.RowMajor]
"""
    assert _layers("python/cutlass_library/manifest_helpers.py", source) == {"portable": 4}


# -- tensorflow/docs: TensorFlow's guides and tutorials -----------------------------------------


def test_tensorflow_tutorial_hiding_the_gpus_with_minus_one_is_portable() -> None:
    # site/en/tutorials/distribute/multi_worker_with_keras.ipynb: every worker runs on the CPU,
    # so the tutorial sets the variable to "-1" before importing TensorFlow. Before, the line
    # was vendor-path, as if it picked an NVIDIA GPU.
    source = b"""\
import json
import os

os.environ["CUDA_VISIBLE_DEVICES"] = "-1"
os.environ.pop("TF_CONFIG", None)

import tensorflow as tf
"""
    assert _layers("multi_worker_with_keras.py", source) == {"portable": 5}


def test_picking_gpu_one_or_tuning_nccl_with_minus_one_stays_vendor_path() -> None:
    # The negative: "1" picks the second NVIDIA GPU; "-1" hides GPUs only for the visible
    # device list, not for another CUDA or NCCL variable.
    source = b"""\
import os

os.environ["CUDA_VISIBLE_DEVICES"] = "1"
os.environ["NCCL_SOCKET_NTHREADS"] = "-1"
"""
    assert _rules("launch.py", source) == {"env.cuda-variables-python"}
    assert _layers("launch.py", source) == {"vendor-path": 2, "portable": 1}


# -- AvneeshSarwate/threejs-wgsl: Babylon.js and three.js WebGPU experiments --------------------


def test_babylon_vertex_shader_string_opening_main_on_scalar_code_is_kernel() -> None:
    # src/babylonBoids.ts: a WebGL vertex shader in a template literal, with attribute and
    # uniform declarations above a main whose first lines are a comment and a float. Before,
    # only the fragment and compute shaders beside it counted (87 kernel lines of 102).
    source = b"""\
const boidVertexShader = `
    attribute vec3 position;
    attribute vec2 a_particleVel;
    uniform mat4 worldViewProjection;

    void main() {
        // heading from the velocity
        float angle = -atan(a_particleVel.x, a_particleVel.y);

        // rotate the disc
        vec2 turned = vec2(position.x * cos(angle), position.y * sin(angle));
        gl_Position = worldViewProjection * vec4(turned, 0.0, 1.0);
    }
`;

export const shaders = { vertex: boidVertexShader };
"""
    assert _rules("src/babylonBoids.ts", source) == {"vulkan.glsl-string"}
    # The literal's blank and comment lines stay with the file's portable lines, as in every
    # multi-line literal.
    assert _layers("src/babylonBoids.ts", source) == {"kernel": 10, "portable": 5}


def test_babylon_webgpu_compute_host_code_stays_portable() -> None:
    # src/babylonScene_noCopy.ts: the WGSL file is imported as text and dispatched through
    # Babylon.js's WebGPU engine, a cross-vendor API; the .wgsl file itself is the kernel.
    source = b"""\
import * as BABYLON from 'babylonjs';
import computeSource from './shaders/oscillate.wgsl?raw';

export async function setup(engine: BABYLON.WebGPUEngine, count: number) {
    const matrices = new BABYLON.StorageBuffer(engine, count * 64,
        BABYLON.Constants.BUFFER_CREATIONFLAG_STORAGE);
    const cs = new BABYLON.ComputeShader("oscillate", engine, { computeSource },
        { bindingsMapping: { matrices: { group: 0, binding: 0 } } });
    cs.setStorageBuffer("matrices", matrices);
    cs.dispatch(Math.ceil(count / 64));
}
"""
    assert _layers("src/babylonScene_noCopy.ts", source) == {"portable": 10}


# -- GeraldGuo7/cudnn-jottings: CUDA and cuDNN samples -------------------------------------------


def test_cuda_samples_helper_header_include_is_vendor_path() -> None:
    # HSOpticalFlow/common.h: the samples' shared header includes helper_cuda.h (which brings
    # in the CUDA runtime) and otherwise holds plain C++. Before, it was portable.
    source = b"""\
#ifndef COMMON_H
#define COMMON_H
#include <stdlib.h>
#include <math.h>
#include <helper_cuda.h>

inline int iDivUp(int n, int m) { return (n + m - 1) / m; }
#endif
"""
    assert _rules("HSOpticalFlow/common.h", source) == {"cuda.include"}
    assert _layers("HSOpticalFlow/common.h", source) == {"vendor-path": 1, "portable": 6}


# -- heikogleu-dev/Openfoam-v2512-Petsc-Kokkos-Sycl-Intel-B70: PETSc on an Intel GPU ------------


def test_petsc_configure_with_sycl_flags_is_vendor_path() -> None:
    # configs/petsc-configure-bmg-opt.sh: PETSc built for SYCL with icpx; checked right.
    source = b"""\
#!/bin/bash
export OMPI_CXX=icpx
./configure \\
  --with-debugging=0 \\
  --SYCLFLAGS='-fsycl' \\
  --download-kokkos
"""
    assert _rules("configs/petsc-configure-bmg-opt.sh", source) == {"build.sycl-flags"}
