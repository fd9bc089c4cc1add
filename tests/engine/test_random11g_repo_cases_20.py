"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-g).

The pool is ``/work/pool-h47.txt``, shuffled with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 203-209. cwha0212/elevation_mapping_cupy (209) had no
snapshot and was skipped. The six read were PaliC/categorize_triton_functions (Triton kernels
sorted by an LLM, one kernel a file), amatepl/RayTracing2019 (a Qt radio ray tracer),
qsimulate-open/bagel (a CPU quantum chemistry code), szkuds/TUD_LBM (a JAX lattice
Boltzmann solver), LIMON100/N-Body-SImulation-using-Pycuda (PyCUDA kernels in strings) and
ilyapostnik/TensorFlowLiteC (a Swift package of TensorFlow Lite's C library and its Apple
delegates). Fifteen files of each repository (all of them when fewer) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, and three commits touching GPU code judged against ``lockin diff``
(``random.Random("owner/name:commits")``). Each snippet is a small rewrite, in our own words,
of a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ilyapostnik/TensorFlowLiteC: TensorFlow Lite's Apple delegates as dependencies ----------


def test_swift_package_binary_target_of_the_metal_delegate_is_vendor_path() -> None:
    # Package.swift: the product lists the core framework and the Core ML and Metal
    # delegates; each delegate is also a binaryTarget of its own XCFramework.
    source = b"""\
// swift-tools-version:5.3
import PackageDescription

let package = Package(
    name: "LiteBundle",
    products: [
        .library(name: "LiteBundle", targets: ["TensorFlowLiteC", "TensorFlowLiteCMetal"]),
    ],
    targets: [
        .binaryTarget(name: "TensorFlowLiteC", url: "https://example.org/c.zip", checksum: "a"),
        .binaryTarget(name: "TensorFlowLiteCMetal", url: "https://example.org/m.zip",
                      checksum: "b"),
        .binaryTarget(name: "TensorFlowLiteCCoreML", url: "https://example.org/n.zip",
                      checksum: "c"),
    ]
)
"""
    assert _rules("Package.swift", source) == {"deps.tflite-apple-delegate"}
    assert _layers("Package.swift", source) == {"vendor-path": 3, "portable": 11}


def test_swift_package_template_is_read_as_swift() -> None:
    # Package.swift.in: the same manifest with VERSION and checksum placeholders, which a
    # release script fills in with sed; it is Swift, not Autoconf.
    source = b"""\
import PackageDescription
let package = Package(name: "LiteBundle", targets: [
    .binaryTarget(name: "TensorFlowLiteCCoreML", url: "https://example.org/VERSION/n.zip",
                  checksum: "NPU_CHECKSUM"),
])
"""
    assert _rules("Package.swift.in", source) == {"deps.tflite-apple-delegate"}
    assert _layers("Package.swift.in", source) == {"vendor-path": 1, "portable": 4}


def test_podfile_template_pulling_the_metal_subspec_is_vendor_path() -> None:
    # App/Podfile.in: a Podfile whose version a script substitutes; the Metal and Core ML
    # subspecs of the C library are the Apple-only delegates.
    source = b"""\
platform :ios, '13.0'
target 'Viewer' do
  use_frameworks!
  pod 'TensorFlowLiteC'VERSION
  pod 'TensorFlowLiteC/Metal'VERSION
end
"""
    assert _rules("App/Podfile.in", source) == {"deps.tflite-apple-delegate"}
    assert _layers("App/Podfile.in", source) == {"vendor-path": 1, "portable": 5}
    assert _layers("App/Podfile", source) == {"vendor-path": 1, "portable": 5}


def test_podfile_with_only_the_core_library_is_portable() -> None:
    # The same Podfile without a delegate: the core TensorFlow Lite runs on the CPU anywhere.
    source = b"""\
target 'Viewer' do
  pod 'TensorFlowLiteC'
  # pod 'TensorFlowLiteC/Metal' when the GPU build is wanted
end
"""
    assert _rules("App/Podfile", source) == set()
    assert _layers("App/Podfile", source) == {"portable": 3}


# -- LIMON100/N-Body-SImulation-using-Pycuda: CUDA in SourceModule strings (already right) ---


def test_pycuda_source_module_string_is_kernel_and_its_host_calls_vendor_path() -> None:
    # pycuda/Calculation.py: a SourceModule holds a __global__ kernel; get_function, to_gpu and
    # the launch are the PyCUDA host side.
    source = b'''\
import numpy as np
import pycuda.autoinit
import pycuda.gpuarray as gpuarray
from pycuda.compiler import SourceModule

mod = SourceModule("""
__global__ void drift(float *pos, const float *vel, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    pos[i] += vel[i] * dt;
}
""")
drift = mod.get_function("drift")

def step(pos, vel):
    pos_gpu = gpuarray.to_gpu(np.float32(pos))
    drift(pos_gpu, gpuarray.to_gpu(np.float32(vel)), np.float32(0.1), block=(64, 1, 1))
    return pos_gpu.get()
'''
    layers = _layers("pycuda/Calculation.py", source)
    assert set(layers) == {"kernel", "vendor-path", "portable"}
    assert 5 <= layers["kernel"] <= 7


# -- PaliC/categorize_triton_functions: one Triton kernel a file (already right) -------------


def test_triton_kernel_file_with_autotune_counts_the_decorated_def() -> None:
    # sorted_functions/*/*.py: three imports, then one autotuned @triton.jit kernel.
    source = b"""\
import triton
import triton.language as tl
import torch

@triton.autotune(configs=[triton.Config({'BLOCK': 64}, num_warps=2),
    triton.Config({'BLOCK': 128}, num_warps=4)], key=['n'])
@triton.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: 'tl.constexpr'):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * factor, mask=mask)
"""
    assert _rules("sorted_functions/Scale/1.py", source) == {"triton.jit"}
    assert _layers("sorted_functions/Scale/1.py", source) == {"kernel": 8, "portable": 3}


def test_script_writing_triton_imports_into_files_is_portable() -> None:
    # categorize_triton.py: writes each categorized kernel to a file, its imports first.
    source = b"""\
def write_function(path, body):
    with open(path, "w") as f:
        f.write("import triton\\n")
        f.write("import triton.language as tl\\n")
        f.write(body)
"""
    assert _rules("categorize_triton.py", source) == set()
    assert _layers("categorize_triton.py", source) == {"portable": 5}
