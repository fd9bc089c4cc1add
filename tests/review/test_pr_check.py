"""The PR check end to end: each test is one case of issue 4's list, driven by signed webhook
deliveries to the real server against the fake GitHub."""

from __future__ import annotations

import asyncio
import json

from bot.review.change import MAX_BLOB_READS
from bot.review.check_output import ANNOTATIONS_PER_RUN
from tests.engine.test_commits_repo_cases_8 import DEPENDENCIES
from tests.fakegithub import FakeGitHub, PullRequest, Repo
from tests.policy.test_gate_growth import CUDA, HIP, vendor_header
from tests.review.conftest import RETRY_ATTEMPTS, Bot
from tests.support.webhooks import check_suite_event, pull_request_event

KERNEL = """#include <cuda_runtime.h>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] *= a;
    }
}

void launch(float* x, float a, int n) {
    scale<<<(n + 255) / 256, 256>>>(x, a, n);
}
"""

SECOND_KERNEL = """
__global__ void shift(float* x, float b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] += b;
    }
}
"""

MODEL = "import torch\n\n\ndef forward(x):\n    return torch.relu(x)\n"
RECORD = "docs/decisions/0001-cuda-scale.md"


def record(**fields: object) -> str:
    values: dict[str, object] = {
        "type": "compute-api",
        "status": "accepted",
        "owner": "@octo/kernels",
        "compute_api": "CUDA 12.4, sm_90a",
        "migration_cost": "~40 lines, 1 day to HIP",
        "scope": ["csrc/**"],
    }
    values.update(fields)
    meta = "\n".join(f"{k}: {json.dumps(v)}" for k, v in values.items() if v is not None)
    return f"---\n{meta}\n---\n\n# Use CUDA for the scale kernel\n"


def new_repo(fake: FakeGitHub, files: dict[str, str] | None = None) -> Repo:
    base = {"README.md": "# ml\n", "model.py": MODEL}
    return fake.add_repo("octo/ml", files=base | (files or {}))


def open_pr(repo: Repo, files: dict[str, str | None], body: str = "A change") -> PullRequest:
    repo.commit(files, branch="feature", message="the change")
    return repo.open_pr(head_branch="feature", body=body)


def approved_by_owner(bot: Bot, repo: Repo, pr: PullRequest) -> None:
    """A member of the records' owner team (@octo/kernels) approves the PR: a record the PR
    adds counts only then."""
    if "octo/kernels" not in bot.fake.teams:
        bot.fake.add_team("octo/kernels", ["kim"])
    repo.review_pr(pr.number, "kim")


def set_body(repo: Repo, pr: PullRequest, body: str) -> str:
    old = pr.body
    pr.body = repo.issues[pr.number].body = body
    return old


async def test_kernel_without_decision_fails_with_annotations_and_comment(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert run.history[0]["status"] == "in_progress"
    assert (run.status, run.conclusion) == ("completed", "failure")
    assert run.name == "lockin"
    assert run.external_id == f"octo/ml#{pr.number}"
    assert "without a compute-API decision" in run.output["title"]
    assert "| `kernel` |" in run.output["summary"]
    summary = run.output["summary"]
    assert summary.index("**How to fix**") < summary.index("| `kernel` |")
    assert "lockin diff origin/main HEAD --write-record docs/decisions/" in summary
    assert run.actions == [
        {
            "label": "Recount",
            "description": "Re-run the check and count the repo",
            "identifier": "recount",
        }
    ]
    assert run.annotations
    assert {a["path"] for a in run.annotations} == {"csrc/scale.cu"}
    kernel_notes = [a for a in run.annotations if "kernel" in a["title"]]
    assert kernel_notes
    # Warning, not failure: the check run's conclusion already fails the PR.
    assert kernel_notes[0]["annotation_level"] == "warning"
    assert kernel_notes[0]["end_line"] >= 3
    assert "GitHub API request" not in run.output["text"]
    [comment] = bot.sticky(repo, pr.number)
    assert "```mermaid" not in comment.body  # one folder: a one-slice chart is not drawn
    assert "Compute-API-Decision: docs/decisions/" in comment.body
    assert "type: compute-api" in comment.body
    assert "<details>" in comment.body


async def test_linking_the_decision_turns_the_check_green_and_updates_the_comment(
    bot: Bot,
) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL, RECORD: record()})
    approved_by_owner(bot, repo, pr)
    await bot.pr_event(repo, pr, "opened")
    [first] = bot.sticky(repo, pr.number)
    first_body = first.body
    assert bot.runs(repo)[-1].conclusion == "failure"

    old = set_body(repo, pr, f"A change\n\nCompute-API-Decision: {RECORD}\n")
    await bot.pr_event(repo, pr, "edited", changes={"body": {"from": old}})

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    assert RECORD in run.output["summary"]
    [comment] = bot.sticky(repo, pr.number)
    assert comment.id == first.id
    assert comment.body != first_body
    assert "without a compute-API decision" not in comment.body
    assert RECORD in comment.body
    assert "ready-to-commit" not in comment.body


