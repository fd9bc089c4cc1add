"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-h).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 610-617. One could not be read: james3124/Halide (617, no snapshot). Fifteen files of
each remaining repository were sampled with ``random.Random("owner/name")`` over every file
lockin counts, and labelled before any fix, with the files lockin calls non-portable (up to 20)
and GPU-looking files it calls portable (up to 10), and three commits touching GPU code where
there were any (``random.Random("owner/name:commits")``). Each snippet is a small rewrite, in
our own words, of a pattern found in the repository its test names; the expected layers are
what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- moonbit-community/moon_wgsl: a WGSL and WESL compiler in MoonBit, with shader test data -----


def test_moon_wgsl_wesl_module_is_shader_code() -> None:
    # modules/moon_wesl/testdata/upstream/bevy/custom_material.wesl: a WESL fragment shader that
    # imports its helper from another module. WESL is WGSL with imports and `@if`
    # attributes; before, lockin knew the language but counted both .wesl files portable.
    source = b"""\
import super::helpers::stripes;

struct VertexOutput {
    @builtin(position) position: vec4<f32>,
    @location(2) uv: vec2<f32>,
}

@group(2) @binding(0) var<uniform> speed: f32;

@fragment
fn fragment(mesh: VertexOutput) -> @location(0) vec4<f32> {
    return stripes(mesh.uv, speed);
}
"""
    assert _rules("testdata/bevy/material.wesl", source) == {"wgsl.shader-file"}
    assert _layers("testdata/bevy/material.wesl", source) == {"kernel": 10}


def test_moon_wgsl_wesl_helper_with_conditional_blocks_is_shader_code() -> None:
    # modules/moon_wesl/testdata/upstream/bevy/util.wesl: a helper module whose branches are
    # chosen by `@if(FLAG)` when the linker assembles the shader; no entry point of its own.
    source = b"""\
fn stripes(pos: vec2<f32>, speed: f32) -> vec4<f32> {
    // which band the fragment falls in
    let band = fract(pos.x * 8.0);
    var color = vec3<f32>(0.0);
    @if(!BRIGHT) {
        color = vec3<f32>(0.2, 0.2, 0.3);
    }
    @if(BRIGHT) {
        color = vec3<f32>(1.0, 0.9, 0.4) * speed;
    }
    return vec4<f32>(color * step(band, 0.5), 1.0);
}
"""
    assert _layers("testdata/bevy/util.wesl", source) == {"kernel": 11}


def test_moon_wgsl_wgsl_test_data_is_shader_code() -> None:
    # testdata/naga_writer_trace/*.wgsl (checked right): the compiler's WGSL inputs are shader
    # files, counted whole.
    source = b"""\
@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    data[id.x] = countOneBits(data[id.x]);
}
"""
    assert _layers("testdata/trace/popcount.wgsl", source) == {"kernel": 5}


# -- kokkos/kokkos-resilience: checkpointing and resilient execution spaces for Kokkos ---------


def test_kokkos_resilience_openmp_backend_without_device_code_is_portable() -> None:
    # src/resilience/exec_space/openMP/Resilient_OpenMP.cpp (checked right): the resilient
    # execution space derives from Kokkos::OpenMP under KOKKOS_ENABLE_OPENMP; no device code.
    source = b"""\
#include <Kokkos_Macros.hpp>
#if defined(KOKKOS_ENABLE_OPENMP)
#include <Kokkos_Core.hpp>
#include "ResilientOpenMP.hpp"

namespace Resilience {
ResOpenMP::ResOpenMP() : OpenMP() {}
const char* ResOpenMP::name() { return "ResOpenMP"; }
}  // namespace Resilience
#endif
"""
    assert _rules("src/exec_space/openMP/ResilientOpenMP.cpp", source) == set()


def test_kokkos_resilience_example_lambdas_are_device_code() -> None:
    # examples/ping_pong.cpp (checked right): KOKKOS_LAMBDA bodies handed to parallel_for are
    # device code (settled: portable-gpu.device-lambda), the loop around them host code.
    source = b"""\
#include <Kokkos_Core.hpp>

void fill(Kokkos::View<double*> a, Kokkos::View<double*> b) {
  Kokkos::parallel_for(100, KOKKOS_LAMBDA(int i) {
    a(i) = 0.0;
  });
  for (int step = 0; step < 4; ++step) {
    Kokkos::parallel_for(100, KOKKOS_LAMBDA(int i) {
      b(i) = a(i) + 1.0;
    });
    Kokkos::fence();
  }
}
"""
    assert _rules("examples/ping_pong.cpp", source) == {"portable-gpu.device-lambda"}
    assert _layers("examples/ping_pong.cpp", source)["kernel"] == 6


# -- brunoyanjos/lbm: a lattice Boltzmann solver in CUDA -----------------------------------------


def test_lbm_host_only_declarations_in_a_cuda_header_are_portable() -> None:
    # src/lbm/lbm_init_state.cuh (checked right): host functions marked __host__, no device
    # code and no CUDA call; the .cuh only declares what the .cu file launches.
    source = b"""\
#pragma once

#include "state/lbm_state.cuh"
#include "../app/launch_config.cuh"

__host__ void init_state(LBMState &S, const LaunchConfig &cfg);
__host__ void copy_state_to_host(LBMState &S);
"""
    assert _rules("src/lbm/lbm_init_state.cuh", source) == set()


def test_lbm_forceinline_device_helper_is_kernel_code() -> None:
    # src/lbm/moment_evaluation/moment_evaluation.cuh (checked right): a __device__
    # __forceinline__ helper the kernels call, counted from its signature to its brace.
    source = b"""\
#pragma once
#include "../../core/types.cuh"

__device__ __forceinline__ void density(const real_t *__restrict__ pop, real_t &rho)
{
    rho = real_t(0);
#pragma unroll
    for (int i = 0; i < 9; ++i)
        rho += pop[i];
}
"""
    assert _rules("src/lbm/density.cuh", source) == {"cuda.device-function"}
    assert _layers("src/lbm/density.cuh", source) == {"kernel": 7, "portable": 2}


# -- masterboss5/OpenGL-4.6-CPP: an OpenGL renderer with a vendored GLM --------------------------


def test_opengl_glm_branch_for_cuda_or_hip_compilers_is_portable() -> None:
    # Dependencies/GLM/detail/func_common.inl (checked right): a workaround taken under nvcc or
    # hipcc alike names two vendors' compilers, so it pins neither.
    source = b"""\
template<typename genType>
GLM_FUNC_QUALIFIER bool isinf(genType x)
{
#	if (GLM_COMPILER & GLM_COMPILER_CUDA) || (GLM_COMPILER & GLM_COMPILER_HIP)
		return ::isinf(double(x)) != 0;
#	else
		return std::isinf(x);
#	endif
}
"""
    assert _rules("Dependencies/GLM/detail/func_common.inl", source) == set()
