"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h54-random-g).

The pool is ``/work/pool-h54.txt``, ordered with ``random.seed("h54-pool")`` before anyone
read it; this lane took positions 43-49. Two were skipped: neuraltaletechnologies/Mali-Up (47)
and ParticleTroned/skyrim-community-shaders (49) had no snapshot to fetch. Read were
benyuereal/micro-vllm (a small LLM inference engine in Python: paged KV cache, CUDA graphs,
FlashAttention-2 calls and fused RMSNorm, SwiGLU and KV-store kernels in Triton),
ormasoftchile/triton (a diagram compiler in TypeScript that renders Mermaid-like text to SVG;
"Triton" and "kernel" are its own names, no GPU code), cymmGithub/sociallama-v2 (a Next.js
agency site with react-three-fiber effects: a fluid simulation and a mouse flowmap whose GLSL
lives in ``/* glsl */`` template strings), splattner/openzev (a Django and React platform
billing solar energy communities, no GPU code) and molecularmodelinglab/plantain (protein-ligand
pose prediction in PyTorch and DGL, with baselines running gnina in an Apptainer container).
Snapshots missing large blobs (sociallama's images and videos, plantain's data) were checked
out without them; no counted source file was missing. Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, files outside the sample that hold kernel lines counted by
hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- benyuereal/micro-vllm: Triton kernels beside CUDA-only host checks ----------------------


def test_triton_norm_kernel_is_kernel_and_its_cuda_checks_vendor_path() -> None:
    # kernel/rmsnorm_add.py (hand 82 kernel lines, lockin 81): @triton.jit bodies are the
    # kernel; the wrapper's `x.is_cuda` asserts and the benchmark's torch.cuda.synchronize()
    # are host lines tied to CUDA devices.
    source = b"""\
import torch
import triton
import triton.language as tl


@triton.jit
def _scale_rows(X, Y, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    keep = cols < N
    x = tl.load(X + row * N + cols, mask=keep, other=0.0)
    tl.store(Y + row * N + cols, x * 2.0, mask=keep)


def scale_rows(x):
    assert x.is_cuda, "needs a GPU tensor"
    y = torch.empty_like(x)
    _scale_rows[(x.shape[0],)](x, y, x.shape[1], BLOCK=triton.next_power_of_2(x.shape[1]))
    torch.cuda.synchronize()
    return y
"""
    layers = _layers("kernel/scale_rows.py", source)
    assert layers["kernel"] == 7
    assert layers["vendor-path"] == 2
    assert "triton.jit" in _rules("kernel/scale_rows.py", source)


def test_triton_kernel_defined_under_a_cuda_guard_stays_kernel() -> None:
    # core/cache_manager.py (an extra kernel file: hand 40, lockin 40): the KV-store kernel is
    # defined only when CUDA is there; the guard is vendor-path, the body kernel.
    source = b"""\
import torch
import triton
import triton.language as tl

if torch.cuda.is_available() and not torch.backends.mps.is_available():
    @triton.jit
    def put_slot(src, dst, slots, D: tl.constexpr):
        i = tl.program_id(0)
        slot = tl.load(slots + i)
        if slot == -1:
            return
        vals = tl.load(src + i * D + tl.arange(0, D))
        tl.store(dst + slot * D + tl.arange(0, D), vals)
"""
    layers = _layers("core/kv_store.py", source)
    assert layers["kernel"] == 8


def test_nccl_backend_picked_by_cuda_probe_is_vendor_path() -> None:
    # core/parallel_config.py: the process group's backend is NCCL whenever CUDA answers.
    source = b"""\
import os
import torch
import torch.distributed as dist


def setup():
    world = int(os.environ.get("WORLD_SIZE", 1))
    if world > 1 and not dist.is_initialized():
        backend = "nccl" if torch.cuda.is_available() else "gloo"
        dist.init_process_group(backend=backend)
"""
    assert _layers("core/parallel.py", source) == {"vendor-path": 1, "portable": 7}


def test_flash_attention_two_import_and_requirement_stay_portable() -> None:
    # core/layer/model_prefill.py and requirements.txt: FlashAttention-2 (flash_attn) has a
    # ROCm build, so importing it or pinning flash-attn ties nothing to NVIDIA by itself.
    source = b"""\
import torch

try:
    from flash_attn import flash_attn_with_kvcache
except ImportError:
    flash_attn_with_kvcache = None


def attend(q, k_cache, v_cache, lens):
    return flash_attn_with_kvcache(q, k_cache, v_cache, cache_seqlens=lens, causal=True)
"""
    assert _layers("core/layer/prefill.py", source) == {"portable": 7}
    requirements = b"torch>=2.0.0\ntransformers>=4.40\nflash-attn>=2.0.0\n"
    assert _layers("requirements.txt", requirements) == {"portable": 3}


def test_compiled_step_with_cudagraph_mark_is_portable() -> None:
    # Commit 74aa656 ("torch.compile", gate passes): torch.compile's reduce-overhead mode and
    # torch.compiler.cudagraph_mark_step_begin() are PyTorch's own, on ROCm builds too.
    source = b"""\
import torch


def compiled(fn):
    return torch.compile(fn, mode="reduce-overhead", fullgraph=True)


def step(model, batch):
    torch.compiler.cudagraph_mark_step_begin()
    return model(batch).clone()
"""
    assert _layers("core/layer/mlp.py", source) == {"portable": 6}


# -- cymmGithub/sociallama-v2: GLSL in three.js template strings ----------------------------


