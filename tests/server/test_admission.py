"""Admission of unverified webhook bodies under abuse (issue 28): slots per peer, a chunk
idle timeout, a wait for a slot, saturation in the metrics and readiness, trusted proxies,
and GitHub's hook ranges. Real server on loopback; attackers are raw sockets from other
loopback addresses (127.0.0.2, ...), as an attacker is not at GitHub's address."""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Callable
from typing import Any

import aiohttp

from bot.server.keys import SERVICES
from bot.server.signed_body import SMALL_BODY
from tests.fakegithub import FakeGitHub
from tests.server.conftest import Bot, StartBot, until
from tests.support.server import SECRET
from tests.support.webhooks import pull_request_event, webhook_headers

#: Seconds that no test waits for: a stall the server must not cut off during the test.
FOREVER = 120.0
#: Settings under which a stalled upload keeps its slot for the whole test.
HELD_STALLS = {"webhook_chunk_timeout": FOREVER, "webhook_body_deadline": FOREVER}


class Upload:
    """A webhook upload announcing a 1,000-byte body that sends one byte and stalls."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def stall(
        cls, bot: Bot, source: str = "127.0.0.2", sent: int = 1, **headers: str
    ) -> Upload:
        """An upload from `source` announcing `sent` + 999 bytes that stalls after `sent`."""
        reader, writer = await asyncio.open_connection(
            bot.server.host, bot.server.port, local_addr=(source, 0)
        )
        extra = "".join(f"{name.replace('_', '-')}: {value}\r\n" for name, value in headers.items())
        writer.write(
            b"POST /api/github/webhooks HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: application/json\r\nX-GitHub-Event: pull_request\r\n"
            b"X-GitHub-Delivery: stalled\r\nX-Hub-Signature-256: sha256=" + b"0" * 64 + b"\r\n"
            b"Content-Length: " + str(sent + 999).encode() + b"\r\n" + extra.encode() + b"\r\n"
            b"{" + b" " * (sent - 1)
        )
        await writer.drain()
        return cls(reader, writer)

    async def answer(self) -> tuple[int, dict[str, Any]]:
        """The server's answer: (status, JSON body)."""
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, json.loads(await self.reader.readexactly(length))

    def close(self) -> None:
        self.writer.close()


async def deliver_from(
    bot: Bot, source: str, padding: int = 0, **headers: str
) -> tuple[int, dict[str, Any]]:
    """A genuine signed delivery sent from the loopback address `source`, its JSON padded
    with `padding` spaces (GitHub's large pushes run to megabytes)."""
    event = json.dumps(pull_request_event(bot.fake, bot.repo, bot.pr, "opened"))
    body = (event + " " * padding).encode()
    signed = {**webhook_headers("pull_request", body, SECRET), **headers}
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with (
        aiohttp.ClientSession(connector=connector) as http,
        http.post(bot.webhook_url, data=body, headers=signed) as response,
    ):
        return response.status, await response.json()


def _holding(bot: Bot, slots: int) -> Callable[[], bool]:
    return lambda: bot.server.app[SERVICES].bodies.in_use == slots


def _metric(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} not in /metrics")


async def test_a_peer_stalling_many_uploads_locks_out_only_itself(start_bot: StartBot) -> None:
    bot = await start_bot(
        webhook_peer_slots=4,
        **HELD_STALLS,
        webhook_slot_wait=0.2,
    )
    uploads = [await Upload.stall(bot) for _ in range(40)]
    await until(_holding(bot, 4), "the attacker's peer holds its four slots")

    for _ in range(5):
        status, answer = await bot.open_pr()
        assert (status, answer["status"]) == (202, "queued")
    # The other 36 found their peer's slots taken and were turned away, unverified.
    refused = [await upload.answer() for upload in uploads[4:]]
    assert {status for status, _ in refused} == {503}
    assert all("from this address" in answer["error"] for _, answer in refused)
    assert bot.server.app[SERVICES].bodies.in_use == 4
    assert "stalled" not in bot.feature.started
    for upload in uploads:
        upload.close()


async def test_a_stalled_body_is_cut_off_after_the_chunk_idle_timeout(
    start_bot: StartBot,
) -> None:
    bot = await start_bot(webhook_chunk_timeout=0.5)
    upload = await Upload.stall(bot)
    status, answer = await upload.answer()
    assert status == 408
    assert answer["error"] == "the body stalled for 0.5 s"
    upload.close()
    status, metrics = await bot.get("/metrics")
    assert 'lockin_webhook_deliveries_total{event="unverified",outcome="stalled_body"} 1.0' in (
        metrics
    )
    assert _metric(metrics, "lockin_webhook_admission_in_use") == 0


