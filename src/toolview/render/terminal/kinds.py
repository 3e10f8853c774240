"""Rich renderers for the built-in kinds; untrusted text only ever as ``Text``."""

from __future__ import annotations

from typing import Any, Final

import msgspec
from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.text import Text

from toolview.contract import Envelope, ImageProps, JsonProps, LinksProps, MarkdownProps, ShellProps
from toolview.render.clean import clean_field, shown_text
from toolview.render.jsonview import json_lines
from toolview.render.limits import Limits, Omission, truncation_omission
from toolview.render.registry import Renderer
from toolview.render.terminal.code import diff_renderable, file_renderable
from toolview.render.terminal.table import table_renderable
from toolview.render.terminal.text import (
    cut_text,
    lines_text,
    omission_text,
    truncation_text,
    window_text,
)
from toolview.render.view import KindBody
from toolview.render.words import exit_text, image_label, is_record_list, records_table
from toolview.safety import safe_url

__all__ = ["BUILTIN_RENDERERS", "data_renderable"]

_FIELD = 500


def shell(body: KindBody) -> RenderableType:
    props: ShellProps = body.props
    parts: list[RenderableType] = [Text(f"$ {clean_field(props.command, _FIELD)}", style="bold")]
    tool = truncation_omission(body.truncated)  # command output keeps its tail
    if props.stdout:
        stdout = shown_text(props.stdout, body.limits, "tail")
        parts.append(window_text(stdout, tool=tool, tool_before=True))
    else:
        parts += cut_text(None, tool)
    if props.stderr:
        parts.append(window_text(shown_text(props.stderr, body.limits, "tail"), style="red"))
    if not props.stdout and not props.stderr:
        parts.append(Text("(no output)", style="dim"))
    ok = props.exit_code == 0
    parts.append(Text(exit_text(props.exit_code), style="green" if ok else "red"))
    return Group(*parts)


def file(body: KindBody) -> RenderableType:
    return file_renderable(body.props, body.limits, truncation_omission(body.truncated))


def diff(body: KindBody) -> RenderableType:
    return diff_renderable(body.props, body.limits, truncation_omission(body.truncated))


def json_value(body: KindBody) -> RenderableType:
    props: JsonProps = body.props
    return Group(lines_text(json_lines(props.value, body.limits)), *truncation_text(body.truncated))


def table(body: KindBody) -> RenderableType:
    return Group(table_renderable(body.props, body.limits), *truncation_text(body.truncated))


def links(body: KindBody) -> RenderableType:
    props: LinksProps = body.props
    text = Text()
    shown = props.links[: body.limits.max_links]
    for number, link in enumerate(shown, start=1):
        if number > 1:
            text.append("\n")
        text.append(f"{number}. ")
        text.append(clean_field(link.title, _FIELD), style="bold")
        url = clean_field(link.url, _FIELD)
        # No OSC 8 hyperlink: the only escapes this surface writes are colours.
        text.append("\n   ")
        if safe_url(link.url):
            text.append(url, style="underline blue")
        else:
            text.append(f"{url} (not an http/https link)", style="dim")
        if isinstance(link.snippet, str) and link.snippet:
            text.append(f"\n   {clean_field(link.snippet, _FIELD, 'space')}")
    parts: list[RenderableType] = [text if shown else Text("(no links)", style="dim")]
    if len(props.links) > len(shown):
        parts.append(omission_text(Omission(len(props.links) - len(shown), "items")))
    return Group(*parts, *truncation_text(body.truncated))


def image(body: KindBody) -> RenderableType:
    props: ImageProps = body.props
    text = Text(image_label(props), style="magenta")
    if isinstance(props.alt, str) and props.alt:
        text.append(f" {clean_field(props.alt, _FIELD)}")
    return Group(text, *truncation_text(body.truncated))


def markdown(body: KindBody) -> RenderableType:
    props: MarkdownProps = body.props
    if not props.markdown.strip():
        return Text("(empty document)", style="dim")
    window = shown_text(props.markdown, body.limits)
    document = Markdown(window.text, hyperlinks=False, code_theme="ansi_dark")
    return Group(document, *cut_text(window.after, truncation_omission(body.truncated)))


def envelope(body: KindBody) -> RenderableType:
    props: Envelope = body.props
    parts: list[RenderableType] = []
    if isinstance(props.summary, str):
        parts.append(Text(clean_field(props.summary, body.limits.max_args_chars * 4, "space")))
    line = Text(f"{clean_field(props.tool, _FIELD)}: {clean_field(props.status, 80)}", style="dim")
    if isinstance(props.error_code, str):
        line.append(f" · error code {clean_field(props.error_code, 200)}", style="bold")
    parts.append(line)
    data = data_renderable(props.data, body.limits)
    return Group(*parts, *([data] if data else []), *truncation_text(body.truncated))


def data_renderable(data: Any, limits: Limits) -> RenderableType | None:
    """An envelope's data: a table for a list of records, bounded JSON otherwise."""
    if is_record_list(data):
        return table_renderable(records_table(data), limits)
    if isinstance(data, str):
        return window_text(shown_text(data, limits))
    if data is msgspec.UNSET or data is None or data == {}:
        return None
    return lines_text(json_lines(data, limits))


BUILTIN_RENDERERS: Final[dict[str, Renderer[RenderableType]]] = {
    "shell": shell,
    "file": file,
    "diff": diff,
    "json": json_value,
    "table": table,
    "links": links,
    "image": image,
    "markdown": markdown,
    "envelope": envelope,
}
