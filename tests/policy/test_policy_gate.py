"""The decision gate, branch by branch, and the drafted record's round trip through it."""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine.delta import ChangeDelta, FileDelta
from bot.engine.model import Finding, Layer
from bot.policy.approvals import Approver, RecordReview
from bot.policy.config import DEFAULT_POLICY, Policy, load_policy
from bot.policy.decisions import (
    DecisionRecord,
    MigrationCost,
    find_links,
    link_line,
    parse_decision,
)
from bot.policy.gate import LinkedDecision, Verdict, draft_decision, evaluate

ATTN = "csrc/attention/attn.cu"
NORM = "csrc/norm/layernorm.cu"


#: A rule of each layer and ecosystem, for the per-rule counts the gate reads.
RULE_OF = {
    ("cuda", Layer.KERNEL): "cuda.kernel",
    ("cuda", Layer.VENDOR_PATH): "cuda.runtime",
    ("cuda", Layer.VENDOR_LIBRARY): "cublas.call",
    ("hip", Layer.KERNEL): "hip.kernel",
    ("hip", Layer.VENDOR_PATH): "hip.runtime",
    ("triton", Layer.KERNEL): "triton.jit",
}


def change(path: str, *, status: str = "modified", ecosystem: str = "cuda", **lines: int):
    """A FileDelta; keywords like kernel=40, vendor_path=2, removed_kernel=10."""
    delta = FileDelta(path=path, status=status)
    for key, n in lines.items():
        removed = key.startswith("removed_")
        layer = Layer(key.removeprefix("removed_").replace("_", "-"))
        (delta.removed if removed else delta.added)[layer] = n
        if layer == Layer.PORTABLE:
            continue
        rule = RULE_OF[(ecosystem, layer)]
        (delta.removed_rules if removed else delta.added_rules)[rule] = n
        if removed:
            delta.old_rules[rule] = n
    added = delta.added_non_portable
    if added:
        delta.added_ecosystems[ecosystem] = added
        delta.added_ranges.append(Finding("cuda.kernel", Layer.KERNEL, ecosystem, 1, added))
    return delta


def record(ref: str = "docs/decisions/0001-attention.md", **fields) -> DecisionRecord:
    values = {
        "ref": ref,
        "path": ref,
        "type": "compute-api",
        "status": "accepted",
        "owner": "@kernel-team",
        "compute_api": "CUDA 12.4",
        "migration_cost": "3 weeks",
        "scope": None,
        "title": "Attention kernels",
    }
    values.update(fields)
    return DecisionRecord(**values)


def link(rec: DecisionRecord, review: RecordReview | None = None) -> LinkedDecision:
    return LinkedDecision(rec.ref, rec, None, review)


def run(*files: FileDelta, policy: Policy = DEFAULT_POLICY, linked=(), recorded=()) -> Verdict:
    return evaluate(ChangeDelta(list(files)), policy, linked=linked, recorded=recorded)


def test_kernel_without_decision_fails_and_says_so() -> None:
    verdict = run(change(ATTN, kernel=40), change(NORM, kernel=2, vendor_path=3))
    assert verdict.conclusion == "failure"
    assert verdict.gated_lines == 45
    assert verdict.needs_decision
    assert [(f.path, f.gated_lines, f.covered_by) for f in verdict.files] == [
        (ATTN, 40, None),
        (NORM, 5, None),
    ]
    assert all("no valid linked or recorded" in (f.reason or "") for f in verdict.files)
    assert verdict.summary == (
        "adds 42 kernel and 3 vendor-path lines in 2 files without a compute-API decision"
    )
    assert verdict.decisions == ()
    assert [f.path for f in verdict.uncovered] == [ATTN, NORM]


def test_valid_linked_decision_without_scope_covers_every_file() -> None:
    decision = record()
    verdict = run(change(ATTN, kernel=40), change(NORM, kernel=2), linked=[link(decision)])
    assert verdict.conclusion == "success"
    assert {f.covered_by for f in verdict.files} == {decision.ref}
    assert verdict.decisions[0].valid
    assert verdict.decisions[0].problems == ()
    assert verdict.summary == (
        "adds 42 kernel lines in 2 files, covered by docs/decisions/0001-attention.md"
    )
    assert verdict.uncovered == ()


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"type": "framework"}, "type is 'framework', not 'compute-api'"),
        ({"type": None}, "no type, not 'compute-api'"),
        ({"owner": None}, "no owner"),
        (
            {"status": "proposed"},
            "status is 'proposed': awaiting acceptance (accepted required; set "
            "decisions.allow_proposed to accept proposed)",
        ),
        ({"status": "rejected"}, "status is 'rejected' (accepted required)"),
        ({"status": "superseded"}, "status is 'superseded' (accepted required)"),
        ({"status": None}, "no status (accepted required)"),
        ({"status": "approved"}, "status is 'approved' (accepted required; unknown status)"),
    ],
)
def test_linked_decision_names_the_requirement_it_fails(fields: dict, problem: str) -> None:
    decision = record(**fields)
    verdict = run(change(ATTN, kernel=40), linked=[link(decision)])
    assert verdict.conclusion == "failure"
    assert verdict.files[0].covered_by is None
    check = verdict.decisions[0]
    assert (check.ref, check.valid, check.problems) == (decision.ref, False, (problem,))
    assert verdict.summary.endswith(f"; linked decision {decision.ref} is invalid: {problem}")


