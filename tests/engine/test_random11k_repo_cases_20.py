"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h48-random-k).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 231-237 and every one had a snapshot within the limits and
counted files, so none was skipped: Kparos000/LLM-Inference-Optimization-Suite (an LLM
serving benchmark around vLLM and SGLang), lebedeffson/FuzzyAttentionNetworks (PyTorch
multimodal classifiers), gabriele-marsili/Sustainable-Code-Refactoring-with-LLMs (a data set of
Exercism solutions in many languages with the tooling that measures them),
emirks/uiuc-diffusion-research (video diffusion experiments run on a Slurm cluster, with GLSL
transition shaders), bm-synth/DeepSpeed (a fork of DeepSpeed), neuralmagic/crucible (a Rust
engine for agent-driven optimisation loops, with a Kubernetes GPU job runner) and
NVIDIAGameWorks/Blast (NVIDIA's destruction library, its D3D11 samples and HLSL shaders). Some
snapshots lack large blobs (data files, gifs, jars, an archive); the checkout left out only
those. Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over
every file lockin counts and labelled before any fix, with the files lockin calls non-portable
(up to 20) and GPU-looking files it calls portable (up to 10) checked apart, and three commits
touching GPU code judged against ``lockin diff``. Each snippet is a small rewrite, in our own
words, of a pattern found in the repository its test names; the expected layers are what a
porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- emirks/uiuc-diffusion-research: a Slurm GRES type named in capitals ---------------------


def test_sbatch_arguments_with_an_upper_case_gres_type_are_vendor_path() -> None:
    # eval_ladder/submit.py: the sbatch arguments per partition, each asking for one H100 by
    # its GRES type; the site spells the type in capitals.
    source = b"""\
import subprocess

PARTITIONS = {
    "fast": ["--partition=fast-h100", "--gres=gpu:H100:1"],
    "wide": ["--partition=wide-l40s", "--gres=gpu:L40S:2"],
}

def submit(kind, script):
    return subprocess.run(["sbatch", *PARTITIONS[kind], script], check=True)
"""
    assert _rules("ladder/submit.py", source) == {"cloud.nvidia-gpu-instance-string"}
    assert _layers("ladder/submit.py", source) == {"vendor-path": 2, "portable": 5}


def test_sbatch_call_with_an_upper_case_gres_type_is_vendor_path() -> None:
    # The same request from a shell script that submits the job; the #SBATCH header is a
    # comment, as before, and an AMD type asks for no NVIDIA GPU.
    source = b"""\
#!/bin/bash
#SBATCH --gres=gpu:1
sbatch --partition=shared --gres=gpu:A100:1 eval.sbatch
sbatch --partition=amd --gres=gpu:MI250:1 eval.sbatch
"""
    assert _rules("scripts/submit.sh", source) == {"cloud.nvidia-gpu-instance"}
    assert _layers("scripts/submit.sh", source) == {"vendor-path": 1, "portable": 1}


def test_upper_case_gpu_models_as_labels_stay_portable() -> None:
    # Kparos000/LLM-Inference-Optimization-Suite tests/test_gpu_price_registry.py: GPU models
    # named in a price table and in assertions provision nothing.
    source = b"""\
PRICES = {"A100 SXM 80GB": 1.49, "H100 SXM 80GB": 3.29}

def test_prices():
    assert PRICES["H100 SXM 80GB"] > PRICES["A100 SXM 80GB"]
    note = "H100: fastest; A100:cheaper"
"""
    assert _layers("tests/test_prices.py", source) == {"portable": 4}


# -- checked right before any fix ------------------------------------------------------------


def test_moderngl_glsl_strings_are_kernel_code() -> None:
    # emirks/uiuc-diffusion-research experiments/*/engine3d/render3d.py: vertex and fragment
    # shaders for moderngl kept in Python strings; comments inside the GLSL are not counted.
    source = b"""\
import moderngl

VERT = \"\"\"
#version 330 core
in vec2 aPos;
out vec2 vUv;
void main() {
    // flip the image vertically
    vUv = vec2(aPos.x, 1.0 - aPos.y);
    gl_Position = vec4(aPos * 2.0 - 1.0, 0.0, 1.0);
}
\"\"\"

def program(ctx, frag):
    return ctx.program(vertex_shader=VERT, fragment_shader=frag)
"""
    assert _rules("engine/render.py", source) == {"vulkan.glsl-string"}
    layers = _layers("engine/render.py", source)
    assert set(layers) == {"kernel", "portable"}
    assert 7 <= layers["kernel"] <= 9


def test_physx_cuda_context_member_is_vendor_path() -> None:
    # NVIDIAGameWorks/Blast samples/SampleBase/physx/PhysXController.h: the controller keeps
    # PhysX's CUDA context manager for GPU rigid bodies; the rest of the class is portable.
    source = b"""\
namespace physx { class PxCudaContextManager; class PxScene; }

class SimController {
public:
    bool gpuAvailable() const { return m_gpuAvailable; }
private:
    physx::PxScene* m_scene;
    physx::PxCudaContextManager* m_cuda;
    bool m_gpuAvailable;
};
"""
    assert _rules("physx/SimController.h", source) == {"cuda.physx-gpu-api"}
    assert "vendor-path" in _layers("physx/SimController.h", source)


def test_torch_cuda_probe_for_pin_memory_stays_portable() -> None:
    # lebedeffson/FuzzyAttentionNetworks src/dataset_manager.py: pinning host memory only when
    # a GPU answers is a probe, not a CUDA path; the device string beside it is one.
    source = b"""\
import torch
from torch.utils.data import DataLoader

def loader(ds):
    return DataLoader(ds, batch_size=8, pin_memory=torch.cuda.is_available())

def device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")
"""
    assert _rules("src/data.py", source) == {"torch.device-string"}
    assert _layers("src/data.py", source) == {"vendor-path": 1, "portable": 5}


# -- gabriele-marsili/Sustainable-Code-Refactoring-with-LLMs: Catch2's compiler checks --------


def test_compiler_list_naming_nvcc_beside_ibm_xl_is_no_cuda_build() -> None:
    # src/dataset/cpp/*/catch_amalgamated.hpp (Catch2, vendored per exercise): a builtin that
    # IBM XL, nvcc and NVIDIA's HPC compiler mishandle is turned off for all three; a guard
    # naming CUDA alone still counts.
    source = b"""\
#if defined(__xlC__) || defined(__CUDACC__) || defined(__NVCOMPILER)
#  define TESTLIB_NO_BUILTIN_CONSTANT_P
#endif

#if defined(__CUDACC__)
#  define TESTLIB_DEVICE_TESTS 1
#endif
"""
    assert _rules("test/testlib.hpp", source) == {"cuda.build-guard"}
    assert _layers("test/testlib.hpp", source) == {"vendor-path": 3, "portable": 3}
