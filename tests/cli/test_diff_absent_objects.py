"""`lockin diff` on repositories that lack objects (a partial clone, a snapshot without its
large blobs).

A file whose object is absent is left out of the count, said in one line, and listed as
"unreadable"; every other file is diffed. As a file the engine gave up on, one that may
hold code keeps the gate from passing: it may hold the lines the gate is for. One whose
name holds no code (an image, a model) is not read by the App's check either, and does not.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.gitrepo import commit, drop_object, git, init
from tests.cli.test_cli import KERNEL, run


def _repo(tmp_path: Path, files: dict[str, str | bytes | None]) -> Path:
    repo = init(tmp_path / "repo")
    commit(repo, {"util.py": "x = 1\n", "tool": "#!/bin/sh\necho 1\n"}, "base")
    git(repo, "branch", "base")
    commit(repo, files, "change")
    return repo


def test_a_code_file_whose_object_is_absent_keeps_the_gate_from_passing(tmp_path: Path) -> None:
    # A portable change, which passes while every object is there.
    repo = _repo(tmp_path, {"util.py": "x = 2\n", "tool": "#!/bin/sh\necho 2\n"})
    code, out, err = run("diff", "base", "main", "--repo", str(repo), "--format", "json")
    assert (code, json.loads(out)["verdict"]["conclusion"]) == (0, "success"), err

    drop_object(repo, "base:tool")
    code, out, err = run("diff", "base", "main", "--repo", str(repo), "--format", "json")
    assert code == 1, err
    document = json.loads(out)
    files = {f["path"]: f for f in document["files"]}
    assert files["tool"]["skipped"] == "unreadable"
    assert files["util.py"]["skipped"] is None  # the other files are diffed
    verdict = document["verdict"]
    assert verdict["conclusion"] == "failure"
    assert verdict["summary"].startswith(
        "cannot pass: 1 file unreadable, left out of the count: tool (objects absent"
    )
    notes = [line for line in err.splitlines() if line.startswith("lockin: note:")]
    assert notes == [
        "lockin: note: 1 file unreadable, left out of the count: tool (objects absent from "
        "the repository: a partial clone, or a snapshot without its large blobs)"
    ]

    code, out, _ = run("diff", "base", "main", "--repo", str(repo))
    assert code == 1
    assert "Not counted: 1 unreadable" in out
    assert "Verdict: failure: cannot pass: 1 file unreadable" in out

    (repo / ".github").mkdir()
    commit(repo, {".github/lockin.yml": "enforcement: neutral\n"}, "report only")
    git(repo, "branch", "-f", "base", "main")
    commit(repo, {"util.py": "x = 3\n", "tool": "#!/bin/sh\necho 3\n"}, "again")
    drop_object(repo, "main:tool")
    code, out, _ = run("diff", "base", "main", "--repo", str(repo), "--format", "json")
    assert (code, json.loads(out)["verdict"]["conclusion"]) == (0, "neutral")


def test_lock_in_in_the_files_it_read_still_fails(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"k.cu": KERNEL, "tool": "#!/bin/sh\necho 2\n"})
    drop_object(repo, "main:tool")
    code, out, err = run("diff", "base", "main", "--repo", str(repo), "--format", "json")
    assert code == 1, err
    document = json.loads(out)
    assert document["verdict"]["conclusion"] == "failure"
    assert "cannot pass" not in document["verdict"]["summary"]  # the gate's own reason
    assert [f["path"] for f in document["files"] if f["added"]["kernel"]] == ["k.cu"]
    assert "lockin: note: 1 file unreadable, left out of the count: tool" in err


def test_an_absent_file_that_holds_no_code_is_left_out_and_said(tmp_path: Path) -> None:
    repo = _repo(tmp_path, {"util.py": "x = 2\n", "logo.png": b"\x89PNG\r\n\x1a\n\0\0"})
    drop_object(repo, "main:logo.png")
    code, out, err = run("diff", "base", "main", "--repo", str(repo))
    assert code == 0, out + err
    assert "Not counted: 1 unreadable" in out
    assert "Verdict: success" in out
    assert "lockin: note: 1 file unreadable, left out of the count: logo.png" in err


def test_a_partial_clone_whose_promisor_is_out_of_reach(tmp_path: Path) -> None:
    # git would fetch an object a filtered clone left out from its promisor remote; offline
    # (here: a remote that no longer exists), the file is unreadable as in a snapshot.
    source = _repo(tmp_path, {"util.py": "x = 2\n", "big.py": "y = 1\n" * 400})
    clone = tmp_path / "partial.git"
    upload = "git -c uploadpack.allowFilter=true upload-pack"
    git(
        tmp_path,
        "clone",
        "-q",
        "--bare",
        "--no-local",
        "--filter=blob:limit=1k",
        "-u",
        upload,
        source.as_uri(),
        str(clone),
    )
    git(clone, "remote", "set-url", "origin", (tmp_path / "gone").as_uri())
    code, out, err = run("diff", "base", "main", "--repo", str(clone), "--format", "json")
    assert code == 1, err
    files = {f["path"]: f for f in json.loads(out)["files"]}
    assert (files["big.py"]["skipped"], files["util.py"]["skipped"]) == ("unreadable", None)
    assert files["util.py"]["added"]["portable"] == 1
    assert "lockin: note: 1 file unreadable, left out of the count: big.py" in err
