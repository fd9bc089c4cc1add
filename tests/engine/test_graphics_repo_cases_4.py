"""Cases seen in the fourth audit round: graphics engines, cryptography on GPUs and GPU code
driven from languages other than Python (bkaradzic/bgfx, vulkano-rs/vulkano,
supranational/sppark, filecoin-project/ec-gpu, tracel-ai/burn, brichard19/BitCrack).

Each snippet is a small rewrite, in our own words, of a pattern found there; the repository is
named per test. They pin the verdict a porting engineer gives the file: its language, whether
it holds vendor-locked lines, and for kernel code how many lines.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import FileReport, Layer
from bot.engine.registry import rule


def _rules(report: FileReport) -> set[str]:
    return {finding.rule for finding in report.findings}


def _non_portable(report: FileReport) -> int:
    return sum(report.layers[layer] for layer in Layer if layer is not Layer.PORTABLE)


# -- bkaradzic/bgfx: shaders in bgfx's GLSL dialect, .sc files and .sh headers ----------------


def test_bgfx_vertex_shader_sc_is_bgfx_shader_kernel_code() -> None:
    # examples/01-cubes/vs_cubes.sc: the $input/$output lines name the varyings.
    source = b"""\
$input a_position, a_color0
$output v_color0

/* one vertex: transform and pass the colour on */
#include "../common/common.sh"

void main()
{
\tgl_Position = mul(u_modelViewProj, vec4(a_position, 1.0) );
\tv_color0 = a_color0;
}
"""
    report = classify("examples/01-cubes/vs_cubes.sc", source)
    assert report.language == "bgfx Shader"
    assert report.layers[Layer.KERNEL] == report.code_lines == 8
    assert report.ecosystems == {"bgfx": 8}
    # shaderc compiles it for every desktop vendor, Apple's Metal included.
    assert rule("bgfx.shader-file").vendors == {"nvidia", "amd", "intel", "apple"}


def test_bgfx_varying_definitions_and_compute_shaders_are_bgfx_shaders() -> None:
    varyings = b"""\
vec4 v_color0    : COLOR0    = vec4(1.0, 0.0, 0.0, 1.0);
vec3 a_position  : POSITION;
vec4 a_color0    : COLOR0;
"""
    assert classify("examples/01-cubes/varying.def.sc", varyings).language == "bgfx Shader"
    # src/cs_mipgen_pow2.sc: a define and an include of the shared compute body.
    compute = b"""\
// power-of-two sizes: one bilinear tap per thread
#define NON_POWER_OF_TWO 0
#include "cs_mipgen.sh"
"""
    report = classify("src/cs_mipgen_pow2.sc", compute)
    assert report.language == "bgfx Shader"
    assert report.layers[Layer.KERNEL] == 2


def test_bgfx_shader_header_sh_is_a_shader_not_a_shell_script() -> None:
    # examples/common/shaderlib.sh: GLSL helpers shared by the examples' shaders.
    source = b"""\
/*
 * helpers for the examples
 */
vec4 encodeRE8(float _r)
{
\tfloat exponent = ceil(log2(_r) );
\treturn vec4(_r / exp2(exponent), 0.0, 0.0, (exponent + 128.0) / 255.0);
}

uniform vec4 u_params;
"""
    report = classify("examples/common/shaderlib.sh", source)
    assert report.language == "bgfx Shader"
    assert report.layers[Layer.KERNEL] == report.code_lines


def test_shell_scripts_and_scala_scripts_keep_their_languages() -> None:
    script = b"""\
#!/bin/sh
# build every shader of the examples
for f in *.sc; do
  shaderc -f "$f" -o "bin/${f%.sc}.bin" --type vertex
done
"""
    report = classify("scripts/build_shaders.sh", script)
    assert report.language == "Shell"
    assert _non_portable(report) == 0
    scala = b"""\
// a Scala build script
@main def run(): Unit =
  val xs = List(1, 2, 3)
  println(xs.map(_ * 2))
"""
    assert classify("project/build.sc", scala).language == "Scala"


def test_bx_cpu_simd_with_two_operands_is_not_metal_device_code() -> None:
    # examples/14-shadowvolumes/shadowvolumes.cpp: bx's SIMD on the CPU, two operands a call.
    source = b"""\
