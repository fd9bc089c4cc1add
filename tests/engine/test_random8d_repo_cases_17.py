"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h45-random-d).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 490-497, and every one had a snapshot: Feerip/hashcat, CorwinLab/extremeDiffusion1D,
TensorLink-AI/Gnomon, amirhh00/wgsl, wind342/gfg-training-learning-inference-experiments,
yashprit/paperworld3d, lhqsine/D3D_HLSL and ootomoh/cublas-xt. Fifteen files of each (all ten of
ootomoh/cublas-xt) were sampled with ``random.Random("owner/name")`` over every file lockin counts
with code lines, and labelled before any fix, with the files lockin calls non-portable (up to 20)
and GPU-looking files it calls portable (up to 10), and three commits touching GPU code per
repository were judged against ``lockin diff``. Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- wind342/gfg-training-learning-inference-experiments: a CPU-only experiment refusing CUDA --


def test_guard_raising_on_a_cuda_build_is_portable() -> None:
    # experiments/pytorch_autograd_training_lineage_v1/pipeline.py (and native_oracle_
    # workloads.py): the lineage must be computed on the CPU, so the runtime set-up raises when
    # the build or the machine has CUDA. Before, the guard was a line of vendor-path.
    source = b"""\
import torch


def configure_runtime():
    torch.set_default_dtype(torch.float64)
    torch.manual_seed(7)
    torch.use_deterministic_algorithms(True)
    if torch.cuda.is_available() or torch.version.cuda is not None:
        raise RuntimeError("CUDA must be disabled for this experiment")
"""
    assert _rules("experiments/lineage_v1/pipeline.py", source) == set()
    assert _layers("experiments/lineage_v1/pipeline.py", source) == {"portable": 7}


def test_test_asserting_the_cpu_build_is_portable() -> None:
    # experiments/pytorch_autograd_training_lineage_v1/tests/test_experiment.py: the test
    # checks that the official CPU wheel runs it. Before, the assertion was vendor-path.
    source = b"""\
import torch


def test_official_cpu_torch_executes():
    assert torch.__version__.endswith("+cpu")
    assert torch.version.cuda is None
    result = run_training_step("linear_chain")
    assert result["device"] == "cpu"
"""
    assert _rules("experiments/lineage_v1/tests/test_experiment.py", source) == set()
    assert _layers("experiments/lineage_v1/tests/test_experiment.py", source) == {"portable": 6}


def test_guard_raising_without_cuda_stays_vendor_path() -> None:
    # The negative: a build step that refuses every build but CUDA's takes an NVIDIA-only path,
    # and so does a branch choosing the CUDA kernel when the build has it.
    source = b"""\
import torch


def build_extension():
    if torch.version.cuda is None:
        raise RuntimeError("this extension needs a CUDA build of PyTorch")
    if torch.version.cuda is not None:
        return load_cuda_kernels()
    return None
"""
    assert _rules("setup_ext.py", source) == {"torch.cuda-version-check"}
    assert _layers("setup_ext.py", source) == {"vendor-path": 2, "portable": 5}


def test_seeding_cuda_when_present_stays_vendor_path() -> None:
    # experiments/gfg_rl_feedback_closure_v1/runtime.py: a sampled commit adds this; the gate
    # failing it was judged right (torch.cuda.* is vendor-path even behind a probe).
    source = b"""\
import random

import torch


def seed_everything(seed):
    random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)
"""
    assert _rules("experiments/rl_v1/runtime.py", source) == {"torch.cuda-call"}
    assert _layers("experiments/rl_v1/runtime.py", source) == {"vendor-path": 1, "portable": 6}


# -- lhqsine/D3D_HLSL: a vendored Bullet 2.x and its per-vendor OpenCL builds ------------------


def test_bullet_opencl_solver_built_against_a_vendor_sdk_is_vendor_path() -> None:
    # Bullet/src/BulletMultiThreaded/GpuSoftBodySolvers/OpenCL/AMD/CMakeLists.txt (and the
    # NVidia one): the cloth solver is compiled once per vendor SDK, with its include path and
    # its switch. Before, each of these files was portable.
    source = b"""\
INCLUDE_DIRECTORIES(
  ${BULLET_PHYSICS_SOURCE_DIR}/src
  ${AMD_OPENCL_INCLUDES}
)
ADD_DEFINITIONS(-DUSE_AMD_OPENCL)
SET(SOLVER_SRCS ../btSoftBodySolver_OpenCL.cpp)
ADD_LIBRARY(BulletSoftBodySolvers_OpenCL_AMD ${SOLVER_SRCS})
"""
    path = "Bullet/src/BulletMultiThreaded/GpuSoftBodySolvers/OpenCL/AMD/CMakeLists.txt"
    assert _rules(path, source) == {"build.cmake-opencl"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 5}
    nvidia = source.replace(b"AMD_OPENCL_INCLUDES", b"NVIDIA_OPENCL_INCLUDES").replace(
        b"ADD_DEFINITIONS(-DUSE_AMD_OPENCL)\n", b""
    )
    assert _layers(path.replace("AMD", "NVidia"), nvidia) == {"vendor-path": 1, "portable": 5}


