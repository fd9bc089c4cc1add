"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-o).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 371-377. nexagenlabs/molecular-docking-ai-era (position
375) had no snapshot to fetch, so it was skipped and not replaced. The six read were
Zhang-Wen-chao/mini-deepspeed (a small ZeRO implementation on PyTorch, CUDA device strings
in its examples), s2e-lab/LLM-Based-Test-Generation-Study (Java test-generation benchmarks
and generated tests, a few model scripts on CUDA), bright-builds-llc/bitaxe-esp-miner
(Rust firmware and tooling for a Bitcoin ASIC miner; no GPU code), imewei/xpcsjax (X-ray
correlation fitting in JAX, CPU only), gameknife/gkNextRenderer (a Vulkan path tracer with
Slang and GLSL shaders) and Yang-Tan-id/Trajectory-TracIn-for-Diffusion-Model-Data-
Attribution (diffusion-model data attribution in PyTorch and JAX). Fifteen files of each
repository (every file, for mini-deepspeed's eleven) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, and three commits touching GPU code (drawn with
``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- s2e-lab/LLM-Based-Test-Generation-Study: a toy language's program in Java literals ----


def test_toy_language_main_in_joined_literals_is_no_shader() -> None:
    # RQ2_Prompt_Elements/.../AtRobotCompiler3T2000Test.java: a generated JUnit test builds a
    # robot-language program a literal a line (`"void main() {\n" +`) and compiles it; no
    # line of it is GLSL, so the lone `void main() {` literal starts no shader.
    source = b"""\
class RobotCompilerTest {
    @Test
    void compilesLoop() throws IOException {
        String program = "; first robot\\n" +
                         "\\n" +
                         "void main() {\\n" +
                         "    repeat (4) {\\n" +
                         "        turn(90);\\n" +
                         "        shoot(2);\\n" +
                         "    }\\n" +
                         "}\\n";
        Output out = new RobotCompiler().compile(new StringReader(program));
        assertEquals(0, out.errors().size());
    }
}
"""
    path = "src/test/java/robots/RobotCompilerTest.java"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 15}


def test_glsl_main_in_joined_literals_is_still_a_shader() -> None:
    # The same shape holding a fragment shader (the imgui OpenGL backend's style, one
    # literal a line): the body after `void main()` samples a texture, so it is GLSL.
    source = b"""\
const char* frag =
    "uniform sampler2D Tex;\\n"
    "in vec2 Uv;\\n"
    "out vec4 Color;\\n"
    "void main()\\n"
    "{\\n"
    "    Color = texture(Tex, Uv.st);\\n"
    "}\\n";
"""
    path = "src/render/blit.cpp"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert _layers(path, source) == {"kernel": 7, "portable": 1}


# -- pinned verdicts that were already right --------------------------------------------


def test_cuda_device_string_in_zero_optimizer_is_vendor_path() -> None:
    # Zhang-Wen-chao/mini-deepspeed mini_deepspeed/zero.py: the flat shard buffer is made on
    # "cuda" when the NCCL backend is in use.
    source = b"""\
import torch


def flat_buffer(numel, backend):
    device = torch.device("cuda") if backend == "nccl" else torch.device("cpu")
    return torch.zeros(numel, device=device)
"""
    path = "mini_deepspeed/shards.py"
    assert "torch.device-string" in _rules(path, source)
    assert set(_layers(path, source)) == {"vendor-path", "portable"}


def test_jax_cuda_extra_in_conda_pip_section_is_vendor_path() -> None:
    # Yang-Tan-id/...: diffusion model_jax/environment.yml installs JAX's CUDA 12 wheels
    # through the pip section of a conda environment.
    source = b"""\
name: diffusion
dependencies:
  - python=3.11
  - pip
  - pip:
      - "jax[cuda12]"
      - optax
"""
    path = "env/environment.yml"
    assert "deps.cuda-wheel" in _rules(path, source)
    assert _layers(path, source).get("vendor-path") == 1


def test_asic_chip_detection_in_rust_is_portable() -> None:
    # bright-builds-llc/bitaxe-esp-miner crates/bitaxe-asic/src/bm1366/chip_detect.rs: a
    # mining ASIC found over a serial line; "chip" and "hash" are no GPU.
    source = b"""\
pub fn detect_chips(port: &mut impl SerialPort) -> Result<u8, AsicError> {
    port.write_all(&READ_CHIP_ID)?;
    let mut count = 0;
    while let Some(frame) = read_frame(port)? {
        if frame.chip_id == BM1366_ID {
            count += 1;
        }
    }
    Ok(count)
}
"""
    path = "crates/asic/src/chip_detect.rs"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
