"""Cases from repositories drawn at random from a GPU sub-pool (issue 27, lane h55-random-j).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on that hold a GPU term by the
written rule in ``/work/pool/h55_gpu_rule.py`` (by the name's text only, so some are no GPU
code at all). This lane took positions 8-14. One was skipped: NeptuneKit/TritonKit (11) had
no snapshot to fetch. Read were NeilJustice/ZenUnitAndMetalMock (a C++ unit-test framework
and its mocking library, MetalMock, named for no GPU API: templates, tests and a Python
devops helper), tkadauke/raytracer (a multithreaded CPU ray tracer in templated C++ with a
Qt scene browser, SSE3 colour types and vendored gtest/gmock), Faria22/LAPACK-BLAS-
Documentation-Search-Raycast (a Raycast extension in TypeScript searching LAPACK and BLAS
routine docs, with Python scripts that parse the Fortran sources into markdown),
choir-hip/go-choir (a Go platform of persistent agent computers in VMs: "kernel" there is
Linux's), robalexlimas/pycuda-image (image greyscale and erosion on PyCUDA: CUDA C kernels
in Python strings compiled with SourceModule, a requirements file spelled requeriments.txt
pinning pycuda) and emu-russia/gpuBladeSoft (a PlayStation GPU plugin recovered from its DLL:
some 7,600 Hex-Rays decompiled C functions, an OpenGL extension loader among them, and the
PSEmu plugin interface). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand
(up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- robalexlimas/pycuda-image: PyCUDA kernels in strings, a misspelt requirements file -----


def test_requeriments_txt_pinning_pycuda_is_a_cuda_wheel() -> None:
    # requeriments.txt (a miss before: the Spanish spelling was plain text, its pycuda pin
    # never counted): pip reads any file given by -r, and this one lists the project's wheels.
    source = b"""\
numpy==1.21.0
Pillow==9.0.1
pycuda==2022.1
pytools==2022.1.2
"""
    path = "requeriments.txt"
    assert classify(path, source).language == "Requirements"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source)["vendor-path"] == 1


def test_requerimientos_txt_in_a_subfolder_pinning_cupy_is_a_cuda_wheel() -> None:
    # The other spelling, with a suffix, under a folder: the same pip file.
    source = b"""\
-r requerimientos-base.txt
cupy-cuda12x>=13.0
"""
    path = "entorno/requerimientos-gpu.txt"
    assert classify(path, source).language == "Requirements"
    assert _rules(path, source) == {"deps.cuda-wheel"}


def test_requerimientos_txt_holding_prose_stays_text() -> None:
    # The negative: a Spanish project's list of requirements in sentences is no pip file, CUDA
    # named in it or not.
    source = b"""\
Requerimientos del sistema:
- Una tarjeta de video con soporte de CUDA 11 o superior.
- Al menos 8 GB de memoria para procesar las imagenes.
"""
    path = "docs/requerimientos.txt"
    assert classify(path, source).language != "Requirements"
    assert _rules(path, source) == set()
    assert "vendor-path" not in _layers(path, source)


def test_pycuda_kernel_in_a_template_string_and_its_driver_calls() -> None:
    # processing.py (right before: 42 kernel lines counted by hand as 38-42): a CUDA C kernel
    # held in a Python string filled in with %-formatting, compiled by SourceModule, its
    # buffers moved with the driver's mem_alloc and memcpy calls.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.driver as drv
from pycuda import compiler

invert_src = \"\"\"
    __global__ void invert(unsigned int *out, unsigned int *img)
    {
        int col = threadIdx.x + blockIdx.x * blockDim.x;
        int row = threadIdx.y + blockIdx.y * blockDim.y;
        if (col < %(w)s && row < %(h)s) {
            int at = row * %(w)s + col;
            out[at] = 255 - img[at];
        }
    }
\"\"\"


def invert(img, h, w):
    host = np.asarray(img, dtype=np.uint32)
    out = np.empty_like(host)
    dev_in = drv.mem_alloc(host.nbytes)
    dev_out = drv.mem_alloc(out.nbytes)
    drv.memcpy_htod(dev_in, host)
    mod = compiler.SourceModule(invert_src % {"w": w, "h": h})
    mod.get_function("invert")(dev_out, dev_in, block=(16, 16, 1), grid=(8, 8, 1))
    drv.memcpy_dtoh(out, dev_out)
    return out
"""
    layers = _layers("processing.py", source)
    assert 9 <= layers["kernel"] <= 11
    assert layers["vendor-path"] >= 6


def test_caller_of_pycuda_helpers_is_portable() -> None:
    # main.py (right before): builds a numpy array and calls the helper module's function.
    source = b"""\
import numpy as np
from processing import invert


if __name__ == "__main__":
    img = np.array([[0, 10], [20, 30]])
    print(invert(img, img.shape[0], img.shape[1]))
"""
    assert _layers("main.py", source) == {"portable": 5}


# -- NeilJustice/ZenUnitAndMetalMock: "Metal" as a mocking library's name -------------------


