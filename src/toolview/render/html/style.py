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

__all__ = ["CODE_CLASS", "FRAGMENT_CSS", "PAGE_CSP", "PAGE_CSS", "STATUS_COLOURS", "csp_for"]

CODE_CLASS: Final = "tv-code"

# One CSS class per colour name of the contract's status table.
STATUS_COLOURS: Final = {
    "cyan": ("#0b6e79", "#e0f5f7"),
    "green": ("#1a6b2c", "#e3f4e6"),
    "magenta": ("#8a2a86", "#f6e5f5"),
    "yellow": ("#7a5b00", "#fdf3d1"),
    "red": ("#a4161a", "#fbe4e4"),
    "bright_black": ("#4a4f55", "#eceef0"),
    "blue": ("#1d4f91", "#e4ecf8"),
}

_PAGE_ONLY_CSS: Final = """
:root { color-scheme: light; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0;
  background: #f3f4f6; color: #1f2328; }
main { max-width: 980px; margin: 0 auto; padding: 16px; }
h1.tv-title { font-size: 20px; margin: 8px 0 16px; }
"""

# Every rule below is scoped to a tv- class, so it can sit inside a host page
# (a notebook, the web server's page) without restyling anything else.
_FRAGMENT_BASE_CSS: Final = """
.tv-thread { display: flex; flex-direction: column; gap: 12px; color: #1f2328;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
.tv-message { padding: 8px 12px; border-radius: 8px; background: #fff;
  border: 1px solid #d8dde3; }
.tv-message-text { white-space: pre-wrap; overflow-wrap: anywhere; }
.tv-message-user { background: #eef4ff; }
.tv-role { display: block; font-size: 12px; font-weight: 600; color: #57606a;
  text-transform: uppercase; letter-spacing: .04em; }
.tv-note { padding: 6px 12px; border-left: 4px solid #bf8700; background: #fff8e1;
  white-space: pre-wrap; overflow-wrap: anywhere; }
.tv-call { background: #fff; border: 1px solid #d8dde3; border-radius: 8px; overflow: hidden; }
.tv-header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 8px 12px;
  border-bottom: 1px solid #e5e8eb; background: #fafbfc; }
.tv-tool { font-weight: 600; font-family: ui-monospace, "SFMono-Regular", Menlo, monospace;
  overflow-wrap: anywhere; }
.tv-status { display: inline-flex; gap: 4px; align-items: center; padding: 1px 8px;
  border-radius: 999px; font-size: 13px; font-weight: 600; }
.tv-meta { color: #57606a; font-size: 13px; }
.tv-args { margin: 0; padding: 4px 12px; color: #57606a; font-size: 13px;
  font-family: ui-monospace, Menlo, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
.tv-body { padding: 8px 12px; display: flex; flex-direction: column; gap: 6px; }
.tv-pre { margin: 0; padding: 8px; border-radius: 6px; overflow-x: auto;
  font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, monospace; white-space: pre-wrap;
  overflow-wrap: anywhere; }
.tv-pre { background: #f6f8fa; max-height: 28em; overflow: auto; }
.tv-scroll-end { display: flex; flex-direction: column-reverse; max-height: 28em;
  overflow: auto; border-radius: 6px; }
.tv-scroll-end > .tv-pre { max-height: none; overflow: visible; }
.tv-markdown h1 { font-size: 1.35em; } .tv-markdown h2 { font-size: 1.2em; }
.tv-markdown h3, .tv-markdown h4, .tv-markdown h5, .tv-markdown h6 { font-size: 1.05em; }
.tv-markdown pre { background: #f6f8fa; padding: 8px; border-radius: 6px; overflow-x: auto; }
.tv-md-image { color: #57606a; font-style: italic; }
.tv-stderr { background: #fff5f5; color: #8b1a1a; }
.tv-code { display: grid; grid-template-columns: auto minmax(0, 1fr); margin: 0;
  padding: 8px 0; border-radius: 6px; background: #f6f8fa;
  font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, monospace; }
.tv-code::before { content: attr(data-ln); content: attr(data-ln) / ""; white-space: pre;
  text-align: right; color: #8c959f; padding: 0 12px 0 8px; user-select: none; }
.tv-code > code { font: inherit; white-space: pre; overflow-x: auto; padding-right: 8px; }
.tv-label { font-size: 12px; color: #57606a; text-transform: uppercase; letter-spacing: .04em; }
.tv-command { font-family: ui-monospace, Menlo, monospace; font-weight: 600;
  overflow-wrap: anywhere; }
.tv-empty { color: #57606a; font-style: italic; }
.tv-fallback-note { padding: 4px 8px; border-radius: 6px; background: #fff8e1;
  color: #6b4e00; font-size: 13px; }
.tv-trunc { font-size: 13px; color: #57606a; }
.tv-trunc summary { cursor: pointer; }
.tv-table-wrap { overflow-x: auto; max-width: 100%; }
table.tv-table { border-collapse: collapse; font-size: 13px; }
table.tv-table th, table.tv-table td { border: 1px solid #d8dde3; padding: 3px 8px;
  text-align: left; vertical-align: top; white-space: nowrap; }
table.tv-table td.tv-cell-prose { white-space: normal; overflow-wrap: normal; min-width: 20em; }
table.tv-table th { background: #f6f8fa; }
.tv-links { margin: 0; padding-left: 20px; }
.tv-links li { margin: 4px 0; }
.tv-url { color: #57606a; font-size: 12px; overflow-wrap: anywhere; }
.tv-snippet { display: block; color: #3b434b; font-size: 13px; }
.tv-subagent { margin-top: 6px; padding-left: 10px; border-left: 3px solid #8250df; }
.tv-subagent-head { margin: 0 0 4px; font-weight: 600; color: #6639ba; }
.tv-subagent-entries > summary { cursor: pointer; font-size: 13px; color: #57606a; }
.tv-subthread { display: flex; flex-direction: column; gap: 8px; margin-top: 6px; }
.tv-todo { margin: 0; padding-left: 0; list-style: none; }
.tv-todo-item { margin: 2px 0; overflow-wrap: anywhere; }
.tv-todo-item[data-status="in_progress"] .tv-todo-text { font-weight: 600; }
.tv-todo-item[data-status="cancelled"], .tv-todo-state { color: #57606a; }
.tv-image img { max-width: 100%; height: auto; image-rendering: auto;
  border: 1px solid #d8dde3; min-width: 32px; min-height: 32px; }
.tv-placeholder { font-family: ui-monospace, Menlo, monospace; color: #57606a; }
.tv-markdown { overflow-wrap: anywhere; }
.tv-markdown > :first-child { margin-top: 0; }
.tv-markdown > :last-child { margin-bottom: 0; }
.tv-envelope-summary { font-weight: 600; }
.tv-notice { padding: 4px 8px; border-left: 3px solid #1d4f91; background: #eef4ff;
  font-size: 13px; margin: 0; }
.tv-block + .tv-block { border-top: 1px dotted #d8dde3; padding-top: 6px; }
.tv-block > p { margin: 0; }
.tv-call-receipt { border-style: dashed; border-color: #d9a8a8; background: #fffafa; }
.tv-receipt { margin: 0; padding: 6px 12px; overflow-wrap: anywhere; }
.tv-receipt-icon { display: inline-block; min-width: 1.4em; text-align: center;
  border-radius: 999px; font-weight: 600; }
.tv-guard { font-weight: 600; }
.tv-receipt-args { color: #57606a; font-size: 13px;
  font-family: ui-monospace, Menlo, monospace; }
.tv-summary { order: 1; padding: 6px 12px; border-top: 1px solid #d8dde3; color: #57606a;
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
        f".tv-colour-{name} {{ color: {fg}; background: {bg}; }}\n"
        for name, (fg, bg) in STATUS_COLOURS.items()
    )


FRAGMENT_CSS: Final = _FRAGMENT_BASE_CSS + _status_css() + CODE_CSS + SGR_CSS + CALL_CSS
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
