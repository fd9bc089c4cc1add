"""Cases from repositories drawn at random from a GPU sub-pool (issue 27, lane h56-random-t).

The sub-pool is ``/work/pool-h55-gpu.txt``: the names of pool ``/work/pool-h54.txt``, ordered
with ``random.seed("h54-pool")`` before anyone read it, from its position 253 on, that hold a
GPU term by the written rule in ``/work/pool/h55_gpu_rule.py`` (a rule on the name's text
only, so some are no GPU code at all). This lane took sub-pool positions 253-259. One was
skipped: KillerPixelCrew/VulkanStory (256) had no snapshot to fetch. Read were
DragonJoker/ShaderWriter (a C++ library writing GLSL, HLSL and SPIR-V shaders from a C++
embedded language: an AST, its back ends, a Vulkan layer building pipelines, and tests writing
shaders through the language), elentur/Raytracer-Last-Unicorn (a CPU ray tracer in Java with a
JavaFX editor, no GPU code), GITHUB243884919/triton2 (an MMO game server in C++ with Lua task
scripts and a MySQL client, no GPU code), ROCm/Megatron-LM (AMD's fork of NVIDIA's Megatron-LM:
PyTorch model parallelism, Transformer Engine layers, CI test cases setting NCCL and CUDA
environment variables), leandrotcawork/MetalDocs (a Go and TypeScript document-management
system for a company named Metal Nobre, no GPU code) and magarteem/triton-no-show (a React and
TypeScript web app, no GPU code). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, files outside the sample that hold kernel lines counted by hand (up to 5 a
repository), and up to three commits touching GPU code (``random.Random("owner/name:commits")``)
judged against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern
found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- DragonJoker/ShaderWriter: a C++ shading language embedded in C++ ------------------------


def test_edsl_image_member_named_atomic_add_is_portable() -> None:
    # include/ShaderWriter/BaseTypes/StorageImage.inl (an extra kernel file before the fix:
    # lockin 42 kernel lines by cuda.device-body, hand 0): the image type's members are named
    # after GLSL's built-ins and record an AST call; CUDA's atomicAdd is not used anywhere.
    source = b"""\
namespace edsl
{
    template< typename CoordT, typename ValueT >
    struct ImageAtomicAddT
    {
        auto atomicAdd( CoordT const & where
            , ValueT const & value )const
        {
            return makeImageCall< ValueT >( Intrinsic::eImageAtomicAdd
                , self()
                , where
                , value );
        }

        auto atomicMax( CoordT const & where
            , ValueT const & value )const
        {
            return makeImageCall< ValueT >( Intrinsic::eImageAtomicMax
                , self()
                , where
                , value );
        }
    };
}
"""
    path = "include/Edsl/BaseTypes/Image.inl"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_shader_written_through_the_sdw_namespace_is_portable() -> None:
    # test/ShaderWriter/TestWriterIntrinsics.cpp (an extra kernel file before the fix: lockin
    # 48 kernel lines by cuda.device-body, hand 0): a compute shader written in the embedded
    # language, whose atomicAdd is sdw's function building an expression; the library turns
    # it into GLSL, HLSL or SPIR-V for any vendor.
    source = b"""\
#include "WriterCommon.hpp"

namespace
{
    template< typename ValueT >
    void checkAtomicAdd( test::Counts & counts )
    {
        using namespace sdw;
        ComputeWriter writer;
        Struct layout{ writer, "Item" };
        layout.declMember< ValueT >( "total" );
        layout.end();
        ArrayStorageBufferT< StructInstance > items{ writer, "Items", layout.getType(), 0u, 0u };
        writer.implementMainT< VoidT >( 32u, [&]( ComputeIn in )
            {
                auto step = writer.declLocale< ValueT >( "step", makeOne< ValueT >( writer ) );
                atomicAdd( items[0].getMember< ValueT >( "total" ), step );
            } );
        test::writeShader( writer, counts );
    }
}
"""
    path = "test/Writer/TestWriterAtomics.cpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


def test_cuda_kernel_with_auto_locals_still_counts_its_atomics() -> None:
    # The widened exemption reads a deduced atomic's own declaration only: a CUDA kernel that
    # keeps `auto` locals and calls CUDA's atomicAdd stays kernel code.
    source = b"""\
