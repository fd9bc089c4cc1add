"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-i).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 394-401. Two had no snapshot and were skipped, not replaced:
silverenternal/flowa-multistep-reinference and qhsc/cutlass. The six read were
nishantj2006/3D-Gaussian-Splatting-, idsc-frazzoli/tensor, ismacaulay/webgpu-adventures,
cywzl/LeukocyteGUI_for_oclHashCat, vkorotkine/DPGSolver and dneto0/SPIRV-Tools. Fifteen files
of each repository were sampled with ``random.Random("owner/name")`` over every file lockin
counts, and labelled before any fix, with the files lockin calls non-portable (up to 20, drawn
the same way), GPU-looking files it calls portable (up to 10) and the GPU-looking files it gives
no language; three commits touching GPU code were drawn with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of a
pattern found in the repository its test names; the expected layers are what a porting engineer
reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules

# -- nishantj2006/3D-Gaussian-Splatting-: Inria's SIBR viewers and their OpenGL shaders ------


def test_sibr_fragment_program_as_fp_is_glsl_kernel_code() -> None:
    # SIBR_viewers/src/core/view/shaders/texture.fp: a fragment shader under a licence comment.
    # Before, no language owned .fp/.vp/.gp/.tcs/.tes: the repository's 82 such shaders were
    # never counted, while the same shaders saved as .frag/.vert were.
    source = b"""\
/*
 * Licence header of the viewer.
 */

#version 420

layout(binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 out_color;
in vec2 tex_coord;

void main(void) {
    out_color = texture(tex, tex_coord);
}
"""
    assert classify("src/core/view/shaders/texture.fp", source).language == "GLSL"
    assert _rules("src/core/view/shaders/texture.fp", source) == {"vulkan.shader-file"}
    assert _layers("src/core/view/shaders/texture.fp", source) == {"kernel": 7}


def test_sibr_tessellation_control_shader_as_tcs_is_glsl_kernel_code() -> None:
    # SIBR_viewers/src/core/renderer/shaders/longlat.tcs: passes the patch through, three
    # vertices a patch.
    source = b"""\
#version 450 core

layout(vertices = 3) out;
in vec3 vs_colors[];
out vec3 colors_tcs[];

void main(void) {
    colors_tcs[gl_InvocationID] = vs_colors[gl_InvocationID];
    if (gl_InvocationID == 0) {
        gl_TessLevelOuter[0] = 4.0;
        gl_TessLevelInner[0] = 4.0;
    }
}
"""
    assert classify("src/core/renderer/shaders/longlat.tcs", source).language == "GLSL"
    assert _layers("src/core/renderer/shaders/longlat.tcs", source) == {"kernel": 11}


def test_gnuplot_script_as_gp_gets_no_glsl() -> None:
    # The negative: gnuplot's .gp scripts (and ARB assembly programs as .vp/.fp) have no
    # #version line, GLSL built-in or typed uniform.
    plot = b"""\
set terminal pngcairo size 800,600
set output "speedup.png"
plot "timings.dat" using 1:2 with lines title "speedup"
"""
    assert classify("plots/speedup.gp", plot).language != "GLSL"
    arb = b"""\
!!ARBfp1.0
TEMP color;
TEX color, fragment.texcoord[0], texture[0], 2D;
MOV result.color, color;
END
"""
    assert classify("shaders/copy.fp", arb).language != "GLSL"


# -- dneto0/SPIRV-Tools: a fork of Khronos' SPIR-V assembler, validator and optimiser ----------


def test_spirv_tools_validator_quoting_vulkan_rule_ids_is_portable() -> None:
    # source/val/validate_builtins.cpp and 15 more validator files: each diagnostic opens with
    # the specification's rule id, `_.VkErrorID(n)`. Before, the method's Vk prefix read as a
    # Vulkan type: 1017 vendor-path lines, 828 of them in validate_builtins.cpp, in a compiler
    # that calls no Vulkan.
    source = b"""\
spv_result_t ValidateEntryPoint(ValidationState_t& _, uint32_t entry_point) {
  if (spvIsVulkanEnv(_.context()->target_env)) {
    if (_.recursive_entry_points().count(entry_point)) {
      return _.diag(SPV_ERROR_INVALID_BINARY, _.FindDef(entry_point))
             << _.VkErrorID(4634)
             << "Entry points may not have a call graph with cycles.";
    }
  }
  return SPV_SUCCESS;
}
"""
    assert _layers("source/val/validate.cpp", source) == {"portable": 10}


