"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h45-random-f).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 506-513. None was skipped: jeeen0/yolo-mnist-cudnn, Brainwires/rullama-framework,
drzhn/JoyEngineDX12, yasahi-hpc/distributed-FFT-for-kokkos, hpc-maths/samurai,
wx-ys/pynbody-extras, dre1667/tinygrad-ft and jambuttenshaw/SDF_D3D12 all had snapshots. Fifteen
files of each were sampled with ``random.Random("owner/name")`` over every file lockin counts with
code lines, and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10); three commits touching GPU code per repository,
drawn with ``random.Random("owner/name:commits")``, were judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- jeeen0/yolo-mnist-cudnn: NVIDIA's mnistCUDNN sample, a YOLO front end in Python ------------


def test_mnist_cudnn_cpu_half_conversion_through_cuda_raw_type_is_cuda() -> None:
    # mnistCUDNN/fp16_emu.cpp (sampled, called portable): the cuDNN samples' CPU float/half
    # conversion, written against cuda_fp16.h's __half_raw through the header's half1 typedef.
    source = b"""\
#include "fp16_emu.h"

float cpu_half2float(half1 h)
{
    __half_raw hr = reinterpret_cast<__half_raw&>(h);
    unsigned sign = (hr.x >> 15) & 1;
    unsigned bits = (sign << 31) | ((hr.x & 0x3ffU) << 13);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}
"""
    assert _rules("mnistCUDNN/fp16_emu.cpp", source) == {"cuda.fp-types"}
    assert _layers("mnistCUDNN/fp16_emu.cpp", source) == {"vendor-path": 1, "portable": 9}


def test_yolo_training_on_device_zero_is_cuda() -> None:
    # scripts/02_train_yolo.py (a GPU-looking extra, called portable): Ultralytics reads
    # device=0 as cuda:0; the ONNX export check and the printed hint name no device.
    source = b"""\
import os
from ultralytics import YOLO


def main():
    model = YOLO("yolov8n.pt")
    model.train(
        data="data/yolo/data.yaml",
        epochs=100,
        imgsz=320,
        device=0,  # desktop GPU
    )
    YOLO("best.pt").export(format="onnx", half=False)
    print("  yolo export model=best.pt format=engine half=True device=0")
"""
    assert _rules("scripts/02_train_yolo.py", source) == {"ultralytics.cuda-device"}
    assert _layers("scripts/02_train_yolo.py", source) == {"vendor-path": 1, "portable": 11}


def test_yolo_pipeline_defaulting_to_an_engine_file_is_portable() -> None:
    # scripts/03_pipeline.py (sampled, right): the default weights file is a TensorRT engine
    # built on the Jetson, but the code hands any weights file to Ultralytics; the choice is a
    # file name the user may change to best.pt.
    source = b"""\
import argparse


def load_model(weights):
    from ultralytics import YOLO
    return YOLO(weights)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights", default="best.engine")
    args = ap.parse_args()
    return load_model(args.weights).predict("clip.mp4", conf=0.5, verbose=False)
"""
    assert _layers("scripts/03_pipeline.py", source) == {"portable": 9}


# -- drzhn/JoyEngineDX12: a Direct3D 12 engine --------------------------------------------------


def test_joyengine_device_method_without_a_d3d12_type_is_direct3d_12() -> None:
    # JoyEngine/MemoryManager/MemoryManager.cpp before commit d8c763c9: the footprint query
    # names no D3D12 type, so the commit replacing it by GetResourceAllocationInfo (2 lines)
    # was read as adding Direct3D 12 lines and failed the gate.
    source = b"""\
ComPtr<Resource> MemoryManager::CreateResource(const Desc* desc) const
{
    uint64_t size = 0;
    GraphicsManager::Get()->GetDevice()->GetCopyableFootprints(
        desc,
        0,
        desc->MipLevels,
        0,
        nullptr,
        nullptr,
        nullptr,
        &size);
    return m_allocator->Allocate(size);
}
"""
    assert _rules("JoyEngine/MemoryManager/MemoryManager.cpp", source) == {"hlsl.directml-host"}
    assert _layers("JoyEngine/MemoryManager/MemoryManager.cpp", source) == {
        "vendor-path": 9,
        "portable": 5,
    }


