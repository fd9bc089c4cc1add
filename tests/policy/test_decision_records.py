"""Decision records, the links that name them, and the references those links hold."""

from __future__ import annotations

import textwrap

import pytest

from bot.policy.decisions import (
    DecisionError,
    DecisionRef,
    MigrationCost,
    find_links,
    issue_record,
    link_line,
    parse_decision,
    parse_ref,
    read_records,
)

RECORD = """\
---
type: compute-api
status: Accepted
owner: "@kernel-team"
compute_api: CUDA 12.4, sm_90a
migration_cost: "~1,200 lines, 3 engineer-weeks to HIP"
scope:
  - csrc/attention/**
  - "*.cuh"
---

# Hand-written attention kernels in CUDA

We write our own FlashAttention variant.
"""


def test_parse_decision_reads_every_field() -> None:
    record = parse_decision("docs/decisions/0001-attn.md", RECORD, path="docs/decisions/0001.md")
    assert record.ref == "docs/decisions/0001-attn.md"
    assert record.path == "docs/decisions/0001.md"
    assert record.type == "compute-api"
    assert record.status == "accepted"  # case does not matter
    assert record.owner == "@kernel-team"
    assert record.compute_api == "CUDA 12.4, sm_90a"
    assert record.migration_cost == "~1,200 lines, 3 engineer-weeks to HIP"
    assert record.scope == ("csrc/attention/**", "*.cuh")
    assert record.title == "Hand-written attention kernels in CUDA"


def test_scope_patterns_are_gitignore_style() -> None:
    record = parse_decision("r", RECORD)
    assert record.covers("csrc/attention/fwd/kernel.cu")
    assert record.covers("include/deep/common.cuh")  # no slash: matches at any depth
    assert not record.covers("csrc/norm/layernorm.cu")
    single = parse_decision("r", "---\nscope: kernels/\n---\n")
    assert single.scope == ("kernels/",)
    assert single.covers("kernels/a/b.cu")
    assert not single.covers("src/kernels.cu")


def test_no_scope_covers_everything_and_empty_scope_covers_nothing() -> None:
    assert parse_decision("r", "---\ntype: compute-api\n---\n").covers("any/where.cu")
    assert not parse_decision("r", "---\nscope: []\n---\n").covers("any/where.cu")


def test_missing_fields_are_none_for_the_gate_to_judge() -> None:
    record = parse_decision("r", b"---\ntitle: Framework choice\ntype: framework\nowner:\n---\n")
    assert record.type == "framework"
    assert record.title == "Framework choice"
    assert (record.status, record.owner, record.scope, record.compute_api) == (None,) * 4


def test_list_of_owners_is_joined() -> None:
    assert parse_decision("r", "---\nowner: [alice, bob]\n---\n").owner == "alice, bob"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("# A decision\n\nno front matter\n", "no front matter"),
        ("---\ntype: compute-api\n", "front matter is not closed"),
        ("---\ntype: compute-api\nowner: @alice\n---\n", "bad YAML at line 3"),
        ("---\ntype: [compute-api\n---\n", "bad YAML at line"),
        ("---\n- compute-api\n---\n", "not a mapping"),
        ("---\nscope: {a: 1}\n---\n", "scope must be"),
        ("---\nscope: ['!']\n---\n", "invalid gitignore-style pattern"),
        (b"---\nowner: \xff\n---\n", "not UTF-8"),
    ],
)
def test_unreadable_record_says_why_in_one_line(text: str | bytes, reason: str) -> None:
    with pytest.raises(DecisionError) as info:
        parse_decision("r", text)
    assert reason in str(info.value)
    assert "\n" not in str(info.value)


def test_at_sign_hint() -> None:
    with pytest.raises(DecisionError, match="quote values that start with @"):
        parse_decision("r", "---\nowner: @alice\n---\n")


def test_find_links_in_description_not_in_code_quotes_or_comments() -> None:
    description = textwrap.dedent(
        """\
        Adds a fused attention kernel.

        Compute-API-Decision: docs/decisions/0003-attention.md

        To link a decision, add a line like:
        ```
        Compute-API-Decision: docs/decisions/in-a-code-block.md
        ```
        ~~~~markdown
        compute-api-decision: docs/decisions/tilde-fence.md
        ~~~~
        > Compute-API-Decision: docs/decisions/quoted.md
        <!-- Compute-API-Decision: docs/decisions/template-example.md -->
        <!--
        Compute-API-Decision: docs/decisions/multi-line-comment.md
        -->
        - compute-api-decision: `#12`
        Compute-API-Decision:
        """
    )
    assert find_links(description) == ["docs/decisions/0003-attention.md", "#12"]


def test_find_links_reads_commit_trailers_and_deduplicates_in_order() -> None:
    description = "Compute-API-Decision: #12\r\n"
    commits = [
        "Add kernel\n\nCompute-API-Decision: <https://github.com/o/r/blob/main/docs/d/a.md>\n"
        "Signed-off-by: A <a@example.com>\n",
        "Fix\n\nCOMPUTE-API-DECISION:   #12  \n",
    ]
    assert find_links(description, *commits) == [
        "#12",
        "https://github.com/o/r/blob/main/docs/d/a.md",
    ]


