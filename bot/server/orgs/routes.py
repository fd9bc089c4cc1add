"""The organisation pages' routes: each one behind sign-in, each showing only what GitHub
says the signed-in user can read (``bot.server.access``), each one or two queries whatever
the number of repositories."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import quote

import jinja2
import markupsafe
from aiohttp import web

from bot.features.installation import FirstCount
from bot.github.refs import RepoRef
from bot.server.access import Access, current_access, require_access
from bot.server.keys import SERVICES
from bot.server.orgs.figures import (
    COLUMNS,
    Row,
    page_of,
    select_rows,
    table,
    totals,
    trend_totals,
)
from bot.server.url_repos import repo_in_path
from bot.store import Store

ORG = r"{org:[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})}"
REPO = r"{repo:[A-Za-z0-9._-]{1,100}}"
TREND_WEEKS = 24
#: First censuses one page view may queue (the rest on the next views).
FIRST_COUNTS_PER_VIEW = 20
TREND_EVERY = 4  # a point every fourth week: each date costs an index seek per repository
STATIC = "orgs-static"
# Data blocks (<script type="application/json">) are not run; the only script is ours.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)

_TEMPLATES = jinja2.Environment(
    loader=jinja2.PackageLoader("bot.server.orgs", "templates"),
    autoescape=True,  # every name, title and owner comes from a repository: hostile text
    undefined=jinja2.StrictUndefined,
)
_TEMPLATES.filters["number"] = lambda n: "–" if n is None else f"{n:,}"
_TEMPLATES.filters["percent"] = lambda x: "–" if x is None else f"{100 * x:.1f}%"
_TEMPLATES.filters["signed"] = lambda n: "–" if n is None else f"{n:+,}"
_TEMPLATES.filters["day"] = lambda d: "–" if d is None else d.strftime("%Y-%m-%d")


def add_org_routes(app: web.Application) -> None:
    static = resources.files("bot.server.orgs").joinpath("static")
    app.router.add_static("/static/orgs", str(static), name=STATIC, append_version=True)
    app.router.add_get("/", home)
    app.router.add_get("/orgs", org_list)
    app.router.add_get(f"/orgs/{ORG}.csv", org_csv)
    app.router.add_get(f"/orgs/{ORG}.json", org_json)
    app.router.add_get(f"/orgs/{ORG}", org_page)
    app.router.add_get(f"/orgs/{ORG}/{REPO}", repo_page)


def _static(request: web.Request) -> Callable[[str], str]:
    return lambda name: str(request.app.router[STATIC].url_for(filename=name))


def _render(request: web.Request, template: str, **values: Any) -> web.Response:
    page = _TEMPLATES.get_template(template).render(static=_static(request), **values)
    return _respond(page)


def _respond(page: str) -> web.Response:
    response = web.Response(text=page, content_type="text/html", charset="utf-8")
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["Cache-Control"] = "private, no-store"  # pages differ per user
    return response


def _store(request: web.Request) -> Store:
    store = request.app[SERVICES].store
    if store is None:
        raise web.HTTPServiceUnavailable(text="the store is starting")
    return store


def _permitted(access: Access, org: str) -> set[str]:
    prefix = org.lower() + "/"
    return {name for name in access.repositories if name.startswith(prefix)}


async def home(request: web.Request) -> web.Response:
    """A configured server's front door: the organisations the visitor may see (through
    sign-in when signed out), never a bare 404."""
    raise web.HTTPFound("/orgs")


async def org_list(request: web.Request) -> web.Response:
    access = await current_access(request)
    if access is None:
        raise web.HTTPFound("/signin?next=/orgs")
    return _render(request, "orgs.html", access=access, owners=sorted(access.owners))


async def _export_rows(request: web.Request) -> tuple[str, list[Row]]:
    org = request.match_info["org"]
    permitted = _permitted(await require_access(request, org), org)
    found = await _store(request).org_rows(permitted, dt.datetime.now(dt.UTC))
    return org, table(found, permitted)


async def org_page(request: web.Request) -> web.Response:
    org = request.match_info["org"]
    access = await require_access(request, org)
    page = await org_page_html(_store(request), access, org, request.query, _static(request))
    await queue_first_counts(request, access, page.counting)
    return _respond(page.html)


async def queue_first_counts(request: web.Request, access: Access, names: list[str]) -> int:
    """Queue the first census of repositories shown as "counting" (installed while lockin
    was away, or never pushed to), as adding them to the installation does: one job per
    repository an hour, however often the page is loaded. Returns the jobs queued."""
    services = request.app[SERVICES]
    queue = services.queue
    if queue is None:
        return 0
    hour = int(time.time() // 3600)
    queued = 0
    for name in names[:FIRST_COUNTS_PER_VIEW]:
        installation_id = access.installation_of.get(name)
        if installation_id is None:
            continue
        delivery_id = f"lockin-first-count:{name}:{hour}"
        if not await services.caches.deliveries.claim(delivery_id):
            continue  # queued already this hour
        count = FirstCount(installation_id, RepoRef.parse(name), public=name not in access.private)
        if await queue.submit(count.job(delivery_id)):
            queued += 1
        else:
            await services.caches.deliveries.release(delivery_id)
    return queued


async def org_page_html(
    store: Store,
    access: Access,
    org: str,
    params: Mapping[str, str],
    static: Callable[[str], str],
) -> OrgPage:
    """The organisation page for ``access``: one query however many repositories it has
    (the table and the trend come from the same rows)."""
    permitted = _permitted(access, org)
    now = dt.datetime.now(dt.UTC)
    ends = [now - dt.timedelta(weeks=w) for w in range(TREND_WEEKS, -1, -TREND_EVERY)]
    found = await store.org_rows(permitted, now, ends)
    rows = table(found, permitted)
    sort = params.get("sort", "nvidia_locked_lines")
    descending = params.get("dir", "desc") != "asc"
    query = params.get("q", "")
    matching = select_rows(rows, query, sort, descending)
    page = page_of(matching, params.get("page"), params.get("per_page"))
    # Links keep the view; a new sort starts again at page 1 (the pager sets its own page).
    current = {"sort": sort, "dir": "desc" if descending else "asc", "q": query}
    if "per_page" in params:
        current["per_page"] = str(page.size)
    chart = {
        "title": "NVIDIA-only lines, every repository together",
        "x": [int(end.timestamp()) for end in ends],
        "y": trend_totals(found, len(ends)),
    }
    html = _TEMPLATES.get_template("org.html").render(
        static=static,
        access=access,
        org=org,
        rows=page.rows,
        page=page,
        matching=len(matching),
        total_rows=len(rows),
        totals=totals(found, len(permitted)),
        columns=COLUMNS,
        sort=sort,
        descending=descending,
        query=query,
        chart=_script_json(chart),
        link=lambda **changes: _link(org, current | changes),
    )
    return OrgPage(html, [r.repository for r in rows if r.counting])


@dataclass(frozen=True, slots=True)
class OrgPage:
    html: str
    counting: list[str]  # permitted repositories without a census yet


def _script_json(value: Any) -> markupsafe.Markup:
    """JSON for a <script type="application/json"> block: the browser does not decode
    entities there, so nothing is escaped as HTML; instead no character that could end the
    block or start markup is left as itself."""
    text = json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return markupsafe.Markup(text)


def _link(org: str, params: dict[str, str]) -> str:
    query = "&".join(f"{k}={quote(v)}" for k, v in params.items() if v)
    return f"/orgs/{org}?{query}" if query else f"/orgs/{org}"


async def org_json(request: web.Request) -> web.Response:
    org, rows = await _export_rows(request)
    body = {"organisation": org, "repositories": [r.export() for r in rows]}
    response = web.json_response(body, dumps=lambda v: json.dumps(v, indent=2))
    response.headers["Cache-Control"] = "private, no-store"
    return response


async def org_csv(request: web.Request) -> web.Response:
    org, rows = await _export_rows(request)
    out = io.StringIO()
    writer = csv.writer(out)
    exported = [r.export() for r in rows]
    header = ["repository", "status", *(k for k, _ in COLUMNS if k != "repository")]
    writer.writerow(header)
    for row in exported:
        writer.writerow([_cell(row[k]) for k in header])
    response = web.Response(text=out.getvalue(), content_type="text/csv", charset="utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="{org}-lockin.csv"'
    response.headers["Cache-Control"] = "private, no-store"
    return response


def _cell(value: Any) -> str:
    if not isinstance(value, str):
        return "" if value is None else str(value)  # numbers stay numbers (-12 is a number)
    # A spreadsheet runs a text cell starting with these as a formula (CSV injection).
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


async def repo_page(request: web.Request) -> web.Response:
    access = await require_access(request, request.match_info["org"])
    ref = repo_in_path(request, "org", "repo")
    if ref is None or not access.can_read(ref.full_name):
        raise web.HTTPNotFound()
    full_name = ref.full_name.lower()
    store = _store(request)
    now = dt.datetime.now(dt.UTC)
    found = await store.org_rows([full_name], now)
    row = found[0] if found else None
    points = await store.points(ref, now - dt.timedelta(days=365))
    chart = {
        "title": "NVIDIA-only lines",
        "x": [int(p.date.timestamp()) for p in points],
        "y": [p.nvidia_locked_lines for p in points],
    }
    web_url = request.app[SERVICES].settings.web_url
    commit = row.commit if row else "HEAD"
    return _render(
        request,
        "repo.html",
        access=access,
        org=ref.owner,
        full_name=full_name,
        row=row,
        summary=(row.summary if row else None) or {},
        chart=_script_json(chart),
        code_url=lambda path="": f"{web_url}/{full_name}/tree/{commit}/{quote(path)}",
    )
