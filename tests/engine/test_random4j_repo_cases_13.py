"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h40-random-j).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 81-90: jiafulow/emtf-hlslib, Omjagdal/learning-TensorRT-, tigantic/physics-os,
TexasInstruments/edgeai-tensorlab, IrinaCtf/Crypto_Project2_Hashcat, strlght/cutlass,
dugudyoudi/ZLLBM, QuICC/QuICC-Solver, graphdeco-inria/editable-gaussian-reflections and
Sunday111/D3D_Samples. None was skipped: all ten had a snapshot. Fifteen files of each (five
of Crypto_Project2_Hashcat, which has five) were sampled with ``random.Random("owner/name")``
over every file lockin counts, and labelled before any fix, with the files lockin calls
non-portable (up to twenty) and GPU-looking files it calls portable (up to ten) checked
apart, and three commits per repository drawn with ``random.Random("owner/name:commits")``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- strlght/cutlass: an Android deobfuscator in Kotlin that happens to be called Cutlass -------


def test_kotlin_package_named_cutlass_is_not_a_cutlass_binding() -> None:
    # cutlass-core/src/main/kotlin/io/strlght/cutlass/core/Pipeline.kt: every source file of
    # the tool sits in io.strlght.cutlass.*. Before, all 88 Kotlin files (4560 lines) were
    # an NVIDIA vendor-library binding, and every commit failed the gate.
    source = b"""\
package io.strlght.cutlass.core

import io.strlght.cutlass.api.Analyzer
import io.strlght.cutlass.api.ClassPool

class Pipeline(private val analyzers: List<Analyzer>) {
    fun run(pool: ClassPool) {
        analyzers.forEach { it.analyze(pool) }
    }
}
"""
    assert _layers("cutlass-core/src/main/kotlin/io/strlght/cutlass/core/Pipeline.kt", source) == {
        "portable": 8
    }


def test_java_cublas_binding_package_is_still_vendor_library() -> None:
    # The rule the cutlass case narrowed still takes a package named for an NVIDIA library
    # that can be bound (a JNI wrapper of cuBLAS, as in TornadoVM's tornado-cublas).
    source = b"""\
package org.example.gpu.cublas;

public final class Gemm {
    public static native int sgemm(long handle, int m, int n, int k);
}
"""
    assert _rules("src/org/example/gpu/cublas/Gemm.java", source) == {"cuda.managed-library-module"}
    assert _layers("src/org/example/gpu/cublas/Gemm.java", source) == {"vendor-library": 4}


# -- Omjagdal/learning-TensorRT-: a RAG back end on transformers pipelines ----------------------


def test_pipeline_device_ordinal_picked_by_cuda_availability_is_vendor_path() -> None:
    # backend/app/llm/qwen_service.py: the pipeline gets GPU 0 when CUDA is there and the CPU
    # (-1) otherwise, with half precision only on the GPU. Before, the file was portable, while
    # the reranker beside it ("cuda" if torch.cuda.is_available() else "cpu") was not.
    source = b"""\
import torch
from transformers import pipeline


class QwenService:
    def load(self, name):
        device = 0 if torch.cuda.is_available() else -1
        self.pipe = pipeline(
            "text-generation",
            model=name,
            device=device,
            torch_dtype=torch.float16 if device == 0 else torch.float32,
        )
"""
    assert _rules("backend/app/llm/qwen_service.py", source) == {"torch.cuda-device-ordinal"}
    assert _layers("backend/app/llm/qwen_service.py", source) == {
        "vendor-path": 1,
        "portable": 10,
    }


def test_worker_count_tuned_for_cuda_is_portable() -> None:
    # The same test of torch.cuda.is_available() choosing a number that is no device (a
    # loader's workers, a batch size) runs the same code on every machine.
    source = b"""\
import torch

num_workers = 4 if torch.cuda.is_available() else 0
batch_size = 64 if torch.cuda.is_available() else 8
"""
    assert _layers("data/loader.py", source) == {"portable": 3}


# -- jiafulow/emtf-hlslib: Vitis HLS firmware for the CMS endcap muon track finder ---------------


