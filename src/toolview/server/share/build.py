"""One shareable document from a session: a script-free page or Markdown, and its review.

Why the surfaces' own streams: the page is the standalone page ``show
--surface html`` writes (no script, a strict policy, every sub-agent's entry
inlined under its call) and the Markdown is ``show --surface markdown``'s,
so a share reads like the thread it came from. What changes is what goes in:
each observation redacted by ``share.review.Review`` first, which keeps the
review of what it hid. The CLI (``toolview share``) and the live page's
Share action (``server.share.routes``) both call :func:`build_share`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final, Literal

from toolview.contract import Observation, ToolResult
from toolview.render.limits import DEFAULT_LIMITS
from toolview.render.stream import StreamShape, ThreadStream
from toolview.server.share.review import Finding, Review
from toolview.server.share.words import UserWords

__all__ = ["FORMATS", "Format", "Shared", "build_share"]

Format = Literal["html", "md"]
FORMATS: Final[tuple[Format, ...]] = ("html", "md")

# what a share is fed: an observation, a result whose descriptor broke (with why), or a note
ShareItem = Observation | tuple[ToolResult, str] | str


@dataclass(frozen=True)
class Shared:
    """The document, and every redaction made in it (``findings``: no secret in them)."""

    text: str
    findings: list[Finding]


def build_share(
    items: Iterable[ShareItem],
    *,
    fmt: Format,
    title: str,
    words: UserWords | None = None,
    write: Callable[[str], None] | None = None,
) -> Shared:
    """The session ``items`` as one ``fmt`` document titled ``title``, redacted, with its review.

    ``write``: each piece goes there as it is drawn (``Shared.text`` is then empty), so
    memory holds the calls still open, not the document. Raises ``share.words.ShareError``
    when a ``--redact`` pattern runs out of time (what was written is then to be thrown away).
    """
    review = Review(words or UserWords())
    safe_title = review.text(title)
    parts: list[str] = []
    out = write or parts.append
    if fmt == "md":
        out(_md_heading(safe_title))
    stream = ThreadStream(_shape(fmt, safe_title), out, limits=DEFAULT_LIMITS)
    for item in items:
        if isinstance(item, str):
            stream.note(review.note(item))
        elif isinstance(item, tuple):
            result, why = item
            safe = review.observation(result)
            assert isinstance(safe, ToolResult)
            stream.add(safe, review.note(why))
        else:
            stream.add(review.observation(item))
    if stream.entries == 0:
        stream.note("the session held no tool call or message to share")
    stream.close()
    return Shared("".join(parts), review.findings())


def _md_heading(title: str) -> str:
    """The Markdown's title line (the page has its ``<title>`` and heading)."""
    from toolview.render.markdown.escape import inline

    return f"# {inline(title)}\n\n"


def _shape(fmt: Format, title: str) -> StreamShape[str]:
    """The surface's stream: the standalone html page under ``title``, or Markdown."""
    if fmt == "md":
        from toolview.render.markdown import stream_shape as markdown_shape

        return markdown_shape(limits=DEFAULT_LIMITS)
    from toolview.render.html import stream_shape as html_shape

    return html_shape(title=title, limits=DEFAULT_LIMITS)
