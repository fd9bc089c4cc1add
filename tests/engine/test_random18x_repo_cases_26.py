"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-x).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 162-168. One was skipped: Timoduor/SBSL-File-Transformer
(165) had no snapshot to fetch. Read were K-Cheddar/worship-sync (a church presentation app:
React and TypeScript client, Electron display windows, a Node server; no GPU code),
TritonDataCenter/sdcboot (the FreeDOS boot floppy of SmartOS: DOS C, 16-bit assembly and
makefiles, where "kernel" is FreeDOS's own), EasyCloudService/cloud-old (a Minecraft server
cloud in Java with Maven), tethysplatform/tethys (a Django platform for water-resources web
apps, with a Cesium map whose WebXR mode borrows Cesium's WebGL context),
darianrosebrook/kokoro-onnx-raycast-api (a Kokoro text-to-speech server for a Raycast
extension: once ONNX Runtime with the Core ML provider, now kokoro-mlx on Apple Silicon) and
jmjlbmn/huiche (a Querydsl data-access framework in Java). No blob was missing. Fifteen files
of each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts and labelled before any fix, with the files lockin calls non-portable (up to 20) and
GPU-looking files it calls portable (up to 10) checked apart, files outside the sample that
hold kernel lines counted by hand (none here), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Every sampled
verdict was right; the two Core ML rules below come from reading kokoro-onnx-raycast-api's
earlier Core ML provider module (its history, outside the sample), whose option tables
lockin did not see. Each snippet is a small rewrite, in our own words, of a pattern found in
the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- darianrosebrook/kokoro-onnx-raycast-api: Core ML through ONNX Runtime, then MLX ---------


def test_benchmark_trying_coreml_alone_when_offered_is_vendor_path() -> None:
    # scripts/quantize_model.py (sampled; right before): a provider A/B benchmark that tries
    # Core ML on its own when the build offers it, then the CPU.
    source = b"""\
import onnxruntime as ort


def candidates():
    found = ort.get_available_providers()
    runs = []
    if "CoreMLExecutionProvider" in found:
        runs.append(["CoreMLExecutionProvider"])
    runs.append(["CPUExecutionProvider"])
    return runs
"""
    path = "tools/quantise.py"
    assert _rules(path, source) == {"onnxruntime.coreml-provider"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 6}


def test_coreml_option_table_is_vendor_path() -> None:
    # api/model/providers/coreml.py (in the repository's history, outside the sample; portable
    # but for one `import CoreML` before): per-chip tables of the Core ML provider's options,
    # built in a helper far from the provider's name. The keys only Core ML reads are
    # vendor-path; ModelFormat, a name too common to claim, is left to the lines around it.
    source = b"""\
def options_for(chip):
    if chip.neural_engine_cores >= 16:
        return {
            "MLComputeUnits": "CPUAndNeuralEngine",
            "ModelFormat": "MLProgram",
            "RequireStaticInputShapes": "0",
            "EnableOnSubgraphs": "0",
        }
    return {"MLComputeUnits": "CPUAndGPU", "ModelFormat": "MLProgram"}
"""
    path = "api/providers/apple.py"
    assert _rules(path, source) == {"onnxruntime.coreml-provider-option"}
    assert _layers(path, source) == {"vendor-path": 4, "portable": 5}


def test_coreml_option_named_in_a_message_stays_portable() -> None:
    # The same module logs which setting it picked: the option's name inside a longer
    # message is text, not an option given to the provider.
    source = b"""\
import logging

log = logging.getLogger(__name__)


def report(choice):
    log.info("picked MLComputeUnits=%s after the benchmark", choice)
"""
    path = "api/providers/apple.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 4}


def test_coreml_provider_through_the_c_api_is_vendor_path() -> None:
    # The C API twin of the Python provider code (coreml_provider_factory.h): a flag mask
    # naming Apple's Neural Engine and the append call are vendor-path; the session is not.
    source = b"""\
#include <onnxruntime_cxx_api.h>
#include <coreml_provider_factory.h>

Ort::Session open_session(Ort::Env& env, const char* model) {
  Ort::SessionOptions options;
  uint32_t mask = COREML_FLAG_ONLY_ENABLE_DEVICE_WITH_ANE;
  Ort::ThrowOnError(OrtSessionOptionsAppendExecutionProvider_CoreML(options, mask));
  return Ort::Session(env, model, options);
}
"""
    path = "native/session.cpp"
    assert _rules(path, source) == {"onnxruntime.coreml-provider-api"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 6}


def test_mlx_tts_backend_stays_portable() -> None:
    # api/tts.py and scripts/check_environment.py (GPU-looking, right before): kokoro-mlx on
    # one worker thread, MLX's default device printed. MLX builds for CUDA too; nothing here
    # names Metal's own API.
    source = b"""\
import concurrent.futures

import mlx.core as mx
from kokoro_mlx import KokoroTTS

_worker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="mlx")


def load(model_id):
    print("default device:", mx.default_device())
    return _worker.submit(KokoroTTS.from_pretrained, model_id).result()
"""
    path = "api/tts.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


def test_setup_script_checking_for_apple_silicon_stays_portable() -> None:
    # setup.sh (GPU-looking, right before): an arm64 check and echoed help naming the
    # provider an environment variable may force; the script configures nothing itself.
    source = b"""\
#!/bin/bash
if [[ "$(uname -s)" == "Darwin" && "$(uname -m)" == "arm64" ]]; then
  echo "Apple Silicon found: enabling the ORT graph cache"
  mkdir -p .cache/ort
fi
echo "  ONNX_PROVIDER  force a provider (CoreMLExecutionProvider or CPUExecutionProvider)"
"""
    path = "setup.sh"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 5}


