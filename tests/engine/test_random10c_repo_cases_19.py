"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-c).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 17-24. Two had no snapshot and were skipped without
replacement: sapphireran/Transformer-Emotion-Analysis-with-Gaze (17) and
fccljbplant/ExaminerAI (24). The six read were dfranx/SHADERed (a shader editor: GLSL and
HLSL examples, shaders in C++ strings), ClawmanCat/VoxelEngine (a C++ voxel engine on
OpenGL with GLSL shaders), maxmert/voxeldust (a Rust game on wgpu with WGSL shaders),
JeremyFunk/JPCPathTracer (a CPU path tracer in C++), KhoiFish/raytracer (a CPU ray tracer
and a Direct3D 12 DXR renderer with HLSL shaders) and haoyang9804/triton_lexer (a tokenizer
for Triton kernels with a data set of ~680 kernels collected from other repositories).
Fifteen files of each repository were sampled with ``random.Random("owner/name")`` over
every file lockin counts and labelled before any fix, with the files lockin calls
non-portable (up to 20) and GPU-looking files it calls portable (up to 10) checked apart,
and three commits touching GPU code (``random.Random("owner/name:commits")``) judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in
the repository its test names; the expected layers are what a porting engineer reading
that file would say.
"""

from __future__ import annotations

from bot.engine.classify import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- haoyang9804/triton_lexer: kernels kept one a file, imports cut away ---------------------


def test_triton_kernel_without_imports_is_kernel_code() -> None:
    # triton_repos/lessw2020_triton_kernels_for_fun_and_profit/kernels/399.py: the data set
    # keeps each collected kernel as a numbered file holding only the decorated function.
    source = b"""\
