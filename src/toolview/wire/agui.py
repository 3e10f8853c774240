"""The same thread as AG-UI events, via the ``ag-ui-protocol`` package's models.

Observations map onto the protocol's lifecycle: ``run-started`` / ``run-ended``
to RUN_STARTED / RUN_FINISHED (or RUN_ERROR), a ``tool-call`` to
TOOL_CALL_START/ARGS/END, a completed ``tool-result`` to TOOL_CALL_RESULT with
the descriptor in ``metadata["toolview:result"]``, a ``message`` to
TEXT_MESSAGE_START/CONTENT/END. A partial tool-result yields no event (its
last one is held for an abort). A refused call is a tool call whose result is
the refusal (no descriptor). A ``run-ended`` with a ``reason`` says it: as
RUN_ERROR's message, and on each call it aborted. A ``tool-waiting`` ends the
run with an interrupt; its ``tool-decision`` resumes in a new run
(``wire.agui_interrupts``).

AG-UI is stricter than a thread, and the official client's ``verifyEvents``
and reducer enforce it (``tests/node/agui_verify.mjs``), so:
- every event sits inside a run: observations outside one get an implicit run,
  and a run still open when another starts is finished first;
- a ``run-ended`` ends the AG-UI run only if it is that run (or an implicit
  one), never whichever run happens to be open;
- a call still without a result when its run ends is *aborted*: which calls a
  run's end reaches is the call ledger's (``contract.ledger``, the fold
  ``Thread`` reads), never decided here; each gets a result saying so,
  ``metadata["toolview:aborted"]``, so a client's history never holds a call
  with no answer — and interrupted is not empty: that result's content is the
  call's last partial output (redacted), then the line saying it was aborted;
- ids are unique in the stream: a call id used again gets an occurrence
  suffix (the original in ``metadata["toolview:toolCallId"]``) — the client
  would otherwise glue both calls' arguments into one — so the ledger here
  holds one call per AG-UI id; and every message id carries its seq.
"""

from __future__ import annotations

import json
from contextlib import suppress

import msgspec
from ag_ui.core import (
    BaseEvent,
    CustomEvent,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    RunErrorEvent,
    RunFinishedCancelledOutcome,
    RunFinishedEvent,
    RunFinishedSuccessOutcome,
    RunStartedEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
)

from toolview.contract import (
    METADATA_KEY,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolDecision,
    ToolRefused,
    ToolResult,
    ToolWaiting,
    Usage,
    is_partial,
)
from toolview.contract.call_state import IllegalTransition, result_event
from toolview.contract.ledger import Ledger
from toolview.wire.agui_interrupts import Interrupts
from toolview.wire.agui_subagents import Subagents, stamp
from toolview.wire.follow import Redactor, redact_observation

__all__ = ["ABORTED_KEY", "CALL_ID_KEY", "REFUSED_KEY", "AguiTranslator", "encode_sse"]

REFUSED_KEY = "toolview:refused"
ABORTED_KEY = "toolview:aborted"
CALL_ID_KEY = "toolview:toolCallId"


def _same(value: object) -> object:
    return value


def _same_text(text: str) -> str:
    return text


def encode_sse(event: BaseEvent) -> str:
    """One event as an SSE ``data:`` frame, the protocol's own JSON (camelCase)."""
    return f"data: {event.model_dump_json(by_alias=True, exclude_none=True)}\n\n"