async def _linked_failure(bot: Bot, text: str, path: str = "csrc/scale.cu") -> str:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {path: KERNEL, RECORD: text}, body=f"Compute-API-Decision: {RECORD}")
    await bot.pr_event(repo, pr, "opened")
    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    return run.output["summary"]


async def test_decision_of_the_wrong_type_fails_naming_the_type(bot: Bot) -> None:
    summary = await _linked_failure(bot, record(type="framework"))
    assert "type is 'framework', not 'compute-api'" in summary


async def test_decision_without_owner_fails_naming_the_owner(bot: Bot) -> None:
    summary = await _linked_failure(bot, record(owner=None))
    assert "no owner" in summary


async def test_decision_whose_scope_misses_the_file_fails_naming_the_scope(bot: Bot) -> None:
    summary = await _linked_failure(bot, record(scope=["kernels/**"]))
    assert "does not cover" in summary
    assert "csrc/scale.cu" in summary


async def test_recorded_decision_covers_a_later_pr_without_a_link(bot: Bot) -> None:
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL, RECORD: record()})
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL + SECOND_KERNEL})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    assert f"✅ `{RECORD}`" in run.output["summary"]
    # Every gated line is covered: nothing for the reviewer to do, so no comment.
    assert not bot.sticky(repo, pr.number)
    assert {a["annotation_level"] for a in run.annotations} == {"notice"}


async def test_kernel_outside_every_recorded_scope_fails(bot: Bot) -> None:
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL, RECORD: record()})
    pr = open_pr(repo, {"kernels/shift.cu": SECOND_KERNEL})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert "kernels/shift.cu" in run.output["summary"]
    assert "no valid linked or recorded compute-API decision covers it" in run.output["summary"]


async def test_docs_only_pr_passes_without_a_comment(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"docs/guide.md": "# Guide\n\nHow to train.\n", "README.md": "# ml!\n"})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    assert run.output["title"] == "No non-portable lines added or removed"
    assert not [c for c in repo.comments.values() if c.issue_number == pr.number]
    assert not bot.fake.requests_to("POST", r"/issues/\d+/comments")
    assert not bot.fake.requests_to("GET", r"/git/blobs/")


async def test_pr_deleting_a_kernel_passes_and_says_how_many_lines_left(bot: Bot) -> None:
    # Commented on only when asked to: removing lock-in needs nothing from the reviewer.
    repo = new_repo(
        bot.fake, {"csrc/scale.cu": KERNEL, ".github/lockin.yml": "comment: on-change\n"}
    )
    pr = open_pr(repo, {"csrc/scale.cu": None})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    assert run.output["title"].startswith("No non-portable lines added;")
    removed = int(run.output["title"].split(";")[1].split()[0])
    assert removed >= 6
    [comment] = bot.sticky(repo, pr.number)
    assert f"**{removed}** non-portable lines removed" in comment.body
    assert not run.annotations


