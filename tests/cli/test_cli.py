"""The `lockin` command end to end: scan formats, diff of revisions and directories,
exit codes and one-line errors."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft4Validator, Draft202012Validator

from bot.cli import main
from bot.render import text
from bot.render.json_out import load_schema
from tests.cli.gitrepo import commit, git, init, write
from tests.policy.test_gate_growth import CPU_BASE_DOCKERFILE, CUDA_DOCKERFILE

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SARIF_SCHEMA = json.loads(
    (Path(__file__).parent / "schemas" / "sarif-2.1.0-rtm.5.json").read_text()
)

KERNEL = """\
#include <cuda_runtime.h>

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

void launch(float* x, float a, int n, cudaStream_t s) {
  scale<<<(n + 255) / 256, 256, 0, s>>>(x, a, n);
}
"""
POLICY = "layers: [kernel, vendor-path]\nenforcement: fail\n"
RECORD = """\
---
type: compute-api
status: accepted
owner: "@gpu-team"
compute_api: CUDA 12.4
migration_cost: "~50 lines to HIP"
scope:
  - {scope}
---

# CUDA kernels under {scope}
"""


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def assert_one_line_error(err: str, text: str) -> None:
    assert err.count("\n") == 1, err
    assert err.startswith("lockin: error: ")
    assert text in err
    assert "Traceback" not in err


# -- scan ----------------------------------------------------------------------


def test_scan_json_follows_the_documented_schema() -> None:
    code, out, err = run("scan", str(EXAMPLES / "repo"), "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    Draft202012Validator(load_schema("scan")).validate(doc)
    assert doc["schema"] == "lockin.scan/1"
    files = {f["path"]: f for f in doc["files"]}
    assert doc["totals"]["code_lines"] == sum(f["code_lines"] for f in files.values())
    assert doc["totals"]["code_lines"] == sum(doc["totals"]["layers"].values())
    for f in files.values():
        assert sum(f["layers"].values()) == f["code_lines"]
    kernel_file = files["csrc/fused_softmax.cu"]
    assert kernel_file["layers"]["kernel"] > 0
    assert "cuda.kernel" in {f["rule"] for f in kernel_file["findings"]}
    assert files["model.py"]["layers"]["kernel"] == 0
    assert 0 < doc["totals"]["nvidia_share"] < 1
    assert doc["matrix"]["amd"]["kernel"] >= kernel_file["layers"]["kernel"]
    assert doc["top_files"][0]["path"] in files


def test_scan_sarif_is_valid_sarif_2_1_0() -> None:
    code, out, _ = run("scan", str(EXAMPLES / "repo"), "--format", "sarif")
    assert code == 0
    log = json.loads(out)
    Draft4Validator(SARIF_SCHEMA).validate(log)
    run_ = log["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert run_["results"]
    for result in run_["results"]:
        assert ids[result["ruleIndex"]] == result["ruleId"]
        layer = result["properties"]["layer"]
        assert result["level"] == ("note" if layer == "vendor-library" else "warning")
        location = result["locations"][0]["physicalLocation"]
        assert not location["artifactLocation"]["uri"].startswith("/")
        assert location["region"]["startLine"] <= location["region"]["endLine"]
        assert result["partialFingerprints"]
    for rule in rules:
        assert rule["shortDescription"]["text"]
        assert rule["help"]["text"]
        assert rule["properties"]["layer"] in ("kernel", "vendor-library", "vendor-path")


def test_scan_markdown_and_text() -> None:
    code, md, _ = run("scan", str(EXAMPLES / "repo"), "--format", "markdown")
    assert code == 0
    assert "```mermaid\npie" in md
    assert "| Layer | Lines | Share | Moving it costs |" in md
    assert "csrc/fused_softmax.cu" in md
    code, text, _ = run("scan", str(EXAMPLES / "repo"), "--top", "3")
    assert code == 0
    assert "Could not move off NVIDIA tomorrow" in text
    assert "csrc/fused_softmax.cu" in text


def test_scan_include_exclude_and_pool(tmp_path: Path) -> None:
    for i in range(80):  # enough files for the process pool
        (tmp_path / "k" / f"k{i}.cu").parent.mkdir(exist_ok=True)
        (tmp_path / "k" / f"k{i}.cu").write_text(KERNEL)
    (tmp_path / "m.py").write_text("import torch\nx = torch.ones(3)\n")
    code, out, _ = run("scan", str(tmp_path), "--format", "json", "--jobs", "2")
    assert code == 0
    doc = json.loads(out)
    assert doc["totals"]["files"] == 81
    single = json.loads(run("scan", str(tmp_path), "--format", "json", "--jobs", "1")[1])
    assert single == doc
    only_py = json.loads(run("scan", str(tmp_path), "--format", "json", "--include", "*.py")[1])
    assert [f["path"] for f in only_py["files"]] == ["m.py"]
    no_k = json.loads(run("scan", str(tmp_path), "--format", "json", "--exclude", "k/")[1])
    assert [f["path"] for f in no_k["files"]] == ["m.py"]


def test_scan_skips_binary_and_huge_files(tmp_path: Path) -> None:
    (tmp_path / "weights.bin").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "k.cu").write_text(KERNEL)
    (tmp_path / "huge.cu").write_text(KERNEL * (5 * 1024 * 1024 // len(KERNEL)))
    doc = json.loads(run("scan", str(tmp_path), "--format", "json")[1])
    assert doc["skipped"] == {"binary": 1, "too-large": 1}
    assert [f["path"] for f in doc["files"]] == ["k.cu"]


@pytest.mark.parametrize(
    ("argv", "text"),
    [
        (["scan", "/no/such/dir"], "no such directory: /no/such/dir"),
        (["scan", ".", "--format", "xml"], "invalid choice: 'xml'"),
        (["scan", ".", "--jobs", "0"], "must be at least 1"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["scan", ".", "--config", "/no/such/lockin.yml"], "cannot read config"),
    ],
)
def test_scan_bad_input_is_one_line_and_exit_2(argv: list[str], text: str) -> None:
    code, out, err = run(*argv)
    assert code == 2
    assert out == ""
    assert_one_line_error(err, text)


def test_scan_invalid_config_names_line_and_key(tmp_path: Path) -> None:
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "lockin.yml").write_text("enforcement: maybe\n")
    code, _, err = run("scan", str(tmp_path))
    assert code == 2
    assert_one_line_error(err, "lockin.yml:1: enforcement")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_only_on_a_terminal() -> None:
    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        progress = text.ProgressLine(stream, after=0)
        progress(5, 10)
        progress(10, 10)
        progress.finish()
    assert pipe.getvalue() == ""
    quick = Terminal()
    progress = text.ProgressLine(quick, after=3600)
    progress(10, 10)
    progress.finish()
    assert quick.getvalue() == ""
    assert "\rscanning 10/10 files (100.0%)" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r\033[K")


# -- diff of two directories ------------------------------------------------------


def test_example_change_fails_and_says_why() -> None:
    before, after = EXAMPLES / "change" / "before", EXAMPLES / "change" / "after"
    code, out, _ = run("diff", str(before), str(after))
    assert code == 1
    assert "Verdict: failure" in out
    assert "ops/fused_gelu.cu" in out
    code, out, err = run("diff", str(before), str(after), "--format", "json")
    assert code == 1
    doc = json.loads(out)
    Draft202012Validator(load_schema("diff")).validate(doc)
    assert doc["verdict"]["conclusion"] == "failure"
    added = {f["path"]: f for f in doc["files"]}["ops/fused_gelu.cu"]
    assert added["status"] == "added"
    assert added["added"]["kernel"] > 0
    assert any(r["rule"] == "cuda.kernel" for r in added["added_ranges"])
    assert doc["removed"]["portable"] + doc["removed"]["vendor-path"] > 0
    assert err.startswith("lockin: failure: ")


def test_a_linked_record_the_change_adds_awaits_approval(tmp_path: Path) -> None:
    # lockin diff cannot see reviews: a record written in the change never approves itself.
    before, after = tmp_path / "before", tmp_path / "after"
    shutil.copytree(EXAMPLES / "change" / "before", before)
    shutil.copytree(EXAMPLES / "change" / "after", after)
    (after / "docs" / "decisions" / "0002-ops.md").write_text(RECORD.format(scope="ops/**"))
    code, out, _ = run("diff", str(before), str(after), "--decision", "docs/decisions/0002-ops.md")
    assert code == 1, out
    assert "awaiting an approving review from @gpu-team on its pull request" in out
    # Once on the base (merged after its review), the same record covers the change.
    (before / "docs" / "decisions").mkdir(parents=True, exist_ok=True)
    (before / "docs" / "decisions" / "0002-ops.md").write_text(RECORD.format(scope="ops/**"))
    code, out, _ = run("diff", str(before), str(after), "--decision", "docs/decisions/0002-ops.md")
    assert code == 0, out
    assert "covered by docs/decisions/0002-ops.md" in out


# -- diff of git revisions ----------------------------------------------------------


# A repository whose default branch has a policy, a decision covering csrc/** and one kernel.
BASE_FILES: dict[str, str | bytes | None] = {
    ".github/lockin.yml": POLICY,
    "docs/decisions/0001-csrc.md": RECORD.format(scope="csrc/**"),
    "csrc/old.cu": KERNEL,
    "model.py": "import torch\n\nx = torch.ones(3)\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = init(tmp_path / "repo")
    commit(path, BASE_FILES, "base")
    git(path, "branch", "base")
    return path


def test_git_kernel_outside_every_scope_fails_inside_a_scope_passes(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "outside")
    commit(repo, {"ops/new.cu": KERNEL}, "add an unscoped kernel")
    code, out, _ = run("diff", "base", "outside", "--repo", str(repo))
    assert code == 1
    assert "ops/new.cu" in out
    git(repo, "checkout", "-q", "-b", "inside", "base")
    commit(repo, {"csrc/new.cu": KERNEL}, "add a kernel under csrc")
    code, out, _ = run("diff", "base", "inside", "--repo", str(repo), "--format", "json")
    assert code == 0
    verdict = json.loads(out)["verdict"]
    assert verdict["files"][0]["covered_by"] == "docs/decisions/0001-csrc.md"


def test_git_trailer_links_a_record_added_at_head_and_bare_repo_agrees(
    repo: Path, tmp_path: Path
) -> None:
    git(repo, "checkout", "-q", "-b", "linked")
    commit(
        repo,
        {
            "ops/new.cu": KERNEL,
            "docs/decisions/0002-ops.md": RECORD.format(scope="ops/**"),
            ".github/CODEOWNERS": "/docs/decisions/ @mallory\n",  # not on the base: not read
        },
        "Add ops kernel\n\nCompute-API-Decision: docs/decisions/0002-ops.md\n",
    )
    code, out, _ = run("diff", "base", "linked", "--repo", str(repo), "--format", "json")
    assert code == 1, out
    assert json.loads(out)["verdict"]["decisions"] == [
        {
            "ref": "docs/decisions/0002-ops.md",
            "valid": False,
            "problems": [
                "awaiting an approving review from @gpu-team on its pull request (not on the "
                "base; reviews are seen by the lockin App and Action, not here)"
            ],
        }
    ]
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    code_bare, out_bare, _ = run("diff", "base", "linked", "--repo", str(bare), "--format", "json")
    assert (code_bare, out_bare) == (code, out)


def test_a_staged_record_counts_for_the_commit_and_names_the_approval_it_awaits(
    repo: Path,
) -> None:
    # What the pre-commit hook runs, with the record linked: the commit holds the record, so
    # it counts there; reviews are on GitHub, and the hook says whose the pull request awaits.
    commit(repo, {".github/CODEOWNERS": "/docs/decisions/ @acme/gpu-platform\n"}, "owners")
    write(repo, {"ops/new.cu": KERNEL, "docs/decisions/0002-ops.md": RECORD.format(scope="ops/**")})
    git(repo, "add", "-A")
    argv = ["diff", "--staged", "--repo", str(repo), "--decision", "docs/decisions/0002-ops.md"]
    code, out, err = run(*argv)
    assert code == 0, out
    assert (
        "docs/decisions/0002-ops.md counts for this commit; on its pull request it is "
        "awaiting an approving review from @gpu-team or a code owner of "
        "docs/decisions/0002-ops.md (@acme/gpu-platform) on its pull request"
    ) in err


def test_git_rename_deletion_and_binary(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "moves")
    git(repo, "mv", "csrc/old.cu", "csrc/moved.cu")
    commit(repo, {"model.py": None, "assets/logo.png": b"\x89PNG\r\n\x1a\n\0\0\0"}, "move things")
    code, out, _ = run("diff", "base", "moves", "--repo", str(repo), "--format", "json")
    assert code == 0
    doc = json.loads(out)
    files = {f["path"]: f for f in doc["files"]}
    moved = files["csrc/moved.cu"]
    assert (moved["status"], moved["old_path"]) == ("renamed", "csrc/old.cu")
    assert sum(moved["added"].values()) == sum(moved["removed"].values()) == 0
    assert files["model.py"]["status"] == "removed"
    assert files["model.py"]["removed"]["portable"] == 2
    assert files["assets/logo.png"]["skipped"] == "binary"
    assert doc["skipped_files"] == 1


def test_git_move_rename_detection_skipped_is_judged_as_edits_in_place(repo: Path) -> None:
    # A reorganisation beyond git's rename limit (set to 1 here) lists deletions and
    # additions: the kernel moved out of the decision's scope, edited on the way, adds
    # no lock-in; a second copy of it at the new place adds one kernel's lines.
    git(repo, "config", "diff.renameLimit", "1")
    git(repo, "checkout", "-q", "-b", "reorganised")
    edited = KERNEL.replace("int i = blockIdx.x", "const int i = blockIdx.x")
    commit(repo, {"csrc/old.cu": None, "model.py": None}, "drop")
    commit(repo, {"ops/kernel.cu": edited, "ops/model.py": "import torch\n"}, "move")
    code, out, err = run("diff", "base", "reorganised", "--repo", str(repo), "--format", "json")
    assert code == 0, out + err
    doc = json.loads(out)
    assert {f["path"]: f["status"] for f in doc["files"]}["ops/kernel.cu"] == "added"
    assert doc["verdict"]["files"] == []
    commit(repo, {"ops/new.cu": KERNEL.replace("scale", "shift")}, "a copy of its own")
    code, out, _ = run("diff", "base", "reorganised", "--repo", str(repo), "--format", "json")
    assert code == 1
    copy = next(f for f in json.loads(out)["files"] if f["path"] == "ops/new.cu")
    gated = copy["added"]["kernel"] + copy["added"]["vendor-path"]
    assert json.loads(out)["verdict"]["gated_lines"] == gated > 0


def test_git_dockerfile_copied_before_its_edit_fails_moved_passes(repo: Path) -> None:
    # soedinglab/MMseqs2 4aaecb8f, on real git with copy detection on (git's -C reports the
    # new file as a copy of the old version): the copy is new lock-in; a move is not.
    git(repo, "config", "diff.renames", "copies")
    commit(repo, {"ci/Dockerfile.GPU-2014": CUDA_DOCKERFILE}, "a CUDA build")
    git(repo, "branch", "cuda-build")
    git(repo, "checkout", "-q", "-b", "copied")
    commit(
        repo,
        {"ci/Dockerfile.GPU-2014": CPU_BASE_DOCKERFILE, "ci/Dockerfile.GPU-2_28": CUDA_DOCKERFILE},
        "a second CUDA build",
    )
    code, out, err = run("diff", "cuda-build", "copied", "--repo", str(repo), "--format", "json")
    assert code == 1, out + err
    assert json.loads(out)["verdict"]["gated_lines"] == 1
    git(repo, "checkout", "-q", "-b", "moved", "cuda-build")
    git(repo, "mv", "ci/Dockerfile.GPU-2014", "ci/Dockerfile.GPU-2_28")
    commit(repo, {}, "the build renamed")
    code, out, err = run("diff", "cuda-build", "moved", "--repo", str(repo), "--format", "json")
    assert code == 0, out + err
    assert json.loads(out)["verdict"]["gated_lines"] == 0


def test_git_deleting_a_kernel_passes_and_counts_removed_lines(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "delete")
    commit(repo, {"csrc/old.cu": None}, "drop the kernel")
    code, out, _ = run("diff", "base", "delete", "--repo", str(repo), "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["removed"]["kernel"] > 0
    assert doc["added"]["kernel"] == 0


def test_git_300_file_change(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "big")
    commit(repo, {f"csrc/gen/k{i:03}.cu": KERNEL for i in range(300)}, "300 kernels")
    code, out, _ = run(
        "diff", "base", "big", "--repo", str(repo), "--format", "json", "--jobs", "2"
    )
    assert code == 0
    doc = json.loads(out)
    assert len(doc["files"]) == 300
    per_file = doc["files"][0]["added"]["kernel"]
    assert per_file > 0
    assert doc["added"]["kernel"] == 300 * per_file


def test_git_invalid_policy_at_base_is_exit_2(repo: Path) -> None:
    commit(repo, {".github/lockin.yml": "allowance: -3\n"}, "break the policy")
    git(repo, "branch", "-f", "base")
    code, _, err = run("diff", "base", "main", "--repo", str(repo))
    assert code == 2
    assert_one_line_error(err, "base:.github/lockin.yml:1: allowance")


@pytest.mark.parametrize(
    ("argv", "text"),
    [
        (["diff", "base", "nope"], "revision not found: nope"),
        (["diff", "base", "main", "--repo", "/no/such/repo"], "no such repository"),
        (["diff", "base"], "the following arguments are required: head"),
    ],
)
def test_git_bad_input_is_exit_2(repo: Path, argv: list[str], text: str) -> None:
    if "--repo" not in argv:
        argv = [*argv, "--repo", str(repo)]
    code, _, err = run(*argv)
    assert code == 2
    assert_one_line_error(err, text)


def test_directory_against_revision_is_exit_2() -> None:
    code, _, err = run("diff", str(EXAMPLES / "change" / "before"), "HEAD")
    assert code == 2
    assert_one_line_error(err, "both be directories or both git revisions")


def test_not_a_repository_is_exit_2(tmp_path: Path) -> None:
    code, _, err = run("diff", "a", "b", "--repo", str(tmp_path))
    assert code == 2
    assert_one_line_error(err, "not a git repository")


def test_real_entry_point_exit_codes() -> None:
    lockin = Path(sys.executable).with_name("lockin")
    before, after = EXAMPLES / "change" / "before", EXAMPLES / "change" / "after"
    proc = subprocess.run(
        [str(lockin), "diff", str(before), str(after)], capture_output=True, text=True
    )
    assert proc.returncode == 1
    assert "Verdict: failure" in proc.stdout
    proc = subprocess.run([str(lockin), "scan", "/no/such/dir"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr == "lockin: error: no such directory: /no/such/dir\n"


def test_entry_point_output_whole_and_a_reader_that_left_is_no_error() -> None:
    """``python -m bot`` (the console script's ``run``) exits without the interpreter's
    teardown: what it wrote is flushed first, and a reader gone before that flush is no
    error, as in ``main``."""
    command = [sys.executable, "-m", "bot", "scan", str(EXAMPLES / "repo"), "--format", "json"]
    whole = subprocess.run(command, capture_output=True, text=True, check=False)
    assert whole.returncode == 0, whole.stderr
    assert json.loads(whole.stdout)["totals"]["files"] > 0
    # The reader leaves before the scan writes: its output sits in stdout's buffer (a
    # buffered one, whatever this run's environment says) until the final flush, which the
    # pipe refuses.
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=buffered)
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait() == 0, err
    assert "Error" not in err, err
    assert "Exception" not in err, err
    failing = subprocess.run([*command, "--fail-above", "0"], capture_output=True, check=False)
    assert failing.returncode == 1


def test_git_link_to_a_missing_record_names_the_problem(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "dangling")
    commit(repo, {"ops/new.cu": KERNEL}, "kernel\n\nCompute-API-Decision: docs/decisions/nope.md\n")
    code, out, _ = run("diff", "base", "dangling", "--repo", str(repo), "--format", "json")
    assert code == 1
    (decision,) = json.loads(out)["verdict"]["decisions"]
    assert decision["ref"] == "docs/decisions/nope.md"
    assert not decision["valid"]
    assert any("does not exist at dangling" in p for p in decision["problems"])


def test_git_record_must_be_on_base_when_the_policy_says_so(repo: Path) -> None:
    commit(repo, {".github/lockin.yml": POLICY + "decisions:\n  require_default_branch: true\n"})
    git(repo, "branch", "-f", "base")
    git(repo, "checkout", "-q", "-b", "own-record")
    commit(
        repo,
        {"ops/new.cu": KERNEL, "docs/decisions/0002-ops.md": RECORD.format(scope="ops/**")},
        "kernel\n\nCompute-API-Decision: docs/decisions/0002-ops.md\n",
    )
    code, out, _ = run("diff", "base", "own-record", "--repo", str(repo))
    assert code == 1
    assert "does not exist at base" in out


def test_a_kernel_file_split_in_two_is_no_growth(tmp_path: Path) -> None:
    # Device helpers moved from a .cu into a header of their own: every line the header
    # adds, the .cu removed word for word, so the change adds no lock-in.
    before, after = tmp_path / "before", tmp_path / "after"
    shutil.copytree(EXAMPLES / "change" / "before", before)
    shutil.copytree(before, after)
    source = after / "csrc" / "fused_softmax.cu"
    lines = source.read_text().splitlines(keepends=True)
    start = lines.index("__device__ __forceinline__ float warp_max(float v) {\n")
    end = lines.index("__global__ void fused_softmax_kernel(const float* __restrict__ in, "
                      "float* __restrict__ out,\n")  # fmt: skip
    helpers = lines[start:end]
    source.write_text("".join([*lines[:start], '#include "warp_reduce.cuh"\n', *lines[end:]]))
    (after / "csrc" / "warp_reduce.cuh").write_text("#pragma once\n\n" + "".join(helpers))

    code, out, _ = run("diff", str(before), str(after), "--format", "json")
    doc = json.loads(out)
    moved = {f["path"]: f for f in doc["files"]}["csrc/warp_reduce.cuh"]
    assert moved["added"]["kernel"] > 0
    assert (code, doc["verdict"]["conclusion"]) == (0, "success")
    code, out, _ = run("diff", str(before), str(after))
    assert "moved from other files" in out


def test_diff_sarif_has_one_result_per_added_range_and_markdown_the_verdict() -> None:
    before, after = str(EXAMPLES / "change" / "before"), str(EXAMPLES / "change" / "after")
    doc = json.loads(run("diff", before, after, "--format", "json")[1])
    code, out, _ = run("diff", before, after, "--format", "sarif")
    assert code == 1
    log = json.loads(out)
    Draft4Validator(SARIF_SCHEMA).validate(log)
    ranges = [(f["path"], r["start_line"]) for f in doc["files"] for r in f["added_ranges"]]
    results = [
        (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in log["runs"][0]["results"]
    ]
    assert results == ranges
    code, md, _ = run("diff", before, after, "--format", "markdown")
    assert code == 1
    assert "**failure**" in md
    assert "| Layer | Added | Removed | Net |" in md


def _uris(log: dict) -> set[str]:
    return {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    }


def test_sarif_uris_are_relative_to_the_repository_root(tmp_path: Path) -> None:
    repo = init(tmp_path / "r")
    commit(repo, {"sub/dir/k.cu": KERNEL})
    assert _uris(json.loads(run("scan", str(repo / "sub"), "--format", "sarif")[1])) == {
        "sub/dir/k.cu"
    }
    plain = tmp_path / "plain"
    (plain / "dir").mkdir(parents=True)
    (plain / "dir" / "k.cu").write_text(KERNEL)
    assert _uris(json.loads(run("scan", str(plain), "--format", "sarif")[1])) == {"dir/k.cu"}


def test_git_kernel_replaced_by_a_symlink_counts_its_lines_as_removed(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "typechange")
    (repo / "csrc/old.cu").unlink()
    (repo / "csrc/old.cu").symlink_to("../model.py")
    commit(repo, {}, "the kernel becomes a link")
    code, out, _ = run("diff", "base", "typechange", "--repo", str(repo), "--format", "json")
    assert code == 0, out
    doc = json.loads(out)
    [changed] = doc["files"]
    assert (changed["path"], changed["status"]) == ("csrc/old.cu", "removed")
    assert changed["removed"]["kernel"] > 0
    assert doc["added"]["kernel"] == 0

    git(repo, "checkout", "-q", "-b", "back")
    (repo / "csrc/old.cu").unlink()
    commit(repo, {"csrc/old.cu": KERNEL}, "the link becomes a kernel again")
    code, out, _ = run("diff", "typechange", "back", "--repo", str(repo), "--format", "json")
    assert code == 0  # csrc/** is covered by the recorded decision
    [changed] = json.loads(out)["files"]
    assert changed["status"] == "added"
    assert changed["added"]["kernel"] == doc["files"][0]["removed"]["kernel"]


def test_git_diff_of_a_revision_with_itself_is_empty_and_passes(repo: Path) -> None:
    code, out, err = run("diff", "base", "base", "--repo", str(repo), "--format", "json")
    assert code == 0
    assert "success" in err
    doc = json.loads(out)
    assert doc["files"] == []
    assert sum(doc["added"].values()) == sum(doc["removed"].values()) == 0


def test_a_file_name_that_is_not_utf8_is_scanned_in_every_format(tmp_path: Path) -> None:
    name = os.fsdecode(b"caf\xe9.cu")
    (tmp_path / name).write_text("__global__ void k(float* x) {\n    x[0] = 0;\n}\n")
    outputs = {}
    for fmt in ("text", "json", "markdown", "sarif"):
        result = subprocess.run(
            [sys.executable, "-m", "bot", "scan", "--format", fmt, str(tmp_path)],
            capture_output=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr.decode()
        outputs[fmt] = result.stdout
    sarif = json.loads(outputs["sarif"])
    [result_] = [r for r in sarif["runs"][0]["results"] if r["ruleId"].startswith("cuda.")][:1]
    assert result_["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "caf%E9.cu"
