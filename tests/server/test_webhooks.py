"""The webhook endpoint over HTTP: every status code, deduplication, the full queue."""

from __future__ import annotations

import asyncio
import json
import urllib.parse

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from gidgethub import sansio
from gidgethub.routing import Router

from bot.runtime.settings import Settings
from bot.server.app import create_app
from tests.server.conftest import StartBot, until
from tests.support.server import SECRET
from tests.support.webhooks import load_example, sign, webhook_headers


async def test_ping_answers_200(start_bot: StartBot) -> None:
    bot = await start_bot()
    for name in ("ping.event.1", "ping.event.2", "ping.event.3", "ping.event.4"):
        status, body = await bot.deliver("ping", load_example(name))
        assert (status, body["status"]) == (200, "pong")


async def test_pull_request_is_queued_with_202_then_processed(start_bot: StartBot) -> None:
    bot = await start_bot()
    status, body = await bot.open_pr("delivery-1")
    assert status == 202
    assert body == {"status": "queued", "delivery": "delivery-1"}
    await until(lambda: bot.feature.done == ["delivery-1"], "the feature ran")
    assert bot.comments() == ["seen in delivery-1"]
    assert bot.fake.contract_errors == []


async def test_events_without_handler_are_accepted_and_ignored(start_bot: StartBot) -> None:
    bot = await start_bot()
    for name in ("check_suite.completed.1", "issue_comment.deleted.1", "pull_request.closed.1"):
        status, body = await bot.deliver(name.split(".")[0], load_example(name))
        assert (status, body["status"]) == (202, "ignored"), name
    # An event type GitHub may add tomorrow.
    status, body = await bot.deliver("brand_new_event", {"action": "created"})
    assert (status, body["status"]) == (202, "ignored")


async def test_redelivered_delivery_is_processed_once(start_bot: StartBot) -> None:
    bot = await start_bot()
    first = await bot.open_pr("same-delivery")
    await until(lambda: len(bot.feature.done) == 1, "the first delivery processed")
    again = await bot.open_pr("same-delivery")
    assert first == (202, {"status": "queued", "delivery": "same-delivery"})
    assert again == (202, {"status": "duplicate", "delivery": "same-delivery"})
    # A new delivery of the same event is a new delivery.
    await bot.open_pr("other-delivery")
    await until(lambda: len(bot.feature.done) == 2, "the other delivery processed")
    assert bot.feature.done == ["same-delivery", "other-delivery"]
    assert len(bot.comments()) == 2


async def test_a_failed_job_can_be_redelivered(start_bot: StartBot) -> None:
    bot = await start_bot()
    bot.feature.fail = True
    await bot.open_pr("flaky")
    await until(lambda: len(bot.feature.errors) == 1, "the job failed")
    await asyncio.sleep(0.05)  # let the job finish releasing its delivery id
    bot.feature.fail = False
    status, body = await bot.open_pr("flaky")
    assert (status, body["status"]) == (202, "queued")
    await until(lambda: bot.feature.done == ["flaky"], "the redelivery processed")


async def test_a_stray_cancellation_inside_a_handler_does_not_kill_a_worker(
    start_bot: StartBot,
) -> None:
    """A handler awaiting something another task cancelled (a shared single-flight future)
    gets CancelledError although its job was not cancelled: that is the handler failing,
    not the worker being stopped, so the worker goes on to the next job."""
    stray = Router()
    cancelled = 0

    @stray.register("pull_request", action="opened")
    async def await_a_cancelled_future(event: sansio.Event, *_: object) -> None:
        nonlocal cancelled
        if cancelled == 0:
            cancelled += 1
            future = asyncio.get_running_loop().create_future()
            future.cancel()
            await future

    bot = await start_bot(stray, workers=1)
    await bot.open_pr("first")
    await bot.open_pr("second")
    await until(lambda: bot.feature.done == ["first", "second"], "both jobs done")
    status, body = await bot.open_pr("first")
    # The first job failed, so its delivery was released for a redelivery.
    assert (status, body["status"]) == (202, "queued")


@pytest.mark.parametrize(
    ("drop", "what"), [("X-GitHub-Event", "event"), ("X-GitHub-Delivery", "delivery")]
)
async def test_missing_github_headers_answer_400(start_bot: StartBot, drop: str, what: str) -> None:
    bot = await start_bot()
    body = json.dumps(load_example("pull_request.opened.1")).encode()
    headers = webhook_headers("pull_request", body, SECRET)
    del headers[drop]
    status, answer = await bot.post(body, headers)
    assert status == 400
    assert "X-GitHub-Event and X-GitHub-Delivery" in answer["error"]
    assert bot.feature.started == []


# The nested one is valid JSON deeper than the parser's recursion limit.
@pytest.mark.parametrize(
    "body", [b"{not json", b"\xff\xfe\x00", b'["an", "array"]', b"", b"[" * 100_000]
)
async def test_malformed_payload_answers_400(start_bot: StartBot, body: bytes) -> None:
    bot = await start_bot()
    status, answer = await bot.post(body, webhook_headers("pull_request", body, SECRET))
    assert status == 400
    assert "payload" in answer["error"]


