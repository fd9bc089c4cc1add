"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-j).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 73-80 and every one had a snapshot, so none was skipped:
pytorch/botorch (Bayesian optimisation on PyTorch), TU-Clausthal-Rendering/Mufflon (a CUDA,
OpenGL and CPU renderer), Shad107/gpu-dashboard (a monitoring dashboard for NVIDIA GPUs),
ConorFWild/pandda_2_gemmi (crystallography), Mintplex-Labs/anything-llm (an LLM chat
application), OnionKnight85707/bit-quantization (a Java trading back end),
tensorflow/tfx (ML pipelines) and screamkface/ClinDiary-Gemma4Good (a Flutter app). Four
snapshots lack a few large blobs (binaries, data files); their clones were checked out without
them. Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over
every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart, and
three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- Shad107/gpu-dashboard: a log line that names nvidia-smi is no call of it ---------------


def test_watchdog_log_line_naming_the_tool_is_not_a_build_step() -> None:
    # scripts/install-oculink-watchdog.sh: the installer writes a watchdog through a
    # here-document; it polls nvidia-smi (a call) and logs "nvidia-smi not responding" (not).
    source = b"""\
#!/usr/bin/env bash
write_watchdog() {
  cat <<EOF2
while true; do
  if timeout 5 nvidia-smi -q -d PIDS >/dev/null 2>&1; then
    echo "\\$(date) gpu up" >> "\\$LOG"
  else
    echo "\\$(date) link down: nvidia-smi not responding" >> "\\$LOG"
  fi
  sleep 10
done
EOF2
}
"""
    assert _rules("scripts/install-watchdog.sh", source) == {"build.nvcc"}
    assert _layers("scripts/install-watchdog.sh", source) == {"vendor-path": 1, "portable": 11}


def test_echo_writing_the_tool_into_a_boot_script_still_counts() -> None:
    # The same scripts' clock-lock wrapper: a command written into a file that will run it.
    source = b"""\
#!/bin/sh
echo "nvidia-smi -pm 1" >> /etc/rc.local
echo "persistence mode will be set at boot"
"""
    assert _rules("scripts/install-persist.sh", source) == {"build.nvcc"}
    assert _layers("scripts/install-persist.sh", source) == {"vendor-path": 1, "portable": 1}


def test_wrapper_script_in_a_string_that_execs_the_tool_is_vendor_path() -> None:
    # src/gpu_dashboard/install.py: a function returns the sudo wrapper it installs, a bash
    # script that checks its argument and hands the process over to nvidia-smi with exec.
    source = b"""\
def limit_wrapper() -> str:
    return \"\"\"#!/usr/bin/env bash
set -e
W="$1"
exec /usr/bin/nvidia-smi -pl "$W"
\"\"\"


def unit_text(name: str) -> str:
    return f"[Service]\\nExecStart=/usr/local/bin/{name}\\n"
"""
    assert _rules("gpu_tool/install.py", source) == {"cuda.tool-call"}
    assert _layers("gpu_tool/install.py", source) == {"vendor-path": 5, "portable": 3}


def test_reading_the_nvidia_driver_proc_files_is_vendor_path() -> None:
    # src/gpu_dashboard/modules/proc_deep_state.py and kmod_params.py: the modules read each
    # card's information file under the NVIDIA driver's procfs tree and its module parameters.
    source = b"""\
\"\"\"Diff what /proc/driver/nvidia/gpus says of each card between two runs.\"\"\"
import os

PROC_ROOT = "/proc/driver/nvidia/gpus"


def read_card(bdf: str) -> str:
    with open(f"{PROC_ROOT}/{bdf}/information") as fh:
        return fh.read()


def cards() -> list[str]:
    if not os.path.isdir(PROC_ROOT):
        log.info("/proc/driver/nvidia missing - is the module loaded?")
        return []
    return sorted(os.listdir(PROC_ROOT))
"""
    assert _rules("monitor/card_state.py", source) == {"cuda.driver-files"}
    assert _layers("monitor/card_state.py", source) == {"vendor-path": 1, "portable": 9}


def test_amd_driver_parameters_stay_out_of_the_nvidia_rule() -> None:
    # The same module's shape, pointed at amdgpu's parameters and KFD's node: no NVIDIA rule
    # reads them; KFD's node is AMD's own vendor path (hip.kfd-device-node, lane h47-random-p).
    source = b"""\
PARAMS = "/sys/module/amdgpu/parameters"
KFD = "/dev/kfd"


def param(name: str) -> str:
    return open(f"{PARAMS}/{name}").read().strip()
"""
    assert _rules("monitor/amd_params.py", source) == {"hip.kfd-device-node"}
    assert _layers("monitor/amd_params.py", source) == {"vendor-path": 1, "portable": 3}


# -- Verdicts that were already right ----------------------------------------------------------


def test_python_tests_feeding_fake_smi_output_stay_portable() -> None:
    # tests/test_cgroup_power.py: the module under test is patched to read canned pmon text.
    source = b"""\
from gpu_dashboard import api


def test_missing_tool_reports_unavailable(monkeypatch):
    monkeypatch.setattr(api.shutil, "which", lambda name: None)
    code, body = api.handle_power_split({})
    assert body["available"] is False


def test_idle_card_splits_by_memory(monkeypatch):
    rows = ["# gpu pid type sm mem command", "0 4242 C 0 12 llama"]
    monkeypatch.setattr(api, "_pmon_rows", lambda: rows)
    assert api.handle_power_split({})[1]["groups"][0]["pid"] == 4242
"""
    assert _rules("tests/test_power_split.py", source) == set()
    assert _layers("tests/test_power_split.py", source) == {"portable": 9}