def test_every_failed_requirement_is_listed() -> None:
    decision = record(type="framework", owner=None, status="proposed", scope=("kernels/**",))
    problems = run(change(ATTN, kernel=1), linked=[link(decision)]).decisions[0].problems
    assert problems == (
        "type is 'framework', not 'compute-api'",
        "status is 'proposed': awaiting acceptance (accepted required; set "
        "decisions.allow_proposed to accept proposed)",
        "no owner",
        f"scope ['kernels/**'] does not cover {ATTN}",
    )


def test_proposed_passes_when_the_policy_allows_it() -> None:
    policy = load_policy("decisions:\n  allow_proposed: true\n")
    proposed = record(status="proposed")
    assert run(change(ATTN, kernel=40), policy=policy, linked=[link(proposed)]).conclusion == (
        "success"
    )
    rejected = run(change(ATTN, kernel=40), policy=policy, linked=[link(record(status="rejected"))])
    assert rejected.decisions[0].problems == (
        "status is 'rejected' (accepted or proposed required)",
    )


def test_scope_that_misses_a_file_fails_for_that_file() -> None:
    decision = record(scope=("kernels/**",))
    verdict = run(
        change("kernels/gemm.cu", kernel=10), change(ATTN, kernel=5), linked=[link(decision)]
    )
    assert verdict.conclusion == "failure"
    assert [(f.path, f.covered_by) for f in verdict.files] == [
        ("kernels/gemm.cu", decision.ref),
        (ATTN, None),
    ]
    assert verdict.decisions[0].problems == (f"scope ['kernels/**'] does not cover {ATTN}",)
    assert verdict.summary.startswith(
        "adds 15 kernel lines in 2 files; 1 file (5 lines) without a compute-API decision"
    )


def test_two_linked_decisions_for_two_areas_are_both_valid() -> None:
    kernels = record("docs/decisions/0001-kernels.md", scope=("kernels/**",))
    attention = record("#12", path=None, scope=("csrc/attention/",))
    verdict = run(
        change("kernels/gemm.cu", kernel=10),
        change(ATTN, kernel=5),
        linked=[link(kernels), link(attention)],
    )
    assert verdict.conclusion == "success"
    assert [f.covered_by for f in verdict.files] == [kernels.ref, "#12"]
    assert all(check.valid for check in verdict.decisions)


def test_recorded_decision_covers_files_in_its_scope_without_a_link() -> None:
    area = record("docs/decisions/0002-attention.md", scope=("csrc/attention/**",))
    verdict = run(change(ATTN, kernel=30), recorded=[area])
    assert verdict.conclusion == "success"
    assert verdict.files[0].covered_by == area.ref
    assert verdict.decisions == ()
    outside = run(change(NORM, kernel=30), recorded=[area])
    assert outside.conclusion == "failure"
    assert outside.files[0].reason == "no valid linked or recorded compute-API decision covers it"


def test_recorded_decision_without_scope_covers_only_prs_that_link_it() -> None:
    everywhere = record("docs/decisions/0003-cuda.md", scope=None)
    assert run(change(ATTN, kernel=3), recorded=[everywhere]).conclusion == "failure"
    linked = run(change(ATTN, kernel=3), recorded=[everywhere], linked=[link(everywhere)])
    assert linked.conclusion == "success"
    assert linked.files[0].covered_by == everywhere.ref


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"status": "proposed"}, "status is 'proposed'"),
        ({"type": "framework"}, "type is 'framework'"),
        ({"owner": None}, "no owner"),
    ],
)
def test_recorded_decision_must_be_accepted_compute_api_with_owner(fields: dict, words: str):
    recorded = record("docs/decisions/0004.md", scope=("csrc/**",), **fields)
    verdict = run(change(ATTN, kernel=3), recorded=[recorded])
    assert verdict.conclusion == "failure"
    reason = verdict.files[0].reason or ""
    assert reason.startswith("recorded decision docs/decisions/0004.md covers it but: ")
    assert words in reason


