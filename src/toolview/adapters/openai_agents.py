"""``rec.openai_agents(agent)``: the OpenAI Agents SDK's run hooks, recording every tool call.

``Runner.run(agent, task, hooks=rec.openai_agents(agent))``: ``on_tool_start`` opens the
call (its id is the model's ``call_id``, its args the model's JSON), ``on_tool_end`` closes
it with the tool's value through ``toolview.describe``; ``on_llm_end`` records the
assistant's text and the turn's tokens.

Why hooks alone are not enough: a function tool that raises reaches ``on_tool_end`` as the
SDK's failure message (its ``failure_error_function``) — a plain string, the same shape as a
success, so the call would show "✓ Success". So each function tool's implementation (the
callable the SDK's failure handling wraps) is wrapped once, to note the exception against
the call's id and raise it on unchanged: the SDK formats it for the model exactly as before
(the tool's ``failure_error_function``, the run's ``tool_error_formatter``), and the hook
closes the call as an error with the exception's type and message. A tool whose failure
aborts the run (``failure_error_function=None``) never reaches ``on_tool_end``: its call is
closed as an error at once, and ``capture()`` ends the run with the SDK's exception.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from toolview.adapters import require

require("agents", "openai-agents")

from agents import Agent, FunctionTool, RunContextWrapper, RunHooks, Tool  # noqa: E402
from agents.items import ModelResponse  # noqa: E402
from agents.tool import resolve_function_tool_failure_error_function  # noqa: E402

from toolview.contract import FINAL_STATES  # noqa: E402
from toolview.recording import Recorder  # noqa: E402

__all__ = ["ToolviewRunHooks", "attach"]

_WRAPPED = "__toolview_watched__"
Invoke = Callable[[Any, str], Awaitable[Any]]


def attach(recorder: Recorder, agent: object = None) -> ToolviewRunHooks:
    """Hooks for ``Runner.run(..., hooks=…)``, watching ``agent``'s and its handoffs' tools."""
    hooks = ToolviewRunHooks(recorder)
    for tool in _function_tools(agent, set()):
        hooks.watch(tool)
    return hooks


class ToolviewRunHooks(RunHooks[Any]):
    """Run hooks that turn the SDK's tool and model events into the recorder's observations."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self._failures: dict[str, BaseException] = {}
        self._ids: dict[int, list[str]] = {}  # a tool with no call id (local shell, computer)
        self._count = itertools.count(1)

    def watch(self, tool: FunctionTool) -> None:
        """Wrap ``tool``'s implementation (once) so a failure is noted against its call."""
        invoker = tool.on_invoke_tool
        inner = getattr(invoker, "_invoke_tool_impl", None)
        if getattr(inner if inner is not None else invoker, _WRAPPED, False):
            return
        if inner is not None:
            invoker._invoke_tool_impl = self._noting(inner, tool)  # type: ignore[attr-defined]
        else:
            tool.on_invoke_tool = self._noting(invoker, None)

    def _noting(self, invoke: Invoke, tool: FunctionTool | None) -> Invoke:
        @functools.wraps(invoke)
        async def noted(ctx: Any, arguments: str) -> Any:
            try:
                return await invoke(ctx, arguments)
            except (Exception, asyncio.CancelledError) as exc:
                call_id = getattr(ctx, "tool_call_id", None)
                if not isinstance(call_id, str):
                    raise
                if isinstance(exc, Exception) and _aborts(tool, ctx):
                    self.recorder.error(call_id, exc)  # no on_tool_end will come
                else:
                    self._failures[call_id] = exc
                raise

        setattr(noted, _WRAPPED, True)
        return noted

    async def on_tool_start(
        self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool
    ) -> None:
        if isinstance(tool, FunctionTool):
            self.watch(tool)  # a tool the agent gained after attach (a handoff's, a dynamic one)
        call_id = getattr(context, "tool_call_id", None)
        if not isinstance(call_id, str) or not call_id:
            call_id = f"{tool.name}-{next(self._count)}"
            self._ids.setdefault(id(tool), []).append(call_id)
        self.recorder.call(call_id, tool.name, _arguments(context))

    async def on_tool_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool, result: object
    ) -> None:
        call_id = getattr(context, "tool_call_id", None)
        if not isinstance(call_id, str) or not call_id:
            pending = self._ids.get(id(tool)) or [f"{tool.name}-{next(self._count)}"]
            call_id = pending.pop()
        failure = self._failures.pop(call_id, None)
        if _final(self.recorder, call_id):
            return  # the tool streamed its own final result (a CommandRunner)
        if isinstance(failure, Exception):
            self.recorder.error(call_id, failure)
        elif failure is not None:  # cancelled (a timeout): the SDK's message says which
            self.recorder.result(call_id, result, is_error=True)
        else:
            self.recorder.result(call_id, result)

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


def _aborts(tool: FunctionTool | None, ctx: Any) -> bool:
    """Whether the SDK lets this tool's exception end the run (no failure formatter)."""
    if tool is None:
        return True  # a hand-made invoker: nothing between it and the run
    return resolve_function_tool_failure_error_function(tool, ctx) is None


def _final(recorder: Recorder, call_id: str) -> bool:
    """Whether the call already has its final result (recorded by whoever: the tool itself)."""
    thread = recorder.thread
    entry = thread.call(call_id)
    return entry is not None and thread.state(entry) in FINAL_STATES


def _arguments(context: RunContextWrapper[Any]) -> dict[str, object]:
    """The call's arguments as the model sent them: a JSON object, else the raw text kept."""
    raw = getattr(context, "tool_arguments", None)
    if not isinstance(raw, str) or not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        return {"arguments": raw}
    return value if isinstance(value, dict) else {"arguments": value}


def _model_name(agent: Agent[Any]) -> str:
    model = agent.model
    if isinstance(model, str) and model:
        return model
    return getattr(model, "model", None) or type(model).__name__ if model else "model"


def _function_tools(agent: object, seen: set[int]) -> Iterator[FunctionTool]:
    """Every function tool of ``agent`` and of the agents it can hand off to."""
    if not isinstance(agent, Agent) or id(agent) in seen:
        return
    seen.add(id(agent))
    yield from (tool for tool in agent.tools if isinstance(tool, FunctionTool))
    for handoff in agent.handoffs:
        yield from _function_tools(handoff, seen)
