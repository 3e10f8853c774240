"""An MCP App's Content-Security-Policy: its declared origins inside a strict default.

One home for the policy both places an app is drawn use: the live server's app
document (``server.page.calls.app``, as a header with ``sandbox``) and the
standalone page's ``srcdoc`` (as a ``<meta>`` first in the document). Nothing
is allowed by default (``default-src 'none'``); the app's own inline scripts
and styles run; images, fonts and media come from ``data:`` and its declared
resource origins; requests go to its declared connect origins only. The host
checked every origin to be a plain ``https://host[:port]`` before keeping it;
they are checked again here, since props are untrusted wherever they come from.
"""

from __future__ import annotations

import re
from typing import Final

from toolview.contract.mcp_app import McpAppCsp

__all__ = ["app_document", "app_policy"]

_ORIGIN: Final = re.compile(r"https://[a-z0-9.-]{1,253}(:[0-9]{1,5})?")
_DOCTYPE: Final = re.compile(r"\A\s*<!doctype[^>]*>", re.IGNORECASE)


def app_policy(csp: McpAppCsp) -> str:
    """The policy of an app document (no ``sandbox``/``frame-ancestors``: a header adds them)."""
    resources = " ".join(o for o in csp.resource_domains if _ORIGIN.fullmatch(o))
    connect = " ".join(o for o in csp.connect_domains if _ORIGIN.fullmatch(o)) or "'none'"
    loads = f" {resources}" if resources else ""
    return (
        "default-src 'none'; "
        f"script-src 'unsafe-inline'{loads}; style-src 'unsafe-inline'{loads}; "
        f"img-src data:{loads}; font-src data:{loads}; media-src data:{loads}; "
        f"connect-src {connect}; base-uri 'none'; form-action 'none'"
    )


def app_document(html: str, csp: McpAppCsp) -> str:
    """The app's HTML with its policy as the first thing after its doctype.

    A ``<meta>`` policy governs only what comes after it: put first, it holds
    the whole document, and a second policy the app brings can only narrow it.
    """
    meta = f'<meta http-equiv="Content-Security-Policy" content="{app_policy(csp)}">'
    doctype = _DOCTYPE.match(html)
    cut = doctype.end() if doctype else 0
    return f"{html[:cut] or '<!DOCTYPE html>'}{meta}{html[cut:]}"
