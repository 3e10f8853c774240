"""Agents' OpenTelemetry log events (Claude Code, Codex) as observations (sans-IO).

Why logs and not spans: Claude Code and Codex export their tool events as
OTLP *log records* (``claude_code.tool_result``, ``codex.tool_result``), one
record per finished call, with the call's id, tool name, success and
duration. A record becomes the same ``tool-call`` and ``tool-result`` the
session file gives (same call id, tool name and failure), dated from the
record's time back by its duration; ``claude_code.api_request`` (and
``codex.sse_event`` with token counts) becomes a ``usage``. Records are keyed
by a digest of their content, so a retried export stores nothing twice. The
thread is the session's: ``otel-<session.id>`` (Codex: ``conversation.id``),
as ``thread_id_for`` makes it for spans.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

import msgspec

from toolview.contract import Observation, ToolCall, ToolResult, Usage
from toolview.hosts.otel.export import Export
from toolview.hosts.otel.genai import MappedSpan, validated
from toolview.hosts.otel.spans import Unmappable, span_at
from toolview.hosts.otel.threads import thread_id_for
from toolview.hosts.otel.values import json_args

__all__ = ["TelemetryLog", "map_log", "map_log_export"]

_SESSIONS: Final = ("session.id", "conversation.id")
_TOOL_RESULTS: Final = frozenset({"claude_code.tool_result", "codex.tool_result"})
_USAGE: Final = frozenset({"claude_code.api_request", "codex.sse_event"})
_NS_PER_MS: Final = 1_000_000


@dataclass(frozen=True)
class TelemetryLog:
    """One log record: its time (ns since the epoch, 0: unknown), body and attributes."""

    time_ns: int = 0
    body: object = None
    attributes: Mapping[str, object] = field(default_factory=dict)

    def text(self, key: str) -> str | None:
        """The attribute ``key`` as non-empty text (numbers too: agents send counts as text)."""
        value = self.attributes.get(key)
        if isinstance(value, bool) or value is None or value == "":
            return None
        return value if isinstance(value, str) else str(value)

    def count(self, key: str) -> int | None:
        """The attribute ``key`` as a whole number ≥ 0 (text or number), else ``None``."""
        text = self.text(key)
        return int(text) if text is not None and text.isdigit() else None

    def event(self) -> str:
        """``claude_code.tool_result`` and kin: the body, else ``event.name``."""
        return self.body if isinstance(self.body, str) else self.text("event.name") or ""


def map_log(record: TelemetryLog) -> MappedSpan | None:
    """The record's observations, ``None`` for an event that is not a tool result or usage."""
    event = record.event()
    if event in _TOOL_RESULTS:
        observations: tuple[Observation, ...] = _tool(record)
    elif event in _USAGE:
        observations = _usage(record)
    else:
        return None
    if not observations:
        return None
    return MappedSpan(f"otlp-log-{_digest(record)}", validated(observations))


def map_log_export(records: Sequence[TelemetryLog]) -> Export:
    """Every record of one export mapped, in time order, each to its session's thread."""
    export = Export()
    for record in sorted(records, key=lambda r: r.time_ns):
        session = next(filter(None, map(record.text, _SESSIONS)), None)
        try:
            mapped = map_log(record)
            if mapped is not None and session is None:
                raise Unmappable(f"{record.event()} names no session.id")
        except Unmappable as exc:
            export.rejected.append(str(exc))
            continue
        if mapped is not None and session is not None:
            export.mapped.append((thread_id_for("", session), mapped))
    return export


def _tool(record: TelemetryLog) -> tuple[Observation, ...]:
    """The call (dated its duration before the record) and its result, a failure as an error."""
    call_id = record.text("tool_use_id") or record.text("call_id")
    name = record.text("tool_name")
    if call_id is None or name is None:
        raise Unmappable(f"{record.event()} names no tool_use_id or no tool_name")
    failed = record.text("success") == "false"
    took = (record.count("duration_ms") or 0) * _NS_PER_MS
    given = (record.attributes.get(key) for key in ("tool_input", "arguments", "tool_parameters"))
    args = json_args(next((value for value in given if value), None))
    error = record.text("error") or record.text("error_type") or "the tool failed"
    text = error if failed else record.text("output") or ""
    start = record.time_ns - took if record.time_ns > took else record.time_ns
    call = ToolCall(tool_call_id=call_id, tool_name=name, args=args, at=span_at(start))
    result = ToolResult(
        tool_call_id=call_id,
        tool_name=name,
        text=text,
        complete=True,
        is_error=failed,
        at=span_at(record.time_ns),
    )
    return call, result


def _usage(record: TelemetryLog) -> tuple[Observation, ...]:
    """A model call's tokens (Claude Code's names, else Codex's), input without the cached.

    Claude Code 2.1.197's ``api_request`` sends the API's own ``input_tokens`` (cache
    reads and writes apart, as its session file has them); Codex's ``sse_event`` counts
    the cached tokens inside ``input_token_count`` (OpenAI's reading, as its rollout's
    ``token_count`` does), so they come off here as ``hosts.codex.events`` takes them off:
    priced twice they would cost an OTLP thread more than its file.
    """
    claude = record.count("input_tokens")
    given = claude if claude is not None else record.count("input_token_count")
    output = _first(record, "output_tokens", "output_token_count")
    if given is None and output is None:
        return ()
    read = _first(record, "cache_read_tokens", "cached_token_count")
    if claude is None and given is not None:
        given = max(0, given - (read or 0))
    write = _first(record, "cache_creation_tokens", "cache_write_token_count")
    counted = Usage(
        model=record.text("model") or "unknown",
        input_tokens=given or 0,
        output_tokens=output or 0,
        cache_read_tokens=msgspec.UNSET if read is None else read,
        cache_write_tokens=msgspec.UNSET if write is None else write,
        at=span_at(record.time_ns),
    )
    return (counted,)


def _first(record: TelemetryLog, *keys: str) -> int | None:
    return next((n for n in map(record.count, keys) if n is not None), None)


def _digest(record: TelemetryLog) -> str:
    """The record's identity: a retry sends the same time, body and attributes."""
    content = (record.time_ns, record.body, sorted(record.attributes.items(), key=lambda kv: kv[0]))
    return hashlib.sha256(msgspec.json.encode(content)).hexdigest()[:40]
