"""Each kernel's effort per target: none, port, review or rewrite, with the reasons, from the
translators' own tables (generated from their repositories) and the traps in effort.yml."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib import resources
from pathlib import Path

import pytest
import yaml

from bot.engine.classify import classify
from bot.engine.effort import Grade, included_traps, translators
from bot.engine.kernels import Kernel, graded_inventory

ROOT = Path(__file__).resolve().parents[2]


def graded(path: str, code: str) -> dict[str, Kernel]:
    text = textwrap.dedent(code)
    kernels, _ = graded_inventory([(path, text, classify(path, text.encode()).findings)])
    return {k.name: k for k in kernels}


def grades(kernel: Kernel) -> dict[str, str]:
    return {target: effort.grade.value for target, effort in kernel.targets.items()}


def reasons(kernel: Kernel, target: str) -> list[tuple[str, int]]:
    return [(r.what, r.line) for r in kernel.targets[target].reasons]


def test_plain_cuda_kernel_ports_through_the_translators_and_is_a_rewrite_elsewhere() -> None:
    k = graded(
        "csrc/scale.cu",
        """\
        #include <cuda_runtime.h>
        __global__ void scale(float* x, float a, int n) {
          int i = blockIdx.x * blockDim.x + threadIdx.x;
          if (i < n) x[i] = x[i] * a;
        }
        """,
    )["scale"]
    assert grades(k) == {"amd": "port", "intel": "port", "apple": "rewrite", "google": "rewrite"}
    assert reasons(k, "amd") == []
    (apple,) = k.targets["apple"].reasons
    assert "Metal" in apple.why


def test_triton_kernel_needs_nothing_on_amd_and_intel() -> None:
    k = graded(
        "ops/add.py",
        """\
        import triton
        import triton.language as tl

        @triton.jit
        def add_kernel(x, y, n, BLOCK: tl.constexpr):
            i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
            tl.store(x + i, tl.load(x + i) + tl.load(y + i), mask=i < n)
        """,
    )["add_kernel"]
    assert grades(k)["amd"] == "none"
    assert grades(k)["apple"] == "rewrite"


def test_warp_size_traps_are_review_for_amd_with_names_and_lines() -> None:
    found = graded(
        "csrc/reduce.cu",
        """\
        #include <cuda_runtime.h>
        __device__ float warp_sum(float v) {
          for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
          return v;
        }
        __global__ void reduce(float* out, const float* x) {
          int lane = threadIdx.x & 31;
          float v = warp_sum(x[threadIdx.x]);
          if (lane == 0) atomicAdd(out, v);
        }
        """,
    )
    k = found["reduce"]
    assert k.helpers == ["warp_sum"]
    assert grades(k)["amd"] == "review"
    # The helper's lines count: the shuffle and its 32-lane mask are the kernel's traps.
    assert set(reasons(k, "amd")) == {
        ("0xffffffff lane mask", 3),
        ("__shfl_xor_sync", 3),
        ("32-lane arithmetic", 7),
    }
    # HIPIFY's table lists the *_sync shuffles unsupported; current HIP has them (overrides).
    shuffle = next(r for r in k.targets["amd"].reasons if r.what == "__shfl_xor_sync")
    assert shuffle.grade == Grade.REVIEW
    assert "ROCm 6.2" in shuffle.why
    # SYCLomatic converts atomicAdd with a diagnostic a person checks.
    assert ("atomicAdd", 9) in reasons(k, "intel")
    assert grades(k)["intel"] == "review"


def test_inline_ptx_is_a_rewrite_for_amd_and_graded_per_instruction_for_intel() -> None:
    found = graded(
        "csrc/mma.cu",
        """\
        #include <cuda_runtime.h>
        __global__ void load_tile(unsigned* r, const unsigned* a) {
          asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\\n"
                       : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a[0]));
        }
        __global__ void add_asm(int* r, int a, int b) {
          asm("add.s32 %0, %1, %2;" : "=r"(r[0]) : "r"(a), "r"(b));
        }
        """,
    )
    tile, add = found["load_tile"], found["add_asm"]
    assert grades(tile)["amd"] == "rewrite"
    assert reasons(tile, "amd") == [("asm ldmatrix", 3)]
    assert grades(tile)["intel"] == "rewrite"  # SYCLomatic's ASM table: ldmatrix is NO
    assert grades(add)["amd"] == "rewrite"
    assert grades(add)["intel"] == "review"  # add is migrated: checked, not rewritten
    assert reasons(add, "intel") == [("asm add", 7)]


def test_cutlass_kernels_and_unsupported_apis_are_rewrites() -> None:
    found = graded(
        "csrc/gemm.cu",
        """\
        #include <cutlass/gemm/device/gemm.h>
        #include <cuda_runtime.h>
        __global__ void gemm_kernel(float* c) {
          cute::Tensor t = cute::make_tensor(c, cute::make_shape(8, 8));
        }
        __global__ void stream_store(float* x) {
          __stcg(x, 1.0f);
        }
        """,
    )
    gemm = found["gemm_kernel"]
    assert grades(gemm)["amd"] == "rewrite"
    assert ("CUTLASS/CuTe include", 1) in reasons(gemm, "amd")
    assert ("CUTLASS/CuTe", 4) in reasons(gemm, "amd")
    store = found["stream_store"]
    (stcg,) = [r for r in store.targets["amd"].reasons if r.what == "__stcg"]
    assert stcg.grade == Grade.REWRITE
    assert "CUDA_Device_API" in stcg.why


def test_a_kernel_named_like_a_math_function_is_not_that_function() -> None:
    # `norm` is in SYCLomatic's table (with a diagnostic); the kernel is not that function.
    k = graded(
        "csrc/norm.cu",
        "__global__ void norm(float* x) {\n  x[threadIdx.x] *= 2;\n}\n",
    )["norm"]
    assert grades(k)["intel"] == "port"


def test_file_effort_splits_kernel_lines_by_grade_per_target() -> None:
    text = textwrap.dedent(
        """\
        #include <cuda_runtime.h>
        __global__ void plain(float* x) {
          x[threadIdx.x] += 1.0f;
        }
        __global__ void lanes(float* x) {
          x[threadIdx.x % 32] += 1.0f;
        }
        """
    )
    _, (effort,) = graded_inventory([("k.cu", text, classify("k.cu", text.encode()).findings)])
    assert effort.lines["amd"] == {Grade.PORT: 3, Grade.REVIEW: 3}
    assert effort.lines["apple"] == {Grade.REWRITE: 6}


def test_tables_carry_their_provenance_and_overrides_name_listed_entries() -> None:
    data = resources.files("bot.engine").joinpath("data/porting")
    hipify = yaml.safe_load(data.joinpath("hipify.yml").read_text())
    assert hipify["source"]["repo"] == "ROCm/HIPIFY"
    assert hipify["source"]["licence"] == "MIT"
    assert len(hipify["source"]["commit"]) == 40
    assert hipify["source"]["version"].startswith("HIPIFY for ROCm")
    sycl = yaml.safe_load(data.joinpath("syclomatic.yml").read_text())
    assert sycl["source"]["licence"].startswith("Apache-2.0")
    assert all(len(f["commit"]) == 40 for f in sycl["source"]["files"])
    amd, intel = translators()["amd"], translators()["intel"]
    # An override corrects an entry of the table; one for a name the table does not list
    # would correct nothing.
    for name in amd.overrides:
        assert name in amd.unsupported
    for name in intel.overrides:
        assert name in intel.unsupported or name in intel.diagnostics
    assert "mma" in intel.asm_unsupported
    assert "add" not in intel.asm_unsupported


def test_regeneration_script_turns_a_checkout_into_the_data_files(tmp_path: Path) -> None:
    hipify = tmp_path / "HIPIFY"
    (hipify / "docs/tables").mkdir(parents=True)
    (hipify / "CHANGELOG.md").write_text("# Changelog\n\n## HIPIFY for ROCm 9.9.9\n")
    (hipify / "docs/tables/CUDA_Device_API_supported_by_HIP.md").write_text(
        "|**CUDA**|**A**|**D**|**C**|**R**|**HIP**|**A**|**D**|**C**|**R**|**E**|\n"
        "|:--|:-:|:-:|:-:|:-:|:--|:-:|:-:|:-:|:-:|:-:|\n"
        "|`__ldg`| | | | |`__ldg`|1.6.0| | | | |\n"
        "|`__stcg`|11.0| | | | | | | | | |\n"
    )
    sycl = tmp_path / "sycl"
    sycl.mkdir()
    header = "Function,Migration Support,Diagnostic Message\n"
    (sycl / "Runtime_and_Driver_API_migration_status.csv").write_text(
        header + "atomicAdd,YES,:ref:`DPCT1039`\njn,NO,\n__ldg,YES,\n"
    )
    (sycl / "ASM_API_migration_status.csv").write_text(header + "mma,NO,\nadd,YES,\n")
    (sycl / "wmma_API_migration_status.csv").write_text(header)
    (sycl / "CUB_API_migration_status.csv").write_text(
        header + "cub::BlockLoad::Load,YES, Partial\n"
    )
    out = tmp_path / "out"
    out.mkdir()
    commits = [
        f"--commit-of={name}={'a' * 40}"
        for name in (
            "tables",
            "Runtime_and_Driver_API_migration_status.csv",
            "ASM_API_migration_status.csv",
            "wmma_API_migration_status.csv",
            "CUB_API_migration_status.csv",
        )
    ]
    script = ROOT / "scripts" / "regenerate_porting_tables.py"
    args = ["--hipify", str(hipify), "--syclomatic", str(sycl), "--out", str(out), *commits]
    subprocess.run([sys.executable, str(script), *args], check=True, capture_output=True)
    made = yaml.safe_load((out / "hipify.yml").read_text())
    assert made["unsupported"] == {"CUDA_Device_API": ["__stcg"]}
    assert made["counts"] == {"CUDA_Device_API": {"supported": 1, "unsupported": 1}}
    assert made["source"]["version"] == "HIPIFY for ROCm 9.9.9"
    made = yaml.safe_load((out / "syclomatic.yml").read_text())
    assert made["unsupported"]["Runtime_and_Driver_API"] == ["jn"]
    assert made["unsupported"]["ASM_API"] == ["mma"]
    assert made["diagnostics"]["Runtime_and_Driver_API"] == {"atomicAdd": ["DPCT1039"]}
    assert made["diagnostics"]["CUB_API"] == {"cub::BlockLoad::Load": ["partial"]}


@pytest.mark.parametrize("target", ["amd", "intel", "apple", "google"])
def test_every_target_gets_a_grade(target: str) -> None:
    k = graded("a.cu", "__global__ void f(float* x) { x[0] = 1; }\n")["f"]
    assert k.targets[target].grade in (Grade.PORT, Grade.REWRITE)


def test_a_kernel_whose_file_includes_cutlass_code_is_a_rewrite() -> None:
    """flash-attention's pattern: a thin __global__ wrapper in a launch header that calls
    CuTe device code defined in a header it includes."""
    files = {
        "src/fwd_kernel.h": "#pragma once\n#include <cute/tensor.hpp>\n"
        "template <class T> __device__ void compute(T* o) {\n"
        "  cute::Tensor t = cute::make_tensor(o, cute::make_shape(8));\n}\n",
        "src/fwd_launch.h": '#include "fwd_kernel.h"\n'
        "template <class T> __global__ void fwd_kernel(T* o) {\n  compute(o);\n}\n",
        "src/plain.cu": "__global__ void plain(float* x) {\n  x[threadIdx.x] = 0;\n}\n",
    }
    reports = {p: classify(p, t.encode()) for p, t in files.items()}
    reached = included_traps((p, r.includes, r.findings) for p, r in reports.items())
    kernels, _ = graded_inventory(((p, files[p], reports[p].findings) for p in files), reached)
    by_name = {k.name: k for k in kernels}
    assert grades(by_name["fwd_kernel"])["amd"] == "rewrite"
    (reason,) = by_name["fwd_kernel"].targets["amd"].reasons
    assert "src/fwd_kernel.h" in reason.why
    assert grades(by_name["plain"])["amd"] == "port"
