"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h53-random-s).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 1099-1105 and skipped Thomaswang0822/VulkanCTS-Wiki
(position 1102: no snapshot could be had) and q4a/Source-Code_ShaderX_GPU-Pro_GPU-Zen
(position 1103: its snapshot is over the size limit). Read were wcandillon/react-native-webgpu
(WebGPU for React Native: Dawn bindings in C++, TypeScript demos with WGSL in strings),
HatPdotS/TorchRef (crystallographic refinement on PyTorch), pierreaubert/gpui-toolkit (Rust UI
and chart crates on GPUI, wgpu renderers with WGSL in raw strings), pytorch/serve (TorchServe:
Java frontend, Python handlers, Dockerfiles and CI for CUDA, ROCm and Neuron) and
ShiftHackZ/Stable-Diffusion-Android (a Kotlin Multiplatform app with its Dokka pages). Their
snapshots lacked some binaries (models, .mtz data, a .glb), so the clones were checked out
without them; no counted source file was missing. Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. The fixes:
wgsl.source-string reads WGSL's texture builtins (textureSampleLevel, textureLoad,
textureStore, textureDimensions, ...) as a shader fragment in a literal that runs past its
line, and deps.cuda-wheel reads a CUDA build tag given to a command-line option (``--cuda=cu121``).
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules


def test_wgsl_helpers_typed_with_aliases_are_kernel() -> None:
    # wcandillon/react-native-webgpu apps/docs/src/components/hero/computetoys.ts: the helper
    # functions prepended to a user's shader use the prelude's aliases (int2, float4) and no
    # WGSL type name; only the texture builtins mark them. Counted portable before the fix.
    source = b"""\
export function passHelpers(): string {
  return `
fn storeTo(layer: int, at: int2, value: float4) {
  textureStore(layers_out, at, layer, value);
}
fn loadFrom(layer: int, at: int2, lod: int) -> float4 {
  return textureLoad(layers_in, at, layer, lod);
}
`;
}
"""
    assert _rules("src/hero/helpers.ts", source) == {"wgsl.source-string"}
    assert _layers("src/hero/helpers.ts", source) == {"kernel": 8, "portable": 2}


def test_wgsl_bilinear_body_fragment_is_kernel() -> None:
    # Same file: the body of a sampling helper chosen by the host, spliced into a signature.
    source = b"""\
const body = filtered
  ? `
  let size = vec2f(textureDimensions(src_tex));
  let texel = uv * size - 0.5;
  return textureSampleLevel(src_tex, smooth_s, texel / size, layer, lod);`
  : "";
"""
    assert _rules("src/hero/body.ts", source) == {"wgsl.source-string"}
    assert _layers("src/hero/body.ts", source) == {"kernel": 4, "portable": 2}


def test_one_line_texture_builtin_note_stays_portable() -> None:
    # A message naming a builtin is no shader: the literal ends on its own line.
    source = b"""\
export const hint = "storage textures are written with textureStore(tex, xy, value)";
"""
    assert _rules("src/hint.ts", source) == set()


def test_wgsl_template_literal_with_entry_point_is_kernel() -> None:
    # wcandillon/react-native-webgpu packages/webgpu/src/__tests__/ComputeShader.spec.ts: a
    # compute entry point in a template literal passed to createShaderModule (already right).
    source = b"""\
const module = device.createShaderModule({
  code: `
@group(0) @binding(0) var<storage, read_write> data: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  data[id.x] = data[id.x] * 2.0;
}
`,
});
"""
    assert _rules("src/double.spec.ts", source) == {"wgsl.source-string"}
    assert _layers("src/double.spec.ts", source) == {"kernel": 7, "portable": 2}


def test_torch_empty_cache_is_vendor_path() -> None:
    # HatPdotS/TorchRef tests_manual/benchmark_refining/separate_step_LBFGS/screen_weights.py:
    # frees the CUDA caching allocator between runs (already right).
    source = b"""\
import torch


def run_all(configs, refine):
    for cfg in configs:
        refine(cfg)
        torch.cuda.empty_cache()
"""
    assert _rules("bench/screen.py", source) == {"torch.cuda-call"}
    assert _layers("bench/screen.py", source) == {"vendor-path": 1, "portable": 4}


def test_handler_moving_model_to_cuda_string_is_vendor_path() -> None:
    # pytorch/serve test/pytest/test_data/streaming/stream_handler.py: the handler places its
    # model and inputs with the "cuda" device string (already right).
    source = b"""\
class Handler:
    def initialize(self, model):
        self.model = model
        self.model.to("cuda")

    def infer(self, batch):
        return self.model({k: v.to("cuda") for k, v in batch.items()})
"""
    assert _rules("handlers/stream.py", source) == {"torch.device-string"}
    assert _layers("handlers/stream.py", source) == {"vendor-path": 2, "portable": 4}


def test_ci_step_installing_with_a_cuda_tag_option_is_vendor_path() -> None:
    # pytorch/serve .github/workflows/ci_gpu.yml: the GPU job installs its dependencies with
    # the set-up script's `--cuda=cu121` option, choosing the CUDA 12.1 builds; portable before
    # deps.cuda-wheel read a build tag given to an option.
    source = b"""\
name: GPU tests
on: [workflow_dispatch]
jobs:
  gpu:
    runs-on: [self-hosted, gpu-box]
    steps:
      - uses: actions/checkout@v4
      - run: python scripts/install_deps.py --environment=dev --cuda=cu121
      - run: python -m pytest tests
"""
    assert _rules(".github/workflows/gpu.yml", source) == {"deps.cuda-wheel"}
    assert _layers(".github/workflows/gpu.yml", source) == {"vendor-path": 1, "portable": 8}


def test_cpu_choice_given_to_the_same_option_stays_portable() -> None:
    source = b"""\
jobs:
  cpu:
    steps:
      - run: python scripts/install_deps.py --environment=dev --cuda=cpu
"""
    assert _rules(".github/workflows/cpu.yml", source) == set()
