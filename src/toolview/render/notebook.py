"""Notebooks: ``_repr_mimebundle_`` for a thread and for one call's result.

Jupyter asks an object for every MIME type it can show and keeps the richest
its front end supports, so each bundle carries ``text/plain`` (the text
surface, always), ``text/html`` (the html surface's fragments with their
scoped stylesheet — no script, no inline style) and ``text/markdown``. As with
IPython's formatters, one surface failing never blocks the others: that MIME
type carries a visible note instead.

``NotebookThread(thread)`` and ``NotebookCall(entry, thread)`` wrap the core's
objects for any front end that asks for ``_repr_mimebundle_``;
``thread_mimebundle`` / ``call_mimebundle`` are the functions behind them.

A bare ``Thread`` displays itself too, in IPython (every Jupyter kernel built
on ipykernel): this module registers ``thread_mimebundle`` for ``Thread`` with
the running shell's mimebundle formatter (IPython's ``for_type``) when it is
imported, or when loaded as an extension (``%load_ext
toolview.render.notebook``). Why not ``Thread._repr_mimebundle_``: the thread
lives in the sans-IO contract, which renders nothing, and a display method
there had to import the surfaces back — one import loop through all of
``render``. Here the surfaces are imported by the module that needs them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import Any, Final

from toolview.contract import CallEntry, Thread
from toolview.render import markdown, text
from toolview.render.html import FRAGMENT_CSS, render_call_html, render_thread_html
from toolview.render.limits import DEFAULT_LIMITS, Limits
from toolview.render.view import view_entry

__all__ = [
    "MIME_TYPES",
    "NotebookCall",
    "NotebookThread",
    "call_mimebundle",
    "load_ipython_extension",
    "register_ipython",
    "thread_mimebundle",
]

MIME_TYPES: Final = ("text/plain", "text/html", "text/markdown")

Bundle = dict[str, str]


def _scoped_html(fragment: str) -> str:
    """A fragment with the stylesheet its classes need, scoped to ``tv-`` classes."""
    return f'<div class="tv-notebook"><style>{FRAGMENT_CSS}</style>{fragment}</div>'


def _bundle(
    renderers: dict[str, Callable[[], str]],
    include: Container[str] | None,
    exclude: Container[str] | None,
) -> Bundle:
    bundle: Bundle = {}
    for mime, render in renderers.items():
        if (include is not None and mime not in include) or (exclude and mime in exclude):
            continue
        try:
            bundle[mime] = render()
        except Exception as exc:  # one surface failing must not blank the others
            bundle[mime] = f"[toolview: the {mime} view failed ({type(exc).__name__})]"
    return bundle


def thread_mimebundle(
    thread: Thread,
    include: Container[str] | None = None,
    exclude: Container[str] | None = None,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> Bundle:
    """The thread as text/plain, text/html and text/markdown (filtered as asked)."""
    renderers: dict[str, Callable[[], str]] = {
        "text/plain": lambda: text.render_thread(thread, limits=limits),
        "text/html": lambda: _scoped_html(render_thread_html(thread, limits=limits)),
        "text/markdown": lambda: markdown.render_thread(thread, limits=limits),
    }
    return _bundle(renderers, include, exclude)


def call_mimebundle(
    entry: CallEntry,
    thread: Thread,
    include: Container[str] | None = None,
    exclude: Container[str] | None = None,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> Bundle:
    """One call of ``thread`` (its result, or its pending/aborted state) as a bundle."""
    renderers: dict[str, Callable[[], str]] = {
        "text/plain": lambda: text.render_call(view_entry(entry, thread, limits)),
        "text/html": lambda: _scoped_html(render_call_html(entry, thread, limits=limits)),
        "text/markdown": lambda: markdown.render_call(view_entry(entry, thread, limits)),
    }
    return _bundle(renderers, include, exclude)


@dataclass
class NotebookThread:
    """A thread that Jupyter displays on every front end it knows."""

    thread: Thread
    limits: Limits = DEFAULT_LIMITS

    def _repr_mimebundle_(
        self, include: Container[str] | None = None, exclude: Container[str] | None = None
    ) -> Bundle:
        return thread_mimebundle(self.thread, include, exclude, limits=self.limits)

    def calls(self) -> list[NotebookCall]:
        """Each call of the thread, displayable on its own."""
        return [NotebookCall(entry, self.thread, self.limits) for entry in self.thread.calls()]


@dataclass
class NotebookCall:
    """One call's result (read in its thread, which knows if the run is open)."""

    entry: CallEntry
    thread: Thread
    limits: Limits = DEFAULT_LIMITS

    def _repr_mimebundle_(
        self, include: Container[str] | None = None, exclude: Container[str] | None = None
    ) -> Bundle:
        return call_mimebundle(self.entry, self.thread, include, exclude, limits=self.limits)


def register_ipython(shell: Any = None) -> bool:
    """Let IPython display a bare ``Thread`` (``display(thread)``, a cell ending in it).

    ``shell`` defaults to the running one; without IPython running this does
    nothing and returns ``False`` (IPython is never imported for it).
    """
    if shell is None:
        ipython = sys.modules.get("IPython")
        shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return False
    shell.display_formatter.mimebundle_formatter.for_type(Thread, thread_mimebundle)
    return True


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext toolview.render.notebook``: register ``Thread`` with that shell."""
    register_ipython(ipython)


register_ipython()  # inside a running IPython (a Jupyter kernel), importing this is enough
