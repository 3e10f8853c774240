"""Markdown renderers for the built-in kinds: escaped inline text, fenced blocks."""

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
from toolview.render.markdown.escape import code_block, code_span, inline, link, markdown_source
from toolview.render.registry import Renderer
from toolview.render.view import KindBody
from toolview.render.words import (
    exit_text,
    image_label,
    is_record_list,
    omission_line,
    records_table,
)

__all__ = ["BUILTIN_RENDERERS", "cut_md", "omission_md", "table_md", "window_block"]

_FIELD = 500


def omission_md(omission: Omission | None) -> list[str]:
    """``_… 4,000 more lines_`` as its own paragraph, or nothing."""
    return [f"_{inline(str(omission))}_"] if omission else []


def window_block(
    window: Window,
    language: str = "text",
    tool: Omission | None = None,
    *,
    tool_before: bool = False,
) -> list[str]:
    """A cleaned window in a fenced block, with the omission wording around it.

    ``tool`` (the tool's own truncation) joins this surface's cut on that side
    in one line — before for a tail, after for a head.
    """
    return [
        *cut_md(window.before, tool if tool_before else None),
        code_block(window.text, language),
        *cut_md(window.after, None if tool_before else tool),
    ]


def cut_md(shown: Omission | None, tool: Omission | None) -> list[str]:
    """``_… 9,900 more lines (9,000 not in the result)_`` as a paragraph, or nothing."""
    line = omission_line(shown, tool)
    return [f"_{inline(line)}_"] if line else []


def _truncated(body: KindBody) -> list[str]:
    return omission_md(truncation_omission(body.truncated))


def shell(body: KindBody) -> list[str]:
    props: ShellProps = body.props
    stdout = shown_text(props.stdout, body.limits, "tail")
    command = f"$ {clean_field(props.command, _FIELD)}"
    before = cut_md(stdout.before, truncation_omission(body.truncated))
    out = [*before, code_block(f"{command}\n{stdout.text}", "console")]
    if props.stderr:
        out += ["stderr:", *window_block(shown_text(props.stderr, body.limits, "tail"))]
    if not props.stdout and not props.stderr:
        out.append("_(no output)_")
    return [*out, inline(exit_text(props.exit_code))]


def file(body: KindBody) -> list[str]:
    props: FileProps = body.props
    language = props.language if isinstance(props.language, str) else "text"
    start = props.start_line if isinstance(props.start_line, int) else 1
    window = shown_text(props.content, body.limits)
    shown = window.text.count("\n") + (0 if window.text.endswith("\n") else 1)
    where = f" (lines {start:,}–{start + shown - 1:,})" if start > 1 else ""
    title = f"**{inline(clean_field(props.path, _FIELD))}**{inline(where)}"
    if not props.content:
        return [title, "_(empty file)_"]
    tool = truncation_omission(body.truncated)
    return [title, *window_block(window, clean_field(language, 30), tool)]


def diff(body: KindBody) -> list[str]:
    props: DiffProps = body.props
    title = (
        [f"**{inline(clean_field(props.path, _FIELD))}**"] if isinstance(props.path, str) else []
    )
    if not props.diff:
        return [*title, "_(empty diff)_"]
    tool = truncation_omission(body.truncated)
    return [*title, *window_block(shown_text(props.diff, body.limits), "diff", tool)]


def json_value(body: KindBody) -> list[str]:
    props: JsonProps = body.props
    return [code_block("\n".join(json_lines(props.value, body.limits)), "json"), *_truncated(body)]


def table(body: KindBody) -> list[str]:
    return [*table_md(body.props, body.limits), *_truncated(body)]


def table_md(props: TableProps, limits: Limits) -> list[str]:
    """A GFM table; cells escaped (``|`` included), rows and columns bounded."""
    columns = props.columns[: limits.max_columns]
    if not columns:
        return ["_(no columns)_"]
    rows = [_row([cell_text(name, 40) for name in columns]), _row(["---"] * len(columns), False)]
    for row in props.rows[: limits.max_rows]:
        rows.append(_row([cell_text(cell, limits.max_cell_chars) for cell in row[: len(columns)]]))
    out = ["\n".join(rows)]
    if len(props.columns) > len(columns):
        out += omission_md(Omission(len(props.columns) - len(columns), "items"))
    if len(props.rows) > limits.max_rows:
        out += omission_md(Omission(len(props.rows) - limits.max_rows, "items"))
    if not props.rows:
        out.append("_(no rows)_")
    return out


def _row(cells: list[str], escape: bool = True) -> str:
    return "| " + " | ".join(inline(cell) if escape else cell for cell in cells) + " |"


def links(body: KindBody) -> list[str]:
    props: LinksProps = body.props
    items: list[str] = []
    for number, item in enumerate(props.links[: body.limits.max_links], start=1):
        entry = f"{number}. {link(clean_field(item.title, _FIELD), clean_field(item.url, _FIELD))}"
        if isinstance(item.snippet, str) and item.snippet:
            entry += f" — {inline(clean_field(item.snippet, _FIELD, 'space'))}"
        items.append(entry)
    out = ["\n".join(items)] if items else ["_(no links)_"]
    if len(props.links) > body.limits.max_links:
        out += omission_md(Omission(len(props.links) - body.limits.max_links, "items"))
    return out + _truncated(body)


def image(body: KindBody) -> list[str]:
    props: ImageProps = body.props
    alt = f" {clean_field(props.alt, _FIELD)}" if isinstance(props.alt, str) and props.alt else ""
    return [inline(f"{image_label(props)}{alt}"), *_truncated(body)]


def markdown(body: KindBody) -> list[str]:
    props: MarkdownProps = body.props
    if not props.markdown.strip():
        return ["_(empty document)_"]
    window = shown_text(props.markdown, body.limits)
    quoted = "\n".join(
        f"> {line}" for line in markdown_source(window.text.rstrip("\n")).split("\n")
    )
    return [quoted, *cut_md(window.after, truncation_omission(body.truncated))]


def envelope(body: KindBody) -> list[str]:
    props: Envelope = body.props
    out: list[str] = []
    if isinstance(props.summary, str):
        out.append(inline(clean_field(props.summary, body.limits.max_args_chars * 4, "space")))
    line = f"{inline(clean_field(props.tool, _FIELD))}: {code_span(clean_field(props.status, 80))}"
    if isinstance(props.error_code, str):
        line += f" · error code {code_span(clean_field(props.error_code, 200))}"
    out.append(line)
    return out + data_md(props.data, body.limits) + _truncated(body)


def data_md(data: Any, limits: Limits) -> list[str]:
    """An envelope's data: a table for a list of records, bounded JSON otherwise."""
    if is_record_list(data):
        return table_md(records_table(data), limits)
    if isinstance(data, str):
        return window_block(shown_text(data, limits))
    if data is msgspec.UNSET or data is None or data == {}:
        return []
    return [code_block("\n".join(json_lines(data, limits)), "json")]


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
