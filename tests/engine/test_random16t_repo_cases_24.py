"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h52-random-t).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 896-902. One was skipped: lowlevelmetal/OpenSE4 (896) has
no snapshot here. Read were KempnerInstitute/KempnerForge (a PyTorch LLM training framework
with SLURM launchers, NCCL settings and DCGM monitoring), Red-Weasel/machx-inference-engine (a
C++/SYCL inference engine for Intel Arc GPUs: SYCL and ESIMD kernels, host code, Python perf
tools), asminer/meddly (a C++ decision-diagram library, no GPU code),
huggingface/pytorch-image-models (timm: PyTorch vision models, training and inference
scripts), PremiumGraphicsCodes/ParticleFluids (a C++ particle-simulation library with an
OpenGL renderer holding GLSL in strings, vendored glm and pybind11, a Blender add-on) and
TataLab/iCubAudioAttention (robot audio attention: C++ modules, MATLAB, vendored FFTW and
PortAudio). iCubAudioAttention's snapshot lacks two MATLAB .mat blobs; it was checked out file
by file without them (no counted file was missing). Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled
before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it
calls portable (up to 10) checked apart, files outside the sample that hold kernel lines
counted by hand (up to 5 a repository), and up to three commits touching GPU code
(``random.Random("owner/name:commits")``) judged against ``lockin diff``. Each snippet is a
small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- PremiumGraphicsCodes/ParticleFluids: a Wavefront .mtl reader is no Metal -----------------


def test_material_file_reader_and_writer_are_portable() -> None:
    # CGLib/Crystal/IO/MTLFileReader.cpp, MTLFileWriter.h: classes reading and writing the
    # .mtl material library of an OBJ mesh, the record's illumination model cast from its
    # number; no Apple API anywhere.
    source = b"""\
#include "MTLFileReader.h"

bool MTLFileReader::load(std::istream& in)
{
    std::string key;
    while (in >> key) {
        if (key == "illum") {
            lib.entries.back().illum = MTL::Illumination(readInt(in));
        }
    }
    return MTLFileWriter().save(std::cout, lib);
}
"""
    assert _rules("src/io/MTLFileReader.cpp", source) == set()
    assert _layers("src/io/MTLFileReader.cpp", source) == {"portable": 11}


def test_material_file_reader_test_is_portable() -> None:
    # CGLib/Crystal/IOTest/MTLFileReaderTest.cpp: a gtest suite named after the reader.
    source = b"""\
#include "../io/MTLFileReader.h"

TEST(MTLFileReaderTest, ReadsDiffuse)
{
    MTLFileReader reader;
    EXPECT_TRUE(reader.load(sample()));
}
"""
    assert _rules("test/MTLFileReaderTest.cpp", source) == set()


def test_metal_cpp_namespace_is_still_metal() -> None:
    # The exclusions above leave metal-cpp's own classes Apple's.
    source = b"""\
MTL::Device* dev = MTL::CreateSystemDefaultDevice();
MTL::CommandQueue* queue = dev->newCommandQueue();
int n = 0;
"""
    assert _rules("src/gpu/device.cpp", source) == {"metal.host-api"}
    assert _layers("src/gpu/device.cpp", source) == {"vendor-path": 2, "portable": 1}


# -- PremiumGraphicsCodes/ParticleFluids: GLSL streamed one literal a line --------------------


def test_fragment_shader_streamed_with_endl_is_kernel() -> None:
    # CGLib/Crystal/Shader/DepthRenderer.cpp: the fragment shader writes its "#version 150"
    # literal with std::endl after it and sets no gl_Position or gl_FragColor; every line of
    # the stream statement is shader source, the host code around it is not.
    source = b"""\
std::string ShadowPass::fragmentSource()
{
    std::ostringstream src;
    src
        << "#version 150" << std::endl
        << "uniform sampler2D shadowMap;" << std::endl
        << "in vec2 uv;" << std::endl
        << "out vec4 outColor;" << std::endl
        << "void main(void) {" << std::endl
        << "    outColor = texture2D(shadowMap, uv);" << std::endl
        << "}" << std::endl;
    return src.str();
}
"""
    assert _rules("src/ShadowPass.cpp", source) == {"vulkan.glsl-streamed-source"}
    assert _layers("src/ShadowPass.cpp", source) == {"kernel": 8, "portable": 5}


def test_raw_string_shader_pinned() -> None:
    # CGLib/Crystal/Shader/LineRenderer.cpp (already right): a raw string holding the vertex
    # shader is kernel; the function around it is portable.
    source = b"""\
std::string Lines::vertexSource() const
{
    const std::string s = R"(
#version 150
in vec3 position;
uniform mat4 mvp;
void main(void) {
    gl_Position = mvp * vec4(position, 1.0);
}
)";
    return s;
}
"""
    assert _rules("src/Lines.cpp", source) == {"vulkan.glsl-string"}
    assert _layers("src/Lines.cpp", source) == {"kernel": 8, "portable": 4}


