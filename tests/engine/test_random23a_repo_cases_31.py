"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h58-rest-a).

The sub-pool is ``/work/pool-h58-rest.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")``, from its position 253 on, that hold NO GPU term (the
complement of ``/work/pool/h55_gpu_rule.py``, written in ``/work/pool/h58_rest_rule.py``), so
most are no GPU code at all. This lane took sub-pool positions 65-72 and skipped one:
begumervasahin/HumanLLMCodeCorpus (position 72) has no snapshot to fetch. Read were
zhangkai1989a/DeepSpeedExamples (a copy of Microsoft's DeepSpeed examples: training,
inference, compression and benchmark scripts in Python and shell, with Megatron's fused
kernels in its history), eyemono-moe/streets (a SolidJS Nostr client in TypeScript, no GPU
code), catid/cifar10deepspeed (CIFAR-10 vision-transformer experiments on DeepSpeed: a Triton
flash-attention and RMS-norm, a CUDA butterfly-multiply extension, NVIDIA DALI loading),
yanglinan01/OpenQiming-TrainInference (a Java/Spring and Vue LLM training and inference
platform that schedules its jobs on Huawei Ascend 910 NPUs through Kubernetes and Docker),
AnektrOn/neural-aegis-suite (a React/Supabase assessment app with a three.js scene, no GPU
vendor code), sheephess9527/quantized.uk (a Next.js site about quantised LLMs whose command
generator writes docker commands with ``--gpus all``) and hashemshaath/faneen (a
React/Supabase marketplace app, no GPU code). Fifteen files of each repository were sampled
with ``random.Random("owner/name")`` over every file lockin counts and labelled before any
fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Every sampled file,
kernel count and commit was right before; the misses were two GPU-looking files outside the
sample, both in OpenQiming-TrainInference: ModelConstants.java names the
``huawei.com/Ascend910`` Kubernetes resource and RemoteDockerHost.java starts containers with
the ``/dev/davinci<N>`` devices and the ``/usr/local/Ascend/driver`` mount, which no rule read
(new rules k8s.ascend-npu for manifests and scripts, container.ascend-npu-args for code). The
other tests pin verdicts worth keeping. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- yanglinan01/OpenQiming-TrainInference: Ascend NPUs through Kubernetes and Docker ---------


def test_java_constant_naming_the_ascend_k8s_resource_is_vendor_path() -> None:
    # xtp-traininfer-engine/.../constant/ModelConstants.java (GPU-looking, portable before):
    # the extended resource the platform's pods request is Huawei's Ascend 910.
    source = b"""\
public class JobConstants {
    public static final int RESTART_LIMIT = 8;
    public static final String NPU_RESOURCE = "huawei.com/Ascend910";
    public static final String STATUS_PENDING = "Pending";
}
"""
    path = "engine/src/main/java/org/example/constant/JobConstants.java"
    assert "container.ascend-npu-args" in _rules(path, source)
    assert _layers(path, source) == {"vendor-path": 1, "portable": 4}


def test_java_docker_helper_mounting_davinci_devices_is_vendor_path() -> None:
    # xtp-traininfer-engine/.../util/ssh/RemoteDockerHost.java (GPU-looking, portable before):
    # a single-host run passes every NPU device node and the Ascend driver directory in.
    source = b"""\
List<String> deviceArgs(int cards) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < cards; i++) out.add("/dev/davinci" + i);
    out.add("/usr/local/Ascend/driver:/usr/local/Ascend/driver");
    out.add("/data/models:/models");
    return out;
}
"""
    path = "engine/src/main/java/org/example/util/DockerHost.java"
    assert "container.ascend-npu-args" in _rules(path, source)
    assert _layers(path, source) == {"vendor-path": 2, "portable": 5}


def test_k8s_job_requesting_ascend_npus_is_vendor_path() -> None:
    # The manifests such a platform renders: the pod asks the Ascend device plugin for cards.
    source = b"""\
apiVersion: batch/v1
kind: Job
spec:
  template:
    spec:
      containers:
        - name: train
          image: registry.local/qwen-train:v5
          resources:
            limits:
              huawei.com/Ascend910: 8
"""
    path = "deploy/train-job.yaml"
    assert "k8s.ascend-npu" in _rules(path, source)
    assert _layers(path, source).keys() == {"vendor-path", "portable"}


def test_plugin_reading_nvidia_visible_devices_is_vendor_path() -> None:
    # xtp-traininfer-engine/.../plugin/deploy/K8sDeployPlugin.java (sampled, right): the
    # card ids are read back from the container toolkit's variable in a pod's environment.
    source = b"""\
private static final Pattern CARDS = Pattern.compile("NVIDIA_VISIBLE_DEVICES=(.+?)\\n");

String[] cardIds(String env) {
    Matcher m = CARDS.matcher(env);
    return m.find() ? m.group(1).split(",") : new String[0];
}
"""
    path = "engine/src/main/java/org/example/plugin/DeployPlugin.java"
    assert "container.nvidia-gpu-args" in _rules(path, source)
    assert _layers(path, source).keys() == {"vendor-path", "portable"}


