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
