"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-b).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 9-16. PrunaAI/quantization-reliability (position 9) has no
snapshot and was skipped. The other seven were read: moulin1024/JAX-Wind (a JAX
wind-farm LES solver with a legacy CUDA C++ and CUDA Fortran code), ROCm/rocAL (AMD's
augmentation and data-loading library), cornellius-gp/gpytorch (Gaussian processes on
PyTorch), MolecularAI/Icolos (a workflow manager for computational chemistry),
intel-analytics/ipex-llm (LLMs on Intel CPUs and GPUs), dykamino-coder/gpui-kamin-ide (a Rust
IDE shell on GPUI with TypeScript extensions) and y-okochi/Megatron-Bridge (Hugging Face to
Megatron conversion and training recipes). Fifteen files of each were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix,
with the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable
(up to 10) checked apart, and three commits touching GPU code drawn with
``random.Random("owner/name:commits")`` and judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- ROCm/rocAL: augmentation nodes built on AMD's RPP ---------------------------------------


def test_rocal_openvx_rpp_node_is_a_rocm_library_call() -> None:
    # rocAL/source/augmentations/effects_augmentations/node_fog.cpp: each augmentation node
    # is one vxExtRpp* node of MIVisionX's RPP extension. Before, the file was portable.
    source = b"""\
#include <vx_ext_rpp.h>
#include "pipeline/graph.h"

void HazeNode::create_node() {
    if (_node) return;
    _amount.create_array(_graph, VX_TYPE_FLOAT32, _batch_size);
    _node = vxExtRppFog(_graph->get(), _inputs[0]->handle(), _inputs[0]->get_roi_tensor(),
                        _outputs[0]->handle(), _amount.default_array());
    if (vxGetStatus((vx_reference)_node) != VX_SUCCESS)
        THROW("adding the vxExtRppFog node failed")
}
"""
    assert _rules("src/augmentations/node_haze.cpp", source) == {"hip.rpp"}
    assert _layers("src/augmentations/node_haze.cpp", source) == {
        "vendor-library": 3,
        "portable": 7,
    }


def test_direct_rpp_tensor_call_is_a_rocm_library_call() -> None:
    # The same library called without OpenVX, as rocAL's RPP-backed helpers do.
    source = b"""\
#include <rpp.h>

int mirror_batch(void* in, void* out, RpptDescPtr desc, RpptROIPtr roi, rppHandle_t h) {
    return rppt_flip_gpu(in, desc, out, desc, nullptr, nullptr, roi, RpptRoiType::XYWH, h);
}
"""
    assert _rules("src/mirror.cpp", source) == {"hip.rpp"}
    assert _layers("src/mirror.cpp", source) == {"vendor-library": 2, "portable": 2}


def test_rocal_node_header_without_rpp_calls_stays_portable() -> None:
    # rocAL/include/augmentations/color_augmentations/node_color_temperature.h: the node's
    # declaration names no RPP entry point. Right before the fix, and still.
    source = b"""\
#pragma once
#include "pipeline/node.h"

class WarmthNode : public Node {
   public:
    WarmthNode(const std::vector<Tensor *> &inputs, const std::vector<Tensor *> &outputs);
    void init(int shift);
   protected:
    void create_node() override;
    void update_node() override;
   private:
    ParameterVX<int> _shift;
};
"""
    assert _layers("include/node_warmth.h", source) == {"portable": 12}


def test_rocal_hip_stream_behind_its_build_switch_is_vendor_path() -> None:
    # rocAL/include/loaders/video/video_loader.h: a HIP stream member only in HIP builds.
    # Right before.
    source = b"""\
class ClipLoader {
    int _device_id = 0;
#if ENABLE_HIP
    hipStream_t _stream = nullptr;
#endif
};
"""
    assert _rules("include/clip_loader.h", source) == {"hip.platform-guard"}
    assert _layers("include/clip_loader.h", source) == {"vendor-path": 3, "portable": 3}


# -- moulin1024/JAX-Wind and MolecularAI/Icolos: cluster modules that bring CUDA in ----------


