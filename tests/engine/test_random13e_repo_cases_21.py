"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-e).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 301-307. Ibraheem325/Neural-Guided-Search (303) was over the
snapshot size limit, and golba98/LLM-NumPy-CuPy- (306) and IronBCC/gemma4-31B-Coder (307) had
no snapshot: the three were skipped. The others were read: TOoSad-deep/ShaderGen (an LLM
agent writing WebGL fragment shaders, with GLSL in Python and TypeScript strings),
matiask400/Transformers (LLM-written solutions to programming puzzles), SceneWorks/inference
(Rust image, audio and LLM back ends on candle for CUDA and on MLX for Apple GPUs) and
MisanthropicBit/pycuda_examples (PyCUDA demos). Fifteen files of each repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts (all eight of
pycuda_examples) and labelled before any fix, with the files lockin calls non-portable (up to
20) and GPU-looking files it calls portable (up to 10) checked apart, and three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
Each snippet is a small rewrite, in our own words, of a pattern found in the repository its
test names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- MisanthropicBit/pycuda_examples: PyCUDA's generated kernels ------------------------------


def test_pycuda_scan_kernel_expression_is_kernel_code() -> None:
    # examples/pycuda_exclusive_scan.py: pycuda.scan's ExclusiveScanKernel pastes its scan
    # expression into generated CUDA C, as the ReductionKernel demo beside it does.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.gpuarray as gpuarray
import pycuda.scan

values = gpuarray.to_gpu(np.arange(64, dtype=np.int32))
running = pycuda.scan.ExclusiveScanKernel(np.int32, neutral="0", scan_expr="a+b")
running(values)
"""
    assert _rules("examples/prefix_sum.py", source) == {
        "cupy.raw-kernel",
        "pycuda.driver",
        "pycuda.host-api",
    }
    assert _layers("examples/prefix_sum.py", source) == {
        "kernel": 1,
        "vendor-path": 4,
        "portable": 2,
    }


def test_pycuda_inclusive_scan_split_over_lines_is_kernel_code() -> None:
    # The same builder's inclusive twin, its expression on the call's second line: the
    # strings are the kernel, the line opening the call is not.
    source = b"""\
import numpy as np
from pycuda.scan import InclusiveScanKernel

product = InclusiveScanKernel(
    np.float32, "a*b", neutral="1")
"""
    assert "cupy.raw-kernel" in _rules("scan_demo.py", source)
    assert _layers("scan_demo.py", source)["kernel"] == 1


def test_pycuda_source_module_string_is_kernel_code() -> None:
    # examples/pycuda_simple1.py (already right): a __global__ function compiled by
    # SourceModule; the launch with grid= and block= is PyCUDA host code.
    source = b"""\
import numpy as np
import pycuda.autoinit
import pycuda.compiler
import pycuda.driver as driver

