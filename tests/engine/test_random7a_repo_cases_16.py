"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-a).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 330-337: tonnac/D3D11, cea-hpc/pcvs-benchmarks, kevinchatham/halide-demo,
intel/RealTimePathTracingResearchFramework, islandox/SimpleFluid, wrld3d/ios-api,
atkurtul/spirv-assembler and leimao/CUTLASS-Examples. None was skipped. Fifteen files of each
were sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled
before any fix, with up to twenty files lockin calls non-portable, up to ten GPU-looking files
it calls portable, and three commits touching GPU code judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine.languages import may_hold_code
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- atkurtul/spirv-assembler: a SPIR-V assembler, with spirv-dis output of Vulkan samples ----

_SPIRV_TEXT = b"""\
; SPIR-V
; Version: 1.0
; Generator: Google Shaderc over Glslang; 10
               OpCapability Shader
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %main "main" %outColor %inUV
               OpExecutionMode %main OriginUpperLeft
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %main = OpFunction %void None %3
          %5 = OpLabel
               OpReturn
               OpFunctionEnd
"""


def test_spirv_assembler_disassembled_shader_under_s_is_kernel_code() -> None:
    # asm/glsl*.frag.s and *.vert.s: one disassembled module per GLSL shader of glsl/. Before,
    # the 281 files were portable Assembly, 4 of the 15 sampled files among them.
    assert _rules("asm/glslpipelinestoon.frag.s", _SPIRV_TEXT) == {"vulkan.spirv-assembly-file"}
    assert _layers("asm/glslpipelinestoon.frag.s", _SPIRV_TEXT) == {"kernel": 11}


def test_spirv_assembler_shader_build_script_is_vulkan_build_code() -> None:
    # glsl/compileshaders.py (Sascha Willems' script): finds glslangvalidator, compiles every
    # stage with -V, ray-tracing stages for a Vulkan 1.2 environment. Before, portable.
    source = b"""\
import os, subprocess

def find_glslang():
    exe_name = "glslangvalidator"
    if os.name == "nt":
        exe_name += ".exe"
    return exe_name

def compile_stage(glslang, src, rt):
    params = " --target-env vulkan1.2" if rt else ""
    subprocess.call("%s -V %s -o %s.spv%s" % (glslang, src, src, params), shell=True)
"""
    assert _rules("glsl/compileshaders.py", source) == {"build.vulkan-python"}
    assert _layers("glsl/compileshaders.py", source) == {"vendor-path": 2, "portable": 7}


def test_script_naming_the_shader_compiler_in_a_message_is_portable() -> None:
    # The negative: a message or a help text names the tool without running it.
    source = b"""\
import sys

HELP = "compile the shaders with glslc or glslangValidator first"
sys.exit("glslangValidator not found: install the Vulkan SDK")
"""
    assert _layers("tools/check_sdk.py", source) == {"portable": 3}


def test_cpu_assembly_naming_spirv_in_a_comment_stays_assembly() -> None:
    # The negative: x86 assembly whose comment names the instruction is no SPIR-V module.
    source = b"""\
; emits OpCapability words for the writer below
global write_header
write_header:
    mov eax, 0x07230203
    ret
"""
    assert _layers("src/header.asm", source) == {"portable": 4}


# -- tonnac/D3D11: Direct3D 11 samples compiling their shaders from .txt files ---------------


def test_d3d11_vertex_shader_kept_as_txt_is_hlsl_kernel_code() -> None:
    # Source/*/VertexShader.txt and PixelShader.txt, read by D3DX11CompileFromFile. Before,
    # the 24 files were Plain Text, and each of the 3 sampled commits that added one passed.
    source = b"""\
cbuffer VS_CB
{
    float4 Color : packoffset(c0);
};
struct VS_INPUT
{
    float4 pos : POSITION;
    float2 tex : TEXCOORD;
};
struct VS_OUTPUT
{
    float4 pos : SV_POSITION;
    float2 tex : TEXCOORD;
};
VS_OUTPUT VS(VS_INPUT input)
{
    VS_OUTPUT output = (VS_OUTPUT)0;
    output.pos = input.pos;
    output.tex = input.tex;
    return output;
}
"""
    assert _rules("Source/Sprite/VertexShader.txt", source) == {"hlsl.shader-file"}
    assert _layers("Source/Sprite/VertexShader.txt", source) == {"kernel": 21}


def test_shader_notes_quoting_a_semantic_stay_text() -> None:
    # The negative: prose naming SV_POSITION opens no line with a declaration.
    source = b"""\
The vertex shader writes SV_POSITION; the pixel shader returns SV_Target.
Remember: float4 pos : SV_POSITION goes in the output struct.
"""
    assert _layers("docs/shader_notes.txt", source) == {}


def test_a_pull_requests_check_reads_only_the_txt_named_for_a_shader() -> None:
    # The HLSL heuristic is bound to the name, so other text files stay unread.
    assert may_hold_code("Source/Sprite/PixelShader.txt")
    assert not may_hold_code("vocab/merges.txt")


# -- cea-hpc/pcvs-benchmarks: GCC's test suite, NPB, TBB and miniFE vendored for a test harness --


