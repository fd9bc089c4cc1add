"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h42-random-k).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 295-301: rodjjo/diffusion-expert, dereklstinson/gocudnn, kliegeois/kokkos-kernels,
WiamSkakri/ai3-8CuDNN, SiTronXD/vk3dGaussianSplatting, AbbasDagg/NodeBased-RayMarching and
NVIDIA/TensorRT-Model-Connect. None was skipped: each had a snapshot lockin could count. Fifteen
files of each were sampled with ``random.Random("owner/name")`` over every file lockin counts,
and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10); three commits touching GPU code were drawn with
``random.Random("owner/name:commits")`` and judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- dereklstinson/gocudnn: Go bindings of cuDNN, the CUDA runtime and driver, NPP and nvJPEG ---


def test_gocudnn_npp_binding_file_is_vendor_library() -> None:
    # npp/nppigeometry.go: 2,845 lines of cgo calls into NPP's geometry transforms, with NPP's
    # types and constants. Before, the whole file was portable: only cuBLAS, cuDNN and their
    # peers were read as NVIDIA libraries called through cgo.
    source = b"""\
package npp

/*
#include <nppi_geometry_transforms.h>
*/
import "C"

func MirrorU8(src, dst *Uint8, roi Size, axis Axis) error {
	return status(C.nppiMirror_8u_C1R(src.cptr(), C.int(roi.w), dst.cptr(),
		roi.c(), C.NppiAxis(axis))).ToError()
}

func (s *Size) c() C.NppiSize {
	return C.NppiSize{width: C.int(s.w), height: C.int(s.h)}
}
"""
    assert _rules("npp/nppigeometry.go", source) == {"cuda.go-cgo-library"}
    assert _layers("npp/nppigeometry.go", source)["vendor-library"] == 4


def test_gocudnn_npp_status_enum_is_vendor_library() -> None:
    # npp/statuserror.go: a Go error type over NppStatus, one case per NPP_* code.
    source = b"""\
package npp

import "C"

type status C.NppStatus

func (s status) Error() string {
	switch s {
	case status(C.NPP_NO_ERROR):
		return "ok"
	case status(C.NPP_NOT_SUPPORTED_MODE_ERROR):
		return "mode not supported"
	}
	return "unknown"
}
"""
    assert _rules("npp/statuserror.go", source) == {"cuda.go-cgo-library"}
    assert _layers("npp/statuserror.go", source)["vendor-library"] == 3


def test_gocudnn_nvjpeg_flags_are_vendor_library() -> None:
    # nvjpeg/flags_chromasubsample.go: Go flags over nvJPEG's enum, set from NVJPEG_* values.
    source = b"""\
package nvjpeg

import "C"

type ChromaSubsampling C.nvjpegChromaSubsampling_t

func (c *ChromaSubsampling) CSS444() ChromaSubsampling {
	*c = ChromaSubsampling(C.NVJPEG_CSS_444)
	return *c
}
"""
    assert _rules("nvjpeg/flags_chromasubsample.go", source) == {"cuda.go-cgo-library"}
    assert _layers("nvjpeg/flags_chromasubsample.go", source)["vendor-library"] == 2


def test_gocudnn_runtime_binding_calls_are_vendor_path() -> None:
    # cudart/crtutil/memory_test.go and xtra/concat_test.go: tests take a device, a stream
    # and device memory from the binding's cudart package. Before, portable.
    source = b"""\
package crtutil

import "github.com/dereklstinson/gocudnn/cudart"

func TestReadWriter(t *testing.T) {
	dev, err := cudart.GetDevice()
	check(t, err)
	stream, err := cudart.CreateNonBlockingStream()
	check(t, err)
	var kind cudart.MemcpyKind
	check(t, cudart.Memcpy(dst, src, size, kind.Default()))
	_ = stream
}
"""
    assert _rules("cudart/crtutil/memory_test.go", source) == {"cuda.go-binding"}
    assert _layers("cudart/crtutil/memory_test.go", source)["vendor-path"] == 4


def test_gocudnn_driver_binding_package_named_cuda_is_vendor_path() -> None:
    # xtra/xtrakerns/swap_test.go: a context made on the first device through the binding's
    # cuda package, then a module built from the kernels' PTX.
    source = b"""\
package xtrakerns

import "github.com/dereklstinson/gocudnn/cuda"

func TestCreateModule(t *testing.T) {
	devs, err := cuda.GetDeviceList()
	check(t, err)
	ctx, err := cuda.CtxCreate(-1, devs[0])
	check(t, err)
	ctx.Set()
}
"""
    assert _rules("xtra/xtrakerns/swap_test.go", source) == {"cuda.go-binding"}
    assert _layers("xtra/xtrakerns/swap_test.go", source)["vendor-path"] == 2


