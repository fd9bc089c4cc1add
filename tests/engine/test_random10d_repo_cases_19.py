"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h47-random-d).

The pool is ``/work/pool-h47.txt``, ordered with ``random.seed("h47-pool")`` before anyone read
it; this lane took positions 25-32. Two had no snapshot and were skipped, not replaced:
giwwi/attention and scxiao/triton-tlx. The six read were minecraft-library/asset-renderer (a
Java renderer that draws Minecraft assets on the CPU), bonohub13/Raytracing_in_One_Weekend (a
CPU ray tracer in Rust), SniPE7/transformer-project (Java web services and Dojo), Sh-Anand/
pathtracer (a C++ path tracer vendoring GLFW and Dear ImGui), pytorch/ci-infra (PyTorch's GPU
CI and dev-server infrastructure: Kubernetes, Terraform, Python) and ACBob/VoxelThingYeah (an
OpenGL voxel game with GLSL shaders). Fifteen files of each repository were sampled with
``random.Random("owner/name")`` over every file lockin counts and labelled before any fix, with
the files lockin calls non-portable (up to 20) and GPU-looking files it calls portable (up to
10) checked apart, and three commits touching GPU code judged against ``lockin diff``. Each
snippet is a small rewrite, in our own words, of a pattern found in the repository its test
names; the expected layers are what a porting engineer reading that file would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- pytorch/ci-infra: a Kubernetes label named after the CUDA release is no package ----------


def test_kubectl_label_selector_on_cuda_version_is_portable() -> None:
    # osdc/modules/pypi-cache/deploy.sh: one cache deployment per CUDA slug, looked up by its
    # cuda-version label after the rollout; no conda package is installed.
    source = b"""\
#!/bin/bash
for tag in $TAGS; do
  kubectl rollout status deployment "cache-${tag}" -n "$NS" || {
    echo "rollout stalled; see: kubectl get pods -n $NS -l cuda-version=${tag}"
  }
  kubectl delete pods --selector=cuda-version=${tag} -n "$NS" --field-selector=status.phase=Failed
done
"""
    assert _rules("deploy/cache.sh", source) == set()
    assert _layers("deploy/cache.sh", source) == {"portable": 6}


def test_conda_cuda_version_pin_from_a_variable_stays_vendor_path() -> None:
    # The conda package the selector shares its name with is still a CUDA pin when installed.
    source = b"""\
#!/bin/bash
conda install -y -c conda-forge cuda-version=${CUDA_MAJOR} cupy
"""
    assert _rules("scripts/env.sh", source) == {"deps.cuda-wheel"}
    assert _layers("scripts/env.sh", source) == {"vendor-path": 1}


# -- checked right before any fix ------------------------------------------------------------


def test_nvidia_instance_types_in_a_nodepool_definition_are_vendor_path() -> None:
    # pytorch/ci-infra osdc/modules/nodepools/defs/g4dn.yaml: a Karpenter fleet of T4 machines
    # named by their EC2 instance types; the other keys are portable.
    source = b"""\
fleet:
  name: t4-pool
  gpu: true
  instances:
    - type: g4dn.12xlarge
      weight: 90
    - type: g4dn.8xlarge
      weight: 80
"""
    assert _rules("defs/t4-pool.yaml", source) == {"cloud.nvidia-gpu-instance"}
    assert _layers("defs/t4-pool.yaml", source) == {"vendor-path": 2, "portable": 6}


def test_nvidia_smi_in_a_job_script_is_vendor_path() -> None:
    # pytorch/ci-infra gpu-dev/tests/submit/fail/run.sh: a submitted job lists its GPUs with
    # nvidia-smi before failing on purpose.
    source = b"""\
#!/bin/bash
set -euo pipefail
nvidia-smi -L > gpus.txt
echo "about to fail"
exit 3
"""
    assert _rules("jobs/fail/run.sh", source) == {"build.nvcc"}
    assert _layers("jobs/fail/run.sh", source) == {"vendor-path": 1, "portable": 3}


