"""Who sent a request: the socket's peer, or the client a trusted proxy says it forwards.

`X-Forwarded-For` is anyone's to write, so it is read only when the socket's peer is one of
the configured trusted proxies, and then from the right: each trusted hop appended the
address it saw, and the first address that is not a trusted proxy is the client. Anything
unparsable stops the walk at the last address a trusted hop vouched for.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from aiohttp import web

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
#: An IPv6 subscriber usually holds a whole /64: one peer for admission.
_IPV6_PEER_PREFIX = 64


def socket_peer(request: web.Request) -> Address | None:
    """The address at the other end of the socket (None: a Unix socket or a closed one)."""
    peername = request.transport.get_extra_info("peername") if request.transport else None
    if not isinstance(peername, tuple) or not peername:
        return None
    return parse_address(str(peername[0]))


def parse_address(text: str) -> Address | None:
    try:
        address = ipaddress.ip_address(text.strip().split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address, proxies: Sequence[Network]) -> bool:
    return any(address in network for network in proxies)


def client_address(request: web.Request, proxies: Sequence[Network]) -> Address | None:
    """The client's address: the socket's peer, or behind trusted `proxies` the nearest
    untrusted address in X-Forwarded-For."""
    peer = socket_peer(request)
    if peer is None or not proxies or not _trusted(peer, proxies):
        return peer
    hops = [
        hop for header in request.headers.getall("X-Forwarded-For", []) for hop in header.split(",")
    ]
    client = peer
    for hop in reversed(hops):
        address = parse_address(hop)
        if address is None:
            break
        client = address
        if not _trusted(address, proxies):
            break
    return client


def peer_key(address: Address | None) -> str:
    """The admission bucket of an address: itself, or its /64 for IPv6."""
    if address is None:
        return "local"
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, _IPV6_PEER_PREFIX), strict=False))
    return str(address)
