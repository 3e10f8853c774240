"""Plain-text renderers for the built-in kinds: each returns lines, no escapes at all."""

from __future__ import annotations

from typing import Any, Final

import msgspec

from toolview.contract import Envelope
from toolview.render.clean import clean_field, shown_text
from toolview.render.jsonview import cell_text, json_lines
from toolview.render.limits import Limits, Omission, truncation_omission
from toolview.render.props import (
    DiffProps,
    FileProps,
    ImageProps,
    JsonProps,
    LinksProps,
    MarkdownProps,
    ShellProps,
    TableProps,
)
from toolview.render.registry import Renderer
from toolview.render.text.lines import cut_lines, truncation_lines, window_lines
from toolview.render.view import KindBody
from toolview.render.words import (
    exit_text,
    image_label,
    is_record_list,
    records_table,
)
from toolview.safety import safe_url

__all__ = ["BUILTIN_RENDERERS", "table_lines"]

_FIELD = 500


def shell(body: KindBody) -> list[str]:
    props: ShellProps = body.props
    # Command output keeps its tail, so what a tool left out came before it.
    tool = truncation_omission(body.truncated)
    lines = [f"$ {clean_field(props.command, _FIELD)}"]
    if props.stdout:
        stdout = shown_text(props.stdout, body.limits, "tail")
        lines += window_lines(stdout, tool, tool_before=True)
    else:
        lines += cut_lines(None, tool)
    if props.stderr:
        lines += ["stderr:", *window_lines(shown_text(props.stderr, body.limits, "tail"))]
    if not props.stdout and not props.stderr:
        lines.append("(no output)")
    return [*lines, exit_text(props.exit_code)]


def file(body: KindBody) -> list[str]:
    props: FileProps = body.props
    language = props.language if isinstance(props.language, str) else None
    title = clean_field(props.path, _FIELD) + (
        f" ({clean_field(language, 40)})" if language else ""
    )
    window = shown_text(props.content, body.limits)
    start = props.start_line if isinstance(props.start_line, int) else 1
    text = window.text[:-1] if window.text.endswith("\n") else window.text
    rows = text.split("\n") if props.content else []
    width = len(str(start + max(len(rows) - 1, 0)))
    lines = [title, *(f"{start + i:>{width}} │ {row}" for i, row in enumerate(rows))]
    if not rows:
        lines.append("(empty file)")
    return lines + cut_lines(window.after, truncation_omission(body.truncated))


def diff(body: KindBody) -> list[str]:
    props: DiffProps = body.props
    title = [clean_field(props.path, _FIELD)] if isinstance(props.path, str) else []
    if not props.diff:
        return [*title, "(empty diff)", *truncation_lines(body.truncated)]
    tool = truncation_omission(body.truncated)
    return title + window_lines(shown_text(props.diff, body.limits), tool)


def json_value(body: KindBody) -> list[str]:
    props: JsonProps = body.props
    return json_lines(props.value, body.limits) + truncation_lines(body.truncated)


def table(body: KindBody) -> list[str]:
    return table_lines(body.props, body.limits) + truncation_lines(body.truncated)


def table_lines(props: TableProps, limits: Limits) -> list[str]:
    """Columns padded to their widest shown cell; rows and columns bounded."""
    columns = props.columns[: limits.max_columns]
    rows = props.rows[: limits.max_rows]
    header = [cell_text(name, 40) for name in columns]
    cells = [[cell_text(cell, 40) for cell in row[: len(columns)]] for row in rows]
    widths = [max(len(row[i]) for row in [header, *cells]) for i in range(len(columns))]
    lines = [
        " │ ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *cells]
    ]
    lines.insert(1, "─┼─".join("─" * w for w in widths))
    if len(props.columns) > len(columns):
        lines.append(f"{Omission(len(props.columns) - len(columns), 'items')} (columns)")
    if len(props.rows) > len(rows):
        lines.append(f"{Omission(len(props.rows) - len(rows), 'items')} (rows)")
    if not rows:
        lines.append("(no rows)")
    return lines


def links(body: KindBody) -> list[str]:
    props: LinksProps = body.props
    lines: list[str] = []
    for number, link in enumerate(props.links[: body.limits.max_links], start=1):
        url = clean_field(link.url, _FIELD)
        where = url if safe_url(link.url) else f"{url} (not an http/https link)"
        lines.append(f"{number}. {clean_field(link.title, _FIELD)} <{where}>")
        if isinstance(link.snippet, str) and link.snippet:
            lines.append(f"   {clean_field(link.snippet, _FIELD, 'space')}")
    if len(props.links) > body.limits.max_links:
        lines.append(str(Omission(len(props.links) - body.limits.max_links, "items")))
    return (lines or ["(no links)"]) + truncation_lines(body.truncated)


def image(body: KindBody) -> list[str]:
    props: ImageProps = body.props
    alt = f" {clean_field(props.alt, _FIELD)}" if isinstance(props.alt, str) and props.alt else ""
    return [f"{image_label(props)}{alt}", *truncation_lines(body.truncated)]


def markdown(body: KindBody) -> list[str]:
    props: MarkdownProps = body.props
    if not props.markdown.strip():
        return ["(empty document)"]
    return window_lines(
        shown_text(props.markdown, body.limits), truncation_omission(body.truncated)
    )


def envelope(body: KindBody) -> list[str]:
    props: Envelope = body.props
    lines = [f"{clean_field(props.tool, _FIELD)}: {clean_field(props.status, 80)}"]
    if isinstance(props.summary, str):
        lines.append(clean_field(props.summary, body.limits.max_args_chars * 4, "space"))
    if isinstance(props.error_code, str):
        lines.append(f"error code: {clean_field(props.error_code, 200)}")
    lines += data_lines(props.data, body.limits)
    return lines + truncation_lines(body.truncated)


def data_lines(data: Any, limits: Limits) -> list[str]:
    """An envelope's data: a table for a list of records, bounded JSON otherwise."""
    if is_record_list(data):
        return table_lines(records_table(data), limits)
    if isinstance(data, str):
        return window_lines(shown_text(data, limits))
    if data is msgspec.UNSET or data is None or data == {}:
        return []
    return json_lines(data, limits)


BUILTIN_RENDERERS: Final[dict[str, Renderer[list[str]]]] = {
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
