"""Reading git revisions without a checkout, and comparing two directories."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.engine.paths import DEFAULT_FILTER, PathFilter
from bot.sources import SourceError
from bot.sources.dirs import directory_changes
from bot.sources.git import EMPTY_TREE, GitRepo
from bot.sources.snapshot import DirSnapshot, GitSnapshot
from tests.cli.gitrepo import commit, drop_object, git, init

BODY = "".join(f"line {i}\n" for i in range(1, 21))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = init(tmp_path / "repo")
    commit(
        path, {"keep.txt": BODY, "old_name.txt": BODY, "gone.txt": "a\nb\n", "img.bin": b"\0\1\2"}
    )
    git(path, "branch", "base")
    commit(
        path,
        {
            "keep.txt": BODY.replace("line 5\n", "line five\n") + "line 21\n",
            "old_name.txt": None,
            "new_name.txt": BODY.replace("line 20\n", "line twenty\n"),
            "gone.txt": None,
            "img.bin": b"\0\1\2\3",
            "added.txt": "x\n",
        },
        "Rework things\n\nCompute-API-Decision: docs/decisions/0001.md\n",
    )
    return path


def test_changes_between_revisions_with_rename_and_git_lines(repo: Path) -> None:
    git_repo = GitRepo(str(repo))
    changes = {
        c.path: c for c in git_repo.changes(git_repo.resolve("base"), git_repo.resolve("main"))
    }
    assert set(changes) == {"keep.txt", "new_name.txt", "gone.txt", "img.bin", "added.txt"}
    assert changes["keep.txt"].status == "modified"
    assert (changes["keep.txt"].added, changes["keep.txt"].removed) == ((5, 21), (5,))
    renamed = changes["new_name.txt"]
    assert (renamed.status, renamed.old_path) == ("renamed", "old_name.txt")
    assert (renamed.added, renamed.removed) == ((20,), (20,))
    # An added or removed file's lines are all of it, which its content tells: git's patch
    # is read for modified and renamed files only (a commit adding half a million files
    # made a patch of gigabytes).
    assert changes["gone.txt"].status == "removed"
    assert (changes["gone.txt"].added, changes["gone.txt"].removed) == ((), ())
    assert (changes["added.txt"].added, changes["added.txt"].removed) == ((), ())
    assert changes["img.bin"].old_blob != changes["img.bin"].new_blob


def test_bare_repository_reads_files_and_messages(repo: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    git_repo = GitRepo(str(bare))
    head = git_repo.resolve("main")
    paths = [e.path for e in git_repo.list_files(head)]
    assert paths == ["added.txt", "img.bin", "keep.txt", "new_name.txt"]
    assert git_repo.read_file(head, "added.txt") == b"x\n"
    assert git_repo.read_file(head, "missing.txt") is None
    messages = git_repo.messages(git_repo.resolve("base"), head)
    assert len(messages) == 1
    assert "Compute-API-Decision: docs/decisions/0001.md" in messages[0]
    snapshot = GitSnapshot(git_repo, head, "main")
    assert snapshot.read("../etc/passwd") is None
    assert snapshot.files_under("nowhere") == []


def test_read_blobs_streams_many_objects(repo: Path) -> None:
    git_repo = GitRepo(str(repo))
    entries = git_repo.list_files(git_repo.resolve("main")) * 300
    contents = list(git_repo.read_blobs(e.blob for e in entries))
    assert len(contents) == len(entries)
    assert all(len(data) == e.size for e, (_, data) in zip(entries, contents, strict=True))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda tmp: tmp / "missing", "no such repository"),
        (lambda tmp: tmp, "not a git repository"),
    ],
)
def test_bad_repository_paths(tmp_path: Path, make, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        GitRepo(str(make(tmp_path)))


@pytest.mark.parametrize("revision", ["nope", "--all", "main~99"])
def test_missing_revision(repo: Path, revision: str) -> None:
    with pytest.raises(SourceError, match="revision not found"):
        GitRepo(str(repo)).resolve(revision)


def test_directory_changes_with_rename_ignore_and_exclusion(tmp_path: Path) -> None:
    before, after = tmp_path / "before", tmp_path / "after"
    for root in (before, after):
        (root / "third_party").mkdir(parents=True)
        (root / ".gitignore").write_text("*.log\n")
    (before / "a.txt").write_text(BODY)
    (after / "b.txt").write_text(BODY.replace("line 3\n", "line three\n"))
    (before / "same.txt").write_text("same\n")
    shutil.copy(before / "same.txt", after / "same.txt")
    (after / "debug.log").write_text("ignored\n")
    (after / "third_party" / "lib.cu").write_text("excluded\n")
    (before / "old.txt").write_text("1\n2\n")
    (after / "new.txt").write_text("only\n")
    changes = {c.path: c for c in directory_changes(str(before), str(after), DEFAULT_FILTER)}
    assert set(changes) == {"b.txt", "old.txt", "new.txt"}
    assert (changes["b.txt"].status, changes["b.txt"].old_path) == ("renamed", "a.txt")
    assert (changes["b.txt"].added, changes["b.txt"].removed) == ((3,), (3,))
    assert changes["old.txt"].status == "removed"
    assert changes["new.txt"].status == "added"


def test_directory_changes_of_paths_holding_spaces(tmp_path: Path) -> None:
    # artemnovichkov/wwdc24-samplecode's "Preview Content" folder: an added file whose path
    # holds a space made `lockin diff DIR DIR` fail with a traceback ("Target without source").
    before, after = tmp_path / "before", tmp_path / "after"
    (before / "Preview Content").mkdir(parents=True)
    (after / "Preview Content").mkdir(parents=True)
    (before / "Preview Content" / "old name.txt").write_text(BODY)
    (after / "Preview Content" / "Contents.json").write_text("{}\n")
    (after / "Preview Content" / "old name.txt").write_text(BODY.replace("line 2\n", "two\n"))
    changes = {c.path: c for c in directory_changes(str(before), str(after), DEFAULT_FILTER)}
    assert changes["Preview Content/Contents.json"].status == "added"
    assert changes["Preview Content/old name.txt"].added == (2,)
    assert changes["Preview Content/old name.txt"].removed == (2,)


def test_directory_changes_narrowed_by_a_filter(tmp_path: Path) -> None:
    before, after = tmp_path / "b", tmp_path / "a"
    (before / "gen").mkdir(parents=True)
    after.mkdir()
    (before / "gen" / "k.txt").write_text(BODY)
    (after / "k.txt").write_text(BODY)  # moved out of an excluded folder
    path_filter = PathFilter.build(exclude=["gen/"])
    changes = directory_changes(str(before), str(after), path_filter)
    assert [(c.status, c.path) for c in changes] == [("added", "k.txt")]


def test_directory_snapshot_lists_folder(tmp_path: Path) -> None:
    (tmp_path / "docs" / "decisions").mkdir(parents=True)
    (tmp_path / "docs" / "decisions" / "0001.md").write_text("---\ntype: compute-api\n---\n")
    snapshot = DirSnapshot(str(tmp_path))
    assert snapshot.files_under("docs/decisions") == [
        ("docs/decisions/0001.md", b"---\ntype: compute-api\n---\n")
    ]
    assert snapshot.read("docs/../../x") is None


def test_changes_of_files_whose_names_git_quotes(tmp_path: Path) -> None:
    path = init(tmp_path / "quoted")
    names = ['q"uote.py', "t\tab.py", "ü space.py"]
    commit(path, dict.fromkeys(names, "a\n"))
    base = git(path, "rev-parse", "HEAD")
    head = commit(path, dict.fromkeys(names, "a\nb\n"))
    changes = GitRepo(str(path)).changes(base, head)
    assert sorted((c.path, c.added) for c in changes) == sorted((n, (2,)) for n in names)


def test_changes_keep_lone_carriage_returns_inside_lines(tmp_path: Path) -> None:
    path = init(tmp_path / "cr")
    old = b"one\r\ntwo\rstill two\n%\xe2\xe3\xcf\xd3\nfour\n"
    commit(path, {"f.txt": old})
    base = git(path, "rev-parse", "HEAD")
    head = commit(path, {"f.txt": old.replace(b"four", b"FOUR")})
    (change,) = GitRepo(str(path)).changes(base, head)
    assert (change.added, change.removed) == ((4,), (4,))


def test_symlinks_added_or_removed_are_no_change_of_code(tmp_path: Path) -> None:
    path = init(tmp_path / "links")
    base = commit(path, {"a.cu": "x\n"})
    (path / "link.cu").symlink_to("a.cu")
    head = commit(path, {})
    assert GitRepo(str(path)).changes(base, head) == []
    (path / "link.cu").unlink()
    assert GitRepo(str(path)).changes(head, commit(path, {})) == []


def test_directory_changes_count_a_file_turned_symlink_as_removed(tmp_path: Path) -> None:
    before, after = tmp_path / "before", tmp_path / "after"
    before.mkdir()
    after.mkdir()
    (before / "k.cu").write_text("__global__ void k() {}\n")
    (after / "k.cu").symlink_to("../elsewhere.cu")
    [change] = directory_changes(str(before), str(after), DEFAULT_FILTER)
    assert (change.path, change.status) == ("k.cu", "removed")


def test_changes_list_files_whose_objects_are_absent_without_lines(repo: Path) -> None:
    # The old version of keep.txt and old_name.txt (the same blob) is gone: git's diff of
    # them stops, so they are listed without lines, and the rename's other side is added.
    drop_object(repo, "base:keep.txt")
    git_repo = GitRepo(str(repo))
    changes = {
        c.path: c for c in git_repo.changes(git_repo.resolve("base"), git_repo.resolve("main"))
    }
    assert {path: c.status for path, c in changes.items()} == {
        "keep.txt": "modified",
        "old_name.txt": "removed",
        "new_name.txt": "added",
        "gone.txt": "removed",
        "img.bin": "modified",
        "added.txt": "added",
    }
    assert (changes["keep.txt"].added, changes["keep.txt"].removed) == ((), ())
    # The rename's added side and the removal carry no lines: all of each changed.
    assert (changes["new_name.txt"].added, changes["gone.txt"].removed) == ((), ())
    assert dict(git_repo.read_blobs([changes["keep.txt"].old_blob or ""])) == {
        changes["keep.txt"].old_blob: None
    }


def test_a_diff_that_fails_for_another_reason_still_fails(repo: Path) -> None:
    git_repo = GitRepo(str(repo))
    with pytest.raises(SourceError, match="git diff failed"):
        git_repo.changes(git_repo.resolve("base"), "no-such-revision")


def test_the_empty_tree_is_the_base_of_a_root_commit(tmp_path: Path) -> None:
    path = init(tmp_path / "repo")
    root = commit(path, {"a.txt": "a\nb\n", "sub/b.txt": "c\n"}, "First\n\nTrailer: x\n")
    git_repo = GitRepo(str(path))
    with pytest.raises(SourceError, match="revision not found"):
        git_repo.resolve(EMPTY_TREE)
    base = git_repo.resolve(EMPTY_TREE, empty_tree=True)
    assert base == EMPTY_TREE
    assert git_repo.merge_base(base, root) is None
    assert git_repo.messages(base, root) == ["First\n\nTrailer: x\n"]
    changes = git_repo.changes(base, root)
    # Added files carry no line numbers: all their lines changed (engine_runner.delta_of).
    assert [(c.status, c.path, c.added) for c in changes] == [
        ("added", "a.txt", ()),
        ("added", "sub/b.txt", ()),
    ]


def test_the_parent_of_a_root_commit_names_the_empty_tree(tmp_path: Path) -> None:
    path = init(tmp_path / "repo")
    commit(path, {"a.txt": "a\n"})
    git_repo = GitRepo(str(path))
    for revision in ("main^", "main~", "main~1"):
        with pytest.raises(SourceError) as raised:
            git_repo.resolve(revision)
        assert str(raised.value) == (
            f"revision not found: {revision} (main is a root commit: diff it from git's "
            f"empty tree, {EMPTY_TREE})"
        )
    commit(path, {"a.txt": "b\n"})
    with pytest.raises(SourceError, match=r"^revision not found: main~2$"):
        git_repo.resolve("main~2")
    shallow = tmp_path / "shallow.git"
    git(tmp_path, "clone", "-q", "--bare", "--depth=1", path.as_uri(), str(shallow))
    with pytest.raises(SourceError) as raised:
        GitRepo(str(shallow)).resolve("main^")
    assert str(raised.value) == (
        "revision not found: main^ (a shallow clone: fetch the parent of main, "
        "e.g. git fetch --deepen=1)"
    )
    for revision in ("nothing^", "main^2"):
        with pytest.raises(SourceError) as raised:
            git_repo.resolve(revision)
        assert str(raised.value) == f"revision not found: {revision}"
