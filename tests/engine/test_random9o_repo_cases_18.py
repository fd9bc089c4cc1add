"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-o).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")`` before anyone
read it; this lane took positions 662-667. Two had no snapshot and were skipped, not
replaced: TWTcodeKing/SparseSNN (663) and christopherthompson81/inference.rs (667). The four
audited are halohlsl/Halo2AMP-Shader-Source (Direct3D effect files, a sibling of the
Halo4-Shader-Source audited before), gnikoloff/webgpu-sponza-demo (WGSL in TypeScript
template strings), barbecuelover/NumbAsst (an Android app without GPU code) and
HPCSYSPROS/Workshop20 (HPC application artifacts: NAMD 2.12, Caffe, Cactus, MILC...).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over
every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart, and
up to three commits touching GPU code judged against ``lockin diff``. Each snippet is a small
rewrite, in our own words, of a pattern found in the repository its test names; the expected
layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- HPCSYSPROS/Workshop20: NAMD's own CUDA build switch ----------------------------------------

NAMD_LOAD_BALANCER = b"""\
void CentLB::work(LDStats* stats) {
  int maxParts = 10;
#ifdef NAMD_CUDA
  // small LCPO pieces, or the GPU compute waits for them
  if (params->lcpoOn) {
    maxParts = 20;
  }
#endif
  split(stats, maxParts);
}
"""


def test_namd_cuda_switch_branch_is_vendor_path() -> None:
    # NAMD 2.12 src/NamdCentLB.C (vendored by Workshop20): NAMD_CUDA is set by NAMD's config
    # only for CUDA builds, and 80 of its files keep branches under it. Before, the switch
    # named the project alone and only files with CUDA calls of their own were non-portable.
    assert _rules("namd/src/NamdCentLB.C", NAMD_LOAD_BALANCER) == {"cuda.build-guard"}
    assert _layers("namd/src/NamdCentLB.C", NAMD_LOAD_BALANCER)["vendor-path"] == 5


def test_namd_non_cuda_branch_and_no_cuda_switch_stay_portable() -> None:
    # The #ifndef branch is what every other build compiles; NO_CUDA says CUDA is off.
    source = b"""\
#ifndef NAMD_CUDA
int maxForces = 6;
#endif
#ifdef NO_CUDA
int hostOnly = 1;
#endif
"""
    assert _layers("namd/src/PatchTypes.h", source) == {"portable": 6}


def test_namd_struct_named_cuda_is_portable() -> None:
    # NAMD src/ProxyMgr.h: a member of NAMD's own CudaAtom type is a plain C++ declaration
    # (checked right before the fix; kept so the switch rule does not reach names).
    source = b"""\
struct ProxyData {
  CudaAtom *cudaAtomList;
  int numAtoms;
};
"""
    assert _layers("namd/src/ProxyMgr.h", source) == {"portable": 4}


# -- gnikoloff/webgpu-sponza-demo: WGSL behind a preprocessor tag -------------------------------


def test_wgsl_bindings_behind_preprocessor_tag_are_kernel() -> None:
    # src/app/shaders/GBufferCommonShaderBindings.ts: a `wgsl/* wgsl */` tagged template of
    # bind-group declarations with `#if ${...}` lines (checked right before any fix).
    source = b"""\
import { wgsl } from 'wgsl-preprocessor/wgsl-preprocessor.js'

export const bindings = (lit: boolean) => wgsl/* wgsl */ `
  @group(0) @binding(0) var normalTexture: texture_2d<f32>;
  @group(0) @binding(1) var depthTexture: texture_depth_2d;
  #if ${lit}
  @group(0) @binding(2) var<storage, read> lights: array<Light>;
  #endif
`
"""
    assert "kernel" in _layers("src/app/shaders/Bindings.ts", source)


# -- halohlsl/Halo2AMP-Shader-Source: effect headers without a sign of HLSL of their own --------

PLATFORM_HEADER = b"""\
#if defined(pc) && !defined(__PLATFORM_PC_FXH)
#define __PLATFORM_PC_FXH

#define BRANCH_HINT [branch]

struct s_platform_input
{
    SCREEN_POSITION_INPUT(frag_pos);
};

s_platform_input default_platform_input()
{
    s_platform_input result;
    result.frag_pos = 0;
    return result;
}

#endif
"""


def test_effect_header_of_engine_macros_is_hlsl() -> None:
    # include/core/core_pc.fxh: a struct and a function written through the engine's macros,
    # with no vector type, semantic or register. Before, .fxh was HLSL only with such signs,
    # and 11 of the repository's 202 headers had no language and counted no line.
    assert classify("include/core/platform_pc.fxh", PLATFORM_HEADER).language == "HLSL"
    assert _rules("include/core/platform_pc.fxh", PLATFORM_HEADER) == {"hlsl.shader-file"}
    assert _layers("include/core/platform_pc.fxh", PLATFORM_HEADER) == {"kernel": 14}


def test_effect_header_of_scalar_parameters_is_hlsl() -> None:
    # explicit_shaders/copy/*_registers.fxh: a scalar parameter declared for Direct3D 9 and
    # as a constant buffer member for 11.
    source = b"""\
#if DX_VERSION == 9
DECLARE_PARAMETER(float, ps_depth, c8);
#elif DX_VERSION == 11
CBUFFER_BEGIN(DepthPS)
    CBUFFER_CONST(DepthPS, float, ps_depth, k_ps_depth)
CBUFFER_END
#endif
"""
    assert _layers("shaders/depth_registers.fxh", source) == {"kernel": 7}


def test_fx_file_without_hlsl_signs_still_has_no_language() -> None:
    # .fx stays read by content: JavaFX Script and FLUX share the extension.
    source = b"""\
import javafx.stage.Stage;

Stage {
    title: "Hello"
}
"""
    assert classify("ui/Main.fx", source).language is None
