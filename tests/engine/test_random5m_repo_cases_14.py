"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-m).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 205-211. Two had no snapshot: nathsou/astrophysics and amd/aocl-fftz. Fifteen files
of each remaining repository were sampled with ``random.Random("owner/name")`` over every file
lockin counts, and labelled before any fix, with the files lockin calls non-portable (up to
twenty) and GPU-looking files it calls portable (up to ten), and three commits touching GPU
code judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- MScherbela/sparse_wf: JAX neural wave functions run on NVIDIA clusters ------------------


def test_tf32_override_exported_by_a_slurm_template_is_vendor_path() -> None:
    # config/slurm_templates/leonardo.sh: TF32 math switched off in cuBLAS and cuDNN for the
    # run. Before, the template was portable.
    source = b"""\
#!/bin/bash
#SBATCH --gpus-per-task=4
source .venv/bin/activate
export OMP_NUM_THREADS=10
export NVIDIA_TF32_OVERRIDE=0
srun python run.py config.yaml
"""
    assert _rules("config/slurm/job.sh", source) == {"env.cuda-variables"}
    assert _layers("config/slurm/job.sh", source) == {"vendor-path": 1, "portable": 3}


def test_tf32_override_set_before_jax_loads_is_vendor_path() -> None:
    # src/sparse_wf/train.py and tests/test_fwd_lap.py set the variable before importing jax.
    # Emptying CUDA_VISIBLE_DEVICES hides the GPUs and stays portable (settled before).
    source = b"""\
import os
import socket

if socket.gethostname() == "gpu-box":
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
os.environ["NVIDIA_TF32_OVERRIDE"] = "0"
import jax
"""
    assert _rules("src/train.py", source) == {"env.cuda-variables-python"}
    assert _layers("src/train.py", source) == {"vendor-path": 1, "portable": 5}


def test_jax_cuda_extra_in_pyproject_is_vendor_path() -> None:
    # pyproject.toml: jax with its CUDA 12 wheels (checked right before any fix).
    source = b"""\
[project]
name = "wf"
dependencies = [
    "jax[cuda12]>=0.4.35,<0.6",
    "optax",
]
"""
    assert _rules("pyproject.toml", source) == {"deps.cuda-wheel"}


# -- TReed0803/QtOpenGL: a Qt deferred renderer vendoring glm ---------------------------------


def test_glm_compiler_cuda_branch_is_a_cuda_build_guard() -> None:
    # include/glm/detail/func_common.inl: glm sets GLM_COMPILER_CUDA under __CUDACC__ and
    # branches on it for nvcc. Before, only setup.hpp's __CUDACC__ test was seen.
    source = b"""\
template <typename T>
bool is_nan(T x)
{
#if GLM_COMPILER & GLM_COMPILER_VC
    return _isnan(x) != 0;
#elif GLM_COMPILER & GLM_COMPILER_CUDA
    return isnan(x) != 0;
#else
    return std::isnan(x);
#endif
}
"""
    assert _rules("include/glm/detail/func_common.inl", source) == {"cuda.build-guard"}
    assert _layers("include/glm/detail/func_common.inl", source) == {
        "vendor-path": 2,
        "portable": 9,
    }


def test_glm_header_left_out_of_nvcc_builds_is_portable() -> None:
    # include/glm/ext.hpp: what every build but nvcc's includes is not a CUDA-only path.
    source = b"""\
#if !(GLM_COMPILER & GLM_COMPILER_CUDA)
#   include "./gtx/string_cast.hpp"
#endif
#include "./gtx/transform.hpp"
"""
    assert _rules("include/glm/ext.hpp", source) == set()


def test_opengl_host_code_through_qt_is_portable() -> None:
    # OpenGL/openglabstractlightgroup.cpp: OpenGL, a cross-vendor API (checked right).
    source = b"""\
#include "openglabstractlightgroup.h"

void OpenGLAbstractLightGroup::initialize()
{
  m_uFresnel = GL::glGetSubroutineUniformLocation(m_id, GL_FRAGMENT_SHADER, "uFresnel");
  GL::glUniformSubroutinesuiv(GL_FRAGMENT_SHADER, 1, &m_uFresnel);
}
"""
    assert _rules("OpenGL/light.cpp", source) == set()


def test_glsl_vertex_shader_is_kernel_code() -> None:
    # resources/shaders/lighting/shadowDirectionLight.vert: a pass-through vertex shader
    # (checked right: every code line is shader code).
    source = b"""\
#include <LightBuffer.ubo>

layout(location = 0) in highp vec3 position;

void main()
{
  gl_Position = vec4(position, 1.0);
}
"""
    assert _layers("resources/shaders/pass.vert", source) == {"kernel": 6}


# -- wgslsmith/wgslsmith: a WGSL fuzzer testing wgpu and Dawn ---------------------------------


def test_backend_enumeration_over_wgpu_is_portable() -> None:
    # crates/harness/src/wgpu.rs: mapping wgpu's backends to the harness's names picks no
    # vendor (checked right).
    source = b"""\
pub fn backend(b: wgpu::Backend) -> BackendType {
    match b {
        wgpu::Backend::Vulkan => BackendType::Vulkan,
        wgpu::Backend::Metal => BackendType::Metal,
        wgpu::Backend::Dx12 => BackendType::Dx12,
        _ => unreachable!(),
    }
}
"""
    assert _rules("crates/harness/src/wgpu.rs", source) == set()
