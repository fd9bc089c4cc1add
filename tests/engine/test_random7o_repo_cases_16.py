"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-o).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 442-449. One could not be read: t3kt/raymarching (snapshot over 500 MB). Fifteen files
of each remaining repository were sampled with ``random.seed("owner/name")`` over every file
lockin counts, and labelled before any fix, with the files lockin calls non-portable and
GPU-looking files it calls portable; three commits touching GPU code per repository were judged
against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- sinnwrig/Glslang.NET: a C# binding of glslang ---------------------------------------------


def test_glslang_binding_compiling_for_a_vulkan_client_is_vulkan_host_code() -> None:
    # Example/Example.cs: HLSL compiled to SPIR-V for a Vulkan 1.3 client, the C# spelling of
    # glslang's EShClientVulkan. Before, portable.
    source = b"""\
using Glslang.NET;

public static class Example
{
    static void Main()
    {
        var input = new CompilationInput()
        {
            language = SourceType.HLSL,
            stage = ShaderStage.Vertex,
            client = ClientType.Vulkan,
            clientVersion = TargetClientVersion.Vulkan_1_3,
            code = ShaderCode.Source,
        };
        var shader = new Shader(input);
        shader.Parse();
    }
}
"""
    assert _rules("Example/Example.cs", source) == {"vulkan.host-api"}
    assert _layers("Example/Example.cs", source) == {"vendor-path": 2, "portable": 15}


def test_glslang_c_interface_vulkan_client_is_vulkan_host_code() -> None:
    # The C interface the binding wraps (glslang_c_interface.h) names the same client.
    source = b"""\
glslang_shader_t* compile(const char* text, glslang_stage_t stage) {
    glslang_input_t input = {0};
    input.language = GLSLANG_SOURCE_GLSL;
    input.stage = stage;
    input.client = GLSLANG_CLIENT_VULKAN;
    input.client_version = GLSLANG_TARGET_VULKAN_1_2;
    input.code = text;
    return glslang_shader_create(&input);
}
"""
    assert _rules("src/compile.c", source) == {"vulkan.host-api"}
    assert _layers("src/compile.c", source) == {"vendor-path": 2, "portable": 7}


def test_glslang_binding_compiling_for_opengl_is_portable() -> None:
    source = b"""\
var input = new CompilationInput()
{
    client = ClientType.OpenGL,
    clientVersion = TargetClientVersion.OpenGL_450,
};
"""
    assert _layers("Example/GlExample.cs", source) == {"portable": 5}


def test_vulkan_c_api_names_in_csharp_are_vulkan_host_code() -> None:
    # Not from the sample: Vortice.Vulkan-style C# spells the C API's own names, which the
    # rule read only in C and C++ before.
    source = b"""\
public unsafe VkInstance CreateInstance(VkApplicationInfo appInfo)
{
    var info = new VkInstanceCreateInfo { pApplicationInfo = &appInfo };
    vkCreateInstance(&info, null, out VkInstance instance).CheckResult();
    return instance;
}
"""
    assert _rules("Graphics/VulkanDevice.cs", source) == {"vulkan.host-api"}
    assert _layers("Graphics/VulkanDevice.cs", source) == {"vendor-path": 3, "portable": 3}


def test_hlsl_shader_in_a_csharp_string_is_kernel_code() -> None:
    # Example/ShaderCode.cs: the example's vertex and pixel shaders in a verbatim string
    # (checked right).
    source = b"""\
public static class ShaderCode
{
    public const string Source = @"
struct VertexOutput
{
    float4 Position : SV_POSITION;
    float4 Color : COLOR0;
};

float4 pixel(VertexOutput input) : SV_Target
{
    return input.Color * 0.5;
}
";
}
"""
    assert _rules("Example/ShaderCode.cs", source) == {"hlsl.source-string"}
    assert _layers("Example/ShaderCode.cs", source)["kernel"] >= 9


# -- Delt06/dx12-renderer: a Direct3D 12 renderer ----------------------------------------------


def test_d3d12_renderer_pass_through_its_own_wrapper_is_portable() -> None:
    # Demos/DeferredLightingDemo/src/SSR/SsrTrace.cpp: the pass talks to the renderer's own
    # command list and material classes; no Direct3D 12 name appears (checked right).
    source = b"""\
void SsrTrace::Execute(CommandList& commandList, const std::shared_ptr<Texture>& color,
                       const RenderTarget& target) const
{
    const auto desc = color->GetResourceDesc();
    m_Material->SetVariable<float>("Thickness", 0.5f);
    commandList.SetRenderTarget(target);
    m_Material->Bind(commandList);
    m_BlitMesh->Draw(commandList);
}
"""
    assert _layers("src/SSR/SsrTrace.cpp", source) == {"portable": 9}


def test_d3d12_descriptor_struct_in_a_renderer_header_is_vendor_path() -> None:
    # Demos/DeferredLightingDemo/src/Reflections.cpp: a setter taking a Direct3D 12 view
    # description (checked right).
    source = b"""\
void Reflections::SetEnvironmentSrv(const D3D12_SHADER_RESOURCE_VIEW_DESC& desc)
{
    m_EnvironmentSrv = desc;
}
"""
    assert _rules("src/Reflections.cpp", source) == {"hlsl.directml-host"}
    assert _layers("src/Reflections.cpp", source)["vendor-path"] >= 1


# -- Draedon123/WGSL-Playground: a WebGPU shader playground ------------------------------------


def test_wgsl_shader_in_a_bundled_template_string_is_kernel_code() -> None:
    # build/_app/immutable/nodes/3.*.js: the default fragment shader kept in a template
    # literal of the built bundle; the WebGPU host around it is portable (checked right). The
    # line closing the literal counts with it: within the five lines a kernel count may miss.
    source = b"""\
const B = `@fragment
fn main(fragment: Fragment) -> @location(0) vec4f {
  var uv: vec2f = fragment.position.xy / vec2f(params.resolution);
  return vec4f(uv, 0.5, 1.0);
}
`;
const adapter = await navigator.gpu.requestAdapter();
"""
    assert _rules("build/nodes/3.js", source) == {"wgsl.source-string"}
    assert _layers("build/nodes/3.js", source) == {"kernel": 6, "portable": 1}
