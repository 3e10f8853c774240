"""Plain-text renderers for the built-in kinds: each returns lines, no escapes at all."""

from __future__ import annotations

from typing import Any, Final

import msgspec

from toolview.contract import (
    DiffProps,
    Envelope,
    FileProps,
    ImageProps,
    JsonProps,
    LinksProps,
    MarkdownProps,
    ShellProps,
    TableProps,
)
from toolview.render.clean import clean_field, shown_text
from toolview.render.jsonview import cell_text, json_lines
from toolview.render.limits import Limits, Omission, Window, truncation_omission
from toolview.render.registry import Renderer
from toolview.render.view import KindBody
from toolview.render.words import (
    exit_text,
    image_label,
    is_record_list,
    omission_line,
    records_table,
)
from toolview.safety import safe_url

__all__ = ["BUILTIN_RENDERERS", "cut_lines", "table_lines", "window_lines"]

_FIELD = 500


def window_lines(
    window: Window, tool: Omission | None = None, *, tool_before: bool = False
) -> list[str]:
    """A cleaned window as lines, with the omission wording where text was cut.

    ``tool`` is what the tool's own truncation left out: it is said in the same
    line as this surface's cut on that side (before for a tail, after for a
    head), so the reader sees one honest count, not two stacked lines.
    """
    text = window.text[:-1] if window.text.endswith("\n") else window.text
    before = omission_line(window.before, tool if tool_before else None)
    after = omission_line(window.after, None if tool_before else tool)
    return [*([before] if before else []), *text.split("\n"), *([after] if after else [])]


def cut_lines(shown: Omission | None, tool: Omission | None) -> list[str]:
    """The one line for what this surface and the tool left out, or nothing."""
    line = omission_line(shown, tool)
    return [line] if line else []


def _truncated(body: KindBody) -> list[str]:
    omission = truncation_omission(body.truncated)
    return [str(omission)] if omission else []


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
        return [*title, "(empty diff)", *_truncated(body)]
    tool = truncation_omission(body.truncated)
    return title + window_lines(shown_text(props.diff, body.limits), tool)


def json_value(body: KindBody) -> list[str]:
    props: JsonProps = body.props
    return json_lines(props.value, body.limits) + _truncated(body)


def table(body: KindBody) -> list[str]:
    return table_lines(body.props, body.limits) + _truncated(body)


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
    return (lines or ["(no links)"]) + _truncated(body)


def image(body: KindBody) -> list[str]:
    props: ImageProps = body.props
    alt = f" {clean_field(props.alt, _FIELD)}" if isinstance(props.alt, str) and props.alt else ""
    return [f"{image_label(props)}{alt}", *_truncated(body)]


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
    return lines + _truncated(body)


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