def test_gocudnn_library_bindings_used_by_name_are_vendor_library() -> None:
    # cudnnConvolution_test.go and nvjpeg/nvjpeg_test.go: cuDNN through the package imported
    # as gocudnn, nvJPEG through its nvjpeg package.
    source = b"""\
package gocudnn_test

func TestConv(t *testing.T) {
	handle := gocudnn.CreateHandle(true)
	desc, err := gocudnn.CreateConvolutionDescriptor()
	check(t, err)
	jpeg, err := nvjpeg.CreateEx(backend.Default())
	check(t, err)
	_, _, _ = handle, desc, jpeg
}
"""
    assert _rules("cudnnConvolution_test.go", source) == {"cuda.go-binding-library"}
    assert _layers("cudnnConvolution_test.go", source)["vendor-library"] == 3


def test_gocudnn_project_helpers_stay_portable() -> None:
    # kernels/DimGrid.go: grid arithmetic for launches, no device call; and a project package
    # whose name only ends like NPP's.
    source = b"""\
package kernels

func SimpleGridCalculator(blocksize uint32, size uint32) uint32 {
	return ((size - 1) / blocksize) + 1
}

func open() error { return snpp.Open("db") }
"""
    assert _layers("kernels/DimGrid.go", source) == {"portable": 5}


# -- SiTronXD/vk3dGaussianSplatting: a Vulkan Gaussian splatting renderer --------------------


def test_vk_gaussian_splatting_project_linking_vulkan_is_vendor_path() -> None:
    # vkGaussianSplatting.vcxproj: the SDK's headers and libraries, the loader's import library
    # and a custom build step compiling the shaders with glslangValidator. Before, portable.
    source = b"""\
<ItemDefinitionGroup Condition="'$(Configuration)|$(Platform)'=='Release|x64'">
  <ClCompile>
    <AdditionalIncludeDirectories>$(ProjectDir)Linking\\Include;$(VULKAN_SDK)\\Include\\</AdditionalIncludeDirectories>
  </ClCompile>
  <Link>
    <AdditionalLibraryDirectories>$(VULKAN_SDK)\\Lib\\;$(ProjectDir)Linking\\Lib</AdditionalLibraryDirectories>
    <AdditionalDependencies>vulkan-1.lib;glfw3.lib;%(AdditionalDependencies)</AdditionalDependencies>
  </Link>
  <CustomBuild>
    <Command>glslangValidator --target-env vulkan1.1 -V %(FullPath) -o %(Filename).spv</Command>
  </CustomBuild>
</ItemDefinitionGroup>
"""
    assert _rules("vkGaussianSplatting/vkGaussianSplatting.vcxproj", source) == {"build.vulkan"}
    assert _layers("vkGaussianSplatting/vkGaussianSplatting.vcxproj", source) == {
        "vendor-path": 4,
        "portable": 8,
    }


# -- Cases checked right that were hard --------------------------------------------------------


def test_kokkos_kernels_backend_test_unit_of_includes_is_portable() -> None:
    # kliegeois/kokkos-kernels unit_test/hip/Test_HIP_Batched_SerialSolveLU_Real.cpp: the HIP
    # back end's unit of a portable test, three includes and nothing of HIP's own.
    source = b"""\
#include "Test_HIP.hpp"
#include "Test_Batched_SerialSolveLU.hpp"
#include "Test_Batched_SerialSolveLU_Real.hpp"
"""
    assert _layers("unit_test/hip/Test_HIP_Batched_SerialSolveLU_Real.cpp", source) == {
        "portable": 3
    }


def test_ai3_stub_naming_cudnn_in_its_error_is_portable() -> None:
    # WiamSkakri/ai3-8CuDNN src/ai3/csrc/conv2d/winograd_plain.cpp: the build without cuDNN
    # fails the algorithm with a message naming the library.
    source = b"""\
template <typename dtype>
Tensor conv2d::winograd(Tensor input, const Tensor &kernel) {
    (void)input;
    (void)kernel;
    errs::bail("winograd not implemented outside of cuDNN");
}
"""
    assert _layers("src/ai3/csrc/conv2d/winograd_plain.cpp", source) == {"portable": 6}


def test_ai3_slurm_job_asking_for_nvidia_smi_is_vendor_path() -> None:
    # WiamSkakri/ai3-8CuDNN Performance_Prediction/vgg16/winograd/v100_job.sh: a batch job
    # printing the NVIDIA GPU it was given before running the benchmark.
    source = b"""\
#!/bin/bash
#SBATCH --gres=gpu:1
echo "GPU Information:"
nvidia-smi
python vgg16_winograd.py
"""
    assert _layers("Performance_Prediction/vgg16/winograd/v100_job.sh", source)["vendor-path"] == 1


def test_raymarching_glsl_in_a_typescript_template_is_kernel_code() -> None:
    # AbbasDagg/NodeBased-RayMarching src/gravitas/glslShaders.ts: GLSL functions kept in
    # template strings for Three.js; the TypeScript around them is portable.
    source = b"""\
// GLSL sources kept as strings so the bundler needs no loader.
export const GLSL_PRIMITIVES = `
float sdSphere(float x, float y, float z, float radius) {
    return sqrt(x*x + y*y + z*z) - radius;
}

vec3 quatRotate(vec4 q, vec3 v) {
    return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}
`;
"""
    layers = _layers("src/gravitas/glslShaders.ts", source)
    assert layers["kernel"] >= 6
