"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-g).

The pool is ``/work/pool-h47.txt``, shuffled with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 315-321. Neura-Shadow/GWM-UAV-Navigation-Sparse-Rewards
(316) had no snapshot and was skipped. The six read were
mayman150/A-Comparative-Study-between-TensorFlow-and-PyTorch (a study holding copies of
TensorFlow's source and PyTorch's HTML docs), gr812b/CVT-Simulator (a Python simulator with
a Unity front end), adrian154/JavaPathtracer (a CPU path tracer in Java),
seonjinn/Megatron-LM (a fork of NVIDIA's Megatron-LM), dhickel/vulkan-engine (a Rust
renderer on ash with GLSL shaders) and TritonNetworking/themis_tritonsort (a C++ MapReduce
sort, no GPU). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, and three commits touching GPU code (fewer where fewer exist)
judged against ``lockin diff`` (``random.Random("owner/name:commits")``). Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- dhickel/vulkan-engine: Vulkan-only crates besides ash itself ---------------------------


def test_workspace_manifest_depending_on_the_vulkan_memory_allocator_is_vendor_path() -> None:
    # Cargo.toml (workspace root): the renderer is a path dependency, and the root also pulls
    # vk-mem, the Vulkan Memory Allocator, and patches a GUI's Vulkan renderer from git.
    source = b"""\
[package]
name = "game"
version = "0.1.0"
edition = "2021"

[dependencies]
render = { path = "crates/render" }
glam = "0.29"
#ash = "0.38"
vk-mem = "0.4.0"

[patch.crates-io]
egui-vulkan-renderer = { git = "https://example.org/fork.git", branch = "dev" }
"""
    assert _rules("Cargo.toml", source) == {"deps.vulkan-crate"}
    assert _layers("Cargo.toml", source) == {"vendor-path": 2, "portable": 8}


def test_renderer_manifest_with_ash_and_its_window_crate_is_vendor_path() -> None:
    # src/renderer/Cargo.toml: ash with its `linked` feature, ash-window for the surface, and
    # vk-mem; gltf and image loaders beside them are portable.
    source = b"""\
[dependencies]
ash = { version = "0.38.0", features = ["linked"] }
ash-window = { version = "0.13.0" }
vk-mem = "0.4.0"
gltf = "1.4"
image = "0.25"
"""
    assert _rules("Cargo.toml", source) == {"deps.vulkan-crate"}
    assert _layers("Cargo.toml", source) == {"vendor-path": 3, "portable": 3}


def test_manifest_on_a_cross_api_allocator_stays_portable() -> None:
    # The negative of the pair above: gpu-allocator serves D3D12 and Metal too, and a wgpu
    # renderer for a GUI runs on every back end wgpu has.
    source = b"""\
[dependencies]
gpu-allocator = "0.27"
egui-wgpu = "0.29"
wgpu = "22"
"""
    assert _rules("Cargo.toml", source) == set()


def test_compute_shader_file_counts_every_code_line_as_kernel() -> None:
    # src/renderer/src/shaders/gradient.comp (already right): a compute shader writing a
    # gradient into a storage image; its comments are not counted.
    source = b"""\
// which GLSL this is
#version 460
layout (local_size_x = 16, local_size_y = 16) in;
layout(rgba16f, set = 0, binding = 0) uniform image2D target;
void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 n = imageSize(target);
    if (p.x < n.x && p.y < n.y) {
        imageStore(target, p, vec4(float(p.x) / n.x, float(p.y) / n.y, 0.0, 1.0));
    }
}
"""
    assert _layers("shaders/gradient.comp", source) == {"kernel": 11}


# -- seonjinn/Megatron-LM: verdicts that were already right ----------------------------------


def test_triton_kernel_span_stops_before_the_autograd_wrapper() -> None:
    # megatron/core/fusions/fused_pad_routing_map.py (already right): one @triton.jit kernel,
    # then the torch function that launches it, which is portable host code.
    source = b"""\
import torch
import triton
import triton.language as tl


@triton.jit
def _pad_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    vals = tl.load(src_ptr + offs, mask=offs < n, other=0)
    tl.store(dst_ptr + offs, vals, mask=offs < n)


def pad_map(src, block=128):
    dst = torch.empty_like(src)
    grid = (triton.cdiv(src.numel(), block),)
    _pad_kernel[grid](src, dst, src.numel(), BLOCK=block)
    return dst
"""
    layers = _layers("fusions/pad.py", source)
    assert layers["kernel"] == 6
    assert "triton.jit" in _rules("fusions/pad.py", source)


def test_functional_test_config_with_cuda_environment_is_vendor_path() -> None:
    # tests/functional_tests/test_cases/.../model_config.yaml (already right): the run's
    # environment pins CUDA and cuBLAS settings; the model arguments are portable.
    source = b"""\
ENV_VARS:
  CUDA_DEVICE_MAX_CONNECTIONS: 1
  CUBLAS_WORKSPACE_CONFIG: :4096:8
MODEL_ARGS:
  --num-layers: 12
  --hidden-size: 512
"""
    assert "env.cuda-variables" in _rules("model_config.yaml", source)
    assert set(_layers("model_config.yaml", source)) == {"vendor-path", "portable"}


# -- adrian154/JavaPathtracer: a CPU renderer that names GLSL in a comment --------------------


def test_java_refraction_citing_glsl_in_a_comment_is_portable() -> None:
    # src/com/JavaPathtracer/material/GlassMaterial.java (already right): the refraction
    # follows GLSL's refract(), which a comment says; the code is plain Java.
    source = b"""\
public class Glass {
    // the terms below follow GLSL's refract()
    public static double k(double eta, double cosi) {
        return 1.0 - eta * eta * (1.0 - cosi * cosi);
    }
}
"""
    assert _rules("Glass.java", source) == set()


def test_ci_stage_on_ngc_internal_nemo_image_is_vendor_path() -> None:
    # .gitlab/stages/01.build.yml: the build matrix names NGC's PyTorch images and, for one
    # job, a NeMo nightly from NGC's internal organisation (nvcr.io/nvidian/): both are CUDA
    # images; the script lines around them are portable.
    source = b"""\
build:
  parallel:
    matrix:
      - IMAGE: main
        BASE_IMAGE: nvcr.io/nvidia/pytorch:25.09-py3
      - IMAGE: nightly
        BASE_IMAGE: nvcr.io/nvidian/nemo:nightly
  script:
    - docker build --build-arg FROM_IMAGE_NAME=$BASE_IMAGE .
"""
    assert _rules(".gitlab/stages/build.yml", source) == {"image.nvidia-base"}
    assert _layers(".gitlab/stages/build.yml", source) == {"vendor-path": 2, "portable": 7}
