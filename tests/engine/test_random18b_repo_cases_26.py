"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-b).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 8-14, and every one had a snapshot, so none was skipped.
Read were neuralnexus/OpenJasper (three releases of JasperReports Server side by side: Java,
JSP and a bundled web client in JavaScript, no GPU code), vllm-project/semantic-router (an
LLM request router in Go with Rust bindings on candle, ONNX Runtime and OpenVINO, Python
training scripts for its classifiers, Kubernetes and OpenShift deployments for NVIDIA and
AMD, and two dashboards whose WebGL backgrounds keep GLSL in template strings),
samikoz/raytracer (a CPU ray tracer in Java), theopenco/llmgateway (an LLM API gateway and
its dashboard in TypeScript), cullvox/bluemetal (a small game engine on the Vulkan API
through volk and VMA, with GLSL shaders, ImGui, FMOD and zlib vendored),
Alphakiller1/mlbma-pipeline (baseball statistics scrapers in Python and a static
dashboard) and bdring/FluidNC (CNC firmware in C++ for the ESP32 and RP2040, with a POSIX
build for tests). Snapshots missing large blobs (OpenJasper's binaries, bluemetal's FMOD
libraries) were checked out without them; no counted source file was missing. Fifteen files
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

# -- vllm-project/semantic-router: candle's device choice, ORT providers, WebGL strings -----


def test_candle_cuda_if_available_device_is_vendor_path() -> None:
    # bench/scripts/rust/candle-binding/continuous_batch_bench.rs (sampled; portable before):
    # candle's Device::cuda_if_available is the Rust form of torch's `"cuda" if available
    # else "cpu"` device line, which is vendor-path; the CPU fallback beside it is not.
    source = b"""\
use candle_core::Device;

fn run_bench(model_dir: &str) -> anyhow::Result<()> {
    let device = Device::cuda_if_available(0)?;
    println!("device: {:?}", device);
    let router = Router::load(model_dir, &device)?;
    router.warm_up(16)?;
    Ok(())
}

fn cpu_only() -> Device {
    Device::Cpu
}
"""
    path = "bench/rust/batch_bench.rs"
    assert _rules(path, source) == {"cuda.rust-bindings"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 10}


def test_candle_cuda_if_available_with_cpu_fallback_is_vendor_path() -> None:
    # candle-binding/src/ffi/embedding.rs and about twenty files beside it: the same choice
    # with `.unwrap_or(Device::Cpu)`, and a metal_if_available line that is Apple's. The
    # tail expression's statement runs to the closing brace of its block (2 lines).
    source = b"""\
pub fn pick_device(use_cpu: bool) -> Device {
    if use_cpu {
        Device::Cpu
    } else {
        candle_core::Device::cuda_if_available(0).unwrap_or(candle_core::Device::Cpu)
    }
}

pub fn pick_mac_device() -> Device {
    Device::metal_if_available(0).unwrap_or(Device::Cpu)
}
"""
    path = "src/ffi/device.rs"
    assert _rules(path, source) == {"cuda.rust-bindings"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 8}


def test_candle_cpu_attention_with_a_causal_mask_stays_portable() -> None:
    # Commit 1c2470eed9a7 (lockin diff exit 0, right): a chunked attention "kernel" written
    # with candle tensor ops, whose tests run on Device::Cpu; no device code is added.
    source = b"""\
pub fn causal_mask(q_start: usize, q_len: usize, k_len: usize, dev: &Device) -> Result<Tensor> {
    let mut mask = vec![0f32; q_len * k_len];
    for i in 0..q_len {
        for j in (q_start + i + 1)..k_len {
            mask[i * k_len + j] = f32::NEG_INFINITY;
        }
    }
    Tensor::from_slice(&mask, (q_len, k_len), dev)
}

#[test]
fn mask_is_upper_triangular() {
    let dev = Device::Cpu;
    let m = causal_mask(0, 4, 4, &dev).unwrap();
    assert_eq!(m.dims(), &[4, 4]);
}
"""
    path = "src/attention/chunked.rs"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 15}


def test_ort_cuda_provider_behind_a_cuda_feature_is_vendor_path() -> None:
    # Commit b6f9d38ad7be (lockin diff exit 1, right): the Auto path of an ONNX Runtime
    # session builder now tries the CUDA execution provider under `#[cfg(feature = "cuda")]`.
    source = b"""\
fn build_session(path: &str, provider: Provider) -> Result<Session> {
    let builder = Session::builder()?;
    #[cfg(feature = "cuda")]
    {
        if matches!(provider, Provider::Auto) {
            use ort::execution_providers::CUDAExecutionProvider;
            let ep = CUDAExecutionProvider::default().with_device_id(0).build();
            if let Ok(s) = builder.clone().with_execution_providers([ep]) {
                return Ok(s.commit_from_file(path)?);
            }
        }
    }
    Ok(builder.commit_from_file(path)?)
}
"""
    path = "src/classify/session.rs"
    assert "cuda.rust-feature-gate" in _rules(path, source)
    assert _layers(path, source) == {"vendor-path": 10, "portable": 4}


