"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-r).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 707-713. One was skipped: zhuanxv-G/
MolecularDynamicsFormalization (709) had no snapshot to fetch. Read were
musicofcity-kr/molecular-modeling-program (a React/TypeScript chemistry classroom app, no GPU
code), LiamTyler/Progression-Vulkan-Old (a C++ Vulkan engine with GLSL shaders and vendored
glm, basis_universal, meshoptimizer, imgui), Dragiyski/python-vulkan-api (a generator of
ctypes bindings for the Vulkan API from its registry), res2k/shader1 (a shading-language
compiler emitting GLSL and Cg, with Cg evaluation programs), run-llama/workflows-py (Python
agent workflows, no GPU code) and LambdaLabsML/DeepSpeedExamples (DeepSpeed training and
inference examples: torch.cuda calls, NCCL and CUDA variables in launch scripts, CUDA
images). Snapshots missing large blobs were checked out file by file without them; no
counted source file was missing. Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- LiamTyler/Progression-Vulkan-Old: GLSL include headers under a .h name ----------------------


def test_glsl_include_header_in_shader_directory_is_kernel() -> None:
    # resources/shaders/lighting_functions.h: light falloff and a PCF shadow lookup that the
    # engine's .frag files #include; GLSL's `in` parameters and sampler2D tell it from C.
    source = b"""\
#define TAPS 1

float Falloff( in const float d2, in const float r2 )
{
    float f = d2 / r2;
    return max( 0.0, 1.0 - f * f );
}

float Shadowed( in vec4 lightPos, in sampler2D depthMap )
{
    vec3 p = lightPos.xyz / lightPos.w;
    float stored = texture( depthMap, p.xy * 0.5 + 0.5 ).r;
    return stored < p.z ? 1.0 : 0.0;
}
"""
    assert _rules("resources/shaders/light_math.h", source) == {"vulkan.shader-file"}
    assert _layers("resources/shaders/light_math.h", source) == {"kernel": 12}


def test_glsl_packing_header_in_shader_directory_is_kernel() -> None:
    # resources/shaders/packing.h: octahedral normal encoding shared by the G-buffer passes.
    source = b"""\
vec2 nonZeroSign( vec2 v )
{
    return vec2( v.x >= 0.0 ? 1.0 : -1.0, v.y >= 0.0 ? 1.0 : -1.0 );
}

vec2 encodeOct( in vec3 n )
{
    vec2 p = n.xy / ( abs( n.x ) + abs( n.y ) + abs( n.z ) );
    return n.z >= 0.0 ? p : ( 1.0 - abs( p.yx ) ) * nonZeroSign( p );
}
"""
    assert _rules("shaders/encoding.h", source) == {"vulkan.shader-file"}
    assert _layers("shaders/encoding.h", source) == {"kernel": 9}


def test_c_header_of_constants_shared_with_shaders_stays_portable() -> None:
    # progression/graphics/shader_c_shared/defines.h: binding slots and debug modes both the
    # C++ host and the shaders include; no GLSL function in it.
    source = b"""\
#pragma once

#define MAX_TEXTURES 2048
#define SCENE_SET 0

#ifdef HOST_BUILD
#define NS_BEGIN namespace Engine {
#define NS_END }
#endif
"""
    assert _rules("engine/shaders/defines.h", source) == set()
    assert _layers("engine/shaders/defines.h", source) == {"portable": 7}


def test_c_header_with_in_word_outside_shader_directory_stays_c() -> None:
    # The same GLSL-looking signature in an ordinary source tree is C with a macro `in`.
    source = b"""\
#define in
typedef struct { float x, y; } vec2;
float len2( in vec2 v );
"""
    assert _rules("src/math/len.h", source) == set()
    assert _layers("src/math/len.h", source) == {"portable": 3}


def test_webgl_shader_source_array_counts_its_glsl_lines() -> None:
    # ext/basis_universal/webgl_videotest/renderer.js (vendored): a vertex shader held as an
    # array of GLSL lines joined with newlines. Already right before this lane.
    source = b"""\
Viewer.vertexSource_ = [
  'attribute vec4 pos;',
  'varying vec2 uv;',
  'void main() {',
  '  gl_Position = vec4(pos.xy, 0.0, 1.0);',
  '  uv = pos.zw;',
  '}'
  ].join('\\n');
"""
    assert _rules("webgl/viewer.js", source) == {"vulkan.glsl-string"}
    assert _layers("webgl/viewer.js", source)["kernel"] == 6


# -- LambdaLabsML/DeepSpeedExamples: MVAPICH2's CUDA switch in an InfiniBand launch ---------------


def test_mvapich_cuda_switch_in_mpirun_line_is_vendor_path() -> None:
    # training/bing_bert/1-bit_adam/mpi_infiniband/*.sh: mpirun passes MV2_USE_CUDA=1 so
    # MVAPICH2 moves the optimizer's compressed buffers straight from CUDA memory.
    source = b"""\
here=$(dirname "$0")
mpirun -n 64 -ppn 8 -f /tmp/hosts -env MV2_SUPPORT_DL=1 -env MV2_USE_CUDA=1 \\
  python ${here}/train.py --deepspeed
"""
    assert _rules("scripts/ib_launch.sh", source) == {"env.cuda-variables"}
    assert _layers("scripts/ib_launch.sh", source) == {"vendor-path": 1, "portable": 2}


