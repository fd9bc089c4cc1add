"""Issue 7 end to end: web replicas and workers as real processes sharing a real Redis,
against the fake GitHub. What must hold: one comment per PR showing its newest head, one
completed check run per head, redeliveries processed once, a killed worker's job finished by
another, a Redis restart losing nothing that was answered 202."""

from __future__ import annotations

import asyncio
import itertools
import random
import uuid
from collections import Counter
from typing import Any

import aiohttp
import pytest

from bot.review.check_writer import ERROR_TITLE
from tests.fakegithub import FakeGitHub, PullRequest, Repo
from tests.scale.cluster import Cluster, RedisServer, Web, pr_payload, until
from tests.support.webhooks import issue_comment_event, push_event

MARKER = "<!-- lockin:sticky-comment -->"


def kernel(name: str) -> str:
    return (
        f"__global__ void {name}(float* x, int n) {{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) x[i] += 1.0f;\n"
        "}\n"
    )


def open_kernel_pr(repo: Repo, n: int) -> PullRequest:
    repo.commit({f"csrc/k{n}.cu": kernel(f"k{n}")}, branch=f"feature-{n}", message="a kernel")
    return repo.open_pr(head_branch=f"feature-{n}", body="A change")


def repo_with_kernel_pr(fake: FakeGitHub) -> tuple[Repo, PullRequest]:
    """A one-file repository and a PR that adds a CUDA kernel to it."""
    repo = fake.add_repo("octo/ml", files={"README.md": "# ml\n"})
    return repo, open_kernel_pr(repo, 1)


def sticky(fake: FakeGitHub, repo: Repo, number: int) -> list[str]:
    return [
        c.body
        for c in sorted(repo.comments.values(), key=lambda c: c.id)
        if c.issue_number == number and MARKER in c.body and c.user == fake.bot_login
    ]


def checked(repo: Repo, head_sha: str) -> bool:
    return any(r.head_sha == head_sha and r.status == "completed" for r in repo.check_runs.values())


Delivery = tuple[str, str, dict[str, Any]]  # (delivery id, event, payload)
#: Redeliveries of a delivery answered 503 before a test gives up on it.
REDELIVERIES = 20


async def send_racing(
    cluster: Cluster, deliveries: list[Delivery], rng: random.Random
) -> list[tuple[str, int, str]]:
    """Every delivery to both web replicas at once (a redelivery racing the original), in a
    shuffled order; (delivery id, HTTP status, outcome) per send."""
    sends = [(d, web) for d in deliveries for web in cluster.webs]
    rng.shuffle(sends)

    async def send(delivery: Delivery, web: Web) -> tuple[str, int, str]:
        delivery_id, event, payload = delivery
        status, body = await cluster.deliver(web, event, payload, delivery_id)
        # 503 (Redis slower than the web's patience on a loaded machine) promises nothing
        # and asks for a redelivery, as GitHub's "Redeliver" does: send it again.
        for _ in range(REDELIVERIES):
            if status != 503:
                break
            status, body = await cluster.deliver(web, event, payload, delivery_id)
        return delivery_id, status, body.get("status", "")

    return list(await asyncio.gather(*(send(d, w) for d, w in sends)))


