"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-c).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")`` before anyone
read it; this lane took positions 570-577, all eight with a snapshot: fukushimalab/
cuBLAS_benchmark, wgslx/wgslx, NewbieXvwu/ParticleSaturn, Skytale-Fr/particle-animation-lib,
fluiddynsci/EngSketchPad, taichi-dev/taichi_elements, Qazalin/tinygrad (a tinygrad fork) and
cai4cai/torchsparsegradutils. None was skipped. Fifteen files of each repository (all of them
where fewer) were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, and three commits touching GPU code judged
against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading
that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- fluiddynsci/EngSketchPad: OpenCSM writing OpenVSP scripts line by line -------------------


def test_engsketchpad_openvsp_script_written_a_line_a_call_is_no_glsl() -> None:
    # src/OpenCSM/udpVsp3.c and timVspSetup.c write an OpenVSP (AngelScript) script with one
    # fprintf a line; its entry point is `void main()`, as a GLSL shader's is. Before, the
    # literal holding it alone was a GLSL shader: one kernel line in a portable file.
    source = b"""\
#include <stdio.h>

static int write_script(FILE *fp, const char *name)
{
    fprintf(fp, "void main()\\n");
    fprintf(fp, "{\\n");
    fprintf(fp, "    string vspname = \\"%s\\";\\n", name);
    fprintf(fp, "    ReadVSPFile(vspname);\\n");
    fprintf(fp, "}\\n");
    return 0;
}
"""
    assert _layers("src/OpenCSM/udpVsp3.c", source) == {"portable": 10}


def test_a_glsl_main_among_joined_literals_is_still_a_shader() -> None:
    # The negative: the same literal with the shader's next lines joined to it (one C string,
    # as imgui's OpenGL back end writes them) is the shader's entry point.
    source = b"""\
static const char *frag =
    "void main()\\n"
    "{\\n"
    "    color = vec4(1.0);\\n"
    "}\\n";
"""
    assert _rules("src/gl/frag.c", source) == {"vulkan.glsl-string"}
    assert _layers("src/gl/frag.c", source) == {"kernel": 4, "portable": 1}


# -- Qazalin/tinygrad (a fork): ThunderKittens' warpgroup MMA bodies in .impl files -----------


def test_thunderkittens_impl_fragment_is_cuda_device_code() -> None:
    # extra/thunder/cuda/include/ops/group/mma/warpgroup/base/64x112.impl, one of 16 files
    # base.cuh includes (#include "64x112.impl"): a specialisation whose __device__ member
    # wraps a wgmma in inline PTX. Before, lockin gave .impl no language: 8,823 lines of
    # device code in the fork went uncounted.
    source = b"""\
template<typename D, typename AB>
struct mma_base<D, AB, 64> {
    __device__ static inline void step(float (&acc)[4], const uint32_t (&a)[4], uint64_t desc) {
        asm volatile ("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
                      "{%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, 1, 1, 1;"
                      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
    }
};
"""
    path = "extra/thunder/cuda/include/ops/group/mma/warpgroup/base/64x64.impl"
    layers = _layers(path, source)
    assert layers.get("kernel", 0) >= 6


def test_an_impl_file_of_plain_cpp_templates_is_portable() -> None:
    # The negative: .impl is C++ (template definitions an .h includes), counted as such.
    source = b"""\
template <typename T>
T Stack<T>::pop() {
    T top = items_.back();
    items_.pop_back();
    return top;
}
"""
    assert _layers("src/container/stack.impl", source) == {"portable": 6}


# -- Hard cases checked right ------------------------------------------------------------------


def test_tinygrad_test_skipped_unless_on_one_of_several_vendors_is_portable() -> None:
    # Qazalin/tinygrad test/backend/test_subbuffer.py: the test runs on NVIDIA and AMD
    # back ends alike; naming both picks among vendors.
    source = b"""\
import unittest
from tinygrad import Device, Tensor

class TestSubBuffer(unittest.TestCase):
  @unittest.skipIf(Device.DEFAULT not in {"CUDA", "NV", "AMD"}, "only NV, AMD, CUDA")
  def test_view(self):
    t = Tensor.arange(8).realize()
    self.assertEqual(t[2:4].tolist(), [2, 3])
"""
    assert _layers("test/backend/test_subbuffer.py", source) == {"portable": 7}


def test_wgslx_parser_test_holding_a_vertex_shader_counts_its_wgsl() -> None:
    # wgslx/wgslx tests/syntax.test.ts: the parser's test parses a WGSL vertex shader held in
    # a template literal; the shader's lines are WGSL, the test around them TypeScript.
    source = b"""\
test('vertex declaration', () => {
  const text = `
    @vertex
    fn main(@builtin(vertex_index) i : u32) -> @builtin(position) vec4f {
      var pos = array<vec2f, 3>(vec2(0.0, 0.5), vec2(-0.5, -0.5), vec2(0.5, -0.5));
      return vec4f(pos[i], 0.0, 1.0);
    }
  `;
  const {match} = Context.matchSource(text, 'file', functionDecl);
  expect(match).toBeTruthy();
});
"""
    assert _rules("tests/syntax.test.ts", source) == {"wgsl.source-string"}
    assert _layers("tests/syntax.test.ts", source)["kernel"] >= 4
