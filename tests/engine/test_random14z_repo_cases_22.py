"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h50-random-z).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 567-573 and skipped none. Read were syq-tju/pyCUDA (PyCUDA
tutorial scripts and notebooks with CUDA C in SourceModule strings, one .cu file),
pytorch/torchx (a job launcher for PyTorch with Kubernetes, AWS Batch, SageMaker and once GCP
Batch schedulers, NVIDIA instance tables and device strings), JaxGaussianProcesses/GPJax
(Gaussian processes in JAX, no GPU code), bendourthe/Gemma-Code (a TypeScript VS Code
extension talking to a local LLM, no GPU code), carnotresearch/cr-sparse (sparse recovery in
JAX, no GPU code), VoxelPlugin/VoxelPluginFreeLegacy (an Unreal Engine voxel plugin with two
.usf compute shaders and their C++ RHI plumbing) and limin411/hip (a TypeScript agent desktop
app whose name only looks like AMD's HIP). Large binary files absent from two snapshots
(torchx's images, the plugin's .uasset files) were left out of the checkouts; lockin counts
none of them. Fifteen files of each repository (all thirteen of pyCUDA) were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, files outside the sample that hold kernel lines counted by hand (up
to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- pytorch/torchx: GCP's V100 accelerator type as a scheduler default ----------------------


def test_gcp_tesla_v100_accelerator_default_is_vendor_path() -> None:
    # torchx/schedulers/gcp_batch_scheduler.py (commit 4e589b46): the GPU type a GCP Batch
    # job asks for when it wants GPUs, an NVIDIA V100; the A100 and T4 forms were read already.
    source = b"""\
FALLBACK_GPU = "nvidia-tesla-v100"
FALLBACK_MACHINE = "n1-standard-8"

def accelerators(count):
    return [{"type": FALLBACK_GPU, "count": count}]
"""
    assert _rules("sched/gcp_batch.py", source) == {"cloud.nvidia-gpu-instance-string"}
    assert _layers("sched/gcp_batch.py", source) == {"vendor-path": 1, "portable": 3}


def test_gke_tesla_v100_node_selector_is_vendor_path() -> None:
    # The same accelerator name in a node pool's YAML, as GKE spells it.
    source = b"""\
spec:
  nodeSelector:
    cloud.google.com/gke-accelerator: nvidia-tesla-v100
"""
    assert _rules("k8s/pool.yaml", source) == {"cloud.nvidia-gpu-instance"}
    assert _layers("k8s/pool.yaml", source) == {"vendor-path": 1, "portable": 2}


def test_vendor_name_with_version_tag_stays_portable() -> None:
    source = b"""\
EXPORTER_IMAGE = "nvidia-v2-exporter"
"""
    assert _rules("sched/exporter.py", source) == set()


# -- pinned verdicts that were already right ------------------------------------------------


def test_mocked_torch_cuda_probe_stays_portable() -> None:
    # torchx/util/test/cuda_test.py: a unit test patching torch.cuda's availability probe by
    # its dotted name; torch.cuda answers on ROCm builds too.
    source = b"""\
from unittest import mock
from launcher.util import accelerator_present

AVAILABLE = "torch.cuda.is_available"

@mock.patch(AVAILABLE, return_value=False)
def test_absent(_):
    assert not accelerator_present()
"""
    assert _rules("util/test/probe_test.py", source) == set()
    assert _layers("util/test/probe_test.py", source) == {"portable": 6}


def test_pycuda_source_module_kernel_and_host_calls() -> None:
    # syq-tju/pyCUDA Chapter1_Fundamental/1_5_PyCUDA_ADD_WITHOUT_MEMORY_COPY.py: a vector
    # kernel in a SourceModule string launched with drv.In/drv.Out wrappers.
    source = b'''\
import numpy as np
import pycuda.autoinit
import pycuda.driver as cu
from pycuda.compiler import SourceModule

mod = SourceModule("""
__global__ void scale(float *y, const float *x, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n) y[k] = 3.0f * x[k];
}
""")
scale = mod.get_function("scale")
x = np.ones(64, dtype=np.float32)
y = np.empty_like(x)
scale(cu.Out(y), cu.In(x), np.int32(64), block=(64, 1, 1), grid=(1, 1))
'''
    assert _rules("demo/scale.py", source) == {
        "pycuda.driver",
        "pycuda.host-api",
        "pycuda.source-module",
    }
    layers = _layers("demo/scale.py", source)
    # Five lines of CUDA C, counted with the lines opening and closing the string.
    assert layers["kernel"] == 7
    assert set(layers) == {"kernel", "vendor-path", "portable"}


def test_unreal_usf_compute_shader_is_kernel() -> None:
    # VoxelPlugin/VoxelPluginFreeLegacy Shaders/Private/DistanceField.usf: an HLSL compute
    # shader Unreal compiles for every RHI; every code line is device code.
    source = b"""\
#include "/Engine/Public/Platform.ush"

RWBuffer<float> Field;
uint Width;

[numthreads(8, 8, 1)]
void Relax(uint3 Id : SV_DispatchThreadID)
{
    const uint At = Id.x + Width * Id.y;
    Field[At] = 0.5f * Field[At];
}
"""
    assert _rules("Shaders/Private/Relax.usf", source) == {"hlsl.shader-file"}
    assert _layers("Shaders/Private/Relax.usf", source) == {"kernel": 9}
