"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-z).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 176-182. Two were skipped: AnhTranHarris/gold-MUWHAHA-miner
(180) and suachong/rocm-systems (182) had no snapshot to fetch. Read were
DKorolski/moex-trading-gateway-rs (a Rust trading gateway for the Moscow exchange with
Python and shell stage-gate scripts, no GPU code), ai-lab-tech/triton-control (a FastAPI and
Angular control panel that deploys NVIDIA Triton Inference Server on Kubernetes: NGC image
defaults, nvidia.com/gpu limits, copies of Triton's model_config.proto, a code-server
extension), ngageoint/opensphere-desktop (a Java geospatial desktop on JOGL, with GLSL and Cg
shader resources), hirofumi0810/tensorflow_end2end_speech_recognition (TensorFlow 1 CTC and
attention speech models with run scripts that put CUDA 8 on the path) and
draem0507/commontemplate (a Java template engine, no GPU code). Fifteen files of each
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

# -- ai-lab-tech/triton-control: NGC image defaults and GPU limits written from code ---------


def test_angular_form_defaulting_to_an_ngc_image_is_vendor_path() -> None:
    # triton-frontend/src/app/pages/development/development-page.component.ts (portable
    # before): the workspace form starts with NVIDIA's Triton image from nvcr.io, so the pod it
    # creates only runs where NVIDIA's stack is.
    source = b"""\
export class WorkspaceFormComponent {
  name = "workspace";
  image = "nvcr.io/nvidia/tritonserver:24.10-py3";
  cpus = 2;

  reset(): void {
    this.name = "workspace";
  }
}
"""
    path = "web/src/app/pages/workspace/workspace-form.component.ts"
    assert _rules(path, source) == {"image.cuda-tag-script"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 7}


def test_editor_extension_fallback_image_is_vendor_path() -> None:
    # code-server-extensions/triton-deploy/extension.js (portable before): the deploy command
    # takes the image from settings and falls back to an NGC Triton tag.
    source = b"""\
function initialValues(cfg) {
  return {
    image: cfg.get("serverImage") || "nvcr.io/nvidia/tritonserver:24.10-py3",
    bucket: cfg.get("bucket") || "",
  };
}
"""
    path = "extensions/deploy/extension.js"
    assert _rules(path, source) == {"image.cuda-tag-script"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 5}


