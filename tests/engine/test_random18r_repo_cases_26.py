"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-r).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 120-126. One was skipped: dbarrow1230/ecosphere (124) had
no snapshot to fetch. Read were mdelmontep/obsidian-vault (a personal Obsidian knowledge
vault in Spanish: Markdown notes, n8n compose backups and Node scripts that index the vault;
two notes named dockerfile-*.md), beeblastco/broods (a serverless multi-account AI agent
harness in TypeScript on Bun and AWS, no GPU code), vercel-labs/vgpu (a WebGPU library and
its docs site: WGSL shader modules, WGSL in TypeScript template strings, a WGSL minifier and
its tests), yzkhere0129/LBMProject (a CUDA lattice-Boltzmann solver for laser melting: .cu
kernels and device functions, gtest suites in .cu files, CMake with CUDA architectures),
mlr-org/mlr3torch (an R package putting torch learners into mlr3; its device picked with
cuda_is_available(), benchmark scripts and a CUDA Dockerfile for a paper) and
gabrielogomes2025-beep/tucupy-gestao (a Next.js and Supabase management app, no GPU code).
Fifteen files of each repository (ten for the vault, which has no more) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- mdelmontep/obsidian-vault: notes named after the build file they talk about -------------

_NOTE_ON_A_CUDA_IMAGE = b"""\
---
title: the image must start from the CUDA runtime
tags: [docker, deploy]
---

Our first build used a slim Python base and the GPU was never seen. The fix:

```dockerfile
FROM nvidia/cuda:12.2.0-runtime-ubuntu22.04
RUN pip install torch --index-url https://download.pytorch.org/whl/cu121
```

Run it with `docker run --gpus all` and check `nvidia-smi` inside.
"""


def test_markdown_note_named_after_a_dockerfile_is_prose() -> None:
    # knowledge/learnings/dockerfile-que-lista-modulos-....md (before: read as a Dockerfile by
    # the `dockerfile[._-]*` glob, 24 code lines; a top-level Dockerfile.md is common too): a
    # note about a Dockerfile, its FROM and RUN lines in a code fence, is Markdown.
    for path in ("notes/dockerfile-needs-the-cuda-base.md", "Dockerfile.md", "Makefile_howto.rst"):
        assert _rules(path, _NOTE_ON_A_CUDA_IMAGE) == set(), path
        assert _layers(path, _NOTE_ON_A_CUDA_IMAGE) == {}, path


def test_dockerfile_variant_named_by_its_vendor_stays_a_dockerfile() -> None:
    # The globs still name build files whose extension is no document's (Dockerfile.cuda,
    # paper/envs/Dockerfile.linux.gpu of mlr-org/mlr3torch, checked right).
    source = b"""\
FROM nvcr.io/nvidia/cuda:12.6.1-devel-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip
RUN pip3 install torch --index-url https://download.pytorch.org/whl/cu124
CMD ["bash"]
"""
    for path in ("envs/Dockerfile.linux.gpu", "docker/dockerfile-cuda"):
        assert _rules(path, source) == {"image.nvidia-base", "deps.cuda-wheel"}, path
        assert _layers(path, source) == {"vendor-path": 2, "portable": 2}, path


# -- vercel-labs/vgpu: WGSL modules, WGSL in template strings, a WebGPU host ------------------


def test_wgsl_module_of_exported_constants_is_kernel() -> None:
    # apps/docs/examples/glass-fractal/hero-fractal-light.wgsl (checked right): a shader module
    # in the library's WGSL dialect holding only shared constants is shader code still.
    source = b"""\
// The light both passes read, kept in one place.
export const KEY_LIGHT_POS = vec3f(0.5, 3.0, 2.5);
export const KEY_LIGHT_TINT = vec3f(1.0, 0.9, 0.8);
export const KEY_LIGHT_SIZE = 0.6;
"""
    path = "examples/glass/key-light.wgsl"
    assert _rules(path, source) == {"wgsl.shader-file"}
    assert _layers(path, source) == {"kernel": 3}


