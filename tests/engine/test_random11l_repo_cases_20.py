"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-l).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 238-244 and every one had a snapshot, so none was skipped:
RenderKit/embree (Intel's ray tracing kernels, CPU and SYCL), attogram/ollama-bash-lib (a Bash
library for Ollama), microsoft/onnxjs (ONNX inference in the browser, WebGL and WASM back ends),
kjk/gpui-cpp (a C++ UI toolkit), Keff789/ONNX-Splitpoint-Tool (ONNX split benchmarks on
TensorRT and Hailo), juju149/VoxelVerse (a Rust voxel game on wgpu and WGSL) and
gvram13541/DemoDeepSpeed (a plugin demo in C++ and Python). Embree's and VoxelVerse's large
binaries were absent from their snapshots, so their trees were laid out with ``git read-tree
HEAD && git checkout-index -a -f``. Fifteen files of each repository (fourteen of
DemoDeepSpeed, all it has) were sampled with ``random.Random("owner/name")`` over every file
lockin counts and labelled before any fix, with the files lockin calls non-portable (up to 20)
and GPU-looking files it calls portable (up to 10) checked apart, and three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- RenderKit/embree: device callbacks a SYCL kernel calls through a pointer ----------------


def test_sycl_indirectly_callable_macro_marks_device_code() -> None:
    # tutorials/user_geometry/user_geometry_device.cpp: the user-geometry intersect and
    # occlusion callbacks behind RTC_SYCL_INDIRECTLY_CALLABLE, which the GPU traversal calls.
    source = b"""\
RTC_SYCL_INDIRECTLY_CALLABLE void boxOccluded(const RTCOccludedFunctionNArguments* args)
{
  const Box* box = (const Box*)args->geometryUserPtr;
  RTCRay* ray = (RTCRay*)args->ray;
  if (slabTest(*box, *ray)) ray->tfar = -INFINITY;
}

void boxBounds(const RTCBoundsFunctionArguments* args)
{
  const Box* box = (const Box*)args->geometryUserPtr;
  *args->bounds_o = box->bounds;
}
"""
    assert _rules("tutorials/box/box_device.cpp", source) == {"sycl.external-function"}
    assert _layers("tutorials/box/box_device.cpp", source) == {"kernel": 6, "portable": 5}


def test_sycl_external_light_sampler_is_kernel_code() -> None:
    # tutorials/common/lights/point_light.cpp: light sampling marked SYCL_EXTERNAL (right
    # before any fix); the extern "C" setter beside it is host code.
    source = b"""\
SYCL_EXTERNAL Light_EvalRes SpotLight_eval(const Light* super, const Vec3fa& dir)
{
  Light_EvalRes res;
  res.value = Vec3fa(0.f);
  return res;
}

extern "C" void SpotLight_set(void* super, float radius)
{
  ((SpotLight*)super)->radius = radius;
}
"""
    assert _rules("tutorials/common/lights/spot_light.cpp", source) == {"sycl.external-function"}
    assert _layers("tutorials/common/lights/spot_light.cpp", source) == {
        "kernel": 6,
        "portable": 4,
    }


def test_cpu_task_over_a_blocked_range_in_a_sycl_source_stays_portable() -> None:
    # tutorials/user_geometry/user_geometry_device.cpp: the CPU branch of renderFrameStandard
    # hands tiles to Embree's own parallel_for over a range; the SYCL branch's lambda, taking
    # an nd_item, stays kernel code.
    source = b"""\
#include <sycl/sycl.hpp>
void renderTile(int* pixels, int tile) { pixels[tile] = 0; }

void renderFrame(sycl::queue& q, int* pixels, int tiles) {
#if defined(USE_GPU)
  q.parallel_for(sycl::range<1>(tiles), [=](sycl::item<1> it) {
    pixels[it.get_id(0)] = 0;
  });
#else
  parallel_for(size_t(0), size_t(tiles), [&](const range<size_t>& r) {
    for (size_t i = r.begin(); i < r.end(); i++) renderTile(pixels, (int)i);
  });
#endif
}
"""
    assert _rules("tutorials/frame_device.cpp", source) == {"sycl.kernel", "sycl.runtime"}
    assert _layers("tutorials/frame_device.cpp", source) == {
        "kernel": 3,
        "vendor-path": 2,
        "portable": 8,
    }


# -- microsoft/onnxjs: WebGL shaders built in JS templates ------------------------------------


