"""`lockin scan --rev` and `lockin history` on real temporary git repositories: figures
equal to a scan of each revision, what moved them, the plot, and bad input."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from bot.engine.paths import PathFilter
from bot.engine.trend import History
from bot.render import text
from bot.render.json_out import load_schema
from bot.sources.git import GitRepo
from bot.sources.history import Counting, HistoryWindow, walk_history
from tests.cli.gitrepo import IDENTITY, commit, git, init, write
from tests.cli.test_cli import KERNEL, assert_one_line_error, run
from tests.engine.test_shims import repo as shim_files

DAY = 86400
TRITON = """import triton
import triton.language as tl


@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.load(x + i) + tl.load(y + i), mask=i < n)
"""
PYTHON = "def f(x):\n    return x + 1\n"
FIGURES = ("files", "code_lines", "layers", "ecosystems", "non_portable_lines")
FIGURES += ("nvidia_locked_lines", "nvidia_share")


def at_day(day: int) -> dict[str, str]:
    """An environment dating commits ``day`` days after 2024-01-01 (UTC)."""
    stamp = f"@{1704067200 + day * DAY} +0000"
    return {**os.environ, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}


def dated(repo: Path, files: dict[str, str | bytes | None], message: str, day: int) -> str:
    write(repo, files)
    git(repo, "add", "-A")
    command = ["git", *IDENTITY, "commit", "-q", "--allow-empty", "-m", message]
    subprocess.run(command, cwd=repo, check=True, env=at_day(day))
    return git(repo, "rev-parse", "HEAD")


def merge(repo: Path, branch: str, message: str, day: int, *options: str) -> None:
    command = ["git", *IDENTITY, "merge", "-q", "--no-ff", *options, "-m", message, branch]
    subprocess.run(command, cwd=repo, check=True, env=at_day(day))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """Five commits over five weeks: Python, a CUDA kernel (PR 12), a merged Triton
    kernel (PR 34), the shim layout (PR 56), and the kernel's removal."""
    repo = init(tmp_path / "project")
    dated(repo, {"app.py": PYTHON}, "Start", 0)
    dated(repo, {"csrc/scale.cu": KERNEL}, "Add a CUDA kernel (#12)", 7)
    git(repo, "checkout", "-q", "-b", "triton")
    dated(repo, {"kernels/add.py": TRITON}, "Triton add", 8)
    git(repo, "checkout", "-q", "main")
    merge(repo, "triton", "Merge pull request #34 from someone/triton", 14)
    dated(repo, shim_files(), "Build the CUDA code for AMD too (#56)", 21)
    dated(repo, {"csrc/scale.cu": None}, "Drop the old kernel", 28)
    return repo


def history(*argv: str) -> dict:
    code, out, err = run("history", *argv, "--format", "json")
    assert code == 0, err
    document = json.loads(out)
    Draft202012Validator(load_schema("history")).validate(document)
    return document


def scan_rev(repo: Path, rev: str) -> dict:
    code, out, err = run("scan", "--rev", rev, "--format", "json", str(repo))
    assert code == 0, err
    return json.loads(out)


def assert_same_figures(point: dict, scan: dict) -> None:
    assert {k: point[k] for k in FIGURES} == scan["totals"]
    assert point["matrix"] == scan["matrix"]


# -- scan --rev ----------------------------------------------------------------


def test_scan_rev_equals_a_scan_of_the_checkout(project: Path, tmp_path: Path) -> None:
    first_kernel = git(project, "rev-list", "--first-parent", "-n1", "HEAD~2")
    checkout = tmp_path / "checkout"
    git(project, "worktree", "add", "-q", "--detach", str(checkout), first_kernel)
    code, out, err = run("scan", "--format", "json", str(checkout))
    assert code == 0, err
    at_checkout = json.loads(out)
    at_rev = scan_rev(project, first_kernel)
    assert at_rev["totals"] == at_checkout["totals"]
    assert at_rev["matrix"] == at_checkout["matrix"]
    assert at_rev["files"] == at_checkout["files"]
    assert at_rev["totals"]["layers"]["kernel"] > 0


def test_scan_of_a_bare_repository_counts_head(project: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(project), str(bare))
    code, out, err = run("scan", "--format", "json", str(bare))
    assert code == 0, err
    assert json.loads(out)["totals"] == scan_rev(project, "HEAD")["totals"]
    code, out, _ = run("scan", str(bare))
    assert "@HEAD" in out.splitlines()[0]


