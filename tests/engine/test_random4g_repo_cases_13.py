"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h40-random-g).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 51-60. Three had no snapshot: colobas/tinygrad, taichiiiiiiii/Spectral-Analysis-
Challenge and scottnarmstrong/AVAnomalousDiffusion. Fifteen files of each remaining repository
(joydddd/cutlass, rasbt/mlxtend, DerSchmale/spirv4web, Liyulingyue/rust-model-inference,
dumpmemory/MagiAttention, bulletphysics/bullet3, Darkyenus/glsl4idea) were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up
to 10); three commits touching GPU code were drawn with ``random.Random("owner/name:commits")``
and judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Liyulingyue/rust-model-inference: an ash back end behind a `vulkan` Cargo feature -------


def test_rust_inference_vulkan_feature_items_are_vendor_path() -> None:
    # src/ops/float.rs: the Vulkan context getter exists only in the `vulkan` build; the wgpu
    # getter beside it is the portable back end. Before, the file was portable.
    source = b"""\
#[cfg(feature = "vulkan")]
use crate::vulkan::VulkanContext;

#[cfg(feature = "wgpu")]
use crate::wgpu::WgpuContext;

#[cfg(feature = "vulkan")]
pub fn vulkan_context() -> Option<&'static VulkanContext> {
    CONTEXT.get_or_init(|| VulkanContext::new().ok()).as_ref()
}

pub fn scale(x: &mut [f32], k: f32) {
    for v in x.iter_mut() {
        *v *= k;
    }
}
"""
    assert _rules("src/ops/float.rs", source) == {"vulkan.rust-feature-gate"}
    assert _layers("src/ops/float.rs", source) == {"vendor-path": 6, "portable": 7}


def test_rust_inference_vulkan_branch_before_the_cpu_path_is_vendor_path() -> None:
    # src/ops/kernel/q8_0/dispatch.rs: the row dispatch tries the Vulkan context first under
    # the feature, then falls back to SIMD code on the CPU.
    source = b"""\
pub fn matmul_rows(w: &[u8], x: &[i8], out: &mut [f32], n_in: usize) {
    #[cfg(feature = "vulkan")]
    if let Some(ctx) = vulkan_context() {
        ctx.matmul_q8(w, x, out, n_in).expect("gpu matmul");
        return;
    }
    scalar::matmul_rows(w, x, out, n_in)
}
"""
    assert _layers("src/ops/kernel/q8_0/dispatch.rs", source) == {
        "vendor-path": 5,
        "portable": 3,
    }


def test_rust_inference_ash_dependency_in_the_manifest_is_vendor_path() -> None:
    # Cargo.toml: ash is an optional dependency the `vulkan` feature turns on; wgpu beside it
    # is the portable route and stays so.
    source = b"""\
[features]
default = []
vulkan = ["dep:ash"]
wgpu = ["dep:wgpu"]

[dependencies]
half = "2.4"
ash = { version = "0.37", optional = true }
wgpu = { version = "29", optional = true }
"""
    assert _rules("Cargo.toml", source) == {"deps.vulkan-crate"}
    assert _layers("Cargo.toml", source) == {"vendor-path": 2, "portable": 6}


def test_rust_inference_wgpu_only_crate_stays_portable() -> None:
    # src/wgpu.rs: the wgpu back end loads a WGSL shader; wgpu is the portable route.
    source = b"""\
#[cfg(feature = "wgpu")]
use wgpu::{Device, Queue};

#[cfg(feature = "wgpu")]
pub struct WgpuContext {
    device: Device,
    queue: Queue,
}
"""
    assert _layers("src/wgpu.rs", source) == {"portable": 7}


# -- dumpmemory/MagiAttention: NVIDIA-only attention and FP8 packages from Python ------------


def test_magiattention_flash_attention_4_import_is_vendor_library() -> None:
    # extensions/magi_attn_extensions/fa4_interface_with_sink.py: FlashAttention-4's CuTe DSL
    # entry points imported under a guard; the rest is tensor bookkeeping. Before, portable.
    source = b"""\
import torch

try:
    from flash_attn.cute.interface import _flash_attn_bwd, _flash_attn_fwd
except ImportError:
    _flash_attn_fwd = _flash_attn_bwd = None


def forward_with_sink(q, k, v, sink):
    out, lse = _flash_attn_fwd(q, k, v)
    return out * torch.sigmoid(lse - sink)
"""
    assert _rules("extensions/fa4_interface_with_sink.py", source) == {
        "cuda-libs.python-llm-kernels"
    }
    assert _layers("extensions/fa4_interface_with_sink.py", source) == {
        "vendor-library": 1,
        "portable": 7,
    }


def test_magiattention_transformer_engine_baseline_is_vendor_library() -> None:
    # exps/dist_attn/baselines/ring_attn.py: a context-parallel baseline on Transformer
    # Engine's fused attention and its C++ extension module.
    source = b"""\
import torch.distributed as dist
import transformer_engine as te
import transformer_engine_torch as tex
from transformer_engine.pytorch.constants import TE_DType


def ring_step(q, k, v, group):
    dist.barrier(group)
    return tex.fused_attn_fwd(q, k, v, TE_DType[q.dtype])
"""
    assert _rules("exps/dist_attn/baselines/ring_attn.py", source) == {
        "cuda-libs.python-llm-kernels"
    }
    assert _layers("exps/dist_attn/baselines/ring_attn.py", source) == {
        "vendor-library": 3,
        "portable": 4,
    }


