"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-h).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 322-328. Two had no snapshot to fetch and were skipped:
anthropics/uplifting-biomolecular-modeling (323) and shixun404/cupynumeric (326). Read were
LoSealL/openvino2onnx (a converter from OpenVINO IR to ONNX that folds a few ops through
OpenVINO on the CPU), onnxscibroccoli/broccoli-core (an Android automation agent's shell and
Python scripts with many synced backups), TransformerOptimus/SuperCoder (a desktop coding
agent in Rust, Go and TypeScript), Azure-Samples/chat-with-your-data-solution-accelerator
(an Azure OpenAI retrieval app with Bicep infrastructure; two PDF blobs were absent from the
snapshot and the checkout was redone over the rest) and loxilb-io/loxilb-inference-gateway
(an eBPF load balancer in Go with inference-aware routing for vLLM, SGLang and TensorRT-LLM
fleets; ten binary or fixture blobs were absent and the checkout was redone over the rest).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts and labelled before any fix, with the files lockin calls non-portable (up
to 20) and GPU-looking files it calls portable (up to 10) checked apart, and three commits
touching GPU code (``random.Random("owner/name:commits")``) judged against ``lockin diff``.
No sampled file held kernel lines and every verdict was right, so these cases pin the
verdicts the audit confirmed. Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- LoSealL/openvino2onnx: OpenVINO's op set used to fold a constant ------------------------


def test_openvino_fold_on_cpu_is_vendor_library() -> None:
    # openvino2onnx/domain/intel/openvino/passes/op/prior_box.py: the pass builds a one-node
    # OpenVINO model, compiles it for the CPU plug-in and keeps the output as an ONNX
    # constant. The op and the runtime exist only in Intel's toolkit, so the import is the
    # library mapping a port would redo (with ONNX Runtime or NumPy), whatever device runs it.
    source = b"""\
from onnx import numpy_helper
from onnx.helper import make_node
from openvino import Model, compile_model
from openvino.opset8 import constant, prior_box

def fold(node, layer, image, attrs):
    out = prior_box(constant(layer), constant(image), attrs)
    compiled = compile_model(Model([out], []), "CPU")
    value = compiled()[-1]
    return make_node("Constant", [], node.output, value=numpy_helper.from_array(value))
"""
    assert _rules("passes/op/prior_box.py", source) == {"openvino.api"}
    assert _layers("passes/op/prior_box.py", source) == {"vendor-library": 2, "portable": 7}


def test_onnx_pass_on_an_intel_path_stays_portable() -> None:
    # openvino2onnx/domain/intel/openvino/passes/op/hsigmoid.py: the pass rewrites an IR node
    # into ONNX nodes; the directory names Intel, the code calls only ONNX helpers.
    source = b"""\
from onnx.helper import make_node

def replace(graph, node):
    '''https://docs.openvino.ai/2024/documentation/openvino-ir-format/hsigmoid-5.html'''
    add = make_node("Add", [node.input[0], "three"], [node.name + "/add"])
    clip = make_node("Clip", [add.output[0], "zero", "six"], [node.name + "/clip"])
    return make_node("Div", [clip.output[0], "six"], node.output)
"""
    path = "openvino2onnx/domain/intel/openvino/passes/op/hsigmoid.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 5}


def test_uv_index_on_the_cuda_wheel_channel_is_vendor_path() -> None:
    # pyproject.toml: uv takes torch and torchvision from PyTorch's cu126 index; a ROCm or
    # CPU machine needs another index URL.
    source = b"""\
[project]
name = "converter"
dependencies = ["onnx>=1.17.0", "numpy"]

[tool.uv.sources]
torch = { index = "pytorch" }

[[tool.uv.index]]
name = "pytorch"
url = "https://download.pytorch.org/whl/cu126"
explicit = true
"""
    assert _rules("pyproject.toml", source) == {"deps.cuda-wheel"}
    assert _layers("pyproject.toml", source) == {"vendor-path": 1, "portable": 8}


# -- TransformerOptimus/SuperCoder: "__global__" as a settings key --------------------------


