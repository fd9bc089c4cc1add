"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-g).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 378-385: b1tg/tinygrad, pymc-devs/pytensor, dinhln03/LLAMA3_for_coding,
tapchonk/cuDNNGCN, deepkolos/shader-graph-wgsl, jjwang1118/hashcat_password_structure_analysis
and UoB-HPC/SimEng. One was skipped: ladroguecmal/Fluidisim (no snapshot). Fifteen files of
each repository (all eight of LLAMA3_for_coding) were sampled with ``random.Random("owner/name")``
over every file lockin counts, and labelled before any fix, with the files lockin calls
non-portable (up to twenty) and GPU-looking files it calls portable (up to ten); up to three
commits touching GPU code per repository were drawn with ``random.Random("owner/name:commits")``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- deepkolos/shader-graph-wgsl: a shader-graph editor whose nodes emit WGSL ------------------


def test_shader_graph_node_helper_function_is_wgsl_kernel_code() -> None:
    # src/components/math/wave/NoiseSineWaveRC.ts: the node's compiler hands the shader a
    # helper function written in WGSL, named when the graph is compiled. Before, the 28 node
    # files holding such helpers were portable: only entry points and bindings were WGSL.
    source = b"""\
export class NoiseWave extends RC {
  compileSG(compiler: Compiler, node: Node): Output {
    const out = compiler.outVar(node, 'out');
    const kind = compiler.typeClass(node.data.outType);
    const helper = (name: string) => /* wgsl */ `
fn ${name}(x: ${kind}, range: vec2<f32>) -> ${kind} {
  let s = sin(x);
  let r = fract(sin(s * 12.9898) * 43758.5453);
  return s + mix(range.x, range.y, r);
}`;
    const fnName = compiler.define(node, helper);
    return { outputs: { out }, code: `let ${out} = ${fnName}(x, range);` };
  }
}
"""
    assert _rules("src/components/math/wave/NoiseWave.ts", source) == {"wgsl.source-string"}
    assert _layers("src/components/math/wave/NoiseWave.ts", source) == {
        "kernel": 6,
        "portable": 8,
    }


def test_shader_graph_helper_named_after_the_node_is_kernel_code() -> None:
    # src/components/utility/PreviewNumberRC.ts: the helper's name is the node's variable and a
    # suffix, `fn ${varName}_PrintValue(...)`.
    source = b"""\
const printer = (varName: string) => /* wgsl */ `
fn ${varName}_Print(coords: vec2f, value: f32) -> f32 {
  if (coords.y < 0.0) { return 0.0; }
  return floor(value);
}`;
"""
    assert _layers("src/components/utility/PreviewNumber.ts", source) == {"kernel": 5}


def test_shader_graph_template_signature_over_lines_is_kernel_code() -> None:
    # src/templates/Lit.ts: the surface function the graph's body is spliced into, its
    # parameters pointers to WGSL vectors, one a line. Before, only the entry points below it
    # counted (28 of the file's 43 shader lines).
    source = b"""\
export const LitTemplate = {
  frag: (body: string) => /* wgsl */ `fn sg_frag(
  baseColor: ptr<function, vec3<f32>>,
  metallic: ptr<function, f32>,
  v: Varying
) {
${body}
}`,
};
"""
    assert _layers("src/templates/Lit.ts", source) == {"kernel": 7, "portable": 2}


def test_shader_graph_type_table_and_one_line_fragments_stay_portable() -> None:
    # src/compilers/ShaderGraphCompiler.ts and src/components/channel/FlipRC.ts: the WGSL names
    # of the graph's value types, and a one-statement fragment with no WGSL-only spelling, are
    # no shader function (checked right).
    source = b"""\
export function typeClass(t: ValueType): string {
  switch (t) {
    case ValueType.float: return 'f32';
    case ValueType.vec2: return 'vec2<f32>';
    case ValueType.mat4: return 'mat4x4<f32>';
  }
  return `let ${out} = (${flip} * -2.0 + 1.0) * ${inp};`;
}
"""
    assert _layers("src/compilers/types.ts", source) == {"portable": 8}


def test_rust_function_in_a_string_is_not_wgsl() -> None:
    # The negative the new signature keeps out: Rust kept in a string (a macro's test input)
    # spells `fn` with scalar types, never WGSL's vectors.
    source = b"""\
#[test]
fn expands() {
    let input = "fn scale(x: f32, k: f32) -> f32 { x * k }";
    assert!(expand(input).contains("scale"));
}
"""
    assert _layers("tests/expand.rs", source) == {"portable": 5}


