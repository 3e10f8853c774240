"""The shell every server page is drawn in: head, the two served sheets, served scripts only.

The CSP allows no inline script or style: a page names its scripts by file
(``static/…``), each loaded ``defer``: the live page's follower (``live.js``),
its viewer (``viewer.js``), follow newest (``follow.js``), the per-call action
menus (``menu.js``), MCP Apps' host (``mcp-app.js``) and Allow / Deny on a waiting
call (``decide.js``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

from toolview.safety import escape_html

__all__ = ["LIVE_SCRIPTS", "STATIC", "document"]

STATIC: Final = Path(__file__).parent / "static"
LIVE_SCRIPTS: Final = ("live.js", "viewer.js", "follow.js", "menu.js", "mcp-app.js", "decide.js")


def document(
    title: str,
    body: str,
    *,
    live: bool = False,
    scripts: Sequence[str] = (),
    page_token: str | None = None,
) -> str:
    """A page around ``body`` (safe markup); ``title`` is escaped here.

    ``live``: the live page's scripts; ``scripts``: others, by file name under ``static/``.
    ``page_token``: the token its decisions carry (``server.guard.page_token``), in a ``<meta>``
    tag ``decide.js`` reads: no inline script may hold it.
    """
    names = [*(LIVE_SCRIPTS if live else ()), *scripts]
    tags = "".join(f'<script src="/static/{escape_html(n)}" defer></script>\n' for n in names)
    if page_token is not None:
        tags += f'<meta name="toolview-page-token" content="{escape_html(page_token)}">\n'

    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape_html(title)} · toolview</title>\n"
        '<link rel="stylesheet" href="/static/fragments.css">\n'
        '<link rel="stylesheet" href="/static/page.css">\n'
        f"{tags}</head>\n<body>\n{body}\n</body>\n</html>\n"
    )
