"""The GitHub client layer against the fake GitHub over HTTP: App authentication, token
cache, pagination, conditional requests, retries, rate limits and write pacing."""

from __future__ import annotations

import asyncio
import io
import tarfile
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import jwt
import pytest
from aiohttp import web
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from bot.github.auth import TOKEN_MARGIN, AppAuth
from bot.github.errors import GitHubError, GitHubUnavailable, NotFound, RateLimited
from bot.github.retry import RetryPolicy
from tests.fakegithub import FakeGitHub, Repo
from tests.server.conftest import StartBot, note_arrivals, until
from tests.support.webhooks import installation_event

INSTALLATION = 1
MakeAuth = Callable[..., AppAuth]


@pytest.fixture
async def make_auth(fake_github: FakeGitHub) -> AsyncIterator[MakeAuth]:
    async with aiohttp.ClientSession() as session:

        def make(**options: Any) -> AppAuth:
            policy = RetryPolicy(
                **{"backoff": 0.01, "secondary_wait": 0.2, **options.pop("policy", {})}
            )
            return AppAuth(
                str(fake_github.app_id),
                fake_github.private_key_pem,
                fake_github.url,
                session,
                policy=policy,
                **{"write_interval": 0.0, **options},
            )

        yield make


@pytest.fixture
def repo(fake_github: FakeGitHub) -> Repo:
    repo = fake_github.add_repo("octo-org/kernels", files={"README.md": "# kernels\n"})
    return repo


PR_URL = "/repos/octo-org/kernels/pulls/{number}"


def test_app_jwt_has_the_claims_github_requires(fake_github: FakeGitHub) -> None:
    auth = AppAuth(str(fake_github.app_id), fake_github.private_key_pem, fake_github.url, None)  # type: ignore[arg-type]
    token = auth.jwt()
    public = load_pem_private_key(fake_github.private_key_pem.encode(), None).public_key()
    claims = jwt.decode(token, public, algorithms=["RS256"])  # type: ignore[arg-type]
    now = time.time()
    assert claims["iss"] == str(fake_github.app_id)
    assert isinstance(claims["iss"], str)
    assert now - 70 <= claims["iat"] <= now - 59
    assert claims["exp"] - claims["iat"] <= 600
    assert jwt.get_unverified_header(token)["alg"] == "RS256"
    assert auth.jwt() == token  # reused, not re-signed per request


