"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h42-random-j).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 288-294. None was skipped: each of the seven had a snapshot and counted files.
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts, and labelled before any fix, with the files lockin calls non-portable (up
to twenty) and GPU-looking files it calls portable (up to ten); up to three commits touching
GPU code per repository were drawn with ``random.Random("owner/name:commits")``. Each snippet
is a small rewrite, in our own words, of a pattern found in the repository its test names;
the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- zerollzeng/tiny-tensorrt: a C++ and Python wrapper around TensorRT --------------------------


def test_tiny_tensorrt_sample_linking_tensorrt_variables_is_vendor_path() -> None:
    # samples/sampleINT8/CMakeLists.txt (and sampleDynamicShape's, tinyexec's): each sample
    # links TensorRT's libraries through the variables the top CMakeLists.txt filled with
    # find_library. Before, these three files were portable, and the commit adding
    # sampleINT8 passed the gate.
    source = b"""\
file(GLOB demo_source demo.cpp)
add_executable(demo ${demo_source})
target_compile_options(demo PUBLIC -std=c++11 -Wall)
target_link_libraries(demo tinytrt)
target_link_libraries(demo ${LIBNVINFER})
target_link_libraries(demo ${LIBNVINFER_PLUGIN})
target_link_libraries(demo ${LIBNVONNXPARSER})
target_link_libraries(demo ${ZLIB_LIBRARIES})
install(TARGETS demo DESTINATION ${CMAKE_INSTALL_BINDIR})
"""
    assert _rules("samples/demo/CMakeLists.txt", source) == {"build.cmake-cuda-library"}
    assert _layers("samples/demo/CMakeLists.txt", source) == {"vendor-path": 3, "portable": 6}


def test_tiny_tensorrt_top_cmake_finding_tensorrt_libraries_is_vendor_path() -> None:
    # CMakeLists.txt: find_library of nvinfer and the parsers by name. Before, only its
    # cuda_add_library and -gencode lines counted.
    source = b"""\
find_package(ZLIB REQUIRED)
find_library(LIBNVINFER NAME nvinfer HINTS ${TENSORRT_LIB_PATH} REQUIRED)
find_library(LIBNVONNXPARSER
    NAME nvonnxparser
    HINTS ${TENSORRT_LIB_PATH} REQUIRED)
find_library(LIBZSTD NAME zstd HINTS /opt/zstd/lib)
"""
    assert _rules("CMakeLists.txt", source) == {"build.cmake-cuda-library"}
    # The finding of a statement spanning lines starts at the line holding the name.
    assert _layers("CMakeLists.txt", source) == {"vendor-path": 3, "portable": 3}


def test_tiny_tensorrt_sample_calling_the_wrapper_only_is_portable() -> None:
    # samples/sampleINT8/sampleINT8.cpp: builds and runs an engine through the project's own
    # Trt class; no TensorRT or CUDA name of its own (checked right).
    source = b"""\
#include "Trt.h"
#include <memory>

int main() {
    std::unique_ptr<Trt> net{new Trt()};
    net->EnableFP16();
    net->AddDynamicShapeProfile("input_0", {1,3,224,224}, {1,3,224,224}, {1,3,224,224});
    net->BuildEngine("model.onnx", "/tmp/model.plan");
    for (int i = 0; i < 10; i++) {
        net->Forward();
    }
    printf("done\\n");
}
"""
    assert _layers("samples/demo/demo.cpp", source) == {"portable": 12}


# -- tonton-golio/computational_physics: physics lessons drawn with three.js ---------------------


def test_computational_physics_glsl_in_a_template_literal_is_kernel_code() -> None:
    # src/components/visualization/complex-physics/MandelbrotFractal.tsx: a vertex and a
    # fragment shader in /* glsl */ template literals, handed to a three.js ShaderMaterial
    # (checked right).
    source = b"""\
import { useMemo } from 'react';

const vertexShader = /* glsl */ `
  varying vec2 vUv;
  void main() {
    vUv = uv;
    gl_Position = vec4(position, 1.0);
  }
`;

export function Fractal() {
  const uniforms = useMemo(() => ({ uZoom: { value: 1 } }), []);
  return <shaderMaterial vertexShader={vertexShader} uniforms={uniforms} />;
}
"""
    assert _rules("src/Fractal.tsx", source) == {"vulkan.glsl-string"}
    layers = _layers("src/Fractal.tsx", source)
    assert layers.get("kernel", 0) >= 5
    assert set(layers) == {"kernel", "portable"}


