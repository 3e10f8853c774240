"""LangGraph approvals: answer a graph's pending ``interrupt()`` from the person, resume it.

```python
@tool
def delete(path: str) -> str:
    answer = interrupt({"question": f"Delete {path}?"})
    if answer["decision"] != "allow":
        return f"Not deleted: {answer.get('message')}"
    ...

with toolview.capture(to="http://127.0.0.1:8000") as rec:
    config = {"configurable": {"thread_id": "1"}, "callbacks": [rec.langchain()]}
    state = graph.invoke({"messages": [...]}, config)
    while state.get("__interrupt__"):
        state = graph.invoke(approve(rec, state), config)
```

Why the answer is ``{"decision": "allow" | "deny", "message": …}``: it is the
receipt's shape, so a tool reads the same fields whoever answered — the page's
Allow/Deny or the terminal's prompt (``recording.asking``). The callback
handler already recorded each interrupted call as waiting
(``adapters.interrupts``); an interrupt no tool call raised (a node's own) is
recorded here as a waiting call of its own, named after the interrupt.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TextIO

from toolview.adapters import require
from toolview.adapters.interrupts import call_of

if TYPE_CHECKING:
    from toolview.recording import Recorder

require("langgraph", "langgraph")

from langgraph.types import Command, Interrupt  # noqa: E402

__all__ = ["approve"]


def approve(
    recorder: Recorder,
    state: Mapping[str, Any],
    *,
    timeout: float = 600.0,
    stdin: TextIO | None = None,
    stderr: TextIO | None = None,
) -> Command[Any]:
    """``Command(resume=…)`` answering each pending interrupt in ``state["__interrupt__"]``."""
    from toolview.recording.asking import ask

    answers: dict[str, dict[str, str]] = {}
    for pending in state.get("__interrupt__") or ():
        if not isinstance(pending, Interrupt) or pending.id in answers:
            continue
        call_id = call_of(recorder, pending.id, pending.value)
        own = call_id is None  # a node's own interrupt: no tool call waits on it
        if call_id is None:
            call_id = f"interrupt-{pending.id}"
            recorder.call(call_id, "interrupt", {"value": pending.value})
            recorder.waiting(call_id)
        answer = ask(recorder, call_id, timeout=timeout, stdin=stdin, stderr=stderr)
        answers[pending.id] = {"decision": "allow" if answer.allow else "deny"}
        if answer.message:
            answers[pending.id]["message"] = answer.message
        if own:  # what the node receives is this call's result
            recorder.result(call_id, answers[pending.id])
    return Command(resume=answers)
