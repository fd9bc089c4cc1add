"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-b).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 204-210. One was skipped: monteirodemolay/portal_irmaovl6
(207) had no snapshot to fetch. Read were danfelbm/astra (a Laravel and Vue application for
assemblies and elections, with its built Vite bundles committed, one of them carrying a video
SDK's WebGL and WebGPU shaders as strings), guylavian/tash-llm-wiki (an Obsidian wiki of
vendor documentation with a small Python toolchain and a CPU-only Docker image, no GPU code),
ROCm/hipfort (AMD's Fortran interfaces to HIP and the ROCm libraries: generated bind(c)
modules for hipBLAS, rocBLAS, hipSOLVER, hipSPARSE, hipFFT and hipRAND, their test programs,
three tiny HIP kernels and hipfc, its compiler driver), hirofumi0810/neural_sp (a PyTorch
speech recognition toolkit with Kaldi-style shell recipes that pick GPUs with
CUDA_VISIBLE_DEVICES), ajaxorg/ace (the Ace code editor in JavaScript, with one sample
document per highlighting mode, a GLSL shader among them) and nerfchess/nerfchess (a chess
variant web game in TypeScript and CSS, no GPU code). Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, files outside the sample that hold kernel lines
counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/hipfort: Fortran bindings of HIP and the ROCm libraries ---------------------------


def test_hipfort_program_calling_hipblas_in_camel_case_is_vendor_library() -> None:
    # test/f2003/hipblas/dger.f03 (and saxpy, cgemm, hipsolverdgetrf: vendor-path only
    # before): hipfort's modules and device copies are the HIP runtime, the hipblas* calls in
    # the C API's camel case are hipBLAS, a library mapped to cuBLAS on NVIDIA.
    source = b"""\
program rank_one_update
  use iso_c_binding
  use hipfort
  use hipfort_hipblas
  implicit none
  type(c_ptr) :: blas = c_null_ptr, dv = c_null_ptr, dm = c_null_ptr
  call hipblasCheck(hipblasCreate(blas))
  call hipCheck(hipMalloc(dv, nbytes))
  call hipCheck(hipMalloc(dm, nbytes * cols))
  call hipblasCheck(hipblasDger(blas, rows, cols, scale, dv, 1, dv, 1, dm, rows))
  call hipCheck(hipDeviceSynchronize())
  call hipblasCheck(hipblasDestroy(blas))
end program rank_one_update
"""
    path = "test/f2003/hipblas/rank_one.f03"
    assert _rules(path, source) == {"hip.fortran-host", "hip.fortran-library"}
    layers = _layers(path, source)
    assert layers["vendor-library"] == 3
    assert layers["vendor-path"] == 5


def test_hipsolver_calls_through_hipfort_are_vendor_library() -> None:
    # test/f2008/hipsolver/hipsolverdgetrf.f03: the bufferSize query and the factorisation.
    source = b"""\
program lu_on_gpu
  use hipfort
  use hipfort_hipsolver
  call hipsolverCheck(hipsolverCreate(solver))
  call hipsolverCheck(hipsolverDgetrf_bufferSize(solver, m, n, da, lda, work_bytes))
  call hipsolverCheck(hipsolverDgetrf(solver, m, n, da, lda, dwork, work_bytes, dpiv, dinfo))
end program lu_on_gpu
"""
    path = "test/f2008/hipsolver/lu.f03"
    assert "hip.fortran-library" in _rules(path, source)
    assert _layers(path, source)["vendor-library"] == 3


def test_hiprand_interface_module_binding_both_vendors_is_vendor_library() -> None:
    # lib/hipfort/hipfort_hiprand.f (vendor-path only before: its `use hipfort_*` lines): each
    # generic interface declares the hipRAND function, or cuRAND's under USE_CUDA_NAMES.
    source = b"""\
module rand_bindings
  use rand_bindings_enums
  implicit none
  interface hiprandSetSeed
#ifdef USE_CUDA_NAMES
    function hiprandSetSeed_(gen, seed) bind(c, name="curandSetPseudoRandomGeneratorSeed")
#else
    function hiprandSetSeed_(gen, seed) bind(c, name="hiprandSetPseudoRandomGeneratorSeed")
#endif
      use iso_c_binding
      implicit none
      integer(c_int) :: hiprandSetSeed_
      type(c_ptr), value :: gen
      integer(c_long_long), value :: seed
    end function
  end interface
end module rand_bindings
"""
    path = "lib/bindings/rand_bindings.f"
    assert "hip.fortran-library" in _rules(path, source)
    assert _layers(path, source)["vendor-library"] == 2


def test_hipblas_interface_module_without_hipfort_is_vendor_library() -> None:
    # lib/modules-amdgcn/hip_blas.f (portable before): a module of bind(c) interfaces to
    # hipBLAS on its own; the status helper in its contains part calls no library.
    source = b"""\
module gpu_blas
  implicit none
  interface
    function hipblasDscal(handle, n, alpha, x, incx) bind(c, name="hipblasDscal")
      use iso_c_binding
      integer(c_int) :: hipblasDscal
      type(c_ptr), value :: handle, x
      integer, value :: n, incx
      double precision, intent(in) :: alpha
    end function hipblasDscal
  end interface
contains
  subroutine hipblasCheck(status)
    integer :: status
    if (status /= 0) call exit(status)
  end subroutine hipblasCheck
end module gpu_blas
"""
    path = "lib/modules/gpu_blas.f"
    assert _rules(path, source) == {"hip.fortran-library"}
    assert _layers(path, source)["vendor-library"] == 1


