"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h45-random-c).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")``; this lane took
positions 482-489. Three had no snapshot: graphty-org/webgpu-graph-algorithms (482),
Chiil/rte3d_kokkos (485) and edipowladeo/nbodysimulation (488). Fifteen files of each
remaining repository (all of them where it had fewer) were sampled with
``random.Random("owner/name")`` over every file lockin counts, and labelled before any fix,
with the files lockin calls non-portable, GPU-looking files it calls portable, and files it
gives no language; three commits touching GPU code per repository were drawn with
``random.Random("owner/name:commits")``. Each snippet is a small rewrite, in our own words, of
a pattern found in the repository its test names; the expected layers are what a porting
engineer reading that file would say.
"""

from __future__ import annotations

from bot.engine import classify
from tests.engine.test_ml_repo_cases import _layers, _rules
from tests.engine.test_notebook_cases import line_of, notebook

# -- dpaiton/DeepSparseCoding: sparse coding models in TensorFlow 1 and PyTorch ----------------


def test_notebook_env_magic_picking_a_cuda_device_is_vendor_path() -> None:
    # tf1x/vis/vis_lca_pca.ipynb and 15 more analysis notebooks: the first cell pins the
    # NVIDIA GPU with IPython's %env magic before TensorFlow loads. Before, the magic read as
    # a Python line and every one of these notebooks was portable.
    data = notebook(
        ("markdown", "## Imports\n"),
        ("code", "import os\nimport sys\n%env CUDA_VISIBLE_DEVICES=0\n%matplotlib inline\n"),
        ("code", "import numpy as np\nimport tensorflow as tf\n"),
    )
    report = classify("tf1x/vis/vis_lca_pca.ipynb", data)
    assert {(f.rule, f.start_line) for f in report.findings} == {
        ("env.cuda-variables", line_of(data, "%env CUDA_VISIBLE_DEVICES=0"))
    }
    assert _layers("tf1x/vis/vis_lca_pca.ipynb", data) == {"vendor-path": 1, "portable": 5}


def test_notebook_env_magic_for_other_settings_or_clearing_the_device_is_portable() -> None:
    # The negative: %env for a setting of no vendor, %set_env hiding every GPU, and a Python
    # line that only mentions the magic in a string stay portable.
    data = notebook(
        (
            "code",
            "%env TF_CPP_MIN_LOG_LEVEL=2\n"
            "%set_env CUDA_VISIBLE_DEVICES=\n"
            'print("run %env CUDA_VISIBLE_DEVICES=0 to pick a GPU")\n',
        ),
    )
    assert _layers("notebooks/setup.ipynb", data) == {"portable": 3}


def test_tensorflow_gpu_pin_in_a_named_requirements_file_is_vendor_path() -> None:
    # tf1x/additional_requirements.txt: TensorFlow 1's CUDA wheel for the tf1x models. Before,
    # the name gave the file no language, and tensorflow-gpu was no pin lockin knew.
    source = b"tensorflow-gpu==1.15.5\ntensorflow-estimator==1.15.1\ntensorboard==1.15\n"
    assert classify("tf1x/additional_requirements.txt", source).language == "Requirements"
    assert classify("dev-requirements.txt", source).language == "Requirements"
    assert _rules("tf1x/additional_requirements.txt", source) == {"deps.cuda-wheel"}
    assert _layers("tf1x/additional_requirements.txt", source) == {
        "vendor-path": 1,
        "portable": 2,
    }
    # The plain tensorflow pin names no GPU build: portable, as before.
    assert _layers("requirements.txt", b"tensorflow==2.15.0\nnumpy\n") == {"portable": 2}


def test_tensorflow_gpu_check_named_cuda_only_is_portable() -> None:
    # tf1x/tests/utils/patches_test.py: checked right, after a first label said otherwise.
    # TensorFlow documents cuda_only as misleading: the check also answers True for a GPU of
    # a ROCm build, so the test's GPU branch is TensorFlow's generic one.
    source = b"""\
import numpy as np
import tensorflow as tf

class PatchesTest(tf.test.TestCase):
  def testBasic(self):
    gpu_args = [True, False] if tf.test.is_gpu_available(cuda_only=True) else [False]
    for use_gpu in gpu_args:
      with self.session(use_gpu=use_gpu):
        self.assertNear(np.mean(np.zeros(4)), 0.0, 1e-15)
