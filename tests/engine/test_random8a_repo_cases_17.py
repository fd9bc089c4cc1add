"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h45-random-a).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 466-473: janickimaciej/plane-opengl-client, nikhilash6/stable-diffusion-webui-codex,
TeoGrajqevci/RayMarching_tool, mode777/glsl-tile-renderer, daveschumaker/artbot-for-stable-
diffusion, tmcgrath325/GaussianMixtureAlignment.jl, iarroyof/set-attention and
luohancfd/CFCFD-NG. All eight had a snapshot; none was skipped. Fifteen files of each were
sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled before
any fix, with the files lockin calls non-portable (up to 20) and up to ten GPU-looking files it
calls portable; three commits touching GPU code were drawn with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- TeoGrajqevci/RayMarching_tool: an OpenGL ray marcher denoising with OpenImageDenoise -----


def test_raymarching_cmake_building_oidn_with_its_metal_device() -> None:
    # CMakeLists.txt: on macOS, when no OpenImageDenoise is installed, the build fetches it and
    # forces its Metal device on (the other GPU devices off) before building it. Before, every
    # line was portable.
    source = b"""\
if(NOT OpenImageDenoise_FOUND AND APPLE AND WANT_GPU_DENOISER)
    set(OIDN_DEVICE_CPU ON CACHE BOOL "" FORCE)
    set(OIDN_DEVICE_METAL ON CACHE BOOL "" FORCE)
    set(OIDN_DEVICE_CUDA OFF CACHE BOOL "" FORCE)
    set(OIDN_DEVICE_HIP OFF CACHE BOOL "" FORCE)
    FetchContent_MakeAvailable(oidn)
endif()
"""
    assert _rules("CMakeLists.txt", source) == {"build.metal"}
    assert _layers("CMakeLists.txt", source) == {"vendor-path": 1, "portable": 6}


def test_raymarching_cmake_forcing_a_cuda_or_hip_backend_on() -> None:
    # The same switch for the other vendors' back ends, as a dependency's build is set up from
    # a parent CMakeLists.txt (ggml's options by name).
    source = b"""\
set(GGML_CUDA ON CACHE BOOL "" FORCE)
set(GGML_HIP ON CACHE BOOL "" FORCE)
set(GGML_VULKAN ON CACHE BOOL "" FORCE)
"""
    assert _rules("third_party/CMakeLists.txt", source) == {"build.nvcc", "build.hip-offload-arch"}
    assert _layers("third_party/CMakeLists.txt", source) == {"vendor-path": 2, "portable": 1}


def test_raymarching_denoiser_trying_every_oidn_device_stays_portable() -> None:
    # src/rendering/Renderer.cpp: OpenImageDenoise, a cross-vendor library, is asked for each
    # GPU device type in turn and the first that commits is kept; no vendor's path is taken.
    source = b"""\
const oidn::DeviceType gpuTypes[] = {
    oidn::DeviceType::Metal,
    oidn::DeviceType::CUDA,
    oidn::DeviceType::HIP,
    oidn::DeviceType::SYCL,
};
for (const oidn::DeviceType type : gpuTypes) {
    oidn::DeviceRef candidate = oidn::newDevice(type);
    if (tryCommit(candidate, type)) {
        break;
    }
}
"""
    assert _layers("src/rendering/Renderer.cpp", source) == {"portable": 12}


# -- luohancfd/CFCFD-NG: Eilmer3's optional OpenCL chemistry update --------------------------


def test_cfcfd_makefile_linking_the_gpu_chemistry_with_opencl() -> None:
    # app/eilmer3/build/makefile: the GPU chemistry executable links the OpenCL loader; the
    # rest of the makefile builds the CPU solver. Before, the makefile was portable.
    source = b"""\
WITH_GPU_CHEM ?= 0
OpenCLLINK      := -lOpenCL
ifeq ($(WITH_GPU_CHEM), 1)
    E3_EXE_FILES += e3gpu-chem.exe
endif
e3gpu-chem.exe : e3gpu-chem.o gpu-chem-update.o
\t$(CXXLINK) e3gpu-chem.o gpu-chem-update.o $(OpenCLLINK) -o e3gpu-chem.exe
"""
    assert _rules("app/eilmer3/build/makefile", source) == {"build.opencl"}
    assert _layers("app/eilmer3/build/makefile", source) == {"vendor-path": 1, "portable": 6}


def test_cfcfd_opencl_chemistry_kernel_file_is_kernel_code() -> None:
    # app/eilmer3/source/alpha_qss_kernel.cl: device helpers over __global arrays and the
    # kernel that calls them.
    source = b"""\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
void alpha_of(__global double *p, double dt, __global double *alpha, int n, int idx, int cells)
{
    for (int i = 0; i < n; i++) {
        double r = 1.0 / (p[idx + cells * i] * dt + 1.0e-50);
        alpha[idx + cells * i] = (180.0 * r + 1.0) / (360.0 * r + 1.0);
    }
}
__kernel void update(__global double *p, __global double *alpha, double dt, int n, int cells)
{
    int idx = get_global_id(0);
    if (idx < cells) alpha_of(p, dt, alpha, n, idx, cells);
}
"""
    assert _layers("app/eilmer3/source/alpha_qss_kernel.cl", source) == {"kernel": 13}


