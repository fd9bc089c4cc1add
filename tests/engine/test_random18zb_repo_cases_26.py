"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-zb).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 190-196. Two were skipped: ykfnxx/vllm-ascend (193) and
TheCBaH/mltorch (195) had no snapshot to fetch. Read were regione-piemonte/iuffi (a regional
plant-health inspection system: a Java EE web application and an Ionic/Angular mobile app, no
GPU code), casual-simulation/casualos (a TypeScript platform for programmable 3D and AR
scenes on three.js, with GLSL patched into materials from strings), KolosalAI/torch-inference
(a Rust inference server over libtorch, ONNX Runtime and llama.cpp, with CUDA compose files,
a CUDA wheel Dockerfile and Metal on macOS), Lym666XD/TheFortressSimulation (a C# colony
simulation drawn by SadConsole on MonoGame's DesktopGL back end, no GPU code of its own) and
YehorDzhurynskyi/RayTracer-Unit- (a C ray tracer whose tracing and filters are OpenCL C
kernels, launched from a small OpenCL host layer). Snapshots missing a few blobs (images,
textures) were checked out without them; no counted source file was missing. Fifteen files
of each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (up to 5 a repository), and up to three commits touching
GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- KolosalAI/torch-inference: ONNX Runtime from Rust, CUDA compose files, Metal on macOS ---


def test_rust_ort_cuda_and_tensorrt_providers_are_vendor_path() -> None:
    # src/models/onnx_loader.rs (outside the sample, portable before): the ort crate's
    # TensorRT and CUDA execution providers built for the session, the CoreML one on macOS.
    # Each NVIDIA provider's builder statement is vendor-path; the CoreML and CPU ones are not.
    source = b"""\
use ort::execution_providers::{CoreMLExecutionProvider, CPUExecutionProvider};

fn session_providers(device: u32, eps: &mut Vec<ExecutionProviderDispatch>) {
    let trt = ort::execution_providers::TensorRTExecutionProvider::default()
        .with_device_id(device as i32);
    eps.push(trt.build());
    let gpu = ort::execution_providers::CUDAExecutionProvider::default()
        .with_device_id(device as i32);
    eps.push(gpu.build());
    #[cfg(target_os = "macos")]
    eps.push(CoreMLExecutionProvider::default().build());
    eps.push(CPUExecutionProvider::default().build());
}
"""
    path = "src/models/onnx_session.rs"
    assert _rules(path, source) == {"onnxruntime.cuda-provider-api"}
    assert _layers(path, source) == {"vendor-path": 4, "portable": 8}


def test_compose_build_arg_choosing_a_cuda_wheel_tag_is_vendor_path() -> None:
    # compose.dev.yaml (outside the sample, portable before): the build argument the
    # Dockerfile's `ARG CUDA_VERSION` (already vendor-path) reads to pick torch's cu121 wheels,
    # given as a list item. The PyTorch version beside it is portable.
    source = b"""\
services:
  server:
    build:
      target: dev
      args:
        - TORCH_RELEASE=2.1.0
        - WHEEL_FLAVOUR=cu121
    environment:
      - LOG_LEVEL=debug
"""
    path = "compose.dev.yaml"
    assert _rules(path, source) == {"deps.cuda-wheel"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 8}


def test_compose_gpu_reservation_and_cuda_image_are_vendor_path() -> None:
    # compose.gpu.yaml (right before): NVIDIA's device reservation, runtime and CUDA image.
    source = b"""\
services:
  server:
    deploy:
      resources:
        reservations:
          devices:
            - driver: nvidia
              count: all
              capabilities: [gpu]
  probe:
    image: nvidia/cuda:12.1.0-runtime-ubuntu22.04
    restart: unless-stopped
"""
    path = "compose.gpu.yaml"
    assert _layers(path, source).get("vendor-path", 0) >= 3
    assert "kernel" not in _layers(path, source)


def test_llm_service_gpu_layer_count_setting_is_portable() -> None:
    # services/llm/src/config.rs (commit 6bfb: lockin diff passed, right): llama.cpp's count
    # of layers to offload is a number any back end (CUDA, ROCm, Metal, Vulkan) reads.
    source = b"""\
pub struct LlmSettings {
    /// Layers to offload to the GPU (0 keeps the model on the CPU)
    pub n_gpu_layers: i32,
    pub context_len: u32,
}

impl Default for LlmSettings {
    fn default() -> Self {
        Self { n_gpu_layers: 0, context_len: 4096 }
    }
}
"""
    path = "services/llm/src/config.rs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_playwright_mock_of_a_gpu_stats_route_is_portable() -> None:
    # tests/playwright/tests/system.spec.js (sampled, right): a browser test stubbing the
    # server's GPU statistics endpoint with canned JSON.
    source = b"""\
test('shows the accelerator panel', async ({ page }) => {
  await page.route('/system/gpu/stats', route => route.fulfill({
    json: { devices: [{ name: 'Any GPU', memory_used: 10 }] },
  }));
  await page.goto('/');
  await expect(page.getByText('Any GPU')).toBeVisible();
});
"""
    path = "tests/playwright/tests/system.spec.js"
    assert set(_layers(path, source)) == {"portable"}


# -- casual-simulation/casualos: GLSL patched into three.js materials ------------------------


def test_three_material_patched_with_glsl_strings_counts_the_shader_lines() -> None:
    # src/aux-server/aux-web/shared/scene/map/MapTile.ts (an extra kernel file: hand 8,
    # lockin 12, in range): onBeforeCompile prepends uniforms and splices a height lookup into
    # the vertex shader. The GLSL lines are kernel; the TypeScript around them is portable.
    source = b"""\
export function terrainMaterial(material: MeshStandardMaterial) {
    material.onBeforeCompile = (shader: any) => {
        shader.uniforms.heightMap = { value: null };
        shader.vertexShader =
            `
        uniform sampler2D heightMap;
        uniform float heightScale;
        ` + shader.vertexShader;
        shader.vertexShader = shader.vertexShader.replace(
            '#include <fog_vertex>',
            `
        #include <fog_vertex>
        vec4 h = texture2D(heightMap, vUv);
        vec3 lifted = position + h.r * heightScale * normal;
        gl_Position = projectionMatrix * modelViewMatrix * vec4(lifted, 1.0);
        `
        );
    };
    return material;
}
"""
    path = "src/scene/map/TerrainTile.ts"
    layers = _layers(path, source)
    assert 4 <= layers.get("kernel", 0) <= 10
    assert "vendor-path" not in layers


def test_camera_stream_device_id_constraint_is_portable() -> None:
    # vue-qrcode-reader's QrcodeStream.ts (sampled, right): getUserMedia's deviceId is a
    # camera, not a GPU.
    source = b"""\
export function constraintsFor(cameraId: string): MediaStreamConstraints {
    const video: MediaTrackConstraints = { width: { min: 360 } };
    video.deviceId = { exact: cameraId };
    return { audio: false, video };
}
"""
    path = "src/components/QrcodeStream.ts"
    assert set(_layers(path, source)) == {"portable"}


# -- YehorDzhurynskyi/RayTracer-Unit-: OpenCL C kernels and their host layer ----------------


def test_opencl_c_shape_intersection_file_is_kernel_whole() -> None:
    # src/opencl/kernel/shape/sphere.cl (an extra kernel file: hand 25, lockin 25): OpenCL C
    # reading primitives from __constant memory; every code line is device code.
    source = b"""\
int ball_hit(__constant t_shape *shape, const t_ray *ray, float *near)
{
    const float4 oc = ray->origin - shape->position;
    const float b = dot(ray->direction, oc);
    float disc = b * b - (dot(oc, oc) - shape->radius2);
    if (disc < 0.0f)
        return (0);
    *near = -b - sqrt(disc);
    return (1);
}
"""
    path = "src/opencl/kernel/shape/ball.cl"
    assert _layers(path, source) == {"kernel": 10}


def test_opencl_host_header_types_are_vendor_path_and_error_text_portable() -> None:
    # include/opencl.h (right before): the OpenCL header and the cl_* vector types and
    # handles the host keeps. src/opencl/opencl_error.c, a function returning a message, stays
    # portable (right before).
    header = b"""\
#ifndef CL_GLUE_H
# define CL_GLUE_H
# ifdef __APPLE__
#  include <OpenCL/opencl.h>
# else
#  include <CL/opencl.h>
# endif

typedef cl_float4 t_clvec4;

typedef struct s_cl_glue
{
    cl_context       context;
    cl_command_queue queue;
    cl_kernel        kernel;
} t_cl_glue;
#endif
"""
    path = "include/cl_glue.h"
    layers = _layers(path, header)
    assert layers.get("vendor-path", 0) >= 4
    assert "kernel" not in layers
    message = b"""\
const char *glue_error_text(int code)
{
    (void)code;
    return ("unknown OpenCL error");
}
"""
    assert set(_layers("src/opencl/glue_error.c", message)) == {"portable"}


# -- Lym666XD/TheFortressSimulation, regione-piemonte/iuffi: no GPU code ---------------------


def test_monogame_desktopgl_package_reference_is_portable() -> None:
    # src/HumanFortress.App/HumanFortress.App.csproj: SadConsole drawn by MonoGame's
    # DesktopGL (OpenGL) back end, a portable graphics stack.
    source = b"""\
<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="SadConsole" Version="10.0.3" />
    <PackageReference Include="SadConsole.Host.MonoGame" Version="10.0.3" />
    <PackageReference Include="MonoGame.Framework.DesktopGL" Version="3.8.1.303" />
  </ItemGroup>
</Project>
"""
    path = "src/Game.App/Game.App.csproj"
    assert "vendor-path" not in _layers(path, source)
    assert "kernel" not in _layers(path, source)


def test_mobile_device_service_online_check_is_portable() -> None:
    # iuffimobile/src/app/shared/offline/services/offline.service.ts (sampled, right): a
    # phone's network state through an injected device service.
    source = b"""\
@Injectable({ providedIn: 'root' })
export class SyncService {
    constructor(private deviceService: DeviceService) {}

    async flush(): Promise<void> {
        if (this.deviceService.isOnline()) {
            await this.upload();
        }
    }
}
"""
    path = "src/app/shared/offline/services/sync.service.ts"
    assert set(_layers(path, source)) == {"portable"}
