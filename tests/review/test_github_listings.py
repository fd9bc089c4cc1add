"""PR file listings as real GitHub writes them and the fake's own diff never does: copies,
mode-only changes, submodule bumps, paths with spaces and non-ASCII characters."""

from __future__ import annotations

import pytest

from bot.sources.files import MAX_FILE_BYTES, classify_entry
from tests.fakegithub.endpoints import repos as repos_endpoint
from tests.policy.test_gate_growth import CPU_BASE_DOCKERFILE, CUDA_DOCKERFILE
from tests.review.conftest import Bot
from tests.review.test_pr_check import (
    KERNEL,
    MODEL,
    RECORD,
    approved_by_owner,
    new_repo,
    open_pr,
    record,
)


async def test_a_copied_kernel_counts_every_line_as_added(bot: Bot) -> None:
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL})
    copy = "ops/ядро copy.cu"
    plain = open_pr(repo, {copy: KERNEL})
    await bot.pr_event(repo, plain, "opened")
    added = bot.runs(repo, plain.head_sha)[-1].output["title"]

    repo.commit({copy: KERNEL}, branch="copy", message="copy the kernel")
    pr = repo.open_pr(head_branch="copy")
    # GitHub's listing of an identical copy: the source named, no patch, nothing counted.
    pr.listed_as[copy] = {
        "status": "copied",
        "previous_filename": "csrc/scale.cu",
        "additions": 0,
        "deletions": 0,
        "patch": None,
    }
    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert run.output["title"] == added
    assert "binary" not in run.output["text"]
    assert {a["path"] for a in run.annotations} == {copy}


async def test_a_mode_only_change_is_not_a_binary_file(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"model.py": MODEL + "# x\n"})
    # chmod +x: GitHub lists the file as "changed" with no patch and no line counted.
    pr.listed_as["model.py"] = {"status": "changed", "patch": None, "additions": 0, "deletions": 0}
    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    assert "binary" not in run.output["text"]


async def test_a_folded_trailer_links_a_record_whose_path_has_spaces(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    path = "docs/decisions/0002 cuda scale.md"
    repo.commit(
        {"csrc/scale.cu": KERNEL, path: record()},
        branch="feature",
        message=f"kernel\n\nCompute-API-Decision:\n    {path}\n",
    )
    pr = repo.open_pr(head_branch="feature", body=None)  # GitHub sends null for no body
    approved_by_owner(bot, repo, pr)

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success", run.output["summary"]
    assert f"`{path}`: valid" in run.output["summary"]


async def test_old_versions_beyond_a_truncated_tree_are_read_by_path(
    bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GitHub cuts a recursive tree of a very large repository and says `truncated: true`.
    monkeypatch.setattr(repos_endpoint, "MAX_TREE_ENTRIES", 2)
    many = {f"a/{i:02}.txt": f"{i}\n" for i in range(10)}
    repo = new_repo(bot.fake, {**many, "zz kernels/ядро.cu": KERNEL})
    pr = open_pr(repo, {"zz kernels/ядро.cu": "// gone\n", "model.py": MODEL + "# x\n"})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    removed = int(run.output["title"].split(";")[1].split()[0])
    assert removed >= 6
    assert bot.fake.requests_to("GET", "/contents/zz kernels/ядро.cu$")


async def test_output_fits_github_byte_limits_with_non_ascii_paths(bot: Bot) -> None:
    # GitHub measures the summary's and text's 65,535 in UTF-8 bytes, not characters.
    repo = new_repo(bot.fake)
    folder = "ядра/" + "вычисление" * 12
    pr = open_pr(repo, {f"{folder}/{i:03}.cu": KERNEL for i in range(150)})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert "without a compute-API decision" in run.output["title"]
    for field in ("summary", "text"):
        assert len(run.output[field].encode()) <= 65_535
    assert "cut to fit GitHub's size limit" in run.output["summary"] + run.output["text"]


async def test_comment_lines_added_inside_a_kernel_count_nothing_with_lf_or_crlf(
    bot: Bot,
) -> None:
    crlf = KERNEL.replace("\n", "\r\n")
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL, "csrc/crlf.cu": crlf})
    comment = "    // one thread per element\n"
    body_line = "    int i = blockIdx.x"
    pr = open_pr(
        repo,
        {
            "csrc/scale.cu": KERNEL.replace(body_line, comment + body_line),
            "csrc/crlf.cu": crlf.replace(body_line, comment.replace("\n", "\r\n") + body_line),
        },
    )
    await bot.pr_event(repo, pr, "opened")
    run = bot.runs(repo, pr.head_sha)[-1]
    assert (run.conclusion, run.output["title"]) == (
        "success",
        "No non-portable lines added or removed",
    )

    # A real kernel line in the CRLF file counts like one in the LF file.
    code = "    if (i >= n) return;\n"
    repo.push_to_pr(
        pr.number,
        {
            "csrc/scale.cu": KERNEL.replace(body_line, code + body_line),
            "csrc/crlf.cu": crlf.replace(body_line, code.replace("\n", "\r\n") + body_line),
        },
    )
    await bot.pr_event(repo, pr, "synchronize")
    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    lines = {a["path"]: (a["start_line"], a["end_line"]) for a in run.annotations}
    assert lines["csrc/crlf.cu"] == lines["csrc/scale.cu"]


