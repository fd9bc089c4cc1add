"""Cases from repositories drawn at random from a GPU sub-pool (issue 27, lane h56-random-u).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some are not GPU
code). This lane took sub-pool positions 260-266; none was skipped, all seven had a snapshot.
Read were ssube/VoodooShader (a Direct3D 9 shader framework for games in C++ and C#, with three
HLSL effect files), personnumber3377/shader_custom_mutator (a fuzzing mutator in Python for
ANGLE's shader translator, with thousands of GLSL corpus shaders and a libFuzzer harness),
hughperkins/pycudatorch (a Cython binding of Lua Torch's cutorch: THCudaTensor declarations, a
C++ wrapper over the Lua state, a setup script pointing at the CUDA toolkit), RobEasthope/triton
(a Next.js, Remix and Sanity web monorepo, no GPU code), AlessandroBorges/Bor_Vulkan (Java
bindings of Vulkan over JNI: one Java class and one C++ JNI file per Vulkan struct, enums in a
package of their own), jiayev/skyrim-community-shaders (an SKSE plugin on Direct3D 11 with
hundreds of HLSL shaders and NVIDIA Streamline for DLSS) and MetalDetectorRocks/metal-detector-
main (a Spring web application in Java and TypeScript, no GPU code). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, files outside the sample that hold kernel
lines counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- hughperkins/pycudatorch: cutorch's THC API from Cython ---------------------------------


def test_cython_extern_block_of_thc_cuda_tensor_calls_is_vendor_path() -> None:
    # PyCudaTorch.pyx (sampled, portable before): the binding declares cutorch's CUDA tensor
    # type and its calls in a cdef extern block and wraps them; the THCudaTensor API is the
    # legacy torch CUDA runtime, as in C++ where torch.cpp-cuda already saw it.
    source = b"""\
cdef extern from "THCGeneral.h":
    cdef struct THCState

cdef extern from "THCTensor.h":
    cdef struct THCudaTensor
    THCudaTensor *THCudaTensor_newWithSize2d(THCState *state, long rows, long cols)
    void THCudaTensor_free(THCState *state, THCudaTensor *tensor)

cdef class GpuTensor(object):
    cdef THCudaTensor *native

    def __dealloc__(self):
        THCudaTensor_free(current_state(), self.native)
"""
    path = "src/gputensor.pyx"
    assert "torch.cpp-cuda" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_cython_module_without_thc_stays_portable() -> None:
    # The same binding's CPU half: a Cython wrapper over a float tensor with no CUDA name.
    source = b"""\
cdef extern from "THTensor.h":
    cdef struct THFloatTensor
    THFloatTensor *THFloatTensor_new()

cdef class CpuTensor(object):
    cdef THFloatTensor *native

    def __cinit__(self):
        self.native = THFloatTensor_new()
"""
    path = "src/cputensor.pyx"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_setup_include_dir_under_opt_cuda_is_vendor_path() -> None:
    # setup.py (sampled, portable before): the extension's include_dirs start with the CUDA
    # toolkit's headers under /opt/cuda-<version>, where Arch Linux and old installs put it.
    source = b"""\
from setuptools import setup, Extension

module = Extension(
    "gputensor",
    sources=["src/gputensor.pyx", "src/wrapper.cpp"],
    include_dirs=["/opt/cuda-8.0/include", "third_party/include"],
)
setup(name="gputensor", ext_modules=[module])
"""
    path = "setup.py"
    assert "build.cuda-toolkit-path-string" in _rules(path, source)
    assert _layers(path, source).get("vendor-path") == 1


def test_opt_path_that_only_starts_with_cuda_is_portable() -> None:
    source = b"""\
TOOLS = "/opt/cudatools/bin"
ROCM = "/opt/rocm/include"
"""
    path = "setup.py"
    assert _rules(path, source) == set()


def test_cutorch_state_in_cpp_wrapper_is_vendor_path() -> None:
    # cudannWrapper.cpp (sampled, already right): the C++ side fetches cutorch's THCState from
    # the Lua globals and retains a THCudaTensor before pushing it back.
    source = b"""\
#include "THCTensor.h"

THCState *stateOf(lua_State *L) {
    lookupGlobal(L, "cutorch", "_state");
    return (THCState *)lua_touserdata(L, -1);
}

void pushTensor(THCState *state, lua_State *L, THCudaTensor *t) {
    THCudaTensor_retain(state, t);
    luaT_pushudata(L, t, "torch.CudaTensor");
}
"""
    path = "wrapper.cpp"
    assert "torch.cpp-cuda" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


# -- AlessandroBorges/Bor_Vulkan: a Java binding's enum package -----------------------------


def test_vulkan_binding_enumerations_package_is_vendor_path() -> None:
    # Vulkan/src/bor/vulkan/enumerations/VkImageLayout.java (sampled, portable before): one
    # class a Vulkan enum in the binding's enumerations package, as its structs package is.
    source = b"""\
package org.example.vulkan.enumerations;

import org.example.enumerable.IntEnum;

public class VkFrontFace extends IntEnum<VkFrontFace> {
    public static final VkFrontFace VK_FRONT_FACE_COUNTER_CLOCKWISE = new VkFrontFace(0);
    public static final VkFrontFace VK_FRONT_FACE_CLOCKWISE = new VkFrontFace(1);

    private VkFrontFace(int value) { super(value); }
}
"""
    path = "Vulkan/src/org/example/vulkan/enumerations/VkFrontFace.java"
    assert "vulkan.jvm-package" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_vulkan_binding_convenience_package_stays_portable() -> None:
    # Vulkan/src/bor/vulkan/sweet/PipelineLayout.java (sampled, already right): an empty class
    # in the binding's own convenience layer names nothing of Vulkan.
    source = b"""\
package org.example.vulkan.sweet;

public class PipelineLayout {
}
"""
    path = "Vulkan/src/org/example/vulkan/sweet/PipelineLayout.java"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- jiayev/skyrim-community-shaders and ssube/VoodooShader: HLSL next to D3D host code -------


def test_hlsl_compute_shader_is_kernel() -> None:
    # features/.../UpdateProbesCS.hlsl (sampled, already right): every line a compute shader.
    source = b"""\
RWTexture2D<float4> Probes : register(u0);
Texture2D<float4> Source : register(t0);

[numthreads(8, 8, 1)] void main(uint3 id : SV_DispatchThreadID)
{
    float4 c = Source[id.xy];
    Probes[id.xy] = lerp(Probes[id.xy], c, 0.1);
}
"""
    path = "features/Probes/Shaders/UpdateProbesCS.hlsl"
    assert set(_layers(path, source)) == {"kernel"}


def test_d3d_host_hook_is_portable() -> None:
    # src/ShaderTools/BSShaderHooks.cpp (sampled, already right): the plugin hooks the game's
    # shader creation through Direct3D 11; the platform's API, no GPU vendor's.
    source = b"""\
#include <d3d11.h>

void OnPixelShaderCreated(ID3D11Device* device, const void* bytecode, size_t size)
{
    ID3D11PixelShader* shader = nullptr;
    if (SUCCEEDED(device->CreatePixelShader(bytecode, size, nullptr, &shader))) {
        Registry::Get().Track(shader);
    }
}
"""
    path = "src/ShaderTools/ShaderHooks.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