async def test_fork_pr_is_checked_from_the_base_repository(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    fork = bot.fake.add_repo("alice/ml", files={}, fork_of="octo/ml", installation_id=2)
    fork.commit({"csrc/scale.cu": KERNEL}, branch="feature", message="kernel from a fork")
    pr = repo.open_pr(head_branch="feature", head_repo=fork, user="alice")

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert run.conclusion == "failure"
    assert not bot.fake.requests_to("*", r"^/repos/alice/")
    # GitHub's check_suite for a fork head lists no pull requests: our run's external_id maps it.
    payload = check_suite_event(bot.fake, repo, pr.head_sha, "rerequested", pull_requests=[])
    assert payload["check_suite"]["pull_requests"] == []
    assert await bot.deliver("check_suite", payload) == 202
    await bot.settle()
    runs = bot.runs(repo, pr.head_sha)
    assert len(runs) == 2
    assert runs[-1].conclusion == "failure"
    assert runs[-1].external_id == f"octo/ml#{pr.number}"
    assert len(bot.sticky(repo, pr.number)) == 1


def pr_of_3000_files(repo: Repo) -> PullRequest:
    files: dict[str, str | None] = {
        f"pkg/mod{i:04d}.py": f"def f{i}(x):\n    return x + {i}\n" for i in range(2600)
    }
    # A kernel in each of 400 folders: more rows, records and annotations than fit anywhere.
    files |= {f"ops/op{i:03d}/k.cu": KERNEL.replace("scale", f"scale{i}") for i in range(400)}
    return open_pr(repo, files)


def assert_bounded_output(bot: Bot, repo: Repo, pr: PullRequest) -> None:
    run = bot.runs(repo, pr.head_sha)[-1]
    pages = bot.fake.requests_to("GET", rf"/pulls/{pr.number}/files$")
    assert len(pages) == 30
    assert all(r.query.get("per_page") == "100" for r in pages)
    assert len(run.output["summary"]) <= 65_535
    assert len(run.output["text"]) <= 65_535
    [comment] = bot.sticky(repo, pr.number)
    assert len(comment.body) < 65_536
    assert "more." in comment.body


async def test_pr_of_3000_files_is_read_from_one_tarball(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = pr_of_3000_files(repo)

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert_bounded_output(bot, repo, pr)
    assert len(bot.fake.requests_to("GET", r"/tarball/")) == 1  # added files: the head only
    assert not bot.fake.requests_to("GET", r"/git/blobs/")
    assert "3,000 files changed, 3,000 analysed (versions read from tarballs)" in run.output["text"]
    # Annotations: the first 50, with the completing PATCH; the summary says what was left out.
    assert len(run.annotations) == ANNOTATIONS_PER_RUN
    assert len(bot.fake.requests_to("PATCH", r"/check-runs/")) == 1
    assert "350 annotations left out (at most 10 per file and 50 per run)" in run.output["summary"]
    assert "…and 300 more." in run.output["summary"]  # 400 files needing a decision


async def test_pr_of_3000_files_without_a_usable_tarball_is_capped_and_never_passes(
    bot: Bot,
) -> None:
    repo = new_repo(bot.fake)
    pr = pr_of_3000_files(repo)
    repo.set_tarball(pr.head_sha, b"not a tarball")

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert_bounded_output(bot, repo, pr)
    assert len(bot.fake.requests_to("GET", r"/git/blobs/")) == MAX_BLOB_READS
    assert "files were not read" in run.output["summary"]
    assert "Not read:" in run.output["text"]


async def test_file_without_patch_is_fetched_and_counted(bot: Bot) -> None:
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL})
    repo.commit({"csrc/scale.cu": KERNEL + SECOND_KERNEL}, branch="feature")
    pr = repo.open_pr(head_branch="feature", patch_omitted={"csrc/scale.cu"})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert len(bot.fake.requests_to("GET", r"/git/blobs/")) == 2  # both versions, diffed here
    lines = {a["start_line"] for a in run.annotations}
    assert min(lines) > len(KERNEL.splitlines())  # only the added kernel is annotated


async def test_binary_file_is_skipped_and_counted(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    repo.commit(
        {"csrc/table.cu": "\x00\x01binary\x00" * 50, "model.py": MODEL + "# x\n"}, branch="feature"
    )
    pr = repo.open_pr(head_branch="feature", binary={"csrc/table.cu"})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    assert "1 binary skipped" in run.output["text"]
    assert not bot.fake.requests_to("GET", r"/git/blobs/" + bot_blob(repo, pr, "csrc/table.cu"))


def bot_blob(repo: Repo, pr: PullRequest, path: str) -> str:
    from tests.fakegithub.gitdata import blob_sha

    return blob_sha(repo.store.commits[pr.head_sha].files[path])


async def test_renamed_kernel_compares_with_its_previous_name(bot: Bot) -> None:
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL})
    pr = open_pr(repo, {"csrc/scale.cu": None, "kernels/scale.cu": KERNEL + SECOND_KERNEL})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert "(from `csrc/scale.cu`)" in run.output["text"]
    assert {a["path"] for a in run.annotations} == {"kernels/scale.cu"}
    assert min(a["start_line"] for a in run.annotations) > len(KERNEL.splitlines())


LICENSE_HEADER = "".join(f"// Copyright notice and licence terms, line {n}.\n" for n in range(30))


async def test_kernel_moved_with_edits_past_rename_detection_is_no_new_lock_in(bot: Bot) -> None:
    # A licence header and two edits on the way: below GitHub's similarity threshold, so the
    # PR lists a removed and an added file, not a rename. Judged as the edits in place.
    edited = KERNEL.replace("x[i] *= a;", "x[i] = x[i] * a;").replace(
        "int i = blockIdx.x", "const int i = blockIdx.x"
    )
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL})
    pr = open_pr(repo, {"csrc/scale.cu": None, "kernels/scale.cu": LICENSE_HEADER + edited})

    await bot.pr_event(repo, pr, "opened")

    listed = {f.filename: f.status for f in pr.files()}
    assert listed == {"csrc/scale.cu": "removed", "kernels/scale.cu": "added"}
    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    assert run.output["title"].endswith("no gated growth, edited lines keep their rules")
    assert {a["annotation_level"] for a in run.annotations} <= {"notice"}