def test_global_scope_key_in_rust_stays_portable() -> None:
    # apps/desktop/src-tauri/src/agent_bridge/permissions.rs: a permission table is keyed by
    # project path, with the literal "__global__" when there is none; no CUDA qualifier.
    source = b"""\
pub fn load(db: &Db, project_path: Option<&str>) -> Result<Config, String> {
    let key = project_path.unwrap_or("__global__");
    db.get(key).map_err(|e| e.to_string())
}
"""
    assert _rules("src/agent_bridge/permissions.rs", source) == set()
    assert _layers("src/agent_bridge/permissions.rs", source) == {"portable": 4}


# -- Azure-Samples/chat-with-your-data-solution-accelerator: Semantic Kernel ----------------


def test_semantic_kernel_orchestrator_stays_portable() -> None:
    # code/backend/batch/utilities/orchestrator/semantic_kernel.py: Microsoft's Semantic
    # Kernel is an LLM orchestration library; its "kernel" holds plug-ins, not device code.
    source = b"""\
from semantic_kernel import Kernel
from semantic_kernel.connectors.ai.open_ai import AzureChatCompletion

class SemanticKernelOrchestrator:
    def __init__(self, env):
        self.kernel = Kernel()
        self.kernel.add_service(AzureChatCompletion(deployment_name=env.model))

    async def orchestrate(self, question):
        return await self.kernel.invoke_prompt(question)
"""
    path = "code/backend/batch/utilities/orchestrator/semantic_kernel.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 8}


# -- loxilb-io/loxilb-inference-gateway: GPU-aware routing through engine metrics -----------


def test_gpu_aware_balancing_mode_and_engine_metric_stay_portable() -> None:
    # common/common.go and api/models/worker_metrics_entry.go: a load-balancing mode named for
    # GPUs and a field fed from vLLM's KV-cache usage gauge; both read engine metrics over
    # HTTP, which every vendor's vLLM build exports alike.
    source = b"""\
package common

type EpSelect uint

const (
\tLbSelRr EpSelect = iota
\t// LbSelGPUAware - pick the endpoint whose GPU KV cache is least used
\tLbSelGPUAware
)

type WorkerMetrics struct {
\t// vllm:gpu_cache_usage_perc scaled to 0-100
\tKvCacheUsagePerc *int64 `json:"kv_cache_usage_perc"`
}
"""
    assert _rules("common/common.go", source) == set()
    assert _layers("common/common.go", source) == {"portable": 9}


def test_tensorrt_llm_event_dialect_stays_portable() -> None:
    # pkg/loxinet/ai_kv_trtllm_source.go: the gateway polls TensorRT-LLM's KV event endpoint
    # over HTTP as one engine dialect beside vLLM's and SGLang's; it links nothing of NVIDIA's.
    source = b"""\
package loxinet

var kvEngines = []string{"vllm", "sglang", "trtllm"}

// trtllmPoller drains TensorRT-LLM's KV cache events over HTTP.
func (p *trtllmPoller) poll(ctx context.Context) ([]kvEvent, error) {
\treq, _ := http.NewRequestWithContext(ctx, "POST", p.base+"/kv_cache_events", nil)
\treturn p.decode(req)
}
"""
    assert _rules("pkg/loxinet/ai_kv_trtllm_source.go", source) == set()
    assert _layers("pkg/loxinet/ai_kv_trtllm_source.go", source) == {"portable": 6}


def test_engine_image_recorded_in_a_calibration_fingerprint_stays_portable() -> None:
    # pkg/aictrl/engine/registry_test.go: a calibration record keeps the GPU model and the
    # vLLM image it was measured with, as data to compare fingerprints; nothing is deployed.
    source = b"""\
package engine

func calibFields() map[string]string {
\treturn map[string]string{
\t\tFpGpuSku:    "L40S",
\t\tFpVllmImage: "vllm/vllm-openai:v0.17.0",
\t}
}

const calibYAML = `
      fingerprint_fields:
        gpu_sku: L40S
        vllm_image: vllm/vllm-openai:v0.17.0
`
"""
    assert _rules("pkg/aictrl/engine/registry_test.go", source) == set()
    assert _layers("pkg/aictrl/engine/registry_test.go", source) == {"portable": 12}
