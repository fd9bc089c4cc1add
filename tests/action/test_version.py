"""The version the Action runs under: a release tag names it; a moving major tag (`v1`) or a
commit is resolved to the release tag on the same commit, from the action repository's tags
(here a local repository standing for github.com)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.action.runner import run_action
from tests.action.test_action import OWN_PYTHON, Upstream, pull_request_event
from tests.cli.gitrepo import commit, git, init


@pytest.fixture
def server(tmp_path: Path) -> Path:
    """A git server with lockin-dev/lockin: v1.1.0, then v1.2.0 and the moving v1 (annotated)
    on the same commit, then a commit no release names."""
    root = tmp_path / "server"
    repo = init(root / "lockin-dev" / "lockin")
    commit(repo, {"a": "1\n"}, "first")
    git(repo, "tag", "v1.1.0")
    commit(repo, {"a": "2\n"}, "second")
    git(repo, "tag", "v1.2.0")
    git(repo, "tag", "-a", "v1", "-m", "moving major tag")
    commit(repo, {"a": "3\n"}, "unreleased")
    return root


def _version(tmp_path: Path, server: Path, ref: str) -> str:
    upstream = Upstream(tmp_path / "upstream")
    run = run_action(
        workspace=upstream.clone(),
        temp=upstream.tmp,
        event_name="pull_request",
        event_path=pull_request_event(upstream.tmp, upstream.base, upstream.base),
        environ={**OWN_PYTHON, "GITHUB_SERVER_URL": server.as_uri()},
        action_ref=ref,
    )
    assert run.code == 0, run.stderr
    return run.steps["prepare"]["version"]


def test_a_moving_major_tag_runs_as_the_release_on_its_commit(tmp_path: Path, server: Path) -> None:
    assert _version(tmp_path, server, "v1") == "1.2.0"


def test_a_release_tag_and_a_commit_of_a_release(tmp_path: Path, server: Path) -> None:
    assert _version(tmp_path / "a", server, "v1.1.0") == "1.1.0"
    repo = server / "lockin-dev" / "lockin"
    first = git(repo, "rev-list", "--max-parents=0", "HEAD")
    assert _version(tmp_path / "b", server, first) == "1.1.0"


def test_an_unreleased_ref_has_no_version_to_claim(tmp_path: Path, server: Path) -> None:
    assert _version(tmp_path / "a", server, "main") == ""
    tip = git(server / "lockin-dev" / "lockin", "rev-parse", "HEAD")
    assert _version(tmp_path / "b", server, tip) == ""
