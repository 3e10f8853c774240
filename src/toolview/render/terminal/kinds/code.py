"""The ``file`` and ``diff`` kinds: files highlighted, numbered; diffs numbered and coloured.

A file is drawn as Rich's ``Syntax(word_wrap=True)`` drew it, by
``NumberedCode`` in one pass over one styled ``Text`` (Syntax wrapped every
line through the console: 27.6 ms for a 100-line file). The lexer is the
html surface's choice, looked up once (``render.highlight``).

A diff is read by ``render.diffview`` as the html surface reads it: each line
numbered from its hunk header (old and new, dim, in a gutter), added lines
green, removed red, and inside an edited pair the changed words bold and
reversed. No line background: the terminal's own background is unknown
(light or dark), and its 16 colours are the ones that read on both.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from toolview.contract import DiffProps, FileProps
from toolview.render.clean import clean_field, shown_text
from toolview.render.diffview import DiffLine, diff_lines
from toolview.render.highlight import lexer_for
from toolview.render.limits import Limits, Omission, truncation_omission
from toolview.render.terminal.fit import FitText
from toolview.render.terminal.numbered import NumberedCode
from toolview.render.terminal.styled import cut_text
from toolview.render.view import KindBody

__all__ = ["diff", "diff_renderable", "file", "file_renderable"]

_THEME = "ansi_dark"  # the terminal's own palette: reads on dark and light backgrounds
_DIFF_STYLES = {"file": "bold", "hunk": "cyan", "add": "green", "del": "red", "note": "dim"}
_CHANGED = "bold reverse"  # a changed word, over its line's colour


def file_renderable(
    props: FileProps, limits: Limits, tool: Omission | None = None
) -> RenderableType:
    """The file's shown lines, highlighted, numbered from ``startLine``.

    ``tool`` is what the tool's own truncation left out, said with this cut.
    """
    language = props.language if isinstance(props.language, str) else None
    path = clean_field(props.path, 500)
    title = Text(path + (f" ({clean_field(language, 40)})" if language else ""), style="bold")
    if not props.content:
        return Group(title, Text("(empty file)", style="dim"), *cut_text(None, tool))
    window = shown_text(props.content, limits)
    code = NumberedCode(
        window.text.rstrip("\n"),
        lexer_for(language, props.path),
        _THEME,
        props.start_line if isinstance(props.start_line, int) else 1,
    )
    return Group(title, code, *cut_text(window.after, tool))


def diff_renderable(
    props: DiffProps, limits: Limits, tool: Omission | None = None
) -> RenderableType:
    """A unified diff, numbered: additions green, removals red, changed words marked."""
    title = (
        [Text(clean_field(props.path, 500), style="bold")] if isinstance(props.path, str) else []
    )
    if not props.diff:
        return Group(*title, Text("(empty diff)", style="dim"), *cut_text(None, tool))
    window = shown_text(props.diff, limits)
    lines = diff_lines(window.text)
    width = len(str(max((n for line in lines for n in (line.old, line.new) if n), default=1)))
    text = FitText()  # lines that fit skip Rich's word wrap (~40 % of a diff call)
    for index, line in enumerate(lines):
        if index:
            text.append("\n")
        text.append(f"{_number(line.old, width)} {_number(line.new, width)} ", style="dim")
        _append_line(text, line)
    return Group(*title, text, *cut_text(window.after, tool))


def _number(number: int | None, width: int) -> str:
    return (str(number) if number else "").rjust(width)


def _append_line(text: Text, line: DiffLine) -> None:
    style = _DIFF_STYLES.get(line.kind, "")
    if not line.parts:
        text.append(line.text, style=style)
        return
    text.append(line.text[0], style=style)
    for changed, part in line.parts:
        text.append(part, style=f"{style} {_CHANGED}" if changed else style)


def file(body: KindBody) -> RenderableType:
    return file_renderable(body.props, body.limits, truncation_omission(body.truncated))


def diff(body: KindBody) -> RenderableType:
    return diff_renderable(body.props, body.limits, truncation_omission(body.truncated))
