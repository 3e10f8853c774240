"""pydantic-ai: a capability that records every tool call of an agent's runs.

```python
with toolview.capture() as rec:
    agent.run_sync(prompt, capabilities=[rec.pydantic_ai()])
```

(or ``Agent(model, capabilities=[rec.pydantic_ai()])`` for every run).

Why the tool hooks (``wrap_tool_validate`` / ``wrap_tool_execute``) and not
the event stream: events reach only a run that streams them, and an
exception that aborts the run is no event at all — the hooks see every call
in every run mode, and the exception itself. A call opens when its arguments
are validated (so a call the model got wrong shows too, as an error), and
closes with its return value, its retry (``ModelRetry``), its failure
(``ToolFailed``) or the exception that aborted the run, which is re-raised
untouched. A sibling call cancelled by that abort keeps no result: it shows
as aborted with the run's reason when ``capture()`` ends the run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toolview.adapters import require
from toolview.adapters.tracking import CallTracker

if TYPE_CHECKING:
    from toolview.recording import Recorder
from toolview.contract import Descriptor, read_descriptor

require("pydantic_ai", "pydantic-ai")

from pydantic import ValidationError  # noqa: E402
from pydantic_ai import RunContext, ToolReturn  # noqa: E402
from pydantic_ai.capabilities import AbstractCapability  # noqa: E402
from pydantic_ai.exceptions import (  # noqa: E402
    ApprovalRequired,
    CallDeferred,
    ToolFailedError,
    ToolRetryError,
)
from pydantic_ai.messages import (  # noqa: E402
    ModelResponse,
    TextPart,
    ThinkingPart,
    ToolCallPart,
)

__all__ = ["ToolviewCapability", "attach"]


def attach(recorder: Recorder) -> ToolviewCapability:
    """The capability recording into ``recorder`` (``rec.pydantic_ai()``)."""
    return ToolviewCapability(recorder)


class ToolviewCapability(AbstractCapability[Any]):
    """Records tool calls, their results and errors, messages and token usage."""

    def __init__(self, recorder: Recorder) -> None:
        self._rec = recorder
        self._calls = CallTracker.on(recorder)

    async def before_run(self, ctx: RunContext[Any]) -> None:
        if isinstance(ctx.prompt, str) and ctx.prompt:
            self._rec.message("user", ctx.prompt)

    async def after_model_request(
        self, ctx: RunContext[Any], *, request_context: Any, response: ModelResponse
    ) -> ModelResponse:
        for part in response.parts:
            if isinstance(part, TextPart) and part.content.strip():
                self._rec.message("assistant", part.content)
            elif isinstance(part, ThinkingPart) and part.content.strip():
                self._rec.message("thinking", part.content)
        usage = response.usage
        if usage.input_tokens or usage.output_tokens:
            self._rec.usage(
                model=response.model_name or "unknown",
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                cache_read_tokens=usage.cache_read_tokens or None,
                cache_write_tokens=usage.cache_write_tokens or None,
            )
        return response

    async def wrap_tool_validate(
        self, ctx: RunContext[Any], *, call: ToolCallPart, tool_def: Any, args: Any, handler: Any
    ) -> Any:
        self._open(call)
        try:
            return await handler(args)
        except (CallDeferred, ApprovalRequired):
            raise
        except Exception as exc:
            self._rec.error(call.tool_call_id, failure_text(exc))
            raise

    async def wrap_tool_execute(
        self, ctx: RunContext[Any], *, call: ToolCallPart, tool_def: Any, args: Any, handler: Any
    ) -> Any:
        self._open(call)  # a call validated in an earlier run (deferred, then approved)
        try:
            result = await handler(args)
        except (CallDeferred, ApprovalRequired):
            raise  # not ended: approved or answered later, in a run of its own
        except Exception as exc:
            if self._calls.is_open(call.tool_call_id):
                self._rec.error(call.tool_call_id, failure_text(exc))
            raise
        if self._calls.is_open(call.tool_call_id):  # the tool may have closed it (a shell run)
            value, descriptor = returned(result)
            self._rec.result(call.tool_call_id, value, descriptor=descriptor)
        return result

    def _open(self, call: ToolCallPart) -> None:
        if not self._calls.seen(call.tool_call_id):
            self._rec.call(call.tool_call_id, call.tool_name, call.args_as_dict())


def returned(result: object) -> tuple[object, Descriptor | None]:
    """A tool's value and the descriptor it asked for.

    A ``ToolReturn`` is its ``return_value``; its ``metadata`` (never sent to
    the model) may carry a descriptor under ``toolview:result``, as a
    ``Descriptor`` or its JSON form.
    """
    if not isinstance(result, ToolReturn):
        return result, None
    metadata = result.metadata
    if not isinstance(metadata, Mapping):
        return result.return_value, None
    found = metadata.get("toolview:result")
    if isinstance(found, Descriptor):
        return result.return_value, found
    return result.return_value, read_descriptor(metadata)


def failure_text(exc: Exception) -> str:
    """What a failed call shows: what the model is told, named as the tool raised it."""
    if isinstance(exc, ToolRetryError):
        return f"ModelRetry: {exc}"
    if isinstance(exc, ToolFailedError):
        return f"ToolFailed: {exc}"
    if isinstance(exc, ValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc']) or 'arguments'}: {error['msg']}"
            for error in exc.errors(include_url=False)
        )
        return f"invalid arguments: {problems}"
    message = str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
