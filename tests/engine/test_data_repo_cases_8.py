"""Cases from an audit of GPU data systems and GPU languages the engine had not read (issue 27).

gunrock/gunrock (graph analytics written to HIP's API, mapped back to CUDA by a compat
header), owensgroup/BGHT and sleeepyjack/warpcore (GPU hash tables in CUDA headers),
Sergio0694/ComputeSharp (HLSL shaders written as C# structs), gpujs/gpu.js (JavaScript
functions translated to GLSL for WebGL), JuliaGPU/AMDGPU.jl (ROCm from Julia), hidet-org/hidet
(a compiler whose operators are Python functions compiled to CUDA C) and jcuda/jcuda (the CUDA
APIs bound to Java). Each snippet is a small rewrite, in our own words, of a pattern found in
the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers


def _spans(path: str, source: bytes) -> list[tuple[str, int, int]]:
    return [(f.rule, f.start_line, f.end_line) for f in classify(path, source).findings]


# -- gpujs/gpu.js: kernels are JavaScript functions -------------------------------------------


def test_gpujs_kernel_reading_its_thread_is_kernel_code() -> None:
    # test/issues/390-thread-assignment.js: a named function handed to createKernel later.
    source = b"""\
const { GPU } = require('../../src');

function kernel(value) {
  const x = this.thread.x;
  const y = this.thread.y;
  return value[y][x] * 2;
}

function run(mode) {
  const gpu = new GPU({ mode });
  const k = gpu.createKernel(kernel, { output: [2, 2] });
  return k([[1, 2], [3, 4]]);
}
"""
    assert _spans("test/issues/390-thread-assignment.js", source) == [("vulkan.gpujs-kernel", 3, 7)]
    assert _layers("test/issues/390-thread-assignment.js", source) == {"kernel": 5, "portable": 6}


def test_gpujs_function_literal_without_thread_is_kernel_code() -> None:
    # test/internal/math.random.js: the kernel returns Math.random() and never reads its thread.
    source = b"""\
function check(mode) {
  const gpu = new GPU({ mode });
  const kernel = gpu.createKernel(function () {
    const v = Math.random();
    return v;
  }, { output: [1] });
  return kernel()[0];
}
"""
    assert _spans("test/internal/math.random.js", source) == [("vulkan.gpujs-kernel-literal", 3, 6)]
    report = classify("test/internal/math.random.js", source)
    assert report.ecosystems == {"vulkan": 4}


def test_gpujs_host_code_naming_threads_stays_portable() -> None:
    # src/utils.js: the translator's helpers talk about threads and kernels without being one.
    source = b"""\
const utils = {
  getKernelTextFromFunction(fn) { return fn.toString(); },
  threadDims(output) { return { x: output[0], y: output[1] || 1 }; },
  createKernelFrom(gpu, source) { return gpu.createKernel(source); },
};
module.exports = { utils };
"""
    assert _layers("src/utils.js", source) == {"portable": 6}


def test_gpujs_kernel_opening_on_the_next_line_is_kernel_code() -> None:
    # test/issues/564-boolean.js: `createKernel(` ends its line, the function opens below.
    source = b"""\
const gpu = new GPU({ mode });
gpu.addNativeFunction('fft', fft, { returnType: 'Array(4)' });
const kernel = gpu.createKernel(
  function() {
    let s = true;
    return fft(s);
  }, {
    output: [1],
  }
);
"""
    assert _spans("test/issues/564-boolean.js", source) == [("vulkan.gpujs-kernel-literal", 3, 7)]


# -- sleeepyjack/warpcore: device code behind hpc_helpers' qualifier macros --------------------


def test_warpcore_qualifier_macros_from_a_submodule_mark_device_code() -> None:
    # include/multi_bucket_hash_table.cuh: HOSTDEVICEQUALIFIER and DEVICEQUALIFIER come from
    # the hpc_helpers submodule, absent from the tree; their names say what they expand to.
    source = b"""\
#include "../ext/hpc_helpers/include/cuda_helpers.cuh"

template<class Value, unsigned BucketSize = 1>
struct ArrayBucket {
    HOSTDEVICEQUALIFIER INLINEQUALIFIER
    static constexpr unsigned bucket_size() noexcept
    {
        return BucketSize;
    }

