"""Who may approve a decision record a pull request adds or changes (bot.policy.approvals):
its owner or a member of the owner team, or a code owner of its path; never the PR's author."""

from __future__ import annotations

import pytest

from bot.engine.delta import ChangeDelta
from bot.policy.approvals import Approver, Owners, RecordReview, approval, parse_owners
from bot.policy.config import DEFAULT_POLICY
from bot.policy.decisions import parse_decision
from bot.policy.gate import LinkedDecision, evaluate
from tests.policy.test_policy_gate import change

PATH = "docs/decisions/0001-cuda.md"


def record(owner: str | None):
    owner_line = f"owner: {owner!r}\n" if owner is not None else ""
    text = f"---\ntype: compute-api\nstatus: accepted\n{owner_line}scope: csrc/**\n---\n# CUDA\n"
    return parse_decision(PATH, text, path=PATH)


@pytest.mark.parametrize(
    ("text", "owners"),
    [
        ("@alice", Owners(users=("alice",))),
        ("alice", Owners(users=("alice",))),
        ("@Octo/Kernel-Team", Owners(teams=("octo/kernel-team",))),
        ("@alice, @octo/kernels", Owners(users=("alice",), teams=("octo/kernels",))),
        ("@alice @bob", Owners(users=("alice", "bob"))),
        ("Platform team", Owners(invalid=("Platform team",))),
        ("@-bad", Owners(invalid=("@-bad",))),
        ("alice@example.com", Owners(invalid=("alice@example.com",))),
        (None, Owners()),
    ],
)
def test_owner_fields_read_as_accounts(text: str | None, owners: Owners) -> None:
    assert parse_owners(text) == owners


def test_codeowners_emails_are_skipped_not_invalid() -> None:
    assert parse_owners(("@grace", "ops@example.com"), emails=True) == Owners(users=("grace",))


def test_the_owner_approves() -> None:
    review = RecordReview("alice", (Approver("Carol"),))
    assert approval(record("@carol"), review) == ("@Carol", [])


def test_the_author_never_approves_their_own_record() -> None:
    by, problems = approval(record("@alice"), RecordReview("alice", (Approver("alice"),)))
    assert by is None
    assert problems == [
        "awaiting an approving review, and nobody but the pull request's author can give one "
        "(its owner @alice opened this pull request): name an owner who exists, or a code "
        f"owner of {PATH} in CODEOWNERS"
    ]


def test_a_reviewer_who_is_neither_owner_nor_code_owner_does_not_count() -> None:
    review = RecordReview("alice", (Approver("mallory"),), code_owners=("@grace",))
    by, problems = approval(record("@carol, @octo/kernels"), review)
    assert by is None
    assert problems == [
        "awaiting an approving review from @carol, a member of @octo/kernels or a code owner "
        f"of {PATH} (@grace) (this pull request adds or changes it)"
    ]


def test_a_member_of_the_owner_team_or_of_a_code_owner_team_approves() -> None:
    member = RecordReview("alice", (Approver("dave", frozenset({"octo/kernels"})),))
    assert approval(record("@octo/Kernels"), member)[0] == "@dave (@octo/kernels)"
    coder = RecordReview(
        "alice", (Approver("erin", frozenset({"octo/platform"})),), code_owners=("@octo/platform",)
    )
    assert approval(record("@carol"), coder)[0] == "@erin (@octo/platform)"


def test_owners_github_does_not_know_are_errors_and_approve_nothing() -> None:
    review = RecordReview("alice", (Approver("ghost"),), unknown_owners=("@ghost",))
    by, problems = approval(record("@ghost"), review)
    assert by is None
    assert problems[0] == "owner @ghost does not exist on GitHub"


def test_where_reviews_cannot_be_seen_the_record_awaits_approval() -> None:
    review = RecordReview(None, (Approver("carol"),), visible=False)
    by, problems = approval(record("@carol"), review)
    assert by is None
    assert problems[-1].startswith("awaiting an approving review from @carol on its pull request")


def test_the_gate_names_the_awaited_owner_for_the_uncovered_file() -> None:
    rec = record("@carol")
    delta = ChangeDelta([change("csrc/a.cu", kernel=5)])
    review = RecordReview("alice")
    verdict = evaluate(
        delta, DEFAULT_POLICY, linked=[LinkedDecision(PATH, rec, None, review)], recorded=[]
    )
    assert verdict.conclusion == "failure"
    assert verdict.files[0].reason == (
        f"{PATH} covers it once approved: awaiting an approving review from @carol "
        "(this pull request adds or changes it)"
    )
    assert verdict.summary.endswith(
        f"linked decision {PATH} is awaiting an approving review from @carol "
        "(this pull request adds or changes it)"
    )