mod = pycuda.compiler.SourceModule(\"\"\"
__global__ void triple(int* v, const size_t n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { v[i] *= 3; }
}\"\"\")

host = np.ones(512, dtype=np.int32)
triple = mod.get_function("triple")
triple(driver.InOut(host), np.uint32(512), grid=(2, 1, 1), block=(256, 1, 1))
"""
    layers = _layers("examples/triple.py", source)
    assert "pycuda.source-module" in _rules("examples/triple.py", source)
    assert layers["kernel"] == 5
    assert "vendor-path" in layers


def test_numpy_twin_of_the_demo_is_portable() -> None:
    # examples/numpy_simple.py (already right): the CPU baseline the demos compare with.
    source = b"""\
import time
import numpy as np

values = np.random.randint(1, 101, size=1000)
start = time.time()
doubled = values * 2
print("took", time.time() - start)
"""
    assert _layers("examples/baseline.py", source) == {"portable": 6}


# -- TOoSad-deep/ShaderGen: WebGL fragment shaders in Python and TypeScript strings -----------


def test_webgl_vertex_shader_in_template_literal_is_kernel_code() -> None:
    # frontend/src/components/ShaderPreview.tsx (already right): the preview's vertex shader
    # in a template literal; the WebGL calls that compile it are portable.
    source = b"""\
const VERTEX_SRC = `
attribute vec2 a_pos;
varying vec2 v_uv;

void main() {
  v_uv = a_pos * 0.5 + 0.5;
  gl_Position = vec4(a_pos, 0.0, 1.0);
}
`;

export function compile(gl: WebGLRenderingContext): WebGLShader | null {
  const shader = gl.createShader(gl.VERTEX_SHADER);
  return shader;
}
"""
    assert _rules("src/Preview.tsx", source) == {"vulkan.glsl-string"}
    assert _layers("src/Preview.tsx", source)["kernel"] == 8


def test_one_line_glsl_stub_in_test_payload_is_kernel_code() -> None:
    # tests/integration_tests/test_direct_shader_api.py (already right): a fake model answer
    # holding a whole fragment shader on one line.
    source = b"""\
def fake_result():
    return dict(
        glsl="precision mediump float; void main(){gl_FragColor=vec4(1.0);}",
        status="completed",
    )
"""
    assert _layers("tests/test_api.py", source) == {"kernel": 1, "portable": 4}


def test_empty_main_placeholder_is_portable() -> None:
    # tests/unit_tests/test_local_artifact_store_v1.py (already right): `void main() {}` as
    # an opaque payload an artifact store writes and reads back holds no shader.
    source = b"""\
def test_round_trip(run):
    text = run.write_text("candidates/c1/shader.frag", "void main() {}")
    assert run.read_bytes(text.relative_path) == b"void main() {}"
"""
    assert _layers("tests/test_store.py", source) == {"portable": 3}


# -- SceneWorks/inference: candle back ends selected by Cargo features ------------------------


def test_cargo_feature_forwarding_cuda_is_vendor_path_metal_is_not() -> None:
    # crates/media/candle-gen/candle-gen-sdxl/Cargo.toml (already right): the provider
    # forwards its cuda feature to candle's; its metal twin is left to the code it gates.
    source = b"""\
[package]
name = "gen-sdxl"

[features]
default = []
metal = ["gen-core/metal", "candle-transformers/metal"]
cuda = ["gen-core/cuda", "candle-transformers/cuda"]
"""
    assert _rules("crates/gen-sdxl/Cargo.toml", source) == {"deps.cuda-crate"}
    assert _layers("crates/gen-sdxl/Cargo.toml", source) == {"vendor-path": 1, "portable": 5}


def test_negated_is_cuda_skip_in_a_smoke_test_stays_portable() -> None:
    # crates/media/candle-gen/candle-gen/tests/cuda_quant_smoke.rs (already right by the
    # rules' convention): a test that returns early unless its default device is CUDA.
    source = b"""\
#[test]
fn quant_matches_cpu() {
    let device = default_device().expect("device");
    if !device.is_cuda() {
        return;
    }
    let x = Tensor::zeros((4, 4), DType::F32, &device).unwrap();
    assert_eq!(x.dims(), &[4, 4]);
}
"""
    assert _layers("tests/quant_smoke.rs", source) == {"portable": 9}


def test_glsl_helper_closing_a_call_spread_over_lines_counts_that_line() -> None:
    # src/shaderforge/layered_spec/blend_modes.py: blend helpers in triple-quoted strings
    # whose vec3(...) constructors spread over lines; the `);` closing one was left portable.
    source = b'''\
HELPERS = {
    "screen": """vec4 compose_screen(vec4 dst, vec4 src) {
    vec3 mixed = vec3(
        dst.r + src.r - dst.r * src.r,
        dst.g + src.g - dst.g * src.g,
        dst.b + src.b - dst.b * src.b
    );
    return vec4(mixed, src.a);
}""",
}
'''
    assert _rules("layers/blend.py", source) == {"vulkan.glsl-string"}
    assert _layers("layers/blend.py", source) == {"kernel": 8, "portable": 2}