def test_glsl_tagged_template_in_typescript_is_kernel() -> None:
    # lib/webgl/utils/flowmaps/flowmap-sim.ts (an extra kernel file: hand 26 GLSL lines,
    # lockin 30 with the lines opening and closing the templates): the shaders are kernel, the
    # three.js class driving them portable.
    source = b"""\
import { RawShaderMaterial, GLSL3 } from 'three'

const vertexShader = /* glsl */ `
in vec3 position;
in vec2 uv;
out vec2 vUv;
void main() {
  vUv = uv;
  gl_Position = vec4(position, 1.0);
}
`

export function makeMaterial() {
  return new RawShaderMaterial({ glslVersion: GLSL3, vertexShader })
}
"""
    layers = _layers("lib/webgl/trail-sim.ts", source)
    assert 7 <= layers["kernel"] <= 9
    assert "vendor-path" not in layers


def test_react_three_fiber_canvas_host_is_portable() -> None:
    # lib/webgl/components/canvas/webgl.tsx (sampled): an r3f <Canvas> with WebGL options is
    # portable host code, whatever GPU it runs on.
    source = b"""\
import { Canvas } from '@react-three/fiber'

export function Scene({ children }: { children: React.ReactNode }) {
  return (
    <Canvas gl={{ precision: 'highp', powerPreference: 'high-performance' }} dpr={[1, 2]}>
      {children}
    </Canvas>
  )
}
"""
    assert set(_layers("lib/webgl/canvas.tsx", source)) == {"portable"}


# -- ormasoftchile/triton and splattner/openzev: no GPU code ---------------------------------


def test_diagram_compiler_named_triton_stays_portable() -> None:
    # src/diagrams/triton/ds/tree/segtree.ts (sampled): "triton" is the project's name and its
    # "kernel" the layout core; nothing here runs on a GPU.
    source = b"""\
import { layoutTree } from '../../../../kernel/graph'
import type { TritonNode } from '../../contracts'

export function segmentTree(values: number[]): TritonNode {
  const root = { id: 'n0', label: String(values.reduce((a, b) => a + b, 0)) }
  return layoutTree(root)
}
"""
    assert set(_layers("src/diagrams/triton/ds/tree/segtree.ts", source)) == {"portable"}


def test_django_billing_view_stays_portable() -> None:
    # backend/metering/views.py (sampled): a REST view over meter readings.
    source = b"""\
from rest_framework import viewsets

from .models import MeterReading
from .serializers import MeterReadingSerializer


class MeterReadingViewSet(viewsets.ModelViewSet):
    queryset = MeterReading.objects.all()
    serializer_class = MeterReadingSerializer
"""
    assert set(_layers("backend/metering/views.py", source)) == {"portable"}


# -- molecularmodelinglab/plantain: Apptainer --nv, torch.cuda.amp, Lightning gpus ----------


def test_apptainer_nv_argument_list_is_vendor_path() -> None:
    # baselines/vina_gnina.py (GPU-looking, portable before): gnina runs in an Apptainer
    # container started with --nv, which binds NVIDIA's driver only (AMD's flag is --rocm).
    source = b"""\
import subprocess


def dock(cfg, rec, lig, out):
    if cfg.local_exec:
        cmd = [cfg.local_exec]
    else:
        cmd = ["apptainer", "run", "--nv", "--bind", cfg.data_dir, cfg.image, "gnina"]
    cmd += ["-r", rec, "-l", lig, "-o", out]
    subprocess.run(cmd, check=True)
"""
    assert _rules("baselines/docking.py", source) == {"container.apptainer-nv-string"}
    assert _layers("baselines/docking.py", source) == {"vendor-path": 1, "portable": 7}


def test_singularity_nv_in_job_script_is_vendor_path() -> None:
    # The shell form of the same request, as an HPC job script writes it.
    source = b"""\
#!/bin/bash
#SBATCH --gres=gpu:1
module load singularity
singularity exec --nv --bind /scratch:/scratch gnina.sif gnina -r rec.pdb -l lig.sdf
"""
    assert "container.apptainer-nv" in _rules("jobs/dock.sh", source)


def test_program_option_named_nv_is_no_container_flag() -> None:
    # A lone "--nv" away from any container runtime is a program's own option.
    source = b"""\
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--nv", type=int, default=3, help="number of views")
cmd = ["apptainer", "run", "--rocm", "dock.sif"]
"""
    assert _layers("scripts/args.py", source) == {"portable": 4}


def test_torch_cuda_amp_import_is_vendor_path() -> None:
    # models/twister.py (sampled, lockin vendor-path 1): the deprecated torch.cuda.amp
    # namespace; the rest of the model is device-agnostic.
    source = b"""\
import torch
from torch.cuda.amp import autocast


def pairwise(x):
    mask = torch.ones(x.shape[0], dtype=bool, device=x.device)
    return x[mask] @ x[mask].T
"""
    assert _layers("models/twister.py", source) == {"vendor-path": 1, "portable": 4}


def test_lightning_gpus_from_availability_probe_is_portable() -> None:
    # training/trainer.py: Lightning's gpus= counts devices of any vendor, and the probe that
    # sets it asks only whether one is there.
    source = b"""\
import pytorch_lightning as pl
import torch


def fit(module, loader):
    gpus = int(torch.cuda.is_available())
    trainer = pl.Trainer(gpus=gpus, max_epochs=10)
    trainer.fit(module, loader)
"""
    assert _layers("training/trainer.py", source) == {"portable": 6}


def test_to_cuda_in_a_script_is_vendor_path() -> None:
    # scripts/twist_block_test.py (sampled, lockin vendor-path 4): tensors moved to "cuda".
    source = b"""\
import torch

if __name__ == "__main__":
    x = torch.randn(8, 16)
    x = x.to("cuda")
    print(x.sum())
"""
    assert _layers("scripts/block_test.py", source) == {"vendor-path": 1, "portable": 4}