# -- Red-Weasel/machx-inference-engine: SYCL kernels and their host code (already right) ------


def test_sycl_kernel_lambda_and_device_helper_pinned() -> None:
    # src/ops/elementwise.cpp, attention.cpp: the lambda handed to parallel_for and a helper
    # the kernel calls with its sub_group are kernel; the queue, handler and launch lines are
    # vendor-path.
    source = b"""\
#include <sycl/sycl.hpp>

inline float lane_sum(sycl::sub_group sg, float x) {
    x += sycl::permute_group_by_xor(sg, x, 2);
    x += sycl::permute_group_by_xor(sg, x, 1);
    return x;
}

sycl::event row_sum(sycl::queue& q, float* y, size_t n) {
    return q.submit([&](sycl::handler& h) {
        h.parallel_for(sycl::nd_range<1>(n, 16), [=](sycl::nd_item<1> it) {
            const size_t i = it.get_global_id(0);
            y[i] = lane_sum(it.get_sub_group(), y[i]);
        });
    });
}
"""
    assert _rules("src/ops/scale.cpp", source) == {"sycl.kernel", "sycl.runtime"}
    assert _layers("src/ops/scale.cpp", source) == {"kernel": 9, "vendor-path": 3, "portable": 2}


# -- KempnerInstitute/KempnerForge: launchers and guards (already right) ----------------------


def test_dcgmi_monitor_script_is_vendor_path() -> None:
    # scripts/slurm/_dcgm_monitor.sh: DCGM's dmon samples NVIDIA GPUs only.
    source = b"""\
#!/bin/bash
OUT="$LOG_DIR/gpu_${SLURM_JOB_ID}.log"
exec dcgmi dmon -e 203,1002 -d 1000 > "$OUT" 2>&1
"""
    assert _layers("scripts/monitor.sh", source) == {"vendor-path": 1, "portable": 1}


def test_nccl_exports_in_slurm_launcher_are_vendor_path() -> None:
    # scripts/slurm/multinode.sh: NCCL's InfiniBand settings before srun.
    source = b"""\
#!/bin/bash
export MASTER_PORT=29500
export NCCL_IB_DISABLE=0
export NCCL_SOCKET_IFNAME=ib0
srun python train.py "$@"
"""
    assert _rules("scripts/multinode.sh", source) == {"env.cuda-variables"}
    assert _layers("scripts/multinode.sh", source) == {"vendor-path": 2, "portable": 2}


def test_fused_optimizer_probe_is_portable() -> None:
    # kempnerforge/training/optimizer.py: the fused AdamW path is asked for only when a GPU
    # answers torch.cuda.is_available(); a probe with a fallback needs no port.
    source = b"""\
import torch

def build(params, lr, fused):
    return torch.optim.AdamW(params, lr=lr, fused=fused and torch.cuda.is_available())
"""
    assert _rules("train/optim.py", source) == set()
    assert _layers("train/optim.py", source) == {"portable": 3}


# -- PremiumGraphicsCodes/ParticleFluids: vendored Eigen's host-and-device functions -----------


def test_eigen_generic_function_in_header_testing_cuda_arch_is_not_kernel() -> None:
    # CGLib/CrystalNumerics/ThirdParty/eigen-3.3.9/Eigen/src/Core/MathFunctions.h: generic
    # scalar helpers marked EIGEN_DEVICE_FUNC (host and device alike) in a header whose other
    # lines test __CUDA_ARCH__; only the guarded lines are CUDA's.
    source = b"""\
namespace internal {
template<typename T>
struct square_op
{
  EIGEN_DEVICE_FUNC
  static inline T run(const T& v)
  {
    return v * v;
  }
};
#if defined(__CUDA_ARCH__)
  #define EIGEN_MATH_USING(F) using ::F;
#else
  #define EIGEN_MATH_USING(F) using std::F;
#endif
}
"""
    assert _rules("Eigen/src/Core/Square.h", source) == {"cuda.arch-guard"}
    assert _layers("Eigen/src/Core/Square.h", source) == {"kernel": 2, "portable": 14}


def test_eigen_cuda_packet_op_is_still_kernel() -> None:
    # eigen-3.3.9/Eigen/src/Core/arch/CUDA/MathFunctions.h: a packet op on CUDA's float4,
    # its signature broken after the qualifiers, stays device code.
    source = b"""\
#if defined(__CUDACC__) && defined(EIGEN_USE_GPU)
template<> EIGEN_DEVICE_FUNC EIGEN_STRONG_INLINE
float4 psin<float4>(const float4& v)
{
  return make_float4(sinf(v.x), sinf(v.y), sinf(v.z), sinf(v.w));
}
#endif
"""
    assert "cuda.device-qualifier-macro-header" in _rules("Eigen/src/Core/arch/CUDA/Sin.h", source)
    assert _layers("Eigen/src/Core/arch/CUDA/Sin.h", source)["kernel"] == 5
