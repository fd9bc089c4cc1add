"""Commit verdicts on commits drawn at random (issue 27, the eighth audit).

From each of eleven repositories whose commits nobody had judged (eight fetched new:
huggingface/accelerate, ollama/ollama, huggingface/text-generation-inference,
Mozilla-Ocho/llamafile, ROCm/composable_kernel, rapidsai/cuml, abetlen/llama-cpp-python,
huggingface/diffusers; three from the mirror: mumax/3, gunrock/gunrock,
facebookresearch/detectron2), commits since 2023 that touch files lockin counts were drawn
with ``random.seed("owner/name")``: six touching GPU-looking paths and three others (detectron2
has five of the first kind). ``lockin diff`` ran between each commit and its first parent, and
each verdict was labelled as a platform team's reviewer would want it under the gate's pinned
policy (growth net per file and ecosystem fails; edits, moves and removals pass). Before the
fixes 91 of 98 verdicts were right, after them 96. The misses this file pins were fixed; each
test builds the change in a real git repository, in our own words, and drives ``lockin diff``
on it. Left: a project's own ``#define cudaSharedOverhead`` read as the CUDA runtime
(llamafile 4ab9d72), and an ``import cupy`` used only to probe for a GPU (cuml 5162d52).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from bot.cli import main
from bot.engine import classify
from tests.cli.gitrepo import commit, git, init
from tests.engine.test_ml_repo_cases import _layers


def _diff(repo: Path, base: str, head: str) -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["diff", base, head, "--repo", str(repo), "--format", "json", "--jobs", "1"],
        out=out,
        err=err,
    )
    return code, json.loads(out.getvalue())


def _change(tmp_path: Path, before: dict[str, str | None], after: dict[str, str | None]):
    repo = init(tmp_path / "repo")
    commit(repo, before, "base")
    git(repo, "branch", "base")
    commit(repo, after, "head")
    return _diff(repo, "base", "HEAD")


# -- rapidsai/cuml ed86ae0 "Add CUDA 13.1 support": one more CUDA version ---------------------

DEPENDENCIES = """\
dependencies:
  cuda_version:
    specific:
      - output_types: conda
        matrices:
          - matrix:
              cuda: "12.9"
            packages:
              - cuda-version=12.9
          - matrix:
              cuda: "13.0"
            packages:
              - cuda-version=13.0
"""


def test_a_dependency_matrix_gaining_a_cuda_version_adds_no_lock_in(tmp_path: Path) -> None:
    # The project built against CUDA 12.9 and 13.0 before; listing 13.1 beside them is one
    # more version of the same dependency. Before, the gate failed on the new line.
    newer = DEPENDENCIES + '          - matrix:\n              cuda: "13.1"\n'
    newer += "            packages:\n              - cuda-version=13.1\n"
    code, doc = _change(tmp_path, {"dependencies.yaml": DEPENDENCIES}, {"dependencies.yaml": newer})
    assert doc["added"]["vendor-path"] == 1  # still reported as added vendor-path code
    assert (code, doc["verdict"]["conclusion"], doc["verdict"]["gated_lines"]) == (0, "success", 0)


def test_a_second_cuda_wheel_index_is_a_version(tmp_path: Path) -> None:
    # A requirements file that pulled cu118 wheels gains the cu121 index beside it.
    requirements = "--extra-index-url https://download.pytorch.org/whl/cu118\ntorch\n"
    code, doc = _change(
        tmp_path,
        {"requirements.txt": requirements},
        {
            "requirements.txt": requirements
            + "--extra-index-url https://download.pytorch.org/whl/cu121\n"
        },
    )
    assert doc["added"]["vendor-path"] == 1
    assert (code, doc["verdict"]["gated_lines"]) == (0, 0)


def test_a_first_cuda_dependency_or_a_new_kind_of_line_still_counts(tmp_path: Path) -> None:
    # Negative: a file that named no CUDA version gains one (the dependency is new), and a
    # file holding a CUDA base image gains a CUDA wheel index (a line of another shape).
    dockerfile = "FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\nRUN make\n"
    code, doc = _change(
        tmp_path,
        {"dependencies.yaml": "dependencies:\n  - numpy\n", "Dockerfile": dockerfile},
        {
            "dependencies.yaml": "dependencies:\n  - numpy\n  - cuda-version=13.1\n",
            "Dockerfile": dockerfile
            + "RUN pip install --extra-index-url https://download.pytorch.org/whl/cu121 torch\n",
        },
    )
    gated = {f["path"]: f["gated_lines"] for f in doc["verdict"]["files"]}
    assert code == 1
    assert gated == {"dependencies.yaml": 1, "Dockerfile": 1}


def test_kernel_lines_differing_in_a_number_are_new_code(tmp_path: Path) -> None:
    # Negative: only vendor-path lines are versions of each other; an unrolled kernel step
    # with another constant is new kernel code.
    kernel = "__global__ void k(float* x) {\n  x[threadIdx.x] *= 1.5;\n}\n"
    grown = kernel.replace("*= 1.5;\n", "*= 1.5;\n  x[threadIdx.x] *= 2.5;\n")
    code, doc = _change(tmp_path, {"k.cu": kernel}, {"k.cu": grown})
    assert (code, doc["verdict"]["gated_lines"]) == (1, 1)


# -- ROCm/composable_kernel 94fbaac "add generic instances for DeviceGemm_Xdl_CShuffle" -------

INSTANCES = """\
#include "ck/ck.hpp"
#include "ck/library/tensor_operation_instance/add_device_operation_instance.hpp"

