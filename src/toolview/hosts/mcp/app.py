"""An MCP App's ``ui://`` resource: which one a tool names, and reading it safely.

Read when the call is made (a recording is replayed without its server), from
a ``resources/read`` answer in wire JSON — the CLI's raw dispatcher and
``rec.mcp``'s SDK session both give one. Only ``ui://`` URIs are read (a tool
cannot make toolview fetch ``file://`` or ``https://``), only the MCP Apps MIME
type is kept, a document over ``MAX_APP_BYTES`` is refused, and a declared
origin that is not a plain ``https://host[:port]`` is dropped with a note: it
becomes a CSP source, so a quote or a ``;`` in it must never reach a policy.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from toolview.contract.jsontext import compact_json
from toolview.contract.mcp_app import MAX_APP_BYTES, MCP_APP_MIME, McpAppCsp, McpAppProps
from toolview.hosts.mcp.ui import ui_pointers

if TYPE_CHECKING:
    from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

__all__ = ["MAX_RESULT_CHARS", "app_props", "app_uri", "read_app"]

MAX_RESULT_CHARS: Final = 256 * 1024  # the raw result handed to the app; a bigger one is left out
_ORIGIN: Final = re.compile(r"https://[a-z0-9.-]{1,253}(:[0-9]{1,5})?")


def app_uri(tool_meta: object, result_meta: object = None) -> str | None:
    """The ``ui://`` resource an MCP App tool names, or None (other schemes are never read)."""
    blocks, _ = ui_pointers(result_meta, tool_meta)
    return next(
        (
            b.resource_uri
            for b in blocks
            if b.source == "meta.ui" and b.resource_uri.startswith("ui://")
        ),
        None,
    )


def app_props(
    read: object, uri: str, tool_input: Mapping[str, Any], raw_result: object
) -> tuple[McpAppProps | None, list[str]]:
    """The app's props from a ``resources/read`` answer (None if refused), and notes on it."""
    item = _content(read, uri)
    if item is None:
        return None, [f"the server gave no content for {uri}"]
    mime = str(item.get("mimeType", "")).replace(" ", "").lower()
    html = item.get("text")
    if mime != MCP_APP_MIME or not isinstance(html, str):
        return None, [f"{uri} is not an MCP App document ({MCP_APP_MIME} text)"]
    if len(html.encode("utf-8", "surrogatepass")) > MAX_APP_BYTES:
        return None, [f"{uri} is over {MAX_APP_BYTES // 1024} KiB; not kept"]
    notes: list[str] = []
    csp = _csp(item.get("_meta"), notes)
    result = raw_result if isinstance(raw_result, Mapping) else {}
    kept = dict(result) if len(compact_json(result)) <= MAX_RESULT_CHARS else {}
    props = McpAppProps(
        html=html, resource_uri=uri, csp=csp, tool_input=dict(tool_input), tool_result=kept
    )
    return props, notes


async def read_app(
    dispatcher: JSONRPCDispatcher[Any], tool_meta: object, arguments: dict[str, Any], raw: object
) -> tuple[McpAppProps | None, list[str]]:
    """The tool's MCP App, read now through the CLI's raw ``dispatcher`` (a replay has no
    server), and notes on a refusal. ``rec.mcp`` reads it through the SDK's session instead
    (``adapters.mcp``); both end in :func:`app_props`."""
    from mcp import MCPError

    result_meta = raw.get("_meta") if isinstance(raw, dict) else None
    uri = app_uri(tool_meta, result_meta)
    if uri is None:
        return None, []
    try:
        read = await dispatcher.send_raw_request("resources/read", {"uri": uri})
    except MCPError as exc:
        return None, [f"could not read the MCP App {uri}: {exc.error.message}"]
    return app_props(read, uri, arguments, raw)


def _content(read: object, uri: str) -> Mapping[str, Any] | None:
    contents = read.get("contents") if isinstance(read, Mapping) else None
    if not isinstance(contents, list):
        return None
    return next((c for c in contents if isinstance(c, Mapping) and c.get("uri") == uri), None)


def _csp(meta: object, notes: list[str]) -> McpAppCsp:
    ui = meta.get("ui") if isinstance(meta, Mapping) else None
    declared = ui.get("csp") if isinstance(ui, Mapping) else None
    if not isinstance(declared, Mapping):
        return McpAppCsp()
    return McpAppCsp(
        connect_domains=_origins(declared.get("connectDomains"), notes),
        resource_domains=_origins(declared.get("resourceDomains"), notes),
    )


def _origins(value: object, notes: list[str]) -> list[str]:
    kept: list[str] = []
    for origin in value if isinstance(value, list) else ():
        if isinstance(origin, str) and _ORIGIN.fullmatch(origin.lower()):
            kept.append(origin.lower())
        else:
            notes.append(f"declared origin {str(origin)[:80]!r} is not https://host; dropped")
    return kept[:32]
