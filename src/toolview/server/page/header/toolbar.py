"""The live page's toolbar: search, filters, expand/collapse, theme and keys.

Static markup, the same for every thread: the served script ``static/viewer.js``
brings it to life (filter chips and their counts are built there, from the
calls on the page). It starts ``hidden`` and the script shows it, so a page
read without JavaScript never shows controls that would do nothing; the calls
themselves stay native ``<details>`` that open and close without a script.
No inline script, style or event handler: the page's CSP stays strict.

The match count is plain text here; the one polite live region of the page
(the status line, ``#tv-status``) is where the script announces it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

__all__ = ["KEYS", "keys_dialog", "toolbar_html"]

KEYS: Final = (
    ("j", "next call"),
    ("k", "previous call"),
    ("Enter or o", "open or close the focused call"),
    ("/", "search"),
    ("n / N", "next / previous match"),
    ("w", "next call waiting for you"),
    ("a / d", "allow / deny the focused waiting call"),
    ("?", "this list of keys"),
    ("Escape", "close this list, leave the search box"),
)
"""The keyboard shortcuts, as the keys dialog lists them (viewer.js implements them; w, a
and d: decide.js)."""

_SEARCH: Final = (
    '<form class="tv-search" role="search" action="#" data-tv-search>'
    '<label for="tv-search-input">Search</label>'
    '<input id="tv-search-input" type="search" name="q" autocomplete="off" spellcheck="false">'
    '<label class="tv-check">'
    '<input id="tv-search-regex" type="checkbox" name="regex"> regex</label>'
    '<button type="button" data-tv-action="prev" aria-label="Previous match">↑</button>'
    '<button type="button" data-tv-action="next" aria-label="Next match">↓</button>'
    '<span id="tv-search-count" class="tv-search-count"></span>'
    "</form>"
)
_ACTIONS: Final = (
    '<div class="tv-actions">'
    '<button type="button" data-tv-action="expand">Expand all</button>'
    '<button type="button" data-tv-action="collapse">Collapse all</button>'
    '<label for="tv-theme">Theme</label>'
    '<select id="tv-theme"><option value="system">system</option>'
    '<option value="light">light</option><option value="dark">dark</option></select>'
    '<button type="button" data-tv-action="keys" aria-haspopup="dialog" '
    'aria-label="Keyboard shortcuts">?</button>'
    "</div>"
)


def keys_dialog(keys: Sequence[tuple[str, str]] = KEYS) -> str:
    """The keys dialog (``?``) listing ``keys`` (the thread page's, or the index's)."""
    rows = "".join(f"<dt><kbd>{key}</kbd></dt><dd>{does}</dd>" for key, does in keys)
    return (
        '<dialog id="tv-keys" class="tv-keys" aria-labelledby="tv-keys-title">'
        '<h2 id="tv-keys-title">Keyboard shortcuts</h2>'
        f"<dl>{rows}</dl>"
        '<form method="dialog"><button type="submit">Close</button></form>'
        "</dialog>"
    )


def toolbar_html() -> str:
    """The toolbar (hidden until ``viewer.js`` runs) and the keys dialog, as safe markup."""
    return (
        '<div class="tv-toolbar" hidden>'
        f"{_SEARCH}"
        '<div class="tv-filters" aria-label="Filter calls" role="group"></div>'
        f"{_ACTIONS}"
        "</div>"
        f"{keys_dialog()}"
    )
