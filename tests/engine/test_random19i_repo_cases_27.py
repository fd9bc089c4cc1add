"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-i).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")`` before anyone read it, from its position 253 on that hold a
GPU term by the written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text
only, so some are no GPU code at all). This lane took sub-pool positions 1-7 (pool positions
254, 295, 307, 328, 331, 333, 336). One was skipped: Piskriek/HeavyMetal2 (4) had no snapshot
to fetch. Read were shaderro/AILanguageLearning (a language-learning web app: FastAPI back
end, React front end, no GPU code), SheetMetalConnect/eryxon-flow (a manufacturing execution
system for sheet-metal shops in TypeScript on Supabase, whose 3D part viewer on three.js keeps
one GLSL grid shader in a ``/* glsl */`` template), eclipse-ee4j/metro-jax-ws (the Jakarta XML
Web Services reference implementation in Java, no GPU code), mulesoft-labs/raml-for-jax-rs
(RAML to JAX-RS code generators in Java, no GPU code), AIFanatic/Trident-WEBGPU (a WebGPU game
engine in TypeScript: WGSL shader files and WGSL in template literals, its built ``dist/``
committed, where rollup's string plugin turned each ``.wgsl`` file into one JavaScript string of
``\\n`` escapes) and ROCm/TheRock (AMD's CMake super-build of the ROCm stack: sub-projects
declared with the HIP toolchain and the AMD GPU target list, packaging and CI scripts, two
HIP samples). Fifteen files of each repository were sampled with ``random.Random("owner/name")``
over every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart, files
outside the sample that hold kernel lines counted by hand (up to 5 a repository), and up to
three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/TheRock: a CMake super-build of AMD's ROCm components ----------------------------


def test_hip_platform_handed_to_a_sub_build_as_a_d_flag_is_vendor_path() -> None:
    # debug-tools/CMakeLists.txt (portable before): a test sub-project configured with
    # "-DHIP_PLATFORM=amd"; `\bHIP_PLATFORM` found the export of a shell script, never the
    # name right after CMake's -D.
    source = b"""\
if(BUILD_TESTING)
  superbuild_declare(agent-tests
    SOURCE_DIR "${AGENT_SOURCE_DIR}/test"
    CMAKE_ARGS
      "-DHIP_PLATFORM=amd"
  )
endif()
"""
    path = "debug-tools/CMakeLists.txt"
    assert _rules(path, source) == {"build.hip-offload-arch"}
    assert _layers(path, source)["vendor-path"] == 1


def test_hip_platform_typed_cache_flag_picks_nvidia() -> None:
    source = b"cmake -S hip-samples -B build -DHIP_PLATFORM:STRING=nvidia\n"
    path = "scripts/configure_nvidia.sh"
    assert _rules(path, source) == {"build.hip-offload-arch"}
    assert _layers(path, source)["vendor-path"] == 1


def test_project_option_ending_in_amdgpu_targets_is_vendor_path() -> None:
    # media-libs/CMakeLists.txt and emulation/CMakeLists.txt (portable before): each
    # component is declared with an option of the super-build's own that builds it for the
    # distribution's AMD GPU targets; the build of the rest stays portable.
    source = b"""\
if(ENABLE_VIDEO_DECODE)
  superbuild_declare(videodecode
    USE_DIST_AMDGPU_TARGETS
    SOURCE_DIR "${SYSTEMS_DIR}/projects/videodecode"
    RUNTIME_DEPS
      libdrm
  )
  superbuild_activate(videodecode)
endif()
"""
    path = "media-libs/CMakeLists.txt"
    assert _rules(path, source) == {"build.hip-offload-arch"}
    assert _layers(path, source)["vendor-path"] == 1


def test_target_list_passed_to_a_fat_binary_splitter_is_vendor_path() -> None:
    # cmake/therock_artifacts.cmake (portable before): artifacts split into generic and
    # per-architecture parts, the AMD target list of the build handed to the splitter.
    source = b"""\
set(split_args --artifact-dir "${unsplit_dir}" --bundler "${bundler}")
if(SUPER_AMDGPU_TARGETS)
  list(APPEND split_args --gpu-targets ${SUPER_AMDGPU_TARGETS})
endif()
add_custom_command(OUTPUT "${manifest}" COMMAND "${Python3_EXECUTABLE}" split.py ${split_args})
"""
    path = "cmake/super_artifacts.cmake"
    assert _rules(path, source) == {"build.hip-offload-arch"}
    assert _layers(path, source)["vendor-path"] == 2