def test_magiattention_flash_attention_2_interface_stays_portable() -> None:
    # extensions/magi_attn_extensions/fa2_interface_with_sink.py: FlashAttention-2's
    # interface module, which builds for ROCm as well.
    source = b"""\
from flash_attn.flash_attn_interface import _flash_attn_forward


def forward(q, k, v):
    return _flash_attn_forward(q, k, v, 0.0, q.shape[-1] ** -0.5, causal=True)
"""
    assert _layers("extensions/fa2_interface_with_sink.py", source) == {"portable": 3}


def test_magiattention_requirements_pin_nvidia_only_attention_packages() -> None:
    # exps/dist_attn/requirements.txt: Transformer Engine and the Hopper-only FlashAttention-3
    # pinned beside FlashAttention-2 and plotting packages. Before, portable.
    source = b"""\
transformer_engine==2.8.0
flash_attn==2.8.3
flash_attn_3==3.0.0b1
seaborn==0.13.2
pandas==2.3.3
"""
    assert _rules("exps/dist_attn/requirements.txt", source) == {"deps.cuda-wheel"}
    assert _layers("exps/dist_attn/requirements.txt", source) == {
        "vendor-path": 2,
        "portable": 3,
    }


# -- joydddd/cutlass: generators writing CUTLASS C++ from Python ------------------------------


def test_cutlass_library_instance_template_is_kernel() -> None:
    # python/cutlass_library/conv3d_operation.py: the emitter's template instantiates a
    # CUTLASS convolution kernel; the name-building code around it is plain Python. Before,
    # the file was portable.
    source = b'''\
class EmitConv3dInstance:
    def __init__(self):
        self.template = """
using ${operation_name}_base = typename cutlass::conv::kernel::DefaultConv3dFprop<
  ${element_a}, cutlass::layout::TensorNDHWC,
  cutlass::gemm::GemmShape<${tb_m}, ${tb_n}, ${tb_k}>,
  ${stages}
>::Kernel;
"""

    def name(self, op):
        return "cutlass_%s_fprop" % op.arch
'''
    assert _rules("python/cutlass_library/conv3d_operation.py", source) == {"cutlass.source-string"}
    assert _layers("python/cutlass_library/conv3d_operation.py", source) == {
        "kernel": 7,
        "portable": 4,
    }


def test_cutlass_test_generator_writing_sources_line_by_line_is_kernel() -> None:
    # test/unit/gemm/device/simt_sm50.py: a loop over precisions writes each test file through
    # out.write() of adjacent literals, one generated line each.
    source = b"""\
for precision in precisions:
    out = open("simt_%sgemm_sm50.cu" % precision, "w+")
    out.write("#include \\"cutlass/gemm/device/gemm.h\\"\\n"
              "\\n"
              "using Gemm = cutlass::gemm::device::Gemm<float, cutlass::layout::RowMajor,\\n"
              "    cutlass::arch::OpClassSimt, cutlass::arch::Sm50>;\\n")
    out.close()
"""
    assert _rules("test/unit/gemm/device/simt_sm50.py", source) == {"cutlass.source-string"}
    # The literal writing an empty line holds no code.
    assert _layers("test/unit/gemm/device/simt_sm50.py", source) == {
        "kernel": 3,
        "portable": 4,
    }


def test_cutlass_library_tag_table_stays_portable() -> None:
    # python/cutlass_library/library.py: tables mapping enums to CUTLASS type names, templated
    # ones too, name types for the emitters and write no kernel.
    source = b"""\
LayoutTag = {
    LayoutType.ColumnMajor: "cutlass::layout::ColumnMajor",
    LayoutType.TensorNC32HW32: "cutlass::layout::TensorNCxHWx<32>",
}
SwizzlingFunctorTag = {
    SwizzlingFunctor.Identity4: "cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<4>",
}
"""
    assert _layers("python/cutlass_library/library.py", source) == {"portable": 7}


def test_cutlass_generator_license_opening_the_written_text_is_no_kernel() -> None:
    # test/unit/gemm/device/simt_sm50.py: the first out.write() opens with the license
    # comment of the generated file on the call's own line. Before, the comment's lines were
    # kernel code, twice the generated code's.
    source = b"""\
out = open(path, "w+")
out.write("/*******************************************\\n"
          " * Copyright (c) 2024 Example Authors.\\n"
          " * SPDX-License-Identifier: BSD-3-Clause\\n"
          " ******************************************/\\n"
          "#include \\"cutlass/gemm/device/gemm.h\\"\\n"
          "using Gemm = cutlass::gemm::device::Gemm<float, cutlass::arch::Sm50>;\\n")
out.close()
"""
    assert _rules("test/unit/gemm/device/simt_sm50.py", source) == {"cutlass.source-string"}
    assert _layers("test/unit/gemm/device/simt_sm50.py", source) == {
        "kernel": 2,
        "portable": 6,
    }


def test_cutlass_b2b_generator_building_a_shape_by_pieces_is_kernel() -> None:
    # examples/44_multi_gemm_ir_and_codegen/ir_gen/gen_threadblock.py: the generator joins
    # a CUTLASS shape from pieces; the template it opens has no namespace between.
    source = b"""\
def gen_iterator(mma_core, element):
    shape = "cutlass::MatrixShape<" + mma_core + "::Shape::kM, " + mma_core + "::Shape::kK>"
    return "using IteratorA = " + element + shape + ";\\n"
"""
    assert _rules("ir_gen/gen_threadblock.py", source) == {"cutlass.source-string"}
    assert _layers("ir_gen/gen_threadblock.py", source) == {"kernel": 1, "portable": 2}
