"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-i).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 819-825. Four were skipped, not replaced, for want of a
snapshot: gpui-luma-dev/gpui-luma (819), woodger/transformer (821), pyy233/Nano-Megatron (822)
and spartandev49/voxelwars (823). Three were read: cottonb/megatron-deepspeed (Megatron-
DeepSpeed's training code, launch scripts and fused softmax CUDA extensions),
FluidNumerics/SELF (a Fortran spectral-element library whose GPU back end is HIP/CUDA C++
kernels called through ISO C bindings and hipfort; its images and GIFs are absent from the
snapshot) and CodeGandee/auto-quantize-model (Python quantization tooling with many container
builder configs and shell installers). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- FluidNumerics/SELF: asking Open MPI whether it is CUDA- or ROCm-aware ----------------


def test_mpi_gpu_aware_queries_are_vendor_path() -> None:
    # src/gpu/SELF_DomainDecomposition.cpp: the library asks Open MPI's extensions whether
    # device buffers may be handed to MPI directly, once for ROCm and once for CUDA; each
    # query exists only in an Open MPI built for that vendor. Counted portable before.
    source = b"""\
#include <mpi.h>
#include <mpi-ext.h>

extern "C" int buffers_on_device_ok()
{
    int ok = 0;
#if defined(OMPI_HAVE_MPI_EXT_ROCM) && OMPI_HAVE_MPI_EXT_ROCM
    ok = (int) MPIX_Query_rocm_support();
#endif
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
    ok = (int) MPIX_Query_cuda_support();
#endif
    return ok;
}
"""
    assert _rules("src/gpu/comm.cpp", source) == {"cuda.runtime", "hip.runtime"}
    assert _layers("src/gpu/comm.cpp", source) == {"vendor-path": 2, "portable": 11}


def test_mpi_without_a_device_query_stays_portable() -> None:
    # The CPU twin of the same routine: plain MPI, nothing asked of a GPU runtime.
    source = b"""\
#include <mpi.h>

extern "C" int buffers_on_device_ok()
{
    int flag = 0;
    MPI_Initialized(&flag);
    return 0;
}
"""
    assert _rules("src/cpu/comm.cpp", source) == set()
    assert _layers("src/cpu/comm.cpp", source) == {"portable": 7}


def test_hip_cuda_kernels_and_their_launchers() -> None:
    # src/gpu/SELF_advection_diffusion_3d.cpp: one __global__ kernel per step and an extern
    # "C" launcher the Fortran side binds to; the kernel body is kernel, the <<<>>> launch
    # vendor-path, the launcher's set-up portable (already right before this lane).
    source = b"""\
#include "gpu_macros.h"

__global__ void scale_flux_kernel(real *flux, real *sol, real c, int ndof){
  uint32_t i = threadIdx.x + blockIdx.x*blockDim.x;
  if( i < ndof ){
    flux[i] = c*sol[i];
  }
}

extern "C"
{
  void scale_flux_gpu(real *flux, real *sol, real c, int ndof){
    int nthreads = 256;
    int nblocks = ndof/nthreads + 1;
    scale_flux_kernel<<<dim3(nblocks,1,1), dim3(nthreads,1,1), 0, 0>>>(flux,sol,c,ndof);
  }
}
"""
    assert _rules("src/gpu/flux.cpp", source) == {"cuda.kernel", "cuda.launch"}
    assert _layers("src/gpu/flux.cpp", source) == {
        "kernel": 6,
        "vendor-path": 1,
        "portable": 8,
    }


def test_fortran_calling_the_projects_own_gpu_wrappers_stays_portable() -> None:
    # src/gpu/SELF_ECDGModel2D.f90: the Fortran model calls the project's own *_gpu C entry
    # points on device pointers it keeps; no vendor runtime is named (already right).
    source = b"""\
module model_gpu
  use gpu_interfaces
  use iso_c_binding
  implicit none
contains
  subroutine tendency(this)
    class(model),intent(inout) :: this
    call surface_contribution_gpu(this%flux_gpu, this%jacobian_gpu, this%n, this%nelem)
    call dsdt_gpu(this%div_gpu, this%source_gpu, this%dsdt_gpu, this%ndof)
  endsubroutine tendency
endmodule model_gpu
"""
    assert _rules("src/gpu/model.f90", source) == set()
    assert _layers("src/gpu/model.f90", source) == {"portable": 11}


# -- CodeGandee/auto-quantize-model: container builder configs and wheel mirrors ---------


def test_builder_config_base_image_on_nvidia_cuda_is_vendor_path() -> None:
    # dockers/dev/examples/gpu-with-host-mount.yml: a container builder's YAML names its base
    # image under `base:` inside an image: block; an nvidia/cuda base was counted portable.
    source = b"""\
stage_1:
  image:
    base: nvidia/cuda:12.2.0-runtime-ubuntu22.04
    output: dev-box:stage-1
  device:
    type: gpu
stage_2:
  image:
    output: dev-box:stage-2
"""
    assert _rules("docker/examples/gpu.yml", source) == {"image.nvidia-base"}
    assert _layers("docker/examples/gpu.yml", source) == {"vendor-path": 1, "portable": 8}


def test_builder_config_on_plain_ubuntu_stays_portable() -> None:
    # dockers/dev-trtllm/examples/with-everything.yml: the same builder on a CPU-only base.
    source = b"""\
stage_1:
  image:
    base: ubuntu:24.04
    output: dev-box:stage-1
  device:
    type: cpu
"""
    assert _rules("docker/examples/cpu.yml", source) == set()
    assert _layers("docker/examples/cpu.yml", source) == {"portable": 6}


def test_pytorch_wheel_mirror_cuda_folder_is_vendor_path() -> None:
    # dockers/*/installation/stage-2/system/invoke-ai/install-invoke-ai-conda.sh: pip reads
    # the CUDA 12.1 wheels from a mirror of PyTorch's index (…/pytorch-wheels/cu121).
    source = b"""\
#!/bin/bash
source /opt/conda/bin/activate app
pip install SomeApp --use-pep517 --extra-index-url https://mirror.example.org/pytorch-wheels/cu121
echo "installed"
"""
    assert _rules("install/app.sh", source) == {"deps.cuda-wheel"}
    assert _layers("install/app.sh", source) == {"vendor-path": 1, "portable": 2}


def test_pytorch_wheel_mirror_cpu_folder_stays_portable() -> None:
    source = b"""\
#!/bin/bash
pip install SomeApp --extra-index-url https://mirror.example.org/pytorch-wheels/cpu
"""
    assert _rules("install/app.sh", source) == set()
    assert _layers("install/app.sh", source) == {"portable": 1}


# -- cottonb/megatron-deepspeed: verdicts that were already right --------------------------


def test_accelerator_name_compared_to_cuda_is_vendor_path() -> None:
    # megatron/model/transformer.py after "support other devices besides cuda": a branch
    # kept for the CUDA device only (its fused layer norm); the gate flagged the commit.
    source = b"""\
from deepspeed.accelerator import get_accelerator

def make_norm(hidden, eps, fused_norm, plain_norm):
    if get_accelerator().device_name() == 'cuda':
        return fused_norm(hidden, eps=eps, persist=True)
    return plain_norm(hidden, eps=eps)
"""
    assert _rules("megatron/model/norms.py", source) == {"torch.device-string"}
    assert _layers("megatron/model/norms.py", source) == {"vendor-path": 1, "portable": 4}


def test_unsetting_nccl_debug_stays_portable() -> None:
    # tools/retro/examples/preprocess_data.sh: the script clears NCCL_DEBUG before launching
    # torch.distributed.run on CPUs for preprocessing; RCCL reads the same variable.
    source = b"""\
#!/bin/bash
set -u
unset NCCL_DEBUG
NPROCS=8
python -m torch.distributed.run --nproc_per_node ${NPROCS} --nnodes 1 preprocess.py
"""
    assert _rules("tools/preprocess.sh", source) == set()
    assert _layers("tools/preprocess.sh", source) == {"portable": 4}
