"""The aiohttp application: webhook endpoint, probes, metrics, and the worker pool."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import aiohttp
from aiohttp import web
from aiohttp.typedefs import Handler
from gidgethub.routing import Router
from prometheus_client import CONTENT_TYPE_LATEST

from bot.features import ROUTER
from bot.github.auth import AppAuth
from bot.github.errors import GitHubError
from bot.runtime.dispatch import run_and_retry
from bot.runtime.github_auth import github_auth
from bot.runtime.jobs import JobQueue, LocalJobQueue
from bot.runtime.logs import REDACTOR
from bot.runtime.metrics import Metrics
from bot.runtime.open_runs import StoredOpenRuns
from bot.runtime.settings import Settings
from bot.runtime.shutdown import within
from bot.runtime.sweep import sweep_open_runs
from bot.server.access import add_signin_routes
from bot.server.badge import add_badge_routes
from bot.server.history_api import add_history_routes
from bot.server.keys import SERVICES, WebServices
from bot.server.manifest import add_setup_routes
from bot.server.orgs import add_org_routes
from bot.server.signed_body import MAX_PAYLOAD, AdmissionLimits, BodyAdmission
from bot.server.webhooks import receive
from bot.store import StoreUnavailable

log = logging.getLogger("lockin.server")

# Seconds a webhook waits for Redis before it is answered 503 (GitHub gives it 10 s).
WEB_REDIS_PATIENCE = 2.0


@web.middleware
async def _store_unavailable(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A page that needs the trend store while it does not answer: 503, the same for every
    repository (it says nothing about which exist)."""
    try:
        return await handler(request)
    except StoreUnavailable:
        return web.json_response(
            {"message": "The trend store is unavailable; try again later."},
            status=503,
            headers={"Retry-After": "30", "Cache-Control": "no-store"},
        )


def create_app(settings: Settings, *, router: Router | None = None) -> web.Application:
    app = web.Application(client_max_size=MAX_PAYLOAD, middlewares=[_store_unavailable])
    services = app[SERVICES] = WebServices(settings=settings, router=router or ROUTER)
    services.bodies = admission(settings, services.metrics)
    REDACTOR.add_static(settings.private_key)
    REDACTOR.add_static(settings.webhook_secret)
    REDACTOR.add_static(settings.github_client_secret)
    REDACTOR.add_static(settings.session_secret)
    REDACTOR.add_static(settings.setup_token)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)
    app.router.add_post(settings.webhook_path, receive)
    if settings.configured:
        app.cleanup_ctx.append(_github_and_workers)
        add_badge_routes(app)
        add_history_routes(app)
        add_signin_routes(app, settings)
        add_org_routes(app)
    else:
        # The app-manifest registration page (issue 6), only while unconfigured.
        add_setup_routes(app, settings)
    return app


def admission(settings: Settings, metrics: Metrics) -> BodyAdmission:
    """The webhook body admission the settings ask for, reporting to `metrics`."""
    bodies = BodyAdmission(
        AdmissionLimits(
            total=settings.webhook_body_slots,
            per_peer=settings.webhook_peer_slots,
            wait=settings.webhook_slot_wait,
            chunk_idle=settings.webhook_chunk_timeout,
            deadline=settings.webhook_body_deadline,
        ),
        on_saturated=metrics.admission_saturations.inc,
    )
    metrics.watch_admission(
        lambda: bodies.in_use, lambda: bodies.waiting, lambda: float(bodies.saturated)
    )
    return bodies


async def _github_and_workers(app: web.Application) -> AsyncIterator[None]:
    services = app[SERVICES]
    settings = services.settings
    session = services.http = aiohttp.ClientSession()
    services.auth = github_auth(settings, session, services.metrics)
    backend = None
    if settings.redis_url:
        # Scale-out (issue 7): this process only verifies, deduplicates and enqueues;
        # `lockin worker` processes run the jobs. Imported here: arq is the `redis` extra.
        from bot.scale.backend import RedisBackend

        backend = RedisBackend(settings, patience=WEB_REDIS_PATIENCE)
        services.share(backend.caches())
        queue: JobQueue = backend.job_queue(capacity=settings.queue_size)
    else:
        queue = LocalJobQueue(
            lambda job: run_and_retry(services, job),
            workers=settings.workers,
            capacity=settings.queue_size,
            shutdown_timeout=settings.shutdown_timeout,
        )
    store = await services.open_store()
    if backend is None:
        # Runs in progress outlive this process in the store: a successor finishes them.
        services.caches.open_runs = StoredOpenRuns(store, services.caches.open_runs)
    services.metrics.watch_queue(queue.depth, queue.capacity)
    await queue.start()
    services.queue = queue
    introduction = asyncio.create_task(_introduce(services.auth))
    sweep = sweep_open_runs(
        services.caches.open_runs,
        queue,
        interval=settings.stale_run_sweep_interval,
        job_timeout=settings.job_timeout,
    )
    background = [introduction, asyncio.create_task(sweep)]
    if settings.github_hooks_only:
        background.append(
            asyncio.create_task(services.hook_ranges.keep_fresh(services.auth.public_client))
        )
    yield
    for task in background:
        task.cancel()
    await within("the background tasks", asyncio.gather(*background, return_exceptions=True))
    await queue.close()  # bounded by SHUTDOWN_TIMEOUT
    services.engine.close()
    await within("closing the trend store", store.close())
    if backend is not None:
        await within("closing Redis", backend.close())
    await session.close()


async def _introduce(auth: AppAuth) -> None:
    """Check the credentials once at start, so a wrong key shows now, not at the first PR."""
    try:
        app = await auth.app_client().getitem("/app")
    except GitHubError as exc:
        log.error("cannot authenticate as GitHub App %s: %s", auth.app_id, exc)
        return
    log.info(
        "authenticated as GitHub App %s (%s)",
        app.get("slug"),
        app.get("name"),
        extra={"app_slug": app.get("slug"), "installations": app.get("installations_count")},
    )


async def healthz(request: web.Request) -> web.Response:
    return web.json_response({"status": "ok"})


async def readyz(request: web.Request) -> web.Response:
    services = request.app[SERVICES]
    if not services.settings.configured:
        return web.json_response({"status": "not configured"}, status=503)
    if services.bodies.saturated:
        # Every admission slot is taken: a balancer should send deliveries elsewhere.
        return web.json_response({"status": "webhook admission saturated"}, status=503)
    if services.queue is None or not services.queue.ready():
        return web.json_response(
            {"status": "queue full or unreachable, or workers stopped"}, status=503
        )
    # Ready either way: the trend is optional, the gate works without it.
    problem = services.store.problem if services.store is not None else "not open yet"
    trend = "ok" if problem is None else f"degraded: {problem}"
    return web.json_response({"status": "ready", "trend": trend})


async def metrics(request: web.Request) -> web.Response:
    body = request.app[SERVICES].metrics.render()
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