def test_scan_of_a_folder_inside_dot_git_counts_head(project: Path) -> None:
    # Git is asked only where a folder above holds a HEAD file: .git's, here, also when
    # the scanned path is a symbolic link into it.
    (project.parent / "refs-link").symlink_to(project / ".git" / "refs")
    for inside in (
        project / ".git",
        project / ".git" / "refs" / "heads",
        project.parent / "refs-link",
    ):
        code, out, err = run("scan", "--format", "json", str(inside))
        assert code == 0, err
        assert json.loads(out)["totals"] == scan_rev(project, "HEAD")["totals"]


def test_scan_rev_of_a_missing_revision_is_one_line(project: Path) -> None:
    code, _, err = run("scan", "--rev", "no-such-branch", str(project))
    assert code == 2
    assert_one_line_error(err, "revision not found: no-such-branch")


# -- history -------------------------------------------------------------------


def test_every_point_equals_scan_rev_of_its_commit(project: Path) -> None:
    document = history(str(project), "--every", "1-commits")
    points = document["points"]
    assert len(points) == 5  # the first-parent chain: the Triton branch commit is not a point
    for point in points:
        assert_same_figures(point, scan_rev(project, point["commit"]))
    # The shim pass is part of the figures: the kernel reaching the shim is not NVIDIA-only.
    shim_point = points[3]
    assert shim_point["nvidia_locked_lines"] < shim_point["layers"]["kernel"]


def test_weekly_points_and_what_moved_them(project: Path) -> None:
    document = history(str(project), "--every", "week")
    points = document["points"]
    assert [p["date"][:10] for p in points] == [
        "2024-01-01",
        "2024-01-08",
        "2024-01-15",
        "2024-01-22",
        "2024-01-29",
    ]
    assert points[1]["moved_by"][0]["pr"] == 12
    assert points[2]["moved_by"][0]["pr"] == 34  # the merge, diffed against its first parent
    prs = {m["pr"] for m in document["movers"]}
    assert {12, 34} <= prs
    removal = next(m for m in document["movers"] if m["subject"] == "Drop the old kernel")
    assert removal["removed"] > 0
    assert removal["added"] == 0
    entered = {e["ecosystem"]: e for e in document["entered"]}
    assert entered["cuda"]["pr"] == 12
    assert entered["triton"]["pr"] == 34
    assert not any(e["at_start"] for e in entered.values())  # the window starts at the root
    growth = document["growth_per_month"]
    assert growth["code_lines"] > 0


def test_window_and_last_points(project: Path) -> None:
    document = history(
        str(project), "--since", "2024-01-08", "--until", "2024-01-22", "--every", "week"
    )
    dates = [p["date"][:10] for p in document["points"]]
    assert dates == ["2024-01-08", "2024-01-15", "2024-01-22"]
    entered = {e["ecosystem"]: e for e in document["entered"]}
    assert entered["cuda"]["at_start"]
    last_two = history(str(project), "--every", "week", "--points", "2")
    assert [p["date"][:10] for p in last_two["points"]] == ["2024-01-22", "2024-01-29"]
    assert_same_figures(last_two["points"][0], scan_rev(project, last_two["points"][0]["commit"]))