def test_metalmock_mock_class_is_portable() -> None:
    # ZenUnitLibraryTests/.../MetalMock/*Mock.h (right before): a mock of an interface made
    # with the framework's macros; Metal here names the mocking library, not Apple's API.
    source = b"""\
#pragma once
#include "App/Components/Printer.h"

class PrinterMock : public Metal::Mock<Printer>
{
public:
   METALMOCK_VOID1_CONST(PrintLine, const std::string&)
   METALMOCK_NONVOID0_CONST(size_t, LineCount)
};
"""
    path = "LibraryTests/Components/MetalMock/PrinterMock.h"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- tkadauke/raytracer: a CPU ray tracer, SSE intrinsics and a vendored gtest --------------


def test_sse3_colour_type_of_a_cpu_ray_tracer_is_portable() -> None:
    # include/core/color/sse3/Colord.h (right before): x86 SIMD intrinsics, CPU code.
    source = b"""\
#pragma once
#ifdef __SSE3__
#include <pmmintrin.h>

class Rgb {
public:
  inline Rgb(double r, double g, double b) {
    lo = _mm_set_pd(g, r);
    hi = _mm_set_sd(b);
  }
  inline Rgb operator+(const Rgb& o) const {
    return Rgb(_mm_add_pd(lo, o.lo), _mm_add_pd(hi, o.hi));
  }
private:
  inline Rgb(__m128d a, __m128d b) : lo(a), hi(b) {}
  __m128d lo, hi;
};
#endif
"""
    path = "include/core/color/sse3/Rgb.h"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_metal_material_scene_of_a_ray_tracer_is_portable() -> None:
    # examples/SceneBrowser/MetalSpheresScene.cpp (GPU-looking, right before): "Metal" is
    # the material of the spheres it places.
    source = b"""\
#include "SceneFactory.h"

Scene* MetalBallsScene::build() {
  auto* steel = new ReflectiveMaterial(Colord(0.7, 0.7, 0.75));
  steel->setSpecularExponent(80);
  add(new Sphere(Vector3d(0, 1, 0), 1.0, steel));
  return this;
}

static bool registered = SceneFactory::self().registerClass<MetalBallsScene>("Metal Balls");
"""
    path = "examples/SceneBrowser/MetalBallsScene.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- Faria22/LAPACK-BLAS-Documentation-Search-Raycast: docs of a portable library -----------


def test_script_parsing_lapack_fortran_for_docs_is_portable() -> None:
    # scripts/parse_lapack.py (right before): regexes over LAPACK's Fortran comment headers;
    # LAPACK and BLAS are portable libraries, and the script only writes markdown.
    source = b"""\
import re
from pathlib import Path


def routine_signature(text: str, name: str) -> str | None:
    found = re.search(rf"^\\*\\s*SUBROUTINE\\s+{name}\\s*\\((.*?)\\)", text, re.M | re.I)
    return found.group(1) if found else None


for src in Path("lapack/SRC").glob("*.f"):
    print(src.stem.upper(), routine_signature(src.read_text(), src.stem))
"""
    path = "scripts/parse_lapack.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- choir-hip/go-choir: "kernel" as the Linux kernel ---------------------------------------


def test_go_linux_kernel_capability_probe_is_portable() -> None:
    # internal/updater/kernel_capabilities.go (GPU-looking, right before): a VM host checks
    # the Linux kernel's version and features; no device code.
    source = b"""\
package updater

import "golang.org/x/sys/unix"

type KernelCapabilities struct {
	Release    string `json:"release"`
	HasUserfd  bool   `json:"has_userfaultfd"`
}

func ProbeKernel() (KernelCapabilities, error) {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return KernelCapabilities{}, err
	}
	return KernelCapabilities{Release: unix.ByteSliceToString(u.Release[:])}, nil
}
"""
    path = "internal/updater/kernel_capabilities.go"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- emu-russia/gpuBladeSoft: a decompiled PlayStation GPU plugin ---------------------------


def test_decompiled_opengl_extension_loader_is_portable() -> None:
    # decompiled/hexrays/sub_6F7E1C10.c (sampled, right before): Hex-Rays output of an
    # OpenGL loader fetching NV-suffixed extension entry points by name; OpenGL host code.
    source = b"""\
int sub_10002000()
{
  int v0; // eax@1

  dword_20001000 = (int)wglGetProcAddress("glVertexAttribL1i64NV");
  dword_20001004 = (int)wglGetProcAddress("glVertexAttribL1ui64NV");
  v0 = (int)wglGetProcAddress("glVertexAttribLFormatNV");
  dword_20001008 = v0;
  return v0 != 0;
}
"""
    path = "decompiled/hexrays/sub_10002000.c"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_psemu_gpu_plugin_interface_is_portable() -> None:
    # specs/Gpu.cpp (GPU-looking, right before): the PSEmu plugin entry points of an
    # emulated PlayStation GPU, a software rasteriser's interface, not a device API.
    source = b"""\
#include "PSEmu Plugin Defs.h"

static char *pluginName = "Soft GPU";

unsigned long CALLBACK PSEgetLibType(void)
{
 return PSE_LT_GPU;
}

long CALLBACK GPUinit(void)
{
 memset(vram, 0, sizeof(vram));
 return 0;
}
"""
    path = "specs/Gpu.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
