"""`GET /api/repos/{owner}/{repo}/history`: the default branch's points, public repositories only.

The endpoint answers anyone, so it serves a repository only while the store knows it as
public (as its latest event said) and no later event hid it: the census's flag, which every
process sees the moment an event arrives, even while the store's own write waits in its
backlog. A private repository, one never seen, one renamed, transferred or deleted (under
its old name) and one the app was removed from all get the same 404: the answer never
tells a private repository exists. While the store does not answer, every name gets the
same 503.
"""

from __future__ import annotations

from aiohttp import web

from bot.server.keys import SERVICES
from bot.server.url_repos import repo_in_path

NOT_FOUND = {"message": "Not Found"}


async def history(request: web.Request) -> web.Response:
    ref = repo_in_path(request)
    store = request.app[SERVICES].store
    if store is None or ref is None:
        return web.json_response(NOT_FOUND, status=404)
    # The store first: while it does not answer, every name gets the same 503.
    known = await store.repository(ref)
    if known is None or not known.public or await request.app[SERVICES].census.is_hidden(ref):
        return web.json_response(NOT_FOUND, status=404)
    trend = await store.current_trend(ref)
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
            "points": [point.as_json() for point in await store.points(ref)],
        },
        headers={"Cache-Control": "public, max-age=300"},
    )


def add_history_routes(app: web.Application) -> None:
    app.router.add_get("/api/repos/{owner}/{repo}/history", history)
