"""Follow frames: what a thread's follower receives, per mode (sans-IO).

``elide``: a partial tool-result does not cross (its seq is skipped); every
other observation crosses whole. ``live``: partial output crosses as
append/slide/reset deltas per call, at most one frame per call per
``interval`` (coalesced), and the completing frame carries the last delta with
``complete``, ``isError`` and the descriptor instead of the whole text again.

Redaction runs on the ACCUMULATED text and the delta is taken between redacted
texts, so a secret split across two updates is still caught: while a call
runs, the follower's view equals ``redact_partial(accumulated text)`` (its
unterminated last token held back, ``safety.partial``), and at its completion
``redact(final text)``. Every string of a frame is redacted; a call id that
redaction would change crosses as its opaque id (``Redactor.id``), the same on
every frame and endpoint, so frames still pair.

Live output is cleaned here, on the server, before it is redacted
(``safety.output.live_output``): no escape sequence crosses, colours cross as
SUB-marked canonical SGR parameters (``\x1a0;38;5;1m``) and ``\r``/``\b`` as
they are, for the page to draw -- so no raw ESC ever reaches a browser, and a
secret split by colour codes is whole (and caught) when redaction looks.
Cleaning stops before an unfinished escape sequence, so frames stay appends.

Redacting and encoding go through the redactor's memo (``wire.memo``): every
follower using one redactor shares the results, byte for byte the same.

A frame's id is the highest seq the follower has consumed. Resuming after it
loses nothing: observations up to it were sent, and a call still running gets
a ``reset`` first.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

import msgspec

from toolview.contract import Descriptor, ToolResult, is_partial
from toolview.contract.types import NonEmptyStr, Timestamp
from toolview.wire.delta import Append, Delta, Slide, diff
from toolview.wire.feed import LogItem, OpenCall
from toolview.wire.memo import Redactor, redact_observation

__all__ = ["Follower", "Frame", "Mode", "OutputFrame", "Redactor", "redact_observation"]

Mode: TypeAlias = Literal["elide", "live"]
INTERVAL: Final = 0.1  # ≤ 10 frames a second per call


class OutputFrame(msgspec.Struct, frozen=True, rename="camel", tag_field="kind", tag="tool-output"):
    """Live partial output of one call: a delta against what this follower was sent.

    ``at`` and ``parent_call_id`` are those of the latest result the frame
    stands for (the completing frame: the final result's), so a client
    rebuilds the observation whole.
    """

    tool_call_id: str
    tool_name: str
    op: str
    text: str
    drop: int = 0
    complete: bool = False
    is_error: bool = False
    descriptor: Descriptor | msgspec.UnsetType = msgspec.UNSET
    at: Timestamp | msgspec.UnsetType = msgspec.UNSET
    parent_call_id: NonEmptyStr | msgspec.UnsetType = msgspec.UNSET


@dataclass(frozen=True)
class Frame:
    """One SSE frame: ``id:`` is ``seq``; ``op`` names it for the sent tail."""

    seq: int
    data: bytes
    op: str


@dataclass
class _Call:
    tool_name: str
    text: str = ""
    sent: str | None = None
    last_sent: float = -math.inf
    pending: bool = False
    at: str | msgspec.UnsetType = msgspec.UNSET
    parent_call_id: str | msgspec.UnsetType = msgspec.UNSET  # as it crosses (Redactor.id)


_ENCODER = msgspec.json.Encoder()


class Follower:
    """Turns ``LogItem``s into frames for one follower in one mode."""

    def __init__(self, mode: Mode, redactor: Redactor, *, interval: float = INTERVAL) -> None:
        self.mode = mode
        self.redactor = redactor
        self.interval = interval
        self.position = 0
        self._calls: dict[str, _Call] = {}

    def start(self, after: int, running: Mapping[str, OpenCall], now: float) -> list[Frame]:
        """Begin after seq ``after``; in live mode each running call gets a reset."""
        self.position = after
        if self.mode == "elide":
            return []
        frames = []
        for call_id, call in running.items():
            state = self._calls[call_id] = _Call(self.redactor.memo.text(call.tool_name), call.text)
            state.parent_call_id = self._parent(call.parent_call_id)
            frames += self._emit(call_id, state, now)
        return frames

    def push(self, item: LogItem, now: float) -> list[Frame]:
        """Frames due for one new item (possibly none: elided or coalesced)."""
        self.position = item.seq
        observation = item.observation
        if is_partial(observation):
            if self.mode == "elide":
                return []
            call_id = observation.tool_call_id
            state = self._calls.get(call_id)
            if state is None:
                name = self.redactor.memo.text(observation.tool_name)
                state = self._calls[call_id] = _Call(name)
            state.text, state.at = observation.text, observation.at
            state.parent_call_id = self._parent(observation.parent_call_id)
            if now - state.last_sent >= self.interval:
                return self._emit(call_id, state, now)
            state.pending = True
            return []
        if isinstance(observation, ToolResult):
            state_or_none = self._calls.pop(observation.tool_call_id, None)
            if state_or_none is not None and state_or_none.sent is not None:
                return [self._complete(observation, state_or_none)]
        data = self.redactor.memo.frame(observation)
        return [Frame(item.seq, data, str(observation.__struct_config__.tag))]

    def due(self, now: float) -> list[Frame]:
        """Coalesced frames whose interval has passed."""
        return [
            frame
            for call_id, state in self._calls.items()
            if state.pending and now - state.last_sent >= self.interval
            for frame in self._emit(call_id, state, now)
        ]

    def next_deadline(self) -> float | None:
        """When ``due`` will next have a frame, if any call is waiting."""
        times = [s.last_sent + self.interval for s in self._calls.values() if s.pending]
        return min(times, default=None)

    def join(self, leader: Follower) -> list[Frame]:
        """Frames that bring this follower's client to what ``leader``'s clients were sent.

        Both must be at the same position (they consumed the same records). A
        call whose text this follower sent differently (coalesced at another
        moment, or never) gets the delta between the two, so from here on the
        leader's frames apply to this follower's client as they are (a hub's
        members: ``server.live.hub``).
        """
        if leader.position != self.position:
            raise ValueError(f"join at seq {self.position}, the leader is at {leader.position}")
        frames = []
        for call_id, lead in leader._calls.items():
            mine = self._calls.get(call_id)
            sent = None if mine is None else mine.sent
            if lead.sent is not None and sent != lead.sent:
                frames.append(self._frame(call_id, lead, diff(sent, lead.sent)))
        return frames

    def _parent(self, parent_call_id: str | msgspec.UnsetType) -> str | msgspec.UnsetType:
        """A sub-agent's mark as it crosses: the id its call crosses as."""
        if isinstance(parent_call_id, str):
            return self.redactor.id(parent_call_id)
        return parent_call_id

    def _emit(self, call_id: str, state: _Call, now: float) -> list[Frame]:
        """The running call's next delta; none if nothing new may be shown yet."""
        first = state.sent is None
        delta = self._advance(state, complete=False)
        state.last_sent, state.pending = now, False
        if not first and isinstance(delta, Append) and not delta.text:
            return []  # only the held-back last token grew
        return [self._frame(call_id, state, delta)]

    def _frame(self, call_id: str, state: _Call, delta: Delta) -> Frame:
        drop = delta.drop if isinstance(delta, Slide) else 0
        frame = OutputFrame(
            self.redactor.id(call_id),
            state.tool_name,
            _op(delta),
            delta.text,
            drop,
            at=state.at,
            parent_call_id=state.parent_call_id,
        )
        return Frame(self.position, _ENCODER.encode(frame), frame.op)

    def _complete(self, result: ToolResult, state: _Call) -> Frame:
        state.text = result.text
        delta = self._advance(state, complete=True)
        descriptor = result.descriptor
        if not isinstance(descriptor, msgspec.UnsetType):
            descriptor = self.redactor.memo.descriptor(descriptor)
        frame = OutputFrame(
            self.redactor.id(result.tool_call_id),
            state.tool_name,
            _op(delta),
            delta.text,
            delta.drop if isinstance(delta, Slide) else 0,
            True,
            result.is_error,
            descriptor,
            result.at,
            self._parent(result.parent_call_id),
        )
        return Frame(self.position, _ENCODER.encode(frame), "complete")

    def _advance(self, state: _Call, *, complete: bool) -> Delta:
        memo = self.redactor.memo
        redacted = memo.live(state.text, complete=complete)
        delta = diff(state.sent, redacted)
        state.sent = redacted
        return delta


def _op(delta: Delta) -> str:
    return (
        "append" if isinstance(delta, Append) else "slide" if isinstance(delta, Slide) else "reset"
    )
