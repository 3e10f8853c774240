"""A call that waits for a person, and the person's decision, as a recorder records them.

Why in the recorder (``Recorder.waiting`` / ``Recorder.decided``) and not in
each adapter: pydantic-ai's deferred approvals, OpenAI Agents' interruptions
and LangGraph's ``interrupt()`` all come to the same two observations — a
``tool-waiting`` with the call's own tool and arguments (the ones that will
run), then one ``tool-decision`` receipt — and the ledger (``contract``) holds
the call ``needs_input`` between them, on every surface.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Literal

import msgspec

from toolview.contract import Observation, ToolDecision, ToolWaiting
from toolview.recording.values import call_args, clean_id

__all__ = ["PROGRAM", "Waits"]

PROGRAM = "the program (its own resume object)"
"""``by`` on a decision the program made without asking toolview (it built the resume itself)."""


class Waits:
    """``waiting`` and ``decided`` on the recorder (see the module docstring)."""

    _lock: threading.RLock
    _calls: dict[str, tuple[str, Mapping[str, object]]]

    def emit(self, observation: Observation) -> None:
        raise NotImplementedError  # the recorder's

    def tool_name(self, id: str) -> str:
        raise NotImplementedError  # the recorder's

    def waiting(
        self, id: str, *, question: str | None = None, schema: Mapping[str, object] | None = None
    ) -> None:
        """The call ``id`` waits for a person; its tool and arguments are the ones ``call`` gave.

        ``schema``: an elicitation's form, the answer the person is asked for.
        """
        call_id = clean_id(id, "call")
        with self._lock:
            name, args = self._calls.get(call_id, (self.tool_name(call_id), {}))
        self.emit(
            ToolWaiting(
                tool_call_id=call_id,
                tool_name=name,
                args=call_args(args),
                question=clean_id(question, "") if question else msgspec.UNSET,
                schema=call_args(schema) if schema is not None else msgspec.UNSET,
            )
        )

    def decided(
        self,
        id: str,
        decision: Literal["allow", "deny", "answer"],
        *,
        message: str | None = None,
        answer: Mapping[str, object] | None = None,
        by: str = PROGRAM,
        via: str | None = None,
        at: str | None = None,
    ) -> None:
        """The person's (or the program's) ``allow`` / ``deny`` / ``answer`` on the call ``id``."""
        self.emit(
            ToolDecision(
                tool_call_id=clean_id(id, "call"),
                decision=decision if decision in ("allow", "answer") else "deny",  # no other word
                message=clean_id(message, "") if message else msgspec.UNSET,
                answer=call_args(answer) if answer is not None else msgspec.UNSET,
                by=clean_id(by, PROGRAM),
                via=via if via else msgspec.UNSET,
                at=at if at else msgspec.UNSET,
            )
        )
