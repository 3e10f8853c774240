"""The feed: numbers a thread's observations and encodes them as log records.

Sans-IO. A log backend loads the open-call state of the calls a batch touches,
calls ``encode_batch`` inside its own transaction, and stores what it returns,
so numbering stays gapless even when several processes append to one thread.

A partial tool-result is stored as a delta against the previous partial of the
same call (see ``delta``), with the seq of that call's last ``reset`` (its
*anchor*) so a reader that starts mid-call knows where to rebuild from. A
reset is written again once the deltas since the anchor outweigh twice the
text (the text and a descriptor that repeats it), so the log stays O(output)
and a rebuild reads O(current text).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import msgspec

from toolview.contract import (
    Descriptor,
    Observation,
    ToolResult,
    encode_observation,
    is_partial,
)
from toolview.wire.delta import Delta, Reset, apply, diff, size
from toolview.wire.props_delta import DescriptorPatch, apply_patch, make_patch, patch_size

__all__ = [
    "EncodedBatch",
    "LogItem",
    "OpenCall",
    "PartialRecord",
    "Reconstructor",
    "decode_open_call",
    "encode_batch",
    "encode_open_call",
    "record_call_id",
]

_CHECKPOINT_FLOOR = 4096  # below this many characters of deltas, never re-anchor


class PartialRecord(
    msgspec.Struct, frozen=True, omit_defaults=True, rename="camel", tag_field="kind", tag="partial"
):
    """How a partial tool-result is stored: a delta, never the whole text.

    ``at`` and ``parent_call_id`` are the partial's own (not deltas): a partial
    read back is the observation that was appended, every field of it.
    """

    tool_call_id: str
    tool_name: str
    anchor: int
    delta: Delta
    is_error: bool = False
    descriptor: Descriptor | msgspec.UnsetType = msgspec.UNSET
    patch: DescriptorPatch | msgspec.UnsetType = msgspec.UNSET
    at: str | msgspec.UnsetType = msgspec.UNSET
    parent_call_id: str | msgspec.UnsetType = msgspec.UNSET


class OpenCall(msgspec.Struct, frozen=True, rename="camel"):
    """A call with partial output and no final result yet, as the log keeps it.

    ``parent_call_id``: the sub-agent call it runs under, so a follower joining
    mid-call places its output where the call is.
    """

    tool_name: str
    anchor: int
    last_seq: int
    text: str
    since_anchor: int
    descriptor: Descriptor | msgspec.UnsetType = msgspec.UNSET
    parent_call_id: str | msgspec.UnsetType = msgspec.UNSET


@dataclass(frozen=True)
class LogItem:
    """One observation read back from the log, with the delta it was stored as."""

    seq: int
    observation: Observation
    delta: Delta | None = None


@dataclass
class EncodedBatch:
    """Records to store (seq, bytes) and the open-call changes (``None`` = closed)."""

    records: list[tuple[int, bytes]] = field(default_factory=list)
    calls: dict[str, OpenCall | None] = field(default_factory=dict)


_PARTIAL_ENCODER = msgspec.json.Encoder()
_RECORD_DECODER = msgspec.json.Decoder(Observation | PartialRecord)
_CALL_DECODER = msgspec.json.Decoder(OpenCall)


def encode_open_call(call: OpenCall) -> bytes:
    """The stored form of an open call's state."""
    return _PARTIAL_ENCODER.encode(call)


def decode_open_call(raw: bytes) -> OpenCall:
    """Read back an open call's state."""
    return _CALL_DECODER.decode(raw)


def record_call_id(observation: Observation) -> str | None:
    """The call whose open state encoding this observation needs, if any."""
    return observation.tool_call_id if isinstance(observation, ToolResult) else None


def encode_batch(
    observations: Sequence[Observation], last_seq: int, calls: Mapping[str, OpenCall]
) -> EncodedBatch:
    """Number ``observations`` after ``last_seq`` and encode each as a record."""
    batch = EncodedBatch()
    state: dict[str, OpenCall | None] = dict(calls)
    for offset, observation in enumerate(observations, start=1):
        seq = last_seq + offset
        if is_partial(observation):
            record, call = _encode_partial(seq, observation, state.get(observation.tool_call_id))
            state[observation.tool_call_id] = call
            batch.calls[observation.tool_call_id] = call
            batch.records.append((seq, record))
            continue
        if isinstance(observation, ToolResult) and state.get(observation.tool_call_id):
            state[observation.tool_call_id] = None
            batch.calls[observation.tool_call_id] = None
        batch.records.append((seq, encode_observation(observation)))
    return batch


