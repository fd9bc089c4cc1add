"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-l).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 198-204. One could not be read: Atomheart-Father/gguf2mlx-stream (no snapshot).
Fifteen files of each remaining repository were sampled with ``random.Random("owner/name")``
over every file lockin counts, and labelled before any fix, with the files lockin calls
non-portable (up to twenty) and GPU-looking files it calls portable (up to ten), and three
commits touching GPU code drawn with ``random.Random("owner/name:commits")``. Each snippet is
a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- szecsi/dx12: Direct3D 12 samples with Boost, PhysX and assimp vendored ---------------


def test_dx12_boost_arm_spinlock_barrier_is_cpu_assembly() -> None:
    # Common/Boost/include/boost/smart_ptr/detail/spinlock_gcc_arm.hpp: the barrier template
    # is a macro chosen by the __ARM_ARCH_* level. Before, its two asm lines were PTX kernel
    # code, and every vendored Boost made its repository non-portable.
    source = b"""\
#if defined(__ARM_ARCH_7__) || defined(__ARM_ARCH_7A__)
# define SP_BARRIER "dmb"
#else
# define SP_BARRIER ""
#endif

class spinlock {
public:
    int v_;
    void unlock() {
        __asm__ __volatile__( SP_BARRIER ::: "memory" );
        *const_cast< int volatile* >( &v_ ) = 0;
        __asm__ __volatile__( SP_BARRIER ::: "memory" );
    }
};
"""
    assert _rules("include/boost/smart_ptr/detail/spinlock_gcc_arm.hpp", source) == set()


def test_dx12_boost_ia64_fetchadd_is_cpu_assembly() -> None:
    # Common/Boost/include/boost/smart_ptr/detail/sp_counted_base_gcc_ia64.hpp: IA-64 writes
    # its destination as `%0=%1`, which no PTX instruction does. Before: three kernel lines.
    source = b"""\
inline void atomic_increment( int * pw )
{
    int tmp;
    __asm__ ("fetchadd4.rel %0=%1,1" :
         "=r"(tmp), "=m"(*pw) :
         "m"( *pw ));
}
"""
    assert _rules("include/boost/smart_ptr/detail/sp_counted_base_gcc_ia64.hpp", source) == set()


def test_dx12_ptx_with_output_constraints_stays_kernel() -> None:
    # The negative: PTX's `=r` constraints are strings of their own, not an assigned operand.
    source = b"""\
inline unsigned lane_id() {
    unsigned id;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
    return id;
}
"""
    assert "cuda.ptx-asm" in _rules("src/warp.cuh", source)


def test_dx12_d3d12_command_list_is_vendor_path() -> None:
    # ggl012-Script/ggl011App.h: Direct3D 12 host code is vendor-path (hlsl.directml-host), a
    # settled convention; checked right.
    source = b"""\
void PopulateCommandList() {
    commandAllocator->Reset();
    commandList->ResourceBarrier(1, &CD3DX12_RESOURCE_BARRIER::Transition(
        rt.Get(), D3D12_RESOURCE_STATE_PRESENT, D3D12_RESOURCE_STATE_RENDER_TARGET));
    commandList->Close();
}
"""
    assert _rules("ggl012-Script/App.h", source) == {"hlsl.directml-host"}


# -- pestopoppa/epyc-inference-research: vendored FR-Spec and SpecMQuant CUDA sources -------


