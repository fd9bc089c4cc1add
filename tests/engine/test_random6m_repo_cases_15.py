"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h42-random-m).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 309-315. One could not be read: lexing-2026/TensorPlay (no snapshot). Fifteen files
of each remaining repository were sampled with ``random.Random("owner/name")`` over every file
lockin counts, and labelled before any fix, with the files lockin calls non-portable and
GPU-looking files it calls portable; three commits touching GPU code per repository were
drawn with ``random.Random("owner/name:commits")`` and judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- cinumell/gpuRcublas: an R package of cuBLAS/cuSOLVER calls on gpuRcuda's matrices ----------


def test_gpurcublas_r_wrapper_on_cuda_matrices_is_vendor_path() -> None:
    # R/wrappers.R: the R side of the package allocates its result as a gpuRcuda cudaMatrix
    # and hands the device addresses to the cuBLAS binding. Before, R had no rule at all.
    source = b"""\
#' @importFrom gpuRcuda cudaMatrix
gemm_double <- function(A, B) {
  M <- nrow(A)
  N <- ncol(B)
  C <- matrix(0, nrow = M, ncol = N)
  C <- cudaMatrix(C, nrow = M, ncol = N, type = "double")
  gemm_impl(A@address, B@address, C@address, "double", 8L)
  C
}
"""
    assert _layers("R/wrappers.R", source) == {"vendor-path": 1, "portable": 7}
    assert _rules("R/wrappers.R", source) == {"cuda.r-host"}


def test_gpurcublas_s4_method_on_the_cuda_class_is_vendor_path() -> None:
    # R/methods.R: `%*%` defined for gpuRcuda's class only; the method exists for CUDA
    # matrices and nothing else.
    source = b"""\
#' @export
setMethod("%*%", signature(x = "cudaMatrix", y = "cudaMatrix"),
          function(x, y) {
            if (ncol(x) != nrow(y)) stop("non-conformant")
            gemm_double(x, y)
          },
          valueClass = "cudaMatrix"
)
"""
    layers = _layers("R/methods.R", source)
    assert layers.get("vendor-path", 0) >= 1
    assert _rules("R/methods.R", source) == {"cuda.r-host"}


def test_gpurcublas_tests_and_install_script_load_the_cuda_package() -> None:
    # tests/testthat/tester_gesvd.R and install.R: library('gpuRcuda') with quotes, the SVD of
    # a cudaMatrix, and devtools::install_github of the CUDA-only package.
    tester = b"""\
library('testthat')
library('gpuRcuda')
A <- matrix(rnorm(16), nrow = 4)
ref <- La.svd(A)
got <- gpusvd(cudaMatrix(A, type = "double"))
expect_equal(ref$d, as.vector(got$d[]), tolerance = 1e-7)
"""
    assert _layers("tests/testthat/tester_gesvd.R", tester) == {"vendor-path": 2, "portable": 4}
    install = b"""\
libdir <- file.path(getwd(), "lib")
dir.create(libdir, showWarnings = FALSE)
withr::with_libpaths(new = libdir, devtools::install_github('someone/gpuRcuda'))
.libPaths(c(.libPaths(), libdir))
"""
    assert _layers("install.R", install) == {"vendor-path": 1, "portable": 3}


def test_gpurcublas_opencl_benchmark_and_own_package_stay_portable() -> None:
    # tests/testthat/benchmark/gpuR/bench_gemm.R (gpuR's OpenCL gpuMatrix) and
    # tests/testthat.R (the package loaded by its own name): no CUDA-only call of their own.
    bench = b"""\
library('microbenchmark')
library('gpuR')
gA <- gpuMatrix(matrix(rnorm(64), 8), type = "double")
# gA <- cudaMatrix(A) was the CUDA variant
r <- microbenchmark(gA %*% gA, times = 10)
"""
    assert _layers("bench/bench_gemm.R", bench) == {"portable": 4}
    runner = b'library(testthat)\nlibrary(gpuRcublas)\ntest_check("gpuRcublas")\n'
    assert _layers("tests/testthat.R", runner) == {"portable": 3}


def test_torch_for_r_cuda_calls_are_vendor_path() -> None:
    # The same rule's torch-for-R branch: a script that asks for CUDA and moves a module there.
    source = b"""\
library(torch)
dev <- if (cuda_is_available()) torch_device("cuda") else torch_device("cpu")
model <- nn_linear(4, 2)
model$cuda()
"""
    assert _layers("train.R", source) == {"vendor-path": 2, "portable": 2}


# -- NVIDIA TensorRT-Model-Optimizer (wxsms fork) ----------------------------------------------


