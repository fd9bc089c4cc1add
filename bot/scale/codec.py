"""Values stored in Redis, signed with a key derived from the App's private key.

Cached censuses are Python objects (pickled). Unpickling runs code, so a value is only
unpickled when its HMAC proves it was written by a process holding the App's private key;
anyone else able to write to Redis can at worst cause cache misses. The Redis key a value is
stored under is signed with it: a value copied to another key (a harmless file's bytes under a
kernel file's blob key, a private repository's census under a public one's) is a miss too.
Objects every process already holds (the engine's rule registry) are written as references,
not copies.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import logging
import pickle
from collections.abc import Mapping
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

log = logging.getLogger("lockin.scale")

_MAC_SIZE = hashlib.sha256().digest_size


def derive_key(private_key: str, purpose: bytes) -> bytes:
    """A 32-byte key for one purpose, derived from the App's private key (HKDF-SHA256)."""
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"lockin-redis", info=purpose)
    return hkdf.derive(private_key.encode())


class SignedPickle:
    def __init__(self, key: bytes, *, shared: Mapping[str, object] | None = None) -> None:
        self._key = key
        self._shared = dict(shared or {})
        self._names = {id(obj): name for name, obj in self._shared.items()}

    def dumps(self, value: Any, *, name: str) -> bytes:
        """The signed bytes of ``value``, valid only under the Redis key ``name``."""
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.persistent_id = lambda obj: self._names.get(id(obj))  # type: ignore[method-assign]
        pickler.dump(value)
        data = buffer.getvalue()
        return self._mac(name, data) + data

    def loads(self, raw: bytes, *, name: str) -> Any | None:
        """The value, or None (a miss) when it is not ours, was written under another key
        than ``name``, or cannot be read."""
        mac, data = raw[:_MAC_SIZE], raw[_MAC_SIZE:]
        if not hmac.compare_digest(mac, self._mac(name, data)):
            log.warning("a value in Redis has a wrong signature; ignored")
            return None
        unpickler = pickle.Unpickler(io.BytesIO(data))
        unpickler.persistent_load = self._shared.__getitem__  # type: ignore[method-assign]
        try:
            return unpickler.load()
        except Exception as exc:
            # Ours, but written by another version of lockin (a rolling deploy): a miss.
            log.warning("a cached value could not be read (%s); ignored", exc)
            return None

    def _mac(self, name: str, data: bytes) -> bytes:
        # The key's length first, so no split of key and data reads as another pair.
        bound = name.encode("utf-8", "surrogateescape")
        return hmac.digest(self._key, len(bound).to_bytes(4, "big") + bound + data, "sha256")
