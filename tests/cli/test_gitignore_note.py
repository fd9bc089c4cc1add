"""`lockin scan` says when .gitignore patterns hid files: in a plain directory (a tarball, a
copy without .git) they leave files out, so it names the patterns, counts the files and
points to `--no-ignore`; in a checkout git lists tracked files whatever the patterns say,
so it counts them and says which patterns they match."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.gitrepo import git, init, write
from tests.cli.test_cli import KERNEL, run

FILES: dict[str, str | bytes | None] = {
    ".gitignore": "*.cuh\nbuild/\n",
    "ops/attention.cuh": KERNEL,
    "ops/softmax.cuh": KERNEL,
    "ops/keep.cuh": KERNEL,
    "ops/.gitignore": "!keep.cuh\n*.cu\n",
    "ops/scale.cu": KERNEL,
    "build/out.py": "x = 1\n",
    "model.py": "import torch\n",
}


def _paths(out: str) -> set[str]:
    """The files counted, but the .gitignore files themselves."""
    return {f["path"] for f in json.loads(out)["files"] if not f["path"].endswith(".gitignore")}


def test_a_plain_directory_names_the_patterns_that_left_files_out(tmp_path: Path) -> None:
    tree = tmp_path / "copy"
    write(tree, FILES)
    code, out, err = run("scan", str(tree), "--format", "json")
    assert code == 0, err
    assert _paths(out) == {"model.py", "ops/keep.cuh"}
    assert err == (
        "lockin: note: .gitignore left out 3 files and 1 folder (*.cuh: 2, build/: 1, "
        "ops/.gitignore: *.cu: 1); --no-ignore counts them\n"
    )

    code, out, err = run("scan", str(tree), "--format", "json", "--no-ignore")
    assert code == 0, err
    assert "note" not in err
    assert {"ops/attention.cuh", "ops/softmax.cuh", "ops/scale.cu", "build/out.py"} <= _paths(out)


def test_a_checkout_counts_tracked_files_its_patterns_match_and_says_so(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    write(repo, FILES)
    git(repo, "add", "-A")
    git(repo, "add", "-f", "ops/attention.cuh")  # tracked although *.cuh ignores it
    git(repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "base")
    code, out, err = run("scan", str(repo), "--format", "json")
    assert code == 0, err
    assert "ops/attention.cuh" in _paths(out)
    assert "ops/softmax.cuh" not in _paths(out)  # untracked and ignored: not the project's
    assert err.startswith(
        "lockin: note: 1 tracked file matches .gitignore patterns (*.cuh: 1): counted"
    )


def test_nothing_is_said_when_no_pattern_hid_a_file(tmp_path: Path) -> None:
    tree = tmp_path / "plain"
    write(tree, {".gitignore": "*.o\n", "model.py": "import torch\n", "ops/k.cu": KERNEL})
    code, _, err = run("scan", str(tree))
    assert code == 0
    assert err == ""


def test_a_diff_of_directories_says_what_gitignore_hid_and_no_ignore_gates_it(
    tmp_path: Path,
) -> None:
    before, after = tmp_path / "before", tmp_path / "after"
    write(before, {".gitignore": "*.cuh\n", "model.py": "import torch\n"})
    write(after, {".gitignore": "*.cuh\n", "model.py": "import torch\n", "ops/k.cuh": KERNEL})
    code, out, err = run("diff", str(before), str(after))
    assert code == 0, out
    assert err == (
        "lockin: note: in HEAD, .gitignore left out 1 file (*.cuh: 1); --no-ignore counts them\n"
    )
    code, out, err = run("diff", str(before), str(after), "--no-ignore")
    assert code == 1  # the kernel the pattern hid needs a decision
    assert "ops/k.cuh" in out
    assert "note" not in err


def test_no_ignore_with_revisions_is_one_line_of_error(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    code, _, err = run("diff", "main", "HEAD", "--repo", str(repo), "--no-ignore")
    assert code == 2
    assert (
        err == "lockin: error: --no-ignore is for two directories: revisions hold what git tracks\n"
    )


def test_a_whitelist_gitignore_keeps_walking_folders(tmp_path: Path) -> None:
    # mratsim/Arraymancer ignores every file (`*`), then takes back every folder (`!*/`, or
    # `!**/`) and every file with an extension (`!*.*`): git keeps src/.../cuda.nim. The
    # folders were read as ignored by `*`, so nothing at all was counted.
    for n, folders in enumerate(("!*/", "!**/")):
        tree = tmp_path / f"copy{n}"
        write(
            tree,
            {
                ".gitignore": f"*\n{folders}\n!*.*\n",
                "src/tensor/cuda.cu": KERNEL,
                "src/model.py": "import torch\n",
                "src/run": "#!/bin/sh\necho built\n",
            },
        )
        code, out, err = run("scan", str(tree), "--format", "json")
        assert code == 0, err
        assert _paths(out) == {"src/tensor/cuda.cu", "src/model.py"}
        assert err == "lockin: note: .gitignore left out 1 file (*: 1); --no-ignore counts them\n"
