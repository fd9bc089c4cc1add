"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-a).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 554-561. One could not be read: bandrel/HashcatRosetta (no snapshot). The other
seven are LinHR000/cutlass_gemm, chrisaberger/SIMDGraphProcessing, datahaki/tensor,
Jhuighuy/TitSolver, geirev/LBM, guagua-paopao/yolo11-tensorrt-windows and tensorflow/tensorrt.
Fifteen files of each were sampled with ``random.Random("owner/name")`` over every file lockin
counts, and labelled before any fix, with the files lockin calls non-portable and GPU-looking
files it calls portable; three commits touching GPU code were drawn per repository with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- geirev/LBM: a lattice-Boltzmann solver in CUDA Fortran, one source for an OpenMP build --


def test_lbm_kernel_prefix_continued_past_the_guard_is_kernel_code() -> None:
    # src/m_*_kernel.F90: `attributes(global) &` stands alone under `#ifdef _CUDA`, and the
    # subroutine header follows the `#endif`. Before, none of the repository's 31 kernels
    # counted a kernel line: only the guarded lines, as vendor-path.
    source = b"""\
module m_relax_kernel
contains
#ifdef _CUDA
   attributes(global)&
#endif
   subroutine relax_kernel(f, feq, tau, n)
#ifdef _CUDA
   use cudafor
#endif
   implicit none
   integer, value :: n
   real, intent(inout) :: f(n)
   real, intent(in) :: feq(n)
   real, value :: tau
   integer :: i
#ifdef _CUDA
   i = threadIdx%x + (blockIdx%x - 1) * blockDim%x
   if (i > n) return
#else
!$OMP PARALLEL DO PRIVATE(i) SHARED(f, feq, tau)
   do i = 1, n
#endif
      f(i) = f(i) - (f(i) - feq(i)) / tau
#ifndef _CUDA
   enddo
!$OMP END PARALLEL DO
#endif
end subroutine
end module
"""
    assert _rules("src/m_relax_kernel.F90", source) == {"cuda.fortran-kernel", "cuda.fortran-guard"}
    assert _layers("src/m_relax_kernel.F90", source) == {
        "kernel": 23,
        "vendor-path": 1,
        "portable": 3,
    }


def test_lbm_kernel_prefix_continued_past_blank_and_comment_lines_counts_the_same() -> None:
    # Fortran allows blank and comment lines between a line and its continuation: the
    # robustness property inserted three blank lines after `attributes(global) &`, and the
    # header, read at most three lines below it, was lost (found by hypothesis in CI's
    # robustness test; the prefix's continuation is now read past any number of them).
    head = "module m_scale\ncontains\n#ifdef _CUDA\n   attributes(global) &\n"
    tail = (
        "#endif\n   subroutine scale_kernel(f, n)\n   integer, value :: n\n   real :: f(n)\n"
        "   f(threadIdx%x) = 2.0 * f(threadIdx%x)\n   end subroutine\nend module\n"
    )
    plain = (head + tail).encode()
    spaced = (head + "\n\n   ! the OpenMP build skips the prefix\n\n" + tail).encode()
    assert _layers("src/m_scale.F90", plain) == _layers("src/m_scale.F90", spaced)
    assert _layers("src/m_scale.F90", plain)["kernel"] >= 5


def test_lbm_host_and_device_helper_continued_is_kernel_code() -> None:
    # src/m_turbine_rotor_basis.F90: a helper compiled for host and device, its prefix on a
    # line of its own after a comment block.
    source = b"""\
module m_rotor_basis
contains
! Orthonormal basis of a rotor from its yaw.
#ifdef _CUDA
attributes(host,device) &
#endif
! the axis and two vectors in the rotor plane
subroutine rotor_basis(yaw, e_axis, e1)
   real, intent(in) :: yaw
   real, intent(out) :: e_axis(3), e1(3)
   e_axis = (/ cos(yaw), sin(yaw), 0.0 /)
   e1 = (/ -sin(yaw), cos(yaw), 0.0 /)
end subroutine
end module
"""
    assert _layers("src/m_rotor_basis.F90", source) == {
        "kernel": 8,
        "vendor-path": 1,
        "portable": 3,
    }


def test_lbm_host_routine_with_device_arrays_stays_vendor_path() -> None:
    # src/m_diag.F90, m_bilin_gpu.F90: host routines whose dummy arrays live on the device in
    # the CUDA build. Checked right before: device declarations, no kernel.
    source = b"""\
module m_dump
contains
subroutine dump(rho, u)
   use mod_dimensions
   implicit none
   real, intent(in) :: rho(nx, ny), u(nx, ny)
#ifdef _CUDA
   attributes(device) :: rho, u
#endif
   real, allocatable :: rho_h(:,:)
   allocate(rho_h(nx, ny))
   rho_h = rho
   print *, minval(rho_h), maxval(rho_h)
end subroutine
end module
"""
    assert _rules("src/m_dump.F90", source) == {"cuda.fortran-guard"}
    assert "kernel" not in _layers("src/m_dump.F90", source)


def test_lbm_continued_device_declaration_is_not_a_kernel() -> None:
    # The negative: an attribute statement continued on the next line declares device
    # arrays of a host routine; no procedure follows the prefix.
    source = b"""\
subroutine halo(snd, rcv, n)
   integer :: n
   real :: snd(n), rcv(n)
   attributes(device) &
      :: snd, rcv
   call mpi_exchange(snd, rcv, n)
end subroutine halo
"""
    assert "cuda.fortran-kernel" not in _rules("src/m_halo.F90", source)
    assert "kernel" not in _layers("src/m_halo.F90", source)


