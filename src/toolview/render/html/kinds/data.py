"""The ``json``, ``table`` and ``envelope`` kinds in HTML.

JSON goes through the shared bounded view (``toolview.render.jsonview``), so it
is cut, redacted and worded exactly as on every other surface before it is
escaped; then it is highlighted with the code kind's few classes (keys,
strings, numbers and constants; punctuation is plain text and costs no
element). A table is cut to its shown rows and columns *before* any cell is
formatted. An envelope shows its summary, its raw status word and error code,
and its data as a table when it is a list of records, else as JSON.
"""

from __future__ import annotations

from typing import Any

import msgspec

from toolview.contract import Envelope, JsonProps, TableProps
from toolview.render.clean import clean_field
from toolview.render.highlight import lexer_for
from toolview.render.html.kinds.code import code_runs
from toolview.render.html.markup import esc, omission_html, truncation_html
from toolview.render.jsonview import json_lines
from toolview.render.limits import Limits
from toolview.render.regexlex import tokens
from toolview.render.tables import shown_table
from toolview.render.view import KindBody
from toolview.render.words import is_record_list, records_table

__all__ = [
    "json_html",
    "json_text_html",
    "render_envelope",
    "render_json",
    "render_table",
    "table_html",
]

_NAME = 80  # a column's name, in a header cell
_PROSE_CHARS = 40  # a longer cell with spaces in it is prose: it wraps, the rest never do


def json_html(value: Any, limits: Limits) -> str:
    """A bounded, redacted, pretty JSON view, highlighted."""
    text = "\n".join(json_lines(value, limits))
    return f'<pre class="tv-pre tv-json">{json_text_html(text)}</pre>'


def json_text_html(text: str) -> str:
    """Already bounded, redacted JSON ``text`` escaped, its tokens in the code classes
    (inside an element of class ``tv-json``: e.g. a call's arguments).

    A line that says what was left out (``… 3 more items``: no quote in it) is
    drawn as a comment, not lexed as broken JSON.
    """
    out: list[str] = []
    chunk: list[str] = []
    for line in text.split("\n"):
        if "\u2026" in line and '"' not in line:
            out.append(_highlighted("\n".join(chunk)) if chunk else "")
            out.append(f'<span class="c">{esc(line)}</span>')
            chunk = []
        else:
            chunk.append(line)
    out.append(_highlighted("\n".join(chunk)) if chunk else "")
    return "\n".join(part for part in out if part)


def _highlighted(text: str) -> str:
    runs = code_runs(tokens(lexer_for("json", None), text))
    body = "".join(
        esc(part) if cls is None else f'<span class="{cls}">{esc(part)}</span>'
        for cls, part in runs
    )
    return body.removesuffix("\n")


def table_html(props: TableProps, limits: Limits) -> str:
    """A real ``<table>`` of the shown rows and columns, cells bounded and cleaned.

    Its wrapper scrolls sideways inside the card when the table is wider than
    it: a cell never breaks mid-word (``style.py``), so the table, not the
    page, grows wider.
    """
    shown = shown_table(props, limits, name_chars=_NAME)
    head = "".join(f'<th scope="col">{esc(name)}</th>' for name in shown.columns)
    body = "".join("<tr>" + "".join(map(_cell, row)) + "</tr>" for row in shown.rows)
    parts = [f'<div class="tv-table-wrap"><table class="tv-table"><thead><tr>{head}</tr></thead>']
    parts.append(f"<tbody>{body}</tbody></table></div>")
    if not shown.rows:
        parts.append('<p class="tv-empty">(no rows)</p>')
    parts.append(omission_html(shown.more_rows, noun="rows"))
    parts.append(omission_html(shown.more_columns, noun="columns"))
    return "".join(parts)


def _cell(text: str) -> str:
    """A cell on one line (a name, a date, an address, a URL never breaks); prose wraps
    between its words, at a width that keeps it readable when the table scrolls."""
    if len(text) > _PROSE_CHARS and " " in text:
        return f'<td class="tv-cell-prose">{esc(text)}</td>'
    return f"<td>{esc(text)}</td>"


def render_json(body: KindBody) -> str:
    """The ``json`` kind."""
    props: JsonProps = body.props
    return json_html(props.value, body.limits) + truncation_html(body.truncated)


def render_table(body: KindBody) -> str:
    """The ``table`` kind."""
    props: TableProps = body.props
    return table_html(props, body.limits) + truncation_html(body.truncated)


def render_envelope(body: KindBody) -> str:
    """The ``envelope`` kind: summary, status word, error code, then its data."""
    envelope: Envelope = body.props
    parts: list[str] = []
    if isinstance(envelope.summary, str) and envelope.summary:
        summary = clean_field(envelope.summary, body.limits.max_chars, "space")
        parts.append(f'<p class="tv-envelope-summary">{esc(summary)}</p>')
    facts = [f"status: {clean_field(envelope.status, 80)}"]
    if isinstance(envelope.error_code, str) and envelope.error_code:
        facts.append(f"error code: {clean_field(envelope.error_code, 80)}")
    version = clean_field(envelope.schema_version, 20)
    facts.append(f"tool: {clean_field(envelope.tool, 80)} · schema {version}")
    parts.append(f'<div class="tv-meta">{esc(" · ".join(facts))}</div>')
    data = envelope.data
    if isinstance(data, list) and is_record_list(data):
        parts.append(table_html(records_table(data), body.limits))
    elif data is not msgspec.UNSET:
        parts.append(json_html(data, body.limits))
    return "".join(parts) + truncation_html(body.truncated)