# -- nikhilash6/stable-diffusion-webui-codex: a Windows installer choosing the torch build ----


def test_sd_webui_codex_powershell_installer_running_nvidia_smi() -> None:
    # install-webui.ps1: finds nvidia-smi by name and queries it to pick the CUDA wheel, as the
    # shell installer does with `command -v nvidia-smi`. Before, the PowerShell file was
    # portable (its double-quoted strings hidden from build.nvcc).
    source = b"""\
function Get-NvidiaInfo {
  $smi = Get-Command "nvidia-smi.exe" -ErrorAction SilentlyContinue
  if ($null -eq $smi) {
    $smi = Get-Command "nvidia-smi" -ErrorAction SilentlyContinue
  }
  if ($null -eq $smi) { return $null }
  $cuda = (& $smi.Source "--query-gpu=cuda_version" "--format=csv,noheader")
  Write-Host "nvidia-smi found: choosing a CUDA build"
  return $cuda
}
"""
    # The line running the query counts too: --query-gpu= is nvidia-smi's option alone (lane
    # h54-random-i).
    assert _rules("install-webui.ps1", source) == {"cuda.tool-call"}
    assert _layers("install-webui.ps1", source) == {"vendor-path": 3, "portable": 7}


def test_sd_webui_codex_cuda_oom_classifier_is_vendor_path() -> None:
    # apps/backend/runtime/sampling/inner_loop.py: an out-of-memory error is recognised by
    # CUDA's exception type or a message naming CUDA, to retry on smaller batches.
    source = b"""\
import torch


def is_cuda_oom(exc):
    cuda_oom = getattr(torch.cuda, "OutOfMemoryError", None)
    if isinstance(cuda_oom, type) and isinstance(exc, cuda_oom):
        return True
    msg = str(exc).lower()
    return ("out of memory" in msg) and ("cuda" in msg or "cudnn" in msg)
"""
    assert _rules("apps/backend/runtime/sampling/inner_loop.py", source) == {
        "torch.cuda-call",
        "torch.device-string",
    }
    assert _layers("apps/backend/runtime/sampling/inner_loop.py", source) == {
        "vendor-path": 2,
        "portable": 5,
    }


def test_sd_webui_codex_pinning_what_is_not_on_the_gpu_stays_portable() -> None:
    # apps/backend/patchers/base.py: parameters left on the CPU are pinned for faster copies;
    # the negated is_cuda check is the CPU branch, and the docstring's example names no path.
    source = b"""\
def pin_cpu_params(model):
    \"\"\"Pin what stays on the host.

    Example: controller = Controller(storage="cpu", compute="cuda")
    \"\"\"
    pinned = 0
    for p in model.parameters(recurse=True):
        if not p.is_cuda and not p.data.is_pinned():
            p.data = p.data.pin_memory()
            pinned += 1
    return pinned
"""
    assert _layers("apps/backend/patchers/base.py", source) == {"portable": 7}


# -- janickimaciej/plane-opengl-client: OpenGL host code beside its GLSL shaders --------------


def test_plane_opengl_client_uniform_setters_are_portable() -> None:
    # src/graphics/shaderProgram.cpp: OpenGL, a cross-vendor API, compiles the shaders and
    # sets their uniforms; only the GLSL (the .glsl files) is kernel code.
    source = b"""\
void ShaderProgram::setUniform1f(const std::string& name, float value) const
{
    glUniform1f(glGetUniformLocation(m_id, name.c_str()), value);
}

unsigned int ShaderProgram::compile(GLenum type, const char* code) const
{
    unsigned int shader = glCreateShader(type);
    glShaderSource(shader, 1, &code, nullptr);
    glCompileShader(shader);
    return shader;
}
"""
    assert _layers("src/graphics/shaderProgram.cpp", source) == {"portable": 11}


# -- iarroyof/set-attention: a Triton back end that is not written yet -----------------------


def test_set_attention_triton_kernel_stub_is_portable() -> None:
    # src/set_attention/kernels/triton/ska_online_softmax.py: the module only raises until the
    # Triton kernels exist; no kernel and no Triton import.
    source = b"""\
from __future__ import annotations


def fused_online_softmax(*args, **kwargs):
    raise NotImplementedError(
        "Triton kernels are not implemented yet. "
        "Install Triton and provide kernels to enable the 'triton' backend."
    )
"""
    assert _layers("src/set_attention/kernels/triton/ska_online_softmax.py", source) == {
        "portable": 6
    }