def test_text_csv_and_markdown_show_the_same_points(project: Path) -> None:
    code, out, _ = run("history", str(project), "--every", "week")
    assert code == 0
    assert "5 points, every week" in out
    assert "#12" in out
    assert "Ecosystems entered" in out
    code, out, _ = run("history", str(project), "--every", "week", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    document = history(str(project), "--every", "week")
    assert [r["commit"] for r in rows] == [p["commit"] for p in document["points"]]
    assert [int(r["kernel"]) for r in rows] == [p["layers"]["kernel"] for p in document["points"]]
    assert rows[2]["ecosystem:triton"] != "0"
    code, out, _ = run("history", str(project), "--every", "week", "--format", "markdown")
    points_table = next(b for b in out.split("\n\n") if b.startswith("| date | commit | code"))
    assert len(points_table.splitlines()) == 2 + 5


def test_history_of_a_bare_clone_matches(project: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    git(tmp_path, "clone", "-q", "--bare", str(project), str(bare))
    assert (
        history(str(bare), "--every", "week")["points"]
        == history(str(project), "--every", "week")["points"]
    )


def test_unrelated_roots_follow_the_first_parent(project: Path) -> None:
    git(project, "checkout", "-q", "--orphan", "other")
    git(project, "rm", "-q", "-r", "-f", ".")
    dated(project, {"gpu/other.cu": KERNEL, "README": "x\n"}, "Another root", 30)
    git(project, "checkout", "-q", "main")
    merge(project, "other", "Join (#78)", 31, "--allow-unrelated-histories")
    document = history(str(project), "--every", "1-commits")
    assert len(document["points"]) == 6  # the other root's commit is not on the chain
    assert document["points"][0]["date"].startswith("2024-01-01")
    last = document["points"][-1]
    assert_same_figures(last, scan_rev(project, "HEAD"))
    assert last["moved_by"][0]["pr"] == 78


def test_shallow_clone_marks_where_history_stops(project: Path, tmp_path: Path) -> None:
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "2", f"file://{project}", str(shallow))
    code, out, err = run("history", str(shallow), "--every", "1-commits", "--format", "json")
    assert code == 0
    document = json.loads(out)
    boundary = git(shallow, "rev-parse", "HEAD~1")
    assert document["shallow_boundary"] == boundary
    assert document["points"][0]["commit"] == boundary
    assert err == f"lockin: warning: shallow clone: history stops at {boundary[:12]}\n"
    assert_same_figures(document["points"][-1], scan_rev(project, "HEAD"))


def test_a_tree_above_the_limit_is_a_gap_not_a_figure(project: Path) -> None:
    document = history(str(project), "--every", "1-commits", "--max-files", "2")
    gaps = [p["gap"] for p in document["points"]]
    assert gaps == [None, None, "tree-too-large", "tree-too-large", "tree-too-large"]
    assert "code_lines" not in document["points"][2]
    code, out, _ = run("history", str(project), "--every", "1-commits", "--max-files", "2")
    assert "gap: tree-too-large" in out
    code, _, err = run("history", str(project), "--max-files", "1", "--since", "2024-01-15")
    assert code == 2
    assert_one_line_error(err, "above the limit of 1")


def test_bad_input_is_one_line(project: Path, tmp_path: Path) -> None:
    for argv, message in [
        (["history", str(project), "--rev", "nope"], "revision not found: nope"),
        (["history", str(tmp_path)], f"not a git repository: {tmp_path}"),
        (["history", str(tmp_path / "missing")], "no such repository"),
        (["history", str(project), "--every", "fortnight"], "--every must be"),
        (["history", str(project), "--since", "yesterday"], "not a date"),
        (["history", str(project), "--plot", "out.pdf"], "--plot must name a .svg or .png"),
        (["history", str(project), "--since", "2030-01-01"], "no commits of HEAD"),
    ]:
        code, out, err = run(*argv)
        assert code == 2, argv
        assert out == ""
        assert_one_line_error(err, message)


def test_the_plot_is_written_as_svg_and_png(project: Path, tmp_path: Path) -> None:
    svg, png = tmp_path / "lockin.svg", tmp_path / "lockin.png"
    code, _, err = run("history", str(project), "--every", "week", "--plot", str(svg))
    assert code == 0, err
    root = ET.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    drawn = svg.read_text()  # matplotlib keeps each text as a comment beside its glyphs
    # The headline on the one axis of lines, the share on its own panel.
    assert "NVIDIA-only lines" in drawn
    assert "<!-- code lines -->" in drawn
    assert "share (%)" in drawn
    assert "#12" in drawn  # a marked jump names its pull request, with its title
    assert "Add a CUDA kernel (#12)" in drawn
    assert re.search(r"<!-- 20\d\d-\d\d-\d\d -->", drawn)  # full dates on the axis
    code, _, err = run(
        "history", str(project), "--every", "week", "--plot", str(png), "--by", "ecosystem"
    )
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 10_000


def test_the_plot_without_matplotlib_is_one_line(project: Path, tmp_path: Path) -> None:
    # matplotlib made unimportable in a fresh interpreter, as where the extra is not installed.
    program = (
        "import sys; sys.modules['matplotlib'] = None; from bot.cli import main; "
        f"sys.exit(main(['history', {str(project)!r}, '--plot', {str(tmp_path / 'p.svg')!r}]))"
    )
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert_one_line_error(proc.stderr, "--plot needs matplotlib: pip install 'lockin-gpu[plot]'")
    assert not (tmp_path / "p.svg").exists()


def walk(repo: Path, every: str) -> History:
    git_repo = GitRepo(str(repo))
    window = HistoryWindow(every=every)
    return walk_history(
        git_repo, git_repo.resolve("HEAD"), window, Counting(PathFilter.build([], []))
    )


def test_a_blob_is_classified_once(tmp_path: Path) -> None:
    repo = init(tmp_path / "flip")
    commit(repo, {"a.cu": KERNEL})
    commit(repo, {"a.cu": KERNEL + "// changed\n"})
    commit(repo, {"a.cu": KERNEL})  # back to the first blob
    commit(repo, {"a.cu": KERNEL + "// changed\n"})
    walked = walk(repo, "1-commits")
    assert walked.commits == 4
    assert walked.classified == 2
    assert len(walked.points) == 4


def test_churn_between_points_that_moves_nothing_is_not_classified(tmp_path: Path) -> None:
    repo = init(tmp_path / "churn")
    dated(repo, {"a.cu": KERNEL, "app.py": PYTHON}, "Start", 0)
    for version in range(1, 5):  # portable edits within one week
        dated(repo, {"app.py": PYTHON + f"y = {version}\n"}, f"Edit {version}", 7 + version)
    dated(repo, {"a.cu": KERNEL + KERNEL.replace("scale", "twice")}, "More kernels (#9)", 12)
    walked = walk(repo, "week")
    assert len(walked.points) == 2
    # Two files at the start, then only the last version of each file at the next point.
    assert walked.classified == 4
    [move] = walked.movers
    assert move["pr"] == 9
    assert (
        move["added"]
        == walked.points[1]["non_portable_lines"] - walked.points[0]["non_portable_lines"]
    )


def test_progress_counts_commits() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    progress = text.ProgressLine(stream, "walking", after=0, unit="commits")
    progress(3, 4)
    assert "walking 3/4 commits (75.0%)" in stream.getvalue()


def test_history_and_scan_of_a_subdirectory_count_only_it(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    commit(repo, {"ops/a/k.cu": KERNEL, "ops/b.cu": KERNEL, "k[1].cu": KERNEL}, "three kernels")
    commit(repo, {"ops/a/k2.cu": KERNEL, "other/k.cu": KERNEL}, "two more")
    whole = history(str(repo), "--every", "1-commits")
    sub = history(str(repo / "ops" / "a"), "--every", "1-commits")
    per_file = whole["points"][0]["code_lines"] // 3
    assert [p["code_lines"] for p in whole["points"]] == [3 * per_file, 5 * per_file]
    assert [p["code_lines"] for p in sub["points"]] == [per_file, 2 * per_file]
    # The same figure as scanning the subdirectory's checkout, and as --rev of it.
    _, out, _ = run("scan", str(repo / "ops" / "a"), "--format", "json")
    assert json.loads(out)["totals"]["code_lines"] == 2 * per_file
    _, out, _ = run("scan", str(repo / "ops"), "--rev", "HEAD~1", "--format", "json")
    assert json.loads(out)["totals"]["code_lines"] == 2 * per_file


def test_a_renamed_kernel_moves_nothing_and_growth_is_in_whole_lines(tmp_path: Path) -> None:
    repo = init(tmp_path / "repo")
    dates = iter(["2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01"])

    def dated(files: dict[str, str | None], message: str) -> None:
        write(repo, files)
        git(repo, "add", "-A")
        day = f"{next(dates)}T12:00:00+00:00"
        subprocess.run(
            ["git", *IDENTITY, "commit", "-q", "-m", message],
            cwd=repo,
            check=True,
            env={**os.environ, "GIT_AUTHOR_DATE": day, "GIT_COMMITTER_DATE": day},
        )

    dated({"ops/k.cu": KERNEL * 3, "model.py": "import torch\n"}, "Add kernels (#1)")
    dated({"ops/k.cu": None, "csrc/kernels/k.cu": KERNEL * 3}, "Move the kernels (#2)")
    dated({"csrc/kernels/small.cu": KERNEL}, "A small kernel (#3)")
    dated({"README.md": "docs\n"}, "Docs (#4)")
    document = history(str(repo), "--every", "1-commits")
    prs = [m["pr"] for m in document["movers"]]
    # #1 is the first point (where counting starts); the move of #2 added and removed the
    # same lines; #4 touched no GPU code.
    assert prs == [3]
    assert all(m["pr"] != 2 for p in document["points"] for m in p["moved_by"])
    growth = document["growth_per_month"]
    assert all(isinstance(v, int) for v in growth.values()), growth
    _, out, _ = run("history", str(repo), "--every", "1-commits")
    (line,) = [x for x in out.splitlines() if x.startswith("Growth per month:")]
    assert "." not in line.split(":", 1)[1].replace(",", "")
