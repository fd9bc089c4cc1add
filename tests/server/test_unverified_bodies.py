"""Webhook bodies nobody has authenticated yet: bounded memory and time, and signed but odd
deliveries answered 400, never 500. Real server on loopback, raw sockets where a client
library would not send what an attacker sends."""

from __future__ import annotations

import asyncio
import json

from bot.server.signed_body import LARGE_SLOTS, SMALL_BODY
from tests.server.conftest import StartBot
from tests.support.server import SECRET
from tests.support.webhooks import load_example, webhook_headers

STALLED = 20


async def _stalled_upload(
    host: str, port: int, sent: int, source: str = "127.0.0.1"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """An unsigned-in-effect upload from `source` announcing 24 MiB that sends `sent` bytes
    and stalls."""
    reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
    writer.write(
        b"POST /api/github/webhooks HTTP/1.1\r\n"
        b"Host: localhost\r\nContent-Type: application/json\r\n"
        b"X-GitHub-Event: pull_request\r\nX-GitHub-Delivery: stalled\r\n"
        b"X-Hub-Signature-256: sha256=" + b"0" * 64 + b"\r\n"
        b"Content-Length: " + str(24 * 2**20).encode() + b"\r\n\r\n"
    )
    writer.write(b"x" * sent)
    await writer.drain()
    return reader, writer  # the caller keeps the writer: collecting it closes the socket


async def _status(reader: asyncio.StreamReader) -> int | str:
    """The answer's status, or "closed": a server that stops reading a body it refused and
    closes the connection makes the kernel reset it, which may cut the answer."""
    try:
        line = await reader.readline()
    except ConnectionResetError:
        return "closed"
    return int(line.split()[1]) if line else "closed"


async def test_stalled_uploads_hold_few_large_slots_and_are_cut_off(start_bot: StartBot) -> None:
    # Each upload from a peer of its own, refused at once when no large slot is free: this is
    # about the large slots' bound on memory. The chunk timeout only has to outlast making
    # the uploads, on a loaded machine too.
    bot = await start_bot(
        webhook_chunk_timeout=10.0, webhook_body_deadline=120.0, webhook_slot_wait=0
    )
    host, port = bot.server.host, bot.server.port
    uploads = [
        await _stalled_upload(host, port, 2 * SMALL_BODY, f"127.0.0.{2 + n}")
        for n in range(STALLED)
    ]

    # A real delivery still gets through while they stall.
    status, answer = await bot.open_pr("real")
    assert (status, answer["status"]) == (202, "queued")

    statuses = await asyncio.gather(*(_status(reader) for reader, _ in uploads))
    # Past SMALL_BODY each needs a large slot: all but LARGE_SLOTS are refused at once,
    # and those are cut off once they stall, never verified.
    assert statuses.count(408) == LARGE_SLOTS
    assert all(status in (503, "closed") for status in statuses if status != 408)
    assert "stalled" not in bot.feature.started
    for _, writer in uploads:
        writer.close()


async def test_a_declared_length_past_the_limit_is_refused_before_reading(
    start_bot: StartBot,
) -> None:
    bot = await start_bot()
    reader, writer = await asyncio.open_connection(bot.server.host, bot.server.port)
    writer.write(
        b"POST /api/github/webhooks HTTP/1.1\r\nHost: localhost\r\n"
        b"Content-Type: application/json\r\nX-GitHub-Event: ping\r\n"
        b"X-GitHub-Delivery: big\r\nX-Hub-Signature-256: sha256=" + b"0" * 64 + b"\r\n"
        b"Content-Length: " + str(26 * 2**20).encode() + b"\r\n\r\n{"
    )
    await writer.drain()
    assert await _status(reader) == 413
    writer.close()


async def test_signed_but_odd_deliveries_answer_400_not_500(start_bot: StartBot) -> None:
    bot = await start_bot()
    payload = load_example("pull_request.opened.1")
    body = json.dumps(payload).encode()
    headers = webhook_headers("pull_request", body, SECRET)
    bogus_charset = {**headers, "Content-Type": "application/json; charset=no-such-charset"}
    status, answer = await bot.post(body, bogus_charset)
    assert status == 400
    assert "charset" in answer["error"]

    for installation in ("octo", [1], 7):
        odd = json.dumps({**payload, "installation": installation}).encode()
        status, answer = await bot.post(odd, webhook_headers("pull_request", odd, SECRET))
        assert status == 400
        assert "installation" in answer["error"]
    assert bot.feature.started == []
