"""The register: decisions read back against the census, drift, coverage, uncovered areas,
overlapping scopes, framework choices, CODEOWNERS; and the migration plan per target."""

from __future__ import annotations

import textwrap

import pytest

from bot.engine.census import FileSummary
from bot.engine.classify import classify
from bot.engine.kernels import inventory
from bot.policy.codeowners import parse as parse_codeowners
from bot.policy.config import DEFAULT_POLICY, load_policy
from bot.policy.decisions import read_records
from bot.policy.plan import build_plan
from bot.policy.register import Register, build_register

KERNEL = """\
#include <cuda_runtime.h>
__device__ float twice(float x) { return 2 * x; }
__global__ void {name}(float* x) {{
  int i = threadIdx.x;
  x[i] = twice(x[i]);
  x[i] += 1;
}}
"""
CUBLAS = """\
#include <cublas_v2.h>
void gemm(cublasHandle_t h) {
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1,
              nullptr, nullptr, 1, nullptr, 1, nullptr, nullptr, 1);
}
"""
TREE = {
    "csrc/attention/fwd.cu": KERNEL.replace("{name}", "attn_fwd")
    .replace("{{", "{")
    .replace("}}", "}"),
    "csrc/attention/bwd.cu": KERNEL.replace("{name}", "attn_bwd")
    .replace("{{", "{")
    .replace("}}", "}"),
    "csrc/gemm/gemm.cu": CUBLAS,
    "ops/norm.cu": KERNEL.replace("{name}", "norm").replace("{{", "{").replace("}}", "}"),
    "model/train.py": "import torch\n\nx = torch.zeros(3).cuda()\n",
}


def record(name: str, front: str) -> tuple[str, str]:
    return f"docs/decisions/{name}", f"---\n{textwrap.dedent(front)}---\n# {name}\n"


def register_of(
    tree: dict[str, str],
    records: list[tuple[str, str]],
    codeowners: str | None = None,
    policy=DEFAULT_POLICY,
) -> tuple[Register, list[FileSummary]]:
    summaries = [FileSummary.of(classify(p, code.encode())) for p, code in tree.items()]
    kernels = inventory((s.path, tree[s.path], s.findings) for s in summaries)
    parsed, problems = read_records(records)
    owners = parse_codeowners(codeowners) if codeowners is not None else None
    found = {"pytorch": ["model/train.py"]}
    reg = build_register(
        summaries,
        parsed,
        policy,
        problems=problems,
        codeowners=owners,
        detected=found,
        kernels=kernels,
    )
    return reg, summaries


ATTENTION = record(
    "0001-attention.md",
    """\
    type: compute-api
    status: accepted
    owner: "@attn-team"
    compute_api: CUDA 12.4
    migration_cost: {lines: 6, engineer_weeks: 2, target: HIP}
    scope: [csrc/attention/**]
    """,
)


def test_a_decision_shows_its_lines_per_layer_and_flags_drift_past_the_tolerance() -> None:
    reg, _ = register_of(TREE, [ATTENTION])
    (entry,) = reg.decisions
    assert (entry.status, entry.owner, entry.files, entry.kernels) == (
        "accepted",
        "@attn-team",
        2,
        2,
    )
    assert entry.estimate == 6
    assert entry.lines == sum(entry.layers.values()) == 14
    assert entry.ecosystems == {"cuda": 14}
    assert entry.drifted
    assert entry.drift == pytest.approx(14 / 6 - 1)
    lenient = load_policy("decisions: {drift_tolerance: 2.0}")
    reg2, _ = register_of(TREE, [ATTENTION], policy=lenient)
    assert not reg2.decisions[0].drifted  # 14 <= 6 * 3


def test_coverage_and_uncovered_areas_with_owners_from_codeowners() -> None:
    owners = "* @everyone\ncsrc/gemm/ @blas-team\n/ops/ @ops-team  # norms\n"
    every_layer = load_policy("layers: [kernel, vendor-library, vendor-path]")
    reg, _ = register_of(TREE, [ATTENTION], codeowners=owners, policy=every_layer)
    assert reg.covered_lines == 14
    assert reg.gated_lines > reg.covered_lines
    assert reg.coverage == pytest.approx(14 / reg.gated_lines)
    areas = {a.directory: a for a in reg.uncovered}
    assert areas["ops"].owners == ("@ops-team",)
    assert areas["csrc/gemm"].owners == ("@blas-team",)
    assert areas["ops"].lines == 7
    assert "csrc/attention" not in areas
    assert [a.lines for a in reg.uncovered] == sorted(
        (a.lines for a in reg.uncovered), reverse=True
    )


