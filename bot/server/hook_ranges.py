"""GitHub's published webhook source ranges (`GET /meta`, `hooks`), kept fresh in the
background, for GITHUB_HOOKS_ONLY.

Until the first answer arrives every sender is admitted (and the log says so): refusing
then would drop GitHub's own deliveries, which it never redelivers, whenever the API is
slow at start-up, while the per-peer slots still bound what anyone else can do. A failed
refresh keeps the last ranges known.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.github.client import GitHub
from bot.github.errors import GitHubError
from bot.github.meta import Network, hook_networks
from bot.server.peers import Address

#: GitHub changes its ranges rarely and announces it; an hour is fresh enough.
REFRESH = 3600.0
RETRY = 60.0

log = logging.getLogger("lockin.server")


class HookRanges:
    def __init__(self) -> None:
        self.networks: tuple[Network, ...] | None = None

    def admits(self, address: Address | None) -> bool:
        if self.networks is None:
            return True
        return address is not None and any(address in network for network in self.networks)

    async def keep_fresh(
        self, client: Callable[[], GitHub], *, refresh: float = REFRESH, retry: float = RETRY
    ) -> None:
        while True:
            try:
                self.networks = await hook_networks(client())
            except GitHubError as exc:
                known = "keeping the last ranges" if self.networks else "admitting every sender"
                log.warning("cannot read GitHub's hook ranges (%s): %s", exc, known)
                await asyncio.sleep(retry)
                continue
            log.info(
                "webhooks admitted only from GitHub's %d hook ranges",
                len(self.networks),
                extra={"hook_ranges": [str(n) for n in self.networks]},
            )
            await asyncio.sleep(refresh)