def test_roctx_interface_module_is_vendor_path() -> None:
    # lib/hipfort/hipfort_roctx.f (a GPU-looking file called portable before): interfaces to
    # the ROCm tracer's markers; roctx is ROCm's NVTX.
    source = b"""\
module range_markers
  interface
    subroutine roctxMark(text) bind(c, name="roctxMarkA")
      use iso_c_binding, only: c_char
      character(kind=c_char) :: text(*)
    end subroutine roctxMark
    function roctxRangePop() bind(c, name="roctxRangePop")
      use iso_c_binding, only: c_int
      integer(c_int) :: roctxRangePop
    end function roctxRangePop
  end interface
end module range_markers
"""
    path = "lib/trace/range_markers.f90"
    assert _rules(path, source) == {"hip.fortran-host"}
    assert _layers(path, source)["vendor-path"] == 2


def test_rocm_enum_module_is_portable() -> None:
    # lib/hipfort/hipfort_rocrand_enums.f (right before): status and generator constants in a
    # bind(c) enum; no call and no declaration of a library function.
    source = b"""\
module rand_enums
  implicit none
  enum, bind(c)
    enumerator :: ROCRAND_STATUS_SUCCESS = 0
    enumerator :: ROCRAND_STATUS_NOT_CREATED = 101
  end enum
end module rand_enums
"""
    path = "lib/bindings/rand_enums.f"
    assert _rules(path, source) == set()


def test_rocsolver_snake_case_calls_stay_vendor_library() -> None:
    # test/f2008/rocsolver/rocsolver_dgeqrf.f03 (right before): rocSOLVER and rocBLAS spell
    # their C API in snake case.
    source = b"""\
program qr_on_gpu
  use hipfort
  use hipfort_rocsolver
  call rocblas_check(rocblas_create_handle(handle))
  call rocblas_check(rocsolver_dgeqrf(handle, m, n, da, lda, dtau))
end program qr_on_gpu
"""
    path = "test/f2008/rocsolver/qr.f03"
    assert "hip.fortran-library" in _rules(path, source)
    layers = _layers(path, source)
    assert layers["vendor-library"] == 2
    assert layers["vendor-path"] == 2


def test_makefile_compiling_with_hipfc_is_vendor_path() -> None:
    # test/f2008/vecadd/Makefile (a GPU-looking file called portable before): hipfc, hipfort's
    # compiler driver, builds the Fortran host and the HIP kernel together.
    source = b"""\
.PHONY: build clean

build: app

app:
\thipfc $(FLAGS) host.f90 kernel.cpp -o app

clean:
\trm -f app *.o *.mod
"""
    path = "test/vecadd/Makefile"
    assert _rules(path, source) == {"build.hip-offload-arch"}
    assert _layers(path, source)["vendor-path"] == 1


def test_hip_vector_add_beside_a_fortran_host_counts_its_kernel() -> None:
    # test/f2008/vecadd/hip_implementation.cpp (kernel 7 by hand, 7 by lockin): a grid-stride
    # kernel and the extern "C" launcher Fortran calls.
    source = b"""\
#include <hip/hip_runtime.h>

__global__ void add_vectors(double *out, const double *x, const double *y, int n)
{
  size_t first = blockIdx.x * blockDim.x + threadIdx.x;
  size_t step = blockDim.x * gridDim.x;
  for (size_t i = first; i < n; i += step)
    out[i] = x[i] + y[i];
}

extern "C" void start(dim3 *grid, dim3 *block, hipStream_t s, double *o, double *x, int n)
{
  hipLaunchKernelGGL(add_vectors, *grid, *block, 0, s, o, x, x, n);
}
"""
    layers = _layers("test/vecadd/gpu_add.cpp", source)
    assert 6 <= layers["kernel"] <= 8
    assert layers["vendor-path"] >= 1


# -- hirofumi0810/neural_sp: Kaldi-style recipes on PyTorch ---------------------------------


def test_recipe_pinning_gpus_for_a_training_step_is_vendor_path() -> None:
    # examples/timit/s5/local/plot_ctc.sh (right before): the GPU list goes to
    # CUDA_VISIBLE_DEVICES on the one line that runs the script.
    source = b"""\
#!/usr/bin/env bash
gpu=
. ./path.sh
. utils/parse_options.sh
if [ -z ${gpu} ]; then
    n_gpus=0
else
    n_gpus=$(echo ${gpu} | tr "," "\\n" | wc -l)
fi
CUDA_VISIBLE_DEVICES=${gpu} ${TOOL_ROOT}/bin/plot.py \\
    --n_gpus ${n_gpus} --model ${model}
"""
    path = "recipes/timit/local/plot.sh"
    assert _layers(path, source)["vendor-path"] == 1