def test_invalid_link_is_listed_even_when_a_recorded_decision_covers_the_files() -> None:
    area = record("docs/decisions/0002-attention.md", scope=("csrc/**",))
    missing = LinkedDecision("docs/decisions/0009-typo.md", None, "not found at abc1234")
    framework = record("docs/decisions/0010-pytorch.md", type="framework")
    verdict = run(change(ATTN, kernel=30), recorded=[area], linked=[missing, link(framework)])
    assert verdict.conclusion == "success"
    assert verdict.files[0].covered_by == area.ref
    assert [(c.ref, c.valid, c.problems) for c in verdict.decisions] == [
        ("docs/decisions/0009-typo.md", False, ("not found at abc1234",)),
        ("docs/decisions/0010-pytorch.md", False, ("type is 'framework', not 'compute-api'",)),
    ]
    assert verdict.summary == (
        "adds 30 kernel lines in 1 file, covered by docs/decisions/0002-attention.md; "
        "2 linked decisions are invalid"
    )


def test_caller_error_for_an_issue_is_the_problem() -> None:
    error = "issue #12 is not labelled compute-api-decision"
    verdict = run(change(ATTN, kernel=3), linked=[LinkedDecision("#12", None, error)])
    assert verdict.decisions[0].problems == (error,)
    assert verdict.conclusion == "failure"


@pytest.mark.parametrize(("added", "conclusion"), [(5, "success"), (6, "failure")])
def test_allowance(added: int, conclusion: str) -> None:
    policy = load_policy("allowance: 5\n")
    verdict = run(change(ATTN, kernel=added - 1, vendor_path=1), policy=policy)
    assert verdict.conclusion == conclusion
    assert verdict.needs_decision is (conclusion == "failure")
    assert verdict.gated_lines == added
    if conclusion == "success":
        assert verdict.files[0].reason == "within the allowance of 5"
        assert verdict.summary.endswith(", within the allowance of 5")
        assert verdict.uncovered == ()


def test_neutral_enforcement_reports_without_failing() -> None:
    verdict = run(change(ATTN, kernel=40), policy=load_policy("enforcement: neutral\n"))
    assert verdict.conclusion == "neutral"
    assert verdict.needs_decision
    assert verdict.summary == "adds 40 kernel lines in 1 file without a compute-API decision"


def test_removed_only_change_passes_and_says_how_many_lines_left() -> None:
    verdict = run(change(ATTN, status="removed", removed_kernel=120, removed_vendor_path=4))
    assert verdict.conclusion == "success"
    assert not verdict.needs_decision
    assert verdict.gated_lines == 0
    assert verdict.files == ()
    assert verdict.summary == "removes 120 kernel and 4 vendor-path lines and adds none"


def test_portable_only_change_passes() -> None:
    verdict = run(change("docs/index.md"), change("model.py", portable=80))
    assert (verdict.conclusion, verdict.summary) == (
        "success",
        "adds no kernel or vendor-path lines",
    )


def test_excluded_paths_do_not_count() -> None:
    policy = load_policy("paths:\n  exclude: ['benchmarks/']\n")
    verdict = run(
        change("benchmarks/bench_attn.cu", kernel=50),
        change("third_party/cutlass/gemm.cu", kernel=900),
        policy=policy,
    )
    assert (verdict.conclusion, verdict.gated_lines, verdict.files) == ("success", 0, ())
    included = run(
        change("src/attn.cu", kernel=1), policy=load_policy("paths:\n  include: [src/]\n")
    )
    assert included.conclusion == "failure"
    not_included = run(
        change("tools/x.cu", kernel=1), policy=load_policy("paths:\n  include: [src/]\n")
    )
    assert not_included.conclusion == "success"


def test_only_configured_layers_are_gated() -> None:
    library_only = change("src/blas.cpp", vendor_library=12)
    assert run(library_only).conclusion == "success"
    policy = load_policy("layers: [vendor-library]\n")
    verdict = run(library_only, change(ATTN, kernel=9), policy=policy)
    assert verdict.conclusion == "failure"
    assert [(f.path, f.gated_lines) for f in verdict.files] == [("src/blas.cpp", 12)]
    assert verdict.summary.startswith("adds 12 vendor-library lines in 1 file")


def test_empty_layers_turn_the_gate_off() -> None:
    verdict = run(change(ATTN, kernel=40), policy=load_policy("layers: []\n"))
    assert verdict.conclusion == "success"
    assert "no layer needs a decision" in verdict.summary


