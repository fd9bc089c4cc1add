"""The webhook endpoint: verify, deduplicate, queue, answer; the work happens later.

GitHub gives a delivery 10 s and never redelivers a failure by itself, so the answer comes
as soon as the delivery is safely queued. Status codes:
200 ping · 202 queued, ignored (no handler, or no `installation`: not an App delivery, nothing
an installation token could act on) or duplicate · 400 missing GitHub headers or
malformed payload · 401 missing or wrong `X-Hub-Signature-256` · 403 the sender is not in
GitHub's hook ranges (GITHUB_HOOKS_ONLY) · 408 body stalled between chunks or not received
within its deadline · 413 above 25 MB ·
415 neither `application/json` nor `application/x-www-form-urlencoded` (GitHub's "form"
content type, whose JSON is in the `payload` field) · 503 not configured, the queue is
full, or no admission slot came free in time (GitHub records the failure; the delivery can
be redelivered). Bodies are read in bounded memory and time, per peer
(bot.server.signed_body, bot.server.peers).
"""

from __future__ import annotations

import logging
import time

from aiohttp import web
from gidgethub import BadRequest, sansio

from bot.runtime.jobs import Job
from bot.server.keys import SERVICES, WebServices
from bot.server.peers import client_address, peer_key
from bot.server.signed_body import BodyRefused, read_signed

CONTENT_TYPES = ("application/json", "application/x-www-form-urlencoded")
# Before the signature is checked the event name is an untrusted label value.
UNVERIFIED = "unverified"

log = logging.getLogger("lockin.webhook")


async def receive(request: web.Request) -> web.Response:
    started = time.monotonic()
    services = request.app[SERVICES]
    status, outcome, event_name, detail = await _handle(request, services)
    services.metrics.deliveries.labels(event_name, outcome).inc()
    body = {"status": outcome} if status < 400 else {"error": detail}
    delivery_id = request.headers.get("X-GitHub-Delivery")
    if delivery_id:
        body["delivery"] = delivery_id
    log.log(
        logging.INFO if status < 400 else logging.WARNING,
        "delivery %s: %s",
        event_name,
        outcome,
        extra={
            "delivery_id": delivery_id,
            "event": event_name,
            "outcome": outcome,
            "http_status": status,
            "detail": detail,
            "ms": round((time.monotonic() - started) * 1000, 2),
        },
    )
    return web.json_response(body, status=status)


async def _handle(request: web.Request, services: WebServices) -> tuple[int, str, str, str | None]:
    """(HTTP status, outcome, event label, detail for the sender)."""
    settings = services.settings
    if not settings.configured or services.queue is None:
        return (
            503,
            "not_configured",
            UNVERIFIED,
            (
                "lockin is not configured: set APP_ID, PRIVATE_KEY and WEBHOOK_SECRET, "
                "or register the app from this server's setup page"
            ),
        )
    if request.content_type not in CONTENT_TYPES:
        return (
            415,
            "bad_content_type",
            UNVERIFIED,
            (
                f"content type {request.content_type!r} is not supported; "
                "set the webhook's content type to application/json"
            ),
        )
    event_name = request.headers.get("X-GitHub-Event", "")
    delivery_id = request.headers.get("X-GitHub-Delivery", "")
    if not event_name or not delivery_id:
        return (
            400,
            "missing_headers",
            UNVERIFIED,
            ("X-GitHub-Event and X-GitHub-Delivery headers are required"),
        )
    signature = request.headers.get("X-Hub-Signature-256")
    if not signature:
        return 401, "bad_signature", UNVERIFIED, "X-Hub-Signature-256 header is missing"
    if not signature.startswith("sha256=") or not signature.isascii():
        # gidgethub also takes "sha1=" here (a downgrade) and its compare_digest raises
        # TypeError on non-ASCII text (a 500 anyone could cause without the secret).
        return 401, "bad_signature", UNVERIFIED, "X-Hub-Signature-256 is not sha256=<hex digest>"
    assert settings.webhook_secret  # configured
    client = client_address(request, settings.trusted_proxies)
    if settings.github_hooks_only and not services.hook_ranges.admits(client):
        return 403, "not_github", UNVERIFIED, "deliveries are accepted only from GitHub"
    try:
        body = await read_signed(
            request, services.bodies, peer_key(client), settings.webhook_secret, signature
        )
    except BodyRefused as refused:
        return refused.status, refused.outcome, UNVERIFIED, refused.detail
    headers = {
        "content-type": request.headers["Content-Type"],
        "x-github-event": event_name,
        "x-github-delivery": delivery_id,
    }
    try:
        # The signature is checked above (SHA-256 only); this only decodes the payload.
        event = sansio.Event.from_http(headers, body)
    except (BadRequest, RecursionError, LookupError, ValueError):
        # RecursionError: JSON nested deeper than the parser goes; LookupError: a charset
        # Python does not know; ValueError: bytes that are not in the charset named. Each
        # would otherwise answer 500.
        return 400, "malformed", event_name, "the payload is not valid JSON in its charset"
    if not isinstance(event.data, dict):
        return 400, "malformed", event_name, "the payload is not a JSON object"
    if event.event == "ping":
        return 200, "pong", event_name, None
    if not services.router.fetch(event):
        return 202, "ignored", event_name, None
    installation = event.data.get("installation")
    if installation is not None and not isinstance(installation, dict):
        return 400, "malformed", event_name, "the payload's installation is not an object"
    if installation is None or not isinstance(installation.get("id"), int):
        # A repository or organisation webhook's payload: handlers act for an installation.
        return 202, "no_installation", event_name, None
    deliveries = services.caches.deliveries
    if not await deliveries.claim(delivery_id):
        return 202, "duplicate", event_name, None
    if not await services.queue.submit(Job(delivery_id, event_name, event.data)):
        await deliveries.release(delivery_id)
        return (
            503,
            "unavailable",
            event_name,
            ("the job queue is full or unreachable; redeliver later"),
        )
    return 202, "queued", event_name, None