#include <bx/simd_t.h>
void sideEdges(const float* light, float* out, int count)
{
\tusing namespace bx;
\tconst simd128_t lx = simd_splat<simd128_t>(light[0]);
\tfor (int ii = 0; ii < count; ii += 2)
\t{
\t\tconst simd128_t mask = simd_cmpgt(lx, simd_zero<simd128_t>() );
\t\tconst simd128_t tmp0 = simd_and(mask, lx);
\t\tconst simd128_t tmp1 = simd_xor(tmp0, mask);
\t\tsimd_st(out + ii, tmp1);
\t}
}
"""
    report = classify("examples/14-shadowvolumes/shadowvolumes.cpp", source)
    assert report.language == "C++"
    assert _non_portable(report) == 0


def test_metal_simd_group_reduction_in_a_header_is_still_device_code() -> None:
    source = b"""\
template <typename T>
METAL_FUNC T warp_and(T v) {
  return simd_and(v);
}
"""
    report = classify("kernels/reduce.h", source)
    assert "metal.device-body" in _rules(report)
    assert report.layers[Layer.KERNEL] == 4


# -- vulkano-rs/vulkano: render shaders inline in the shader! macro --------------------------


def test_vulkano_inline_vertex_and_fragment_shaders_are_kernel_lines() -> None:
    # examples/triangle/main.rs: a vertex and a fragment shader, each a raw string.
    source = b"""\
use vulkano::{buffer::Buffer, device::Device};

mod vs {
    vulkano_shaders::shader! {
        ty: "vertex",
        src: r"
            #version 450
            layout(location = 0) in vec2 position;
            void main() {
                gl_Position = vec4(position, 0.0, 1.0);
            }
        ",
    }
}

mod fs {
    vulkano_shaders::shader! {
        ty: "fragment",
        src: r"
            #version 450
            layout(location = 0) out vec4 f_color;
            void main() {
                f_color = vec4(1.0, 0.0, 0.0, 1.0);
            }
        ",
    }
}

fn main() {
    let n = 3;
    println!("{n}");
}
"""
    report = classify("examples/triangle/main.rs", source)
    assert report.language == "Rust"
    assert report.layers[Layer.KERNEL] == 14  # the two raw strings, src: to closing quote
    assert "vulkan.glsl-string" in _rules(report)
    # The grouped import is Vulkan host code.
    assert "vulkan.rust-bindings" in _rules(report)


def test_opengl_shader_split_in_adjacent_c_strings_counts_whole() -> None:
    source = b"""\
static const char* kFragment =
    "#version 330 core\\n"
    "out vec4 color;\\n"
    "uniform vec4 tint;\\n"
    "void main() { color = tint; }\\n";

int shaderCount() { return 1; }
"""
    report = classify("src/gl/shaders.cpp", source)
    assert report.layers[Layer.KERNEL] == 4
    assert report.ecosystems == {"vulkan": 4}


def test_a_string_mentioning_version_450_is_no_shader() -> None:
    source = b"""\
const NOTE: &str = "the shaders need GLSL #version 450 or newer";
fn main() { println!("{NOTE}"); }
"""
    assert _non_portable(classify("src/main.rs", source)) == 0


# -- supranational/sppark and filecoin-project/ec-gpu: nvcc and hipcc driven from Rust and Go --


def test_sppark_rust_build_script_running_nvcc_or_hipcc_is_vendor_build() -> None:
    # rust/src/build.rs: a cc::Build in CUDA mode with -gencode flags, or hipcc for ROCm.
    source = b"""\
use std::env;

pub fn cuda_build(nvcc: &mut cc::Build) {
    nvcc.cuda(true);
    nvcc.flag("-gencode").flag("arch=compute_80,code=sm_80");
    nvcc.flag("-Xcompiler").flag("-Wno-unused-function");
}

pub fn rocm_build(hipcc: &mut cc::Build) {
    hipcc.compiler(env::var("HIPCC").unwrap_or("hipcc".to_string()));
    hipcc.flag("--offload-arch=gfx942,gfx90a");
}

pub fn target() -> String {
    env::var("DEP_SPPARK_TARGET").unwrap_or_default()
}
"""
    report = classify("rust/src/build.rs", source)
    assert report.layers[Layer.KERNEL] == 0
    assert set(report.ecosystems) == {"cuda", "hip"}
    assert report.ecosystems["cuda"] == 2  # .cuda(true) and the -gencode line
    assert report.ecosystems["hip"] == 2
    assert report.layers[Layer.VENDOR_PATH] == 4


def test_sppark_go_loader_building_with_nvcc_is_vendor_build() -> None:
    # go/sppark.go: the loader compiles the CUDA sources when the library is stale.
    source = b"""\
package sppark

import "os"

