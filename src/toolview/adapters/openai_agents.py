"""``rec.openai_agents(agent)``: the OpenAI Agents SDK's run hooks, recording every tool call.

``Runner.run(agent, task, hooks=rec.openai_agents(agent))``: ``on_tool_start`` opens the
call (its id is the model's ``call_id``, its args the model's JSON), ``on_tool_end`` closes
it with the tool's value through ``toolview.describe``; the first ``on_llm_start`` records
the user's input, each ``on_llm_end`` the assistant's text and the turn's tokens.

Why hooks alone are not enough: a function tool that raises reaches ``on_tool_end`` as the
SDK's failure message — shaped like a success, so the call would show "✓ Success". Each
function tool is watched (``openai_failures``) so its exception reaches these hooks: the call
closes as an error with the exception's type and message, while the model reads what it
always read. A tool whose failure aborts the run (``failure_error_function=None``) never
reaches ``on_tool_end``: its call is closed as that error at once, and ``capture()`` ends
the run with the SDK's exception. A hook never raises into the run: a recording problem is
said on stderr.
"""

from __future__ import annotations

import functools
import itertools
import json
import sys
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, ParamSpec

from toolview.adapters import require

require("agents", "openai-agents")

from agents import Agent, FunctionTool, RunContextWrapper, RunHooks, Tool  # noqa: E402
from agents.items import ModelResponse  # noqa: E402

from toolview.adapters.openai_failures import done, running, watch  # noqa: E402
from toolview.adapters.tracking import CallTracker  # noqa: E402
from toolview.contract import FINAL_STATES  # noqa: E402
from toolview.recording import Recorder  # noqa: E402
from toolview.safety import redact  # noqa: E402

__all__ = ["ToolviewRunHooks", "arguments_of", "attach"]

P = ParamSpec("P")


def _never_raises(
    hook: Callable[P, Coroutine[Any, Any, None]],
) -> Callable[P, Coroutine[Any, Any, None]]:
    """A hook that says on stderr what it could not record, instead of failing the run."""

    @functools.wraps(hook)
    async def guarded(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            await hook(*args, **kwargs)
        except Exception as exc:
            reason = redact(f"{type(exc).__name__}: {exc}")
            print(f"toolview: {hook.__name__} not recorded: {reason}", file=sys.stderr)

    return guarded


def attach(recorder: Recorder, agent: object = None) -> ToolviewRunHooks:
    """Hooks for ``Runner.run(..., hooks=…)``, watching ``agent``'s and its handoffs' tools."""
    for tool in _function_tools(agent, set()):
        watch(tool)
    return ToolviewRunHooks(recorder)


class ToolviewRunHooks(RunHooks[Any]):
    """Run hooks that turn the SDK's tool and model events into the recorder's observations."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self._failures: dict[str, BaseException] = {}
        self._ids: dict[int, list[str]] = {}  # a tool with no call id (local shell, computer)
        self._count = itertools.count(1)
        self._prompted = False
        self._calls = CallTracker.on(recorder)

    def failed(self, call_id: str, exc: BaseException, *, aborts: bool) -> None:
        """A watched tool raised: kept for ``on_tool_end``, or the call's end if none will come."""
        if aborts:
            done(call_id)
            self.recorder.error(call_id, exc)
        else:
            self._failures[call_id] = exc

    @_never_raises
    async def on_tool_start(
        self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool
    ) -> None:
        if isinstance(tool, FunctionTool):
            watch(tool)  # a tool the agent gained after attach (a handoff's, a dynamic one)
        call_id = getattr(context, "tool_call_id", None)
        if not isinstance(call_id, str) or not call_id:
            call_id = f"{tool.name}-{next(self._count)}"
            self._ids.setdefault(id(tool), []).append(call_id)
        running(call_id, self)
        if not self._calls.seen(call_id):  # an approved call was recorded when it asked
            self.recorder.call(
                call_id, tool.name, arguments_of(getattr(context, "tool_arguments", None))
            )

    @_never_raises
    async def on_tool_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool, result: object
    ) -> None:
        call_id = getattr(context, "tool_call_id", None)
        if not isinstance(call_id, str) or not call_id:
            pending = self._ids.get(id(tool)) or [f"{tool.name}-{next(self._count)}"]
            call_id = pending.pop()
        done(call_id)
        failure = self._failures.pop(call_id, None)
        if _final(self.recorder, call_id):
            return  # the tool streamed its own final result (a CommandRunner)
        if isinstance(failure, Exception):
            self.recorder.error(call_id, failure)
        elif failure is not None:  # cancelled (a timeout): the SDK's message says which
            self.recorder.result(call_id, result, is_error=True)
        else:
            self.recorder.result(call_id, result)

    @_never_raises
    async def on_llm_start(
        self,
        context: RunContextWrapper[Any],
        agent: Agent[Any],
        system_prompt: str | None,
        input_items: list[Any],
    ) -> None:
        if self._prompted:
            return  # later turns repeat the conversation so far
        self._prompted = True
        for item in input_items:
            text = item.get("content") if isinstance(item, dict) else None
            if isinstance(text, str) and item.get("role") == "user":
                self.recorder.message("user", text)

    @_never_raises
    async def on_llm_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], response: ModelResponse
    ) -> None:
        for item in response.output:
            if getattr(item, "type", None) == "message":
                text = "".join(getattr(part, "text", "") for part in getattr(item, "content", []))
                if text:
                    self.recorder.message("assistant", text)
        usage = response.usage
        if usage.requests and (usage.input_tokens or usage.output_tokens):
            self.recorder.usage(
                model=_model_name(agent),
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                cache_read_tokens=usage.input_tokens_details.cached_tokens or None,
            )


def _final(recorder: Recorder, call_id: str) -> bool:
    """Whether the call already has its final result (recorded by whoever: the tool itself)."""
    entry = recorder.call_entry(call_id)
    return entry is not None and recorder.thread.state(entry) in FINAL_STATES


def arguments_of(raw: object) -> dict[str, object]:
    """A call's arguments as the model sent them (JSON text): an object, else the raw text kept."""
    if not isinstance(raw, str) or not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return {"arguments": raw}
    return value if isinstance(value, dict) else {"arguments": value}


def _model_name(agent: Agent[Any]) -> str:
    """The model's name: the agent's string, a model object's ``model``, else its class."""
    model = agent.model
    if isinstance(model, str):
        return model or "model"
    name = getattr(model, "model", None)
    return name if isinstance(name, str) and name else type(model).__name__


def _function_tools(agent: object, seen: set[int]) -> Iterator[FunctionTool]:
    """Every function tool of ``agent`` and of the agents it can hand off to."""
    if not isinstance(agent, Agent) or id(agent) in seen:
        return
    seen.add(id(agent))
    yield from (tool for tool in agent.tools if isinstance(tool, FunctionTool))
    for handoff in agent.handoffs:
        yield from _function_tools(handoff, seen)
