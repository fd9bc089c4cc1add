"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-j).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 402-409: neuralmagic/deepsparse, alexidine/gfn-diffusion, AdamYuan/SparseVoxelOctree,
ZL1206/cutlass-llm-kernel, JabberSnatch/pbr_pathtracer, luh-05/node2glsl, Chribit/RayMarchingDemo
and earlrodson/iCFD. None was skipped: each had a snapshot under the size limit and files lockin
counts. Fifteen files of each were sampled with ``random.Random("owner/name")`` over every file
with code lines, sorted by path, and labelled before any fix, with the files lockin calls
non-portable and GPU-looking files it calls portable; three commits touching GPU code were drawn
with ``random.Random("owner/name:commits")`` and judged against ``lockin diff``. Each snippet is
a small rewrite, in our own words, of a pattern found in the repository its test names; the
expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- alexidine/gfn-diffusion: GFlowNet samplers trained from generated YAML run configs -------


def test_gfn_diffusion_run_config_choosing_cuda_is_vendor_path() -> None:
    # energy_sampling/configs/mk_dev_runs_5/10.yaml (and 42 siblings): the config train.py loads
    # as its arguments sets the device the run takes. Before, all 43 were portable, 9 of the 15
    # files drawn; so was the commit that added six of them.
    source = b"""\
T: 10
anneal_energy: true
batch_size: 25
device: cuda
dropout: 0
energy: molecular_crystal
"""
    path = "energy_sampling/configs/mk_dev_runs_5/10.yaml"
    assert _rules(path, source) == {"torch.device-flag"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 5}
    # configs/old/dev_test3.yaml quotes the value; an indented trainer section names a card.
    quoted = b"""\
run_name: dev_test
device: 'cuda'
trainer:
  eval_device: cuda:1
"""
    assert _layers("energy_sampling/configs/old/dev_test3.yaml", quoted) == {
        "vendor-path": 2,
        "portable": 2,
    }


def test_gfn_diffusion_run_config_on_the_cpu_stays_portable() -> None:
    # The same config run on the CPU, or with the device left to the deployment or swept.
    source = b"""\
device: cpu
eval_device: ${DEVICE}
devices: cuda
device_map: auto
sweep:
  device: [cpu, cuda]
"""
    assert _layers("energy_sampling/configs/cpu.yaml", source) == {"portable": 6}


def test_gfn_diffusion_model_defaulting_to_the_cuda_device_is_vendor_path() -> None:
    # energy_sampling/models/gfn.py: the constructor's default device. Checked right before.
    source = b"""\
import torch


class GFN(torch.nn.Module):
    def __init__(self, dim: int, device=torch.device('cuda')):
        super().__init__()
        self.device = device
"""
    assert _rules("energy_sampling/models/gfn.py", source) == {"torch.device-string"}


# -- Chribit/RayMarchingDemo: a Vulkan compute ray marcher built by hand-written scripts -------


def test_raymarching_batch_build_linking_the_vulkan_sdk_is_vendor_path() -> None:
    # src/engine/*/script/compile_win_dev.bat (21 files): g++ against the SDK's headers and
    # import library where the SDK installs itself. Before, every one was portable: Batch was
    # not among build.vulkan's languages.
    source = b"""\
set engine_folder=C:/Users/dev/Graphics/src/engine
MKDIR "%engine_folder%/event/out_dev/"
C:/msys64/mingw64/bin/g++.exe ^
    -std=c++17 ^
    -c ^
    %engine_folder%/event/event.cpp ^
    -o ^
    %engine_folder%/event/out_dev/event.o ^
    -L ^
    C:/VulkanSDK/1.3.236.0/Lib ^
    -l:vulkan-1.lib ^
    -l:libglfw3.a ^
    -I ^
    C:/VulkanSDK/1.3.236.0/Include ^
    -DFOR_WIN=true
"""
    path = "src/engine/event/script/compile_win_dev.bat"
    assert _rules(path, source) == {"build.vulkan"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 12}


def test_raymarching_shell_build_linking_the_loader_by_path_is_vendor_path() -> None:
    # script/build_mac_dev.sh: the demo links the SDK's libvulkan dylib by its full path.
    source = b"""\
/usr/bin/g++ \\
    -std=c++17 \\
    src/main.cpp \\
    lib/graphics/mac/graphics.a \\
    -o out/ray_marching_demo \\
    -L \\
    /Users/dev/VulkanSDK/1.3.236.0/macOS/lib \\
    /Users/dev/VulkanSDK/1.3.236.0/macOS/lib/libvulkan.1.dylib \\
    -lglfw
"""
    assert _rules("script/build_mac_dev.sh", source) == {"build.vulkan"}