def test_wgsl_fragment_shader_in_a_template_string_counts_its_lines() -> None:
    # examples/by-example-s12-scheduling-resize/src/example.ts (an extra kernel file: hand 3,
    # lockin 5, in range): a post-processing pass kept in a `/* wgsl */` template literal.
    source = b"""\
import { init, effect, frame } from "vgpu/node";

export const TINT = /* wgsl */ `
struct Params { strength: f32, tint: vec3f }
@group(0) @binding(0) var<uniform> params: Params;
@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f { return vec4f(params.tint, 1.0); }
`;

export async function run() {
  const gpu = await init();
  const pass = effect(gpu, TINT, { label: "tint" });
  frame(gpu, (f) => f.pass({}, (p) => p.draw(pass)));
}
"""
    path = "examples/tint/src/example.ts"
    assert _rules(path, source) == {"wgsl.source-string"}
    assert _layers(path, source) == {"kernel": 5, "portable": 6}


def test_webgpu_host_importing_its_wgsl_modules_is_portable() -> None:
    # apps/docs/examples/depth-estimation/renderer.ts (checked right): the host imports the
    # shaders from .wgsl files and hands them to the library; no shader text of its own.
    source = b"""\
import { createCompute, createEffect, type Gpu } from 'vgpu';
import reduceWgsl from './reduce.wgsl';
import viewWgsl from './view.wgsl';

export function makeRenderer(gpu: Gpu, label: string) {
  const view = createEffect(gpu, viewWgsl, { label: `${label}-view` });
  const reduce = createCompute(gpu, reduceWgsl, { label: `${label}-reduce` });
  return { view, reduce };
}
"""
    path = "examples/depth/renderer.ts"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 8}


def test_wgsl_minifier_test_input_typed_with_vectors_is_kernel() -> None:
    # packages/wgsl/tests/minify-local-guard.test.ts (checked right: hand 3, lockin 1): WGSL
    # functions given to the minifier as strings. The one whose signature names a WGSL vector
    # type counts; those typed only `f32` read as any language's `fn` and are left portable.
    source = b"""\
import { expect, test } from "vitest";
import { minify } from "../src/minify.ts";

const src = "fn shade(uv: vec2f) -> f32 { let k = uv.y < 0.5; if (k) { return 1.0; } return 0.; }";

test("keeps the guard local", () => {
  expect(minify(src)).toContain("fn shade(");
  expect(minify("fn g(a: f32) -> f32 { var s = a; return s; }")).not.toContain("var s");
});
"""
    path = "packages/wgsl/tests/minify-guard.test.ts"
    assert _rules(path, source) == {"wgsl.source-string"}
    assert _layers(path, source) == {"kernel": 1, "portable": 6}


# -- yzkhere0129/LBMProject: a CUDA lattice-Boltzmann solver and its .cu test suites ---------


def test_gtest_suite_in_a_cu_file_including_the_runtime_is_vendor_path() -> None:
    # tests/unit/test_liquid_fraction_copy.cu (checked right): host-only gtest code compiled by
    # nvcc; the solver hides the device, the include of the CUDA runtime is the one vendor line.
    source = b"""\
#include <gtest/gtest.h>
#include <cuda_runtime.h>
#include <vector>

#include "physics/heat_solver.h"

TEST(MeltFractionCopy, SolidStaysZero) {
    physics::HeatSolver solver(8, 8, 8);
    solver.initialize(300.0f);
    std::vector<float> melt(8 * 8 * 8);
    solver.copyMeltFractionToHost(melt.data());
    for (float v : melt) EXPECT_EQ(v, 0.0f);
}
"""
    path = "tests/unit/test_melt_fraction_copy.cu"
    assert _rules(path, source) == {"cuda.include"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 10}


def test_cu_file_of_plain_host_code_is_portable() -> None:
    # tests/validation/test_config_parser.cu (checked right): a .cu file that parses a config
    # file with the standard library alone holds no CUDA.
    source = b"""\
#include <fstream>
#include <string>
#include <gtest/gtest.h>

TEST(ConfigParser, ReadsGridSize) {
    std::ofstream out("grid.cfg");
    out << "nx = 64\\n";
    out.close();
    std::ifstream in("grid.cfg");
    std::string key, eq;
    int nx = 0;
    in >> key >> eq >> nx;
    EXPECT_EQ(nx, 64);
}
"""
    path = "tests/validation/test_config_reader.cu"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 13}


