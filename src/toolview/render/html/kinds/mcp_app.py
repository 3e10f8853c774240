"""The ``mcp-app`` kind in HTML: the app in a sandboxed frame, the text beside it.

The frame is ``sandbox="allow-scripts"`` only: an opaque origin (no cookies,
storage or the parent's DOM), no forms, popups or top navigation. Its document
is the app's HTML under ``app_policy`` (a ``srcdoc``, so the standalone page
needs no server). A ``srcdoc`` document also inherits its parent's policy, so
on the script-free standalone page the app shows its markup only, and the live
page (``static/mcp-app.js``) loads it from the server's app route instead, where
its own policy is its only one, and speaks the ``ui/*`` bridge with it using
the tool's input and result carried here as data attributes. Props that do not
validate raise, and the registry shows the text with a note, like any kind's.
"""

from __future__ import annotations

import html as _html
from typing import Final

import msgspec

from toolview.contract.jsontext import compact_json
from toolview.contract.mcp_app import McpAppProps
from toolview.render.clean import clean_field
from toolview.render.html.app_policy import app_document
from toolview.render.html.markup import esc
from toolview.render.view import KindBody

__all__ = ["render_mcp_app"]

_NOTE: Final = (
    "An MCP App, drawn sandboxed: it cannot reach this page, its cookies, storage "
    "or any network it did not declare. On a saved page no script runs; "
    "the live page (toolview serve) runs it."
)


def render_mcp_app(body: KindBody) -> str:
    """The app's frame and its note, or the text when the props are not an app's."""
    props = msgspec.convert(body.props, McpAppProps, strict=True)  # raises: the text instead
    uri = clean_field(props.resource_uri, 200)
    document = app_document(props.html, props.csp)
    return (
        '<figure class="tv-mcp-app">'
        f'<iframe class="tv-app" title="MCP App {esc(uri)}" sandbox="allow-scripts" '
        'width="100%" height="320" '
        f'referrerpolicy="no-referrer" srcdoc="{_html.escape(document)}" '
        f'data-tool-input="{_html.escape(compact_json(props.tool_input))}" '
        f'data-tool-result="{_html.escape(compact_json(props.tool_result))}"></iframe>'
        f'<figcaption class="tv-meta">{esc(_NOTE)} <code>{esc(uri)}</code></figcaption>'
        "</figure>"
    )
