"""Cases from repositories drawn at random from a GPU-named sub-pool (issue 27, lane h56-random-n).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold a GPU term by the written
rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text only, so some are no GPU code).
This lane took sub-pool positions 211-217 and skipped none: all seven had a snapshot. Read were
eightmm/FoldJAX (protein-structure models AlphaFold 3, Boltz-2, Protenix, OpenFold3 ported to
JAX: Python model code, a Pallas Triton-GPU flash-attention kernel for Boltz's triangle
attention, cuEquivariance wrappers and torch-CUDA parity scripts), droc101/raytracer-c (a C
game engine with an OpenGL and a Vulkan renderer, GLSL shaders for both), cyberpunk042/
warp-solar-system-shaders (NVIDIA Warp scenes in Python: @wp.func/@wp.kernel ray marchers and
simulations, plus a Warp-based weight-compression package), joega66/VulkanGL (a C++ Vulkan
renderer with GLSL shaders, vendoring glm, imgui with its examples, tiny_gltf and the Vulkan
headers), yetyman/vulkan-ffm (Java Foreign Function and Memory bindings of Vulkan, shaderc,
SPIRV-Reflect and GLFW: jextract output, one generated enum record per C enum, a core layer
and a sample app with GLSL shaders), lucien1011/PyCudaAnalyzer (a CMS physics analysis in
Python whose weighters and skimmers run small CUDA kernels through PyCUDA's SourceModule) and
crypticUXdesigner/shader-composer (a TypeScript/Svelte node-based shader editor: each node
keeps GLSL helpers and main code in template literals, WGSL for a WebGPU export). Fifteen files
of each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. The misses were
vulkan-ffm's generated enum records in the binding's ``vulkan.enums`` package (portable, their
package is the binding's: vendor-path) and a shader-composer node whose GLSL helpers hold
scalars only (portable, kernel). Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- eightmm/FoldJAX: JAX structure models, a Pallas GPU kernel, cuEquivariance ------------------


def test_pallas_triton_kernel_and_its_pallas_call_are_kernel() -> None:
    # src/foldjax/models/boltz2/models/triangle/triangle_attention_pallas.py (an extra kernel file,
    # hand about 96 kernel lines, lockin 96): the kernel body on refs and the pallas_call with its
    # BlockSpecs and Triton compiler parameters are device code; imports stay portable.
    source = b"""\
import functools

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as plgpu


def _rows_kernel(x_ref, bias_ref, o_ref, *, width: int):
    x = x_ref[0].astype(jnp.float32)
    b = bias_ref[0].astype(jnp.float32)
    y = jnp.exp(x + b - jnp.max(x + b, axis=-1, keepdims=True))
    o_ref[0] = (y / jnp.sum(y, axis=-1, keepdims=True)).astype(o_ref.dtype)


@functools.partial(jax.jit, static_argnames=("block",))
def softmax_rows(x, bias, block: int = 64):
    n, w = x.shape[0], x.shape[-1]
    return pl.pallas_call(
        functools.partial(_rows_kernel, width=w),
        grid=(pl.cdiv(n, block),),
        in_specs=[pl.BlockSpec((1, block, w), lambda i: (0, i, 0))] * 2,
        out_specs=pl.BlockSpec((1, block, w), lambda i: (0, i, 0)),
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=plgpu.CompilerParams(num_warps=4, num_stages=2),
    )(x, bias)
"""
    path = "src/fold/attention/flash_pallas.py"
    assert _rules(path, source) == {"pallas.called-kernel", "pallas.mosaic-gpu"}
    assert _layers(path, source) == {"kernel": 16, "portable": 5}


def test_test_reading_a_backend_default_from_source_is_portable() -> None:
    # tests/test_triangle_backend_reach.py (sampled, already right): a test that checks which
    # backend name the resolver defaults to, reading the function's source; the cuEquivariance
    # backend is a string compared, no call into it.
    source = b"""\
import inspect

from fold.models import trunk


def test_the_fused_path_is_the_default(monkeypatch):
    monkeypatch.delenv("FOLD_TRIANGLE_BACKEND", raising=False)
    assert trunk.triangle_backend() == "cueq_jit"
    source = inspect.getsource(trunk.triangle_backend)
    assert '"FOLD_TRIANGLE_BACKEND", "cueq_jit"' in source
    assert '"auto"' not in source
