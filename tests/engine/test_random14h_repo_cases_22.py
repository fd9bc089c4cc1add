"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-h).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 441-447 and skipped none. Read were ikawrakow/ik_llama.cpp
(llama.cpp's fork: CUDA, Vulkan GLSL, Metal, SYCL and Ascend CANN back ends),
QuantumVoxel/quantum-voxel (a Java voxel game on libGDX with GLSL shader files),
troyBORG/Renderide (a Rust wgpu renderer with WGSL shaders), rishabumich/583-pytorch-inductor
(generated scripts tracing aten ops through torch.export decompositions),
rahul765/tensorflow-language-classification (a language classifier whose data set is
thousands of source files in many languages, clang's tests among them), pakchu/rllm (Python
market research scripts, a few picking a CUDA device) and eth-cscs/PASC_inference (a PETSc
C++ library with CUDA back-end files). Some blobs were missing from the snapshots (large
data and images); the clones were checked out without them. Fifteen files of each repository
were sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, files outside the sample that hold kernel lines
counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ikawrakow/ik_llama.cpp: oneAPI's environment script sourced before a SYCL run -------------


def test_oneapi_setvars_in_a_run_script_is_vendor_path() -> None:
    # examples/sycl/run-llama2.sh: the script sources Intel's setvars.sh, which puts icpx,
    # oneMKL and the Level Zero runtime on the path, then runs the SYCL build.
    source = b"""\
#!/bin/bash
source /opt/intel/oneapi/setvars.sh

if [ $# -gt 0 ]; then
    DEMO_DEVICE=$1
else
    DEMO_DEVICE=0
fi
./build/bin/demo -m model.bin -ngl 33 -mg $DEMO_DEVICE
"""
    assert _rules("examples/sycl/run-demo.sh", source) == {"build.sycl-flags"}
    assert _layers("examples/sycl/run-demo.sh", source) == {"vendor-path": 1, "portable": 6}


def test_oneapi_setvars_and_sycl_switch_in_a_batch_file_are_vendor_path() -> None:
    # examples/sycl/win-build-sycl.bat: Windows calls setvars.bat, then configures the SYCL
    # back end with Intel's icx.
    source = b"""\
@call "C:\\Program Files (x86)\\Intel\\oneAPI\\setvars.bat" intel64 --force
if %errorlevel% neq 0 goto ERROR
cmake -G "Ninja" .. -DDEMO_SYCL=ON -DCMAKE_CXX_COMPILER=icx
cmake --build . -j
exit /B 0
:ERROR
exit /B %errorlevel%
"""
    assert _rules("examples/sycl/win-build-demo.bat", source) == {"build.sycl-flags"}
    assert _layers("examples/sycl/win-build-demo.bat", source) == {
        "vendor-path": 2,
        "portable": 5,
    }


def test_a_projects_own_setvars_stays_portable() -> None:
    source = b"""\
#!/bin/bash
source ./tools/setvars.sh
export PATH=$HOME/bin:$PATH
"""
    assert _rules("scripts/env.sh", source) == set()
    assert _layers("scripts/env.sh", source) == {"portable": 2}


# -- ikawrakow/ik_llama.cpp: a CANN back end's header wrapping tensors for aclnn ---------------


def test_aclnn_tensor_types_in_a_header_are_vendor_path() -> None:
    # ggml/src/ggml-cann/acl_tensor.h: includes <aclnn/aclnn_base.h> and declares the helpers
    # that map ggml types and tensors onto aclDataType, aclTensor and aclFormat.
    source = b"""\
#ifndef NPU_TENSOR_H
#define NPU_TENSOR_H

#include <cstring>
#include <aclnn/aclnn_base.h>
#include "common.h"

aclDataType npu_type_of(ggml_type type);

aclTensor* npu_wrap(const ggml_tensor* t, int64_t* ne = nullptr,
                    size_t* nb = nullptr, int64_t dims = 0,
                    aclFormat format = ACL_FORMAT_ND, size_t offset = 0);

static inline bool npu_can_broadcast(const ggml_tensor* a, const ggml_tensor* b) {
    for (int i = 0; i < GGML_MAX_DIMS; i++) {
        if (b->ne[i] != a->ne[i] && b->ne[i] != 1) {
            return false;
        }
    }
    return true;
}

#endif
"""
    assert _rules("ggml/src/ggml-npu/npu_tensor.h", source) == {"ascend.runtime"}
    assert _layers("ggml/src/ggml-npu/npu_tensor.h", source) == {
        "vendor-path": 5,
        "portable": 13,
    }


# -- rahul765/tensorflow-language-classification: clang's asm-label tests are no PTX ------------


def test_asm_labels_on_declarations_are_not_ptx() -> None:
    # FileTypeData/Prog_Data_train/cpp/asm.cpp and 2006-11-20-GlobalSymbols.cpp (clang's Sema
    # and CodeGen tests): `int x asm("name")` renames the symbol; it is no inline assembly.
    source = b"""\
// RUN: %clang_cc1 -fsyntax-only -verify %s
int alpha asm ("alpha_sym");
int beta asm (L"beta_sym"); // expected-error {{wide}}
int gamma_v __asm__("g\\002amma");

int read_alpha() {
  return alpha;
}
"""
    assert _rules("tests/sema/asm-names.cpp", source) == set()
    assert _layers("tests/sema/asm-names.cpp", source) == {"portable": 6}


def test_macho_reference_directive_is_not_ptx() -> None:
    # FileTypeData/Prog_Data_train/cpp/csparser.cpp: Apple's plugin code keeps a symbol alive
    # with the `.reference` assembler directive.
    source = b"""\
#include "loader.h"

asm(".reference _register_plugin");

void load_all() {
  register_all();
}
"""
    assert _rules("src/plugins/loader.cpp", source) == set()
    assert _layers("src/plugins/loader.cpp", source) == {"portable": 5}


def test_ptx_behind_macro_names_stays_kernel() -> None:
    source = b"""\
#define MEMBAR_GPU asm volatile("membar.gl;")
#define FENCE_SYS asm("membar.sys")

__device__ inline unsigned lane() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
"""
    assert _rules("src/sync.cuh", source) == {"cuda.device-function", "cuda.ptx-asm"}
    assert _layers("src/sync.cuh", source) == {"kernel": 7}


# -- verdicts that were already right --------------------------------------------------------


def test_grid_stride_kernel_and_its_launcher_pinned() -> None:
    # ikawrakow/ik_llama.cpp ggml/src/ggml-cuda/scale.cu: a grid-stride kernel (7 lines), a
    # launcher taking a cudaStream_t, and the op reading its parameters portably.
    source = b"""\
#include "shift.cuh"

static __global__ void shift_f32(const float * x, float * dst, float a, float b, int64_t n) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t step = (int64_t)blockDim.x * gridDim.x;

    for (; i < n; i += step) {
        dst[i] = a * x[i] + b;
    }
}

static void shift_f32_cuda(const float * x, float * dst, float a, float b, int64_t n,
                           cudaStream_t stream) {
    const int64_t blocks = (n + 255) / 256;
    shift_f32<<<blocks, 256, 0, stream>>>(x, dst, a, b, n); }

void op_shift(context & ctx, tensor * dst) {
    const float * src = (const float *) dst->src[0]->data;
    float a;
    float b;
    memcpy(&a, dst->params + 0, sizeof(float));
    memcpy(&b, dst->params + 1, sizeof(float));
    shift_f32_cuda(src, (float *) dst->data, a, b, count(dst), ctx.stream());
}
"""
    assert _rules("ggml/src/ggml-cuda/shift.cu", source) == {
        "cuda.kernel",
        "cuda.launch",
        "cuda.runtime",
    }
    assert _layers("ggml/src/ggml-cuda/shift.cu", source) == {
        "kernel": 7,
        "vendor-path": 3,
        "portable": 10,
    }


def test_cuda_memory_copies_in_a_cu_file_are_vendor_path() -> None:
    # eth-cscs/PASC_inference src/petscvector/algebra/graph/bgmgraphgrid1D.cu: host code that
    # copies a graph's neighbour lists to the device, no kernel of its own.
    source = b"""\
#include "grid.cuh"

void Grid::upload_neighbours(int *counts, int **ids) {
\t/* copy counts to the device */
\tcheck( cudaMalloc((void **)&counts_dev, n*sizeof(int)) );
\tcheck( cudaMemcpy(counts_dev, counts, n*sizeof(int), cudaMemcpyHostToDevice) );

\tfor (int i = 0; i < n; i++) {
\t\tint len = counts[i];
\t\tcheck( cudaMalloc((void **)&(ids_host[i]), len*sizeof(int)) );
\t}
\tcheck( cudaDeviceSynchronize() );
}
"""
    assert _rules("src/graph/grid_gpu.cu", source) == {"cuda.runtime"}
    assert _layers("src/graph/grid_gpu.cu", source) == {"vendor-path": 4, "portable": 6}


def test_aten_op_traced_through_export_stays_portable() -> None:
    # rishabumich/583-pytorch-inductor framework/tests/test_torch_ops_aten_*.py: each script
    # wraps one aten op in a module, exports it and prints the decomposed graph on the CPU.
    source = b"""\
import torch
from torch._decomp import decomposition_table

class LerpModule(torch.nn.Module):
    def forward(self, a, b, w):
        return torch.ops.aten.lerp(a, b, w)

args = (torch.randn(3), torch.randn(3), 0.5)
ep = torch.export.export_for_training(LerpModule(), args)
ep = ep.run_decompositions(decomposition_table)
print(ep.module().code)
"""
    assert _rules("framework/tests/test_torch_ops_aten_lerp.py", source) == set()
    assert _layers("framework/tests/test_torch_ops_aten_lerp.py", source) == {"portable": 9}
