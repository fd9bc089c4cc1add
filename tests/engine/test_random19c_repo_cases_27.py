"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-c).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 211-217. Three were skipped: canerganis/Metalliksa (211),
moehail967-cpu/ymnay-app (216) and canuonifeng/PartTimeJobsPlatform (217) had no snapshot
to fetch. Read were ludia8888/Icon-Blaster (a React icon tool beside "SPICE HARVESTER", a
Python FastAPI ontology back end with audit logging; no GPU code), jaxernst/lasso-rpc (an
Elixir/Phoenix RPC router for blockchain nodes whose "routing kernel" is its selection core;
no GPU code), Mekadrom/megatransformer (a multimodal transformer on PyTorch: text, voice and
image models, preprocessing, evaluation and training scripts that pick "cuda" devices, clear
the CUDA cache and profile on CUDA) and pthomain/PolarShader (a fixed-point LED "shader"
engine for microcontrollers in C++ on FastLED, with a browser composer; one Python site
builder patches a three.js ShaderMaterial holding GLSL into the page). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, files outside the sample that hold kernel
lines counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Mekadrom/megatransformer: PyTorch training and evaluation scripts ------------------------


def test_profiler_cuda_activity_and_sort_key_are_vendor_path() -> None:
    # scripts/debug/profile_train.py (a GPU-looking file lockin called portable before): the
    # profiler asks for CUDA's trace when a card is present and sorts its table by the CUDA
    # column; on XPU both are spelled otherwise.
    source = b"""\
import torch
from torch.profiler import ProfilerActivity, profile, schedule


def run(steps, rows):
    kinds = [ProfilerActivity.CPU]
    if torch.cuda.is_available():
        kinds.append(ProfilerActivity.CUDA)
    with profile(activities=kinds, schedule=schedule(wait=1, warmup=1, active=steps)) as prof:
        train_some_steps(prof)
    order = "self_cuda_time_total" if torch.cuda.is_available() else "self_cpu_time_total"
    print(prof.key_averages().table(sort_by=order, row_limit=rows))
"""
    path = "src/pkg/scripts/debug/profile_train.py"
    assert _rules(path, source) == {"torch.profiler-cuda", "torch.profiler-cuda-sort-key"}
    assert _layers(path, source)["vendor-path"] == 2


def test_profiler_on_device_time_is_portable() -> None:
    # The negative's counterpart: the same table sorted by the device-neutral column, with
    # only the CPU activity asked for.
    source = b"""\
from torch.profiler import ProfilerActivity, profile


def run(prof_rows):
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        train_some_steps(prof)
    print(prof.key_averages().table(sort_by="device_time_total", row_limit=prof_rows))
"""
    path = "scripts/debug/profile_cpu.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_visualisation_callback_picking_cuda_device_is_vendor_path() -> None:
    # scripts/train/visualization_callback.py (a non-portable file, already right): the
    # shared base class returns a CUDA device for the rank, or the first card.
    source = b"""\
import torch


class PlotCallback:
    def pick_device(self):
        if torch.distributed.is_initialized():
            return torch.device(f"cuda:{torch.distributed.get_rank()}")
        if torch.cuda.is_available():
            return torch.device("cuda")
        return torch.device("cpu")
"""
    path = "src/pkg/scripts/train/plot_callback.py"
    assert _rules(path, source) == {"torch.device-string"}
    assert _layers(path, source)["vendor-path"] == 2


def test_loss_with_autocast_off_on_cuda_is_vendor_path() -> None:
    # model/smg/smg.py (sampled, already right): a loss leaves mixed precision for the
    # CUDA device type by name.
    source = b"""\
import torch
import torch.nn.functional as F


def voicing_loss(logits, target):
    with torch.autocast(device_type="cuda", enabled=False):
        return F.binary_cross_entropy_with_logits(logits.float(), target.float())
"""
    path = "src/pkg/model/speech/losses.py"
    assert _rules(path, source) == {"torch.device-string"}
    assert _layers(path, source)["vendor-path"] == 1


def test_device_following_model_code_is_portable() -> None:
    # model/voice/sive/sive.py (sampled, already right): every tensor is made on the device
    # of its input; bf16 named in comments only.
    source = b"""\
import torch


def padding_mask(features, lengths):
    # keep the mask in the input's dtype family so bf16 runs do not upcast
    width = features.shape[-1]
    steps = torch.arange(width, device=features.device).unsqueeze(0)
    return steps >= lengths.unsqueeze(1)


def zero_loss(reference):
    return torch.zeros((), device=reference.device)
"""
    path = "src/pkg/model/voice/encoder.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_diagnostics_script_querying_nvidia_smi_is_vendor_path() -> None:
    # sivenv.sh (a non-portable file, already right; commit 6aed8a62 adding it fails the
    # gate, rightly): a helper prints the cards' memory with nvidia-smi.
    source = b"""\
#!/bin/sh
case "$1" in
  mem)
    nvidia-smi --query-gpu=index,memory.used,memory.total --format=csv,noheader ;;
  disk)
    df -h . ;;
esac
"""
    path = "envtools.sh"
    assert _rules(path, source) == {"build.nvcc"}
    assert _layers(path, source)["vendor-path"] == 1