    DEVICEQUALIFIER INLINEQUALIFIER
    Value& operator[](unsigned i) noexcept { return values_[i]; }

    HOSTQUALIFIER INLINEQUALIFIER
    unsigned host_size() const noexcept { return BucketSize; }

    Value values_[BucketSize];
};
"""
    spans = _spans("include/multi_bucket_hash_table.cuh", source)
    assert ("cuda.device-qualifier-macro", 5, 12) in spans  # the device members, not the host one
    assert _layers("include/multi_bucket_hash_table.cuh", source)["kernel"] == 7


# -- Sergio0694/ComputeSharp: shaders are C# structs --------------------------------------------


def test_computesharp_compute_shader_struct_is_hlsl_kernel_code() -> None:
    # samples/ComputeSharp.SwapChain.Shaders/*.cs: attributes, the struct and its helpers.
    source = b"""\
namespace ComputeSharp.SwapChain.Shaders;

/// <summary>An animated gradient.</summary>
[ThreadGroupSize(DefaultThreadGroupSizes.XY)]
[GeneratedComputeShaderDescriptor]
internal readonly partial struct Gradient(float time) : IComputeShader<float4>
{
    private static float3 Palette(float t)
    {
        return 0.5f + 0.5f * Hlsl.Cos(6.28f * (t + new float3(0, 0.33f, 0.67f)));
    }

    public float4 Execute()
    {
        float2 uv = (float2)ThreadIds.XY / DispatchSize.XY;
        return new(Palette(uv.X + time), 1);
    }
}
"""
    assert _spans("samples/Shaders/Gradient.cs", source) == [("hlsl.computesharp-shader", 4, 18)]
    assert classify("samples/Shaders/Gradient.cs", source).ecosystems == {"hlsl": 14}
    assert _layers("samples/Shaders/Gradient.cs", source) == {"kernel": 14, "portable": 1}


def test_computesharp_dispatch_and_interface_stay_portable() -> None:
    # src/ComputeSharp/Interfaces/IComputeShader.cs and a host dispatching a shader: the host
    # runs on Direct3D 12 through the library, with no shader of its own.
    source = b"""\
namespace ComputeSharp;

public interface IComputeShader
{
    void Execute();
}

public static class Runner
{
    public static void Run(ReadWriteBuffer<float> buffer)
    {
        GraphicsDevice.GetDefault().For(buffer.Length, new Invert(buffer));
    }
}
"""
    assert _layers("src/ComputeSharp/Interfaces/IComputeShader.cs", source) == {"portable": 12}


def test_computesharp_direct3d12_host_code_is_a_windows_gpu_path() -> None:
    # src/ComputeSharp/Graphics/GraphicsDevice.cs: the device wraps an ID3D12Device and its
    # compute queue, as onnxruntime-genai's DirectML code does from C++.
    source = b"""\
public sealed unsafe partial class GraphicsDevice
{
    private ComPtr<ID3D12Device> d3D12Device;
    private readonly ID3D12CommandQueueFactory computeQueue;
    public string Name { get; }

    public void Create()
    {
        D3D12_COMMAND_QUEUE_DESC desc = default;
        desc.Type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
    }
}
"""
    report = classify("src/ComputeSharp/Graphics/GraphicsDevice.cs", source)
    assert report.ecosystems == {"hlsl": 4}
    assert _layers("src/ComputeSharp/Graphics/GraphicsDevice.cs", source) == {
        "vendor-path": 4,
        "portable": 7,
    }


# -- hidet-org/hidet: operators written in hidet Script ------------------------------------------


def test_hidet_script_kernel_and_its_helpers_are_cuda_kernel_code() -> None:
    # python/hidet/graph/ops/matmul/matmul_f16.py: helper scripts, then the kernel that sets
    # its launch attributes; the task's Python around them stays portable.
    source = b"""\
class MatmulF16Task(Task):
    def implement_cuda(self, working_dir):
        with hidet.script_module() as module:
            @hidet.script
            def load_smem_a(k0: int, a: f16[m, k], smem_a: smem_t):
                for i in range(4):
                    smem_a[threadIdx.x, i] = a[blockIdx.x, k0 + i]

            @hidet.script
            def matmul_kernel(a: f16[m, k], c: f16[m, n]):
                attrs.cuda.grid_dim = m // 64
                attrs.cuda.block_dim = 128
                smem_a = shared_tensor('float16', [128, 4])
                load_smem_a(0, a, smem_a)
                c[blockIdx.x, threadIdx.x] = smem_a[threadIdx.x, 0]
        return module.ir_module()
