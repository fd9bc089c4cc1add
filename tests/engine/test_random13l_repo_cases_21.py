"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-l).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 350-356. Two were skipped: yymmm9/shader-forge has no
snapshot here, and silverfoxy/JSCryptoMinerStudy's snapshot (2.08 GB) is over the size limit.
Five were read: mertwole/PathTracing (a CPU path tracer in Rust; its history holds a C#
OpenGL version with GLSL compute shaders), MihailRis/VoxelEngine-Cpp (a C++ voxel engine on
OpenGL with GLSL shaders), roboflow/inference (a Python computer-vision server, CUDA and
Jetson images), atul-mourya/RayTracing (a WebGPU path tracer written in three.js TSL with
WGSL helpers) and graphcore/poptorch (PyTorch for Graphcore IPUs: PopART lowering in C++,
Poplar codelets, Python tests). PathTracing's and inference's large files were absent from
their snapshots, so the rest of each tree was checked out path by path. Fifteen files of
each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20),
GPU-looking files it calls portable (up to 10) and up to five kernel files outside the sample
checked apart, and three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- atul-mourya/RayTracing: three.js TSL shader functions ---------------------------------


def test_tsl_function_with_a_long_parameter_list_is_kernel_code() -> None:
    # rayzee/src/TSL/LightsIndirect.js: calculateIndirectLighting's destructured parameters
    # run over seven lines with a comment among them; its body was left portable (102 kernel
    # lines of 198 before the fix).
    source = b"""\
import { Fn, vec3, float, If } from 'three/tsl';

export const bounceLight = Fn( ( [
\tviewDir, normal, surface,
\t// the sampled direction, split into fields
\tsampleDir, samplePdf, sampleValue,
\tseed,
\timportance,
] ) => {

\tconst weight = float( 0.0 ).toVar();
\tIf( samplePdf.greaterThan( 0.0 ), () => {
\t\tweight.assign( sampleValue.div( samplePdf ) );
\t} );
\treturn vec3( weight );

} );

export const LOBES = 4;
"""
    assert _rules("src/TSL/Bounce.js", source) == {"wgsl.three-tsl-function"}
    assert _layers("src/TSL/Bounce.js", source) == {"kernel": 12, "portable": 2}


def test_tsl_compute_function_in_a_stage_class_is_kernel_code() -> None:
    # rayzee/src/Stages/EdgeFilter.js (right before any fix): the Fn handed to .compute() is
    # the shader; the class that sizes the dispatch is host code.
    source = b"""\
import { Fn, int, textureLoad, textureStore, workgroupId, localId } from 'three/tsl';

export class Blur {
\tbuild( src, dst ) {
\t\tconst WG = 8;
\t\tconst run = Fn( () => {
\t\t\tconst x = int( workgroupId.x ).mul( WG ).add( int( localId.x ) );
\t\t\ttextureStore( dst, x, textureLoad( src, x ) ).toWriteOnly();
\t\t} );
\t\treturn run().compute( [ 4, 4, 1 ], [ WG, WG, 1 ] );
\t}
}
"""
    assert _rules("src/Stages/Blur.js", source) == {"wgsl.three-tsl-function"}
    assert _layers("src/Stages/Blur.js", source) == {"kernel": 4, "portable": 7}


# -- mertwole/PathTracing: the tobj crate's material-library result is not Metal ---------


def test_tobj_material_library_result_is_not_metal() -> None:
    # worker/src/scene/resource/mesh/obj_loader.rs: tobj's MTLLoadResult in the callback that
    # refuses .mtl files was read as Apple's Metal API (5 vendor-path lines before the fix).
    source = b"""\
use std::io::BufReader;
use tobj::{LoadError, MTLLoadResult};

pub fn read_mesh(bytes: &[u8]) -> usize {
    let mut reader = BufReader::new(bytes);
    let (models, _) = tobj::load_obj_buf(
        &mut reader,
        &tobj::LoadOptions { triangulate: true, ..Default::default() },
        |_| MTLLoadResult::Err(LoadError::GenericFailure),
    )
    .unwrap();
    models.len()
}
"""
    assert _rules("src/mesh/obj_loader.rs", source) == set()
    assert _layers("src/mesh/obj_loader.rs", source) == {"portable": 12}


# -- MihailRis/VoxelEngine-Cpp: GLSL shader files (right before any fix) ------------------


def test_glsl_fragment_shader_file_is_kernel_code() -> None:
    # res/shaders/background.glslf: a cubemap lookup, kernel code line for line.
    source = b"""\
in vec3 v_dir;
out vec4 f_color;

uniform samplerCube u_sky;

void main(){
    f_color = texture(u_sky, normalize(v_dir));
}
"""
    assert _layers("res/shaders/sky.glslf", source) == {"kernel": 6}


