"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-j).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 181-190. Two had no snapshot and were skipped, not replaced:
aledelpho/diffusion-models-weight-steering-report and yudhcq/Cesiumjs-WebGPU. Fifteen files of
each remaining repository (all 13 of lpolloni/aws-hashcat) were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix,
with the files lockin calls non-portable and GPU-looking files it calls portable, and three
commits touching GPU code drawn with ``random.Random("owner/name:commits")``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- oxideai/mlx-rs: Rust bindings of Apple's MLX --------------------------------------------


def test_mlx_rs_asking_mlx_c_for_metal_is_vendor_path() -> None:
    # mlx-sys/examples/is_metal_available.rs: the example asks MLX-C whether the Metal back end
    # is there, MLX's mx.metal.is_available() through the C API. Before, it was portable.
    source = b"""\
fn main() {
    let mut available = false;
    let rc = unsafe { mlx_sys::mlx_metal_is_available(&mut available as *mut bool) };
    assert_eq!(rc, 0);
    println!("{available:?}");
}
"""
    path = "mlx-sys/examples/is_metal_available.rs"
    assert _rules(path, source) == {"metal.mps-device"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 5}


def test_mlx_rs_array_code_on_the_default_device_stays_portable() -> None:
    # mlx-rs/src/nn/dropout.rs, examples/mistral/src/main.rs: array operations and the GPU
    # device run on any MLX back end (Metal or CUDA); the fast module's doc names a Metal kernel.
    source = b"""\
use mlx_rs::{Array, Device, StreamOrDevice};

/// Dispatches to an optimized Metal kernel when the query length is one.
pub fn scaled(x: &Array, scale: f32) -> Array {
    let stream = StreamOrDevice::new(Device::gpu());
    x.multiply_device(Array::from_f32(scale), stream).unwrap()
}
"""
    assert _layers("mlx-rs/src/fast.rs", source) == {"portable": 5}


# -- lpolloni/aws-hashcat: a GPU spot instance set up by shell scripts -------------------------


def test_aws_hashcat_driver_runfile_install_is_vendor_path_and_its_message_is_not() -> None:
    # scripts/hashcat.sh: downloads NVIDIA's driver installer and runs it, then tells the user
    # to check the driver with nvidia-smi. Before, only the message line counted (the escaped
    # quotes hid that it was one echo) and the two install lines did not.
    source = b"""\
#!/bin/bash
echo "[TASK 1] installing the GPU driver"
cd /tmp/
wget -q https://us.download.nvidia.com/tesla/470.57.02/NVIDIA-Linux-x86_64-470.57.02.run
sudo /bin/bash NVIDIA-Linux-x86_64-470.57.02.run --ui=none --no-questions --silent -X
echo "done! please verify the drivers are working: \\"sudo nvidia-smi\\""
"""
    path = "scripts/hashcat.sh"
    assert _rules(path, source) == {"deps.cuda-system-package"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 3}


def test_aws_hashcat_a_quoted_echo_naming_nvidia_smi_is_portable() -> None:
    # The same message alone, and one with an escaped quote before the tool name.
    source = b"""\
#!/bin/bash
echo "check the driver: \\"sudo nvidia-smi\\""
echo "run \\"nvcc --version\\" to see the toolkit"
"""
    assert _layers("scripts/notes.sh", source) == {"portable": 2}


# -- JuliaAttic/CUDNN.jl: cuDNN bound from Julia 0.6 through CuArrays ----------------------------


def test_cudnn_jl_core_importing_cuarrays_and_cudaapi_is_vendor_path() -> None:
    # src/core.jl: the package's entry file imports CuArrays and CUDAapi (CUDA.jl's
    # predecessors) beside NNlib. Before, it was portable.
    source = b"""\
using CuArrays
using NNlib, CUDAapi
import NNlib: conv2d, pool

const Cptr = Ptr{Void}

include("init.jl")
include("conv.jl")
"""
    path = "src/core.jl"
    assert _rules(path, source) == {"cuda.julia-host"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 4}


def test_cudnn_jl_cudnn_enum_constants_are_vendor_library() -> None:
    # src/const.jl: cuDNN's softmax and batch-norm enums restated as Julia constants. Before,
    # the file was portable.
    source = b"""\
## softmax
const CUDNN_SOFTMAX_FAST = (UInt32)(0)
const CUDNN_SOFTMAX_LOG = (UInt32)(2)
const CUDNN_SOFTMAX_MODE_CHANNEL = (UInt32)(1)
const CUDNN_BN_MIN_EPSILON = 1.0e-5
"""
    path = "src/const.jl"
    assert _rules(path, source) == {"cudnn.call"}
    assert _layers(path, source) == {"vendor-library": 4}


def test_cudnn_jl_descriptor_calls_are_cudnn_library_calls() -> None:
    # src/descriptors.jl, src/init.jl: cuDNN called by name through the package's @cuda macro
    # and ccall. The lines are cuDNN calls (vendor-library); the CuArray method stays
    # vendor-path.
    source = b"""\
function tensor_desc(a::CuArray)
    d = Cptr[0]
    @cuda(cudnn, cudnnCreateTensorDescriptor, (Ptr{Cptr},), d)
    return d[1]
end

version() = Int(ccall((:cudnnGetVersion, :libcudnn), Csize_t, ()))
"""
    path = "src/descriptors.jl"
    assert _rules(path, source) == {"cuda.julia-host", "cudnn.call"}
    assert _layers(path, source) == {"vendor-path": 1, "vendor-library": 2, "portable": 3}


def test_cudnn_jl_cpu_gradient_checks_stay_portable() -> None:
    # test/gradcheck.jl: numerical gradients on plain arrays, with no device in sight.
    source = b"""\
function gradcheck(f, w, x...; delta=cbrt(eps(Float32)))
    y = f(w, x...)
    g = similar(w)
    for i in eachindex(w)
        w0 = w[i]
        w[i] = w0 + delta
        g[i] = (f(w, x...) - y) / delta
        w[i] = w0
    end
    return g
end
"""
    assert _layers("test/gradcheck.jl", source) == {"portable": 11}


# -- RaymondMcGuire/Particle-Based-Fluid: SPH solvers in CUDA, rendered with OpenGL ------------


def test_particle_fluid_solver_class_declaration_header_is_portable() -> None:
    # simulator_cuda/include/.../cuda_multisph_yan16_solver.cuh: a solver class declared over
    # the project's own CudaArray type; the kernels live in *_gpu.cuh files.
    source = b"""\
#pragma once
#include <kiri_pbs_cuda/solver/cuda_base_solver.cuh>

namespace KIRI {
class CudaMultiSphSolver : public CudaBaseSolver {
public:
  explicit CudaMultiSphSolver(const size_t num) : CudaBaseSolver(num) {}
  virtual void advect(ParticlesPtr &particles, const float dt, const float3 lowest);
protected:
  CudaArray<size_t> mCellStart;
};
} // namespace KIRI
"""
    path = "simulator_cuda/include/kiri_pbs_cuda/solver/multisph/cuda_multisph_solver.cuh"
    assert _layers(path, source) == {"portable": 11}