"""
    path = "tests/test_backend_defaults.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- droc101/raytracer-c: a C engine with OpenGL and Vulkan renderers ----------------------------


def test_vulkan_image_creation_in_c_is_vendor_path() -> None:
    # Helpers/Graphics/Vulkan/VulkanHelpers.c (listed non-portable, right): Vulkan structs,
    # enums and vk* commands in the renderer's host code.
    source = b"""\
#include <vulkan/vulkan.h>
#include "Images.h"

bool MakeDepthImage(VkDevice device, VkPhysicalDevice gpu, VkExtent2D size,
                    VkImage *image, VkDeviceMemory *memory)
{
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = VK_FORMAT_D32_SFLOAT,
        .extent = {size.width, size.height, 1},
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
    };
    if (vkCreateImage(device, &info, NULL, image) != VK_SUCCESS) return false;
    VkMemoryRequirements needs;
    vkGetImageMemoryRequirements(device, *image, &needs);
    return PickMemory(gpu, needs, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, memory);
}
"""
    path = "src/gfx/vulkan/Images.c"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 18, "portable": 2}


def test_glsl_fragment_shader_file_is_kernel() -> None:
    # Assets/shader/GL/sky_f.glsl and the other GL/Vulkan shaders (sampled, already right; hand
    # counts equal lockin's, every code line): a whole GLSL file is shader code.
    source = b"""\
#version 330 core
in vec2 vUv;
in float vDepth;
uniform sampler2D albedo;
uniform vec4 fogColor;
out vec4 color;

void main() {
    vec4 base = texture(albedo, vUv);
    float f = clamp((vDepth - 10.0) / 30.0, 0.0, 1.0);
    color = mix(base, fogColor, f);
}
"""
    path = "assets/shaders/gl/fog_f.glsl"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 11}


# -- cyberpunk042/warp-solar-system-shaders: NVIDIA Warp scenes ----------------------------------


def test_warp_funcs_and_kernel_are_kernel_and_launch_is_vendor_path() -> None:
    # warp_shaders/scenes/binary_sea.py and eight more sampled scenes (already right; hand counts
    # within a line of lockin's): @wp.func and @wp.kernel bodies are device code, the launch
    # and the CUDA device string are vendor-path, the rest of the host function portable.
    source = b"""\
import warp as wp


@wp.func
def _sky(rd: wp.vec3) -> wp.vec3:
    up = wp.clamp(rd[1] * 2.0, 0.0, 1.0)
    return wp.vec3(0.9, 0.4, 0.2) * (1.0 - up) + wp.vec3(0.05, 0.05, 0.2) * up


@wp.kernel
def shade(img: wp.array2d(dtype=wp.vec3), width: int, height: int):
    i, j = wp.tid()
    v = 2.0 * (float(height - 1 - i) + 0.5) / float(height) - 1.0
    img[i, j] = _sky(wp.normalize(wp.vec3(0.0, v, 1.0)))


def render(width, height, device="cuda:0"):
    img = wp.zeros((height, width), dtype=wp.vec3, device=device)
    wp.launch(shade, dim=(height, width), inputs=[img, width, height], device=device)
    wp.synchronize_device(device)
    return img.numpy()
"""
    path = "shaders/scenes/dusk_sea.py"
    assert _rules(path, source) == {
        "torch.device-string",
        "warp.func",
        "warp.kernel",
        "warp.launch",
    }
    assert _layers(path, source) == {"kernel": 9, "vendor-path": 2, "portable": 4}


def test_test_choosing_a_cuda_device_for_warp_is_vendor_path() -> None:
    # tests/test_gpu_wavelet.py (sampled, already right): the test picks "cuda:0" when Warp sees
    # a CUDA device; that line is the only one tied to the vendor.
    source = b"""\
import numpy as np
import warp as wp

from pack.gpu_index import GpuIndex

_DEV = "cuda:0" if wp.get_cuda_device_count() > 0 else "cpu"


def test_rank_matches_numpy():
    seq = np.random.default_rng(1).integers(0, 4, 512)
    idx = GpuIndex(seq, device=_DEV)
    assert idx.rank(2, 100) == int((seq[:100] == 2).sum())
"""
    path = "tests/test_gpu_index.py"
    assert _rules(path, source) == {"torch.device-string"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 7}


# -- joega66/VulkanGL: a Vulkan renderer vendoring glm and imgui ---------------------------------


def test_glm_extension_refusing_the_cuda_compiler_is_a_build_guard() -> None:
    # Includes/glm/gtx/string_cast.hpp (listed non-portable, right): an #if on GLM's CUDA
    # compiler flag with an #error is an arch guard, vendor-path.
    source = b"""\