def test_draft_round_trip_parses_and_passes_once_the_owner_is_filled_in() -> None:
    recorded = record("docs/decisions/0002-attention.md", scope=("csrc/attention/**",))
    delta = ChangeDelta(
        [
            change(ATTN, kernel=30),  # covered by the recorded decision
            change("csrc/norm/layernorm.cu", kernel=12, vendor_path=2),
            change("csrc/norm/fused/rms.cu", kernel=4, ecosystem="cuda"),
            change("setup.py", vendor_path=3, ecosystem="cuda"),
            change("kernels/softmax.py", kernel=20, ecosystem="triton"),
        ]
    )
    verdict = evaluate(delta, DEFAULT_POLICY, linked=[], recorded=[recorded])
    assert verdict.conclusion == "failure"

    path, text = draft_decision(
        delta,
        verdict,
        title="Fused norm kernels (CUDA + Triton)",
        compute_api_hint="CUDA 12.4: sm_90a",
        folder="docs/decisions/",
    )
    assert path == "docs/decisions/compute-api-fused-norm-kernels-cuda-triton.md"
    assert "| kernel | 36 | 0 | +36 |" in text
    assert "| vendor-path | 5 | 0 | +5 |" in text
    assert "| cuda | 21 |" in text
    assert "| triton | 20 |" in text
    assert "| `setup.py` | 3 |" in text
    assert ATTN not in text  # already covered: not part of this decision

    draft = parse_decision(path, text, path=path)
    assert draft.type == "compute-api"
    assert draft.status == "proposed"  # its author cannot accept it
    assert draft.owner is None
    # The estimate starts from the PR's own figures (36 kernel + 5 vendor-path lines).
    assert draft.cost == MigrationCost(lines=41)
    assert draft.migration_cost == "~41 lines"
    assert draft.compute_api == "CUDA 12.4: sm_90a"
    assert draft.scope == ("csrc/norm/**", "kernels/**", "/setup.py")
    assert draft.title == "Compute-API decision: Fused norm kernels (CUDA + Triton)"

    unfilled = evaluate(delta, DEFAULT_POLICY, linked=[link(draft)], recorded=[recorded])
    assert unfilled.conclusion == "failure"
    assert unfilled.decisions[0].problems == (
        "status is 'proposed': awaiting acceptance (accepted required; set "
        "decisions.allow_proposed to accept proposed)",
        "no owner",
    )

    filled_text = "\n".join(
        'owner: "@norm-lead"'
        if line.startswith("owner:")
        else "status: accepted"
        if line.startswith("status:")
        else line
        for line in text.splitlines()
    )
    filled = parse_decision(path, filled_text, path=path)
    description = f"Adds fused norms.\n\n{link_line(path)}\n"
    assert find_links(description) == [path]
    # Added by the pull request: it counts once its owner approves.
    unapproved = RecordReview("author")
    awaiting = evaluate(
        delta, DEFAULT_POLICY, linked=[link(filled, unapproved)], recorded=[recorded]
    )
    assert awaiting.conclusion == "failure"
    assert (
        awaiting.decisions[0]
        .problems[-1]
        .startswith("awaiting an approving review from @norm-lead")
    )
    approved = RecordReview("author", (Approver("norm-lead"),))
    passed = evaluate(delta, DEFAULT_POLICY, linked=[link(filled, approved)], recorded=[recorded])
    assert passed.decisions[0].approved_by == "@norm-lead"
    assert passed.conclusion == "success"
    assert [f.covered_by for f in passed.files] == [recorded.ref, path, path, path, path]

    # merged, the record covers later changes in its scope without a link
    later = evaluate(
        ChangeDelta([change("csrc/norm/new.cu", kernel=7)]),
        DEFAULT_POLICY,
        linked=[],
        recorded=[recorded, filled],
    )
    assert later.conclusion == "success"
    assert later.files[0].covered_by == path


def test_draft_without_hint_leaves_a_marked_placeholder_and_caps_the_file_list() -> None:
    files = [change(f"k/{i:03d}.cu", kernel=1) for i in range(60)]
    delta = ChangeDelta(files)
    verdict = evaluate(delta, DEFAULT_POLICY, linked=[], recorded=[])
    path, text = draft_decision(delta, verdict, title="  ", compute_api_hint=None, folder="adr")
    assert path == "adr/compute-api-compute-api-decision.md"
    draft = parse_decision(path, text)
    assert draft.compute_api is None
    assert "compute_api:  # TODO: API and version of the cuda code" in text
    assert "| and 10 more | |" in text
    assert draft.scope == ("k/**",)


def test_draft_for_a_change_without_gated_files_covers_nothing() -> None:
    delta = ChangeDelta([change("model.py", portable=10)])
    verdict = evaluate(delta, DEFAULT_POLICY, linked=[], recorded=[])
    path, text = draft_decision(delta, verdict, title="x", compute_api_hint=None, folder="adr")
    assert parse_decision(path, text).scope == ()  # an empty scope, not "everything"


def test_verdict_is_immutable() -> None:
    verdict = run(change(ATTN, kernel=1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.conclusion = "success"  # type: ignore[misc]
