"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-m).

The pool is ``/work/pool-h47.txt``, shuffled with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 245-251. Two were skipped: CIS565-Fall-2013/
Project2-Pathtracer (its snapshot is over the 500 MiB limit) and delock/deepspeed_finetune_demo
(no snapshot can be had). Five were read: indigits/sparse-plex (MATLAB sparse-recovery
library), AkikJana/biomolecular-design-coreai (Boltz protein folding in PyTorch on CUDA and
MPS), brayner1/Pathtracer (a CPU path tracer vendoring Eigen, with Eigen's CUDA, HIP and SYCL
back ends), sgl-project/sglang-jax (LLM serving on JAX and TPUs) and basementstudio/shader-lab
(a WebGPU/three.js shader editor written with TSL). Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, and three commits touching GPU code judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- brayner1/Pathtracer: Eigen's SYCL back end, device code under SYCL_DEVICE_ONLY ----------


def test_eigen_sycl_packet_math_under_device_only_guard_is_kernel_code() -> None:
    # thirdparty/Eigen/src/Core/arch/SYCL/MathFunctions.h: every overload sits under
    # `#if defined(SYCL_DEVICE_ONLY)`, built only in the SYCL device pass; lockin called the
    # cl::sycl:: calls host runtime code (vendor-path).
    source = b"""\
namespace Eigen {
namespace internal {
#if defined(SYCL_DEVICE_ONLY)
template <>
inline cl::sycl::cl_float4 psqrt<cl::sycl::cl_float4>(const cl::sycl::cl_float4& v) {
  return cl::sycl::sqrt(v);
}
template <>
inline cl::sycl::cl_double2 psqrt<cl::sycl::cl_double2>(const cl::sycl::cl_double2& v) {
  return cl::sycl::sqrt(v);
}
#endif
}  // namespace internal
}  // namespace Eigen
"""
    assert _rules("Eigen/src/Core/arch/SYCL/MathFunctions.h", source) == {"sycl.device-only-guard"}
    assert _layers("Eigen/src/Core/arch/SYCL/MathFunctions.h", source) == {
        "kernel": 10,
        "portable": 4,
    }


def test_eigen_generic_function_with_a_sycl_device_branch() -> None:
    # thirdparty/Eigen/src/Core/MathFunctions.h: a generic function keeps one branch for the
    # SYCL device pass and one for every other compiler; only the first is device code.
    source = b"""\
template <typename T>
inline bool is_nan(const T& x) {
#if defined(SYCL_DEVICE_ONLY)
  return cl::sycl::isnan(x);
#else
  return x != x;
#endif
}
"""
    assert _layers("Eigen/src/Core/MathFunctions.h", source) == {"kernel": 2, "portable": 6}


def test_negated_sycl_device_guard_keeps_host_code_portable() -> None:
    # thirdparty/Eigen/src/Core/util/Macros.h: `&& !defined(SYCL_DEVICE_ONLY)` guards the
    # host compilers' attributes.
    source = b"""\
#if defined(__GNUC__) && !defined(SYCL_DEVICE_ONLY)
#define APP_FLATTEN __attribute__((flatten))
#else
#define APP_FLATTEN
#endif
"""
    assert _layers("src/util/Macros.h", source) == {"portable": 5}


def test_eigen_sycl_host_buffer_mapper_stays_vendor_path() -> None:
    # thirdparty/Eigen/src/Core/arch/SYCL/SyclMemoryModel.h (already right): host code
    # mapping pointers to cl::sycl::buffer objects is SYCL runtime code, no device code.
    source = b"""\
class PointerMapper {
 public:
  using buffer_t = cl::sycl::buffer<uint8_t, 1>;
  buffer_t get_buffer(const void* ptr) { return find(ptr)->second; }
};
"""
    assert _rules("Eigen/src/Core/arch/SYCL/SyclMemoryModel.h", source) == {"sycl.runtime"}
    assert set(_layers("Eigen/src/Core/arch/SYCL/SyclMemoryModel.h", source)) == {
        "vendor-path",
        "portable",
    }


# -- sgl-project/sglang-jax: a Pallas TPU module imported inside a host function -----------