func compiler() string {
    nvcc, ok := os.LookupEnv("NVCC")
    if !ok {
        nvcc = "nvcc"
    }
    return nvcc
}

func flags() []string {
    return []string{"-O2", "-fPIC"}
}
"""
    report = classify("go/sppark.go", source)
    assert report.language == "Go"
    assert report.ecosystems == {"cuda": 2}


def test_ec_gpu_fatbin_build_in_rust_is_nvidia_only() -> None:
    # ec-gpu-gen/src/source.rs: the kernel source is written out and compiled by nvcc.
    source = b"""\
use std::process::Command;

fn compile_fatbin(source: &str, out: &str) -> bool {
    let mut nvcc = Command::new("nvcc");
    nvcc.arg("--fatbin")
        .arg("--gpu-architecture=sm_86")
        .arg("--generate-code=arch=compute_80,code=sm_80");
    nvcc.arg("--output-file").arg(out).arg(source);
    nvcc.status().map(|s| s.success()).unwrap_or(false)
}
"""
    report = classify("ec-gpu-gen/src/source.rs", source)
    assert _rules(report) == {"build.nvcc-invocation"}
    assert {rule(f.rule).vendors for f in report.findings} == {frozenset({"nvidia"})}
    assert report.layers[Layer.KERNEL] == 0


def test_a_rust_build_script_without_a_gpu_compiler_stays_portable() -> None:
    source = b"""\
fn main() {
    let mut cc = cc::Build::new();
    cc.flag_if_supported("-mno-avx").opt_level(2);
    cc.file("src/lib.c").compile("blst");
    println!("cargo:rerun-if-env-changed=CC");
}
"""
    assert _non_portable(classify("build.rs", source)) == 0


# -- tracel-ai/burn: back ends on cubecl's CUDA and HIP runtimes, NVML metrics --------------


def test_burn_rocm_backend_on_cubecl_hip_runtime_is_amd() -> None:
    # crates/burn-rocm/src/lib.rs
    source = b"""\
use burn_cubecl::CubeBackend;

pub use cubecl::hip::AmdDevice as RocmDevice;

use cubecl::hip::HipRuntime;

pub type Rocm = CubeBackend<HipRuntime>;
"""
    report = classify("crates/burn-rocm/src/lib.rs", source)
    assert set(report.ecosystems) == {"hip"}
    assert report.layers[Layer.VENDOR_PATH] == 3


def test_burn_cuda_metric_reading_nvml_is_nvidia() -> None:
    # crates/burn-train/src/metric/cuda.rs
    source = b"""\
use nvml_wrapper::Nvml;

pub fn gpu_count() -> u32 {
    let nvml = Nvml::init().ok();
    nvml.map(|n| n.device_count().unwrap_or(0)).unwrap_or(0)
}
"""
    report = classify("crates/burn-train/src/metric/cuda.rs", source)
    assert report.ecosystems == {"cuda": 2}


# -- brichard19/BitCrack: a CUDA host class beside its kernel (pinned as read) ---------------


def test_bitcrack_host_class_and_kernel_in_one_cu_file() -> None:
    # CudaKeySearchDevice/CudaAtomicList.cu: a device helper, then host code allocating
    # mapped memory through the CUDA runtime.
    source = b"""\
#include <cuda_runtime.h>

static __constant__ void *_LIST_BUF[1];
static __constant__ unsigned int *_LIST_SIZE[1];

__device__ void atomicListAdd(void *info, unsigned int size)
{
    unsigned int count = atomicAdd(_LIST_SIZE[0], 1);
    unsigned char *ptr = (unsigned char *)(_LIST_BUF[0]) + count * size;
    memcpy(ptr, info, size);
}

int listInit(void **host, unsigned int bytes)
{
    int ok = 1;
    if(cudaHostAlloc(host, bytes, cudaHostAllocMapped) != cudaSuccess) {
        ok = 0;
    }
    return ok;
}
"""
    report = classify("CudaKeySearchDevice/CudaAtomicList.cu", source)
    assert report.layers[Layer.KERNEL] == 8  # the two __constant__ lines and the helper
    assert report.layers[Layer.VENDOR_PATH] >= 2


# -- inducer/pyopencl: its own ElementwiseKernel and ReductionKernel take OpenCL C -----------


def test_pyopencl_elementwise_and_reduction_snippets_are_opencl_kernels() -> None:
    # examples/demo_elementwise.py and pyopencl/reduction.py: the operation, map and reduce
    # expressions are OpenCL C pasted into a generated __kernel.
    source = b"""\
