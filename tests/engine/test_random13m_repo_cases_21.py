"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-m).

The pool is ``/work/pool-h47.txt``, shuffled with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 357-363. Three were skipped because no snapshot can be had:
1994/inference.rs, yjagger-w/resnet18-silu-quantized-inference-benchmark and
rvaquette/GLSL-PathTracer-scenes. Four were read: TakuTsuzuki/lbmflow (a lattice-Boltzmann
CFD core in Rust with a wgpu back end whose WGSL is generated statement by statement),
zoubaax/gemma-hackathon (agent skills: Python, R and shell for bioinformatics),
project-gemmi/gemmi (a C++ crystallography library with Python bindings) and
coder-2011/jax-kb (a crawled copy of JAX's HTML documentation). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- TakuTsuzuki/lbmflow: a WGSL module appended to a String a statement at a time ----------


def test_rust_generic_generator_appending_wgsl_statements_is_kernel_code() -> None:
    # crates/lbm-core/src/gpu/wgsl.rs: `generate_with_storage<L: Lattice>` builds the shader
    # with `s += "...\n";` and `let _ = writeln!(s, ...)`; lockin saw only the literals that
    # carry an attribute (24 kernel lines of ~830), since the plain body lines hold none and a
    # generic `fn name<L: ...>(` was not read as a function.
    source = b"""\
use std::fmt::Write;

pub(crate) fn build_module<K: Layout>(width: u32) -> String {
    let mut s = String::with_capacity(4096);
    s += "struct Dims {\\n";
    s += "    n: u32,\\n";
    s += "}\\n\\n";
    s += "@group(0) @binding(0) var<uniform> D: Dims;\\n";
    let _ = writeln!(
        s,
        "@compute @workgroup_size({width}, 1, 1)"
    );
    s += "fn scale(@builtin(global_invocation_id) g: vec3<u32>) {\\n";
    s += "    if (g.x >= D.n) { return; }\\n";
    s.push_str("    buf[g.x] = buf[g.x] * 0.5;\\n");
    s += "}\\n";
    s
}
"""
    assert _rules("src/gpu/wgsl.rs", source) == {"wgsl.source-string", "wgsl.streamed-source"}
    assert _layers("src/gpu/wgsl.rs", source) == {"kernel": 12, "portable": 5}


def test_rust_helper_appending_to_a_borrowed_string_counts_its_statements() -> None:
    # crates/lbm-core/src/gpu/wgsl.rs: `emit_step_entry(s: &mut String, ...)` writes one entry
    # point into the caller's string through `*s +=` and `writeln!(s, ...)`.
    source = b"""\
fn emit_entry(s: &mut String, name: &str) {
    let _ = writeln!(s, "@compute @workgroup_size(64, 1, 1)");
    let _ = writeln!(s, "fn {name}(@builtin(global_invocation_id) g: vec3<u32>) {{");
    *s += "    let i = g.x;\\n";
    *s += "    out[i] = inp[i];\\n";
    *s += "}\\n";
}
"""
    assert _layers("src/gpu/emit.rs", source) == {"kernel": 5, "portable": 2}


def test_rust_string_building_without_wgsl_stays_portable() -> None:
    # crates/lbm-cli/src/validate.rs: reports are built the same way and hold no shader.
    source = b"""\
fn summary<T: std::fmt::Display>(name: T, cells: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "case {name}: {cells} cells");
    s += "status: ok\\n";
    s.push_str("see the log for details\\n");
    s
}
"""
    assert _layers("src/validate.rs", source) == {"portable": 7}


def test_cpp_string_appends_of_wgsl_count_like_streamed_pieces() -> None:
    # The same construct in C++: `code += "..."` building a WGSL module (the form
    # wgsl.streamed-source reads in C and C++ too).
    source = b"""\
std::string make_shader(int n) {
  std::string code;
  code += "@group(0) @binding(0) var<storage, read_write> v: array<f32>;\\n";
  code += "@compute @workgroup_size(64)\\n";
  code += "fn main(@builtin(global_invocation_id) g: vec3<u32>) {\\n";
  code += "  v[g.x] = f32(" + std::to_string(n) + ");\\n";
  code += "}\\n";
  return code;
}
"""
    assert _layers("src/shader_gen.cpp", source) == {"kernel": 5, "portable": 4}


# -- verdicts that were already right ------------------------------------------------------


def test_wgpu_host_test_behind_a_feature_stays_portable() -> None:
    # crates/lbm-core/tests/run_guarded.rs: a wgpu solver driven from a test behind the
    # crate's `gpu` feature is cross-vendor host code.
    source = b"""\
#[cfg(feature = "gpu")]
mod gpu {
    use std::sync::{Arc, OnceLock};
    fn ctx() -> Arc<Context> {
        static CTX: OnceLock<Arc<Context>> = OnceLock::new();
        CTX.get_or_init(|| Context::new().expect("needs an adapter")).clone()
    }
}
"""
    assert _layers("tests/run_guarded.rs", source) == {"portable": 8}


def test_nvcc_warning_suppression_is_a_vendor_path_branch() -> None:
    # include/gemmi/iterator.hpp (project-gemmi/gemmi): a diagnostic pushed only for NVIDIA's
    # compilers is a vendor-specific build path (cuda.build-guard), as before.
    source = b"""\
#if defined(__INTEL_COMPILER)
  #pragma warning push
#elif defined(__NVCC__)
  #pragma nv_diagnostic push
  #pragma nv_diag_suppress = some_warning
#endif
int twice(int x) { return 2 * x; }
"""
    assert "cuda.build-guard" in _rules("include/lib/iterator.hpp", source)
    assert _layers("include/lib/iterator.hpp", source)["vendor-path"] >= 2


def test_torch_device_string_in_a_training_script_is_vendor_path() -> None:
    # .agents/skills/.../Fine_tuning/full_model_training_24-03-12.py (zoubaax/gemma-hackathon):
    # a script pinned to the second CUDA device.
    source = b"""\
import torch

model = build()
device = torch.device("cuda:1")
model.to(device)
"""
    assert _rules("train.py", source) == {"torch.device-string"}
    assert _layers("train.py", source) == {"vendor-path": 1, "portable": 3}
