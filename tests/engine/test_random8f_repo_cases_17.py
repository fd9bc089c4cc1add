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
