"""One export's spans as observations per thread, and the spans that could not be shown.

Spans are mapped in the order they ended, whatever the order of the batch:
that is the order an exporter sending each span as it ends would give, so a
thread reads the same whether the spans came one at a time or in batches (an
agent run, which ends after its calls, closes the thread's part for it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from toolview.hosts.otel.genai import MappedSpan, Unmappable, map_span
from toolview.hosts.otel.spans import TelemetrySpan
from toolview.hosts.otel.threads import conversations, thread_id_for

__all__ = ["Export", "map_export"]


@dataclass
class Export:
    """What an export became: ``(thread id, span)`` in order, and why others were rejected."""

    mapped: list[tuple[str, MappedSpan]] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)

    def thread_ids(self) -> list[str]:
        """The threads this export writes to, each once, in order of first use."""
        return list(dict.fromkeys(thread_id for thread_id, _ in self.mapped))


def map_export(spans: Sequence[TelemetrySpan]) -> Export:
    """Every span of one export mapped (``map_span``), each to its thread (``thread_id_for``)."""
    conversation = conversations(spans)
    export = Export()
    for span in sorted(spans, key=lambda s: s.end_ns):
        try:
            mapped = map_span(span)
        except Unmappable as exc:
            export.rejected.append(str(exc))
            continue
        if mapped is not None:
            thread_id = thread_id_for(span.trace_id, conversation.get(span.trace_id))
            export.mapped.append((thread_id, mapped))
    return export
