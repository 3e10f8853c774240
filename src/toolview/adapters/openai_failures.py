"""Which OpenAI Agents SDK function-tool calls failed: the SDK's run hooks cannot tell.

A function tool that raises reaches ``on_tool_end`` as the SDK's failure message (the
tool's ``failure_error_function``): a plain string, shaped like a success. So ``watch``
wraps a tool's implementation — the callable the SDK's failure handling wraps — once, to
hand the exception to whoever records that call and raise it on unchanged: the SDK then
formats it for the model exactly as before (``failure_error_function``, the run's
``tool_error_formatter``).

Why a registry of running calls rather than a wrapper per recorder: a tool outlives a run
(an agent defined once, run under many captures); each run's hooks say which calls are
theirs (``running``) and the one wrapper finds them by call id.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from toolview.adapters import require

require("agents", "openai-agents")

from agents import FunctionTool  # noqa: E402
from agents.tool import resolve_function_tool_failure_error_function  # noqa: E402

__all__ = ["Watcher", "done", "running", "watch"]

_WRAPPED = "__toolview_watched__"
_LOCK = threading.Lock()
_RUNNING: dict[str, Watcher] = {}  # call id → the hooks recording it
Invoke = Callable[[Any, str], Awaitable[Any]]


class Watcher(Protocol):
    """Hooks that want to hear of their calls' failures."""

    def failed(self, call_id: str, exc: BaseException, *, aborts: bool) -> None: ...


def running(call_id: str, watcher: Watcher) -> None:
    """``call_id`` is ``watcher``'s until ``done``."""
    with _LOCK:
        _RUNNING[call_id] = watcher


def done(call_id: str) -> None:
    with _LOCK:
        _RUNNING.pop(call_id, None)


def watch(tool: FunctionTool) -> None:
    """Wrap ``tool``'s implementation (once in its life) so a failure reaches its watcher."""
    invoker = tool.on_invoke_tool
    inner = getattr(invoker, "_invoke_tool_impl", None)
    if getattr(inner if inner is not None else invoker, _WRAPPED, False):
        return
    if inner is not None:
        invoker._invoke_tool_impl = _noting(inner, tool)  # type: ignore[attr-defined]
    else:  # a hand-made invoker: nothing between it and the run
        tool.on_invoke_tool = _noting(invoker, None)


def _noting(invoke: Invoke, tool: FunctionTool | None) -> Invoke:
    @functools.wraps(invoke)  # keeps the SDK's marks on the callable (its __dict__)
    async def noted(ctx: Any, arguments: str) -> Any:
        try:
            return await invoke(ctx, arguments)
        except (Exception, asyncio.CancelledError) as exc:
            call_id = getattr(ctx, "tool_call_id", None)
            with _LOCK:
                watcher = _RUNNING.get(call_id) if isinstance(call_id, str) else None
            if watcher is not None and isinstance(call_id, str):
                aborts = isinstance(exc, Exception) and _aborts(tool, ctx)
                watcher.failed(call_id, exc, aborts=aborts)
            raise

    setattr(noted, _WRAPPED, True)
    return noted


def _aborts(tool: FunctionTool | None, ctx: Any) -> bool:
    """Whether the SDK lets this exception end the run (the tool has no failure formatter)."""
    if tool is None:
        return True
    return resolve_function_tool_failure_error_function(tool, ctx) is None
