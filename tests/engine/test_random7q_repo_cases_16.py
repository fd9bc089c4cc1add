"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-q).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 458-465. One could not be read: rego093-sketch/jamming-physics (no snapshot). Fifteen
files of each remaining repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts with code lines, and labelled before any fix, with the files lockin calls
non-portable and GPU-looking files it calls portable; three commits touching GPU code were drawn
with ``random.Random("owner/name:commits")`` and their gate verdicts judged from the diff. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- narcotic-sh/parakeet.wgsl: a speech model on raw WebGPU, shaders built from pieces -------


def test_parakeet_wgsl_statement_fragments_are_kernel_code() -> None:
    # src/webgpu/kernels/tdt-decoder.ts: the host builds the decoder's shader from literals of
    # WGSL statements (accumulator declarations, fma over typed vectors, a barrier and a
    # reduction loop) that hold no entry point. Before, 518 such lines of the file were portable.
    source = b"""\
function declarations(prefix: string, slot: number): string {
  return `      var ${prefix}${slot} = vec4<f16>(read_bias(${slot}u));
      var ${prefix}${slot}_odd = vec4<f16>(0.0);`;
}

function reduction(): string {
  return `  partial[lane] = best;
  workgroupBarrier();
  if (lane < 8u) {
    for (var member = 1u; member < 32u; member += 1u) {
      best = max(best, partial[lane * 32u + member]);
    }
  }`;
}
"""
    assert _rules("src/webgpu/kernels/decoder.ts", source) == {"wgsl.source-string"}
    assert _layers("src/webgpu/kernels/decoder.ts", source) == {"kernel": 9, "portable": 4}


def test_parakeet_wgsl_entry_parameters_patched_by_the_host() -> None:
    # tdt-decoder.ts again: the portable variant replaces the entry point's builtin parameters.
    source = b"""\
result = result.replace(
  `  @builtin(local_invocation_index) lane: u32,
  @builtin(subgroup_invocation_id) sub_lane: u32,`,
  `  @builtin(local_invocation_index) lane: u32,`,
);
"""
    assert _layers("src/webgpu/kernels/patch.ts", source) == {"kernel": 2, "portable": 3}


def test_parakeet_wgsl_test_expectations_on_the_shader_stay_portable() -> None:
    # test/webgpu/gemm-portable.test.ts (sampled, portable): one-line expectations that the
    # generated shader holds a statement are a test of WebGPU host code, not a shader.
    source = b"""\
it("accumulates in half precision", () => {
  const source = buildGemm({ precision: "f16" });
  expect(source).toContain("var acc0 = vec4<f16>(0.0h);");
  expect(source).toContain("acc0 = fma(vec4<f16>(f16(a0[0])), b, acc0);");
  expect(source).toContain("for (var k = 0u; k < K; k += 4u)");
});
"""
    assert _layers("test/webgpu/gemm-portable.test.ts", source) == {"portable": 6}


def test_parakeet_wgsl_webgpu_host_code_is_portable() -> None:
    # src/runtime/webgpu-engine.ts (sampled): device, buffers and pipelines through WebGPU.
    source = b"""\
const adapter = await navigator.gpu.requestAdapter();
const device = await adapter!.requestDevice();
const module = device.createShaderModule({ code: buildGemm(shape) });
const pipeline = device.createComputePipeline({ layout: "auto", compute: { module } });
"""
    assert _layers("src/runtime/webgpu-engine.ts", source) == {"portable": 4}
