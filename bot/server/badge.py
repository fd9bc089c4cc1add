"""`GET /badge/{owner}/{repo}.svg`: the default branch's share of code locked to NVIDIA, as a badge;
with `?trend`, followed by the change in NVIDIA-only lines over 90 days (from the trend store).

A shields.io-style "flat" badge (grey label, coloured value). Text widths follow shields'
Verdana 11px metrics so the badge looks like its neighbours in a README.
"""

from __future__ import annotations

import contextlib
import hashlib
from html import escape

from aiohttp import web

from bot.engine.trend import Trend
from bot.server.keys import SERVICES
from bot.server.url_repos import repo_in_path
from bot.store import StoreUnavailable

LABEL = "NVIDIA lock-in"

# Advance widths of Verdana at 11px, as shields measures them; other characters take 7.
_WIDTHS: dict[str, float] = {
    " ": 3.87,
    "%": 10.99,
    "-": 4.46,
    ".": 3.51,
    "/": 4.58,
    "?": 5.56,
    "0": 7.0,
    "1": 7.0,
    "2": 7.0,
    "3": 7.0,
    "4": 7.0,
    "5": 7.0,
    "6": 7.0,
    "7": 7.0,
    "8": 7.0,
    "9": 7.0,
    "A": 7.52,
    "D": 8.48,
    "I": 4.63,
    "N": 8.2,
    "V": 7.52,
    "a": 6.66,
    "c": 5.73,
    "d": 6.84,
    "e": 6.59,
    "f": 3.86,
    "g": 6.84,
    "i": 3.02,
    "k": 6.5,
    "l": 3.02,
    "m": 10.68,
    "n": 7.0,
    "o": 6.68,
    "p": 6.84,
    "r": 4.69,
    "s": 5.73,
    "t": 4.33,
    "u": 7.0,
    "w": 8.98,
}
_PADDING = 10  # 5px either side of each text, as in shields' flat style

#: Colours by share of code that could not move off NVIDIA (shields' palette).
GREEN, YELLOWGREEN, YELLOW, ORANGE, RED, GREY = (
    "#4c1",
    "#a4a61d",
    "#dfb317",
    "#fe7d37",
    "#e05d44",
    "#9f9f9f",
)


def text_width(text: str) -> float:
    return sum(_WIDTHS.get(ch, 7.0) for ch in text)


def share_colour(share: float) -> str:
    """Green when almost nothing is locked in, red when a tenth of the code or more is."""
    if share < 0.01:
        return GREEN
    if share < 0.03:
        return YELLOWGREEN
    if share < 0.05:
        return YELLOW
    if share < 0.10:
        return ORANGE
    return RED


def format_share(share: float) -> str:
    """One decimal below 10 %, none above: "0.4%", "12%"; never rounds a non-zero share to 0."""
    percent = share * 100
    if 0 < percent < 0.1:
        return "<0.1%"
    return f"{percent:.1f}%" if percent < 10 else f"{percent:.0f}%"


