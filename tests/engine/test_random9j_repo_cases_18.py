"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-j).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 626-633. Two could not be read: yeemio/owlmlx and kondotaichi/LLMServingSim (no
snapshot). The other six are garbage-enzyme/COMSOL_Multiphysics_MCP_6_4_Calibrated,
SparseBLAS/spblas-reference, Miraj98/tinygrad-rs, tivilou/Q-Attention, bdqnghi/ggnn.tensorflow
and k2d222/wgsl-tools. Fifteen files of each (all ten of tinygrad-rs) were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix, with
the files lockin calls non-portable and GPU-looking files it calls portable; three commits
touching GPU code were drawn per repository with ``random.Random("owner/name:commits")``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- k2d222/wgsl-tools: WGSL and WESL tooling in Rust, with shader samples ------------------


def test_wgsl_tools_wesl_shader_module_is_kernel_code() -> None:
    # examples/wesl-random/src/shaders/random.wesl: WGSL functions with a WESL import on top.
    # Before, .wesl files were counted as a language but never as shader code.
    source = b"""\
import package::util::mix3;

// a hash from a 2D position to three floats in [0, 1)
fn hash_2u_3f(p: vec2u) -> vec3f {
    var v = mix3(p) * 1664525u + 1013904223u;
    v ^= v >> vec3(16u);
    return ldexp(vec3f(v), vec3(-32));
}
"""
    assert _rules("shaders/random.wesl", source) == {"wgsl.shader-file"}
    assert _layers("shaders/random.wesl", source) == {"kernel": 6}


def test_wgsl_tools_wesl_compute_entry_point_is_kernel_code() -> None:
    # examples/wesl-consumer/src/shaders/main.wesl: a compute entry point calling an import.
    source = b"""\
import super::util::rotate;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
    _ = rotate(id);
}
"""
    assert _layers("src/shaders/main.wesl", source) == {"kernel": 5}


def test_wgsl_tools_printer_of_wgsl_attributes_is_portable() -> None:
    # crates/wgsl-parse/src/syntax_display.rs: a pretty-printer writing WGSL attributes is a
    # compiler running on the CPU, not a shader.
    source = b"""\
impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Attribute::Vertex => write!(f, "@vertex"),
            Attribute::Fragment => write!(f, "@fragment"),
            Attribute::Compute => write!(f, "@compute"),
        }
    }
}
"""
    assert _layers("crates/wgsl-parse/src/syntax_display.rs", source) == {"portable": 9}


# -- SparseBLAS/spblas-reference: a sparse BLAS with oneMKL, cuSPARSE and rocSPARSE back ends --


def test_spblas_device_tests_built_as_hip_and_linked_to_rocthrust_are_vendor_path() -> None:
    # test/gtest/CMakeLists.txt and examples/device/CMakeLists.txt: the rocSPARSE branch hands
    # the device sources to the HIP compiler and links rocThrust. Before, both were portable.
    source = b"""\
add_executable(spblas-tests ${TEST_SOURCES})
if (ENABLE_ROCSPARSE)
  set(DEVICE_SOURCES device/spmv_test.cpp device/spgemm_test.cpp)
  set_source_files_properties(${DEVICE_SOURCES} PROPERTIES LANGUAGE HIP)
  target_link_libraries(spblas-tests roc::rocthrust)
elseif (ENABLE_CUSPARSE)
  target_link_libraries(spblas-tests Thrust)
endif()
"""
    assert _rules("test/gtest/CMakeLists.txt", source) == {"build.hip-offload-arch"}
    assert _layers("test/gtest/CMakeLists.txt", source) == {"vendor-path": 2, "portable": 6}


def test_spblas_cpu_source_language_and_other_namespaces_stay_portable() -> None:
    # The same property set to C++ and a target of a namespace ending in "roc" build nothing
    # for AMD.
    source = b"""\
set_source_files_properties(spmv.cpp PROPERTIES LANGUAGE CXX)
target_link_libraries(spblas-tests proc::util GTest::gtest_main)
"""
    assert _layers("test/gtest/CMakeLists.txt", source) == {"portable": 2}