@pytest.mark.timeout(240)
async def test_burst_with_redeliveries_and_racing_pushes_leaves_one_comment_per_pr(
    cluster: Cluster,
) -> None:
    fake = cluster.fake
    await cluster.start_web()
    await cluster.start_web()
    await asyncio.gather(cluster.start_worker(), cluster.start_worker())
    repo = fake.add_repo("octo/ml", files={"README.md": "# ml\n", "model.py": "import torch\n"})
    prs = [open_kernel_pr(repo, n) for n in range(4)]
    rng = random.Random(7)
    answers: list[tuple[str, int, str]] = []
    sent: list[Delivery] = []

    def push_all(wave: int) -> list[Delivery]:
        """Two pushes to every PR, each with its `synchronize` delivery."""
        out = []
        for pr in prs:
            for push in range(2):
                name = f"w{wave}p{push}pr{pr.number}"
                repo.push_to_pr(pr.number, {f"csrc/{name}.cu": kernel(name)})
                payload = pr_payload(fake, repo, pr, "synchronize")
                out.append((str(uuid.uuid4()), "pull_request", payload))
        return out

    async def settled() -> bool:
        return all(checked(repo, pr.head_sha) for pr in prs) and await cluster.idle()

    # Wave 1: each PR opened, then pushed twice before any job ran.
    first = [
        (str(uuid.uuid4()), "pull_request", pr_payload(fake, repo, pr, "opened")) for pr in prs
    ]
    wave1 = [*first, *push_all(1)]
    answers += await send_racing(cluster, wave1, rng)
    sent += wave1
    await until(settled, "every PR's newest head checked", within=90)
    wave1_heads = {pr.number: pr.head_sha for pr in prs}

    # Wave 2: two more pushes per PR, racing redeliveries of every wave-1 delivery.
    wave2 = push_all(2)
    again = await send_racing(cluster, [*wave2, *wave1], rng)
    answers += again
    sent += wave2
    await until(settled, "every PR's newest head checked again", within=90)

    assert {status for _, status, _ in answers} == {202}
    outcomes: dict[str, Counter[str]] = {}
    for delivery_id, _, outcome in answers:
        outcomes.setdefault(delivery_id, Counter())[outcome] += 1
    assert len(outcomes) == len(sent)
    assert all(counts["queued"] >= 1 for counts in outcomes.values()), outcomes
    # Redelivered after their jobs ran: duplicates, every one.
    wave1_ids = {delivery_id for delivery_id, _, _ in wave1}
    assert {outcome for d, _, outcome in again if d in wave1_ids} == {"duplicate"}
    # Whichever replica answered, each delivery ran once.
    starts = Counter(
        line["delivery_id"]
        for worker in cluster.workers
        for line in worker.logs()
        if str(line.get("msg", "")).startswith("job started")
    )
    assert starts == Counter({delivery_id: 1 for delivery_id, _, _ in sent})

    runs = list(repo.check_runs.values())
    assert all(r.status == "completed" for r in runs)
    per_head = Counter(r.head_sha for r in runs)
    assert max(per_head.values()) == 1, per_head
    for pr in prs:
        assert per_head[pr.head_sha] == 1
        assert per_head[wave1_heads[pr.number]] == 1
        [comment] = sticky(fake, repo, pr.number)
        assert f"`{pr.head_sha[:7]}`" in comment
    # Work shared through Redis: one installation token, each blob fetched once.
    assert fake.tokens_issued == 1
    blob_reads = Counter(r.path for r in fake.requests_to("GET", r"/git/blobs/"))
    assert blob_reads
    assert max(blob_reads.values()) == 1, blob_reads
    newest = {pr.head_sha for pr in prs} | set(wave1_heads.values())
    for worker in cluster.workers:
        dropped = {line.get("head_sha") for line in worker.logs() if line.get("newer_sha")}
        assert not dropped & newest, "a job for a newest head was dropped"
    assert fake.contract_errors == []


@pytest.mark.timeout(120)
async def test_jobs_for_heads_superseded_by_a_newer_queued_head_are_dropped(
    cluster: Cluster,
) -> None:
    fake = cluster.fake
    web = await cluster.start_web()
    repo, pr = repo_with_kernel_pr(fake)
    opened = pr_payload(fake, repo, pr, "opened")
    repo.push_to_pr(pr.number, {"csrc/second.cu": kernel("second")})
    older = pr_payload(fake, repo, pr, "synchronize")
    newest = repo.push_to_pr(pr.number, {"csrc/third.cu": kernel("third")})
    newer = pr_payload(fake, repo, pr, "synchronize")
    ids = {name: str(uuid.uuid4()) for name in ("opened", "older", "newer")}

    # Queued before any worker runs; the older push arrives last, as GitHub allows.
    for name, payload in (("opened", opened), ("newer", newer), ("older", older)):
        status, _ = await cluster.deliver(web, "pull_request", payload, ids[name])
        assert status == 202
    worker = await cluster.start_worker()
    await until(lambda: checked(repo, newest), "the newest head checked")
    await until(cluster.idle, "the queue empty")

    dropped = {
        line["delivery_id"]: line["newer_sha"] for line in worker.logs() if "newer_sha" in line
    }
    assert dropped == {ids["opened"]: newest, ids["older"]: newest}
    ran = [line["delivery_id"] for line in worker.logs() if line.get("msg") == "job ok"]
    assert ran == [ids["newer"]]
    [run] = repo.check_runs.values()
    assert (run.head_sha, run.conclusion) == (newest, "failure")
    assert f"`{newest[:7]}`" in sticky(fake, repo, pr.number)[0]
    await worker.stop()  # SIGTERM: a clean exit
    assert worker.process.returncode == 0