def test_codeowners_syntax_errors_are_reported_and_the_rest_applies() -> None:
    owners = "!ops/ @x\nops/[ab] @y\nops/ not-an-owner\ncsrc/ @c-team\n"
    parsed = parse_codeowners(owners, ".github/CODEOWNERS")
    assert [e.split(":")[1] for e in parsed.errors] == ["1", "2", "3"]
    assert parsed.owners("csrc/gemm/gemm.cu") == ("@c-team",)
    reg, _ = register_of(TREE, [ATTENTION], codeowners=owners)
    assert [p for p in reg.problems if p.startswith("CODEOWNERS:")] == [
        e.replace(".github/CODEOWNERS", "CODEOWNERS") for e in parsed.errors
    ]


def test_overlapping_scopes_name_the_winner_and_why() -> None:
    broad = record(
        "0002-all-csrc.md",
        "type: compute-api\nstatus: accepted\nowner: '@c'\nscope: [csrc/**]\n",
    )
    reg, _ = register_of(TREE, [ATTENTION, broad])
    (overlap,) = reg.overlaps
    assert overlap.winner == ATTENTION[0]
    assert overlap.files == 2
    assert "more specific" in overlap.reason
    assert reg.attribution["csrc/attention/fwd.cu"] == ATTENTION[0]
    assert reg.attribution["csrc/gemm/gemm.cu"] == broad[0]
    twin = record(
        "0003-attention-again.md", ATTENTION[1].split("\n---\n")[0].removeprefix("---\n") + "\n"
    )
    reg2, _ = register_of(TREE, [ATTENTION, twin])
    assert reg2.overlaps[0].winner == twin[0]
    assert "newer" in reg2.overlaps[0].reason


def test_bad_records_give_messages_not_crashes_nor_figures() -> None:
    records = [
        ATTENTION,
        ("docs/decisions/broken.md", "---\nstatus: [\n---\n"),
        record(
            "0004-odd.md", "type: compute-api\nstatus: maybe\nowner: '@x'\nscope: [nothing/**]\n"
        ),
        record(
            "0005-rocm.md", "type: compute-api\nstatus: superseded\nowner: '@x'\nscope: [ops/**]\n"
        ),
        record("0006-ownerless.md", "type: compute-api\nstatus: accepted\nscope: [csrc/gemm/**]\n"),
    ]
    reg, _ = register_of(TREE, records)
    assert any(p.startswith("docs/decisions/broken.md: bad YAML") for p in reg.problems)
    by_ref = {d.ref: d for d in reg.decisions}
    odd = by_ref["docs/decisions/0004-odd.md"]
    assert any("status maybe" in p for p in odd.problems)
    assert any("matches no non-portable file" in p for p in odd.problems)
    assert [d.ref for d in reg.retired_with_code] == ["docs/decisions/0005-rocm.md"]
    ownerless = by_ref["docs/decisions/0006-ownerless.md"]
    assert any("without an owner" in p for p in ownerless.problems)
    assert reg.covered_lines == 14  # neither the ownerless nor the superseded record counts


def test_the_framework_choice_is_recorded_or_not() -> None:
    reg, _ = register_of(TREE, [ATTENTION])
    assert [(f.name, f.record) for f in reg.frameworks] == [("pytorch", None)]
    chosen = record("0000-pytorch.md", "type: framework\nframework: PyTorch\nowner: '@ml'\n")
    reg2, _ = register_of(TREE, [ATTENTION, chosen])
    assert [(f.name, f.record, f.owner) for f in reg2.frameworks] == [("pytorch", chosen[0], "@ml")]
    assert [d.ref for d in reg2.decisions] == [ATTENTION[0]]  # listed apart


def test_the_plan_splits_rewrite_map_and_edit_and_names_counterparts() -> None:
    reg, summaries = register_of(TREE, [ATTENTION])
    amd = build_plan(summaries, reg, "amd")
    groups = {g.name: g for g in amd.groups}
    attention = groups[ATTENTION[0]]
    assert attention.kind == "decision"
    assert attention.rewrite == 12  # kernels and their helpers
    assert attention.kernels == 2
    assert attention.edit == 2  # the includes, which hipify rewrites
    assert attention.mechanical == 2
    assert attention.estimate == 6
    gemm = groups["csrc/gemm"]
    assert gemm.kind == "uncovered"
    (mapping,) = gemm.libraries.values()
    assert (mapping.library, mapping.counterpart) == ("cuBLAS / cuBLASLt", "hipBLAS / hipBLASLt")
    assert mapping.lines == gemm.map > 0
    assert amd.estimated == 6
    assert amd.total("rewrite") == 12 + 6
    apple = build_plan(summaries, reg, "apple")
    assert {g.name: g for g in apple.groups}["csrc/gemm"].libraries["cublas.call"].counterpart == (
        "MPS matrix kernels / Accelerate"
    )
    assert apple.total("mechanical") == 0  # no translation tool for Apple
    # torch.cuda runs on AMD through ROCm builds, so the AMD plan has nothing for model/
    assert "model" not in groups
    assert "model" in {g.name for g in apple.groups}
    with pytest.raises(ValueError, match="unknown target"):
        build_plan(summaries, reg, "riscv")
