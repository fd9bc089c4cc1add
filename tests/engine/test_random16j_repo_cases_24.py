"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-j).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 826-832. Two were skipped, not replaced:
tensorflow/datasets (its snapshot is 756 MB, over the 500 MB limit) and FeiGSSS/vllm-pdaf (no
snapshot). Five were read (three snapshots lacked large data blobs, binaries or model files the
census does not need, and were checked out around them with ``git read-tree HEAD && git
checkout-index -a -f``): Mathhead200/Molecular-Spintronics-Research-Project (a molecular
spintronics simulator kept as one folder per release, each vendoring three.js, its builds and
examples holding GLSL in strings, and Doxygen output), gerriet/visual-attention (a C++ and
Python visual attention model on OpenCV, no GPU code), niltonlk/pytorch_connectomics (PyTorch
connectomics segmentation with CUDA device selection, an NVIDIA base image and CuPy
RawModule kernels), kantedal/pathtracer-webgl2 (an Angular WebGL 2 path tracer whose GLSL
lives in .glsl, .frag and .vert files) and huggingface/transformers.js (the JavaScript
Transformers library; its 664 counted files hold no vendor code). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, up to five more kernel files counted by
hand, and three commits touching GPU code (``random.Random("owner/name:commits")``) judged
against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Mathhead200/Molecular-Spintronics-Research-Project: a bundled three.js build ------------


def test_shader_chunks_a_literal_a_line_with_escapes_are_kernel_lines() -> None:
    # MSD Research Project (v6.3.0)/src/three.module.js: the bundler writes each GLSL chunk as
    # one double-quoted literal on one line, its lines joined by \n and \t escapes. Before,
    # only 5 of its 105 chunk lines counted (122 kernel lines against about 280 by hand).
    source = b"""\
var fade_fragment = "#ifdef USE_FADE\\n\\tcolor.rgb *= texture2D( fadeMap, vFadeUv ).rgb;\\n#endif";
var halo_pars = "varying vec3 vHaloNormal;\\nstruct HaloLight {\\n\\tvec3 tint;\\n};";
var bones_vertex = "#ifdef USE_RIG\\n\\tmat4 rigA = fetchBone( rigIndex.x );\\n#endif";
var mist_pars = "#ifdef USE_MIST\\n\\tvarying float vMistDepth;\\n#endif";
var ShaderChunk = { fade_fragment, halo_pars, bones_vertex, mist_pars };
"""
    path = "src/engine.module.js"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 4, "portable": 1}


def test_a_list_of_glsl_declarations_joined_into_a_prefix_is_kernel() -> None:
    # three.module.js's program prefix: declarations a literal an item, joined with newlines.
    source = b"""\
const prefix = [
\t'uniform mat4 worldMatrix;',
\t'\\tattribute vec2 uv2;',
].join( '\\n' );
"""
    path = "src/renderers/program_prefix.js"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 2, "portable": 2}


def test_preprocessor_text_of_a_c_generator_and_a_lone_declaration_stay_portable() -> None:
    # The same shapes without a GLSL type, built-in or lookup after the escape, and a single
    # spliced declaration, are no shader.
    source = b"""\
const guard = "#ifdef HAVE_CONFIG\\n#include <vec3.h>\\n#endif";
const debug = "#if DEBUG\\n\\tconsole.log(value);\\n#endif";
const one = "vec3 moved = vec3( position );";
const area = "float area(float r) {\\n\\treturn 3.14 * r * r;\\n}";
"""
    path = "tools/emit_header.js"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 4}


def test_three_js_shader_material_as_a_joined_array_stays_kernel() -> None:
    # lib/js/three-modules/effects/AnaglyphEffect.js: already right (23 of 23 lines).
    source = b"""\
const material = new ShaderMaterial( {
\tvertexShader: [
\t\t'varying vec2 vUv;',
\t\t'void main() {',
\t\t'\tvUv = vec2( uv.x, uv.y );',
\t\t'\tgl_Position = projectionMatrix * modelViewMatrix * vec4( position, 1.0 );',
\t\t'}'
\t].join( '\\n' )
} );
"""
    path = "effects/StereoEffect.js"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 5, "portable": 4}


# -- kantedal/pathtracer-webgl2: glslify modules and WebGL host code, already right -----------


def test_a_glslify_module_file_is_kernel_whole() -> None:
    # src/app/renderer/path-tracer/shaders/kernels/material/BRDF.glsl: glslify pragmas, a
    # #define table and one function.
    source = b"""\
#pragma glslify: Hit = require("../hit/Hit.glsl")
#define LAMBERT 0
vec3 shade(Hit hit, vec3 n, vec3 l) {
  float d = max(0.0, dot(n, l));
  return hit.color * d;
}
#pragma glslify: export(shade)
"""
    path = "src/shaders/kernels/shade.glsl"
    assert _layers(path, source) == {"kernel": 7}


def test_webgl_texture_setup_in_typescript_is_portable() -> None:
    # src/app/renderer/utils/data-texture.ts: WebGL 2 calls run on every vendor's GPU.
    source = b"""\
export function makeTexture(gl: WebGL2RenderingContext, data: Float32Array, size: number) {
  const tex = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, size, size, 0, gl.RGBA, gl.FLOAT, data);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  return tex;
}
"""
    path = "src/renderer/utils/texture.ts"
    assert _rules(path, source) == set()


# -- niltonlk/pytorch_connectomics: already right ---------------------------------------------


def test_tensor_core_check_through_torch_cuda_is_vendor_path() -> None:
    # connectomics/runtime/dispatch.py: the compute capability read to enable TF32 matmuls.
    source = b"""\
import torch


def enable_fast_matmul(n: int) -> None:
    if n <= 0 or not torch.cuda.is_available():
        return
    major, _ = torch.cuda.get_device_capability(0)
    if major >= 8:
        torch.set_float32_matmul_precision("high")
"""
    path = "pkg/runtime/launch.py"
    assert "vendor-path" in _layers(path, source)


def test_an_nvidia_cuda_base_image_is_vendor_path() -> None:
    # docker/Dockerfile: FROM nvidia/cuda.
    source = b"""\
FROM nvidia/cuda:12.1.0-base-ubuntu22.04
RUN apt-get update && apt-get install -y python3-pip
"""
    path = "docker/Dockerfile"
    assert _rules(path, source) == {"image.nvidia-base"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 1}
