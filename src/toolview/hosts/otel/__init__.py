"""OpenTelemetry GenAI spans as a toolview host (sans-IO).

See docs/otlp.md. ``map_span`` turns one finished span into observations:
an ``execute_tool`` span into its tool call and result, a model call's span
into its token usage, an ``invoke_agent`` span into its run's start and end
(OpenInference's ``TOOL`` and ``LLM`` spans are read too). ``map_export``
maps one export's spans, each to its thread (``thread_id_for``: the
conversation's, else the trace's). The spans are ``TelemetrySpan`` values,
so nothing here needs protobuf or the OpenTelemetry SDK; ``toolview serve``
decodes OTLP into them (``toolview.server.ingest.otlp_decode``). Agents' OTLP
log events (Claude Code's, Codex's) map through ``map_log_export``
(``TelemetryLog`` records).
"""

from toolview.hosts.otel.export import Export, map_export
from toolview.hosts.otel.genai import MappedSpan, map_span
from toolview.hosts.otel.logs import TelemetryLog, map_log, map_log_export
from toolview.hosts.otel.spans import (
    SpanEvent,
    SpanStatus,
    TelemetrySpan,
    Unmappable,
    at_from_nanos,
)
from toolview.hosts.otel.threads import conversations, thread_id_for
from toolview.hosts.otel.usage import CHAT_OPERATIONS

__all__ = [
    "CHAT_OPERATIONS",
    "Export",
    "MappedSpan",
    "SpanEvent",
    "SpanStatus",
    "TelemetryLog",
    "TelemetrySpan",
    "Unmappable",
    "at_from_nanos",
    "conversations",
    "map_export",
    "map_log",
    "map_log_export",
    "map_span",
    "thread_id_for",
]