"""
    assert _layers("tf1x/tests/utils/patches_test.py", source) == {"portable": 8}


# -- Xiangyu-Hu/SPHinXsys: SPH on TBB, with a SYCL back end -------------------------------------


def test_sphinxsys_device_copyable_specialisations_are_sycl_vendor_path() -> None:
    # src/src_sycl/shared/common/device_copyable_variable.h: the simulation's vector and
    # matrix types marked device-copyable, in the reopened sycl namespace; the SYCL header
    # comes through the project's own data_type.h. Before, the file was portable.
    source = b"""\
#ifndef DEVICE_COPYABLE_VARIABLE_H
#define DEVICE_COPYABLE_VARIABLE_H
#include "data_type.h"
#include "simtk_wrapper.h"
namespace sycl
{
template <>
struct is_device_copyable<SPH::SimTKVec3> : std::true_type
{
};
template <int N, int M>
struct is_device_copyable<Eigen::Matrix<SPH::Real, N, M>> : std::true_type
{
};
} // namespace sycl
#endif
"""
    path = "src/src_sycl/shared/common/device_copyable_variable.h"
    assert _rules(path, source) == {"sycl.device-copyable-trait"}
    # Each specialisation's head and opening brace; its closing `};` holds no code of SYCL.
    assert _layers(path, source) == {"vendor-path": 6, "portable": 10}


def test_sphinxsys_device_variable_on_project_wrappers_is_portable() -> None:
    # src/src_sycl/shared/common/sphinxsys_variable_sycl.hpp: checked right. It calls the
    # project's own allocateDeviceOnly/copyToDevice, whose SYCL calls implementation_sycl.h
    # holds and lockin counts there.
    source = b"""\
#include "implementation_sycl.h"
namespace SPH
{
template <typename DataType>
DeviceOnlyDiscreteVariable<DataType>::DeviceOnlyDiscreteVariable(DiscreteVariable<DataType> *host)
    : Quantity(host->Name()), device_only_data_(nullptr)
{
    device_only_data_ = allocateDeviceOnly<DataType>(host->getTotalSize());
    copyToDevice(host->Data(), device_only_data_, host->getTotalSize());
}
} // namespace SPH
"""
    assert _layers("src/src_sycl/shared/common/sphinxsys_variable_sycl.hpp", source) == {
        "portable": 11
    }


def test_sphinxsys_sycl_ci_job_switching_the_back_end_on_is_vendor_path() -> None:
    # .github/workflows/ci.yml: the Linux-sycl job configures with Intel's icpx and turns the
    # SYCL back end on with `-D NAME=ON`, CMake's spaced form. Before, the workflow was
    # portable; the CPU jobs beside it still are.
    source = b"""\
jobs:
  Linux-sycl:
    runs-on: ubuntu-22.04
    steps:
      - name: Generate buildsystem
        run: |
          source /opt/intel/oneapi/setvars.sh --include-intel-llvm
          cmake -G Ninja \\
            -D CMAKE_CXX_COMPILER=icpx \\
            -D SPHINXSYS_USE_SYCL=ON \\
            -S . -B build
  Linux-cpu:
    steps:
      - run: cmake -D SPHINXSYS_USE_SYCL=OFF -S . -B build
"""
    # The oneAPI setvars.sh line counts too since lane h50-random-h (pool h47 position 441).
    assert _rules(".github/workflows/ci.yml", source) == {"build.sycl-flags"}
    assert _layers(".github/workflows/ci.yml", source) == {"vendor-path": 2, "portable": 12}


def test_sphinxsys_sycl_compile_options_are_sycl_not_a_cuda_pin() -> None:
    # CMakeLists.txt: the SYCL build's options, with clang's switch for an unknown CUDA
    # version. Right verdict before, but deps.cuda-wheel read cuda-version in the warning's
    # name as the conda package and counted the lines as CUDA's.
    source = b"""\
if(SPHINXSYS_USE_SYCL)
    target_compile_options(core INTERFACE -fsycl -fsycl-targets=${T} -Wno-unknown-cuda-version)
    target_link_options(core INTERFACE -fsycl -fsycl-targets=${T} -Wno-unknown-cuda-version)
endif()
"""
    assert _rules("CMakeLists.txt", source) == {"build.sycl-flags"}
    assert classify("CMakeLists.txt", source).ecosystems == {"sycl": 2}
