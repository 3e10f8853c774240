"""smolagents: ``agent.run(task, stream=True)``'s events, recorded as they pass.

```python
with toolview.capture() as rec:
    for event in rec.smolagents(agent.run(task, stream=True)):
        ...
```

Why the event stream: it is the one thing every smolagents agent yields,
and it carries each call (``ToolCall``) and each result (``ToolOutput``) by
id. What it does not carry is which call failed: a tool that raises ends the
whole step, reported only as the ``ActionStep``'s error — and the results of
the step's other (parallel) calls are dropped with it. So at the end of a
step each call still open is closed: the one the error names as the error,
the others as results smolagents never reported (see ``smolagents_steps``).
An exception out of the run closes every open call with its reason and goes
on to the caller untouched — smolagents yields the step first (from a
``finally``), so a step that ends with calls open and no error waits for the
next event to say whether the run went on or raised.

A tool that streams its output needs its call's id: ``call_id(name,
arguments)`` answers it from inside the tool, in the thread smolagents runs
it in (a context variable the wrapper sets; smolagents copies the context
into its worker threads).
"""

from __future__ import annotations

import contextvars
import itertools
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from toolview.adapters import require
from toolview.adapters.smolagents_steps import PendingCalls
from toolview.adapters.tracking import CallTracker, shielded

if TYPE_CHECKING:
    from toolview.recording import Recorder

require("smolagents", "smolagents")

from smolagents.agents import ToolOutput  # noqa: E402
from smolagents.memory import ActionStep, PlanningStep, ToolCall  # noqa: E402

__all__ = ["RecordedEvents", "attach", "call_id"]

_ACTIVE: contextvars.ContextVar[PendingCalls | None] = contextvars.ContextVar(
    "toolview_smolagents_calls", default=None
)


def attach(recorder: Recorder, events: Any) -> RecordedEvents:
    """``events`` (an iterable of smolagents events) recording into ``recorder``."""
    return RecordedEvents(recorder, events)


def call_id(tool: str, arguments: Mapping[str, object] | None = None) -> str | None:
    """The id of ``tool``'s running call in the smolagents run being recorded.

    With ``arguments``, the call made with exactly those (parallel calls of
    one tool); without, the tool's only running call. ``None`` outside a
    recorded run or when no call (or more than one) fits.
    """
    pending = _ACTIVE.get()
    return None if pending is None else pending.find(tool, arguments)


class RecordedEvents(Iterator[Any]):
    """Yields every event of ``events`` unchanged, recording tool calls as they go by."""

    def __init__(self, recorder: Recorder, events: Any) -> None:
        self._rec = recorder
        self._events = iter(events)
        self._tracker = CallTracker.on(recorder)
        self._pending = PendingCalls(recorder, self._tracker)
        self._numbers = itertools.count(1)
        self._held = False  # a step ended with calls open and no error: closed at the next event

    def __iter__(self) -> RecordedEvents:
        return self

    def __next__(self) -> Any:
        token = _ACTIVE.set(self._pending)
        try:
            event = next(self._events)
        except StopIteration:
            self._release()
            raise
        except BaseException as exc:
            self._held = False
            with shielded("the calls the run left open"):
                self._pending.abort(exc)
            raise
        finally:
            _ACTIVE.reset(token)
        self._release()
        with shielded(f"a {type(event).__name__} event"):
            self._see(event)
        return event

    def _release(self) -> None:
        if self._held:
            self._held = False
            with shielded("the calls a step left open"):
                self._pending.end_step(None)

    def close(self) -> None:
        """Stop the run early (as a ``for`` loop's ``break`` leaves it)."""
        close = getattr(self._events, "close", None)
        if callable(close):
            close()

    def _see(self, event: object) -> None:
        if isinstance(event, ToolCall):
            self._pending.open(event, self._identity(event.id))
        elif isinstance(event, ToolOutput):
            self._pending.close(event.tool_call, event.output, event.observation)
        elif isinstance(event, ActionStep):
            if event.error is None and event.observations is None:
                self._held = True  # a step cut short, or one that made no call
            else:
                self._pending.end_step(event.error, event.observations)
            self._usage(event)
        elif isinstance(event, PlanningStep) and event.plan.strip():
            self._rec.message("assistant", event.plan)

    def _identity(self, given: object) -> str:
        """The call's id, made unique: a ``CodeAgent`` numbers its calls afresh each run."""
        identity = str(given) if given else "smolagents"
        while self._tracker.seen(identity):
            identity = f"{given or 'smolagents'}~{next(self._numbers)}"
        return identity

    def _usage(self, step: ActionStep) -> None:
        usage = step.token_usage
        if usage is None or not (usage.input_tokens or usage.output_tokens):
            return
        raw = getattr(step.model_output_message, "raw", None)
        model = raw.get("model") if isinstance(raw, Mapping) else getattr(raw, "model", None)
        self._rec.usage(
            model=str(model or "unknown"),
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
        )
