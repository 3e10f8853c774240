"""The render core shared by every surface (design.md §2).

Layers: the message container is the contract's ``Thread`` (it holds each
call's state); ``view_entry`` decides each call once — a one-line ``Receipt``
for a refused call, else the generic renderer's ``CallView`` — then come the
per-surface registries of kind renderers (``Registry``) and the fallback, and
a thread ends with a ``Summary``. Surfaces live in subpackages —
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
from toolview.render.receipt import Receipt, view_receipt
from toolview.render.registry import Registry, Renderer
from toolview.render.summary import Summary, SummaryPart, summarize, thread_summary
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
    fallback_for,
    view_entry,
)

__all__ = [
    "DEFAULT_LIMITS",
    "AbortedBody",
    "Body",
    "CallView",
    "EmptyBody",
    "ErrorBody",
    "FallbackBody",
    "Header",
    "KindBody",
    "Limits",
    "Omission",
    "OmissionUnit",
    "PendingBody",
    "Receipt",
    "Registry",
    "Renderer",
    "Summary",
    "SummaryPart",
    "Window",
    "args_preview",
    "cell_text",
    "clean_field",
    "fallback_for",
    "head",
    "json_lines",
    "omission_text",
    "shown_text",
    "summarize",
    "tail",
    "thread_summary",
    "truncation_omission",
    "view_entry",
    "view_receipt",
]
