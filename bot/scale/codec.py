"""Values stored in Redis, signed with a key derived from the App's private key.

Cached censuses are Python objects (pickled). Unpickling runs code, so a value is only
unpickled when its HMAC proves it was written by a process holding the App's private key;
anyone else able to write to Redis can at worst cause cache misses.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import pickle
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
    def __init__(self, key: bytes) -> None:
        self._key = key

    def dumps(self, value: Any) -> bytes:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        return hmac.digest(self._key, data, "sha256") + data

    def loads(self, raw: bytes) -> Any | None:
        """The value, or None (a miss) when the signature does not match."""
        mac, data = raw[:_MAC_SIZE], raw[_MAC_SIZE:]
        if not hmac.compare_digest(mac, hmac.digest(self._key, data, "sha256")):
            log.warning("a value in Redis has a wrong signature; ignored")
            return None
        return pickle.loads(data)
