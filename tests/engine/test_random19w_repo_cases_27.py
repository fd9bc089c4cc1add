"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-w).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some are not GPU
code at all). This lane took sub-pool positions 99-105. One was skipped: blas1306/Aether (99)
had no snapshot to fetch. Read were willow-ahrens/ReproBLAS (reproducible BLAS for the CPU in
C, built on binned floating-point types, with its tests, benchmarks and a LaTeX report; no GPU
code), ROCm/ROCR-Runtime (AMD's HSA runtime, ROCr, with libhsakmt, the thunk to the amdgpu
driver's KFD, its kfdtest suite of hand-built PM4 and SDMA packets and GCN assembly shaders,
rocrtst, OpenCL blit kernels and the AMDGPU trap handler), MetalHuman38/paysmart (an Android
payments app in Kotlin with a small native crypto library in C++ and Firebase functions in
JavaScript; "Metal" is its author's name, no GPU code), adrielk/pyCUDA-Convolution (image
convolution in PyCUDA: CUDA C kernels in SourceModule strings, some built from string
templates, and NumPy/SciPy experiments), BryanAv7/upsglam-Pycuda (a Flask service applying
image filters with PyCUDA kernels, in a container on nvidia/cuda) and
TritonSE/LAP-Student-Tracker (a Next.js student tracker in TypeScript; "Triton" is a student
club's name, no GPU code). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/ROCR-Runtime: the HSA runtime, its KFD thunk and their tests ----------------------


def test_kfdtest_sdma_packet_writer_is_vendor_path() -> None:
    # libhsakmt/tests/kfdtest/src/SDMAPacket.cpp (sampled; portable before): command packets
    # of AMD's SDMA engine filled field by field, opcode and sub-opcode from AMD's header.
    source = b"""\
#include "DmaPackets.hpp"

LinearFill::LinearFill(unsigned family, void* dst, unsigned value, unsigned bytes) {
    family_ = family;
    pkt_ = static_cast<SDMA_PKT_CONSTANT_FILL*>(Grab(sizeof(SDMA_PKT_CONSTANT_FILL)));
    pkt_->HEADER_UNION.op = SDMA_OP_CONST_FILL;
    pkt_->HEADER_UNION.sub_op = SDMA_SUBOP_CONST_FILL;
    SplitAddress(reinterpret_cast<uint64_t>(dst), pkt_->DST_LO, pkt_->DST_HI);
    pkt_->DATA = value;
    pkt_->COUNT = family_ < 9 ? bytes : bytes - 1;
}
"""
    path = "tests/kfd/src/DmaPackets.cpp"
    assert _rules(path, source) == {"hip.pm4-sdma-packet"}
    assert set(_layers(path, source)) == {"portable", "vendor-path"}
    assert _layers(path, source)["vendor-path"] == 3


def test_kfdtest_pm4_release_mem_packet_is_vendor_path() -> None:
    # libhsakmt/tests/kfdtest/src/PM4Packet.cpp (a PM4 sibling of the sampled file, portable
    # before): a type-3 header and a compute-engine release-memory packet built by hand.
    source = b"""\
void ReleaseMem::Build(uint64_t addr, uint32_t value) {
    PM4_MEC_RELEASE_MEM_AI* p = Alloc<PM4_MEC_RELEASE_MEM_AI>();
    p->header.type = PM4_TYPE_3;
    p->header.opcode = IT_RELEASE_MEM;
    p->address = addr;
    p->data = value;
}
"""
    path = "tests/kfd/src/ComputePackets.cpp"
    assert _rules(path, source) == {"hip.pm4-sdma-packet"}
    assert _layers(path, source)["vendor-path"] == 2


def test_other_dma_engines_and_adreno_pm4_stay_portable() -> None:
    # Negative for the new rule: an i.MX SDMA channel and Adreno's PM4 words are not AMD's.
    source = b"""\
/* i.MX system DMA: channel 0 pointer, no AMD packets */
writel(SDMA_H_C0PTR_VALUE, sdma->regs + SDMA_H_C0PTR);
OUT_PKT7(ring, CP_EVENT_WRITE, 1);
int sdma_op_total = 0;
"""
    path = "drivers/dma/board_dma.c"
    assert "hip.pm4-sdma-packet" not in _rules(path, source)
    assert set(_layers(path, source)) == {"portable"}


def test_rocrtst_agent_query_is_vendor_path() -> None:
    # rocrtst/suites/performance/memory_async_copy.cc (commit 4890ffe, gate failed, right): a
    # test asks the runtime for the GPU agent's PCI domain before looking it up in hwloc.
    source = b"""\
static hsa_status_t CollectGpu(hsa_agent_t agent, void* data) {
  uint32_t domain = 0;
  hsa_status_t err = hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_DOMAIN,
                                        &domain);
  if (err != HSA_STATUS_SUCCESS) return err;
  return Remember(static_cast<Topo*>(data), domain);
}
"""
    path = "rocrtst/suites/perf/copy_bench.cc"
    assert "hip.hsa-runtime" in _rules(path, source)
    assert "kernel" not in _layers(path, source)
    assert _layers(path, source)["vendor-path"] >= 3


def test_kfdtest_gcn_assembly_in_raw_strings_is_kernel() -> None:
    # libhsakmt/tests/kfdtest/src/ShaderStore.cpp (an extra kernel file, count in range):
    # GCN assembly kept in C++ raw strings and assembled at test time.
    source = b"""\
const char* StoreOneIsa = R"(
        .text
        v_mov_b32 v0, s0
        v_mov_b32 v1, s1
        v_mov_b32 v2, 1
        flat_store_dword v[0:1], v2
        s_waitcnt vmcnt(0) & lgkmcnt(0)
        s_endpgm
)";
"""
    path = "tests/kfd/src/Shaders.cpp"
    assert "kernel" in _layers(path, source)
    assert _layers(path, source)["kernel"] >= 6


def test_rocrtst_gtest_port_is_portable() -> None:
    # rocrtst/gtest/src/gtest-port.cpp and libhsakmt's LinuxOSWrapper.cpp (sampled, right):
    # the bundled test framework and an OS wrapper, no runtime call.
    source = b"""\
#include <sys/stat.h>
#include <unistd.h>

unsigned long long ThreadCount() {
  struct stat st;
  return stat("/proc/self/task", &st) == 0 ? st.st_nlink - 2 : 0;
}
"""
    path = "tests/gtest/src/port.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- adrielk/pyCUDA-Convolution and BryanAv7/upsglam-Pycuda: PyCUDA image filters ----------


def test_pycuda_sourcemodule_kernel_is_kernel_and_host_is_vendor_path() -> None:
    # pyCUDA/pycudaDouble.py and gpu_filters_rgb.py (sampled, right, counts in range): a CUDA C
    # kernel compiled from a string, buffers moved with the driver API.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule

mod = SourceModule(\"\"\"
__global__ void halve(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= 0.5f;
}
\"\"\")
halve = mod.get_function("halve")
host = np.ones(64, dtype=np.float32)
dev = drv.mem_alloc(host.nbytes)
drv.memcpy_htod(dev, host)
halve(dev, np.int32(64), block=(64, 1, 1))
"""
    path = "filters/halve.py"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "vendor-path", "portable"}
    assert 4 <= layers["kernel"] <= 8


def test_pycuda_code_left_in_a_docstring_is_portable() -> None:
    # pyCUDA/fftTest.py (a GPU-looking file, right): the GPU FFT lives in commented-out
    # imports and a string never run; the script uses NumPy's FFT.
    source = b"""\
import numpy as np
#import pycuda.autoinit
#import skcuda.fft as cu_fft
\"\"\"
def fft_on_gpu(x):
    buf = gpuarray.to_gpu(x)
    return cu_fft.fft(buf)
\"\"\"
img = np.random.rand(32, 32)
spectrum = np.fft.fftshift(np.fft.fft2(img))
print(abs(spectrum).max())
"""
    path = "experiments/fft_try.py"
    assert set(_layers(path, source)) == {"portable"}


def test_flask_service_importing_pycuda_autoinit_is_vendor_path() -> None:
    # main.py (sampled, right): the web service creates the CUDA context at import time and
    # calls the filter module; the rest is Flask.
    source = b"""\
from flask import Flask, request, jsonify
import pycuda.autoinit
from filters_gpu import apply_filter

app = Flask(__name__)

@app.route("/filter", methods=["POST"])
def run():
    return jsonify(apply_filter(request.files["image"].read()))
"""
    path = "service/main.py"
    assert set(_layers(path, source)) == {"portable", "vendor-path"}
    assert _layers(path, source)["vendor-path"] == 1


def test_dockerfile_on_cuda_devel_image_is_vendor_path() -> None:
    # Dockerfile (sampled, right): the service's image starts from NVIDIA's CUDA image.
    source = b"""\
FROM nvidia/cuda:12.4.1-devel-ubuntu22.04
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update && apt-get install -y python3-pip
WORKDIR /srv
COPY . /srv
CMD ["python3", "main.py"]
"""
    path = "Dockerfile"
    assert set(_layers(path, source)) == {"portable", "vendor-path"}


# -- willow-ahrens/ReproBLAS, MetalHuman38/paysmart, TritonSE/LAP-Student-Tracker ----------


def test_binned_blas_routine_is_portable() -> None:
    # src/reproBLAS/rcdotc_sub.c (sampled, right): a reproducible dot product on the CPU.
    source = b"""\
#include <binnedBLAS.h>

void rep_cdot(const int fold, const int n, const void* x, const int incx, void* out) {
  float_complex_binned* acc = binned_cballoc(fold);
  binned_cbsetzero(fold, acc);
  binnedBLAS_cbcdotc(fold, n, x, incx, x, incx, acc);
  binned_ccbconv_sub(fold, acc, out);
  free(acc);
}
"""
    path = "src/rep/rcdot.c"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_android_native_crypto_by_an_author_named_metal_is_portable() -> None:
    # app/src/main/cpp/room/pbkdf2.cpp (a GPU-looking file, right): "Metal" is the author's
    # name in the header comment; the code derives keys with the CPU.
    source = b"""\
//
// Created by Metal on 2/1/2026.
//
#include <jni.h>
#include <vector>

std::vector<unsigned char> derive(const std::string& pass, const std::vector<unsigned char>& salt,
                                  int rounds) {
  std::vector<unsigned char> key(32);
  run_pbkdf2(pass, salt, rounds, key);
  return key;
}
"""
    path = "app/src/main/cpp/kdf/derive.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_nextjs_api_route_is_portable() -> None:
    # pages/api/users/[id]/index.ts (sampled, right): a Next.js route reading the database.
    source = b"""\
import type { NextApiRequest, NextApiResponse } from "next";
import { getUser } from "../../../../lib/database/users";

export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  const user = await getUser(String(req.query.id));
  return user ? res.status(200).json(user) : res.status(404).json({ error: "not found" });
}
"""
    path = "pages/api/users/[id]/index.ts"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
