"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-e).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 586-593. Three had no snapshot: michaelfeil/TensorRT-LLM (586), gongitsune/TkHLSL
(587) and Rybens92/typed-gguf (593). Fifteen files of each remaining repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts, and labelled before any
fix, with the files lockin calls non-portable (twenty at most) and GPU-looking files it calls
portable (ten at most); three commits touching GPU code were drawn with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- annahayoon/DomainAdaptive_PoissonDiffusion: a diffusion model's sampling scripts --------


def test_poisson_diffusion_heredoc_argument_list_passing_device_cuda() -> None:
    # sample/test_guidance_comparison_unified.sh: a Python heredoc builds the sampler's
    # command line as a list and runs it with subprocess. Before, the shell rule read only
    # `--device cuda` written as one word pair and the script was portable.
    source = b"""\
#!/bin/bash
python3 << RUN_SCENES_EOF
import subprocess
cmd = [
    "python", "sample/sample_guided.py",
    "--num_steps", "18",
    "--device", "cuda",
    "--seed", "42",
]
subprocess.run(cmd, check=False)
RUN_SCENES_EOF
"""
    assert _rules("sample/compare_guidance.sh", source) == {"torch.device-flag"}
    assert _layers("sample/compare_guidance.sh", source) == {"vendor-path": 1, "portable": 9}


def test_poisson_diffusion_script_defaulting_its_device_variable_to_cuda() -> None:
    # analysis/testcodes/run_edm_sampling.sh: the device the script hands to every run is a
    # variable set to "cuda" at the top (an option may override it).
    source = b"""\
#!/bin/bash
DEVICE="cuda"
while [[ $# -gt 0 ]]; do
    case $1 in
        --device) DEVICE="$2"; shift 2 ;;
        *) shift ;;
    esac
done
python sample/sample.py --steps 18 --device "$DEVICE"
"""
    assert _rules("analysis/run_sampling.sh", source) == {"torch.device-flag"}
    assert _layers("analysis/run_sampling.sh", source) == {"vendor-path": 1, "portable": 7}


def test_poisson_diffusion_script_taking_the_device_from_its_caller_is_portable() -> None:
    # The negative: the device comes from the caller, or the list names another device.
    source = b"""\
#!/bin/bash
DEVICE="${1:-cpu}"
EVAL_DEVICE=$DEVICE
python3 - << EOF
cmd = ["python", "sample.py", "--device", "cpu", "--device_map", "cuda"]
EOF
"""
    assert _layers("analysis/run_cpu.sh", source) == {"portable": 5}


# -- ArkanDash/Advanced-RVC-Inference: voice conversion, its requirements ---------------------


def test_advanced_rvc_requirements_pinning_onnxruntime_gpu() -> None:
    # requirements.txt: ONNX Runtime's GPU wheel (its CUDA build) everywhere but macOS. Before,
    # the file was portable: the CUDA builds of TensorFlow and CuPy counted, not ONNX Runtime's.
    source = b"""\
torch>=2.1
onnx>=1.16
onnxruntime-gpu; sys_platform != 'darwin'
onnxruntime; sys_platform == 'darwin'
numba>=0.57.0
"""
    assert _rules("requirements.txt", source) == {"deps.cuda-wheel"}
    assert _layers("requirements.txt", source) == {"vendor-path": 1, "portable": 4}


def test_advanced_rvc_requirements_with_the_portable_onnxruntime_builds() -> None:
    source = b"""\
onnxruntime==1.20.1
onnxruntime-directml==1.20.1
onnxruntime-openvino
"""
    assert _layers("requirements.txt", source) == {"portable": 3}


def test_advanced_rvc_stft_moved_off_directml_and_opencl_devices_is_portable() -> None:
    # rvc/models/algorithms/discriminators.py (checked right): the STFT runs on the CPU for
    # the DirectML and OpenCL devices, which lack it; no vendor's device is named.
    source = b"""\
import torch


def stft_magnitude(x, n_fft, hop_length, win_length):
    # DirectML and OpenCL devices have no STFT: compute it on the CPU and move it back.
    off_device = x.device.type in ["privateuseone", "ocl"]
    spec = torch.stft(
        x.cpu() if off_device else x,
        n_fft=n_fft,
        hop_length=hop_length,
        window=torch.ones(win_length, device="cpu" if off_device else x.device),
        return_complex=True,
    )
    return torch.view_as_real(spec).norm(p=2, dim=-1).to(x.device)
"""
    assert _layers("rvc/models/discriminators.py", source) == {"portable": 11}


# -- Flash-X/Milhoja: a task-based runtime with a CUDA back end and OpenACC task functions -----


def test_milhoja_openacc_task_function_is_portable() -> None:
    # test/Sedov/gpu/variant3/Hydro_advanceSolutionHll_packet_oacc_summit_3.cpp (checked
    # right): OpenACC loops on the device pointers of a data packet, on its async queue.
    source = b"""\
#include "Milhoja_DataItem.h"
#include "DataPacket_gpu_tf_hydro.h"

void Hydro::advanceSolution_packet_oacc(const int tId, milhoja::DataItem* dataItem_h) {
    DataPacket_gpu_tf_hydro* packet_h = dynamic_cast<DataPacket_gpu_tf_hydro*>(dataItem_h);
    const int queue_h = packet_h->asynchronousQueue();
    const std::size_t* nTiles_d = packet_h->nTilesGpu();
    milhoja::Real* U_d = packet_h->U();

    #pragma acc data deviceptr(nTiles_d, U_d)
    {
        #pragma acc parallel loop gang default(none) async(queue_h)
        for (std::size_t n = 0; n < *nTiles_d; ++n) {
            U_d[n] *= 2.0;
        }
        #pragma acc wait(queue_h)
    }
}
"""
    assert _layers("test/Sedov/gpu/Hydro_advance_packet_oacc.cpp", source) == {"portable": 16}


def test_milhoja_cuda_stream_test_counts_its_kernel_alone_as_kernel_code() -> None:
    # test/CudaBackend/testCudaStreamManager.cu (checked right, kernel count 7 of 7): a
    # __global__ kernel, then googletest code checking the back end's CUDA streams.
    source = b"""\
#include <gtest/gtest.h>
#include <Milhoja_RuntimeBackend.h>

__global__ void kernel(const std::size_t N, double* f, const unsigned int sleep_ns) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        f[i] *= 2.2;
        __nanosleep(sleep_ns);
    }
}

TEST(TestStreams, Manager) {
    milhoja::RuntimeBackend& bknd = milhoja::RuntimeBackend::instance();
    milhoja::Stream stream = bknd.requestStream(true);
    EXPECT_NE(nullptr, stream.cudaStream);
    kernel<<<1, 32, 0, stream.cudaStream>>>(32, nullptr, 100);
    bknd.releaseStream(stream);
}
"""
    assert _rules("test/CudaBackend/testStreams.cu", source) == {
        "cuda.kernel",
        "cuda.launch",
        "cuda.runtime",
    }
    assert _layers("test/CudaBackend/testStreams.cu", source) == {
        "kernel": 7,
        "vendor-path": 2,
        "portable": 7,
    }