# -- b1tg/tinygrad: a tinygrad fork (its AMD driver, autogen bindings and examples) ------------


def test_tinygrad_generated_register_names_are_no_rocm_variables() -> None:
    # tinygrad/runtime/autogen/amd_gpu.py: the export list of the bindings generated from AMD's
    # register headers holds a header guard spelled HSA_..._H_. Before, that one string made
    # the 84,636-line table vendor-path; in autogen/hsa.py the enum tables of HSA_STATUS_*,
    # HSA_AGENT_* ... names gave 976 of its 1,221 vendor-path lines.
    source = b"""\
hsa_status_t__enumvalues = {
    0: 'HSA_STATUS_SUCCESS',
    4096: 'HSA_STATUS_ERROR',
}
__all__ = [
    'HPO_TOP_TEST_CLOCK_RESERVED',
    'HSA_RUNTIME_CORE_INC_SDMA_REGISTERS_H_', 'HS_GS',
    'HSA_AMD_SEGMENT_GLOBAL', 'HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT',
]
"""
    assert _layers("tinygrad/runtime/autogen/amd_gpu.py", source) == {"portable": 9}


def test_tinygrad_rocm_variable_set_by_a_script_stays_vendor_path() -> None:
    # The negative: a script tuning the ROCm runtime before it starts (checked right).
    source = b"""\
import os
os.environ["HSA_ENABLE_SDMA"] = "0"
os.environ.setdefault("HSA_NO_SCRATCH_RECLAIM", "1")
"""
    assert _rules("extra/amd_bench.py", source) == {"env.hip-variables-python"}
    assert _layers("extra/amd_bench.py", source) == {"vendor-path": 2, "portable": 1}


def test_tinygrad_rdna_assembler_targeting_gfx1100_is_amd_only() -> None:
    # extra/assembly/assembly_rdna.py: the RDNA3 back end assembles what it emits with llvm-mc
    # for the AMD GPU it names, and links the code object. Before, portable (found apart: a
    # GPU-looking file outside the samples).
    source = b"""\
def assemble(code):
  obj = run([LLVM / "llvm-mc", '--arch=amdgcn', '--mcpu=gfx1100', '--triple=amdgcn-amd-amdhsa',
             '--filetype=obj', '-'], code.encode())
  return run([LLVM / "ld.lld", "/dev/stdin", "-o", "/dev/stdout", "--pie"], obj)
"""
    assert _rules("extra/assembly/assembly_rdna.py", source) == {"build.hipcc-python"}
    assert _layers("extra/assembly/assembly_rdna.py", source) == {
        "vendor-path": 1,
        "portable": 3,
    }


def test_tinygrad_llc_for_the_amd_triple_is_amd_only() -> None:
    # tinygrad/runtime/support/compiler_hip.py: LLVM IR compiled by llc for the AMD triple and
    # the GPU the device reports.
    source = b"""\
def compile_ll(src, arch):
  args = ["-mtriple=amdgcn-amd-amdhsa", f"-mcpu={arch}", "-O3", "-filetype=obj", "-", "-o", "-"]
  return subprocess.check_output(["llc"] + args, input=src)
"""
    assert _layers("tinygrad/runtime/support/compiler_llc.py", source) == {
        "vendor-path": 1,
        "portable": 2,
    }


def test_tinygrad_rdna_renderer_writing_instructions_as_text_is_amd_only() -> None:
    # extra/backends/rdna.py: the RDNA back end renders each UOp as a line of AMD assembly.
    # Before, the 107-line renderer was portable (found apart, outside the samples).
    source = b"""\
def uops_to_rdna(uops):
  ins = []
  for u in uops:
    if u.uop == UOps.CONST:
      ins.append(f"v_mov_b32 {r[u]}, {u.arg}")
    elif u.uop == UOps.LOAD:
      ins.append(f"global_load_b32 {r[u]}, {r[u.vin[1]]}, {r[u.vin[0]]}")
  ins.append("s_endpgm")
  return "\\n".join(ins)
"""
    assert _rules("extra/backends/rdna.py", source) == {"hip.isa-string-python"}
    assert _layers("extra/backends/rdna.py", source) == {"vendor-path": 3, "portable": 6}


def test_register_names_in_a_log_line_are_not_amd_instructions() -> None:
    # The negative: s_ and v_ names Python code prints, with no ISA type suffix.
    source = b"""\
print(f"v_max {value}, s_count {n}")
log.info("s_total %d", total)
"""
    assert _layers("train.py", source) == {"portable": 2}