"""
    assert _spans("python/hidet/graph/ops/matmul/matmul_f16.py", source) == [
        ("cuda.hidet-script-function", 4, 7),
        ("cuda.hidet-script-kernel", 9, 15),
    ]
    layers = _layers("python/hidet/graph/ops/matmul/matmul_f16.py", source)
    assert layers == {"kernel": 11, "portable": 4}


def test_hidet_module_with_cpu_schedules_counts_only_its_cuda_kernel() -> None:
    # python/hidet/graph/ops/softmax.py: implement_cpu schedules AVX scripts beside the CUDA
    # one; only the script with CUDA launch attributes is CUDA code.
    source = b"""\
class SoftmaxTask(Task):
    def implement_cuda(self, working_dir):
        @hidet.script
        def softmax_kernel(xs: f32[n], ys: f32[n]):
            attrs.cuda.block_dim = 32
            attrs.cuda.grid_dim = rows
            ys[blockIdx.x, threadIdx.x] = xs[blockIdx.x, threadIdx.x]
        return softmax_kernel

    def implement_cpu(self, working_dir):
        @hidet.script
        def softmax_cpu(xs: f32[n], ys: f32[n]):
            for i in range(n):
                ys[i] = xs[i]
        return softmax_cpu
"""
    assert _spans("python/hidet/graph/ops/softmax.py", source) == [
        ("cuda.hidet-script-kernel", 3, 7)
    ]


def test_hidet_primitive_with_inline_ptx_is_cuda_kernel_code() -> None:
    # python/hidet/ir/primitives/cuda/ldst.py: a script function around one asm() call, the
    # PTX template built from the loop's dtype; the name resolution around it stays portable.
    source = b"""\
def resolve_load_inst_name(nbits: int, sync: str) -> str:
    return f'ld.{sync}.gpu.b{nbits}'


@initialize()
def register_functions():
    from hidet.lang import attrs, script, asm

    for dtype in ['uint32', 'float32']:
        inst_name = resolve_load_inst_name(32, 'acquire')

        @script
        def cuda_load(addr: ~data_type(dtype)) -> data_type(dtype):
            attrs.func_name = 'cuda_' + inst_name.replace('.', '_')
            ret: data_type(dtype) = 0
            asm(inst_name + ' %0, [%1];', outputs=[ret], inputs=[addr], is_volatile=True)
            return ret

        register_primitive_function(cuda_load.name, cuda_load)
"""
    assert _spans("python/hidet/ir/primitives/cuda/ldst.py", source) == [
        ("cuda.hidet-inline-ptx", 12, 17)
    ]


# -- JuliaGPU/AMDGPU.jl, jcuda/jcuda, gunrock/gunrock --------------------


def test_amdgpu_jl_nested_kernel_launched_with_roc_is_hip_kernel_code() -> None:
    # src/kernels/indexing.jl: findall's kernel is a closure reading workitemIdx().
    source = b"""\
using AMDGPU
function Base.findall(bools::ROCArray{Bool})
    ys = ROCArray{Int}(undef, length(bools))
    function _ker!(ys, bools)
        i = workitemIdx().x + (workgroupIdx().x - Int32(1)) * workgroupDim().x
        if i <= length(bools) && bools[i]
            ys[i] = i
        end
        return
    end
    kernel = @roc launch=false _ker!(ys, bools)
    kernel(ys, bools; groupsize=256, gridsize=cld(length(bools), 256))
    return ys
end
"""
    assert ("hip.julia-kernel", 4, 10) in _spans("src/kernels/indexing.jl", source)
    assert _layers("src/kernels/indexing.jl", source)["kernel"] == 7


def test_amdgpu_jl_runtime_calling_hip_is_amd_code() -> None:
    # src/hip/device.jl: AMDGPU.jl's device handle over HIP's runtime, called through the
    # package's generated wrappers (no ROCArray or @roc in the file).
    source = b"""\
struct HIPDevice
    device::hipDevice_t
    device_id::Cint
end