async def test_app_and_installation_clients_authenticate_differently(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    auth = make_auth()
    app = await auth.app_client().getitem("/app")
    assert app["id"] == fake_github.app_id
    repository = await auth.installation_client(INSTALLATION).getitem("/repos/octo-org/kernels")
    assert repository["full_name"] == "octo-org/kernels"
    [app_request] = fake_github.requests_to("GET", r"^/app$")
    [repo_request] = fake_github.requests_to("GET", r"^/repos/octo-org/kernels$")
    assert app_request.headers["Authorization"].startswith("Bearer ey")
    assert repo_request.headers["Authorization"].startswith("token ghs_")
    assert fake_github.contract_errors == []


async def test_concurrent_jobs_share_one_token_mint(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    auth = make_auth()
    tokens = await asyncio.gather(*(auth.installation_token(INSTALLATION) for _ in range(10)))
    assert len(set(tokens)) == 1
    assert fake_github.tokens_issued == 1


async def test_token_reused_across_deliveries(start_bot: StartBot, fake_github: FakeGitHub) -> None:
    bot = await start_bot()  # the fake's tokens live an hour, as GitHub's do
    for _ in range(3):
        await bot.open_pr()
    await until(lambda: len(bot.feature.done) == 3, "three deliveries processed")
    assert fake_github.tokens_issued == 1


async def test_token_refreshed_once_inside_the_margin_before_its_expiry(
    start_bot: StartBot, fake_github: FakeGitHub
) -> None:
    # Tokens live just over our refresh margin: reusable for one second at most.
    fake_github.token_ttl = TOKEN_MARGIN + 1.0
    bot = await start_bot()
    await bot.open_pr()
    await until(lambda: len(bot.feature.done) == 1, "the first delivery processed")
    minted = fake_github.tokens_issued
    assert minted >= 1
    await asyncio.sleep(1.2)  # past the reuse window (a lower bound: waiting longer is fine)
    await bot.open_pr()
    await until(lambda: len(bot.feature.done) == 2, "the second delivery processed")
    assert fake_github.tokens_issued > minted
    # The expiring token was replaced before use, never refused.
    assert [r for r in fake_github.requests if r.status == 401] == []


async def test_installation_suspended_or_deleted_drops_its_token(
    start_bot: StartBot, fake_github: FakeGitHub
) -> None:
    bot = await start_bot()
    await bot.open_pr()
    await until(lambda: len(bot.feature.done) == 1, "first delivery processed")
    assert fake_github.tokens_issued == 1
    for n, action in enumerate(("suspend", "deleted"), start=2):
        status, body = await bot.deliver("installation", installation_event(fake_github, 1, action))
        assert (status, body["status"]) == (202, "queued")
        await asyncio.sleep(0.1)  # the installation job runs (it makes no request to wait on)
        await bot.open_pr()
        await until(lambda n=n: len(bot.feature.done) == n, f"the delivery after {action}")
        assert fake_github.tokens_issued == n


async def test_a_refused_token_is_replaced_and_the_request_sent_once_more(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    auth = make_auth()
    gh = auth.installation_client(INSTALLATION)
    await gh.getitem("/repos/octo-org/kernels")
    for token in fake_github.tokens.values():
        token.expires_at = 0  # revoked behind our back
    assert (await gh.getitem("/repos/octo-org/kernels"))["name"] == "kernels"
    assert fake_github.tokens_issued == 2
    # The retry is still conditional: the repository did not change.
    assert [r.status for r in fake_github.requests_to("GET", r"^/repos/")] == [200, 401, 304]


async def test_a_late_refusal_of_an_old_token_does_not_drop_its_replacement(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo, aiohttp_server: Any
) -> None:
    """Two jobs sent with one token that GitHub then revoked: the first 401 mints a new
    token; the second job's 401, arriving after that, must reuse it, not drop it and mint
    again (N jobs would mint N tokens)."""
    seen: list[str] = []
    gate = asyncio.Event()

    async def held(request: web.Request) -> web.Response:
        seen.append(request.headers["Authorization"])
        await gate.wait()
        live = fake_github.tokens[request.headers["Authorization"].split()[1]].live
        return web.json_response({"live": live}, status=200 if live else 401)

    slow = web.Application()
    slow.router.add_get("/held", held)
    slow_server = await aiohttp_server(slow, host="127.0.0.1")
    auth = make_auth()
    first, second = auth.installation_client(INSTALLATION), auth.installation_client(INSTALLATION)
    await first.getitem("/repos/octo-org/kernels")
    late = asyncio.create_task(second.getitem(str(slow_server.make_url("/held"))))
    await until(lambda: len(seen) == 1, "the second job's request sent with the first token")
    for token in fake_github.tokens.values():
        token.expires_at = 0  # revoked behind our back
    assert (await first.getitem("/repos/octo-org/kernels"))["name"] == "kernels"
    gate.set()
    assert await late == {"live": True}
    assert fake_github.tokens_issued == 2
    assert seen[1] == f"token {max(fake_github.tokens.values(), key=lambda t: t.expires_at).value}"


async def test_a_token_refused_twice_is_an_error_not_a_loop(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    fake_github.token_ttl = -1.0  # every token GitHub gives is already dead
    gh = make_auth().installation_client(INSTALLATION)
    with pytest.raises(GitHubError) as caught:
        await gh.getitem("/repos/octo-org/kernels")
    assert caught.value.status == 401
    assert len(fake_github.requests_to("GET", r"^/repos/")) == 2


@pytest.mark.parametrize("kind", ["secondary", "429"])
async def test_secondary_limit_is_waited_out_not_retried_at_once(
    start_bot: StartBot, fake_github: FakeGitHub, kind: str
) -> None:
    bot = await start_bot()
    arrivals = note_arrivals(fake_github)
    fake_github.fail("GET", r"/pulls/\d+$", kind=kind, retry_after=1)
    await bot.open_pr()
    await until(lambda: len(bot.feature.done) == 1, "the job finished after the wait")
    limited, retried = fake_github.requests_to("GET", r"/pulls/\d+$")
    assert limited.status == (403 if kind == "secondary" else 429)
    assert retried.status == 200
    assert arrivals.at(retried) - arrivals.at(limited) >= 1.0


async def test_primary_limit_waits_for_the_reset(
    start_bot: StartBot, fake_github: FakeGitHub
) -> None:
    bot = await start_bot()
    arrivals = note_arrivals(fake_github)
    fake_github.fail("GET", r"/pulls/\d+$", kind="primary", retry_after=2)
    await bot.open_pr()
    await until(lambda: len(bot.feature.done) == 1, "the job finished after the reset")
    limited, retried = fake_github.requests_to("GET", r"/pulls/\d+$")
    assert limited.status == 403
    # The reset is a whole second 2 s after the refusal: at least 1 s later in any case.
    assert arrivals.at(retried) >= int(arrivals.at(limited)) + 2
    # The comment, written after the wait, went out too.
    assert len(bot.comments()) == 1


@pytest.mark.parametrize(
    ("fault", "error"),
    [
        # GitHub asks for a minute; we may wait 5 s: give up at once rather than hammer.
        ({"kind": "secondary", "retry_after": 60}, RateLimited),
        # A 403 without rate-limit signs is a permission answer.
        ({"status": 403}, GitHubError),
    ],
)
async def test_refusals_that_are_not_worth_retrying_are_sent_once(
    make_auth: MakeAuth,
    fake_github: FakeGitHub,
    repo: Repo,
    fault: dict[str, Any],
    error: type[GitHubError],
) -> None:
    gh = make_auth(policy={"max_rate_limit_wait": 5.0}).installation_client(INSTALLATION)
    fake_github.fail("GET", r"^/repos/octo-org/kernels$", **fault)
    with pytest.raises(error) as caught:
        await gh.getitem("/repos/octo-org/kernels")
    assert caught.value.status == 403
    if isinstance(caught.value, RateLimited):
        assert caught.value.wait == 60
    assert len(fake_github.requests_to("GET", r"^/repos/")) == 1


async def test_5xx_is_retried_with_backoff_then_succeeds(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    gh = make_auth().installation_client(INSTALLATION)
    fake_github.fail("GET", r"^/repos/octo-org/kernels$", status=502, times=2)
    assert (await gh.getitem("/repos/octo-org/kernels"))["name"] == "kernels"
    statuses = [r.status for r in fake_github.requests_to("GET", r"^/repos/")]
    assert statuses == [502, 502, 200]
    assert gh.requests_made == 3


async def test_5xx_that_persists_raises_github_unavailable_after_bounded_attempts(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    gh = make_auth(policy={"attempts": 3}).installation_client(INSTALLATION)
    fake_github.fail("GET", r"^/repos/octo-org/kernels$", status=503, times=100)
    with pytest.raises(GitHubUnavailable):
        await gh.getitem("/repos/octo-org/kernels")
    assert len(fake_github.requests_to("GET", r"^/repos/")) == 3


async def test_timeouts_are_retried(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    gh = make_auth(request_timeout=0.3).installation_client(INSTALLATION)
    fake_github.fail("GET", r"^/repos/octo-org/kernels$", kind="timeout")
    assert (await gh.getitem("/repos/octo-org/kernels"))["name"] == "kernels"
    assert len(fake_github.requests_to("GET", r"^/repos/")) == 2


async def test_a_post_is_not_resent_after_an_ambiguous_failure(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    """A 502 to a POST may hide a created comment: resending could post it twice."""
    issue = repo.add_issue("an issue", "")
    gh = make_auth().installation_client(INSTALLATION)
    url = f"/repos/octo-org/kernels/issues/{issue.number}/comments"
    fake_github.fail("POST", url, status=502)
    with pytest.raises(GitHubUnavailable):
        await gh.post(url, data={"body": "once"})
    assert len(fake_github.requests_to("POST", url)) == 1
    # Reactions are deduplicated by GitHub: the caller may declare such a POST idempotent.
    comment = repo.add_comment(issue.number, "hello")
    reactions = f"/repos/octo-org/kernels/issues/comments/{comment.id}/reactions"
    fake_github.fail("POST", reactions, status=502)
    await gh.post(reactions, data={"content": "eyes"}, idempotent=True)
    assert [r.status for r in fake_github.requests_to("POST", reactions)] == [502, 201]


async def test_getiter_follows_every_page_at_100_a_page(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    repo.commit({f"src/k{n}.cu": f"// {n}\n" for n in range(250)}, branch="many")
    pr = repo.open_pr(head_branch="many")
    gh = make_auth().installation_client(INSTALLATION)
    files = [f async for f in gh.getiter(PR_URL + "/files", {"number": pr.number})]
    assert len(files) == 250
    assert len({f["filename"] for f in files}) == 250
    pages = fake_github.requests_to("GET", r"/files$")
    assert len(pages) == 3
    assert all(p.query["per_page"] == "100" for p in pages)


async def test_getiter_with_an_iterable_key(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    gh = make_auth().installation_client(INSTALLATION)
    head = repo.head()
    for name in ("a", "b"):
        await gh.post("/repos/octo-org/kernels/check-runs", data={"name": name, "head_sha": head})
    runs = [
        run["name"]
        async for run in gh.getiter(
            "/repos/octo-org/kernels/commits/{ref}/check-runs",
            {"ref": head},
            iterable_key="check_runs",
        )
    ]
    assert sorted(runs) == ["a", "b"]


async def test_repeated_gets_are_conditional_and_free(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    gh = make_auth().installation_client(INSTALLATION)
    first = await gh.getitem("/repos/octo-org/kernels")
    remaining = gh.rate_limit_remaining
    second = await gh.getitem("/repos/octo-org/kernels")
    assert second == first
    plain, conditional = fake_github.requests_to("GET", r"^/repos/octo-org/kernels$")
    assert "If-None-Match" not in plain.headers
    assert conditional.headers["If-None-Match"]
    assert conditional.status == 304
    assert gh.rate_limit_remaining == remaining  # a 304 costs no quota


async def test_writes_of_one_installation_are_spaced(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    issue = repo.add_issue("an issue", "")
    arrivals = note_arrivals(fake_github)
    auth = make_auth(write_interval=0.3)
    url = f"/repos/octo-org/kernels/issues/{issue.number}/comments"
    # Six jobs of the same installation writing at once: a burst of three may go out at once,
    # the other three wait for a write_interval each. (Only lower bounds: a loaded machine
    # delays requests, it never hurries them.)
    start = time.time()  # the clock Arrivals notes
    await asyncio.gather(
        *(auth.installation_client(INSTALLATION).post(url, data={"body": str(n)}) for n in range(6))
    )
    times = sorted(arrivals.at(r) for r in fake_github.requests_to("POST", url))
    assert len(times) == 6
    assert times[-1] - start >= 3 * 0.3


async def test_get_bytes_returns_raw_file_contents(
    make_auth: MakeAuth, fake_github: FakeGitHub
) -> None:
    binary = bytes(range(256)) * 4
    fake_github.add_repo("octo-org/blobs", files={"weights.bin": binary, "a.cu": "ünïcode\n"})
    gh = make_auth().installation_client(INSTALLATION)
    url = "/repos/octo-org/blobs/contents/{path}"
    assert await gh.get_bytes(url, {"path": "weights.bin"}) == binary
    assert await gh.get_bytes(url, {"path": "a.cu"}) == "ünïcode\n".encode()
    with pytest.raises(NotFound):
        await gh.get_bytes(url, {"path": "missing.txt"})


async def test_stream_follows_the_tarball_redirect(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    gh = make_auth().installation_client(INSTALLATION)
    async with gh.stream("/repos/octo-org/kernels/tarball/{ref}", {"ref": repo.head()}) as response:
        archive = await response.read()
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        names = [m.name for m in tar.getmembers() if m.isfile()]
    assert any(name.endswith("/README.md") for name in names)
    [redirect] = fake_github.requests_to("GET", r"/tarball/")
    [archive_request] = fake_github.requests_to("GET", r"^/_codeload/")
    assert (redirect.status, archive_request.status) == (302, 200)


async def test_errors_are_ours_with_the_status(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    gh = make_auth().installation_client(INSTALLATION)
    with pytest.raises(NotFound):
        await gh.getitem("/repos/octo-org/elsewhere")
    issue = repo.add_issue("an issue", "")
    with pytest.raises(GitHubError) as caught:
        # A body the contract refuses (no `body` field): 422, not retried.
        await gh.post(f"/repos/octo-org/kernels/issues/{issue.number}/comments", data={})
    assert caught.value.status == 422
    assert len(fake_github.requests_to("POST", r"/comments$")) == 1


def test_rate_limit_rules_for_answers_without_headers() -> None:
    policy = RetryPolicy(secondary_wait=60.0)
    message = "You have exceeded a secondary rate limit. Please wait."
    assert policy.rate_limit_wait(403, {}, message, now=0, nth=1) == 60.0
    assert policy.rate_limit_wait(403, {}, message, now=0, nth=2) == 120.0
    assert policy.rate_limit_wait(429, {}, "", now=0, nth=1) == 60.0
    assert (
        policy.rate_limit_wait(403, {}, "Resource not accessible by integration", now=0, nth=1)
        is None
    )
    assert policy.rate_limit_wait(403, {"retry-after": "7"}, "", now=0, nth=1) == 7.0
    reset = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1030"}
    assert policy.rate_limit_wait(403, reset, "", now=1000, nth=1) == 31.0
    assert policy.rate_limit_wait(404, {"retry-after": "7"}, "", now=0, nth=1) is None


async def test_a_stalled_archive_request_is_retried(
    make_auth: MakeAuth, fake_github: FakeGitHub, repo: Repo
) -> None:
    gh = make_auth(request_timeout=0.3).installation_client(INSTALLATION)
    fake_github.fail("GET", r"/tarball/", kind="timeout")
    async with gh.stream("/repos/octo-org/kernels/tarball/{ref}", {"ref": repo.head()}) as answer:
        archive = await answer.read()
    assert archive[:2] == b"\x1f\x8b"  # gzip
    assert len(fake_github.requests_to("GET", r"/tarball/")) == 2
    assert len(fake_github.requests_to("GET", r"^/_codeload/")) == 1
