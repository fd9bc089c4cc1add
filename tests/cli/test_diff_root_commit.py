"""`lockin diff` of a root commit, which has no parent to diff from: git's empty tree is
its base, and its whole tree is added."""

from __future__ import annotations

import json
from pathlib import Path

from bot.sources.git import EMPTY_TREE
from tests.cli.gitrepo import commit, init
from tests.cli.test_cli import KERNEL, assert_one_line_error, run


def test_a_root_commit_diffed_from_the_empty_tree_adds_its_whole_tree(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, {"k.cu": KERNEL, "util.py": "x = 1\n"}, "first")
    code, _, err = run("diff", "main^", "main", "--repo", str(repo))
    assert code == 2
    assert_one_line_error(
        err, f"main is a root commit: diff it from git's empty tree, {EMPTY_TREE}"
    )

    code, out, err = run("diff", EMPTY_TREE, "main", "--repo", str(repo), "--format", "json")
    assert code == 1, err
    document = json.loads(out)
    assert {f["path"]: f["status"] for f in document["files"]} == {
        "k.cu": "added",
        "util.py": "added",
    }
    assert document["verdict"]["conclusion"] == "failure"
    assert document["base"] == EMPTY_TREE

    code, _, err = run("diff", EMPTY_TREE[:7], "main", "--repo", str(repo))
    assert code == 2
    assert_one_line_error(err, f"revision not found: {EMPTY_TREE[:7]}")
    code, _, err = run("diff", "main", EMPTY_TREE, "--repo", str(repo))
    assert code == 2  # HEAD is a commit: the empty tree is a base only
    assert_one_line_error(err, f"revision not found: {EMPTY_TREE}")
