"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h43-random-p).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 450-457: cunninghamcard-bit/attention, TamasPetii/RayMarcher, chairclr/HLSLSharp,
NathanKolbas/hashcat-flutter, definelicht/hlslib, lythm/ld3d, shanevbg/MDropDX12 and
bliu666666/ProjectM1PathTracing. None was skipped. Fifteen files of each were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix, with
the files lockin calls non-portable and GPU-looking files it calls portable; three commits
touching GPU code were drawn per repository with ``random.Random("owner/name:commits")``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- definelicht/hlslib: Vitis HLS and Intel FPGA OpenCL helpers, with test hosts --------------


def test_intel_fpga_sdk_find_module_is_vendor_path() -> None:
    # cmake/FindIntelFPGAOpenCL.cmake: finds aoc and aocl and takes the host's include and link
    # flags from `aocl compile-config`/`link-config`. Before, the whole module was portable.
    source = b"""\
find_path(INTELFPGAOCL_SEARCH_PATH aocl PATHS ENV INTELFPGAOCLSDKROOT PATH_SUFFIXES bin)
find_program(IntelFPGAOpenCL_AOCL aocl PATHS ${INTELFPGAOCL_ROOT_DIR}/bin NO_DEFAULT_PATH)
execute_process(COMMAND ${IntelFPGAOpenCL_AOCL} link-config OUTPUT_VARIABLE link_flags)
string(REGEX MATCHALL "-L[^ ]+" link_dirs "${link_flags}")
include(FindPackageHandleStandardArgs)
"""
    assert _rules("cmake/FindIntelFPGAOpenCL.cmake", source) == {"opencl.intel-fpga-sdk"}
    assert _layers("cmake/FindIntelFPGAOpenCL.cmake", source) == {
        "vendor-path": 3,
        "portable": 2,
    }


def test_aoc_kernel_build_is_vendor_path() -> None:
    # intel_test/CMakeLists.txt: each .cl kernel is built by aoc into an .aocx for one board,
    # and the emulator run sets Intel's emulator variable. Before, portable.
    source = b"""\
include_directories(SYSTEM ${IntelFPGAOpenCL_INCLUDE_DIRS})
set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -std=c++17")
add_custom_command(
  OUTPUT stencil_emulator.aocx
  COMMAND ${IntelFPGAOpenCL_AOC} -march=emulator -board=${BOARD} stencil.cl)
add_executable(run_stencil host/run_stencil.cpp)
add_custom_target(run_emu COMMAND CL_CONTEXT_EMULATOR_DEVICE_INTELFPGA=1 ./run_stencil)
"""
    assert _rules("intel_test/CMakeLists.txt", source) == {"opencl.intel-fpga-sdk"}
    assert _layers("intel_test/CMakeLists.txt", source)["vendor-path"] == 4


def test_top_level_cmake_finding_the_intel_fpga_sdk_is_vendor_path() -> None:
    # CMakeLists.txt: the library's own build looks for the FPGA SDK to add its test targets.
    source = b"""\
find_package(Threads)
find_package(IntelFPGAOpenCL)
if(IntelFPGAOpenCL_FOUND AND Threads_FOUND)
  add_subdirectory(intel_test)
endif()
"""
    assert _rules("CMakeLists.txt", source) == {"opencl.intel-fpga-sdk"}
    assert _layers("CMakeLists.txt", source)["vendor-path"] == 2


def test_host_loading_an_aocx_through_its_own_wrapper_is_vendor_path() -> None:
    # intel_test/host/RunJacobi2D.cpp: the program is the Intel FPGA bitstream named in a
    # string, loaded through hlslib::ocl's Context (no OpenCL call in the file). Before, portable.
    source = b"""\
int run(bool emulate) {
  std::string kernel_path;
  if (emulate) {
    kernel_path = "Stencil_emulator.aocx";
  } else {
    kernel_path = "Stencil_hardware.aocx";
  }
  hlslib::ocl::Context context;
  auto program = context.MakeProgram(kernel_path);
  return 0;
}
"""
    assert _rules("intel_test/host/RunStencil.cpp", source) == {"opencl.intel-fpga-bitstream-path"}
    assert _layers("intel_test/host/RunStencil.cpp", source)["vendor-path"] == 2


def test_host_loading_an_xclbin_through_its_own_wrapper_is_vendor_path() -> None:
    # xilinx_test/host/RunMultiStageAdd.cpp: picks the Xilinx bitstream for simulation,
    # emulation or hardware and runs it through hlslib's wrapper. Before, portable.
    source = b"""\
int RunKernel(Mode mode) {
  hlslib::ocl::Context context;
  auto program = (mode == Mode::hardware)
                     ? context.MakeProgram("Add_hw.xclbin")
                     : context.MakeProgram("Add_hw_emu.xclbin");
  std::cout << "Loaded the .xclbin" << std::endl;
  auto kernel = program.MakeKernel("Add", buffer, buffer);
  kernel.ExecuteTask();
  return 0;
}
"""
    assert _rules("xilinx_test/host/RunAdd.cpp", source) == {"vitis.bitstream-path"}
    assert _layers("xilinx_test/host/RunAdd.cpp", source)["vendor-path"] == 2


def test_simulation_test_of_an_hls_kernel_is_portable() -> None:
    # xilinx_test/test/TestSubflow.cpp: runs the kernel's C++ on the CPU (checked right).
    source = b"""\
#include "Subflow.h"
#include "catch.hpp"

TEST_CASE("Subflow", "[Subflow]") {
  std::vector<Data_t> in(kSize, 1), out(kSize);
  Subflow(in.data(), out.data());
  REQUIRE(out[0] == 4);
}
"""
    assert _rules("xilinx_test/test/TestSubflow.cpp", source) == set()


# -- TamasPetii/RayMarcher: an OpenGL ray marcher vendoring glm, GLFW and Dear ImGui ----------


def test_glm_branch_for_cuda_or_hip_compilers_stays_portable() -> None:
    # GLM/detail/compute_common.hpp: a branch both nvcc and hipcc take is not one vendor's
    # path (cuda.build-guard leaves CUDA-or-HIP branches alone; checked right).
    source = b"""\
#if (GLM_COMPILER & GLM_COMPILER_CUDA) || (GLM_COMPILER & GLM_COMPILER_HIP)
template<>
struct compute_abs<float, true> {
    static float call(float x) { return fabsf(x); }
};
#endif
"""
    assert _rules("GLM/detail/compute_common.hpp", source) == set()
