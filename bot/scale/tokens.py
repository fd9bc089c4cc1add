"""Installation tokens shared by every process through Redis, encrypted.

Why share them: each of M workers minting its own token for each installation costs M
requests an hour per installation on the App's JWT budget, and a burst after a deploy
mints M at once. Why encrypt them: a token is write access to the installation's
repositories for an hour, and Redis is often reachable by more than the App. They are
sealed with AES-GCM under a key derived from the App's private key, which every process
that may use a token holds anyway (it could mint one), so reading Redis gains nothing.
Each entry lives until the token's refresh time (TTL), and `forget` (installation deleted
or suspended, or GitHub refusing the token) removes it for everyone.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.github import auth as app_auth
from bot.scale.locks import RedisKeyedLock

log = logging.getLogger("lockin.scale")

_NONCE = 12


class TokenVault:
    def __init__(self, redis: Redis, namespace: str, key: bytes) -> None:
        self._redis = redis
        self._namespace = namespace
        self._aead = AESGCM(key)

    def _name(self, installation_id: int) -> str:
        return f"{self._namespace}{installation_id}"

    async def get(self, installation_id: int) -> tuple[str, float] | None:
        """(token, seconds it may still be used) or None."""
        name = self._name(installation_id)
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.get(name)  # queued one by one, as redis's types describe a pipeline
                pipe.pttl(name)
                sealed, ttl_ms = await pipe.execute()
        except RedisError as exc:
            log.warning("token vault unreachable (%s); minting locally", exc)
            return None
        if sealed is None or ttl_ms <= 0:
            return None
        try:
            plain = self._aead.decrypt(sealed[:_NONCE], sealed[_NONCE:], name.encode())
        except InvalidTag:
            log.warning("token vault entry for installation %s does not open", installation_id)
            return None
        return plain.decode(), ttl_ms / 1000

    async def put(self, installation_id: int, token: str, usable_for: float) -> None:
        if usable_for < 1:
            return
        name = self._name(installation_id)
        nonce = os.urandom(_NONCE)
        sealed = nonce + self._aead.encrypt(nonce, token.encode(), name.encode())
        try:
            await self._redis.set(name, sealed, px=int(usable_for * 1000))
        except RedisError as exc:
            log.warning("token vault unreachable (%s); token kept locally", exc)

    async def delete(self, installation_id: int) -> None:
        try:
            await self._redis.delete(self._name(installation_id))
        except RedisError as exc:
            log.warning("token vault unreachable (%s); the entry expires by itself", exc)


class SharedTokenAuth(app_auth.AppAuth):
    """AppAuth whose mint first looks in the vault, and whose new tokens go into it.

    It hooks AppAuth's single mint point (`_mint`): every token, local or shared, still
    passes through AppAuth's per-process cache and single-flight.
    """

    def __init__(self, *args: Any, vault: TokenVault, locks: RedisKeyedLock, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._vault = vault
        # Processes that all miss at once (after a deploy) mint one token, not one each.
        self._locks = locks
        self._deletions: set[asyncio.Task[None]] = set()

    async def _mint(self, installation_id: int) -> str:
        token = await self._shared(installation_id)
        if token is not None:
            return token
        async with self._locks.hold(str(installation_id)):
            token = await self._shared(installation_id)
            if token is not None:
                return token
            token = await super()._mint(installation_id)
            usable_for = self._tokens[installation_id].refresh_at - time.monotonic()
            await self._vault.put(installation_id, token, usable_for)
            return token

    async def _shared(self, installation_id: int) -> str | None:
        shared = await self._vault.get(installation_id)
        if shared is None:
            return None
        token, usable_for = shared
        self._on_secret(token)
        self._tokens[installation_id] = app_auth._Token(token, time.monotonic() + usable_for)
        return token

    def forget(self, installation_id: int, *, refused: str | None = None) -> bool:
        if not super().forget(installation_id, refused=refused):
            return False  # another job already replaced it, here and in the vault
        task = asyncio.get_running_loop().create_task(self._vault.delete(installation_id))
        self._deletions.add(task)
        task.add_done_callback(self._deletions.discard)
        return True