def test_names_that_only_hold_the_words_stay_portable() -> None:
    # The negative's counterpart: an option about a check, a host-only sub-build opted out of
    # the AMD targets (emulation/CMakeLists.txt's other two), a CUDA-side note, a chip define.
    source = b"""\
option(SKIP_AMDGPU_TARGETS_CHECK "skip the probe" OFF)
superbuild_declare(host-tools DISABLE_AMDGPU_TARGETS NO_MERGE_COMPILE_COMMANDS)
set(CUDA_GPU_TARGETS_NOTE "none")
add_definitions(-DCHIP_PLATFORM=amd)
"""
    path = "cmake/checks.cmake"
    assert _rules(path, source) == set()
    assert "vendor-path" not in _layers(path, source)


def test_sanitizer_stanza_marking_gfx_targets_xnack_is_vendor_path() -> None:
    # cmake/therock_sanitizers.cmake (already right): under ASAN the GPU target list is
    # rewritten to the xnack+ variants of two AMD architectures.
    source = (
        b'if(sanitizer STREQUAL "ASAN")\n'
        b'  string(APPEND stanza "list(TRANSFORM GPU_TARGETS REPLACE '
        b'\\"^(gfx942|gfx950)$\\" \\"\\\\\\\\1:xnack+\\")\\n")\n'
        b"endif()\n"
    )
    path = "cmake/sanitizers.cmake"
    assert _rules(path, source) == {"build.hip-offload-arch"}
    assert _layers(path, source)["vendor-path"] == 1


def test_hook_linking_rocm_tracer_library_is_vendor_path() -> None:
    # math-libs/BLAS/pre_hook_rocSPARSE.cmake (already right): the legacy roctx64 library
    # found and patched into the link.
    source = b"""\
if(NOT WIN32)
  find_library(legacy_roctx roctx64 REQUIRED)
  patch_linked_lib(OLD_LIBRARY "roctx64" NEW_TARGET "${legacy_roctx}")
endif()
"""
    path = "math-libs/BLAS/pre_hook_sparse.cmake"
    assert _rules(path, source) == {"build.cmake-rocm-library"}
    assert _layers(path, source)["vendor-path"] == 1


def test_hip_sample_kernel_and_launch() -> None:
    # examples/cpp-sdk-user/sample_kernel.hip (an extra kernel file, in range): device
    # helpers and a kernel printing from each thread, launched with chevrons.
    source = b"""\
#include <hip/hip_runtime.h>
#include <cstdio>

__device__ unsigned lane_id()
{
    return threadIdx.x;
}

__global__ void greet_kernel()
{
    unsigned t = lane_id();
    printf("block %u thread %u\\n", blockIdx.x, t);
}

int main()
{
    greet_kernel<<<dim3(2), dim3(4), 0, hipStreamDefault>>>();
    return hipDeviceSynchronize();
}
"""
    path = "examples/sdk-user/greet.hip"
    layers = _layers(path, source)
    assert layers["kernel"] == 9
    assert layers["vendor-path"] == 3


def test_test_image_named_without_rocm_is_portable() -> None:
    # dockerfiles/no_rocm_image_ubuntu24_04_openmpi.Dockerfile (already right): a test image
    # built on the project's image without ROCm, adding OpenMPI from the distribution.
    source = b"""\
FROM ghcr.io/example/no_rocm_image_ubuntu24_04:latest
RUN sudo apt-get install -y --no-install-recommends libopenmpi-dev openmpi-bin
"""
    path = "dockerfiles/no_rocm_image_openmpi.Dockerfile"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_feature_flag_of_a_hip_library_declared_off_is_portable() -> None:
    # Commit cac419195c5b (gate passed, right): FLAGS.cmake declares an opt-in flag of the
    # DNN library's compatibility wrapper; no target, toolchain or runtime is picked.
    source = b"""\
declare_flag(
  NAME HIPDNN_ENABLE_CUDNN_COMPATIBILITY
  DEFAULT_VALUE OFF
  DESCRIPTION "Build the DNN library with its compatibility wrapper."
  CMAKE_VARS
    HIPDNN_ENABLE_CUDNN_COMPATIBILITY=ON
  SUB_PROJECTS
    hipDNN
)
"""
    path = "FLAGS.cmake"
    assert "vendor-path" not in _layers(path, source)


# -- AIFanatic/Trident-WEBGPU: a WebGPU engine, shaders in WGSL -------------------------------