def test_bullet_opencl_solver_linking_apples_framework_is_vendor_path() -> None:
    # .../OpenCL/Apple/CMakeLists.txt links the solver against Apple's OpenCL framework.
    source = b"""\
ADD_LIBRARY(ClothSolver_Apple ${SOLVER_SRCS})
IF (APPLE AND (BUILD_SHARED_LIBS OR FRAMEWORK))
  SET_TARGET_PROPERTIES(ClothSolver_Apple PROPERTIES LINK_FLAGS "-framework OpenCL")
ENDIF ()
"""
    path = "Bullet/src/BulletMultiThreaded/GpuSoftBodySolvers/OpenCL/Apple/CMakeLists.txt"
    assert _rules(path, source) == {"build.cmake-opencl"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


def test_bullet_minicl_and_dx11_builds_stay_portable() -> None:
    # .../OpenCL/MiniCL/CMakeLists.txt runs the solver on the CPU, and the parent file only
    # picks the builds by option; .../DX11/CMakeLists.txt builds the Direct3D 11 solver, a
    # cross-vendor API.
    minicl = b"""\
ADD_DEFINITIONS(-DUSE_MINICL)
SET(SOLVER_OPENCLC ../OpenCLC/Integrate.cl)
ADD_LIBRARY(BulletSoftBodySolvers_OpenCL_Mini ${SOLVER_SRCS} ${SOLVER_OPENCLC})
IF(BUILD_AMD_OPENCL_DEMOS)
  SUBDIRS(AMD)
ENDIF()
"""
    assert _layers("Bullet/src/GpuSoftBodySolvers/OpenCL/MiniCL/CMakeLists.txt", minicl) == {
        "portable": 6
    }
    dx11 = b"""\
SET(DX11_INCLUDE_PATH "${DIRECTX_SDK_BASE_DIR}/Include" CACHE DOCSTRING "DirectX SDK include path")
INCLUDE_DIRECTORIES(${DX11_INCLUDE_PATH})
FOREACH(f ${SOLVER_SHADERS})
  LIST(APPEND SOLVER_HLSL "HLSL/${f}.hlsl")
ENDFOREACH(f)
ADD_LIBRARY(BulletSoftBodySolvers_DX11 ${SOLVER_SRCS} ${SOLVER_HLSL})
"""
    assert _layers("Bullet/src/GpuSoftBodySolvers/DX11/CMakeLists.txt", dx11) == {"portable": 6}


def test_direct3d9_effect_file_is_kernel_code() -> None:
    # 2_.../TEST7_TextureCoordinate/ResFile_2/FileFX.fx, checked right: a Direct3D 9 effect,
    # its shaders and the technique that compiles them, is shader code as a whole.
    source = b"""\
float fScale = 0.2;
texture texColor;
sampler ColorSampler = sampler_state { Texture = (texColor); MinFilter = LINEAR; };
struct VS_OUT { float4 pos : POSITION; float2 tex : TEXCOORD0; };
VS_OUT MainVS(float4 pos : POSITION, float2 tex : TEXCOORD0)
{
    VS_OUT o = (VS_OUT)0;
    o.pos = float4(pos.xy * fScale, 0.9, 1);
    o.tex = tex;
    return o;
}
float4 MainPS(VS_OUT i) : COLOR { return tex2D(ColorSampler, i.tex); }
technique Default
{
    pass P0
    {
        VertexShader = compile vs_2_0 MainVS();
        PixelShader  = compile ps_2_0 MainPS();
    }
}
"""
    assert _rules("ResFile_2/FileFX.fx", source) == {"hlsl.shader-file"}
    assert _layers("ResFile_2/FileFX.fx", source) == {"kernel": 20}


# -- amirhh00/wgsl: a WebGPU course site -------------------------------------------------------


def test_quiz_options_quoting_wgsl_are_portable() -> None:
    # src/app/quiz/[level]/questions.ts, checked right: quiz answers quote one line of WGSL
    # each; no shader is compiled from them.
    source = b"""\
export const questions = [
  {
    question: "In WGSL, what does the @vertex attribute signify?",
    options: ["@vertex", "@entry", "@fragment", "@main", "I don't know"],
  },
  {
    question: "Which line declares a vector of three floats?",
    options: ["let v = vec3<f32>(1.0, 2.0, 3.0);", "let v = f32vec3(1.0, 2.0, 3.0);"],
  },
];
"""
    assert _rules("src/app/quiz/[level]/questions.ts", source) == set()


def test_wgsl_templates_in_the_editor_store_are_kernel_code() -> None:
    # src/store/shader.state.ts, checked right: the editor's starting shaders are WGSL kept in
    # template literals (lockin 62 kernel lines there, ours 58).
    source = b"""\
export const preWrittenCode = [
  {
    name: "simple-triangle",
    code: `\\
@vertex
fn vtx_main(@builtin(vertex_index) vertex_index : u32) -> @builtin(position) vec4f {
  const pos = array(vec2(0.0, 0.5), vec2(-0.5, -0.5), vec2(0.5, -0.5));
  return vec4f(pos[vertex_index], 0, 1);
}

@fragment
fn frag_main() -> @location(0) vec4f {
  return vec4(0, 1, 0, 1);
}
`,
  },
] as const;
"""
    assert _rules("src/store/shader.state.ts", source) == {"wgsl.source-string"}
    assert _layers("src/store/shader.state.ts", source)["kernel"] >= 8