def test_cuda_tagged_image_in_go_is_vendor_path_and_a_plain_one_is_not() -> None:
    source = b"""\
package launch

const gpuImage = "pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime"
const cpuImage = "python:3.12-slim"
const note = "pick a cuda12 image for GPU nodes"
"""
    path = "internal/launch/images.go"
    assert _rules(path, source) == {"image.cuda-tag-script"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


def test_manifest_text_with_the_nvidia_gpu_limit_key_is_vendor_path() -> None:
    # triton-backend/app/services/deployment/kubernetes.py (portable before): the Deployment is
    # written as YAML text line by line, the GPU limit as an f-string holding the resource key.
    source = b"""\
def resources_block(cpu, gpus):
    lines = ["          resources:", "            limits:"]
    if cpu:
        lines.append(f'              cpu: "{cpu}"')
    if gpus:
        lines.append(f'              nvidia.com/gpu: "{gpus}"')
    return "\\n".join(lines) + "\\n"
"""
    path = "backend/app/services/deploy/manifest.py"
    assert _rules(path, source) == {"k8s.nvidia-gpu-resource-string"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 6}


def test_node_label_text_is_no_gpu_request() -> None:
    # The same text form naming a node label, not the resource: no request for NVIDIA GPUs.
    source = b"""\
def selector_block(product):
    return [f'        nvidia.com/gpu.product: "{product}"']
"""
    path = "backend/app/services/deploy/selector.py"
    assert _rules(path, source) == set()


def test_python_schema_default_ngc_image_stays_vendor_path() -> None:
    # triton-backend/app/schemas/development.py (vendor-path before and after): a request model
    # whose image field defaults to the NGC Triton image.
    source = b"""\
from sqlmodel import SQLModel

class CreateWorkspace(SQLModel):
    name: str = "workspace"
    image: str = "nvcr.io/nvidia/tritonserver:24.10-py3"
"""
    path = "backend/app/schemas/workspace.py"
    assert _rules(path, source) == {"image.cuda-tag-python"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 3}


def test_triton_model_config_schema_copy_is_portable() -> None:
    # triton-backend/protobuff/r24.12/model_config.proto (portable, right): Triton's model
    # configuration schema names KIND_GPU and gpu indices as data, no device code or call.
    source = b"""\
syntax = "proto3";
package inference;

message ModelInstanceGroup {
  enum Kind {
    KIND_AUTO = 0;
    KIND_GPU = 1;
    KIND_CPU = 2;
  }
  string name = 1;
  Kind kind = 4;
  int32 count = 2;
  repeated int32 gpus = 3;
}
"""
    path = "backend/protobuff/r24.10/model_config.proto"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- hirofumi0810/tensorflow_end2end_speech_recognition: TF1 towers, cuDNN RNN, run scripts --


def test_run_script_putting_cuda_on_the_path_is_vendor_path() -> None:
    # examples/*/training/run_ctc.sh (vendor-path before, right): the CUDA 8 toolkit's bin and
    # lib64 on the paths, then the trainer pinned to a GPU with CUDA_VISIBLE_DEVICES.
    source = b"""\
#!/bin/bash
gpu=$2
export PATH=$PATH:/usr/local/cuda-9.0/bin
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda-9.0/lib64
CUDA_VISIBLE_DEVICES=$gpu nohup python train.py "$1" > log/train.log &
"""
    path = "recipes/wsj/train/run.sh"
    assert _rules(path, source) == {"build.nvcc", "env.cuda-variables"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 1}


def test_tf_contrib_cudnn_lstm_is_vendor_library() -> None:
    # models/encoders/core/blstm.py (vendor-library before, right): the cuDNN-fused LSTM from
    # tf.contrib.cudnn_rnn, a cuDNN call a port maps to MIOpen or a generic LSTM.
    source = b"""\
import tensorflow as tf

def fused_lstm(units, layers, inputs):
    cell = tf.contrib.cudnn_rnn.CudnnLSTM(
        num_layers=layers,
        num_units=units,
        input_size=inputs.shape[-1])
    return cell
"""
    path = "models/encoders/fused.py"
    assert _rules(path, source) == {"tensorflow.cudnn-rnn"}
    assert "vendor-library" in _layers(path, source)
    assert "kernel" not in _layers(path, source)


def test_tf1_tower_loop_over_gpu_devices_is_portable() -> None:
    # examples/*/training/train_*.py (portable, right): TensorFlow's '/gpu:N' names whatever
    # GPU the build supports (ROCm builds answer them too); the towers average gradients.
    source = b"""\
import tensorflow as tf

def build_towers(model, n_gpu):
    grads = []
    with tf.Graph().as_default(), tf.device('/cpu:0'):
        devices = ['/gpu:%d' % i for i in range(n_gpu)]
        for i, dev in enumerate(devices):
            with tf.device(dev), tf.name_scope('tower_gpu%d' % i):
                grads.append(model.compute_gradients())
    return grads
"""
    path = "recipes/wsj/train/train_ctc.py"
    assert _layers(path, source) == {"portable": 9}


# -- ngageoint/opensphere-desktop: GLSL and Cg resources of a JOGL pipeline -----------------


def test_glsl_resource_fragment_function_is_kernel_whole() -> None:
    # mantle/src/main/resources/GLSL/*.glsl (kernel, counts matched by hand): a fragment
    # function linked into the tile shader at run time, comments left out of the count.
    source = b"""\
// Raise the colour towards white, keep alpha.
uniform float uAmount;

vec4 getFragColor(sampler2D tex)
{
    vec4 c = texture2D(tex, gl_TexCoord[0].xy);
    c.rgb = clamp(c.rgb + vec3(uAmount), 0.0, 1.0);
    return c;
}
"""
    path = "core/src/main/resources/GLSL/Lighten.glsl"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 7}


def test_cg_shader_resource_is_kernel() -> None:
    # core/src/main/resources/CG/TileFrag.cg (kernel, right): NVIDIA Cg fragment programs.
    source = b"""\
// Input to the fragment program.
struct FragIn
{
   float4 color : COLOR0;
   float2 uv : TEXCOORD0;
};

float4 DRAW(FragIn f, uniform sampler2D tex) : COLOR
{
   return tex2D(tex, f.uv) * f.color;
}
"""
    path = "core/src/main/resources/CG/Tile.cg"
    assert _rules(path, source) == {"hlsl.shader-file"}
    assert _layers(path, source) == {"kernel": 9}


def test_jogl_host_code_picking_memory_queries_per_vendor_is_portable() -> None:
    # core/.../GPUMemoryHelper.java (portable, right): OpenGL host code that reads NVX or ATI
    # memory-info extensions when present and falls back otherwise.
    source = b"""\
public final class VideoMemory
{
    public static long available(GL gl, boolean nvx, boolean ati)
    {
        int[] kb = new int[4];
        if (nvx)
        {
            gl.glGetIntegerv(0x9049, kb, 0);
        }
        else if (ati)
        {
            gl.glGetIntegerv(0x87FC, kb, 0);
        }
        return kb[0] * 1024L;
    }
}
"""
    path = "core/src/main/java/org/example/pipeline/VideoMemory.java"
    assert _layers(path, source) == {"portable": 16}


# -- DKorolski/moex-trading-gateway-rs: an OS kernel word is no GPU kernel -------------------


def test_durable_journal_fsync_notes_are_portable() -> None:
    # crates/runtime-durable-service/src/lib.rs (portable, right): "kernel" is the OS page
    # cache the journal flushes through, not device code.
    source = b"""\
use std::fs::File;

/// Flush the journal so the kernel page cache cannot lose an acknowledged write.
pub fn seal(file: &File) -> std::io::Result<()> {
    file.sync_all()
}
"""
    path = "crates/journal/src/lib.rs"
    assert _layers(path, source) == {"portable": 4}