def test_bundled_wgsl_module_as_one_escaped_string_is_kernel() -> None:
    # dist/plugins/Environment/resources/TransmittanceLUT.wgsl.js (portable before, outside
    # the sample): rollup's string plugin made the .wgsl file one JavaScript string, its lines
    # joined by \\n escapes; only the attribute and `fn` showed it was WGSL.
    source = (
        b'var LutWGSL = "#include \\"./Common.wgsl\\";\\n\\n@fragment\\n'
        b"fn fragmentMain(v: VertexOutput) -> @location(0) vec4<f32> {\\n"
        b'    let mu = v.uv.x * 2.0 - 1.0;\\n    return vec4(mu, 0.0, 0.0, 1.0);\\n}";\n'
        b"\n"
        b"export { LutWGSL as default };\n"
    )
    path = "dist/plugins/Sky/resources/Lut.wgsl.js"
    assert _rules(path, source) == {"wgsl.source-string"}
    assert _layers(path, source)["kernel"] == 1


def test_bundled_struct_only_wgsl_module_is_kernel() -> None:
    # dist/plugins/ParticleSystem/resources/structs.wgsl.js and the struct strings inlined in
    # dist/trident-core.js (portable before): the structs the shaders share, nothing else.
    source = (
        b'var ParticleStructs = "struct Emitter {\\n    count: f32,\\n'
        b'    origin: vec4<f32>,\\n    speed: vec4<f32>,\\n};\\n";\n'
        b"\n"
        b"export { ParticleStructs as default };\n"
    )
    path = "dist/plugins/Particles/resources/structs.wgsl.js"
    assert _rules(path, source) == {"wgsl.source-string"}
    assert _layers(path, source)["kernel"] == 1


def test_compute_shader_built_as_one_escaped_python_string_is_kernel() -> None:
    source = (
        b'SHADER = "@group(0)\\n@binding(0) var<storage, read_write> buf: array<f32>;\\n'
        b"@compute @workgroup_size(64)\\n"
        b"fn main(@builtin(global_invocation_id) gid: vec3<u32>) {\\n"
        b'    buf[gid.x] *= 2.0;\\n}\\n"\n'
    )
    path = "tools/make_shader.py"
    assert _rules(path, source) == {"wgsl.source-string"}
    assert _layers(path, source)["kernel"] == 1


def test_one_line_expectations_and_rust_structs_in_strings_stay_portable() -> None:
    source = b"""\
expect(code).toContain("storageBarrier();\\n");
expect(code).toContain("var total = vec4<f32>(0.0);\\n");
const fixture = "struct Pair {\\n    a: f32,\\n    b: i32,\\n}";
"""
    path = "test/codegen.test.ts"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_wgsl_in_a_template_literal_pass_counts_the_shader_lines() -> None:
    # packages/core/renderer/passes/BasePass.ts (an extra kernel file, in range): a full-screen
    # pass whose WGSL sits in the `code` template; the pass's TypeScript is portable.
    source = b"""\
export class CopyPass extends RenderPass {
    public async init() {
        this.shader = await Shader.Create({
            code: `
                struct VOut {
                    @builtin(position) pos: vec4<f32>,
                    @location(0) uv: vec2<f32>,
                };
                @group(0) @binding(0) var srcSampler: sampler;
                @group(0) @binding(1) var srcTex: texture_2d<f32>;
                @vertex
                fn vertexMain(@builtin(vertex_index) i: u32) -> VOut {
                    var o: VOut;
                    let p = vec2f(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0);
                    o.pos = vec4(p, 0.0, 1.0);
                    o.uv = p * 0.5 + 0.5;
                    return o;
                }
                @fragment
                fn fragmentMain(v: VOut) -> @location(0) vec4<f32> {
                    return textureSample(srcTex, srcSampler, v.uv);
                }
            `,
            colorOutputs: [{ format: "rgba16float" }],
        });
        this.initialized = true;
    }
}
"""
    path = "packages/core/renderer/passes/CopyPass.ts"
    layers = _layers(path, source)
    assert _rules(path, source) == {"wgsl.source-string"}
    assert 17 <= layers["kernel"] <= 20
    assert layers["portable"] >= 6


