"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h45-random-k).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 546-553. One could not be read: intel-ai-tce/inference_results_v6.1 (no snapshot).
keryan-leguere/cfd-framework and thesyncim/simdjson hold no GPU code. Fifteen files of each
remaining repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts, and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10), three commits touching GPU code each. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- turanszkij/WickedEngine: HLSL shaders, headers shared by the engine and its shaders -----


def test_wicked_shader_interop_header_half2_is_hlsl_not_cuda() -> None:
    # WickedEngine/shaders/ShaderInterop_Renderer.h and ShaderInterop_DDGI.h: structs the C++
    # engine and the .hlsl shaders both include, with HLSL-only helpers under
    # `#ifndef __cplusplus` that build half2 values beside half3/half4. Before, each half2
    # line was cuda.fp-types (vendor-path) and the headers non-portable.
    source = b"""\
#pragma once
#include "ShaderInterop.h"

struct ShaderMaterial
{
    uint2 packed_sheen;
    uint2 packed_interior;

#ifndef __cplusplus
    inline half3 GetSheenColor() { return unpack_half3(packed_sheen); }
    inline half2 GetInteriorSinCos() { return half2(unpack_half4(packed_interior).zw); }
    inline half GetMeshBlend() { return f16tof32(packed_sheen.y >> 16u); }
#endif // __cplusplus
};
"""
    assert _rules("WickedEngine/shaders/ShaderInterop_Material.h", source) == set()
    assert _layers("WickedEngine/shaders/ShaderInterop_Material.h", source) == {"portable": 12}


def test_cuda_header_with_its_own_half4_keeps_its_half2() -> None:
    # The negative: a CUDA header that declares a four-wide half struct of its own still
    # uses CUDA's half2 (cuda_fp16.h); the include counts too.
    source = b"""\
#pragma once
#include <cuda_fp16.h>
struct half4 { half2 lo, hi; };
inline half2 sum(half4 v) { return __hadd2(v.lo, v.hi); }
"""
    assert "cuda.fp-types" in _rules("src/half4.h", source)
    assert _layers("src/half4.h", source)["vendor-path"] == 3


# -- xorbitsai/inference: a wheel mirror built for one CUDA channel ---------------------------


def test_xinference_dockerfile_cuda_channel_argument_is_vendor_path() -> None:
    # xinference/deploy/docker/pypiserver/Dockerfile.pypiserver: the PyTorch index is
    # download.pytorch.org/whl/${CUDA_SUFFIX}, the suffix set to cu130 by a build argument.
    # Before, portable: only a literal /whl/cu130 was read.
    source = b"""\
ARG PYTHON_VERSION=3.12
FROM python:${PYTHON_VERSION}-slim AS downloader
# CUDA 12 wheels are no longer mirrored.
ARG CUDA_SUFFIX=cu130
RUN pip install --no-cache-dir uv packaging
RUN python download_packages.py \\
      --dest /data/packages \\
      --pytorch-index "https://download.pytorch.org/whl/${CUDA_SUFFIX}"
"""
    assert _rules("deploy/docker/pypiserver/Dockerfile.pypiserver", source) == {"deps.cuda-wheel"}
    assert _layers("deploy/docker/pypiserver/Dockerfile.pypiserver", source) == {
        "vendor-path": 1,
        "portable": 6,
    }


def test_shell_channel_variable_set_to_cpu_stays_portable() -> None:
    # The negative: the same index chosen by a variable set to the CPU channel.
    source = b"""\
export TORCH_CHANNEL=cpu
pip install torch --index-url "https://download.pytorch.org/whl/${TORCH_CHANNEL}"
"""
    assert _layers("scripts/install_cpu.sh", source) == {"portable": 2}


def test_xinference_pytorch_cuda_allocator_variable_is_vendor_path() -> None:
    # Checked right: xinference/core/worker.py sets PYTORCH_CUDA_ALLOC_CONF for a model's
    # subprocess (commit f2f6537a, which the gate fails), a setting only CUDA's caching
    # allocator reads.
    source = b"""\
def allocator_envs(envs):
    updated = dict(envs)
    updated.setdefault("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True")
    return updated
"""
    assert _layers("xinference/core/worker.py", source)["vendor-path"] == 1


# -- vlkale/kokkos-tools: profiler connectors for each vendor's tracer ------------------------


def test_kokkos_tools_nvtx_connector_makefile_is_vendor_path() -> None:
    # Checked right: profiling/nvprof-focused-connector/Makefile compiles with g++ against the
    # toolkit's headers and links NVTX and the CUDA runtime.
    source = b"""\
CXX=g++
CXXFLAGS=-O3 -std=c++11 -g -I$(CUDA_ROOT)/include -I./
LDFLAGS=-L$(CUDA_ROOT)/lib64
LIBS=-lnvToolsExt -lcudart
SHARED_CXXFLAGS=-shared -fPIC

all: kp_nvtx_focused.so
"""
    layers = _layers("profiling/nvprof-focused-connector/Makefile", source)
    assert layers["vendor-path"] == 3


def test_kokkos_tools_memory_space_names_are_portable() -> None:
    # Checked right: profiling/space-time-stack tells Kokkos memory spaces apart by the names
    # the runtime passes in; naming CUDA's and HIP's spaces calls neither.
    source = b"""\
enum Space { SPACE_HOST, SPACE_CUDA, SPACE_HIP, SPACE_OTHER };

Space get_space(const char* name) {
  if (strncmp(name, "Cuda", 4) == 0) return SPACE_CUDA;
  if (strncmp(name, "HIP", 3) == 0) return SPACE_HIP;
  return SPACE_HOST;
}
"""
    assert _layers("profiling/space-time-stack/kp_space_time_stack.cpp", source) == {"portable": 6}
