"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h42-random-i).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 281-287. Two could not be read: intro112810-cmd/SO101_PushT_DiffusionPolicy and
rajveer43/VeloxQuant-MLX (no snapshot). Fifteen files of each remaining repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled before
any fix, with the files lockin calls non-portable (up to twenty) and GPU-looking files it calls
portable (up to ten); up to three commits touching GPU code per repository were drawn with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Dark-Basic-Software-Limited/GameGuruMAXDX12: a DX11/DX12 game maker with Bullet, OPTICK -----


def test_gameguru_gun_settings_named_for_hip_fire_are_portable() -> None:
    # GameGuru/Include/Types.h: a weapon's settings for firing from the hip, from the iron
    # sights and from the scope. Before, hip.runtime read hipFireAllowed and
    # hipMoveSpeedModifier_f as HIP runtime names: ten vendor-path lines in a 9,438-line header
    # of game state, and every commit touching it drawn as one touching GPU code.
    source = b"""\
struct gunsettingstype
{
    float hipMoveSpeedModifier_f;
    float hipTurnSpeedModifier_f;
    float ironMoveSpeedModifier_f;
    int hipFireAllowed;
    int hipToIronTime;
    int ironToHipTime;

    gunsettingstype()
    {
        hipMoveSpeedModifier_f = 0.0f;
        hipFireAllowed = 0;
        hipToIronTime = 0;
    }
};
"""
    assert _layers("GameGuru/Include/Types.h", source) == {"portable": 15}


def test_pose_code_naming_the_hip_joint_is_portable() -> None:
    # The same collision in pose estimation: the hip joint's centre and angle.
    source = b"""\
float hip_flexion(const Pose& p) {
    Vec2 hipCenter = midpoint(p.leftHip, p.rightHip);
    float hipAngle = angle_between(hipCenter, p.leftKnee);
    return hipAngle;
}
"""
    assert _layers("pose/angles.cpp", source) == {"portable": 5}


def test_hip_runtime_names_still_count() -> None:
    # The negative: the runtime's calls, types and error values, and the ROCm libraries' names.
    source = b"""\
int run(float* x, int n) {
    hipStream_t s;
    hipStreamCreate(&s);
    if (hipMemcpyAsync(x, x, n, hipMemcpyDeviceToDevice, s) != hipSuccess) return 1;
    hipFuncAttributes attr;
    hipFuncGetAttributes(&attr, (const void*)scale);
    hipDeviceProp_t prop;
    hipGetDeviceProperties(&prop, 0);
    return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}
"""
    assert _rules("src/run.cpp", source) == {"hip.runtime"}
    assert _layers("src/run.cpp", source) == {"vendor-path": 8, "portable": 2}


def test_gameguru_cpu_vendor_names_returned_are_portable() -> None:
    # DarkSDKMore/Enhancements/OSCpuInfo.cpp: CPUID's vendor string mapped to a company's name
    # for display. Before, opencl.amd-vendor-check read the returned name as a test on an
    # OpenCL device's vendor, and the CPU-info file was vendor-path for it.
    source = b"""\
char* CPUInfo::GetVendorID(void)
{
    switch (ChipManufacturer)
    {
        case Intel:
            return "Intel Corporation";
        case AMD:
            return "Advanced Micro Devices";
        default:
            return "Unknown";
    }
}
"""
    assert _layers("Enhancements/OSCpuInfo.cpp", source) == {"portable": 12}


def test_bullet_opencl_vendor_tests_still_count() -> None:
    # SDK/BULLET/bullet-3.19/src/Bullet3OpenCL/Initialize/b3OpenCLUtils.cpp: the platform's
    # vendor compared with the names the drivers report picks a preferred platform.
    source = b"""\
int preferred(const char* vendor)
{
    if (strcmp(vendor, "Advanced Micro Devices, Inc.") == 0) return 1;
    if (strcmp(vendor, "NVIDIA Corporation") == 0) return 2;
    return 0;
}
"""
    assert _rules("Initialize/b3OpenCLUtils.cpp", source) == {
        "opencl.amd-vendor-check",
        "opencl.nvidia-vendor-check",
    }


# -- Qcompiler/MixQ_Tensorrt_LLM: mixed-precision GEMM kernels, TensorRT-LLM and CUTLASS copies --


def test_mixq_extension_loaded_only_on_cuda_builds_is_vendor_path() -> None:
    # modelopt/torch/utils/cpp_extension.py: the C++/CUDA extension is built only when PyTorch
    # reports a CUDA toolkit within the wanted range; ROCm, XPU and CPU builds get None and
    # the CPU fallback. Before, the file was portable.
    source = b"""\
import torch
from packaging.specifiers import SpecifierSet
from packaging.version import Version
from torch.utils.cpp_extension import load


def load_ext(name, sources, cuda_spec=None):
    if torch.version.cuda is None:
        return None
    if cuda_spec and Version(torch.version.cuda) not in SpecifierSet(cuda_spec):
        return None
    return load(name, sources)
"""
    assert _rules("modelopt/torch/utils/cpp_extension.py", source) == {"torch.cuda-version-check"}
    assert _layers("modelopt/torch/utils/cpp_extension.py", source) == {
        "vendor-path": 2,
        "portable": 8,
    }


def test_mixq_rocm_branch_on_torch_version_hip_is_vendor_path() -> None:
    # MixQ/src/utils/utils/import_utils.py: the Triton path warns on ROCm builds before it
    # imports its kernels.
    source = b"""\
def pick(use_triton):
    if use_triton:
        if torch.version.hip:
            logger.warning("untested on AMD GPUs")
        from .qlinear_triton import QuantLinear
    return QuantLinear
"""
    assert _rules("utils/import_utils.py", source) == {"torch.hip-version-check"}
    assert _layers("utils/import_utils.py", source) == {"vendor-path": 1, "portable": 5}


def test_torch_versions_reported_are_portable() -> None:
    # The negative: an environment report prints both versions and tests neither.
    source = b"""\
def env_report():
    print("torch", torch.__version__, "cuda", torch.version.cuda, "hip", torch.version.hip)
    return {"cuda": torch.version.cuda, "hip": torch.version.hip}
"""
    assert _layers("tools/env_report.py", source) == {"portable": 3}