def test_webgpu_host_timestamp_queries_are_portable() -> None:
    # packages/core/renderer/webgpu/utils/WEBGPUTimestampQuery.ts (sampled, right): WebGPU's
    # own API on every vendor, no shader text.
    source = b"""\
export class FrameTimer {
    private static querySet: GPUQuerySet;
    private static resolveBuffer: GPUBuffer;

    public static begin(device: GPUDevice): GPURenderPassTimestampWrites {
        this.querySet ??= device.createQuerySet({ type: "timestamp", count: 2 });
        this.resolveBuffer ??= device.createBuffer({
            size: 16,
            usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
        });
        return { querySet: this.querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 };
    }
}
"""
    path = "packages/core/renderer/webgpu/utils/FrameTimer.ts"
    assert set(_layers(path, source)) == {"portable"}


def test_wgsl_reflection_by_regular_expressions_is_portable() -> None:
    # packages/core/renderer/webgpu/utils/WGSLReflection.ts (sampled, right): the host reads a
    # shader's entry point and bindings with regular expressions; it holds no shader.
    source = b"""\
const typeSizes: Record<string, number> = { "vec2<f32>": 2, "vec3<f32>": 3, "mat4x4<f32>": 16 };

export function entryInputs(code: string, entry = "vertexMain"): string[] {
    const found: string[] = [];
    const entryRe = /@vertex\\s+fn\\s+(\\w+)\\s*\\(([^)]*)\\)/g;
    let m: RegExpExecArray | null;
    while ((m = entryRe.exec(code)) !== null) {
        if (m[1] === entry) found.push(m[2]);
    }
    return found;
}
"""
    path = "packages/core/renderer/webgpu/utils/Reflect.ts"
    assert set(_layers(path, source)) == {"portable"}


# -- SheetMetalConnect/eryxon-flow: a three.js viewer in a manufacturing app -----------------


def test_three_shader_material_with_tagged_glsl_is_kernel() -> None:
    # src/components/viewer/grid.ts (an extra kernel file, in range): a fading grid material,
    # its vertex and fragment shaders in /* glsl */ templates; the scene code is portable.
    source = b"""\
import * as THREE from 'three';

export function fadingGrid(color: number, opacity: number): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    uniforms: { uColor: { value: new THREE.Color(color) }, uOpacity: { value: opacity } },
    vertexShader: /* glsl */ `
      varying vec3 vWorld;
      void main() {
        vec4 w = modelMatrix * vec4(position, 1.0);
        vWorld = w.xyz;
        gl_Position = projectionMatrix * viewMatrix * w;
      }
    `,
    fragmentShader: /* glsl */ `
      uniform vec3 uColor;
      uniform float uOpacity;
      varying vec3 vWorld;
      void main() {
        float fade = 1.0 - smoothstep(300.0, 500.0, length(vWorld.xz));
        gl_FragColor = vec4(uColor, uOpacity * fade);
      }
    `,
    transparent: true,
  });
}
"""
    path = "src/components/viewer/fadingGrid.ts"
    layers = _layers(path, source)
    assert set(layers) == {"kernel", "portable"}
    assert 12 <= layers["kernel"] <= 18


def test_sheet_metal_prose_is_portable() -> None:
    # supabase/migrations/*.sql and website/src/lib/marketing-content.ts (GPU-looking, right):
    # "Metal" is the shop's material, not Apple's API.
    source = b"""\
INSERT INTO tenants (name, company_name) VALUES ('Sheet Metal Works', 'Sheet Metal Works e.U.');
-- dimensions in mm, as usual for metal fabrication
INSERT INTO materials (name, supplier) VALUES ('Steel 1.4301', 'Metal Supply Co');
"""
    path = "supabase/migrations/20250101000000_seed.sql"
    assert set(_layers(path, source)) == {"portable"}


# -- eclipse-ee4j/metro-jax-ws and mulesoft-labs/raml-for-jax-rs: Java web services -----------


def test_jax_ws_endpoint_is_portable() -> None:
    # jaxws-ri/docs/samples/.../AddNumbersImpl.java (sampled, right): "jax" in the name is
    # Jakarta XML, not Google's JAX.
    source = b"""\
package sample.server;

@jakarta.jws.WebService(serviceName = "AddService", endpointInterface = "sample.server.Adder")
public class AdderImpl implements Adder {
    public int add(int a, int b) throws AddFault {
        if (a < 0 || b < 0) {
            throw new AddFault("negative input", a + ", " + b);
        }
        return a + b;
    }
}
"""
    path = "samples/adder/src/sample/server/AdderImpl.java"
    assert set(_layers(path, source)) == {"portable"}
