"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-l).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")`` before anyone
read it; this lane took positions 642-649. Two had no snapshot and were skipped, not
replaced: sunny-cq-wang/tinygrad-from-scratch (642) and masagrator/spirv2glasm (643). The six
audited are QuixiAI/tinygrad.c (a C port carrying a copy of tinygrad under reference/),
yasyamanoi/BaseCrossDx12, anulum/scpn-quantum-control, cyrusbehr/tensorrt-cpp-api,
shuangpe/cutlass (a CUTLASS fork) and lettucecfd/lettuce. Fifteen files of each repository
were sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, and three commits touching GPU code judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- lettucecfd/lettuce: CUDA sources written from str.format templates -----------------------


LBM_TEMPLATE = b'''\
from typing import Dict

template: Dict[str, str] = {
    "kernel.cu": """
#include <cuda_runtime.h>

template<typename scalar_t>
__global__ void
lbm_kernel({kernel_parameters})
{{
  {body}
}}

void
launch({host_parameters})
{{
  lbm_kernel<scalar_t><<<blocks, threads>>>({values});
}}
""",
}
'''


def test_lettuce_kernel_named_on_the_next_line_is_cuda_source() -> None:
    # lettuce/cuda_native/_template.py: the .cu file of the generated extension is a dict
    # value, formatted Mozilla style (`__global__ void`, then the kernel's name on its own
    # line). Before, cuda.source-string wanted the name on the `__global__` line and the
    # template, the only CUDA kernel of the package, was portable.
    assert _rules("lettuce/cuda_native/_template.py", LBM_TEMPLATE) == {"cuda.source-string"}


def test_lettuce_template_host_launcher_with_format_fields_stays_host() -> None:
    # The host function `launch({host_parameters})` is no device code: its `{field}` is text
    # the template fills in, not a brace of the program. Before the fields were looked
    # through, the launcher read as a device function too (lettuce's file: 21 kernel lines
    # where an engineer counts 7).
    assert _layers("lettuce/cuda_native/_template.py", LBM_TEMPLATE) == {
        "kernel": 8,
        "portable": 11,
    }


# -- QuixiAI/tinygrad.c: tinygrad's AMD experiments under reference/ -------------------------


def test_tinygrad_clang_attribute_kernel_string_is_hip_kernel() -> None:
    # reference/extra/gemm/hip_matmul.py: a WMMA matmul for RDNA3 in an f-string, written for
    # clang without the HIP headers (`__attribute__((global))`, __ockl_get_local_id,
    # amdgpu_flat_work_group_size) and compiled by AMDDevice's compiler. Before, the
    # 62-line kernel was portable.
    source = b'''\
from tinygrad.runtime.ops_amd import AMDDevice, AMDProgram

device = AMDDevice()
prog_str = f"""
typedef long unsigned int size_t;
extern "C" __attribute__((device)) size_t __ockl_get_local_id(unsigned int);
extern "C" __attribute__((global)) void __attribute__((amdgpu_flat_work_group_size(1, {n})))
test(float* c) {{
  const int lIdx = __ockl_get_local_id(0);
  c[lIdx] = 0.0f;
}}"""
prog = AMDProgram(device, "test", device.compiler.compile(prog_str))
'''
    assert _rules("extra/gemm/hip_matmul.py", source) == {"hip.attribute-kernel-string"}
    assert _layers("extra/gemm/hip_matmul.py", source) == {"kernel": 8, "portable": 3}


def test_tinygrad_attribute_list_in_a_message_is_no_kernel() -> None:
    # The negative: clang's other attributes in literals (a packing helper's alignment, a
    # doc string naming the spelling) declare no kernel.
    source = b"""\
ALIGN = "__attribute__((aligned(16)))"
DOC = "HIP's __global__ is clang's __attribute__((global)) attribute"
"""
    assert _layers("extra/notes.py", source) == {"portable": 2}


# -- anulum/scpn-quantum-control: "mps" is a matrix product state ---------------------------