async def test_a_draft_pr_is_checked_and_ready_for_review_checks_again(bot: Bot) -> None:
    # Branch protection waits for the required check on drafts too.
    repo = new_repo(bot.fake)
    repo.commit({"csrc/scale.cu": KERNEL}, branch="draft")
    pr = repo.open_pr(head_branch="draft", draft=True)
    await bot.pr_event(repo, pr, "opened")
    [first] = bot.runs(repo, pr.head_sha)
    assert first.conclusion == "failure"

    def run_writes() -> int:
        return sum(r.method != "GET" for r in bot.fake.requests_to("*", "/check-runs"))

    writes = run_writes()

    pr.draft = False
    await bot.pr_event(repo, pr, "ready_for_review")

    assert run_writes() > writes
    assert bot.runs(repo, pr.head_sha)[-1].conclusion == "failure"
    assert len(bot.sticky(repo, pr.number)) == 1


async def test_a_submodule_bump_is_no_file_to_read(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL, "third_party/cutlass": "gitlink stand-in\n"})
    # GitHub lists a gitlink with the submodule's commit as `sha`, never a blob to read.
    commit = "a" * 40
    pr.listed_as["third_party/cutlass"] = {
        "sha": commit,
        "patch": f"@@ -1 +1 @@\n-Subproject commit {'b' * 40}\n+Subproject commit {commit}",
    }
    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert "without a compute-API decision" in run.output["title"]
    assert not bot.fake.requests_to("GET", f"/git/blobs/{commit}")


async def test_a_trailer_beyond_the_250th_commit_of_a_pr_counts(bot: Bot) -> None:
    # pulls/{n}/commits lists at most 250 commits; the link is in the 261st.
    repo = new_repo(bot.fake)
    repo.commit({"csrc/scale.cu": KERNEL, RECORD: record()}, branch="long", message="kernel")
    for i in range(259):
        repo.commit({"notes.txt": f"{i}\n"}, branch="long", message=f"step {i}")
    repo.commit(
        {"notes.txt": "done\n"}, branch="long", message=f"last\n\nCompute-API-Decision: {RECORD}\n"
    )
    pr = repo.open_pr(head_branch="long")
    approved_by_owner(bot, repo, pr)

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success", run.output["summary"]
    assert f"`{RECORD}`: valid" in run.output["summary"]


async def test_a_file_over_the_size_limit_is_skipped_as_the_cli_and_census_skip_it(
    bot: Bot,
) -> None:
    # Over 1 MB (the contents API would not inline it) and over lockin's 4 MiB file limit.
    padding = "// generated table row\n" * (MAX_FILE_BYTES // 20)
    big = KERNEL + padding
    assert classify_entry("csrc/table.cu", big.encode()).skipped == "too-large"
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/table.cu": big, "csrc/small.cu": KERNEL})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert {a["path"] for a in run.annotations} == {"csrc/small.cu"}
    assert "1 skipped (too-large)" in run.output["text"]


async def test_retargeting_a_pr_to_another_base_branch_checks_it_again(bot: Bot) -> None:
    # GitHub sends no synchronize for a new base, only `edited` with `changes.base`.
    repo = new_repo(bot.fake)
    repo.commit({"notes.txt": "legacy\n"}, branch="legacy")  # before the kernel landed
    repo.commit({"csrc/scale.cu": KERNEL})
    repo.commit({"model.py": MODEL + "# tidy\n"}, branch="feature")
    pr = repo.open_pr(head_branch="feature", base_branch="legacy")
    await bot.pr_event(repo, pr, "opened")
    assert bot.runs(repo, pr.head_sha)[-1].conclusion == "failure"  # the kernel counts

    pr.base_ref = "main"
    changes = {"base": {"ref": {"from": "legacy"}, "sha": {"from": repo.head("legacy")}}}
    await bot.pr_event(repo, pr, "edited", changes=changes)

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    assert run.output["title"] == "No non-portable lines added or removed"


async def test_a_dockerfile_copied_before_its_edit_is_new_lock_in_through_the_check(
    bot: Bot,
) -> None:
    # soedinglab/MMseqs2 4aaecb8f: the CUDA build's Dockerfile copied for a second CUDA build,
    # the original edited. GitHub lists the copy against its source; its lines are the
    # original's removed ones word for word, which cannot pay for both files.
    original, copy = "ci/Dockerfile.GPU-2014", "ci/Dockerfile.GPU-2_28"
    repo = new_repo(bot.fake, {original: CUDA_DOCKERFILE})
    pr = open_pr(repo, {original: CPU_BASE_DOCKERFILE, copy: CUDA_DOCKERFILE})
    pr.listed_as[copy] = {"status": "copied", "previous_filename": original}
    await bot.pr_event(repo, pr, "opened")
    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"

    # The same file moved, the original deleted: no new lock-in.
    moved = open_pr(repo, {original: None, copy: CUDA_DOCKERFILE})
    await bot.pr_event(repo, moved, "opened")
    assert bot.runs(repo, moved.head_sha)[-1].conclusion == "success"
