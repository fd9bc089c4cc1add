"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h49-random-k).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 343-349 and skipped none. Seven were read:
hicann/ascend-transformer-boost (Huawei's transformer operator library for Ascend NPUs: Ascend
C kernels in .cpp, .h and .cce files, Mki host operators, torch_npu tests),
vllm-project/agentic-api (a Python proxy, no GPU code), Cewein/nerv_pathtracer (an OpenGL
path tracer with GLSL shaders), fishercht1995/test-deepspeed (pipeline-parallel inference
scripts on CUDA), hblaney/mlbML (a baseball betting web app, no GPU code), beru/libonnx (an
ONNX runtime in plain C) and AichenF/DeepGEMM (a fork of DeepSeek's CUDA GEMM kernels and
their JIT host). Samples were drawn by ``/work/lead/sample.py``: fifteen files of each
repository with ``random.Random("owner/name")`` over every file lockin counts, labelled
before any fix, the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, and three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- hicann/ascend-transformer-boost: .cce kernels had no language --------------------------


def test_cce_kernel_file_is_counted_as_ascend_kernel_code() -> None:
    # src/kernels/kernels/matmul/*/op_kernel/*.cce: a kernel class of __aicore__ members over
    # AscendC tensors and an extern "C" __global__ __aicore__ entry; the file was not counted.
    source = b"""\
#include "kernels/utils/kernel/common.h"

class CopyTile {
public:
    __aicore__ void Init(__gm__ uint8_t *src, __gm__ uint8_t *dst)
    {
        srcGm.SetGlobalBuffer((__gm__ half *)src);
        dstGm.SetGlobalBuffer((__gm__ half *)dst);
    }
private:
    AscendC::GlobalTensor<half> srcGm;
    AscendC::GlobalTensor<half> dstGm;
};

extern "C" __global__ __aicore__ void copy_tile(__gm__ uint8_t *src, __gm__ uint8_t *dst)
{
    CopyTile op;
    op.Init(src, dst);
}
"""
    assert _rules("op_kernel/copy_tile.cce", source) == {
        "ascend.aicore-kernel",
        "ascend.kernel-types",
    }
    assert _layers("op_kernel/copy_tile.cce", source) == {"kernel": 12, "portable": 5}


# -- hicann/ascend-transformer-boost: an operator gated on the Ascend chip generation -------


def test_ascend_chip_generation_check_is_vendor_path() -> None:
    # src/ops/ops_infer/faupdate/faupdate_operation.cpp: the operator refuses every chip but
    # the 910B through the library's Config singleton; the rest is shape checking.
    source = b"""\
Status MergeOperation::CheckParams() const
{
    if (!GetSingleton<Config>().Is910B()) {
        return ERROR_INVALID_PARAM;
    }
    return param_.parts > 0 ? NO_ERROR : ERROR_INVALID_PARAM;
}
"""
    assert _rules("src/ops/merge/merge_operation.cpp", source) == {"ascend.soc-check"}
    assert _layers("src/ops/merge/merge_operation.cpp", source) == {
        "vendor-path": 1,
        "portable": 6,
    }


def test_platform_type_enum_declaration_is_portable() -> None:
    # The enum listing the chips and a Mki-style host operator that never tests it.
    source = b"""\
enum class PlatformType { ASCEND_310P, ASCEND_910B };

bool Accepts(int inputs)
{
    return inputs == 2;
}
"""
    assert _rules("src/platform/platform_type.h", source) == set()
    assert _layers("src/platform/platform_type.h", source) == {"portable": 5}


# -- verdicts already right, pinned ------------------------------------------------------


def test_glsl_include_file_with_commented_directives_is_kernel() -> None:
    # Cewein/nerv_pathtracer shader/commun.glsl: a GLSL fragment spliced by the host, its
    # #version and #include kept in `//?` comments, random helpers over vec2/vec3.
    source = b"""\
//? #version 450

float hash(vec2 p) {
    return fract(sin(dot(p, vec2(12.9898, 78.233))) * 43758.5453);
}

vec3 onSphere(vec2 st) {
    float a = hash(st) * 6.2831853;
    return vec3(cos(a), 0.0, sin(a));
}
"""
    assert _layers("shader/common.glsl", source) == {"kernel": 7}


def test_pipeline_script_device_string_is_vendor_path() -> None:
    # fishercht1995/test-deepspeed test_pippy/test_opt_125m.py: the stage device is a CUDA
    # device string chosen by rank; the rest is Hugging Face and torch.distributed.
    source = b"""\
import torch
import torch.distributed as dist

rank = dist.get_rank()
device = torch.device(f"cuda:{rank % 8}")
model = build_model().to(device)
"""
    assert _rules("test_pippy/run_stage.py", source) == {"torch.device-string"}
    assert _layers("test_pippy/run_stage.py", source) == {"vendor-path": 1, "portable": 4}


def test_mki_host_operator_is_portable() -> None:
    # hicann/ascend-transformer-boost src/kernels/kernels/split/split_v/split_v_kernel.cpp:
    # the host side of an operator in Huawei's Mki framework checks launch parameters and
    # fills tiling data, calling no CANN API (an open decision for the lead, pinned as is).
    source = b"""\
class SplitKernel : public KernelBase {
public:
    bool CanSupport(const LaunchParam &launchParam) const override
    {
        MKI_CHECK(launchParam.GetInTensorCount() == 1, "one input", return false);
        return true;
    }
};
REG_KERNEL_BASE(SplitKernel);
"""
    assert _rules("src/kernels/split/split_kernel.cpp", source) == set()
    assert _layers("src/kernels/split/split_kernel.cpp", source) == {"portable": 9}


# -- hicann/ascend-transformer-boost: a project macro for `inline __aicore__` ----------------


def test_aicore_macro_of_the_project_declares_device_functions() -> None:
    # src/kernels/lcal/src/kernels/coc_allgather.cce: the communication kernels declare their
    # member functions with FORCE_INLINE_AICORE (defined in comm_args.h), not __aicore__;
    # only the constructor was counted before.
    source = b"""\
#include "comm_args.h"

class RingGather {
public:
    FORCE_INLINE_AICORE void Step(__gm__ half *dst, __gm__ half *src, int32_t n)
    {
        DataCopy(dst, src, n);
        PipeBarrier<PIPE_ALL>();
    }
    FORCE_INLINE_AICORE void Wait()
    {
        CheckFlag(flags_, 1);
    }
};
"""
    assert _rules("kernels/ring_gather.cce", source) == {"ascend.aicore-kernel"}
    assert _layers("kernels/ring_gather.cce", source) == {"kernel": 9, "portable": 4}
