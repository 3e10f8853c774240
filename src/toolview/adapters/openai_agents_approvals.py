"""OpenAI Agents SDK approvals: ask the person about a run's interruptions, resume with its state.

```python
with toolview.capture(to="http://127.0.0.1:8000") as rec:
    hooks = rec.openai_agents(agent)
    result = await Runner.run(agent, task, hooks=hooks)
    while result.interruptions:
        state = await asyncio.to_thread(approve, rec, result)  # the wait never holds the loop
        result = await Runner.run(agent, state, hooks=hooks)
```

Why the helper records the waiting call itself: a tool with ``needs_approval``
stops the run before ``on_tool_start``, and no run hook hears of the
interruption — only the result's ``interruptions`` hold it. Each is recorded
as a call that waits (``needs_input`` everywhere), the person answers on the
page or at the terminal (``recording.asking``), and the run state is approved
or rejected with the person's message, which is what the model reads. A
rejected call never runs: it is recorded refused here, with that message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

from toolview.adapters import require
from toolview.adapters.tracking import CallTracker

if TYPE_CHECKING:
    from toolview.recording import Recorder

require("agents", "openai-agents")

from agents import RunResult, RunResultStreaming, RunState, ToolApprovalItem  # noqa: E402

from toolview.adapters.openai_agents import arguments_of  # noqa: E402

__all__ = ["approve"]


def approve(
    recorder: Recorder,
    result: RunResult | RunResultStreaming,
    *,
    timeout: float = 600.0,
    stdin: TextIO | None = None,
    stderr: TextIO | None = None,
) -> RunState[Any]:
    """The run's state with each interruption approved or rejected by the person."""
    from toolview.recording.asking import ask

    calls = CallTracker.on(recorder)
    state: RunState[Any] = result.to_state()
    for item in result.interruptions:
        call_id = _waiting(recorder, calls, item)
        answer = ask(recorder, call_id, timeout=timeout, stdin=stdin, stderr=stderr)
        if answer.allow:
            state.approve(item)
        else:
            state.reject(item, rejection_message=answer.told)
            recorder.refused(call_id, answer.told)
    return state


def _waiting(recorder: Recorder, calls: CallTracker, item: ToolApprovalItem) -> str:
    """Record the interrupted call (once) as waiting; its id."""
    call_id = str(_field(item, "call_id") or _field(item, "id") or f"approval-{id(item)}")
    if not calls.seen(call_id):
        recorder.call(call_id, item.tool_name or "tool", arguments_of(_field(item, "arguments")))
    if not calls.is_waiting(call_id):
        recorder.waiting(call_id)
    return call_id


def _field(item: ToolApprovalItem, name: str) -> object:
    """A field of the interrupted call as the model sent it (a dict or an SDK object)."""
    raw = item.raw_item
    return raw.get(name) if isinstance(raw, dict) else getattr(raw, name, None)