@triton.jit
def rms_rows(out_ptr, in_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(out_ptr + row * stride + cols, x * rstd, mask=mask)
"""
    assert _rules("data/kernels/399.py", source) == {"triton.jit"}
    assert _layers("data/kernels/399.py", source) == {"kernel": 8}


def test_bare_jit_without_triton_import_stays_portable() -> None:
    # The same shape under a bare @jit (Numba's, JAX's) names no Triton.
    source = b"""\
@jit
def rms_rows(x, eps):
    return x / (x * x).mean() ** 0.5 + eps
"""
    assert _rules("data/kernels/400.py", source) == set()
    assert _layers("data/kernels/400.py", source) == {"portable": 3}


def test_search_for_the_decorator_in_fetched_text_is_no_kernel() -> None:
    # crawl.py: the crawler keeps a fetched file when its text holds the decorator and none
    # of the vendor extras; the literals are searched for, not written.
    source = b"""\
class Collector:
    def keeps(self, text: str) -> bool:
        \"\"\"Whether a fetched file holds a Triton kernel.\"\"\"
        return text.find("@triton.jit") != -1 and (
            text.find("triton_dist") == -1
            and not text.startswith("tl.load(")
        )
"""
    assert _rules("crawl.py", source) == set()
    assert _layers("crawl.py", source) == {"portable": 6}


def test_kernel_text_written_by_a_generator_is_still_kernel_code() -> None:
    # Pinned beside the fix above: a generator writing the decorator is no search.
    source = b"""\
def emit(out, name):
    out.append("@triton.jit")
    out.append(f"def {name}(x_ptr, BLOCK: tl.constexpr):")
    out.append("    pid = tl.program_id(0)")
    return out
"""
    assert _rules("gen.py", source) == {"triton.generated-source"}
    assert _layers("gen.py", source) == {"kernel": 5}


def test_normalized_kernel_body_in_a_test_is_kernel_code() -> None:
    # test.py (commit 91165aa): a kernel renamed to v0, v1 ... by the lexer's normaliser,
    # kept as a plain def; tl.program_id and tl.load still make it Triton device code.
    source = b"""\
import triton
import triton.language as tl

def f0(v0, v1, v2: tl.constexpr):
    v3 = tl.program_id(0)
    v4 = tl.load(v0 + v3 * v2 + tl.arange(0, v2))
    tl.store(v1 + v3 * v2 + tl.arange(0, v2), v4)
"""
    assert _rules("test.py", source) == {"triton.device-body"}
    assert _layers("test.py", source) == {"kernel": 4, "portable": 2}


# -- KhoiFish/raytracer: HLSL helpers under a C header's name in a shader folder -------------


def test_hlsl_helper_header_taking_resources_as_parameters_is_hlsl() -> None:
    # Source/RealtimeEngine/Shaders/SVGF/SVGFCommon.h: helpers the SVGF compute passes
    # include; textures arrive as parameters, never declared at file scope.
    source = b"""\
int2 textureSize(RWTexture2D<float4> img, uint level)
{
    uint w, h;
    img.GetDimensions(w, h);
    return int2(w, h);
}

float3 decodeNormal(uint packed)
{
    float2 e = float2(f16tof32(packed & 0xFFFF), f16tof32(packed >> 16));
    return normalize(float3(e, 1.0 - abs(e.x) - abs(e.y)));
}
"""
    path = "Source/Engine/Shaders/Denoise/DenoiseCommon.h"
    assert classify(path, source).language == "HLSL"
    assert _rules(path, source) == {"hlsl.shader-file"}
    assert _layers(path, source) == {"kernel": 11}


def test_header_sharing_structs_with_hlsl_stays_host_code() -> None:
    # Source/RealtimeEngine/ShaderCompat.h and the *ShaderInclude.h headers: layouts the C++
    # side fills in and the shaders read, types mapped per side; no resource parameter.
    source = b"""\
#ifdef HLSL
    typedef float4   XMFLOAT4;
    typedef float4x4 XMFLOAT4X4;
#else
    #include <DirectXMath.h>
    using namespace DirectX;
#endif
struct SceneConstants
{
    XMFLOAT4X4 ViewProj;
    XMFLOAT4   CameraPos;
};
"""
    path = "Source/Engine/ShaderShared.h"
    assert classify(path, source).language == "C Header"
    assert _layers(path, source) == {"portable": 12}


# -- verdicts that were already right ---------------------------------------------------------


def test_imgui_opengl3_backend_shader_strings_are_kernel_code() -> None:
    # ThirdParty/imgui/examples/imgui_impl_opengl3.cpp (KhoiFish/raytracer): GLSL vertex and
    # fragment shaders kept as concatenated C string literals, one per GLSL version.
    source = b"""\
static bool CreateObjects()
{
    const GLchar* fragment_shader_glsl_130 =
        "uniform sampler2D Tex;\\n"
        "in vec2 Frag_UV;\\n"
        "out vec4 Out_Color;\\n"
        "void main()\\n"
        "{\\n"
        "    Out_Color = texture(Tex, Frag_UV.st);\\n"
        "}\\n";
    return Compile(fragment_shader_glsl_130);
}
"""
    assert _rules("imgui_impl_opengl3.cpp", source) == {"vulkan.glsl-string"}
    assert _layers("imgui_impl_opengl3.cpp", source) == {"kernel": 7, "portable": 5}


def test_wgpu_host_code_stays_portable() -> None:
    # voxydust/src/main.rs (maxmert/voxeldust): wgpu runs on Vulkan, Metal, Direct3D 12 and
    # WebGPU alike; its buffers, queues and surfaces are no vendor's.
    source = b"""\
fn resize(gpu: &mut GpuState, width: u32, height: u32) {
    gpu.config.width = width.max(1);
    gpu.config.height = height.max(1);
    gpu.surface.configure(&gpu.device, &gpu.config);
    gpu.queue.write_buffer(&gpu.uniforms, 0, bytemuck::bytes_of(&gpu.camera));
    let _format = wgpu::TextureFormat::Depth32Float;
}
"""
    assert _rules("voxydust/src/main.rs", source) == set()
    assert _layers("voxydust/src/main.rs", source) == {"portable": 7}


def test_specialization_constant_regex_in_cpp_stays_portable() -> None:
    # VoxelEngine/graphics/shader/preprocessor/constant_reflection.cpp (ClawmanCat/
    # VoxelEngine): a raw-string regex reading GLSL's `layout(constant_id = N) const` from
    # shader text is host code that parses shaders, no shader.
    source = b"""\
namespace gfx {
    constexpr auto spec_regex = R"RGX(layout\\s*\\(\\s*constant_id\\s*=\\s*(\\d+)\\s*\\))RGX";

    int count_constants(const std::string& src) {
        return (int) std::distance(std::sregex_iterator(src.begin(), src.end(), re()), {});
    }
}
"""
    assert _rules("constant_reflection.cpp", source) == set()
    assert _layers("constant_reflection.cpp", source) == {"portable": 6}
