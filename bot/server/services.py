"""The long-lived parts of one running app, shared by its request handlers and workers."""

from __future__ import annotations

from dataclasses import dataclass, field

from aiohttp import web
from gidgethub.routing import Router

from bot.github.auth import AppAuth
from bot.server.caches import Caches
from bot.server.jobs import JobQueue
from bot.server.metrics import Metrics
from bot.server.settings import Settings
from bot.server.signed_body import BodyAdmission


@dataclass
class Services:
    settings: Settings
    router: Router
    metrics: Metrics = field(default_factory=Metrics)
    caches: Caches = field(default_factory=Caches)
    # Set while the app runs (configured apps only).
    auth: AppAuth | None = None
    queue: JobQueue | None = None
    # Admission of webhook bodies not yet authenticated (bounded memory).
    bodies: BodyAdmission = field(default_factory=BodyAdmission)


SERVICES = web.AppKey("lockin_services", Services)