def test_mvapich_with_cuda_off_stays_portable() -> None:
    source = b"""\
mpirun -n 4 -env MV2_USE_CUDA=0 -env MV2_ENABLE_AFFINITY=0 python train.py
"""
    assert _rules("scripts/cpu_launch.sh", source) == set()
    assert _layers("scripts/cpu_launch.sh", source) == {"portable": 1}


def test_nccl_tuning_before_launcher_is_vendor_path() -> None:
    # training/bing_bert/ds_train_bert_progressive_layer_drop_bsz4k_seq128.sh. Already right.
    source = b"""\
NCCL_TREE_THRESHOLD=0 deepspeed train.py \\
  --config cfg.json
"""
    assert _rules("bert/run.sh", source) == {"env.cuda-variables"}
    assert _layers("bert/run.sh", source) == {"vendor-path": 1, "portable": 1}


# -- Dragiyski/python-vulkan-api: a ctypes loader of the Vulkan entry points ----------------------


def test_ctypes_vulkan_handle_factory_stays_portable() -> None:
    # src/dragiyski/vulkan/binding/_vk_base.py: handle types built on ctypes for a binding
    # generator; it calls no vendor API itself. Already right.
    source = b"""\
import ctypes

def make_handle(name):
    return type(name, (ctypes.c_void_p,), {})

VkInstanceHandle = make_handle("VkInstance")
"""
    assert _rules("binding/handles.py", source) == set()
    assert _layers("binding/handles.py", source) == {"portable": 4}


# -- LiamTyler/Progression-Vulkan-Old: three.js material chunks in the vendored GLTFLoader.js -----


def test_threejs_chunk_arrays_with_one_glsl_sign_each_are_kernel() -> None:
    # ext/basis_universal/webgl/gltf/GLTFLoader.js (and meshoptimizer's copy): the
    # specular-glossiness extension's chunks, each an array of GLSL lines joined with '\n',
    # spliced into the standard material's fragment shader.
    source = b"""\
var parsChunk = [
  '#ifdef USE_GLOSSMAP',
  '  uniform sampler2D glossMap;',
  '#endif'
].join( '\\n' );

var readChunk = [
  'float gloss = glossiness;',
  '#ifdef USE_GLOSSMAP',
  '  vec4 texelGloss = texture2D( glossMap, vUv );',
  '  gloss *= texelGloss.a;',
  '#endif'
].join( '\\n' );
"""
    assert _rules("loaders/GLTFLoader.js", source) == {"vulkan.glsl-string"}
    assert _layers("loaders/GLTFLoader.js", source) == {"kernel": 8, "portable": 4}


def test_js_strings_naming_samplers_in_prose_stay_portable() -> None:
    source = b"""\
const hint = 'bind a uniform sampler2D before drawing';
const label = 'texture2D lookups feed vec4 colors';
"""
    assert _rules("ui/hints.js", source) == set()
    assert _layers("ui/hints.js", source) == {"portable": 2}


# -- LambdaLabsML/DeepSpeedExamples: nvidia-smi run on each host through ssh ---------------------


def test_nvidia_smi_over_ssh_is_vendor_path() -> None:
    # applications/DeepSpeed-Chat/training/cuda_device_check.py: asks every host of the
    # hostfile for its NVIDIA GPUs by running nvidia-smi remotely.
    source = b"""\
import asyncio

async def probe(node):
    proc = await asyncio.create_subprocess_shell(f'ssh {node} "nvidia-smi"')
    return await proc.wait()
"""
    assert _rules("tools/host_check.py", source) == {"cuda.tool-call"}
    assert _layers("tools/host_check.py", source) == {"vendor-path": 1, "portable": 3}


def test_other_command_over_ssh_stays_portable() -> None:
    source = b"""\
import subprocess

def load(node):
    return subprocess.run(f"ssh {node} uptime", shell=True)
"""
    assert _rules("tools/host_load.py", source) == set()
    assert _layers("tools/host_load.py", source) == {"portable": 3}


# -- LiamTyler/Progression-Vulkan-Old: the asset converter shelling out to glslc -----------------


def test_cpp_converter_running_glslc_is_vendor_path() -> None:
    # progression/resource/converters/shader_converter.cpp: builds a glslc command line for
    # the debug and release SPIR-V of each shader and runs it with system().
    source = b"""\
int CompileVariant(const std::string& src, const std::string& dst, bool debug) {
    std::string flag = debug ? "1" : "0";
    std::string cmd = "glslc -DDEBUG_BUILD=" + flag + " " + src + " -o " + dst;
    return system(cmd.c_str());
}
"""
    assert _rules("tools/convert_shaders.cpp", source) == {"build.vulkan-python"}
    assert _layers("tools/convert_shaders.cpp", source) == {"vendor-path": 1, "portable": 4}