def test_host_device_lattice_helpers_with_constant_tables_are_kernel() -> None:
    # src/core/lattice/d3q19.cu (checked right: hand 83, lockin 83): velocity tables in
    # __constant__ memory filled with cudaMemcpyToSymbol, and __host__ __device__ helpers that
    # branch on __CUDA_ARCH__ between the device and the host tables.
    source = b"""\
#include <cuda_runtime.h>

__constant__ int cx[7];
__constant__ float wt[7];

static const int h_cx[7] = {0, 1, -1, 0, 0, 0, 0};

void uploadTables(const float* h_wt) {
    cudaMemcpyToSymbol(cx, h_cx, 7 * sizeof(int));
    cudaMemcpyToSymbol(wt, h_wt, 7 * sizeof(float));
}

__host__ __device__ float equilibrium(int q, float rho, float ux) {
#ifdef __CUDA_ARCH__
    float cu = cx[q] * ux;
    return wt[q] * rho * (1.0f + 3.0f * cu);
#else
    return rho * (1.0f + 3.0f * h_cx[q] * ux);
#endif
}
"""
    path = "src/core/lattice/d3q7.cu"
    assert _rules(path, source) == {
        "cuda.include",
        "cuda.shared-memory",
        "cuda.runtime",
        "cuda.device-function",
    }
    assert _layers(path, source) == {"kernel": 10, "vendor-path": 3, "portable": 3}


def test_cmake_building_cuda_tests_for_one_architecture_is_vendor_path() -> None:
    # tests/validation/CMakeLists.txt (checked right): CUDA enabled as a language, the toolkit
    # found, each test target built for sm_86 with separable compilation and linked to cudart.
    source = b"""\
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)

add_executable(test_heat_pulse test_heat_pulse.cu)
set_target_properties(test_heat_pulse PROPERTIES
    CUDA_SEPARABLE_COMPILATION ON
    CUDA_ARCHITECTURES "86"
)
target_link_libraries(test_heat_pulse PRIVATE
    lbm_core
    GTest::gtest_main
    CUDA::cudart
)
"""
    path = "tests/validation/CMakeLists.txt"
    assert _rules(path, source) == {"build.cmake-cuda"}
    assert _layers(path, source)["vendor-path"] >= 5


def test_python_generator_of_cu_test_stubs_is_portable() -> None:
    # tests/integration/multiphysics/generate_test_stubs.py (checked right): a script writing
    # gtest stubs from a template string whose text names the CUDA runtime header.
    source = b'''\
STUB = """#include <gtest/gtest.h>
#include <cuda_runtime.h>

TEST({suite}, {name}) {{
    SUCCEED();
}}
"""

for suite, name in [("Forces", "Direction"), ("Heat", "Balance")]:
    with open(f"test_{name.lower()}.cu", "w") as out:
        out.write(STUB.format(suite=suite, name=name))
'''
    path = "tests/integration/generate_stubs.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 10}


# -- mlr-org/mlr3torch: R torch learners choosing their device ------------------------------


def test_r_device_picked_by_cuda_availability_is_vendor_path() -> None:
    # R/utils.R (checked right; commit 537176ca5485 added it and the gate failed, right): "auto"
    # becomes "cuda" when R torch sees a CUDA device, and asking for "cuda" without one fails.
    source = b"""\
pick_device = function(device = NULL) {
  if (device == "auto") {
    device = if (cuda_is_available()) "cuda" else "cpu"
  }
  if (device == "cuda" && !cuda_is_available()) {
    stop("no CUDA device is available")
  }
  device
}
"""
    path = "R/utils.R"
    assert _rules(path, source) == {"cuda.r-host"}
    assert _layers(path, source) == {"vendor-path": 4, "portable": 5}


def test_r_tensors_materialized_on_cpu_or_meta_are_portable() -> None:
    # tests/testthat/test_materialize.R (checked right): the CPU and meta devices name no vendor.
    source = b"""\
test_that("materialize puts tensors on the asked device", {
  lt = as_lazy_tensor(torch_randn(4, 2))
  out = materialize(lt, device = "cpu", rbind = TRUE)
  expect_true(out$device == torch_device("cpu"))
  meta = materialize(lt, device = "meta", rbind = TRUE)
  expect_true(meta$device == torch_device("meta"))
})
"""
    path = "tests/testthat/test_materialize.R"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}