def test_npu_usage_labels_and_a_link_stay_portable() -> None:
    # tool_chain_front_vue/src/pages/inference/deploy.vue and NodeStatusEnum.java
    # (GPU-looking, portable, right): a dashboard shows NPU load and a status names the
    # Ascend plugin in words; a vendor page link requests nothing.
    source = b"""\
public enum NodeState {
    PLUGIN_DOWN(2, "Ascend device plugin is not healthy"),
    CARD_LOAD(3, "NPU usage");
    static final String DOCS = "https://www.huawei.com/en/products/ascend";
}
"""
    path = "engine/src/main/java/org/example/constant/NodeState.java"
    assert _layers(path, source).keys() == {"portable"}


# -- sheephess9527/quantized.uk: a command generator for local LLM servers -------------------


def test_generator_of_docker_commands_with_all_gpus_is_vendor_path() -> None:
    # lib/utils/cli.ts (non-portable, right): the docker command it writes for the user hands
    # the server every GPU through NVIDIA's container toolkit.
    source = b"""\
export function dockerCommand(image: string, port: number): string {
  return [
    `docker run --rm \\\\`,
    `  --gpus all \\\\`,
    `  -p ${port}:${port} ${image}`,
  ].join('\\n');
}
"""
    path = "lib/utils/cli.ts"
    assert "container.nvidia-gpu-args" in _rules(path, source)
    assert "vendor-path" in _layers(path, source)


def test_hardware_table_of_gpu_cards_stays_portable() -> None:
    # lib/data/gpus.ts (GPU-looking, portable, right): card names and memory sizes for a
    # calculator.
    source = b"""\
export const CARDS = [
  { id: 'rtx4090', name: 'RTX 4090', vram: 24, type: 'nvidia-consumer' },
  { id: 'rx7900', name: 'RX 7900 XTX', vram: 24, type: 'amd' },
];
"""
    path = "lib/data/gpus.ts"
    assert _layers(path, source).keys() == {"portable"}


# -- catid/cifar10deepspeed: Triton kernels, a CUDA extension, DALI ----------------------------


def test_triton_rms_norm_kernel_lines_are_counted() -> None:
    # models/srmsnorm.py (extra kernel file, in range): a jitted forward kernel; the autograd
    # wrapper around it stays portable.
    source = b"""\
import torch
import triton
import triton.language as tl


@triton.jit
def rms_fwd(X, Y, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(X + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
    scale = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    tl.store(Y + row * stride + cols, x * scale, mask=cols < N)


def rms(x, eps=1e-6):
    y = torch.empty_like(x)
    rms_fwd[(x.shape[0],)](x, y, x.stride(0), x.shape[1], eps, BLOCK=1024)
    return y
"""
    path = "models/rmsnorm_fast.py"
    layers = _layers(path, source)
    assert layers.keys() == {"kernel", "portable"}
    assert layers["kernel"] == 7


def test_dali_gpu_pipeline_is_vendor_library() -> None:
    # dataloader.py (non-portable, right): images decoded and transposed on the GPU by
    # NVIDIA DALI.
    source = b"""\
import nvidia.dali.fn as fn
from nvidia.dali.pipeline import pipeline_def


@pipeline_def
def images(files):
    jpegs, labels = fn.readers.file(files=files)
    img = fn.decoders.image(jpegs, device="mixed")
    return fn.transpose(img, device="gpu", perm=[2, 0, 1]), labels
"""
    path = "loaders/dali_loader.py"
    assert "vendor-library" in _layers(path, source)


def test_memory_efficient_attention_from_xformers_stays_portable() -> None:
    # models/vit_lca.py (sampled, portable, right): xformers' attention op has builds for
    # more than one vendor.
    source = b"""\
import xformers.ops as xops


def attend(q, k, v):
    return xops.memory_efficient_attention(q, k, v, attn_bias=None)
"""
    path = "models/vit_attn.py"
    assert _layers(path, source).keys() == {"portable"}


# -- zhangkai1989a/DeepSpeedExamples: DeepSpeed's accelerator layer -------------------------


def test_deepspeed_accelerator_device_stays_portable() -> None:
    # training/HelloDeepSpeed/train_bert_ds.py (GPU-looking, portable, right): the device
    # comes from DeepSpeed's accelerator abstraction, not a vendor.
    source = b"""\
from deepspeed.accelerator import get_accelerator


def pick_device(local_rank):
    if local_rank > -1 and get_accelerator().is_available():
        return torch.device(get_accelerator().device_name(), local_rank)
    return torch.device("cpu")
"""
    path = "training/hello/train.py"
    assert _layers(path, source).keys() == {"portable"}


def test_script_pinning_cuda_visible_devices_is_vendor_path() -> None:
    # applications/.../eval_scripts/run_batch.sh (sampled, vendor-path, right).
    source = b"""\
#!/bin/bash
for ckpt in a b; do
    export CUDA_VISIBLE_DEVICES=0; python eval/generate.py --ckpt $ckpt
done
"""
    path = "eval/run_batch.sh"
    assert _layers(path, source).keys() == {"vendor-path", "portable"}


def test_sglang_flag_disabling_cuda_graphs_stays_portable() -> None:
    # inference/sglang/run_llama3_1B.sh (sampled, portable, right): a benchmark option of
    # the server, spelt the same on every back end.
    source = b"""\
MODEL=meta-llama/Llama-3.2-1B
python -m sglang.bench_offline_throughput --model-path ${MODEL} --num-prompts 8 --disable-cuda-graph
"""
    path = "inference/sglang/run_small.sh"
    assert _layers(path, source).keys() == {"portable"}
