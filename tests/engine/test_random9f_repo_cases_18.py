"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-f).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 594-601 and every one had a snapshot, so none was skipped: mstallmo/tensorrt-rs,
Yihao-Shi/GeoTaichi, crim50n/Stable-Diffusion-Android, michael-haufschild-gib/mquantum,
helblazer811/Diffusion-Explorer, D3DEnergetic/FIDASIM, yeliu0218/Non-Newtonian-Fluid-Solver and
bizarc/cfdl. Fifteen files of each were sampled with ``random.Random("owner/name")`` over every
file lockin counts with code lines, and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10); three commits
touching GPU code per repository, drawn with ``random.Random("owner/name:commits")``, were
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- mstallmo/tensorrt-rs: Rust bindings of TensorRT, a C facade over nvinfer1 and two crates --


def test_tensorrt_rs_sys_crate_binding_is_vendor_library() -> None:
    # tensorrt/src/builder/mod.rs (and engine.rs, runtime.rs, uff.rs, onnx.rs): the safe
    # wrapper imports the sys crate's FFI functions and holds its raw TensorRT pointers. Before,
    # every Rust file of the crate was portable.
    source = b"""\
use std::marker::PhantomData;
use tensorrt_sys::{
    create_infer_builder, destroy_builder, builder_set_max_workspace_size,
};

pub struct Builder<'a> {
    pub(crate) raw: *mut tensorrt_sys::nvinfer1_IBuilder,
    pub(crate) logger: PhantomData<&'a ()>,
}

impl<'a> Builder<'a> {
    pub fn set_workspace(&self, bytes: usize) {
        unsafe { builder_set_max_workspace_size(self.raw, bytes) }
    }
}
"""
    path = "tensorrt/src/builder/mod.rs"
    assert _rules(path, source) == {"tensorrt.api"}
    # The import's first line, and the struct's fields through its brace (Rust statements
    # end there).
    assert _layers(path, source) == {"vendor-library": 4, "portable": 9}


def test_tensorrt_rs_example_using_the_wrapper_is_vendor_library() -> None:
    # tensorrt/examples/basic/main.rs: an example builds an engine through the wrapper crate.
    source = b"""\
use std::path::Path;
use tensorrt_rs::builder::{Builder, NetworkBuildFlags};
use tensorrt_rs::runtime::Logger;

fn main() {
    let logger = Logger::new();
    let builder = Builder::new(&logger);
    let network = builder.create_network_v2(NetworkBuildFlags::DEFAULT);
    let engine = builder.build_cuda_engine(&network);
    println!("{}", engine.get_nb_bindings());
}
"""
    path = "tensorrt/examples/basic/main.rs"
    assert _rules(path, source) == {"tensorrt.api"}
    assert _layers(path, source) == {"vendor-library": 2, "portable": 8}


def test_tensorrt_rs_derive_macro_quoting_sys_types_is_vendor_library() -> None:
    # tensorrt_rs_derive/src/lib.rs: the derive writes impls that cast to the sys crate's layer
    # type.
    source = b"""\
use proc_macro::TokenStream;
use quote::quote;

fn impl_layer(name: &syn::Ident) -> TokenStream {
    let gen = quote! {
        impl LayerPrivate for #name {
            fn raw(&self) -> *mut tensorrt_sys::nvinfer1_ILayer {
                self.raw as *mut tensorrt_sys::nvinfer1_ILayer
            }
        }
    };
    gen.into()
}
"""
    assert _rules("tensorrt_rs_derive/src/lib.rs", source) == {"tensorrt.api"}


def test_tensorrt_rs_facade_header_of_plain_c_declarations_stays_portable() -> None:
    # tensorrt-sys/trt-sys/TRTLogger/TRTLogger.h: the C facade's own opaque types and
    # functions, no TensorRT name of its own (checked right before the fix, kept right).
    source = b"""\
#ifdef __cplusplus
extern "C" {
#endif
struct Logger;
typedef struct Logger Logger_t;
void get_tensorrt_version(char* string);
Logger_t* create_logger(const int severity);
void delete_logger(Logger_t* logger);
#ifdef __cplusplus
};
#endif
"""
    assert _layers("trt-sys/TRTLogger/TRTLogger.h", source) == {"portable": 11}


def test_tensorrt_rs_build_script_linking_through_rustc_flags_is_vendor_path() -> None:
    # tensorrt-sys/build.rs before its feature flags: Cargo's older `rustc-flags` directive
    # links TensorRT and the CUDA runtime. Before, only `rustc-link-lib` was read, so the
    # commit moving these lines under a cfg block counted none of them.
    source = b"""\
fn main() {
    println!("cargo:rustc-link-lib=static=trt-sys");
    println!("cargo:rustc-flags=-l dylib=stdc++");
    println!("cargo:rustc-flags=-l dylib=nvinfer");
    println!("cargo:rustc-flags=-l dylib=nvparsers");
    println!("cargo:rustc-flags=-L /usr/local/cuda/lib64");
    println!("cargo:rustc-flags=-l dylib=cudart");
}
"""
    path = "tensorrt-sys/build.rs"
    assert _rules(path, source) == {"build.rust-cuda-link"}
    assert _layers(path, source) == {"vendor-path": 4, "portable": 4}


