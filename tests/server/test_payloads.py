"""The typed repository, pull request, push and merge group (bot/github/payloads.py), built
from GitHub's own example payloads (tests/contract) and from variants of them that the
payload schema accepts: the nullable and missing fields GitHub documents."""

from __future__ import annotations

import functools
import json
from typing import Any

import jsonschema
import pytest

from bot.features.installation import FIRST_COUNT_EVENT, FirstCount
from bot.github.payloads import MergeGroup, PullRequest, Push, Repository, moved_from
from bot.github.refs import PullRef, RepoRef
from tests.support.webhooks import EXAMPLES, PAYLOAD_SCHEMA, load_example

ZEROS = "0" * 40


@functools.cache
def _definitions() -> dict[str, Any]:
    definitions: dict[str, Any] = json.loads(PAYLOAD_SCHEMA.read_text())["definitions"]
    return definitions


def assert_valid(kind: str, payload: dict[str, Any]) -> None:
    """The variant is a payload GitHub may send: the schema of ``kind`` accepts it."""
    schema = {"$ref": f"#/definitions/{kind}", "definitions": _definitions()}
    jsonschema.Draft7Validator(schema).validate(payload)


def _examples(*prefixes: str) -> list[str]:
    names = sorted(p.stem for p in EXAMPLES.glob("*.json"))
    return [name for name in names if name.startswith(prefixes)]


@pytest.mark.parametrize("name", _examples("pull_request.", "pull_request_review."))
def test_every_pull_request_example_reads(name: str) -> None:
    data = load_example(name)["pull_request"]
    pr = PullRequest.from_payload(data)
    assert pr.pull == PullRef(RepoRef.parse(data["base"]["repo"]["full_name"]), data["number"])
    assert pr.head_sha == data["head"]["sha"]
    assert pr.base_sha == data["base"]["sha"]
    assert pr.base.default_branch == data["base"]["repo"]["default_branch"]
    assert pr.is_open == (data["state"] == "open")
    assert pr.body == (data["body"] or "")
    assert pr.author == data["user"]["login"]
    assert pr.changed_files == data.get("changed_files", 0)


def test_a_fork_pull_request_whose_fork_is_gone() -> None:
    payload = load_example("pull_request.opened.2")
    payload["pull_request"]["head"]["repo"] = None
    payload["pull_request"]["body"] = None
    assert_valid("pull_request$opened", payload)

    pr = PullRequest.from_payload(payload["pull_request"])
    assert pr.head_repo is None
    assert pr.from_fork
    assert pr.body == ""
    assert pr.pull.repo == RepoRef("Codertocat", "Hello-World")  # the base's, not the head's


def test_a_fork_pull_request() -> None:
    payload = load_example("pull_request.opened.2")
    head = payload["pull_request"]["head"]["repo"]
    head["full_name"], head["name"] = "someone/Hello-World", "Hello-World"
    assert_valid("pull_request$opened", payload)

    pr = PullRequest.from_payload(payload["pull_request"])
    assert pr.head_repo == RepoRef("someone", "Hello-World")
    assert pr.from_fork
    assert not PullRequest.from_payload(
        load_example("pull_request.opened.2")["pull_request"]
    ).from_fork


def test_a_pull_request_without_counts_or_author() -> None:
    """The counts are missing from the short pull request objects; a deleted author's
    ``user`` is null in REST answers."""
    data = load_example("pull_request.synchronize.1")["pull_request"]
    del data["changed_files"], data["commits"]
    data["user"] = None
    pr = PullRequest.from_payload(data)
    assert (pr.changed_files, pr.commits, pr.author) == (0, 0, "")


def test_a_pull_request_without_a_head_sha_is_refused() -> None:
    data = load_example("pull_request.opened.2")["pull_request"]
    del data["head"]["sha"]
    with pytest.raises(KeyError):
        PullRequest.from_payload(data)


def test_a_push_to_the_default_branch() -> None:
    payload = load_example("push.event.5")  # creates master
    push = Push.from_payload(payload)
    assert push.repository.ref == RepoRef("Codertocat", "Hello-World")
    assert push.before is None  # all zeros: the branch did not exist
    assert push.after == payload["after"]
    assert push.default_branch_head == payload["after"]
    assert push.head_commit == payload["after"]
    assert push.head_commit_time == "2019-05-15T15:19:25Z"
    assert not push.forced
    assert not push.deleted