def test_vulkan_types_beside_the_rule_id_method_stay_vulkan_host_code() -> None:
    # The negative: a Vulkan type on the line is still Vulkan host code.
    source = b"""\
void Report(VkDevice device, const State& s) {
  log(s.VkErrorID(4652));
}
"""
    assert _rules("src/report.cpp", source) == {"vulkan.host-api"}


def test_spirv_tools_amd_extension_pass_is_portable() -> None:
    # source/opt/amd_ext_to_khr.cpp and test/opt/amd_ext_to_khr.cpp: a pass rewriting SPIR-V's
    # AMD extension instructions into their KHR forms, with classes named AmdExt*. Before, the
    # names read as AMD's Direct3D driver interfaces (IAmdExtD3DFactory): 37 vendor-path lines.
    source = b"""\
class AmdExtFoldingRules : public FoldingRules {
 public:
  explicit AmdExtFoldingRules(IRContext* ctx) : FoldingRules(ctx) {}
};

Pass::Status AmdExtensionToKhrPass::Process() {
  FoldingRules* rules = new AmdExtFoldingRules(context());
  return rules->Apply() ? Status::SuccessWithChange : Status::SuccessWithoutChange;
}
"""
    assert _layers("source/opt/amd_ext_to_khr.cpp", source) == {"portable": 8}


def test_amd_d3d12_driver_interface_stays_vendor_path() -> None:
    # The negative: AMD's own driver interfaces keep their rule.
    source = b"""\
IAmdExtD3DFactory* factory = nullptr;
create(__uuidof(IAmdExtD3DFactory), &factory);
"""
    assert _rules("src/amd_device.cpp", source) == {"hip.amd-driver-extension"}


def test_spirv_tools_ci_building_the_shader_compiler_is_portable() -> None:
    # kokoro/scripts/linux/build-docker.sh: the shaderc CI build makes glslangValidator as a
    # ninja target, then builds everything; no shader is compiled. Before, vendor-path.
    source = b"""\
cmake -GNinja -DCMAKE_BUILD_TYPE=Release ..
echo "Build glslang..."
ninja glslangValidator
ninja
"""
    assert _layers("kokoro/scripts/linux/build-docker.sh", source) == {"portable": 4}


def test_build_script_running_the_shader_compiler_stays_vulkan_build_code() -> None:
    # The negative: a script handing a shader to the compiler still builds for Vulkan.
    source = b"""\
ninja -C build
glslangValidator -V shaders/blur.comp -o build/blur.spv
"""
    assert _rules("scripts/build.sh", source) == {"build.vulkan"}
    assert _layers("scripts/build.sh", source) == {"vendor-path": 1, "portable": 1}


def test_gaussian_splatting_knn_host_wrapper_in_a_cu_file_is_portable() -> None:
    # submodules/simple-knn/spatial.cu: host glue in a .cu file, checked right: it sizes a
    # tensor and calls the library's host entry point; the kernels and their launch are in
    # simple_knn.cu.
    source = b"""\
#include "spatial.h"
#include "simple_knn.h"

torch::Tensor distCUDA2(const torch::Tensor& points)
{
  const int P = points.size(0);
  auto opts = points.options().dtype(torch::kFloat32);
  torch::Tensor means = torch::full({P}, 0.0, opts);
  SimpleKNN::knn(P, (float3*)points.contiguous().data<float>(), means.contiguous().data<float>());
  return means;
}
"""
    assert _layers("submodules/simple-knn/spatial.cu", source) == {"portable": 10}


# -- cywzl/LeukocyteGUI_for_oclHashCat: a Windows Forms front end for oclHashcat --------------


def test_hashcat_front_end_building_gpu_options_is_portable() -> None:
    # LeukocyteGUI_for_oclHashCat/Classes.cs: checked right. The form writes the cracker's
    # command line, GPU tuning options among them, and starts the executable; it calls no
    # GPU API itself.
    source = b"""\
public string BuildArguments()
{
    string result = "";
    if (EnableGPUAsync)
    {
        result += " --gpu-async";
    }
    if (workloadTuning > 0)
    {
        result += " --gpu-accel=" + workloadTuning.ToString();
    }
    return result;
}
"""
    assert _layers("LeukocyteGUI_for_oclHashCat/Classes.cs", source) == {"portable": 13}
