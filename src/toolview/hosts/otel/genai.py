"""GenAI semantic-convention spans as observations (sans-IO).

An ``execute_tool`` span is one finished tool call: a ``tool-call`` at its
start and a ``tool-result`` at its end (an error, with the failure's message,
when the span failed). A model call's span (``chat`` and its kin) carries the
token usage: a ``usage`` observation (``hosts.otel.usage``). An agent's
``invoke_agent`` span is its run's start and end (``hosts.otel.runs``). Any
other span is not toolview's to show and maps to nothing. A GenAI span that
cannot be shown (ids of the wrong size, a tool with no name) raises
``Unmappable``, so a receiver can count it as rejected, never half-stored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from toolview.contract import (
    Observation,
    ObservationError,
    ToolCall,
    ToolResult,
    decode_observation,
    encode_observation,
)
from toolview.hosts.otel.runs import agent_run
from toolview.hosts.otel.spans import TelemetrySpan, span_at
from toolview.hosts.otel.usage import CHAT_OPERATIONS, has_usage, usage
from toolview.hosts.otel.values import error_text, json_args, result_text

__all__ = ["CHAT_OPERATIONS", "MappedSpan", "Unmappable", "map_span"]

OPERATION: Final = "gen_ai.operation.name"
_TRACE_ID: Final = re.compile(r"(?!0{32})[0-9a-f]{32}")
_SPAN_ID: Final = re.compile(r"(?!0{16})[0-9a-f]{16}")
_TOOL_PREFIX: Final = "execute_tool "


class Unmappable(ValueError):
    """A GenAI span toolview cannot show; the message says why."""


@dataclass(frozen=True)
class MappedSpan:
    """What one span became: its observations and the key that stores them once.

    ``key`` is the span's identity (trace and span id): a span sent again (an
    exporter's retry) maps to the same observations under the same key.
    """

    key: str
    observations: tuple[Observation, ...]


def map_span(span: TelemetrySpan) -> MappedSpan | None:
    """The span's observations, ``None`` for a span that is not a tool or model call."""
    operation = span.text(OPERATION)
    if operation == "execute_tool":
        observations = _tool_call(span)
    elif operation == "invoke_agent":
        observations = agent_run(span)
    elif operation in CHAT_OPERATIONS or (operation is None and has_usage(span)):
        counted = usage(span)
        if counted is None:
            return None
        observations = (counted,)
    else:
        return None
    _check_ids(span)
    return MappedSpan(f"otlp-{span.trace_id}-{span.span_id}", _validated(observations))


def _tool_call(span: TelemetrySpan) -> tuple[Observation, ...]:
    name = span.text("gen_ai.tool.name") or span.name.removeprefix(_TOOL_PREFIX).strip()
    if not name or name == "execute_tool":
        raise Unmappable(f"execute_tool span {span.span_id} names no tool (gen_ai.tool.name)")
    call_id = span.text("gen_ai.tool.call.id") or span.span_id
    if call_id in (".", ".."):
        raise Unmappable(f"a tool call id may not be {call_id!r}")
    failure = error_text(span)
    text = failure if failure is not None else result_text(span)
    args = json_args(span.attributes.get("gen_ai.tool.call.arguments"))
    call = ToolCall(tool_call_id=call_id, tool_name=name, args=args, at=span_at(span.start_ns))
    result = ToolResult(
        tool_call_id=call_id,
        tool_name=name,
        text=text,
        complete=True,
        is_error=failure is not None,
        at=span_at(span.end_ns),
    )
    return call, result


def _check_ids(span: TelemetrySpan) -> None:
    if not _TRACE_ID.fullmatch(span.trace_id):
        raise Unmappable(f"trace id {span.trace_id[:64]!r} is not 16 bytes (32 hex digits)")
    if not _SPAN_ID.fullmatch(span.span_id):
        raise Unmappable(f"span id {span.span_id[:32]!r} is not 8 bytes (16 hex digits)")


def _validated(observations: tuple[Observation, ...]) -> tuple[Observation, ...]:
    """Each observation as the contract reads it off the wire, or ``Unmappable`` naming why.

    Why the round trip: an observation built in Python is not validated, and
    the server must store only what its observations endpoint would accept.
    """
    try:
        return tuple(decode_observation(encode_observation(o)) for o in observations)
    except ObservationError as exc:
        raise Unmappable(f"{exc.path}: {exc.reason}") from None
