"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-e).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 362-369: hegusung/WebHashcat, apexearth/particle-defense, OptimalDesignLab/PDESolver.jl,
hshindo/CUDNN.jl, cybernetic-physics/vectorized-gaussian-renderer-public,
HeroJho/D3DX11_DuskDiver2, eitanturok/tinygrad and Tecelecta/stencil-lifting. None was skipped.
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over every
file lockin counts, and labelled before any fix, with the files lockin calls non-portable (up
to twenty) and GPU-looking files it calls portable (up to ten); up to three commits touching
GPU code per repository were drawn with ``random.Random("owner/name:commits")``. Each snippet is
a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- eitanturok/tinygrad: a tinygrad fork with its AMD assembler, driver and profilers ----------


def test_tinygrad_rdna3_program_built_from_instruction_calls_is_amd_only() -> None:
    # test/amd/hw/test_global.py: each test is an RDNA3 program written as a list of calls named
    # as the ISA spells them, run on the emulator or the GPU. Before, the 564-line suite (and its
    # twelve siblings) was portable.
    source = b"""\
import unittest
from test.amd.hw.helpers import *

class TestGlobalAtomic(unittest.TestCase):
  def test_add(self):
    prog = [
      s_load_b64(s[2:3], s[80:81], 0, soffset=NULL),
      s_waitcnt(lgkmcnt=0),
      v_mov_b32_e32(v[0], s[2]),
      global_atomic_add_u32(addr=v[0:1], data=v[3], vdst=v[4], saddr=NULL, offset=2000),
      s_waitcnt(vmcnt=0),
    ]
    st = run_program(prog, n_lanes=1)
    self.assertEqual(st.vgpr[0][4], 100)
"""
    assert _rules("test/amd/hw/test_global.py", source) == {"hip.isa-builder"}
    assert _layers("test/amd/hw/test_global.py", source) == {"vendor-path": 5, "portable": 8}


def test_tinygrad_hand_written_kernel_emitting_instructions_is_amd_only() -> None:
    # test/testextra/test_cfg_viz.py and extra/gemm/amd_asm_matmul.py: a Kernel builder takes
    # one instruction per emit() call, with the tables imported from tinygrad's autogen.
    source = b"""\
from tinygrad.runtime.autogen.amd.rdna3.ins import *
from extra.gemm.amd_asm_matmul import Kernel

def diamond(arch):
  k = Kernel(arch=arch)
  k.emit(s_mov_b32(s[0], 0))
  k.emit(s_cmp_eq_u64(s[0:1], 0))
  k.emit(s_cbranch_scc1(), target="end")
  k.label("end")
  k.emit(s_endpgm())
  return k
"""
    assert _layers("test/testextra/test_cfg_viz.py", source) == {"vendor-path": 4, "portable": 6}


def test_isa_shaped_names_without_the_assembler_stay_portable() -> None:
    # The negative: a model's projections and a helper whose name ends in a width, in a file
    # that neither imports the instruction tables nor calls an instruction only the ISA names.
    source = b"""\
import numpy as np

def attention(self, x):
  q, v = self.q_proj(x), self.v_proj(x)
  return s_max32(q @ v.T), v_sum_f32(v)
"""
    assert _layers("models/attention.py", source) == {"portable": 4}


def test_tinygrad_userspace_amd_driver_is_vendor_path() -> None:
    # tinygrad/runtime/support/am/amdev.py: the PCI driver that boots an AMD GPU's IP blocks,
    # chosen by the amdgpu driver's hardware-IP ids. Before, it was portable while its sibling
    # ip.py was vendor-path, so a commit growing it (606786e1, is_hive) passed the gate.
    source = b"""\
from tinygrad.runtime.autogen.am import am

class AMDev:
  def is_hive(self) -> bool: return self.gmc.xgmi_seg_sz > 0

  def reset(self):
    if self.ip_ver[am.MP0_HWIP] >= (14, 0, 0): self.smu.mode1_reset()
"""
    assert _rules("tinygrad/runtime/support/am/amdev.py", source) == {"hip.kernel-driver-python"}
    assert _layers("tinygrad/runtime/support/am/amdev.py", source) == {"vendor-path": 5}


