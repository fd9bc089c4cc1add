"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-w).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 546-552. One was skipped: vllm-project/vime (547) had no
snapshot to fetch. Read were torarinvik/neural-computer-agent, LunarG/VulkanTools,
RupertAvery/DiffusionToolkit, zidanehuang001/Megatron-Bridge, einnovator/pdattention and
catrujilla/pyCUDA-NumericalPropagators (hologram propagators in PyCUDA with CUDA C held in
SourceModule strings, scikit-cuda FFTs, and a JCuda reconstruction calling JCufft). Fifteen
files of each repository were sampled with ``random.Random("owner/name")`` over every file
lockin counts and labelled before any fix, with the files lockin calls non-portable (up to 20)
and GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching GPU
code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is
a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- catrujilla/pyCUDA-NumericalPropagators: scikit-cuda's cuFFT wrappers ----------------------


def test_skcuda_fft_import_is_vendor_library() -> None:
    # Numerical_propagators/codigo/espectro_angular_cuda.py: the propagator plans and runs its
    # FFTs with skcuda.fft on PyCUDA arrays.
    source = b"""\
import numpy as np
import skcuda.fft as gfft

def propagate(field_gpu, out_gpu):
    plan = gfft.Plan(field_gpu.shape, np.complex64, np.complex64)
    gfft.fft(field_gpu, out_gpu, plan)
    return out_gpu
"""
    assert _rules("optics/angular.py", source) == {"cuda-libs.python-extension"}
    assert _layers("optics/angular.py", source) == {"vendor-library": 1, "portable": 5}


def test_numpy_fft_propagator_stays_portable() -> None:
    # Numerical_propagators/codigo/espectro_angular.py: the CPU twin of the same propagator.
    source = b"""\
import numpy as np

def propagate(field, kernel):
    spectrum = np.fft.fftshift(np.fft.fft2(field))
    return np.fft.ifft2(np.fft.ifftshift(spectrum * kernel))
"""
    assert _rules("optics/angular.py", source) == set()
    assert _layers("optics/angular.py", source) == {"portable": 4}


# -- catrujilla/pyCUDA-NumericalPropagators: JCufft from Java ----------------------------------


def test_jcufft_calls_are_vendor_library() -> None:
    # Kreuzer/Kreuzer_JCUDA/JCUDAReconstruccionHolograma.java: a reconstruction loads its kernels
    # with the JCuda driver and runs its FFTs through JCufft.
    source = b"""\
import jcuda.driver.JCudaDriver;
import jcuda.jcufft.JCufft;
import jcuda.jcufft.cufftHandle;

class Rebuild {
    void run(Pointer buf, int w, int h) {
        JCudaDriver.cuInit(0);
        cufftHandle plan = new cufftHandle();
        JCufft.cufftPlan2d(plan, w, h, cufftType.CUFFT_C2C);
        JCufft.cufftExecC2C(plan, buf, buf, JCufft.CUFFT_FORWARD);
        JCufft.cufftDestroy(plan);
    }
}
"""
    assert _rules("holo/Rebuild.java", source) == {
        "cuda.jcuda",
        "cuda-libs.jcuda-library",
    }
    layers = _layers("holo/Rebuild.java", source)
    assert layers["vendor-library"] == 5
    assert layers["vendor-path"] >= 2


def test_pycuda_source_module_kernel_lines() -> None:
    # Numerical_propagators/codigo/frenel_cuda.py: CUDA C in a SourceModule string counts as
    # kernel from its first line of code to its last, the launch after it is vendor-path.
    source = b'''\
import numpy as np
import pycuda.autoinit
from pycuda.compiler import SourceModule

mod = SourceModule("""
#include <cuComplex.h>
__global__ void scale(cuComplex *out, float k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i].x *= k;
        out[i].y *= k;
    }
}
""")
scale = mod.get_function("scale")
'''
    layers = _layers("optics/fresnel_gpu.py", source)
    # Nine lines of CUDA C; the string's opening and closing lines are counted with it (11), in
    # range by the audit's measure.
    assert 9 <= layers["kernel"] <= 11
    assert "pycuda.source-module" in _rules("optics/fresnel_gpu.py", source)


# -- LunarG/VulkanTools: an NVIDIA vendor-ID branch in a Vulkan configurator (already right) ---


def test_vulkan_nvidia_vendor_id_branch_is_vendor_path() -> None:
    # vkconfig_core/configurator.cpp: the driver report formats the version one way when the
    # physical device's vendor ID is NVIDIA's.
    source = b"""\
#include <string>

std::string DriverVersion(const DeviceInfo& info) {
    if (info.vendorID == 0x10DE) {
        return NvidiaVersion(info.driverVersion);
    }
    return GenericVersion(info.driverVersion);
}
"""
    assert _rules("core/configurator.cpp", source) == {"vulkan.nv-host-branch"}
    assert _layers("core/configurator.cpp", source)["vendor-path"] >= 1


# -- RupertAvery/DiffusionToolkit: a WPF value converter, no GPU code (already right) ----------


def test_wpf_converter_stays_portable() -> None:
    # Diffusion.Toolkit/Converters/SizeConverter.cs: formats a byte count for the UI.
    source = b"""\
using System;
using System.Globalization;
using System.Windows.Data;

public class SizeConverter : IValueConverter
{
    public object Convert(object value, Type t, object p, CultureInfo c)
        => value is long n ? $"{n / 1024.0:0.0} KB" : "";

    public object ConvertBack(object value, Type t, object p, CultureInfo c)
        => throw new NotSupportedException();
}
"""
    assert _rules("Converters/SizeConverter.cs", source) == set()
    assert set(_layers("Converters/SizeConverter.cs", source)) == {"portable"}
