"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-b).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 168-174. One was skipped: hosein-fanai/Continual-Learning-with-
Diffusion-Vision-Transformers (position 169) has no snapshot here. The other six were read:
bjorn-grape/bidirectional-pathtracer (a CPU path tracer in C++ on TBB), amiryahaya/triton (a
Go SBOM and cryptography scanner with Vue portals: no GPU code), HarshdeepAthawale/Transformer-
based-end-to-end-Web-Application-Firewall-WAF-pipeline (a FastAPI and Next.js WAF with a
DistilBERT classifier), AncientStudying/vllm-grpc (a gRPC front end to vLLM benchmarked on
Modal GPUs), brains-on-code/IterativeRefactoringLLM (Java snippets refactored by an LLM) and
zxxzy15493/Sparse-KVCache-Experiment (sparse KV-cache methods with vendored RAFT, nvbench and
flashinfer CUDA sources). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, five more kernel files counted by hand, and up to three commits touching
GPU code judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- AncientStudying/vllm-grpc: Apple's vLLM plug-in wheel, NVIDIA GPUs asked of Modal --------


def test_vllm_metal_wheel_reference_is_vendor_path() -> None:
    # pyproject.toml: a dependency group installs vLLM's Apple-silicon plug-in from its macOS
    # arm64 release wheel, as a PEP 508 direct reference; vLLM itself stays portable.
    source = b"""\
[project]
name = "grpc-front"
dependencies = []

[dependency-groups]
mac = [
    "vllm-metal @ https://example.org/dl/vllm_metal-0.2.0-cp312-cp312-macosx_11_0_arm64.whl",
]
targets = [
    "vllm==0.20.1; sys_platform == 'linux'",
]
"""
    assert _rules("pyproject.toml", source) == {"deps.coreml-wheel"}
    assert _layers("pyproject.toml", source) == {"vendor-path": 1, "portable": 9}


def test_modal_function_on_named_nvidia_gpu_is_vendor_path() -> None:
    # scripts/python/modal_vllm_rest.py, bench_modal.py: `@app.function(gpu="A10G")` deploys
    # the server on an NVIDIA A10G; the run's metadata records the model as a label only.
    source = b"""\
import modal

app = modal.App("rest-smoke")
image = modal.Image.debian_slim(python_version="3.12").pip_install("vllm")


@app.function(image=image, gpu="A10G", timeout=900)
def serve(model: str) -> dict:
    return {"model": model, "gpu_type": "A10G"}


def record(run) -> None:
    run.meta.gpu_type = "A10G"
"""
    assert _rules("scripts/modal_rest.py", source) == {"cloud.nvidia-gpu-model-string"}
    assert _layers("scripts/modal_rest.py", source) == {"vendor-path": 1, "portable": 7}


def test_modal_client_without_gpu_request_is_portable() -> None:
    # tools/benchmark/src/vllm_grpc_bench/m5_1_sweep.py: a CPU-only Modal app and result rows
    # naming the GPU of an earlier run; nothing here asks for a GPU.
    source = b"""\
import modal

app = modal.App("mock-bench")
GPU_LABEL = "A10G"


@app.function(cpu=2.0)
def mock() -> list[dict]:
    return [{"gpu_name": GPU_LABEL, "instance": "cpu"}]
"""
    assert _rules("bench/mock_sweep.py", source) == set()
    assert _layers("bench/mock_sweep.py", source) == {"portable": 6}


# -- verdicts that were right already -------------------------------------------------------


def test_onnxruntime_cuda_provider_list_is_vendor_path() -> None:
    # HarshdeepAthawale/...-WAF-pipeline backend/ml/onnx_classifier.py: CUDA first, CPU after.
    source = b"""\
import onnxruntime as ort


def load(path: str) -> ort.InferenceSession:
    providers = ["CUDAExecutionProvider", "CPUExecutionProvider"]
    return ort.InferenceSession(path, providers=providers)
"""
    assert _rules("ml/onnx_model.py", source) == {"onnxruntime.cuda-provider"}
    assert _layers("ml/onnx_model.py", source) == {"vendor-path": 1, "portable": 3}


def test_macro_qualified_kernel_and_its_launcher() -> None:
    # zxxzy15493/Sparse-KVCache-Experiment, RAFT's matrix/detail/columnWiseSort.cuh: kernels
    # declared through a project macro for `__global__ void`, launched by a host helper.
    source = b"""\
#pragma once
#include <cub/cub.cuh>

template <typename T>
DEMO_KERNEL fill_iota(T* out, int cols, int total)
{
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < total) { out[i] = i % cols; }
}

template <typename T>
cudaError_t launch_iota(T* out, int rows, int cols, cudaStream_t stream)
{
  int total = rows * cols;
  dim3 block(256);
  dim3 grid((total + block.x - 1) / block.x);
  fill_iota<T><<<grid, block, 0, stream>>>(out, cols, total);
  return cudaGetLastError();
}
"""
    layers = _layers("include/demo/detail/iota.cuh", source)
    assert layers["kernel"] == 6
    assert "cuda.launch" in _rules("include/demo/detail/iota.cuh", source)


def test_torch_extension_kernel_counted_apart_from_binding() -> None:
    # zxxzy15493/Sparse-KVCache-Experiment methods/Adakv/csrc/csrc/cuda_api.cu: one templated
    # kernel, a host wrapper launching it, and the pybind11 module.
    source = b"""\
#include <cuda_runtime.h>
#include <torch/extension.h>

template <typename T>
__global__ void append_rows(T* dst, const T* src, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        dst[i] = src[i];
    }
}

torch::Tensor append(torch::Tensor src) {
    auto out = torch::empty_like(src);
    int n = src.numel();
    append_rows<float><<<(n + 127) / 128, 128>>>(out.data_ptr<float>(), src.data_ptr<float>(), n);
    return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("append", &append, "append rows");
}
"""
    layers = _layers("csrc/api.cu", source)
    assert layers["kernel"] == 7
    assert "cuda.kernel" in _rules("csrc/api.cu", source)


def test_go_scanner_of_kernel_modules_is_portable() -> None:
    # amiryahaya/triton pkg/scanner/kernel.go: "kernel" is the Linux kernel's modules and
    # "triton" the product's name; nothing runs on a GPU.
    source = b"""\
package scanner

import "path/filepath"

// KernelModules lists the crypto modules under /lib/modules for the triton agent.
func KernelModules(root string) ([]string, error) {
	return filepath.Glob(filepath.Join(root, "lib/modules/*/kernel/crypto/*.ko"))
}
"""
    assert _rules("pkg/scanner/kernel.go", source) == set()
    assert _layers("pkg/scanner/kernel.go", source) == {"portable": 5}