def test_webgl_element_function_named_by_a_template_hole_is_kernel_code() -> None:
    # lib/backends/webgl/ops/unary-op.ts: each element function is GLSL in a template whose
    # name is a hole (`vec4 ${name}(vec4 v) {`); main reads its input through a hole too.
    source = b"""\
export function glslSquare(): GlslValueFunction {
  const name = `square_`;
  const body = `
  float ${name}(float a) {
    return a * a;
  }
  vec4 ${name}(vec4 v) {
    return v * v;
  }
  `;
  return {body, name};
}
"""
    assert _rules("lib/backends/webgl/ops/square.ts", source) == {"vulkan.glsl-string"}
    assert _layers("lib/backends/webgl/ops/square.ts", source) == {"kernel": 8, "portable": 4}


def test_webgl_main_reading_through_a_template_hole_is_kernel_code() -> None:
    # lib/backends/webgl/ops/unary-op.ts: `vec4 v = ${glsl.texture2D}(A, TexCoords);`.
    source = b"""\
function programInfo(glsl: Glsl, fn: string): string {
  const shaderSource = `
    void main() {
      vec4 v = ${glsl.texture2D}(A, TexCoords);
      ${glsl.output} = ${fn}(v);
    }`;
  return shaderSource;
}
"""
    assert _rules("lib/backends/webgl/ops/apply.ts", source) == {"vulkan.glsl-string"}
    assert _layers("lib/backends/webgl/ops/apply.ts", source) == {"kernel": 5, "portable": 3}


def test_webgl_scalar_helper_building_a_vector_is_kernel_code() -> None:
    # lib/backends/webgl/glsl-coordinate-lib.ts: routines returning an int whose first line
    # builds a GLSL vector from the texture coordinates.
    source = b"""\
function outputCoords(w: number, h: number): string {
  return `
    int flatOutputIndex() {
      ivec2 rc = ivec2(TexCoords.xy * vec2(${w}, ${h}));
      return rc.y * ${w} + rc.x;
    }`;
}
"""
    assert _rules("lib/backends/webgl/coords.ts", source) == {"vulkan.glsl-string"}
    assert _layers("lib/backends/webgl/coords.ts", source) == {"kernel": 5, "portable": 2}


def test_webgl_preamble_opening_on_a_precision_statement_is_kernel_code() -> None:
    # lib/backends/webgl/glsl-source.ts: the fragment preamble whose #version line is a hole.
    source = b"""\
export function preamble(glsl: Glsl): string {
  return `${glsl.version}
    precision highp float;
    ${glsl.varyingFrag} vec2 TexCoords;
    int imod(int x, int y) {
      return x - y * (x / y);
    }
    `;
}
"""
    assert _rules("lib/backends/webgl/preamble.ts", source) == {"vulkan.glsl-string"}
    assert _layers("lib/backends/webgl/preamble.ts", source) == {"kernel": 7, "portable": 2}


def test_c_source_in_a_template_stays_portable() -> None:
    # The negative of the two above: a code generator's C, no GLSL vector type anywhere.
    source = b"""\
const program = `
  int ${name}(int a) {
    return a + 1;
  }`;
"""
    assert _layers("src/codegen/emit.ts", source) == {"portable": 4}


# -- juju149/VoxelVerse: WGSL includes; wgpu host code stays portable -------------------------


def test_wgsl_interface_include_is_kernel_code() -> None:
    # assets/packs/core/render/shaders/include/interface/terrain_io.wgsl (right before any fix).
    source = b"""\
#include "include/common/constants.wgsl"

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
};
"""
    assert _layers("shaders/include/io.wgsl", source) == {"kernel": 5}


def test_wgpu_render_pass_stays_portable() -> None:
    # crates/vv-render/src/renderer/ui_pass.rs (right before any fix).
    source = b"""\
pub fn draw_ui(encoder: &mut wgpu::CommandEncoder, view: &wgpu::TextureView) {
    let _pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("ui"),
        ..Default::default()
    });
}
"""
    assert _layers("crates/render/src/ui_pass.rs", source) == {"portable": 6}


# -- kjk/gpui-cpp: Win32 virtual-key helpers are no Vulkan ------------------------------------


def test_virtual_key_helpers_named_vk_stay_portable() -> None:
    # src/gpui/keymap.cpp: a key name turned into a virtual-key code (`c.vk = VkForName(..)`).
    source = b"""\
static int VkForName(Str name) {
    if (name.len == 1) return toupper(name.s[0]);
    return 0;
}

void parseChord(Chord& c, Str spec) {
    c.vk = VkForName(spec);
}
"""
    assert _layers("src/gpui/keymap.cpp", source) == {"portable": 7}
