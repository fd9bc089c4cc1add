"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-s).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 889-895. One was skipped: hongseok-yang/neural-combinatorics
(889) has no snapshot here. Read were intel/opencl-clang (the OpenCL C front end built on
Clang, with thousands of .cl conformance and application kernels as tests),
PaddlePaddle/Paddle2ONNX (a converter from Paddle models to ONNX, C++ mappers and Python
tests), mojaie/MolecularGraph.jl (a cheminformatics library in Julia, no GPU code),
andesyv/megatron3000 (a Qt/OpenGL volume renderer with GLSL shader files),
voxelize/voxelize (a voxel engine: a Rust server and a three.js client with GLSL in template
literals) and SCIInstitute/fluorender (a microscopy volume renderer: OpenCL kernels in .cl
files and raw strings, GLSL shaders assembled from raw-string pieces). Snapshots missing
large blobs (fluorender's sample data, documents and binaries, voxelize's screenshots,
megatron3000's data) were checked out file by file without them; no counted source file was
missing. Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
files outside the sample that hold kernel lines counted by hand (up to 5 a repository), and
up to three commits touching GPU code (``random.Random("owner/name:commits")``) judged
against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- SCIInstitute/fluorender: a shader assembled from raw-string pieces ----------------------


def test_glsl_pieces_in_raw_strings_named_for_a_gl_shader_are_kernel_code() -> None:
    # FluoRender/Graphics/VolShaderCode.h: each piece of the volume shader is its own raw
    # string delimited GLSHDR, many a single statement that reads like C; the delimiter says
    # they are GLSL. Before the fix only the pieces with a strong GLSL sign were counted.
    source = b"""\
#ifndef PIECES_H
#define PIECES_H
inline constexpr const char* P_OPEN = R"GLSHDR(
//P_OPEN
void main()
{
	vec3 tc = InCoord;
)GLSHDR";
inline constexpr const char* P_SCALE = R"GLSHDR(
	//P_SCALE
	s.y = slope * 0.5;
)GLSHDR";
inline constexpr const char* P_CUT = R"GLSHDR(
	if (cutoff(tc)) {
		discard;
	}
)GLSHDR";
#endif
"""
    assert _rules("render/Pieces.h", source) >= {"vulkan.glsl-tagged-raw-string"}
    # Kernel: the three literals' code lines with their opening and closing lines (13);
    # portable: the include guard (3) and the two GLSL comment lines inside the literals.
    assert _layers("render/Pieces.h", source) == {"kernel": 13, "portable": 5}


def test_lone_glsl_declaration_in_a_multiline_raw_string_is_kernel_code() -> None:
    # FluoRender/Graphics/VolShaderCode.h: an input or a sampler declared alone in a piece,
    # under an undescriptive delimiter: the declaration is GLSL-only.
    source = b"""\
inline constexpr const char* IN_FOG = R"(
layout(location = 2) in vec4 FogCoord;
)";
inline constexpr const char* U_MASK = R"(
//mask
uniform sampler3D maskTex;//3d mask
)";
int pieces = 2;
"""
    assert _rules("render/Decls.h", source) == {"vulkan.glsl-string"}
    assert _layers("render/Decls.h", source) == {"kernel": 6, "portable": 2}


def test_shader_factory_joining_pieces_stays_portable() -> None:
    # FluoRender/Graphics/ImgShader.cpp (already right): the factory streams named pieces into
    # a string and builds the program; host code, no shader line of its own.
    source = b"""\
bool Factory::emit_frag(const Params& p, std::string& out)
{
	std::ostringstream z;
	z << Program::version_line;
	if (p.fog)
		z << P_FOG_IN;
	z << P_OPEN << P_TAIL;
	out = z.str();
	return true;
}
"""
    assert _rules("render/Factory.cpp", source) == set()
    assert _layers("render/Factory.cpp", source) == {"portable": 10}


def test_label_naming_a_glsl_file_in_a_raw_string_is_portable() -> None:
    # The delimiter, not the name inside, is the tag: a raw string holding a file name or
    # an unrelated text under another delimiter stays portable.
    source = b"""\
const std::string kName = R"(volume.glsl)";
const std::string kNote = R"txt(
s.y = slope * 0.5;
)txt";
"""
    assert _rules("src/names.cpp", source) == set()


# -- andesyv/megatron3000 and voxelize/voxelize: GLSL files and template literals ------------


def test_glsl_geometry_shader_file_is_all_kernel_code() -> None:
    # src/shaders/spline.gs (already right): a geometry shader file, all kernel.
    source = b"""\
#version 430
layout(lines) in;
layout(line_strip, max_vertices = 2) out;

void main() {
    for (int i = 0; i < 2; ++i) {
        gl_Position = gl_in[i].gl_Position;
        EmitVertex();
    }
    EndPrimitive();
}
"""
    assert _rules("shaders/curve.gs", source) == {"vulkan.shader-file"}
    assert _layers("shaders/curve.gs", source) == {"kernel": 10}


def test_three_js_shader_material_template_literals_are_kernel_code() -> None:
    # examples/client/src/main.ts (already right): a ShaderMaterial's vertex and fragment
    # shaders in template literals; the material set-up around them is portable.
    source = b"""\
const material = new THREE.ShaderMaterial({
  uniforms: { uTex: bindings.tex },
  vertexShader: `
    varying vec2 vUv;
    void main() {
      vUv = uv;
      gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
    }
  `,
  side: THREE.DoubleSide,
});
"""
    assert _rules("src/viewer.ts", source) == {"vulkan.glsl-string"}
    layers = _layers("src/viewer.ts", source)
    assert 5 <= layers["kernel"] <= 8


# -- PaddlePaddle/Paddle2ONNX: a deploy-backend choice is no CUDA wheel ----------------------


def test_argparse_choice_naming_tensorrt_is_no_wheel_pin() -> None:
    # paddle2onnx/command.py: --deploy_backend picks how quantized ops are laid out in the
    # exported ONNX model; "tensorrt" is one choice of a command-line option, nothing installed.
    source = b"""\
import argparse

def arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", "-t", type=str, default="onnxruntime",
                        choices=["onnxruntime", "tensorrt", "openvino", "others"],
                        help="runtime the quantized model is laid out for")
    return parser.parse_args()
"""
    assert _rules("tools/convert_cli.py", source) == set()
    assert _layers("tools/convert_cli.py", source) == {"portable": 7}


def test_setup_extra_pinning_the_tensorrt_wheel_stays_vendor_path() -> None:
    # The same name as a requirement in setup.py still pulls NVIDIA's wheel.
    source = b"""\
from setuptools import setup

setup(name="exporter", extras_require={"trt": ["tensorrt>=8.6"]})
"""
    assert _rules("setup.py", source) == {"deps.cuda-wheel-python"}


# -- SCIInstitute/fluorender: OpenCL pieces in raw strings -----------------------------------


def test_opencl_piece_holding_only_a_sampler_or_image_helper_is_kernel_code() -> None:
    # FluoRender/Converter/ConvVolMeshCode.h: the marching-cubes program is assembled from
    # raw-string pieces; the head defines the sampler, a helper reads a 3D image. Neither
    # holds a kernel head, both use words only OpenCL C has.
    source = b"""\
inline constexpr const char* MC_HEAD = R"K(
const sampler_t nearest =
	CLK_NORMALIZED_COORDS_FALSE |
	CLK_ADDRESS_CLAMP_TO_EDGE |
	CLK_FILTER_NEAREST;
)K";
inline constexpr const char* MC_SAMPLE = R"K(
float density(__read_only image3d_t field, int4 at)
{
	return read_imagef(field, nearest, at).x;
}
)K";
static const int kPieceCount = 2;
"""
    assert _rules("mesh/McCode.h", source) == {"opencl.source-string"}
    assert _layers("mesh/McCode.h", source) == {"kernel": 12, "portable": 1}
