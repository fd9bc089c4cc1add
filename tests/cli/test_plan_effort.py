"""`lockin plan` on the pattern of a PyTorch extension that builds its CUDA kernels for ROCm
through hipify at install time: most of its kernel lines are `port` for AMD, the CUTLASS and
inline-PTX kernels are `rewrite`, and every CUDA kernel is `rewrite` for Apple."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.cli import main

ELEMENTWISE = """\
#include <torch/extension.h>
#include <cuda_runtime.h>

template <typename T>
__device__ __forceinline__ T silu(T x) {
  return x / (T(1) + expf(-x));
}

template <typename T>
__global__ void silu_and_mul_kernel(T* out, const T* in, int d) {
  const int64_t token = blockIdx.x;
  for (int64_t i = threadIdx.x; i < d; i += blockDim.x) {
    const T x = in[token * 2 * d + i];
    const T y = in[token * 2 * d + d + i];
    out[token * d + i] = silu(x) * y;
  }
}

template <typename T>
__global__ void gelu_kernel(T* out, const T* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const T x = in[i];
    out[i] = T(0.5) * x * (T(1) + tanhf(T(0.7978845608) * (x + T(0.044715) * x * x * x)));
  }
}

void silu_and_mul(torch::Tensor& out, torch::Tensor& in) {
  int d = in.size(-1) / 2;
  dim3 grid(in.numel() / in.size(-1));
  dim3 block(std::min(d, 1024));
  silu_and_mul_kernel<float><<<grid, block>>>(out.data_ptr<float>(), in.data_ptr<float>(), d);
}
"""

NORM = """\
#include <cuda_runtime.h>

__global__ void rms_norm_kernel(float* out, const float* in, const float* w, int d, float eps) {
  extern __shared__ float partial[];
  const float* row = in + blockIdx.x * d;
  float sum = 0.f;
  for (int i = threadIdx.x; i < d; i += blockDim.x) {
    sum += row[i] * row[i];
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  const float scale = rsqrtf(partial[0] / d + eps);
  for (int i = threadIdx.x; i < d; i += blockDim.x) {
    out[blockIdx.x * d + i] = row[i] * scale * w[i];
  }
}

__global__ void rotary_kernel(float* q, const float* cos, const float* sin, int half) {
  const int pos = blockIdx.x;
  for (int i = threadIdx.x; i < half; i += blockDim.x) {
    const float x1 = q[pos * 2 * half + i];
    const float x2 = q[pos * 2 * half + half + i];
    q[pos * 2 * half + i] = x1 * cos[pos * half + i] - x2 * sin[pos * half + i];
    q[pos * 2 * half + half + i] = x2 * cos[pos * half + i] + x1 * sin[pos * half + i];
  }
}
"""

CUTLASS = """\
#include <cutlass/cutlass.h>
#include <cute/tensor.hpp>

template <class TiledMma>
__global__ void scaled_mm_kernel(float* c, const cutlass::half_t* a, int m) {
  using namespace cute;
  Tensor gA = make_tensor(make_gmem_ptr(a), make_shape(m, 64));
  TiledMma mma;
  auto thr = mma.get_slice(threadIdx.x);
  auto frag = thr.partition_fragment_A(gA);
  clear(frag);
}
"""

PTX = """\
#include <cuda_runtime.h>

__global__ void dequant_int4_kernel(unsigned* out, const unsigned* q) {
  unsigned lo;
  asm volatile("lop3.b32 %0, %1, %2, %3, 0xea;\\n"
               : "=r"(lo) : "r"(q[threadIdx.x]), "n"(0x000f000f), "n"(0x64006400));
  out[threadIdx.x] = lo;
}
"""

SETUP = """\
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="myext",
    ext_modules=[CUDAExtension("myext._C", ["csrc/ops/activation.cu", "csrc/ops/norm.cu"])],
    cmdclass={"build_ext": BuildExtension},
)
"""


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("ext")
    files = {
        "setup.py": SETUP,
        "csrc/ops/activation.cu": ELEMENTWISE,
        "csrc/ops/norm.cu": NORM,
        "csrc/gemm/scaled_mm.cu": CUTLASS,
        "csrc/quant/dequant.cu": PTX,
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    assert main(["plan", str(root), "--format", "json"], out=out, err=err) == 0
    return json.loads(out.getvalue())


def test_amd_port_is_most_of_the_kernel_lines(document: dict) -> None:
    amd = next(p for p in document["plans"] if p["target"] == "amd")
    assert amd["tool"] == "hipify"
    assert amd["kernel"] == amd["port"] + amd["review"] + amd["rewrite"]
    assert amd["port"] > amd["kernel"] / 2
    assert amd["rewrite"] > 0


def test_cutlass_and_inline_ptx_kernels_are_rewrites_for_amd(document: dict) -> None:
    kernels = {k["name"]: k["targets"] for k in document["kernels"]}
    assert kernels["scaled_mm_kernel"]["amd"]["effort"] == "rewrite"
    assert kernels["dequant_int4_kernel"]["amd"]["effort"] == "rewrite"
    whats = {r["what"] for r in kernels["dequant_int4_kernel"]["amd"]["reasons"]}
    assert "asm lop3" in whats
    for name in ("silu_and_mul_kernel", "gelu_kernel", "rms_norm_kernel", "rotary_kernel"):
        assert kernels[name]["amd"]["effort"] == "port", name


def test_every_cuda_kernel_is_a_rewrite_for_apple(document: dict) -> None:
    assert all(k["targets"]["apple"]["effort"] == "rewrite" for k in document["kernels"])
    apple = next(p for p in document["plans"] if p["target"] == "apple")
    assert apple["port"] == apple["review"] == 0
    assert apple["rewrite"] == apple["kernel"] > 0


def test_headline_keeps_the_seed_figure_and_adds_the_mechanical_split(document: dict) -> None:
    head = document["headline"]
    amd = next(p for p in document["plans"] if p["target"] == "amd")
    assert head["locked_to_nvidia"] >= amd["kernel"]
    (mech_amd,) = [m for m in head["mechanical"] if m["target"] == "amd"]
    assert mech_amd == {"target": "amd", "tool": "hipify", "lines": amd["port"] + amd["mechanical"]}


def test_text_truncation_says_how_many_kernels_are_left_out(tmp_path: Path) -> None:
    for i in range(20):
        (tmp_path / f"k{i}.cu").write_text(f"__global__ void k{i}(float* x) {{ x[0] = {i}; }}\n")
    out = io.StringIO()
    assert main(["plan", str(tmp_path)], out=out, err=io.StringIO()) == 0
    assert "… and 5 more kernels" in out.getvalue()