def test_computational_physics_material_metalness_is_portable() -> None:
    # src/components/visualization/complex-physics/LorenzAttractor.tsx: a three.js material's
    # metalness, the only GPU-looking word of the file (checked right).
    source = b"""\
export function Trail({ color }: { color: string }) {
  return (
    <mesh>
      <meshStandardMaterial color={color} metalness={0.15} roughness={0.4} />
    </mesh>
  );
}
"""
    assert _layers("src/Trail.tsx", source) == {"portable": 7}


# -- floating-world-lda/vat3-wgsl-ts: vertex animation textures for three.js and Babylon.js ------


def test_vat3_wgsl_include_of_constants_is_kernel_code() -> None:
    # babylon-js/materials/includes/vat3-macros.wgsl: three WGSL constants spliced into each
    # shader (checked right: WGSL shaders are kernel code).
    source = b"""\
// Defaults shared by the shaders.
const fallbackColor: vec4<f32> = vec4<f32>(0.8, 0.8, 0.8, 1.0);
const fallbackNormal: vec3<f32> = vec3<f32>(0.0, 1.0, 0.0);
"""
    assert _layers("materials/includes/defaults.wgsl", source) == {"kernel": 2}


def test_vat3_material_importing_wgsl_as_text_is_portable() -> None:
    # babylon-js/materials/vat3SoftBody.ts: imports two .wgsl files as strings and returns
    # them to its base class; the shader code is counted in the .wgsl files (checked right).
    source = b"""\
import BaseMaterial from './base';
import fragmentRaw from './shaders/soft-fragment.wgsl?raw';
import vertexRaw from './shaders/soft-vertex.wgsl?raw';

export default class SoftMaterial extends BaseMaterial {
  protected vertexFn(): string {
    return vertexRaw;
  }
  protected fragmentFn(): string {
    return fragmentRaw;
  }
}
"""
    assert _layers("materials/soft.ts", source) == {"portable": 11}


# -- qore-dl/Learning_cuda_cutlass: a copy of CUTLASS 3.9.2 and CUDA exercises -------------------


def test_learning_cutlass_python_table_of_cutlass_type_names_is_portable() -> None:
    # cutlass-v3.9.2-learning/python/cutlass/backend/library.py: enums mapped to the C++ names
    # a generator writes; no device code, no NVIDIA call (checked right).
    source = b"""\
import enum

from cutlass_library import DataType, KernelScheduleType


class FunctionalOp(enum.Enum):
    Plus = enum.auto()
    Maximum = enum.auto()


FunctionalOpTag = {
    FunctionalOp.Plus: "cutlass::plus",
    FunctionalOp.Maximum: "cutlass::maximum",
}
"""
    assert _layers("python/cutlass/backend/library.py", source) == {"portable": 9}


def test_learning_cutlass_emitter_holding_the_generated_banner_is_counted() -> None:
    # cutlass-v3.9.2-learning/python/cutlass/emit/common.py: the emitter keeps the banner it
    # writes into each emitted file in a string, beside the CUTLASS C++ it emits. Before, the
    # banner marked the emitter itself generated and the census left it out (as it did every
    # copy of CUTLASS's emit/common.py in the mirrors).
    source = b'''\
import cutlass

# The banner every emitted file opens with.
_AUTOGEN_STR = f"This file was automatically generated by CUTLASS {cutlass.__version__}"

_GEMM_ARGS = """
  using DeviceKernel = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
  typename DeviceKernel::Arguments arguments{
    cutlass::gemm::GemmUniversalMode::kGemm,
    {M, N, K},
  };
"""
'''
    report = classify("python/cutlass/emit/common.py", source)
    assert report.generated is False
    assert _rules("python/cutlass/emit/common.py", source) == {
        "cutlass.dsl-import",
        "cutlass.source-string",
    }
    assert _layers("python/cutlass/emit/common.py", source) == {
        "kernel": 7,
        "vendor-path": 1,
        "portable": 1,
    }
