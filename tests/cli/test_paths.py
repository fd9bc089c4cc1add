"""Default exclusions, submodules, user patterns and the gitignore-aware walk."""

from __future__ import annotations

import os
import random
from dataclasses import replace
from pathlib import Path

import pytest

from bot.engine.paths import DEFAULT_FILTER, IgnoreSpec, PathFilter, submodule_paths
from bot.sources import SourceError
from bot.sources.tree import MAX_GITIGNORE_PATTERNS, Hidden, tree_filter, walk
from tests.cli.gitrepo import git, init, write


@pytest.mark.parametrize(
    "path",
    [
        "third_party/cutlass/include/gemm.h",
        "third-party/LlamaFactory/src/train.py",
        "venv/lib/python3.10/site-packages/torch/cuda/__init__.py",
        "src/vendor/lib.cu",
        "external/x.cpp",
        "web/node_modules/a/index.js",
        "notebooks/.ipynb_checkpoints/Triton-Puzzles-checkpoint.ipynb",
        ".git/HEAD",
    ],
)
def test_vendored_trees_are_excluded_by_default(path: str) -> None:
    assert not DEFAULT_FILTER.includes(path)


def test_ordinary_paths_are_included() -> None:
    assert DEFAULT_FILTER.includes("csrc/kernel.cu")
    assert DEFAULT_FILTER.includes("./model.py")
    assert DEFAULT_FILTER.includes("vendored.cu")


def test_submodules_from_gitmodules_are_anchored() -> None:
    gitmodules = '[submodule "cutlass"]\n\tpath = csrc/cutlass\n\turl = https://x/cutlass.git\n'
    assert submodule_paths(gitmodules) == ["csrc/cutlass"]
    path_filter = PathFilter.build(submodules=submodule_paths(gitmodules))
    assert not path_filter.includes("csrc/cutlass/include/cute/tensor.hpp")
    assert path_filter.includes("other/csrc/cutlass/x.h")


def test_user_include_and_exclude_with_negation() -> None:
    path_filter = PathFilter.build(
        ["csrc/**", "*.py"], ["csrc/generated/", "!csrc/generated/keep.cu"]
    )
    assert path_filter.includes("csrc/a.cu")
    assert path_filter.includes("tools/run.py")
    assert not path_filter.includes("docs/x.md")
    assert not path_filter.includes("csrc/generated/inst_1.cu")
    assert path_filter.includes("csrc/generated/keep.cu")
    assert not path_filter.prunes("csrc/generated")  # a negation may bring files back


def test_walk_honours_nested_gitignore_defaults_and_symlinks(tmp_path: Path) -> None:
    files = {
        ".gitignore": "build/\n*.log\n",
        "a.cu": "",
        "run.log": "",
        "build/out.cu": "",
        "pkg/.gitignore": "gen_*.cu\n!gen_keep.cu\n",
        "pkg/gen_1.cu": "",
        "pkg/gen_keep.cu": "",
        "pkg/b.py": "",
        "third_party/x.cu": "",
        ".gitmodules": '[submodule "m"]\n\tpath = mod\n',
        "mod/y.cu": "",
    }
    for rel, content in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(content)
    os.symlink(tmp_path / "a.cu", tmp_path / "link.cu")
    found = list(walk(str(tmp_path), tree_filter(str(tmp_path), exclude=["pkg/b.py"])))
    assert found == [".gitignore", ".gitmodules", "a.cu", "pkg/.gitignore", "pkg/gen_keep.cu"]


