"""A run left in progress by a killed embedded server (`lockin serve` without Redis) is
found and finished by the server that replaces it; likewise a killed worker's with Redis.
Real processes against the fake GitHub."""

from __future__ import annotations

import uuid

import pytest

from bot.review.check_writer import ERROR_TITLE
from tests.fakegithub.state import CheckRun
from tests.scale.cluster import Cluster, Process, Web, pr_payload, until
from tests.scale.test_scale_out import checked, open_kernel_pr, repo_with_kernel_pr
from tests.support.webhooks import merge_group_event


@pytest.mark.timeout(240)
async def test_a_run_a_killed_server_left_in_progress_is_finished_by_the_next(
    cluster: Cluster,
) -> None:
    fake = cluster.fake
    cluster.settings |= {"REDIS_URL": "", "REQUEST_TIMEOUT": "120"}  # the embedded mode
    doomed = await cluster.start_web()
    repo, pr = repo_with_kernel_pr(fake)
    # Its GitHub requests wait as long as GitHub makes them wait: the kill lands mid-check.
    fake.timeout_delay = 120
    fake.fail("GET", rf"/pulls/{pr.number}/files", kind="timeout", times=1)

    status, _ = await cluster.deliver(
        doomed, "pull_request", pr_payload(fake, repo, pr, "opened"), str(uuid.uuid4())
    )
    assert status == 202
    await until(
        lambda: fake.requests_to("GET", rf"/pulls/{pr.number}/files"), "the check listing files"
    )
    [left] = repo.check_runs.values()
    assert left.status == "in_progress"
    await doomed.kill()

    cluster.settings["REQUEST_TIMEOUT"] = "5"
    successor = await cluster.start_web()
    # Any delivery from the installation: here another pull request opened.
    other = open_kernel_pr(repo, 2)
    status, _ = await cluster.deliver(
        successor, "pull_request", pr_payload(fake, repo, other, "opened"), str(uuid.uuid4())
    )
    assert status == 202

    await until(lambda: left.status == "completed", "the left run completed", within=120)
    assert successor.logged(f"check run {left.id} on {repo.full_name}#{pr.number} was left")
    runs = [r for r in repo.check_runs.values() if r.head_sha == pr.head_sha]
    assert [r.id for r in runs] == [left.id]  # finished, not replaced
    assert (left.conclusion, left.output["title"] != ERROR_TITLE) == ("failure", True)
    assert fake.contract_errors == []


async def _two_merge_groups_left_in_progress(
    cluster: Cluster, web: Web, doomed: Web | Process
) -> tuple[CheckRun, CheckRun]:
    """Two merge groups delivered to ``web``, whose checks hang reading their change until
    ``doomed`` is killed; then the queue drops the second group (its branch deleted). The
    runs of the kept group and of the gone one."""
    fake = cluster.fake
    repo = fake.add_repo("octo/ml", files={"README.md": "# ml\n"})
    base = repo.head()
    groups = {}  # queue branch: (head, payload)
    for pr in [open_kernel_pr(repo, 1), open_kernel_pr(repo, 2)]:
        branch = f"gh-readonly-queue/{repo.default_branch}/pr-{pr.number}-{pr.head_sha}"
        head = repo.commit(repo.tree(pr.head_sha), branch=branch, message=f"{pr.title} (#1)")
        groups[branch] = head, merge_group_event(fake, repo, head, base, [pr])
    # Each check hangs reading its change, as long as GitHub makes it wait: killed mid-check.
    fake.timeout_delay = 120
    fake.fail("GET", r"/compare/", kind="timeout", times=len(groups))
    for _, payload in groups.values():
        status, _ = await cluster.deliver(web, "merge_group", payload)
        assert status == 202
    # Each run is recorded as open before the check reads the change.
    await until(
        lambda: len(fake.requests_to("GET", r"/compare/")) == 2, "each check reading its change"
    )
    assert [r.status for r in repo.check_runs.values()] == ["in_progress"] * 2
    await doomed.kill()
    (kept_head, _), (gone_head, _) = groups.values()
    del repo.branches[next(iter(reversed(groups)))]  # dequeued: GitHub deletes its branch
    [kept_run] = [r for r in repo.check_runs.values() if r.head_sha == kept_head]
    [gone_run] = [r for r in repo.check_runs.values() if r.head_sha == gone_head]
    return kept_run, gone_run


async def _checked_again_or_cancelled(
    cluster: Cluster, kept_run: CheckRun, gone_run: CheckRun
) -> None:
    fake = cluster.fake
    await until(
        lambda: kept_run.status == gone_run.status == "completed", "both runs completed", within=120
    )
    runs = fake.repos["octo/ml"].check_runs.values()
    assert [r.id for r in runs if r.head_sha == kept_run.head_sha] == [kept_run.id]
    assert (kept_run.conclusion, kept_run.output["title"] != ERROR_TITLE) == ("failure", True)
    assert gone_run.conclusion == "cancelled"
    assert gone_run.output["title"] == "Not checked: the merge group is gone"
    assert [r.id for r in runs if r.head_sha == gone_run.head_sha] == [gone_run.id]
    assert fake.contract_errors == []


