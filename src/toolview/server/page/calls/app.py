"""``GET /api/threads/{id}/calls/{callId}/app``: a call's MCP App as a document of its own.

Why a route, when the fragment already carries the app as a ``srcdoc``: a
``srcdoc`` document inherits its parent's policy, and the live page's
(``script-src 'self'``) rightly refuses the app's inline scripts. Served here,
the app's policy (``render.html.app_policy``) is its only one, with ``sandbox
allow-scripts`` in the header too — an opaque origin even if the URL is opened
on its own — and ``frame-ancestors 'self'``: only the live page may frame it
(``guard.security`` keeps such a policy instead of the pages' own). The props
are redacted like every answer and validated: anything else is a 404.
"""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from toolview.contract import ToolResult
from toolview.contract.mcp_app import MCP_APP_KIND, McpAppProps
from toolview.render.html.app_policy import app_policy
from toolview.server.errors import ApiError
from toolview.server.page.fragments import find_call
from toolview.server.params import thread_or_404
from toolview.server.state import server_state
from toolview.wire.follow import redact_observation

__all__ = ["APP_SANDBOX", "routes"]

APP_SANDBOX = "sandbox allow-scripts"


async def call_app(request: Request) -> Response:
    """The app document of the call the path names; 404 if it has none."""
    thread_id = await thread_or_404(request)
    state = server_state(request)
    projection = await state.projections.current(thread_id)
    async with projection.lock:
        entry = find_call(projection.thread, request.path_params["call_id"], state.redactor.id)
        result = None if entry is None else entry.result
    if not isinstance(result, ToolResult):
        raise ApiError(404, "no such call with a result in this thread")
    redacted = redact_observation(result, state.redactor)
    descriptor = redacted.descriptor if isinstance(redacted, ToolResult) else msgspec.UNSET
    if isinstance(descriptor, msgspec.UnsetType) or descriptor.kind != MCP_APP_KIND:
        raise ApiError(404, "this call has no MCP App")
    try:
        props = msgspec.convert(descriptor.props, McpAppProps, strict=True)
    except msgspec.ValidationError:
        raise ApiError(404, "this call's MCP App is malformed") from None
    policy = f"{APP_SANDBOX}; {app_policy(props.csp)}; frame-ancestors 'self'"
    return HTMLResponse(props.html, headers={"content-security-policy": policy})


routes = [Route("/api/threads/{thread_id}/calls/{call_id}/app", call_app, methods=["GET"])]
