"""GenAI semantic-convention spans as observations (sans-IO).

An ``execute_tool`` span is one finished tool call: a ``tool-call`` at its
start and a ``tool-result`` at its end (an error, with the failure's message,
when the span failed; ``hosts.otel.tools``). A model call's span (``chat``
and its kin) carries the token usage: a ``usage`` observation
(``hosts.otel.usage``). An agent's ``invoke_agent`` span is its run's start
and end (``hosts.otel.runs``). A span with no ``gen_ai.operation.name`` is
read by OpenInference's span kind (``TOOL``, ``LLM``). Any other span is not
toolview's to show and maps to nothing. A GenAI span that cannot be shown
(ids of the wrong size, a tool with no name) raises ``Unmappable``, so a
receiver can count it as rejected, never half-stored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from toolview.contract import Observation, ObservationError, decode_observation, encode_observation
from toolview.hosts.otel.runs import agent_run
from toolview.hosts.otel.spans import TelemetrySpan, Unmappable
from toolview.hosts.otel.tools import OPENINFERENCE_TOOL, tool_call
from toolview.hosts.otel.usage import CHAT_OPERATIONS, OPENINFERENCE_USAGE, has_usage, usage

__all__ = ["CHAT_OPERATIONS", "MappedSpan", "Unmappable", "map_span", "validated"]

OPERATION: Final = "gen_ai.operation.name"
_TRACE_ID: Final = re.compile(r"(?!0{32})[0-9a-f]{32}")
_SPAN_ID: Final = re.compile(r"(?!0{16})[0-9a-f]{16}")
SPAN_KIND: Final = "openinference.span.kind"


@dataclass(frozen=True)
class MappedSpan:
    """What one span became: its observations and the key that stores them once.

    ``key`` is the span's identity (trace and span id): a span sent again (an
    exporter's retry) maps to the same observations under the same key.
    """

    key: str
    observations: tuple[Observation, ...]


def map_span(span: TelemetrySpan) -> MappedSpan | None:
    """The span's observations, ``None`` for a span that is not a tool, model or agent call."""
    observations = _observations(span)
    if not observations:
        return None
    _check_ids(span)
    return MappedSpan(f"otlp-{span.trace_id}-{span.span_id}", validated(observations))


def _observations(span: TelemetrySpan) -> tuple[Observation, ...]:
    """By ``gen_ai.operation.name``; without one, by OpenInference's span kind."""
    operation = span.text(OPERATION)
    kind = span.text(SPAN_KIND) if operation is None else None
    if operation == "execute_tool":
        return tool_call(span)
    if kind == "TOOL":
        return tool_call(span, OPENINFERENCE_TOOL)
    if operation == "invoke_agent":
        return agent_run(span)
    if kind == "LLM":
        counted = usage(span, OPENINFERENCE_USAGE)
    elif operation in CHAT_OPERATIONS or (operation is None and has_usage(span)):
        counted = usage(span)
    else:
        return ()
    return () if counted is None else (counted,)


def _check_ids(span: TelemetrySpan) -> None:
    if not _TRACE_ID.fullmatch(span.trace_id):
        raise Unmappable(f"trace id {span.trace_id[:64]!r} is not 16 bytes (32 hex digits)")
    if not _SPAN_ID.fullmatch(span.span_id):
        raise Unmappable(f"span id {span.span_id[:32]!r} is not 8 bytes (16 hex digits)")


def validated(observations: tuple[Observation, ...]) -> tuple[Observation, ...]:
    """Each observation as the contract reads it off the wire, or ``Unmappable`` naming why.

    Why the round trip: an observation built in Python is not validated, and
    the server must store only what its observations endpoint would accept.
    """
    try:
        return tuple(decode_observation(encode_observation(o)) for o in observations)
    except ObservationError as exc:
        raise Unmappable(f"{exc.path}: {exc.reason}") from None