def test_epyc_flash_attention_kernels_declared_by_a_macro_count() -> None:
    # research/specmquant/SpecMQuant/src/flash_attn/src/flash_fwd_launch_template.h (Tri Dao's
    # flash-attention, vendored): DEFINE_FLASH_FORWARD_KERNEL(name, ...) expands over three
    # continued lines to `template<...> __global__ void name(...)` and each use carries the
    # kernel's body. Before, only the macro's lines were kernel code (6 of the file's ~22).
    source = b"""\
#define ATTN_PARAM_MODIFIER __grid_constant__

#define DEFINE_ATTN_KERNEL(kernelName, ...) \\
template<typename Traits, __VA_ARGS__> \\
__global__ void kernelName(ATTN_PARAM_MODIFIER const AttnParams params)

DEFINE_ATTN_KERNEL(attn_fwd_kernel, bool Is_causal, bool Is_even) {
    #if defined(ARCH_SUPPORTS_ATTN)
        attn::compute<Traits, Is_causal, Is_even>(params);
    #else
        ATTN_UNSUPPORTED_ARCH
    #endif
}

DEFINE_ATTN_KERNEL(attn_combine_kernel, int kBlockM) {
    static_assert(kBlockM >= 1);
    attn::combine<Traits, kBlockM>(params);
}

template<typename Traits>
void run_attn(AttnParams &params, cudaStream_t stream) {
    auto kernel = &attn_fwd_kernel<Traits, false, true>;
    kernel<<<1, 128, 0, stream>>>(params);
}
"""
    assert "cuda.device-macro" in _rules("src/flash_attn/src/launch_template.h", source)
    assert _layers("src/flash_attn/src/launch_template.h", source) == {
        "kernel": 14,
        "vendor-path": 3,
        "portable": 3,
    }


def test_epyc_cuda_graph_flag_to_own_script_is_portable() -> None:
    # research/specmquant/SpecMQuant/scripts/eval/.../run_baseline.sh: `--cuda-graph` is a flag
    # of the project's own evaluation script; the script's Python decides. Checked right.
    source = b"""\
Model_Path=models/Llama-8B-Instruct
python3 evaluation/inference_baseline.py \\
    --model-path $Model_Path \\
    --cuda-graph \\
    --memory-limit 0.80
"""
    assert _rules("scripts/eval/gsm8k/run_baseline.sh", source) == set()


def test_epyc_script_pinning_a_gpu_is_vendor_path() -> None:
    # research/frspec/FR-Spec/scripts/*/run_eagle.sh: the same run on a chosen NVIDIA GPU.
    source = b"""\
export CUDA_VISIBLE_DEVICES=3
python3 evaluation/inference_eagle.py --cuda-graph
"""
    assert _rules("scripts/spec_bench/run_eagle.sh", source) == {"env.cuda-variables"}


# -- Gab-San/lbm-simulation-lib: an OpenMP lattice-Boltzmann library with a CUDA stub ------


def test_lbm_backend_enum_named_cuda_is_portable() -> None:
    # include/lbm-sim/backend/metadata.hpp and problems/problem_3d.hpp: the project's own
    # enumerator CUDA selects a stub that throws; no CUDA header, API or kernel. Checked right.
    source = b"""\
enum ExecutionBackend { CUDA, OPEN_MP };

template <ExecutionBackend backend> struct ExecutionContext;
template <> struct ExecutionContext<ExecutionBackend::CUDA> {
  void *stream = nullptr;
  int block_x = 16;
};

template <ExecutionBackend b>
void apply(Grid& g) {
    if constexpr (b == ExecutionBackend::CUDA) {
        cuda_apply_boundary(g);
    }
}
"""
    assert _rules("include/lbm-sim/backend/metadata.hpp", source) == set()


# -- dj24/soulflame-webgpu: WebGPU voxel renderer, WGSL in files and template strings ------


def test_soulflame_wgsl_in_a_template_string_is_kernel() -> None:
    # src/renderer/shadow-pass/get-shadows-pass.ts: the shader's bindings and entry written in
    # a TypeScript template string with ${} pieces. Checked right.
    source = b"""\
export const shadowCode = `
@group(0) @binding(0) var depthTex : texture_2d<f32>;
@group(0) @binding(1) var outputTex : texture_storage_2d<${FORMAT}, write>;

const DOWNSCALE = 1;
${matrices}
${shadows}`;

export const makePass = () => device.createBindGroupLayout({ entries });
"""
    assert _rules("src/renderer/shadow-pass/get-shadows-pass.ts", source) == {"wgsl.source-string"}
