"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-p).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 693-699. Two were skipped: LoggeL/voxel-blitz (694) and
KozumaLaboratory/BEC-simulation (697) had no snapshot to fetch. Read were
EitanWong/com.eitan.sherpa-onnx-unity (a Unity package wrapping sherpa-onnx speech models:
C# scripts and one ShaderLab progress-bar shader), tensorflow/model-optimization (Keras
pruning, clustering and quantization in Python with Bazel BUILD files, no GPU code),
Molecular-Lab/quirk (a TypeScript/SQL web3 yield product, no GPU code), dhmyess/PyCudaBTCMiner
(a Bitcoin miner: two CUDA files with a SHA-256 kernel and an extern "C" host wrapper, Python
ctypes loaders and nvcc build scripts) and FluidInference/FluidAudio (Swift speech models on
Core ML and the Apple Neural Engine). Snapshots missing large blobs (prebuilt .so/.dll
libraries, a GIF) were checked out file by file without them; no counted source file was
missing. Fifteen files of each repository (all eleven of PyCudaBTCMiner) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand
(up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- dhmyess/PyCudaBTCMiner: a miner's kernel file and the host code around it -----------------


def test_miner_kernel_file_counts_device_code_and_host_runtime_apart() -> None:
    # rr.cu / liblooper.cu: a __constant__ round table, a __device__ byte-swap helper, the
    # __global__ search kernel, and an extern "C" wrapper that allocates, copies and launches.
    # The table's initializer rows are data (only its declaration counts as kernel); the
    # wrapper's runtime calls and launch are vendor-path; the host-only macro is portable.
    source = b"""\
#include <cuda_runtime.h>
#include <stdint.h>

#define ROTL(v, s) (((v) << (s)) | ((v) >> (32 - (s))))

__constant__ uint32_t ROUND_SALT[8] = {
    0x11111111, 0x22222222, 0x33333333, 0x44444444,
    0x55555555, 0x66666666, 0x77777777, 0x88888888
};

__device__ __forceinline__ uint32_t swap_bytes(uint32_t v) {
    return __byte_perm(v, 0, 0x0123);
}

__global__ void search(const uint32_t* seed, uint32_t* hits, uint32_t* n_hits, uint32_t base) {
    uint32_t probe = base + blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t acc = seed[0] ^ probe;
    for (int r = 0; r < 8; r++) {
        acc = ROTL(acc, 5) + ROUND_SALT[r];
    }
    if (swap_bytes(acc) > seed[1]) return;
    uint32_t slot = atomicAdd(n_hits, 1);
    hits[slot] = probe;
}

extern "C" int scan_range(const uint32_t* host_seed, uint32_t base) {
    uint32_t *d_seed, *d_hits, *d_n;
    uint32_t found = 0;
    cudaMalloc((void**)&d_seed, 2 * sizeof(uint32_t));
    cudaMalloc((void**)&d_hits, 64 * sizeof(uint32_t));
    cudaMalloc((void**)&d_n, sizeof(uint32_t));
    cudaMemcpy(d_seed, host_seed, 2 * sizeof(uint32_t), cudaMemcpyHostToDevice);
    search<<<1024, 256>>>(d_seed, d_hits, d_n, base);
    cudaMemcpy(&found, d_n, sizeof(uint32_t), cudaMemcpyDeviceToHost);
    cudaFree(d_seed);
    cudaFree(d_hits);
    cudaFree(d_n);
    return (int)found;
}
"""
    assert _rules("miner.cu", source) == {
        "cuda.include",
        "cuda.shared-memory",
        "cuda.device-function",
        "cuda.kernel",
        "cuda.runtime",
        "cuda.launch",
    }
    assert _layers("miner.cu", source) == {"kernel": 14, "vendor-path": 10, "portable": 10}


def test_ctypes_loader_of_the_projects_own_gpu_library_is_portable() -> None:
    # looper.py / rrnonce.py: ctypes loads the project's own compiled library and declares
    # its C signature; the CUDA code is in the .cu files, nothing here names NVIDIA.
    source = b"""\
import ctypes
import os

_name = "./libscan.so" if os.name == "posix" else "./libscan.dll"
_lib = ctypes.CDLL(os.path.abspath(_name))
_lib.scan_range.argtypes = [ctypes.POINTER(ctypes.c_uint32), ctypes.c_uint32]
_lib.scan_range.restype = ctypes.c_int


def scan_on_gpu(seed, base):
    buf = (ctypes.c_uint32 * 2)(*seed)
    return _lib.scan_range(buf, base)
"""
    assert _rules("miner/loader.py", source) == set()
    assert _layers("miner/loader.py", source) == {"portable": 9}


def test_batch_build_counts_nvcc_steps_not_its_capitalised_message() -> None:
    # build.bat: `where nvcc` and the nvcc compile are the NVIDIA-only steps; the unquoted
    # `echo Error: NVCC not found in PATH!` is a message (it was counted before this lane).
    source = b"""\
@echo off
where nvcc >nul 2>nul
if %errorlevel% neq 0 (
    echo Error: NVCC not found in PATH!
    exit /b 1
)
nvcc -o libscan.dll ^
    -O3 ^
    --shared ^
    miner.cu
echo Done.
"""
    assert _rules("build.bat", source) == {"build.nvcc"}
    assert _layers("build.bat", source) == {"vendor-path": 2, "portable": 9}


def test_shell_build_querying_compute_capability_is_vendor_path() -> None:
    # build.sh: the compute capability read from nvidia-smi, then nvcc -arch=sm_XX. Only the
    # command's first line counts: its continuation lines are an open decision (report).
    source = b"""\
#!/bin/bash
set -e
CAP=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader)
ARCH="sm_${CAP//./}"
nvcc -o libscan.so \\
    -O3 \\
    --shared \\
    -Xcompiler -fPIC \\
    -arch=$ARCH \\
    miner.cu
echo "built libscan.so"
"""
    assert _rules("build.sh", source) == {"build.nvcc"}
    assert _layers("build.sh", source) == {"vendor-path": 2, "portable": 8}


# -- FluidInference/FluidAudio: Core ML settings, and host code that is not GPU code ----------


def test_core_ml_compute_units_setting_is_vendor_library() -> None:
    # Sources/FluidAudio/VAD/VadTypes.swift: a config struct holding MLComputeUnits,
    # defaulting to the CPU and Neural Engine.
    source = b"""\
import CoreML
import Foundation

public struct DetectorSettings {
    public var threshold: Float
    public var computeUnits: MLComputeUnits

    public init(threshold: Float = 0.5, computeUnits: MLComputeUnits = .cpuAndNeuralEngine) {
        self.threshold = threshold
        self.computeUnits = computeUnits
    }
}
"""
    assert _rules("VAD/VadSettings.swift", source) == {"metal.coreml"}
    assert _layers("VAD/VadSettings.swift", source) == {"vendor-library": 3, "portable": 7}


def test_darwin_sysctl_host_probe_is_portable() -> None:
    # Sources/FluidAudio/Shared/SystemInfo.swift: the chip name read with sysctlbyname is
    # OS-specific, not a GPU vendor's API.
    source = b"""\
import Darwin
import Foundation

enum HostInfo {
    static func chipName() -> String {
        var size = 0
        guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0 else { return "?" }
        var buffer = [CChar](repeating: 0, count: size)
        sysctlbyname("machdep.cpu.brand_string", &buffer, &size, nil, 0)
        return String(cString: buffer)
    }
}
"""
    assert _rules("Shared/HostInfo.swift", source) == set()
    assert _layers("Shared/HostInfo.swift", source) == {"portable": 11}


# -- EitanWong/com.eitan.sherpa-onnx-unity: a ShaderLab UI shader ---------------------------


def test_shaderlab_cg_program_is_kernel_from_cgprogram_to_endcg() -> None:
    # Assets/Demo/Collection/Common/Shaders/Easy Progress Bar.shader: the Properties and
    # SubShader/Pass wrapper are ShaderLab (portable); CGPROGRAM ... ENDCG is the shader.
    source = b"""\
Shader "UI/Simple Meter"
{
    Properties
    {
        _Fill ("Fill", Range(0, 1)) = 0
    }
    SubShader
    {
        Pass
        {
            CGPROGRAM
            #pragma vertex vert
            #pragma fragment frag
            #include "UnityCG.cginc"

            float _Fill;

            struct v2f { float4 pos : SV_POSITION; float2 uv : TEXCOORD0; };

            v2f vert(appdata_base v)
            {
                v2f o;
                o.pos = UnityObjectToClipPos(v.vertex);
                o.uv = v.texcoord.xy;
                return o;
            }

            fixed4 frag(v2f i) : SV_Target
            {
                return i.uv.x < _Fill ? fixed4(0, 1, 0, 1) : fixed4(0, 0, 0, 0.5);
            }
            ENDCG
        }
    }
}
"""
    assert _rules("Shaders/Simple Meter.shader", source) == {"hlsl.shaderlab-program"}
    assert _layers("Shaders/Simple Meter.shader", source) == {"kernel": 18, "portable": 13}
