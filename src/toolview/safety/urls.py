"""Decide whether a link target from untrusted text may become a link.

Browsers forgive a lot before they parse a scheme: they drop tabs and
newlines anywhere (``java\\tscript:``), strip leading controls and spaces
(``\\x01javascript:``), ignore case, and treat ``//host`` as "same scheme" and
``\\`` as ``/``. Instead of listing bad schemes, only an explicit
``http``/``https`` URL with a plain host is accepted, and any character a
browser might silently drop or reinterpret rejects the whole URL.
"""

from __future__ import annotations

import re

from toolview.safety.invisible import INVISIBLE_CLASS

__all__ = ["safe_url"]

_FORBIDDEN = re.compile(rf"[\x00-\x20\x7f-\x9f\\\s{INVISIBLE_CLASS}\u200c\u200d]")
_HTTP_URL = re.compile(
    r"https?://"
    r"(?:\[[0-9A-Fa-f:.]+\]|[^\s/?#@:\[\]]+)"  # host: IPv6 literal or name, no userinfo
    r"(?::[0-9]{1,5})?"
    r"(?:[/?#].*)?",
    re.IGNORECASE | re.DOTALL,
)


def safe_url(url: str) -> str | None:
    """The URL, trimmed, if it is ``http``/``https`` with a host; else ``None``.

    Rejected too: credentials in the authority (``https://good.com@evil.com``
    reads as good.com but goes to evil.com), and any whitespace, control,
    backslash or invisible character left after trimming.
    """
    candidate = url.strip()
    if not candidate or _FORBIDDEN.search(candidate):
        return None
    if _HTTP_URL.fullmatch(candidate) is None:
        return None
    return candidate
