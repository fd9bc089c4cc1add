"""A failing `lockin diff` says how to fix it: the command that writes the drafted record, and
the line that links it. Running that command writes the record, pre-filled; filled in, it
awaits its owner's approval in a commit range and makes the gate pass once on the base, or
when staged (the pre-commit hook's `--staged`)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bot.policy.decisions import parse_decision
from tests.cli.gitrepo import commit, git, init, write
from tests.cli.test_cli import BASE_FILES, KERNEL, assert_one_line_error, run

RECORD = "docs/decisions/compute-api-ops.md"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = init(tmp_path / "repo")
    commit(path, BASE_FILES, "base")
    return path


def command_in(output: str) -> list[str]:
    """The one `lockin ... --write-record` command the output names, as argv."""
    (line,) = {m.strip() for m in re.findall(r"(lockin diff .*--write-record.*)$", output, re.M)}
    argv = shlex.split(line)
    assert argv[0] == "lockin"
    return argv[1:]


def filled_in(path: Path) -> None:
    """What the record's owner does with the draft: name the owner, accept it."""
    text = path.read_text()
    text = re.sub(r"^owner:.*$", 'owner: "@ops-team"', text, flags=re.M)
    text = re.sub(r"^status:.*$", "status: accepted", text, flags=re.M)
    path.write_text(text)


def test_failing_text_diff_prints_the_command_that_writes_the_record_and_the_link(
    repo: Path,
) -> None:
    git(repo, "checkout", "-q", "-b", "ops")
    commit(repo, {"ops/new.cu": KERNEL}, "add a kernel")
    code, out, _ = run("diff", "main", "ops", "--repo", str(repo))
    assert code == 1
    fix = out[out.index("How to fix") :]
    argv = command_in(fix)
    assert argv == ["diff", "main", "ops", "--repo", str(repo), "--write-record", RECORD]
    assert f"Compute-API-Decision: {RECORD}" in fix
    assert "status: proposed" in fix

    code, _, err = run(*argv)
    assert code == 0, err
    assert f"wrote {RECORD}" in err
    written = repo / RECORD
    draft = parse_decision(RECORD, written.read_text(), path=RECORD)
    assert (draft.type, draft.status, draft.owner) == ("compute-api", "proposed", None)
    assert draft.scope == ("ops/**",)
    # Linked but not filled in, the drafted record does not pass the gate by itself.
    commit(repo, {}, f"record the decision\n\nCompute-API-Decision: {RECORD}")
    code, out, _ = run("diff", "main", "ops", "--repo", str(repo))
    assert code == 1
    assert "no owner" in out
    filled_in(written)
    commit(repo, {}, "fill in the decision")
    # Filled in, it is what its owner must approve: a record the change adds never counts
    # on its author's word (the App and the Action read the approving review).
    code, out, _ = run("diff", "main", "ops", "--repo", str(repo))
    assert code == 1
    assert "awaiting an approving review from @ops-team" in out
    # Once it is on the base (approved and merged), the same change passes.
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "ops", "--", RECORD)
    commit(repo, {}, "land the decision")
    git(repo, "checkout", "-q", "ops")
    code, out, _ = run("diff", "main", "ops", "--repo", str(repo))
    assert code == 0, out
    assert f"covered by {RECORD}" in out
    assert "How to fix" not in out


def test_failing_markdown_diff_puts_the_fix_right_under_the_verdict(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "ops")
    commit(repo, {"ops/new.cu": KERNEL}, "add a kernel")
    code, md, err = run("diff", "main", "ops", "--repo", str(repo), "--format", "markdown")
    assert code == 1
    blocks = md.split("\n\n")
    assert blocks[1].startswith("**failure**")
    assert blocks[2].startswith("**How to fix**")
    command = f"lockin diff main ops --repo {repo} --write-record {RECORD}"
    assert f"```\n   {command}\n   ```" in md
    assert f"Compute-API-Decision: {RECORD}" in md
    # stdout is the report; stderr names the command too, as for every machine format.
    assert f"lockin: write the drafted decision record with: {command}" in err


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_machine_formats_name_the_command_on_stderr(repo: Path, fmt: str) -> None:
    git(repo, "checkout", "-q", "-b", "ops")
    commit(repo, {"ops/new.cu": KERNEL}, "add a kernel")
    code, out, err = run("diff", "main", "ops", "--repo", str(repo), "--format", fmt)
    assert code == 1
    assert command_in(err)[-2:] == ["--write-record", RECORD]
    assert "--write-record" not in out


