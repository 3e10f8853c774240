"""``rec.langchain()``: a LangChain callback handler recording every tool call.

It records the user's prompts and the model's text and tokens too (``on_chat_model_start``,
``on_llm_end``), so the thread reads as the conversation.

``graph.invoke(state, config={"callbacks": [rec.langchain()]})`` — LangChain runnables and
LangGraph graphs alike (a ``ToolNode`` runs each tool through the tool's own callbacks, so
parallel calls arrive here from its worker threads; the recorder is thread-safe).

Pairing: ``on_tool_start`` carries the model's ``tool_call_id`` (the id the graph's
``ToolMessage`` answers), and the later events only the callback ``run_id``, so the handler
maps one to the other. A tool invoked by hand, with no tool call, is keyed by its run id.
What a tool returned arrives as a ``ToolMessage`` (``status="error"`` when the tool handled
its own ``ToolException``), a ``Command`` (its update's ``ToolMessage`` for this call is the
result) or the raw value; each goes through ``toolview.describe`` — a JSON string LangChain
made of a dict or list is described as that value again, and an ``artifact`` that is a
``toolview`` descriptor is used as the result's descriptor. A tool that raised is
``on_tool_error`` (before a ``ToolNode`` turns it into a message with ``handle_tool_errors``,
or lets it abort the run): an error with the exception's type and message — unless it is
LangGraph's ``interrupt()``: then the call waits for a person (``adapters.interrupts``), and
the tool's rerun on ``Command(resume=…)`` continues that same call.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from toolview.adapters import require

require("langchain_core", "langchain")

from langchain_core.callbacks import BaseCallbackHandler  # noqa: E402
from langchain_core.messages import BaseMessage, ToolMessage  # noqa: E402
from langchain_core.outputs import LLMResult  # noqa: E402

from toolview.adapters import interrupts  # noqa: E402
from toolview.adapters.tracking import CallTracker  # noqa: E402
from toolview.contract import FINAL_STATES, Descriptor  # noqa: E402
from toolview.recording import Recorder  # noqa: E402

__all__ = ["ToolviewCallbackHandler", "attach"]


def attach(recorder: Recorder) -> ToolviewCallbackHandler:
    """A handler for ``config={"callbacks": [handler]}``."""
    return ToolviewCallbackHandler(recorder)


class ToolviewCallbackHandler(BaseCallbackHandler):
    """Tool starts, ends and errors (and the model's text and tokens) as observations."""

    raise_error = False  # a recording problem never stops the agent

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder
        self._lock = threading.Lock()
        self._calls: dict[UUID, str] = {}
        self._models: dict[UUID, str] = {}
        self._said: set[str] = set()
        self._tracker = CallTracker.on(recorder)

    def on_tool_start(
        self,
        serialized: dict[str, Any],
        input_str: str,
        *,
        run_id: UUID,
        inputs: dict[str, Any] | None = None,
        tool_call_id: str | None = None,
        **kwargs: Any,
    ) -> None:
        call_id = str(tool_call_id) if tool_call_id else str(run_id)
        with self._lock:
            self._calls[run_id] = call_id
        name = (serialized or {}).get("name") or kwargs.get("name") or "tool"
        args = inputs if isinstance(inputs, dict) else {"input": str(input_str)}
        if not self._tracker.seen(call_id):  # seen: a tool rerun on resume, the same call
            self.recorder.call(call_id, str(name), args)

    def on_tool_end(self, output: Any, *, run_id: UUID, **kwargs: Any) -> None:
        call_id = self._take(run_id)
        if call_id is None or self._final(call_id):
            return  # a tool that streamed its own final result (a CommandRunner)
        value, is_error, descriptor = _result(output, call_id)
        self.recorder.result(call_id, value, is_error=is_error, descriptor=descriptor)

    def on_tool_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        call_id = self._take(run_id)
        if call_id is None or self._final(call_id):
            return
        if not interrupts.note(self.recorder, call_id, error):  # an interrupt: the call waits
            self.recorder.error(call_id, error)

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        model = (metadata or {}).get("ls_model_name") or (serialized or {}).get("name")
        with self._lock:
            self._models[run_id] = str(model or "model")
            said = [m for m in (messages or [[]])[0] if m.type == "human" and self._new(m)]
        for message in said:
            self.recorder.message("user", message.text)

    def _new(self, message: BaseMessage) -> bool:
        """Whether this prompt was not recorded yet (every turn repeats the conversation)."""
        key = message.id or f"{message.text}"
        if key in self._said:
            return False
        self._said.add(key)
        return True

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        with self._lock:
            model = self._models.pop(run_id, "model")
        for generations in response.generations:
            for generation in generations:
                message = getattr(generation, "message", None)
                if isinstance(message, BaseMessage):
                    self._model_turn(model, message)

    def _model_turn(self, model: str, message: BaseMessage) -> None:
        if message.text:
            self.recorder.message("assistant", message.text)
        usage = getattr(message, "usage_metadata", None) or {}
        if usage.get("input_tokens") or usage.get("output_tokens"):
            cached = (usage.get("input_token_details") or {}).get("cache_read")
            self.recorder.usage(
                model=model,
                input_tokens=int(usage.get("input_tokens") or 0),
                output_tokens=int(usage.get("output_tokens") or 0),
                cache_read_tokens=cached or None,
            )

    def _take(self, run_id: UUID) -> str | None:
        with self._lock:
            return self._calls.pop(run_id, None)

    def _final(self, call_id: str) -> bool:
        entry = self.recorder.call_entry(call_id)
        return entry is not None and self.recorder.thread.state(entry) in FINAL_STATES


def _result(output: Any, call_id: str) -> tuple[object, bool, Descriptor | None]:
    """What to show for a tool's output: the value, whether it is an error, a descriptor."""
    message = _message_for(output, call_id)
    if message is None:
        return _commanded(output), False, None
    descriptor = message.artifact if isinstance(message.artifact, Descriptor) else None
    return _content(message.content), message.status == "error", descriptor


def _message_for(output: Any, call_id: str) -> ToolMessage | None:
    """The ``ToolMessage`` answering ``call_id``: the output, or inside a ``Command``'s update."""
    if isinstance(output, ToolMessage):
        return output
    update = getattr(output, "update", None) if type(output).__name__ == "Command" else None
    messages = update.get("messages") if isinstance(update, dict) else None
    if isinstance(output, Sequence) and not isinstance(output, str):
        messages = output
    for message in messages if isinstance(messages, Sequence) else ():
        if isinstance(message, ToolMessage) and message.tool_call_id == call_id:
            return message
    return None


def _commanded(output: Any) -> object:
    """A ``Command`` with no message for the call: its update and destination, as data."""
    if type(output).__name__ != "Command":
        return _content(output)
    fields = {"update": output.update, "goto": output.goto, "graph": output.graph}
    return {key: value for key, value in fields.items() if value not in (None, (), [], {})}


def _content(content: object) -> object:
    """A message's content: text blocks joined, a JSON object or array string parsed."""
    if isinstance(content, list) and all(_is_text_block(block) for block in content):
        content = "".join(b if isinstance(b, str) else str(b["text"]) for b in content)
    if isinstance(content, str) and content.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(content)
        except ValueError:
            return content
    return content


def _is_text_block(block: object) -> bool:
    return isinstance(block, str) or (isinstance(block, dict) and block.get("type") == "text")