def test_raymarching_mac_compile_step_without_the_sdk_stays_portable() -> None:
    # src/engine/colour/script/compile_mac_dev.sh: compiles one plain C++ module, no SDK.
    source = b"""\
engine_folder="/Users/dev/Graphics/src/engine"
mkdir "$engine_folder/colour/out_dev/"
/usr/bin/g++ \\
    -std=c++17 \\
    -c \\
    $engine_folder/colour/colour.cpp \\
    -o \\
    $engine_folder/colour/out_dev/colour.o \\
    -DFOR_MAC=true
sh build_mac_dev.sh
"""
    assert _layers("src/engine/colour/script/compile_mac_dev.sh", source) == {"portable": 10}


# -- AdamYuan/SparseVoxelOctree: a Vulkan voxel path tracer ------------------------------------


def test_sparse_voxel_octree_cmake_compiling_shaders_with_glslc_is_vendor_path() -> None:
    # shader/CMakeLists.txt: finds the SDK's glslc and runs it for every shader, targeting
    # Vulkan 1.1. Before, the file was portable (an extra found reading the repository).
    source = b"""\
find_program(GLSLC "glslc")
IF (GLSLC)
  function(add_spirv_shader INPUT_FILE)
    add_custom_command(OUTPUT ${CMAKE_CURRENT_LIST_DIR}/include/spirv/${INPUT_FILE}.u32
      COMMAND glslc ${INPUT_FILE} -o include/spirv/${INPUT_FILE}.u32 -O --target-env=vulkan1.1
      WORKING_DIRECTORY ${CMAKE_CURRENT_LIST_DIR})
  endfunction()
ENDIF ()
"""
    assert _rules("shader/CMakeLists.txt", source) == {"build.cmake-vulkan"}
    assert _layers("shader/CMakeLists.txt", source) == {"vendor-path": 2, "portable": 6}


def test_sparse_voxel_octree_cmake_linking_its_own_vulkan_wrapper_stays_portable() -> None:
    # dep/CMakeLists.txt: links the project's own wrapper targets; the SDK is found elsewhere.
    # Checked right before.
    source = b"""\
add_library(dep STATIC src/stb_image.cpp)
target_link_libraries(dep PUBLIC glfw spdlog myvk::vulkan myvk::glfw myvk::imgui)
target_compile_definitions(dep PUBLIC VK_NO_PROTOTYPES)
"""
    assert _layers("dep/CMakeLists.txt", source) == {"portable": 3}


# -- neuralmagic/deepsparse, ZL1206/cutlass-llm-kernel, luh-05/node2glsl: checked right --------


def test_deepsparse_validator_falling_back_to_the_cpu_stays_portable() -> None:
    # src/deepsparse/yolov8/utils/validation/deepsparse_validator.py: without CUDA the run
    # takes the CPU; the probe itself adds no lock-in.
    source = b"""\
import torch


class Validator:
    def __call__(self, trainer=None, model=None):
        if not torch.cuda.is_available():
            self.args.device = "cpu"
        self.device = select_device(self.args.device, self.args.batch)
"""
    assert _layers("yolov8/validation/validator.py", source) == {"portable": 6}


def test_cutlass_llm_kernel_test_code_left_in_a_string_stays_portable() -> None:
    # int4_qkv_matmul/rearrange_kv.py: a trial run kept inside a module-level string, which
    # counts as documentation, not code.
    source = b'''\
import torch


def pack(t):
    return (t[:, 1::2] << 4) | t[:, 0::2]


"""
key = torch.randint(0, 15, (2, 128), dtype=torch.uint8, device="cuda")
print(pack(key))
"""
'''
    assert _layers("int4_qkv_matmul/rearrange_kv.py", source) == {"portable": 3}


def test_node2glsl_sdl_gpu_host_code_stays_portable() -> None:
    # demos/sdl3gpu/main.cpp: SDL3's GPU API picks Vulkan, Metal or Direct3D 12 at run time.
    source = b"""\
#include <SDL3/SDL.h>
#include <SDL3/SDL_gpu.h>

static SDL_GPUDevice *device = nullptr;

bool init(SDL_Window *window, const char *driver) {
  SDL_GPUShaderFormat format = SDL_GPU_SHADERFORMAT_SPIRV | SDL_GPU_SHADERFORMAT_MSL;
  if (strcmp(driver, "metal") == 0) {
    format = SDL_GPU_SHADERFORMAT_MSL;
  }
  device = SDL_CreateGPUDevice(format, true, driver);
  return SDL_ClaimWindowForGPUDevice(device, window);
}
"""
    assert _layers("demos/sdl3gpu/main.cpp", source) == {"portable": 11}
