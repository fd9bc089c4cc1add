"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h41-random-n).

The pool is ``/work/pool-h40.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 212-218. Two had no snapshot and were skipped, not replaced:
TruePrav/hashcats-gpu-cloud-mining and vinneyto/3dgs_tile_webgpu. Fifteen files of each
remaining repository (all nine of takata150802/cudnn_convBwdFilter) were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before looking at
lockin's verdict; so were up to twenty files lockin calls non-portable, up to ten GPU-looking
files it calls portable, and three commits touching GPU code per repository. Every file verdict
was right; these tests pin the cases that were hard to call. Each snippet is a small rewrite, in
our own words, of a pattern found in the repository its test names; the expected layers are
what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- takata150802/cudnn_convBwdFilter: a cuDNN profiler behind a Cython module named cudnn ----


def test_cudnn_profiler_makefile_linking_cudnn_without_nvcc() -> None:
    # Makefile: g++ builds the host code, but the include path and the libraries linked are
    # the CUDA toolkit's and cuDNN's.
    source = b"""\
CXX = g++
CFLAGS = -std=c++11 -O3
INCDIR = -I/usr/local/cuda/include
OBJS = main.o conv.o
NVLIBS = /usr/lib/x86_64-linux-gnu/libcudnn.so /usr/local/cuda/lib64/libcudart.so

main: $(OBJS)
\t$(CXX) -o main $(OBJS) $(NVLIBS)
"""
    assert _rules("Makefile", source) == {"build.nvcc"}
    assert _layers("Makefile", source) == {"vendor-path": 2, "portable": 5}


def test_cudnn_profiler_setup_linking_cudart_objects() -> None:
    # setup.py: the Cython extension links libcudnn.so and libcudart.so as extra objects.
    source = b"""\
from distutils.core import setup, Extension
from Cython.Build import cythonize

ext = Extension(
    "convprof",
    sources=["convprof.pyx", "conv.cc"],
    language="c++",
    include_dirs=[".", "/usr/local/cuda/include"],
    extra_objects=["/usr/lib/x86_64-linux-gnu/libcudnn.so", "/usr/local/cuda/lib64/libcudart.so"],
)
setup(name="convprof", ext_modules=cythonize([ext]))
"""
    assert _rules("setup.py", source) == {"build.cuda-toolkit-path-string"}
    assert _layers("setup.py", source) == {"vendor-path": 2, "portable": 8}


def test_cudnn_profiler_driver_importing_the_local_cudnn_binding() -> None:
    # main.py: the module named cudnn is the repository's own binding of cuDNN's backward
    # filter convolution; importing it is calling cuDNN (cuda.managed-library-module's rule).
    source = b"""\
import pandas as pd


def profile():
    from cudnn import conv_bwd_filter
    rows = [conv_bwd_filter(n, 3, 32, 32) for n in range(1, 9)]
    return pd.DataFrame(rows)
"""
    assert _rules("main.py", source) == {"cudnn.frontend-python"}
    assert _layers("main.py", source) == {"vendor-library": 1, "portable": 4}


# -- jjang-ai/vmlx: an MLX inference server for Apple GPUs ----------------------------------


def test_vmlx_metal_memory_counters_are_vendor_path() -> None:
    # vmlx_engine/benchmark.py: peak and cache memory read through mx.metal, Apple-only; the
    # backend-neutral mx.clear_cache beside them is portable.
    source = b"""\
import mlx.core as mx


def report():
    mx.metal.reset_peak_memory()
    run()
    peak = mx.metal.get_peak_memory()
    if hasattr(mx, "clear_cache"):
        mx.clear_cache()
    return peak
"""
    assert _rules("vmlx_engine/benchmark.py", source) == {"metal.mps-device"}
    assert _layers("vmlx_engine/benchmark.py", source) == {"vendor-path": 2, "portable": 6}


def test_vmlx_backend_neutral_memory_calls_are_portable() -> None:
    # The negative: the same counters through MLX's top-level functions.
    source = b"""\
import mlx.core as mx


def report():
    if hasattr(mx, "clear_cache"):
        mx.clear_cache()
    return mx.get_peak_memory()
"""
    assert _layers("vmlx_engine/paged_cache.py", source) == {"portable": 5}