__global__ void histogram(const int* keys, int* bins, int n)
{
    auto i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        auto bucket = keys[i] & 255;
        atomicAdd(&bins[bucket], 1);
    }
}
"""
    path = "src/histogram.cu"
    layers = _layers(path, source)
    assert set(layers) == {"kernel"}


def test_shader_ast_statement_node_is_portable() -> None:
    # include/ShaderAST/Stmt/StmtAccelerationStructureDecl.hpp (sampled, already right): an AST
    # node for a ray-tracing declaration, plain C++ of a compiler's front end.
    source = b"""\
namespace ast::stmt
{
    class AccelerationStructureDecl
        : public Stmt
    {
    public:
        AccelerationStructureDecl( StmtCache & cache
            , var::VariablePtr variable
            , uint32_t binding );

        void accept( VisitorPtr vis )const override;

        var::VariablePtr getVariable()const { return m_variable; }
        uint32_t getBindingPoint()const { return m_bindingPoint; }

    private:
        var::VariablePtr m_variable;
        uint32_t m_bindingPoint;
        uint32_t m_descriptorSet;
    };
}
"""
    path = "include/Ast/Stmt/StmtAccelDecl.hpp"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- ROCm/Megatron-LM: CI test cases, Transformer Engine layers, Model Optimizer -----------------


def test_ci_case_setting_nccl_and_cuda_variables_is_vendor_path() -> None:
    # tests/functional_tests/test_cases/.../model_config.yaml (five sampled, already right): a
    # test case's environment tunes NCCL and CUDA's connection count for the run.
    source = b"""\
ENV_VARS:
  CUDA_DEVICE_MAX_CONNECTIONS: 1
  NCCL_ALGO: Tree
  RUN_REPEATS: 3
MODEL_ARGS:
  --num-layers: 12
  --hidden-size: 512
  --micro-batch-size: 4
  --seq-length: 1024
TEST_TYPE: regular
"""
    path = "tests/cases/gpt_small_tp2/model_config.yaml"
    assert _rules(path, source) == {"env.cuda-variables"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 8}


def test_checkpoint_loader_importing_model_optimizer_state_is_portable() -> None:
    # megatron/inference/checkpointing.py (sampled, already right): the Model Optimizer
    # package's state helpers are PyTorch code saving and restoring a quantized model's
    # metadata, no device code of NVIDIA's.
    source = b"""\
import os

try:
    from modelopt.torch.opt.plugins import restore_optimizer_metadata
except ImportError as e:
    raise ImportError("the nvidia-modelopt package is needed") from e


def load_optimizer_state(directory):
    marker = os.path.join(directory, "latest_iteration.txt")
    if not os.path.isfile(marker):
        return {}
    return restore_optimizer_metadata(directory)
"""
    path = "megatron/serving/checkpoint_state.py"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}


# -- elentur/Raytracer-Last-Unicorn: a CPU ray tracer in Java -------------------------------


def test_java_ray_tracer_sphere_is_portable() -> None:
    # src/geometries/Sphere.java (sampled, already right): a ray-sphere hit test on the CPU.
    source = b"""\
package geometries;

public class Sphere extends Geometry {
    private final double radius;

    public Sphere(Material material, double radius) {
        super(material);
        this.radius = radius;
    }

    public Hit hit(Ray ray) {
        double b = ray.direction.dot(ray.origin.asVector()) * 2.0;
        double c = ray.origin.asVector().dot(ray.origin.asVector()) - radius * radius;
        double d = b * b - 4.0 * c;
        if (d < 0) return null;
        double t = (-b - Math.sqrt(d)) / 2.0;
        return t > 0.0001 ? new Hit(t, ray, this) : null;
    }
}
"""
    path = "src/geometries/Ball.java"
    assert _rules(path, source) == set()
    assert set(_layers(path, source)) == {"portable"}
