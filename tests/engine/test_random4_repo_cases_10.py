"""Cases from repositories drawn at random from a pool of GPU repositories (issue 27, lane random4).

The pool (public repositories found by GPU words before anyone read them, /work/pool-h35.txt)
was put in a random order with ``random.seed("h35-pool")``; this lane took positions 51-58:
ROCm/gpufort, LynnixZ/ECE455, AccelerateHS/accelerate, RESMP-DEV/metal-marlin,
vladiant/OpenGLsamples, ROCm/mori, qian-o/Metal.NET and samminweng/WhileyOpenCL. Fifteen files
of each were drawn with ``random.seed("owner/name")`` over every file lockin counts and
labelled before any fix. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/gpufort: a CUDA Fortran / OpenACC to HIP translator, its templates and test data -----


def test_gpufort_cuda_fortran_kernel_and_host() -> None:
    # examples/cudafortran/vector-add-kernel/vector-add.f90: the attributes(global) kernel and
    # attributes(host,device) helper are kernel code; device arrays, dim3 and the <<<>>> call
    # are the host's CUDA Fortran.
    source = b"""\
program main
  use cudafor
  implicit none
  integer, parameter :: N = 4096
  real :: x(N), y(N), a
  real, device, allocatable :: x_d(:), y_d(:)
  type(dim3) :: grid, tblock
  tblock = dim3(256,1,1)
  grid = dim3(ceiling(real(N)/tblock%x),1,1)
  allocate(x_d(N), y_d(N))
  x_d = x
  y_d = y
  call axpy<<<grid, tblock>>>(a, x_d, y_d, N)
  y = y_d
contains
  attributes(global) subroutine axpy(a, x, y, n)
    implicit none
    integer, value :: n
    real :: x(n), y(n), a
    integer :: i
    i = threadidx%x + (blockidx%x-1)*blockdim%x
    if (i <= n) y(i) = y(i) + a*x(i)
  end subroutine
end program main
"""
    layers = _layers("examples/cudafortran/vector-add-kernel/vector-add.f90", source)
    assert layers["kernel"] == 8
    assert layers["vendor-path"] >= 4


def test_gpufort_openacc_fortran_runtime_stays_portable() -> None:
    # runtime/openacc_gomp/src/openacc_gomp.f90: generated OpenACC API overloads; OpenACC is a
    # standard every vendor's compiler offers.
    source = b"""\
module openacc_gomp
  use iso_c_binding
  use openacc
  interface acc_deviceptr
    function acc_deviceptr_b(hostptr) result(deviceptr) bind(c,name="acc_deviceptr")
      use iso_c_binding
      implicit none
      type(c_ptr),value,intent(in) :: hostptr
      type(c_ptr) :: deviceptr
    end function
  end interface
end module openacc_gomp
"""
    assert _layers("runtime/openacc_gomp/src/openacc_gomp.f90", source) == {"portable": 12}


def test_gpufort_parser_attribute_named_after_cuda_call_is_portable() -> None:
    # python/scanner/scanner.py: the Fortran scanner keeps the CUDA call it parsed in an
    # attribute; assigning `node.cudaApi` calls nothing. Before, the line was vendor-path.
    source = b"""\
def CudaLibCall(tokens):
    cudaApi, args = tokens
    new = STCudaLibCall(current_node, current_linemap)
    new.cudaApi = cudaApi
    append_if_not_recording_(new)
"""
    assert _layers("python/scanner/scanner.py", source) == {"portable": 5}


def test_gpufort_hipfort_host_calls_in_fortran() -> None:
    # runtime/gpufort_acc_runtime/src/gpufort_acc_runtime_base.f90: the runtime's queues on
    # hipfort's HIP streams.
    source = b"""\
subroutine create_queue(queue)
  use hipfort
  use hipfort_check
  implicit none
  type(t_queue), intent(inout) :: queue
  call hipCheck(hipStreamCreate(queue%queueptr))
end subroutine
"""
    assert _rules("runtime/gpufort_acc_runtime/src/gpufort_acc_runtime_base.f90", source) == {
        "hip.fortran-host"
    }


# -- LynnixZ/ECE455: course homework in CUDA, C++ threads and Slurm scripts --------------------


def test_ece455_kernel_only_file_is_all_kernel() -> None:
    # HW07/reduce_naive.cu: the file holds one kernel and nothing else.
    source = b"""\
__global__ void reduce_naive(const int* in, int* out, size_t n_elems) {
    unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n_elems)
        atomicAdd(out, in[idx]);
}
"""
    assert _layers("HW07/reduce_naive.cu", source) == {"kernel": 5}


def test_ece455_slurm_script_building_with_nvcc() -> None:
    # HW05/mm_naive.slurm: only the nvcc line is NVIDIA's; the scheduler lines travel.
    source = b"""\
