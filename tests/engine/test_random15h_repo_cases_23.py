"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h51-random-h).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 637-643. Three had no snapshot and were skipped, not
replaced: dakotamurphyucf/gpuio, onnxsim/onnxsim and totttty/fractalpathtracer. Read were
pixix4/robolab-renderer (a Kotlin multiplatform planet renderer with no GPU code),
kozistr/pytorch_optimizer (a library of PyTorch optimizers; its examples pick CUDA devices),
JuliaRobotics/IncrementalInference.jl (a Julia factor-graph solver with no GPU code) and
alexeykarnachev/shaderbox (a Python moderngl shader editor: GLSL fragment shader files and
GLSL held in Python and JavaScript strings). Fifteen files of each repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts and labelled before any
fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- kozistr/pytorch_optimizer: torch.cuda calls inside an f-string's replacement field ------


def test_torch_cuda_calls_in_fstring_fields_are_vendor_path() -> None:
    # examples/benchmark_foreach.py: a CUDA branch prints the card's name from inside an
    # f-string; the statement rule reads code outside literals and never saw the call.
    source = b"""\
import torch


def describe(device):
    if device.type == "cuda":
        print(f"card: {torch.cuda.get_device_name(device)}")
    print(f"done on {device}")
"""
    assert _rules("bench/describe.py", source) == {
        "torch.cuda-call-in-fstring",
        "torch.device-string",
    }
    assert _layers("bench/describe.py", source) == {"vendor-path": 2, "portable": 3}


def test_a_lone_fstring_memory_report_is_vendor_path() -> None:
    # The only CUDA use in a file: a log line reporting the peak memory of the card.
    source = b"""\
def log_step(log, step, loss):
    log.info(f"step {step} loss {loss:.3f} peak {torch.cuda.max_memory_allocated() / 1e9:.2f} GB")
"""
    assert _rules("train/logging_utils.py", source) == {"torch.cuda-call-in-fstring"}
    assert _layers("train/logging_utils.py", source) == {"vendor-path": 1, "portable": 1}


def test_probing_cuda_in_an_fstring_stays_portable() -> None:
    source = b"""\
def banner(torch):
    print(f"cuda present: {torch.cuda.is_available()} cards: {torch.cuda.device_count()}")
    print(f"{torch_cuda_label} ready")
"""
    assert _rules("tools/banner.py", source) == set()
    assert _layers("tools/banner.py", source) == {"portable": 3}


def test_cudnn_version_in_an_fstring_is_vendor_path() -> None:
    # The environment banner such scripts print next to the card's name: the cuDNN version
    # read inside a replacement field is torch.backends.cudnn like any other read of it.
    source = b"""\
import torch

print(f"torch {torch.__version__} cudnn {torch.backends.cudnn.version()}")
"""
    assert _rules("tools/env.py", source) == {"torch.cuda-call-in-fstring"}
    assert _layers("tools/env.py", source) == {"vendor-path": 1, "portable": 1}


# -- kozistr/pytorch_optimizer: verdicts that were already right ------------------------------


def test_moving_a_module_to_cuda_behind_a_probe_is_vendor_path() -> None:
    # examples/pytorch_lightning_example.py: the probe is portable, the .cuda() move is not.
    source = b"""\
def main(model):
    if torch.cuda.is_available():
        model.cuda()
    return model
"""
    assert _rules("examples/lit.py", source) == {"torch.cuda-method"}
    assert _layers("examples/lit.py", source) == {"vendor-path": 1, "portable": 3}


def test_device_of_a_parameter_stays_portable() -> None:
    # pytorch_optimizer/optimizer/qhadam.py: state tensors made on the gradient's own device.
    source = b"""\
def init_state(state, grad):
    state["weight"] = torch.zeros((1,), dtype=torch.float32, device=grad.device)
    return state
"""
    assert _rules("optim/init.py", source) == set()
    assert _layers("optim/init.py", source) == {"portable": 3}


# -- alexeykarnachev/shaderbox: GLSL in a Python string and in a shader file ------------------


def test_glsl_fragment_shader_in_a_python_string_is_kernel() -> None:
    # scripts/smoke.py: a smoke test seeds a node with a small fragment shader held in a
    # triple-quoted string.
    source = b'''\
import json

_FRAG = """#version 330 core
in vec2 uv;
uniform float u_level;
out vec4 color;
void main() { color = vec4(uv, u_level, 1.0); }
"""


def seed(path):
    path.write_text(_FRAG)
'''
    assert _rules("scripts/seed.py", source) == {"vulkan.glsl-string"}
    assert _layers("scripts/seed.py", source) == {"kernel": 6, "portable": 3}


def test_glsl_library_function_file_is_kernel() -> None:
    # shaderbox/resources/shader_lib/space/center_uv.glsl: one helper function, nothing else.
    source = b"""\
/// Scales uv from [0,1] to [-1,1] with the aspect on x.
vec2 lib_centered(vec2 uv, float aspect) {
    return (uv - 0.5) * 2.0 * vec2(aspect, 1.0);
}
"""
    assert _layers("shader_lib/space/centered.glsl", source) == {"kernel": 3}


def test_moderngl_and_pyopengl_dependencies_stay_portable() -> None:
    # pyproject.toml: OpenGL bindings run on every vendor's driver.
    source = b"""\
[project]
name = "shader-tool"
dependencies = [
    "moderngl>=5.12.0",
    "pyopengl>=3.1.10",
    "glfw>=2.8",
]
"""
    assert _rules("pyproject.toml", source) == set()
    assert _layers("pyproject.toml", source) == {"portable": 7}


# -- JuliaRobotics/IncrementalInference.jl: Julia with no GPU code ----------------------------


def test_julia_numerics_stay_portable() -> None:
    # src/services/NumericalCalculations.jl: residual functions minimised on the CPU.
    source = b"""\
function residual!(res::AbstractVector, f, x)
    res .= f(x) .- 1.0
    return sum(abs2, res)
end
"""
    assert _rules("src/services/Residuals.jl", source) == set()
    assert _layers("src/services/Residuals.jl", source) == {"portable": 4}