#pragma once

#include "../glm.hpp"

#if(GLM_COMPILER & GLM_COMPILER_CUDA)
#	error "GLM_GTX_to_text is not supported on CUDA compiler"
#endif

namespace glm
{
	template<typename T>
	std::string to_text(T const& x);
}
"""
    path = "include/glm/gtx/to_text.hpp"
    assert _rules(path, source) == {"cuda.build-guard"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 7}


def test_vcxproj_linking_direct3d_9_is_portable() -> None:
    # ThirdParty/imgui/examples/example_win32_directx9/example_win32_directx9.vcxproj (sampled,
    # already right): a Visual Studio project linking d3d9.lib; only Direct3D 12 and DirectML
    # builds are gated (build.msbuild-d3d12).
    source = b"""\
<?xml version="1.0" encoding="utf-8"?>
<Project DefaultTargets="Build" ToolsVersion="15.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <ItemDefinitionGroup Condition="'$(Configuration)|$(Platform)'=='Release|x64'">
    <Link>
      <AdditionalLibraryDirectories>$(DXSDK_DIR)/Lib/x64;%(AdditionalLibraryDirectories)</AdditionalLibraryDirectories>
      <AdditionalDependencies>d3d9.lib;%(AdditionalDependencies)</AdditionalDependencies>
    </Link>
  </ItemDefinitionGroup>
  <ItemGroup>
    <ClCompile Include="main.cpp" />
  </ItemGroup>
</Project>
"""
    path = "examples/win32_dx9/win32_dx9.vcxproj"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- yetyman/vulkan-ffm: Java FFM bindings of Vulkan ---------------------------------------------


def test_generated_enum_record_in_a_vulkan_enums_package_is_vendor_path() -> None:
    # vulkan-bindings/src/main/java/io/github/yetyman/vulkan/enums/VkLogicOp.java and nine more
    # sampled enum records (portable before, a miss; vendor-path after): the binding's record of
    # one Vulkan enum lives in a sub-package of its package named vulkan, which
    # vulkan.jvm-package now reads as the binding's own.
    source = b"""\
package org.sample.vulkan.enums;

import java.util.*;

/**
 * Typed constants for VkBlendFactor
 */
public record VkBlendFactor(int value) {

    public static final VkBlendFactor VK_BLEND_FACTOR_ZERO = new VkBlendFactor(0);
    public static final VkBlendFactor VK_BLEND_FACTOR_ONE = new VkBlendFactor(1);
    public static final VkBlendFactor VK_BLEND_FACTOR_SRC_ALPHA = new VkBlendFactor(6);

    public static VkBlendFactor fromValue(int value) {
        return switch (value) {
            case 0 -> VK_BLEND_FACTOR_ZERO;
            case 1 -> VK_BLEND_FACTOR_ONE;
            case 6 -> VK_BLEND_FACTOR_SRC_ALPHA;
            default -> new VkBlendFactor(value);
        };
    }
}
"""
    path = "bindings/src/main/java/org/sample/vulkan/enums/VkBlendFactor.java"
    assert _rules(path, source) == {"vulkan.jvm-package"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 14}


def test_enum_record_in_a_platform_sub_package_of_enums_is_vendor_path() -> None:
    # vulkan-bindings/.../vulkan/enums/win32/VkPipelineStageFlagBits.java (sampled, a miss before):
    # the Windows build's copy of each record, one level further down.
    source = b"""\
package org.sample.vulkan.enums.win32;

public record VkCompareOp(int value) {
    public static final VkCompareOp VK_COMPARE_OP_NEVER = new VkCompareOp(0);
    public static final VkCompareOp VK_COMPARE_OP_LESS = new VkCompareOp(1);
}
"""
    path = "bindings/src/main/java/org/sample/vulkan/enums/win32/VkCompareOp.java"
    assert _rules(path, source) == {"vulkan.jvm-package"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 4}


def test_spirv_reflect_enum_record_is_portable() -> None:
    # spirv-reflect-bindings/.../spirv/enums/SpirvReflectDescriptorType.java (sampled, already
    # right): SPIRV-Reflect is shader tooling, its enum records no Vulkan host code.
    source = b"""\
package org.sample.spirv.enums;

