"""pi's live events (``--mode rpc`` stdout, ``--mode json`` output) as observations.

sans-IO: ``PiEventMapper.feed`` takes one decoded event and returns the
observations it means; it does no reading or writing of its own.

- ``tool_execution_start`` → ``tool-call``
- ``tool_execution_update`` → ``tool-result`` with ``complete: false``; pi's
  ``partialResult`` is already accumulated (a sliding tail once past pi's
  window), so it maps one to one
- ``tool_execution_end`` → ``tool-result`` with ``complete: true``, or
  ``tool-refused`` when toolview's observer extension reported that another
  extension's ``tool_call`` handler blocked the call (see ``observer.ts``)
- ``agent_start``/``agent_end`` → ``run-started``/``run-ended``
- ``message_end`` of user or assistant text → ``message``

Times: a ``message`` has its message's ``timestamp`` as ``at``, and a call its
assistant message's (the ``message_end`` that announced it comes first), as
in the session file; the other events carry no time, so their observations
have none (``hosts.pi.session`` says what differs).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import Observation, RunEnded, RunStarted, ToolCall
from toolview.hosts.pi.results import PiFormatError, refusal, require_id, tool_result
from toolview.hosts.pi.runs import message_at, message_observation, run_id, run_outcome

__all__ = ["OBSERVER_STATUS_KEY", "PiEventMapper"]

OBSERVER_STATUS_KEY: Final = "toolview:refused"


class PiEventMapper:
    """Maps one pi event stream; keeps only what later events need."""

    def __init__(self, *, session_id: str = "pi", kinds: bool = False) -> None:
        self.session_id = session_id
        self.kinds = kinds
        self.runs = 0
        self.run_open = False
        # the folder pi works in (its session header's ``cwd``; the RPC client's own folder)
        self.cwd: str | msgspec.UnsetType = msgspec.UNSET
        self._args: dict[str, dict[str, object]] = {}
        self._refused: dict[str, object] = {}
        # call id -> its assistant message's time, until the call starts or the run ends
        self._call_at: dict[str, str] = {}

    def feed(self, event: object) -> list[Observation]:
        """The observations one event means (often none); ``PiFormatError`` if malformed."""
        if not isinstance(event, Mapping):
            raise PiFormatError("an event is not a JSON object")
        kind = event.get("type")
        if kind == "session" and isinstance(event.get("id"), str) and event["id"]:
            self.session_id = event["id"]
            cwd = event.get("cwd")
            self.cwd = cwd if isinstance(cwd, str) and cwd else self.cwd
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        return handler(self, event) if handler else []

    def close(self, reason: str = "pi stopped before the run ended") -> list[Observation]:
        """pi went away: a run still open ends as ``error``, saying why (its calls: aborted)."""
        if not self.run_open:
            return []
        self.run_open = False
        run = run_id(self.session_id, self.runs)
        return [RunEnded(run_id=run, outcome="error", reason=reason)]

    def _agent_start(self, _event: Mapping[str, object]) -> list[Observation]:
        ended = self.close("a new run started before this one ended")
        self.runs += 1
        self.run_open = True
        return [*ended, RunStarted(run_id=run_id(self.session_id, self.runs), cwd=self.cwd)]

    def _agent_end(self, event: Mapping[str, object]) -> list[Observation]:
        self._call_at.clear()
        if not self.run_open:
            return []
        self.run_open = False
        messages = event.get("messages")
        outcome = run_outcome(messages if isinstance(messages, list) else [])
        return [RunEnded(run_id=run_id(self.session_id, self.runs), outcome=outcome)]

    def _message_end(self, event: Mapping[str, object]) -> list[Observation]:
        message = event.get("message")
        if not isinstance(message, Mapping):
            return []
        at = message_at(message)
        content = message.get("content")
        if message.get("role") == "assistant" and isinstance(at, str) and isinstance(content, list):
            for block in content:
                if isinstance(block, Mapping) and block.get("type") == "toolCall":
                    self._call_at[str(block.get("id"))] = at
        observation = message_observation(message)
        return [] if observation is None else [observation]

    def _start(self, event: Mapping[str, object]) -> list[Observation]:
        call_id, name = _ids(event)
        args = event.get("args")
        if not isinstance(args, Mapping):
            raise PiFormatError(f"args of call {call_id!r} is not a JSON object")
        self._args[call_id] = dict(args)
        at = self._call_at.pop(call_id, msgspec.UNSET)
        return [ToolCall(tool_call_id=call_id, tool_name=name, args=dict(args), at=at)]

    def _update(self, event: Mapping[str, object]) -> list[Observation]:
        call_id, name = _ids(event)
        payload = event.get("partialResult")
        args = self._args.get(call_id)
        result = tool_result(
            call_id, name, payload, complete=False, is_error=False, args=args, kinds=self.kinds
        )
        return [result]

    def _end(self, event: Mapping[str, object]) -> list[Observation]:
        call_id, name = _ids(event)
        args = self._args.pop(call_id, None)
        if call_id in self._refused and event.get("isError") is True:
            return [refusal(call_id, name, self._refused.pop(call_id))]
        final = tool_result(
            call_id,
            name,
            event.get("result"),
            complete=True,
            is_error=event.get("isError"),
            args=args,
            kinds=self.kinds,
        )
        return [final]

    def _ui_request(self, event: Mapping[str, object]) -> list[Observation]:
        """toolview's observer extension reports a refusal as an RPC status update."""
        if event.get("method") != "setStatus" or event.get("statusKey") != OBSERVER_STATUS_KEY:
            return []
        try:
            report = json.loads(str(event.get("statusText")))
        except ValueError:
            return []
        if isinstance(report, Mapping) and isinstance(report.get("toolCallId"), str):
            self._refused[report["toolCallId"]] = report.get("reason")
        return []


def _ids(event: Mapping[str, object]) -> tuple[str, str]:
    call_id = require_id(event.get("toolCallId"), f"{event.get('type')}: toolCallId")
    name = require_id(event.get("toolName"), f"{event.get('type')}: toolName")
    return call_id, name


_HANDLERS: Final = {
    "agent_start": PiEventMapper._agent_start,
    "agent_end": PiEventMapper._agent_end,
    "message_end": PiEventMapper._message_end,
    "tool_execution_start": PiEventMapper._start,
    "tool_execution_update": PiEventMapper._update,
    "tool_execution_end": PiEventMapper._end,
    "extension_ui_request": PiEventMapper._ui_request,
}