async def test_a_two_vendor_portability_header_passes_a_one_vendor_one_fails(bot: Bot) -> None:
    # The PR adds superlu_dist's kind of gpu_wrapper.h: the code calling gpuMalloc now
    # builds for NVIDIA and AMD. The same header for CUDA alone is new lock-in.
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"src/gpu_wrapper.h": vendor_header(CUDA, HIP)})
    await bot.pr_event(repo, pr, "opened")
    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    assert run.output["title"].endswith("no gated growth, edited lines keep their rules")

    repo.push_to_pr(pr.number, {"src/gpu_wrapper.h": vendor_header(CUDA)})
    await bot.pr_event(repo, pr, "synchronize")
    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert {a["path"] for a in run.annotations} == {"src/gpu_wrapper.h"}


async def test_racing_synchronize_deliveries_leave_one_comment_for_the_newest_head(
    bot: Bot,
) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")
    repo.push_to_pr(pr.number, {"csrc/shift.cu": SECOND_KERNEL})
    older = pull_request_event(bot.fake, repo, pr, "synchronize")
    newest = repo.push_to_pr(pr.number, {"csrc/more.cu": SECOND_KERNEL.replace("shift", "more")})
    newer = pull_request_event(bot.fake, repo, pr, "synchronize")

    statuses = await asyncio.gather(
        bot.deliver("pull_request", newer), bot.deliver("pull_request", older)
    )
    assert statuses == [202, 202]
    await bot.settle()

    [comment] = bot.sticky(repo, pr.number)
    assert f"`{newest[:7]}`" in comment.body
    assert "csrc/more.cu" in comment.body
    assert all(r.status == "completed" for r in bot.runs(repo))
    assert bot.runs(repo, newest)[-1].conclusion == "failure"


async def test_invalid_config_fails_the_check_with_line_and_key(bot: Bot) -> None:
    config = "layers: [kernel]\nenforcement: maybe\n"
    repo = new_repo(bot.fake, {".github/lockin.yml": config})
    pr = open_pr(repo, {"docs/guide.md": "# Guide\n"})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert "lockin.yml" in run.output["title"]
    assert "line 2" in run.output["summary"]
    assert "`enforcement`" in run.output["summary"]
    assert "No non-portable lines" not in run.output["summary"]
    assert not bot.fake.requests_to("GET", rf"/pulls/{pr.number}/files")


async def test_github_failing_mid_run_leaves_no_run_in_progress(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    bot.fake.fail("GET", r"/git/blobs/", status=502, times=RETRY_ATTEMPTS)

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert run.status == "completed"
    assert run.conclusion == "failure"
    assert run.output["title"] == "The check could not finish"
    assert "502" in run.output["summary"]
    assert not bot.sticky(repo, pr.number)
    # Redelivered once GitHub recovers: an errored run is no result, so the check runs again.
    await bot.pr_event(repo, pr, "opened")
    latest = bot.runs(repo, pr.head_sha)[-1]
    assert latest.id != run.id
    assert "without a compute-API decision" in latest.output["title"]
    assert len(bot.sticky(repo, pr.number)) == 1


async def test_one_more_cuda_version_in_a_dependency_matrix_is_no_growth(bot: Bot) -> None:
    # rapidsai/cuml's "Add CUDA 13.1 support": the patch only adds lines, so the old version
    # is read for its version lines; the same change in a file naming no CUDA still fails.
    more = '          - matrix:\n              cuda: "13.1"\n'
    more += "            packages:\n              - cuda-version=13.1\n"
    repo = new_repo(bot.fake, {"dependencies.yaml": DEPENDENCIES, "env.yaml": "dependencies:\n"})
    pr = open_pr(repo, {"dependencies.yaml": DEPENDENCIES + more})
    await bot.pr_event(repo, pr, "opened")
    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    assert len(bot.fake.requests_to("GET", r"/git/blobs/")) == 2  # both versions

    repo.push_to_pr(pr.number, {"env.yaml": "dependencies:\n  - cuda-version=13.1\n"})
    await bot.pr_event(repo, pr, "synchronize")
    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    warned = {a["path"] for a in run.annotations if a["annotation_level"] == "warning"}
    assert warned == {"env.yaml"}  # the version line stays a notice