async def test_a_delivery_waits_for_a_slot_rather_than_being_refused(
    start_bot: StartBot,
) -> None:
    # One slot per peer, taken by a stalled upload from the delivery's own address: the
    # delivery waits until the stall is cut off, then is read and queued.
    bot = await start_bot(webhook_peer_slots=1, webhook_chunk_timeout=0.5, webhook_slot_wait=60)
    upload = await Upload.stall(bot, "127.0.0.1")
    await until(_holding(bot, 1), "the stalled upload holds the slot")
    status, answer = await bot.open_pr("patient")
    assert (status, answer["status"]) == (202, "queued")
    assert (await upload.answer())[0] == 408
    await until(lambda: "patient" in bot.feature.done, "the delivery's job ran")
    upload.close()


async def test_without_a_free_slot_in_time_a_delivery_is_answered_503(
    start_bot: StartBot,
) -> None:
    bot = await start_bot(
        webhook_peer_slots=1,
        **HELD_STALLS,
        webhook_slot_wait=0.2,
    )
    upload = await Upload.stall(bot, "127.0.0.1")
    await until(_holding(bot, 1), "the stalled upload holds the slot")
    status, answer = await bot.open_pr("turned-away")
    assert status == 503
    assert "this address" in answer["error"]
    assert "turned-away" not in bot.feature.started
    upload.close()


async def test_saturation_shows_in_the_metrics_and_readiness(start_bot: StartBot) -> None:
    bot = await start_bot(
        webhook_body_slots=2,
        webhook_peer_slots=1,
        **HELD_STALLS,
        webhook_slot_wait=FOREVER,
    )
    assert (await bot.get("/readyz"))[0] == 200
    holders = [await Upload.stall(bot, source) for source in ("127.0.0.2", "127.0.0.3")]
    await until(_holding(bot, 2), "both slots are held")
    status, text = await bot.get("/readyz")
    assert (status, json.loads(text)["status"]) == (503, "webhook admission saturated")

    waiter = await Upload.stall(bot, "127.0.0.4")
    await until(lambda: bot.server.app[SERVICES].bodies.waiting == 1, "the third waits")
    metrics = (await bot.get("/metrics"))[1]
    assert _metric(metrics, "lockin_webhook_admission_in_use") == 2
    assert _metric(metrics, "lockin_webhook_admission_waiting") == 1
    assert _metric(metrics, "lockin_webhook_admission_saturated") == 1
    assert _metric(metrics, "lockin_webhook_admission_saturations_total") == 1

    for upload in [*holders, waiter]:
        upload.close()
    await until(_holding(bot, 0), "the closed uploads free their slots")
    assert (await bot.get("/readyz"))[0] == 200
    assert _metric((await bot.get("/metrics"))[1], "lockin_webhook_admission_saturated") == 0


async def test_behind_a_trusted_proxy_each_forwarded_client_is_its_own_peer(
    start_bot: StartBot,
) -> None:
    bot = await start_bot(
        trusted_proxies=(ipaddress.ip_network("127.0.0.1/32"),),
        webhook_peer_slots=1,
        **HELD_STALLS,
        webhook_slot_wait=0.2,
    )
    # Everything arrives from the proxy (127.0.0.1), which names the client it forwards.
    upload = await Upload.stall(bot, "127.0.0.1", X_Forwarded_For="203.0.113.9")
    await until(_holding(bot, 1), "the forwarded attacker holds its slot")

    status, answer = await deliver_from(bot, "127.0.0.1", **{"X-Forwarded-For": "198.51.100.7"})
    assert (status, answer["status"]) == (202, "queued")
    # The address the client wrote itself (leftmost) is not believed: the proxy appended
    # the attacker's real address, whose slot is taken.
    spoofed = {"X-Forwarded-For": "198.51.100.7, 203.0.113.9"}
    assert (await deliver_from(bot, "127.0.0.1", **spoofed))[0] == 503
    upload.close()


async def test_forwarded_addresses_from_an_untrusted_peer_are_ignored(
    start_bot: StartBot,
) -> None:
    bot = await start_bot(
        webhook_peer_slots=1,
        **HELD_STALLS,
        webhook_slot_wait=0.2,
    )
    upload = await Upload.stall(bot, "127.0.0.1", X_Forwarded_For="203.0.113.9")
    await until(_holding(bot, 1), "the upload holds its slot")
    # Naming another client does not buy a slot of its own: both are 127.0.0.1.
    status, _ = await deliver_from(bot, "127.0.0.1", **{"X-Forwarded-For": "198.51.100.7"})
    assert status == 503
    upload.close()