def test_a_push_that_deletes_the_default_branch() -> None:
    payload = load_example("push.event.5")
    payload.update(
        before=payload["after"], after=ZEROS, created=False, deleted=True, head_commit=None
    )
    payload["commits"] = []
    assert_valid("push$event", payload)

    push = Push.from_payload(payload)
    assert push.deleted
    assert push.after is None
    assert push.default_branch_head is None  # nothing to count
    assert push.head_commit is None
    assert push.head_commit_time is None


@pytest.mark.parametrize("name", _examples("push."))
def test_every_push_example_reads(name: str) -> None:
    payload = load_example(name)
    push = Push.from_payload(payload)
    assert push.deleted == payload["deleted"]
    if payload["ref"].startswith("refs/tags/"):
        assert push.default_branch_head is None  # a tag never moves the default branch


def test_a_forced_push_keeps_the_old_head() -> None:
    payload = load_example("push.event.6")
    old = "a" * 40
    payload.update(before=old, forced=True, created=False)
    assert_valid("push$event", payload)
    push = Push.from_payload(payload)
    assert push.forced
    assert push.before == old


def test_a_renamed_repository_names_its_old_name() -> None:
    payload = load_example("repository.renamed.1")
    repository = Repository.from_payload(payload["repository"])
    assert repository.ref == RepoRef("Octocoders", "Hello-World")
    assert moved_from(repository, payload["changes"]) == RepoRef("Octocoders", "Hello-World")

    payload["changes"]["repository"]["name"]["from"] = "Old-Name"
    assert_valid("repository$renamed", payload)
    assert moved_from(repository, payload["changes"]) == RepoRef("Octocoders", "Old-Name")


@pytest.mark.parametrize("name", _examples("repository.transferred."))
def test_a_transferred_repository_names_its_old_owner(name: str) -> None:
    payload = load_example(name)
    repository = Repository.from_payload(payload["repository"])
    previous = payload["changes"]["owner"]["from"]
    login = (previous.get("user") or previous.get("organization"))["login"]
    assert moved_from(repository, payload["changes"]) == RepoRef(login, repository.ref.name)


def test_an_organization_transfer() -> None:
    """GitHub's webhook documentation names an organization as a previous owner as well
    as a user; the schema of this version lists the user only, so this is not validated."""
    payload = load_example("repository.transferred.1")
    org = load_example("merge_group.checks_requested.1")["organization"]
    payload["changes"]["owner"]["from"] = {"organization": org}
    repository = Repository.from_payload(payload["repository"])
    assert moved_from(repository, payload["changes"]).owner == org["login"]


def test_a_repository_event_without_changes_names_the_repository_itself() -> None:
    repository = Repository.from_payload(load_example("repository.privatized.1")["repository"])
    assert moved_from(repository, None) == repository.ref
    assert repository.private
    assert not repository.public


def test_the_short_repositories_of_an_installation_event() -> None:
    payload = load_example("installation_repositories.added.1")
    (repository,) = map(Repository.from_payload, payload["repositories_added"])
    assert repository.ref == RepoRef("Codertocat", "Space")
    assert repository.public
    assert repository.default_branch is None  # not in the short form
    assert repository.html_url == "https://github.com/Codertocat/Space"
    assert repository.size_kb == 0
    with pytest.raises(KeyError, match="no default branch"):
        repository.branch()


def test_a_repository_whose_visibility_is_not_said_counts_as_private() -> None:
    assert Repository.from_payload({"full_name": "acme/x"}).private
    assert not Repository.from_payload({"full_name": "acme/x", "private": False}).private


def test_a_repository_with_a_malformed_name_is_refused() -> None:
    with pytest.raises(ValueError, match="owner/name"):
        Repository.from_payload({"full_name": "no-slash"})


def test_a_merge_group() -> None:
    data = load_example("merge_group.checks_requested.1")["merge_group"]
    group = MergeGroup.from_payload(data)
    assert group.head_sha == data["head_sha"]
    assert group.base_sha == data["base_sha"]
    assert group.head_ref.endswith("/pr-2-ec26c3e57ca3a959ca5aad62de7213c562f8c821")


def test_a_first_count_job_carries_what_its_handler_reads() -> None:
    count = FirstCount(42, RepoRef("acme", "fresh"), public=False)
    job = count.job("lockin-first-count:acme/fresh:1")
    assert job.event == FIRST_COUNT_EVENT
    assert job.payload["installation"]["id"] == 42  # what dispatch reads
    assert FirstCount.from_payload(json.loads(json.dumps(job.payload))) == count
