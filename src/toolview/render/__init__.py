"""The render core shared by every surface (design.md §2).

Layers: the message container (``Thread``), the generic renderer
(``view_call`` → ``CallView``), per-surface registries of kind renderers
(``Registry``) and the fallback; a refused call is a one-line ``Receipt``
(``view_entry``) and a thread ends with a ``Summary``. Surfaces live in subpackages —
``toolview.render.text``, ``.terminal``, ``.markdown``, ``.html`` — and only
lay out what the core decided.
"""

from toolview.render.clean import clean_field, shown_text
from toolview.render.jsonview import args_preview, cell_text, json_lines
from toolview.render.limits import (
    DEFAULT_LIMITS,
    Limits,
    Omission,
    OmissionUnit,
    Window,
    head,
    omission_text,
    tail,
    truncation_omission,
)
from toolview.render.receipt import Receipt, receipt_from_view, view_entry, view_receipt
from toolview.render.registry import Registry, Renderer
from toolview.render.summary import Summary, SummaryPart, summarize, thread_summary
from toolview.render.thread import CallEntry, Entry, MessageEntry, NoteEntry, Thread
from toolview.render.view import (
    AbortedBody,
    Body,
    CallView,
    EmptyBody,
    ErrorBody,
    FallbackBody,
    Header,
    KindBody,
    PendingBody,
    RefusedBody,
    fallback_for,
    view_call,
)

__all__ = [
    "DEFAULT_LIMITS",
    "AbortedBody",
    "Body",
    "CallEntry",
    "CallView",
    "EmptyBody",
    "Entry",
    "ErrorBody",
    "FallbackBody",
    "Header",
    "KindBody",
    "Limits",
    "MessageEntry",
    "NoteEntry",
    "Omission",
    "OmissionUnit",
    "PendingBody",
    "Receipt",
    "RefusedBody",
    "Registry",
    "Renderer",
    "Summary",
    "SummaryPart",
    "Thread",
    "Window",
    "args_preview",
    "cell_text",
    "clean_field",
    "fallback_for",
    "head",
    "json_lines",
    "omission_text",
    "receipt_from_view",
    "shown_text",
    "summarize",
    "tail",
    "thread_summary",
    "truncation_omission",
    "view_call",
    "view_entry",
    "view_receipt",
]
