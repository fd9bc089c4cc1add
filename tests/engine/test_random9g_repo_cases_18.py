"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-g).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 602-609. One could not be read: AbishekCoder1/TensorRT-Model-Connect (no snapshot).
Fifteen files of each remaining repository were sampled with ``random.Random("owner/name")``
over every file lockin counts, and labelled before any fix, with the files lockin calls
non-portable and GPU-looking files it calls portable; three commits of each touching GPU code
were drawn with ``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our
own words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- aadebdeb/three-raymarch: three.js materials whose GLSL chunks are TypeScript constants ---


def test_three_raymarch_struct_chunk_is_kernel_code() -> None:
    # src/shaders/chunks/*_material_pars_fragment.ts: a chunk holding only a struct of GLSL
    # vector members, spliced into the fragment shader by the material.
    source = b"""\
export const toon_material_pars_fragment = `
struct RaymarchToonMaterial {
  vec3 diffuse;
  vec3 emissive;
  float shininess;
};
`;
"""
    assert _rules("src/shaders/chunks/toon_material_pars_fragment.ts", source) == {
        "vulkan.glsl-string"
    }
    assert _layers("src/shaders/chunks/toon_material_pars_fragment.ts", source) == {"kernel": 7}


def test_three_raymarch_function_returning_a_struct_is_kernel_code() -> None:
    # src/shaders/chunks/*_get_material_pars_fragment.ts: a GLSL function whose result is the
    # material struct and whose parameters are vec3s.
    source = b"""\
export const toon_get_material_pars_fragment = `
RaymarchToonMaterial getMaterial(vec3 position, vec3 worldNormal) {
  RaymarchToonMaterial material;
  material.diffuse = diffuse;
  return material;
}
`;
"""
    assert _layers("src/shaders/chunks/toon_get_material_pars_fragment.ts", source) == {"kernel": 7}


def test_three_raymarch_chunk_writing_a_fragment_output_is_kernel_code() -> None:
    # src/shaders/chunks/raymarch_fog_fragment.ts and raymarch_write_depth_fragment.ts: the
    # chunk's GLSL is scalar maths ending in an assignment to gl_FragColor / gl_FragDepthEXT.
    fog = b"""\
export const fog_fragment = `
#ifdef USE_FOG
  float depth = -(viewMatrix * vec4(pos, 1.0)).z;
  float amount = smoothstep(fogNear, fogFar, depth);
  gl_FragColor.rgb = mix(gl_FragColor.rgb, fogColor, amount);
#endif
`;
"""
    assert _layers("src/shaders/chunks/fog_fragment.ts", fog) == {"kernel": 7}
    depth = b"""\
export const write_depth = `
vec4 clip = projectionMatrix * modelViewMatrix * vec4(pos, 1.0);
gl_FragDepthEXT = (clip.z / clip.w) * 0.5 + 0.5;
`;
"""
    assert _layers("src/shaders/chunks/write_depth.ts", depth) == {"kernel": 4}


def test_three_raymarch_uniform_declarations_chunk_is_kernel_code() -> None:
    # src/shaders/chunks/raymarch_fog_pars_fragment.ts: uniforms declared for the fog chunk,
    # no main in the literal.
    source = b"""\
export const fog_pars_fragment = `
#ifdef USE_FOG
  uniform vec3 fogColor;
  uniform float fogNear;
  uniform float fogFar;
#endif
`;
"""
    assert _layers("src/shaders/chunks/fog_pars_fragment.ts", source) == {"kernel": 7}


def test_three_raymarch_prose_and_code_strings_stay_portable() -> None:
    # The negatives: a message naming gl_FragColor, a comparison with it, one uniform named in
    # a sentence, and a C-like function returning a struct from scalar parameters.
    source = b"""\
const hint = "gl_FragColor is deprecated in GLSL 3.00: declare an out variable";
const check = `gl_FragColor == undefined`;
const doc = `uniform float opacity; sets how opaque the material is`;
const sample = `
Result compute(float x, int n) {
  return Result(x, n);
}
`;
const types = `struct Point { float x; float y; };`;
"""
    assert _layers("src/hints.ts", source) == {"portable": 9}


# -- InfiniTensor/InfiniTrain: a C++ training framework with CPU and CUDA back ends ------------


def test_infinitrain_cuda_device_built_from_the_enum_is_vendor_path() -> None:
    # example/mnist/main.cc and example/gpt2/main.cc: the flag picks the CPU or the CUDA
    # device, built from the framework's own enum value with an index after it.
    source = b"""\
int main(int argc, char *argv[]) {
    Device cpu = Device();
    Device device = FLAGS_device == kDeviceCPU ? Device() : Device(Device::DeviceType::kCUDA, 0);
    auto rank_device = Device(Device::DeviceType::kCUDA, rank.thread_rank());
    network.To(device);
    return 0;
}
"""
    assert _rules("example/mnist/main.cc", source) == {"cuda.backend-enum-choice"}
    assert _layers("example/mnist/main.cc", source) == {"vendor-path": 2, "portable": 5}


def test_infinitrain_cuda_kernel_registration_is_vendor_path() -> None:
    # infini_train/src/kernels/cuda/no_op.cu: plain C++ in a .cu file, registered with the
    # dispatcher for the CUDA device type only.
    source = b"""\
namespace infini_train::kernels::cuda {
std::shared_ptr<Tensor> NoOpForward(const std::shared_ptr<Tensor> &input) { return input; }
}

REGISTER_KERNEL(infini_train::Device::DeviceType::kCUDA, NoOpForward, cuda::NoOpForward)
"""
    assert _rules("src/kernels/cuda/no_op.cc", source) == {"cuda.backend-enum-choice"}


def test_infinitrain_enum_tables_and_comparisons_stay_portable() -> None:
    # infini_train/src/device.cc and friends: asking which type a device has, printing it, or
    # listing it in a table beside the CPU chooses nothing.
    source = b"""\
bool Device::IsCUDA() const { return type_ == DeviceType::kCUDA; }
CHECK(device.type() == Device::DeviceType::kCUDA);
const std::map<Device::DeviceType, std::string> kNames = {{Device::DeviceType::kCPU, "cpu"},
                                                          {Device::DeviceType::kCUDA, "cuda"}};
names.emplace(Device::DeviceType::kCUDA, "cuda");
auto entry = std::make_pair(Device::DeviceType::kCUDA, "cuda");
"""
    assert _layers("src/device.cc", source) == {"portable": 6}
