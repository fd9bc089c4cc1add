"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-m).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 672-678. None was skipped: every one had a snapshot under
the size limit and files lockin counts (three lacked blobs of 4 MiB and more, data headers and
logs, and were read from the files present). Read were fciceri17/peo-pycuda (a PyCUDA
perfect-elimination-ordering solver: .cu files and CUDA source in a Python string),
boyiwei/Sort-Acceleration (Vitis HLS sorting kernels in C for a Xilinx FPGA),
RenBing-Sumeru/Awesome-LLM-Reasoning-Data (a paper list with a small JavaScript site, no GPU
code), UKPLab/sentence-transformers (the embedding library; device strings and CUDA calls
in its examples and tests), kaushik0911/pycuda-spell-checker (PyCUDA kernels in Python
strings), malmaud/TensorFlow.jl (Julia bindings to TensorFlow; GPU Docker images and a build
script fetching the CUDA libtensorflow) and lizTheDeveloper/ai_game_theory_simulation (a
TypeScript simulation, no GPU code). Fifteen files of each repository were sampled with
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

# -- malmaud/TensorFlow.jl: a build script downloading the CUDA build of libtensorflow -------


def test_julia_build_script_fetching_the_gpu_libtensorflow_is_vendor_path() -> None:
    # deps/build.jl: an environment switch picks the CUDA archive of TensorFlow's C library
    # over the CPU one; only the GPU branch's URL ties the build to NVIDIA.
    source = b"""\
gpu = get(ENV, "WANT_GPU", "0") == "1"
base = "https://storage.googleapis.com/tensorflow/libtensorflow"
if gpu
    archive = "$base/libtensorflow-gpu-linux-x86_64-$version.tar.gz"
else
    archive = "$base/libtensorflow-cpu-linux-x86_64-$version.tar.gz"
end
fetch_and_unpack(archive)
"""
    assert _rules("deps/build.jl", source) == {"deps.cuda-prebuilt-library"}
    assert _layers("deps/build.jl", source) == {"vendor-path": 1, "portable": 7}


def test_libtorch_cuda_zip_in_a_python_fetcher_is_vendor_path() -> None:
    source = b"""\
def libtorch_url(use_gpu):
    if use_gpu:
        return "https://download.pytorch.org/libtorch/cu118/libtorch-shared-with-deps-latest.zip"
    return "https://download.pytorch.org/libtorch/cpu/libtorch-shared-with-deps-latest.zip"
"""
    assert _rules("tools/get_libtorch.py", source) == {"deps.cuda-prebuilt-library"}
    assert _layers("tools/get_libtorch.py", source) == {"vendor-path": 1, "portable": 3}


def test_cpu_archives_and_comments_stay_portable() -> None:
    source = b"""\
# the libtensorflow-gpu-linux-x86_64 archive would need CUDA: take the CPU one
archive = "libtensorflow-cpu-linux-x86_64-$version.tar.gz"
runtime = "onnxruntime-linux-x64-1.17.1.tgz"
"""
    assert _rules("deps/build.jl", source) == set()
    assert _layers("deps/build.jl", source) == {"portable": 2}


# -- already right: pinned so that they stay so ---------------------------------------------


def test_pycuda_kernel_string_counts_its_kernel_lines() -> None:
    # kaushik0911/pycuda-spell-checker final/replace.py: a kernel compiled with SourceModule,
    # buffers moved with the driver API around it.
    source = b'''\
import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule


def fill(buf, letters, n):
    dev = drv.mem_alloc(buf.nbytes)
    drv.memcpy_htod(dev, buf)
    mod = SourceModule("""
    __global__ void stamp(char *out, const char *letters, int n)
    {
        int t = blockIdx.x * blockDim.x + threadIdx.x;
        for (int i = t * n; i < (t + 1) * n; i += n + 1) {
            out[i] = letters[t];
        }
    }
    """)
    mod.get_function("stamp")(dev, letters, n, block=(26, 1, 1))
    drv.memcpy_dtoh(buf, dev)
'''
    layers = _layers("speller/replace.py", source)
    assert layers["kernel"] == 9
    assert "pycuda.source-module" in _rules("speller/replace.py", source)


def test_cuda_program_string_with_includes_is_kernel() -> None:
    # fciceri17/peo-pycuda scripts/run_main.py: CUDA source in a module-level string, built
    # with DynamicSourceModule; device functions launch child kernels.
    source = b'''\
from pycuda.compiler import DynamicSourceModule

code = """
#include <helpers.cu>
extern "C" {
__device__ void step(float *a, int n)
{
    mark<<< 1, n >>>(a);
    cudaDeviceSynchronize();
}
__global__ void run(float *a, int n)
{
    step(a, n);
}
}
"""
module = DynamicSourceModule(code, no_extern_c=True)
'''
    # Since lane h51-random-x pycuda.source-module follows the variable into
    # DynamicSourceModule and claims the whole literal with its quote lines, as it does for
    # SourceModule (14; cuda.source-string alone gave 13; 12 lines of CUDA inside).
    assert _rules("scripts/run.py", source) & {"cuda.source-string", "pycuda.source-module"}
    assert _layers("scripts/run.py", source)["kernel"] == 14


def test_vitis_hls_sort_file_is_kernel() -> None:
    # boyiwei/Sort-Acceleration single_merge_sort.c: a merge pass pipelined with HLS
    # directives, the whole file written for the synthesis tool.
    source = b"""\
#include "sizes.h"

void merge_pass(int in[N], int width, int out[N]) {
    int a = 0, b = width;
    for (int i = 0; i < N; i++) {
#pragma HLS PIPELINE II=1
        out[i] = (b >= N || (a < width && in[a] <= in[b])) ? in[a++] : in[b++];
    }
}
"""
    assert _rules("single_merge.c", source) == {"vitis.hls-kernel"}
    assert _layers("single_merge.c", source) == {"kernel": 8}


def test_tensorflow_gpu_image_and_bazel_cuda_config_are_vendor_path() -> None:
    # malmaud/TensorFlow.jl Docker/gpu/Dockerfile and deps/build_libtensorflow/gpu/build_libtf.sh
    dockerfile = b"""\
FROM tensorflow/tensorflow:latest-gpu
RUN apt-get update -y && apt-get install -y curl
"""
    assert _rules("docker/gpu/Dockerfile", dockerfile) == {"image.nvidia-base"}
    script = b"""\
cd /src/tensorflow
bazel build -c opt --config=cuda //tensorflow:libtensorflow.so
"""
    assert _layers("build/gpu/build.sh", script) == {"vendor-path": 1, "portable": 1}


def test_pycuda_in_install_requires_is_vendor_path() -> None:
    # fciceri17/peo-pycuda setup.py
    source = b"""\
from setuptools import setup

setup(name="solver", install_requires=["networkx", "pycuda"])
"""
    assert _rules("setup.py", source) == {"deps.cuda-wheel-python"}
