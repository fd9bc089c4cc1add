"""`GET /api/repos/{owner}/{repo}/history`: the default branch's points, public repositories only.

The endpoint answers anyone, so it serves a repository only while the store knows it as
public (as its latest event said). A private repository, one never seen, and one the app
was removed from all get the same 404: the answer never tells a private repository exists.
"""

from __future__ import annotations

import re

from aiohttp import web

from bot.server.keys import SERVICES

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
NOT_FOUND = {"message": "Not Found"}


async def history(request: web.Request) -> web.Response:
    owner, repo = request.match_info["owner"], request.match_info["repo"]
    store = request.app[SERVICES].store
    if store is None or not (_NAME.match(owner) and _NAME.match(repo)):
        return web.json_response(NOT_FOUND, status=404)
    name = f"{owner}/{repo}"
    known = await store.repository(name)
    if known is None or not known.public:
        return web.json_response(NOT_FOUND, status=404)
    trend = await store.current_trend(name)
    return web.json_response(
        {
            "repository": known.full_name,
            "trend": None
            if trend is None
            else {
                "nvidia_locked_lines": trend.today,
                "days_30": trend.days_30,
                "days_90": trend.days_90,
                "slope_per_month": trend.slope_per_month,
            },
            "points": [point.as_json() for point in await store.points(name)],
        },
        headers={"Cache-Control": "public, max-age=300"},
    )


def add_history_routes(app: web.Application) -> None:
    app.router.add_get("/api/repos/{owner}/{repo}/history", history)