async def test_github_hooks_only_admits_only_the_published_ranges(
    start_bot: StartBot, fake_github: FakeGitHub
) -> None:
    fake_github.hook_ranges = ["127.0.0.1/32", "2606:50c0::/32"]
    bot = await start_bot(github_hooks_only=True)
    ranges = bot.server.app[SERVICES].hook_ranges
    await until(lambda: ranges.networks is not None, "the hook ranges were read")
    (meta,) = fake_github.requests_to("GET", "^/meta$")
    assert "Authorization" not in meta.headers  # a public endpoint: no App JWT sent
    assert meta.contract_errors == []

    assert (await deliver_from(bot, "127.0.0.1"))[0] == 202
    status, answer = await deliver_from(bot, "127.0.0.2")
    assert status == 403
    assert answer["error"] == "deliveries are accepted only from GitHub"
    await until(lambda: len(bot.feature.done) == 1, "the admitted delivery ran")
    assert len(bot.feature.started) == 1


async def test_every_sender_is_admitted_by_default(
    start_bot: StartBot, fake_github: FakeGitHub
) -> None:
    fake_github.hook_ranges = ["127.0.0.1/32"]
    bot = await start_bot()
    assert (await deliver_from(bot, "127.0.0.2"))[0] == 202
    await until(lambda: len(bot.feature.done) == 1, "the delivery ran")
    assert fake_github.requests_to("GET", "^/meta$") == []


async def test_until_the_ranges_are_known_every_sender_is_admitted(
    start_bot: StartBot, fake_github: FakeGitHub
) -> None:
    fake_github.hook_ranges = ["127.0.0.1/32"]
    fake_github.fail("GET", "^/meta$", status=503, times=100)
    bot = await start_bot(github_hooks_only=True, retry_attempts=1)
    await until(lambda: fake_github.requests_to("GET", "^/meta$") != [], "/meta was asked")
    # GitHub's answer failed: refusing now would drop GitHub's own deliveries for good.
    assert bot.server.app[SERVICES].hook_ranges.networks is None
    assert (await deliver_from(bot, "127.0.0.2"))[0] == 202


async def test_senders_stalling_their_headers_hold_no_slot(start_bot: StartBot) -> None:
    bot = await start_bot()
    stalled = []
    for _ in range(40):
        reader, writer = await asyncio.open_connection(
            bot.server.host, bot.server.port, local_addr=("127.0.0.2", 0)
        )
        writer.write(b"POST /api/github/webhooks HTTP/1.1\r\nHost: localhost\r\nX-Git")
        await writer.drain()
        stalled.append(writer)
    # aiohttp hands a request over only once its headers are complete (and bounds their
    # size), so half-sent headers cost a socket, never an admission slot.
    status, answer = await bot.open_pr()
    assert (status, answer["status"]) == (202, "queued")
    assert bot.server.app[SERVICES].bodies.in_use == 0
    reader, long_header = await asyncio.open_connection(bot.server.host, bot.server.port)
    long_header.write(
        b"POST /api/github/webhooks HTTP/1.1\r\nX-Long: " + b"a" * 20_000 + b"\r\n\r\n"
    )
    await long_header.drain()
    assert int((await reader.readline()).split()[1]) in (400, 431)
    for writer in [*stalled, long_header]:
        writer.close()


async def test_stalled_large_uploads_do_not_turn_a_large_delivery_away(
    start_bot: StartBot,
) -> None:
    # Two peers each stall a body past SMALL_BODY, holding both large-body slots: a genuine
    # large delivery waits for one instead of being refused at once, and gets it when a
    # holder goes; one peer cannot take a second large slot by itself.
    bot = await start_bot(**HELD_STALLS, webhook_slot_wait=FOREVER)
    bodies = bot.server.app[SERVICES].bodies
    large = SMALL_BODY + 1
    holders = [await Upload.stall(bot, source, sent=large) for source in ("127.0.0.2", "127.0.0.3")]
    await until(bodies.large.locked, "both large slots are held")
    second = await Upload.stall(bot, "127.0.0.2", sent=large)
    status, answer = await second.answer()
    assert status == 503
    assert "from this address" in answer["error"]

    delivery = asyncio.create_task(deliver_from(bot, "127.0.0.1", padding=large))
    await until(lambda: bodies.waiting == 1, "the large delivery waits for a large slot")
    assert not delivery.done()
    holders[0].close()
    status, answer = await delivery
    assert (status, answer["status"]) == (202, "queued")
    for upload in [*holders, second]:
        upload.close()