def test_local_pltpu_import_for_vmem_size_is_not_a_kernel() -> None:
    # benchmark/kernels/mla/bench_mla.py: the benchmark imports the TPU module inside its
    # driver only to size the VMEM limit; the 140-line driver was counted as kernel code.
    source = b"""\
import jax.numpy as jnp


def run_case(case, tokens, tries=3):
    params = make_params(case, tokens)
    from jax.experimental.pallas import tpu as tpu_mod

    limit = int(tpu_mod.get_tpu_info().vmem_capacity_bytes * 0.9)
    times = [timed(params, limit) for _ in range(tries)]
    return sum(times) / len(times)
"""
    assert "pallas.tpu" not in _rules("benchmark/kernels/mla/bench_case.py", source)
    assert _layers("benchmark/kernels/mla/bench_case.py", source).get("kernel", 0) == 0


def test_pltpu_kernel_with_a_local_import_is_still_kernel_code() -> None:
    # python/sgl_jax/srt/kernels/fused_mlp.py (already right, module-level import there): a
    # kernel body using pltpu's async copies stays kernel code wherever the module is imported.
    source = b"""\
def copy_block(src_hbm, dst_vmem, sem):
    from jax.experimental.pallas import tpu as pltpu

    pltpu.make_async_copy(src_hbm, dst_vmem, sem).start()
    pltpu.make_async_copy(src_hbm, dst_vmem, sem).wait()
"""
    assert _rules("src/kernels/copy.py", source) == {"pallas.tpu"}
    assert _layers("src/kernels/copy.py", source) == {"kernel": 4}


def test_tpu_launch_profile_target_is_vendor_path() -> None:
    # test/srt/nightly/launch_profiles/qwen3-32b-perf-v6e-4.yaml (already right): a perf
    # profile pinned to a TPU v6e slice.
    source = b"""\
name: small-model-perf
target: v6e-4
model_path: org/model
tp_size: 4
"""
    assert _layers("launch_profiles/small-model-perf.yaml", source) == {
        "vendor-path": 1,
        "portable": 3,
    }


# -- basementstudio/shader-lab: three.js TSL shader functions in TypeScript ----------------


def test_three_tsl_fn_shader_functions_are_kernel_code() -> None:
    # packages/shader-lab-react/src/renderer/shaders/tsl/utils/complex-sqrt.ts: a TSL Fn
    # that three.js compiles to WGSL or GLSL; lockin called it portable TypeScript.
    source = b"""\
import { Fn, length, sqrt, vec2 } from "three/tsl";

export const halfLength = Fn(([z]) => {
  const r = length(z);
  return vec2(sqrt(r.mul(0.5)), r);
});
"""
    assert _rules("src/shaders/tsl/half-length.ts", source) == {"wgsl.three-tsl-function"}
    assert _layers("src/shaders/tsl/half-length.ts", source) == {"kernel": 4, "portable": 1}


def test_three_tsl_compute_fn_with_typed_destructured_argument() -> None:
    # packages/shader-lab-react/src/renderer/particle-grid-pass.ts: a compute Fn taking
    # `({ noiseTex }: { noiseTex: Node })`, built inside a class method and dispatched with
    # .compute(n); the dispatch is host code.
    source = b"""\
import { Fn, instanceIndex, textureStore, uvec2, vec4 } from "three/tsl";

class Grid {
  build(): unknown {
    const fill = Fn(({ tex }: { tex: Node }) => {
      const x = instanceIndex.mod(64);
      textureStore(tex, uvec2(x, 0), vec4(1)).toWriteOnly();
    });
    return fill({ tex: this.texture }).compute(64);
  }
}
"""
    assert _rules("src/renderer/grid-pass.ts", source) == {"wgsl.three-tsl-function"}
    assert _layers("src/renderer/grid-pass.ts", source) == {"kernel": 4, "portable": 6}


def test_fn_helper_without_a_tsl_import_stays_portable() -> None:
    # src/lib/editor/shader-export.ts (already right): editor code with no TSL import.
    source = b"""\
import { compose } from "./compose";

const Fn = (f) => f;
export const run = Fn((x) => {
  return compose(x);
});
"""
    assert _layers("src/lib/editor/run.ts", source) == {"portable": 5}