def test_cuda_renderer_source_using_the_runtime_is_vendor_path() -> None:
    # TU-Clausthal-Rendering/Mufflon src/core/renderer/lt/gpu_lt.cpp: the CUDA renderer's host
    # side returns cudaError_t from its launcher and checks it.
    source = b"""\
#include "gpu_tracer.hpp"

namespace render {
cudaError_t launch_trace(Buffer<Device::CUDA>&& out, const Params& params);

void GpuTracer::iterate() {
    cuda::check_error(launch_trace(std::move(m_out), m_params));
}
} // namespace render
"""
    assert _rules("src/renderer/gpu_tracer.cpp", source) == {"cuda.runtime"}
    assert _layers("src/renderer/gpu_tracer.cpp", source) == {"vendor-path": 1, "portable": 6}


def test_explicit_instantiation_for_every_device_stays_portable() -> None:
    # Mufflon src/core/scene/lights/background.cpp: a member template instantiated once per
    # value of the renderer's own Device enum, CPU and CUDA alike, chooses no back end.
    source = b"""\
template < Device dev >
const SkyDesc<dev> Sky::acquire_const(const Box& bounds) {
    return SkyDesc<dev>{ m_color, bounds };
}

template const SkyDesc<Device::CPU> Sky::acquire_const<Device::CPU>(const Box&);
template const SkyDesc<Device::CUDA> Sky::acquire_const<Device::CUDA>(const Box&);
"""
    assert _rules("src/scene/sky.cpp", source) == set()
    assert _layers("src/scene/sky.cpp", source) == {"portable": 6}


def test_host_device_macro_functions_stay_portable() -> None:
    # Mufflon src/core/renderer/wireframe/wireframe_common.hpp: plain C++ math marked with the
    # project's CUDA_FUNCTION macro, which is empty outside nvcc.
    source = b"""\
#pragma once
#include "core/export/api.h"

inline CUDA_FUNCTION float dist_to_segment(const Vec3& a, const Vec3& b, const Vec3& p) {
    const Vec3 ab = b - a;
    const float t = clamp(dot(p - a, ab) / dot(ab, ab), 0.0f, 1.0f);
    return len(p - (a + t * ab));
}
"""
    assert _rules("src/renderer/segment.hpp", source) == set()
    assert _layers("src/renderer/segment.hpp", source) == {"portable": 7}


def test_glsl_fragment_shader_file_is_kernel_code() -> None:
    # Mufflon src/core/renderer/shader/sphere_fragment.glsl: an impostor sphere's fragments.
    source = b"""\
layout(location = 0) flat in vec3 in_center;
layout(location = 1) in vec3 in_pos;
layout(location = 0) out vec4 out_color;

// ray against the sphere in view space
void main() {
    vec3 d = normalize(in_pos);
    float b = dot(d, in_center);
    if(b < 0.0) discard;
    out_color = vec4(d * 0.5 + 0.5, 1.0);
}
"""
    assert _rules("src/renderer/shader/ball_fragment.glsl", source) == {"vulkan.shader-file"}
    assert _layers("src/renderer/shader/ball_fragment.glsl", source) == {"kernel": 9}


def test_msbuild_filters_cuda_items_are_vendor_path() -> None:
    # Mufflon project_files/core/core.vcxproj.filters: the .cu files sit in CudaCompile items.
    source = b"""\
<?xml version="1.0" encoding="utf-8"?>
<Project ToolsVersion="4.0" xmlns="http://schemas.microsoft.com/developer/msbuild/2003">
  <ItemGroup>
    <ClCompile Include="..\\src\\scene.cpp">
      <Filter>Source Files</Filter>
    </ClCompile>
  </ItemGroup>
  <ItemGroup>
    <CudaCompile Include="..\\src\\trace.cu">
      <Filter>Source Files\\cuda</Filter>
    </CudaCompile>
  </ItemGroup>
</Project>
"""
    assert _rules("project/core.vcxproj.filters", source) == {"build.msbuild-cuda"}
    assert _layers("project/core.vcxproj.filters", source) == {"vendor-path": 2, "portable": 11}


def test_cuda_if_available_else_cpu_device_is_vendor_path() -> None:
    # pytorch/botorch tutorials/*.ipynb: the tutorials' usual device line.
    source = b"""\
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
train_x = torch.rand(20, 2, device=device, dtype=torch.double)
"""
    assert _rules("tutorials/fit.py", source) == {"torch.device-string"}
    assert _layers("tutorials/fit.py", source) == {"vendor-path": 1, "portable": 2}


def test_flutter_gpu_backend_choice_stays_portable() -> None:
    # screamkface/ClinDiary-Gemma4Good apps/mobile/test/insights/gemma_center_screen_test.dart:
    # an on-device model runtime asked for its GPU back end, whichever vendor the phone has.
    source = b"""\
class FakeRuntime implements LocalRuntime {
  FakeRuntime({this.backend = PreferredBackend.gpu});

  final PreferredBackend backend;

  @override
  Future<String> reply(String prompt) async => 'ok';
}
"""
    assert _rules("test/fake_runtime_test.dart", source) == set()
    assert _layers("test/fake_runtime_test.dart", source) == {"portable": 6}