# -- tethysplatform/tethys: a Cesium map's WebXR mode -----------------------------------------


def test_webxr_layer_on_cesium_webgl_context_stays_portable() -> None:
    # tethys_layouts/static/.../map_layout_cesium.js (GPU-looking, right before): WebXR is
    # handed the WebGL context Cesium already made. WebGL host code ports as it is.
    source = b"""\
function attachXr(session, viewer) {
  const gl = viewer.scene.context._gl;
  const painter = new Renderer(gl);
  xrScene.setRenderer(painter);
  session.updateRenderState({
    baseLayer: new XRWebGLLayer(session, viewer.scene.context._originalGLContext),
  });
}
"""
    path = "static/map/cesium_xr.js"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 8}


# -- TritonDataCenter/sdcboot: FreeDOS, whose kernel is an operating system's ----------------


def test_dos_kernel_configuration_header_stays_portable() -> None:
    # freedos/source/kernel/hdr/kconfig.h and sys/fdkrncfg.c (GPU-looking by the word
    # "kernel", right before): a DOS kernel's boot options, no device code of any GPU.
    source = b"""\
typedef struct {
  char signature[8];
  unsigned char skip_config;
  unsigned char boot_drive;
  signed char verbose;
} KernelOptions;

extern KernelOptions kernel_options;
"""
    path = "freedos/kernel/hdr/kopts.h"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


def test_network_card_driver_in_assembly_stays_portable() -> None:
    # freedos/source/amdpcnet/pcntpk.asm (sampled, right before): a packet driver for AMD's
    # PCnet Ethernet chips. The vendor is AMD, the device is not a GPU.
    source = b"""\
; read a PCnet control register through the I/O ports
read_csr:
        mov     dx, [io_base]
        add     dx, 12h
        out     dx, ax
        sub     dx, 2
        in      ax, dx
        ret
"""
    path = "freedos/amdpcnet/csr.asm"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 7}


# -- EasyCloudService/cloud-old, jmjlbmn/huiche, K-Cheddar/worship-sync: no GPU code ----------


def test_java_service_command_stays_portable() -> None:
    # easycloud-base/.../ServiceCommand.java (sampled, right before): a console command that
    # stops a game-server service by id.
    source = b"""\
public final class StopCommand extends CloudCommand {
    @Override
    protected void execute(String[] args) {
        services().stream()
            .filter(s -> s.getId().equalsIgnoreCase(args[1]))
            .findFirst()
            .ifPresent(s -> services().stop(s.getId()));
    }
}
"""
    path = "base/src/main/java/cloud/StopCommand.java"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 9}


def test_electron_display_typings_stay_portable() -> None:
    # client/custom.d.ts (sampled, right before): the Electron bridge's display types a
    # presentation window reads; a "display" is a monitor, not a GPU.
    source = b"""\
interface Monitor {
  id: number;
  bounds: { x: number; y: number; width: number; height: number };
  scaleFactor: number;
}

interface Window {
  electronAPI?: { listMonitors(): Promise<Monitor[]> };
}
"""
    path = "client/custom.d.ts"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 8}