def _encode_partial(
    seq: int, result: ToolResult, previous: OpenCall | None
) -> tuple[bytes, OpenCall]:
    delta = diff(previous.text if previous else None, result.text)
    anchor, since = (previous.anchor, previous.since_anchor) if previous else (seq, 0)
    new, old = result.descriptor, previous.descriptor if previous else msgspec.UNSET
    patch = (
        make_patch(old, new)
        if isinstance(new, Descriptor) and isinstance(old, Descriptor)
        else None
    )
    since += size(delta) + (patch_size(patch) if patch else 0)
    if isinstance(delta, Reset) or since > 2 * max(len(result.text), _CHECKPOINT_FLOOR):
        delta, anchor, since, patch = Reset(result.text), seq, 0, None
    record = PartialRecord(
        result.tool_call_id,
        result.tool_name,
        anchor,
        delta,
        result.is_error,
        msgspec.UNSET if patch else new,
        patch or msgspec.UNSET,
        at=result.at,
        parent_call_id=result.parent_call_id,
    )
    call = OpenCall(result.tool_name, anchor, seq, result.text, since, new, result.parent_call_id)
    return _PARTIAL_ENCODER.encode(record), call


def _decode_record(raw: bytes) -> Observation | PartialRecord:
    """Records are ours, written by ``encode_batch``: one tagged union decodes all."""
    record: Observation | PartialRecord = _RECORD_DECODER.decode(raw)
    return record


class Reconstructor:
    """Turns stored records back into observations, rebuilding partial text exactly.

    It keeps the current text of each open call it has seen; a delta for a call
    it has not seen needs ``prime`` first (``needs`` says from which seq).
    """

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        self.descriptors: dict[str, Descriptor] = {}
        self._held: tuple[bytes, Observation | PartialRecord] | None = None

    def needs(self, raw: bytes) -> int | None:
        """The anchor seq to rebuild from, if this record cannot be decoded yet.

        The record decoded here is held for the ``decode`` of the same bytes
        that follows: a replay asks both of every record, and decoding twice
        cost 0.1 s of a 0.56 s cold fold (68 MB of records at 5,000 calls).
        """
        record = _decode_record(raw)
        self._held = (raw, record)
        if not isinstance(record, PartialRecord) or isinstance(record.delta, Reset):
            return None
        return None if record.tool_call_id in self.texts else record.anchor

    def prime(self, call_id: str, records: Sequence[tuple[int, bytes]]) -> None:
        """Rebuild one call's text from its anchor's records (others are ignored)."""
        for _, raw in records:
            record = _decode_record(raw)
            if isinstance(record, PartialRecord) and record.tool_call_id == call_id:
                self._apply(record)

    def decode(self, seq: int, raw: bytes) -> LogItem:
        """The observation stored at ``seq``; raises ``DeltaError`` on a gap."""
        held, self._held = self._held, None
        record = held[1] if held is not None and held[0] is raw else _decode_record(raw)
        if not isinstance(record, PartialRecord):
            if isinstance(record, ToolResult):
                self.texts.pop(record.tool_call_id, None)
                self.descriptors.pop(record.tool_call_id, None)
            return LogItem(seq, record)
        text, descriptor = self._apply(record)
        observation = ToolResult(
            tool_call_id=record.tool_call_id,
            tool_name=record.tool_name,
            text=text,
            complete=False,
            is_error=record.is_error,
            descriptor=descriptor,
            at=record.at,
            parent_call_id=record.parent_call_id,
        )
        return LogItem(seq, observation, record.delta)

    def remember(self, call_id: str, call: OpenCall) -> None:
        """Start from an open call's stored state (a follower joining mid-call)."""
        self.texts[call_id] = call.text
        if isinstance(call.descriptor, Descriptor):
            self.descriptors[call_id] = call.descriptor

    def _apply(self, record: PartialRecord) -> tuple[str, Descriptor | msgspec.UnsetType]:
        call_id = record.tool_call_id
        text = self.texts[call_id] = apply(self.texts.get(call_id), record.delta)
        descriptor: Descriptor | msgspec.UnsetType = record.descriptor
        if isinstance(record.patch, DescriptorPatch):
            descriptor = apply_patch(self.descriptors.get(call_id), record.patch)
        if isinstance(descriptor, Descriptor):
            self.descriptors[call_id] = descriptor
        else:
            self.descriptors.pop(call_id, None)
        return text, descriptor
