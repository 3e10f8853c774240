"""Whether a host name or address stays on this machine.

One home for the question, asked twice: ``toolview serve`` refuses to bind
anything else without a token, and the clients (``show URL``, ``run --to``,
``capture(to=)``) send ``$TOOLVIEW_TOKEN`` in the clear only to such a host.
Literal on purpose: ``localhost`` and loopback addresses (``127.0.0.0/8``,
``::1``, and ``::ffff:127.x`` spelling the same), never a name a resolver
would have to answer (``localhost.``, ``127.0.0.1.nip.io``), since DNS is
what an attacker on the path controls.
"""

from __future__ import annotations

import ipaddress

__all__ = ["is_loopback"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a bind address, or a URL's host, brackets and all) is this machine."""
    host = host.strip().lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or (mapped is not None and mapped.is_loopback)
