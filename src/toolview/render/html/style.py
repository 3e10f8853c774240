"""The page's one stylesheet and the Content-Security-Policy that admits it.

Everything toolview emits is styled by class, never by a ``style`` attribute,
so the policy can allow exactly this stylesheet by its SHA-256 hash instead of
``'unsafe-inline'``: an injected ``<style>`` or ``style=`` (should escaping
ever fail) is refused by the browser. Highlighted code's rules
(``palette.CODE_CSS``) are scoped to ``.tv-code`` and need no inline style
either; its line numbers are drawn from the ``data-ln`` attribute.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Final

from toolview.render.html.palette import CODE_CSS, SGR_CSS
from toolview.render.html.structure import CALL_CSS, PAGE_STRUCTURE_CSS
from toolview.render.html.theme import STATUS, THEME_CSS

__all__ = ["CODE_CLASS", "FRAGMENT_CSS", "PAGE_CSP", "PAGE_CSS", "STATUS_COLOURS", "csp_for"]

CODE_CLASS: Final = "tv-code"

# One CSS class per colour name of the contract's status table (values: ``theme.STATUS``).
STATUS_COLOURS: Final = tuple(STATUS)

_PAGE_ONLY_CSS: Final = """
:root { color-scheme: light dark; }
:root[data-theme="light"] { color-scheme: light; } :root[data-theme="dark"] { color-scheme: dark; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0;
  background: var(--tv-bg); color: var(--tv-fg); }
main { max-width: 980px; margin: 0 auto; padding: 16px; }
h1.tv-title { font-size: 20px; margin: 8px 0 16px; }
"""

# Every rule below is scoped to a tv- class, so it can sit inside a host page
# (a notebook, the web server's page) without restyling anything else.
_FRAGMENT_BASE_CSS: Final = """
.tv-thread { display: flex; flex-direction: column; gap: 12px; color: var(--tv-fg);
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
.tv-message { padding: 8px 12px; border-radius: 8px; background: var(--tv-card);
  border: 1px solid var(--tv-border); }
.tv-message-text { overflow-wrap: anywhere; }
.tv-message-text > p { margin: .4em 0; }
.tv-message-user { background: var(--tv-user-bg); }
.tv-role { display: block; font-size: 12px; font-weight: 600; color: var(--tv-muted);
  text-transform: uppercase; letter-spacing: .04em; }
summary.tv-role { display: list-item; cursor: pointer; }
.tv-note { padding: 6px 12px; border-left: 4px solid var(--tv-note-border);
  background: var(--tv-note-bg);
  white-space: pre-wrap; overflow-wrap: anywhere; }
.tv-call { background: var(--tv-card); border: 1px solid var(--tv-border); border-radius: 8px;
  overflow: hidden; }
.tv-header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 8px 12px;
  border-bottom: 1px solid var(--tv-border-soft); background: var(--tv-card-head); }
.tv-tool { font-weight: 600; font-family: ui-monospace, "SFMono-Regular", Menlo, monospace;
  overflow-wrap: anywhere; }
.tv-status { display: inline-flex; gap: 4px; align-items: center; padding: 1px 8px;
  border-radius: 999px; font-size: 13px; font-weight: 600; }
