"""A LangGraph ``interrupt()`` inside a tool: the call waits for a person, it did not fail.

Why apart from ``adapters.langchain`` (which calls it): the callback handler
needs only langchain-core, and an interrupt reaches it as the tool's error
(``GraphInterrupt``, known here by its class name, so langgraph need not be
installed). Recorded as an error, the call would read "failed" while the graph
merely paused. Here it is the call's ``tool-waiting``, with the interrupt's
value as the question, and the interrupt's id is kept for the recorder, so
``adapters.langgraph_approvals.approve`` knows which call each pending
interrupt asks about.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Sequence

from toolview.recording import Recorder

__all__ = ["call_of", "note"]

_INTERRUPTS = ("GraphInterrupt", "NodeInterrupt")
_QUESTION = 4096  # characters of an interrupt's value kept as the question
# per recorder: interrupt id → (its value, the call it paused); parallel tools of one
# ToolNode step raise interrupts that share an id (LangGraph 1.2), told apart by value
_ASKED: weakref.WeakKeyDictionary[Recorder, dict[str, list[tuple[object, str]]]] = (
    weakref.WeakKeyDictionary()
)
_LOCK = threading.Lock()


def note(recorder: Recorder, call_id: str, error: BaseException) -> bool:
    """Whether ``error`` is an interrupt; if so the call is recorded as waiting on it."""
    if not any(kind.__name__ in _INTERRUPTS for kind in type(error).__mro__):
        return False
    asked = error.args[0] if error.args and isinstance(error.args[0], Sequence) else ()
    values = [getattr(one, "value", None) for one in asked]
    with _LOCK:
        mine = _ASKED.setdefault(recorder, {})
        for one in asked:
            if isinstance(getattr(one, "id", None), str):
                mine.setdefault(one.id, []).append((getattr(one, "value", None), call_id))
    question = _question(values)
    recorder.waiting(call_id, question=question[:_QUESTION] if question else None)
    return True


def call_of(recorder: Recorder, interrupt_id: str, value: object) -> str | None:
    """The call the interrupt paused (its id, then its value), if a handler of ``recorder`` saw it.

    Why the value too: two tools interrupting in one ``ToolNode`` step share
    the id, and the graph surfaces one of them at a time — answering the
    other call would put the receipt on the wrong call.
    """
    with _LOCK:
        paused = _ASKED.get(recorder, {}).get(interrupt_id, [])
        for asked, call_id in paused:
            if asked == value:
                return call_id
        return paused[-1][1] if paused else None


def _question(values: list[object]) -> str | None:
    """The interrupt's value as the question shown: its ``question`` text, else its JSON."""
    if len(values) == 1 and isinstance(values[0], dict) and "question" in values[0]:
        return str(values[0]["question"])
    if not values or values == [None]:
        return None
    return json.dumps(values[0] if len(values) == 1 else values, default=str, ensure_ascii=False)
