"""Cases seen in real repositories outside machine learning: simulation, rendering,
cryptography, scientific computing and GPU DSLs in other languages.

Each snippet is a small rewrite, in our own words, of a pattern found there; the repository is
named per test. They pin the verdict a porting engineer gives the file: its language, the
layer of its lines and the ecosystem (so the vendors) they belong to.
"""

from __future__ import annotations

from bot.engine import classify
from bot.engine.model import FileReport, Layer


def _layers(report: FileReport) -> dict[str, int]:
    return {layer.value: count for layer, count in report.layers.items() if count}


# -- hashcat/hashcat: OpenCL kernels compiled for OpenCL, CUDA, HIP and Metal -----------------

HASHCAT_HEADER = b"""\
#ifndef INC_PLATFORM_H
#define INC_PLATFORM_H
#if defined IS_METAL
#define KERN_ATTR_MAIN uint3 gid [[ thread_position_in_grid ]]
#elif defined IS_CUDA
#define KERN_ATTR_MAIN const u64 gid_max, const u32 lsz
#else
#define KERN_ATTR_MAIN const u64 gid_max
#endif
DECLSPEC u32 hc_atomic_inc (GLOBAL_AS u32 *p);
#endif
"""


def test_hashcat_device_headers_are_opencl_device_code() -> None:
    # OpenCL/inc_*.h: headers of the .cl kernels with a Metal branch among CUDA/HIP/OpenCL
    # ones; they are device code for every backend, not Metal-only and not portable.
    report = classify("OpenCL/inc_platform.h", HASHCAT_HEADER)
    assert report.language == "OpenCL"
    assert _layers(report) == {"kernel": report.code_lines}
    assert set(report.ecosystems) == {"opencl"}
    # Outside an OpenCL folder the same Metal attribute under a project switch stays C.
    assert classify("include/platform.h", HASHCAT_HEADER).language == "C Header"


def test_hashcat_include_cl_files_of_device_functions_are_kernel_code() -> None:
    # OpenCL/inc_hash_sha256.cl: device functions only, no __kernel entry point.
    source = b"""\
#include "inc_vendor.h"
DECLSPEC void sha256_init (PRIVATE_AS sha256_ctx_t *ctx)
{
  ctx->h[0] = SHA256M_A;
  ctx->len = 0;
}
"""
    report = classify("OpenCL/inc_hash_sha256.cl", source)
    assert _layers(report) == {"kernel": 6}
    assert report.ecosystems == {"opencl": 6}


def test_hashcat_backend_wrappers_are_vendor_path() -> None:
    # src/ext_metal.m drives Metal through an untyped id; src/ext_hiprtc.c the HIP compiler.
    metal = b"""\
int hc_mtlCreateCommandQueue (void *ctx, id metal_device, id *queue)
{
  *queue = [metal_device newCommandQueue];
  return (*queue == nil) ? -1 : 0;
}
"""
    report = classify("src/ext_metal.m", metal)
    assert report.ecosystems == {"metal": 1}
    hiprtc = b"typedef hiprtcResult (*HIPRTC_HIPRTCCREATEPROGRAM) (hiprtcProgram *, const char *);\n"
    assert classify("include/ext_hiprtc.h", hiprtc).ecosystems == {"hip": 1}