namespace ck {
namespace tensor_operation {
namespace device {
namespace instance {

using generic_instances = std::tuple<
    // clang-format off
    DeviceGemm_Xdl_CShuffle<Row, Row, Row, F16, F16, F16, F32, F16, PassThrough, MNKPadding, 1, 128>
    // clang-format on
    >;

void add_instances(Instances& instances)
{
    add_device_operation_instances(instances, generic_instances{});
}

} // namespace instance
} // namespace device
} // namespace tensor_operation
} // namespace ck
"""


def test_a_ck_instance_tuple_naming_no_ck_scope_is_amd_code() -> None:
    # Before, the tuple and its registration counted as portable: only lines naming ck::
    # matched, and CK's instance tables name their device operations bare.
    path = "library/src/tensor_operation_instance/gpu/gemm/device_gemm_xdl_instance.cpp"
    # The two includes, the tuple's three code lines and the registration call.
    assert classify(path, INSTANCES.encode()).ecosystems == {"hip": 6}
    assert _layers(path, INSTANCES.encode()) == {"vendor-path": 6, "portable": 11}


def test_new_ck_instances_in_an_instance_file_fail_the_gate(tmp_path: Path) -> None:
    # The commit added a generic instance table beside the existing ones: new instantiations
    # of AMD's kernels, which the gate passed before.
    base = INSTANCES.replace(
        "    add_device_operation_instances(instances, generic_instances{});\n", ""
    )
    base = base.replace(base[base.index("using generic") : base.index("void add")], "")
    code, doc = _change(tmp_path, {"gemm_instance.cpp": base}, {"gemm_instance.cpp": INSTANCES})
    assert code == 1
    assert doc["verdict"]["files"][0]["gated_lines"] == 4  # the tuple and its registration


def test_strict_gate_counts_a_new_cuda_version(tmp_path: Path) -> None:
    # gate: strict counts every added line, versions included.
    newer = DEPENDENCIES + '          - matrix:\n              cuda: "13.1"\n'
    newer += "            packages:\n              - cuda-version=13.1\n"
    policy = {".github/lockin.yml": "gate: strict\nenforcement: fail\n"}
    code, doc = _change(
        tmp_path, {**policy, "dependencies.yaml": DEPENDENCIES}, {"dependencies.yaml": newer}
    )
    assert (code, doc["verdict"]["gated_lines"]) == (1, 1)


# -- gunrock/gunrock fc11c79 "fix/cmake_arch": the arch set once, and printed -----------------

CMAKE_BEFORE = """\
project(essentials LANGUAGES CXX CUDA)
add_library(essentials INTERFACE)
set_target_properties(essentials PROPERTIES
  CUDA_ARCHITECTURES 75
)
get_target_property(ESSENTIALS_ARCHITECTURES essentials
  CUDA_ARCHITECTURES
)
target_compile_definitions(essentials INTERFACE SM_TARGET=${ESSENTIALS_ARCHITECTURES})
message(STATUS "Essentials CUDA Architecture: ${ESSENTIALS_ARCHITECTURES}")
if(ESSENTIALS_BUILD_BENCHMARKS)
  set(CMAKE_CUDA_ARCHITECTURES ${ESSENTIALS_ARCHITECTURES})