def test_glsl_in_typescript_template_strings_counts_the_shader_lines() -> None:
    # dashboard/frontend/src/components/ColorBends.tsx and PrismaticBurst.tsx (extra kernel
    # files, hand 81 and 146 shader lines, lockin 85 and 146): a three.js background whose
    # fragment and vertex programs are template literals; the React code around is portable.
    source = b"""\
import * as THREE from 'three'

const frag = `
precision highp float;
uniform float uTime;
uniform vec3 uTint;
varying vec2 vUv;
void main() {
  float w = 0.5 + 0.5 * sin(uTime + vUv.x * 6.0);
  gl_FragColor = vec4(uTint * w, 1.0);
}
`

const vert = `
varying vec2 vUv;
void main() {
  vUv = uv;
  gl_Position = vec4(position, 1.0);
}
`

export function makeMaterial(tint: THREE.Color): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    vertexShader: vert,
    fragmentShader: frag,
    uniforms: { uTime: { value: 0 }, uTint: { value: tint } },
  })
}
"""
    path = "src/components/Waves.tsx"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 17, "portable": 8}


def test_webgl_point_shader_file_is_kernel_whole() -> None:
    # dashboard/wizmap/src/components/embedding/shaders/point.frag (extra kernel file, hand
    # 9, lockin 9): a WebGL 1 fragment shader with no #version line.
    source = b"""\
precision highp float;

uniform sampler2D atlas;
varying vec2 vUv;
varying float vAlpha;

void main() {
  // premultiply before blending
  vec4 c = texture2D(atlas, vUv);
  gl_FragColor = c * vAlpha * c.a;
}
"""
    path = "src/embedding/shaders/dot.frag"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 8}


def test_training_launcher_passing_hip_and_cuda_devices_is_vendor_path() -> None:
    # src/training/.../run_training.sh (sampled, right): a ROCm container started with the
    # AMD device nodes and both vendors' visible-device variables.
    source = b"""\
#!/bin/bash
set -euo pipefail
IMAGE="${IMAGE:-trainer:latest}"
DEVICES="${HIP_VISIBLE_DEVICES:-${CUDA_VISIBLE_DEVICES:-0}}"
echo "devices: ${DEVICES}"
docker run --rm \\
    --device=/dev/kfd \\
    --device=/dev/dri \\
    -e HIP_VISIBLE_DEVICES="${DEVICES}" \\
    "${IMAGE}" python train.py
"""
    path = "scripts/train_in_docker.sh"
    assert _rules(path, source) == {
        "env.cuda-variables",
        "env.hip-variables",
        "build.hip-offload-arch",
    }
    assert _layers(path, source) == {"vendor-path": 3, "portable": 6}


def test_go_check_of_the_nvidia_gpu_resource_is_vendor_path() -> None:
    # e2e/testcases/dynamo_gpu_utilization.go (non-portable list, right): a test reading a
    # pod's nvidia.com/gpu limit.
    source = b"""\
package testcases

import corev1 "k8s.io/api/core/v1"

func gpuLimit(c corev1.Container) int64 {
	if q, ok := c.Resources.Limits["nvidia.com/gpu"]; ok {
		return q.Value()
	}
	return 0
}
"""
    path = "e2e/gpu_limits.go"
    assert _rules(path, source) == {"k8s.nvidia-gpu-resource-string"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 7}


def test_model_names_and_ci_matrix_naming_rocm_stay_portable() -> None:
    # config/recipes/feedback/config.yaml and .github/workflows/docker-validate.yml
    # (GPU-looking, portable, right): a model called "...-rocm" and a matrix choosing which
    # Dockerfile to build; the vendor lines live in those Dockerfiles.
    config = b"""\
routing:
  default_model: team/llm-rocm
  models:
    - name: team/llm-rocm
      endpoint: http://llm:8000
"""
    assert _rules("config/recipe.yaml", config) == set()
    assert _layers("config/recipe.yaml", config) == {"portable": 5}
    workflow = b"""\
jobs:
  build:
    strategy:
      matrix:
        image: [router-cuda, router-rocm]
    steps:
      - run: |
          case "${{ matrix.image }}" in
            router-cuda) FILE=docker/Dockerfile.cuda ;;
            router-rocm) FILE=docker/Dockerfile.rocm ;;
          esac
          docker build -f "$FILE" .
"""
    path = ".github/workflows/images.yml"
    assert _rules(path, workflow) == set()
    assert _layers(path, workflow) == {"portable": 12}


# -- cullvox/bluemetal: Vulkan host code through volk, GLSL files --------------------------


