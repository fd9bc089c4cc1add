"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h55-random-h).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 246-252. None was skipped: all seven had a snapshot. Read
were Ortolang/diffusion (the Java EE back end of a French language-resources repository: REST
API, indexing, OAI-PMH, no GPU code), mineral-ui/mineral-ui (a React component library and its
documentation site, no GPU code), iip-ecosphere/platform (an industrial IoT platform in Java
with Python service bindings: one metrics module asks JCuda's driver API and nvidia-smi for the
GPU count), princupy/Hima (a Discord music bot in JavaScript, no GPU code),
AlexFerence/StudyBuddyPlannerFrontend (a React study planner, no GPU code),
ActiveInferenceInstitute/GeneralizedNotationNotation (a Python pipeline that renders a model
notation into PyMDP, RxInfer, JAX and PyTorch simulations: device detection by nvidia-smi and
torch.cuda, Julia manifests with CUDA weak dependencies) and quic/efficient-transformers
(Qualcomm's library exporting Hugging Face models to ONNX and compiling and running them on
Cloud AI 100 cards: the qaicrt runtime, the torch_qaic plug-in, the SDK's tools under
/opt/qti-aic, a C++ runner on the runtime's API and a custom-op template with an AIC kernel).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up to
20) and GPU-looking files it calls portable (up to 10) checked apart, files outside the sample
that hold kernel lines counted by hand, and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- quic/efficient-transformers: Qualcomm Cloud AI 100 (QAIC) tooling ------------------------


def test_qaic_sdk_tool_run_from_python_is_vendor_path() -> None:
    # QEfficient/utils/device_utils.py (portable before): the device count comes from running
    # the SDK's qaic-util out of /opt/qti-aic, as nvidia-smi is run for NVIDIA cards.
    source = b"""\
import subprocess

def ready_cards():
    cmd = ["/opt/qti-aic/tools/qaic-util", "-q"]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if "Status:Ready" in line)
"""
    path = "pkg/utils/cards.py"
    assert _rules(path, source) == {"qaic.sdk-tool"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 4}


def test_qaic_compiler_command_list_is_vendor_path() -> None:
    # QEfficient/compile/compile_helper.py and utils/constants.py (portable before): the
    # compiler's command line starts from the SDK's qaic-compile binary.
    source = b"""\
COMPILER = ["/opt/qti-aic/exec/qaic-compile", "-aic-hw"]

def build_cmd(onnx_path, out_dir, cores):
    return COMPILER + [f"-m={onnx_path}", f"-aic-num-cores={cores}", f"-aic-binary-dir={out_dir}"]
"""
    path = "pkg/compile/helper.py"
    assert _rules(path, source) == {"qaic.sdk-tool"}
    assert _layers(path, source)["vendor-path"] == 1


def test_docstrings_naming_the_qaic_compiler_stay_portable() -> None:
    # QEfficient/transformers/models/modeling_auto.py (a GPU-looking file, right after the new
    # rule): the library's own compile() documents the compiler's flags; its callers pass
    # them to the library, not to the tool.
    source = b'''\
def compile(self, onnx_path=None, num_cores=16, **compiler_options):
    """Compile the exported graph.

    Any option qaic-compile accepts may be given, e.g. aic_enable_depth_first=True;
    the SDK is expected under /opt/qti-aic.
    """
    raise RuntimeError("run qaic-compile with -mdp-dump-partition-config first")
'''
    path = "pkg/models/auto.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_library_api_calls_with_qaic_options_stay_portable() -> None:
    # examples/dynamo/causal_lm/basic_dynamo_inference.py and scripts/debug/*_parity.py
    # (sampled, portable, right): examples call the project's own compile/generate API; the
    # vendor calls live in the library modules that the rules flag.
    source = b"""\
from mylib import AutoModelForCausalLM

model = AutoModelForCausalLM.from_pretrained(name)
qpc_path = model.compile(prefill_seq_len=32, ctx_len=128, num_cores=16, aic_hw_version="ai100")
model.generate(prompts=["hello"], device_id=[0])
"""
    path = "examples/causal_lm/infer.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_torch_qaic_import_and_device_string_stay_vendor_path() -> None:
    # scripts/finetune/run_ft_model.py (sampled, vendor-path, right): the plug-in import and
    # a qaic device, with CUDA as the fallback.
    source = b"""\
import torch
try:
    import torch_qaic  # noqa: F401
    device = "qaic:0"
except ImportError:
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
model.to(device)
"""
    path = "scripts/tune/run.py"
    assert {"qaic.torch-plugin", "qaic.device-string"} <= _rules(path, source)
    assert "vendor-path" in _layers(path, source)