class AguiTranslator:
    """Turns one thread's observations into AG-UI events, in order."""

    def __init__(self, thread_id: str, redactor: Redactor) -> None:
        self.thread_id = thread_id
        self.redactor = redactor
        # what ``skip`` uses: no redaction, but the ids (which pair events) as ``push`` sends them
        self._ids_only = Redactor(text=_same_text, json=_same, ids=redactor.id, budget=0)
        self.run_id: str | None = None  # the open AG-UI run
        self.implicit = False  # whether the open run is one this translator made up
        self.ids: dict[str, str] = {}  # toolview call id -> its latest AG-UI id
        self.call_of: dict[str, str] = {}  # every AG-UI call id announced -> its toolview call id
        # every AG-UI call's state and run: the one fold (a reused id is a new call here)
        self.ledger = Ledger()
        self.answered: set[str] = set()  # AG-UI call ids whose result the stream has sent
        # the last partial of each unanswered call (raw, redacted if an abort sends it): one each
        self.partials: dict[str, ToolResult] = {}
        self.subagents = Subagents(thread_id)
        self.interrupts = Interrupts(thread_id)
        self.names: dict[str, str] = {}  # toolview call id -> its tool name (a sub-agent's name)
        self._invocation: str | None = None  # the sub-agent the current observation belongs to
        self._outer_reason: str | None = None  # why the run that ended the calls in none ended

    def push(self, seq: int, observation: Observation) -> list[BaseEvent]:
        """Events for one observation (none for a partial result).

        The observation is redacted first (``redact_observation``): every
        string, and ids that would change crossed as opaque ids, so an event's
        ids, names and metadata (the original call id included) are all safe.
        Its ``at`` is every event's ``timestamp``; its ``parentCallId`` puts
        them in that call's sub-agent (``wire.agui_subagents``).
        """
        if is_partial(observation):
            self._keep_partial(observation)
            return []
        observation = redact_observation(observation, self.redactor)
        if isinstance(observation, RunStarted):
            events = self.finish()
            self.run_id = observation.run_id
            self.ledger.run_started(observation.run_id)
            self._outer_reason = None
            started = RunStartedEvent(thread_id=self.thread_id, run_id=self.run_id)
            return stamp([*events, started], observation.at)
        if isinstance(observation, RunEnded):
            return stamp(self._end(seq, observation), observation.at)
        if isinstance(observation, ToolWaiting | ToolDecision):
            return stamp(self._asked(seq, observation), observation.at)
        events = self._ensure_run(seq)
        parent = observation.parent_call_id
        self._invocation = None
        if isinstance(parent, str):
            agui_parent = self.ids.get(parent, parent)
            self._invocation, opened = self.subagents.enter(
                parent, self.names.get(parent), agui_parent
            )
            events += opened
        if isinstance(observation, ToolResult | ToolRefused):
            call_id = observation.tool_call_id
            if call_id in self.ids:  # a result belongs where its call is
                self._invocation = self.subagents.of_call.get(call_id)
            events += self.subagents.finish(call_id)
        own = self._own(seq, observation)
        return stamp(events, observation.at) + stamp(own, observation.at, self._invocation)

    def _own(self, seq: int, observation: Observation) -> list[BaseEvent]:
        """The events that stand for one message, usage, call or result."""
        events: list[BaseEvent] = []
        if isinstance(observation, Usage):
            value = msgspec.to_builtins(observation)
            events.append(CustomEvent(name="toolview:usage", value=value))
        elif isinstance(observation, Message) and observation.role == "thinking":
            events += self._reasoning(seq, observation)
        elif isinstance(observation, Message):
            events += self._message(seq, observation)
        elif isinstance(observation, ToolCall):
            events += self._call(
                seq, observation.tool_call_id, observation.tool_name, observation.args
            )
            events += self._aborted_at_once(seq, self.ids[observation.tool_call_id])
        elif isinstance(observation, ToolResult | ToolRefused):
            events += self._result(seq, observation)
        return events

    def skip(self, seq: int, observation: Observation) -> None:
        """Advance exactly as ``push`` would, and send nothing.

        How a resumed stream rebuilds its runs, ids and occurrence suffixes
        before the resume point. No redaction of text: the events are dropped
        and no state depends on it, so a resume costs a replay, no more. Ids
        are mapped as ``push`` maps them: the state is keyed by them.
        """
        redactor, self.redactor = self.redactor, self._ids_only
        try:
            self.push(seq, observation)
        finally:
            self.redactor = redactor

    def finish(self) -> list[BaseEvent]:
        """Close the open run, if any (at a new run or at the end of the stream)."""
        if self.run_id is None:
            return []
        run_id, self.run_id, self.implicit = self.run_id, None, False
        closed = self.subagents.finish_all()
        return [*closed, RunFinishedEvent(thread_id=self.thread_id, run_id=run_id)]

    def finish_implicit(self) -> list[BaseEvent]:
        """Close the open run only if it was made up here (a real one may still be going)."""
        return self.finish() if self.implicit else []

    def _ensure_run(self, seq: int) -> list[BaseEvent]:
        if self.run_id is not None:
            return []
        self.run_id, self.implicit = f"{self.thread_id}:implicit-{seq}", True
        return [RunStartedEvent(thread_id=self.thread_id, run_id=self.run_id)]

    def _end(self, seq: int, ended: RunEnded) -> list[BaseEvent]:
        """Abort the run's unanswered calls; end the AG-UI run if it is this one."""
        current = self.run_id is not None and (self.implicit or self.run_id == ended.run_id)
        reached = self.ledger.run_ended(ended.run_id, ended.outcome)
        runs = (ended.run_id, None) if reached else (ended.run_id,)
        unsettled = [call for run in runs for call in self.ledger.unsettled(run)]
        orphans = [call for call in unsettled if call not in self.answered]
        if not orphans and not current:
            return []
        events = self._ensure_run(seq)
        reason = ended.reason if isinstance(ended.reason, str) and ended.reason else None
        if reached:
            self._outer_reason = reason
        events += [self._aborted(seq, call, ended.outcome, reason) for call in orphans]
        if not current:
            return events
        events += self.subagents.finish_all()
        run_id, self.run_id, self.implicit = self.run_id or "", None, False
        if ended.outcome == "error":
            message = reason or "the run ended with an error"
            return [*events, RunErrorEvent(message=message, code="run_error")]
        outcome = (
            RunFinishedCancelledOutcome()
            if ended.outcome == "aborted"
            else RunFinishedSuccessOutcome()
        )
        return [*events, RunFinishedEvent(thread_id=self.thread_id, run_id=run_id, outcome=outcome)]

    def _asked(self, seq: int, asked: ToolWaiting | ToolDecision) -> list[BaseEvent]:
        """A waiting call (outside a sub-agent) ends the run with an interrupt; its decision
        resumes in a new run (``wire.agui_interrupts``)."""
        agui_id = self.ids.get(asked.tool_call_id)
        if isinstance(asked, ToolDecision):
            if asked.tool_call_id not in self.interrupts.pending:
                return []
            events = self.finish()
            resumed = self.interrupts.resume(asked, seq)
            self.run_id, self.implicit = resumed.run_id, True  # the real run's end closes it
            return [*events, resumed]
        if agui_id is None or self.run_id is None or asked.tool_call_id in self.subagents.of_call:
            return []
        events = self.subagents.finish_all()
        run_id, self.run_id, self.implicit = self.run_id, None, False
        return [*events, self.interrupts.ask(run_id, agui_id, asked, seq)]

    def _reasoning(self, seq: int, message: Message) -> list[BaseEvent]:
        message_id = f"{self.thread_id}:message-{seq}"
        start = ReasoningMessageStartEvent(message_id=message_id, role="reasoning")
        events: list[BaseEvent] = [start]
        if message.text:
            events.append(ReasoningMessageContentEvent(message_id=message_id, delta=message.text))
        return [*events, ReasoningMessageEndEvent(message_id=message_id)]

    def _message(self, seq: int, message: Message) -> list[BaseEvent]:
        message_id = f"{self.thread_id}:message-{seq}"
        role = "assistant" if message.role == "thinking" else message.role
        events: list[BaseEvent] = [TextMessageStartEvent(message_id=message_id, role=role)]
        if message.text:
            events.append(TextMessageContentEvent(message_id=message_id, delta=message.text))
        return [*events, TextMessageEndEvent(message_id=message_id)]

    def _call(self, seq: int, call_id: str, name: str, args: object) -> list[BaseEvent]:
        """START/ARGS/END of a call, under an AG-UI id no earlier call of the stream has."""
        agui_id, n = call_id, 1
        while agui_id in self.call_of:
            n += 1
            agui_id = f"{call_id}~{n}"
        self.ids[call_id], self.call_of[agui_id] = agui_id, call_id
        self.ledger.open(agui_id)
        self.names[call_id] = name
        if self._invocation is not None:
            self.subagents.of_call[call_id] = self._invocation
        else:
            self.subagents.of_call.pop(call_id, None)
        start = ToolCallStartEvent(
            tool_call_id=agui_id,
            tool_call_name=name,
            parent_message_id=f"{self.thread_id}:call-{seq}",
            metadata=self._original(agui_id),
        )
        delta = json.dumps(args, ensure_ascii=False)
        args_event = ToolCallArgsEvent(tool_call_id=agui_id, delta=delta)
        return [start, args_event, ToolCallEndEvent(tool_call_id=agui_id)]

    def _original(self, agui_id: str) -> dict[str, object] | None:
        """The toolview call id, in metadata, when the AG-UI id had to differ from it."""
        call_id = self.call_of[agui_id]
        return {CALL_ID_KEY: call_id} if agui_id != call_id else None

    def _answer(self, seq: int, result: ToolResult | ToolRefused) -> list[BaseEvent]:
        """A result's call, announced first (with no args) if the stream never saw it."""
        call_id = result.tool_call_id
        events = [] if call_id in self.ids else self._call(seq, call_id, result.tool_name, {})
        agui_id = self.ids[call_id]
        with suppress(IllegalTransition):  # a second final result: sent, as a thread keeps it
            self.ledger.result(agui_id, result_event(result))
        self.answered.add(agui_id)
        self.partials.pop(agui_id, None)
        return events

    def _keep_partial(self, partial: ToolResult) -> None:
        """Hold a running call's output so far: its abort, if it comes, carries it."""
        agui_id = self.ids.get(partial.tool_call_id)
        if agui_id is not None and agui_id not in self.answered:
            self.partials[agui_id] = partial

    def _result(self, seq: int, result: ToolResult | ToolRefused) -> list[BaseEvent]:
        events = self._answer(seq, result)
        if isinstance(result, ToolRefused):
            guard = result.guard if isinstance(result.guard, str) else None
            text = f"refused{f' by {guard}' if guard else ''}: {result.reason}"
            receipt = {"reason": result.reason, **({"guard": guard} if guard else {})}
            metadata: dict[str, object] = {REFUSED_KEY: receipt}
        else:
            text, metadata = result.text, {"toolview:isError": result.is_error}
            if not isinstance(result.descriptor, msgspec.UnsetType):
                metadata[METADATA_KEY] = msgspec.to_builtins(result.descriptor)
        return [*events, self._result_event(seq, self.ids[result.tool_call_id], text, metadata)]

    def _aborted_at_once(self, seq: int, agui_id: str) -> list[BaseEvent]:
        """A call the ledger aborts as it appears (seen after the last run ended): its answer.

        Why: the thread (and the page) show it aborted at once; unanswered, an
        AG-UI client would show it running until some later run's end.
        """
        if self.ledger.state(agui_id) != "aborted":
            return []
        outcome = self.ledger.outcome(self.ledger.run_of(agui_id)) or "aborted"
        return [self._aborted(seq, agui_id, outcome, self._outer_reason)]

    def _aborted(self, seq: int, agui_id: str, outcome: str, reason: str | None) -> BaseEvent:
        """The result an unanswered call gets: the output it had (interrupted is not empty)."""
        self.answered.add(agui_id)
        partial = self.partials.pop(agui_id, None)
        said = f"aborted: the run ended{f' ({reason})' if reason else ''} before the call returned"
        output = self.redactor.text(partial.text) if partial is not None and partial.text else ""
        text = f"{output.rstrip(chr(10))}\n{said}" if output else said
        aborted: dict[str, object] = {
            "runOutcome": outcome,
            **({"reason": reason} if reason else {}),
        }
        return self._result_event(seq, agui_id, text, {ABORTED_KEY: aborted})

    def _result_event(
        self, seq: int, agui_id: str, text: str, metadata: dict[str, object]
    ) -> BaseEvent:
        call_id = self.call_of[agui_id]
        return ToolCallResultEvent(
            message_id=f"{self.thread_id}:result-{seq}-{agui_id}",
            tool_call_id=agui_id,
            content=text,
            role="tool",
            metadata={**metadata, **(self._original(agui_id) or {})},
            subagent_run_id=self.subagents.of_call.get(call_id),
        )