@pytest.mark.timeout(120)
async def test_recounts_of_one_head_on_two_workers_count_the_repository_once(
    cluster: Cluster,
) -> None:
    fake = cluster.fake
    web = await cluster.start_web()
    # One job at a time each, and a slow first archive download: while one worker counts,
    # the other surely takes the second command.
    workers = await asyncio.gather(
        *(cluster.start_worker(WORKERS="1", REQUEST_TIMEOUT="60") for _ in range(2))
    )
    repo = fake.add_repo("octo/ml", files={"README.md": "# ml\n", "model.py": "import torch\n"})
    pr = open_kernel_pr(repo, 1)
    repo.collaborators["maintainer"] = "write"
    fake.timeout_delay = 3
    fake.fail("GET", rf"^/repos/{repo.full_name}/tarball/", kind="timeout", times=1)
    comments = [repo.add_comment(pr.number, "/lockin recount", user="maintainer") for _ in "ab"]

    for comment in comments:
        payload = issue_comment_event(fake, repo, pr, comment)
        status, _ = await cluster.deliver(web, "issue_comment", payload)
        assert status == 202

    def rocket(comment_id: int) -> bool:
        return any(r.comment_id == comment_id and r.content == "rocket" for r in repo.reactions)

    async def done() -> bool:
        return all(rocket(c.id) for c in comments) and await cluster.idle()

    await until(done, "both recounts answered")
    assert all(w.logged("job started", event="issue_comment") for w in workers)
    # The download GitHub timed out and its retry, by one worker; the other used its count.
    assert len(fake.requests_to("GET", rf"^/repos/{repo.full_name}/tarball/")) == 2
    assert len(sticky(fake, repo, pr.number)) == 1


@pytest.mark.timeout(240)
async def test_a_worker_killed_mid_job_leaves_the_job_to_the_other(cluster: Cluster) -> None:
    fake = cluster.fake
    web = await cluster.start_web()
    # Its GitHub requests wait as long as GitHub makes them wait: the kill lands mid-request.
    doomed = await cluster.start_worker(REQUEST_TIMEOUT="120")
    repo, pr = repo_with_kernel_pr(fake)
    fake.timeout_delay = 120
    fake.fail("GET", rf"/pulls/{pr.number}/files", kind="timeout", times=1)
    delivery = str(uuid.uuid4())

    status, _ = await cluster.deliver(
        web, "pull_request", pr_payload(fake, repo, pr, "opened"), delivery
    )
    assert status == 202
    await until(
        lambda: fake.requests_to("GET", rf"/pulls/{pr.number}/files"), "the job listing files"
    )
    assert doomed.logged("job started", delivery_id=delivery)
    [started] = repo.check_runs.values()
    assert started.status == "in_progress"
    survivor = await cluster.start_worker()
    await doomed.kill()

    async def finished() -> bool:
        return checked(repo, pr.head_sha) and await cluster.idle()

    await until(finished, "the job finished by the other worker", within=120)
    assert survivor.logged("job started", delivery_id=delivery, **{"try": 2})
    [run] = repo.check_runs.values()  # the run the dead worker started, completed
    assert run.id == started.id
    assert run.conclusion == "failure"
    assert len(sticky(fake, repo, pr.number)) == 1
    assert fake.contract_errors == []


