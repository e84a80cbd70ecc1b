"""The browser a request comes from, as fair play keeps it (docs/rules.md, "Fair play"):
its device identifier (a long-lived signed random cookie, set on the first visit by
``jokeren.device.DeviceMiddleware``, kept across log-out), the network prefix of its
address (never the full address) and its user agent."""

from __future__ import annotations

from dataclasses import dataclass
from ipaddress import IPv4Address, ip_address, ip_network
from typing import Any

#: How much of an address is kept: the network, not the host.
IPV4_PREFIX = 24
IPV6_PREFIX = 48
#: The most characters of a user agent kept.
USER_AGENT_CHARS = 300


@dataclass(frozen=True)
class Device:
    """``id``: the device identifier; ``known``: the browser brought it (a signed cookie
    of an earlier visit), not one just made for a client that keeps no cookie."""

    id: str
    known: bool
    network: str
    user_agent: str


def network_prefix(address: str) -> str:
    """The network of ``address``: its ``/24`` (IPv4) or ``/48`` (IPv6), e.g.
    ``192.0.2.0/24``; empty for anything that is no address."""
    try:
        parsed = ip_address(address.strip())
    except ValueError:
        return ""
    bits = IPV4_PREFIX if isinstance(parsed, IPv4Address) else IPV6_PREFIX
    return str(ip_network(f"{parsed}/{bits}", strict=False))


def device_of(request: Any) -> Device | None:
    """The device ``DeviceMiddleware`` read or made for ``request`` (``None`` outside it:
    a test's request factory, a management command)."""
    device = getattr(request, "device", None)
    return device if isinstance(device, Device) else None
