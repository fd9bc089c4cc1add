"""GitHub's meta information: the address ranges webhook deliveries come from."""

from __future__ import annotations

import ipaddress

from bot.github.client import GitHub
from bot.github.errors import GitHubError

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


async def hook_networks(gh: GitHub) -> tuple[Network, ...]:
    """The `hooks` ranges of `GET /meta`; GitHubError if the answer has none usable (an
    empty list would refuse every delivery, so it is an error too)."""
    answer = await gh.getitem("/meta")
    hooks = answer.get("hooks") if isinstance(answer, dict) else None
    if not isinstance(hooks, list) or not hooks:
        raise GitHubError("GET /meta: the answer lists no hooks ranges")
    try:
        return tuple(ipaddress.ip_network(str(item), strict=False) for item in hooks)
    except ValueError as exc:
        raise GitHubError(f"GET /meta: a hooks range is not a network: {exc}") from None
