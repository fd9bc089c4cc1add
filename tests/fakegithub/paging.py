"""GitHub's page-number pagination: per_page/page query parameters and the Link header."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar
from urllib.parse import urlencode

T = TypeVar("T")


def paginate(
    items: Sequence[T],
    query: Mapping[str, str],
    url: str,
    *,
    default: int = 30,
    maximum: int = 100,
) -> tuple[Sequence[T], dict[str, str]]:
    """Return one page of items and the Link header (next/last/first/prev) GitHub would send."""
    per_page = min(max(int(query.get("per_page", default)), 1), maximum)
    page = max(int(query.get("page", 1)), 1)
    last = max((len(items) + per_page - 1) // per_page, 1)
    chunk = items[(page - 1) * per_page : page * per_page]

    def link(number: int) -> str:
        params = {**query, "per_page": str(per_page), "page": str(number)}
        return f"{url}?{urlencode(params)}"

    rels = []
    if page < last:
        rels += [f'<{link(page + 1)}>; rel="next"', f'<{link(last)}>; rel="last"']
    if page > 1:
        rels += [f'<{link(1)}>; rel="first"', f'<{link(min(page - 1, last))}>; rel="prev"']
    return chunk, ({"Link": ", ".join(rels)} if rels else {})