def render_badge(value: str, colour: str, label: str = LABEL) -> str:
    """The SVG text of a flat badge showing ``label`` and ``value``."""
    label_w = round(text_width(label) + _PADDING)
    value_w = round(text_width(value) + _PADDING)
    total = label_w + value_w
    label_x = label_w * 5  # centres, in the 10x-scaled text coordinates shields uses
    value_x = label_w * 10 + value_w * 5
    title = escape(f"{label}: {value}")
    label_t, value_t = escape(label), escape(value)
    label_len, value_len = (label_w - _PADDING) * 10, (value_w - _PADDING) * 10
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" '
        f'aria-label="{title}"><title>{title}</title>'
        '<linearGradient id="s" x2="0" y2="100%">'
        '<stop offset="0" stop-color="#bbb" stop-opacity=".1"/>'
        '<stop offset="1" stop-opacity=".1"/></linearGradient>'
        f'<clipPath id="r"><rect width="{total}" height="20" rx="3" fill="#fff"/></clipPath>'
        f'<g clip-path="url(#r)"><rect width="{label_w}" height="20" fill="#555"/>'
        f'<rect x="{label_w}" width="{value_w}" height="20" fill="{colour}"/>'
        f'<rect width="{total}" height="20" fill="url(#s)"/></g>'
        '<g fill="#fff" text-anchor="middle" '
        'font-family="Verdana,Geneva,DejaVu Sans,sans-serif" '
        'text-rendering="geometricPrecision" font-size="110">'
        f'<text aria-hidden="true" x="{label_x}" y="150" fill="#010101" fill-opacity=".3" '
        f'transform="scale(.1)" textLength="{label_len}">{label_t}</text>'
        f'<text x="{label_x}" y="140" transform="scale(.1)" textLength="{label_len}">'
        f"{label_t}</text>"
        f'<text aria-hidden="true" x="{value_x}" y="150" fill="#010101" fill-opacity=".3" '
        f'transform="scale(.1)" textLength="{value_len}">{value_t}</text>'
        f'<text x="{value_x}" y="140" transform="scale(.1)" textLength="{value_len}">'
        f"{value_t}</text></g></svg>"
    )


def share_badge(share: float) -> str:
    return render_badge(format_share(share), share_colour(share))


def unknown_badge() -> str:
    return render_badge("unknown", GREY)


# -- the route ----------------------------------------------------------------------

#: Cameo (GitHub's image proxy) and browsers may keep a badge this long.
MAX_AGE = 300
_SVG_HEADERS = {
    "Content-Type": "image/svg+xml; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
    # An SVG opened directly is a document: it may run nothing and load nothing.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
}


async def badge(request: web.Request) -> web.Response:
    """The badge of a repository whose default branch this app has counted.

    Only repositories that installed the app have a census (counted when the app is added
    to them and at each push to their default branch, dropped when they remove the app);
    any other name, and any private repository, answers 404 with an "unknown" badge, so the
    endpoint reveals nothing about repositories it cannot see or that are not public.
    """
    ref = repo_in_path(request)
    store = request.app[SERVICES].census
    result = None
    if ref is not None and await store.is_public(ref):
        result = await store.default_branch(ref)
    if ref is None or result is None:
        return _svg(request, unknown_badge(), status=404, max_age=60)
    share = result.census.nvidia_share()
    value = format_share(share)
    trend_store = request.app[SERVICES].store
    if "trend" in request.query and trend_store is not None:
        # The trend is optional: while the store does not answer, the badge shows the share.
        with contextlib.suppress(StoreUnavailable):
            value += trend_suffix(await trend_store.current_trend(ref))
    return _svg(request, render_badge(value, share_colour(share)), status=200, max_age=MAX_AGE)


def trend_suffix(trend: Trend | None) -> str:
    """` ▲ +240 / 90d`: the change in NVIDIA-only lines over 90 days (or since the oldest
    point within them), for `?trend`; nothing while no earlier point is known."""
    if trend is None or trend.today is None:
        return ""
    before = trend.days_90 if trend.days_90 is not None else trend.days_30
    if before is None:
        return ""
    change = trend.today - before
    arrow = "▲" if change > 0 else "▼" if change < 0 else "="
    return f" {arrow} {change:+,} / 90d"


def _svg(request: web.Request, body: str, *, status: int, max_age: int) -> web.Response:
    etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:20] + '"'
    headers = {**_SVG_HEADERS, "Cache-Control": f"public, max-age={max_age}", "ETag": etag}
    if status == 200 and etag in request.headers.get("If-None-Match", ""):
        return web.Response(
            status=304, headers={"ETag": etag, "Cache-Control": headers["Cache-Control"]}
        )
    return web.Response(status=status, text=body, headers=headers)


def add_badge_routes(app: web.Application) -> None:
    app.router.add_get("/badge/{owner}/{repo}.svg", badge)
