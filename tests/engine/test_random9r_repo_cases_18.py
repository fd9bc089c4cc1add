"""Cases from repositories drawn at random from a fixed pool (issue 27, lane h46-random-r).

The pool is ``/work/pool-h40-ext.txt``, ordered with ``random.seed("h40-pool")`` before anyone
read it; this lane took positions 680-685 and every one had a snapshot, so none was skipped:
DeepAuto-AI/hip-attention (Triton attention kernels), inference-gateway/cli (a Go CLI),
LayerDynamics/smlx (MLX on Apple GPUs), Azure/azurehpc (cluster scripts for Azure's GPU and
HPC machines), dixitdwij/CUTLASS_gemm (CUTLASS and cuBLAS GEMM benchmarks) and
NelCit/hlsl-clippy (a linter for HLSL and Slang). Fifteen files of each repository were
sampled with ``random.Random("owner/name")`` over every file lockin counts and labelled before
any fix, with the files lockin calls non-portable (up to 20) and GPU-looking files it calls
portable (up to 10) checked apart, and three commits touching GPU code judged against
``lockin diff``. Each snippet is a small rewrite, in our own words, of a pattern found in the
repository its test names; the expected layers are what a porting engineer reading that file
would say.
"""

from __future__ import annotations

from tests.engine.test_ml_repo_cases import _layers, _rules

# -- NelCit/hlsl-clippy: shader code in C++ raw strings delimited by its language ------------


def test_hlsl_raw_string_without_entry_marks_is_kernel_code() -> None:
    # tests/unit/test_inv_sqrt_to_rsqrt.cpp: each case lints a one-function HLSL snippet kept
    # in R"hlsl( ... )hlsl"; no cbuffer, SV_ semantic or numthreads marks it as HLSL.
    source = b"""\
TEST_CASE("reciprocal square root is suggested") {
    SourceManager sources;
    const std::string hlsl = R"hlsl(
float inv_len(float v) { return 1.0 / sqrt(v); }
)hlsl";
    CHECK(fires(lint_buffer(hlsl, sources), "inv-sqrt-to-rsqrt"));
}
"""
    assert _rules("tests/unit/test_inv_sqrt.cpp", source) == {"hlsl.tagged-raw-string"}
    assert _layers("tests/unit/test_inv_sqrt.cpp", source) == {"kernel": 3, "portable": 4}


def test_hlsl_raw_string_ray_generation_shader_is_kernel_code() -> None:
    # tests/unit/test_missing_ray_flag_cull_non_opaque.cpp: a DXR ray-generation shader.
    source = b"""\
TEST_CASE("shadow rays without the cull flag are reported") {
    const std::string hlsl = R"hlsl(
RaytracingAccelerationStructure scene;
struct Payload { float hit; };

[shader("raygeneration")]
void Generate() {
    RayDesc ray;
    Payload p = { 0.0 };
    TraceRay(scene, RAY_FLAG_NONE, 0xFF, 0, 1, 0, ray, p);
}
)hlsl";
    CHECK(fires(lint_buffer(hlsl), "missing-ray-flag-cull-non-opaque"));
}
"""
    assert _rules("tests/unit/test_ray_flags.cpp", source) == {"hlsl.tagged-raw-string"}
    assert _layers("tests/unit/test_ray_flags.cpp", source) == {"kernel": 10, "portable": 4}


def test_slang_raw_string_is_kernel_code() -> None:
    # tests/unit/test_slang_interface_conformance_missing_method.cpp: Slang interfaces and
    # extensions kept in R"slang( ... )slang"; the file's other case holds HLSL.
    source = b"""\
TEST_CASE("an extension missing a method is reported") {
    const std::string body = R"slang(
interface IReduce {
    float reduce(float a, float b);
}
struct Empty { }
extension Empty : IReduce {
}
)slang";
    CHECK(count(lint_source(body, "synthetic.slang"), "missing-method") == 1U);
}
"""
    assert _rules("tests/unit/test_conformance.cpp", source) == {"slang.tagged-raw-string"}
    assert _layers("tests/unit/test_conformance.cpp", source) == {"kernel": 8, "portable": 3}


def test_raw_string_of_another_language_stays_portable() -> None:
    # core/src/reflection/slang_bridge.cpp and the tests' helpers: file names and messages
    # that name HLSL or Slang, and raw strings of other languages, are no shader.
    source = b"""\
const std::string name = R"(synthetic.hlsl)";
const std::string json = R"json({ "hlsl": "R\\"hlsl(" })json";
const char* hint = "Slang reflection skipped: the file uses DXC-only types";
"""
    assert _layers("core/src/reflection/bridge.cpp", source) == {"portable": 3}


