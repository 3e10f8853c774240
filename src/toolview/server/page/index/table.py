"""The index's markup: the controls, and the first page of sessions grouped by project.

Why only one page is drawn here: a machine with 10,000 sessions would be a
table of 10,000 rows (over 200,000 DOM nodes, seconds to lay out). The server
draws the newest ``PAGE_ROWS`` (readable with no script at all); the script
(``static/index.js``) then asks the server for one page at a time, filtered
and sorted there (``index.paging``), and draws it in the same markup. Every fact a row
shows is the listing's (``directory``: ``contract.session_facts`` and
``contract.counts``); the cost and models columns are the cost's own fields
(``models``, ``costText``) where the listing carries them, else a dash.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from toolview.contract.session_status import STATUSES
from toolview.safety import escape_html
from toolview.server.page.header.toolbar import keys_dialog

__all__ = [
    "COLUMNS",
    "INDEX_KEYS",
    "PAGE_ROWS",
    "controls_html",
    "duration_text",
    "index_html",
    "index_keys_html",
    "time_html",
]

PAGE_ROWS: Final = 100
# (key the script sorts by, heading, numeric)
COLUMNS: Final = (
    ("title", "Session", False),
    ("agent", "Agent", False),
    ("models", "Model", False),
    ("startedAt", "Started", False),
    ("spanMs", "Duration", True),
    ("calls", "Calls", True),
    ("failed", "Failed", True),
    ("tokens", "Tokens", True),
    ("costUsd", "Cost", True),
    ("status", "Status", False),
)
NO_PROJECT: Final = "(no project)"
INDEX_KEYS: Final = (
    ("j / k", "next / previous session"),
    ("Enter", "open the session"),
    ("/", "search every session"),
    ("n / N", "next / previous page"),
    ("?", "these keys"),
)


def time_html(moment: object) -> str:
    """A ``<time>`` saying the absolute UTC time (the viewer's script may say it relatively)."""
    text = escape_html(str(moment))
    shown = text.replace("T", " ", 1).removesuffix("Z")[:16] + " UTC"
    return f'<time datetime="{text}" title="{text}">{shown}</time>'


def duration_text(ms: object) -> str:
    """``7s``, ``3m05s``, ``2h04m``; a dash without two times (``index.js`` says it the same)."""
    if not isinstance(ms, int):
        return "—"
    whole = ms // 1000
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


def index_html(threads: Sequence[dict[str, object]]) -> str:
    """The table's first page, grouped by project (or a line saying there are none)."""
    if not threads:
        return '<p class="tv-empty">No threads yet.</p>'
    head = "".join(
        f'<th scope="col" data-key="{key}"{" class=tv-num" if num else ""}>{label}</th>'
        for key, label, num in COLUMNS
    )
    rows: list[str] = []
    project: object = None
    for thread in _grouped(threads[:PAGE_ROWS]):
        if thread.get("project") != project:
            project = thread.get("project")
            rows.append(_group_row(str(project or "") or NO_PROJECT))
        rows.append(_row(thread))
    return (
        f'<table class="tv-index"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody>'
        f"</table>{_pager(len(threads))}"
    )


def _grouped(threads: Sequence[dict[str, object]]) -> list[dict[str, object]]:
    """Projects in the order of their newest session, each project's sessions newest first."""
    order: dict[str, int] = {}
    for index, thread in enumerate(threads):
        order.setdefault(str(thread.get("project") or ""), index)
    return sorted(threads, key=lambda t: order[str(t.get("project") or "")])


def _group_row(project: str) -> str:
    cell = f'<th scope="rowgroup" colspan="{len(COLUMNS)}">{escape_html(project)}</th>'
    return f'<tr class="tv-group">{cell}</tr>'


def _with_sub(own: object, sub: object) -> str:
    return f"{own}+{sub}" if isinstance(sub, int) and sub else str(own)


def _row(thread: dict[str, object]) -> str:
    safe_id = escape_html(str(thread["id"]))
    models = thread.get("models")
    model = ", ".join(str(m) for m in models) if isinstance(models, list) and models else "—"
    status = escape_html(str(thread.get("status", "")))
    tokens = _with_sub(thread.get("tokens", 0), thread.get("subAgentTokens"))
    cells = (
        f'<td><a href="/threads/{safe_id}">{escape_html(str(thread["title"]))}</a></td>',
        _cell("Agent", escape_html(str(thread.get("agent", "")))),
        _cell("Model", escape_html(model)),
        _cell("Started", time_html(thread["startedAt"])),
        _cell("Duration", duration_text(thread.get("spanMs")), numeric=True),
        _cell("Calls", _with_sub(thread["calls"], thread.get("subAgentCalls")), numeric=True),
        _cell("Failed", _with_sub(thread["failed"], thread.get("subAgentFailed")), numeric=True),
        _cell("Tokens", tokens, numeric=True),
        _cell("Cost", escape_html(str(thread.get("costText") or "—")), numeric=True),
        _cell("Status", f'<span class="tv-state" data-status="{status}">{status}</span>'),
    )
    title = escape_html(str(thread.get("counts", "")))
    return f'<tr data-thread="{safe_id}" title="{title}">{"".join(cells)}</tr>'


def _cell(label: str, markup: str, *, numeric: bool = False) -> str:
    """A cell labelled for the narrow layout (its heading, shown before it at 390 px)."""
    kind = ' class="tv-num"' if numeric else ""
    return f'<td{kind} data-label="{label}">{markup}</td>'


def _pager(total: int) -> str:
    shown = min(total, PAGE_ROWS)
    return f'<p class="tv-pager" id="tv-pager" aria-live="polite">Sessions 1–{shown} of {total}</p>'


def controls_html() -> str:
    """The search box (every session, FTS) and the filters; the script fills the choices."""
    statuses = "".join(f'<option value="{s}">{s}</option>' for s in STATUSES)
    return (
        '<form id="tv-find" class="tv-find" role="search" action="/api/search" method="get">'
        '<label for="tv-find-input">Search every session</label>'
        '<input id="tv-find-input" name="q" type="search" autocomplete="off" '
        'aria-keyshortcuts="/" placeholder="words in any call or message">'
        '<button type="submit">Search</button></form>'
        '<div id="tv-found" class="tv-found" aria-live="polite"></div>'
        '<div id="tv-filters" class="tv-filters" hidden>'
        '<label>Agent <select id="tv-f-agent"><option value="">all</option></select></label>'
        '<label>Project <select id="tv-f-project"><option value="">all</option></select></label>'
        f'<label>Status <select id="tv-f-status"><option value="">all</option>{statuses}'
        "</select></label>"
        '<label>Since <input id="tv-f-since" type="date"></label>'
        '<label><input id="tv-f-group" type="checkbox" checked> Group by project</label>'
        "</div>"
    )


def index_keys_html() -> str:
    """The keys dialog (``?``): the thread page's keys, as they act on the index."""
    return keys_dialog(INDEX_KEYS)