def test_pcvs_gcc_testsuite_asm_in_c_sources_is_no_ptx() -> None:
    # compilers/gcc/gcc.dg/guality/*.c, gcc.target/{cris,mips,i386,arm,spu}/*.c and the
    # g++.dg *.C tests: CPU inline assembly, asm labels and deliberately broken asm. Before,
    # 106 such files were kernel code of cuda.ptx-asm, 16 of the 20 non-portable files drawn.
    source = b"""\
int i __asm__ ("%eax");
int X3 asm ("_x" "0") = 5;
void f(int *x) {
  asm volatile (NOP : : : "memory");
  __asm__ __volatile__ ("move.d [%1+],%0\\n" : "=r" (*x) : "b" (x));
  asm volatile ("insn1\\t%a0" :: "ZD" (&x[0]));
  __asm__ ("{lil|li} %0,%1" : "=r" (*x) : "I" (26));
  __asm__ volatile ("@ naked");
}
"""
    assert _layers("gcc.dg/guality/pr54970.c", source) == {"portable": 9}


def test_ptx_in_a_header_or_cuda_file_stays_kernel() -> None:
    # The negative: a header a .cu includes, and the .cu itself, may hold PTX.
    source = b"""\
inline unsigned lane_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
"""
    assert "cuda.ptx-asm" in _rules("include/lane.h", source)
    assert "cuda.ptx-asm" in _rules("src/lane.cu", source)


def test_tbb_sparc_compare_and_swap_is_no_ptx() -> None:
    # Threads/tbb/include/tbb/machine/sunos_sparc.h: `cas`/`casx`/`ldstub`, operands after an
    # escaped tab. Before, 15 kernel lines.
    source = b"""\
static inline int cas32(volatile void *ptr, int value, int comparand) {
  int result;
  __asm__ __volatile__(
      "cas\\t[%5],%4,%1"
      : "=m"(*(int *)ptr), "=r"(result)
      : "m"(*(int *)ptr), "1"(value), "r"(comparand), "r"(ptr)
      : "memory");
  return result;
}
"""
    assert _layers("tbb/machine/sunos_sparc.h", source) == {"portable": 9}


def test_dotted_ptx_with_tabs_stays_ptx() -> None:
    # The negative: PTX's mnemonics carry a type, tab or not.
    source = b"""\
inline unsigned smid() {
  unsigned r;
  asm volatile("mov.u32\\t%0, %%smid;" : "=r"(r));
  return r;
}
"""
    assert "cuda.ptx-asm" in _rules("include/smid.h", source)


def test_npb_suite_definition_named_cg_is_no_shader() -> None:
    # MPI/NAS/config/NAS.samples/suite.def.cg (and OpenMP/, serial/): the CG benchmark's runs.
    # Before, Cg kernel code, and the commit adding the OpenMP copy failed the gate.
    source = b"cg\tS\t1\ncg\tS\t2\ncg\tA\t4\ncg\tB\t16\n"
    assert _layers("MPI/NAS/config/NAS.samples/suite.def.cg", source) == {}


def test_cg_vertex_program_stays_kernel() -> None:
    # The negative: a Cg program has functions and statements.
    source = b"""\
struct VOut { float4 pos : POSITION; float2 uv : TEXCOORD0; };
VOut main(float4 p : POSITION, float2 uv : TEXCOORD0, uniform float4x4 mvp) {
  VOut o;
  o.pos = mul(mvp, p);
  o.uv = uv;
  return o;
}
"""
    assert _layers("shaders/sprite_v.cg", source) == {"kernel": 7}


def test_gcc_friend_operator_specialisation_is_no_launch() -> None:
    # compilers/gcc/g++.dg/template/friend.C: `operator<<<T>(...)`, the friend idiom.
    source = b"""\
template <class T> class s {
  friend ostream& operator<<<T>(ostream&, const s<T>&);
};
"""
    assert _layers("include/stream.hpp", source) == {"portable": 3}
    launch = b"void run(float* x) { scale<<<1, 256>>>(x); }\n"
    assert _rules("src/run.cu", launch) == {"cuda.launch"}


def test_minife_lower_case_cuda_makefile_counts() -> None:
    # applications/Corals/miniFe/basic/makefile.cuda.gnu.serial: before, no language.
    source = b"""\
CUDA_DIR=/usr/local/cuda
CUDAFLAGS = -arch=sm_13 -O3
OPTIONAL_LIBS = -L$(CUDA_DIR)/lib64 -lcublas -lcudart
CXX=g++
"""
    assert _layers("basic/makefile.cuda.gnu.serial", source).get("vendor-path", 0) > 0


# -- leimao/CUTLASS-Examples: checked right, pinned because they are close calls -------------


def test_cutlass_examples_gtest_driver_of_float_kernels_is_portable() -> None:
    # examples/cute_vector_copy/tests/test_vector_copy_vectorized.cu: a .cu that only names
    # launchers from a header and hands them to gtest; nothing in it is CUDA.
    source = b"""\
#include <gtest/gtest.h>
#include "cute_vector_copy.hpp"
static auto const LAUNCH_FLOAT{launch_vector_copy_vectorized<float>};
TEST_P(TestVectorCopyFloat, TestVectorCopyFloat) { RunTest(LAUNCH_FLOAT); }
INSTANTIATE_TEST_SUITE_P(TestVectorCopy, TestVectorCopyFloat, ::testing::Values(4, 8));
"""
    assert _layers("examples/cute_vector_copy/tests/test_vector_copy_vectorized.cu", source) == {
        "portable": 5
    }
