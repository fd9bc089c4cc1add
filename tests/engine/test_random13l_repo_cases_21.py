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
