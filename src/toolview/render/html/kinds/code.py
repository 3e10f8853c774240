"""The ``file`` and ``diff`` kinds in HTML: Pygments with CSS classes and line numbers.

The formatter emits classes only (``noclasses`` off), never ``style``
attributes, so the page's Content-Security-Policy can allow its one stylesheet
by hash. The lexer is chosen from the declared language, else the file name;
an unknown one falls back to plain text — never to content sniffing, which
would let a tool steer the lexer and costs a scan of the whole text.
"""

from __future__ import annotations

from pygments import highlight  # type: ignore[import-untyped]
from pygments.formatters import HtmlFormatter  # type: ignore[import-untyped]
from pygments.lexer import Lexer  # type: ignore[import-untyped]
from pygments.lexers import (  # type: ignore[import-untyped]
    DiffLexer,
    TextLexer,
    get_lexer_by_name,
    get_lexer_for_filename,
)
from pygments.util import ClassNotFound  # type: ignore[import-untyped]

from toolview.render.clean import clean_field, shown_text
from toolview.render.html.markup import cut_html, esc
from toolview.render.html.style import CODE_CLASS
from toolview.render.props import DiffProps, FileProps
from toolview.render.view import KindBody

__all__ = ["code_html", "render_diff", "render_file"]

_PATH_CHARS = 500


def code_html(text: str, lexer: Lexer, start_line: int = 1) -> str:
    """Highlighted, escaped ``text`` with line numbers from ``start_line``."""
    formatter = HtmlFormatter(
        cssclass=CODE_CLASS, linenos="inline", linenostart=start_line, wrapcode=True
    )
    highlighted: str = highlight(text, lexer, formatter)
    return highlighted


def _lexer(language: str | None, path: str | None) -> Lexer:
    try:
        if language:
            return get_lexer_by_name(language[:64].strip().lower())
        if path:
            return get_lexer_for_filename(path[-200:])
    except ClassNotFound:
        pass
    return TextLexer()


def _title(path: str | None, language: str | None) -> str:
    if not path:
        return ""
    suffix = f' <span class="tv-meta">{esc(clean_field(language, 40))}</span>' if language else ""
    return f'<div class="tv-command">{esc(clean_field(path, _PATH_CHARS))}{suffix}</div>'


def render_file(body: KindBody) -> str:
    """The file's first lines, numbered from ``startLine``, highlighted."""
    props: FileProps = body.props
    language = props.language if isinstance(props.language, str) else None
    start = props.start_line if isinstance(props.start_line, int) else 1
    window = shown_text(props.content, body.limits)
    if not props.content:
        code = '<p class="tv-empty">(empty file)</p>'
    else:
        code = code_html(window.text, _lexer(language, props.path), start)
    return _title(props.path, language) + code + cut_html(window.after, "below", body.truncated)


def render_diff(body: KindBody) -> str:
    """The diff's first lines, added and removed lines coloured by class."""
    props: DiffProps = body.props
    path = props.path if isinstance(props.path, str) else None
    window = shown_text(props.diff, body.limits)
    code = (
        code_html(window.text, DiffLexer())
        if props.diff
        else '<p class="tv-empty">(empty diff)</p>'
    )
    return _title(path, None) + code + cut_html(window.after, "below", body.truncated)
