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
as aborted with the run's reason when ``capture()`` ends the run. What no
tool hook sees — a call to a tool the agent lacks, a call whose approval was
denied — is closed from the request that answers it, before the model gets it.

Approvals (``requires_approval=True``): a run that stops with
``DeferredToolRequests`` records a ``tool-waiting`` for each approval it asks
(the call shows ``needs_input`` everywhere); the run resumed with
``DeferredToolResults`` records the decision (``by`` the program) before the
call runs or its denial reaches the model — unless ``approve`` (which asks the
person: ``adapters.pydantic_ai_approvals``) recorded the person's receipt already.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from toolview.adapters import require
from toolview.adapters.tracking import CallTracker, shielded

if TYPE_CHECKING:
    from toolview.recording import Recorder

require("pydantic_ai", "pydantic-ai")

from pydantic_ai import DeferredToolRequests, RunContext  # noqa: E402
from pydantic_ai.capabilities import AbstractCapability  # noqa: E402
from pydantic_ai.exceptions import ApprovalRequired, CallDeferred  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelResponse,
    TextPart,
    ThinkingPart,
    ToolCallPart,
)
from pydantic_ai.run import AgentRunResult  # noqa: E402

from toolview.adapters.pydantic_ai_parts import answered, failure_text, returned  # noqa: E402

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
        with shielded("the prompt"):
            parts = [ctx.prompt] if isinstance(ctx.prompt, str) else (ctx.prompt or [])
            text = "\n".join(part for part in parts if isinstance(part, str))
            if text.strip():
                self._rec.message("user", text)

    async def after_run(
        self, ctx: RunContext[Any], *, result: AgentRunResult[Any]
    ) -> AgentRunResult[Any]:
        """A run that stops for approvals: each asked call waits for a person."""
        with shielded("the calls waiting for approval"):
            if isinstance(result.output, DeferredToolRequests):
                for call in result.output.approvals:
                    self._open(call)
                    open_call = self._calls.is_open(call.tool_call_id)
                    if open_call and not self._calls.is_waiting(call.tool_call_id):
                        self._rec.waiting(call.tool_call_id)
        return result

    async def before_model_request(self, ctx: RunContext[Any], request_context: Any) -> Any:
        """Close what the request answers that no tool hook saw.

        A call to a tool the agent does not have never reaches a hook (its
        retry is in this request); a call whose approval was denied
        (``DeferredToolResults``) is answered here without running.
        """
        with shielded("the calls this request answers"):
            self._close_answered(ctx.messages)
        return request_context

    def _close_answered(self, messages: list[ModelMessage]) -> None:
        for call, part in answered(messages):
            if not self._calls.seen(call.tool_call_id):
                self._rec.call(call.tool_call_id, call.tool_name, call.args_as_dict())
            if not self._calls.is_open(call.tool_call_id):
                continue
            if part.outcome == "success":
                self._rec.result(call.tool_call_id, part.content)
            elif part.outcome == "denied":
                message = part.model_response_str(wrap_if_error=False)
                self._decided(call.tool_call_id, "deny", message)
                self._rec.refused(call.tool_call_id, part.model_response_str(wrap_if_error=False))
            else:
                self._rec.error(call.tool_call_id, part.model_response_str(wrap_if_error=False))

    async def after_model_request(
        self, ctx: RunContext[Any], *, request_context: Any, response: ModelResponse
    ) -> ModelResponse:
        with shielded("the model's response"):
            self._response(response)
        return response

    def _response(self, response: ModelResponse) -> None:
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

    async def wrap_tool_validate(
        self, ctx: RunContext[Any], *, call: ToolCallPart, tool_def: Any, args: Any, handler: Any
    ) -> Any:
        self._open(call)
        try:
            return await handler(args)
        except (CallDeferred, ApprovalRequired):
            raise
        except Exception as exc:
            with shielded("a call's failure"):
                self._rec.error(call.tool_call_id, failure_text(exc))
            raise

    async def wrap_tool_execute(
        self, ctx: RunContext[Any], *, call: ToolCallPart, tool_def: Any, args: Any, handler: Any
    ) -> Any:
        self._open(call)  # a call validated in an earlier run (deferred, then approved)
        with shielded("a call's approval"):
            self._decided(call.tool_call_id, "allow", None)
        try:
            result = await handler(args)
        except (CallDeferred, ApprovalRequired):
            raise  # not ended: approved or answered later, in a run of its own
        except Exception as exc:
            with shielded("a call's failure"):
                if self._calls.is_open(call.tool_call_id):
                    self._rec.error(call.tool_call_id, failure_text(exc))
            raise
        with shielded("a call's result"):
            if self._calls.is_open(call.tool_call_id):  # the tool may have closed it (a shell run)
                value, descriptor = returned(result)
                self._rec.result(call.tool_call_id, value, descriptor=descriptor)
        return result

    def _decided(
        self, call_id: str, decision: Literal["allow", "deny"], message: str | None
    ) -> None:
        """The program's decision on a call still waiting (``approve`` recorded the person's)."""
        if self._calls.is_waiting(call_id):
            self._rec.decided(call_id, decision, message=message)

    def _open(self, call: ToolCallPart) -> None:
        with shielded("a call"):
            if not self._calls.seen(call.tool_call_id):
                self._rec.call(call.tool_call_id, call.tool_name, call.args_as_dict())