# -- ssogal00/SharpOpenGL: an OpenGL engine in C# with generated material classes ------------


def test_sharpopengl_generated_material_holding_glsl_sources() -> None:
    # CompiledShaderCore/CompiledMaterial.cs: each generated material returns its vertex and
    # fragment shaders as verbatim strings; those lines are GLSL, the class around them is C#.
    source = b"""\
namespace Compiled
{
public class Blit : MaterialBase
{
    public Blit() : base(GetVSSourceCode(), GetFSSourceCode()) {}

    public static string GetVSSourceCode()
    {
        return @"#version 450 core
layout(location=0) in vec3 Position;
layout(location=0) out vec2 Uv;
void main()
{
    Uv = Position.xy * 0.5 + 0.5;
    gl_Position = vec4(Position, 1.0);
}";
    }

    public static string GetFSSourceCode()
    {
        return @"#version 450 core
layout(location=0) in vec2 Uv;
uniform sampler2D Tex;
out vec4 Color;
void main()
{
    Color = texture(Tex, Uv);
}";
    }
}
}
"""
    assert _rules("CompiledShaderCore/CompiledMaterial.cs", source) == {"vulkan.glsl-string"}
    assert _layers("CompiledShaderCore/CompiledMaterial.cs", source) == {
        "kernel": 16,
        "portable": 13,
    }


def test_sharpopengl_opengl_calls_from_csharp_are_portable() -> None:
    # Engine/GenericVertexAttribute.cs: OpenTK's GL bindings, a cross-vendor API.
    source = b"""\
using OpenTK.Graphics.OpenGL;

public static class Attribs
{
    public static void BindPosition(int index)
    {
        GL.EnableVertexAttribArray(index);
        GL.VertexAttribPointer(index, 3, VertexAttribPointerType.Float, false, 0, IntPtr.Zero);
    }
}
"""
    assert _layers("Engine/GenericVertexAttribute.cs", source) == {"portable": 9}


def test_sharpopengl_vendored_libtool_nvcc_case_is_portable() -> None:
    # freetype-2.10.4/builds/unix/aclocal.m4: libtool's compiler table has a branch for nvcc
    # among every other compiler; it sets no flag for this project's build.
    source = b"""\
# _LT_COMPILER_PIC([TAGNAME])
m4_defun([_LT_COMPILER_PIC],
[
    case $cc_basename in
    nvcc*) # Cuda Compiler Driver 2.2
      _LT_TAGVAR(lt_prog_compiler_wl, $1)='-Xlinker '
      if test -n "$_LT_TAGVAR(lt_prog_compiler_pic, $1)"; then
        _LT_TAGVAR(lt_prog_compiler_pic, $1)="-Xcompiler $_LT_TAGVAR(lt_prog_compiler_pic, $1)"
      fi
      ;;
    esac
])
"""
    assert _layers("freetype-2.10.4/builds/unix/aclocal.m4", source) == {"portable": 11}


# -- tgjones/HlslTools: an HLSL language service; its test suite is shaders ------------------


def test_hlsltools_formatting_preview_holding_hlsl_techniques() -> None:
    # src/ShaderTools.VisualStudio.LanguageServices.Hlsl/Options/Formatting/NewLinesViewModel.cs:
    # the options page previews formatting on HLSL held in verbatim strings. By the settled
    # convention HLSL source is shader code wherever it stands, as the test-suite .fx files are.
    source = b"""\
internal sealed class NewLinesViewModel
{
    private const string TechniquePreview = @"
float4 VS() : SV_Position { return float4(1, 0, 0, 1); }
float4 PS() : SV_Target { return float4(1, 0, 0, 1); }
technique T1 {
    pass P {
        VertexShader = compile vs_2_0 VS();
        PixelShader = compile ps_2_0 PS();
    }
}";
}
"""
    path = "src/Options/Formatting/NewLinesViewModel.cs"
    assert _rules(path, source) == {"hlsl.source-string"}
    assert _layers(path, source) == {"kernel": 9, "portable": 3}