# -- tensorflow/tensorrt: TF-TRT examples and benchmarks ----------------------------------------


def test_tftrt_cmake_defining_the_cuda_and_tensorrt_switches_is_vendor_path() -> None:
    # tftrt/benchmarking-cpp/CMakeLists.txt (and the two C++ examples): the TensorRT headers
    # found by name and the TensorFlow headers compiled with their NVIDIA switches on. Before,
    # all three files were portable.
    source = b"""\
cmake_minimum_required(VERSION 3.13)
project(TFTRT_Runner)
set(CMAKE_CXX_STANDARD 14)
find_library(tf_lib NAMES libtensorflow_cc.so.2 HINTS ${TF_DIR}/lib)
find_path(trt_include_path NAME NvInfer.h HINTS)
add_executable(runner main.cc)
target_link_libraries(runner tensorflow_cc)
target_compile_options(runner PRIVATE -D_GLIBCXX_USE_CXX11_ABI=1 -DGOOGLE_CUDA -DGOOGLE_TENSORRT)
target_include_directories(runner PRIVATE ${trt_include_path})
"""
    assert _rules("tftrt/benchmarking-cpp/CMakeLists.txt", source) == {
        "build.cmake-nvidia-library",
        "build.cmake-cuda-define",
    }
    assert _layers("tftrt/benchmarking-cpp/CMakeLists.txt", source) == {
        "vendor-path": 2,
        "portable": 7,
    }


def test_cmake_cuda_switch_on_over_lines_and_the_ones_that_switch_nothing() -> None:
    # A definitions call spanning lines switches CUDA on from its third line; names saying
    # the opposite, detections, other values and variables switch nothing on.
    on = b"""\
if(SOLVER_ENABLE_CUDA)
  target_compile_definitions(solver_core
    PRIVATE
      SOLVER_ENABLE_CUDA=1
  )
endif()
"""
    assert _rules("src/core/CMakeLists.txt", on) == {"build.cmake-cuda-define"}
    assert _layers("src/core/CMakeLists.txt", on) == {"vendor-path": 1, "portable": 5}
    off = b"""\
add_definitions(-DEIGEN_NO_CUDA -DMPI_CUDA_AWARE_OFF)
target_compile_definitions(app PUBLIC DISABLE_CUDA_PHYSX MRA_HAVE_CUDA=1 CUDA_TPB=${CUDA_TPB})
target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CXX,CUDA>:-O3>)
set(GPU_BACKEND CUDA)
"""
    assert _layers("CMakeLists.txt", off) == {"portable": 4}


def test_tftrt_run_script_calling_nvidia_smi_is_vendor_path() -> None:
    # tftrt/benchmarking-python/nvidia_examples/*/run_inference.sh: checked right before; the
    # script queries NVIDIA's driver tool before the benchmark.
    source = b"""\
#!/bin/bash
nvidia-smi
BASE_DIR="$( cd "$( dirname "${BASH_SOURCE[0]}" )" &> /dev/null && pwd )"
python ${BASE_DIR}/infer.py --model_name "bert_tf2" --batch_size=64 ${@}
"""
    assert _rules("nvidia_examples/bert_tf2/run_inference.sh", source) == {"build.nvcc"}
    assert _layers("nvidia_examples/bert_tf2/run_inference.sh", source) == {
        "vendor-path": 1,
        "portable": 2,
    }


# -- guagua-paopao/yolo11-tensorrt-windows: a TensorRT detection service ----------------------


def test_yolo11_worker_config_naming_an_engine_file_is_portable() -> None:
    # config/worker_*.yaml: a path to a serialized engine and a device index are settings
    # the program reads; the TensorRT calls are in its C++ (judgement: checked right).
    source = b"""\
model:
  model_type: detect
  engine_path: "D:/models/engines/yolo11n.engine"
  labels_path: "D:/models/labels/coco.txt"
  gpu_id: 0
  use_gpu_postprocess: false
worker:
  worker_group: "image_detect_gpu0"
"""
    assert _layers("config/worker_detect.yaml", source) == {"portable": 8}


# -- Jhuighuy/TitSolver: an SPH solver with a three.js viewer -----------------------------------


def test_titsolver_glsl_in_a_shader_material_is_kernel_code() -> None:
    # source/titgui/renderer/common/visual/spheres.ts: GLSL programs in template strings handed
    # to ShaderMaterial. Checked right before (shaders are kernel code).
    source = b"""\
import { ShaderMaterial } from "three";

export function sphereMaterial() {
  return new ShaderMaterial({ vertexShader, fragmentShader });
}

const vertexShader = `
  uniform float pointSize;
  varying float vValue;
  attribute float value;
  void main() {
    vValue = value;
    gl_PointSize = pointSize;
    gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
  }
`;

const fragmentShader = `
  varying float vValue;
  void main() {
    gl_FragColor = vec4(vValue, 0.0, 1.0 - vValue, 1.0);
  }
`;
"""
    assert _rules("renderer/common/visual/spheres.ts", source) == {"vulkan.glsl-string"}
    layers = _layers("renderer/common/visual/spheres.ts", source)
    assert set(layers) == {"kernel", "portable"}
    # 12 lines of GLSL statements; the lines opening and closing each string count too.
    assert 12 <= layers["kernel"] <= 17