def test_spblas_thrust_device_vectors_in_a_test_are_vendor_library() -> None:
    # test/gtest/device/spmv_test.cpp: the matrix copied to the device in thrust vectors, then
    # the library's own multiply; checked right before any fix (a hard one).
    source = b"""\
#include <spblas/spblas.hpp>
#include <thrust/device_vector.h>

TEST(thrust_CsrView, SpMV) {
  std::vector<float> values(10, 1.0f);
  thrust::device_vector<float> d_values(values);
  spblas::csr_view<float, int, int> a(d_values.data().get(), nullptr, nullptr, {2, 2}, 10);
  EXPECT_EQ(a.size(), 10);
}
"""
    layers = _layers("test/gtest/device/spmv_test.cpp", source)
    assert layers.get("vendor-library", 0) > 0
    assert "kernel" not in layers


# -- bdqnghi/ggnn.tensorflow: a gated graph network in TensorFlow, run under nvidia-docker ----


def test_ggnn_training_under_nvidia_docker_is_vendor_path() -> None:
    # program_data/train.sh: the run goes through nvidia-docker when docker is there, its GPU
    # picked with NV_GPU. Before, both scripts were portable.
    source = b"""\
RUN=
if [ "$has_docker" == "1" ]; then
  RUN="nvidia-docker run -v $(pwd):/e -w /e --rm -it ggnn"
fi
NV_GPU=1 \\
  $RUN python main_ggnn.py --training --n_classes 10
"""
    assert _rules("program_data/train.sh", source) == {"k8s.nvidia-gpu"}
    assert _layers("program_data/train.sh", source) == {"vendor-path": 2, "portable": 4}


def test_ggnn_protobuf_enum_named_cuda_is_portable() -> None:
    # utils/fast_pb2.py: a parser's AST node kinds, one of them CUDA_ARGUMENT_LIST (srcML's
    # tag for a kernel launch's <<<...>>> in the code it parses), is data about code.
    source = b"""\
_NODE_KIND = descriptor.EnumDescriptor(
  name='NodeKind',
  values=[
    descriptor.EnumValueDescriptor(name='CALL', index=265, number=265),
    descriptor.EnumValueDescriptor(name='CUDA_ARGUMENT_LIST', index=266, number=266),
  ],
)
CUDA_ARGUMENT_LIST = 266
"""
    assert _layers("utils/fast_pb2.py", source) == {"portable": 8}


# -- garbage-enzyme/COMSOL_Multiphysics_MCP_6_4_Calibrated: a COMSOL server on Windows ---------


def test_comsol_windows_kernel32_calls_are_portable() -> None:
    # comsol_mcp/durable/io.py: Win32's kernel32 through ctypes is the operating system's
    # kernel, no GPU's.
    source = b"""\
import ctypes

def _replace_file(src: str, dst: str) -> None:
    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    create_file = kernel32.CreateFileW
    handle = create_file(src, 0x10000, 0, None, 3, 0, None)
    kernel32.CloseHandle(handle)
"""
    assert _layers("comsol_mcp/durable/io.py", source) == {"portable": 6}


# -- tivilou/Q-Attention: quantum-inspired attention experiments in PyTorch ------------------


def test_q_attention_cuda_choice_and_device_name_are_vendor_path() -> None:
    # experiments/run_q_*_toy.py: a --device option offering "cuda" and the run's record of the
    # CUDA device's name; checked right before any fix.
    source = b"""\
import argparse
import torch

parser = argparse.ArgumentParser()
parser.add_argument("--device", choices=("cpu", "cuda", "auto"), default=None)


def environment(device: torch.device) -> dict:
    return {
        "torch": torch.__version__,
        "cuda_device": torch.cuda.get_device_name(device) if device.type == "cuda" else None,
    }
"""
    assert _rules("experiments/run_toy.py", source) == {"torch.device-string", "torch.cuda-call"}
    assert _layers("experiments/run_toy.py", source)["vendor-path"] == 2