@pytest.mark.timeout(400)
async def test_a_job_past_its_time_is_stopped_and_a_redelivery_runs_it_again(
    cluster: Cluster,
) -> None:
    fake = cluster.fake
    # The redelivered job must finish a whole check (the engine's processes started, the
    # kernel counted, the comment written) within JOB_TIMEOUT: on a loaded 2-core machine
    # that takes tens of seconds, so the deadline is a minute and the held request ten. The
    # web process sweeps runs left open by the same deadline, as one deployment's would.
    web = await cluster.start_web(JOB_TIMEOUT="60")
    worker = await cluster.start_worker(JOB_TIMEOUT="60", REQUEST_TIMEOUT="600")
    repo, pr = repo_with_kernel_pr(fake)
    fake.timeout_delay = 600
    files = rf"/pulls/{pr.number}/files"
    fake.fail("GET", files, kind="timeout", times=1)
    payload, delivery = pr_payload(fake, repo, pr, "opened"), str(uuid.uuid4())

    status, _ = await cluster.deliver(web, "pull_request", payload, delivery)
    assert status == 202
    await until(lambda: bool(fake.requests_to("GET", files)), "the job held", within=120)
    # GitHub slow to take the stopped job's cleanup as well: completing its run takes past
    # arq's own limit (JOB_TIMEOUT + 5 s), which cancels the job a second time. The job is
    # still logged as stopped and its delivery forgotten; the cleanup finishes on its own.
    fake.fail("PATCH", r"/check-runs/\d+$", kind="timeout", times=1, delay=15)
    await until(
        lambda: worker.logged("job stopped after JOB_TIMEOUT", delivery_id=delivery),
        "the job stopped",
        within=180,
    )
    status, body = await cluster.deliver(web, "pull_request", payload, delivery)
    assert (status, body["status"]) == (202, "queued")

    def cleaned_up() -> bool:
        return any(
            worker.logged(f"check run {run} {what}", delivery_id=delivery)
            for run in repo.check_runs
            for what in ("completed as failed", "was completed by another job")
        )

    async def finished() -> bool:
        return worker.logged("job ok", delivery_id=delivery) and cleaned_up()

    await until(finished, "the redelivered job and the cleanup done", within=180)
    # The redelivery reused the run still in progress, or (on a machine slow enough that the
    # cleanup landed first) made a new one: either way the head's last word is the count,
    # never the stopped job's late error written over it.
    runs = sorted(
        (r for r in repo.check_runs.values() if r.head_sha == pr.head_sha), key=lambda r: r.id
    )
    assert all(r.status == "completed" for r in runs)
    *earlier, result = runs
    assert result.conclusion == "failure"
    assert result.output["title"] != ERROR_TITLE
    assert [r.output["title"] for r in earlier] in ([], [ERROR_TITLE])
    assert len(sticky(fake, repo, pr.number)) == 1


@pytest.mark.timeout(240)
async def test_redis_restarted_mid_burst_loses_no_delivery_answered_202(cluster: Cluster) -> None:
    fake = cluster.fake
    webs = [await cluster.start_web(), await cluster.start_web()]
    await asyncio.gather(cluster.start_worker(), cluster.start_worker())
    repo, pr = repo_with_kernel_pr(fake)
    repo.collaborators["maintainer"] = "write"
    accepted: set[str] = set()
    refused: dict[str, dict[str, Any]] = {}

    async def restart_redis() -> None:
        await cluster.redis.stop()
        await asyncio.sleep(1.0)
        await cluster.redis.start()

    async def command(i: int) -> None:
        payload = help_command(fake, repo, pr, i)
        delivery = str(uuid.uuid4())
        status, _ = await cluster.deliver(webs[i % 2], "issue_comment", payload, delivery)
        assert status in (202, 503), status
        if status == 202:
            accepted.add(delivery)
        else:
            refused[delivery] = payload

    count = 0

    async def send_commands(n: int) -> None:
        nonlocal count
        for _ in range(n):
            await command(count)
            count += 1
            await asyncio.sleep(0.05)

    await send_commands(10)
    restart = asyncio.create_task(restart_redis())
    while not restart.done():  # while Redis stops, is down, and starts again
        await send_commands(1)
    during = count - 10
    await restart
    await send_commands(10)
    # What was refused GitHub records as failed; it is redelivered, and accepted now.
    for delivery, payload in refused.items():
        status, _ = await cluster.deliver(webs[0], "issue_comment", payload, delivery)
        assert status == 202
        accepted.add(delivery)

    await until(
        lambda: help_replies(fake, repo) >= count, "a reply to every accepted command", within=120
    )
    await until(cluster.idle, "the queue empty")
    assert during > 0
    assert len(accepted) == count
    assert help_replies(fake, repo) == count
    assert fake.contract_errors == []


def help_replies(fake: FakeGitHub, repo: Repo) -> int:
    return sum(
        1
        for c in repo.comments.values()
        if c.user == fake.bot_login and "lockin commands" in c.body
    )


def help_command(fake: FakeGitHub, repo: Repo, pr: PullRequest, i: int) -> dict[str, Any]:
    """A `/lockin help` comment by a maintainer: each delivery of one gets exactly one reply."""
    comment = repo.add_comment(pr.number, f"/lockin help\n\n(ask {i})", user="maintainer")
    return issue_comment_event(fake, repo, pr, comment)


@pytest.mark.timeout(120)
async def test_jobs_answered_202_survive_the_web_process_that_took_them(
    cluster: Cluster,
) -> None:
    fake = cluster.fake
    web = await cluster.start_web()
    repo, pr = repo_with_kernel_pr(fake)
    repo.collaborators["maintainer"] = "write"

    for i in range(5):
        status, body = await cluster.deliver(web, "issue_comment", help_command(fake, repo, pr, i))
        assert (status, body["status"]) == (202, "queued")
    await web.kill()  # no worker has run anything yet
    await cluster.start_worker()

    await until(lambda: help_replies(fake, repo) >= 5, "a reply to every accepted command")
    await until(cluster.idle, "the queue empty")
    assert help_replies(fake, repo) == 5