def test_job_script_loading_the_nvidia_hpc_sdk_module_is_vendor_path() -> None:
    # legacy/fortran_cuda/izar_run.sh: the CUDA Fortran solver is built with NVIDIA's HPC
    # SDK, loaded as an environment module. Before, the script was portable.
    source = b"""\
name=$1
module load nvhpc
python tools/driver.py prepare $name
python tools/driver.py solve $name
"""
    assert _rules("legacy/run_cluster.sh", source) == {"build.nvcc"}
    assert _layers("legacy/run_cluster.sh", source) == {"vendor-path": 1, "portable": 3}


def test_job_script_loading_an_easybuild_cuda_toolchain_build_is_vendor_path() -> None:
    # Icolos's GROMACS steps load GROMACS built with EasyBuild's fosscuda toolchain (there
    # inside Python strings, which stay portable); in a job script the line is a CUDA pin.
    source = b"""\
#!/bin/bash
#SBATCH --gres=gpu:1
module load GROMACS/2021-fosscuda-2019a-PLUMED-2.7.1
gmx mdrun -deffnm equil
"""
    assert _rules("jobs/md.sh", source) == {"build.nvcc"}
    assert _layers("jobs/md.sh", source) == {"vendor-path": 1, "portable": 1}


def test_job_script_with_plain_toolchain_modules_stays_portable() -> None:
    source = b"""\
module load foss/2021a
module load nvhpcx-docs
python run.py
"""
    assert _layers("jobs/cpu.sh", source) == {"portable": 3}


def test_jax_test_forcing_host_devices_is_portable() -> None:
    # tests/physics/test_dry_flow_zslab.py: XLA's host platform split into N CPU devices.
    # Right before.
    source = b"""\
import os
import subprocess
import sys


def run_case(devices: int) -> None:
    env = dict(os.environ)
    env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={devices}"
    subprocess.run([sys.executable, "-m", "solver", "--devices", str(devices)], env=env, check=True)
"""
    assert _layers("tests/test_slab.py", source) == {"portable": 7}


# -- intel-analytics/ipex-llm and cornellius-gp/gpytorch: device strings -----------------------


def test_ipex_llm_example_moving_the_model_to_xpu_is_vendor_path() -> None:
    # python/llm/example/GPU/.../generate.py: the model and inputs go to Intel's xpu device.
    # Right before.
    source = b"""\
import torch
from ipex_llm import optimize_model

model = optimize_model(load(path))
model = model.to("xpu")
ids = tok.encode(prompt, return_tensors="pt").to("xpu")
out = model.generate(ids, max_new_tokens=32)
torch.xpu.synchronize()
"""
    assert _rules("example/GPU/generate.py", source) == {"xpu.device-string", "xpu.torch"}
    assert _layers("example/GPU/generate.py", source) == {"vendor-path": 3, "portable": 4}


def test_finetune_probing_the_cuda_device_count_is_portable() -> None:
    # python/llm/example/GPU/LLM-Finetuning/HF-PEFT/alpaca-lora/finetune.py: a probe for
    # more than one device decides a Trainer flag. Right before.
    source = b"""\
import torch

if not ddp and torch.cuda.device_count() > 1:
    model.is_parallelizable = True
    model.model_parallel = True
"""
    assert _layers("finetune.py", source) == {"portable": 4}


def test_gpytorch_test_moving_tensors_to_cuda_is_vendor_path() -> None:
    # test/kernels/test_rbf_kernel_gradgrad.py: the same check on CPU and, when present, CUDA.
    # Right before.
    source = b"""\
import torch


def check(cuda=False):
    a = torch.randn(3, 2)
    if cuda:
        a = a.cuda()
    return a.sum()


def test_check_cuda():
    if torch.cuda.is_available():
        check(cuda=True)
"""
    assert _rules("test/test_rbf.py", source) == {"torch.cuda-method"}
    assert _layers("test/test_rbf.py", source) == {"vendor-path": 1, "portable": 8}
