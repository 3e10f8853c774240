"""The ``mcp-app`` kind: an MCP App's HTML kept with the tool result that asked for it.

MCP Apps (the official extension, SEP-1865) name a ``ui://`` resource of type
``text/html;profile=mcp-app`` in the tool's ``_meta.ui.resourceUri``. The MCP
host reads it when the call is made — a replay has no server to ask — and keeps
it here beside what the bridge gives the app (the tool's input and raw result).
The kind is open (not in ``KIND_PROPS``): a surface that cannot draw an app
shows the result's text, which always carries everything in words; the HTML
surface validates these props itself before drawing them sandboxed.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

__all__ = ["MAX_APP_BYTES", "MCP_APP_KIND", "MCP_APP_MIME", "McpAppCsp", "McpAppProps"]

MCP_APP_KIND: Final = "mcp-app"
MCP_APP_MIME: Final = "text/html;profile=mcp-app"
MAX_APP_BYTES: Final = 1 << 20  # an app's document; a bigger one is a note, never kept


class McpAppCsp(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """The origins the app declared (``_meta.ui.csp``), already checked to be plain origins."""

    connect_domains: list[str] = msgspec.field(default_factory=list)
    resource_domains: list[str] = msgspec.field(default_factory=list)


class McpAppProps(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """The app's document, where it came from, its declared origins, and the bridge's data."""

    html: str
    resource_uri: str
    csp: McpAppCsp = msgspec.field(default_factory=McpAppCsp)
    tool_input: dict[str, Any] = msgspec.field(default_factory=dict)
    tool_result: dict[str, Any] = msgspec.field(default_factory=dict)