async def test_missing_or_wrong_signature_answers_401(start_bot: StartBot) -> None:
    bot = await start_bot()
    body = json.dumps(load_example("pull_request.opened.1")).encode()
    good = webhook_headers("pull_request", body, SECRET)
    missing = {k: v for k, v in good.items() if not k.startswith("X-Hub-Signature")}
    wrong_secret = webhook_headers("pull_request", body, "not the secret")
    tampered = {**good}
    # SHA-1 alone is not enough: GitHub sends SHA-256 and so do we require it.
    sha1_only = {k: v for k, v in good.items() if k != "X-Hub-Signature-256"}
    garbage = {**good, "X-Hub-Signature-256": "md5=abc"}
    # A valid SHA-1 signature in the SHA-256 header is a downgrade, not a SHA-256 signature.
    sha1_in_256 = {**good, "X-Hub-Signature-256": good["X-Hub-Signature"]}
    # Non-ASCII text: hmac.compare_digest refuses to compare it (TypeError).
    non_ascii = {**good, "X-Hub-Signature-256": "sha256=" + "\u00e9" * 64}
    cases = [
        (missing, body),
        (wrong_secret, body),
        (tampered, body + b" "),
        (sha1_only, body),
        (garbage, body),
        (sha1_in_256, body),
        (non_ascii, body),
    ]
    for headers, sent in cases:
        status, answer = await bot.post(sent, headers)
        assert status == 401, headers
        assert "X-Hub-Signature-256" in answer["error"]
    assert bot.feature.started == []


async def test_other_content_types_answer_415(start_bot: StartBot) -> None:
    bot = await start_bot()
    body = json.dumps(load_example("pull_request.opened.1")).encode()
    for content_type in ("text/plain", "application/xml", "multipart/form-data; boundary=x"):
        headers = {**webhook_headers("pull_request", body, SECRET), "Content-Type": content_type}
        status, answer = await bot.post(body, headers)
        assert status == 415, content_type
        assert "application/json" in answer["error"]


async def test_form_encoded_deliveries_are_accepted(start_bot: StartBot) -> None:
    """GitHub's other webhook content type puts the JSON in a `payload` form field."""
    bot = await start_bot()
    from tests.support.webhooks import pull_request_event

    payload = json.dumps(pull_request_event(bot.fake, bot.repo, bot.pr, "opened"))
    body = urllib.parse.urlencode({"payload": payload}).encode()
    headers = {
        **webhook_headers("pull_request", body, SECRET, "form-1"),
        "Content-Type": "application/x-www-form-urlencoded",
    }
    status, answer = await bot.post(body, headers)
    assert (status, answer["status"]) == (202, "queued")
    await until(lambda: bot.feature.done == ["form-1"], "the form delivery processed")
    no_payload = b"other=1"
    headers = {
        **webhook_headers("pull_request", no_payload, SECRET),
        "Content-Type": "application/x-www-form-urlencoded",
    }
    assert (await bot.post(no_payload, headers))[0] == 400


async def test_payload_above_25_mb_answers_413(start_bot: StartBot) -> None:
    bot = await start_bot()
    body = b'{"padding": "' + b"x" * (25 * 2**20) + b'"}'
    status, answer = await bot.post(body, webhook_headers("pull_request", body, SECRET))
    assert status == 413
    assert "payload above" in answer["error"]


async def test_full_queue_answers_503_and_readyz_says_not_ready(start_bot: StartBot) -> None:
    bot = await start_bot(workers=1, queue_size=1)
    bot.feature.gate = asyncio.Event()
    assert (await bot.get("/readyz"))[0] == 200
    assert (await bot.open_pr("running"))[0] == 202
    await until(lambda: bot.feature.started == ["running"], "the worker took the first job")
    assert (await bot.open_pr("waiting"))[0] == 202
    status, answer = await bot.open_pr("refused")
    assert status == 503
    assert "queue is full or unreachable" in answer["error"]
    assert (await bot.get("/readyz"))[0] == 503
    bot.feature.gate.set()
    await until(lambda: len(bot.feature.done) == 2, "the queued jobs ran")
    assert (await bot.get("/readyz"))[0] == 200
    # GitHub recorded the failure; the redelivery is accepted and processed.
    assert (await bot.open_pr("refused"))[0] == 202
    await until(lambda: "refused" in bot.feature.done, "the redelivery ran")
    assert sorted(bot.feature.done) == ["refused", "running", "waiting"]


async def test_unconfigured_server_starts_and_refuses_webhooks_with_503() -> None:
    settings = Settings.from_env({}, env_file=None)
    assert not settings.configured
    server = TestServer(create_app(settings), host="127.0.0.1")
    await server.start_server()
    try:
        async with aiohttp.ClientSession() as http:
            body = b"{}"
            headers = webhook_headers("ping", body, SECRET)
            async with http.post(
                server.make_url(settings.webhook_path), data=body, headers=headers
            ) as r:
                assert r.status == 503
                assert "not configured" in (await r.json())["error"]
            async with http.get(server.make_url("/healthz")) as r:
                assert r.status == 200
            async with http.get(server.make_url("/readyz")) as r:
                assert r.status == 503
    finally:
        await server.close()


async def test_custom_webhook_path(start_bot: StartBot) -> None:
    bot = await start_bot(webhook_path="/hooks/lockin")
    status, _ = await bot.deliver("ping", load_example("ping.event.1"))
    assert status == 200
    body = b"{}"
    async with bot.http.post(
        bot.server.make_url("/api/github/webhooks"),
        data=body,
        headers=webhook_headers("ping", body, SECRET),
    ) as response:
        assert response.status == 404


def test_signature_helper_matches_githubs_documented_example() -> None:
    # GitHub's docs: secret "It's a Secret to Everybody", payload "Hello, World!".
    expected = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"
    assert sign(b"Hello, World!", SECRET) == expected
