"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h53-random-t).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone
read it; this lane took positions 1106-1112. Two were skipped, not replaced:
rdoshi-amd/rocm-libraries (no snapshot) and billtruong003/ShaderAndUtils-BillTheDev- (its
snapshot is 7.0 GB, over the 500 MB limit). Five were read (three snapshots lacked large
blobs, images, checkpoints and PDFs the census does not need, and were checked out around
them): KOE73/NeuroModFlowNet.ONNX (a C# ONNX Runtime inference library for YOLO and PaddleOCR
with CUDA, TensorRT and ROCm execution providers), swr06/VoxelPathTracer (an OpenGL voxel path
tracer whose GLSL lives in .glsl files, vendoring glm), llama-farm/llamafarm (a Python and
TypeScript local-AI platform: RAG, prompts, model strategies), cxs503/TensorLBM (a PyTorch
lattice-Boltzmann solver run on CUDA and on Tecorigin SDAA cards) and teju85/cupyd (a Python
Dockerfile generator for NVIDIA CUDA and RAPIDS development images). Fifteen files of each
repository were sampled with ``random.Random("owner/name")`` over every file lockin counts and
labelled before any fix, with the files lockin calls non-portable (up to 20) and GPU-looking
files it calls portable (up to 10) checked apart, up to five more kernel files counted by
hand, and three commits touching GPU code (``random.Random("owner/name:commits")``) judged
against ``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found
in the repository its test names; the expected layers are what a porting engineer reading that
file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- teju85/cupyd: a Python program writing Dockerfiles for CUDA images ----------------------


def test_conda_packages_and_channels_of_a_cuda_build_in_a_generator_are_vendor_path() -> None:
    # modules/cudf.py: the generator installs RAPIDS from the nvidia/label/cuda* and
    # rapidsai/label/cuda* conda channels; before, the file counted wholly portable.
    source = b"""\
import recipes.conda_env


def emit(out, version):
    recipes.conda_env.emit(out)
    out.conda_install(["cython", "numba", "pandas", "rmm=$version.*"],
                      channels=["conda-forge",
                                "nvidia/label/cuda$$CU_SHORT",
                                "rapidsai/label/cuda$$CU_SHORT"],
                      version=version)
"""
    path = "modules/dataframe.py"
    assert _rules(path, source) == {"deps.cuda-wheel-python"}
    assert _layers(path, source) == {"vendor-path": 2, "portable": 6}


def test_system_packages_of_nccl_pinned_to_a_cuda_build_are_vendor_path() -> None:
    # images/deprecated/nccl_dev.py: apt packages libnccl2 and libnccl-dev built for the image's
    # CUDA version, and (cf2af784) a conda "nccl>=2.4" beside the other packages.
    source = b"""\
def emit(out, nccl, major, minor):
    out.apt_install(["libnccl2=$nccl-1+cuda$major.$minor",
                     "libnccl-dev=$nccl-1+cuda$major.$minor"],
                    nccl=nccl, major=major, minor=minor)
    out.conda_install(["cmake", "nccl>=2.4", "pytest"])
"""
    path = "images/collectives_dev.py"
    assert _rules(path, source) == {"deps.cuda-wheel-python"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 2}


def test_toolkit_apt_packages_and_an_nvidia_base_image_in_a_generator_are_vendor_path() -> None:
    # modules/cuda_dev.py and images/cuda_dev.py: the toolkit's apt packages pinned to the
    # image's CUDA version, and a variant built on an nvidia/cuda base image.
    source = b"""\
def packages(ver):
    pkgs = ["cuda-cudart-dev-$ver", "cuda-nvrtc-dev-$ver", "git"]
    pkgs.append("cuda-nsight-systems-$ver")
    return pkgs


VARIANTS = {"dev-2204": {"base": "nvidia/cuda:12.2.0-devel-ubuntu22.04"}}
"""
    path = "modules/toolkit_dev.py"
    assert _rules(path, source) == {"deps.cuda-wheel-python"}
    assert _layers(path, source) == {"vendor-path": 3, "portable": 2}


def test_a_cuda_version_table_for_image_variants_stays_portable() -> None:
    # images/ml_dev.py: the variants' CUDA versions are data handed to the CUDA module, which
    # holds the vendor-specific steps; a version under a key is no pin (as in build.toml).
    source = b"""\
def images():
    out = {}
    for cu in ["11.2", "11.4"]:
        out["ml-dev:" + cu] = {"cudaVersion": cu, "base": "ubuntu:20.04"}
    return out
"""
    path = "images/ml_dev.py"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 5}


# -- cxs503/TensorLBM: launch scripts spreading runs over SDAA cards -------------------------


def test_an_array_of_sdaa_devices_in_a_launch_script_is_vendor_path() -> None:
    # run_ship_bench.sh: one worker a hull, each on the SDAA card at the same index of a bash
    # array of "sdaa:N" strings; before, the script counted portable.
    source = b"""\
#!/bin/bash
set -e
CASES=("alpha" "beta" "gamma")
CARDS=("sdaa:2" "sdaa:3" "sdaa:4")
for i in "${!CASES[@]}"; do
    python solve_case.py --case "${CASES[$i]}" --device "${CARDS[$i]}" \\
        > "logs/${CASES[$i]}_sdaa$i.log" 2>&1 &
done
wait
"""
    path = "run_cases.sh"
    assert _rules(path, source) == {"sdaa.device-flag"}
    assert _layers(path, source) == {"vendor-path": 1, "portable": 7}


def test_a_python_worker_on_an_sdaa_card_was_already_vendor_path() -> None:
    # pg_worker.py (pinned, right before this lane): the worker builds an sdaa:N device.
    source = b"""\
import torch


def start(card):
    dev = torch.device(f"sdaa:{card}")
    torch.sdaa.set_device(dev)
    return dev
"""
    path = "worker.py"
    assert _layers(path, source) == {"vendor-path": 2, "portable": 3}


# -- swr06/VoxelPathTracer and KOE73/NeuroModFlowNet.ONNX: verdicts already right -------------


def test_glsl_helper_with_constant_weight_tables_is_all_kernel() -> None:
    # Core/Shaders/Utility/gauss.glsl (pinned): constant tables of blur weights and offsets,
    # every line of them GLSL.
    source = b"""\
const float blurW[3] = float[3](
    0.25, 0.5, 0.25
);

const ivec2 blurO[3] = ivec2[3](
    ivec2(-1, 0), ivec2(0, 0), ivec2(1, 0)
);
"""
    path = "Core/Shaders/Utility/blur.glsl"
    assert _rules(path, source) == {"vulkan.shader-file"}
    assert _layers(path, source) == {"kernel": 6}


def test_opencv_dnn_preprocessing_named_cvdnn_is_portable() -> None:
    # src/NeuroModFlowNet.ONNX/Inputs/Algorithms/Pos/PosCvdnnFP16.cs (pinned): "Cvdnn" is
    # OpenCV's dnn module, not cuDNN.
    source = b"""\
namespace Models.Inputs;

public sealed class PoseCvdnnHalf : InputAlgorithmBase
{
    public override void Fill(Mat frame, Span<Half> target) =>
        CvDnn.BlobFromImage(frame, 1 / 255.0, swapRB: true).CopyTo(target);
}
"""
    path = "src/Models/Inputs/PoseCvdnnHalf.cs"
    assert _rules(path, source) == set()
    assert _layers(path, source) == {"portable": 6}
