"""Where the aiohttp application keeps the app's services."""

from __future__ import annotations

from dataclasses import dataclass, field

import aiohttp
from aiohttp import web

from bot.runtime.services import Services
from bot.server.hook_ranges import HookRanges
from bot.server.signed_body import BodyAdmission


@dataclass
class WebServices(Services):
    """The web process's services: the shared ones and what only the webhook endpoint uses."""

    # Admission of webhook bodies not yet authenticated (bounded memory and time); the
    # app replaces it with one built from the settings and wired to the metrics.
    bodies: BodyAdmission = field(default_factory=BodyAdmission)
    # GitHub's published hook ranges, when GITHUB_HOOKS_ONLY is on.
    hook_ranges: HookRanges = field(default_factory=HookRanges)
    # The process's HTTP session while the app runs (GitHub's web endpoints: OAuth).
    http: aiohttp.ClientSession | None = None


SERVICES = web.AppKey("lockin_services", WebServices)
