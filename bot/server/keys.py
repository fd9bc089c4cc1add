"""Where the aiohttp application keeps the app's services."""

from __future__ import annotations

from aiohttp import web

from bot.runtime.services import Services

SERVICES = web.AppKey("lockin_services", Services)