def test_joyengine_shader_reflection_enum_switch_is_portable() -> None:
    # JoyEngine/ResourceManager/Material.cpp (sampled, right): a switch over D3D_SIT_* shader
    # input types, d3dcommon.h names Direct3D 11 shares; the engine's own binding calls.
    source = b"""\
void Material::Bind(const std::string& name, const std::string& data)
{
    const ShaderInput* input = m_shared->GetPipeline()->GetShaderInputByName(name);
    switch (input->Type)
    {
    case D3D_SIT_TEXTURE:
        m_params.insert({m_shared->GetPipeline()->GetBindingIndexByName(name), LoadTexture(data)});
        break;
    case D3D_SIT_CBUFFER:
    default:
        ASSERT(false);
    }
}
"""
    assert _layers("JoyEngine/ResourceManager/Material.cpp", source) == {"portable": 13}


def test_joyengine_agility_sdk_targets_copying_the_runtime_is_direct3d_12() -> None:
    # ThirdParty/AgilitySDK/Microsoft.Direct3D.D3D12.targets (a GPU-looking extra, called
    # portable): the vendored package's build step puts the Direct3D 12 runtime beside the exe.
    source = b"""\
<?xml version="1.0" encoding="utf-8"?>
<Project xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <ItemGroup>
    <Content Include="$(MSBuildThisFileDirectory)bin\\$(DirectXPlatform)\\D3D12Core.dll">
      <Link>$(D3D12SDKPath)%(FileName)%(Extension)</Link>
      <CopyToOutputDirectory>PreserveNewest</CopyToOutputDirectory>
    </Content>
  </ItemGroup>
</Project>
"""
    path = "ThirdParty/AgilitySDK/Microsoft.Direct3D.D3D12.targets"
    assert _rules(path, source) == {"build.msbuild-d3d12"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 8}


# -- yasahi-hpc/distributed-FFT-for-kokkos: distributed FFTs over MPI, NCCL, RCCL or oneCCL -----


def test_distributed_fft_oneccl_communicator_on_the_sycl_space_is_intel() -> None:
    # distributed/src/oneCCL/KokkosFFT_Distributed_oneCCL_Comm.hpp (called non-portable for one
    # sycl:: line): the oneCCL communicator built from the queue of Kokkos' SYCL space.
    source = b"""\
struct ScopedComm {
  Kokkos::SYCL m_exec_space;
  ccl::vector_class<ccl::communicator> m_comms;
  int m_rank = 0;

  ScopedComm(MPI_Comm comm, const Kokkos::SYCL& exec_space) : m_exec_space(exec_space) {
    ::MPI_Comm_rank(comm, &m_rank);
    auto kvs = ccl::create_main_kvs();
    sycl::queue q = exec_space.sycl_queue();
    m_comms.emplace_back(ccl::create_communicator(
        2, m_rank, ccl::create_device(q.get_device()), ccl::create_context(q.get_context()), kvs));
  }
};
"""
    path = "distributed/src/oneCCL/KokkosFFT_Distributed_oneCCL_Comm.hpp"
    assert _rules(path, source) == {"oneccl.call", "sycl.kokkos-space", "sycl.runtime"}
    assert _layers(path, source) == {"vendor-library": 4, "vendor-path": 3, "portable": 5}


def test_oneccl_between_cpu_processes_is_portable() -> None:
    # The negative, from the bench corpus (DeepSpeed csrc/cpu/comm/ccl.cpp): oneCCL as the
    # Xeon back end's collectives, with no device, queue or stream in the file.
    source = b"""\
#include <oneapi/ccl.hpp>

static std::vector<ccl::communicator> comms;

void init(int size, int rank, ccl::shared_ptr_class<ccl::kvs> kvs)
{
    comms.emplace_back(ccl::create_communicator(size, rank, kvs));
}

ccl::datatype to_ccl(int code) { return code ? ccl::datatype::float32 : ccl::datatype::int32; }
"""
    assert _layers("csrc/cpu/comm/ccl.cpp", source) == {"portable": 7}