def test_find_links_unfolds_trailers_continued_on_indented_lines() -> None:
    # git interpret-trailers folds a long value onto lines that start with whitespace, and
    # reads them back joined by one space.
    commits = [
        "Add kernel\n\nCompute-API-Decision:\n    docs/decisions/0004-fused-attention.md\n"
        "Signed-off-by: A <a@example.com>\n",
        "Fix\n\nCompute-API-Decision: docs/decisions/0005 paged\n\tattention.md\n",
    ]
    assert find_links(*commits) == [
        "docs/decisions/0004-fused-attention.md",
        "docs/decisions/0005 paged attention.md",
    ]
    nested = "- Compute-API-Decision: #3\n  - Compute-API-Decision: #4\n"
    assert find_links(nested) == ["#3", "#4"]
    described = "- Compute-API-Decision: docs/decisions/a.md\n  It covers csrc/attn.\n"
    assert find_links(described) == ["docs/decisions/a.md"]


def test_link_line_is_what_find_links_reads() -> None:
    assert find_links(link_line("docs/decisions/x.md")) == ["docs/decisions/x.md"]


def _ref(raw: str) -> DecisionRef:
    return parse_ref(raw, owner="Octo", repo="gpu-lab", folder="docs/decisions")


@pytest.mark.parametrize(
    ("raw", "kind", "value"),
    [
        ("docs/decisions/0001-x.md", "path", "docs/decisions/0001-x.md"),
        ("./docs/decisions/0001-x.md", "path", "docs/decisions/0001-x.md"),
        ("/docs/decisions/0001-x.md", "path", "docs/decisions/0001-x.md"),
        ("docs/decisions/0001-x.md#consequences", "path", "docs/decisions/0001-x.md"),
        ("`docs/decisions/a/../0001-x.markdown`", "path", "docs/decisions/0001-x.markdown"),
        (
            "https://github.com/octo/GPU-lab/blob/main/docs/decisions/0001-x.md",
            "path",
            "docs/decisions/0001-x.md",
        ),
        (
            "https://github.com/Octo/gpu-lab/blob/3f2a9c1/docs/decisions/0001-x.md#L5",
            "path",
            "docs/decisions/0001-x.md",
        ),
        # a branch name with slashes: the decisions folder tells where the path starts
        (
            "https://github.com/Octo/gpu-lab/blob/feature/attn/docs/decisions/0001-x.md",
            "path",
            "docs/decisions/0001-x.md",
        ),
        (
            "https://github.example.corp/Octo/gpu-lab/blob/main/adr/0002%20cuda.md",
            "path",
            "adr/0002 cuda.md",
        ),
        (
            "https://raw.githubusercontent.com/Octo/gpu-lab/main/docs/decisions/0001-x.md",
            "path",
            "docs/decisions/0001-x.md",
        ),
        ("docs/decisions/0002 cuda scale.md", "path", "docs/decisions/0002 cuda scale.md"),
        (
            "https://raw.ghe.example.corp/Octo/gpu-lab/main/docs/decisions/0001-x.md",
            "path",
            "docs/decisions/0001-x.md",
        ),
        (
            "https://ghe.example.corp/raw/Octo/gpu-lab/main/docs/decisions/0001-x.md",
            "path",
            "docs/decisions/0001-x.md",
        ),
        ("#12", "issue", 12),
        ("Octo/gpu-lab#7", "issue", 7),
        ("https://github.com/Octo/gpu-lab/issues/12", "issue", 12),
        ("https://github.example.corp/octo/gpu-lab/issues/12#issuecomment-1", "issue", 12),
    ],
)
def test_parse_ref_valid_forms(raw: str, kind: str, value: str | int) -> None:
    ref = _ref(raw)
    assert (ref.kind, ref.value, ref.raw, ref.reason) == (kind, value, raw, None)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (
            "https://github.com/other/gpu-lab/blob/main/docs/decisions/0001-x.md",
            "another repository",
        ),
        ("https://github.com/Octo/other/issues/3", "another repository (Octo/other)"),
        ("other/repo#3", "another repository"),
        ("https://github.com/Octo/gpu-lab/pull/3", "a pull request is not a decision record"),
        ("https://github.com/Octo/gpu-lab/tree/main/docs/decisions", "not a URL of a file"),
        ("https://github.com/Octo", "not a GitHub URL"),
        ("ftp://github.com/Octo/gpu-lab/blob/main/a.md", "not a GitHub URL"),
        ("../outside/decision.md", "leaves the repository"),
        ("TBD", "not a Markdown file"),
        ("docs/decisions/0001-x.txt", "not a Markdown file"),
        ("see the design doc", "not a path"),
        ("#0", "no issue #0"),
    ],
)
def test_parse_ref_invalid_forms_say_why(raw: str, reason: str) -> None:
    ref = _ref(raw)
    assert ref.kind == "invalid"
    assert ref.value == raw
    assert ref.reason is not None
    assert reason in ref.reason