def test_modelopt_engine_builder_running_trtexec_is_vendor_path() -> None:
    # modelopt/torch/_deploy/_runtime/tensorrt/engine_builder.py: the engine is built by running
    # TensorRT's trtexec; before, the file was portable (no TensorRT import).
    source = b'''\
import subprocess


def _run_trtexec(args, cwd=None):
    """Run a 'trtexec' command; only its arguments come from the caller."""
    cmd = ["trtexec", *args]
    try:
        result = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, check=False)
    except FileNotFoundError as e:
        raise RuntimeError("'trtexec' binary not found; install TensorRT.") from e
    return result.returncode, result.stdout
'''
    assert _layers("engine_builder.py", source) == {"vendor-path": 1, "portable": 7}
    assert _rules("engine_builder.py", source) == {"cuda.tool-call"}


def test_trtexec_in_a_deployment_script_is_vendor_path() -> None:
    # The scripts beside such a builder run trtexec by name or by its install path.
    source = b"""\
#!/bin/bash
python export.py --out model.onnx
/usr/src/tensorrt/bin/trtexec --onnx=model.onnx --saveEngine=model.plan --fp16
python tools/parse_trtexec_log.py model.log
"""
    assert _layers("build_engine.sh", source) == {"vendor-path": 1, "portable": 2}


def test_modelopt_test_blocking_the_tensorrt_import_is_portable() -> None:
    # tests/unit/onnx/quantization/test_autotune_quantization_integration.py: the test hides
    # tensorrt from sys.modules to prove the CLI parser works without it. Before, the string
    # "tensorrt" read as a CUDA requirement (deps.cuda-wheel-python).
    source = b"""\
import importlib
import sys

import pytest


def test_cli_parser_without_tensorrt():
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(sys.modules, "tensorrt", None)
        import mypkg.autotune

        importlib.reload(mypkg.autotune)
"""
    assert _layers("test_autotune_integration.py", source) == {"portable": 8}


def test_modelopt_requirement_list_naming_tensorrt_stays_vendor_path() -> None:
    # The sys.modules exception reads the line: a requirement list is still one.
    source = b'extras = {"trt": ["tensorrt>=10.0", "onnx"]}\n'
    assert _layers("setup.py", source) == {"vendor-path": 1}


# -- appautomaton/mlx-speech: MLX on Apple silicon, one custom Metal kernel (checked right) ----


def test_mlx_speech_custom_metal_kernel_source_is_kernel_code() -> None:
    # src/mlx_speech/models/dots_tts/vocoder.py: mx.fast.metal_kernel with its Metal body in a
    # string, used only when mx.metal.is_available(); the rest of the file is MLX array code.
    source = b'''\
import mlx.core as mx

_USE_METAL = mx.metal.is_available()

_snake = mx.fast.metal_kernel(
    name="snake",
    input_names=["inp", "alpha"],
    output_names=["out"],
    source="""
        uint i = thread_position_in_grid.x;
        float a = metal::precise::exp(float(alpha[0]));
        float s = metal::precise::sin(float(inp[i]) * a);
        out[i] = T(inp[i] + s * s / a);
    """,
)


def conv(x, w):
    return mx.conv1d(x, w)
'''
    layers = _layers("vocoder.py", source)
    assert 4 <= layers.get("kernel", 0) <= 12
    assert layers.get("vendor-path", 0) == 1
    assert _rules("vocoder.py", source) >= {"metal.mlx-kernel", "metal.mps-device"}


def test_mlx_speech_default_device_gpu_is_portable() -> None:
    # scripts/generate/moss_ttsd.py: mx.gpu is MLX's device of whatever backend it was built for.
    source = b"""\
import mlx.core as mx


def pick(cpu: bool) -> None:
    if cpu:
        mx.set_default_device(mx.cpu)
    else:
        mx.set_default_device(mx.gpu)
"""
    assert _layers("moss_ttsd.py", source) == {"portable": 6}


def test_gpurcublas_makevars_building_with_nvcc_is_make() -> None:
    # src/Makevars.in (lead, after lane m): an R package's build rules for its CUDA sources.
    # Makevars had no language, so its nvcc rule and -gencode flags were never counted.
    source = b"""\
NVCC = @NVCC@
CU_ARCH = -gencode arch=compute_70,code=sm_70 -gencode arch=compute_80,code=sm_80
%.o: %.cu
\t$(NVCC) $(CU_ARCH) -Xcompiler -fpic -c $< -o $@
"""
    layers = _layers("src/Makevars.in", source)
    assert layers.get("vendor-path", 0) >= 2
    assert _layers("src/Makevars", b"PKG_LIBS = -lm\n") == {"portable": 1}
