"""The live page's Share action: the review first, then the page or Markdown to download.

Why a review page before the file: the user decides to hand a session on
after seeing what was hidden in it (the kind of each secret, and which call
and field held it; never the value), as ``toolview share`` prints it. The
document is built by the same code as that command (``server.share``), from
the thread's stored observations, so the live page cannot share anything
the command would not. Nothing is sent anywhere: the browser downloads it.

The review page needs no script (plain links), and the user's own words
(``--redact``, ``--strip-home``) are the command's: the page says so.
"""

from __future__ import annotations

from functools import partial
from typing import Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from toolview.contract import Observation
from toolview.safety import escape_html
from toolview.server.offload import OffLoopReplay, in_worker
from toolview.server.page.shell import document
from toolview.server.params import thread_or_404
from toolview.server.share.build import Format, Shared, build_share
from toolview.server.share.review import review_lines
from toolview.server.state import server_state

__all__ = ["routes"]

_TYPES: Final[dict[Format, str]] = {
    "html": "text/html; charset=utf-8",
    "md": "text/markdown; charset=utf-8",
}


async def share_review(request: Request) -> Response:
    """``GET /threads/{id}/share``: what a share of the thread hides, and the two downloads."""
    thread_id = await thread_or_404(request)
    shared = await _shared(request, thread_id, "md")
    safe_id = escape_html(thread_id)
    lines = list(review_lines(shared.findings))
    items = "".join(f"<li>{escape_html(line.strip())}</li>" for line in lines[1:])
    body = (
        f'<main class="tv-page tv-share"><nav><a href="/threads/{safe_id}">Back to the thread'
        f"</a></nav><h1>Share {safe_id}</h1>"
        f'<p id="tv-share-review">{escape_html(lines[0].removeprefix("review: "))}</p>'
        f'<ul class="tv-share-list">{items}</ul>'
        "<p>Read the list, then download one self-contained file (no script, sub-agents "
        "inlined); nothing is sent anywhere.</p>"
        f'<p><a href="/threads/{safe_id}/share.html" download>Download the page (.html)</a> · '
        f'<a href="/threads/{safe_id}/share.md" download>Download Markdown (.md)</a></p>'
        "<p>To hide your own words too (hostnames, customers, paths): "
        f"<code>toolview share FILE --redact REGEX --strip-home</code>.</p></main>"
    )
    return HTMLResponse(document(f"share {thread_id}", body))


async def share_file(request: Request) -> Response:
    """``GET /threads/{id}/share.html`` or ``.md``: the document, as a download."""
    thread_id = await thread_or_404(request)
    fmt: Format = "md" if request.url.path.endswith(".md") else "html"
    shared = await _shared(request, thread_id, fmt)
    name = f"{thread_id}.{fmt}"  # a thread id is [A-Za-z0-9._-]: safe in the header
    headers = {"content-disposition": f'attachment; filename="{name}"'}
    return Response(shared.text, media_type=_TYPES[fmt], headers=headers)


async def _shared(request: Request, thread_id: str, fmt: Format) -> Shared:
    """The thread read whole from the log, then drawn and redacted in a worker."""
    state = server_state(request)
    replay = OffLoopReplay(state.log, thread_id, 0, state.workers)
    observations: list[Observation] = []
    while batch := await replay.next_batch():
        observations += [item.observation for item in batch]
    build = partial(build_share, observations, fmt=fmt, title=thread_id)
    return await in_worker(state.workers, build)


routes = [
    Route("/threads/{thread_id}/share", share_review, methods=["GET"]),
    Route("/threads/{thread_id}/share.html", share_file, methods=["GET"]),
    Route("/threads/{thread_id}/share.md", share_file, methods=["GET"]),
]
