"""Markdown in HTML (the ``markdown`` kind, and every message): markdown-it-py, then the allowlist.

Raw HTML in the source is shown as text (``html`` disabled), and the produced
markup still passes ``sanitize_html`` (nh3): only http/https links, no
scripts, styles, frames or event handlers. Images are never loaded from a
Markdown source — they become a visible ``[image: alt]`` note, so a tool
cannot make the reader's browser fetch a tracking pixel. The source is cut to
its shown window and cleaned (secrets, controls) before it is parsed.

Headings are demoted by ``DEMOTE`` levels (``#`` is an ``<h4>``), so a
document never outranks the page's own structure (the page's ``<h1>``, a
call's ``<h3>``). A fenced code block is highlighted as the ``file`` kind is
(its info string picks the lexer by name, never by sniffing), with the same
few classes, which the allowlist keeps (``class`` on ``span``/``code``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from toolview.contract import MarkdownProps
from toolview.render.clean import shown_text
from toolview.render.highlight import lexer_for
from toolview.render.html.kinds.code import code_runs
from toolview.render.html.kinds.markdown_plain import plain_markdown_html
from toolview.render.html.markup import cut_html, esc, truncation_html
from toolview.render.regexlex import tokens as lexed
from toolview.render.view import KindBody
from toolview.safety import escape_html, sanitize_html

__all__ = ["DEMOTE", "FENCE_CLASS", "markdown_html", "render_markdown"]

DEMOTE = 3  # ``#`` -> ``<h4>``: below a call's ``<h3>``
FENCE_CLASS = "tv-fence"


def _image_as_text(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    alt = self.renderInlineAsText(tokens[idx].children or [], options, env)
    return f'<span class="tv-md-image">[image: {escape_html(alt or "no description")}]</span>'


def _demoted(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    token.tag = f"h{min(6, int(token.tag[1:]) + DEMOTE)}"
    return str(self.renderToken(tokens, idx, options, env))


def _fence(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """A code block, highlighted by the lexer its info string names (plain text if none)."""
    token = tokens[idx]
    info = token.info.split(maxsplit=1)
    lexer = lexer_for(info[0][:64] if info else None, None)
    body = "".join(
        esc(part) if cls is None else f'<span class="{cls}">{esc(part)}</span>'
        for cls, part in code_runs(lexed(lexer, token.content))
    )
    return f'<pre><code class="{FENCE_CLASS}">{body.removesuffix(chr(10))}</code></pre>\n'


def _parser(*, breaks: bool) -> MarkdownIt:
    options = {"html": False, "linkify": False, "typographer": False, "breaks": breaks}
    parser = MarkdownIt("commonmark", options)
    parser.enable("table").enable("strikethrough")
    parser.add_render_rule("image", _image_as_text)
    parser.add_render_rule("heading_open", _demoted)
    parser.add_render_rule("heading_close", _demoted)
    parser.add_render_rule("fence", _fence)
    parser.add_render_rule("code_block", _fence)
    return parser


_PARSERS = {False: _parser(breaks=False), True: _parser(breaks=True)}


def markdown_html(source: str, *, breaks: bool = False) -> str:
    """Sanitized HTML for cleaned Markdown ``source``; ``breaks``: a single newline is a
    line break (a chat message's), not a space (a document's). Prose with no Markdown in it
    skips the parser and the sanitizer (``markdown_plain``: the same HTML)."""
    html = plain_markdown_html(source, breaks=breaks)
    return sanitize_html(_PARSERS[breaks].render(source)) if html is None else html


def render_markdown(body: KindBody) -> str:
    """The ``markdown`` kind: the shown window of the source, rendered and sanitized."""
    props: MarkdownProps = body.props
    if not props.markdown.strip():
        return '<p class="tv-empty">(empty document)</p>' + truncation_html(body.truncated)
    window = shown_text(props.markdown, body.limits)
    return f'<div class="tv-markdown">{markdown_html(window.text)}</div>' + cut_html(
        window.after, "below", body.truncated
    )
