"""The structural rules of a call's markup and of the standalone page: layout, never colour.

Colours are the palette's (``var(--tv-…)``, with a fallback for a host page
that defines none); these rules place things. ``CALL_CSS`` joins the
fragments' sheet (the live page and a notebook use it too): the summary line,
the permalink, focus rings, ``scroll-margin-top`` so a sticky bar never hides
a call a link jumped to. ``PAGE_STRUCTURE_CSS`` is the standalone page's
own: its status filters (checkboxes before the thread; ``:not(:checked) ~``
hides a group, no script) and ``content-visibility`` so a call off screen is
not laid out until it is scrolled to (a sub-agent's entries too).
"""

from __future__ import annotations

from typing import Final

__all__ = ["CALL_CSS", "FILTERS", "PAGE_STRUCTURE_CSS", "filters_html"]

_FOCUS: Final = "var(--tv-focus, #0969da)"
# laid out only once scrolled to: the thread's own calls and messages, and a sub-agent's
# (an export draws every one of them, thousands under one call in a long session)
_LIGHT: Final = (
    "main > .tv-thread > :is(.tv-call, .tv-message),"
    " main .tv-subthread > :is(.tv-call, .tv-message, .tv-note)"
)

CALL_CSS: Final = f"""
.tv-call {{ position: relative; scroll-margin-top: 4.5rem; }}
.tv-call:target {{ outline: 3px solid {_FOCUS}; outline-offset: 2px; }}
.tv-call-summary.tv-header {{ display: list-item; cursor: pointer; padding-right: 2.6rem; }}
.tv-call-details:not([open]) > .tv-call-summary {{ border-bottom-width: 0; }}
.tv-call-title {{ display: inline-flex; flex-wrap: wrap; align-items: center; gap: 2px 8px;
  width: calc(100% - 1.4em); margin: 0; font: inherit; vertical-align: middle; }}
.tv-gist {{ flex: 1 1 12em; min-width: 0; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, monospace; }}
.tv-call-details[open] > .tv-call-summary .tv-gist {{ display: none; }}
.tv-duration, .tv-time {{ font-size: 13px; white-space: nowrap; }}
.tv-permalink {{ position: absolute; top: 6px; right: 8px; padding: 2px 6px; border-radius: 4px;
  font-size: 14px; text-decoration: none; color: inherit; }}
.tv-call-summary:focus-visible, .tv-thread summary:focus-visible {{
  outline: 2px solid {_FOCUS}; outline-offset: -2px; }}
.tv-permalink:focus-visible, .tv-thread a:focus-visible {{
  outline: 2px solid {_FOCUS}; outline-offset: 1px; }}
h3.tv-receipt {{ font: inherit; padding-right: 2.6rem; }}
.tv-sr {{ position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }}
"""

# A filter: its id, its label, the statuses (``data-status``) of the calls it shows.
FILTERS: Final = (
    ("tv-show-success", "Succeeded", ("success",)),
    ("tv-show-failed", "Failed", ("error", "timeout")),
    ("tv-show-denied", "Refused or denied", ("denied",)),
    ("tv-show-running", "Running", ("running",)),
    ("tv-show-cancelled", "Cancelled", ("cancelled",)),
    ("tv-show-other", "Other", ("needs_input", "not_found", "unknown")),
)


def _filter_rules() -> str:
    rules = []
    for input_id, _, statuses in FILTERS:
        calls = ", ".join(f'[data-status="{status}"]' for status in statuses)
        rules.append(
            f"#{input_id}:not(:checked) ~ .tv-thread > .tv-call:is({calls}) {{ display: none; }}"
        )
    messages = "#tv-show-messages:not(:checked) ~ .tv-thread > :is(.tv-message, .tv-note)"
    return "\n".join([*rules, messages + " { display: none; }"]) + "\n"


PAGE_STRUCTURE_CSS: Final = f"""
.tv-filter {{ position: absolute; opacity: 0; width: 1px; height: 1px; margin: 0; }}
.tv-filter-legend {{ display: inline; font-size: 13px; font-weight: 600; margin-right: 4px; }}
.tv-chip {{ display: inline-block; margin: 0 4px 8px 0; padding: 2px 10px; border-radius: 999px;
  border: 1px solid var(--tv-border, #d8dde3); font-size: 13px; cursor: pointer;
  user-select: none; }}
.tv-chip::before {{ content: "\\2713\\00a0"; }}
.tv-filter:not(:checked) + .tv-chip {{ text-decoration: line-through; }}
.tv-filter:not(:checked) + .tv-chip::before {{ content: "\\2715\\00a0"; }}
.tv-filter:focus-visible + .tv-chip {{ outline: 2px solid {_FOCUS}; outline-offset: 1px; }}
{_LIGHT} {{ content-visibility: auto; contain-intrinsic-block-size: auto 44px; }}
@media print {{ {_LIGHT} {{ content-visibility: visible; }} }}
.tv-pages {{ display: flex; flex-wrap: wrap; gap: 4px 12px; margin: 8px 0; padding: 0;
  list-style: none; }}
""" + _filter_rules()


def filters_html() -> str:
    """The page's filter checkboxes (all checked), each followed by its label."""
    pieces = ['<p class="tv-filter-legend" id="tv-filter-legend">Show:</p>']
    for input_id, label, _ in (*FILTERS, ("tv-show-messages", "Messages", ())):
        pieces.append(
            f'<input type="checkbox" class="tv-filter" id="{input_id}" checked '
            f'aria-describedby="tv-filter-legend">'
            f'<label class="tv-chip" for="{input_id}">{label}</label>'
        )
    return "\n".join(pieces) + "\n"