def test_issue_record_uses_front_matter_label_and_assignee() -> None:
    body = "---\nstatus: accepted\ncompute_api: ROCm 6.2\nscope: hip/**\n---\n\nWhy we add HIP.\n"
    record = issue_record(
        "#12", body=body, labels=["Compute-API-Decision"], assignees=["alice"], state="closed"
    )
    assert record.type == "compute-api"  # implied by the label
    assert record.owner == "alice"  # falls back to the first assignee
    assert record.status == "accepted"
    assert record.scope == ("hip/**",)
    assert record.path is None


def test_issue_record_without_front_matter() -> None:
    open_issue = issue_record(
        "#4",
        body="We need CUDA graphs.",
        labels=["compute-api-decision"],
        assignees=[],
        state="open",
        title="Adopt CUDA graphs",
    )
    assert (open_issue.type, open_issue.status, open_issue.owner) == (
        "compute-api",
        "proposed",
        None,
    )
    assert open_issue.title == "Adopt CUDA graphs"
    closed = issue_record(
        "#5", body=None, labels=["compute-api-decision"], assignees=["bob"], state="closed"
    )
    assert closed.status is None  # closing says nothing about which way it was decided
    assert closed.owner == "bob"


def test_issue_with_an_empty_type_key_takes_the_labels_type() -> None:
    record = issue_record(
        "#7",
        body="---\ntype:\nstatus: accepted\n---\n",
        labels=["compute-api-decision"],
        assignees=["erin"],
        state="open",
    )
    assert record.type == "compute-api"


def test_issue_front_matter_type_beats_the_label() -> None:
    record = issue_record(
        "#6",
        body="---\ntype: framework\nowner: carol\n---\n",
        labels=["compute-api-decision"],
        assignees=["dave"],
        state="open",
    )
    assert (record.type, record.owner) == ("framework", "carol")


def test_unlabelled_issue_is_not_a_record() -> None:
    with pytest.raises(DecisionError, match=r"^issue #9 is not labelled compute-api-decision$"):
        issue_record(
            "#9", body="---\ntype: compute-api\n---\n", labels=["bug"], assignees=[], state="open"
        )


def test_control_character_is_reported_at_its_line() -> None:
    with pytest.raises(DecisionError, match=r"^bad YAML at line 4: .*U\+0000"):
        parse_decision("r", "\n---\ntype: compute-api\nowner: \x00\n---\n")


def test_read_records_skips_non_records_and_reports_broken_ones() -> None:
    folder = "docs/decisions"
    records, problems = read_records(
        [
            (f"{folder}/0002-triton.md", "---\ntype: compute-api\nscope: kernels/\n---\n"),
            (f"{folder}/README.md", "# Decisions\n\nOne file per decision.\n"),
            (f"{folder}/template.yml", "type: compute-api\n"),
            (f"{folder}/0001-cuda.md", b"---\ntype: compute-api\nstatus: accepted\n---\n"),
            (f"{folder}/0003-broken.md", "---\nowner: @alice\n---\n"),
        ]
    )
    assert [(r.ref, r.path) for r in records] == [
        (f"{folder}/0001-cuda.md", f"{folder}/0001-cuda.md"),
        (f"{folder}/0002-triton.md", f"{folder}/0002-triton.md"),
    ]
    assert problems == [
        f"{folder}/0003-broken.md: bad YAML at line 2: found character '@' that "
        "cannot start any token (quote values that start with @ or `)"
    ]


def test_migration_cost_may_be_a_mapping_of_lines_weeks_target_and_note() -> None:
    text = RECORD.replace(
        'migration_cost: "~1,200 lines, 3 engineer-weeks to HIP"',
        "migration_cost:\n  lines: 1200\n  engineer_weeks: 3\n  target: HIP\n  note: warp shuffles",
    )
    record = parse_decision("r", text)
    assert record.cost == MigrationCost(
        lines=1200, engineer_weeks=3.0, target="HIP", note="warp shuffles"
    )
    assert record.migration_cost == "~1,200 lines, 3 engineer-weeks to HIP (warp shuffles)"
    free = parse_decision("r", RECORD)
    assert free.cost is None  # free text stays valid and carries no estimate in lines


@pytest.mark.parametrize(
    ("cost", "message"),
    [
        ("{lines: many}", "migration_cost.lines must be a whole number"),
        ("{lines: -3}", "migration_cost.lines must be a whole number"),
        ("{lines: true}", "migration_cost.lines must be a whole number"),
        ("{engineer_weeks: soon}", "migration_cost.engineer_weeks must be a number"),
        ("{engineer_weeks: -1}", "engineer_weeks must be at least 0"),
        ("{line: 3}", "unknown key 'line'"),
    ],
)
def test_a_malformed_cost_mapping_is_a_clear_error(cost: str, message: str) -> None:
    with pytest.raises(DecisionError, match=message):
        parse_decision("r", f"---\nmigration_cost: {cost}\n---\n")


def test_framework_records_name_their_framework() -> None:
    record = parse_decision("r", "---\ntype: framework\nframework: PyTorch\nowner: '@ml'\n---\n")
    assert (record.type, record.framework, record.owner) == ("framework", "PyTorch", "@ml")