def test_staged_fix_is_to_stage_the_written_record(repo: Path) -> None:
    write(repo, {"ops/new.cu": KERNEL})
    git(repo, "add", "ops/new.cu")
    code, out, _ = run("diff", "--staged", "--repo", str(repo))
    assert code == 1
    argv = command_in(out)
    assert argv == ["diff", "--staged", "--repo", str(repo), "--write-record", RECORD]
    assert f"git add {RECORD}" in out
    assert "Compute-API-Decision" not in out  # a commit not yet made has no message to link

    assert run(*argv)[0] == 0
    assert not git(repo, "status", "--porcelain", RECORD).startswith("A")  # written, not staged
    filled_in(repo / RECORD)
    # Written but not staged, the record is not part of the commit: the hook still refuses.
    assert run("diff", "--staged", "--repo", str(repo))[0] == 1
    git(repo, "add", RECORD)
    code, out, _ = run("diff", "--staged", "--repo", str(repo))
    assert code == 0, out
    assert f"covered by {RECORD}" in out


def test_under_pre_commit_the_command_is_the_manual_hook(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pre-commit installs lockin in its own environment, not on the user's PATH.
    monkeypatch.setenv("PRE_COMMIT", "1")
    write(repo, {"ops/new.cu": KERNEL})
    git(repo, "add", "ops/new.cu")
    code, out, _ = run("diff", "--staged", "--repo", str(repo))
    assert code == 1
    assert "pre-commit run lockin-record --hook-stage manual" in out


def test_directory_diff_writes_the_record_into_head(tmp_path: Path) -> None:
    base, head = tmp_path / "before", tmp_path / "after"
    write(base, {"model.py": "x = 1\n"})
    write(head, {"model.py": "x = 1\n", "ops/new.cu": KERNEL})
    code, out, _ = run("diff", str(base), str(head))
    assert code == 1
    argv = command_in(out)
    assert run(*argv)[0] == 0
    assert (head / RECORD).is_file()
    assert not (base / "docs").exists()


def test_write_record_to_a_given_path_and_refusals(repo: Path) -> None:
    write(repo, {"ops/new.cu": KERNEL})
    git(repo, "add", "ops/new.cu")
    own = "docs/decisions/0002-ops-kernels.md"
    assert run("diff", "--staged", "--repo", str(repo), "--write-record", own)[0] == 0
    assert "status: proposed" in (repo / own).read_text()
    again = run("diff", "--staged", "--repo", str(repo), "--write-record", own)
    assert again[0] == 2
    assert_one_line_error(again[2], f"{own} exists")
    outside = run("diff", "--staged", "--repo", str(repo), "--write-record", "../x.md")
    assert outside[0] == 2
    assert_one_line_error(outside[2], "not a path inside the repository")
    assert not (repo.parent / "x.md").exists()


def test_write_record_with_nothing_to_record_is_a_one_line_error(repo: Path) -> None:
    write(repo, {"model.py": "import torch\n\nx = torch.zeros(3)\n"})
    git(repo, "add", "model.py")
    code, _, err = run("diff", "--staged", "--repo", str(repo), "--write-record")
    assert code == 2
    assert_one_line_error(err, "nothing to record")


def test_a_staged_record_does_not_count_where_records_must_be_on_the_default_branch(
    repo: Path,
) -> None:
    policy = "layers: [kernel, vendor-path]\ndecisions: {require_default_branch: true}\n"
    commit(repo, {".github/lockin.yml": policy}, "records come from the default branch")
    write(repo, {"ops/new.cu": KERNEL})
    git(repo, "add", "ops/new.cu")
    argv = command_in(run("diff", "--staged", "--repo", str(repo))[1])
    assert run(*argv)[0] == 0
    filled_in(repo / RECORD)
    git(repo, "add", "-A")
    code, out, _ = run("diff", "--staged", "--repo", str(repo))
    assert code == 1
    assert "Merge it to the default branch first" in out