def test_path_script_exporting_cuda_and_nccl_roots_is_vendor_path() -> None:
    # examples/*/s5/path.sh (7 vendor-path lines by hand and by lockin): the CUDA section.
    source = b"""\
export TOOL_ROOT=$PWD/../..
export OMP_NUM_THREADS=1
CUDAROOT=/usr/local/cuda
NCCL_ROOT=/usr/local/nccl
export CPATH=$NCCL_ROOT/include:$CPATH
export LD_LIBRARY_PATH=$NCCL_ROOT/lib/:$CUDAROOT/lib64:$LD_LIBRARY_PATH
export CUDA_HOME=$CUDAROOT
"""
    path = "recipes/wsj/path.sh"
    layers = _layers(path, source)
    assert layers["vendor-path"] == 5
    assert layers["portable"] == 2


def test_kaldi_cmd_naming_a_gpu_queue_is_portable() -> None:
    # examples/*/cmd.sh (portable, right): a scheduler option that asks for one GPU.
    source = b"""\
export train_cmd="run.pl --mem 2G"
export cuda_cmd="run.pl --mem 2G --gpu 1"
"""
    assert _rules("recipes/wsj/cmd.sh", source) == set()


def test_conformer_config_with_kernel_sizes_is_portable() -> None:
    # examples/*/conf/asr/*.yaml (portable, right): convolution kernel sizes, no device.
    source = b"""\
enc_type: conv_conformer
conv_kernel_sizes: "(3,3)_(3,3)"
conformer_kernel_size: 15
dropout: 0.1
"""
    assert _rules("conf/asr/conformer.yaml", source) == set()


# -- danfelbm/astra and ajaxorg/ace: shaders in a bundle and in a mode's sample --------------


def test_built_bundle_with_webgl_and_wgsl_shader_strings_is_kernel() -> None:
    # public/build/assets/ZoomMeeting-*.js (kernel 63, about 59 by hand): a video SDK's
    # preview paths hold a WebGL vertex shader and a WGSL one as template strings.
    source = b"""\
class GlPreview{draw(c){var g=c.getContext("webgl2");return g}}
GlPreview.VERTEX=`#version 300 es
    in vec2 corner;
    out vec2 uv;
    void main() {
      uv = (corner + 1.0) * 0.5;
      gl_Position = vec4(corner.x, -corner.y, 0.0, 1.0);
    }
`;
GpuPreview.FRAGMENT=`
    @group(0) @binding(0) var smp: sampler;
    @group(0) @binding(1) var frame: texture_external;
    @fragment
    fn main(@location(0) uv : vec2<f32>) -> @location(0) vec4<f32> {
      return textureSampleBaseClampToEdge(frame, smp, uv);
    }
`;
"""
    path = "public/build/assets/Preview-abc123.js"
    rules = _rules(path, source)
    assert "vulkan.glsl-string" in rules
    assert "wgsl.source-string" in rules
    assert 10 <= _layers(path, source)["kernel"] <= 16


def test_editor_sample_document_in_glsl_is_kernel() -> None:
    # demo/kitchen-sink/docs/glsl.glsl (kernel 13 by hand and by lockin): the highlighting
    # mode's sample is a real vertex shader, counted as shader source on disk is.
    source = b"""\
uniform float strength;
attribute float offset;
varying vec3 vNormal;

void main() {
    vNormal = normal;
    // push each vertex along its normal
    vec3 moved = position + normal * vec3(offset * strength);
    gl_Position = projectionMatrix * modelViewMatrix * vec4(moved, 1.0);
}
"""
    assert _layers("demo/docs/glsl.glsl", source) == {"kernel": 8}


def test_glsl_highlight_rules_listing_builtins_are_portable() -> None:
    # src/mode/glsl_highlight_rules.js (a GPU-looking file, portable, right): the editor's
    # keyword lists for GLSL are data of a JavaScript tokenizer.
    source = b"""\
var oop = require("../lib/oop");
var GlslRules = function() {
    var keywords = "attribute|const|uniform|varying|layout|centroid|flat|smooth";
    var builtins = "gl_Position|gl_PointSize|gl_FragColor|gl_FragCoord|texture2D";
    this.$rules = { start: [{ token: "keyword", regex: keywords }] };
};
oop.inherits(GlslRules, CppRules);
"""
    assert _rules("src/mode/glsl_rules.js", source) == set()


# -- guylavian/tash-llm-wiki: a CPU-only image -----------------------------------------------


def test_dockerfile_installing_cpu_only_torch_is_portable() -> None:
    # Dockerfile (a GPU-looking file, portable, right): torch from the CPU wheel index, a
    # comment on the CUDA wheels it avoids.
    source = b"""\
FROM python:3.12-slim
# the default torch wheel bundles CUDA; this image is CPU-only
RUN pip install --no-cache-dir torch==2.5.1 --index-url https://download.pytorch.org/whl/cpu
RUN pip install --no-cache-dir sentence-transformers numpy
COPY . /app
CMD ["python3", "-m", "app", "serve"]
"""
    assert _rules("Dockerfile", source) == set()