endif()
"""

CMAKE_AFTER = """\
project(essentials LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 75)
add_library(essentials INTERFACE)
set_target_properties(essentials PROPERTIES
  CUDA_ARCHITECTURES ${CMAKE_CUDA_ARCHITECTURES}
)
target_compile_definitions(essentials INTERFACE SM_TARGET=${CMAKE_CUDA_ARCHITECTURES})
message(STATUS "Essentials CUDA Architecture: ${CMAKE_CUDA_ARCHITECTURES}")
"""


def test_a_cmake_message_printing_the_cuda_arch_is_no_build_requirement(tmp_path: Path) -> None:
    # The refactor sets the arch in one place and reads it where three lines did; before, the
    # message() printing it counted as a CUDA build line and the gate failed on 1 line.
    code, doc = _change(tmp_path, {"CMakeLists.txt": CMAKE_BEFORE}, {"CMakeLists.txt": CMAKE_AFTER})
    assert (code, doc["verdict"]["gated_lines"]) == (0, 0)
    assert _layers("CMakeLists.txt", CMAKE_AFTER.encode())["vendor-path"] == 4


# -- facebookresearch/detectron2 3a161f2 "hipify detectron2": THC's atomics to ATen's ---------

DEFORM = """\
#include <float.h>
#include <THC/THCAtomics.cuh>

using namespace at;

#define CUDA_KERNEL_LOOP(i, n) \\
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)
"""


def test_thc_headers_replaced_by_aten_cuda_is_an_edit(tmp_path: Path) -> None:
    # The legacy THC header is PyTorch's CUDA API as much as ATen/cuda is; before, it counted
    # as portable and its replacement brought torch-cuda into the file.
    after = DEFORM.replace("THC/THCAtomics.cuh", "ATen/cuda/Atomic.cuh").replace(
        "for (int i", "for (auto i"
    )
    code, doc = _change(
        tmp_path, {"deform_conv_cuda_kernel.cu": DEFORM}, {"deform_conv_cuda_kernel.cu": after}
    )
    assert (code, doc["verdict"]["gated_lines"]) == (0, 0)
    assert classify("deform_conv_cuda_kernel.cu", DEFORM.encode()).ecosystems["torch-cuda"] == 1


# -- facebookresearch/detectron2 d38d716 "fix ci": a package query before the install ---------

ACTION = """\
runs:
  using: composite
  steps:
    - run: |
        sudo apt-get update
        sudo apt-get --yes install cuda-toolkit-${{inputs.cuda-version}}
"""


def test_an_apt_cache_query_in_ci_adds_no_cuda_dependency(tmp_path: Path) -> None:
    after = ACTION.replace(
        "        sudo apt-get --yes",
        "        apt-cache search cuda-toolkit\n        sudo apt-get --yes",
    )
    path = ".github/actions/install_linux_gpu_dep/action.yml"
    code, doc = _change(tmp_path, {path: ACTION}, {path: after})
    assert (code, doc["verdict"]["gated_lines"]) == (0, 0)
    # Negative: the install itself is still a CUDA dependency.
    assert _layers(path, after.encode())["vendor-path"] == 1