function HIPDevice(device_id::Integer)
    device_ref = Ref{hipDevice_t}()
    hipDeviceGet(device_ref, device_id - 1)
    HIPDevice(device_ref[], device_id)
end

device_id(d::HIPDevice) = d.device_id - 1
"""
    assert _spans("src/hip/device.jl", source) == [
        ("hip.julia-host", 2, 2),
        ("hip.julia-host", 7, 8),
    ]
    assert classify("src/hip/device.jl", source).ecosystems == {"hip": 3}


def test_jcuda_binding_classes_are_cuda_code_as_a_whole() -> None:
    # JCudaJava/src/main/java/jcuda/runtime/cudaMemoryAdvise.java: one of JCuda's hundreds of
    # classes mirroring a CUDA enum or struct. It calls nothing, but the package exists only
    # to reach CUDA, as a GPU compiler's PTX back-end package does.
    constants = b"""\
package jcuda.runtime;

public class cudaMemoryAdvise
{
    public static final int cudaMemAdviseSetReadMostly = 1;
    public static String stringFor(int n)
    {
        return n == 1 ? "cudaMemAdviseSetReadMostly" : "INVALID cudaMemoryAdvise: " + n;
    }
    private cudaMemoryAdvise() {}
}
"""
    path = "JCudaJava/src/main/java/jcuda/runtime/cudaMemoryAdvise.java"
    assert _layers(path, constants) == {"vendor-path": 10}
    assert _spans(path, constants) == [("cuda.managed-backend", 1, 11)]
    # A program of the user's own package: its JCuda imports and nothing else.
    caller = b"""\
package org.example.volume;

import static jcuda.runtime.JCuda.cudaFree;
import static jcuda.runtime.JCuda.cudaMalloc3D;

public class Upload
{
    public void run(cudaPitchedPtr p, cudaExtent e) { cudaMalloc3D(p, e); cudaFree(p.ptr); }
}
"""
    # Not a back-end package as a whole: the imports, and the line calling what they import
    # (cuda.managed-runtime-call reads the CUDA runtime names, statically imported or not).
    assert _spans("src/main/java/org/example/volume/Upload.java", caller) == [
        ("cuda.jcuda", 3, 4),
        ("cuda.managed-runtime-call", 8, 8),
    ]


def test_gunrock_kernel_on_hip_runtime_names_is_hip_code() -> None:
    # unittests/memory/memory.cuh: gunrock writes HIP's runtime names everywhere and maps them
    # to CUDA's in gunrock/compat/runtime_api.h when nvcc builds it.
    source = b"""\
#include <gunrock/compat/runtime_api.h>

template <int N>
__global__ void fill(int* a) {
  int idx = threadIdx.x + blockDim.x * blockIdx.x;
  if (idx < N)
    a[idx] = idx;
}

void run(int* device_ptr) {
  hipMalloc(&device_ptr, 4 * sizeof(int));
  fill<4><<<1, 4>>>(device_ptr);
  hipDeviceSynchronize();
}
"""
    assert _layers("unittests/memory/memory.cuh", source) == {
        "kernel": 6,
        "vendor-path": 3,
        "portable": 3,
    }
    assert classify("unittests/memory/memory.cuh", source).ecosystems == {"hip": 9}


def test_computesharp_d2d1_shader_in_a_raw_string_is_hlsl_kernel_code() -> None:
    # tests/ComputeSharp.D2D1.Tests/D2DPixelShaderSourceTests.cs: a Direct2D effect's HLSL in
    # a C# 11 raw string; a `//` inside the raw string is the shader's, not a C# comment, and
    # no more kernel code than a comment in a .hlsl file.
    source = b'''\
public partial class D2DPixelShaderSourceTests
{
    [D2DPixelShaderSource("""
        #define D2D_INPUT_COUNT 1
        #include "d2d1effecthelpers.hlsli"
        // invert the input
        D2D_PS_ENTRY(Execute)
        {
            return 1.0 - D2DGetInput(0);
        }
        """)]
    private static partial ReadOnlySpan<byte> InvertEffect();
}
'''
    path = "tests/ComputeSharp.D2D1.Tests/D2DPixelShaderSourceTests.cs"
    assert _spans(path, source) == [("hlsl.source-string", 3, 5), ("hlsl.source-string", 7, 11)]
    assert classify(path, source).code_lines == 13