public record ReflectDescriptorKind(int value) {
    public static final ReflectDescriptorKind SPV_REFLECT_SAMPLER =
        new ReflectDescriptorKind(0);
    public static final ReflectDescriptorKind SPV_REFLECT_STORAGE_BUFFER =
        new ReflectDescriptorKind(7);
}
"""
    path = "reflect/src/main/java/org/sample/spirv/enums/ReflectDescriptorKind.java"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_typed_view_over_the_librarys_buffer_is_portable() -> None:
    # vulkan-core/.../vulkan/buffers/typed/*VkBuffer.java (added by commit 5f4a8caf8430, passed
    # before and after): typed views over the library's own buffer class call no Vulkan command;
    # the widened package rule leaves such sub-packages to their imports.
    source = b"""\
package org.sample.vulkan.buffers.typed;

import org.sample.vulkan.buffers.ManagedBuffer;
import java.nio.IntBuffer;

public class IntView implements AutoCloseable {
    private final ManagedBuffer buffer;
    public IntView(ManagedBuffer buffer) { this.buffer = buffer; }
    public IntBuffer ints() { return buffer.bytes().asIntBuffer(); }
    @Override public void close() { buffer.close(); }
}
"""
    path = "core/src/main/java/org/sample/vulkan/buffers/typed/IntView.java"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- lucien1011/PyCudaAnalyzer: PyCUDA kernels in a physics analysis -----------------------------


def test_pycuda_source_module_kernel_is_kernel() -> None:
    # hep/cms/Weighter/GPUCrossSectionWeighter.py (sampled, already right, hand 8 kernel lines,
    # lockin 8): CUDA C in a SourceModule string is kernel code, the PyCUDA imports, the
    # get_function and the driver's In/Out wrappers vendor-path.
    source = b'''\
import numpy as np

import pycuda.autoinit
import pycuda.driver as drv
from pycuda.compiler import SourceModule

mod = SourceModule("""
__global__ void scale(float *out, const float *w, float xs, float lumi)
{
  const int i = threadIdx.x + blockDim.x * blockIdx.x;
  out[i] = w[i] * xs * lumi;
}
""")
scale = mod.get_function("scale")


def lumi_weight(w, xs, lumi, nblock=256):
    out = np.zeros_like(w, dtype=np.float32)
    scale(drv.Out(out), drv.In(w.astype(np.float32)), np.float32(xs), np.float32(lumi),
          block=(nblock, 1, 1), grid=((len(w) + nblock - 1) // nblock, 1))
    return out
'''
    path = "analysis/weights/gpu_lumi_weight.py"
    assert _rules(path, source) == {"pycuda.driver", "pycuda.host-api", "pycuda.source-module"}
    assert _layers(path, source) == {"kernel": 7, "vendor-path": 6, "portable": 4}


# -- crypticUXdesigner/shader-composer: GLSL node snippets in TypeScript -------------------------


def test_shader_node_with_scalar_glsl_helpers_is_kernel() -> None:
    # src/shaders/nodes/oscillator-2d.ts (sampled, portable before, a miss; kernel after): the
    # node's helpers take and return GLSL scalars only and call step and mix, which no host
    # language has; the main code, scalars over the editor's own $param holes, stays portable
    # (left: hand 64 kernel lines, lockin 47 after).
    source = b"""\
import type { NodeSpec } from '../types';

export const wobbleNodeSpec: NodeSpec = {
  id: 'wobble',
  category: 'Motion',
  outputs: [{ name: 'out', type: 'float' }],
  functions: `
    float wob_on(int enabled) {
      return step(0.5, float(enabled));
    }

    float wob_pick(int mode, float a, float b) {
      if (mode == 0) {
        return a + b;
      }
      return mix(a, b, 0.5);
    }
  `,
  mainCode: `
    float wobT = $time * $param.speed;
    $output.out = wob_pick($param.mode, sin(wobT), cos(wobT)) * wob_on($param.enabled);
  `,
};
"""
    path = "src/shaders/nodes/wobble.ts"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 11, "portable": 11}


def test_code_generator_test_matching_a_glsl_signature_is_portable() -> None:
    # src/shaders/compilation/MainCodeGeneratorOutput.automation.test.ts (sampled, already right):
    # a test that searches the generated shader for a function signature, and a stub node whose
    # main code is an empty main, holds no shader of its own.
    source = b"""\
import { describe, expect, it } from 'vitest';
import { generateMain } from './Generator';

describe('automation lanes', () => {
  it('emits one evaluator per lane', () => {
    const glsl = generateMain({ nodes: [], lanes: ['lane-1'], mainCode: 'void main() {}' });
    expect(glsl).toContain('float evalLane_lane_1(float t)');
  });
});
"""
    path = "src/shaders/compilation/Generator.automation.test.ts"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