def test_vulkan_sampler_header_is_vendor_path() -> None:
    # Source/Engine/Graphics/VulkanSampler.h (sampled, right): a class wrapping VkSampler
    # with Vulkan enums as its defaults.
    source = b"""\
#pragma once
#include <vulkan/vulkan_core.h>

class Sampler {
public:
    explicit Sampler(VkDevice device,
                     VkFilter filter = VK_FILTER_LINEAR,
                     VkSamplerAddressMode mode = VK_SAMPLER_ADDRESS_MODE_REPEAT);
    ~Sampler();
    VkSampler Get() const;
    int Hash() const;

private:
    VkDevice _device;
    VkSampler _sampler;
    int _hash;
};
"""
    path = "Engine/Graphics/Sampler.h"
    assert _rules(path, source) == {"vulkan.host-api"}
    assert _layers(path, source) == {"vendor-path": 7, "portable": 8}


def test_class_named_vulkan_with_glsl_in_a_comment_stays_portable() -> None:
    # Source/Engine/Graphics/VulkanReflectedBlock.h (sampled, right): reflection records of a
    # shader's uniform blocks, named for Vulkan but using no Vulkan type; the GLSL is only
    # an example in a doc comment.
    source = b"""\
#pragma once
#include <string>
#include <unordered_map>

enum class VulkanBlockType { Float, Vec4, Mat4 };

class VulkanBlockMember {
public:
    std::string name;
    VulkanBlockType type;
    unsigned offset;
};

class VulkanReflectedBlock {
    /** A member is found by a dotted path, as in GLSL:
     *  layout(set = 0, binding = 0) uniform Material { vec4 tint; } mat;
     *  is looked up as "mat.tint".
     */
    std::unordered_map<std::string, VulkanBlockMember> _members;
};
"""
    path = "Engine/Graphics/VulkanReflectedBlock.h"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 13}


def test_glsl_vertex_shader_with_push_constants_is_kernel_whole() -> None:
    # Resources/Shaders/Default.vert (extra kernel file, hand 23, lockin 23).
    source = b"""\
#version 450

layout(location = 0) in vec3 inPos;
layout(location = 1) in vec2 inUv;
layout(location = 0) out vec2 outUv;

layout(set = 0, binding = 0) uniform Camera {
    mat4 view;
    mat4 proj;
} cam;

layout(push_constant) uniform Push {
    mat4 model;
} push;

void main() {
    outUv = inUv;
    gl_Position = cam.proj * cam.view * push.model * vec4(inPos, 1.0);
}
"""
    path = "Resources/Shaders/Basic.vert"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 15}


def test_ci_installing_the_vulkan_dev_package_stays_portable() -> None:
    # .github/workflows/cmake.yml (GPU-looking, portable): the loader's and tools' distro
    # packages installed for a build are not the SDK (build.vulkan's own negative).
    source = b"""\
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Dependencies
        run: sudo apt-get install libfmt-dev libvulkan-dev vulkan-tools
      - run: cmake -B build && cmake --build build
"""
    path = ".github/workflows/cmake.yml"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 8}


def test_batch_compiling_shaders_with_glslc_is_vendor_path() -> None:
    # Resources/Shaders/compileShaders.bat (non-portable list, right): each shader compiled
    # to SPIR-V with the SDK's glslc.
    source = b"""\
@echo off
for %%s in (*.frag *.vert) do glslc %%s -o %%s.spv
"""
    path = "Resources/Shaders/build.bat"
    assert _rules(path, source) == {"build.vulkan"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 1}


# -- portable repositories: words that only look like GPU code ------------------------------


def test_tailwind_transform_gpu_class_stays_portable() -> None:
    # theopenco/llmgateway apps/ui/src/components/landing/animated-beam.tsx (GPU-looking,
    # portable, right): Tailwind's transform-gpu utility class on an SVG path.
    source = b"""\
export function Beam({ d }: { d: string }) {
  return (
    <svg className="pointer-events-none absolute transform-gpu">
      <path d={d} strokeWidth={2} />
    </svg>
  )
}
"""
    path = "src/components/beam.tsx"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


def test_rtos_kernel_words_in_firmware_stay_portable() -> None:
    # bdring/FluidNC FluidNC/capture/freertos/timers.h (GPU-looking, portable, right): a
    # FreeRTOS stand-in for host tests, where "kernel" is the RTOS scheduler.
    source = b"""\
#pragma once
#include <cstdint>

typedef void* TimerHandle_t;
typedef uint32_t TickType_t;

// The kernel's tick, faked for the host build.
inline TickType_t xTaskGetTickCount() { return 0; }
TimerHandle_t xTimerCreate(const char* name, TickType_t period, bool reload);
bool xTimerStart(TimerHandle_t timer, TickType_t wait);
"""
    path = "capture/freertos/timers.h"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


def test_dialog_shader_overlay_in_javascript_stays_portable() -> None:
    # neuralnexus/OpenJasper scripts/components.dialogs.js (GPU-looking, portable, right):
    # the "shader" is a grey overlay div behind a modal dialog.
    source = b"""\
var dialogs = {
    popup: {
        show: function (el) {
            // the shader div catches clicks outside the dialog
            jQuery('#pageDimmer').show();
            jQuery(el).removeClass('hidden');
        }
    }
};
"""
    path = "scripts/components.dialogs.js"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 8}