def test_cudnn_benchmark_flag_is_vendor_path() -> None:
    # utils/megatransformer_utils.py (commit 39a54947, gate failing rightly): an option turns
    # cuDNN's autotuner on.
    source = b"""\
import torch


def apply_flags(args):
    if args.cudnn_benchmark:
        torch.backends.cudnn.benchmark = True
"""
    path = "src/pkg/utils/flags.py"
    assert _rules(path, source) == {"torch.backends-cuda"}
    assert _layers(path, source)["vendor-path"] == 1


# -- pthomain/PolarShader: fixed-point LED "shaders" on microcontrollers ----------------------


def test_fixed_point_led_pattern_named_after_shadertoy_is_portable() -> None:
    # src/renderer/pipeline/patterns/src/ShaderToyRgbPatterns.cpp (a GPU-looking file,
    # already right): ShaderToy effects re-done in Q16 integer maths on the CPU of a board.
    source = b"""\
#include "renderer/pipeline/maths/ShaderMaths.h"

namespace LedShader {
    namespace {
        constexpr int32_t Q16_HALF = 0x00008000;
    }

    uint32_t ringPattern(int32_t u, int32_t v, uint32_t tQ16) {
        int32_t d = q16_length(u - Q16_HALF, v - Q16_HALF);
        int32_t wave = q16_sin(d * 12 - (int32_t)tQ16);
        return rgb_from_q16(wave, d, Q16_HALF);
    }
}
"""
    path = "src/renderer/pipeline/patterns/src/RingPatterns.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_python_string_patching_in_a_three_js_shader_material_is_kernel() -> None:
    # web/build_site.py (an extra kernel file: right layer, count over; see the report): a
    # site builder keeps a JS helper, a line a literal, whose ShaderMaterial holds GLSL.
    source = b"""\
LED_MATERIAL = (
    "  makeMaterial(color) {\\n"
    "    const uniforms = { tint: { value: new THREE.Color(color) } };\\n"
    "    return new THREE.ShaderMaterial({\\n"
    "      uniforms,\\n"
    "      vertexShader: `\\n"
    "        varying vec2 vUv;\\n"
    "        void main() {\\n"
    "          vUv = uv;\\n"
    "          gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);\\n"
    "        }\\n"
    "      `,\\n"
    "    });\\n"
    "  }\\n"
)
"""
    path = "web/build_site.py"
    assert _rules(path, source) == {"vulkan.glsl-string"}
    assert "kernel" in _layers(path, source)


# -- jaxernst/lasso-rpc: an Elixir RPC router --------------------------------------------------


def test_elixir_routing_kernel_bench_and_vm_args_are_portable() -> None:
    # bench/routing_kernel/diagnostic.exs and rel/vm.args.eex (GPU-looking files, already
    # right): "kernel" is the router's selection core and the Erlang kernel application.
    bench = b"""\
Code.require_file("lib/selection_core_bench.ex", __DIR__)

Router.Bench.SelectionCore.main(System.argv())
"""
    assert _rules("bench/selection_core/run.exs", bench) == set()
    args = b"""\
-name <%= @release.name %>@127.0.0.1
-kernel net_ticktime 60
-kernel dist_auto_connect once
"""
    assert _rules("rel/vm.args.eex", args) == set()
    assert "vendor-path" not in _layers("rel/vm.args.eex", args)


# -- ludia8888/Icon-Blaster: a FastAPI ontology back end ---------------------------------------


def test_audit_event_device_vendor_fields_are_portable() -> None:
    # SPICE HARVESTER's audit service (commit 45d231b8, passing rightly): CEF log fields
    # name the "device" that logged the event, not a compute device.
    source = b"""\
from pydantic import BaseModel, Field


class CefEvent(BaseModel):
    device_vendor: str = Field(default="Ontology", description="vendor of the logger")
    device_product: str = Field(default="Audit", description="product of the logger")

    def header(self, sig: str) -> str:
        return f"CEF:0|{self.device_vendor}|{self.device_product}|1.0|{sig}"
"""
    path = "backend/audit/models.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
