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