def test_distributed_fft_cmake_branch_for_kokkos_hip_is_amd() -> None:
    # distributed/unit_test/CMakeLists.txt (non-portable, for its CUDA branch only): the
    # HIP-only branch (rocFFT over MPI) is AMD's as the CUDA-only one is NVIDIA's.
    source = b"""\
if(ENABLE_CUFFT_MP AND Kokkos_ENABLE_CUDA)
  set(SOURCES Test_Main.cpp Test_TplPlan.cpp)
elseif(ENABLE_ROCFFT_MPI AND Kokkos_ENABLE_HIP AND KokkosFFT_ENABLE_ROCFFT)
  set(SOURCES Test_Main.cpp Test_All2All.cpp Test_TplPlan.cpp)
else()
  set(SOURCES Test_Main.cpp Test_All2All.cpp)
endif()
"""
    path = "distributed/unit_test/CMakeLists.txt"
    assert _rules(path, source) == {"build.cmake-cuda", "build.hip-offload-arch"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 5}


def test_distributed_fft_plan_with_a_sycl_workspace_branch_stays_portable() -> None:
    # distributed/src/KokkosFFT_Distributed_PencilPlan.hpp (sampled, counted right): the
    # SYCL build sets a work area on its FFT plans. As AMReX's `#ifdef AMREX_USE_SYCL` branches
    # (tests/engine/test_hpc_repo_cases.py), a SYCL back-end switch is not read as vendor code.
    source = b"""\
template <typename Plan>
void allocate(Plan& plan, Buffer& buffer) {
  std::size_t size = 0;
#if defined(KOKKOS_ENABLE_SYCL)
  size = KokkosFFT::compute_required_workspace_size<complex_type>(plan);
  buffer = Buffer("fft_buffer", size);
  plan.set_work_area(buffer);
#endif
}
"""
    assert _layers("distributed/src/KokkosFFT_Distributed_PencilPlan.hpp", source) == {
        "portable": 9
    }


# -- jambuttenshaw/SDF_D3D12: signed distance fields traced with DXR ---------------------------


def test_sdf_nsight_perf_counters_are_nvidia() -> None:
    # sdf_d3d12/src/Renderer/Profiling/NvGPUProfiler.cpp (sampled, non-portable for its
    # Direct3D 12 lines only): the Nsight Perf SDK's calls read NVIDIA hardware counters.
    source = b"""\
void NvGPUProfiler::Init(Device* device, const Args& args)
{
    m_Device = device;
    CHECK(nv::perf::InitializeNvPerf(), "Failed to init NvPerf.");
    CHECK(nv::perf::D3D12IsNvidiaDevice(m_Device), "GPU is not an NVidia device.");
    const size_t index = nv::perf::D3D12GetNvperfDeviceIndex(m_Device);
    m_DeviceIndex = index;
    for (const auto& metric : args.Metrics)
    {
        NVPW_MetricEvalRequest request{};
        m_Requests.emplace_back(request);
    }
}
"""
    path = "sdf_d3d12/src/Renderer/Profiling/NvGPUProfiler.cpp"
    assert _rules(path, source) == {"cuda.cupti"}
    assert _layers(path, source) == {"vendor-path": 4, "portable": 9}


def test_sdf_struct_header_shared_with_hlsl_is_portable() -> None:
    # sdf_d3d12/assets/shaders/HlslCompat/StructureHlslCompat.h (a GPU-looking extra, right):
    # plain structs both the C++ and the HLSL side include, in DirectXMath's types.
    source = b"""\
#ifndef STRUCTURE_COMPAT_H
#define STRUCTURE_COMPAT_H
#ifdef HLSL
#include "HlslCompat.h"
#else
using namespace DirectX;
#endif
struct MaterialGPUData
{
    XMFLOAT3 Albedo;
    float Roughness;
};
#endif
"""
    assert _layers("sdf_d3d12/assets/shaders/HlslCompat/StructureHlslCompat.h", source) == {
        "portable": 13
    }