def test_qaic_runtime_cpp_runner_is_vendor_path() -> None:
    # examples/performance/cpp_execution/InferenceSetIOBuffer.cpp (portable before): a host
    # program loading a compiled program through the runtime's C++ classes.
    source = b"""\
#include "/opt/qti-aic/dev/inc/QAicApi.hpp"
#include <vector>

int infer(const std::string &qpc, std::vector<QID> &devices) {
    auto context = qaic::rt::Context::Factory(nullptr, devices);
    auto program = qaic::rt::Qpc::Factory(qpc);
    int answer = 0;
    return answer;
}
"""
    path = "examples/cpp/runner.cpp"
    assert _rules(path, source) == {"qaic.runtime-cpp"}
    layers = _layers(path, source)
    assert layers["vendor-path"] == 3
    assert "kernel" not in layers


def test_cmake_taking_headers_from_the_qaic_sdk_is_vendor_path() -> None:
    # examples/performance/cpp_execution/CMakeLists.txt (portable before).
    source = b"""\
cmake_minimum_required(VERSION 3.15)
project(runner CXX)
include_directories("/opt/qti-aic/dev/inc")
add_executable(runner runner.cpp)
"""
    path = "examples/cpp/CMakeLists.txt"
    assert _rules(path, source) == {"qaic.sdk-build"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


def test_aic_custom_op_implementation_is_kernel() -> None:
    # examples/onboarding_guide/customop/CustomGELU/src/customgelu_aic.cpp (outside the
    # sample, portable before; hand 9, lockin 9 after): the AIC back end of a custom op,
    # compiled for the card's cores and entered once per AIC thread.
    source = b"""\
#include "CustomOpAICInterface.h"
#include "stddef.h"

extern "C" {
/* called by each AIC thread with its id */
void SoftSignAIC(const CustomOpContext *ctx, const int32_t threadId)
{
    softsign_part(ctx, threadId);
}
}
"""
    path = "ops/SoftSign/src/softsign_aic.cpp"
    assert _rules(path, source) == {"qaic.nsp-kernel"}
    assert _layers(path, source) == {"kernel": 8}


def test_custom_op_interpreter_on_qaic_headers_is_vendor_path() -> None:
    # customgelu_interpreter.cpp (portable before): the host reference of the op, written
    # against the Qualcomm compiler's interpreter interface.
    source = b"""\
#include "CustomOpInterpreterInterface.h"

extern "C" {
void SoftSignInterpreter(CustomOpContext *ctx)
{
    softsign_reference(ctx);
}
}
"""
    path = "ops/SoftSign/src/softsign_interpreter.cpp"
    assert _rules(path, source) == {"qaic.runtime-cpp"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 6}


# -- iip-ecosphere/platform: GPU count by JCuda and nvidia-smi --------------------------------


def test_jcuda_driver_device_query_is_vendor_path() -> None:
    # support.dfltSysMetrics/.../DefaultSystemMetrics.java (non-portable, right).
    source = b"""\
import jcuda.driver.CUdevice;
import jcuda.driver.JCudaDriver;

public class GpuCount {
    public int cores() {
        JCudaDriver.setExceptionsEnabled(true);
        JCudaDriver.cuInit(0);
        CUdevice dev = new CUdevice();
        JCudaDriver.cuDeviceGet(dev, 0);
        return 1;
    }
}
"""
    path = "metrics/src/main/java/org/example/GpuCount.java"
    assert "cuda.jcuda" in _rules(path, source)
    assert "vendor-path" in _layers(path, source)


def test_nvidia_smi_run_from_java_is_vendor_path() -> None:
    # support.sysMetrics.bitmotec/.../BitmotecSystemMetrics.java (non-portable, right).
    source = b"""\
public class BoardMetrics {
    public int gpus() {
        String out = Shell.capture("", "nvidia-smi", "--list-gpus").trim();
        return out.isEmpty() ? 0 : out.split("\\n").length;
    }
}
"""
    path = "metrics/src/main/java/org/example/BoardMetrics.java"
    assert _rules(path, source) == {"cuda.tool-call"}
    assert _layers(path, source)["vendor-path"] == 1


def test_gpu_core_count_in_a_test_stays_portable() -> None:
    # .../DefaultSystemMetricsTest.java (GPU-looking, portable, right).
    source = b"""\
public class MetricsTest {
    @Test
    public void counts() {
        int gpuNum = metrics.getNumGpuCores();
        Assert.assertTrue(gpuNum >= 0);
        System.out.println("#GPU: " + gpuNum);
    }
}
"""
    path = "metrics/src/test/java/org/example/MetricsTest.java"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- ActiveInferenceInstitute/GeneralizedNotationNotation ------------------------------------


def test_hasattr_probe_for_torch_cuda_beside_jax_is_portable() -> None:
    # src/ml_integration/__init__.py (non-portable before: jax.cuda-platform on the attribute
    # name): a report of installed frameworks; nothing chooses a device.
    source = b"""\
def frameworks():
    found = {}
    import torch
    found["torch"] = {"version": torch.__version__,
                      "gpu": torch.cuda.is_available() if hasattr(torch, "cuda") else False}
    import jax
    found["jax"] = {"version": jax.__version__}
    return found
"""
    path = "src/integrations/__init__.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_nvidia_smi_accelerator_detection_stays_vendor_path() -> None:
    # src/execute/processor.py (non-portable, right): the run's metadata records the
    # accelerator found by looking for nvidia-smi.
    source = b"""\
import shutil
import sys

def accelerator():
    if shutil.which("nvidia-smi") is not None:
        return "cuda"
    if sys.platform == "darwin":
        return "mps"
    return "cpu"
"""
    path = "src/run/processor.py"
    assert "cuda.tool-call" in _rules(path, source)
    assert "vendor-path" in _layers(path, source)


def test_julia_manifest_cuda_weak_dependency_is_portable() -> None:
    # doc/rxinfer/.../Manifest.toml (GPU-looking, portable, right): a resolved package's
    # optional CUDA extension, never installed by this environment.
    source = b"""\
[[deps.ArrayTools]]
git-tree-sha1 = "0123456789abcdef0123456789abcdef01234567"
uuid = "4fba245c-0d91-5ea0-9b3e-6abc04ee57a9"
version = "7.1.0"

    [deps.ArrayTools.extensions]
    ArrayToolsCUDAExt = "CUDA"

    [deps.ArrayTools.weakdeps]
    CUDA = "052768ef-5323-5732-b1bb-66c8b64840ba"
"""
    path = "doc/planning/Manifest.toml"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- Ortolang/diffusion, mineral-ui, Hima, StudyBuddyPlannerFrontend: no GPU code ----------------


def test_react_component_stays_portable() -> None:
    # mineral-ui src/library/... and StudyBuddyPlannerFrontend src/components/... (sampled,
    # portable, right).
    source = b"""\
import React from 'react';

export default function Overlay({ locked, children }) {
  if (!locked) return children;
  return <div className="overlay">{children}</div>;
}
"""
    path = "src/components/shared/Overlay.js"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
