"""An agent's run (an ``invoke_agent`` span) as its start and end.

Why: a run that an exception aborted says so at its end, with the reason
(``Type: message``, never the stack), as ``capture()`` and the CLI's runs
do. The span ends after its tool calls, so both observations arrive after
them: the start is dated at the span's start, the end at its end.
"""

from __future__ import annotations

from toolview.contract import Observation, RunEnded, RunStarted
from toolview.hosts.otel.spans import TelemetrySpan, span_at
from toolview.hosts.otel.values import error_text

__all__ = ["agent_run"]


def agent_run(span: TelemetrySpan) -> tuple[Observation, ...]:
    """``run-started`` and ``run-ended`` (``error`` with its reason if the span failed)."""
    run_id = span.text("gen_ai.agent.call.id") or span.span_id
    started = RunStarted(run_id=run_id, at=span_at(span.start_ns))
    failure = error_text(span)
    if failure is None:
        return started, RunEnded(run_id=run_id, outcome="completed", at=span_at(span.end_ns))
    ended = RunEnded(run_id=run_id, outcome="error", reason=failure, at=span_at(span.end_ns))
    return started, ended