import numpy as np
import pyopencl as cl
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel

ctx = cl.create_some_context()
lin_comb = ElementwiseKernel(ctx,
    "float k1, float *a, float k2, float *b, float *res",
    "res[i] = k1 * a[i] + k2 * b[i]",
    "lin_comb")
dot = ReductionKernel(ctx, np.float32, neutral="0",
    reduce_expr="a+b", map_expr="x[i]*y[i]",
    arguments="__global float *x, __global float *y")
"""
    report = classify("examples/demo_elementwise.py", source)
    # The context the kernels are built for is PyOpenCL host code (opencl.pyopencl-host).
    assert _rules(report) == {"opencl.pyopencl-kernel", "opencl.pyopencl-host"}
    assert set(report.ecosystems) == {"opencl"}  # OpenCL C, not CuPy's CUDA C
    assert report.layers[Layer.KERNEL] == 6
    assert report.layers[Layer.VENDOR_PATH] == 1


def test_cupy_elementwise_kernel_stays_cuda() -> None:
    source = b"""\
import cupy as cp
double = cp.ElementwiseKernel("float32 x", "float32 y", "y = x * 2", "double")
"""
    report = classify("ops.py", source)
    assert "cupy.raw-kernel" in _rules(report)
    assert "opencl.pyopencl-kernel" not in _rules(report)
    assert rule("cupy.raw-kernel").vendors == {"nvidia"}


def test_pyopencl_scan_template_in_cluda_macros_is_opencl_kernel_code() -> None:
    # pyopencl/scan.py: a mako template written with CLUDA's macros (KERNEL, GLOBAL_MEM,
    # LOCAL_MEM, LID_0) that _cluda.py maps onto OpenCL C.
    source = b'''\
import pyopencl as cl

UPDATE_SOURCE = r"""//CL//
KERNEL
void ${name_prefix}_final_update(
    GLOBAL_MEM scan_type *output,
    GLOBAL_MEM scan_type *interval_results)
{
    LOCAL_MEM scan_type carry[WG_SIZE];
    carry[LID_0] = interval_results[GID_0];
    local_barrier();
    output[GID_0] += carry[LID_0];
}
"""

RESERVED = {"LID_0", "GID_0", "GLOBAL_MEM", "LOCAL_MEM"}
'''
    report = classify("pyopencl/scan.py", source)
    assert _rules(report) == {"opencl.cluda-string"}
    assert report.layers[Layer.KERNEL] == 12  # the template, not the reserved names


def test_pyopencl_device_header_in_a_cl_folder_is_opencl() -> None:
    # pyopencl/cl/pyopencl-complex.h: complex arithmetic for kernels, beside the .cl files.
    source = b"""\
#pragma once
#define PYOPENCL_DECLARE_COMPLEX_TYPE_INT(REAL_TP, TPROOT, TP) \\
  inline REAL_TP TPROOT##_real(TP a) { return a.real; } \\
  inline REAL_TP TPROOT##_abs(TP a) { return hypot(a.real, a.imag); }
PYOPENCL_DECLARE_COMPLEX_TYPE_INT(float, cfloat, cfloat_t)
"""
    report = classify("pyopencl/cl/pyopencl-complex.h", source)
    assert report.language == "OpenCL"
    assert report.layers[Layer.KERNEL] == report.code_lines == 5


def test_host_header_in_a_cl_folder_stays_c() -> None:
    # xmrig/xmrig src/backend/opencl/cl/OclSource.h: host code naming the embedded sources.
    source = b"""\
#pragma once
namespace xmrig {
class OclSource {
public:
    static const char *get(int algorithm);
};
}
"""
    assert classify("src/backend/opencl/cl/OclSource.h", source).language == "C Header"


def test_compiled_gpu_binary_kept_as_hex_in_a_cl_folder_is_no_opencl_source() -> None:
    # xmrig/xmrig src/backend/opencl/cl/rx/randomx_run_gfx803.h: bin2h output of AMD code.
    source = b"""\
/* generated: clrxasm randomx_run_gfx803.asm, then bin2h */
static unsigned char randomx_run_gfx803_bin[]={
0x7f,0x45,0x4c,0x46,0x02,0x01,0x01,0x00,0x00,0x00
,0x00,0x00,0x00,0x00,0x00,0x00,0xe8,0x17,0x00,0x00
};
"""
    report = classify("src/backend/opencl/cl/rx/randomx_run_gfx803.h", source)
    assert report.language == "C Header"
    assert report.layers[Layer.KERNEL] == 0