async def test_redis_unreachable_answers_503_never_202(
    fake_github: FakeGitHub, tmp_path: Any
) -> None:
    redis = RedisServer(tmp_path / "redis")  # not started yet: nothing listens on its port
    async with aiohttp.ClientSession() as http:
        cluster = Cluster(fake_github, redis, tmp_path, http)
        try:
            web = await cluster.start_web(ready=False)
            repo, pr = repo_with_kernel_pr(fake_github)
            payload = pr_payload(fake_github, repo, pr, "opened")
            delivery = str(uuid.uuid4())

            status, body = await cluster.deliver(web, "pull_request", payload, delivery)
            assert status == 503, body
            async with http.get(web.url + "/readyz") as response:
                assert response.status == 503

            await redis.start()
            await until(lambda: cluster.ready(web), "the web process ready once Redis is up")
            status, body = await cluster.deliver(web, "pull_request", payload, delivery)
            assert (status, body["status"]) == (202, "queued")
            client = redis.client()
            assert await client.zcard("lockin:jobs") == 1
            await client.aclose()
        finally:
            await cluster.close()
            await redis.stop()


@pytest.mark.timeout(240)
async def test_a_retry_lives_in_redis_and_survives_the_worker_restarting(
    cluster: Cluster,
) -> None:
    fake = cluster.fake
    web = await cluster.start_web()
    # Long enough that the worker is gone before the retry is due, however slowly this test
    # sees the retry scheduled and kills the worker (4 s was not, on a loaded machine).
    first = await cluster.start_worker(JOB_RETRY_DELAYS="30", RETRY_ATTEMPTS="2")
    repo, pr = repo_with_kernel_pr(fake)
    fake.fail("GET", rf"/pulls/{pr.number}/files$", status=502, times=2)
    delivery = str(uuid.uuid4())

    status, _ = await cluster.deliver(
        web, "pull_request", pr_payload(fake, repo, pr, "opened"), delivery
    )
    assert status == 202
    await until(
        lambda: first.logged("job failed because GitHub failed", delivery_id=delivery),
        "the retry scheduled",
    )
    [failed] = repo.check_runs.values()
    assert (failed.status, failed.conclusion, failed.output["title"]) == (
        "completed",
        "failure",
        ERROR_TITLE,
    )
    await first.kill()
    second = await cluster.start_worker(JOB_RETRY_DELAYS="30", RETRY_ATTEMPTS="2")

    await until(lambda: len(repo.check_runs) == 2, "the retried run", within=120)
    await until(cluster.idle, "the queue drained", within=60)
    assert second.logged("job started", delivery_id=delivery, attempt=1)
    latest = max(repo.check_runs.values(), key=lambda r: r.id)
    assert latest.status == "completed"
    assert "without a compute-API decision" in latest.output["title"]
    assert len(sticky(fake, repo, pr.number)) == 1
    assert fake.contract_errors == []


@pytest.mark.timeout(240)
async def test_racing_pushes_on_two_workers_make_one_dashboard_issue(cluster: Cluster) -> None:
    fake = cluster.fake
    webs = [await cluster.start_web(), await cluster.start_web()]
    await asyncio.gather(cluster.start_worker(), cluster.start_worker())
    repo = fake.add_repo("octo/ml", files={"README.md": "# ml\n"})
    start = repo.head()
    heads = [start]
    for n in range(4):
        heads.append(repo.commit({f"csrc/k{n}.cu": kernel(f"k{n}")}, message=f"kernel {n}"))
    pushes = [
        (str(uuid.uuid4()), "push", push_event(fake, repo, before, after))
        for before, after in itertools.pairwise(heads)
    ]

    # Each push to both web replicas at once: the workers race on the same repository.
    await asyncio.gather(
        *(cluster.deliver(web, event, payload, d) for d, event, payload in pushes for web in webs)
    )
    await until(cluster.idle, "the pushes worked off", within=180)

    marker = "<!-- lockin:dashboard -->"
    dashboards = [i for i in repo.issues.values() if marker in i.body]
    assert len(dashboards) == 1
    assert len(fake.requests_to("POST", rf"^/repos/{repo.full_name}/issues$")) == 1
    assert "`k3`" in dashboards[0].body  # the newest head's kernels, whatever the order
    assert fake.contract_errors == []