def test_tinygrad_cupti_profiler_through_python_bindings_is_vendor_path() -> None:
    # extra/nv_pma/cupti/cu_prof_ext.py: PC sampling through CUPTI's C names on a ctypes
    # binding. Before, cuda.cupti read C++ and Cython only and the profiler was portable.
    source = b"""\
from extra.nv_pma.cupti import cupti

class CUPTIProfiler:
  def init(self):
    params = cupti.CUpti_Profiler_Initialize_Params()
    cupti.cuptiProfilerInitialize(params)
    self.kernels = []
"""
    assert _rules("extra/nv_pma/cupti/cu_prof_ext.py", source) == {"cuda.cupti"}
    assert _layers("extra/nv_pma/cupti/cu_prof_ext.py", source) == {
        "vendor-path": 2,
        "portable": 4,
    }


def test_tinygrad_generated_cupti_binding_is_not_counted_by_cuda_cupti() -> None:
    # extra/nv_pma/cupti/cupti.py: the binding declares the API (as cupti.h does); the rule for
    # ctypes runtime bindings, not cuda.cupti, decides what it counts.
    source = b"""\
class CUptiResult(Annotated[int, ctypes.c_uint32], c.Enum): pass
CUPTI_SUCCESS = CUptiResult.define('CUPTI_SUCCESS', 0)
@dll.bind
def cuptiActivityEnable(kind:CUpti_ActivityKind) -> CUptiResult: ...
"""
    assert "cuda.cupti" not in _rules("extra/nv_pma/cupti/cupti.py", source)


def test_tinygrad_halide_pipeline_compiled_for_metal_is_apple_vendor_path() -> None:
    # extra/gemm/halide_gemm.py: the GPU schedule is compiled for the host target with Metal
    # added; asking a target whether it has the feature chooses nothing. Before, portable.
    source = b"""\
import halide as hl

def run(pipe):
  target = hl.get_host_target().with_feature(hl.TargetFeature.Metal)
  if target.has_feature(hl.TargetFeature.Metal):
    pipe.compile_jit(target)
"""
    assert _rules("extra/gemm/halide_gemm.py", source) == {"metal.backend-enum-choice"}
    assert _layers("extra/gemm/halide_gemm.py", source) == {"vendor-path": 1, "portable": 4}


# -- cases checked right that were hard --------------------------------------------------------


def test_stencil_lifting_halide_gpu_target_trying_cuda_alone_is_vendor_path() -> None:
    # Tecelecta/stencil-lifting examples/gen_code/*_halide.cpp: the generated benchmark asks
    # Halide for a GPU target by adding CUDA to the host target, OpenCL left commented out.
    source = b"""\
Target find_gpu_target() {
    Target target = get_host_target();
    std::vector<Target::Feature> features_to_try;
    features_to_try.push_back(Target::CUDA);
    for (Target::Feature f : features_to_try) {
        Target t = target.with_feature(f);
        if (host_supports_target_device(t)) return t;
    }
    return target;
}
"""
    assert _rules("examples/gen_code/heat_halide.cpp", source) == {"cuda.backend-enum-choice"}
    assert _layers("examples/gen_code/heat_halide.cpp", source) == {
        "vendor-path": 1,
        "portable": 9,
    }


def test_cudnn_jl_handle_creation_is_vendor_library() -> None:
    # hshindo/CUDNN.jl src/handle.jl: Julia's ccall wrappers over cuDNN's handle API.
    source = b"""\
type Handle
  ptr::Ptr{Void}
  function Handle()
    p = Ptr{Void}[0]
    cudnnCreate(p)
    h = new(p[1])
    finalizer(h, cudnnDestroy)
    h
  end
end
"""
    assert _rules("src/handle.jl", source) == {"cudnn.call"}
    assert _layers("src/handle.jl", source)["vendor-library"] == 2