def test_glsl_kept_in_line_continued_c_strings_is_kernel_code() -> None:
    # ACBob/VoxelThingYeah src/client/rendering/errorshader.hpp: a fallback vertex shader
    # written as one C string continued with backslashes, each line ending in \\n.
    source = b"""\
// used when the shader files cannot be read
const char *const FALLBACK_VERT = "#version 330 core \\n \\
layout (location = 0) in vec3 pos; \\n \\
uniform mat4 mvp; \\n \\
void main() \\n \\
{ \\n \\
\tgl_Position = mvp * vec4(pos, 1.0); \\n \\
}";
"""
    assert _rules("src/render/fallback.hpp", source) == {"vulkan.glsl-string"}
    assert _layers("src/render/fallback.hpp", source) == {"kernel": 7}


def test_opengl_shader_compilation_host_code_is_portable() -> None:
    # ACBob/VoxelThingYeah src/client/rendering/shadermanager.cpp: OpenGL's shader calls are
    # the cross-vendor host API; the shader sources come from files.
    source = b"""\
unsigned int compile(const char *src, GLenum kind) {
    unsigned int id = glCreateShader(kind);
    glShaderSource(id, 1, &src, NULL);
    glCompileShader(id);
    return id;
}
"""
    assert _rules("src/render/shaders.cpp", source) == set()
    assert _layers("src/render/shaders.cpp", source) == {"portable": 6}


# -- pytorch/ci-infra: EC2's Blackwell instance families and NVIDIA's GPU Operator -----------


def test_b200_runner_definition_is_vendor_path() -> None:
    # osdc/modules/arc-runners-b200/defs/l-x86iamx-22-225-b200.yaml: a runner scheduled onto the
    # p6-b200 family, as the p5 runners beside it are.
    source = b"""\
# one Blackwell GPU per runner
runner:
  name: l-x86-22-b200
  instance_type: p6-b200.48xlarge
  node_fleet: p6-b200
  gpu: 1
"""
    assert _rules("defs/b200-runner.yaml", source) == {"cloud.nvidia-gpu-instance"}
    assert _layers("defs/b200-runner.yaml", source) == {"vendor-path": 1, "portable": 4}


def test_blackwell_instance_types_in_a_python_table_are_vendor_path() -> None:
    # gpu-dev/terraform-gpu-devservers/lambda/availability_updater/index.py: GPU names mapped to
    # the EC2 instance types that carry them.
    source = b"""\
INSTANCE_FOR_GPU = {
    "h100": "p5.48xlarge",
    "b200": "p6-b200.48xlarge",
    "rtxpro6000": "g7e.24xlarge",
    "cpu": "c7i.48xlarge",
}
"""
    assert _rules("lambda/instances.py", source) == {"cloud.nvidia-gpu-instance-string"}
    assert _layers("lambda/instances.py", source) == {"vendor-path": 3, "portable": 3}


def test_terraform_helm_release_of_nvidia_gpu_operator_is_vendor_path() -> None:
    # gpu-dev/terraform-gpu-devservers/kubernetes.tf: the GPU Operator installed from NVIDIA's
    # Helm repository with helm_release.
    source = b"""\
resource "helm_release" "gpu_operator" {
  name             = "gpu-operator"
  repository       = "https://helm.ngc.nvidia.com/nvidia"
  chart            = "gpu-operator"
  namespace        = "gpu-operator"
  create_namespace = true
}
"""
    assert _rules("infra/kubernetes.tf", source) == {"k8s.nvidia-gpu-operator-string"}
    assert _layers("infra/kubernetes.tf", source) == {"vendor-path": 1, "portable": 6}


def test_helm_install_of_nvidia_gpu_operator_is_vendor_path() -> None:
    # The same install from a script; AMD's operator chart stays portable.
    source = b"""\
#!/bin/bash
if [ "$VENDOR" = amd ]; then
  helm install amd-gpu-operator rocm/gpu-operator-charts -n kube-amd-gpu
else
  helm repo add nvidia https://helm.ngc.nvidia.com/nvidia
  helm install gpu-operator nvidia/gpu-operator -n gpu-operator --create-namespace
fi
"""
    assert _rules("scripts/gpu_stack.sh", source) == {"k8s.nvidia-gpu-operator"}
    assert _layers("scripts/gpu_stack.sh", source) == {"vendor-path": 2, "portable": 4}