def test_vivado_hls_run_script_is_xilinx_build() -> None:
    # subprojects/fe/run_hls.tcl: the script vivado_hls runs picks the FPGA part and
    # synthesises the top function; the parts it does not use are left commented out.
    # Before, the Tcl file was portable while the Makefiles of the same flow were not.
    source = b"""\
set XPART xc7vx690tffg1927-2
#set XPART xcvu9p-flga2104-2l-e
open_project -reset myproject_prj
add_files firmware/myproject.cpp -cflags "-std=c++11"
add_files -tb myproject_test.cpp
set_top myproject
open_solution -reset solution1
set_part $XPART
create_clock -period 160MHz -name default
if {$CSIM == 1} {
  csim_design
}
if {$CSYNTH == 1} {
  csynth_design
}
exit
"""
    assert _rules("subprojects/fe/run_hls.tcl", source) == {"build.vitis"}
    assert _layers("subprojects/fe/run_hls.tcl", source) == {"vendor-path": 2, "portable": 13}


def test_hls_csim_makefile_building_with_gcc_is_portable() -> None:
    # hls_math/recip_fixed/Makefile: the C simulation build Vivado HLS wrote out, compiling
    # the testbench with g++ against the tool's headers; it makes a host program, no FPGA
    # image. Checked right (a judgement: only the include path is Xilinx's).
    source = b"""\
AUTOPILOT_ROOT := /opt/Xilinx/Vivado/2020.1
IFLAG += -I "${AUTOPILOT_ROOT}/include"
IFLAG += -Wno-unknown-pragmas -std=c++11
CXX = g++
csim.exe: main.o
\t$(CXX) main.o -o $@
"""
    assert _layers("hls_math/recip_fixed/Makefile", source) == {"portable": 6}


def test_hls_top_function_with_directives_is_kernel() -> None:
    # jiafulow/emtf-hlslib subprojects/mi/firmware/myproject.cpp: a Vitis HLS top function
    # whose pipeline and interface directives make it FPGA kernel code. Checked right.
    source = b"""\
#include "myproject.h"

void myproject(const top_in_t in0[TOP_N_IN], top_out_t out[TOP_N_OUT]) {
#pragma HLS PIPELINE II = 1
#pragma HLS INTERFACE ap_vld port = in0
#pragma HLS ARRAY_PARTITION variable = out complete dim = 0
  feat_t feat[TOP_N_IN];
  for (unsigned i = 0; i < TOP_N_IN; i++) {
#pragma HLS UNROLL
    feat[i] = in0[i];
  }
  fullyconnect_layer(feat, out);
}
"""
    assert _rules("subprojects/mi/firmware/myproject.cpp", source) == {"vitis.hls-kernel"}


# -- tigantic/physics-os: tensor networks in Python and Rust, with Triton and CUDA paths -------


def test_icicle_hash_on_host_slices_is_portable() -> None:
    # tigantic/physics-os crates/fluidelite_zk/src/semaphore/zk_circuit.rs: Ingonyama's Icicle
    # behind a "gpu" cargo feature, hashing host slices on whatever back end Icicle loads
    # (CPU, CUDA or Metal); the file picks no device. Checked right.
    source = b"""\
#[cfg(all(feature = "gpu", feature = "halo2"))]
use icicle_core::poseidon::Poseidon;

#[cfg(all(feature = "gpu", feature = "halo2"))]
use icicle_runtime::memory::HostSlice;

#[cfg(all(feature = "gpu", feature = "halo2"))]
pub fn leaf_hash(inputs: &[ScalarField]) -> ScalarField {
    let hasher = Poseidon::new::<ScalarField>(3, None).unwrap();
    let mut out = vec![ScalarField::zero(); 1];
    let config = HashConfig::default();
    let input = HostSlice::from_slice(inputs);
    hasher.hash(input, &config, HostSlice::from_mut_slice(&mut out)).unwrap();
    out[0]
}
"""
    assert _layers("crates/fluidelite_zk/src/semaphore/zk_circuit.rs", source) == {"portable": 13}
