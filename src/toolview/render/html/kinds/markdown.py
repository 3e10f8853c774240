"""The ``markdown`` kind in HTML: markdown-it-py (raw HTML off), then the allowlist.

Raw HTML in the source is shown as text (``html`` disabled), and the produced
markup still passes ``sanitize_html`` (nh3): only http/https links, no
scripts, styles, frames or event handlers. Images are never loaded from a
Markdown source — they become a visible ``[image: alt]`` note, so a tool
cannot make the reader's browser fetch a tracking pixel. The source is cut to
its shown window and cleaned (secrets, controls) before it is parsed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from toolview.render.clean import shown_text
from toolview.render.html.markup import cut_html, truncation_html
from toolview.render.props import MarkdownProps
from toolview.render.view import KindBody
from toolview.safety import escape_html, sanitize_html

__all__ = ["markdown_html", "render_markdown"]


def _image_as_text(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    alt = self.renderInlineAsText(tokens[idx].children or [], options, env)
    return f'<span class="tv-md-image">[image: {escape_html(alt or "no description")}]</span>'


def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    parser.enable("table").enable("strikethrough")
    parser.add_render_rule("image", _image_as_text)
    return parser


_PARSER = _parser()


def markdown_html(source: str) -> str:
    """Sanitized HTML for cleaned Markdown ``source``."""
    return sanitize_html(_PARSER.render(source))


def render_markdown(body: KindBody) -> str:
    """The ``markdown`` kind: the shown window of the source, rendered and sanitized."""
    props: MarkdownProps = body.props
    if not props.markdown.strip():
        return '<p class="tv-empty">(empty document)</p>' + truncation_html(body.truncated)
    window = shown_text(props.markdown, body.limits)
    return f'<div class="tv-markdown">{markdown_html(window.text)}</div>' + cut_html(
        window.after, "below", body.truncated
    )