#!/usr/bin/env zsh
#SBATCH --partition=instruction
#SBATCH --gpus-per-task=1
cd "$SLURM_SUBMIT_DIR"
module load nvidia/cuda
nvcc mm_naive.cu -o mm_naive
./mm_naive
"""
    layers = _layers("HW05/mm_naive.slurm", source)
    assert layers["vendor-path"] >= 1
    assert "kernel" not in layers


# -- AccelerateHS/accelerate: the Haskell array language (back ends live in other packages) -----


def test_accelerate_x86_rotate_macro_is_not_ptx() -> None:
    # cbits/xkcp/KeccakP-1600-opt64.c: XKCP's ROL64 wraps an x86 `shld` in a statement
    # expression; the asm sits a line below the #define. Before, the macro was PTX kernel code.
    source = b"""\
#include <stdint.h>
#define ROL64(x, n) ({ \\
    register uint64_t __out; \\
    register uint64_t __in = x; \\
    __asm__ ("shld %2,%0,%0" : "=r"(__out) : "0"(__in), "i"(n)); \\
    __out; \\
    })
static uint64_t theta(uint64_t a) { return ROL64(a, 1); }
"""
    assert _layers("cbits/xkcp/KeccakP-1600-opt64.c", source) == {"portable": 8}


def test_accelerate_old_cuda_backend_calls_foreign_cuda() -> None:
    # Data/Array/Accelerate/CUDA/Analysis/Launch.hs (history, 2010): the launch configuration
    # asks the CUDA driver for a function's registers and the device's occupancy. Before,
    # no rule read Haskell and the file was portable.
    source = b"""\
module Launch (launchConfig) where
import Data.Array.Accelerate.AST
import qualified Foreign.CUDA.Analysis as CUDA

launchConfig acc n fn = do
  regs <- liftIO $ CUDA.requires fn CUDA.NumRegs
  let cta = 128
  return (cta, gridSize acc n cta)
"""
    assert _rules("Data/Array/Accelerate/CUDA/Analysis/Launch.hs", source) == {"cuda.haskell-host"}
    assert _layers("Data/Array/Accelerate/CUDA/Analysis/Launch.hs", source)["portable"] >= 5


def test_accelerate_frontend_haskell_stays_portable() -> None:
    # src/Data/Array/Accelerate/Classes/Ord.hs: the language's own front end.
    source = b"""\
module Data.Array.Accelerate.Classes.Ord (Ord(..)) where
import Data.Array.Accelerate.Smart
class Eq a => Ord a where
  (<)  :: Exp a -> Exp a -> Exp Bool
  max  :: Exp a -> Exp a -> Exp a
"""
    assert _layers("src/Data/Array/Accelerate/Classes/Ord.hs", source) == {"portable": 5}


# -- RESMP-DEV/metal-marlin: Metal kernels and their PyTorch MPS host -------------------------


def test_metal_marlin_mps_device_strings_in_python() -> None:
    # metal_marlin/ops/gemm_int8.py: tensors moved to and made on "mps".
    source = b"""\
import torch

class Int8Gemm:
    def __init__(self, device: str = "mps"):
        self.device = device

    def run(self, a, b):
        a = a.to("mps")
        return torch.empty(a.shape[0], b.shape[1], dtype=torch.float16, device="mps")
"""
    layers = _layers("metal_marlin/ops/gemm_int8.py", source)
    assert layers["vendor-path"] == 3
    assert "kernel" not in layers


# -- vladiant/OpenGLsamples: OpenGL and GLES samples, shaders in files and strings ----------


def test_opengl_compute_shader_saved_as_cs_is_glsl() -> None:
    # ComputeShaders/ShaderStorageBuffer/hello.cs: a GLSL compute shader named .cs ("compute
    # shader"). Before, it was read as C# and counted portable.
    source = b"""\
// Hello World with an OpenGL compute shader
#version 430
#extension GL_ARB_compute_shader : enable
#define width 16
layout(std430, binding = 6) buffer offsbuf {int offs[];};
layout(std430, binding = 5) buffer strbuf {int str[];};
layout(local_size_x=width, local_size_y=1) in;
void main()
{
    int i = int(gl_GlobalInvocationID.x);
    str[i] = str[i] + offs[i];
}
"""
    report = classify("ComputeShaders/ShaderStorageBuffer/hello.cs", source)
    assert report.language == "GLSL"
    assert _layers("ComputeShaders/ShaderStorageBuffer/hello.cs", source) == {"kernel": 11}


def test_csharp_with_region_directives_stays_csharp() -> None:
    # Metal.NET's classes open #region blocks: C#'s own directives, no shader.
    source = b"""\
namespace App;
public class Counter
{
    #region State
    public int Value { get; set; }
    #endregion
}
"""
    report = classify("src/Counter.cs", source)
    assert report.language == "C#"
    assert _layers("src/Counter.cs", source) == {"portable": 7}


def test_opengl_glsl_in_go_raw_string_is_kernel() -> None:
    # MinimalShaders/Golang/main.go: the two shaders in backquoted strings.
    source = b"""\
package main

var (
\tvertexShaderSource = `
\t#version 410
\tin vec3 vp;
\tvoid main() {
\t\tgl_Position = vec4(vp, 1.0);
\t}
\t` + "\\x00"
)