@pytest.mark.timeout(300)
async def test_merge_group_runs_a_killed_server_left_are_finished_by_the_next(
    cluster: Cluster,
) -> None:
    """The embedded mode keeps its runs in progress in the trend store (a SQLite file in the
    working directory by default): the server replacing a killed one finishes a merge
    group's run, which no pull request lists, without any delivery."""
    cluster.settings |= {
        "REDIS_URL": "",
        "STALE_RUN_SWEEP_INTERVAL": "1",
        "REQUEST_TIMEOUT": "120",
    }
    doomed = await cluster.start_web()
    kept_run, gone_run = await _two_merge_groups_left_in_progress(cluster, doomed, doomed)

    cluster.settings["REQUEST_TIMEOUT"] = "5"
    successor = await cluster.start_web()
    for run in (kept_run, gone_run):
        await until(
            lambda run=run: successor.logged(f"sweep: check run {run.id} on octo/ml@"),
            f"the sweep finding run {run.id}",
            within=120,
        )
    await _checked_again_or_cancelled(cluster, kept_run, gone_run)


@pytest.mark.timeout(300)
async def test_runs_a_killed_worker_left_on_superseded_heads_are_all_completed(
    cluster: Cluster,
) -> None:
    """Issue 28: runs on heads a later push superseded stayed in progress for good when the
    worker that started them was killed; every one is completed, naming the newer head."""
    fake = cluster.fake
    cluster.settings |= {"STALE_RUN_SWEEP_INTERVAL": "1", "REQUEST_TIMEOUT": "120"}
    web = await cluster.start_web()
    doomed = await cluster.start_worker()
    repo = fake.add_repo("octo/ml", files={"README.md": "# ml\n"})
    prs = [open_kernel_pr(repo, n) for n in (1, 2, 3)]
    # Each check hangs listing its files, as long as GitHub makes it wait: killed mid-check.
    fake.timeout_delay = 120
    for pr in prs:
        fake.fail("GET", rf"/pulls/{pr.number}/files", kind="timeout", times=1)
        status, _ = await cluster.deliver(web, "pull_request", pr_payload(fake, repo, pr, "opened"))
        assert status == 202
    old_heads = {pr.number: pr.head_sha for pr in prs}
    await until(
        lambda: len([r for r in repo.check_runs.values() if r.status == "in_progress"]) == 3,
        "a run in progress on every opened head",
    )
    for pr in prs:  # a push supersedes each head while its check hangs
        repo.push_to_pr(pr.number, {f"csrc/more{pr.number}.cu": "__global__ void m() {}\n"})
        status, _ = await cluster.deliver(
            web, "pull_request", pr_payload(fake, repo, pr, "synchronize")
        )
        assert status == 202
    await doomed.kill()
    # The killed worker's PR locks lapse with their lease; a job taken before then waits
    # for them (here beyond the test's short JOB_TIMEOUT, never in production's 30 min).
    await until(lambda: _no_pr_locks(cluster), "the killed worker's PR locks lapsed")
    await cluster.start_worker()

    def all_completed() -> bool:
        return all(r.status == "completed" for r in repo.check_runs.values()) and all(
            checked(repo, pr.head_sha) for pr in prs
        )

    await until(all_completed, "every run completed, old heads and new", within=240)
    for pr in prs:
        [left] = [r for r in repo.check_runs.values() if r.head_sha == old_heads[pr.number]]
        assert left.conclusion == "cancelled"
        assert left.output["title"] == f"Superseded by {pr.head_sha[:7]}"
        assert pr.head_sha in left.output["summary"]
        [newest] = [r for r in repo.check_runs.values() if r.head_sha == pr.head_sha]
        assert (newest.conclusion, newest.output["title"] != ERROR_TITLE) == ("failure", True)
    assert fake.contract_errors == []


async def _no_pr_locks(cluster: Cluster) -> bool:
    client = cluster.redis.client()
    try:
        held = [k for k in await client.keys("lockin:lock:pr:*") if not k.endswith(b":fence")]
    finally:
        await client.aclose()
    return held == []


@pytest.mark.timeout(300)
async def test_merge_group_runs_a_killed_worker_left_are_checked_again_or_cancelled(
    cluster: Cluster,
) -> None:
    """A required check missing on a merge queue's commit stalls the whole queue: the run
    a killed worker left on a group the queue still holds is checked again, and the run on
    a group the queue removed meanwhile is cancelled, saying why."""
    cluster.settings |= {"STALE_RUN_SWEEP_INTERVAL": "1", "REQUEST_TIMEOUT": "120"}
    web = await cluster.start_web()
    doomed = await cluster.start_worker()
    kept_run, gone_run = await _two_merge_groups_left_in_progress(cluster, web, doomed)

    # With no worker up, the web's sweep finds both runs abandoned and queues their jobs.
    for run in (kept_run, gone_run):
        await until(
            lambda run=run: web.logged(f"sweep: check run {run.id} on octo/ml@"),
            f"the sweep finding run {run.id}",
            within=120,
        )
    await cluster.start_worker()
    await _checked_again_or_cancelled(cluster, kept_run, gone_run)