def test_quantum_harness_mps_baseline_is_no_apple_device() -> None:
    # tests/test_decisive_run_harness.py: the classical baselines of a quantum benchmark, one of
    # them a matrix-product-state simulation (`claim_boundary="mps"`); tests/test_mps_evolution.py
    # lists "mps" among the keys of a DMRG result. Before, each was an Apple GPU device string.
    source = b"""\
def baselines(n):
    return [
        Baseline(kind="dense", max_qubits=n, claim_boundary="dense"),
        Baseline(kind="tensor_network", max_qubits=n, claim_boundary="mps"),
    ]
"""
    assert _layers("tests/test_decisive_run_harness.py", source) == {"portable": 5}


def test_quantum_model_on_an_apple_gpu_is_still_vendor_path() -> None:
    # The negative: a hybrid quantum model that imports torch and is moved to "mps" runs on
    # the Apple GPU, qubits or not.
    source = b"""\
import torch

n_qubits = 4
model = HybridModel(n_qubits).to("mps")
"""
    assert _rules("qml/train.py", source) == {"metal.device-string"}
    assert _layers("qml/train.py", source) == {"vendor-path": 1, "portable": 2}


# -- yasyamanoi/BaseCrossDx12: the PhysX 5 SDK's GPU features, vendored ----------------------


def test_physx_gpu_factories_taking_the_cuda_context_are_vendor_path() -> None:
    # Samples/Libs/PhysX/include/gpu/PxPhysicsGpu.h and PxPhysics.h: the particle, isosurface
    # and deformable factories take a PxCudaContextManager and exist on NVIDIA GPUs only.
    # Before, both headers were portable while PxCudaContextManager.h itself was vendor-path.
    source = b"""\
class PxCudaContextManager;

class PxPhysicsGpu
{
public:
    virtual PxIsosurfaceExtractor* createIsosurfaceExtractor(PxCudaContextManager* manager,
        const PxBounds3& worldBounds, PxReal cellSize) = 0;
    virtual void release() = 0;
};
"""
    assert _rules("include/gpu/PxPhysicsGpu.h", source) == {"cuda.physx-gpu-api"}
    assert _layers("include/gpu/PxPhysicsGpu.h", source) == {"vendor-path": 2, "portable": 6}


def test_physx_cpu_scene_setup_stays_portable() -> None:
    # The negative: a scene set up for the CPU solver, with the forward declaration every
    # PhysX header carries, uses no GPU feature.
    source = b"""\
class PxCudaContextManager;

void setupScene(PxSceneDesc& desc, PxCpuDispatcher* dispatcher)
{
    desc.cpuDispatcher = dispatcher;
    desc.broadPhaseType = PxBroadPhaseType::ePABP;
    desc.flags |= PxSceneFlag::eENABLE_CCD;
}
"""
    assert _layers("src/physics/Scene.cpp", source) == {"portable": 7}


def test_d3d12_pipeline_state_is_vendor_path_and_its_hlsl_is_kernel() -> None:
    # Checked right: Samples/Libs/StandardLib/Components/BcStaticDraw.cpp builds its pipeline
    # state through Direct3D 12 (vendor-path, a settled convention) and Shaders/*.hlsl are
    # shader code, every line of them.
    host = b"""\
void BcStaticDraw::OnCreate() {
    D3D12_GRAPHICS_PIPELINE_STATE_DESC psoDesc = {};
    psoDesc.DSVFormat = DXGI_FORMAT_D32_FLOAT;
    ThrowIfFailed(device->CreateGraphicsPipelineState(&psoDesc, IID_PPV_ARGS(&pipelineState)));
}
"""
    shader = b"""\
#include "SpINCStructs.hlsli"

PSPCInput main(VSPCInput input)
{
    PSPCInput result;
    result.position = mul(input.position, MatrixTransform);
    return result;
}
"""
    assert "hlsl.directml-host" in _rules("Components/BcStaticDraw.cpp", host)
    assert _layers("Shaders/SpVSPCSprite.hlsl", shader) == {"kernel": 7}
