"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-k).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")`` before anyone
read it; this lane took positions 634-641: oooFreaKooo/WebGPU_Simple_Pathtracer,
atmnp/numba-cuda-mlir, nutzeeer/Godot-Raymarching-publish, mojo-runtime/mojo (a C++ runtime,
not Modular's language), djcscin/Halide, sourcedennis/wasm-pathtracer and nemosminer/NemosMiner.
One was skipped: FedericoCos/PathTracer_GaussianSplatting (snapshot over 500 MB). Fifteen files
of each repository (all of them where fewer) were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart, and
three commits touching GPU code judged against ``lockin diff``. Each snippet is a small
rewrite, in our own words, of a pattern found in the repository its test names; the expected
layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- nutzeeer/Godot-Raymarching-publish: GDScript returning shader functions in strings -------


def test_godot_shape_returning_its_distance_function_is_kernel_code() -> None:
    # raymarching-plugin/addons/Raymarching/shapes/*.gd: each shape returns its signed distance
    # function in a triple-quoted string, named with a `%s` hole the plugin fills; the
    # plugin splices it into the shader it builds. Before, GDScript was read with one-quote
    # strings only, so no string rule saw the shader: all twelve such files of the sample
    # were portable.
    source = b'''\
class_name Capsule
extends ShapeBase

func get_sdf_call() -> String:
	return "sdf_shape%s_capsule(local_p, %s)" % [get_shape_id(), get_parameter_name("radius")]

func get_sdf_function() -> String:
	var id = get_shape_id()
	return """
float sdf_shape%s_capsule(vec3 p, float radius, float height) {
	vec3 a = vec3(0.0, -height * 0.5, 0.0);
	vec3 pa = p - a;
	float h = clamp(pa.y / height, 0.0, 1.0);
	return length(pa - vec3(0.0, height * h, 0.0)) - radius;
}
""" % id
'''
    assert _rules("addons/Raymarching/shapes/capsule.gd", source) == {"vulkan.glsl-string"}
    assert _layers("addons/Raymarching/shapes/capsule.gd", source) == {"kernel": 8, "portable": 6}


def test_godot_modifier_helpers_in_a_string_are_kernel_code() -> None:
    # Modifiers/local_p/fractal_lookup_p2.gd: helper functions of GLSL vector type returned
    # for the shader, beside the GDScript that lists the modifier's parameters.
    source = b'''\
extends GeneralModifierBase

const MODIFIER_PARAMETERS = [
	{"name": "falloff", "type": TYPE_FLOAT, "default": 1.0},
]

func get_utility_functions() -> String:
	return """
vec3 centred(vec3 world_pos, mat4 xform) {
	vec3 origin = (xform * vec4(0.0, 0.0, 0.0, 1.0)).xyz;
	return world_pos - origin;
}
"""
'''
    assert _layers("Modifiers/local_p/lookup.gd", source) == {"kernel": 6, "portable": 5}


def test_godot_gdscript_without_shader_strings_stays_portable() -> None:
    # Modifiers/general_modifier_base.gd: GDScript that formats a uniform's value as a GLSL
    # literal (`vec3(%f, %f, %f)`) for the template; no shader code of its own.
    source = b'''\
class_name GeneralModifierBase
extends Resource

func glsl_value(value) -> String:
	if value is Vector3:
		return "vec3(%f, %f, %f)" % [value.x, value.y, value.z]
	elif value is Vector2:
		return "vec2(%f, %f)" % [value.x, value.y]
	return str(value)

func describe() -> String:
	return """Modifiers return GLSL snippets; vec3 values are written as vec3(x, y, z)."""
'''
    assert _layers("Modifiers/general_modifier_base.gd", source) == {"portable": 10}


def test_godot_shader_include_is_a_shader_file() -> None:
    # management/shader_modifiers/for_loop_modifiers.gdshaderinc: Godot's shading language,
    # which lockin gave no language, so it was never counted.
    source = b"""\
struct RayModifiers {
    vec3 ro_mul, rd_mul;
    float surf_mul;
};

// applies the multiplier after the offset
float apply_modifier(float base_value, float add_mod, float mul_mod) {
    return (base_value + add_mod) * mul_mod;
}
"""
    assert _rules("shader_modifiers/for_loop_modifiers.gdshaderinc", source) == {
        "vulkan.shader-file"
    }
    assert _layers("shader_modifiers/for_loop_modifiers.gdshaderinc", source) == {"kernel": 7}


# -- atmnp/numba-cuda-mlir: kernels in MLIR's NVVM dialect ------------------------------------


def test_numba_cuda_mlir_nvvm_dialect_test_is_nvidia_kernel_code() -> None:
    # cext/mlir-llvm70/test/matmul.mlir (and atomics, nanosleep, runtime/nvvm.mlir): a
    # gpu.module of llvm.func kernels reading the thread indices through NVVM dialect ops.
    # Before, every .mlir file of the repository was portable.
    source = b"""\
// RUN: translate %s --dump-ptx | FileCheck %s
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80">] {
    llvm.func @scale(%arg0: !llvm.ptr<1>, %arg1: f32) attributes {gpu.kernel, nvvm.kernel} {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      nvvm.barrier0
      llvm.return
    }
  }
}
// CHECK: define ptx_kernel void @scale
"""
    # The gpu.module is the kernel code, the module around it (h53-random-c) is not.
    assert _rules("cext/test/scale.mlir", source) == {"cuda.mlir-nvvm-kernel"}
    assert _layers("cext/test/scale.mlir", source) == {"kernel": 7, "portable": 2}


def test_numba_cuda_mlir_runtime_device_functions_are_kernel_code() -> None:
    # src/numba_cuda_mlir/runtime/util.mlir: always-inline device helpers the compiler links
    # into every kernel, each one NVVM op.
    source = b"""\
module {
    func.func private @pause(%ticks: i32) attributes {always_inline} {
        nvvm.nanosleep %ticks
        return
    }
}
"""
    # The function is the device code, the module around it (h53-random-c) is not.
    assert _layers("runtime/util.mlir", source) == {"kernel": 4, "portable": 2}


def test_mlir_of_the_cpu_naming_nvvm_in_comments_stays_portable() -> None:
    # The negative: a lowering test for the CPU whose comments name the NVVM variant.
    source = b"""\
// RUN: opt --convert-to-llvm %s | FileCheck %s
// nvvm.barrier0 is checked in the GPU test instead.
func.func @add(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}
"""
    assert _layers("test/Conversion/add.mlir", source) == {"portable": 4}


def test_numba_cuda_mlir_bare_jit_imported_from_the_cuda_module_is_a_kernel() -> None:
    # tests/memory_management/test_nrt_comprehensive.py: `from numba_cuda_mlir.cuda import
    # jit`, then kernels under a bare @jit. Before, only the imports were counted (vendor-path)
    # and its 18 kernels counted 7 kernel lines, all from one CUDA C string.
    source = b"""\
import numpy as np
from numba_cuda_mlir.cuda import jit


def test_returns_slice():
    @jit
    def tail(x):
        return x[5:]

    @jit
    def kernel(out):
        x = np.empty(10, np.int64)
        out[0] = tail(x)[0]

    kernel[1, 1](np.zeros(1))
"""
    assert _rules("tests/test_nrt.py", source) == {
        "numba.cuda-extension",
        "numba.cuda-jit-imported",
    }
    assert _layers("tests/test_nrt.py", source) == {
        "kernel": 7,
        "vendor-path": 1,
        "portable": 3,
    }


def test_numba_cuda_mlir_extension_import_is_vendor_path_checked_right() -> None:
    # src/numba_cuda_mlir/numba_cuda/np/ufunc/__init__.py: re-exports from the CUDA target's
    # own modules; checked right and pinned (numba.cuda-extension).
    source = b"""\
from numba_cuda_mlir.numba_cuda.np.ufunc.decorators import (
    vectorize,
    guvectorize,
)
"""
    assert _rules("numba_cuda/np/ufunc/__init__.py", source) == {"numba.cuda-extension"}


# -- djcscin/Halide: TensorFlow 1's CUDA wheel under its underscore name ----------------------


def test_halide_snpe_setup_installing_tensorflow_gpu_with_underscore() -> None:
    # SNPE1/setup_env.sh and SNPE2/setup_env.sh: pip reads tensorflow_gpu as tensorflow-gpu,
    # TensorFlow 1's CUDA build. Before, only the hyphenated name counted; the query after
    # it installs nothing.
    source = b"""\
virtualenv --python=/usr/local/bin/python3 venv_snpe
source venv_snpe/bin/activate
pip3 install tensorflow_gpu==1.15.0
pip3 install numpy
pip3 show tensorflow_gpu
"""
    assert _rules("SNPE1/setup_env.sh", source) == {"deps.cuda-wheel"}
    assert _layers("SNPE1/setup_env.sh", source) == {"vendor-path": 1, "portable": 4}


def test_halide_gpu_schedule_stays_portable_checked_right() -> None:
    # Rampup/GPU/halide/*.hpp: Halide's gpu_blocks/gpu_threads schedule compiles for CUDA,
    # OpenCL, Metal or Vulkan, whichever target the build names; checked right and pinned.
    source = b"""\
if (get_target().has_gpu_feature()) {
    out.compute_root()
       .gpu_tile(x, y, xo, yo, xi, yi, 16, 16)
       .store_in(MemoryType::GPUShared);
}
"""
    assert _layers("Rampup/GPU/halide/tone_mapping.hpp", source) == {"portable": 5}


# -- nemosminer/NemosMiner: NVIDIA Inspector in the pre-run scripts ---------------------------


def test_nemosminer_prerun_nvidia_inspector_is_vendor_path() -> None:
    # prerun/*-example.bat: clocks, memory offset and power target per card, set with NVIDIA
    # Inspector before a miner starts. Before, all sixteen such scripts were portable.
    source = b"""\
nvidiaInspector.exe -setBaseClockOffset:0,0,100 -setMemoryClockOffset:0,0,450 -setPowerTarget:0,60
nvidiaInspector.exe -setBaseClockOffset:0,1,100 -setMemoryClockOffset:0,1,450 -setPowerTarget:1,60
"""
    assert _rules("prerun/zhash-example.bat", source) == {"build.nvcc"}
    assert _layers("prerun/zhash-example.bat", source) == {"vendor-path": 2}