# -- graphcore/poptorch: PyTorch on Graphcore IPUs -----------------------------------------


def test_poptorch_model_wrapping_in_a_test_is_vendor_path() -> None:
    # tests/functional_test.py: a model wrapped with poptorch.inferenceModel and compared
    # with the CPU result (portable before the fix: Graphcore had no rules).
    source = b"""\
import torch
import poptorch


def test_argmax_matches_cpu():
    model = torch.nn.Softmax(dim=1)
    x = torch.rand(4, 8)
    expected = model(x)
    ipu_model = poptorch.inferenceModel(model)
    assert torch.allclose(ipu_model(x), expected)
"""
    assert _rules("tests/softmax_test.py", source) == {"graphcore.poptorch"}
    assert _layers("tests/softmax_test.py", source) == {"vendor-path": 2, "portable": 6}


def test_poplar_vertex_codelet_is_kernel_code() -> None:
    # popart_compiler/source/custom_operations/UpsampleBilinear2dCodelets.inc.cpp: a
    # poplar::Vertex whose compute() each IPU tile runs; the Poplar includes are vendor-path.
    source = b"""\
#include <poplar/Vertex.hpp>

template <typename T> class WeightedSumVertex : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<T>> in;
  poplar::Input<poplar::Vector<T>> w;
  poplar::Output<poplar::Vector<T>> out;

  bool compute() {
    for (unsigned i = 0; i < out.size(); ++i) {
      out[i] = in[2 * i] * w[0] + in[2 * i + 1] * w[1];
    }
    return true;
  }
};

template class WeightedSumVertex<float>;
"""
    assert _rules("ops/WeightedSumCodelets.inc.cpp", source) == {
        "graphcore.vertex-codelet",
        "graphcore.poplar-api",
    }
    assert _layers("ops/WeightedSumCodelets.inc.cpp", source) == {
        "kernel": 12,
        "vendor-path": 1,
        "portable": 1,
    }


def test_popart_opset_table_is_vendor_library() -> None:
    # popart_compiler/include/popart_compiler/CompilerOperationMacros.inc.hpp: a generated
    # table of PopART builder ops from the ai.graphcore opset.
    source = b"""\
// generated: one row per PopART op
OP_DECL(popart, gelu, gelu, AiGraphcoreOpset1.gelu, NONE, BODY_ARG(DEBUG_CONTEXT("Gelu")))
OP_DECL(popart, l1loss, l1loss, AiGraphcoreOpset1.l1loss, ARG(INT,reduction),
        BODY_ARG(static_cast<popart::ReductionType>(reduction)))
"""
    assert _rules("compiler/OpMacros.inc.hpp", source) == {"graphcore.popart"}
    assert _layers("compiler/OpMacros.inc.hpp", source) == {"vendor-library": 3}


def test_poplibs_calls_in_a_lowering_are_vendor_library() -> None:
    # poptorch/source/ (commit 0d273e38, "Upgrade to torch 1.13"): a baddbmm lowering with
    # poplin's grouped matmul and popops' scaling on poplar tensors.
    source = b"""\
#include <popops/ElementWise.hpp>
#include <poplin/MatMul.hpp>

void lowerScaledBatchMatmul(Ctx &ctx) {
  poplar::Tensor a = ctx.fromSsa(ctx.in(0));
  poplar::Tensor b = ctx.fromSsa(ctx.in(1));
  auto prod = poplin::matMulGrouped(ctx.graph, a, b, ctx.seq, a.elementType());
  auto scaled = popops::mul(ctx.graph, prod, 0.5f, ctx.seq);
  ctx.define(scaled);
}
"""
    assert _rules("source/BatchMatmul.cpp", source) == {
        "graphcore.poplibs",
        "graphcore.poplar-api",
    }
    assert _layers("source/BatchMatmul.cpp", source) == {
        "vendor-library": 4,
        "vendor-path": 2,
        "portable": 3,
    }


def test_a_projects_own_popart_symbol_table_stays_portable() -> None:
    # poptorch/source/FixupSetAvailableMemory.cpp (right before any fix): graph passes over
    # poptorch's own symbol table, named after PopART ops, call no Graphcore library.
    source = b"""\
#include "poptorch/Utils.hpp"

namespace poptorch {
namespace {
bool takesMemoryHint(torch::jit::NodeKind kind) {
  namespace popart_syms = poptorch::symbols::popart;
  return kind == popart_syms::matmul || kind == poptorch::symbols::popart::gather;
}
} // namespace
} // namespace poptorch
"""
    assert _rules("source/FixupMemory.cpp", source) == set()
    assert _layers("source/FixupMemory.cpp", source) == {"portable": 9}
