"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-r).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 137-144. Two had no snapshot and were skipped:
jonathan1920/torch_tpu and pulp-platform/Onnx4Deeploy. The six read were
AllenNeuralDynamics/voxel (microscope control with a WebGPU preview), sthalik/tw-tob-shaders
(GLSL shaders decompiled from a game), google-ai-edge/ai-edge-quantizer (TFLite model
quantizer), tenstorrent/pytorch2.0_ttnn (a torch.compile back end for Tenstorrent chips),
philipturner/molecular-renderer (Swift renderer holding Metal and HLSL shaders in strings)
and MolecularFrontier/prism (a Java data model). Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, and three commits touching GPU code judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- tenstorrent/pytorch2.0_ttnn: ttnn operators and the torch_ttnn compile back end ----------


def test_ttnn_lowering_test_is_tenstorrent_bound() -> None:
    # tests/lowering/eltwise/binary/test_lt.py: compiles a module with torch_ttnn's back end
    # and checks that the graph now holds ttnn operators.
    source = b"""\
import torch
import torch_ttnn
import ttnn


def test_less_than(device):
    module = Less()
    opts = torch_ttnn.TorchTtnnOption(device=device)
    compiled = torch.compile(module, backend=torch_ttnn.backend, options=opts)
    compiled(torch.rand(8, 8), torch.rand(8, 8))
    targets = [n.target for n in opts._out_fx_graphs[0].nodes]
    assert targets.count(ttnn.lt) == 1
"""
    assert _rules("tests/test_less.py", source) == {
        "tenstorrent.ttnn",
        "tenstorrent.torch-ttnn",
    }
    assert _layers("tests/test_less.py", source) == {
        "vendor-library": 2,
        "vendor-path": 3,
        "portable": 5,
    }


def test_ttnn_graph_capture_is_vendor_library() -> None:
    # tests/autogen_op/*/test_*_aten_*.py: records the ttnn call trace around a run.
    source = b"""\
import ttnn


def trace(run):
    ttnn.graph.begin_graph_capture()
    run()
    captured = ttnn.graph.end_graph_capture()
    return len(captured)
"""
    assert _rules("tests/test_trace.py", source) == {"tenstorrent.ttnn"}
    assert _layers("tests/test_trace.py", source) == {"vendor-library": 3, "portable": 3}


def test_ttnn_names_without_the_package_stay_portable() -> None:
    # demo/codegen.py keeps a use_ttnn switch; a flag or a dictionary key named after ttnn
    # is not a call into it.
    source = b"""\
def generate(prompt, use_ttnn=True):
    metric = {"convert_to_ttnn": use_ttnn}
    return prompt, metric
"""
    assert _rules("demo/generate.py", source) == set()
    assert _layers("demo/generate.py", source) == {"portable": 3}


# -- verdicts already right, pinned ------------------------------------------------------------


def test_wgsl_preview_shader_is_kernel() -> None:
    # AllenNeuralDynamics/voxel web-ui/src/lib/preview/preview.wgsl: a WGSL fragment shader.
    source = b"""\
@group(0) @binding(0) var tex: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return textureSample(tex, samp, uv);
}
"""
    assert _layers("web/preview.wgsl", source) == {"kernel": 6}


def test_quantizer_numpy_code_is_portable() -> None:
    # google-ai-edge/ai-edge-quantizer algorithms/uniform_quantize/octav.py: NumPy only.
    source = b"""\
import numpy as np


def clip_range(values, bits):
    scale = np.max(np.abs(values)) / (2 ** (bits - 1) - 1)
    return np.round(values / scale) * scale
"""
    assert _rules("algorithms/octav.py", source) == set()
    assert _layers("algorithms/octav.py", source) == {"portable": 4}


# -- philipturner/molecular-renderer: compute bodies whose signature is spliced in -------------


def test_swift_compute_body_with_integer_vector_locals_is_kernel() -> None:
    # Sources/MolecularRenderer/BVH/Shaders/RemoveProcess/RemoveProcess1.swift: the pass's
    # body is one Swift string; its Metal or HLSL signature comes from an interpolated
    # function, so the body holds no entry mark, only uint3 locals that walk the grid.
    source = b"""\
static func source(grid: Float) -> String {
  return \"\"\"
  \\(signature())
  {
    uint id = ids[tid];
    for (uint z = 0; z < bounds[2]; ++z) {
      uint3 cell = uint3(0, 0, z);
      uint3 slot = lower + cell;
      marks[slot.x] = 1;
    }
  }
  \"\"\"
}
"""
    assert _rules("Passes/Clear.swift", source) == {"metal.shader-body-string"}
    assert _layers("Passes/Clear.swift", source) == {"kernel": 11, "portable": 2}


def test_swift_prose_naming_one_integer_vector_stays_portable() -> None:
    # A help text naming one uint3 declaration is not a shader body.
    source = b"""\
let help = \"\"\"
Declare uint3 cell = gid and index the grid with it.
Nothing else is needed.
\"\"\"
"""
    assert _rules("App/Help.swift", source) == set()
    assert _layers("App/Help.swift", source) == {"portable": 4}