func main() {}
"""
    layers = _layers("MinimalShaders/Golang/main.go", source)
    assert 5 <= layers["kernel"] <= 7
    assert layers["portable"] >= 3


def test_opengl_shader_body_joined_by_backslash_newlines_is_kernel() -> None:
    # ComputeShaders/GenerateTexture/opengl_util.cpp: each shader is an array of two
    # literals, the #version line and a body whose lines end in backslash-newlines. Before,
    # only the two #version lines were kernel code.
    source = b"""\
GLuint genRenderProg() {
  const char *vpSrc[] = {"#version 430\\n",
                         "in vec2 pos;\\
                 out vec2 texCoord;\\
                 void main() {\\
                         texCoord = pos*0.5f + 0.5f;\\
                         gl_Position = vec4(pos.x, pos.y, 0.0, 1.0);\\
                 }"};
  glShaderSource(vp, 2, vpSrc, NULL);
  return vp;
}
"""
    layers = _layers("ComputeShaders/GenerateTexture/opengl_util.cpp", source)
    assert layers["kernel"] == 7
    assert layers["portable"] == 4


# -- ROCm/mori: AMD's communication kernels (shmem, dispatch/combine) and their hosts -------------


def test_mori_hip_header_with_device_helpers() -> None:
    # include/mori/shmem/internal.hpp: the device's global state and its accessor are device
    # code; the HIP module handles are host code.
    source = b"""\
#include <hip/hip_runtime.h>
struct GpuStates { int rank; };
extern __device__ GpuStates globalGpuStates;
static __device__ GpuStates* GetGlobalGpuStatesPtr() { return &globalGpuStates; }
struct ModuleState {
  hipModule_t module{nullptr};
  hipFunction_t barrierFunc{nullptr};
};
"""
    layers = _layers("include/mori/shmem/internal.hpp", source)
    assert layers["kernel"] == 2
    assert layers["vendor-path"] >= 3


def test_mori_python_test_helper_through_hip_ctypes() -> None:
    # tests/python/cco/helper.py: libamdhip64 called by name through ctypes.
    source = b"""\
import ctypes

def sync():
    _check(_get_hip_lib().hipDeviceSynchronize(), "hipDeviceSynchronize")
"""
    assert _layers("tests/python/cco/helper.py", source)["vendor-path"] == 1


# -- qian-o/Metal.NET: C# bindings of Apple's Metal, one class per Metal class --------------------


def test_metal_net_binding_class_is_metal_host_code() -> None:
    # Metal.NET/Metal/MTLHeapDescriptor.cs: the class wraps Metal's MTLHeapDescriptor and sends
    # its selectors. Before, every binding file was portable.
    source = b"""\
namespace Metal.NET;

public class MTLHeapDescriptor(nint nativePtr) : NSObject(nativePtr)
{
    public MTLHeapDescriptor() : this(ObjectiveC.AllocInit(MTLHeapDescriptorBindings.Class))
    {
    }

    public MTLStorageMode StorageMode
    {
        get => (MTLStorageMode)ObjectiveC.MsgSendULong(NativePtr, Bindings.StorageMode);
    }
}
"""
    assert _rules("Metal.NET/Metal/MTLHeapDescriptor.cs", source) == {"metal.host-api"}
    assert _layers("Metal.NET/Metal/MTLHeapDescriptor.cs", source)["vendor-path"] >= 3


def test_metal_net_objc_interop_and_generator_stay_portable() -> None:
    # Metal.NET/Interop/Selector.cs (the Objective-C runtime) and the generator's emitter
    # (Metal.NET.Generator/CSharpEmitter.*.cs, which writes the MTL names into strings).
    interop = b"""\
namespace Metal.NET;
public readonly struct Selector(nint nativePtr)
{
    public readonly nint NativePtr = nativePtr;
    public static implicit operator Selector(string name) => ObjectiveC.RegisterName(name);
}
"""
    emitter = b"""\
namespace Metal.NET.Generator;
static partial class CSharpEmitter
{
    static string Header(string name) => $"public class {name} : NSObject // e.g. MTLDevice";
    static readonly string Example = "MTLHeapDescriptorBindings";
}
"""
    assert _layers("Metal.NET/Interop/Selector.cs", interop) == {"portable": 6}
    assert _layers("Metal.NET.Generator/CSharpEmitter.MethodEmission.cs", emitter) == {
        "portable": 6
    }


# -- samminweng/WhileyOpenCL: a Whiley-to-C compiler's generated C, no GPU code left -------------


def test_whiley_generated_c_runtime_stays_portable() -> None:
    # tests/modelchecking/impl/*/Util.h: the generated C runtime's helpers.
    source = b"""\
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
long long* copy(long long* arr, size_t n);
void printf1DArray(long long* input, size_t input_size);
"""
    assert _layers("tests/modelchecking/impl/3parameter/test1/Util.h", source) == {"portable": 5}
