"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h40-random-f).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 41-50. Two had no snapshot: randomvariable/vllm-gguf-plugin and
SadreevAmir/diffusion_data_assimilation. Fifteen files of each remaining repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts, and labelled before
any fix, with the files lockin calls non-portable and GPU-looking files it calls portable, and
three commits touching GPU code judged against ``lockin diff``. Each snippet is a small
rewrite, in our own words, of a pattern found in the repository its test names; the expected
layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- clMathLibraries/clSPARSE: an OpenCL sparse library, its CMake finds OpenCL ---------------


def test_clsparse_tests_cmake_finding_opencl_is_vendor_path() -> None:
    # src/tests/CMakeLists.txt: the unit tests require OpenCL and link its loader; before,
    # this and the library's, samples', timer's and benchmark's CMakeLists were portable.
    source = b"""\
find_package( GTest REQUIRED )
find_package( OpenCL REQUIRED )
include_directories( ${PROJECT_SOURCE_DIR}/include ${OPENCL_INCLUDE_DIRS} )
add_executable( test-blas1 test-blas1.cpp )
target_link_libraries( test-blas1 ${GTEST_LIBRARIES} ${OPENCL_LIBRARIES} sparse )
"""
    assert _rules("src/tests/CMakeLists.txt", source) == {"build.cmake-opencl"}
    assert _layers("src/tests/CMakeLists.txt", source) == {"vendor-path": 3, "portable": 2}


def test_enjaparticles_capital_opencl_package_is_vendor_path() -> None:
    # enjalot/EnjaParticles rtpslib/CMakeLists.txt: the project's own FindOPENCL.cmake, so the
    # package and its variables are spelled in capitals.
    source = b"""\
FIND_PACKAGE (OPENGL)
FIND_PACKAGE (OPENCL)
INCLUDE_DIRECTORIES(${OPENCL_INCLUDE_DIR})
TARGET_LINK_LIBRARIES(rtps ${OPENGL_LIBRARIES} ${OPENCL_LIBRARIES})
"""
    assert _layers("rtpslib/CMakeLists.txt", source) == {"vendor-path": 3, "portable": 1}


def test_cmake_reporting_or_optional_opencl_is_portable() -> None:
    # The negative: printing what was found, or a switch that defaults the back end off,
    # requires no OpenCL.
    source = b"""\
option( ENABLE_OPENCL "build the OpenCL back end" OFF )
if( OpenCL_FOUND )
  message( STATUS "OpenCL libraries: ${OpenCL_LIBRARIES}" )
endif()
"""
    assert _layers("CMakeLists.txt", source) == {"portable": 4}


def test_clsparse_dispatch_through_its_own_vector_type_is_portable() -> None:
    # src/library/blas1/cldense-axpby.cpp: checked right, hard: the entry point picks
    # scale or axpy on the library's own types; the OpenCL calls live in those helpers.
    source = b"""\
template <typename T>
clsparseStatus axpby(clsparse::vector<T>& r, const clsparse::vector<T>& alpha,
                     const clsparse::vector<T>& x, const clsparseControl control)
{
    T a = alpha[0];
    if (a == 0.0) {
        r.fill(control, T(0));
        return clsparseSuccess;
    }
    return scale(r, alpha, x, control);
}
"""
    assert _layers("src/library/blas1/cldense-axpby.cpp", source) == {"portable": 11}


# -- i-yam-jeremy/gpu-raymarcher: WebGL2 ray marching, shader nodes spliced into GLSL ---------


def test_gpu_raymarcher_shader_node_glsl_body_is_kernel() -> None:
    # src/graphics-engine/objects/shader/basic/phong.ts: the node returns a GLSL function
    # body, spliced into the fragment shader with its inputs' code; before, portable.
    source = b"""\
export class Phong extends ShaderNode {
  public compile(): GLSLFunction {
    return new GLSLFunction(GLSLFunctionType.SHADER, 'vec3', this.inputs(),
    `
      vec3 ambient = $$ambient_amount$$*$$ambient_color$$;
      vec3 diffuse = $$diffuse_amount$$*$$diffuse_color$$*max(0.0, dot($$normal$$, -$$light_dir$$));
      vec3 specular = vec3(0);
      return ambient + diffuse + specular;
    `);
  }
}
"""
    assert _rules("src/shader/basic/phong.ts", source) == {"vulkan.glsl-string"}
    assert _layers("src/shader/basic/phong.ts", source) == {"kernel": 6, "portable": 5}


def test_gpu_raymarcher_one_line_sdf_expression_stays_portable() -> None:
    # src/graphics-engine/objects/sdf/basic/sphere.ts: checked right, hard: one `return`
    # expression spliced into the SDF template holds no GLSL-only syntax.
    source = b"""\
export class Sphere extends SDFNode {
  public compile(): GLSLFunction {
    return new GLSLFunction(GLSLFunctionType.SDF, 'float', this.inputs(),
      'return length($$p$$) - $$radius$$;');
  }
}
"""
    assert _layers("src/sdf/basic/sphere.ts", source) == {"portable": 6}