def test_walk_honours_a_gitignore_too_long_for_one_re2_set(tmp_path: Path) -> None:
    # Projet_long_3DGS_Rust_WebGPU's .gitignore lists 4,333 Rust build outputs one by one:
    # RE2 could not build one set of them and the walk crashed. Later lines still override
    # earlier ones across the runs the patterns are split into.
    listed = [f"target/debug/.fingerprint/crate-{i:016x}/lib-crate.json" for i in range(6000)]
    lines = ["*.log", *listed, "!keep.log", "hidden.cu"]
    spec = IgnoreSpec(lines)
    assert len(spec.specs) > 1  # the case: more than RE2 builds as one set
    assert spec.check(listed[4321]) is True
    assert spec.check("keep.log") is False
    assert spec.check("src/a.cu") is None
    assert spec.deciding("run.log") == (True, "*.log")
    assert spec.deciding("hidden.cu") == (True, "hidden.cu")
    (tmp_path / ".gitignore").write_text("\n".join(lines) + "\n")
    for rel in (listed[17], listed[5999], "run.log", "keep.log", "hidden.cu", "src/a.cu"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    found = list(walk(str(tmp_path), tree_filter(str(tmp_path))))
    assert found == [".gitignore", "keep.log", "src/a.cu"]


def test_walk_skips_a_gitignore_pattern_git_cannot_read_either(tmp_path: Path) -> None:
    # sonvule59/CUDA_and_OpenMP's .gitignore ends a line in a stray escape (`cython_debug/\`):
    # git matches nothing with it and reads the other lines; the walk used to crash on it.
    spec = IgnoreSpec(["*.log", "cython_debug/\\", "", "!keep.log"])
    assert [p.pattern for p in spec.patterns] == ["*.log", "!keep.log"]
    (tmp_path / ".gitignore").write_text("*.log\ncython_debug/\\\n!keep.log\n")
    for rel in ("run.log", "keep.log", "cython_debug/a.cu", "src/b.cu"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    found = list(walk(str(tmp_path), tree_filter(str(tmp_path))))
    assert found == [".gitignore", "cython_debug/a.cu", "keep.log", "src/b.cu"]


def test_walk_reads_a_bounded_number_of_gitignore_patterns(tmp_path: Path) -> None:
    # A hostile .gitignore of 60,000 patterns cost ~10 s of CPU (pathspec compiles each one)
    # before a file was counted; many such files in one tree cost that many times over. A
    # walk reads a bounded number across all of them: what the unread ones would hide is
    # counted, and the note names the files cut.
    lines = [f"build-{i}/" for i in range(MAX_GITIGNORE_PATTERNS - 2)]
    lines += ["# a comment is no pattern", "", "early.cu", "sub/late.cu"]
    (tmp_path / ".gitignore").write_text("\n".join([*lines, "late.cu", "*.cuh"]) + "\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".gitignore").write_text("own.cu\n")
    for rel in ("early.cu", "late.cu", "k.cuh", "sub/late.cu", "sub/own.cu", "sub/kept.cu"):
        (tmp_path / rel).write_text("")
    hidden = Hidden()
    found = list(walk(str(tmp_path), tree_filter(str(tmp_path)), hidden=hidden))
    assert found == [
        ".gitignore",
        "k.cuh",
        "late.cu",
        "sub/.gitignore",
        "sub/kept.cu",
        "sub/own.cu",
    ]
    assert hidden.truncated == [".gitignore", "sub/.gitignore"]
    assert hidden.files == {"early.cu": 1, "sub/late.cu": 1}
    assert "patterns past the first 10,000" in hidden.line()
    assert "(.gitignore, sub/.gitignore)" in hidden.line()


def test_ignore_spec_splits_a_run_of_long_wildcard_patterns_re2_refuses() -> None:
    # Fewer patterns than a run, each long and full of wildcards: RE2 refuses them as one set
    # too, and the run is halved until it builds.
    rng = random.Random(1)
    lines = ["x/" + "".join(rng.choice("abcdefgh*?") for _ in range(100)) for _ in range(1024)]
    spec = IgnoreSpec([*lines, "*.tmp", "!keep.tmp"])
    assert len(spec.specs) > 2
    assert spec.check("x/" + lines[700].removeprefix("x/").replace("*", "").replace("?", "a"))
    assert spec.check("a.tmp") is True
    assert spec.check("keep.tmp") is False
    assert spec.check("src/a.cu") is None


def test_a_backtracking_gitignore_pattern_decides_a_long_folder_name() -> None:
    # A hostile .gitignore: Python's re takes years on this pattern against the folder
    # (each more `a` doubles it); the walk asks about every folder before entering it.
    spec = IgnoreSpec(["*", "*a" * 40 + "*b", "!keep/"])
    assert spec.deciding("a" * 5000 + "/") == (True, "*")
    assert spec.deciding("a" * 40 + "b/") == (True, "*a" * 40 + "*b")
    assert spec.deciding("keep/") == (False, "!keep/")


def test_walk_matches_non_ascii_patterns_and_undecodable_names(tmp_path: Path) -> None:
    # Patterns are searched as UTF-8 bytes (bot/engine/paths.py): a name outside ASCII must
    # match as the characters it holds, and one that is not UTF-8 at all as U+FFFD.
    for rel in ("données/a.cu", "x.réf", "keep.cu", "naïve.cu"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    (tmp_path / ".gitignore").write_text("données/\n*.réf\nna?ve.cu\n", encoding="utf-8")
    undecodable = os.fsdecode(b"bad\xff.cu")
    (tmp_path / undecodable).write_text("")
    found = list(walk(str(tmp_path), tree_filter(str(tmp_path), exclude=["bad?.cu"])))
    assert found == [".gitignore", "keep.cu"]
    assert tree_filter(str(tmp_path)).includes(undecodable)


@pytest.mark.parametrize(
    ("include", "exclude", "decide"),
    [
        ([], [], True),
        ([], ["gen/", "*/kernels/", "/docs/"], True),
        ([], ["*.log"], False),  # names files too
        (["*.cu"], [], False),
        ([], ["gen/", "!gen/keep.cu"], False),
    ],
)
def test_folder_exclusions_decide_a_walk_without_a_question_per_file(
    tmp_path: Path, include: list[str], exclude: list[str], decide: bool
) -> None:
    rels = [
        "a.cu", "x.log", "gen/g.cu", "gen/keep.cu", "src/gen/h.cu", "lib/kernels/k.cu",
        "kernels/top.cu", "docs/d.md", "src/docs/e.md", "vendor/v.cu", "mod/m.cu", "src/vendor",
    ]  # fmt: skip
    for rel in rels:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    path_filter = PathFilter.build(include, exclude, submodules=["mod"])
    assert path_filter.folders_decide is decide
    found = list(walk(str(tmp_path), path_filter))
    # The files the filter includes, asked one by one, as a walk without the shortcut does.
    asked = replace(path_filter, folders_decide=False)
    assert found == list(walk(str(tmp_path), asked))
    assert found == sorted(rel for rel in rels if asked.includes(rel))


def test_walk_of_a_missing_directory_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such directory"):
        list(walk(str(tmp_path / "nope"), DEFAULT_FILTER))


def test_walk_of_a_checkout_counts_tracked_files_a_gitignore_pattern_matches(
    tmp_path: Path,
) -> None:
    repo = init(tmp_path / "repo")
    write(
        repo,
        {
            ".gitignore": "*.cuh\nbuild/\n",
            "csrc/tracked.cuh": "__global__ void k() {}\n",
            "csrc/kernel.cu": "__global__ void j() {}\n",
            "third_party/lib.cu": "__global__ void v() {}\n",
        },
    )
    git(repo, "add", ".gitignore", "csrc/kernel.cu", "third_party/lib.cu")
    git(repo, "add", "-f", "csrc/tracked.cuh")
    git(repo, "commit", "-q", "-m", "init")
    # Untracked: one ignored, one not; and a tracked file deleted from the work tree.
    write(repo, {"csrc/untracked.cuh": "x\n", "build/out.cu": "x\n", "new.py": "x = 1\n"})
    (repo / "csrc/kernel.cu").unlink()
    found = list(walk(str(repo), tree_filter(str(repo))))
    assert found == [".gitignore", "csrc/tracked.cuh", "new.py"]