# -- Azure/azurehpc: DCGM's command-line client from a script and from Python ----------------


def test_dcgmi_diagnostics_script_is_vendor_path() -> None:
    # experimental/ndv4_a100_healthchecks/run_dcgm.sh: NVIDIA DCGM's diagnostics, level 3.
    source = b"""\
#!/bin/bash
LEVEL=3
DCGM=/usr/bin/dcgmi
OUT=~/checks/dcgm
$DCGM diag -r $LEVEL >& $OUT/$(hostname)_diag.out
"""
    assert _rules("checks/run_dcgm.sh", source) == {"build.nvcc"}
    assert _layers("checks/run_dcgm.sh", source) == {"vendor-path": 1, "portable": 3}


def test_dcgmi_run_from_python_is_vendor_path() -> None:
    # experimental/hpc_monitoring/.../hpc_data_collector.py: GPU metrics sampled with
    # `dcgmi dmon`; its help text naming DCGM's field ids stays portable.
    source = b"""\
import subprocess

def gpu_metrics(field_ids):
    cmd = ['dcgmi', 'dmon', '-e', field_ids, '-c', '1']
    return subprocess.check_output(cmd).decode()

HELP = "DCGM field ids to monitor, separated by commas"
"""
    assert _rules("monitor/collector.py", source) == {"cuda.tool-call"}
    assert _layers("monitor/collector.py", source) == {"vendor-path": 1, "portable": 4}


# -- checked right before any fix ------------------------------------------------------------


def test_mlx_metal_memory_query_is_vendor_path_and_arrays_portable() -> None:
    # LayerDynamics/smlx smlx/bench/suites/system.py beside smlx/models/common/attention.py:
    # mx.metal's device queries are Apple-only, MLX array code is not.
    source = b"""\
import mlx.core as mx

def device_report():
    if mx.metal.is_available():
        return mx.metal.device_info()
    return {}

def scores(q, k):
    return mx.softmax(q @ k.T, axis=-1)
"""
    assert _layers("smlx/bench/system.py", source) == {"vendor-path": 2, "portable": 5}


def test_nvidia_utils_and_container_library_packages_are_vendor_path() -> None:
    # Azure/azurehpc experimental/aks_ndv4/hpc-diagnostics.yaml and
    # experimental/slurm_enroot/scripts/install_nvidia.sh: nvidia-smi's package and the NVIDIA
    # container toolkit's library installed on the host; the repository file is no package.
    source = b"""\
#!/bin/bash
curl -s -L $BASE/libnvidia-container/$DIST/libnvidia-container.repo > /etc/yum.repos.d/nv.repo
yum -y install libnvidia-container-tools
apt install -y nvidia-utils-525 infiniband-diags
"""
    assert _rules("scripts/install_nvidia.sh", source) == {"deps.cuda-system-package"}
    assert _layers("scripts/install_nvidia.sh", source) == {"vendor-path": 2, "portable": 1}


def test_nsys_found_with_which_is_vendor_path() -> None:
    # DeepAuto-AI/hip-attention scripts/bench_nsys_micro.sh: Nsight Systems, the CUDA
    # toolkit's profiler, run through $(which nsys); a remark naming it is no step.
    source = b"""\
#!/bin/bash
# profile with nsys later
sudo -E $(which nsys) profile -t cuda --output report_$1 $(which python) bench.py
"""
    assert _rules("scripts/bench_profile.sh", source) == {"build.nvcc"}
    assert _layers("scripts/bench_profile.sh", source) == {"vendor-path": 1}


def test_nvidia_device_nodes_and_modules_in_a_prolog_are_vendor_path() -> None:
    # Azure/azurehpc experimental/cc_slurm_pyxis_enroot/.../prolog.sh: a Slurm prolog that
    # leaves nodes without /dev/nvidia0 alone and loads nvidia-uvm when its node is missing.
    source = b"""\
#!/bin/bash
[ -c /dev/nvidia0 ] || exit 0
if [ ! -c /dev/nvidia-uvm ]; then
    echo "starting the UVM driver"
    /sbin/modprobe nvidia-uvm
fi
modprobe nvme
"""
    assert _rules("files/prolog.sh", source) == {"build.nvcc"}
    assert _layers("files/prolog.sh", source) == {"vendor-path": 3, "portable": 3}
