"""The webhook lock-out attack of issue 28 against a real `lockin serve` process:

    python bench/admission_lockout.py [--source DIR] [--attacker-address 127.0.0.2] [--large]

1. starts `python -m bot serve` (from `--source`, default this checkout) on loopback, App
   credentials generated here, GitHub pointed at a closed loopback port (the jobs fail
   later; this measures whether deliveries are *answered*, which is what GitHub records);
2. starts one attacker process that keeps `--connections` (40) connections stalled: each
   sends a webhook's headers announcing a 1,000-byte body and one byte of it, then waits;
   when the server drops or answers it, it reconnects at once;
3. once every attacking connection is open, sends `--deliveries` (20) genuine signed
   `pull_request` deliveries (GitHub's real example payload) one after the other from
   127.0.0.1, each given GitHub's 10 s, and counts the 2xx answers; `/readyz` is read
   after each.

With `--large` each stalled upload sends just past 1 MiB first, from two addresses
(127.0.0.2 and 127.0.0.3) so as to hold both large-body slots, and every genuine delivery is
padded past 1 MiB too (a large push).

The attacker sends from `--attacker-address` (comma-separated; another loopback address by
default: an attacker is not at GitHub's address). Everything stays on loopback and is bounded in
count and time (`--deadline`). Prints one JSON line; exits 1 if fewer than `--need`
deliveries were answered 2xx.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
PAYLOAD = ROOT / "tests" / "contract" / "webhook-examples" / "pull_request.opened.2.json"
SECRET = "bench-secret"
GITHUB_PATIENCE = 10.0
DECLARED_BODY = 1000
#: Bytes past bot.server.signed_body.SMALL_BODY (1 MiB): a body that needs a large slot.
LARGE_BODY = 2**20 + 1


# -- the attacker (its own process) -----------------------------------------------------------


async def _stall_once(host: str, port: int, source: str, sent: int) -> None:
    reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
    try:
        writer.write(
            b"POST /api/github/webhooks HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: application/json\r\nX-GitHub-Event: pull_request\r\n"
            b"X-GitHub-Delivery: " + str(uuid.uuid4()).encode() + b"\r\n"
            b"X-Hub-Signature-256: sha256=" + b"0" * 64 + b"\r\n"
            b"Content-Length: " + str(sent + DECLARED_BODY).encode() + b"\r\n\r\n"
            b"{" + b" " * (sent - 1)
        )
        await writer.drain()
        await reader.read()  # until the server answers and closes, or drops us
    finally:
        writer.close()


async def attack(
    port: int, sources: list[str], connections: int, deadline: float, sent: int
) -> None:
    """Keep `connections` stalled uploads open, from `sources` in turn, until killed (or
    `deadline`); each sends `sent` bytes of its body before it stalls."""
    opened = 0
    reconnects = 0

    async def one(source: str) -> None:
        nonlocal opened, reconnects
        first = True
        while True:
            try:
                task = asyncio.ensure_future(_stall_once("127.0.0.1", port, source, sent))
                if first:
                    await asyncio.sleep(0.05)  # its headers are on the wire
                    opened += 1
                    if opened == connections:
                        print("ready", flush=True)
                    first = False
                await task
            except OSError:
                await asyncio.sleep(0.01)
            reconnects += 1

    tasks = [asyncio.create_task(one(sources[n % len(sources)])) for n in range(connections)]
    await asyncio.sleep(deadline)
    for task in tasks:
        task.cancel()
    print(json.dumps({"reconnects": reconnects}), flush=True)


# -- the server ---------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _private_key() -> str:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


async def _start_server(source: Path, port: int, workdir: str) -> asyncio.subprocess.Process:
    environ = {
        **os.environ,
        "PYTHONPATH": str(source),
        "APP_ID": "1",
        "PRIVATE_KEY": _private_key(),
        "WEBHOOK_SECRET": SECRET,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "GITHUB_API_URL": f"http://127.0.0.1:{_free_port()}",  # nothing listens there
        "JOB_RETRY_DELAYS": "off",
        "RETRY_ATTEMPTS": "1",
        "ANALYSIS_PROCESSES": "1",
        "HISTORY_BACKFILL_POINTS": "0",
        "LOCKIN_DB_PATH": ":memory:",
        "LOG_LEVEL": "critical",
        "SHUTDOWN_TIMEOUT": "1",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "serve",
        env=environ,
        cwd=workdir,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    async with aiohttp.ClientSession() as http:
        for _ in range(600):
            try:
                async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                    if response.status == 200:
                        return process
            except aiohttp.ClientConnectionError:
                await asyncio.sleep(0.05)
    process.kill()
    raise SystemExit("the server did not start")


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(process.wait(), 10)
    except TimeoutError:
        process.kill()
        await process.wait()


# -- the genuine deliveries -------------------------------------------------------------------


def _sign(body: bytes) -> str:
    import hashlib
    import hmac

    return "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()


async def _deliver(http: aiohttp.ClientSession, url: str, body: bytes) -> tuple[str, float]:
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "GitHub-Hookshot/bench",
        "X-GitHub-Event": "pull_request",
        "X-GitHub-Delivery": str(uuid.uuid4()),
        "X-Hub-Signature-256": _sign(body),
    }
    started = time.perf_counter()
    try:
        async with http.post(
            url, data=body, headers=headers, timeout=aiohttp.ClientTimeout(total=GITHUB_PATIENCE)
        ) as response:
            await response.read()
            status = str(response.status)
    except TimeoutError:
        status = "timeout"
    except aiohttp.ClientError as exc:
        status = type(exc).__name__
    return status, time.perf_counter() - started


async def run(args: argparse.Namespace) -> dict[str, object]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="lockin-bench-") as workdir:
        server = await _start_server(args.source, port, workdir)
        attacker = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--attack",
            str(port),
            "--attacker-address",
            args.attacker_address,
            "--connections",
            str(args.connections),
            "--deadline",
            str(args.deadline),
            *(["--large"] if args.large else []),
            stdout=asyncio.subprocess.PIPE,
        )
        assert attacker.stdout is not None
        try:
            ready = await asyncio.wait_for(attacker.stdout.readline(), args.deadline)
            if ready.strip() != b"ready":
                raise SystemExit("the attacker did not open its connections")
            body = PAYLOAD.read_bytes()
            if args.large:
                body += b" " * LARGE_BODY  # JSON allows trailing white space
            statuses: dict[str, int] = {}
            ready_statuses: dict[str, int] = {}
            seconds: list[float] = []
            connector = aiohttp.TCPConnector(local_addr=("127.0.0.1", 0))
            async with aiohttp.ClientSession(connector=connector) as http:
                for _ in range(args.deliveries):
                    status, took = await _deliver(http, base + "/api/github/webhooks", body)
                    statuses[status] = statuses.get(status, 0) + 1
                    seconds.append(took)
                    async with http.get(base + "/readyz") as response:
                        key = str(response.status)
                        ready_statuses[key] = ready_statuses.get(key, 0) + 1
                    await asyncio.sleep(args.spacing)
        finally:
            attacker.kill()
            await attacker.wait()
            await _stop(server)
    answered = sum(n for status, n in statuses.items() if status.startswith("2"))
    return {
        "source": str(args.source),
        "attacker_address": args.attacker_address,
        "large_bodies": args.large,
        "attacking_connections": args.connections,
        "deliveries": args.deliveries,
        "answered_2xx": answered,
        "statuses": statuses,
        "readyz_during_attack": ready_statuses,
        "delivery_seconds_median": round(statistics.median(seconds), 3),
        "delivery_seconds_max": round(max(seconds), 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", default=str(ROOT), help="checkout whose `bot` is served")
    parser.add_argument("--attacker-address", help="default 127.0.0.2 (--large: and .3)")
    parser.add_argument("--large", action="store_true", help="stall and deliver past 1 MiB")
    parser.add_argument("--connections", type=int, default=40)
    parser.add_argument("--deliveries", type=int, default=20)
    parser.add_argument("--need", type=int, default=19)
    parser.add_argument("--spacing", type=float, default=0.25, help="seconds between deliveries")
    parser.add_argument("--deadline", type=float, default=300.0)
    parser.add_argument("--attack", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.source = Path(args.source).resolve()
    if args.attacker_address is None:
        args.attacker_address = "127.0.0.2,127.0.0.3" if args.large else "127.0.0.2"
    if args.attack is not None:
        sources = args.attacker_address.split(",")
        sent = LARGE_BODY if args.large else 1
        asyncio.run(attack(args.attack, sources, args.connections, args.deadline, sent))
        return 0
    result = asyncio.run(asyncio.wait_for(run(args), args.deadline))
    print(json.dumps(result))
    answered = result["answered_2xx"]
    return 0 if isinstance(answered, int) and answered >= args.need else 1


if __name__ == "__main__":
    sys.exit(main())