.tv-meta { color: var(--tv-muted); font-size: 13px; }
.tv-args { margin: 0; padding: 4px 12px; color: var(--tv-muted); font-size: 13px;
  font-family: ui-monospace, Menlo, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
.tv-body { padding: 8px 12px; display: flex; flex-direction: column; gap: 6px; }
.tv-pre { margin: 0; padding: 8px; border-radius: 6px; overflow-x: auto;
  font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, monospace; white-space: pre-wrap;
  overflow-wrap: anywhere; }
.tv-pre { background: var(--tv-code-bg); max-height: 28em; overflow: auto; }
.tv-scroll-end { display: flex; flex-direction: column-reverse; max-height: 28em;
  overflow: auto; border-radius: 6px; }
.tv-scroll-end > .tv-pre { max-height: none; overflow: visible; }
.tv-markdown h4 { font-size: 1.25em; } .tv-markdown h5 { font-size: 1.1em; }
.tv-markdown h6 { font-size: 1em; }
.tv-markdown h4, .tv-markdown h5, .tv-markdown h6 { margin: .6em 0 .3em; }
.tv-markdown pre { background: var(--tv-code-bg); padding: 8px; border-radius: 6px;
  overflow-x: auto; }
.tv-md-image { color: var(--tv-muted); font-style: italic; }
.tv-stderr { background: var(--tv-stderr-bg); color: var(--tv-stderr-fg); }
.tv-code { display: grid; grid-template-columns: auto minmax(0, 1fr); margin: 0;
  padding: 8px 0; border-radius: 6px; background: var(--tv-code-bg);
  font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, monospace; }
.tv-code::before { content: attr(data-ln); content: attr(data-ln) / ""; white-space: pre;
  text-align: right; color: var(--tv-gutter); padding: 0 12px 0 8px; user-select: none; }
.tv-code > code { font: inherit; white-space: pre; overflow-x: auto; padding-right: 8px; }
.tv-diff .gi, .tv-diff .gd { display: block; width: max-content; min-width: 100%; }
.tv-diff .gi { background: var(--tv-diff-add-bg); }
.tv-diff .gd { background: var(--tv-diff-del-bg); }
.tv-diff .tv-dw { border-radius: 2px; }
.tv-diff .gi .tv-dw { background: var(--tv-diff-add-word); }
.tv-diff .gd .tv-dw { background: var(--tv-diff-del-word); }
.tv-label { font-size: 12px; color: var(--tv-muted); text-transform: uppercase;
  letter-spacing: .04em; }
.tv-command { font-family: ui-monospace, Menlo, monospace; font-weight: 600;
  overflow-wrap: anywhere; }
.tv-empty { color: var(--tv-muted); font-style: italic; }
.tv-fallback-note { padding: 4px 8px; border-radius: 6px; background: var(--tv-note-bg);
  color: var(--tv-note-fg); font-size: 13px; }
.tv-trunc { font-size: 13px; color: var(--tv-muted); }
.tv-trunc summary { cursor: pointer; }
.tv-table-wrap { overflow-x: auto; max-width: 100%; }
table.tv-table { border-collapse: collapse; font-size: 13px; }
table.tv-table th, table.tv-table td { border: 1px solid var(--tv-border); padding: 3px 8px;
  text-align: left; vertical-align: top; white-space: nowrap; }
table.tv-table td.tv-cell-prose { white-space: normal; overflow-wrap: normal; min-width: 20em; }
table.tv-table th { background: var(--tv-code-bg); }
.tv-links { margin: 0; padding-left: 20px; }
.tv-links li { margin: 4px 0; }
.tv-url { color: var(--tv-muted); font-size: 12px; overflow-wrap: anywhere; }
.tv-snippet { display: block; color: var(--tv-snippet); font-size: 13px; }
.tv-subagent { margin-top: 6px; padding-left: 10px; border-left: 3px solid var(--tv-accent); }
.tv-subagent-head { margin: 0 0 4px; font-weight: 600; color: var(--tv-accent-fg); }
.tv-subagent-entries > summary { cursor: pointer; font-size: 13px; color: var(--tv-muted); }
.tv-subthread { display: flex; flex-direction: column; gap: 8px; margin-top: 6px; }
.tv-todo { margin: 0; padding-left: 0; list-style: none; }
.tv-todo-item { margin: 2px 0; overflow-wrap: anywhere; }
.tv-todo-item[data-status="in_progress"] .tv-todo-text { font-weight: 600; }
.tv-todo-item[data-status="cancelled"], .tv-todo-state { color: var(--tv-muted); }
.tv-image img { max-width: 100%; height: auto; image-rendering: auto;
  border: 1px solid var(--tv-border); min-width: 32px; min-height: 32px; }
.tv-placeholder { font-family: ui-monospace, Menlo, monospace; color: var(--tv-muted); }
.tv-markdown { overflow-wrap: anywhere; }
.tv-thread a { color: var(--tv-link); }
.tv-markdown :not(pre) > code { font: .9em ui-monospace, Menlo, monospace; padding: 0 .25em;
  border-radius: 4px; background: var(--tv-code-bg); }
.tv-markdown > :first-child { margin-top: 0; }
.tv-markdown > :last-child { margin-bottom: 0; }
.tv-envelope-summary { font-weight: 600; }
.tv-notice { padding: 4px 8px; border-left: 3px solid var(--tv-notice-border);
  background: var(--tv-notice-bg);
  font-size: 13px; margin: 0; }
.tv-block + .tv-block { border-top: 1px dotted var(--tv-border); padding-top: 6px; }
.tv-block > p { margin: 0; }
.tv-call-receipt { border-style: dashed; border-color: var(--tv-receipt-border);
  background: var(--tv-receipt-bg); }
.tv-receipt { margin: 0; padding: 6px 12px; overflow-wrap: anywhere; }
.tv-receipt-icon { display: inline-block; min-width: 1.4em; text-align: center;
  border-radius: 999px; font-weight: 600; }
.tv-guard { font-weight: 600; }
.tv-receipt-args { color: var(--tv-muted); font-size: 13px;
  font-family: ui-monospace, Menlo, monospace; }
.tv-summary { order: 1; padding: 6px 12px; border-top: 1px solid var(--tv-border);
  color: var(--tv-muted);
  font-size: 13px; }
.tv-summary-part { padding: 0 6px; border-radius: 999px; font-weight: 600; }
.tv-running { display: inline-block; width: 10px; height: 10px; border-radius: 50%;
  border: 2px solid currentColor; border-right-color: transparent;
  animation: tv-spin 1s linear infinite; }
@keyframes tv-spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .tv-running { animation: none; } }
"""


def _status_css() -> str:
    return "".join(
        f".tv-colour-{name} {{ color: var(--tv-status-{name}-fg); "
        f"background: var(--tv-status-{name}-bg); }}\n"
        for name in STATUS
    )


FRAGMENT_CSS: Final = THEME_CSS + _FRAGMENT_BASE_CSS + _status_css() + CODE_CSS + SGR_CSS + CALL_CSS
PAGE_CSS: Final = _PAGE_ONLY_CSS + FRAGMENT_CSS + PAGE_STRUCTURE_CSS


def csp_for(css: str) -> str:
    """A policy allowing no script, no request, and only ``css`` as a stylesheet."""
    digest = base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode("ascii")
    return (
        "default-src 'none'; "
        f"style-src 'sha256-{digest}'; "
        "img-src data:; "
        "base-uri 'none'; "
        "form-action 'none'"
    )


PAGE_CSP: Final = csp_for(PAGE_CSS)