# -- michael-haufschild-gib/mquantum: a WebGPU quantum visualiser, WGSL kept in TS modules ----


def test_mquantum_uniform_struct_tagged_wgsl_is_kernel_code() -> None:
    # src/rendering/webgpu/shaders/schroedinger/compute/pauliUniforms.wgsl.ts: the uniform
    # struct every Pauli compute shader binds, alone in a /* wgsl */ literal. Before, portable:
    # no entry point, binding or vector-typed signature in it.
    source = b"""\
/** Uniforms of the spinor compute shaders (640 bytes). */
export const spinorUniformsBlock = /* wgsl */ `
struct SpinorUniforms {
  latticeDim: u32,
  gridSize: array<u32, 12>,
  // physics
  dt: f32,
  hbar: f32,
}
`
"""
    path = "src/shaders/compute/spinorUniforms.wgsl.ts"
    assert _rules(path, source) == {"wgsl.tagged-string"}
    # The literal from its opening line to its closing backtick, less its comment.
    assert _layers(path, source) == {"kernel": 8, "portable": 1}


def test_mquantum_scalar_helper_functions_tagged_wgsl_are_kernel_code() -> None:
    # quantum/laguerre.wgsl.ts, hermite.wgsl.ts: device helpers whose signatures hold only
    # scalars (f32, i32), which the content rule leaves alone since Rust writes the same.
    source = b"""\
export const laguerreBlock = /* wgsl */ `
fn laguerre(n: i32, alpha: f32, x: f32) -> f32 {
  var prev = 1.0;
  var cur = 1.0 + alpha - x;
  for (var k = 1; k < n; k++) {
    let next = ((2.0 * f32(k) + 1.0 + alpha - x) * cur - (f32(k) + alpha) * prev) / f32(k + 1);
    prev = cur;
    cur = next;
  }
  return cur;
}
`
"""
    path = "src/shaders/quantum/laguerre.wgsl.ts"
    assert _rules(path, source) == {"wgsl.tagged-string"}
    assert _layers(path, source) == {"kernel": 12}


def test_mquantum_colour_branches_tagged_wgsl_count_their_statements() -> None:
    # volume/emission.wgsl.ts: a table of colour algorithms, each the WGSL statements of one
    # branch, joined by the host into the shader. Before, 79 of its ~290 WGSL lines counted.
    source = b"""\
const ALGO_BRANCH: Record<number, string> = {
  0: /* wgsl */ `
    let hue = fract(phase / TAU);
    col = hsl2rgb(hue, 0.75, 0.35);`,
  1: /* wgsl */ `
    // heat
    let temp = normalized * 12000.0;
    col = blackbody(max(temp, 1000.0));`,
}

export function branch(i: number): string {
  return ALGO_BRANCH[i] ?? ALGO_BRANCH[0]
}
"""
    path = "src/shaders/volume/emission.wgsl.ts"
    assert _rules(path, source) == {"wgsl.tagged-string"}
    assert _layers(path, source) == {"kernel": 6, "portable": 6}


def test_mquantum_host_pass_importing_wgsl_blocks_stays_portable() -> None:
    # passes/TDSECurvedIntegrator.ts (checked right before the fix): WebGPU host code that
    # names the shader modules it composes and a workgroup size in a comment.
    source = b"""\
import { tdseUniformsBlock } from '../shaders/compute/tdseUniforms.wgsl'
/** Workgroup size: must match `@workgroup_size` in the curved kernels. */
const WG = 64
export function dispatch(pass: GPUComputePassEncoder, n: number): void {
  pass.dispatchWorkgroups(Math.ceil(n / WG))
}
export const label = `tdse ${tdseUniformsBlock.length}`
"""
    assert _layers("src/passes/TDSECurvedIntegrator.ts", source) == {"portable": 6}


# -- Yihao-Shi/GeoTaichi: Taichi DEM/MPM kernels (checked right before any fix) ---------------


def test_geotaichi_launcher_of_kernels_defined_elsewhere_stays_portable() -> None:
    # src/mpm/engines/Operator.py: host methods calling kernels imported from a *Kernel module.
    source = b"""\
import taichi as ti
from src.mpm.engines.AssembleMatrixKernel import *


@ti.data_oriented
class Operator:
    def multiply(self, x, ax):
        kernel_moment_balance_cg(self.grid_sum, self.total_nodes, x, ax)
"""
    assert _layers("src/mpm/engines/Operator.py", source) == {"portable": 6}
