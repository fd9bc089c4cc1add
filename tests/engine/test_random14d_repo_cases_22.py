"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-d).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 413-419. Three had no snapshot to fetch and were skipped:
syedasmarhaider/causal-inference-copilot-ai (417), mivanit/attention-motifs (418) and
mburger89/MetalCreator (419). Read were baodii/intel-extension-for-deepspeed (Intel's SYCL
port of DeepSpeed's ops: SYCLomatic-migrated kernels, XeTLA flash attention, oneDNN/oneCCL
helpers), omiroshn/PathTracer (a C path tracer with OpenCL kernels, SDL2 and FreeType
frameworks checked in), William-Yin123/tensorflow-docs (TensorFlow's API docs, Markdown with
two YAML indexes) and RayTracing42/RT (a C ray tracer whose OpenCL kernels were removed in
its history). Fifteen files of each repository (both of tensorflow-docs') were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, more files holding kernel lines counted by hand, and three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- baodii/intel-extension-for-deepspeed: SYCLomatic's __dpct_inline__ device helpers --------


def test_dpct_inline_functor_operators_are_sycl_device_code() -> None:
    # op_builder/csrc/quantization/quantize_intX.dp.cpp: the reducer and arithmetic functors
    # the migrated kernels apply, each operator() marked __dpct_inline__ (CUDA's __device__
    # __forceinline__). Before the fix only the kernels and their direct callees counted.
    source = b"""\
#include <sycl/sycl.hpp>

template <typename T>
struct pick_larger {
    __dpct_inline__ T operator()(const T& x, const T& y)
    {
        return x > y ? x : y;
    }
};

template <typename T, typename Op>
__dpct_inline__ T fold(const T* v, int n)
{
    Op op;
    T acc = v[0];
    for (int i = 1; i < n; ++i) { acc = op(acc, v[i]); }
    return acc;
}
"""
    assert _rules("csrc/quant/fold.dp.cpp", source) == {"sycl.device-macro", "sycl.runtime"}
    assert _layers("csrc/quant/fold.dp.cpp", source) == {
        "kernel": 12,
        "vendor-path": 1,
        "portable": 3,
    }


def test_dpct_inline_definition_is_not_device_code() -> None:
    # op_builder/csrc/includes/dpct/dpct.hpp defines the mark per compiler; no function.
    source = b"""\
#include <sycl/sycl.hpp>
#if defined(_MSC_VER)
#define __dpct_inline__ __forceinline
#else
#define __dpct_inline__ __inline__ __attribute__((always_inline))
#endif
"""
    assert "sycl.device-macro" not in _rules("includes/dpct/dpct.hpp", source)


# -- baodii/intel-extension-for-deepspeed: XeTLA device code in flash attention ---------------


def test_xetla_register_vector_helpers_are_kernel_code() -> None:
    # op_builder/csrc/flash_attn/fmha_bwd_utils.h: static members of tile helpers that build
    # masks over register vectors (xetla_vector, xetla_mask, select/merge views). Before the
    # fix the whole header was portable.
    source = b"""\
#pragma once
#include "xetla.hpp"

namespace gpu::xetla::fmha {

template <typename tile_t>
struct row_mask_t {
  static constexpr uint32_t width = tile_t::block_size_x;

  inline static void keep_first(tile_t* t, uint32_t row, int keep) {
    xetla_vector<int, width> col = xetla_vector_gen<int, width>(0, 1);
    xetla_mask<width> drop = col >= keep;
    t->reg.xetla_select<width, 1>(row * width).xetla_merge(0, drop);
  }
};

}  // namespace gpu::xetla::fmha
"""
    assert _rules("csrc/flash_attn/mask_utils.h", source) == {"sycl.xetla-device-body"}
    assert _layers("csrc/flash_attn/mask_utils.h", source) == {"kernel": 5, "portable": 8}


def test_xetla_call_operator_body_is_counted_whole() -> None:
    # fmha_bwd_utils.h's group_row_reduce_t: a functor whose `operator()(mat_t* src)` reduces
    # a tile across sub-groups through shared local memory. The call operator's body is the
    # enclosing function (before the fix only the statement naming xetla_ counted).
    source = b"""\
template <typename mat_t, uint32_t kGroups>
struct across_groups_t {
  inline KERNEL_FUNC float operator()(mat_t* src) {
    float part = src->sum();
    if constexpr (kGroups == 1)
      return part;
    xetla_fence<memory_kind::shared_local>();
    part = part * kGroups;
    return part;
  }
};
"""
    assert _rules("csrc/flash_attn/reduce.h", source) == {"sycl.xetla-device-body"}
    assert _layers("csrc/flash_attn/reduce.h", source) == {"kernel": 8, "portable": 3}


def test_xetla_api_marked_function_is_device_code() -> None:
    # fmha_bwd_utils.h's epilogue: __XETLA_API marks XeTLA's inline device functions (tile
    # descriptor updates); no xetla_ intrinsic in this body.
    source = b"""\
template <typename desc_t>
struct epilogue_rows_t {
  __XETLA_API static void move_to(desc_t& d, int32_t sg_x, int32_t sg_y) {
    d.x += sg_x * 16;
    d.y += sg_y * 8;
  }
};
"""
    assert _rules("csrc/flash_attn/epilogue.h", source) == {"sycl.external-function"}
    assert _layers("csrc/flash_attn/epilogue.h", source) == {"kernel": 4, "portable": 3}


def test_xetla_work_item_and_tile_loads_mark_device_functions() -> None:
    # op_builder/csrc/flash_attn/fmha_fwd.cpp: the kernel functor's context set-up takes
    # XeTLA's work-item (xetla_exec_item<3>&), and its gemm step only loads and stores tiles
    # (subgroup::tile_load, a cache-hinted tile_store). Before the fix neither body counted.
    source = b"""\
#include <sycl/sycl.hpp>
struct attn_fwd_t {
  int row;
  inline void setup(xetla_exec_item<3>& ei, int offset) {
    row = ei.get_group(1) * 16;
    row += offset;
  }
  inline void stage_q(tile_t& t, payload_t& p) {
    subgroup::tile_load(t, p);
    tile_store<cache_hint::write_back, cache_hint::write_back>(t, p);
  }
};
"""
    assert {"sycl.kernel-function", "sycl.xetla-device-body"} <= _rules(
        "csrc/flash_attn/fwd.cpp", source
    )
    assert _layers("csrc/flash_attn/fwd.cpp", source)["kernel"] == 8


def test_host_launcher_named_after_xetla_stays_portable() -> None:
    # fmha_fwd.cpp's xetla_fmha_forward_kernel is the project's host launcher: its name is no
    # XeTLA intrinsic.
    source = b"""\
void xetla_attention_launch(float* q, float* k, int n) {
  for (int i = 0; i < n; ++i) { q[i] += k[i]; }
}
"""
    assert _rules("csrc/flash_attn/launch.cpp", source) == set()
    assert _layers("csrc/flash_attn/launch.cpp", source) == {"portable": 3}


def test_xetla_tile_policy_constants_stay_portable() -> None:
    # Pinned, right before the fix: flash_attn/fmha_policy.h holds only tile sizes for the
    # XeTLA kernels (an open decision whether such tuning tables are vendor-path).
    source = b"""\
#pragma once
namespace gpu::xetla {
struct attn_policy_64 {
  static constexpr uint32_t kBr = 64;
  static constexpr uint32_t kBc = 64;
  static constexpr uint32_t thread_num = (kBr / 16) * (kBc / 32);
};
}
"""
    assert _rules("csrc/flash_attn/policy.h", source) == set()


def test_sycl_kernel_with_this_nd_item_is_counted() -> None:
    # Pinned, right before the fix: common/custom_cuda_kernel.dp.cpp, a kernel reading its
    # work-item through this_nd_item and launched from a parallel_for lambda.
    source = b"""\
#include <sycl/sycl.hpp>
void widen(const float* in, sycl::half* out, int n)
{
    auto it = sycl::ext::oneapi::experimental::this_nd_item<1>();
    int i = it.get_global_id(0);
    if (i < n) { out[i] = (sycl::half)in[i]; }
}
void launch_widen(const float* in, sycl::half* out, int n, sycl::queue* q)
{
    q->parallel_for(sycl::nd_range<1>(n, 256), [=](sycl::nd_item<1> it) {
        widen(in, out, n);
    });
}
"""
    assert "sycl.kernel" in _rules("common/widen.dp.cpp", source)
    assert _layers("common/widen.dp.cpp", source)["kernel"] >= 9


# -- William-Yin123/tensorflow-docs: a documentation table of contents -----------------------


def test_docs_toc_page_named_tensorrt_is_no_requirement() -> None:
    # _toc.yaml lists the TF-TRT API pages: a title and a path ending in tensorrt. Before the
    # fix deps.cuda-wheel read both lines as a pinned TensorRT package.
    source = b"""\
toc:
- title: tf
  section:
  - title: experimental
    section:
    - title: tensorrt
      section:
      - title: Overview
        path: /tf/experimental/tensorrt
      - title: Converter
        path: /tf/experimental/tensorrt/Converter
"""
    assert _rules("_toc.yaml", source) == set()
    assert _layers("_toc.yaml", source) == {"portable": 11}


def test_tensorrt_requirement_still_counts() -> None:
    # Negative twin: the package pinned in a requirements file is still NVIDIA's TensorRT.
    source = b"""\
numpy==1.26.4
tensorrt==10.0.1
"""
    assert _rules("requirements.txt", source) == {"deps.cuda-wheel"}
    assert _layers("requirements.txt", source) == {"vendor-path": 1, "portable": 1}


# -- omiroshn/PathTracer: OpenCL host and kernels (pinned, right before the fix) --------------


def test_opencl_kernel_file_is_kernel_code() -> None:
    # resources/kernels/julia.cl: a __kernel writing one pixel per work-item.
    source = b"""\
__kernel void julia(__global int *pixels, float cx, float cy, int width)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    float zx = x * 0.003f - 1.5f, zy = y * 0.003f - 1.0f;
    int i = 0;
    while (zx * zx + zy * zy < 4.0f && i < 64) {
        float t = zx * zx - zy * zy + cx;
        zy = 2.0f * zx * zy + cy;
        zx = t;
        i++;
    }
    pixels[y * width + x] = i * 0x040404;
}
"""
    assert _rules("kernels/julia.cl", source) == {"opencl.kernel-file"}
    assert _layers("kernels/julia.cl", source) == {"kernel": 14}


# -- RayTracing42/RT: a CPU ray tracer in C (pinned, right before the fix) --------------------


def test_cpu_ray_cone_intersection_stays_portable() -> None:
    # src/cone.c: a quadratic solved per ray on the CPU; no GPU code.
    source = b"""\
#include <math.h>
double cone_hit(double a, double b, double c)
{
    double delta = b * b - 4 * a * c;
    if (delta < 0)
        return -1;
    return (-b - sqrt(delta)) / (2 * a);
}
"""
    assert _rules("src/cone.c", source) == set()
    assert _layers("src/cone.c", source) == {"portable": 8}
